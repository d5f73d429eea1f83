/* blast's options: the table (options.h) made into rows, the setters and report shows its rows
 * name, and the rules between options that are real logic (the address, sizes against the
 * address's limit, GSO against the kernel's, --rtt against the shape and the run key, --via
 * packet's and xdp's and --pattern's against the rest), after the table's own parse. Every check
 * on the options is here: --check (main.c) relies on it. */
#include <limits.h>
#include <net/if.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "blast.h"
#include "gaps.h"
#include "mcast.h"
#include "optdef.h"
#include "report.h"

static const char *const payload_names[] = { "random", "zero", "pattern", NULL };
static const char *const via_names[] = { "socket", "packet", "xdp", NULL };

/* -t: a deadline shorter than the flows' start would send nothing. */
static void set_time(const struct optdef *o, void *cfg, const char *arg)
{
	struct blast_cfg *c = cfg;

	(void)o;
	c->time_s = opt_secs("-t", arg, 0, 1e7);
	if (c->time_s > 0 && c->time_s < BLAST_MIN_TIME_S)
		opt_die("-t '%s': too short for a run; accepted: 0 (with -n) or %g..%g seconds "
			"(units: s, ms, us, ns, m)", arg, BLAST_MIN_TIME_S, 1e7);
}

static void set_dscp(const struct optdef *o, void *cfg, const char *arg)
{
	((struct blast_cfg *)cfg)->mark.tos = (int)optdef_u64(o, arg, 0, 63) << 2;
}

static void set_mc_if(const struct optdef *o, void *cfg, const char *arg)
{
	struct blast_cfg *c = cfg;

	(void)o;
	c->mc_if = arg;
	if (!(c->mc_ifindex = if_nametoindex(arg)))
		opt_die("--mc-if '%s': no such interface here", arg);
}

/* --pattern: the spec parsed here; its rules against the other options in blast_options. */
static void set_pattern(const struct optdef *o, void *cfg, const char *arg)
{
	char why[160];

	(void)o;
	if (pattern_parse(arg, &((struct blast_cfg *)cfg)->pattern, why, sizeof why) < 0)
		opt_die("--pattern '%s': %s; accepted: even, poisson, burst:N (N 1..%d), "
			"frames:FPS:MEAN:SD (FPS 1..%d, MEAN 1..1G bytes, SD 0..1G)", arg, why,
			BLAST_MAX_BURST, BLAST_MAX_FPS);
}

/* --dev: a device here. */
static void set_dev(const struct optdef *o, void *cfg, const char *arg)
{
	(void)o;
	((struct blast_cfg *)cfg)->dev = arg;
	if (strlen(arg) >= IF_NAMESIZE || !if_nametoindex(arg))
		opt_die("--dev '%s': no such interface here", arg);
}

static int rtt_on(const void *cfg)
{
	return ((const struct blast_cfg *)cfg)->rtt;
}

static int is_group(const void *cfg)
{
	return ((const struct blast_cfg *)cfg)->group;
}

/* The report shows: the settings as a run has them (f: the flow whose shape is reported). */
#define C(cfg) ((const struct blast_cfg *)(cfg))

static void show_addr(struct report *r, const struct optdef *o, const void *cfg, int check, const void *f)
{
	char where[80];

	(void)check, (void)f;
	net_format(&C(cfg)->to, where, sizeof where);
	report_str(r, o->key, where);
}

static void show_run_id(struct report *r, const struct optdef *o, const void *cfg, int check, const void *f)
{
	char run[16];

	(void)check, (void)f;
	snprintf(run, sizeof run, "%08x", C(cfg)->run_id);
	report_str(r, o->key, C(cfg)->raw ? "raw" : C(cfg)->run_id ? run : "random");
}

static void show_keyed(struct report *r, const struct optdef *o, const void *cfg, int check, const void *f)
{
	(void)check, (void)f;
	report_u64(r, o->key, (uint64_t)C(cfg)->key.set);
}

/* size: the datagram size, or "mix" for a size mix; mix: the mix as given ('-' without);
 * mix_mean: its mean size over the cycle. */
static void show_size(struct report *r, const struct optdef *o, const void *cfg, int check, const void *f)
{
	(void)check, (void)f;
	if (C(cfg)->mix.n) {
		report_str(r, o->key, "mix");
		report_str(r, "mix", C(cfg)->mix.spec);
		report_f(r, "mix_mean", mix_mean(&C(cfg)->mix), 1);
	} else {
		report_u64(r, o->key, C(cfg)->size);
		report_none(r, "mix");
		report_none(r, "mix_mean");
	}
}

