/* suck: shared declarations of the receiver's parts: main.c (threads, report), options.c and
 * options.h (the options), rx.c (what every variant shares: counting, fins, stop conditions),
 * one file per variant behind variant.h, total.c (adding up over threads), work.c (the
 * per-datagram work) and progress.c (-i lines). Here: the tool's configuration, its limits, and progress.c's interface, which
 * takes plain numbers so that it depends on nothing of rx. No part calls back into main.c. */
#ifndef SUCK_H
#define SUCK_H
#include <stdint.h>

#include "key.h"
#include "net.h"
#include "work.h"

#define SUCK_MAX_THREADS 64     /* -j; rx_shared keeps a flow's owner as thread id + 1 in a byte */
#define SUCK_MAX_BATCH   1024   /* -b: datagrams (gro: buffers) per recvmmsg */
#define SUCK_MAX_BUFSIZE 65535  /* -s: the largest UDP datagram, and its default */
#define SUCK_MAX_RETAIN  100000 /* --retain */
#define SUCK_MAX_WORKERS 64     /* --workers, per receiving thread */
#define SUCK_MAX_QUEUE   1024   /* --queue: batches waiting for a worker */
#define SUCK_MAX_BUSY_POLL 1000000 /* --busy-poll: µs a receive call may poll the device */
#define SUCK_MAX_BUSY_BUDGET 65535 /* --busy-poll-budget: SO_BUSY_POLL_BUDGET is 16 bits */
#define SUCK_MAX_RUNS    1000000000u /* --runs */
#define SUCK_MAX_SENDERS 64     /* --senders: runs at once, each a tracker per thread */
#define SUCK_MAX_RUN_IDS 64     /* --run-id A,B,...: the runs --serve or --senders expect */
#define SUCK_MAX_LANES   256    /* --senders x -j: trackers (4 MiB of address space each) */
#define SUCK_MIN_RCVBUF  4096   /* -R: below a page the kernel rounds up anyway */
/* --echo-budget: bytes a second that replies to one source address may carry beyond their
 * requests (echo.h). No budget limits a run without --echo-max, whose replies carry nothing
 * beyond; the default lets one with it make 21,000 round trips a second of 64-byte requests and
 * 3264-byte replies (blast --rtt --outstanding 1 on loopback makes 20,000 a second), and gives a
 * spoofed victim at most 537 Mbit/s more than was sent in its name. At most 16 GiB: the buckets
 * count nano-bytes in 64 bits. */
#define SUCK_ECHO_BUDGET (64ull << 20)
#define SUCK_MAX_ECHO_BUDGET (16ull << 30)
#define SUCK_MAX_RCVBUF  (1 << 30)
_Static_assert(SUCK_MAX_THREADS < 256, "a flow's owner is kept as thread id + 1 in a byte");

struct variant;

/* The report's sections of settings (options.h's SS_*): --check prints them in this order,
 * the report (total.c) where its keys go; SS_DROPS's key is in the report where drops_report
 * (drops.c) puts it, with the drop figures. */
enum suck_sec {
	SS_NAME = 1, SS_WHERE, SS_KEYED, SS_SHAPE, SS_RETAIN, SS_RCVBUF, SS_TIME, SS_LATENCY, SS_MARKS,
	SS_JITTER, SS_GAPS, SS_ECHO, SS_SERVE, SS_SENDERS, SS_GROUP, SS_RXDEV, SS_DROPS, SS_POOL, SS_RUN,
	SS_END
};

struct suck_cfg {
	/* every option's value, each declared by its row in options.h */
#define OPT(type, field, ...) type field;
#define OPT_ARG(...)
#include "options.h"
#undef OPT
#undef OPT_ARG
	struct net_addr to;    /* addr and port resolved */
	uint32_t run_id;       /* --run-id: accept only this run; 0 = the first data datagram's */
	uint32_t run_ids[SUCK_MAX_RUN_IDS]; /* --serve, --senders: the runs named, any order */
	unsigned nrun_ids;     /* 0: any run may start (under a key, a proven one) */
	struct key key;        /* the run key (BS_RUN_KEY or --key-file): believe only fins it tags */
	struct net_addr group, from; /* --join and --source resolved */
	unsigned mc_ifindex;   /* --mc-if's */
};

/* options.c: the command line into cfg, every rule between options checked (a bad one ends
 * suck with exit 2); the settings of section sec as report keys (check: --check's row; where
 * the address bound, rcvbuf the receive buffer granted, run the run id as the row says it). */
void suck_options(struct suck_cfg *cfg, int argc, char **argv);
struct suck_show {
	const char *where;
	int rcvbuf;
	const char *run;
};
struct report;
void suck_settings(struct report *r, const struct suck_cfg *cfg, enum suck_sec sec, int check,
		   const struct suck_show *ctx);

/* progress.c: the -i lines on stderr, from the run's counts so far (rx.c adds them up over
 * the threads): a person's line with -o text, else a row of -o's format (tsv: a header line
 * before the first) with the same keys and units, for other tools. */
struct suck_counts {
	uint64_t received, foreign;
	int64_t kernel_drops;      /* -1: unknown (with -j, the sockets are not summed) */
	unsigned fins;
	double jitter_us;          /* --jitter: the flows' mean J now; < 0: not measured (yet) */
};
struct suck_progress {
	int fmt;
	uint64_t t0;               /* the run's start: t_s counts from it */
	uint64_t last_ns, last_received, lines; /* the last line, for the interval's pps */
};
void suck_progress_start(struct suck_progress *p, int fmt, uint64_t t0);
void suck_progress_line(struct suck_progress *p, uint64_t now, const struct suck_counts *c);

#endif
