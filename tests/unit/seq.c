/* Unit tests for common/seq.c: the per-flow sequence tracker (valid, dup, reordered, late),
 * fins, merging per-thread trackers, and the run totals (sent, lost, estimated). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "seq.h"
#include "unit.h"

#define W ((uint64_t)SEQ_WINDOW)
#define ULL(x) ((unsigned long long)(x))

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint64_t xorshift(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void init(struct seq_tracker *t, const char *name)
{
	int r = seq_init(t);

	CHECK(r == 0, "%s: seq_init failed", name);
	if (r != 0)
		exit(1);
}

/* The totals, with the invariants of DESIGN.md checked on every case. */
static void sum(const struct seq_tracker *t, struct seq_total *s, const char *name)
{
	uint64_t valid = 0, dup = 0, reo = 0, late = 0;

	seq_sum(t, s);
	CHECK(s->lost == s->sent - s->valid, "%s: lost %llu != sent %llu - valid %llu", name,
	      ULL(s->lost), ULL(s->sent), ULL(s->valid));
	CHECK(s->valid <= s->sent, "%s: valid %llu > sent %llu", name, ULL(s->valid), ULL(s->sent));
	CHECK(s->sent_estimated == (s->fins_missing > 0), "%s: sent_estimated %d with %u fins missing",
	      name, s->sent_estimated, s->fins_missing);
	for (unsigned i = 0; i < s->flows && i < WIRE_MAX_FLOWS; i++) {
		valid += t->flow[i].valid;
		dup += t->flow[i].dup;
		reo += t->flow[i].reordered;
		late += t->flow[i].late;
	}
	CHECK(valid == s->valid && dup == s->dup && reo == s->reordered && late == s->late,
	      "%s: totals are not the sums of the flows", name);
}

static void expect_flow(const struct seq_tracker *t, unsigned flow, uint64_t valid, uint64_t dup,
			uint64_t reordered, uint64_t late, const char *name)
{
	const struct seq_flow *f = &t->flow[flow];

	CHECK(f->valid == valid, "%s: flow %u valid %llu, want %llu", name, flow, ULL(f->valid), ULL(valid));
	CHECK(f->dup == dup, "%s: flow %u dup %llu, want %llu", name, flow, ULL(f->dup), ULL(dup));
	CHECK(f->reordered == reordered, "%s: flow %u reordered %llu, want %llu", name, flow,
	      ULL(f->reordered), ULL(reordered));
	CHECK(f->late == late, "%s: flow %u late %llu, want %llu", name, flow, ULL(f->late), ULL(late));
}

static void expect_total(const struct seq_total *s, uint64_t sent, uint64_t valid, uint64_t lost,
			 int estimated, const char *name)
{
	CHECK(s->sent == sent, "%s: sent %llu, want %llu", name, ULL(s->sent), ULL(sent));
	CHECK(s->valid == valid, "%s: valid %llu, want %llu", name, ULL(s->valid), ULL(valid));
	CHECK(s->lost == lost, "%s: lost %llu, want %llu", name, ULL(s->lost), ULL(lost));
	CHECK(s->sent_estimated == estimated, "%s: sent_estimated %d, want %d", name, s->sent_estimated,
	      estimated);
}

static void test_in_order(void)
{
	struct seq_tracker t;
	struct seq_total s;

	init(&t, "in order");
	seq_sum(&t, &s);
	CHECK(s.flows == 0 && s.sent == 0 && s.valid == 0 && s.lost == 0 && s.fins_missing == 0 &&
	      !s.sent_estimated, "empty tracker: flows %u sent %llu", s.flows, ULL(s.sent));
	for (uint64_t i = 0; i < 1000; i++)
		seq_seen(&t, 0, i);
	expect_flow(&t, 0, 1000, 0, 0, 0, "in order");
	CHECK(t.flow[0].next == 1000, "in order: next %llu", ULL(t.flow[0].next));
	CHECK(t.flows_seen == 1, "in order: flows_seen %u", t.flows_seen);
	sum(&t, &s, "in order");
	expect_total(&s, 1000, 1000, 0, 1, "in order");
	CHECK(s.dup == 0 && s.reordered == 0 && s.late == 0, "in order: dup/reordered/late");
	CHECK(s.flows == 1 && s.fins_missing == 1 && s.fins == 0 && s.bytes_sent == 0,
	      "in order: flows %u fins_missing %u", s.flows, s.fins_missing);
	seq_free(&t);
	CHECK(t.mem == NULL, "seq_free clears mem");
	seq_free(&t); /* twice is harmless */
}

