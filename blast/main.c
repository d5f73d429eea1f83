/* blast: send fixed-size UDP datagrams for a timed or counted run, as fast as possible or at
 * a set rate, each with the header suck needs to account for it (or none with --raw), and
 * end every flow with a fin carrying its totals. --check goes as far as a run does before its
 * first send call and reports the settings instead. Exit: 0 sent (or checked), 1 runtime
 * failure, 2 bad usage, 4 -g asked for UDP GSO and this kernel has none (or --zerocopy for
 * MSG_ZEROCOPY; --via packet or xdp without CAP_NET_RAW or on loopback; xdp without AF_XDP). */
#include <err.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "blast.h"
#include "mcast.h"
#include "mode.h"
#include "opt.h"
#include "report.h"
#include "sys.h"
#include "txdrops.h"
#include "version.h"
#include "wire.h"

/* The text report's headline keys, unless -v: what was sent and how fast, the CPU and memory it
 * cost, and the measures a run asked for ("?": only when not 0). */
static const char *const brief_keys[] = {
	"tool", "addr", "run_id", "stop", "size", "mix", "sent", "duration_s", "pps", "mbps", "?rate_pct",
	"?errors", "cpu_ns_per_pkt", "rss_kib", "pattern_gap_mean_us", "pattern_gap_cv", "transactions",
	"tps", "rtt_p50_us", "rtt_p99_us", "?rtt_lost", "?rtt_lost_up", "?rtt_lost_down", "?zc_copied",
	"?tx_frames", "?tx_outstanding", NULL,
};

static const char *const stop_names[] = { "time", "count", "signal", "error" };

static struct blast_cfg cfg; /* options.c fills it */

static int open_socket(struct flow *f)
{
	char where[80];
	const char *call;

	net_format(&cfg.to, where, sizeof where);
	f->fd = socket(cfg.to.ss.ss_family, SOCK_DGRAM, 0);
	if (f->fd < 0) {
		warn("socket");
		return -1;
	}
	/* The marks before the first datagram, so that none leaves unmarked; a group's TTL is its
	 * own option (IP_MULTICAST_TTL), 1 unless --ttl. */
	struct mark_set m = cfg.mark;
	if (cfg.group)
		m.ttl = -1;
	if (mark_apply(f->fd, &cfg.to, &m, &call) < 0 ||
	    (cfg.group && mcast_send(f->fd, &cfg.to, cfg.mark.ttl >= 0 ? cfg.mark.ttl : 1, cfg.mc_ifindex,
				     cfg.mc_loop, &call) < 0)) {
		warn("%s", call);
		return -1;
	}
	if (cfg.sndbuf && net_sndbuf(f->fd, cfg.sndbuf) < 0) {
		warn("setsockopt SO_SNDBUF");
		return -1;
	}
	/* connect: the kernel routes once, and a closed port comes back as ECONNREFUSED. */
	if (connect(f->fd, (const struct sockaddr *)&cfg.to.ss, cfg.to.len) < 0) {
		warn("connect %s", where);
		return -1;
	}
	if (gso_socket(f) < 0)
		exit(4);
	if (cfg.zerocopy && zc_socket(f) < 0) {
		fprintf(stderr, "blast: %s: %s\n", f->error.call, strerror(f->error.err));
		exit(4);
	}
	return 0;
}

static const struct send_mode *mode; /* every flow's (mode_pick) */

static void *flow_thread(void *arg)
{
	struct flow *f = arg;

	if (cfg.cpu >= 0 && sys_pin(((unsigned)cfg.cpu + f->id) % sys_ncpu()) < 0)
		warn("warning: sched_setaffinity");
	mode->run(f);
	progress_flow_done();
	return NULL;
}

/* p50, p99 and max of h in us under keys[0..2] (the report keeps the pointers), '-' when empty */
static void add_spread(struct report *r, const char *const keys[3], const struct hist *h)
{
	for (unsigned i = 0; i < 3; i++)
		if (!h->n)
			report_none(r, keys[i]);
		else
			report_f(r, keys[i], (double)(i == 2 ? h->max_ns : hist_quantile(h, i ? 0.99 : 0.50)) / 1e3, 2);
}

/* --rtt's figures: transactions answered, lost (and which way), late, foreign and short
 * replies, transactions per second over the flows' window, the round trips' percentiles, and
 * from suck --echo's blocks the one-way delays and its own time; '-' without --rtt. */
