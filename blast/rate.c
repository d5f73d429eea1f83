/* rate: pacing (-r) checked once per send call, on the monotonic clock. The run's datagrams
 * have fixed due times, datagram k at t0 + k / rate, shared out round robin (flow i takes
 * i, i + flows, ...): so over all flows a run never sends more than rate x time + 1, whatever
 * the number of flows, and no flow starts with a burst. A call sends what is due; after a stall
 * (a descheduled thread, a full socket buffer) at most a millisecond's worth of overdue datagrams
 * go at once and the rest are skipped, so blast goes on at the rate instead of catching up in a
 * burst. When nothing is due it sleeps (never spins), but never past the deadline and never
 * longer than RATE_SLICE_NS: a signal wakes only one thread, and the others must see sys_stop.
 * The sleep ends within the timer slack, which rate_prepare sets to 1 ns. */
#include <sys/prctl.h>
#include <time.h>

#include "blast.h"
#include "sys.h"

#define RATE_SLICE_NS   20000000ull /* the longest sleep: how late a flow thread sees a signal */
#define RATE_CATCHUP_NS 1000000ull  /* this long's worth of overdue datagrams may go at once */

void rate_prepare(void)
{
	/* A sleep ends within the thread's timer slack, 50 us by default: at 20k/s every other
	 * datagram went with the next one, two a call 100 us apart. 1 ns leaves the timer's own
	 * latency, a few us. Set before the flows' threads start, which inherit it. */
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
}

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
