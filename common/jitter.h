/* jitter: the RFC 3550 interarrival jitter and the delay variation of every pair of datagrams,
 * per flow. For each datagram the transit time is its receive time minus its send time (the two
 * clocks need not agree: only differences of transits are used); D is the difference between
 * the transits of a flow's datagram and of the one before it in arrival order. J moves 1/16 of
 * the way towards |D| with each datagram (RFC 3550, 6.4.1: an estimator that weighs the last
 * few dozen datagrams), and |D| of every pair goes into a histogram, for percentiles over the
 * whole run. One per receive thread, for the flows it owns; merged at the end. */
#ifndef JITTER_H
#define JITTER_H
#include <stdint.h>

#include "hist.h"
#include "wire.h"

#define JITTER_MAX_D_NS (1ull << 40) /* |D| is capped here (18 minutes): no send time can make J wrap */

struct jitter_flow {
	int64_t transit;           /* of the flow's last datagram, ns */
	uint64_t j16;              /* J scaled by 16, ns (RFC 3550, appendix A.8) */
	uint64_t n;                /* datagrams seen */
};

struct jitter {
	struct jitter_flow flow[WIRE_MAX_FLOWS];
	struct hist ipdv;          /* |D| of every pair of a flow's successive datagrams */
};

void jitter_add(struct jitter *j, unsigned flow, uint64_t send_ns, uint64_t recv_ns);
/* J of the flows below nflows that have a D (two datagrams or more): their sum in ns and their
 * number. */
void jitter_now(const struct jitter *j, unsigned nflows, uint64_t *sum_ns, unsigned *flows);
/* Adds src's flows and histogram into dst; a flow is in one of them (its owner's). */
void jitter_merge(struct jitter *dst, const struct jitter *src);

#endif