static void add_rtt(struct report *r, const struct flow *fs, double dur)
{
	static const char *const keys[] = { "transactions", "rtt_lost", "rtt_lost_up", "rtt_lost_down",
					    "rtt_lost_tail", "rtt_late", "rtt_foreign", "rtt_short", "rtt_forged",
					    "tps", "rtt_p50_us", "rtt_p90_us", "rtt_p99_us", "rtt_p999_us",
					    "rtt_max_us", "rtt_mean_us", "clock_offset_us", "clock_offset_err_us",
					    "rtt_up_p50_us", "rtt_up_p99_us", "rtt_up_max_us", "rtt_down_p50_us",
					    "rtt_down_p99_us", "rtt_down_max_us", "rtt_echo_p50_us",
					    "rtt_echo_p99_us", "rtt_echo_max_us", "rtt_offset_err_us" };
	static const double qs[4] = { 0.50, 0.90, 0.99, 0.999 };
	static struct rtt_total t;

	blast_settings(r, &cfg, BS_RTT, 0, &fs[0]);
	if (!cfg.rtt) {
		for (unsigned i = 0; i < sizeof keys / sizeof keys[0]; i++)
			report_none(r, keys[i]);
		return;
	}
	rtt_sum(fs, cfg.flows, &t);
	report_u64(r, "transactions", t.transactions);
	report_u64(r, "rtt_lost", t.lost);
	/* which way: only when a reply carried the echo's block */
	if (t.blocks) {
		report_u64(r, "rtt_lost_up", t.lost_up);
		report_u64(r, "rtt_lost_down", t.lost_down);
		report_u64(r, "rtt_lost_tail", t.lost_tail);
	} else {
		report_none(r, "rtt_lost_up");
		report_none(r, "rtt_lost_down");
		report_none(r, "rtt_lost_tail");
	}
	report_u64(r, "rtt_late", t.late);
	report_u64(r, "rtt_foreign", t.foreign);
	report_u64(r, "rtt_short", t.short_);
	report_u64(r, "rtt_forged", t.forged);
	report_f(r, "tps", dur > 0 ? (double)t.transactions / dur : 0, 0);
	for (unsigned i = 0; i < 4; i++)
		if (t.rtt.n)
			report_f(r, keys[10 + i], (double)hist_quantile(&t.rtt, qs[i]) / 1e3, 2);
		else
			report_none(r, keys[10 + i]);
	if (t.rtt.n) {
		report_f(r, "rtt_max_us", (double)t.rtt.max_ns / 1e3, 2);
		report_f(r, "rtt_mean_us", hist_mean(&t.rtt) / 1e3, 2);
	} else {
		report_none(r, "rtt_max_us");
		report_none(r, "rtt_mean_us");
	}
	/* the receiver's clock against ours, from the replies suck stamped */
	if (t.stamped) {
		report_f(r, "clock_offset_us", (double)t.offset / 1e3, 2);
		report_f(r, "clock_offset_err_us", (double)t.best_rtt / 2e3, 2);
	} else {
		report_none(r, "clock_offset_us");
		report_none(r, "clock_offset_err_us");
	}
	add_spread(r, keys + 18, &t.up);
	add_spread(r, keys + 21, &t.down);
	add_spread(r, keys + 24, &t.echo);
	if (t.up.n)
		report_f(r, "rtt_offset_err_us", (double)t.offset_err / 1e3, 2);
	else
		report_none(r, "rtt_offset_err_us");
}

/* --rtt: replies cut short say what suck needs for the size asked. */
static void rtt_warn(const struct flow *fs)
{
	static struct rtt_total t;
	unsigned want = cfg.reply_size ? cfg.reply_size : cfg.size;

	rtt_sum(fs, cfg.flows, &t);
	if (t.short_)
		fprintf(stderr, "blast: warning: %llu replies were shorter than the %u bytes asked for "
			"(rtt_short; their requests counted in rtt_lost): suck --echo sends no reply larger "
			"than its request (%u bytes) unless started with --echo-max %u or more\n",
			(unsigned long long)t.short_, want, cfg.size, want);
	if (t.forged)
		fprintf(stderr, "blast: warning: %llu replies carried an echo block that cannot be true (a count "
			"above the requests sent, an echo time below 0 or above the round trip): not used "
			"(rtt_forged)\n", (unsigned long long)t.forged);
	if (!t.blocks && t.transactions && (cfg.size < WIRE_ECHO_END || want < WIRE_ECHO_END))
		fprintf(stderr, "blast: note: no reply carried the echo's count and times (rtt_lost_up, "
			"rtt_up_p50_us, ... are -): requests and replies need %d bytes or more for them\n",
			WIRE_ECHO_END);
}

