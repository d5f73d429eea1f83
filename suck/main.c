/* suck: receive blast's datagrams with one receive strategy, run the same work on each, and
 * report what was processed, what was lost and where, the CPU used and the memory held.
 * Options and defaults are here; the receive loops are in one file per variant; what they
 * share is in rx.c. Exit: 0 report printed, 1 runtime failure, 2 bad usage. */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "net.h"
#include "opt.h"
#include "report.h"
#include "sys.h"
#include "version.h"
#include "total.h"
#include "variant.h"

#define MAX_THREADS 64

const struct variant *const variants[] = {
	&variant_copy, &variant_buffer, &variant_mmsg, &variant_gro, &variant_uring, NULL,
};
const struct variant *const variant_default = &variant_buffer;

static struct key run_key; /* into rx_shared before the threads start */

static struct suck_cfg cfg = {
	.addr = "127.0.0.1",
	.port = 22222,
	.work = { .kind = WORK_HISTOGRAM, .reps = 1 },
	.bufsize = 65535,
	.threads = 1,
	.cpu = -1,
};

static void usage(FILE *out)
{
	fprintf(out,
"usage: suck [options]\n"
"Receive UDP datagrams from blast, run a work function on each, report what arrived.\n"
"  -a, --addr ADDR      address to bind (127.0.0.1; ::1, 0.0.0.0, ::, a host name)\n"
"  -p, --port PORT      port (22222; 0 = a free port, printed on stderr)\n"
"  -m, --variant NAME   receive strategy (buffer; list: names and what they do):\n");
	for (int i = 0; variants[i]; i++)
		fprintf(out, "                         %-7s %s\n", variants[i]->name, variants[i]->what);
	fprintf(out,
"  -w, --work WORK      per-datagram work: none, histogram, checksum; NAME:N repeats it\n"
"                       N times (histogram)\n"
"  -b, --batch N        datagrams (gro: buffers) per recvmmsg, 1..1024 (mmsg 32, gro 8)\n"
"  -s, --size BYTES     receive buffer per datagram, 1..65535 (65535); larger datagrams\n"
"                       are counted as truncated\n"
"  -t, --time SECS      stop after SECS (0 = no limit)\n"
"      --idle SECS      stop SECS after the last datagram (0 = never)\n"
"  -R, --rcvbuf BYTES   socket receive buffer, SO_RCVBUF (kernel default)\n"
"  -j, --threads N      N sockets with SO_REUSEPORT, one thread each, 1..%d (1)\n"
"      --retain N       copy: keep the last N copies alive, 0..100000 (0)\n"
"      --run-id ID      accept only this run (blast --run-id), 1..4294967295 (the run of\n"
"                       the first data datagram)\n"
"      --key-file FILE  the run key, 32 hex digits, from FILE ('-' = stdin; default: the\n"
"                       environment's BS_RUN_KEY, else none): believe only fins it tags\n"
"      --latency        one-way delay of every datagram, from blast's send time to the\n"
"                       work, split at the kernel's receive stamp (off: a clock read each)\n"
"      --spin           never block: poll with MSG_DONTWAIT (buffer, mmsg, gro; off)\n"
"      --cpu N          pin thread i to CPU N+i\n"
"  -o, --output FMT     text, tsv or json (text)\n"
"  -i, --interval SECS  progress line on stderr every SECS (off)\n"
"  -h, --help           this text\n"
"  -V, --version        version\n"
"Numbers take k, M, G (sizes in bytes: 1024-based); durations s, ms, us, ns, m.\n"
"Stops on a fin from every flow, SIGINT/SIGTERM, -t or --idle; the report is always printed.\n",
		MAX_THREADS);
}

/* " mmsg, gro": the variants an option applies to, for its message. */
static const char *names_where(int batch)
{
	static char buf[128];
	size_t len = 0;

	buf[0] = 0;
	for (int i = 0; variants[i]; i++)
		if ((batch ? variants[i]->batch != 0 : variants[i]->spins) && len < sizeof buf)
			len += (size_t)snprintf(buf + len, sizeof buf - len, "%s %s", len ? "," : "",
						variants[i]->name);
	return buf;
}
static const char *batch_names(void) { return names_where(1); }
static const char *spin_names(void) { return names_where(0); }

