/* total: adding up a run over its threads, and the report's keys from the sum (see total.h). */
#include "total.h"

#include <stdio.h>
#include <string.h>

#include "echo.h"
#include "variant.h"
#include "version.h"

void total_sum(struct rx *rx, unsigned n, int64_t kernel_drops, struct total *t)
{
	memset(t, 0, sizeof *t);
	t->stop = RX_STOP_FIN;
	t->work.kind = rx[0].work.kind;
	t->work.reps = rx[0].work.reps;
	t->napi_id = -1;
	/* each thread's loss runs end where its flows do, before the trackers are merged */
	for (unsigned i = 0; i < n; i++)
		seq_close(&rx[i].trk);
	for (unsigned i = 0; i < n; i++) {
		const struct rx *r = &rx[i];
		const struct variant *v = r->cfg->variant;
		struct variant_counts vc = { 0 };

		/* a lane (--senders) or the accountant (--one-socket) has no variant state */
		if (v && v->counts && r->priv)
			v->counts(r, &vc);
		t->received += r->received;
		t->bytes += r->bytes;
		t->foreign += r->foreign;
		t->other_run += r->other_run;
		t->other_src += r->other_src;
		t->forged_fins += r->forged_fins;
		t->stale_fins += r->stale_fins;
		t->unproven += r->unproven;
		t->untagged_fins += r->untagged_fins;
		t->truncated += r->truncated;
		sizes_merge(&t->sizes, &r->sizes);
		t->allocs += vc.allocs;
		t->bufs += vc.bufs;
		t->calls += r->calls;
		t->idle_calls += r->idle_calls;
		t->wakeups += vc.wakeups;
		t->unworked += vc.unworked;
		if (vc.queue_hwm > t->queue_hwm)
			t->queue_hwm = vc.queue_hwm;
		if (!i || r->received < t->thread_min)
			t->thread_min = r->received;
		if (r->received > t->thread_max)
			t->thread_max = r->received;
		if (r->napi_read && (t->napi_id <= 0))
			t->napi_id = r->napi_id;
		t->marks_changed += r->marks_changed;
		if (r->echo) {
			t->echoed += r->echo->sent;
			t->echo_errors += r->echo->errors;
			t->echo_clipped += r->echo->clipped;
			t->echo_limited += r->echo->limited;
		}
		if (r->jit) {
			t->jitter = 1;
			jitter_merge(&t->jit, r->jit);
		}
		if (r->gap) {
			t->gaps = 1;
			gaps_merge(&t->gap, r->gap);
		}
		if (r->first_ns && (!t->first_ns || r->first_ns < t->first_ns))
			t->first_ns = r->first_ns;
		if (r->last_ns > t->last_ns)
			t->last_ns = r->last_ns;
		if (i > 0)
			seq_merge(&rx[0].trk, &r->trk);
		work_merge(&t->work, &r->work);
		if (r->lat) {
			t->latency = 1;
			rx_latency_merge(&t->lat, r->lat);
		}
		if (r->done != RX_STOP_FIN)
			t->stop = r->done;
	}
	seq_sum(&rx[0].trk, &t->seq);
	t->size_word = n ? atomic_load(&rx[0].sh->size) : 0;
	t->bytes_check = sizes_check(t->size_word, &t->seq, t->received, t->bytes);
	t->mark_first = n ? atomic_load(&rx[0].sh->mark_first) : 0;
	t->kernel_drops = kernel_drops;
	/* The kernel's counter also counts dropped fins and foreign datagrams: dropped is the part
	 * that can be this run's data, capped at lost. With GRO the kernel drops, and counts, whole
	 * coalesced buffers: scale the counter by the datagrams per buffer this run received (1 for
	 * every other variant). A fin comes in a buffer of its own and is not among the datagrams
	 * received: leave its buffers out, or the average, and with it dropped, comes out low. */
	t->segs_per_buf = t->bufs > t->seq.fins && t->received ?
			  (double)t->received / (double)(t->bufs - t->seq.fins) : 1;
	/* What pool threw away itself is counted exactly (queue_dropped <= lost: seq.h); the
	 * kernel's part is at most the rest. */
	t->queue_dropped = t->seq.discarded;
	t->dropped = kernel_drops < 0 ? 0 : (uint64_t)((double)kernel_drops * t->segs_per_buf + 0.5);
	if (t->dropped > t->seq.lost - t->queue_dropped)
		t->dropped = t->seq.lost - t->queue_dropped;
}

