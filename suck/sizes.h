/* sizes: datagrams and bytes received per size class, and what the fins say of the run's size
 * (one size, or a size mix: its smallest and largest). The classes are fixed bins, so that
 * counting one is a few compares and two adds into a small array, whatever arrives:
 * 0-64, 65-256, 257-576, 577-1024, 1025-1500, 1501 and up (a datagram's length as the kernel
 * reported it, truncated ones by their real length). They add up to received and bytes. */
#ifndef SIZES_H
#define SIZES_H
#include <stddef.h>
#include <stdint.h>

#include "report.h"
#include "seq.h"

#define SIZES_BINS 6

struct sizes {
	uint64_t n[SIZES_BINS], bytes[SIZES_BINS];
};

static inline void sizes_add(struct sizes *s, size_t len)
{
	/* branch-free: the bins' upper edges are 64, 256, 576, 1024, 1500 */
	unsigned bin = (len > 64) + (len > 256) + (len > 576) + (len > 1024) + (len > 1500);

	s->n[bin]++;
	s->bytes[bin] += len;
}

/* Takes back one sizes_add (a datagram carried to the next run, carry.h). */
static inline void sizes_sub(struct sizes *s, size_t len)
{
	unsigned bin = (len > 64) + (len > 256) + (len > 576) + (len > 1024) + (len > 1500);

	s->n[bin]--;
	s->bytes[bin] -= len;
}

void sizes_merge(struct sizes *dst, const struct sizes *src);
/* The end's check of the fins' bytes (size_word: the run's, 0 without a believed fin): when
 * every flow's fin was believed, nothing was lost and every datagram received was valid, the
 * bytes received are the bytes sent. 1: they are checked and equal (bytes_check "exact"), 0:
 * the run cannot be checked ("-"), -1: checked and unequal ("mismatch"). */
int sizes_check(uint32_t size_word, const struct seq_total *seq, uint64_t received, uint64_t bytes);
/* The report's keys: size, size_min, size_max (from size_word), bytes_sent, bytes_check, and
 * dgrams_LO_HI, bytes_LO_HI per class. */
void sizes_report(struct report *r, const struct sizes *s, uint32_t size_word, const struct seq_total *seq,
		  int check);

#endif
