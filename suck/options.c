/* suck's options: the table (options.h) made into rows, the setters and report shows its rows
 * name, the variants' capabilities that rows' .cap check (with the messages the tests and the
 * scripts pass on), and the rules between options that are real logic (--run-id lists,
 * --senders, --one-socket, --join, --echo on a wildcard), after the table's own parse. Every
 * check on the options is here: --check (main.c) relies on it. */
#include <net/if.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "mcast.h"
#include "optdef.h"
#include "report.h"
#include "suck.h"
#include "variant.h"
#include "wire.h"

const struct variant *const variants[] = {
	&variant_copy, &variant_buffer, &variant_mmsg, &variant_gro, &variant_uring, &variant_epoll,
	&variant_pool, &variant_xdp, NULL,
};

static const char *const queue_full_names[] = { "block", "drop", NULL };

/* What a row's .cap asks of the variant (variant.h), and how its refusal reads: "OPT applies
 * to -m LIST; VARIANT why", or "OPT applies to -m NAME only" where there is no why. */
enum { CAP_BATCH = 1, CAP_RETAIN, CAP_SPIN, CAP_EVENTS, CAP_POOL, CAP_BUSY, CAP_DEVICE, CAP_ECHO, CAP_SHARE };
static const struct cap {
	const char *who;          /* the options the message names, when not the one given */
	const char *pre, *post;   /* around the variant's name */
} caps[] = {
	[CAP_BATCH] = { NULL, "; ", " does not batch receive calls" },
	[CAP_RETAIN] = { NULL, NULL, NULL },
	[CAP_SPIN] = { NULL, "; ", " cannot poll" },
	[CAP_EVENTS] = { NULL, "; ", " has no event loop" },
	[CAP_POOL] = { "--workers, --queue and --queue-full", "; ", " has no worker threads" },
	[CAP_BUSY] = { NULL, ", which block in a receive call or epoll_wait; ", " does not" },
	[CAP_DEVICE] = { NULL, NULL, NULL },
	[CAP_ECHO] = { NULL, "; ", " cannot reply" },
	[CAP_SHARE] = { NULL, "; ", " hands its datagrams to no shared count" },
};

static int has(const struct variant *v, int cap)
{
	switch (cap) {
	case CAP_BATCH: return v->batch != 0;
	case CAP_RETAIN: return v->retains;
	case CAP_SPIN: return v->spins;
	case CAP_EVENTS: return v->events;
	case CAP_POOL: return v->pools;
	case CAP_BUSY: return v->busy_polls;
	case CAP_DEVICE: return v->device;
	case CAP_ECHO: return v->echoes;
	case CAP_SHARE: return v->shares;
	default: return 1;
	}
}

/* " mmsg, gro": the variants with cap, for a message (lead: the space before the first). */
static const char *names_where(int cap, const char *lead)
{
	static char buf[128];
	size_t len = 0;

	buf[0] = 0;
	for (int i = 0; variants[i]; i++)
		if (has(variants[i], cap) && len < sizeof buf)
			len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", len ? ", " : lead,
						variants[i]->name);
	return buf;
}

/* %V: the variants that take the option; %B: each batching variant's -b. */
static const char *expand(const struct optdef *o, char letter)
{
	static char buf[160];
	size_t len = 0;

	if (letter == 'V')
		return names_where(o->cap, "");
	buf[0] = 0;
	for (int i = 0; letter == 'B' && variants[i]; i++)
		if (variants[i]->batch && len < sizeof buf)
			len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s %u", len ? ", " : "",
						variants[i]->name, variants[i]->batch);
	return buf;
}

/* -h after -m: every variant and what it does. */
static void variant_lines(FILE *out)
{
	for (int i = 0; variants[i]; i++)
		fprintf(out, "                         %-7s %s\n", variants[i]->name, variants[i]->what);
}

static void set_variant(const struct optdef *o, void *cfg, const char *arg)
{
	const char *names[sizeof variants / sizeof variants[0]]; /* as many, NULL-terminated too */

	(void)o;
	if (strcmp(arg, "list") == 0) {
		for (int i = 0; variants[i]; i++)
			printf("%s\t%s\n", variants[i]->name, variants[i]->what);
		opt_done();
	}
	for (int i = 0; variants[i]; i++)
		names[i] = variants[i]->name, names[i + 1] = NULL;
	((struct suck_cfg *)cfg)->variant = variants[opt_name("-m", arg, names)];
}