enum { LAT_TOTAL, LAT_STACK, LAT_QUEUE };

/* The percentiles, largest and mean of one delay histogram, in µs; "-" (json null) when not
 * measured. */
static void add_latency(struct report *r, int which, const struct hist *h)
{
	static const char *const keys[3][6] = {
		{ "lat_p50_us", "lat_p90_us", "lat_p99_us", "lat_p999_us", "lat_max_us", "lat_mean_us" },
		{ "stack_p50_us", "stack_p90_us", "stack_p99_us", "stack_p999_us", "stack_max_us", "stack_mean_us" },
		{ "queue_p50_us", "queue_p90_us", "queue_p99_us", "queue_p999_us", "queue_max_us", "queue_mean_us" },
	};
	static const double qs[4] = { 0.50, 0.90, 0.99, 0.999 };

	for (unsigned i = 0; i < 6; i++) {
		if (!h)
			report_none(r, keys[which][i]);
		else if (i < 4)
			report_f(r, keys[which][i], (double)hist_quantile(h, qs[i]) / 1e3, 2);
		else
			report_f(r, keys[which][i], (i == 4 ? (double)h->max_ns : hist_mean(h)) / 1e3, 2);
	}
}

/* The receiver's kernel work (--rx-dev): '-' wherever it cannot be attributed (no device given,
 * no NAPI thread found; CPUs not pinned for the softirq column), never a guess. rx_kernel_s is the
 * NAPI threads' time alone: softirq time is charged to whichever task it interrupted as well
 * (suck's sys_s, the NAPI thread's run time) on a kernel that accounts by ticks, so adding the
 * softirq column would count it twice; it is reported beside, for what ran on an idle CPU. */
static void add_kernel(struct report *r, const struct kernel_work *k, uint64_t received, double cpu)
{
	int whole = k && k->napi_ok;
	double ks = whole ? k->napi_s : 0;

	if (whole)
		report_f(r, "rx_napi_s", k->napi_s, 3);
	else
		report_none(r, "rx_napi_s");
	if (k && k->softirq_ok)
		report_f(r, "rx_softirq_s", k->softirq_s, 3);
	else
		report_none(r, "rx_softirq_s");
	if (!whole) {
		report_none(r, "rx_kernel_s");
		report_none(r, "rx_kernel_ns_per_pkt");
		report_none(r, "rx_total_ns_per_pkt");
		return;
	}
	report_f(r, "rx_kernel_s", ks, 3);
	report_f(r, "rx_kernel_ns_per_pkt", received ? ks * 1e9 / (double)received : 0, 1);
	report_f(r, "rx_total_ns_per_pkt", received ? (ks + cpu) * 1e9 / (double)received : 0, 1);
}

/* --marks: the first valid datagram's TOS and TTL, and how many were marked otherwise; '-'
 * without --marks, and tos or ttl '-' when no datagram said it. */
static void add_marks(struct report *r, const struct total *t, int on)
{
	uint32_t m = t->mark_first;

	if (on && (m & RX_MARK_SEEN) && (m & MARK_TOS))
		report_u64(r, "tos", mark_tos(m));
	else
		report_none(r, "tos");
	if (on && (m & RX_MARK_SEEN) && (m & MARK_TTL))
		report_u64(r, "ttl", mark_ttl(m));
	else
		report_none(r, "ttl");
	if (on)
		report_u64(r, "marks_changed", t->marks_changed);
	else
		report_none(r, "marks_changed");
}

/* --jitter: the mean over flows of RFC 3550's J at the end, and percentiles of |D| over the
 * whole run; the loss runs, always. */
static void add_jitter(struct report *r, const struct total *t)
{
	uint64_t sum;
	unsigned flows;

	jitter_now(&t->jit, WIRE_MAX_FLOWS, &sum, &flows);
	if (t->jitter && flows)
		report_f(r, "jitter_us", (double)sum / flows / 1e3, 2);
	else
		report_none(r, "jitter_us");
	if (t->jitter && t->jit.ipdv.n) {
		report_f(r, "ipdv_p50_us", (double)hist_quantile(&t->jit.ipdv, 0.50) / 1e3, 2);
		report_f(r, "ipdv_p99_us", (double)hist_quantile(&t->jit.ipdv, 0.99) / 1e3, 2);
	} else {
		report_none(r, "ipdv_p50_us");
		report_none(r, "ipdv_p99_us");
	}
}

