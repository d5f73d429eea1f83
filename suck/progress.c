/* progress: suck's -i lines on stderr (see suck.h). Only receive thread 0 prints them; the
 * counts of the other threads arrive at their own next check, so with -j the rate over one
 * interval is approximate and the totals are exact at the end. */
#include <stdio.h>

#include "report.h"
#include "suck.h"

void suck_progress_start(struct suck_progress *p, int fmt, uint64_t t0)
{
	p->fmt = fmt;
	p->t0 = p->last_ns = t0;
	p->last_received = p->lines = 0;
}

void suck_progress_line(struct suck_progress *p, uint64_t now, const struct suck_counts *c)
{
	double secs = (double)(now - p->t0) / 1e9;
	double pps = now > p->last_ns ?
		     (double)(c->received - p->last_received) * 1e9 / (double)(now - p->last_ns) : 0;

	if (p->fmt == REPORT_TEXT) {
		/* The kernel's raw counter, named as the report names it: the report's dropped is
		 * another number (scaled for gro, capped at lost), known only at the end. */
		char drops[24] = "-", jit[40] = "";
		if (c->kernel_drops >= 0)
			snprintf(drops, sizeof drops, "%lld", (long long)c->kernel_drops);
		if (c->jitter_us >= 0)
			snprintf(jit, sizeof jit, "  jitter %.2f us", c->jitter_us);
		fprintf(stderr, "suck: %7.1f s  received %12llu  foreign %llu  kernel_drops %s  fins %u%s\n", secs,
			(unsigned long long)c->received, (unsigned long long)c->foreign, drops, c->fins, jit);
	} else {
		struct report r;
		report_init(&r);
		report_str(&r, "tool", "suck");
		report_f(&r, "t_s", secs, 3);
		report_u64(&r, "received", c->received);
		report_u64(&r, "foreign", c->foreign);
		if (c->kernel_drops >= 0)
			report_i64(&r, "kernel_drops", c->kernel_drops);
		else
			report_none(&r, "kernel_drops");
		report_u64(&r, "fins", c->fins);
		if (c->jitter_us >= 0)
			report_f(&r, "jitter_us", c->jitter_us, 2);
		else
			report_none(&r, "jitter_us");
		report_f(&r, "pps", pps, 0);
		report_write_row(&r, (enum report_fmt)p->fmt, stderr, !p->lines);
	}
	p->lines++;
	p->last_received = c->received;
	p->last_ns = now;
}
