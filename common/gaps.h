/* gaps: the gaps between a flow's successive datagrams, as a figure of how a stream is shaped:
 * their mean and coefficient of variation (standard deviation over mean: 0 for an even stream,
 * 1 for a Poisson one) from exact integer sums, and percentiles from a log-linear histogram.
 * blast sums the gaps of the schedule it draws (--pattern); suck --gaps those it sees, per flow,
 * from the kernel's receive stamps. One struct gaps per receive thread, for the flows it owns;
 * merged at the end. No libm: the square root is gaps_sqrt's. */
#ifndef GAPS_H
#define GAPS_H
#include <stdint.h>

#include "hist.h"
#include "wire.h"

#define GAPS_MAX_NS (1ull << 40) /* a gap is capped here (18 minutes): the sums cannot wrap */

/* Sums of gaps in ns: n gaps, their sum and the sum of their squares. Exact: a gap is at most
 * 2^40, its square 2^80, and 2^48 of them (more than any run has) fit in 128 bits. */
struct gaps_sum {
	uint64_t n;
	unsigned __int128 sum, sumsq;
};

static inline void gaps_sum_add(struct gaps_sum *s, uint64_t ns)
{
	if (ns > GAPS_MAX_NS)
		ns = GAPS_MAX_NS;
	s->n++;
	s->sum += ns;
	s->sumsq += (unsigned __int128)ns * ns;
}

void gaps_sum_merge(struct gaps_sum *dst, const struct gaps_sum *src);
double gaps_mean(const struct gaps_sum *s);  /* ns; 0 when there is no gap */
/* The coefficient of variation, the population standard deviation over the mean; -1 when it
 * is not defined (fewer than two gaps, or a mean of 0). */
double gaps_cv(const struct gaps_sum *s);
double gaps_sqrt(double x);                  /* x >= 0; Newton's, to the last bit or so */

/* suck --gaps: per flow the last datagram's receive time, and the gaps after the first. */
struct gaps {
	uint64_t last[WIRE_MAX_FLOWS];  /* ns since the epoch; 0 = no datagram of the flow yet */
	struct gaps_sum sum;
	struct hist hist;
};

/* A valid datagram of flow received at at_ns (the kernel's receive stamp). A stamp before the
 * flow's last (threads' clocks, a clock step) is a gap of 0. */
void gaps_add(struct gaps *g, unsigned flow, uint64_t at_ns);
/* Adds src's gaps into dst; each flow is in one of them (its owner's). */
void gaps_merge(struct gaps *dst, const struct gaps *src);

#endif
