/* progress: blast's progress lines on stderr (-i): the flows' totals, read without stopping
 * them. One flow on the main thread prints its own lines between send calls (progress_line);
 * with flow threads, the main thread watches (progress_watch) until every flow is done. */
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

#include "blast.h"
#include "sys.h"

static struct {
	struct flow *fs;
	unsigned flows;
	uint64_t every, t0, next, last_sent, last_t;
	_Atomic unsigned running; /* flows still sending */
} prog;

uint64_t progress_start(struct flow *fs, unsigned flows, double interval_s, uint64_t t0)
{
	prog.fs = fs;
	prog.flows = flows;
	prog.every = (uint64_t)(interval_s * 1e9);
	prog.t0 = prog.last_t = t0;
	prog.next = prog.every ? t0 + prog.every : 0;
	atomic_store(&prog.running, flows);
	return prog.next;
}

uint64_t progress_line(uint64_t now)
{
	uint64_t sent = 0;

	for (unsigned i = 0; i < prog.flows; i++)
		sent += atomic_load_explicit(&prog.fs[i].progress_sent, memory_order_relaxed);
	fprintf(stderr, "blast: %7.1f s  sent %12llu  %10.0f pps\n", (double)(now - prog.t0) / 1e9,
		(unsigned long long)sent, (double)(sent - prog.last_sent) * 1e9 / (double)(now - prog.last_t));
	prog.last_sent = sent;
	prog.last_t = now;
	prog.next += prog.every;
	if (prog.next <= now) /* after a stall: no burst of catch-up lines */
		prog.next = now + prog.every;
	return prog.next;
}

void progress_flow_done(void)
{
	atomic_fetch_sub(&prog.running, 1);
}

void progress_watch(void)
{
	/* Wakes every 20 ms: a line is at most that late, and the end of the flows too. */
	while (atomic_load(&prog.running)) {
		struct timespec ts = { 0, 20000000 };
		uint64_t now;

		nanosleep(&ts, NULL);
		if (prog.every && (now = sys_mono_ns()) >= prog.next)
			progress_line(now);
	}
}
