/* Unit tests for common/gaps.c: the square root, the mean and coefficient of variation of known
 * sets of gaps (even: 0; two values; a geometric's, sqrt 2), a flow's first datagram (no
 * gap), stamps that go back (a gap of 0), the cap, flows apart, and merging two threads. */
#include <stdint.h>
#include <string.h>

#include "gaps.h"
#include "unit.h"

static struct gaps a, b;

static int near(double v, double want, double tol)
{
	return v >= want - tol && v <= want + tol;
}

static void test_sqrt(void)
{
	static const double xs[] = { 1e-300, 1e-9, 0.25, 2, 3, 1e6, 12345.678, 1e300 };

	CHECK(gaps_sqrt(0) == 0 && gaps_sqrt(-1) == 0, "sqrt of 0 and below: 0");
	for (unsigned i = 0; i < sizeof xs / sizeof *xs; i++) {
		double r = gaps_sqrt(xs[i]);
		CHECK(near(r * r / xs[i], 1, 1e-15), "sqrt(%g) = %.17g", xs[i], r);
	}
	CHECK(gaps_sqrt(4) == 2 && gaps_sqrt(1e6) == 1e3, "exact squares exactly");
}

static void test_sum(void)
{
	struct gaps_sum s = { 0 }, t = { 0 };
	uint64_t x = 88172645463325252ull;

	CHECK(gaps_cv(&s) == -1 && gaps_mean(&s) == 0, "no gap: no mean, no cv");
	gaps_sum_add(&s, 1000);
	CHECK(gaps_cv(&s) == -1 && gaps_mean(&s) == 1000, "one gap: its mean, no cv");
	for (int i = 0; i < 999; i++)
		gaps_sum_add(&s, 1000);
	CHECK(gaps_cv(&s) == 0, "even: cv 0, %g", gaps_cv(&s));
	/* half 0, half 2m: mean m, deviation m */
	for (int i = 0; i < 500; i++) {
		gaps_sum_add(&t, 0);
		gaps_sum_add(&t, 100000);
	}
	CHECK(gaps_mean(&t) == 50000 && near(gaps_cv(&t), 1, 1e-12), "0 and 2m: cv 1, %g", gaps_cv(&t));
	memset(&t, 0, sizeof t);
	for (int i = 0; i < 4; i++)
		gaps_sum_add(&t, 0);
	CHECK(gaps_cv(&t) == -1, "all 0: no cv");
	/* 1 ns apart around 1 s: the deviation survives the large mean */
	memset(&t, 0, sizeof t);
	for (int i = 0; i < 1000; i++)
		gaps_sum_add(&t, 1000000000ull + (i & 1) * 2);
	CHECK(near(gaps_cv(&t), 1e-9, 1e-12), "1e9 +- 1: cv 1e-9, %g", gaps_cv(&t));
	gaps_sum_add(&t, UINT64_MAX);
	CHECK(t.sum == (unsigned __int128)1000000000ull * 1000 + 1000 + GAPS_MAX_NS, "a wild gap is capped");
	/* a geometric stand-in for an exponential: 2^-(k+1) of the gaps k units long, cv sqrt 2 */
	memset(&s, 0, sizeof s);
	for (int i = 0; i < 200000; i++) {
		x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
		gaps_sum_add(&s, 1000 * (uint64_t)__builtin_ctzll(x * 0x2545f4914f6cdd1dull | 1ull << 63));
	}
	CHECK(near(gaps_cv(&s), 1.414, 0.02), "geometric(1/2): cv sqrt(2), %g", gaps_cv(&s));
	memset(&t, 0, sizeof t);
	gaps_sum_merge(&t, &s);
	gaps_sum_merge(&t, &s);
	CHECK(t.n == 2 * s.n && near(gaps_cv(&t), gaps_cv(&s), 1e-12), "merged twice: the same cv");
}

static void test_flows(void)
{
	uint64_t t0 = 1700000000000000000ull;

	gaps_add(&a, 3, t0);
	CHECK(a.sum.n == 0, "a flow's first datagram: no gap");
	gaps_add(&a, 3, t0 + 1000);
	gaps_add(&a, 4, t0 + 1500);
	gaps_add(&a, 3, t0 + 3000);
	CHECK(a.sum.n == 2 && gaps_mean(&a.sum) == 1500, "flow 3: 1000 and 2000, flow 4 none: %llu, %g",
	      (unsigned long long)a.sum.n, gaps_mean(&a.sum));
	gaps_add(&a, 3, t0 + 2000);
	CHECK(a.sum.n == 3 && a.hist.count[0] == 1 && a.last[3] == t0 + 2000, "a stamp that goes back: gap 0");
	gaps_add(&b, 4, t0 + 9000);
	gaps_add(&b, 4, t0 + 9100);
	gaps_merge(&a, &b);
	CHECK(a.sum.n == 4 && a.hist.n == 4 && a.last[4] == t0 + 9100, "merged: four gaps, flow 4's last from b");
	CHECK(hist_quantile(&a.hist, 0.99) >= 1900, "p99 the largest, %llu",
	      (unsigned long long)hist_quantile(&a.hist, 0.99));
}

int main(void)
{
	test_sqrt();
	test_sum();
	test_flows();
	return unit_done("gaps");
}