static void set_work(const struct optdef *o, void *cfg, const char *arg)
{
	const char *err = work_parse(arg, &((struct suck_cfg *)cfg)->work);

	(void)o;
	if (err)
		opt_die("-w '%s': %s; accepted: none, histogram, checksum, each with :N, N 1..%u", arg, err,
			WORK_MAX_REPS);
}

/* --run-id ID[,ID...]: each 1..2^32-1, at most SUCK_MAX_RUN_IDS, none twice. */
static void set_run_ids(const struct optdef *o, void *cfg, const char *arg)
{
	struct suck_cfg *c = cfg;
	char buf[16 * SUCK_MAX_RUN_IDS];
	char *save = NULL, *tok;

	if (strlen(arg) >= sizeof buf)
		opt_die("--run-id '%.20s...': at most %u ids", arg, SUCK_MAX_RUN_IDS);
	strcpy(buf, arg);
	c->nrun_ids = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint32_t id = (uint32_t)optdef_u64(o, tok, 1, UINT32_MAX);
		if (c->nrun_ids == SUCK_MAX_RUN_IDS)
			opt_die("--run-id: at most %u ids", SUCK_MAX_RUN_IDS);
		for (unsigned i = 0; i < c->nrun_ids; i++)
			if (c->run_ids[i] == id)
				opt_die("--run-id: %s named twice", tok);
		c->run_ids[c->nrun_ids++] = id;
	}
	if (!c->nrun_ids || arg[strlen(arg) - 1] == ',' || arg[0] == ',' || strstr(arg, ",,"))
		opt_die("--run-id '%s': ids 1..4294967295, separated by commas", arg);
}

static void set_mc_if(const struct optdef *o, void *cfg, const char *arg)
{
	struct suck_cfg *c = cfg;

	(void)o;
	c->mc_if = arg;
	if (!(c->mc_ifindex = if_nametoindex(arg)))
		opt_die("--mc-if '%s': no such interface here", arg);
}

/* --rx-dev, --xdp-dev: a name the kernel could have. */
static void set_dev(const struct optdef *o, void *cfg, const char *arg)
{
	if (!*arg || strlen(arg) >= 16 || strchr(arg, '/'))
		opt_die("--%s '%s': a device name of 1..15 characters, no '/'", o->name, arg);
	*(const char **)((char *)cfg + o->off) = arg;
}

#define C(cfg) ((const struct suck_cfg *)(cfg))
#define S(ctx) ((const struct suck_show *)(ctx))

static int echo_on(const void *cfg)
{
	return C(cfg)->echo;
}

static int has_events(const void *cfg)
{
	return C(cfg)->variant->events;
}

static int has_pool(const void *cfg)
{
	return C(cfg)->variant->pools;
}

static void show_addr(struct report *r, const struct optdef *o, const void *cfg, int check, const void *ctx)
{
	(void)cfg, (void)check;
	report_str(r, o->key, S(ctx)->where);
}

static void show_run_id(struct report *r, const struct optdef *o, const void *cfg, int check, const void *ctx)
{
	(void)cfg, (void)check;
	report_str(r, o->key, S(ctx)->run);
}

static void show_rcvbuf(struct report *r, const struct optdef *o, const void *cfg, int check, const void *ctx)
{
	(void)cfg, (void)check;
	report_i64(r, o->key, S(ctx)->rcvbuf);
}

static void show_keyed(struct report *r, const struct optdef *o, const void *cfg, int check, const void *ctx)
{
	(void)check, (void)ctx;
	report_u64(r, o->key, (uint64_t)C(cfg)->key.set);
}

static void show_variant(struct report *r, const struct optdef *o, const void *cfg, int check, const void *ctx)
{
	(void)check, (void)ctx;
	report_str(r, o->key, C(cfg)->variant->name);
}

static void show_work(struct report *r, const struct optdef *o, const void *cfg, int check, const void *ctx)
{
	char spec[48];

	(void)check, (void)ctx;
	work_spec(&C(cfg)->work, spec, sizeof spec);
	report_str(r, o->key, spec);
}

