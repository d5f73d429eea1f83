/* unit: the smallest test harness that does the job. CHECK prints "ok" or "FAIL" lines that
 * tests/run.sh counts; a unit test program ends with return unit_done(). */
#ifndef UNIT_H
#define UNIT_H
#include <stdio.h>

static int unit_failed, unit_passed;

#define CHECK(cond, ...) do { \
	if (cond) { unit_passed++; } \
	else { unit_failed++; printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
	       printf(__VA_ARGS__); printf("\n"); } \
} while (0)

static inline int unit_done(const char *name)
{
	printf("%s: %d passed, %d failed\n", name, unit_passed, unit_failed);
	return unit_failed ? 1 : 0;
}

#endif