/* --zerocopy's counts (blast.h says each), '-' without it. */
static void add_zc(struct report *r, const struct flow *fs, const struct flow_total *t)
{
	static const char *const keys[] = { "zc_sends", "zc_completions", "zc_copied", "zc_enobufs",
					    "zc_waits", "zc_foreign" };
	const uint64_t v[] = { t->zc_sends, t->zc_completions, t->zc_copied, t->zc_enobufs, t->zc_waits,
			       t->zc_foreign };

	blast_settings(r, &cfg, BS_ZC, 0, &fs[0]);
	if (cfg.zerocopy)
		zc_say(t, &cfg);
	for (unsigned i = 0; i < sizeof keys / sizeof *keys; i++) {
		if (cfg.zerocopy)
			report_u64(r, keys[i], v[i]);
		else
			report_none(r, keys[i]);
	}
}

/* Prints the run's figures; the adding up is flow_sum's (send.c). */
static void add_report(struct report *r, const struct flow *fs, const struct sys_cpu *c0,
		       const struct sys_cpu *c1, const struct txd *txd)
{
	static struct flow_total t;
	double dur, cpu;
	uint64_t sent, bytes;

	flow_sum(fs, cfg.flows, &t);
	sent = t.sent;
	bytes = t.bytes;
	dur = (double)(t.end_ns - t.start_ns) / 1e9;
	cpu = (c1->user_s - c0->user_s) + (c1->sys_s - c0->sys_s);

	report_str(r, "tool", "blast");
	report_str(r, "version", version_text);
	blast_settings(r, &cfg, BS_HEAD, 0, &fs[0]);
	report_str(r, "stop", stop_names[t.stop]);
	blast_settings(r, &cfg, BS_SIZE, 0, &fs[0]);
	report_u64(r, "sent", sent);
	report_u64(r, "bytes", bytes);
	report_f(r, "duration_s", dur, 6);
	report_f(r, "pps", dur > 0 ? (double)sent / dur : 0, 0);
	report_f(r, "mbps", dur > 0 ? (double)bytes * 8 / dur / 1e6 : 0, 1);
	report_f(r, "rate_pct", cfg.rate && dur > 0 ? 100.0 * (double)sent / dur / (double)cfg.rate : 0, 2);
	report_f(r, "gap_p50_us", (double)hist_quantile(&t.gaps, 0.50) / 1e3, 2);
	report_f(r, "gap_p99_us", (double)hist_quantile(&t.gaps, 0.99) / 1e3, 2);
	report_f(r, "gap_max_us", (double)t.gaps.max_ns / 1e3, 2);
	report_u64(r, "errors", t.errors);
	report_str(r, "error_detail", t.detail[0] ? t.detail : "none");
	txd_report(r, txd);
	report_u64(r, "calls", t.calls);
	report_u64(r, "fins", t.fins);
	report_f(r, "user_s", c1->user_s - c0->user_s, 3);
	report_f(r, "sys_s", c1->sys_s - c0->sys_s, 3);
	report_f(r, "cpu_ns_per_pkt", sent ? cpu * 1e9 / (double)sent : 0, 1);
	report_u64(r, "rss_kib", sys_rss_kib());
	blast_settings(r, &cfg, BS_SHAPE, 0, &fs[0]);
	blast_settings(r, &cfg, BS_MARKS, 0, &fs[0]);
	add_rtt(r, fs, dur);
	add_zc(r, fs, &t);
	blast_settings(r, &cfg, BS_VIA, 0, &fs[0]);
	if (cfg.via == BLAST_VIA_XDP)
		xdptx_report(r, fs, cfg.flows);
	else
		packet_report(r, &cfg, fs, cfg.flows);
}

/* --check: a run's setup up to its first send call, on one throwaway socket: connected (so
 * the route is known) and, with GSO, given UDP_SEGMENT, where a kernel without it ends -g with
 * exit 4 and an automatic GSO falls back as a run would. Then the settings as one report row,
 * and the socket closed: nothing is sent. A route that refuses GSO messages is only known at
 * the first send, so gso and batch say how a run starts. */