static void parse(int argc, char **argv)
{
	enum { O_IDLE = 256, O_RETAIN, O_CPU, O_RUNID, O_LATENCY, O_SPIN, O_KEYFILE };
	static const struct option longs[] = {
		{ "addr", required_argument, 0, 'a' }, { "port", required_argument, 0, 'p' },
		{ "variant", required_argument, 0, 'm' }, { "work", required_argument, 0, 'w' },
		{ "batch", required_argument, 0, 'b' }, { "size", required_argument, 0, 's' },
		{ "time", required_argument, 0, 't' }, { "idle", required_argument, 0, O_IDLE },
		{ "rcvbuf", required_argument, 0, 'R' }, { "threads", required_argument, 0, 'j' },
		{ "retain", required_argument, 0, O_RETAIN }, { "cpu", required_argument, 0, O_CPU },
		{ "run-id", required_argument, 0, O_RUNID }, { "latency", no_argument, 0, O_LATENCY },
		{ "spin", no_argument, 0, O_SPIN }, { "key-file", required_argument, 0, O_KEYFILE },
		{ "output", required_argument, 0, 'o' }, { "interval", required_argument, 0, 'i' },
		{ "help", no_argument, 0, 'h' }, { "version", no_argument, 0, 'V' },
		{ 0, 0, 0, 0 },
	};
	const char *names[8];
	int c, batch_set = 0, retain_set = 0;
	const char *err, *key_file = NULL;

	for (int i = 0; variants[i]; i++)
		names[i] = variants[i]->name, names[i + 1] = NULL;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":a:p:m:w:b:s:t:R:j:o:i:hV", longs, NULL)) != -1) {
		switch (c) {
		case 'a': cfg.addr = optarg; break;
		case 'p': cfg.port = (unsigned)opt_u64("-p", optarg, OPT_PLAIN, 0, 65535); break;
		case 'm':
			if (strcmp(optarg, "list") == 0) {
				for (int i = 0; variants[i]; i++)
					printf("%s\t%s\n", variants[i]->name, variants[i]->what);
				exit(0);
			}
			cfg.variant = variants[opt_name("-m", optarg, names)];
			break;
		case 'w':
			if ((err = work_parse(optarg, &cfg.work)))
				opt_die("-w '%s': %s; accepted: none, histogram, checksum, each with :N, "
					"N 1..%u", optarg, err, WORK_MAX_REPS);
			break;
		case 'b': cfg.batch = (unsigned)opt_u64("-b", optarg, OPT_COUNT, 1, 1024); batch_set = 1; break;
		case 's': cfg.bufsize = (unsigned)opt_u64("-s", optarg, OPT_BYTES, 1, 65535); break;
		case 't': cfg.time_s = opt_secs("-t", optarg, 0, 1e7); break;
		case O_IDLE: cfg.idle_s = opt_secs("--idle", optarg, 0, 1e7); break;
		case 'R': cfg.rcvbuf = (int)opt_u64("-R", optarg, OPT_BYTES, 4096, 1u << 30); break;
		case 'j': cfg.threads = (unsigned)opt_u64("-j", optarg, OPT_PLAIN, 1, MAX_THREADS); break;
		case O_RETAIN: cfg.retain = (unsigned)opt_u64("--retain", optarg, OPT_COUNT, 0, 100000); retain_set = 1; break;
		case O_LATENCY: cfg.latency = 1; break;
		case O_SPIN: cfg.spin = 1; break;
		case O_RUNID: cfg.run_id = (uint32_t)opt_u64("--run-id", optarg, OPT_PLAIN, 1, UINT32_MAX); break;
		case O_KEYFILE: key_file = optarg; break;
		case O_CPU: cfg.cpu = (int)opt_u64("--cpu", optarg, OPT_PLAIN, 0, sys_ncpu() - 1); break;
		case 'o': cfg.fmt = opt_name("-o", optarg, report_fmt_names); break;
		case 'i': cfg.interval_s = opt_secs("-i", optarg, 0.01, 1e6); break;
		case 'h': usage(stdout); exit(0);
		case 'V': printf("suck %s\n", version_text); exit(0);
		case ':': opt_die("%s needs a value", argv[optind - 1]);
		default: opt_die("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		opt_die("unexpected argument '%s'", argv[optind]);
	if ((err = key_load(key_file, &run_key)))
		opt_die("%s", err);
	if (!cfg.variant)
		cfg.variant = variant_default;
	if (batch_set && !cfg.variant->batch)
		opt_die("-b applies to -m%s; %s does not batch receive calls", batch_names(),
			cfg.variant->name);
	if (!batch_set)
		cfg.batch = cfg.variant->batch ? cfg.variant->batch : 1;
	if (retain_set && !cfg.variant->retains)
		opt_die("--retain applies to -m copy only");
	if (cfg.spin && !cfg.variant->spins)
		opt_die("--spin applies to -m%s; %s cannot poll", spin_names(), cfg.variant->name);
}

static struct rx rxs[MAX_THREADS]; /* one per socket and thread, side by side for total_sum */

static void *worker_main(void *arg)
{
	struct rx *rx = arg;

	if (cfg.cpu >= 0 && sys_pin(((unsigned)cfg.cpu + rx->id) % sys_ncpu()) < 0)
		warn("warning: sched_setaffinity");
	cfg.variant->run(rx);
	return NULL;
}

static int open_socket(const struct net_addr *a)
{
	int fd = socket(a->ss.ss_family, SOCK_DGRAM, 0), one = 1;
	struct timeval tick = { .tv_sec = 0, .tv_usec = RX_TICK_MS * 1000 };

	if (fd < 0) {
		warn("socket");
		return -1;
	}
	if (cfg.threads > 1 && setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one) < 0) {
		warn("setsockopt SO_REUSEPORT");
		return -1;
	}
	/* The tick bounds how long a blocked receive can miss a stop condition. */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tick, sizeof tick) < 0) {
		warn("setsockopt SO_RCVTIMEO");
		return -1;
	}
	/* --latency: the kernel stamps every datagram as it receives it (software, the realtime
	 * clock, as blast's send time), delivered as a control message. */
	if (cfg.latency && setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one) < 0) {
		warn("setsockopt SO_TIMESTAMPNS");
		return -1;
	}
	if (cfg.rcvbuf && net_rcvbuf(fd, cfg.rcvbuf) < 0) {
		warn("setsockopt SO_RCVBUF");
		return -1;
	}
	if (bind(fd, (const struct sockaddr *)&a->ss, a->len) < 0) {
		char where[80];
		net_format(a, where, sizeof where);
		warn("bind %s", where);
		return -1;
	}
	return fd;
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

