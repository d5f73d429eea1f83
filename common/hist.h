/* hist: a log-linear histogram of durations in ns, for percentiles of many samples in bounded
 * memory: 32 steps per power of two, so a percentile is exact to about 3 % (below 32 ns,
 * exact); recording is a count-leading-zeros and two additions, cheap enough for every send
 * call (blast's gaps) or every datagram (suck --latency). 16 KiB; one per thread, merged. */
#ifndef HIST_H
#define HIST_H
#include <stdint.h>

#define HIST_SUB 32
#define HIST_BUCKETS (64 * HIST_SUB)

struct hist {
	uint64_t n, max_ns;
	unsigned __int128 sum_ns;   /* for the mean; 128 bits: no sample count can wrap it */
	uint64_t count[HIST_BUCKETS];
};

void hist_add(struct hist *h, uint64_t ns);
void hist_merge(struct hist *dst, const struct hist *src);
/* The q-quantile in ns (the lower bound of its bucket, never above the largest sample); 0 when
 * empty. */
uint64_t hist_quantile(const struct hist *h, double q);
double hist_mean(const struct hist *h); /* ns; 0 when empty */

#endif
