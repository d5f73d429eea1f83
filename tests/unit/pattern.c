/* Unit tests for blast/pattern.c and its schedules in rate.c: the specs (good ones, and bad ones
 * refused with a reason), the rules against other options (pattern_plan: frames' rate, a
 * burst's call), the logarithm against known values, the draws' moments (exponential:
 * mean 1, cv 1; normal: 0 and 1), frames' mean datagrams, and each pattern's schedule taken on
 * made-up times as rate.c's unit test does: bursts whole and interleaved over flows, frames of
 * their drawn sizes at FPS, Poisson at its mean rate with its cv 1, the same seed the same
 * schedule, a stall's skip, and the schedule's own figures (sched.drawn). */
#include <stdint.h>
#include <string.h>

#include "blast.h"
#include "unit.h"

#define MS 1000000ull
#define S  1000000000ull
#define T0 1000ull

static int near(double v, double want, double tol)
{
	return v >= want - tol && v <= want + tol;
}

static void test_parse(void)
{
	static const char *const bad[] = { "", "odd", "poisson:x", "poisson:", "even:1", "burst", "burst:",
					   "burst:0", "burst:x", "burst:65537", "burst:1:2", "frames",
					   "frames:0:1:1", "frames:30:0:0", "frames:30:100", "frames:30:1:1:1",
					   "frames:x:1:1", "frames:30:1:-1", "frames:1000001:1:1",
					   "frames:30:2G:0", "burst:00000000000000000000000000000000000000000000000000000000000000001" };
	struct blast_pattern p;
	char err[160];

	CHECK(pattern_parse("even", &p, err, sizeof err) == 0 && p.kind == PATTERN_EVEN, "even");
	CHECK(pattern_parse("poisson", &p, err, sizeof err) == 0 && p.kind == PATTERN_POISSON &&
	      strcmp(p.spec, "poisson") == 0, "poisson");
	CHECK(pattern_parse("burst:16", &p, err, sizeof err) == 0 && p.kind == PATTERN_BURST && p.burst == 16, "burst:16");
	CHECK(pattern_parse("burst:1k", &p, err, sizeof err) == 0 && p.burst == 1000, "burst:1k");
	CHECK(pattern_parse("frames:30:20k:5k", &p, err, sizeof err) == 0 && p.kind == PATTERN_FRAMES &&
	      p.fps == 30 && p.mean == 20480 && p.sd == 5120 && strcmp(p.spec, "frames:30:20k:5k") == 0,
	      "frames:30:20k:5k: %llu %llu %llu", (unsigned long long)p.fps, (unsigned long long)p.mean,
	      (unsigned long long)p.sd);
	CHECK(pattern_parse("frames:60:1000:0", &p, err, sizeof err) == 0 && p.sd == 0, "SD 0");
	for (unsigned i = 0; i < sizeof bad / sizeof *bad; i++) {
		err[0] = 0;
		CHECK(pattern_parse(bad[i], &p, err, sizeof err) < 0 && err[0], "'%s' refused: %s", bad[i], err);
	}
	pattern_parse("poisson:x", &p, err, sizeof err);
	CHECK(strstr(err, "no parameter") != NULL, "poisson:x says why: %s", err);
	pattern_parse("burst:0", &p, err, sizeof err);
	CHECK(strstr(err, "1..65536") != NULL, "burst:0 says the range: %s", err);
}

