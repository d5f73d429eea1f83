/* suck: receive blast's datagrams with one receive strategy, run the same work on each, and
 * report what was processed, what was lost and where, the CPU used and the memory held.
 * Options and defaults are here (the limits in suck.h); the receive loops are in one file per
 * variant; what they share is in rx.c. main is setup, run and finish; --check sets up one
 * socket and the variant as a run would, reports the settings instead, and closes it.
 * Exit: 0 report printed (or checked), 1 runtime failure, 2 bad usage, 4 a variant this kernel
 * does not offer. */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "echo.h"
#include "mark.h"
#include "mcast.h"
#include "net.h"
#include "opt.h"
#include "report.h"
#include "sys.h"
#include "suck.h"
#include "carry.h"
#include "drops.h"
#include "fanin.h"
#include "kernel.h"
#include "one.h"
#include "serve.h"
#include "total.h"
#include "variant.h"
#include "version.h"

const struct variant *const variants[] = {
	&variant_copy, &variant_buffer, &variant_mmsg, &variant_gro, &variant_uring, &variant_epoll,
	&variant_pool, &variant_xdp, NULL,
};
const struct variant *const variant_default = &variant_buffer;

static struct suck_cfg cfg = {
	.addr = "127.0.0.1",
	.port = 22222,
	.work = { .kind = WORK_HISTOGRAM, .reps = 1 },
	.bufsize = SUCK_MAX_BUFSIZE,
	.threads = 1,
	.workers = 1,
	.queue = 8,
	.cpu = -1,
	.echo_budget = SUCK_ECHO_BUDGET,
};
static int drops_on;           /* --drops */
static struct drops *drops;    /* --drops: the program, attached from setup to close_all */

static void usage(FILE *out)
{
	fprintf(out,
"usage: suck [options]\n"
"Receive UDP datagrams from blast, run a work function on each, report what arrived.\n"
"  -a, --addr ADDR      address to bind (127.0.0.1; ::1, 0.0.0.0, ::, a host name; with\n"
"                       --join, the group)\n"
"  -p, --port PORT      port (22222; 0 = a free port, printed on stderr)\n"
"  -m, --variant NAME   receive strategy (buffer; list: names and what they do):\n");
	for (int i = 0; variants[i]; i++)
		fprintf(out, "                         %-7s %s\n", variants[i]->name, variants[i]->what);
	fprintf(out,
"  -w, --work WORK      per-datagram work: none, histogram, checksum; NAME:N repeats it\n"
"                       N times (histogram)\n"
"  -b, --batch N        datagrams (gro: buffers) per recvmmsg, 1..%d (mmsg 32, gro 8,\n"
"                       pool 32; epoll 1: recvmsg; xdp: frames per pass over the RX\n"
"                       ring, 64)\n"
"  -s, --size BYTES     receive buffer per datagram, 1..%d (%d); larger datagrams\n"
"                       are counted as truncated\n"
"  -t, --time SECS      stop after SECS (0 = no limit)\n"
"      --idle SECS      stop SECS after the last datagram (0 = never)\n"
"      --serve          after a run ends on its fins, report it and wait for the next\n"
"                       on the same sockets, a report row per run (not xdp)\n"
"      --runs N         --serve: stop after N runs, 1..%u (no limit)\n"
"      --run-timeout SECS  --serve: end a run SECS after it locked, unfinished, report\n"
"                       it and serve the next (0 = never)\n"
"      --senders N      fan-in: count N runs (blasts) at once, each locked on its own\n"
"                       first datagram, a report row each and a total row, 1..%u (one\n"
"                       run; not with --serve, --echo)\n"
"  -R, --rcvbuf BYTES   socket receive buffer, SO_RCVBUF (kernel default)\n"
"  -j, --threads N      N sockets with SO_REUSEPORT, one thread each, 1..%d (1)\n"
"      --one-socket     -j: the N threads share one socket (no SO_REUSEPORT), each batch\n"
"                       counted under one lock (mmsg; not with --serve, --senders,\n"
"                       --jitter, --gaps, --echo, --join; off)\n"
"      --retain N       copy: keep the last N copies alive, 0..%d (0)\n"
"      --run-id ID      accept only this run (blast --run-id), 1..4294967295 (the run of\n"
"                       the first data datagram); --serve and --senders N: ID,ID,... the\n"
"                       runs expected, up to %u (--senders: N of them), no other may start\n"
"      --key-file FILE  the run key, 32 hex digits, from FILE ('-' = stdin; default: the\n"
"                       environment's BS_RUN_KEY, else none): believe only fins it tags\n"
"      --latency        one-way delay of every datagram, from blast's send time to the\n"
"                       work, split at the kernel's receive stamp (off: a clock read each)\n"
"      --join GROUP     join a multicast group (224.0.0.0/4, ff00::/8) and receive its\n"
"                       datagrams; other receivers of the group share the port (off)\n"
"      --source ADDR    --join: from this source only (source-specific multicast)\n"
"      --mc-if IFNAME   --join: the interface to join on (the route's)\n"
"      --echo           send every valid datagram back to its source after the work, for\n"
"                       blast --rtt (copy, buffer, mmsg; off); a reply is never larger\n"
"                       than its request unless --echo-max allows it\n"
"      --echo-max BYTES  --echo: a reply may be as large as a request asks, up to BYTES,\n"
"                       0..%d (0: no larger than the request)\n"
"      --echo-budget BYTES  --echo: bytes a second that replies to one source address may\n"
"                       carry beyond their requests; a reply over it is not sent, 1..16G\n"
"                       (64M)\n"
"      --jitter         RFC 3550 interarrival jitter of every flow, and the percentiles of\n"
"                       the delay variation |D|, from the kernel's receive stamps (off)\n"
"      --gaps           the gaps between each flow's datagrams as they arrived, from the\n"
"                       kernel's receive stamps: mean, variation, percentiles (off)\n"
"      --marks          read the TOS (traffic class) and TTL (hop limit) of every valid\n"
"                       datagram: the first's, and how many differ from it (off)\n"
"      --spin           never block: poll with MSG_DONTWAIT (buffer, mmsg, gro, xdp; off)\n"
"      --rx-dev DEV     count the receiving device's NAPI threads' CPU and the softirq\n"
"                       time of the --cpu CPUs as the kernel's receive work (off)\n"
"      --drops          count where the kernel dropped the run's datagrams, by reason (a\n"
"                       BPF program on the tracepoint skb:kfree_skb; root; not xdp,\n"
"                       --senders; off)\n"
"      --edge           epoll: edge-triggered (EPOLLET), each wakeup drained to EAGAIN\n"
"                       (off: level-triggered)\n"
"      --workers N      pool: worker threads that run the work, 1..%d (1)\n"
"      --queue SLOTS    pool: batches that may wait for a worker, 1..%d (8)\n"
"      --queue-full HOW pool, a full queue: block (the receiver waits, the kernel\n"
"                       drops) or drop (suck drops the batch: queue_dropped) (block)\n"
"      --busy-poll USECS  SO_BUSY_POLL: a blocking receive (epoll: epoll_wait) polls\n"
"                       the device's NAPI for up to USECS, 1..%d; not on uring (off)\n"
"      --prefer-busy-poll  SO_PREFER_BUSY_POLL, with --busy-poll (off)\n"
"      --busy-poll-budget N  SO_BUSY_POLL_BUDGET, with --busy-poll, 1..%d (the kernel's)\n"
"      --xdp-dev DEV    xdp: the device to attach to (the one that holds -a's address)\n"
"      --xdp-zc         xdp: AF_XDP in zero-copy mode, where the driver offers it (copy)\n"
"      --cpu N          pin thread i to CPU N+i\n"
"  -o, --output FMT     text, tsv or json (text)\n"
"  -i, --interval SECS  progress line on stderr every SECS (off)\n"
"      --check          check the options, bind one socket and set up the variant as\n"
"                       a run would, print the settings as one report row (check 1),\n"
"                       close it and exit; nothing is received\n"
"  -h, --help           this text\n"
"  -V, --version        version\n"
"Numbers take k, M, G (sizes in bytes: 1024-based); durations s, ms, us, ns, m.\n"
"Stops on a fin from every flow, SIGINT/SIGTERM, -t or --idle; the report is always printed\n"
"(--serve: each run's as it ends; -t and --idle count from the start of serving).\n",
		SUCK_MAX_BATCH, SUCK_MAX_BUFSIZE, SUCK_MAX_BUFSIZE, SUCK_MAX_RUNS, SUCK_MAX_SENDERS, SUCK_MAX_THREADS,
		SUCK_MAX_RETAIN, SUCK_MAX_RUN_IDS, WIRE_MAX_REPLY,
		SUCK_MAX_WORKERS, SUCK_MAX_QUEUE, SUCK_MAX_BUSY_POLL, SUCK_MAX_BUSY_BUDGET);
}

