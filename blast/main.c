/* blast: send fixed-size UDP datagrams for a timed or counted run, as fast as possible or at
 * a set rate, each with the header suck needs to account for it (or none with --raw), and
 * end every flow with a fin carrying its totals. --check goes as far as a run does before its
 * first send call and reports the settings instead. Exit: 0 sent (or checked), 1 runtime
 * failure, 2 bad usage, 4 -g asked for UDP GSO and this kernel has none (or --zerocopy for
 * MSG_ZEROCOPY; --via packet without CAP_NET_RAW or on loopback). */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <net/if.h>
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
#include "version.h"
#include "wire.h"

static const char *const payload_names[] = { "random", "zero", "pattern", NULL };
static const char *const stop_names[] = { "time", "count", "signal", "error" };
static const char *const via_names[] = { "socket", "packet", NULL };

static struct blast_cfg cfg = {
	.host = "127.0.0.1",
	.port = 22222,
	.time_s = 10,
	.size = 1450,
	.batch = BLAST_PLAIN_BATCH, /* sendmmsg: one system call per 32 datagrams; -b 1 is blast.c */
	.segs = 0,              /* 0 until parsed: automatic (see parse) */
	.flows = 1,
	.cpu = -1,
	.mark = { .tos = -1, .ttl = -1, .priority = -1 },
	.outstanding = 1,
	.rtt_timeout_s = 1,
	.pattern = { .spec = "even" },
};