static void test_gaps(void)
{
	struct seq_tracker t;
	struct seq_total s;

	init(&t, "gaps");
	/* 0..99 without 10 and 20..29: 89 valid, highest 99. */
	for (uint64_t i = 0; i < 100; i++)
		if (i != 10 && !(i >= 20 && i < 30))
			seq_seen(&t, 0, i);
	expect_flow(&t, 0, 89, 0, 0, 0, "gaps");
	sum(&t, &s, "gaps");
	expect_total(&s, 100, 89, 11, 1, "gaps, estimated");
	CHECK(s.fins_missing == 1, "gaps: fins_missing %u", s.fins_missing);
	/* The fin says 105 were sent: the last 5 were lost too, and sent is no longer estimated. */
	CHECK(seq_fin(&t, 0, 105, 105 * 1450, 123456789, 1) == 1, "gaps: first fin");
	sum(&t, &s, "gaps fin");
	expect_total(&s, 105, 89, 16, 0, "gaps, from the fin");
	CHECK(s.fins_missing == 0 && s.fins == 1 && s.bytes_sent == 105 * 1450 && s.flows == 1,
	      "gaps fin: fins_missing %u fins %llu bytes %llu", s.fins_missing, ULL(s.fins),
	      ULL(s.bytes_sent));
	seq_free(&t);

	/* Missing at the end and the start, no fin: the estimate is highest + 1. */
	init(&t, "gaps2");
	for (uint64_t i = 5; i < 50; i++)
		seq_seen(&t, 0, i);
	sum(&t, &s, "gaps2");
	expect_total(&s, 50, 45, 5, 1, "gaps2");
	seq_free(&t);

	/* A single datagram far ahead. */
	init(&t, "gaps3");
	seq_seen(&t, 0, 1000000);
	sum(&t, &s, "gaps3");
	expect_total(&s, 1000001, 1, 1000000, 1, "gaps3");
	seq_free(&t);
}

static void test_dup(void)
{
	struct seq_tracker t;
	struct seq_total s;

	init(&t, "dup");
	for (uint64_t i = 0; i < 100; i++) {
		seq_seen(&t, 0, i);
		seq_seen(&t, 0, i); /* the highest repeated at once */
	}
	expect_flow(&t, 0, 100, 100, 0, 0, "dup immediate");
	for (uint64_t i = 0; i < 100; i += 3)
		seq_seen(&t, 0, i); /* 34 older ones again */
	expect_flow(&t, 0, 100, 134, 0, 0, "dup older");
	for (int k = 0; k < 10; k++)
		seq_seen(&t, 0, 0); /* the oldest, still in the window */
	expect_flow(&t, 0, 100, 144, 0, 0, "dup oldest");
	sum(&t, &s, "dup");
	expect_total(&s, 100, 100, 0, 1, "dup");
	CHECK(s.dup == 144, "dup total %llu", ULL(s.dup));
	/* A reordered one is valid once, then a dup. */
	seq_seen(&t, 0, 200);
	seq_seen(&t, 0, 150);
	seq_seen(&t, 0, 150);
	seq_seen(&t, 0, 200);
	expect_flow(&t, 0, 102, 146, 1, 0, "dup reordered");
	sum(&t, &s, "dup 2");
	expect_total(&s, 201, 102, 99, 1, "dup 2");
	/* Even with a fin, duplicates never make valid exceed sent. */
	seq_fin(&t, 0, 201, 0, 0, 1);
	sum(&t, &s, "dup fin");
	expect_total(&s, 201, 102, 99, 0, "dup fin");
	seq_free(&t);
}

static void test_reorder(void)
{
	struct seq_tracker t;
	struct seq_total s;

	init(&t, "reorder");
	for (uint64_t i = 0; i < 1000; i += 2) {
		seq_seen(&t, 0, i + 1);
		seq_seen(&t, 0, i);
	}
	expect_flow(&t, 0, 1000, 0, 500, 0, "reorder pairs");
	sum(&t, &s, "reorder");
	expect_total(&s, 1000, 1000, 0, 1, "reorder");
	/* Fully reversed block of 100 after that. */
	for (uint64_t i = 1100; i-- > 1000;)
		seq_seen(&t, 0, i);
	expect_flow(&t, 0, 1100, 0, 599, 0, "reorder reversed");
	sum(&t, &s, "reorder reversed");
	expect_total(&s, 1100, 1100, 0, 1, "reorder reversed");
	seq_free(&t);
}