/* Prints the run's figures; the adding up is total_sum's. */
static void add_report(struct report *r, const struct total *t, const struct rx *rx0, const char *where,
		       int rcvbuf, uint64_t heap_kib, const struct sys_cpu *c0, const struct sys_cpu *c1)
{
	uint64_t received = t->received, bytes = t->bytes;
	double dur = t->last_ns > t->first_ns ? (double)(t->last_ns - t->first_ns) / 1e9 : 0;
	double cpu = (c1->user_s - c0->user_s) + (c1->sys_s - c0->sys_s);
	char spec[48], run[16];

	work_spec(&cfg.work, spec, sizeof spec);
	/* the run every thread locked onto (a proven fin may have named it before any data) */
	snprintf(run, sizeof run, "%08x", (uint32_t)atomic_load(&rx0->sh->run));

	report_str(r, "tool", "suck");
	report_str(r, "version", version_text);
	report_str(r, "variant", cfg.variant->name);
	report_str(r, "work", spec);
	report_str(r, "addr", where);
	report_str(r, "run_id", run);
	report_str(r, "stop", rx_stop_names[t->stop]);
	report_u64(r, "received", received);
	report_u64(r, "valid", t->seq.valid);
	report_u64(r, "foreign", t->foreign);
	report_u64(r, "other_run", t->other_run);
	report_u64(r, "other_src", t->other_src);
	report_u64(r, "forged_fins", t->forged_fins);
	report_u64(r, "keyed", (uint64_t)run_key.set);
	report_u64(r, "truncated", t->truncated);
	report_u64(r, "dup", t->seq.dup);
	report_u64(r, "late", t->seq.late);
	report_u64(r, "reordered", t->seq.reordered);
	report_u64(r, "sent", t->seq.sent);
	report_u64(r, "sent_estimated", (uint64_t)t->seq.sent_estimated);
	report_u64(r, "lost", t->seq.lost);
	report_u64(r, "dropped", t->dropped);
	report_u64(r, "elsewhere", t->seq.lost - t->dropped);
	report_i64(r, "kernel_drops", t->kernel_drops);
	report_f(r, "segs_per_buf", t->segs_per_buf, 2);
	report_u64(r, "flows", t->seq.flows);
	report_u64(r, "fins", t->seq.fins);
	report_u64(r, "bytes", bytes);
	report_f(r, "duration_s", dur, 6);
	report_f(r, "pps", dur > 0 ? (double)received / dur : 0, 0);
	report_f(r, "mbps", dur > 0 ? (double)bytes * 8 / dur / 1e6 : 0, 1);
	report_f(r, "user_s", c1->user_s - c0->user_s, 3);
	report_f(r, "sys_s", c1->sys_s - c0->sys_s, 3);
	report_f(r, "cpu_ns_per_pkt", received ? cpu * 1e9 / (double)received : 0, 1);
	report_u64(r, "rss_kib", sys_rss_kib());
	report_u64(r, "heap_kib", heap_kib);
	report_u64(r, "allocs", t->allocs);
	report_u64(r, "calls", t->calls);
	report_u64(r, "idle_calls", t->idle_calls);
	report_u64(r, "digest", work_digest(&t->work));
	report_i64(r, "rcvbuf", rcvbuf);
	report_u64(r, "bufsize", cfg.bufsize);
	report_u64(r, "batch", cfg.batch);
	report_u64(r, "threads", cfg.threads);
	report_u64(r, "retain", cfg.retain);
	report_f(r, "time_limit_s", cfg.time_s, 3);
	report_f(r, "idle_s", cfg.idle_s, 3);
	report_u64(r, "spin", (uint64_t)cfg.spin);
	report_str(r, "uring_setup", rx0->mech ? rx0->mech : "-");
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
}