/* --gaps: the gaps between a flow's successive valid datagrams as they arrived (the kernel's
 * receive stamps), over every flow: mean, coefficient of variation, percentiles and the largest
 * (one stall of the sender's is enough to raise the cv: the largest says whether one did);
 * '-' without. */
static void add_gaps(struct report *r, const struct total *t)
{
	static const char *const keys[] = { "arrival_gap_samples", "arrival_gap_mean_us", "arrival_gap_cv",
					    "arrival_gap_p50_us", "arrival_gap_p99_us", "arrival_gap_max_us" };
	const struct gaps_sum *s = &t->gap.sum;
	double cv = gaps_cv(s);

	if (!t->gaps || !s->n) {
		for (unsigned i = 0; i < sizeof keys / sizeof *keys; i++)
			if (i == 0 && t->gaps)
				report_u64(r, keys[i], 0);
			else
				report_none(r, keys[i]);
		return;
	}
	report_u64(r, "arrival_gap_samples", s->n);
	report_f(r, "arrival_gap_mean_us", gaps_mean(s) / 1e3, 3);
	if (cv >= 0)
		report_f(r, "arrival_gap_cv", cv, 4);
	else
		report_none(r, "arrival_gap_cv");
	report_f(r, "arrival_gap_p50_us", (double)hist_quantile(&t->gap.hist, 0.50) / 1e3, 2);
	report_f(r, "arrival_gap_p99_us", (double)hist_quantile(&t->gap.hist, 0.99) / 1e3, 2);
	report_f(r, "arrival_gap_max_us", (double)t->gap.hist.max_ns / 1e3, 2);
}

static void add_loss_runs(struct report *r, const struct seq_runs *runs)
{
	report_u64(r, "loss_runs", runs->runs);
	report_u64(r, "loss_run_max", runs->max);
	report_u64(r, "loss_runs_1", runs->len1);
	report_u64(r, "loss_runs_2_3", runs->len2_3);
	report_u64(r, "loss_runs_4_15", runs->len4_15);
	report_u64(r, "loss_runs_16_up", runs->len16);
}