static void usage(FILE *out)
{
	fprintf(out,
"usage: blast [options]\n"
"Send fixed-size UDP datagrams for a timed run; suck receives and accounts for them.\n"
"  -a, --addr ADDR      destination (127.0.0.1; IPv4, IPv6 or a host name; a multicast\n"
"                       group: 224.0.0.0/4 or ff00::/8, TTL 1 unless --ttl)\n"
"  -p, --port PORT      destination port, 1..65535 (22222)\n"
"  -t, --time SECS      run time, at least 1ms; decimals allowed (10; 0 = until -n)\n"
"  -n, --count N        stop after N datagrams in all, 1..2^48 (no limit)\n"
"  -s, --size BYTES     datagram size, 32..65507 (IPv4) or ..65527 (IPv6) (1450);\n"
"                       with --raw from 1; or a size mix, one datagram a message (no\n"
"                       GSO): SIZE:WEIGHT,... (64:7,576:4,1500:1), imix (32:7,524:4,\n"
"                       1472:1: 64/570/1518-byte frames over IPv4) or MIN-MAX (uniform)\n"
"  -r, --rate PPS       datagrams per second over all flows (0 = as fast as possible)\n"
"      --pattern SPEC   the paced schedule's shape, -r its mean rate: even (as -r alone),\n"
"                       poisson (exponential gaps), burst:N (N back to back, 1..%d),\n"
"                       frames:FPS:MEAN:SD (FPS frames a second, each MEAN bytes with a\n"
"                       normal deviation of SD, cut into datagrams of -s; the rate\n"
"                       follows, no -r) (even)\n"
"  -b, --batch N        messages per send call: 1 = one sendto each, like the 2014\n"
"                       blast.c; more = sendmmsg, 1..%d (32; with GSO, 1)\n"
"  -g, --gso SEGS       UDP GSO: SEGS datagrams per message, 1..%d, or 64 where the kernel\n"
"                       takes no more (1 = off). Without -g, -b and -r: as many as fit in\n"
"                       64 KiB, several messages a call when they are small, or sendmmsg\n"
"                       -b 32 where the kernel or the route refuses GSO\n"
"  -j, --flows N        N flows, one thread and one socket each, 1..%d (1)\n"
"      --run-id ID      run id in every header, 1..4294967295 (random)\n"
"      --key-file FILE  the run key, 32 hex digits, from FILE ('-' = stdin; default: the\n"
"                       environment's BS_RUN_KEY, else none): tags every fin\n"
"      --raw            no header: random bytes only, like blast.c (suck cannot count loss)\n"
"      --payload KIND   random, zero or pattern (random)\n"
"      --rtt            round trips to suck --echo instead of a stream: requests in flight,\n"
"                       each timed from its send to its reply (CLOCK_MONOTONIC)\n"
"      --outstanding N  --rtt: requests in flight per flow, 1..%d (1)\n"
"      --rtt-timeout SECS\n"
"                       --rtt: a request unanswered this long is lost, 1ms..60s (1s)\n"
"      --reply-size BYTES\n"
"                       --rtt: the size of the reply asked for, 32..65507 (IPv4) or\n"
"                       ..65527 (IPv6) (as -s); larger than -s needs suck --echo-max\n"
"                       BYTES, else replies come back cut to -s (rtt_short)\n"
"      --mc-if IFNAME   a group's outgoing interface (the route's)\n"
"      --mc-loop        a group's datagrams also to receivers on this host (off)\n"
"      --tos N          TOS byte (IPv4) or traffic class (IPv6) of every datagram, 0..255\n"
"                       (decimal, or hexadecimal as 0x10; --dscp and --priority too)\n"
"      --dscp N         the same as --tos N*4: DSCP 0..63, ECN bits 0\n"
"      --ttl N          TTL (IPv4) or hop limit (IPv6), 1..255 (the kernel's; a group's 1)\n"
"      --priority N     SO_PRIORITY of the socket, 0..%d (above 6: CAP_NET_ADMIN)\n"
"      --zerocopy       MSG_ZEROCOPY on every send call (SO_ZEROCOPY): the kernel sends\n"
"                       from blast's pages where it can; completions counted (zc_*)\n"
"      --via PATH       socket (UDP, the default) or packet: Ethernet frames built by\n"
"                       blast, sent through an AF_PACKET TX ring beneath the socket (root)\n"
"      --dev DEV        --via packet: the device to send on (the route's to -a)\n"
"      --dst-mac MAC    --via packet: the frames' destination (the neighbour table's)\n"
"      --cpu N          pin flow i to CPU N+i\n"
"  -o, --output FMT     text, tsv or json (text)\n"
"  -i, --interval SECS  progress line on stderr every SECS (off)\n"
"      --check          check the options, the address and GSO, print the settings\n"
"                       as one report row (check 1) and exit; nothing is sent\n"
"  -h, --help           this text\n"
"  -V, --version        version\n"
"Numbers take k, M, G (sizes in bytes: 1024-based); durations s, ms, us, ns, m.\n",
		BLAST_MAX_BURST, BLAST_MAX_BATCH, BLAST_MAX_SEGS, BLAST_MAX_FLOWS, BLAST_MAX_OUTSTANDING, INT_MAX);
}

