/* suck: shared declarations of the receiver's parts: main.c (options, threads, report), rx.c
 * (what every variant shares: counting, fins, stop conditions), one file per variant behind
 * variant.h, total.c (adding up over threads), work.c (the per-datagram work) and progress.c
 * (-i lines). Here: the tool's configuration, its limits, and progress.c's interface, which
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

struct suck_cfg {
	const char *addr;
	unsigned port;
	struct net_addr to;    /* addr and port resolved */
	const struct variant *variant;
	struct work work;      /* kind and repetitions; the state lives in each rx */
	unsigned batch;        /* datagrams per recvmmsg */
	unsigned bufsize;      /* bytes per receive buffer; larger datagrams are truncated */
	double time_s, idle_s, interval_s;
	int rcvbuf;            /* -R, 0 = kernel default */
	unsigned threads;
	int one_socket;        /* --one-socket: the threads share one socket (one.c), no SO_REUSEPORT */
	unsigned retain;
	int cpu;               /* -1 = not pinned */
	int fmt;
	uint32_t run_id;       /* --run-id: accept only this run; 0 = the first data datagram's */
	uint32_t run_ids[SUCK_MAX_RUN_IDS]; /* --serve, --senders: the runs named, any order */
	unsigned nrun_ids;     /* 0: any run may start (under a key, a proven one) */
	struct key key;        /* the run key (BS_RUN_KEY or --key-file): believe only fins it tags */
	int latency;           /* --latency: one-way delay of every valid datagram, split in two */
	int spin;              /* --spin: never block in a receive call */
	int edge;              /* --edge: epoll edge-triggered (EPOLLET), drained to EAGAIN */
	unsigned workers;      /* --workers: pool's worker threads per receiving thread */
	unsigned queue;        /* --queue: batches that may wait for a worker */
	int queue_drop;        /* --queue-full drop: a full queue drops in suck, not the kernel */
	unsigned busy_poll;    /* --busy-poll: SO_BUSY_POLL µs, 0 = off */
	int prefer_busy_poll;  /* --prefer-busy-poll: SO_PREFER_BUSY_POLL */
	unsigned busy_budget;  /* --busy-poll-budget: SO_BUSY_POLL_BUDGET, 0 = the kernel's */
	int check;             /* --check: set up one socket and the variant, report, exit */
	const char *rx_dev;    /* --rx-dev: the receiving device, whose NAPI threads' CPU is counted */
	const char *xdp_dev;   /* --xdp-dev: the device -m xdp attaches to (else -a's) */
	int xdp_zc;            /* --xdp-zc: AF_XDP in zero-copy mode */
	int marks;             /* --marks: read every valid datagram's TOS and TTL (control messages) */
	int jitter;            /* --jitter: RFC 3550 jitter and |D| percentiles, from receive stamps */
	int gaps;              /* --gaps: each flow's arrival gaps, from receive stamps (gaps.h) */
	int echo;              /* --echo: every valid datagram back to its source (blast --rtt) */
	unsigned echo_max;     /* --echo-max: a reply may be this large when its request is smaller */
	uint64_t echo_budget;  /* --echo-budget: bytes a second per source beyond the requests' */
	const char *join;      /* --join: the multicast group joined, NULL = none */
	const char *source;    /* --source: ... from this source only (source-specific) */
	struct net_addr group, from;
	const char *mc_if;     /* --mc-if: the interface the group is joined on, NULL = the route's */
	unsigned mc_ifindex;
	int serve;             /* --serve: after a run, report it and wait for the next (serve.c) */
	uint64_t runs;         /* --runs: stop serving after this many runs, 0 = no limit */
	double run_timeout_s;  /* --run-timeout: a run ends this long after it locked, 0 = never */
	unsigned senders;      /* --senders: runs counted at once, each apart (fanin.c); 0 = one */
};

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
