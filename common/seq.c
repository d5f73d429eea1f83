/* seq: per-flow sequence tracking (see seq.h). The fast path is one compare, one bit set
 * and two increments; gaps clear the bits they skip so stale bits from a window ago never
 * make a new sequence look like a duplicate. */
#include "seq.h"

#include <string.h>
#include <sys/mman.h>

#define WORDS (SEQ_BITS / 64)

int seq_init(struct seq_tracker *t)
{
	size_t bytes = (size_t)WIRE_MAX_FLOWS * WORDS * sizeof(uint64_t);

	memset(t, 0, sizeof *t);
	/* mmap rather than malloc: untouched flows cost no resident memory, and the tracker
	 * does not show up in heap_kib, which measures the receive strategy, not the meter. */
	t->mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (t->mem == MAP_FAILED) {
		t->mem = NULL;
		return -1;
	}
	for (unsigned i = 0; i < WIRE_MAX_FLOWS; i++)
		t->flow[i].bits = t->mem + (size_t)i * WORDS;
	return 0;
}

void seq_free(struct seq_tracker *t)
{
	if (t->mem)
		munmap(t->mem, (size_t)WIRE_MAX_FLOWS * WORDS * sizeof(uint64_t));
	t->mem = NULL;
}

static void clear_range(uint64_t *bits, uint64_t from, uint64_t to)
{
	if (to - from >= SEQ_BITS) {
		memset(bits, 0, WORDS * sizeof *bits);
		return;
	}
	for (uint64_t s = from; s < to; ) {
		uint64_t bit = s % SEQ_BITS;
		if (bit % 64 == 0 && to - s >= 64) {
			bits[bit / 64] = 0;
			s += 64;
		} else {
			bits[bit / 64] &= ~(1ull << (bit % 64));
			s++;
		}
	}
}

static void run_end(struct seq_runs *r, uint64_t len)
{
	r->runs++;
	r->sum += len;
	if (len > r->max)
		r->max = len;
	if (len == 1)
		r->len1++;
	else if (len < 4)
		r->len2_3++;
	else if (len < 16)
		r->len4_15++;
	else
		r->len16++;
}

/* Counts the sequences [f->retired, to) into the loss runs: from the bitmap below f->next
 * (their bits are intact until a later lap writes their word), as missing from f->next on. */
static void retire_to(struct seq_tracker *t, struct seq_flow *f, uint64_t to)
{
	while (f->retired < to) {
		uint64_t r = f->retired, n = to - r, w;
		unsigned k = (unsigned)(r % 64), bits;

		if (r >= f->next) {
			f->open += n;
			f->retired = to;
			return;
		}
		/* the rest of r's word, and not past to or next */
		bits = 64 - k;
		if (n < bits)
			bits = (unsigned)n;
		if (f->next - r < bits)
			bits = (unsigned)(f->next - r);
		w = f->bits[r % SEQ_BITS / 64] >> k;
		if (bits < 64)
			w &= (1ull << bits) - 1;
		if (w == (bits < 64 ? (1ull << bits) - 1 : ~0ull)) {
			if (f->open)
				run_end(&t->runs, f->open);
			f->open = 0;
		} else {
			for (unsigned b = 0; b < bits; b++) {
				if (w >> b & 1) {
					if (f->open)
						run_end(&t->runs, f->open);
					f->open = 0;
				} else {
					f->open++;
				}
			}
		}
		f->retired = r + bits;
	}
}

/* Before the first write into the words up to seq's in this lap: their old contents. */
static void retire_before(struct seq_tracker *t, struct seq_flow *f, uint64_t seq)
{
	uint64_t end = (seq | 63) + 1; /* the end of seq's word */

	if (end > SEQ_BITS)
		retire_to(t, f, end - SEQ_BITS);
}

/* Everything but the next sequence of a flow already seen (seq_seen in seq.h). */
void seq_seen_slow(struct seq_tracker *t, unsigned flow, uint64_t seq)
{
	struct seq_flow *f = &t->flow[flow];
	uint64_t bit = seq % SEQ_BITS;
	uint64_t mask = 1ull << (bit % 64);

	if (flow >= t->flows_seen)
		t->flows_seen = flow + 1;
	if (seq >= WIRE_SEQ_LIMIT) {
		f->late++;
		return;
	}
	if (seq >= f->next) {
		retire_before(t, f, seq);
		if (seq != f->next)
			clear_range(f->bits, f->next, seq);
		f->bits[bit / 64] |= mask;
		f->next = seq + 1;
		f->valid++;
		return;
	}
	if (f->next - seq > SEQ_WINDOW) {
		f->late++;
		return;
	}
	if (f->bits[bit / 64] & mask) {
		f->dup++;
		return;
	}
	f->bits[bit / 64] |= mask;
	f->valid++;
	f->reordered++;
}

