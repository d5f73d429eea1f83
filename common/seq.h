/* seq: the per-flow sequence tracker behind valid, dup, reordered and late.
 * Each flow keeps the highest sequence seen and a bitmap of the SEQ_WINDOW sequences below
 * it. A sequence inside the window is counted once (valid) and again only as dup; one older
 * than the window cannot be told apart from a duplicate and is counted late, never valid, so
 * that lost = sent - valid can never go below zero. A tracker belongs to one thread.
 *
 * Loss runs: the bitmap holds twice the window, so a sequence's bit outlives the window by a
 * window's length; the first write into a word of the bitmap in a new lap retires the word's
 * old contents (sequences long out of the window, final) into a histogram of the lengths of
 * runs of missing sequences. The fast path leaves the first sequence of every word to the slow
 * one, which does that; seq_close retires the rest and the tail after the last sequence seen
 * (up to sent), so that the run lengths add up to lost exactly, less the discarded (seen, and
 * marked so, but thrown away by the receiver: counted apart). */
#ifndef SEQ_H
#define SEQ_H
#include <stdint.h>

#include "wire.h"

#define SEQ_WINDOW 65536u /* sequences per flow that can still be reordered or duplicates */
#define SEQ_BITS (2 * SEQ_WINDOW) /* bits per flow: 16 KiB of bitmap, touched only when used */

/* Runs of missing sequences by length: 1, 2-3, 4-15, 16 and more. */
struct seq_runs {
	uint64_t runs, max, sum;  /* sum: their lengths added, lost when every run is closed */
	uint64_t len1, len2_3, len4_15, len16;
};

struct seq_flow {
	uint64_t next;      /* highest sequence seen + 1; 0 while none seen */
	uint64_t retired;   /* sequences below are counted into the loss runs */
	uint64_t open;      /* missing sequences just below retired: a run not ended yet */
	uint64_t valid, dup, reordered, late;
	uint64_t discarded; /* seen, then thrown away unworked by the receiver (seq_discard) */
	uint64_t fins;      /* fins received for this flow, repeats included */
	uint64_t fin_sent, fin_bytes, fin_ns; /* from the first fin */
	uint16_t fin_flows;
	uint64_t *bits;
};

struct seq_tracker {
	struct seq_flow flow[WIRE_MAX_FLOWS];
	uint64_t *mem;      /* one mapping for every flow's bitmap */
	unsigned flows_seen; /* highest flow id seen + 1 */
	struct seq_runs runs; /* every flow's, retired so far (all of them after seq_close) */
	int closed;
};

int seq_init(struct seq_tracker *t);
void seq_free(struct seq_tracker *t);
/* seq must be below WIRE_SEQ_LIMIT (wire_get_hdr refuses others); one that is not is
 * counted late, never valid, so highest + 1 always fits in 64 bits. */
void seq_seen_slow(struct seq_tracker *t, unsigned flow, uint64_t seq);
static inline void seq_seen(struct seq_tracker *t, unsigned flow, uint64_t seq)
{
	struct seq_flow *f = &t->flow[flow];

	/* The common case, inline: the next sequence of a flow already seen, not the first of a
	 * word of the bitmap (whose old contents the slow path retires first). */
	if (seq == f->next && seq % 64 && flow < t->flows_seen && seq < WIRE_SEQ_LIMIT) {
		f->bits[seq % SEQ_BITS / 64] |= 1ull << (seq % 64);
		f->next = seq + 1;
		f->valid++;
		return;
	}
	seq_seen_slow(t, flow, seq);
}
/* A sequence the receiver took and then threw away without working on it (suck -m pool at a
 * full queue, --queue-full drop): when it would have been valid, it is marked seen, so that a
 * later copy is a dup, and counted discarded, never valid; returns 1. Otherwise (it would be a
 * dup or late) nothing is recorded and it returns 0: the caller counts it as usual. The
 * discarded are part of what was lost (sent - valid), and never more than it: each is a
 * distinct sequence below the flow's highest + 1, as the valid ones are. */
int seq_discard(struct seq_tracker *t, unsigned flow, uint64_t seq);
/* Records a fin; returns 1 when it is the first fin of that flow. */
int seq_fin(struct seq_tracker *t, unsigned flow, uint64_t sent, uint64_t bytes, uint64_t ns,
	      uint16_t flows);

/* The end of a run: retires every flow's remaining sequences, and its tail up to sent (from a
 * believable fin, else the highest seen + 1), into the loss runs. Once; seq_seen must not be
 * called after it. */
void seq_close(struct seq_tracker *t);

/* Adds src's counts into dst (for per-thread trackers summed at the end, each closed). */
void seq_merge(struct seq_tracker *dst, const struct seq_tracker *src);

/* The run as a whole, over every flow. */
struct seq_total {
	uint64_t valid, dup, reordered, late, sent, lost, fins, bytes_sent;
	uint64_t discarded;      /* of lost: taken, then thrown away by the receiver */
	unsigned flows;          /* from the fins, or flows seen */
	unsigned fins_missing;   /* flows whose sent had to be estimated */
	int sent_estimated;
	struct seq_runs runs;    /* the loss runs, as seq_close left them */
};
void seq_sum(const struct seq_tracker *t, struct seq_total *out);

#endif