/* batch and gso: the flow's shape (a run's after a fallback; --check: how a run starts). */
static void show_batch(struct report *r, const struct optdef *o, const void *cfg, int check, const void *f)
{
	(void)cfg, (void)check;
	report_u64(r, o->key, ((const struct flow *)f)->batch);
}

/* sndbuf: what the kernel granted the flow's socket, else what was asked ('-' for the default) */
static void show_sndbuf(struct report *r, const struct optdef *o, const void *cfg, int check, const void *f)
{
	int fd = ((const struct flow *)f)->fd, got = check || fd < 0 || C(cfg)->via ? -1 : net_sndbuf(fd, 0);

	if (got > 0)
		report_i64(r, o->key, got);
	else if (C(cfg)->sndbuf)
		report_i64(r, o->key, C(cfg)->sndbuf);
	else
		report_none(r, o->key);
}

static void show_gso(struct report *r, const struct optdef *o, const void *cfg, int check, const void *f)
{
	unsigned segs = ((const struct flow *)f)->segs;

	report_u64(r, o->key, segs);
	if (check)
		report_u64(r, "gso_auto", (uint64_t)(C(cfg)->gso_auto && segs > 1));
	report_u64(r, "gso_max_segs", C(cfg)->max_segs);
}

static void show_ttl(struct report *r, const struct optdef *o, const void *cfg, int check, const void *f)
{
	int ttl = C(cfg)->group && C(cfg)->mark.ttl < 0 ? 1 : C(cfg)->mark.ttl; /* a group's is 1 */

	(void)check, (void)f;
	if (ttl >= 0)
		report_u64(r, o->key, (uint64_t)ttl);
	else
		report_none(r, o->key);
}

static void show_mc_if(struct report *r, const struct optdef *o, const void *cfg, int check, const void *f)
{
	(void)check, (void)f;
	report_u64(r, "group", (uint64_t)C(cfg)->group);
	if (C(cfg)->mc_if)
		report_str(r, o->key, C(cfg)->mc_if);
	else
		report_none(r, o->key);
}

static void show_reply_size(struct report *r, const struct optdef *o, const void *cfg, int check,
			    const void *f)
{
	(void)check, (void)f;
	if (C(cfg)->rtt)
		report_u64(r, o->key, C(cfg)->reply_size ? C(cfg)->reply_size : C(cfg)->size);
	else
		report_none(r, o->key);
}

/* pattern: the spec; in a run's report also the mean and coefficient of variation of the gaps
 * between a flow's datagrams in the schedule: as drawn (over every flow, f the first),
 * even's as it is by construction (the rate shared out over the flows, no variation); '-'
 * unpaced. */
static void show_pattern(struct report *r, const struct optdef *o, const void *cfg, int check, const void *f)
{
	const struct flow *fs = f;
	struct gaps_sum drawn = { 0 };
	double cv;

	report_str(r, o->key, C(cfg)->pattern.spec);
	if (check)
		return;
	if (!C(cfg)->rate) {
		report_none(r, "pattern_gap_mean_us");
		report_none(r, "pattern_gap_cv");
		return;
	}
	if (C(cfg)->pattern.kind == PATTERN_EVEN) {
		report_f(r, "pattern_gap_mean_us", C(cfg)->flows * 1e6 / (double)C(cfg)->rate, 3);
		report_f(r, "pattern_gap_cv", 0, 4);
		return;
	}
	for (unsigned i = 0; i < C(cfg)->flows; i++)
		gaps_sum_merge(&drawn, &fs[i].rate.sched.drawn);
	report_f(r, "pattern_gap_mean_us", gaps_mean(&drawn) / 1e3, 3);
	if ((cv = gaps_cv(&drawn)) >= 0)
		report_f(r, "pattern_gap_cv", cv, 4);
	else
		report_none(r, "pattern_gap_cv");
}

/* dev and dst_mac: the path --via packet or xdp found (packet.c); xdp_mode: the AF_XDP
 * socket's (xdp.c); '-' without them. */
static void show_dev(struct report *r, const struct optdef *o, const void *cfg, int check, const void *f)
{
	const char *dev = C(cfg)->via ? packet_dev() : NULL;
	const char *mode = C(cfg)->via == BLAST_VIA_XDP ? xdptx_mode() : NULL;

	(void)check, (void)f;
	if (dev)
		report_str(r, o->key, dev);
	else
		report_none(r, o->key);
	if (mode)
		report_str(r, "xdp_mode", mode);
	else
		report_none(r, "xdp_mode");
}