/* " mmsg, gro": the variants an option applies to, for its message. */
enum { WHERE_BATCH, WHERE_SPIN, WHERE_EVENTS, WHERE_POOL, WHERE_BUSY, WHERE_ECHO, WHERE_SHARE };
static const char *names_where(int which)
{
	static char buf[128];
	size_t len = 0;

	buf[0] = 0;
	for (int i = 0; variants[i]; i++) {
		const struct variant *v = variants[i];
		int has = which == WHERE_BATCH ? v->batch != 0 : which == WHERE_SPIN ? v->spins :
			  which == WHERE_EVENTS ? v->events : which == WHERE_POOL ? v->pools :
			  which == WHERE_ECHO ? v->echoes : which == WHERE_SHARE ? v->shares : v->busy_polls;
		if (has && len < sizeof buf)
			len += (size_t)snprintf(buf + len, sizeof buf - len, "%s %s", len ? "," : "", v->name);
	}
	return buf;
}

static char help_buf[1 << 14]; /* stdout's buffer for -h */

/* --run-id ID[,ID...]: each 1..2^32-1, at most SUCK_MAX_RUN_IDS, none twice. */
static void run_ids(const char *arg)
{
	char buf[16 * SUCK_MAX_RUN_IDS];
	char *save = NULL, *tok;

	if (strlen(arg) >= sizeof buf)
		opt_die("--run-id '%.20s...': at most %u ids", arg, SUCK_MAX_RUN_IDS);
	strcpy(buf, arg);
	cfg.nrun_ids = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint32_t id = (uint32_t)opt_u64("--run-id", tok, OPT_PLAIN, 1, UINT32_MAX);
		if (cfg.nrun_ids == SUCK_MAX_RUN_IDS)
			opt_die("--run-id: at most %u ids", SUCK_MAX_RUN_IDS);
		for (unsigned i = 0; i < cfg.nrun_ids; i++)
			if (cfg.run_ids[i] == id)
				opt_die("--run-id: %s named twice", tok);
		cfg.run_ids[cfg.nrun_ids++] = id;
	}
	if (!cfg.nrun_ids || arg[strlen(arg) - 1] == ',' || arg[0] == ',' || strstr(arg, ",,"))
		opt_die("--run-id '%s': ids 1..4294967295, separated by commas", arg);
}