static void test_big_gap(void)
{
	struct seq_tracker t;
	struct seq_total s;
	uint64_t top = 10 + W + 5;

	init(&t, "big gap");
	for (uint64_t i = 0; i < 10; i++)
		seq_seen(&t, 0, i);
	seq_seen(&t, 0, top); /* next = W + 16: the window is 16 .. W + 15 */
	expect_flow(&t, 0, 11, 0, 0, 0, "big gap jump");
	seq_seen(&t, 0, 20);  /* never seen, in the window: valid, reordered */
	expect_flow(&t, 0, 12, 0, 1, 0, "big gap inside");
	seq_seen(&t, 0, 16);  /* the oldest in the window */
	expect_flow(&t, 0, 13, 0, 2, 0, "big gap edge");
	seq_seen(&t, 0, 15);  /* one older: late */
	expect_flow(&t, 0, 13, 0, 2, 1, "big gap one past");
	seq_seen(&t, 0, 5);   /* seen before the jump, now outside: late, not dup, not valid */
	expect_flow(&t, 0, 13, 0, 2, 2, "big gap old seen");
	seq_seen(&t, 0, 12);  /* never seen, outside: late */
	expect_flow(&t, 0, 13, 0, 2, 3, "big gap old unseen");
	seq_seen(&t, 0, 20);
	seq_seen(&t, 0, 16);
	seq_seen(&t, 0, top);
	expect_flow(&t, 0, 13, 3, 2, 3, "big gap dups");
	/* Sequences whose bit positions were used before the jump (0..9) are new again. */
	seq_seen(&t, 0, W + 3);
	seq_seen(&t, 0, W + 9);
	expect_flow(&t, 0, 15, 3, 4, 3, "big gap reused bits");
	sum(&t, &s, "big gap");
	expect_total(&s, top + 1, 15, top + 1 - 15, 1, "big gap");
	seq_free(&t);

	/* A gap of exactly one window and of one window + 1. */
	init(&t, "gap W");
	seq_seen(&t, 0, 0);
	seq_seen(&t, 0, W);   /* next = W + 1: window 1 .. W */
	seq_seen(&t, 0, 0);   /* W + 1 behind: late */
	seq_seen(&t, 0, 1);   /* W behind: inside, never seen */
	expect_flow(&t, 0, 3, 0, 1, 1, "gap W");
	seq_seen(&t, 0, 2 * W + 2); /* window W + 3 .. 2W + 2 */
	seq_seen(&t, 0, W + 2);     /* late */
	seq_seen(&t, 0, W + 3);     /* inside */
	seq_seen(&t, 0, W);         /* seen, now outside: late */
	expect_flow(&t, 0, 5, 0, 2, 3, "gap W + 1");
	sum(&t, &s, "gap W");
	expect_total(&s, 2 * W + 3, 5, 2 * W + 3 - 5, 1, "gap W");
	seq_free(&t);
}

/* A jump over a gap must forget what the gap's bit positions held a window ago: after a full
 * window of in-order sequences, every gap sequence still inside the window is new. Gaps of
 * every alignment and length around the 64-bit words and the window. */
static void test_gap_clear(void)
{
	static const uint64_t lens[] = { 1, 2, 63, 64, 65, 127, 128, 129, 200, 1000, 4097,
					 W / 2, W - 65, W - 64, W - 2, W - 1, W, W + 1, W + 100 };
	static const uint64_t offs[] = { 0, 1, 31, 63, 64, 100 };
	struct seq_tracker t;
	unsigned bad = 0, cases = 0;

	init(&t, "gap clear");
	for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++)
		for (size_t oi = 0; oi < sizeof offs / sizeof offs[0]; oi++) {
			uint64_t len = lens[li], n0 = W + offs[oi], top = n0 + len, in, late;
			const struct seq_flow *f = &t.flow[0];

			memset(&t.flow[0], 0, offsetof(struct seq_flow, bits));
			memset(t.flow[0].bits, 0xff, SEQ_BITS / 8); /* stale bits everywhere */
			for (uint64_t s = 0; s < n0; s++)
				seq_seen(&t, 0, s);
			seq_seen(&t, 0, top);         /* gap n0 .. top-1; window top+1-W .. top */
			for (uint64_t s = n0; s < top; s++)
				seq_seen(&t, 0, s);
			in = len < W ? len : W - 1;
			late = len - in;
			cases++;
			if (f->valid != n0 + 1 + in || f->reordered != in || f->dup != 0 || f->late != late) {
				bad++;
				CHECK(0, "gap %llu at %llu: valid %llu want %llu, reordered %llu want %llu, "
				      "dup %llu, late %llu want %llu", ULL(len), ULL(n0), ULL(f->valid),
				      ULL(n0 + 1 + in), ULL(f->reordered), ULL(in), ULL(f->dup), ULL(f->late),
				      ULL(late));
			}
			/* Everything in the window has been seen now: once more, all dup. */
			for (uint64_t s = top + 1 - W; s <= top; s++)
				seq_seen(&t, 0, s);
			if (f->dup != W) {
				bad++;
				CHECK(0, "gap %llu at %llu: dup %llu after the window again", ULL(len), ULL(n0),
				      ULL(f->dup));
			}
		}
	CHECK(bad == 0 && cases == 114, "gap clear: %u of %u cases wrong", bad, cases);
	seq_free(&t);
}

/* A reference for one flow, written from the contract and not from seq.c: every sequence
 * ever seen is remembered, the window is the W sequences below next. */
struct model {
	uint64_t next, valid, dup, reordered, late;
	uint8_t *seen;
	size_t cap;
};

static void model_seq(struct model *m, uint64_t seq)
{
	if (seq >= m->cap)
		abort();
	if (seq >= m->next) {
		m->next = seq + 1;
		m->valid++;
		m->seen[seq] = 1;
	} else if (m->next - seq > W) {
		m->late++;
	} else if (m->seen[seq]) {
		m->dup++;
	} else {
		m->seen[seq] = 1;
		m->valid++;
		m->reordered++;
	}
}

/* The loss runs of the model's flow over [0, sent): what seq_close must find. */
static void model_runs(const struct model *m, uint64_t sent, struct seq_runs *r)
{
	uint64_t open = 0;

	for (uint64_t s = 0; s <= sent; s++) {
		if (s < sent && (s >= m->next || !m->seen[s])) {
			open++;
			continue;
		}
		if (!open)
			continue;
		r->runs++;
		r->sum += open;
		if (open > r->max)
			r->max = open;
		if (open == 1)
			r->len1++;
		else if (open < 4)
			r->len2_3++;
		else if (open < 16)
			r->len4_15++;
		else
			r->len16++;
		open = 0;
	}
}