void total_report(struct report *r, const struct total *t, const struct rx *rx0,
		  const struct total_env *env)
{
	const struct suck_cfg *cfg = rx0->cfg;
	const struct sys_cpu *c0 = &env->c0, *c1 = &env->c1;
	uint64_t received = t->received, bytes = t->bytes;
	double dur = t->last_ns > t->first_ns ? (double)(t->last_ns - t->first_ns) / 1e9 : 0;
	double cpu = (c1->user_s - c0->user_s) + (c1->sys_s - c0->sys_s);
	char run[16];
	struct suck_show show = { .where = env->where, .rcvbuf = env->rcvbuf, .run = run };

	/* the run every thread locked onto (a proven fin may have named it before any data) */
	snprintf(run, sizeof run, "%08x", (uint32_t)atomic_load(&rx0->sh->run));
	if (cfg->senders && !env->sender)
		snprintf(run, sizeof run, "total"); /* --senders: the row of every run */

	report_str(r, "tool", "suck");
	report_str(r, "version", version_text);
	suck_settings(r, cfg, SS_NAME, 0, &show);
	suck_settings(r, cfg, SS_WHERE, 0, &show);
	report_u64(r, "serve_run", env->serve_run);
	suck_settings(r, cfg, SS_SENDERS, 0, &show);
	report_u64(r, "sender", env->sender);
	report_str(r, "stop", rx_stop_names[t->stop]);
	report_u64(r, "received", received);
	report_u64(r, "valid", t->seq.valid);
	report_u64(r, "foreign", t->foreign);
	report_u64(r, "other_run", t->other_run);
	report_u64(r, "other_src", t->other_src);
	report_u64(r, "forged_fins", t->forged_fins);
	report_u64(r, "stale_fins", t->stale_fins);
	report_u64(r, "unproven", t->unproven);
	suck_settings(r, cfg, SS_KEYED, 0, &show);
	report_u64(r, "truncated", t->truncated);
	report_u64(r, "dup", t->seq.dup);
	report_u64(r, "late", t->seq.late);
	report_u64(r, "reordered", t->seq.reordered);
	report_u64(r, "sent", t->seq.sent);
	report_u64(r, "sent_estimated", (uint64_t)t->seq.sent_estimated);
	report_u64(r, "lost", t->seq.lost);
	report_u64(r, "dropped", t->dropped);
	report_u64(r, "queue_dropped", t->queue_dropped);
	report_u64(r, "elsewhere", t->seq.lost - t->dropped - t->queue_dropped);
	if (t->kernel_drops < 0 && env->sender)
		report_none(r, "kernel_drops"); /* --senders: the socket's counter is no run's */
	else
		report_i64(r, "kernel_drops", t->kernel_drops);
	report_f(r, "segs_per_buf", t->segs_per_buf, 2);
	report_u64(r, "flows", t->seq.flows);
	report_u64(r, "fins", t->seq.fins);
	report_u64(r, "bytes", bytes);
	sizes_report(r, &t->sizes, t->size_word, &t->seq, t->bytes_check);
	report_f(r, "duration_s", dur, 6);
	report_f(r, "pps", dur > 0 ? (double)received / dur : 0, 0);
	report_f(r, "mbps", dur > 0 ? (double)bytes * 8 / dur / 1e6 : 0, 1);
	report_f(r, "user_s", c1->user_s - c0->user_s, 3);
	report_f(r, "sys_s", c1->sys_s - c0->sys_s, 3);
	report_f(r, "cpu_ns_per_pkt", received ? cpu * 1e9 / (double)received : 0, 1);
	add_kernel(r, env->kernel, received, cpu);
	report_u64(r, "rss_kib", sys_rss_kib());
	report_u64(r, "heap_kib", env->heap_kib);
	report_u64(r, "allocs", t->allocs);
	report_u64(r, "calls", t->calls);
	report_u64(r, "idle_calls", t->idle_calls);
	if (cfg->variant->events)
		report_u64(r, "wakeups", t->wakeups);
	else
		report_none(r, "wakeups");
	report_u64(r, "digest", work_digest(&t->work));
	suck_settings(r, cfg, SS_RCVBUF, 0, &show);
	suck_settings(r, cfg, SS_SHAPE, 0, &show);
	report_u64(r, "thread_received_min", t->thread_min);
	report_u64(r, "thread_received_max", t->thread_max);
	suck_settings(r, cfg, SS_RETAIN, 0, &show);
	suck_settings(r, cfg, SS_TIME, 0, &show);
	suck_settings(r, cfg, SS_POOL, 0, &show);
	if (t->napi_id >= 0)
		report_u64(r, "napi_id", (uint64_t)t->napi_id);
	else
		report_none(r, "napi_id");
	if (cfg->variant->pools) {
		report_u64(r, "queue_hwm", t->queue_hwm);
		report_u64(r, "unworked", t->unworked);
	} else {
		report_none(r, "queue_hwm");
		report_u64(r, "unworked", 0);
	}
	report_str(r, "uring_setup", rx0->mech && !cfg->variant->device ? rx0->mech : "-");
	report_str(r, "xdp_setup", rx0->mech && cfg->variant->device ? rx0->mech : "-");
	add_latency(r, LAT_TOTAL, t->latency ? &t->lat.total : NULL);
	add_latency(r, LAT_STACK, t->latency ? &t->lat.stack : NULL);
	add_latency(r, LAT_QUEUE, t->latency ? &t->lat.queue : NULL);
	if (t->latency) {
		report_u64(r, "lat_samples", t->lat.total.n);
		report_u64(r, "lat_negative", t->lat.negative);
		report_u64(r, "lat_outside", t->lat.outside);
	} else {
		report_none(r, "lat_samples");
		report_none(r, "lat_negative");
		report_none(r, "lat_outside");
	}
	suck_settings(r, cfg, SS_MARKS, 0, &show);
	add_marks(r, t, cfg->marks);
	suck_settings(r, cfg, SS_JITTER, 0, &show);
	add_jitter(r, t);
	suck_settings(r, cfg, SS_GAPS, 0, &show);
	add_gaps(r, t);
	add_loss_runs(r, &t->seq.runs);
	suck_settings(r, cfg, SS_ECHO, 0, &show);
	if (cfg->echo) {
		report_u64(r, "echoed", t->echoed);
		report_u64(r, "echo_errors", t->echo_errors);
		report_u64(r, "echo_clipped", t->echo_clipped);
		report_u64(r, "echo_limited", t->echo_limited);
	} else {
		report_none(r, "echoed");
		report_none(r, "echo_errors");
		report_none(r, "echo_clipped");
		report_none(r, "echo_limited");
	}
	suck_settings(r, cfg, SS_GROUP, 0, &show);
}