static void test_math(void)
{
	static const struct { double x, ln; } v[] = {
		{ 1, 0 }, { 2, 0.69314718055994530942 }, { 0.5, -0.69314718055994530942 },
		{ 10, 2.30258509299404568402 }, { 1.5, 0.40546510810816438198 },
		{ 0.7, -0.35667494393873237891 }, { 1.4142, 0.34656400018800332 },
		{ 0x1p-53, -36.7368005696771 }, { 1e300, 690.77552789821370 },
	};
	uint64_t x = 1;
	double sum = 0, sumsq = 0, nsum = 0, nsq = 0;
	const int n = 1000000;
	int below = 0;

	for (unsigned i = 0; i < sizeof v / sizeof *v; i++) {
		double got = pattern_ln(v[i].x), tol = v[i].ln ? 2e-15 * (v[i].ln < 0 ? -v[i].ln : v[i].ln) : 1e-300;
		CHECK(near(got, v[i].ln, tol), "ln(%g) = %.17g, want %.17g", v[i].x, got, v[i].ln);
	}
	for (int i = 0; i < n; i++) {
		double e = pattern_exp(&x), z = pattern_normal(&x);
		below += e < 0;
		sum += e;
		sumsq += e * e;
		nsum += z;
		nsq += z * z;
	}
	sum /= n;
	CHECK(below == 0, "exponential draws below 0: %d", below);
	CHECK(near(sum, 1, 0.005), "exponential: mean %g", sum);
	CHECK(near(gaps_sqrt(sumsq / n - sum * sum) / sum, 1, 0.005), "exponential: cv %g",
	      gaps_sqrt(sumsq / n - sum * sum) / sum);
	CHECK(near(nsum / n, 0, 0.005) && near(nsq / n, 1, 0.005), "normal: mean %g, variance %g", nsum / n, nsq / n);
}

static void test_frame_dgrams(void)
{
	struct blast_pattern p;
	char err[160];

	pattern_parse("frames:30:5000:0", &p, err, sizeof err);
	CHECK(pattern_frame_dgrams(&p, 1000) == 5, "5000 B in 1000: 5");
	CHECK(pattern_frame_dgrams(&p, 1450) == 4, "5000 B in 1450: 4 (the last padded)");
	CHECK(pattern_frame_dgrams(&p, 65507) == 1, "a frame smaller than a datagram: 1");
	pattern_parse("frames:30:8000:2000", &p, err, sizeof err);
	/* ceil(N(8, 2)): the mean and half a datagram of rounding up */
	CHECK(near(pattern_frame_dgrams(&p, 1000), 8.5, 0.05), "N(8000, 2000) in 1000: %g",
	      pattern_frame_dgrams(&p, 1000));
	pattern_parse("frames:30:100:10000", &p, err, sizeof err);
	CHECK(pattern_frame_dgrams(&p, 1000) >= 1, "sizes below 0 are a byte: %g", pattern_frame_dgrams(&p, 1000));
}

/* The rules at parsing: what goes with what, frames' rate, a burst's or frame's call. */
static void test_plan(void)
{
	struct blast_cfg c;
	char err[160];
	int batch_set;

#define PLAN(spec, ...) (memset(&c, 0, sizeof c), c.size = 1000, c.batch = 32, batch_set = 0, \
			 pattern_parse(spec, &c.pattern, err, sizeof err), __VA_ARGS__, pattern_plan(&c, &batch_set))
	CHECK(PLAN("even", (void)0) == NULL && !batch_set && c.batch == 32, "even: nothing to plan");
	CHECK(PLAN("poisson", (void)0) != NULL, "poisson without -r refused");
	CHECK(PLAN("burst:8", (void)0) != NULL, "burst without -r refused");
	CHECK(PLAN("poisson", c.rate = 1000) == NULL && !batch_set && c.batch == 32, "poisson: -b as it was");
	CHECK(PLAN("poisson", c.rate = 1000, c.rtt = 1) != NULL, "poisson with --rtt refused");
	CHECK(PLAN("burst:100", c.rate = 1000) == NULL && batch_set && c.batch == 100, "burst:100: one call of 100");
	CHECK(PLAN("burst:5000", c.rate = 1000) == NULL && c.batch == BLAST_MAX_BATCH, "burst:5000: -b at most 1024");
	CHECK(PLAN("burst:8", c.rate = 1000) == NULL && c.batch == 32, "burst:8: -b 32 holds it");
	CHECK(PLAN("burst:100", c.rate = 1000, batch_set = 1) == NULL && c.batch == 32, "burst:100 -b 32: -b kept");
	CHECK(PLAN("burst:1000", c.rate = 1000, c.segs = 8) == NULL && c.batch == 125, "burst:1000 -g 8: 125 messages");
	CHECK(PLAN("frames:100:5000:0", c.rate = 10) != NULL, "frames with -r refused");
	CHECK(PLAN("frames:100:5000:0", c.mix.n = 3) != NULL, "frames with a mix refused");
	CHECK(PLAN("frames:100:5000:0", (void)0) == NULL && c.rate == 500 && c.pattern.frame_dgrams == 5,
	      "frames:100:5000:0 -s 1000: 500/s, %llu", (unsigned long long)c.rate);
	CHECK(PLAN("frames:100:50000:10000", (void)0) == NULL && c.batch == 80 && batch_set,
	      "frames of 50000 +- 10000: a call of 80 (MEAN + 3 SD), %u", c.batch);
	CHECK(PLAN("frames:1000000:1G:0", (void)0) != NULL, "frames above 1G datagrams a second refused");
