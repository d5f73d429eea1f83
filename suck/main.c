/* suck: receive blast's datagrams with one receive strategy, run the same work on each, and
 * report what was processed, what was lost and where, the CPU used and the memory held.
 * The options are in options.h and options.c (the limits in suck.h), the sockets and the
 * receive states in setup.c; the receive loops are in one file per variant; what they share is
 * in rx.c. main is setup, run and finish, and --serve's runs one after another; --check
 * (setup.c) sets up one socket and the variant as a run would, reports the settings instead,
 * and closes it.
 * Exit: 0 report printed (or checked), 1 runtime failure, 2 bad usage, 4 a variant this kernel
 * does not offer. */
#include <err.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "opt.h"
#include "report.h"
#include "sys.h"
#include "suck.h"
#include "carry.h"
#include "drops.h"
#include "echo.h"
#include "fanin.h"
#include "kernel.h"
#include "one.h"
#include "serve.h"
#include "setup.h"
#include "total.h"
#include "variant.h"

/* The text report's headline keys, unless -v: what was sent, received, lost and where, the rate,
 * the CPU and memory, and the measures a run asked for ("?": only when not 0). */
static const char *const brief_keys[] = {
	"tool", "variant", "addr", "run_id", "?serve_run", "?sender", "stop", "received", "valid", "sent",
	"?sent_estimated", "lost", "dropped", "?queue_dropped", "elsewhere", "?drops_attributed",
	"?unexplained", "?foreign", "?other_run", "?other_src", "?forged_fins", "?stale_fins", "?unproven",
	"?truncated", "?dup", "?reordered", "duration_s", "pps", "mbps", "cpu_ns_per_pkt",
	"rx_total_ns_per_pkt", "rss_kib", "heap_kib", "lat_p50_us", "lat_p99_us", "jitter_us",
	"arrival_gap_mean_us", "arrival_gap_cv", "?echoed", "?echo_limited", "?echo_clipped", "?unworked",
	NULL,
};

static struct suck_cfg cfg; /* options.c fills it */

static struct rx rxs[SUCK_MAX_THREADS]; /* one per socket and thread, side by side for total_sum */
static struct rx_shared sh;
static struct fanin *fan;      /* --senders: the runs' slots and lanes */
static struct one *onesock;    /* --one-socket: the threads' one receive state */
static struct carry *carries[SUCK_MAX_THREADS]; /* where runs may follow runs: each thread's */
static struct drops *drops;    /* --drops: the program, attached from setup to close_all */

/* May a run be found stale and followed by the next on the same sockets (carry.h)? Not where
 * the run is fixed (--run-id alone) or several are counted at once (--senders), nor on one
 * shared receive state (--one-socket). */
static int runs_follow(void)
{
	return (cfg.serve || !cfg.run_id) && !cfg.senders && !cfg.one_socket;
}

static void *worker_main(void *arg)
{
	struct rx *rx = arg;

	if (cfg.cpu >= 0 && sys_pin(((unsigned)cfg.cpu + rx->id) % sys_ncpu()) < 0)
		warn("warning: sched_setaffinity");
	cfg.variant->run(rx);
	/* the socket's drops as this thread stops, not once every thread has: what arrives after
	 * this is the next run's (--serve) */
	rx->drops_end = onesock && rx->id > 0 ? 0 : rx_drops(rx);
	return NULL;
}

/* Fins the run key did not tag. Tag 0 is what a blast without a key sends: when no fin was
 * believed that is most likely the run's own blast, and the user is told so first; a wrong
 * nonzero tag is another key's or a forger's. */
