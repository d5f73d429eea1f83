/* hog: holds MIB mebibytes of touched memory, then execs a command, as a shell or a script
 * runner that once held much memory would. The tests use it to check that the tools report the
 * peak of their own memory, not what the process held before exec. Not part of the product.
 *
 *   hog MIB COMMAND [ARGS...] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	size_t bytes;
	char *p;

	if (argc < 3) {
		fprintf(stderr, "usage: hog MIB COMMAND [ARGS...]\n");
		return 2;
	}
	bytes = strtoul(argv[1], NULL, 10) << 20;
	p = malloc(bytes);
	if (!p) {
		perror("hog: malloc");
		return 1;
	}
	memset(p, 1, bytes);
	execvp(argv[2], argv + 2);
	perror("hog: exec");
	return 127;
}
