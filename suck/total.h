/* total: a run's figures added up over every receive thread, and laid out as the report's keys,
 * apart from printing them, so that the arithmetic (sums, the receive window, dropped scaled
 * for gro) and the report's size are unit-tested on their own. */
#ifndef TOTAL_H
#define TOTAL_H
#include <stdint.h>

#include "report.h"
#include "kernel.h"
#include "rx.h"
#include "seq.h"
#include "sizes.h"
#include "sys.h"
#include "work.h"

struct total {
	uint64_t received, bytes, foreign, other_run, other_src, forged_fins, stale_fins, unproven, truncated, allocs, bufs, calls,
		 idle_calls, wakeups, unworked;
	uint64_t untagged_fins;      /* of forged_fins: tag 0 (a sender without the run key); not a
					report key, it picks the warning's words */
	uint64_t queue_hwm;          /* pool: the most batches waiting in any thread's queue */
	uint64_t thread_min, thread_max; /* the fewest and the most datagrams one thread received */
	int64_t napi_id;             /* the first nonzero NAPI id of a thread's socket, else 0; -1
					when no thread received (none was read) */
	uint64_t first_ns, last_ns;  /* the receive window: first and last datagram, any thread */
	enum rx_stop stop;           /* fin, unless some thread stopped for another reason */
	struct seq_total seq;        /* valid, sent, lost, ... over every flow */
	struct sizes sizes;          /* received and bytes per size class */
	uint32_t size_word;          /* the run's size from its fins (wire.h), 0: none believed */
	int bytes_check;             /* sizes_check: 1 exact, 0 not checkable, -1 a mismatch */
	int64_t kernel_drops;        /* as read; -1 when unknown */
	double segs_per_buf;         /* datagrams per receive buffer: above 1 only with gro */
	uint64_t queue_dropped;      /* pool: new sequences thrown away at a full queue (seq.discarded) */
	uint64_t dropped;            /* kernel_drops scaled by segs_per_buf, capped at what of lost
					queue_dropped leaves */
	struct work work;            /* merged, for the digest */
	uint64_t marks_changed;      /* --marks: valid datagrams marked unlike the first */
	uint64_t echoed, echo_errors; /* --echo: replies sent; refused by the kernel */
	uint64_t echo_clipped, echo_limited; /* --echo: cut to the allowance; over the budget, unsent */
	uint32_t mark_first;         /* --marks: the first's marking, RX_MARK_SEEN when there was one */
	int jitter;                  /* --jitter: jit holds the flows' J and the |D| histogram */
	struct jitter jit;
	int gaps;                    /* --gaps: gap holds the flows' arrival gaps */
	struct gaps gap;
	int latency;                 /* --latency: lat holds the merged histograms */
	struct rx_latency lat;
};

/* Adds up n threads' counts; merges every tracker into rx[0]'s, which it changes. */
void total_sum(struct rx *rx, unsigned n, int64_t kernel_drops, struct total *t);

/* What main measured around the receive threads, for the report. */
struct total_env {
	const char *where;           /* the address bound, ADDR:PORT */
	int rcvbuf;                  /* as the kernel granted it */
	uint64_t heap_kib;           /* after the threads, before the variants free their buffers */
	struct sys_cpu c0, c1;       /* before and after the threads */
	const struct kernel_work *kernel; /* --rx-dev: the kernel's receive work; NULL otherwise */
	uint64_t serve_run;          /* --serve: the run's number, from 1; 0 without */
	unsigned sender;             /* --senders: the run's slot, from 1; 0 the total row (and
					without --senders) */
};
/* The run's figures as report keys: suck's report, the largest either tool prints (a unit test
 * checks it fits in a struct report). rx0 gives the settings (its cfg) and the run id. */
void total_report(struct report *r, const struct total *t, const struct rx *rx0,
		  const struct total_env *env);

#endif