static void forged_said(const struct total *t)
{
	uint64_t untagged = t->untagged_fins < t->forged_fins ? t->untagged_fins : t->forged_fins;
	uint64_t stale = t->stale_fins < t->forged_fins - untagged ? t->stale_fins : t->forged_fins - untagged;
	uint64_t wrong = t->forged_fins - untagged - stale;

	if (stale)
		fprintf(stderr, "suck: warning: %llu fins carried the run key's tag but were sent before this "
			"suck started or before a run it already served: played again, they are counted as "
			"forged (stale_fins; two hosts: are their clocks in step?)\n", (unsigned long long)stale);

	if (untagged && !t->seq.fins)
		fprintf(stderr, "suck: warning: blast seems to have run without the run key: %llu fins "
			"carried no tag (tag 0, as blast without a key sends them) and suck has a key; "
			"give blast the same run key (BS_RUN_KEY or --key-file). The fins were not believed "
			"and are counted as foreign (forged_fins)\n", (unsigned long long)untagged);
	else if (untagged)
		fprintf(stderr, "suck: warning: %llu fins carried no tag (tag 0: sent without the run key, "
			"not by the blast whose fins were believed); they are counted as foreign "
			"(forged_fins)\n", (unsigned long long)untagged);
	if (wrong)
		fprintf(stderr, "suck: warning: %llu fins carried a tag the run key did not make; they are "
			"counted as foreign (forged_fins)%s\n", (unsigned long long)wrong,
			t->seq.fins || untagged ? "" : ": does blast have the same run key (BS_RUN_KEY or --key-file)?");
}

/* The sockets and their receive threads' state, one per -j, all bound to -a and -p (with -p 0
 * the first takes a free port and the others join it), then "listening on" for the scripts.
 * 0, or the exit code with the message said. */
static int setup(char *where, size_t len, int *rcvbuf)
{
	struct net_addr a = cfg.to, bound;

	if (cfg.run_id)
		atomic_store(&sh.run, 1ull << 32 | cfg.run_id);
	sh.key = cfg.key;
	sh.start_real_ns = sh.fresh_ns = sys_real_ns();
	if (runs_follow()) {
		/* -t and --idle count from here, over every run */
		sh.serve_ns = sys_mono_ns();
		atomic_store(&sh.last_ns, sh.serve_ns);
		/* what may arrive of the next run between a stale run's end and every thread's stop:
		 * a batch and a check's datagrams, twice; a gro message is a buffer of up to 64 KiB
		 * in datagrams of 32 bytes or more, each an entry with its 56 bytes of bookkeeping */
		size_t cap = cfg.bufsize < WIRE_FIN_LEN ? WIRE_FIN_LEN : cfg.bufsize;
		size_t unit = cfg.variant->slot ? (size_t)cfg.variant->slot * 3 : cap;
		for (unsigned i = 0; i < cfg.threads; i++)
			if (!(carries[i] = carry_new(2 * ((size_t)cfg.batch + RX_FLUSH), unit))) {
				warn("mmap for the next run's first datagrams");
				return 1;
			}
	}
	if (cfg.senders && !(fan = fanin_new(&cfg, cfg.threads))) {
		warn("mmap for --senders' runs");
		return 1;
	}
	for (unsigned i = 0; i < cfg.threads; i++) {
		/* --one-socket: the first socket is every thread's */
		int fd = cfg.one_socket && i > 0 ? rxs[0].fd : setup_socket(&cfg, &a, i == 0), st;
		if (fd < 0)
			return -fd;
		if (cfg.one_socket && i == 0 && !(onesock = one_new(&cfg, fd, &sh, cfg.threads))) {
			warn("mmap for --one-socket's receive state");
			return 1;
		}
		if (i == 0 && net_local(fd, &a) < 0) {
			warn("getsockname");
			return 1;
		}
		if ((st = setup_rx(&rxs[i], fd, i, &cfg, &sh, carries[i])))
			return st;
		if (fan && fanin_attach(fan, &rxs[i]) < 0) {
			warn("mmap for the sequence tracker of --senders' runs");
			return 1;
		}
		if (onesock)
			one_attach(onesock, &rxs[i]);
	}
	net_local(rxs[0].fd, &bound);
	net_format(&bound, where, len);
	if (cfg.threads > 1 && !cfg.one_socket && setup_group(rxs, cfg.threads, where))
		return 1;
	*rcvbuf = setup_rcvbuf(&cfg, rxs[0].fd);
	int dst = cfg.drops ? drops_open(&drops, rxs[0].fd) : 0; /* before the line scripts wait for */
	if (dst)
		return dst;
	fprintf(stderr, "suck: listening on %s\n", where);
	return 0;
}

