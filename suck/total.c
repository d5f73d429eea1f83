/* total: adding up a run over its threads (see total.h). */
#include "total.h"

#include <string.h>

void total_sum(struct rx *rx, unsigned n, int64_t kernel_drops, struct total *t)
{
	memset(t, 0, sizeof *t);
	t->stop = RX_STOP_FIN;
	t->work.kind = rx[0].work.kind;
	t->work.reps = rx[0].work.reps;
	for (unsigned i = 0; i < n; i++) {
		const struct rx *r = &rx[i];
		t->received += r->received;
		t->bytes += r->bytes;
		t->foreign += r->foreign;
		t->other_run += r->other_run;
		t->other_src += r->other_src;
		t->forged_fins += r->forged_fins;
		t->truncated += r->truncated;
		t->allocs += r->allocs;
		t->bufs += r->bufs;
		t->calls += r->calls;
		t->idle_calls += r->idle_calls;
		if (r->first_ns && (!t->first_ns || r->first_ns < t->first_ns))
			t->first_ns = r->first_ns;
		if (r->last_ns > t->last_ns)
			t->last_ns = r->last_ns;
		if (i > 0)
			seq_merge(&rx[0].trk, &r->trk);
		work_merge(&t->work, &r->work);
		if (r->lat) {
			t->latency = 1;
			hist_merge(&t->lat.total, &r->lat->total);
			hist_merge(&t->lat.stack, &r->lat->stack);
			hist_merge(&t->lat.queue, &r->lat->queue);
			t->lat.negative += r->lat->negative;
			t->lat.outside += r->lat->outside;
		}
		if (r->done != RX_STOP_FIN)
			t->stop = r->done;
	}
	seq_sum(&rx[0].trk, &t->seq);
	t->kernel_drops = kernel_drops;
	/* The kernel's counter also counts dropped fins and foreign datagrams: dropped is the part
	 * that can be this run's data, capped at lost. With GRO the kernel drops, and counts, whole
	 * coalesced buffers: scale the counter by the datagrams per buffer this run received (1 for
	 * every other variant). A fin comes in a buffer of its own and is not among the datagrams
	 * received: leave its buffers out, or the average, and with it dropped, comes out low. */
	t->segs_per_buf = t->bufs > t->seq.fins && t->received ?
			  (double)t->received / (double)(t->bufs - t->seq.fins) : 1;
	t->dropped = kernel_drops < 0 ? 0 : (uint64_t)((double)kernel_drops * t->segs_per_buf + 0.5);
	if (t->dropped > t->seq.lost)
		t->dropped = t->seq.lost;
}