static int runs_eq(const struct seq_runs *a, const struct seq_runs *b, const char *name)
{
	int eq = a->runs == b->runs && a->max == b->max && a->sum == b->sum && a->len1 == b->len1 &&
		 a->len2_3 == b->len2_3 && a->len4_15 == b->len4_15 && a->len16 == b->len16;

	CHECK(eq, "%s: runs %llu/%llu max %llu/%llu sum %llu/%llu 1:%llu/%llu 2-3:%llu/%llu "
	      "4-15:%llu/%llu 16+:%llu/%llu (tracker/model)", name, ULL(a->runs), ULL(b->runs),
	      ULL(a->max), ULL(b->max), ULL(a->sum), ULL(b->sum), ULL(a->len1), ULL(b->len1),
	      ULL(a->len2_3), ULL(b->len2_3), ULL(a->len4_15), ULL(b->len4_15), ULL(a->len16),
	      ULL(b->len16));
	return eq;
}

static void both(struct seq_tracker *t, struct model *m, unsigned flow, uint64_t seq)
{
	seq_seen(t, flow, seq);
	model_seq(m, seq);
}

static void test_wrap(void)
{
	struct seq_tracker t;
	struct seq_total s;
	struct model m = { 0 };
	uint64_t n = 5 * W, valid = 0, missing = 0, resent = 0, late = 0, dup = 0;

	m.cap = n;
	m.seen = calloc(n, 1);
	init(&t, "wrap");
	/* 5 windows, every 7th (seq % 7 == 3) missing. */
	for (uint64_t i = 0; i < n; i++)
		if (i % 7 != 3) {
			both(&t, &m, 0, i);
			valid++;
		} else {
			missing++;
		}
	CHECK(missing == 46811 && valid == n - 46811, "wrap: %llu missing", ULL(missing));
	CHECK((n - 1) % 7 != 3, "wrap: the last one is received");
	expect_flow(&t, 0, valid, 0, 0, 0, "wrap fed");
	sum(&t, &s, "wrap fed");
	expect_total(&s, n, valid, missing, 1, "wrap fed");

	/* The window is now 4W .. 5W-1. Resend the 100 most recent missing ones: valid again. */
	for (uint64_t i = n - 1, k = 0; k < 100; i--)
		if (i % 7 == 3) {
			both(&t, &m, 0, i);
			k++;
			resent++;
		}
	/* The oldest missing one inside the window (4W + 2), and its predecessor outside. */
	CHECK((4 * W + 2) % 7 == 3 && (4 * W - 5) % 7 == 3, "wrap: the edge cases are missing ones");
	both(&t, &m, 0, 4 * W + 2);
	resent++;
	both(&t, &m, 0, 4 * W - 5);
	late++;
	expect_flow(&t, 0, valid + resent, 0, resent, late, "wrap resent");
	/* The same ones again: dups now. */
	for (uint64_t i = n - 1, k = 0; k < 100; i--)
		if (i % 7 == 3) {
			both(&t, &m, 0, i);
			k++;
			dup++;
		}
	both(&t, &m, 0, 4 * W + 2);
	dup++;
	/* Received ones in the window: dup; the first one in it and the last one before it. */
	both(&t, &m, 0, 4 * W);
	dup++;
	both(&t, &m, 0, n - 1);
	dup++;
	both(&t, &m, 0, 4 * W - 1);
	late++;
	/* Ancient ones, received or missing: late, and never valid. */
	for (uint64_t i = 0; i < 4 * W; i += 997) {
		both(&t, &m, 0, i);
		late++;
	}
	expect_flow(&t, 0, valid + resent, dup, resent, late, "wrap all");
	CHECK(m.valid == valid + resent && m.dup == dup && m.late == late && m.reordered == resent,
	      "wrap: the model agrees");
	seq_close(&t);
	sum(&t, &s, "wrap");
	expect_total(&s, n, valid + resent, missing - resent, 1, "wrap");
	CHECK(s.late == late && s.dup == dup, "wrap totals");
	{
		struct seq_runs want = { 0 };
		model_runs(&m, n, &want);
		runs_eq(&s.runs, &want, "wrap runs");
		CHECK(s.runs.sum == s.lost, "wrap: runs add up to lost %llu", ULL(s.lost));
	}
	seq_free(&t);
	free(m.seen);
}