static void parse(int argc, char **argv)
{
	enum { O_IDLE = 256, O_RETAIN, O_CPU, O_RUNID, O_LATENCY, O_SPIN, O_KEYFILE, O_CHECK, O_RXDEV,
	       O_EDGE, O_WORKERS, O_QUEUE, O_QUEUE_FULL, O_BUSY, O_PREFER, O_BUDGET,
	       O_XDPDEV, O_XDPZC,
	       O_MARKS, O_JITTER, O_ECHO, O_ECHO_MAX, O_ECHO_BUDGET, O_JOIN, O_SOURCE, O_MC_IF, O_SERVE,
	       O_RUNS, O_RUN_TIMEOUT, O_SENDERS, O_ONE, O_GAPS, O_DROPS };
	static const char *const queue_full_names[] = { "block", "drop", NULL };
	static const struct option longs[] = {
		{ "addr", required_argument, 0, 'a' }, { "port", required_argument, 0, 'p' },
		{ "variant", required_argument, 0, 'm' }, { "work", required_argument, 0, 'w' },
		{ "batch", required_argument, 0, 'b' }, { "size", required_argument, 0, 's' },
		{ "time", required_argument, 0, 't' }, { "idle", required_argument, 0, O_IDLE },
		{ "rcvbuf", required_argument, 0, 'R' }, { "threads", required_argument, 0, 'j' },
		{ "retain", required_argument, 0, O_RETAIN }, { "cpu", required_argument, 0, O_CPU },
		{ "run-id", required_argument, 0, O_RUNID }, { "latency", no_argument, 0, O_LATENCY },
		{ "spin", no_argument, 0, O_SPIN }, { "key-file", required_argument, 0, O_KEYFILE },
		{ "rx-dev", required_argument, 0, O_RXDEV },
		{ "check", no_argument, 0, O_CHECK }, { "edge", no_argument, 0, O_EDGE },
		{ "workers", required_argument, 0, O_WORKERS }, { "queue", required_argument, 0, O_QUEUE },
		{ "queue-full", required_argument, 0, O_QUEUE_FULL },
		{ "busy-poll", required_argument, 0, O_BUSY }, { "prefer-busy-poll", no_argument, 0, O_PREFER },
		{ "busy-poll-budget", required_argument, 0, O_BUDGET },
		{ "xdp-dev", required_argument, 0, O_XDPDEV }, { "xdp-zc", no_argument, 0, O_XDPZC },
		{ "marks", no_argument, 0, O_MARKS },
		{ "jitter", no_argument, 0, O_JITTER }, { "echo", no_argument, 0, O_ECHO },
		{ "echo-max", required_argument, 0, O_ECHO_MAX },
		{ "echo-budget", required_argument, 0, O_ECHO_BUDGET },
		{ "join", required_argument, 0, O_JOIN }, { "source", required_argument, 0, O_SOURCE },
		{ "mc-if", required_argument, 0, O_MC_IF },
		{ "serve", no_argument, 0, O_SERVE }, { "runs", required_argument, 0, O_RUNS },
		{ "run-timeout", required_argument, 0, O_RUN_TIMEOUT },
		{ "senders", required_argument, 0, O_SENDERS },
		{ "one-socket", no_argument, 0, O_ONE }, { "gaps", no_argument, 0, O_GAPS },
		{ "drops", no_argument, 0, O_DROPS },
		{ "output", required_argument, 0, 'o' }, { "interval", required_argument, 0, 'i' },
		{ "help", no_argument, 0, 'h' }, { "version", no_argument, 0, 'V' },
		{ 0, 0, 0, 0 },
	};
	const char *names[sizeof variants / sizeof variants[0]]; /* as many, NULL-terminated too */
	int c, batch_set = 0, retain_set = 0, pool_set = 0, addr_set = 0;
	const char *err, *key_file = NULL, *echo_only = NULL; /* an option of --echo's, for its message */

	for (int i = 0; variants[i]; i++)
		names[i] = variants[i]->name, names[i + 1] = NULL;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":a:p:m:w:b:s:t:R:j:o:i:hV", longs, NULL)) != -1) {
		switch (c) {
		case 'a': cfg.addr = optarg; addr_set = 1; break;
		case 'p': cfg.port = (unsigned)opt_u64("-p", optarg, OPT_PLAIN, 0, 65535); break;
		case 'm':
			if (strcmp(optarg, "list") == 0) {
				for (int i = 0; variants[i]; i++)
					printf("%s\t%s\n", variants[i]->name, variants[i]->what);
				opt_done();
			}
			cfg.variant = variants[opt_name("-m", optarg, names)];
			break;
		case 'w':
			if ((err = work_parse(optarg, &cfg.work)))
				opt_die("-w '%s': %s; accepted: none, histogram, checksum, each with :N, "
					"N 1..%u", optarg, err, WORK_MAX_REPS);
			break;
		case 'b': cfg.batch = (unsigned)opt_u64("-b", optarg, OPT_COUNT, 1, SUCK_MAX_BATCH); batch_set = 1; break;
		case 's': cfg.bufsize = (unsigned)opt_u64("-s", optarg, OPT_BYTES, 1, SUCK_MAX_BUFSIZE); break;
		case 't': cfg.time_s = opt_secs("-t", optarg, 0, 1e7); break;
		case O_IDLE: cfg.idle_s = opt_secs("--idle", optarg, 0, 1e7); break;
		case 'R': cfg.rcvbuf = (int)opt_u64("-R", optarg, OPT_BYTES, SUCK_MIN_RCVBUF, SUCK_MAX_RCVBUF); break;
		case 'j': cfg.threads = (unsigned)opt_u64("-j", optarg, OPT_PLAIN, 1, SUCK_MAX_THREADS); break;
		case O_RETAIN:
			cfg.retain = (unsigned)opt_u64("--retain", optarg, OPT_COUNT, 0, SUCK_MAX_RETAIN);
			retain_set = 1;
			break;
		case O_LATENCY: cfg.latency = 1; break;
		case O_SPIN: cfg.spin = 1; break;
		case O_MARKS: cfg.marks = 1; break;
		case O_JITTER: cfg.jitter = 1; break;
		case O_GAPS: cfg.gaps = 1; break;
		case O_ECHO: cfg.echo = 1; break;
		case O_ECHO_MAX:
			cfg.echo_max = (unsigned)opt_u64("--echo-max", optarg, OPT_BYTES, 0, WIRE_MAX_REPLY);
			echo_only = "--echo-max";
			break;
		case O_ECHO_BUDGET:
			cfg.echo_budget = opt_u64("--echo-budget", optarg, OPT_BYTES, 1, SUCK_MAX_ECHO_BUDGET);
			echo_only = "--echo-budget";
			break;
		case O_JOIN: cfg.join = optarg; break;
		case O_SERVE: cfg.serve = 1; break;
		case O_RUNS: cfg.runs = opt_u64("--runs", optarg, OPT_COUNT, 1, SUCK_MAX_RUNS); break;
		case O_RUN_TIMEOUT: cfg.run_timeout_s = opt_secs("--run-timeout", optarg, 0, 1e7); break;
		case O_SENDERS:
			cfg.senders = (unsigned)opt_u64("--senders", optarg, OPT_PLAIN, 1, SUCK_MAX_SENDERS);
			break;
		case O_ONE: cfg.one_socket = 1; break;
		case O_DROPS: drops_on = 1; break;
		case O_SOURCE: cfg.source = optarg; break;
		case O_MC_IF:
			cfg.mc_if = optarg;
			if (!(cfg.mc_ifindex = if_nametoindex(optarg)))
				opt_die("--mc-if '%s': no such interface here", optarg);
			break;
		case O_RUNID: run_ids(optarg); break;
		case O_KEYFILE: key_file = optarg; break;
		case O_RXDEV:
			if (!*optarg || strlen(optarg) >= 16 || strchr(optarg, '/'))
				opt_die("--rx-dev '%s': a device name of 1..15 characters, no '/'", optarg);
			cfg.rx_dev = optarg;
			break;
		case O_XDPDEV:
			if (!*optarg || strlen(optarg) >= 16 || strchr(optarg, '/'))
				opt_die("--xdp-dev '%s': a device name of 1..15 characters, no '/'", optarg);
			cfg.xdp_dev = optarg;
			break;
		case O_XDPZC: cfg.xdp_zc = 1; break;
		case O_CPU: cfg.cpu = (int)opt_u64("--cpu", optarg, OPT_PLAIN, 0, sys_ncpu() - 1); break;
		case 'o': cfg.fmt = opt_name("-o", optarg, report_fmt_names); break;
		case 'i': cfg.interval_s = opt_secs("-i", optarg, 0.01, 1e6); break;
		case O_CHECK: cfg.check = 1; break;
		case O_EDGE: cfg.edge = 1; break;
		case O_WORKERS:
			cfg.workers = (unsigned)opt_u64("--workers", optarg, OPT_PLAIN, 1, SUCK_MAX_WORKERS);
			pool_set = 1;
			break;
		case O_QUEUE:
			cfg.queue = (unsigned)opt_u64("--queue", optarg, OPT_COUNT, 1, SUCK_MAX_QUEUE);
			pool_set = 1;
			break;
		case O_QUEUE_FULL: cfg.queue_drop = opt_name("--queue-full", optarg, queue_full_names); pool_set = 1; break;
		case O_BUSY: cfg.busy_poll = (unsigned)opt_u64("--busy-poll", optarg, OPT_PLAIN, 1, SUCK_MAX_BUSY_POLL); break;
		case O_PREFER: cfg.prefer_busy_poll = 1; break;
		case O_BUDGET:
			cfg.busy_budget = (unsigned)opt_u64("--busy-poll-budget", optarg, OPT_PLAIN, 1, SUCK_MAX_BUSY_BUDGET);
			break;
		case 'h':
			/* One buffer for the whole text (over 4 KiB): a write that fails part-way then
			 * fails in opt_done's fflush, whose errno it names (ENOSPC), not earlier in
			 * stdio, which keeps no errno. */
			setvbuf(stdout, help_buf, _IOFBF, sizeof help_buf); /* glibc: a size alone is ignored */
			usage(stdout);
			opt_done();
		case 'V': printf("suck %s\n", version_text); opt_done();
		case ':': opt_die("%s needs a value", argv[optind - 1]);
		default: opt_die("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		opt_die("unexpected argument '%s'", argv[optind]);
	if ((err = key_load(key_file, &cfg.key)))
		opt_die("%s", err);
	if (!cfg.variant)
		cfg.variant = variant_default;
	if (batch_set && !cfg.variant->batch)
		opt_die("-b applies to -m%s; %s does not batch receive calls", names_where(WHERE_BATCH),
			cfg.variant->name);
	if (!batch_set)
		cfg.batch = cfg.variant->batch ? cfg.variant->batch : 1;
	if (retain_set && !cfg.variant->retains)
		opt_die("--retain applies to -m copy only");
	if (cfg.spin && !cfg.variant->spins)
		opt_die("--spin applies to -m%s; %s cannot poll", names_where(WHERE_SPIN), cfg.variant->name);
	if (cfg.edge && !cfg.variant->events)
		opt_die("--edge applies to -m%s; %s has no event loop", names_where(WHERE_EVENTS),
			cfg.variant->name);
	if (pool_set && !cfg.variant->pools)
		opt_die("--workers, --queue and --queue-full apply to -m%s; %s has no worker threads",
			names_where(WHERE_POOL), cfg.variant->name);
	if (cfg.busy_poll && !cfg.variant->busy_polls)
		opt_die("--busy-poll applies to -m%s, which block in a receive call or epoll_wait; %s "
			"does not", names_where(WHERE_BUSY), cfg.variant->name);
	if ((cfg.prefer_busy_poll || cfg.busy_budget) && !cfg.busy_poll)
		opt_die("--prefer-busy-poll and --busy-poll-budget need --busy-poll USECS");
	if ((cfg.xdp_dev || cfg.xdp_zc) && !cfg.variant->device)
		opt_die("%s applies to -m xdp only", cfg.xdp_dev ? "--xdp-dev" : "--xdp-zc");
	if (cfg.echo && !cfg.variant->echoes)
		opt_die("--echo applies to -m%s; %s cannot reply", names_where(WHERE_ECHO), cfg.variant->name);
	if (echo_only && !cfg.echo)
		opt_die("%s applies to --echo", echo_only);
	if ((cfg.runs || cfg.run_timeout_s > 0) && !cfg.serve)
		opt_die("%s applies to --serve", cfg.runs ? "--runs" : "--run-timeout");
	/* Every run of a server has its own id (blast's random one): a fixed one would make a
	 * late datagram of the run before one of the next. */
	/* --serve and --senders: the runs named may start, in any order; a lone run is fixed */
	if (cfg.nrun_ids > 1 && !cfg.serve && !cfg.senders)
		opt_die("--run-id with %u ids: a list names the runs of --serve or --senders; a single "
			"run takes one", cfg.nrun_ids);
	if (cfg.senders && cfg.nrun_ids && cfg.nrun_ids != cfg.senders)
		opt_die("--senders %u with --run-id: name %u runs, not %u", cfg.senders, cfg.senders,
			cfg.nrun_ids);
	if (!cfg.serve && !cfg.senders && cfg.nrun_ids)
		cfg.run_id = cfg.run_ids[0];
	/* xdp is set up again between runs: its program off the device and on again, unserved */
	if (cfg.serve && cfg.variant->device)
		opt_die("--serve applies to every variant but -m xdp");
	/* --serve runs one run at a time on the sockets, resetting what the threads share between
	 * runs; concurrent runs would each need their own end and reset while the others go on. */
	if (cfg.senders && cfg.serve)
		opt_die("--senders with --serve: a server takes its runs one after another; concurrent "
			"runs are counted by one suck --senders N run");
	/* --echo's replies are queued per receiving socket and sent after the batch: not per run */
	if (cfg.senders && cfg.echo)
		opt_die("--senders with --echo: fan-in counts runs apart, the replies of blast --rtt are "
			"one run's; run one suck --echo per blast");
	if (cfg.senders && cfg.senders * cfg.threads > SUCK_MAX_LANES)
		opt_die("--senders %u with -j %u: at most %u trackers (senders x threads)", cfg.senders,
			cfg.threads, SUCK_MAX_LANES);
	/* --one-socket: the threads' batches are counted into one receive state (one.c), which
	 * needs a batch to lock once for, and a run alone's shape around it. */
	if (cfg.one_socket) {
		if (!cfg.variant->shares)
			opt_die("--one-socket applies to -m%s; %s hands its datagrams to no shared count",
				names_where(WHERE_SHARE), cfg.variant->name);
		if (cfg.threads < 2)
			opt_die("--one-socket shares one socket between -j threads: give -j 2 or more");
		if (cfg.serve || cfg.senders)
			opt_die("--one-socket with %s: one socket read by several threads is counted as one "
				"run at a time", cfg.serve ? "--serve" : "--senders");
		/* RFC 3550's D is between datagrams in arrival order; the accountant sees batches in
		 * the order the threads take its lock */
		if (cfg.jitter || cfg.gaps)
			opt_die("--one-socket with %s: the threads' batches are counted in the order "
				"they take the lock, not the order they arrived, and %s needs the latter",
				cfg.jitter ? "--jitter" : "--gaps", cfg.jitter ? "jitter" : "a gap");
		if (cfg.echo)
			opt_die("--one-socket with --echo: the replies are queued per thread; run -j without "
				"--one-socket");
		if (cfg.join)
			opt_die("--one-socket with --join: not offered; a group's receiver is one thread");
	}
	/* --drops counts what reaches the kernel's sk_buff path: xdp's frames never do; --senders'
	 * runs would each need their own row's drops */
	if (drops_on && (cfg.variant->device || cfg.senders))
		opt_die("--drops with %s: %s", cfg.senders ? "--senders" : "-m xdp", cfg.senders ?
			"the drops are counted for one run at a time" :
			"its frames go to an AF_XDP ring, past the sk_buff the drops are counted on");
	if ((cfg.source || cfg.mc_if) && !cfg.join)
		opt_die("%s applies to --join", cfg.source ? "--source" : "--mc-if");
	if (cfg.join) {
		if ((err = net_resolve(cfg.join, cfg.port, &cfg.group)))
			opt_die("--join '%s': %s", cfg.join, err);
		if (!mcast_is_group(&cfg.group))
			opt_die("--join '%s': not a multicast group; accepted: 224.0.0.0/4, ff00::/8", cfg.join);
		/* Every socket of a group gets every datagram: -j would count each many times. */
		if (cfg.threads > 1)
			opt_die("--join with -j %u: every socket in a group receives every datagram; run one "
				"suck per socket", cfg.threads);
		if (cfg.source && (err = net_resolve(cfg.source, 0, &cfg.from)))
			opt_die("--source '%s': %s", cfg.source, err);
		if (cfg.source && (mcast_is_group(&cfg.from) || cfg.from.ss.ss_family != cfg.group.ss.ss_family))
			opt_die("--source '%s': a unicast address of the group's family", cfg.source);
		/* Bound to the group, a socket receives that group's datagrams only. */
		if (!addr_set)
			cfg.addr = cfg.join;
	}
	if ((err = net_resolve(cfg.addr, cfg.port, &cfg.to)))
		opt_die("-a '%s': %s", cfg.addr, err);
	if (cfg.join && cfg.to.ss.ss_family != cfg.group.ss.ss_family)
		opt_die("-a '%s' with --join '%s': bind an address of the group's family (or leave -a out: "
			"the group)", cfg.addr, cfg.join);
	/* A source address is whatever a datagram says: on a wildcard, any host that reaches the
	 * port can aim the replies at a third (echo.h says what bounds them). */
	if (cfg.echo && net_is_any(&cfg.to)) {
		if (cfg.echo_max)
			fprintf(stderr, "suck: warning: --echo on %s: any host that can reach the port gets replies, "
				"sent to whatever source its datagrams name, no larger than its requests or %u bytes, "
				"under a budget per source of %llu bytes a second beyond its requests (--echo-budget)\n",
				cfg.addr, cfg.echo_max, (unsigned long long)cfg.echo_budget);
		else
			fprintf(stderr, "suck: warning: --echo on %s: any host that can reach the port gets replies, "
				"sent to whatever source its datagrams name, no larger than its requests (larger only "
				"with --echo-max, under a budget per source)\n", cfg.addr);
	}
	/* Every check on the options is above: --check (main) relies on it. */
}

static struct rx rxs[SUCK_MAX_THREADS]; /* one per socket and thread, side by side for total_sum */
static struct rx_shared sh;
static struct fanin *fan;      /* --senders: the runs' slots and lanes */
static struct one *onesock;    /* --one-socket: the threads' one receive state */
static struct carry *carries[SUCK_MAX_THREADS]; /* where runs may follow runs: each thread's */

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

/* --busy-poll on a socket: 0, or the exit code with the message said (1; 4 where the kernel was
 * built without busy polling). */
static int busy_poll(int fd)
{
	const char *opt = net_busy_poll(fd, cfg.busy_poll, cfg.prefer_busy_poll, cfg.busy_budget);
	int e = errno;

	if (!opt)
		return 0;
	if (e == ENOPROTOOPT) {
		warnx("setsockopt %s: %s: this kernel has no busy polling (CONFIG_NET_RX_BUSY_POLL)", opt,
		      strerror(e));
		return 4;
	}
	if (e == EPERM) {
		warnx("setsockopt %s: %s: %s needs CAP_NET_ADMIN", opt, strerror(e),
		      !strcmp(opt, "SO_BUSY_POLL") ? "raising it above net.core.busy_poll" :
		      !strcmp(opt, "SO_PREFER_BUSY_POLL") ? "--prefer-busy-poll" :
		      "a --busy-poll-budget above the socket's");
		return 1;
	}
	warnx("setsockopt %s: %s", opt, strerror(e));
	return 1;
}

/* --source S on this host, whose datagrams to the group the kernel sends from another address
 * (on lo: 127.0.0.1 has host scope, which a multicast route never picks, so another device's
 * address goes out): that address, which the source filter keeps out; empty when S is not kept
 * out or is another host's. */
static char source_kernel[INET6_ADDRSTRLEN];

/* A source-specific join said before a datagram is awaited: the source the kernel will give
 * this host's datagrams to the group when it is not --source's, which would otherwise let in
 * nothing, silently. */
static void source_said(void)
{
	struct net_addr k;
	const char *call = "";

	if (mcast_source_kept_out(&cfg.group, &cfg.from, cfg.mc_ifindex, &k, &call) != 1 ||
	    getnameinfo((const struct sockaddr *)&k.ss, k.len, source_kernel, sizeof source_kernel, NULL, 0,
			NI_NUMERICHOST) != 0) {
		source_kernel[0] = 0;
		return;
	}
	fprintf(stderr, "suck: warning: --source %s: a sender on this host sends to %s%s%s from %s, the "
		"address the kernel picks (ip route get %s%s%s), which the source filter keeps out; "
		"--source %s lets it in\n", cfg.source, cfg.join, cfg.mc_if ? " over " : "",
		cfg.mc_if ? cfg.mc_if : "", source_kernel, cfg.join, cfg.mc_if ? " oif " : "",
		cfg.mc_if ? cfg.mc_if : "", source_kernel);
}

/* A socket with the run's options, bound to a. With -j the port is suck's alone: the first
 * socket binds without SO_REUSEPORT, so a port that anyone holds (any listener, another
 * suck -j, a SO_REUSEPORT group) is refused as in use, and -p 0 gets a port nobody is on. Only
 * then does it take SO_REUSEPORT, which lets the others join: the kernel asks the flag of the
 * sockets already bound, at each join. The one exception, explicit: --join shares its port with
 * the group's other receivers (SO_REUSEADDR, below), since each gets every datagram. */
static int open_socket(const struct net_addr *a, int first)
{
	int fd = socket(a->ss.ss_family, SOCK_DGRAM, 0), one = 1, st;
	const char *call;
	struct timeval tick = { .tv_sec = 0, .tv_usec = RX_TICK_MS * 1000 };

	if (fd < 0) {
		warn("socket");
		return -1;
	}
	if (!first && setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one) < 0) {
		warn("setsockopt SO_REUSEPORT");
		return -1;
	}
	/* --join: every receiver of a group gets each of its datagrams, so the receivers of one
	 * group share the port: this is the one case where suck binds a port another socket may
	 * hold, and only another that asks for it too (SO_REUSEADDR on both). */
	if (cfg.join && setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0) {
		warn("setsockopt SO_REUSEADDR");
		return -1;
	}
	/* The tick bounds how long a blocked receive can miss a stop condition. */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tick, sizeof tick) < 0) {
		warn("setsockopt SO_RCVTIMEO");
		return -1;
	}
	/* --latency, --jitter, --gaps: the kernel stamps every datagram as it receives it (software, the
	 * realtime clock, as blast's send time), delivered as a control message. */
	if ((cfg.latency || cfg.jitter || cfg.gaps) && setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one) < 0) {
		warn("setsockopt SO_TIMESTAMPNS");
		return -1;
	}
	/* --marks: the TOS and TTL of every datagram, as control messages. */
	if (cfg.marks && mark_receive(fd, a->ss.ss_family, &call) < 0) {
		warn("%s", call);
		return -1;
	}
	if (cfg.rcvbuf && net_rcvbuf(fd, cfg.rcvbuf) < 0) {
		warn("setsockopt SO_RCVBUF");
		return -1;
	}
	if (cfg.busy_poll && (st = busy_poll(fd)))
		return -st;
	if (bind(fd, (const struct sockaddr *)&a->ss, a->len) < 0) {
		char where[80];
		int e = errno;
		net_format(a, where, sizeof where);
		fprintf(stderr, "suck: bind %s: %s%s\n", where, strerror(e), e != EADDRINUSE ? "" : cfg.join ?
			" (another socket has the port and is no receiver of a group: --join shares it only with "
			"sockets that set SO_REUSEADDR too)" :
			" (another socket has the port; suck shares it with none, -j too)");
		return -1;
	}
	if (first && cfg.threads > 1 && !cfg.one_socket &&
	    setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one) < 0) {
		warn("setsockopt SO_REUSEPORT");
		return -1;
	}
	if (cfg.join && mcast_join(fd, &cfg.group, cfg.source ? &cfg.from : NULL, cfg.mc_ifindex, &call) < 0) {
		warn("%s %s", call, cfg.join);
		return -1;
	}
	if (cfg.join && cfg.source)
		source_said();
	return fd;
}

