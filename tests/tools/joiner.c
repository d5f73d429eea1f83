/* joiner: a stranger that joins a port with SO_REUSEPORT, for the tests of suck -j's ownership
 * of its port. Not part of the product; built by `make unit` as bin/joiner.
 *
 *   joiner ADDR PORT SECS   binds ADDR:PORT (0: a free port) with SO_REUSEPORT, says
 *                           "joiner: listening on ADDR:PORT" on stderr (as suck does, so the
 *                           tests wait for it the same way), receives for SECS seconds or
 *                           until SIGINT/SIGTERM, and prints the datagrams it received:
 *                           "DATA OTHER", blast's data datagrams and everything else.
 *
 * Fins count as other: blast repeats its fins until the port refuses them, so once suck has
 * closed its sockets at the end of a run, the fins still coming go to whoever is left.
 *
 * Exit 1 when the bind fails (the port is owned by someone who shares it with none). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "net.h"
#include "wire.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct timeval tick = { .tv_sec = 0, .tv_usec = 20000 };
	struct net_addr a, bound;
	unsigned long long data = 0, other = 0;
	char where[80];
	uint8_t buf[65536];
	const char *err;
	double end;
	int fd, one = 1;

	if (argc != 4) {
		fprintf(stderr, "usage: joiner ADDR PORT SECS\n");
		return 2;
	}
	if ((err = net_resolve(argv[1], (unsigned)atoi(argv[2]), &a))) {
		fprintf(stderr, "joiner: %s: %s\n", argv[1], err);
		return 2;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	fd = socket(a.ss.ss_family, SOCK_DGRAM, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tick, sizeof tick) < 0) {
		perror("joiner: socket");
		return 1;
	}
	net_format(&a, where, sizeof where);
	if (bind(fd, (const struct sockaddr *)&a.ss, a.len) < 0) {
		fprintf(stderr, "joiner: bind %s: %s\n", where, strerror(errno));
		return 1;
	}
	net_local(fd, &bound);
	net_format(&bound, where, sizeof where);
	fprintf(stderr, "joiner: listening on %s\n", where);
	end = now_s() + atof(argv[3]);
	while (!stop && now_s() < end) {
		struct wire_hdr h;
		ssize_t len = recv(fd, buf, sizeof buf, 0);
		if (len < 0)
			continue;
		if (wire_get_hdr(buf, (size_t)len, &h) == 0 && h.type == WIRE_DATA)
			data++;
		else
			other++;
	}
	printf("%llu %llu\n", data, other);
	return 0;
}
