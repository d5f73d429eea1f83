/* Unit tests for common/jitter.c: RFC 3550's J against the textbook recurrence in floating
 * point, a constant transit (no jitter, whatever the clocks' offset), an alternating one (J
 * and every |D| equal to the step), the first datagram (no D), a wild send time (capped), and
 * merging the flows of two threads. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jitter.h"
#include "unit.h"

static struct jitter a, b;

static double now_us(const struct jitter *j, unsigned n)
{
	uint64_t sum;
	unsigned flows;

	jitter_now(j, n, &sum, &flows);
	return flows ? (double)sum / flows / 1e3 : -1;
}

int main(void)
{
	uint64_t t0 = 1700000000000000000ull, rng = 88172645463325252ull;
	double ref = 0;
	int64_t last = 0;

	/* One datagram: no D, no J. */
	jitter_add(&a, 0, t0, t0 + 5000);
	CHECK(now_us(&a, 1) < 0 && a.ipdv.n == 0, "one datagram: no jitter (%g)", now_us(&a, 1));

	/* Constant transit, the receiver's clock 3 s ahead: J 0, |D| 0. */
	memset(&a, 0, sizeof a);
	for (int i = 0; i < 100; i++)
		jitter_add(&a, 0, t0 + (uint64_t)i * 1000000, t0 + (uint64_t)i * 1000000 + 3000000000ull);
	CHECK(now_us(&a, 1) == 0 && a.ipdv.n == 99 && a.ipdv.max_ns == 0, "constant transit: J %g, %llu |D| max %llu",
	      now_us(&a, 1), (unsigned long long)a.ipdv.n, (unsigned long long)a.ipdv.max_ns);

	/* Alternating transit, step 1 ms: every |D| is 1 ms, J climbs to it. */
	memset(&a, 0, sizeof a);
	for (int i = 0; i < 400; i++)
		jitter_add(&a, 1, t0 + (uint64_t)i * 1000000, t0 + (uint64_t)i * 1000000 + 100000 + (i % 2) * 1000000ull);
	CHECK(fabs(now_us(&a, 2) - 1000) < 1, "alternating 1 ms: J %g us", now_us(&a, 2));
	CHECK(hist_quantile(&a.ipdv, 0.5) <= 1000000 && hist_quantile(&a.ipdv, 0.5) > 960000 &&
	      a.ipdv.max_ns == 1000000 && a.ipdv.n == 399, "alternating 1 ms: |D| p50 %llu max %llu n %llu",
	      (unsigned long long)hist_quantile(&a.ipdv, 0.5), (unsigned long long)a.ipdv.max_ns,
	      (unsigned long long)a.ipdv.n);

	/* Random transits: the integer form tracks J += (|D| - J) / 16 in floating point. */
	memset(&a, 0, sizeof a);
	for (int i = 0; i < 10000; i++) {
		int64_t transit;
		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		transit = 50000 + (int64_t)(rng % 2000000);
		jitter_add(&a, 7, t0 + (uint64_t)i * 10000, t0 + (uint64_t)i * 10000 + (uint64_t)transit);
		if (i > 0)
			ref += (fabs((double)(transit - last)) - ref) / 16;
		last = transit;
	}
	CHECK(fabs(now_us(&a, 8) * 1e3 - ref) < 16, "random: J %.1f ns, the recurrence %.1f ns", now_us(&a, 8) * 1e3, ref);

	/* A send time from nowhere: |D| capped, J finite; then a second flow in another thread. */
	memset(&a, 0, sizeof a);
	jitter_add(&a, 0, t0, t0 + 1000);
	jitter_add(&a, 0, 5, t0 + 2000);
	CHECK(a.ipdv.max_ns == JITTER_MAX_D_NS && a.flow[0].j16 == JITTER_MAX_D_NS,
	      "a wild send time is capped: %llu", (unsigned long long)a.ipdv.max_ns);
	memset(&a, 0, sizeof a);
	for (int i = 0; i < 50; i++) {
		jitter_add(&a, 0, t0 + (uint64_t)i * 1000, t0 + (uint64_t)i * 1000 + 10000);
		jitter_add(&b, 3, t0 + (uint64_t)i * 1000, t0 + (uint64_t)i * 1000 + 10000 + (i % 2) * 1600000ull);
	}
	jitter_merge(&a, &b);
	CHECK(a.flow[3].n == 50 && a.flow[0].n == 50 && a.ipdv.n == 98, "merged: flows %llu %llu, |D| %llu",
	      (unsigned long long)a.flow[0].n, (unsigned long long)a.flow[3].n, (unsigned long long)a.ipdv.n);
	CHECK(now_us(&a, 4) > 0 && now_us(&a, 4) < 1600 / 2.0 + 1, "merged: the mean of 0 and flow 3's J: %g us", now_us(&a, 4));
	CHECK(now_us(&a, 3) == 0, "jitter_now looks at the first n flows only: %g", now_us(&a, 3));
	return unit_done("jitter");
}
