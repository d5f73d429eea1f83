/* total: a run's figures added up over every receive thread, apart from printing them, so that
 * the arithmetic (sums, the receive window, dropped scaled for gro) is unit-tested on its own. */
#ifndef TOTAL_H
#define TOTAL_H
#include <stdint.h>

#include "rx.h"
#include "seq.h"
#include "work.h"

struct total {
	uint64_t received, bytes, foreign, other_run, other_src, forged_fins, truncated, allocs, bufs, calls,
		 idle_calls;
	uint64_t first_ns, last_ns;  /* the receive window: first and last datagram, any thread */
	enum rx_stop stop;           /* fin, unless some thread stopped for another reason */
	struct seq_total seq;        /* valid, sent, lost, ... over every flow */
	int64_t kernel_drops;        /* as read; -1 when unknown */
	double segs_per_buf;         /* datagrams per receive buffer: above 1 only with gro */
	uint64_t dropped;            /* kernel_drops scaled by segs_per_buf, capped at lost */
	struct work work;            /* merged, for the digest */
	int latency;                 /* --latency: lat holds the merged histograms */
	struct rx_latency lat;
};

/* Adds up n threads' counts; merges every tracker into rx[0]'s, which it changes. */
void total_sum(struct rx *rx, unsigned n, int64_t kernel_drops, struct total *t);

#endif
