/* fanin: --senders N, several runs into one suck at once, each counted on its own (see fanin.h).
 * A run takes the lowest free slot with its first data datagram (with a run key, or its first
 * proven fin), as a run alone locks; each thread keeps a lane per slot, a struct rx bound to
 * the slot's rx_shared, and hands every datagram of the slot's run to it, so a lane is a run
 * alone: its flows owned by their first source, its fins believed by the same rules, its
 * tracker its own. What no slot claims (no header, a run beyond N) the hub counts itself.
 * Pitfalls: the lookup runs per datagram, so it is the last slot's id first, then a scan of at
 * most N words; slots fill in order and never empty, so a zero slot ends the runs in use; a
 * lane never checks the clock itself, so its receive window is moved on by the hub's checks.
 * rx.c knows none of this: fanin_attach sets the hub's hooks (rx.h), through which every
 * datagram the hub would count, and each of its checks, come here. */
#include "fanin.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "sys.h"
#include "total.h"

/* A thread's part, its hub's rx->hook: written by that thread alone, a cache line each. */
struct fanin_hub {
	_Alignas(64) struct fanin *f;
	unsigned last;             /* the slot of the last datagram handed on */
};

struct fanin {
	unsigned n, threads;
	_Atomic unsigned used;     /* slots a run locked */
	struct fanin_hub *hub;     /* threads: each hub's */
	struct rx_shared *sh;      /* n: each run's shared state */
	struct rx *lane;           /* n x threads: lane[s * threads + thread] */
	size_t bytes;              /* the mapping */
};

struct fanin *fanin_new(const struct suck_cfg *cfg, unsigned threads)
{
	struct fanin *f = calloc(1, sizeof *f);
	size_t hubb = threads * sizeof *f->hub, shb = cfg->senders * sizeof *f->sh;

	if (!f)
		return NULL;
	f->n = cfg->senders;
	f->threads = threads;
	/* mmap, as the tracker: the meter's memory is not the strategy's heap_kib; the hubs first,
	 * on the mapping's page-aligned start */
	f->bytes = hubb + shb + (size_t)f->n * threads * sizeof *f->lane;
	void *m = mmap(NULL, f->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED) {
		free(f);
		return NULL;
	}
	f->hub = m;
	f->sh = (struct rx_shared *)((uint8_t *)m + hubb);
	f->lane = (struct rx *)((uint8_t *)m + hubb + shb);
	for (unsigned s = 0; s < f->n; s++) {
		f->sh[s].key = cfg->key;
		f->sh[s].start_real_ns = f->sh[s].fresh_ns = sys_real_ns();
	}
	/* --run-id A,B,...: the named runs hold their slots from the start, and no other can take
	 * one (rx_may_lock) */
	for (unsigned s = 0; s < cfg->nrun_ids; s++)
		atomic_store(&f->sh[s].run, 1ull << 32 | cfg->run_ids[s]);
	atomic_store(&f->used, cfg->nrun_ids);
	return f;
}

void fanin_free(struct fanin *f)
{
	if (!f)
		return;
	for (unsigned i = 0; i < f->n * f->threads; i++)
		rx_free(&f->lane[i]);
	munmap(f->hub, f->bytes);
	free(f);
}

unsigned fanin_slots(const struct fanin *f)
{
	return atomic_load(&f->used);
}

struct rx *fanin_lanes(struct fanin *f, unsigned s, enum rx_stop receiver)
{
	struct rx *l = &f->lane[s * f->threads];
	enum rx_stop why = atomic_load(&f->sh[s].drain) ? RX_STOP_FIN : receiver;

	for (unsigned t = 0; t < f->threads; t++)
		l[t].done = why;
	return l;
}

/* May this datagram, of a run no slot holds, take a free slot? Data may, as data locks a run
 * alone (under a key, only with the run's proof; with named runs, none: they hold their slots);
 * a fin only under a run key, and only a proven, fresh one: without a key a fin of a run that
 * sent nothing cannot be told from a forgery. */
static int may_claim(const struct rx *hub, const struct wire_hdr *h, const uint8_t *buf, size_t len)
{
	struct wire_hdr fh;
	struct wire_fin fin;

	if (h->type != WIRE_FIN)
		return rx_may_lock(hub->cfg, hub->sh, h);
	return hub->sh->key.set && len <= hub->cap && wire_get_fin(buf, len, &fh, &fin) == 0 &&
	       wire_fin_tag(buf, hub->sh->key.k) == fin.tag && rx_fin_fresh(hub->sh, &fh);
}