/* Random walks with jumps forward and back by up to two windows, against the model. */
static void test_random(void)
{
	struct seq_tracker t;
	struct model m[3] = { { 0 }, { 0 }, { 0 } };
	unsigned bad = 0;

	init(&t, "random");
	for (int f = 0; f < 3; f++) {
		m[f].cap = 64 * W;
		m[f].seen = calloc(m[f].cap, 1);
	}
	for (int n = 0; n < 300000; n++) {
		uint64_t r = xorshift();
		unsigned f = (unsigned)(r % 3);
		uint64_t next = m[f].next, seq;
		switch ((r >> 8) % 16) {
		case 0: seq = next + (r >> 20) % (2 * W); break;                 /* jump ahead */
		case 1: seq = next - ((r >> 20) % (2 * W) < next ? (r >> 20) % (2 * W) : next); break;
		case 2: case 3: seq = next > W ? next - W + (r >> 20) % 3 - 1 : 0; break; /* window edge */
		case 4: case 5: case 6: seq = next > 0 ? next - 1 - (r >> 20) % (next < 64 ? next : 64) : 0; break;
		default: seq = next + (r >> 20) % 3; break;                       /* near in order */
		}
		if (seq >= m[f].cap - 4 * W)
			continue;
		seq_seen(&t, f, seq);
		model_seq(&m[f], seq);
	}
	for (unsigned f = 0; f < 3; f++) {
		const struct seq_flow *sf = &t.flow[f];
		if (sf->valid != m[f].valid || sf->dup != m[f].dup || sf->reordered != m[f].reordered ||
		    sf->late != m[f].late || sf->next != m[f].next)
			bad++;
		CHECK(sf->valid == m[f].valid && sf->dup == m[f].dup && sf->reordered == m[f].reordered &&
		      sf->late == m[f].late && sf->next == m[f].next,
		      "random flow %u: valid %llu/%llu dup %llu/%llu reordered %llu/%llu late %llu/%llu", f,
		      ULL(sf->valid), ULL(m[f].valid), ULL(sf->dup), ULL(m[f].dup), ULL(sf->reordered),
		      ULL(m[f].reordered), ULL(sf->late), ULL(m[f].late));
		CHECK(m[f].dup > 100 && m[f].late > 100 && m[f].reordered > 100,
		      "random flow %u reaches every case: dup %llu late %llu reordered %llu", f,
		      ULL(m[f].dup), ULL(m[f].late), ULL(m[f].reordered));
	}
	{
		struct seq_total s;
		struct seq_runs want = { 0 };
		for (unsigned f = 0; f < 3; f++)
			model_runs(&m[f], m[f].next, &want);
		seq_close(&t);
		sum(&t, &s, "random");
		CHECK(s.flows == 3 && s.sent == m[0].next + m[1].next + m[2].next, "random sent %llu",
		      ULL(s.sent));
		runs_eq(&s.runs, &want, "random runs");
		CHECK(s.runs.sum == s.lost, "random: runs add up to lost %llu", ULL(s.lost));
	}
	for (unsigned f = 0; f < 3; f++)
		free(m[f].seen);
	seq_free(&t);
}

/* Loss runs of known lengths: scattered single losses, bursts of every bucket, a burst across
 * a word and across the window's turn, a run filled in part by a reordered datagram, a big
 * jump, duplicates and late ones (which change nothing), and a tail after the last datagram
 * seen up to a fin's sent; then the same over two trackers merged. */
static void test_loss_runs(void)
{
	static const uint64_t bursts[] = { 1, 1, 2, 3, 4, 15, 16, 17, 63, 64, 65, 200, 1000 };
	struct seq_tracker t, u;
	struct seq_total s;
	struct model m = { 0 };
	struct seq_runs want = { 0 }, none = { 0 };
	uint64_t seq = 0;
	int rounds = 0;

	m.cap = 40 * W;
	m.seen = calloc(m.cap, 1);
	init(&t, "loss runs");
	/* Rounds of: 500 in order, a burst lost, until past several laps of the bitmap. */
	while (seq < 9 * W) {
		for (int i = 0; i < 500; i++)
			both(&t, &m, 0, seq++);
		seq += bursts[rounds++ % (sizeof bursts / sizeof bursts[0])];
		both(&t, &m, 0, seq++);
		if (rounds % 7 == 0) { /* a reordered one fills the middle of the last burst */
			if (bursts[(rounds - 1) % (sizeof bursts / sizeof bursts[0])] >= 3)
				both(&t, &m, 0, seq - 3);
			both(&t, &m, 0, seq - 1); /* and a dup */
		}
		if (rounds % 11 == 0)
			both(&t, &m, 0, seq > W + 10 ? seq - W - 10 : 0); /* late, or dup near the start */
	}
	seq += 3 * W + 17;            /* a jump of more than the bitmap */
	for (int i = 0; i < 1000; i++)
		both(&t, &m, 0, seq++);
	seq_fin(&t, 0, seq + 40, (seq + 40) * 100, 100, 1); /* 40 lost at the end */
	model_runs(&m, seq + 40, &want);
	CHECK(want.len1 && want.len2_3 && want.len4_15 && want.len16 && want.max > 3 * W,
	      "loss runs: the model reaches every bucket");
	seq_close(&t);
	seq_close(&t); /* once only */
	sum(&t, &s, "loss runs");
	runs_eq(&s.runs, &want, "loss runs");
	CHECK(s.runs.sum == s.lost, "loss runs add up to lost %llu (%llu)", ULL(s.lost), ULL(s.runs.sum));

	/* No loss: no run. In order over several laps, then a tracker merged into it. */
	init(&u, "no loss");
	for (uint64_t i = 0; i < 5 * W; i++)
		seq_seen(&u, 3, i);
	seq_close(&u);
	sum(&u, &s, "no loss");
	runs_eq(&s.runs, &none, "no loss");
	seq_merge(&u, &t);
	sum(&u, &s, "merged");
	runs_eq(&s.runs, &want, "merged");
	seq_free(&u);
	seq_free(&t);
	free(m.seen);
}

