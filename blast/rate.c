/* rate: a token bucket checked once per send call. Tokens accrue at the asked rate; the
 * bucket holds at most a small burst, so after a stall (a descheduled thread, a full socket
 * buffer) blast does not fire a catch-up burst but simply goes on at the rate. When tokens
 * run out it sleeps on the monotonic clock instead of spinning. */
#include <errno.h>
#include <time.h>

#include "blast.h"
#include "sys.h"

void rate_init(struct rate *r, double pps, unsigned per_call, uint64_t now)
{
	r->per_ns = pps / 1e9;
	/* A millisecond's worth, and at least two calls' worth, absorbs the timer's oversleep
	 * without letting a stall turn into a burst. */
	r->burst = pps / 1000;
	if (r->burst < 2.0 * per_call)
		r->burst = 2.0 * per_call;
	r->tokens = per_call;
	r->last_ns = now;
}

unsigned rate_take(struct rate *r, unsigned want, uint64_t *now)
{
	r->tokens += (double)(*now - r->last_ns) * r->per_ns;
	r->last_ns = *now;
	if (r->tokens > r->burst)
		r->tokens = r->burst;
	if (r->tokens < 1) {
		uint64_t wait = (uint64_t)((1 - r->tokens) / r->per_ns) + 1;
		uint64_t until = *now + wait;
		struct timespec ts = { .tv_sec = (time_t)(until / 1000000000ull),
				       .tv_nsec = (long)(until % 1000000000ull) };
		if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			return 0;
		*now = sys_mono_ns();
		r->tokens += (double)(*now - r->last_ns) * r->per_ns;
		r->last_ns = *now;
	}
	if (r->tokens < want)
		want = (unsigned)r->tokens;
	r->tokens -= want;
	return want;
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
