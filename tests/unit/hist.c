/* Unit tests for common/hist.c: percentiles of known samples within the histogram's step
 * (about 3 %), exact below 32 ns, the largest sample and the mean exact, merging. */
#include <stdint.h>
#include <stdlib.h>

#include "hist.h"
#include "unit.h"

/* |got - want| within 1/32 of want (one step of the log-linear histogram) and never above. */
static int within_step(uint64_t got, uint64_t want)
{
	return got <= want && want - got <= want / 32 + 1;
}

static void test_known(void)
{
	static struct hist g;

	CHECK(hist_quantile(&g, 0.5) == 0 && g.max_ns == 0, "empty: 0");
	/* 1..1000 µs, one each: the p50 is 500 µs, the p99 990 µs. */
	for (uint64_t us = 1; us <= 1000; us++)
		hist_add(&g, us * 1000);
	CHECK(g.n == 1000, "n %llu", (unsigned long long)g.n);
	CHECK(within_step(hist_quantile(&g, 0.50), 501000), "p50 %llu", (unsigned long long)hist_quantile(&g, 0.50));
	CHECK(within_step(hist_quantile(&g, 0.99), 991000), "p99 %llu", (unsigned long long)hist_quantile(&g, 0.99));
	CHECK(within_step(hist_quantile(&g, 1.0), 1000000), "p100 %llu", (unsigned long long)hist_quantile(&g, 1.0));
	CHECK(g.max_ns == 1000000, "max exact");
	CHECK(hist_mean(&g) == 500500, "mean exact: %.1f", hist_mean(&g));
}

static void test_small_exact(void)
{
	static struct hist g;

	for (uint64_t ns = 0; ns < 32; ns++)
		hist_add(&g, ns);
	for (unsigned q = 0; q < 32; q++)
		CHECK(hist_quantile(&g, (double)q / 32) == q, "below 32 ns exact: q %u -> %llu", q,
		      (unsigned long long)hist_quantile(&g, (double)q / 32));
}

/* Every value lands in a bucket whose lower bound is within one step below it. */
static void test_every_scale(void)
{
	uint64_t bad = 0;

	for (unsigned shift = 5; shift < 63; shift++)
		for (uint64_t k = 0; k < 200; k++) {
			static struct hist g;
			uint64_t v = (1ull << shift) + k * ((1ull << shift) / 200);
			g.n = 0;
			g.max_ns = UINT64_MAX; /* the quantile is then the bucket's own bound */
			for (unsigned i = 0; i < HIST_BUCKETS; i++)
				g.count[i] = 0;
			hist_add(&g, v);
			g.max_ns = UINT64_MAX;
			if (!within_step(hist_quantile(&g, 0.5), v))
				bad++;
		}
	CHECK(bad == 0, "%llu values outside one step of their bucket", (unsigned long long)bad);
}

static void test_merge(void)
{
	static struct hist a, b;

	for (int i = 0; i < 100; i++)
		hist_add(&a, 1000);
	for (int i = 0; i < 300; i++)
		hist_add(&b, 9000);
	hist_merge(&a, &b);
	CHECK(a.n == 400 && a.max_ns == 9000, "merged n %llu max %llu", (unsigned long long)a.n,
	      (unsigned long long)a.max_ns);
	CHECK(within_step(hist_quantile(&a, 0.2), 1000), "merged p20 %llu", (unsigned long long)hist_quantile(&a, 0.2));
	CHECK(within_step(hist_quantile(&a, 0.5), 9000), "merged p50 %llu", (unsigned long long)hist_quantile(&a, 0.5));
}

int main(void)
{
	test_known();
	test_small_exact();
	test_every_scale();
	test_merge();
	return unit_done("hist");
}