/* One receive thread's state and its variant's, on socket fd: 0, or the exit code (1, or 4
 * where the kernel does not offer the variant) with the message said. */
static int setup_rx(struct rx *rx, int fd, unsigned id)
{
	const struct variant *v = cfg.variant;
	int st;

	if (rx_init(rx, fd, id, &cfg, &sh) < 0) {
		warn("mmap for the sequence tracker");
		return 1;
	}
	rx->carry = carries[id];
	st = v->setup(rx);
	if (st && rx->error.call) {
		/* the variant named the call that failed */
		warnx("-m %s: %s: %s", v->name, rx->error.call, strerror(rx->error.err));
		return st == VARIANT_UNSUPPORTED || st == VARIANT_NOT_HERE ? 4 : 1;
	}
	if (st == VARIANT_NOT_HERE)
		return 4;
	if (st == VARIANT_UNSUPPORTED) {
		warn("-m %s: this kernel does not offer it", v->name);
		return 4;
	}
	if (st == VARIANT_USAGE)
		return 2;
	if (st < 0) {
		warn("-m %s: setting up", v->name);
		return 1;
	}
	return 0;
}

/* The receive buffer the kernel granted the socket, with a warning when it is less than -R. */
static int granted(int fd)
{
	int rcvbuf = net_rcvbuf(fd, 0);

	if (cfg.rcvbuf && rcvbuf < cfg.rcvbuf)
		fprintf(stderr, "suck: warning: asked for -R %d, the kernel granted %d (net.core.rmem_max)\n",
			cfg.rcvbuf, rcvbuf);
	return rcvbuf;
}

