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
