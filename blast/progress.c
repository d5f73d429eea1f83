/* progress: blast's progress lines on stderr (-i): the flows' totals, read without stopping
 * them. One flow on the main thread prints its own lines between send calls (progress_line);
 * with flow threads, the main thread watches (progress_watch) until every flow is done. With
 * -o tsv or json the lines are rows of that format (tool, t_s, sent, pps), still on stderr. */
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

#include "blast.h"
#include "report.h"
#include "sys.h"

static struct {
	struct flow *fs;
	unsigned flows;
	int fmt;                  /* -o: the lines' format */
	uint64_t every, t0, next, last_sent, last_t, lines;
	_Atomic unsigned running; /* flows still sending */
} prog;

uint64_t progress_start(struct flow *fs, unsigned flows, double interval_s, int fmt, uint64_t t0)
{
	prog.fs = fs;
	prog.fmt = fmt;
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
	double secs = (double)(now - prog.t0) / 1e9;
	double pps = (double)(sent - prog.last_sent) * 1e9 / (double)(now - prog.last_t);

	/* A person's line with -o text; else a row of the report's format, for other tools. */
	if (prog.fmt == REPORT_TEXT) {
		fprintf(stderr, "blast: %7.1f s  sent %12llu  %10.0f pps\n", secs, (unsigned long long)sent, pps);
	} else {
		struct report r;
		report_init(&r);
		report_str(&r, "tool", "blast");
		report_f(&r, "t_s", secs, 3);
		report_u64(&r, "sent", sent);
		report_f(&r, "pps", pps, 0);
		report_write_row(&r, (enum report_fmt)prog.fmt, stderr, !prog.lines);
	}
	prog.lines++;
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