/* --check: a run's setup on one throwaway socket, bound to -a and -p as a run's first socket
 * is (a port in use fails as a run would), with the variant's own setup (UDP_GRO,
 * io_uring_setup: exit 4 where the kernel lacks them), then everything closed before the
 * settings are printed, so a suck started right after can bind the port. Nothing is read from
 * the socket; a datagram that arrives in the instant it is bound is lost with it. */
static int check(void)
{
	struct rx *rx = &rxs[0];
	struct report r;
	char spec[48], run[9 * SUCK_MAX_RUN_IDS + 1], where[80];
	const char *mech;
	int fd = open_socket(&cfg.to, 1), rcvbuf, st;

	if (fd < 0)
		return -fd;
	st = setup_rx(rx, fd, 0);
	if (!st && drops_on) { /* attached and detached again, as a run's */
		st = drops_open(&drops, fd);
		drops_close(drops);
		drops = NULL;
	}
	rcvbuf = granted(fd);
	mech = rx->mech;
	cfg.variant->teardown(rx);
	rx_free(rx);
	echo_budget_free(sh.echo_budget);
	sh.echo_budget = NULL;
	close(fd);
	if (st)
		return st;
	work_spec(&cfg.work, spec, sizeof spec);
	snprintf(run, sizeof run, "%08x", cfg.run_id);
	for (unsigned i = 0, n = 0; i < cfg.nrun_ids && !cfg.run_id; i++) /* named runs: a list */
		n += (unsigned)snprintf(run + n, sizeof run - n, "%s%08x", i ? "," : "", cfg.run_ids[i]);
	net_format(&cfg.to, where, sizeof where);
	report_init(&r);
	report_str(&r, "tool", "suck");
	report_str(&r, "version", version_text);
	report_u64(&r, "check", 1);
	report_str(&r, "variant", cfg.variant->name);
	report_str(&r, "work", spec);
	report_str(&r, "addr", where);
	report_u64(&r, "port", cfg.port);
	report_str(&r, "run_id", cfg.run_id || cfg.nrun_ids ? run : "first");
	report_u64(&r, "keyed", (uint64_t)cfg.key.set);
	report_u64(&r, "bufsize", cfg.bufsize);
	report_u64(&r, "batch", cfg.batch);
	report_u64(&r, "threads", cfg.threads);
	report_u64(&r, "one_socket", (uint64_t)cfg.one_socket);
	report_u64(&r, "retain", cfg.retain);
	report_i64(&r, "rcvbuf", rcvbuf);
	report_f(&r, "time_limit_s", cfg.time_s, 3);
	report_f(&r, "idle_s", cfg.idle_s, 3);
	report_u64(&r, "spin", (uint64_t)cfg.spin);
	report_u64(&r, "latency", (uint64_t)cfg.latency);
	report_u64(&r, "marks", (uint64_t)cfg.marks);
	report_u64(&r, "jitter", (uint64_t)cfg.jitter);
	report_u64(&r, "gaps", (uint64_t)cfg.gaps);
	report_u64(&r, "echo", (uint64_t)cfg.echo);
	total_echo(&r, &cfg);
	report_u64(&r, "serve", (uint64_t)cfg.serve);
	report_u64(&r, "runs", cfg.runs);
	report_f(&r, "run_timeout_s", cfg.run_timeout_s, 3);
	report_u64(&r, "senders", cfg.senders);
	total_mcast(&r, &cfg);
	report_str(&r, "rx_dev", cfg.rx_dev ? cfg.rx_dev : "-");
	report_u64(&r, "drops", (uint64_t)drops_on);
	total_settings(&r, &cfg);
	if (cfg.cpu >= 0)
		report_u64(&r, "cpu", (uint64_t)cfg.cpu);
	else
		report_none(&r, "cpu");
	report_f(&r, "interval_s", cfg.interval_s, 3);
	report_str(&r, "uring_setup", mech && !cfg.variant->device ? mech : "-");
	report_str(&r, "xdp_setup", mech && cfg.variant->device ? mech : "-");
	if (report_write(&r, (enum report_fmt)cfg.fmt, stdout) < 0) {
		warn("writing the report");
		return 1;
	}
	return 0;
}

