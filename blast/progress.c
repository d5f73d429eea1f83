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
	uint64_t last_rtt_ns, last_rtt_n; /* --rtt: the round trips' sum and count at the last line */
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
	uint64_t sent = 0, rtt_ns = 0, rtt_n = 0;
	int rtt = prog.fs[0].rtt != NULL;

	for (unsigned i = 0; i < prog.flows; i++) {
		sent += atomic_load_explicit(&prog.fs[i].progress_sent, memory_order_relaxed);
		rtt_ns += atomic_load_explicit(&prog.fs[i].progress_rtt_ns, memory_order_relaxed);
		rtt_n += atomic_load_explicit(&prog.fs[i].progress_rtt_n, memory_order_relaxed);
	}
	double secs = (double)(now - prog.t0) / 1e9;
	double pps = (double)(sent - prog.last_sent) * 1e9 / (double)(now - prog.last_t);
	/* --rtt: the mean round trip of the replies since the last line (none: no figure) */
	double rtt_us = rtt_n > prog.last_rtt_n ? (double)(rtt_ns - prog.last_rtt_ns) / (double)(rtt_n - prog.last_rtt_n) / 1e3 : -1;

	/* A person's line with -o text; else a row of the report's format, for other tools. */
	if (prog.fmt == REPORT_TEXT) {
		fprintf(stderr, "blast: %7.1f s  sent %12llu  %10.0f pps", secs, (unsigned long long)sent, pps);
		if (rtt && rtt_us >= 0)
			fprintf(stderr, "  rtt %9.1f us", rtt_us);
		fputc('\n', stderr);
	} else {
		struct report r;
		report_init(&r);
		report_str(&r, "tool", "blast");
		report_f(&r, "t_s", secs, 3);
		report_u64(&r, "sent", sent);
		report_f(&r, "pps", pps, 0);
		if (rtt && rtt_us >= 0)
			report_f(&r, "rtt_mean_us", rtt_us, 1);
		else if (rtt)
			report_none(&r, "rtt_mean_us");
		report_write_row(&r, (enum report_fmt)prog.fmt, stderr, !prog.lines);
	}
	prog.last_rtt_ns = rtt_ns;
	prog.last_rtt_n = rtt_n;
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