static void show_dst_mac(struct report *r, const struct optdef *o, const void *cfg, int check,
			 const void *f)
{
	char mac[24];
	const char *m = C(cfg)->via && packet_dev() ? packet_dst_mac(mac, sizeof mac) : NULL;

	(void)check, (void)f;
	if (m)
		report_str(r, o->key, m);
	else
		report_none(r, o->key);
}

#define OPT(type, field, ...) \
	{ .off = offsetof(struct blast_cfg, field), .size = sizeof(type), __VA_ARGS__ },
#define OPT_AT(member, ...) \
	{ .off = offsetof(struct blast_cfg, member), .size = sizeof(((struct blast_cfg *)0)->member), __VA_ARGS__ },
#define OPT_ARG(...) { .off = -1, __VA_ARGS__ },
static const struct optdef rows[] = {
#include "options.h"
};
#undef OPT
#undef OPT_AT
#undef OPT_ARG

static const char *given[sizeof rows / sizeof rows[0]];
static struct optdef_table table = {
	.prog = "blast",
	.row = rows,
	.n = sizeof rows / sizeof rows[0],
	.usage_head = "usage: blast [options]\n"
		      "Send fixed-size UDP datagrams for a timed run; suck receives and accounts for them.\n",
	.usage_tail = "Numbers take k, M, G (sizes in bytes: 1024-based); durations s, ms, us, ns, m.\n",
	.given = given,
};

#define GIVEN(name) optdef_given(&table, name)