/* Each failure once: the threads whose call failed say why, the same call and errno once with
 * the number of threads; the others only stopped because of them and say nothing. */
static void report_errors(void)
{
	for (unsigned i = 0; i < cfg.threads; i++) {
		const struct rx *rx = &rxs[i];
		unsigned same = 0, earlier = 0;

		if (!rx->error_call)
			continue;
		for (unsigned k = 0; k < cfg.threads; k++) {
			const struct rx *o = &rxs[k];
			if (o->error_call && strcmp(o->error_call, rx->error_call) == 0 && o->error == rx->error) {
				same++;
				earlier += k < i;
			}
		}
		if (earlier)
			continue;
		if (same > 1) {
			warnx("%s: %s (%u threads)", rx->error_call, strerror(rx->error), same);
		} else {
			errno = rx->error;
			warn("%s", rx->error_call);
		}
	}
}

int main(int argc, char **argv)
{
	static pthread_t tids[MAX_THREADS];
	static struct rx_shared sh;
	static struct total tot;
	const struct variant *v;
	struct net_addr a, bound;
	struct sys_cpu c0, c1;
	struct report r;
	char where[80];
	const char *err;
	int rcvbuf, rc = 0;
	unsigned started = 0;   /* threads running (-j 2 and more) */
	int64_t kdrops = 0;
	uint64_t heap_kib;
	uint32_t other_id = 0;

	opt_prog = "suck";
	if (sys_start() < 0)
		return 1;
	parse(argc, argv);
	v = cfg.variant;
	if (cfg.run_id)
		atomic_store(&sh.run, 1ull << 32 | cfg.run_id);
	sh.key = run_key;
	sh.start_real_ns = sys_real_ns();
	if ((err = net_resolve(cfg.addr, cfg.port, &a)))
		opt_die("-a '%s': %s", cfg.addr, err);
	for (unsigned i = 0; i < cfg.threads; i++) {
		int fd = open_socket(&a);
		if (fd < 0)
			return 1;
		/* With -p 0 the first socket picks the port; the others join it. */
		if (i == 0 && net_local(fd, &a) < 0) {
			warn("getsockname");
			return 1;
		}
		if (rx_init(&rxs[i], fd, i, &cfg, &sh) < 0) {
			warn("mmap for the sequence tracker");
			return 1;
		}
		int st = v->setup(&rxs[i]);
		if (st == VARIANT_UNSUPPORTED) {
			warn("-m %s: this kernel does not offer it", v->name);
			return 4;
		}
		if (st < 0) {
			warn("-m %s: setting up", v->name);
			return 1;
		}
	}
	rcvbuf = net_rcvbuf(rxs[0].fd, 0);
	net_local(rxs[0].fd, &bound);
	net_format(&bound, where, sizeof where);
	if (cfg.rcvbuf && rcvbuf < cfg.rcvbuf)
		fprintf(stderr, "suck: warning: asked for -R %d, the kernel granted %d (net.core.rmem_max)\n",
			cfg.rcvbuf, rcvbuf);
	fprintf(stderr, "suck: listening on %s\n", where);

	sys_cpu_now(&c0);
	/* One socket: receive on the main thread. A process that never starts a thread keeps
	 * glibc's single-thread fast paths (no cancellation bookkeeping around each recv call),
	 * which is what a bare receive loop gets too. */
	if (cfg.threads == 1)
		worker_main(&rxs[0]);
	for (started = 0; cfg.threads > 1 && started < cfg.threads; started++) {
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
	if (cfg.threads > 1)
		cfg.threads = started;
	sys_cpu_now(&c1);
	heap_kib = sys_heap_kib();
	for (unsigned i = 0; i < cfg.threads; i++) {
		int64_t d = net_drops(rxs[i].fd);
		if (d < 0)
			kdrops = -1;
		else if (kdrops >= 0)
			kdrops += d;
		if (rxs[i].error_call)
			rc = 1;
		if (rxs[i].other_id && !other_id)
			other_id = rxs[i].other_id;
	}
	report_errors();
	if (cfg.threads == 0)
		return rc;
	total_sum(rxs, cfg.threads, kdrops, &tot);
	if (other_id)
		fprintf(stderr, "suck: warning: datagrams of another run arrived (run id %08x%s); they are "
			"counted as foreign (other_run)%s\n", other_id, cfg.run_id ? "" : ", after the first",
			cfg.run_id ? "" : ": give suck and blast the same --run-id");
	if (tot.latency && tot.lat.negative)
		warnx("warning: %llu datagrams carried a send time later than they were received: blast's "
		      "and suck's clocks are not in step (two hosts? synchronise them, e.g. with PTP); "
		      "they are left out of the latency figures (lat_negative)",
		      (unsigned long long)tot.lat.negative);
	if (tot.forged_fins)
		fprintf(stderr, "suck: warning: %llu fins carried a tag the run key did not make; they are "
			"counted as foreign (forged_fins)%s\n", (unsigned long long)tot.forged_fins,
			tot.seq.fins ? "" : ": does blast have the same run key (BS_RUN_KEY or --key-file)?");
	if (kdrops < 0)
		fprintf(stderr, "suck: warning: socket not found in /proc/net/udp: dropped unknown, reported as 0\n");

	report_init(&r);
	add_report(&r, &tot, &rxs[0], where, rcvbuf, heap_kib, &c0, &c1);
	if (report_write(&r, (enum report_fmt)cfg.fmt, stdout) < 0) {
		warn("writing the report");
		rc = 1;
	}
	for (unsigned i = 0; i < cfg.threads; i++) {
		v->teardown(&rxs[i]);
		rx_free(&rxs[i]);
		close(rxs[i].fd);
	}
	return rc;
}