/* The lane of the datagram's run on this thread, a slot taken if it may; NULL: none. */
static struct rx *lane_of(struct rx *hub, const struct wire_hdr *h, const uint8_t *buf, size_t len)
{
	struct fanin_hub *fh = hub->hook;
	struct fanin *f = fh->f;
	uint64_t want = 1ull << 32 | h->run_id;
	unsigned s = fh->last;
	int claim = -1;

	if (atomic_load_explicit(&f->sh[s].run, memory_order_relaxed) == want)
		return &f->lane[s * f->threads + hub->id];
	for (s = 0; s < f->n; s++) {
		uint64_t cur = atomic_load(&f->sh[s].run);
		if (cur == 0) {
			if (claim < 0)
				claim = may_claim(hub, h, buf, len);
			if (!claim)
				continue; /* the later slots are free too, unless a thread just took them */
			if (atomic_compare_exchange_strong(&f->sh[s].run, &cur, want)) {
				atomic_fetch_add(&f->used, 1);
				break;
			}
		}
		if (cur == want)
			break;
	}
	if (s == f->n)
		return NULL;
	fh->last = s;
	return &f->lane[s * f->threads + hub->id];
}

/* A datagram no run claims: counted by the hub as a run alone counts another run's. */
static int hub_own(struct rx *hub, const uint8_t *buf, size_t len, const struct wire_hdr *h, int work)
{
	const struct suck_cfg *cfg = hub->cfg;

	if (!hub->first_ns)
		rx_first(hub);
	hub->received++;
	hub->bytes += len;
	sizes_add(&hub->sizes, len);
	if (len > cfg->bufsize) {
		hub->truncated++;
		if (work)
			work_run(&hub->work, buf, cfg->bufsize);
		return 0;
	}
	if (work)
		work_run(&hub->work, buf, len);
	hub->foreign++;
	if (h && h->type != WIRE_FIN) {
		hub->other_run++;
		if (!hub->other_id)
			hub->other_id = h->run_id;
	} else if (h && hub->sh->key.set) {
		struct wire_hdr fh;
		struct wire_fin fin;
		if (wire_get_fin(buf, len, &fh, &fin) == 0 && wire_fin_tag(buf, hub->sh->key.k) != fin.tag)
			hub->forged_fins++;
		else if (wire_get_fin(buf, len, &fh, &fin) == 0 && !rx_fin_fresh(hub->sh, &fh)) {
			hub->forged_fins++;
			hub->stale_fins++;
		}
	}
	return 0;
}

/* What the lane took of it (a fin it believed is not received) the hub counts too: the hub's
 * received, bytes and window are the receiver's whole. */
static void hub_count(struct rx *hub, const struct rx *lane, uint64_t before, size_t len)
{
	if (lane->received == before)
		return;
	if (!hub->first_ns)
		rx_first(hub);
	hub->received++;
	hub->bytes += len;
	sizes_add(&hub->sizes, len);
}

/* The hooks (rx.h): take and discard hand a datagram of a run to the run's lane, which counts
 * it as a run alone would; foreign and check look over the hub's lanes. */
static int take(struct rx *hub, const uint8_t *buf, size_t len, const void *src, int work)
{
	struct wire_hdr h;
	struct rx *lane;
	uint64_t before;
	int r;

	if (wire_get_hdr(buf, len, &h) < 0)
		return hub_own(hub, buf, len, NULL, work);
	if (!(lane = lane_of(hub, &h, buf, len)))
		return hub_own(hub, buf, len, &h, work);
	/* rx_ctl's stamp and marking were read into the hub */
	lane->stamp_ns = hub->stamp_ns;
	lane->mark = hub->mark;
	before = lane->received;
	r = rx_take_as(lane, buf, len, src, work);
	hub_count(hub, lane, before, len);
	return r;
}

static void discard(struct rx *hub, const uint8_t *buf, size_t len, const void *src)
{
	struct wire_hdr h;
	struct rx *lane;
	uint64_t before;

	if (wire_get_hdr(buf, len, &h) < 0) {
		hub_own(hub, buf, len, NULL, 1);
		return;
	}
	if (!(lane = lane_of(hub, &h, buf, len))) {
		hub_own(hub, buf, len, &h, 1);
		return;
	}
	before = lane->received;
	rx_discard(lane, buf, len, src);
	hub_count(hub, lane, before, len);
}

static uint64_t foreign(const struct rx *hub)
{
	const struct fanin *f = ((const struct fanin_hub *)hub->hook)->f;
	uint64_t n = hub->foreign;

	for (unsigned s = 0; s < f->n; s++)
		n += f->lane[s * f->threads + hub->id].foreign;
	return n;
}