/* -j: datagrams go to suck's own sockets only. A reuseport program hands each to socket (flow
 * id mod N) of the group, so a flow stays on one thread and its datagrams are spread evenly
 * (the kernel's hash of the addresses can put two flows on one socket, and the CPU a datagram
 * arrives on changes under a sending thread that migrates). The first N of the group are suck's
 * unless a stranger joined between the first bind and the last, which the socket tables tell
 * once the program is attached; whoever joins later sits beyond N and receives nothing.
 * 0, or 1 with the message said. */
static int own_group(const char *where)
{
	int fds[SUCK_MAX_THREADS], n;

	for (unsigned i = 0; i < cfg.threads; i++)
		fds[i] = rxs[i].fd;
	if (net_steer(fds[0], WIRE_FLOW_OFF, cfg.threads) < 0) {
		warn("setsockopt SO_ATTACH_REUSEPORT_CBPF");
		return 1;
	}
	n = net_strangers(fds, cfg.threads);
	if (n > 0) {
		warnx("%s: %d other socket%s joined suck's SO_REUSEPORT group while it was set up; suck "
		      "shares its port with none", where, n, n == 1 ? "" : "s");
		return 1;
	}
	if (n < 0)
		warnx("warning: %s: /proc/net/udp unreadable: no check that the group is suck's alone", where);
	return 0;
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
		int fd = cfg.one_socket && i > 0 ? rxs[0].fd : open_socket(&a, i == 0), st;
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
		if ((st = setup_rx(&rxs[i], fd, i)))
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
	if (cfg.threads > 1 && !cfg.one_socket && own_group(where))
		return 1;
	*rcvbuf = granted(rxs[0].fd);
	int dst = drops_on ? drops_open(&drops, rxs[0].fd) : 0; /* before the line scripts wait for */
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
		if ((rc = setup_rx(&rxs[i], fd, i))) {
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

	for (unsigned i = 0; i < cfg.threads; i++)
		own += rxs[i].received - rxs[i].foreign - rxs[i].truncated;
	warnx("warning: run %08x had not sent all its fins when run %08x began%s (%llu datagrams of "
	      "it arrived): it is set aside, and the report is of run %08x", (uint32_t)atomic_load(&sh.run),
	      (uint32_t)next, cfg.key.set ? " with the run key's proof" : cfg.nrun_ids ? ", one of the runs named" :
	      ", a second after it went quiet", (unsigned long long)own, (uint32_t)next);
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
	parse(argc, argv);
	if (cfg.check)
		return check();
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