static void test_flows(void)
{
	struct seq_tracker t;
	struct seq_total s;

	init(&t, "flows");
	/* Interleaved: flow 0 in order, flow 1 with every 10th missing, flow 2 in swapped pairs,
	 * flow 5 only 100..199 with each one twice; flows 3 and 4 send nothing. */
	for (uint64_t i = 0; i < 1000; i++) {
		seq_seen(&t, 0, i);
		if (i < 500 && i % 10 != 4)
			seq_seen(&t, 1, i);
		if (i < 400)
			seq_seen(&t, 2, i ^ 1);
		if (i >= 100 && i < 200) {
			seq_seen(&t, 5, i);
			seq_seen(&t, 5, i);
		}
	}
	expect_flow(&t, 0, 1000, 0, 0, 0, "flows");
	expect_flow(&t, 1, 450, 0, 0, 0, "flows");
	expect_flow(&t, 2, 400, 0, 200, 0, "flows");
	expect_flow(&t, 3, 0, 0, 0, 0, "flows");
	expect_flow(&t, 4, 0, 0, 0, 0, "flows");
	expect_flow(&t, 5, 100, 100, 0, 0, "flows");
	CHECK(t.flows_seen == 6, "flows_seen %u", t.flows_seen);
	sum(&t, &s, "flows");
	expect_total(&s, 1000 + 500 + 400 + 200, 1950, 50 + 100, 1, "flows");
	CHECK(s.flows == 6 && s.fins_missing == 6 && s.dup == 100 && s.reordered == 200,
	      "flows: flows %u fins_missing %u", s.flows, s.fins_missing);

	/* Fins for some flows: 0 exact, 1 says 510 (10 more lost), 2 none, 5 says 300. */
	seq_fin(&t, 0, 1000, 1000 * 100, 5, 6);
	seq_fin(&t, 1, 510, 510 * 100, 5, 6);
	seq_fin(&t, 5, 300, 300 * 100, 5, 6);
	sum(&t, &s, "flows fins");
	expect_total(&s, 1000 + 510 + 400 + 300, 1950, 50 + 10 + 200, 1, "flows fins");
	CHECK(s.fins_missing == 3 && s.fins == 3 && s.bytes_sent == (1000 + 510 + 300) * 100,
	      "flows fins: fins_missing %u fins %llu bytes %llu", s.fins_missing, ULL(s.fins),
	      ULL(s.bytes_sent));
	seq_fin(&t, 2, 400, 400 * 100, 5, 6);
	seq_fin(&t, 3, 0, 0, 5, 6);
	seq_fin(&t, 4, 7, 700, 5, 6);
	sum(&t, &s, "flows all fins");
	expect_total(&s, 1000 + 510 + 400 + 0 + 7 + 300, 1950, 50 + 10 + 7 + 200, 0, "flows all fins");
	CHECK(s.fins_missing == 0 && s.fins == 6 && s.flows == 6, "flows all fins: %u missing",
	      s.fins_missing);
	seq_free(&t);
}

static void test_fin(void)
{
	struct seq_tracker t;
	struct seq_total s;

	init(&t, "fin");
	for (uint64_t i = 0; i < 100; i++)
		seq_seen(&t, 0, i);
	CHECK(seq_fin(&t, 0, 120, 12000, 1000, 2) == 1, "first fin returns 1");
	CHECK(seq_fin(&t, 0, 999, 1, 1, 9) == 0, "second fin returns 0");
	CHECK(seq_fin(&t, 0, 120, 12000, 1000, 2) == 0, "third fin returns 0");
	CHECK(t.flow[0].fins == 3, "fins %llu", ULL(t.flow[0].fins));
	CHECK(t.flow[0].fin_sent == 120 && t.flow[0].fin_bytes == 12000 && t.flow[0].fin_ns == 1000 &&
	      t.flow[0].fin_flows == 2, "the first fin wins");
	/* The fin says 2 flows: flow 1 sent nothing we saw and has no fin. */
	sum(&t, &s, "fin");
	CHECK(s.flows == 2 && s.fins == 3 && s.fins_missing == 1, "fin: flows %u fins %llu missing %u",
	      s.flows, ULL(s.fins), s.fins_missing);
	expect_total(&s, 120, 100, 20, 1, "fin");
	CHECK(s.bytes_sent == 12000, "fin bytes %llu", ULL(s.bytes_sent));
	/* Flow 1's fin arrives first for that flow; it alone seen for flow 1. */
	CHECK(seq_fin(&t, 1, 0, 0, 0, 2) == 1, "flow 1 first fin");
	CHECK(t.flows_seen == 2, "a fin counts as seeing the flow: %u", t.flows_seen);
	sum(&t, &s, "fin 2");
	expect_total(&s, 120, 100, 20, 0, "fin 2");
	CHECK(s.fins == 4 && s.fins_missing == 0, "fin 2: fins %llu", ULL(s.fins));
	seq_free(&t);

	/* A fin that claims fewer datagrams than were seen is not believed. */
	init(&t, "fin short");
	for (uint64_t i = 0; i < 100; i++)
		if (i != 50)
			seq_seen(&t, 0, i);
	seq_fin(&t, 0, 60, 6000, 1, 1);
	sum(&t, &s, "fin short");
	expect_total(&s, 100, 99, 1, 1, "fin short");
	CHECK(s.fins_missing == 1 && s.fins == 1 && s.bytes_sent == 0, "fin short: missing %u bytes %llu",
	      s.fins_missing, ULL(s.bytes_sent));
	seq_free(&t);

	/* One less than the highest seen + 1: not believed; exactly highest + 1: believed. */
	init(&t, "fin edge");
	seq_seen(&t, 0, 9);
	seq_seen(&t, 1, 9);
	seq_fin(&t, 0, 9, 900, 1, 2);
	seq_fin(&t, 1, 10, 1000, 1, 2);
	sum(&t, &s, "fin edge");
	expect_total(&s, 20, 2, 18, 1, "fin edge");
	CHECK(s.fins_missing == 1 && s.bytes_sent == 1000, "fin edge: missing %u bytes %llu",
	      s.fins_missing, ULL(s.bytes_sent));
	seq_free(&t);

	/* A fin of 0 for a flow that sent nothing is believed. */
	init(&t, "fin zero");
	seq_fin(&t, 0, 0, 0, 0, 1);
	sum(&t, &s, "fin zero");
	expect_total(&s, 0, 0, 0, 0, "fin zero");
	CHECK(s.flows == 1 && s.fins == 1, "fin zero: flows %u", s.flows);
	seq_free(&t);
}