static void check(struct rx *hub, uint64_t now)
{
	struct fanin *f = ((struct fanin_hub *)hub->hook)->f;
	unsigned drained = 0, fins = 0, s;

	for (s = 0; s < f->n && atomic_load(&f->sh[s].run); s++) {
		struct rx *l = &f->lane[s * f->threads + hub->id];
		if (l->received != l->seen_at_clock) {
			l->last_ns = now;
			l->seen_at_clock = l->received;
		}
		drained += atomic_load(&f->sh[s].drain) != 0;
		fins += atomic_load(&f->sh[s].fins);
	}
	atomic_store(&hub->sh->fins, fins); /* for the -i lines */
	if (drained == f->n && !atomic_load(&hub->sh->drain))
		atomic_store(&hub->sh->drain, 1);
}

static const struct rx_hooks hooks = { .take = take, .discard = discard, .check = check, .foreign = foreign };

int fanin_attach(struct fanin *f, struct rx *hub)
{
	for (unsigned s = 0; s < f->n; s++) {
		struct rx *l = &f->lane[s * f->threads + hub->id];
		if (rx_init(l, hub->fd, hub->id, hub->cfg, &f->sh[s]) < 0)
			return -1;
		l->next_progress_ns = 0; /* the hub prints the -i lines */
	}
	f->hub[hub->id].f = f;
	hub->hook = &f->hub[hub->id];
	hub->hooks = &hooks;
	return 0;
}

static void runs_add(struct seq_runs *d, const struct seq_runs *s)
{
	d->runs += s->runs;
	d->sum += s->sum;
	d->len1 += s->len1;
	d->len2_3 += s->len2_3;
	d->len4_15 += s->len4_15;
	d->len16 += s->len16;
	if (s->max > d->max)
		d->max = s->max;
}

void fanin_add(struct total *t, const struct total *run)
{
	struct seq_total *d = &t->seq;
	const struct seq_total *s = &run->seq;

	/* received, bytes and the size classes are the hubs' already, every datagram; the rest is
	 * the runs' */
	t->foreign += run->foreign;
	t->other_run += run->other_run;
	t->other_src += run->other_src;
	t->forged_fins += run->forged_fins;
	t->stale_fins += run->stale_fins;
	t->unproven += run->unproven;
	t->truncated += run->truncated;
	t->marks_changed += run->marks_changed;
	if (!(t->mark_first & RX_MARK_SEEN))
		t->mark_first = run->mark_first;
	if (run->jitter) {
		t->jitter = 1;
		jitter_merge(&t->jit, &run->jit);
	}
	if (run->gaps) {
		t->gaps = 1;
		gaps_merge(&t->gap, &run->gap);
	}
	if (run->latency) {
		t->latency = 1;
		rx_latency_merge(&t->lat, &run->lat);
	}
	work_merge(&t->work, &run->work);
	d->valid += s->valid;
	d->dup += s->dup;
	d->reordered += s->reordered;
	d->late += s->late;
	d->sent += s->sent;
	d->lost += s->lost;
	d->fins += s->fins;
	d->bytes_sent += s->bytes_sent;
	d->discarded += s->discarded;
	d->flows += s->flows;
	d->fins_missing += s->fins_missing;
	d->sent_estimated |= s->sent_estimated;
	runs_add(&d->runs, &s->runs);
	/* as total_sum settles them, now over every run */
	t->segs_per_buf = t->bufs > d->fins && t->received ? (double)t->received / (double)(t->bufs - d->fins) : 1;
	t->queue_dropped = d->discarded;
	t->dropped = t->kernel_drops < 0 ? 0 : (uint64_t)((double)t->kernel_drops * t->segs_per_buf + 0.5);
	if (t->dropped > d->lost - t->queue_dropped)
		t->dropped = d->lost - t->queue_dropped;
}

void fanin_sizes(struct total *t, const struct total *runs, unsigned n)
{
	int every = n > 0;

	/* the runs' size when they all have one and the same; the bytes checked over the whole
	 * when every run has a believed size (sizes_check then asks the rest of the totals) */
	t->size_word = n ? runs[0].size_word : 0;
	for (unsigned s = 0; s < n; s++) {
		if (runs[s].size_word != t->size_word)
			t->size_word = 0;
		if (!runs[s].size_word)
			every = 0;
	}
	t->bytes_check = every ? sizes_check(1, &t->seq, t->received, t->bytes) : 0;
}

void fanin_receiver(struct total *run, const struct total *t)
{
	/* the receiver's own figures, which no run has apart: the same in every row */
	run->calls = t->calls;
	run->idle_calls = t->idle_calls;
	run->wakeups = t->wakeups;
	run->unworked = t->unworked;
	run->queue_hwm = t->queue_hwm;
	run->allocs = t->allocs;
	run->napi_id = t->napi_id;
	run->segs_per_buf = t->segs_per_buf;
}