/* a string option's value, or the string "-" (not json's null) when not given */
static void show_dash(struct report *r, const struct optdef *o, const void *cfg, int check, const void *ctx)
{
	const char *s = *(const char *const *)((const char *)cfg + o->off);

	(void)check, (void)ctx;
	report_str(r, o->key, s ? s : "-");
}

#define OPT(type, field, ...) \
	{ .off = offsetof(struct suck_cfg, field), .size = sizeof(type), __VA_ARGS__ },
#define OPT_ARG(...) { .off = -1, __VA_ARGS__ },
static const struct optdef rows[] = {
#include "options.h"
};
#undef OPT
#undef OPT_ARG

static const char *given[sizeof rows / sizeof rows[0]];
static struct optdef_table table = {
	.prog = "suck",
	.row = rows,
	.n = sizeof rows / sizeof rows[0],
	.usage_head = "usage: suck [options]\n"
		      "Receive UDP datagrams from blast, run a work function on each, report what arrived.\n",
	.usage_tail = "Numbers take k, M, G (sizes in bytes: 1024-based); durations s, ms, us, ns, m.\n"
		      "Stops on a fin from every flow, SIGINT/SIGTERM, -t or --idle; the report is always printed\n"
		      "(--serve: each run's as it ends; -t and --idle count from the start of serving).\n",
	.expand = expand,
	.given = given,
};

#define GIVEN(name) optdef_given(&table, name)

/* The variant takes every option given that only some variants take. */
static void caps_check(const struct suck_cfg *cfg)
{
	const struct variant *v = cfg->variant;
	char name[40];

	for (unsigned i = 0; i < table.n; i++) {
		const struct optdef *o = &rows[i];
		const struct cap *k = &caps[o->cap];
		if (!o->cap || !given[i] || has(v, o->cap))
			continue;
		optdef_name(o, name, sizeof name);
		if (!k->pre)
			opt_die("%s applies to -m%s only", name, names_where(o->cap, " "));
		opt_die("%s %s to -m%s%s%s%s", k->who ? k->who : name, k->who ? "apply" : "applies",
			names_where(o->cap, " "), k->pre, v->name, k->post);
	}
}