static void test_merge(void)
{
	struct seq_tracker a, b, c;
	struct seq_total s;

	init(&a, "merge a");
	init(&b, "merge b");
	init(&c, "merge c");
	/* a: flow 0 evens of 0..99, flow 1 0..9 with a dup. b: flow 0 odds, flow 3 0..49 with a
	 * swap, and the fins of flows 0 and 3. */
	for (uint64_t i = 0; i < 100; i += 2)
		seq_seen(&a, 0, i);
	for (uint64_t i = 0; i < 10; i++)
		seq_seen(&a, 1, i);
	seq_seen(&a, 1, 3);
	for (uint64_t i = 1; i < 100; i += 2)
		seq_seen(&b, 0, i);
	for (uint64_t i = 0; i < 50; i++)
		seq_seen(&b, 3, i ^ 1);
	seq_fin(&b, 0, 100, 10000, 7, 4);
	seq_fin(&b, 3, 60, 6000, 7, 4);
	seq_fin(&b, 3, 60, 6000, 7, 4);

	seq_merge(&c, &a);
	seq_merge(&c, &b);
	CHECK(c.flows_seen == 4, "merge flows_seen %u", c.flows_seen);
	expect_flow(&c, 0, 100, 0, 0, 0, "merge");
	expect_flow(&c, 1, 10, 1, 0, 0, "merge");
	expect_flow(&c, 2, 0, 0, 0, 0, "merge");
	expect_flow(&c, 3, 50, 0, 25, 0, "merge");
	CHECK(c.flow[0].next == 100 && c.flow[1].next == 10 && c.flow[3].next == 50, "merge next");
	CHECK(c.flow[0].fins == 1 && c.flow[0].fin_sent == 100 && c.flow[3].fins == 2 &&
	      c.flow[3].fin_sent == 60 && c.flow[3].fin_flows == 4, "merge fins");
	sum(&c, &s, "merge");
	CHECK(s.flows == 4 && s.fins == 3 && s.fins_missing == 2 && s.dup == 1 && s.reordered == 25,
	      "merge totals: flows %u fins %llu missing %u", s.flows, ULL(s.fins), s.fins_missing);
	expect_total(&s, 100 + 10 + 0 + 60, 160, 10, 1, "merge");
	CHECK(s.bytes_sent == 16000, "merge bytes %llu", ULL(s.bytes_sent));

	/* Merging into a tracker that has its own fin keeps the first one. */
	seq_fin(&a, 0, 100, 1, 1, 4);
	seq_merge(&a, &b);
	CHECK(a.flow[0].fins == 2 && a.flow[0].fin_bytes == 1, "merge keeps dst's fin");
	CHECK(a.flow[0].valid == 100 && a.flow[0].next == 100 && a.flows_seen == 4, "merge into a");
	sum(&a, &s, "merge into a");
	expect_total(&s, 170, 160, 10, 1, "merge into a");
	seq_free(&a);
	seq_free(&b);
	seq_free(&c);
}

/* Sequences at or above WIRE_SEQ_LIMIT (2^48) are malformed: counted late, never valid, and
 * they do not move the window, so highest + 1 always fits (seq.h). */