/* Receives until a stop condition. One socket: on the main thread. A process that never starts
 * a thread keeps glibc's single-thread fast paths (no cancellation bookkeeping around each recv
 * call), which is what a bare receive loop gets too. More: one thread each; cfg.threads becomes
 * the number that ran. 0, or 1 when a thread could not start. */
static int run(void)
{
	static pthread_t tids[SUCK_MAX_THREADS];
	unsigned started;
	int rc = 0;

	if (cfg.threads == 1) {
		worker_main(&rxs[0]);
		return 0;
	}
	for (started = 0; started < cfg.threads; started++) {
		int e = pthread_create(&tids[started], NULL, worker_main, &rxs[started]);
		if (e) {
			/* The threads already running stop at their next tick and are joined below;
			 * the report covers them only. */
			errno = e;
			warn("pthread_create");
			sys_stop = 1;
			rc = 1;
			break;
		}
	}
	for (unsigned i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	cfg.threads = started;
	return rc;
}

/* One run, for finish and serve: its report and its stderr, as below. */
struct run_out {
	const char *where;
	int rcvbuf;
	uint64_t serve_run;        /* --serve: the run's number (tsv: the header before the first) */
	int64_t drops_base;        /* --serve: the sockets' drop counters before this run */
	int64_t drops_now;         /* ... and after it, for the next run's base */
};

/* After the threads: the kernel's drops, the threads' failures and warnings on stderr, the
 * report on stdout. The exit code, from rc (run's) on. */
static int report_run(int rc, struct run_out *o, const struct sys_cpu *c0, const struct sys_cpu *c1,
		      const struct kernel_work *kw)
{
	static struct total tot;
	const struct sys_error *errs[SUCK_MAX_THREADS];
	uint64_t heap_kib = sys_heap_kib();
	struct total_env env;
	int64_t kdrops = 0;
	uint32_t other_id = 0;
	struct report r;

	for (unsigned i = 0; i < cfg.threads; i++) {
		int64_t d = rxs[i].drops_end; /* worker_main's */
		if (d < 0)
			kdrops = -1;
		else if (kdrops >= 0)
			kdrops += d;
		errs[i] = &rxs[i].error;
		if (rxs[i].other_id && !other_id)
			other_id = rxs[i].other_id;
	}
	/* --serve: the sockets' counters run on from run to run; a run's drops are its part */
	o->drops_now = kdrops;
	if (kdrops >= 0 && o->drops_base >= 0)
		kdrops -= o->drops_base;
	/* Each failure once; the threads that only stopped because of it say nothing. */
	if (sys_error_print(errs, cfg.threads, "threads"))
		rc = 1;
	if (cfg.threads == 0)
		return rc;
	if (onesock)
		one_sum(onesock, rxs, cfg.threads, kdrops, &tot);
	else
		total_sum(rxs, cfg.threads, kdrops, &tot);
	drops_settle(drops, &tot, (uint32_t)atomic_load(&sh.run)); /* --drops: dropped exact */
	/* --senders: each run's total, added into the receiver's (which stops as its runs do) */
	unsigned nruns = fan ? fanin_slots(fan) : 0;
	struct total *runs = nruns ? calloc(nruns, sizeof *runs) : NULL;
	if (nruns && !runs) {
		warn("malloc for the runs' totals");
		return 1;
	}
	for (unsigned s = 0; s < nruns; s++) {
		total_sum(fanin_lanes(fan, s, tot.stop), cfg.threads, -1, &runs[s]);
		fanin_add(&tot, &runs[s]);
		tot.untagged_fins += runs[s].untagged_fins;
	}
	if (fan)
		fanin_sizes(&tot, runs, nruns);
	if (!tot.other_run) /* a datagram of another run that was carried to the next, or none */
		other_id = 0;
	if (other_id && fan)
		fprintf(stderr, "suck: warning: datagrams of a run beyond --senders %u arrived (run id %08x); "
			"they are counted as foreign (other_run)\n", cfg.senders, other_id);
	else if (other_id)
		fprintf(stderr, "suck: warning: datagrams of another run arrived (run id %08x%s); they are "
			"counted as foreign (other_run)%s\n", other_id, cfg.run_id ? "" : ", after the first",
			cfg.run_id || cfg.nrun_ids || cfg.key.set ? "" : ": give suck and blast the same --run-id");
	if (tot.latency && tot.lat.negative)
		warnx("warning: %llu datagrams carried a send time later than they were received: blast's "
		      "and suck's clocks are not in step (two hosts? synchronise them, e.g. with PTP); "
		      "they are left out of the latency figures (lat_negative)",
		      (unsigned long long)tot.lat.negative);
	if (tot.latency && tot.lat.outside)
		warnx("warning: %llu datagrams carried a send time from before suck started: a stale or "
		      "forged stamp, or (two hosts) a sender's clock behind suck's; they are left out of the "
		      "latency figures (lat_outside)", (unsigned long long)tot.lat.outside);
	forged_said(&tot);
	if (cfg.busy_poll && tot.napi_id == 0)
		warnx("warning: --busy-poll: the socket had no NAPI id (napi_id 0: loopback, or a device "
		      "without NAPI), so busy polling could not take effect");
	if (tot.unworked)
		warnx("warning: %llu datagrams were counted but their work not run: the run stopped (%s) "
		      "with batches still queued (unworked)", (unsigned long long)tot.unworked,
		      rx_stop_names[tot.stop]);
	if (tot.bytes_check < 0)
		warnx("warning: the fins say %llu bytes were sent, but every datagram arrived once and "
		      "%llu bytes did: a fin is wrong (bytes_check mismatch)",
		      (unsigned long long)tot.seq.bytes_sent, (unsigned long long)tot.bytes);
	if (kdrops < 0)
		fprintf(stderr, "suck: warning: socket not found in /proc/net/udp: dropped unknown, reported as 0\n");
	/* A source-specific join that let nothing in: the filter is the first suspect. */
	if (cfg.source && !tot.received && !tot.foreign && !tot.size_word) {
		const char *source_kernel = setup_source_kernel();
		if (source_kernel[0])
			fprintf(stderr, "suck: warning: --source %s: nothing arrived from it; this host's senders "
				"send to %s from %s, which the filter keeps out (see above)\n", cfg.source,
				cfg.join, source_kernel);
		else
			fprintf(stderr, "suck: warning: --source %s: nothing arrived from it (a source-specific "
				"join lets in that source's datagrams alone: is it the sender's address as the "
				"kernel sends it?)\n", cfg.source);
	}

	report_init(&r);
	if (cfg.rx_dev && !kw->napi_ok)
		fprintf(stderr, "suck: warning: --rx-dev %s: no NAPI kernel thread (napi/%s-*) at the start: the "
			"kernel's receive work is not counted (is /sys/class/net/%s/threaded 1?)\n",
			cfg.rx_dev, cfg.rx_dev, cfg.rx_dev);
	env = (struct total_env){ .where = o->where, .rcvbuf = o->rcvbuf, .heap_kib = heap_kib, .c0 = *c0,
				  .c1 = *c1, .kernel = cfg.rx_dev ? kw : NULL, .serve_run = o->serve_run };
	/* --senders: a row per run, in the order they locked, then the total row */
	for (unsigned s = 0; s < nruns; s++) {
		struct report rr;
		report_init(&rr);
		fanin_receiver(&runs[s], &tot);
		env.sender = s + 1;
		total_report(&rr, &runs[s], fanin_lanes(fan, s, tot.stop), &env);
		drops_report(&rr, NULL, &runs[s]);
		rr.brief = cfg.verbose ? NULL : brief_keys;
		if ((s && cfg.fmt == REPORT_TEXT && putchar('\n') == EOF) ||
		    report_write_row(&rr, (enum report_fmt)cfg.fmt, stdout, s == 0) < 0) {
			warn("writing the report");
			rc = 1;
		}
	}
	free(runs);
	env.sender = 0;
	total_report(&r, &tot, &rxs[0], &env);
	drops_report(&r, drops, &tot);
	if (nruns && cfg.fmt == REPORT_TEXT && putchar('\n') == EOF)
		rc = 1;
	/* --serve: text reports apart by a blank line, one tsv header, a json line each */
	if (o->serve_run > 1 && cfg.fmt == REPORT_TEXT && putchar('\n') == EOF)
		rc = 1;
	r.brief = cfg.verbose ? NULL : brief_keys;
	if (report_write_row(&r, (enum report_fmt)cfg.fmt, stdout, o->serve_run <= 1 && !nruns) < 0) {
		warn("writing the report");
		rc = 1;
	}
	return rc;
}

/* The variants' state and the sockets, freed. */
static void close_all(void)
{
	const struct variant *v = cfg.variant;

	for (unsigned i = 0; i < cfg.threads; i++) {
		v->teardown(&rxs[i]);
		rx_free(&rxs[i]);
		if (!onesock || i == 0)
			close(rxs[i].fd);
	}
	fanin_free(fan);
	fan = NULL;
	one_free(onesock);
	onesock = NULL;
	for (unsigned i = 0; i < SUCK_MAX_THREADS; i++) {
		carry_free(carries[i]);
		carries[i] = NULL;
	}
	echo_budget_free(sh.echo_budget);
	sh.echo_budget = NULL;
	drops_close(drops);
	drops = NULL;
}

static int finish(int rc, const char *where, int rcvbuf, const struct sys_cpu *c0, const struct sys_cpu *c1,
		  const struct kernel_work *kw, int64_t drops_base)
{
	struct run_out o = { .where = where, .rcvbuf = rcvbuf, .drops_base = drops_base };

	rc = report_run(rc, &o, c0, c1, kw);
	if (cfg.threads)
		close_all();
	return rc;
}

/* One run as main runs it: the kernel's receive work and the CPU around the threads. */
static int run_measured(struct sys_cpu *c0, struct sys_cpu *c1, struct kernel_work *kw)
{
	static struct kernel_snap k0, k1;
	int rc;

	*kw = (struct kernel_work){ 0 };
	/* --rx-dev: the kernel's receive work, read around the run as the CPU times are */
	if (cfg.rx_dev)
		kernel_snap(&k0, cfg.rx_dev, cfg.cpu, cfg.threads);
	sys_cpu_now(c0);
	rc = run();
	sys_cpu_now(c1);
	if (cfg.rx_dev) {
		kernel_snap(&k1, cfg.rx_dev, cfg.cpu, cfg.threads);
		kernel_delta(&k0, &k1, kw);
	}
	return rc;
}

/* Between runs, with no thread running: the shared state reset for the next run (serve.c),
 * every thread's state made again on its socket (trackers and buffers freed, then allocated as
 * for the first run: memory stays what one run holds), and the next run's first datagrams,
 * carried over a stale run's end, handed to it. 0, or the exit code with the message said. */
static int next_run(void)
{
	int rc = 0;

	serve_next(&sh);
	for (unsigned i = 0; i < cfg.threads && !rc; i++) {
		int fd = rxs[i].fd;
		cfg.variant->teardown(&rxs[i]);
		rx_free(&rxs[i]);
		if ((rc = setup_rx(&rxs[i], fd, i, &cfg, &sh, carries[i]))) {
			/* this one's state is gone: close its socket now, the others below */
			cfg.variant->teardown(&rxs[i]);
			rx_free(&rxs[i]);
			close(fd);
			carry_free(carries[i]);
			for (unsigned j = i + 1; j < cfg.threads; j++) {
				rxs[j - 1] = rxs[j]; /* no thread runs: a plain move */
				carries[j - 1] = carries[j];
			}
			carries[--cfg.threads] = NULL;
		}
	}
	for (unsigned i = 0; i < cfg.threads && !rc; i++)
		if (carries[i])
			rx_feed(&rxs[i], carries[i]);
	return rc;
}

/* A lone run found stale (a run without fins, when the next began): said on stderr and set
 * aside; the run that found it is the one measured and reported. */
static void set_aside(void)
{
	uint64_t own = 0, next = atomic_load(&sh.next);

	char quiet[48];

	for (unsigned i = 0; i < cfg.threads; i++)
		own += rxs[i].received - rxs[i].foreign - rxs[i].truncated;
	/* without a key or names, the run was found quiet for --stale */
	if (cfg.stale_s == 1)
		snprintf(quiet, sizeof quiet, ", a second after it went quiet");
	else
		snprintf(quiet, sizeof quiet, ", %g s after it went quiet (--stale)", cfg.stale_s);
	warnx("warning: run %08x had not sent all its fins when run %08x began%s (%llu datagrams of "
	      "it arrived): it is set aside, and the report is of run %08x", (uint32_t)atomic_load(&sh.run),
	      (uint32_t)next, cfg.key.set ? " with the run key's proof" : cfg.nrun_ids ? ", one of the runs named" :
	      quiet, (unsigned long long)own, (uint32_t)next);
}

/* --serve: runs one after another on the same sockets, each reported as it ends. A run that
 * ended on its fins, --run-timeout or found stale is followed by the next (next_run); a signal,
 * -t, --idle, --runs or an error ends serving. A run that saw nothing (a signal or --idle while
 * waiting) has no row. */
static int serve(const char *where, int rcvbuf)
{
	struct run_out o = { .where = where, .rcvbuf = rcvbuf, .drops_base = 0 };
	struct kernel_work kw;
	struct sys_cpu c0, c1;
	int rc = 0;

	for (;;) {
		int st = run_measured(&c0, &c1, &kw), why = atomic_load(&sh.stop), seen;
		uint64_t received = 0, late = 0;

		for (unsigned i = 0; i < cfg.threads; i++) {
			received += rxs[i].received;
			late += rxs[i].other_run;
		}
		/* Before a run locks, other_run can only be runs already reported (another id locks):
		 * their late datagrams and repeated fins alone make no run, but are said. */
		seen = received != late || atomic_load(&sh.run) || atomic_load(&sh.fins) || st ||
		       why == RX_STOP_ERROR;
		if (!seen && late)
			fprintf(stderr, "suck: %llu datagrams of runs already reported arrived after the last "
				"one (other_run); no run followed\n", (unsigned long long)late);
		if (seen) {
			o.serve_run++;
			rc = report_run(st, &o, &c0, &c1, &kw);
			o.drops_base = o.drops_now;
		} else {
			rc = st;
		}
		if (rc || cfg.threads == 0 || (why && why != RX_STOP_RUN_TIMEOUT && why != RX_STOP_STALE) ||
		    (cfg.runs && o.serve_run >= cfg.runs))
			break;
		if ((rc = next_run()))
			break;
	}
	if (cfg.threads)
		close_all();
	return rc;
}

int main(int argc, char **argv)
{
	struct kernel_work kw;
	struct sys_cpu c0, c1;
	char where[80];
	int rcvbuf, rc;
	int64_t drops_base = 0;

	opt_prog = "suck";
	if (sys_start() < 0)
		return 1;
	suck_options(&cfg, argc, argv);
	if (cfg.check)
		return setup_check(&cfg);
	if ((rc = setup(where, sizeof where, &rcvbuf)))
		return rc;
	if (cfg.serve)
		return serve(where, rcvbuf);
	rc = run_measured(&c0, &c1, &kw);
	/* a run without fins that went quiet as another began: measure the one that began */
	while (!rc && cfg.threads && atomic_load(&sh.stop) == RX_STOP_STALE) {
		set_aside();
		drops_base = 0;
		for (unsigned i = 0; i < cfg.threads; i++)
			drops_base = drops_base < 0 || rxs[i].drops_end < 0 ? -1 : drops_base + rxs[i].drops_end;
		if ((rc = next_run()))
			return rc;
		rc = run_measured(&c0, &c1, &kw);
	}
	return finish(rc, where, rcvbuf, &c0, &c1, &kw, drops_base);
}