static int check(void)
{
	struct flow f = { .cfg = &cfg };
	struct report r;
	int rc;

	if (open_socket(&f) < 0)
		return 1;
	close(f.fd);
	if (cfg.via && (rc = packet_prepare(&cfg, 0)) != 0)
		return rc;
	if (cfg.via == BLAST_VIA_XDP && (rc = xdptx_probe(&cfg)) != 0)
		return rc;
	report_init(&r);
	report_str(&r, "tool", "blast");
	report_str(&r, "version", version_text);
	report_u64(&r, "check", 1);
	for (int sec = BS_HEAD; sec < BS_END; sec++)
		blast_settings(&r, &cfg, (enum blast_sec)sec, 1, &f);
	if (report_write(&r, (enum report_fmt)cfg.fmt, stdout) < 0) {
		warn("writing the report");
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct flow fs[BLAST_MAX_FLOWS];
	const struct sys_error *errs[BLAST_MAX_FLOWS];
	struct sys_cpu c0, c1;
	static struct txd txd;
	struct report r;
	uint64_t t0, first_line, sent = 0;
	int rc = 0;

	opt_prog = "blast";
	if (sys_start() < 0)
		return 1;
	blast_options(&cfg, argc, argv);
	if (cfg.check)
		return check();
	while (!cfg.run_id)
		sys_random(&cfg.run_id, sizeof cfg.run_id);
	mode = mode_pick(&cfg);
	if (cfg.via && (rc = packet_prepare(&cfg, 1)) != 0)
		return rc;
	if (cfg.via == BLAST_VIA_XDP && (rc = xdptx_probe(&cfg)) != 0)
		return rc;
	for (unsigned i = 0; i < cfg.flows; i++) {
		struct flow *f = &fs[i];
		f->id = i;
		f->cfg = &cfg;
		/* -n is the total; the first flows take the remainder. */
		if (cfg.count)
			f->quota = cfg.count / cfg.flows + (i < cfg.count % cfg.flows);
		else
			f->quota = WIRE_SEQ_LIMIT; /* sequences above are malformed (wire.h): months away */
		if (mode->socket && open_socket(f) < 0)
			return 1;
		if (mode->setup(f) < 0) {
			warn("allocating send buffers");
			return 1;
		}
	}
	if (cfg.rate)
		rate_prepare();
	txd_start(&txd, mode->socket ? fs[0].fd : -1, cfg.via ? packet_dev() : NULL);
	sys_cpu_now(&c0);
	t0 = sys_mono_ns();
	/* One start and one deadline for all flows, however late a thread starts: the run's -t
	 * and its rate hold over the flows together. */
	for (unsigned i = 0; i < cfg.flows; i++) {
		fs[i].deadline_ns = cfg.time_s > 0 ? t0 + (uint64_t)(cfg.time_s * 1e9) : 0;
		if (cfg.rate)
			rate_init(&fs[i].rate, (double)cfg.rate, cfg.flows, i, t0, fs[i].deadline_ns);
		if (cfg.rate && cfg.pattern.kind != PATTERN_EVEN)
			pattern_init(&fs[i].rate.sched, &cfg.pattern, (double)cfg.rate, cfg.flows, i, cfg.size, t0);
	}
	first_line = progress_start(fs, cfg.flows, cfg.interval_s, cfg.fmt, t0);
	if (cfg.flows == 1) {
		/* One flow sends on the main thread, checking for progress lines itself: a process
		 * that never starts a thread keeps glibc's single-thread fast path around each send
		 * call (no cancellation bookkeeping), which is what a bare send loop gets too. */
		fs[0].progress_ns = first_line;
		flow_thread(&fs[0]);
	} else {
		for (unsigned i = 0; i < cfg.flows; i++) {
			int e = pthread_create(&fs[i].tid, NULL, flow_thread, &fs[i]);
			if (e) {
				errno = e;
				warn("pthread_create");
				return 1;
			}
		}
		progress_watch();
	}
	for (unsigned i = 0; i < cfg.flows; i++) {
		if (cfg.flows > 1)
			pthread_join(fs[i].tid, NULL);
		sent += fs[i].sent;
		errs[i] = &fs[i].error;
	}
	/* Each failure once, as suck says its threads'. */
	if (sys_error_print(errs, cfg.flows, "flows"))
		rc = 1;
	sys_cpu_now(&c1);
	txd_stop(&txd);
	if (!sent && !rc) {
		fprintf(stderr, "blast: no datagram could be sent\n");
		rc = 1;
	}
	if (cfg.rtt)
		rtt_warn(fs);
	report_init(&r);
	add_report(&r, fs, &c0, &c1, &txd);
	if (!cfg.verbose)
		r.brief = brief_keys;
	if (report_write(&r, (enum report_fmt)cfg.fmt, stdout) < 0) {
		warn("writing the report");
		rc = 1;
	}
	for (unsigned i = 0; i < cfg.flows; i++) {
		mode->free(&fs[i]);
		if (mode->socket)
			close(fs[i].fd);
	}
	return rc;
}