static void test_seq_limit(void)
{
	struct seq_tracker t;
	struct seq_total s;

	init(&t, "seq limit");
	seq_seen(&t, 0, WIRE_SEQ_LIMIT - 2);
	seq_seen(&t, 0, WIRE_SEQ_LIMIT - 1);
	expect_flow(&t, 0, 2, 0, 0, 0, "seq limit - 1");
	CHECK(t.flow[0].next == WIRE_SEQ_LIMIT, "seq limit: next %llx", ULL(t.flow[0].next));
	seq_seen(&t, 0, WIRE_SEQ_LIMIT);
	seq_seen(&t, 0, WIRE_SEQ_LIMIT + 1);
	seq_seen(&t, 0, UINT64_MAX);
	seq_seen(&t, 0, UINT64_MAX);
	expect_flow(&t, 0, 2, 0, 0, 4, "seq limit and past");
	CHECK(t.flow[0].next == WIRE_SEQ_LIMIT, "seq limit: next %llx after refused ones",
	      ULL(t.flow[0].next));
	seq_seen(&t, 0, WIRE_SEQ_LIMIT - 2);
	seq_seen(&t, 0, WIRE_SEQ_LIMIT - 3);
	expect_flow(&t, 0, 3, 1, 1, 4, "seq limit, dup and reordered below");
	sum(&t, &s, "seq limit");
	expect_total(&s, WIRE_SEQ_LIMIT, 3, WIRE_SEQ_LIMIT - 3, 1, "seq limit");
	CHECK(s.late == 4, "seq limit late %llu", ULL(s.late));
	seq_free(&t);

	/* Only a refused one: nothing seen. */
	init(&t, "seq limit alone");
	seq_seen(&t, 1, UINT64_MAX);
	expect_flow(&t, 1, 0, 0, 0, 1, "seq limit alone");
	CHECK(t.flow[1].next == 0, "seq limit alone: next %llu", ULL(t.flow[1].next));
	sum(&t, &s, "seq limit alone");
	expect_total(&s, 0, 0, 0, 1, "seq limit alone");
	seq_free(&t);
}

/* seq_discard (suck -m pool, a full queue in drop mode): a sequence that would be valid is
 * marked seen and counted discarded, never valid; one that would be a dup or late is left to
 * the caller, untouched. The discarded are part of lost and never more than it. */
static void test_discard(void)
{
	struct seq_tracker t, u;
	struct seq_total s;

	init(&t, "discard");
	for (uint64_t i = 0; i < 10; i++)
		seq_seen(&t, 0, i);
	for (uint64_t i = 10; i < 20; i++)
		CHECK(seq_discard(&t, 0, i) == 1, "discard %llu: new, discarded", ULL(i));
	expect_flow(&t, 0, 10, 0, 0, 0, "discard: valid untouched");
	CHECK(t.flow[0].discarded == 10 && t.flow[0].next == 20, "discard: 10 discarded, next %llu",
	      ULL(t.flow[0].next));
	CHECK(seq_discard(&t, 0, 5) == 0, "discard a valid one again: refused (a dup)");
	CHECK(seq_discard(&t, 0, 15) == 0, "discard a discarded one again: refused");
	seq_seen(&t, 0, 15);  /* a copy of a discarded one: dup, not valid */
	seq_seen(&t, 0, 20);
	expect_flow(&t, 0, 11, 1, 0, 0, "discard: a later copy is a dup");
	CHECK(seq_discard(&t, 0, 30) == 1, "discard past a gap");
	seq_seen(&t, 0, 25);  /* in the gap the discard skipped: valid, reordered */
	expect_flow(&t, 0, 12, 1, 1, 0, "discard: the gap it skipped stays open");
	CHECK(seq_discard(&t, 0, WIRE_SEQ_LIMIT) == 0, "discard a malformed sequence: refused");
	seq_seen(&t, 0, 30 + W);
	CHECK(seq_discard(&t, 0, 29) == 0, "discard one older than the window: refused (late)");
	CHECK(seq_discard(&t, 1, 3) == 1 && t.flows_seen == 2, "discard on a new flow: it is seen");
	sum(&t, &s, "discard");
	/* flow 0: next 30 + W; flow 1: next 4. Valid 13, discarded 12 of them. */
	expect_total(&s, 30 + W + 1 + 4, 13, 30 + W + 1 + 4 - 13, 1, "discard");
	CHECK(s.discarded == 12, "discard: total discarded %llu, want 12", ULL(s.discarded));
	CHECK(s.discarded <= s.lost, "discard: discarded %llu <= lost %llu", ULL(s.discarded), ULL(s.lost));
	init(&u, "discard merge");
	seq_merge(&u, &t);
	CHECK(u.flow[0].discarded == 11 && u.flow[1].discarded == 1, "discard: merged per flow");
	seq_free(&u);
	/* The fin's sent covers the discarded ones: a fin of exactly every sequence is believed. */
	seq_fin(&t, 1, 4, 4 * 100, 1000, 2);
	seq_fin(&t, 0, 31 + W, (31 + W) * 100, 1000, 2);
	sum(&t, &s, "discard with fins");
	expect_total(&s, 35 + W, 13, 35 + W - 13, 0, "discard with fins");
	seq_free(&t);
}

int main(void)
{
	test_in_order();
	test_gaps();
	test_dup();
	test_reorder();
	test_big_gap();
	test_gap_clear();
	test_wrap();
	test_random();
	test_loss_runs();
	test_flows();
	test_fin();
	test_merge();
	test_seq_limit();
	test_discard();
	return unit_done("seq");
}
