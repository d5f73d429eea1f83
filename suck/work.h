/* work: what suck does with every datagram, the same for every variant.
 * histogram counts each byte value (the 2014 something.lua); checksum sums the bytes as
 * 32-bit words; none does nothing. NAME:N repeats the work N times, to model a consumer
 * N times slower. The digest folds the work's state into one number that is reported, so
 * the compiler cannot prove the work useless and drop it. */
#ifndef WORK_H
#define WORK_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum work_kind { WORK_NONE, WORK_HISTOGRAM, WORK_CHECKSUM };
extern const char *const work_names[]; /* "none", "histogram", "checksum", NULL */

#define WORK_MAX_REPS 1000000u

struct work {
	enum work_kind kind;
	unsigned reps;
	uint64_t sum;
	uint64_t hist[256];
};

/* "histogram", "checksum:20", ...; NULL or why it is not a work spec. */
const char *work_parse(const char *spec, struct work *w);
void work_spec(const struct work *w, char *buf, size_t len); /* back to "histogram:20" */
uint64_t work_digest(const struct work *w);
void work_merge(struct work *dst, const struct work *src);
uint64_t work_checksum(const uint8_t *p, size_t n, uint64_t seed);

static inline void work_run(struct work *w, const uint8_t *p, size_t n)
{
	switch (w->kind) {
	case WORK_NONE:
		break;
	case WORK_HISTOGRAM:
		for (unsigned r = 0; r < w->reps; r++)
			for (size_t i = 0; i < n; i++)
				w->hist[p[i]]++;
		break;
	case WORK_CHECKSUM:
		for (unsigned r = 0; r < w->reps; r++)
			w->sum = work_checksum(p, n, w->sum);
		break;
	}
}

#endif
