/* rate: pacing (-r) checked once per send call, on the monotonic clock. The run's datagrams
 * have fixed due times, datagram k at t0 + k / rate, shared out round robin (flow i takes
 * i, i + flows, ...): so over all flows a run never sends more than rate x time + 1, whatever
 * the number of flows, and no flow starts with a burst. A call sends what is due; after a stall
 * (a descheduled thread, a full socket buffer) at most a millisecond's worth of overdue datagrams
 * go at once and the rest are skipped, so blast goes on at the rate instead of catching up in a
 * burst. When nothing is due it sleeps (never spins), but never past the deadline and never
 * longer than RATE_SLICE_NS: a signal wakes only one thread, and the others must see sys_stop.
 * The sleep ends within the timer slack, which rate_prepare sets to 1 ns.
 * --pattern other than even: the flow's own events (pattern.c), each sent when due, back to
 * back; after a stall the events more than a millisecond overdue are moved on, not sent at once,
 * as above (poisson: the next one to a millisecond ago, which its lack of memory allows; burst
 * and frames: to the first of their period due within the last millisecond, or the newest),
 * and a burst or frame once begun is sent whole. */
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
	r->sched.kind = PATTERN_EVEN; /* pattern_init sets another */
	/* A millisecond's worth absorbs the timer's oversleep; at least one, so that a late wake
	 * still sends the datagram it woke for. */
	r->catchup = (uint64_t)(pps / flows * ((double)RATE_CATCHUP_NS / 1e9));
	if (r->catchup < 1)
		r->catchup = 1;
}

uint64_t rate_due_ns(const struct rate *r)
{
	if (r->sched.kind != PATTERN_EVEN)
		return r->sched.due;
	return r->t0 + (uint64_t)(((double)r->next * r->flows + r->phase) * 1e9 / r->pps);
}

/* Sleeps until until, the deadline or a slice from now, whichever comes first; *now read. */
static void rate_sleep(const struct rate *r, uint64_t until, uint64_t *now)
{
	struct timespec ts;

	if (r->deadline && until > r->deadline)
		until = r->deadline;
	if (until > *now + RATE_SLICE_NS)
		until = *now + RATE_SLICE_NS;
	ts.tv_sec = (time_t)(until / 1000000000ull);
	ts.tv_nsec = (long)(until % 1000000000ull);
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL); /* EINTR too: the caller looks */
	*now = sys_mono_ns();
}

/* A stall: the flow's next event, not yet begun, moved on (see the top). */
static void sched_skip(struct sched *s, uint64_t now)
{
	double late, x;
	uint64_t newest, recent;

	if (s->kind == PATTERN_POISSON) {
		s->due = now - RATE_CATCHUP_NS;
		return;
	}
	late = (double)(now - s->t0);
	newest = (uint64_t)(late / s->period);
	x = (late - (double)RATE_CATCHUP_NS) / s->period;
	recent = (uint64_t)x;
	if ((double)recent < x)
		recent++;
	if (recent > newest)
		recent = newest;
	if (recent > s->k) {
		s->k = recent;
		s->due = s->t0 + (uint64_t)((double)s->k * s->period);
	}
}

static unsigned sched_take(struct rate *r, unsigned want, uint64_t *now)
{
	struct sched *s = &r->sched;
	unsigned n = 0;

	while (n < want) {
		unsigned k;
		if (s->left == s->size && s->due + RATE_CATCHUP_NS < *now)
			sched_skip(s, *now);
		if (s->due > *now)
			break;
		k = s->left < want - n ? s->left : want - n;
		n += k;
		s->left -= k;
		if (!s->left)
			pattern_next(s);
	}
	if (!n)
		rate_sleep(r, s->due, now);
	return n;
}

/* This flow's datagrams due by now (of the whole run's, round robin), a stall's overdue ones
 * beyond the catch-up skipped. */
static uint64_t due_by(struct rate *r, uint64_t now)
{
	double run = now > r->t0 ? (double)(now - r->t0) * r->pps / 1e9 : 0;
	uint64_t due = run < r->phase ? 0 : (uint64_t)((run - r->phase) / r->flows) + 1;

	if (due > r->next + r->catchup)
		r->next = due - r->catchup;
	return due;
}

unsigned rate_poll(struct rate *r, uint64_t now)
{
	if (due_by(r, now) <= r->next)
		return 0;
	r->next++;
	return 1;
}

unsigned rate_take(struct rate *r, unsigned want, uint64_t *now)
{
	uint64_t due;

	if (r->sched.kind != PATTERN_EVEN)
		return sched_take(r, want, now);
	due = due_by(r, *now);
	if (due > r->next) {
		if (due - r->next < want)
			want = (unsigned)(due - r->next);
		r->next += want;
		return want;
	}
	/* +1: the due time is rounded down, and waking before it would only sleep again */
	rate_sleep(r, rate_due_ns(r) + 1, now);
	return 0;
}