static void parse(int argc, char **argv)
{
	enum { O_RUNID = 256, O_RAW, O_PAYLOAD, O_CPU, O_KEYFILE, O_CHECK, O_TOS, O_DSCP, O_TTL, O_PRIO,
	       O_RTT, O_OUTSTANDING, O_RTT_TIMEOUT, O_REPLY_SIZE, O_MC_IF, O_MC_LOOP, O_ZEROCOPY,
	       O_VIA, O_DEV, O_DST_MAC, O_PATTERN };
	static const struct option longs[] = {
		{ "addr", required_argument, 0, 'a' }, { "port", required_argument, 0, 'p' },
		{ "time", required_argument, 0, 't' }, { "count", required_argument, 0, 'n' },
		{ "size", required_argument, 0, 's' }, { "rate", required_argument, 0, 'r' },
		{ "batch", required_argument, 0, 'b' }, { "gso", required_argument, 0, 'g' },
		{ "flows", required_argument, 0, 'j' }, { "run-id", required_argument, 0, O_RUNID },
		{ "raw", no_argument, 0, O_RAW }, { "payload", required_argument, 0, O_PAYLOAD },
		{ "cpu", required_argument, 0, O_CPU }, { "output", required_argument, 0, 'o' },
		{ "interval", required_argument, 0, 'i' }, { "help", no_argument, 0, 'h' },
		{ "version", no_argument, 0, 'V' }, { "key-file", required_argument, 0, O_KEYFILE },
		{ "check", no_argument, 0, O_CHECK },
		{ "tos", required_argument, 0, O_TOS }, { "dscp", required_argument, 0, O_DSCP },
		{ "ttl", required_argument, 0, O_TTL }, { "priority", required_argument, 0, O_PRIO },
		{ "rtt", no_argument, 0, O_RTT }, { "outstanding", required_argument, 0, O_OUTSTANDING },
		{ "rtt-timeout", required_argument, 0, O_RTT_TIMEOUT },
		{ "reply-size", required_argument, 0, O_REPLY_SIZE },
		{ "mc-if", required_argument, 0, O_MC_IF }, { "mc-loop", no_argument, 0, O_MC_LOOP },
		{ "zerocopy", no_argument, 0, O_ZEROCOPY },
		{ "via", required_argument, 0, O_VIA }, { "dev", required_argument, 0, O_DEV },
		{ "dst-mac", required_argument, 0, O_DST_MAC }, { "pattern", required_argument, 0, O_PATTERN },
		{ 0, 0, 0, 0 },
	};
	const char *size_arg = NULL, *segs_arg = NULL, *key_file = NULL, *reply_arg = NULL, *err;
	const char *dst_mac_arg = NULL, *pattern_arg = NULL;
	const char *rtt_only = NULL; /* an option of --rtt's, for its message without it */
	int c, time_set = 0, payload_set = 0, batch_set = 0, tos_set = 0, dscp_set = 0;
	unsigned max;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":a:p:t:n:s:r:b:g:j:o:i:hV", longs, NULL)) != -1) {
		switch (c) {
		case 'a': cfg.host = optarg; break;
		case 'p': cfg.port = (unsigned)opt_u64("-p", optarg, OPT_PLAIN, 1, 65535); break;
		case 't':
			cfg.time_s = opt_secs("-t", optarg, 0, 1e7);
			/* Shorter, the deadline may pass while the flows start: nothing would go. */
			if (cfg.time_s > 0 && cfg.time_s < BLAST_MIN_TIME_S)
				opt_die("-t '%s': too short for a run; accepted: 0 (with -n) or %g..%g seconds "
					"(units: s, ms, us, ns, m)", optarg, BLAST_MIN_TIME_S, 1e7);
			time_set = 1;
			break;
		case 'n': cfg.count = opt_u64("-n", optarg, OPT_COUNT, 1, WIRE_SEQ_LIMIT); break;
		case 's': size_arg = optarg; break;
		case 'r': cfg.rate = opt_u64("-r", optarg, OPT_COUNT, 0, 1000000000); break;
		case 'b': cfg.batch = (unsigned)opt_u64("-b", optarg, OPT_COUNT, 1, BLAST_MAX_BATCH); batch_set = 1; break;
		case 'g': segs_arg = optarg; break;
		case 'j': cfg.flows = (unsigned)opt_u64("-j", optarg, OPT_PLAIN, 1, BLAST_MAX_FLOWS); break;
		case O_RUNID: cfg.run_id = (uint32_t)opt_u64("--run-id", optarg, OPT_PLAIN, 1, UINT32_MAX); break;
		case O_KEYFILE: key_file = optarg; break;
		case O_RAW: cfg.raw = 1; break;
		case O_PAYLOAD: cfg.payload = opt_name("--payload", optarg, payload_names); payload_set = 1; break;
		case O_CPU: cfg.cpu = (int)opt_u64("--cpu", optarg, OPT_PLAIN, 0, sys_ncpu() - 1); break;
		case 'o': cfg.fmt = opt_name("-o", optarg, report_fmt_names); break;
		case 'i': cfg.interval_s = opt_secs("-i", optarg, 0.01, 1e6); break;
		case O_CHECK: cfg.check = 1; break;
		case O_TOS: cfg.mark.tos = (int)opt_u64("--tos", optarg, OPT_HEX, 0, 255); tos_set = 1; break;
		case O_DSCP: cfg.mark.tos = (int)opt_u64("--dscp", optarg, OPT_HEX, 0, 63) << 2; dscp_set = 1; break;
		case O_TTL: cfg.mark.ttl = (int)opt_u64("--ttl", optarg, OPT_PLAIN, 1, 255); break;
		case O_PRIO: cfg.mark.priority = (long)opt_u64("--priority", optarg, OPT_HEX, 0, INT_MAX); break;
		case O_RTT: cfg.rtt = 1; break;
		case O_OUTSTANDING:
			cfg.outstanding = (unsigned)opt_u64("--outstanding", optarg, OPT_COUNT, 1, BLAST_MAX_OUTSTANDING);
			rtt_only = "--outstanding";
			break;
		case O_RTT_TIMEOUT:
			cfg.rtt_timeout_s = opt_secs("--rtt-timeout", optarg, 0.001, 60);
			rtt_only = "--rtt-timeout";
			break;
		case O_REPLY_SIZE: reply_arg = optarg; rtt_only = "--reply-size"; break;
		case O_MC_IF:
			cfg.mc_if = optarg;
			if (!(cfg.mc_ifindex = if_nametoindex(optarg)))
				opt_die("--mc-if '%s': no such interface here", optarg);
			break;
		case O_MC_LOOP: cfg.mc_loop = 1; break;
		case O_ZEROCOPY: cfg.zerocopy = 1; break;
		case O_VIA: cfg.via = opt_name("--via", optarg, via_names); break;
		case O_DEV:
			cfg.dev = optarg;
			if (strlen(optarg) >= IF_NAMESIZE || !if_nametoindex(optarg))
				opt_die("--dev '%s': no such interface here", optarg);
			break;
		case O_DST_MAC: dst_mac_arg = optarg; break;
		case O_PATTERN: pattern_arg = optarg; break;
		case 'h': usage(stdout); opt_done();
		case 'V': printf("blast %s\n", version_text); opt_done();
		case ':': opt_die("%s needs a value", argv[optind - 1]);
		default: opt_die("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		opt_die("unexpected argument '%s'", argv[optind]);
	if (tos_set && dscp_set)
		opt_die("--tos and --dscp both set the TOS byte; give one (--dscp N is --tos N*4)");
	if ((err = key_load(key_file, &cfg.key)))
		opt_die("%s", err);
	/* under a key a request carries the run's proof after its header, as data does in it */
	if (cfg.rtt && cfg.key.set && cfg.size < WIRE_REQ_PROOF_END)
		opt_die("--rtt -s %u under a run key: a request carries the run's proof after its "
			"header, -s %d or more", (unsigned)cfg.size, WIRE_REQ_PROOF_END);
	if ((err = net_resolve(cfg.host, cfg.port, &cfg.to)))
		opt_die("-a '%s': %s", cfg.host, err);
	cfg.group = mcast_is_group(&cfg.to);
	if ((cfg.mc_if || cfg.mc_loop) && !cfg.group)
		opt_die("%s applies to a multicast group (-a 224.0.0.0/4 or ff00::/8); '%s' is none",
			cfg.mc_if ? "--mc-if" : "--mc-loop", cfg.host);
	if (cfg.group && cfg.rtt)
		opt_die("--rtt to a multicast group: every member would answer; give one receiver's address");
	max = net_max_payload(&cfg.to);
	if (size_arg && mix_is_spec(size_arg)) {
		char why[160];
		if (mix_parse(size_arg, cfg.raw ? 1 : WIRE_HDR_LEN, max, &cfg.mix, why, sizeof why) < 0)
			opt_die("-s '%s': %s; accepted: SIZE:WEIGHT,... (two sizes or more, weights 1..%d "
				"adding up to at most %d), imix, or MIN-MAX, sizes %u..%u", size_arg, why,
				BLAST_MIX_CYCLE, BLAST_MIX_CYCLE, cfg.raw ? 1 : WIRE_HDR_LEN, max);
		cfg.size = cfg.mix.max;
	} else if (size_arg)
		cfg.size = (unsigned)opt_u64("-s", size_arg, OPT_BYTES, cfg.raw ? 1 : WIRE_HDR_LEN, max);
	/* A GSO message is cut into segments of one size: a mix goes one datagram a message. */
	if (cfg.mix.n && segs_arg && strcmp(segs_arg, "1") != 0)
		opt_die("-g %s with the size mix '%s': a GSO message has one segment size; "
			"a mix sends one datagram per message (-g 1)", segs_arg, size_arg);
	if (cfg.mix.n && cfg.rtt)
		opt_die("--rtt with the size mix '%s': a round trip is of one size; give -s N", size_arg);
	if (cfg.mix.n && cfg.zerocopy)
		opt_die("--zerocopy with the size mix '%s': --zerocopy sends one size; give -s N", size_arg);
	if (cfg.mix.n)
		cfg.segs = 1;
	if ((cfg.dev || dst_mac_arg) && !cfg.via)
		opt_die("%s applies to --via packet", cfg.dev ? "--dev" : "--dst-mac");
	if (cfg.via && (cfg.rtt || cfg.mix.n || cfg.zerocopy || cfg.group))
		opt_die("--via packet with %s: it sends a stream of one size to one receiver",
			cfg.rtt ? "--rtt" : cfg.mix.n ? "a size mix" : cfg.zerocopy ? "--zerocopy" : "a multicast group");
	if (dst_mac_arg && packet_mac(dst_mac_arg, cfg.dst_mac) < 0)
		opt_die("--dst-mac '%s': accepted: six hex bytes with ':' between (02:62:73:00:00:02)", dst_mac_arg);
	cfg.dst_mac_set = dst_mac_arg != NULL;
	if (pattern_arg) {
		char why[160];
		if (pattern_parse(pattern_arg, &cfg.pattern, why, sizeof why) < 0)
			opt_die("--pattern '%s': %s; accepted: even, poisson, burst:N (N 1..%d), "
				"frames:FPS:MEAN:SD (FPS 1..%d, MEAN 1..1G bytes, SD 0..1G)", pattern_arg, why,
				BLAST_MAX_BURST, BLAST_MAX_FPS);
	}
	if (rtt_only && !cfg.rtt)
		opt_die("%s applies to --rtt", rtt_only);
	if (reply_arg)
		cfg.reply_size = (unsigned)opt_u64("--reply-size", reply_arg, OPT_BYTES, WIRE_HDR_LEN, max);
	/* A round trip is one request a send call, unpaced: the shape options do not apply. */
	if (cfg.rtt && (cfg.rate || batch_set || segs_arg || cfg.raw || cfg.zerocopy))
		opt_die("--rtt with %s: a round trip is one request per send call, each answered; "
			"-r, -b, -g, --raw and --zerocopy do not apply",
			cfg.rate ? "-r" : batch_set ? "-b" : segs_arg ? "-g" : cfg.raw ? "--raw" : "--zerocopy");
	if (cfg.rtt) {
		cfg.segs = 1;
		cfg.batch = 1;
		batch_set = 1;
	}
	/* -n alone means "exactly N datagrams", not "N datagrams or 10 s, whichever comes first". */
	if (cfg.count && !time_set)
		cfg.time_s = 0;
	if (cfg.time_s == 0 && !cfg.count)
		opt_die("-t 0 needs -n: a run must end");
	if (cfg.raw && payload_set && cfg.payload != BLAST_PAYLOAD_RANDOM)
		fprintf(stderr, "blast: note: --raw with --payload %s: no header, %s bytes\n",
			payload_names[cfg.payload], payload_names[cfg.payload]);
	/* -g up to what this kernel takes (probed once: 128 since Linux 6.9, 64 before). */
	cfg.max_segs = gso_max_segs();
	if (segs_arg)
		cfg.segs = (unsigned)opt_u64("-g", segs_arg, OPT_PLAIN, 1, cfg.max_segs);
	if (cfg.via && cfg.segs > 1)
		fprintf(stderr, "blast: note: -g %u with --via packet: every frame is one datagram; -g 1\n", cfg.segs);
	if (cfg.via)
		cfg.segs = 1;
	if (cfg.via && cfg.pattern.kind != PATTERN_EVEN)
		opt_die("--via packet with --pattern %s: the packet ring paces evenly", cfg.pattern.spec);
	/* --pattern's rules against the other options, frames' rate and its calls (pattern.c) */
	if ((err = pattern_plan(&cfg, &batch_set)))
		opt_die("--pattern %s%s", cfg.pattern.spec, err);
	/* Unpaced and unshaped, blast takes the fastest way the kernel has (gso.c). */
	gso_plan(&cfg, batch_set, max);
	if (cfg.segs > 1 && (uint64_t)cfg.segs * cfg.size > max)
		opt_die("-g %u with -s %u: a GSO message is at most %u bytes; use -g %u or less",
			cfg.segs, cfg.size, max, max / cfg.size ? max / cfg.size : 1);
	if (cfg.count && cfg.count < cfg.flows)
		opt_die("-n %llu is less than -j %u: every flow sends at least one datagram",
			(unsigned long long)cfg.count, cfg.flows);
	/* Every check on the options is above: --check (main) relies on it. */
}

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

/* size: the datagram size, or "mix" for a size mix; mix: the mix as given ('-' without);
 * mix_mean: its mean size over the cycle. */
static void add_size(struct report *r)
{
	if (cfg.mix.n) {
		report_str(r, "size", "mix");
		report_str(r, "mix", cfg.mix.spec);
		report_f(r, "mix_mean", mix_mean(&cfg.mix), 1);
	} else {
		report_u64(r, "size", cfg.size);
		report_none(r, "mix");
		report_none(r, "mix_mean");
	}
}

/* A marking option's value, or "-" when the kernel's default was left. */
static void add_opt(struct report *r, const char *key, long v)
{
	if (v >= 0)
		report_u64(r, key, (uint64_t)v);
	else
		report_none(r, key);
}

static void add_marks(struct report *r)
{
	add_opt(r, "tos", cfg.mark.tos);
	add_opt(r, "ttl", cfg.group && cfg.mark.ttl < 0 ? 1 : cfg.mark.ttl); /* a group's is 1 */
	add_opt(r, "priority", cfg.mark.priority);
	report_u64(r, "group", (uint64_t)cfg.group);
	if (cfg.mc_if)
		report_str(r, "mc_if", cfg.mc_if);
	else
		report_none(r, "mc_if");
	add_opt(r, "mc_loop", cfg.group ? cfg.mc_loop : -1);
}

/* --rtt's settings: '-' without it. */
static void add_rtt_opts(struct report *r)
{
	report_u64(r, "rtt", (uint64_t)cfg.rtt);
	add_opt(r, "outstanding", cfg.rtt ? (long)cfg.outstanding : -1);
	add_opt(r, "reply_size", cfg.rtt ? (long)(cfg.reply_size ? cfg.reply_size : cfg.size) : -1);
	if (cfg.rtt)
		report_f(r, "rtt_timeout_s", cfg.rtt_timeout_s, 3);
	else
		report_none(r, "rtt_timeout_s");
}

/* --rtt's figures: transactions answered, lost, late, foreign and short replies, transactions
 * per second over the flows' window, and the round trips' percentiles; '-' without --rtt. */
static void add_rtt(struct report *r, const struct flow *fs, double dur)
{
	static const char *const keys[] = { "transactions", "rtt_lost", "rtt_late", "rtt_foreign",
					    "rtt_short", "tps", "rtt_p50_us", "rtt_p90_us", "rtt_p99_us",
					    "rtt_p999_us", "rtt_max_us", "rtt_mean_us", "clock_offset_us",
					    "clock_offset_err_us" };
	static const double qs[4] = { 0.50, 0.90, 0.99, 0.999 };
	static struct rtt_total t;

	add_rtt_opts(r);
	if (!cfg.rtt) {
		for (unsigned i = 0; i < sizeof keys / sizeof keys[0]; i++)
			report_none(r, keys[i]);
		return;
	}
	rtt_sum(fs, cfg.flows, &t);
	report_u64(r, "transactions", t.transactions);
	report_u64(r, "rtt_lost", t.lost);
	report_u64(r, "rtt_late", t.late);
	report_u64(r, "rtt_foreign", t.foreign);
	report_u64(r, "rtt_short", t.short_);
	report_f(r, "tps", dur > 0 ? (double)t.transactions / dur : 0, 0);
	for (unsigned i = 0; i < 4; i++)
		if (t.rtt.n)
			report_f(r, keys[6 + i], (double)hist_quantile(&t.rtt, qs[i]) / 1e3, 2);
		else
			report_none(r, keys[6 + i]);
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
}

/* --zerocopy's counts (blast.h says each), '-' without it. */
static void add_zc(struct report *r, const struct flow_total *t)
{
	static const char *const keys[] = { "zc_sends", "zc_completions", "zc_copied", "zc_enobufs",
					    "zc_waits", "zc_foreign" };
	const uint64_t v[] = { t->zc_sends, t->zc_completions, t->zc_copied, t->zc_enobufs, t->zc_waits,
			       t->zc_foreign };

	report_u64(r, "zerocopy", (uint64_t)cfg.zerocopy);
	if (cfg.zerocopy)
		zc_say(t, &cfg);
	for (unsigned i = 0; i < sizeof keys / sizeof *keys; i++) {
		if (cfg.zerocopy)
			report_u64(r, keys[i], v[i]);
		else
			report_none(r, keys[i]);
	}
}

/* --pattern: the spec, and the mean and coefficient of variation of the gaps between a flow's
 * datagrams in the schedule: as drawn (over every flow), even's as it is by construction (the
 * rate shared out over the flows, no variation); '-' unpaced. */
static void add_pattern(struct report *r, const struct flow *fs)
{
	struct gaps_sum drawn = { 0 };
	double cv;

	report_str(r, "pattern", cfg.pattern.spec);
	if (!cfg.rate) {
		report_none(r, "pattern_gap_mean_us");
		report_none(r, "pattern_gap_cv");
		return;
	}
	if (cfg.pattern.kind == PATTERN_EVEN) {
		report_f(r, "pattern_gap_mean_us", cfg.flows * 1e6 / (double)cfg.rate, 3);
		report_f(r, "pattern_gap_cv", 0, 4);
		return;
	}
	for (unsigned i = 0; i < cfg.flows; i++)
		gaps_sum_merge(&drawn, &fs[i].rate.sched.drawn);
	report_f(r, "pattern_gap_mean_us", gaps_mean(&drawn) / 1e3, 3);
	if ((cv = gaps_cv(&drawn)) >= 0)
		report_f(r, "pattern_gap_cv", cv, 4);
	else
		report_none(r, "pattern_gap_cv");
}

/* Prints the run's figures; the adding up is flow_sum's (send.c). */
static void add_report(struct report *r, const struct flow *fs, const struct sys_cpu *c0,
		       const struct sys_cpu *c1)
{
	static struct flow_total t;
	char run[16], where[80];
	double dur, cpu;
	uint64_t sent, bytes;

	flow_sum(fs, cfg.flows, &t);
	sent = t.sent;
	bytes = t.bytes;
	dur = (double)(t.end_ns - t.start_ns) / 1e9;
	cpu = (c1->user_s - c0->user_s) + (c1->sys_s - c0->sys_s);
	snprintf(run, sizeof run, "%08x", cfg.run_id);
	net_format(&cfg.to, where, sizeof where);

	report_str(r, "tool", "blast");
	report_str(r, "version", version_text);
	report_str(r, "addr", where);
	report_str(r, "run_id", cfg.raw ? "raw" : run);
	report_u64(r, "keyed", (uint64_t)cfg.key.set);
	report_str(r, "stop", stop_names[t.stop]);
	add_size(r);
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
	report_u64(r, "calls", t.calls);
	report_u64(r, "fins", t.fins);
	report_f(r, "user_s", c1->user_s - c0->user_s, 3);
	report_f(r, "sys_s", c1->sys_s - c0->sys_s, 3);
	report_f(r, "cpu_ns_per_pkt", sent ? cpu * 1e9 / (double)sent : 0, 1);
	report_u64(r, "rss_kib", sys_rss_kib());
	report_u64(r, "flows", cfg.flows);
	report_u64(r, "batch", fs[0].batch);
	report_u64(r, "gso", fs[0].segs);
	report_u64(r, "gso_max_segs", cfg.max_segs);
	report_u64(r, "rate", cfg.rate);
	add_pattern(r, fs);
	report_str(r, "payload", payload_names[cfg.payload]);
	report_u64(r, "raw", (uint64_t)cfg.raw);
	report_f(r, "time_limit_s", cfg.time_s, 3);
	report_u64(r, "count_limit", cfg.count);
	add_marks(r);
	add_rtt(r, fs, dur);
	add_zc(r, &t);
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
	char run[16], where[80];
	int rc;

	if (open_socket(&f) < 0)
		return 1;
	close(f.fd);
	if (cfg.via && (rc = packet_prepare(&cfg, 0)) != 0)
		return rc;
	snprintf(run, sizeof run, "%08x", cfg.run_id);
	net_format(&cfg.to, where, sizeof where);
	report_init(&r);
	report_str(&r, "tool", "blast");
	report_str(&r, "version", version_text);
	report_u64(&r, "check", 1);
	report_str(&r, "addr", where);
	report_u64(&r, "port", cfg.port);
	report_str(&r, "run_id", cfg.raw ? "raw" : cfg.run_id ? run : "random");
	report_u64(&r, "keyed", (uint64_t)cfg.key.set);
	add_size(&r);
	report_u64(&r, "flows", cfg.flows);
	report_u64(&r, "batch", f.batch);
	report_u64(&r, "gso", f.segs);
	report_u64(&r, "gso_auto", (uint64_t)(cfg.gso_auto && f.segs > 1));
	report_u64(&r, "gso_max_segs", cfg.max_segs);
	report_u64(&r, "rate", cfg.rate);
	report_str(&r, "pattern", cfg.pattern.spec);
	report_str(&r, "payload", payload_names[cfg.payload]);
	report_u64(&r, "raw", (uint64_t)cfg.raw);
	report_f(&r, "time_limit_s", cfg.time_s, 3);
	report_u64(&r, "count_limit", cfg.count);
	if (cfg.cpu >= 0)
		report_u64(&r, "cpu", (uint64_t)cfg.cpu);
	else
		report_none(&r, "cpu");
	report_f(&r, "interval_s", cfg.interval_s, 3);
	add_marks(&r);
	add_rtt_opts(&r);
	report_u64(&r, "zerocopy", (uint64_t)cfg.zerocopy);
	packet_report(&r, &cfg, NULL, 0);
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
	struct report r;
	uint64_t t0, first_line, sent = 0;
	int rc = 0;

	opt_prog = "blast";
	if (sys_start() < 0)
		return 1;
	parse(argc, argv);
	if (cfg.check)
		return check();
	while (!cfg.run_id)
		sys_random(&cfg.run_id, sizeof cfg.run_id);
	mode = mode_pick(&cfg);
	if (cfg.via && (rc = packet_prepare(&cfg, 1)) != 0)
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
	if (!sent && !rc) {
		fprintf(stderr, "blast: no datagram could be sent\n");
		rc = 1;
	}
	if (cfg.rtt)
		rtt_warn(fs);
	report_init(&r);
	add_report(&r, fs, &c0, &c1);
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
