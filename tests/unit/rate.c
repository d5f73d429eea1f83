/* Unit tests for blast/rate.c: the run's schedule shared out over flows (no first burst, never
 * more than rate x time + 1 in all), the catch-up limit, the cap at want, and sleeps bounded by
 * the deadline and by the slice. Most checks run on made-up times just after boot: a sleep
 * towards one of them is in the past and returns at once. */
#include <stdint.h>
#include <time.h>

#include "blast.h"
#include "sys.h"
#include "unit.h"

#define MS 1000000ull
#define S  1000000000ull
#define T0 1000ull

/* -r 1: one datagram at the start, the next a second later, nothing between. */
static void test_sparse(void)
{
	struct rate r;
	uint64_t now = T0;

	rate_init(&r, 1, 1, 0, T0, 0);
	CHECK(rate_take(&r, 32, &now) == 1, "the start: one datagram, not a call's worth");
	now = T0 + S / 2;
	CHECK(rate_take(&r, 32, &now) == 0, "half a second in: nothing due");
	CHECK(now != T0 + S / 2, "a take that slept reads the clock again");
	now = T0 + S;
	CHECK(rate_take(&r, 32, &now) == 1, "one second in: the second datagram");
	CHECK(rate_due_ns(&r) == T0 + 2 * S, "the third is due at 2 s: %llu", (unsigned long long)(rate_due_ns(&r) - T0));
}

/* One round: every flow whose next datagram is due at now takes what it may (a flow with
 * nothing due is skipped: its take would sleep). */
static void take_all(struct rate *r, unsigned flows, uint64_t now, uint64_t *per_flow, uint64_t *total)
{
	for (unsigned i = 0; i < flows; i++) {
		uint64_t t = now;
		unsigned n;
		if (rate_due_ns(&r[i]) > now)
			continue;
		n = rate_take(&r[i], 32, &t);
		CHECK(n > 0 && t == now, "flow %u at %llu ns: due, yet %u taken", i,
		      (unsigned long long)(now - T0), n);
		per_flow[i] += n;
		*total += n;
	}
}

/* A round every half millisecond and a last one 1 ns before the deadline: the total is what
 * the rate allows, evenly shared. */
static uint64_t run(double pps, unsigned flows, uint64_t len, uint64_t *per_flow)
{
	struct rate r[64];
	uint64_t total = 0;

	for (unsigned i = 0; i < flows; i++) {
		rate_init(&r[i], pps, flows, i, T0, T0 + len);
		per_flow[i] = 0;
	}
	for (uint64_t now = T0; now < T0 + len; now += MS / 2)
		take_all(r, flows, now, per_flow, &total);
	take_all(r, flows, T0 + len - 1, per_flow, &total);
	return total;
}

static void test_shared(void)
{
	uint64_t per[64], total;

	total = run(1000, 4, S, per);
	CHECK(total == 1000, "-r 1000 -j 4 -t 1: %llu sent", (unsigned long long)total);
	for (unsigned i = 0; i < 4; i++)
		CHECK(per[i] == 250, "flow %u sent %llu, want 250", i, (unsigned long long)per[i]);
	total = run(1, 64, S / 10, per);
	CHECK(total == 1, "-r 1 -j 64 -t 0.1: %llu sent, want 1", (unsigned long long)total);
	total = run(10, 3, S, per);
	CHECK(total == 10, "-r 10 -j 3 -t 1: %llu sent", (unsigned long long)total);
	total = run(100000, 7, S / 10, per);
	CHECK(total == 10000, "-r 100k -j 7 -t 0.1: %llu sent", (unsigned long long)total);
}

/* After a stall only a millisecond's worth goes at once, and want caps a call. */
static void test_catchup(void)
{
	struct rate r;
	uint64_t now = T0 + 10 * MS;

	rate_init(&r, 1e6, 1, 0, T0, 0);
	CHECK(rate_take(&r, 100000, &now) == 1000, "10 ms late at 1M/s: 1000 at once");
	CHECK(rate_take(&r, 100000, &now) == 0, "then nothing is due");
	rate_init(&r, 1e6, 1, 0, T0, 0);
	now = T0 + 10000; /* 10 us: datagrams 0..10 are due */
	CHECK(rate_take(&r, 4, &now) == 4, "want caps the call");
	CHECK(rate_take(&r, 100, &now) == 7, "the rest of what is due");
	rate_init(&r, 1e9, 64, 63, T0, 0);
	now = T0 + S;
	CHECK(rate_take(&r, 1024, &now) == 1024, "-r 1G -j 64: a whole call");
	rate_init(&r, 10, 1, 0, T0, 0);
	now = T0 + 100 * S;
	CHECK(rate_take(&r, 32, &now) == 1, "-r 10, 100 s late: one, no burst");
}

/* -n 10 -r 10: the window ends where the eleventh would be due, 1 s. */
static void test_due(void)
{
	struct rate r;

	rate_init(&r, 3, 1, 0, T0, 0);
	for (int k = 0; k < 10; k++) {
		uint64_t now = rate_due_ns(&r) + 1;
		CHECK(rate_take(&r, 1, &now) == 1, "-r 3: datagram %d at its due time", k);
	}
	CHECK(rate_due_ns(&r) - T0 == 3333333333ull, "-r 3: the eleventh at 3.33 s: %llu",
	      (unsigned long long)(rate_due_ns(&r) - T0));
}

/* Real sleeps: the deadline and the slice bound them (generous upper bounds, a busy machine). */
static void test_sleep(void)
{
	struct rate r;
	uint64_t t0 = sys_mono_ns(), now = t0;

	rate_init(&r, 1, 1, 0, t0, t0 + 10 * MS);
	CHECK(rate_take(&r, 32, &now) == 1, "the first goes at once");
	CHECK(rate_take(&r, 32, &now) == 0, "the second is past the deadline");
	CHECK(now >= t0 + 10 * MS && now < t0 + S / 2, "woke at the deadline, not at 1 s: %llu ms",
	      (unsigned long long)((now - t0) / MS));
	t0 = now = sys_mono_ns();
	rate_init(&r, 1, 1, 0, t0, 0);
	CHECK(rate_take(&r, 32, &now) == 1, "the first goes at once");
	CHECK(rate_take(&r, 32, &now) == 0, "no deadline: a slice, then back to the caller");
	CHECK(now >= t0 + 15 * MS && now < t0 + S / 2, "a slice of about 20 ms: %llu ms",
	      (unsigned long long)((now - t0) / MS));
}

int main(void)
{
	test_sparse();
	test_shared();
	test_catchup();
	test_due();
	test_sleep();
	return unit_done("rate");
}
