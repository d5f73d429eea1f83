/* jitter: RFC 3550 interarrival jitter and |D| percentiles (see jitter.h). */
#include "jitter.h"

void jitter_add(struct jitter *j, unsigned flow, uint64_t send_ns, uint64_t recv_ns)
{
	struct jitter_flow *f = &j->flow[flow];
	int64_t transit = (int64_t)(recv_ns - send_ns); /* modulo 2^64, as RTP's timestamps */
	uint64_t d;

	if (f->n++ == 0) {
		f->transit = transit;
		return;
	}
	d = transit >= f->transit ? (uint64_t)transit - (uint64_t)f->transit :
				    (uint64_t)f->transit - (uint64_t)transit;
	f->transit = transit;
	if (d > JITTER_MAX_D_NS)
		d = JITTER_MAX_D_NS;
	/* J += (|D| - J) / 16, in the integer form of RFC 3550 A.8: j16 = 16 J */
	f->j16 += d - ((f->j16 + 8) >> 4);
	hist_add(&j->ipdv, d);
}

void jitter_now(const struct jitter *j, unsigned nflows, uint64_t *sum_ns, unsigned *flows)
{
	*sum_ns = 0;
	*flows = 0;
	for (unsigned i = 0; i < nflows && i < WIRE_MAX_FLOWS; i++)
		if (j->flow[i].n >= 2) {
			*sum_ns += j->flow[i].j16 >> 4;
			(*flows)++;
		}
}

void jitter_merge(struct jitter *dst, const struct jitter *src)
{
	for (unsigned i = 0; i < WIRE_MAX_FLOWS; i++)
		if (src->flow[i].n > dst->flow[i].n)
			dst->flow[i] = src->flow[i];
	hist_merge(&dst->ipdv, &src->ipdv);
}