int seq_discard(struct seq_tracker *t, unsigned flow, uint64_t seq)
{
	struct seq_flow *f = &t->flow[flow];
	uint64_t bit = seq % SEQ_BITS;
	uint64_t mask = 1ull << (bit % 64);

	if (seq >= WIRE_SEQ_LIMIT)
		return 0;
	if (seq >= f->next) {
		/* marked seen, so not in a loss run: the runs are what never reached the receiver,
		 * lost - discarded */
		retire_before(t, f, seq);
		if (seq != f->next)
			clear_range(f->bits, f->next, seq);
		f->next = seq + 1;
	} else if (f->next - seq > SEQ_WINDOW || (f->bits[bit / 64] & mask)) {
		return 0;
	}
	if (flow >= t->flows_seen)
		t->flows_seen = flow + 1;
	f->bits[bit / 64] |= mask;
	f->discarded++;
	return 1;
}

int seq_fin(struct seq_tracker *t, unsigned flow, uint64_t sent, uint64_t bytes, uint64_t ns,
	      uint16_t flows)
{
	struct seq_flow *f = &t->flow[flow];

	if (flow >= t->flows_seen)
		t->flows_seen = flow + 1;
	if (f->fins++)
		return 0;
	f->fin_sent = sent;
	f->fin_bytes = bytes;
	f->fin_ns = ns;
	f->fin_flows = flows;
	return 1;
}

/* The datagrams a flow sent: its fin's word when that can be true (at least as many as were
 * seen, no more than any flow can send), else the highest sequence seen + 1. */
static int fin_believed(const struct seq_flow *f)
{
	return f->fins && f->fin_sent >= f->next && f->fin_sent >= f->valid && f->fin_sent <= WIRE_SEQ_LIMIT;
}

void seq_close(struct seq_tracker *t)
{
	if (t->closed)
		return;
	t->closed = 1;
	for (unsigned i = 0; i < t->flows_seen; i++) {
		struct seq_flow *f = &t->flow[i];
		uint64_t sent = fin_believed(f) ? f->fin_sent : f->next;
		retire_to(t, f, f->next);
		f->open += sent - f->next;
		if (f->open)
			run_end(&t->runs, f->open);
		f->open = 0;
		f->retired = sent;
	}
}

static void runs_merge(struct seq_runs *d, const struct seq_runs *s)
{
	d->runs += s->runs;
	d->sum += s->sum;
	if (s->max > d->max)
		d->max = s->max;
	d->len1 += s->len1;
	d->len2_3 += s->len2_3;
	d->len4_15 += s->len4_15;
	d->len16 += s->len16;
}

void seq_merge(struct seq_tracker *dst, const struct seq_tracker *src)
{
	runs_merge(&dst->runs, &src->runs);
	for (unsigned i = 0; i < src->flows_seen; i++) {
		struct seq_flow *d = &dst->flow[i];
		const struct seq_flow *s = &src->flow[i];
		if (s->next > d->next)
			d->next = s->next;
		d->valid += s->valid;
		d->dup += s->dup;
		d->reordered += s->reordered;
		d->late += s->late;
		d->discarded += s->discarded;
		if (s->fins && !d->fins) {
			d->fin_sent = s->fin_sent;
			d->fin_bytes = s->fin_bytes;
			d->fin_ns = s->fin_ns;
			d->fin_flows = s->fin_flows;
		}
		d->fins += s->fins;
	}
	if (src->flows_seen > dst->flows_seen)
		dst->flows_seen = src->flows_seen;
}

void seq_sum(const struct seq_tracker *t, struct seq_total *out)
{
	unsigned flows = t->flows_seen;

	memset(out, 0, sizeof *out);
	for (unsigned i = 0; i < t->flows_seen; i++)
		if (t->flow[i].fins && t->flow[i].fin_flows > flows)
			flows = t->flow[i].fin_flows;
	if (flows > WIRE_MAX_FLOWS) /* wire_get_fin refuses these; a direct caller might not */
		flows = WIRE_MAX_FLOWS;
	out->flows = flows;
	for (unsigned i = 0; i < flows; i++) {
		const struct seq_flow *f = &t->flow[i];
		uint64_t sent = f->next;
		/* A fin that claims fewer datagrams than were seen, or more than any flow can send,
		 * is not believed. Every per-flow figure is then below 2^48 (valid <= next <= sent),
		 * and their sums over 256 flows cannot wrap. */
		if (fin_believed(f)) {
			sent = f->fin_sent;
			out->bytes_sent = f->fin_bytes > UINT64_MAX - out->bytes_sent ? UINT64_MAX :
					  out->bytes_sent + f->fin_bytes;
		} else {
			out->fins_missing++;
		}
		out->valid += f->valid;
		out->dup += f->dup;
		out->reordered += f->reordered;
		out->late += f->late;
		out->discarded += f->discarded;
		out->fins += f->fins;
		out->sent += sent;
	}
	out->sent_estimated = out->fins_missing > 0;
	out->lost = out->sent - out->valid;
	out->runs = t->runs;
}
