/* rate: pacing (-r) checked once per send call, on the monotonic clock. The run's datagrams
 * have fixed due times, datagram k at t0 + k / rate, shared out round robin (flow i takes
 * i, i + flows, ...): so over all flows a run never sends more than rate x time + 1, whatever
 * the number of flows, and no flow starts with a burst. A call sends what is due; after a stall
 * (a descheduled thread, a full socket buffer) at most a millisecond's worth of overdue datagrams
 * go at once and the rest are skipped, so blast goes on at the rate instead of catching up in a
 * burst. When nothing is due it sleeps (never spins), but never past the deadline and never
 * longer than RATE_SLICE_NS: a signal wakes only one thread, and the others must see sys_stop. */
#include <time.h>

#include "blast.h"
#include "sys.h"

#define RATE_SLICE_NS   20000000ull /* the longest sleep: how late a flow thread sees a signal */
#define RATE_CATCHUP_NS 1000000ull  /* this long's worth of overdue datagrams may go at once */

void rate_init(struct rate *r, double pps, unsigned flows, unsigned phase, uint64_t t0, uint64_t deadline)
{
	r->pps = pps;
	r->t0 = t0;
	r->deadline = deadline;
	r->flows = flows;
	r->phase = phase;
	r->next = 0;
	/* A millisecond's worth absorbs the timer's oversleep; at least one, so that a late wake
	 * still sends the datagram it woke for. */
	r->catchup = (uint64_t)(pps / flows * ((double)RATE_CATCHUP_NS / 1e9));
	if (r->catchup < 1)
		r->catchup = 1;
}

uint64_t rate_due_ns(const struct rate *r)
{
	return r->t0 + (uint64_t)(((double)r->next * r->flows + r->phase) * 1e9 / r->pps);
}

unsigned rate_take(struct rate *r, unsigned want, uint64_t *now)
{
	/* the datagrams of the whole run due by now, and of them this flow's */
	double run = *now > r->t0 ? (double)(*now - r->t0) * r->pps / 1e9 : 0;
	uint64_t due = run < r->phase ? 0 : (uint64_t)((run - r->phase) / r->flows) + 1;
	uint64_t until;
	struct timespec ts;

	if (due > r->next + r->catchup)
		r->next = due - r->catchup;
	if (due > r->next) {
		if (due - r->next < want)
			want = (unsigned)(due - r->next);
		r->next += want;
		return want;
	}
	/* +1: the due time is rounded down, and waking before it would only sleep again */
	until = rate_due_ns(r) + 1;
	if (r->deadline && until > r->deadline)
		until = r->deadline;
	if (until > *now + RATE_SLICE_NS)
		until = *now + RATE_SLICE_NS;
	ts.tv_sec = (time_t)(until / 1000000000ull);
	ts.tv_nsec = (long)(until % 1000000000ull);
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL); /* EINTR too: the caller looks */
	*now = sys_mono_ns();
	return 0;
}

static unsigned gap_bucket(uint64_t ns)
{
	unsigned msb;

	if (ns < GAP_SUB)
		return (unsigned)ns;
	msb = 63u - (unsigned)__builtin_clzll(ns);
	/* the top bit picks the power of two, the next five bits the step within it */
	return (msb - 4) * GAP_SUB + (unsigned)((ns >> (msb - 5)) & (GAP_SUB - 1));
}

/* The smallest value that falls in bucket b. */
static uint64_t gap_value(unsigned b)
{
	unsigned msb;

	if (b < GAP_SUB)
		return b;
	msb = b / GAP_SUB + 4;
	return (1ull << msb) | (uint64_t)(b % GAP_SUB) << (msb - 5);
}

void gaps_add(struct gaps *g, uint64_t ns)
{
	g->n++;
	g->count[gap_bucket(ns)]++;
	if (ns > g->max_ns)
		g->max_ns = ns;
}

void gaps_merge(struct gaps *dst, const struct gaps *src)
{
	dst->n += src->n;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	for (unsigned i = 0; i < GAP_BUCKETS; i++)
		dst->count[i] += src->count[i];
}

uint64_t gaps_quantile(const struct gaps *g, double q)
{
	uint64_t want = (uint64_t)(q * (double)g->n), seen = 0;

	if (!g->n)
		return 0;
	if (want >= g->n)
		want = g->n - 1;
	for (unsigned i = 0; i < GAP_BUCKETS; i++) {
		seen += g->count[i];
		if (seen > want) {
			uint64_t v = gap_value(i);
			return v < g->max_ns ? v : g->max_ns;
		}
	}
	return g->max_ns;
}
