/* stats: the per-flow sequence tracker behind valid, dup, reordered and late.
 * Each flow keeps the highest sequence seen and a bitmap of the STATS_WINDOW sequences below
 * it. A sequence inside the window is counted once (valid) and again only as dup; one older
 * than the window cannot be told apart from a duplicate and is counted late, never valid, so
 * that lost = sent - valid can never go below zero. A tracker belongs to one thread. */
#ifndef STATS_H
#define STATS_H
#include <stdint.h>

#include "wire.h"

#define STATS_WINDOW 65536u /* sequences per flow; 8 KiB of bitmap, touched only when used */

struct stats_flow {
	uint64_t next;      /* highest sequence seen + 1; 0 while none seen */
	uint64_t valid, dup, reordered, late;
	uint64_t fins;      /* fins received for this flow, repeats included */
	uint64_t fin_sent, fin_bytes, fin_ns; /* from the first fin */
	uint16_t fin_flows;
	uint64_t *bits;
};

struct stats_tracker {
	struct stats_flow flow[WIRE_MAX_FLOWS];
	uint64_t *mem;      /* one mapping for every flow's bitmap */
	unsigned flows_seen; /* highest flow id seen + 1 */
};

int stats_init(struct stats_tracker *t);
void stats_free(struct stats_tracker *t);
/* seq must be below WIRE_SEQ_LIMIT (wire_get_hdr refuses others); one that is not is
 * counted late, never valid, so highest + 1 always fits in 64 bits. */
void stats_seq_slow(struct stats_tracker *t, unsigned flow, uint64_t seq);
static inline void stats_seq(struct stats_tracker *t, unsigned flow, uint64_t seq)
{
	struct stats_flow *f = &t->flow[flow];

	/* The common case, inline: the next sequence of a flow already seen. */
	if (seq == f->next && flow < t->flows_seen && seq < WIRE_SEQ_LIMIT) {
		f->bits[seq % STATS_WINDOW / 64] |= 1ull << (seq % 64);
		f->next = seq + 1;
		f->valid++;
		return;
	}
	stats_seq_slow(t, flow, seq);
}
/* Records a fin; returns 1 when it is the first fin of that flow. */
int stats_fin(struct stats_tracker *t, unsigned flow, uint64_t sent, uint64_t bytes, uint64_t ns,
	      uint16_t flows);

/* Adds src's counts into dst (for per-thread trackers summed at the end). */
void stats_merge(struct stats_tracker *dst, const struct stats_tracker *src);

/* The run as a whole, over every flow. */
struct stats_total {
	uint64_t valid, dup, reordered, late, sent, lost, fins, bytes_sent;
	unsigned flows;          /* from the fins, or flows seen */
	unsigned fins_missing;   /* flows whose sent had to be estimated */
	int sent_estimated;
};
void stats_sum(const struct stats_tracker *t, struct stats_total *out);

#endif