#undef PLAN
}

/* A flow's schedule: rate_init as main does, then pattern_init. */
static void sched(struct rate *r, const char *spec, struct blast_pattern *p, double pps, unsigned flows,
		  unsigned phase, unsigned size)
{
	char err[160];

	CHECK(pattern_parse(spec, p, err, sizeof err) == 0, "%s: %s", spec, err);
	rate_init(r, pps, flows, phase, T0, 0);
	pattern_init(&r->sched, p, pps, flows, phase, size, T0);
}

static unsigned odd_takes; /* takes that found a due datagram and sent none, or slept */

/* Takes at now, up to want a call, until nothing is due; the datagrams. */
static uint64_t drain(struct rate *r, uint64_t at, unsigned want)
{
	uint64_t total = 0;
	unsigned n;

	for (;;) {
		uint64_t now = at;
		if (rate_due_ns(r) > at)
			return total;
		n = rate_take(r, want, &now);
		if (!n || now != at) {
			odd_takes++;
			return total;
		}
		total += n;
	}
}

static void test_burst(void)
{
	struct blast_pattern p;
	struct rate r, r1;
	uint64_t now;

	/* burst:10 at 1000/s: 10 datagrams every 10 ms, in one call, none between */
	sched(&r, "burst:10", &p, 1000, 1, 0, 100);
	now = T0;
	CHECK(rate_take(&r, 32, &now) == 10, "the first burst whole, at once");
	CHECK(rate_due_ns(&r) == T0 + 10 * MS, "the next 10 ms on: %llu", (unsigned long long)(rate_due_ns(&r) - T0));
	CHECK(drain(&r, T0 + 5 * MS, 32) == 0, "nothing between bursts");
	CHECK(drain(&r, T0 + 10 * MS, 32) == 10, "the second burst");
	/* a burst larger than a call: calls back to back, then nothing */
	sched(&r, "burst:100", &p, 1000, 1, 0, 100);
	now = T0;
	CHECK(rate_take(&r, 32, &now) == 32 && rate_take(&r, 32, &now) == 32 && rate_take(&r, 32, &now) == 32 &&
	      rate_take(&r, 32, &now) == 4, "burst:100 in calls of 32: 32, 32, 32, 4");
	CHECK(rate_due_ns(&r) == T0 + 100 * MS, "then the next at 100 ms");
	/* two flows: the run's bursts 10 ms apart, taken in turn */
	sched(&r, "burst:10", &p, 1000, 2, 0, 100);
	sched(&r1, "burst:10", &p, 1000, 2, 1, 100);
	CHECK(rate_due_ns(&r) == T0 && rate_due_ns(&r1) == T0 + 10 * MS && r.sched.period == 20.0 * MS,
	      "-j 2: flow 0 at 0, flow 1 at 10 ms, each every 20 ms");
	/* the schedule's gaps: per burst one of a period and 9 of 0 */
	for (uint64_t t = 0; t < 10 * S; t += 10 * MS)
		drain(&r, T0 + t, 32);
	CHECK(near(gaps_cv(&r.sched.drawn), 3, 0.01), "burst:10: the schedule's cv sqrt(9), %g",
	      gaps_cv(&r.sched.drawn));
	CHECK(near(gaps_mean(&r.sched.drawn), 2 * MS, 0.01 * MS), "-j 2 at 1000/s: a flow's mean gap 2 ms, %g",
	      gaps_mean(&r.sched.drawn));
}