void suck_options(struct suck_cfg *cfg, int argc, char **argv)
{
	const char *err;

	optdef_parse(&table, cfg, argc, argv);
	if ((err = key_load(GIVEN("key-file"), &cfg->key)))
		opt_die("%s", err);
	caps_check(cfg);
	if (!GIVEN("batch"))
		cfg->batch = cfg->variant->batch ? cfg->variant->batch : 1;
	optdef_needs(&table);
	/* Every run of a server has its own id (blast's random one): a fixed one would make a
	 * late datagram of the run before one of the next. */
	/* --serve and --senders: the runs named may start, in any order; a lone run is fixed */
	if (cfg->nrun_ids > 1 && !cfg->serve && !cfg->senders)
		opt_die("--run-id with %u ids: a list names the runs of --serve or --senders; a single "
			"run takes one", cfg->nrun_ids);
	if (cfg->senders && cfg->nrun_ids && cfg->nrun_ids != cfg->senders)
		opt_die("--senders %u with --run-id: name %u runs, not %u", cfg->senders, cfg->senders,
			cfg->nrun_ids);
	if (!cfg->serve && !cfg->senders && cfg->nrun_ids)
		cfg->run_id = cfg->run_ids[0];
	/* xdp is set up again between runs: its program off the device and on again, unserved */
	if (cfg->serve && cfg->variant->device)
		opt_die("--serve applies to every variant but -m xdp");
	/* --serve runs one run at a time on the sockets, resetting what the threads share between
	 * runs; concurrent runs would each need their own end and reset while the others go on. */
	if (cfg->senders && cfg->serve)
		opt_die("--senders with --serve: a server takes its runs one after another; concurrent "
			"runs are counted by one suck --senders N run");
	/* --echo's replies are queued per receiving socket and sent after the batch: not per run */
	if (cfg->senders && cfg->echo)
		opt_die("--senders with --echo: fan-in counts runs apart, the replies of blast --rtt are "
			"one run's; run one suck --echo per blast");
	if (cfg->senders && cfg->senders * cfg->threads > SUCK_MAX_LANES)
		opt_die("--senders %u with -j %u: at most %u trackers (senders x threads)", cfg->senders,
			cfg->threads, SUCK_MAX_LANES);
	/* --one-socket: the threads' batches are counted into one receive state (one.c), which
	 * needs a batch to lock once for, and a run alone's shape around it. */
	if (cfg->one_socket) {
		if (cfg->threads < 2)
			opt_die("--one-socket shares one socket between -j threads: give -j 2 or more");
		if (cfg->serve || cfg->senders)
			opt_die("--one-socket with %s: one socket read by several threads is counted as one "
				"run at a time", cfg->serve ? "--serve" : "--senders");
		/* RFC 3550's D is between datagrams in arrival order; the accountant sees batches in
		 * the order the threads take its lock */
		if (cfg->jitter || cfg->gaps)
			opt_die("--one-socket with %s: the threads' batches are counted in the order "
				"they take the lock, not the order they arrived, and %s needs the latter",
				cfg->jitter ? "--jitter" : "--gaps", cfg->jitter ? "jitter" : "a gap");
		if (cfg->echo)
			opt_die("--one-socket with --echo: the replies are queued per thread; run -j without "
				"--one-socket");
		if (cfg->join)
			opt_die("--one-socket with --join: not offered; a group's receiver is one thread");
	}
	/* --drops counts what reaches the kernel's sk_buff path: xdp's frames never do; --senders'
	 * runs would each need their own row's drops */
	if (cfg->drops && (cfg->variant->device || cfg->senders))
		opt_die("--drops with %s: %s", cfg->senders ? "--senders" : "-m xdp", cfg->senders ?
			"the drops are counted for one run at a time" :
			"its frames go to an AF_XDP ring, past the sk_buff the drops are counted on");
	if (cfg->join) {
		if ((err = net_resolve(cfg->join, cfg->port, &cfg->group)))
			opt_die("--join '%s': %s", cfg->join, err);
		if (!mcast_is_group(&cfg->group))
			opt_die("--join '%s': not a multicast group; accepted: 224.0.0.0/4, ff00::/8", cfg->join);
		/* Every socket of a group gets every datagram: -j would count each many times. */
		if (cfg->threads > 1)
			opt_die("--join with -j %u: every socket in a group receives every datagram; run one "
				"suck per socket", cfg->threads);
		if (cfg->source && (err = net_resolve(cfg->source, 0, &cfg->from)))
			opt_die("--source '%s': %s", cfg->source, err);
		if (cfg->source && (mcast_is_group(&cfg->from) || cfg->from.ss.ss_family != cfg->group.ss.ss_family))
			opt_die("--source '%s': a unicast address of the group's family", cfg->source);
		/* Bound to the group, a socket receives that group's datagrams only. */
		if (!GIVEN("addr"))
			cfg->addr = cfg->join;
	}
	if ((err = net_resolve(cfg->addr, cfg->port, &cfg->to)))
		opt_die("-a '%s': %s", cfg->addr, err);
	if (cfg->join && cfg->to.ss.ss_family != cfg->group.ss.ss_family)
		opt_die("-a '%s' with --join '%s': bind an address of the group's family (or leave -a out: "
			"the group)", cfg->addr, cfg->join);
	/* A source address is whatever a datagram says: on a wildcard, any host that reaches the
	 * port can aim the replies at a third (echo.h says what bounds them). */
	if (cfg->echo && net_is_any(&cfg->to)) {
		if (cfg->echo_max)
			fprintf(stderr, "suck: warning: --echo on %s: any host that can reach the port gets replies, "
				"sent to whatever source its datagrams name, no larger than its requests or %u bytes, "
				"under a budget per source of %llu bytes a second beyond its requests (--echo-budget)\n",
				cfg->addr, cfg->echo_max, (unsigned long long)cfg->echo_budget);
		else
			fprintf(stderr, "suck: warning: --echo on %s: any host that can reach the port gets replies, "
				"sent to whatever source its datagrams name, no larger than its requests (larger only "
				"with --echo-max, under a budget per source)\n", cfg->addr);
	}
	/* Every check on the options is above: --check (main.c) relies on it. */
}

void suck_settings(struct report *r, const struct suck_cfg *cfg, enum suck_sec sec, int check,
		   const struct suck_show *ctx)
{
	optdef_settings(r, &table, cfg, (int)sec, check, ctx);
}