void blast_options(struct blast_cfg *cfg, int argc, char **argv)
{
	const char *size_arg, *segs_arg, *reply_arg, *dst_mac_arg, *err;
	int batch_set;
	unsigned max;

	optdef_parse(&table, cfg, argc, argv);
	size_arg = GIVEN("size");
	segs_arg = GIVEN("gso");
	reply_arg = GIVEN("reply-size");
	dst_mac_arg = GIVEN("dst-mac");
	batch_set = GIVEN("batch") != NULL;
	if (GIVEN("tos") && GIVEN("dscp"))
		opt_die("--tos and --dscp both set the TOS byte; give one (--dscp N is --tos N*4)");
	if ((err = key_load(GIVEN("key-file"), &cfg->key)))
		opt_die("%s", err);
	if ((err = net_resolve(cfg->host, cfg->port, &cfg->to)))
		opt_die("-a '%s': %s", cfg->host, err);
	cfg->group = mcast_is_group(&cfg->to);
	if ((cfg->mc_if || cfg->mc_loop) && !cfg->group)
		opt_die("%s applies to a multicast group (-a 224.0.0.0/4 or ff00::/8); '%s' is none",
			cfg->mc_if ? "--mc-if" : "--mc-loop", cfg->host);
	if (cfg->group && cfg->rtt)
		opt_die("--rtt to a multicast group: every member would answer; give one receiver's address");
	max = net_max_payload(&cfg->to);
	if (size_arg && mix_is_spec(size_arg)) {
		char why[160];
		if (mix_parse(size_arg, cfg->raw ? 1 : WIRE_HDR_LEN, max, &cfg->mix, why, sizeof why) < 0)
			opt_die("-s '%s': %s; accepted: SIZE:WEIGHT,... (two sizes or more, weights 1..%d "
				"adding up to at most %d), imix, or MIN-MAX, sizes %u..%u", size_arg, why,
				BLAST_MIX_CYCLE, BLAST_MIX_CYCLE, cfg->raw ? 1 : WIRE_HDR_LEN, max);
		cfg->size = cfg->mix.max;
	} else if (size_arg)
		cfg->size = (unsigned)optdef_u64(optdef_row(&table, "size"), size_arg, cfg->raw ? 1 : WIRE_HDR_LEN, max);
	/* A GSO message is cut into segments of one size: a mix goes one datagram a message. */
	if (cfg->mix.n && segs_arg && strcmp(segs_arg, "1") != 0)
		opt_die("-g %s with the size mix '%s': a GSO message has one segment size; "
			"a mix sends one datagram per message (-g 1)", segs_arg, size_arg);
	if (cfg->mix.n && cfg->rtt)
		opt_die("--rtt with the size mix '%s': a round trip is of one size; give -s N", size_arg);
	if (cfg->mix.n && cfg->zerocopy)
		opt_die("--zerocopy with the size mix '%s': --zerocopy sends one size; give -s N", size_arg);
	if (cfg->mix.n)
		cfg->segs = 1;
	/* under a key a request carries the run's proof after its header, as data does in it */
	if (cfg->rtt && cfg->key.set && cfg->size < WIRE_REQ_PROOF_END)
		opt_die("--rtt -s %u under a run key: a request carries the run's proof after its "
			"header, -s %d or more", (unsigned)cfg->size, WIRE_REQ_PROOF_END);
	/* --via packet, xdp: frames of one size to one receiver, built in blast */
	if ((cfg->dev || dst_mac_arg) && !cfg->via)
		opt_die("%s applies to --via packet and --via xdp", cfg->dev ? "--dev" : "--dst-mac");
	if (cfg->via && (cfg->rtt || cfg->mix.n || cfg->zerocopy || cfg->group))
		opt_die("--via %s with %s: it sends a stream of one size to one receiver", via_names[cfg->via],
			cfg->rtt ? "--rtt" : cfg->mix.n ? "a size mix" : cfg->zerocopy ? "--zerocopy" :
			"a multicast group");
	if (cfg->via && cfg->sndbuf)
		opt_die("--via %s with --sndbuf: its frames go through a ring, not a UDP socket's buffer",
			via_names[cfg->via]);
	if (dst_mac_arg && packet_mac(dst_mac_arg, cfg->dst_mac) < 0)
		opt_die("--dst-mac '%s': accepted: six hex bytes with ':' between (02:62:73:00:00:02)",
			dst_mac_arg);
	cfg->dst_mac_set = dst_mac_arg != NULL;
	optdef_needs(&table);
	if (reply_arg)
		cfg->reply_size = (unsigned)optdef_u64(optdef_row(&table, "reply-size"), reply_arg, WIRE_HDR_LEN, max);
	/* A round trip is one request a send call: the shape options do not apply; -r paces the
	 * requests evenly (while fewer than --outstanding are in flight). */
	if (cfg->rtt && (batch_set || segs_arg || cfg->raw || cfg->zerocopy || cfg->pattern.kind != PATTERN_EVEN))
		opt_die("--rtt with %s: a round trip is one request per send call, each answered; "
			"-b, -g, --raw, --zerocopy and --pattern do not apply (-r paces it evenly)",
			batch_set ? "-b" : segs_arg ? "-g" : cfg->raw ? "--raw" : cfg->zerocopy ? "--zerocopy" : "--pattern");
	if (cfg->rtt) {
		cfg->segs = 1;
		cfg->batch = 1;
		batch_set = 1;
	}
	/* -n alone means "exactly N datagrams", not "N datagrams or 10 s, whichever comes first". */
	if (cfg->count && !GIVEN("time"))
		cfg->time_s = 0;
	if (cfg->time_s == 0 && !cfg->count)
		opt_die("-t 0 needs -n: a run must end");
	if (cfg->raw && GIVEN("payload") && cfg->payload != BLAST_PAYLOAD_RANDOM)
		fprintf(stderr, "blast: note: --raw with --payload %s: no header, %s bytes\n",
			payload_names[cfg->payload], payload_names[cfg->payload]);
	/* -g up to what this kernel takes (probed once: 128 since Linux 6.9, 64 before). */
	cfg->max_segs = gso_max_segs();
	if (segs_arg)
		cfg->segs = (unsigned)optdef_u64(optdef_row(&table, "gso"), segs_arg, 1, cfg->max_segs);
	if (cfg->via && cfg->segs > 1)
		fprintf(stderr, "blast: note: -g %u with --via %s: every frame is one datagram; -g 1\n",
			cfg->segs, via_names[cfg->via]);
	if (cfg->via)
		cfg->segs = 1;
	if (cfg->via && cfg->pattern.kind != PATTERN_EVEN)
		opt_die("--via %s with --pattern %s: the %s ring paces evenly", via_names[cfg->via], cfg->pattern.spec,
			cfg->via == BLAST_VIA_XDP ? "AF_XDP" : "packet");
	/* --pattern's rules against the other options, frames' rate and its calls (pattern.c) */
	if ((err = pattern_plan(cfg, &batch_set)))
		opt_die("--pattern %s%s", cfg->pattern.spec, err);
	/* Unpaced and unshaped, blast takes the fastest way the kernel has (gso.c). */
	gso_plan(cfg, batch_set, max);
	if (cfg->segs > 1 && (uint64_t)cfg->segs * cfg->size > max)
		opt_die("-g %u with -s %u: a GSO message is at most %u bytes; use -g %u or less",
			cfg->segs, cfg->size, max, max / cfg->size ? max / cfg->size : 1);
	if (cfg->count && cfg->count < cfg->flows)
		opt_die("-n %llu is less than -j %u: every flow sends at least one datagram",
			(unsigned long long)cfg->count, cfg->flows);
}

void blast_settings(struct report *r, const struct blast_cfg *cfg, enum blast_sec sec, int check,
		    const struct flow *f)
{
	optdef_settings(r, &table, cfg, (int)sec, check, f);
}