static void test_frames(void)
{
	struct blast_pattern p;
	struct rate r;
	uint64_t sent = 0;

	/* 100 frames a second of 5000 B in datagrams of 1000: 5 every 10 ms */
	sched(&r, "frames:100:5000:0", &p, 500, 1, 0, 1000);
	CHECK(drain(&r, T0, 32) == 5, "a frame: 5 datagrams");
	CHECK(drain(&r, T0 + 9 * MS, 32) == 0 && drain(&r, T0 + 10 * MS, 32) == 5, "the next 10 ms on");
	/* drawn sizes: the mean of what goes is the parse's estimate */
	sched(&r, "frames:100:8000:2000", &p, 850, 1, 0, 1000);
	for (uint64_t t = 0; t < 100 * S; t += 10 * MS)
		sent += drain(&r, T0 + t, 1024);
	CHECK(near((double)sent / 10000, pattern_frame_dgrams(&p, 1000), 0.1), "10000 frames: %g a frame",
	      (double)sent / 10000);
}

static void test_poisson(void)
{
	struct blast_pattern p;
	struct rate r, same, other;
	uint64_t sent = 0;
	int alike = 1, differ = 0;

	sched(&r, "poisson", &p, 1000, 1, 0, 100);
	sched(&same, "poisson", &p, 1000, 1, 0, 100);
	sched(&other, "poisson", &p, 1000, 2, 1, 100);
	CHECK(r.sched.due > T0, "a Poisson process's first event after a gap of its own");
	for (int i = 0; i < 1000; i++) {
		alike &= r.sched.due == same.sched.due;
		differ |= r.sched.due != other.sched.due;
		pattern_next(&r.sched);
		pattern_next(&same.sched);
		pattern_next(&other.sched);
	}
	CHECK(alike && differ, "the same flow the same schedule, another flow its own");
	/* 100 s at 1000/s, taken every 100 us: about 100000, the gaps' cv near 1 */
	sched(&r, "poisson", &p, 1000, 1, 0, 100);
	for (uint64_t t = 0; t < 100 * S; t += MS / 10)
		sent += drain(&r, T0 + t, 32);
	CHECK(near((double)sent, 100000, 1500), "100 s at 1000/s: %llu sent", (unsigned long long)sent);
	CHECK(near(gaps_mean(&r.sched.drawn), MS, 0.015 * MS), "mean gap %g ns", gaps_mean(&r.sched.drawn));
	CHECK(near(gaps_cv(&r.sched.drawn), 1, 0.015), "cv %g", gaps_cv(&r.sched.drawn));
}

/* A stall: what is more than a millisecond overdue moves on, not out in a burst. */
static void test_skip(void)
{
	struct blast_pattern p;
	struct rate r;
	uint64_t now, n;

	sched(&r, "burst:10", &p, 1000, 1, 0, 100);
	now = T0;
	rate_take(&r, 32, &now);
	/* 105 ms on: bursts 1..10 were due; the newest (100 ms) goes, then 110 ms */
	CHECK(drain(&r, T0 + 105 * MS, 32) == 10, "one burst after the stall, not ten");
	CHECK(rate_due_ns(&r) == T0 + 110 * MS, "then the period goes on: %llu ms",
	      (unsigned long long)((rate_due_ns(&r) - T0) / MS));
	/* a burst already begun is sent whole */
	sched(&r, "burst:100", &p, 1000, 1, 0, 100);
	now = T0;
	rate_take(&r, 32, &now);
	now = T0 + 1000 * MS;
	CHECK(rate_take(&r, 68, &now) == 68, "the rest of a begun burst");
	CHECK(rate_take(&r, 1000, &now) == 100 && rate_due_ns(&r) == T0 + 1100 * MS,
	      "then the newest burst only: %llu ms", (unsigned long long)((rate_due_ns(&r) - T0) / MS));
	sched(&r, "poisson", &p, 1000, 1, 0, 100);
	n = drain(&r, T0 + 10 * S, 1024);
	CHECK(n <= 12, "Poisson 10 s late: about a millisecond's worth, %llu", (unsigned long long)n);
	CHECK(rate_due_ns(&r) > T0 + 10 * S - MS, "and on from there");
}

int main(void)
{
	test_parse();
	test_math();
	test_frame_dgrams();
	test_plan();
	test_burst();
	test_frames();
	test_poisson();
	test_skip();
	CHECK(odd_takes == 0, "every take of a due datagram took one: %u did not", odd_takes);
	return unit_done("pattern");
}
