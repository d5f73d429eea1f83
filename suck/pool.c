/* pool: one receiving thread hands batches to --workers N threads that run the work: a static
 * worker pool fed through a bounded queue, as many servers are built. The receiver (this
 * rx's thread) takes a recvmmsg batch into a slot of a ring, does for each datagram what every
 * variant does but the work (rx_account: the fin, the run, the flow's owner, the sequence),
 * and queues the slot; a worker takes it, runs the work on each datagram and gives the slot
 * back. One hand-off per batch, never per datagram: a lock, and a futex wake when a worker
 * sleeps. The slots are allocated once: --queue that wait, one per worker at work, and the
 * receiver's, so the receiver always finds a free one while the queue is not full.
 *
 * Why the receiver counts and the workers only work: every sequence tracker then belongs to one
 * thread, as everywhere in suck, so it needs no lock, and it sees the datagrams in the order the
 * socket gave them (reordered stays the network's, not the pool's). A batch thrown away at a full
 * queue is counted exactly: its new sequence numbers are queue_dropped, never valid. What a pool
 * can speed up is then the work; the receive calls and the accounting stay on one thread, which
 * is what bounds any pool, and what setting it beside -j (one socket and thread each, all of it
 * in parallel) is to show.
 *
 * A full queue (--queue batches waiting): --queue-full block (default) waits before the next
 * receive call, a tick at a time, so the socket's buffer fills and the kernel drops (dropped);
 * --queue-full drop receives the batch and throws it away (queue_dropped; its fins are still
 * believed, and what would not have been valid is counted as usual, its work run here).
 * Pitfalls: a stop by a signal, -t or an error leaves the work of the batches still queued
 * undone, though they were counted: unworked says how many datagrams (an end on the fins or
 * --idle waits for them). Worker threads block SIGINT and SIGTERM, so a signal wakes the
 * receiver. With --cpu the workers inherit their receiver's CPU. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#include "variant.h"

struct pool_item {
	uint16_t idx;              /* the message in the slot's batch */
	uint8_t valid;             /* --latency: a valid datagram, whose delay the worker records */
};

struct pool_slot {
	struct rx_msgs *m;
	struct pool_item *items;   /* the datagrams to work on (not the fins), in order */
	unsigned n;
};

struct pool;
struct pool_worker {
	_Alignas(64) struct work work; /* its own, merged at the end: no line shared with another */
	struct rx_latency *lat;    /* --latency: its own histograms, merged at the end */
	uint64_t unworked;         /* datagrams of its batch it left when the pool was cut */
	struct pool *p;
	pthread_t tid;
};

struct pool {
	pthread_mutex_t mu;
	pthread_cond_t work_cv;    /* workers wait here for a batch */
	pthread_cond_t space_cv;   /* the receiver waits here for room, or for the last batches */
	struct pool_slot *slots;
	unsigned nslots;           /* queue + workers + 1 */
	unsigned cap;              /* --queue */
	unsigned *queue;           /* slot numbers waiting, a ring of cap */
	unsigned head;             /* under mu */
	_Atomic unsigned qlen;     /* changed under mu; the receiver may look without it */
	unsigned *free_slots, nfree, busy; /* under mu: slots free, slots at work */
	unsigned idle_workers;     /* under mu: workers waiting on work_cv */
	int recv_waiting;          /* under mu: the receiver waits on space_cv */
	int quit;                  /* under mu: no more batches will come */
	_Atomic int cut;           /* a stop that abandons the work left: signal, time, error */
	unsigned nworkers, started;
	struct pool_worker *w;
	size_t bufsize;
	uint64_t start_real_ns;
	uint64_t unworked;         /* counted, their work left undone at a stop (variant_counts) */
	uint64_t queue_hwm;        /* the most batches waiting for a worker at once */
};

static void lat_free(struct rx_latency *l)
{
	if (l)
		munmap(l, sizeof *l);
}

static int pool_setup(struct rx *rx)
{
	const struct suck_cfg *cfg = rx->cfg;
	struct pool *p = calloc(1, sizeof *p);
	pthread_condattr_t ca;
	size_t wbytes;

	rx->priv = p;
	if (!p)
		return -1;
	p->nworkers = cfg->workers;
	p->cap = cfg->queue;
	p->nslots = p->cap + p->nworkers + 1;
	p->bufsize = cfg->bufsize;
	p->start_real_ns = rx->sh->start_real_ns;
	p->slots = calloc(p->nslots, sizeof *p->slots);
	p->queue = calloc(p->cap, sizeof *p->queue);
	p->free_slots = calloc(p->nslots, sizeof *p->free_slots);
	wbytes = (p->nworkers * sizeof *p->w + 63) & ~(size_t)63;
	p->w = aligned_alloc(64, wbytes);
	if (!p->slots || !p->queue || !p->free_slots || !p->w)
		return -1;
	memset(p->w, 0, wbytes);
	for (unsigned i = 0; i < p->nslots; i++) {
		struct pool_slot *s = &p->slots[i];
		s->m = rx_msgs_new(cfg->batch, rx->cap, rx->ctl ? RX_CTL_LEN : 0);
		s->items = calloc(cfg->batch, sizeof *s->items);
		if (!s->m || !s->items)
			return -1;
		p->free_slots[p->nfree++] = i;
	}
	for (unsigned i = 0; i < p->nworkers; i++) {
		struct pool_worker *w = &p->w[i];
		w->p = p;
		w->work.kind = cfg->work.kind;
		w->work.reps = cfg->work.reps;
		if (cfg->latency) {
			/* mmap, as rx's: the meter's memory is not the strategy's heap_kib */
			w->lat = mmap(NULL, sizeof *w->lat, PROT_READ | PROT_WRITE,
				      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (w->lat == MAP_FAILED) {
				w->lat = NULL;
				return -1;
			}
		}
	}
	/* The receiver's waits are ticks on the monotonic clock, as its receive calls' are. */
	if (pthread_condattr_init(&ca) || pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) ||
	    pthread_mutex_init(&p->mu, NULL) || pthread_cond_init(&p->work_cv, NULL) ||
	    pthread_cond_init(&p->space_cv, &ca))
		return -1;
	pthread_condattr_destroy(&ca);
	return 0;
}

/* The work on one batch: each datagram as rx_take would run it (a truncated one up to -s),
 * the delay of a valid one recorded at its hand-off to the work. A cut stops it between two
 * datagrams, so a stop is seen within one datagram's work. */
static void work_slot(struct pool *p, struct pool_worker *w, const struct pool_slot *s)
{
	for (unsigned i = 0; i < s->n; i++) {
		const struct pool_item *it = &s->items[i];
		struct mmsghdr *mm = &s->m->msgs[it->idx];
		const uint8_t *buf = s->m->iov[it->idx].iov_base;
		size_t len = mm->msg_len;
		uint64_t hand_ns = it->valid ? sys_real_ns() : 0;

		if (atomic_load_explicit(&p->cut, memory_order_relaxed)) {
			w->unworked += s->n - i;
			return;
		}
		work_run(&w->work, buf, len > p->bufsize ? p->bufsize : len);
		if (it->valid)
			rx_latency_add(w->lat, p->start_real_ns, wire_get64(buf + 24),
				       rx_stamp(&mm->msg_hdr), hand_ns);
	}
}

static void *worker_main(void *arg)
{
	struct pool_worker *w = arg;
	struct pool *p = w->p;
	int slot = -1;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		if (slot >= 0) {
			p->free_slots[p->nfree++] = (unsigned)slot;
			p->busy--;
			if (p->recv_waiting)
				pthread_cond_signal(&p->space_cv);
		}
		while (!atomic_load(&p->qlen) && !p->quit) {
			p->idle_workers++;
			pthread_cond_wait(&p->work_cv, &p->mu);
			p->idle_workers--;
		}
		if (!atomic_load(&p->qlen) || atomic_load(&p->cut))
			break;
		slot = (int)p->queue[p->head];
		p->head = (p->head + 1) % p->cap;
		atomic_fetch_sub(&p->qlen, 1);
		p->busy++;
		if (p->recv_waiting)
			pthread_cond_signal(&p->space_cv);
		pthread_mutex_unlock(&p->mu);
		work_slot(p, w, &p->slots[slot]);
		pthread_mutex_lock(&p->mu);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* Starts the workers with SIGINT and SIGTERM blocked, so that a signal interrupts the receiver's
 * blocking call, not a worker's work. 0, or -1 with the failure recorded (the run stops). */
static int start_workers(struct rx *rx, struct pool *p)
{
	sigset_t all, old;
	int e = 0;

	sigemptyset(&all);
	sigaddset(&all, SIGINT);
	sigaddset(&all, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (; p->started < p->nworkers; p->started++)
		if ((e = pthread_create(&p->w[p->started].tid, NULL, worker_main, &p->w[p->started])))
			break;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e)
		rx_failed(rx, "pthread_create", e);
	return e ? -1 : 0;
}

/* Waits on space_cv for at most a tick, then checks the stop conditions (rx_batch: a clock
 * read, as after a receive call's tick). Called with mu held; returns with it held. */
static void wait_tick(struct rx *rx, struct pool *p)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	t.tv_nsec += RX_TICK_MS * 1000000L;
	if (t.tv_nsec >= 1000000000L) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000L;
	}
	p->recv_waiting = 1;
	pthread_cond_timedwait(&p->space_cv, &p->mu, &t);
	p->recv_waiting = 0;
	pthread_mutex_unlock(&p->mu);
	rx_batch(rx);
	pthread_mutex_lock(&p->mu);
}

/* Queues the receiver's slot for a worker (the queue has room: only the receiver adds to it)
 * and returns a free one to receive into next. */
static unsigned hand_off(struct pool *p, unsigned slot)
{
	unsigned q, next;

	pthread_mutex_lock(&p->mu);
	q = atomic_load(&p->qlen);
	p->queue[(p->head + q) % p->cap] = slot;
	atomic_store(&p->qlen, q + 1);
	if (q + 1 > p->queue_hwm)
		p->queue_hwm = q + 1;
	if (p->idle_workers)
		pthread_cond_signal(&p->work_cv);
	next = p->free_slots[--p->nfree]; /* one is free: at most cap wait, one per worker works */
	pthread_mutex_unlock(&p->mu);
	return next;
}

static void pool_run(struct rx *rx)
{
	struct pool *p = rx->priv;
	int drop = rx->cfg->queue_drop;
	unsigned cur;

	pthread_mutex_lock(&p->mu);
	cur = p->free_slots[--p->nfree];
	pthread_mutex_unlock(&p->mu);
	if (start_workers(rx, p) < 0)
		goto end;
	while (!rx->done) {
		struct pool_slot *s = &p->slots[cur];
		struct rx_msgs *m = s->m;
		int n;

		if (!drop && atomic_load(&p->qlen) >= p->cap) {
			/* block: no receive call until a worker takes a batch; the socket fills */
			pthread_mutex_lock(&p->mu);
			if (atomic_load(&p->qlen) >= p->cap)
				wait_tick(rx, p);
			pthread_mutex_unlock(&p->mu);
			continue;
		}
		/* MSG_TRUNC: msg_len is the datagram's real length, so a truncated one is seen */
		n = rx_msgs_recv(rx, m, MSG_TRUNC);
		if (n < 0)
			continue;
		if (drop && atomic_load(&p->qlen) >= p->cap) {
			for (int i = 0; i < n && !rx_cut(rx); i++) {
				if (rx->ctl)
					rx_ctl(rx, &m->msgs[i].msg_hdr);
				rx_discard(rx, m->iov[i].iov_base, m->msgs[i].msg_len, &m->names[i]);
				if (++rx->since_check >= rx->check_every)
					rx_batch(rx);
			}
			rx_batch(rx);
			continue;
		}
		s->n = 0;
		for (int i = 0; i < n && !rx_cut(rx); i++) {
			int r;
			/* --marks, --jitter: measured here, from the receive's control messages */
			if (rx->ctl)
				rx_ctl(rx, &m->msgs[i].msg_hdr);
			r = rx_account(rx, m->iov[i].iov_base, m->msgs[i].msg_len, &m->names[i]);
			if (r >= 0)
				s->items[s->n++] = (struct pool_item){ .idx = (uint16_t)i, .valid = (uint8_t)r };
		}
		rx_batch(rx);
		if (s->n)
			cur = hand_off(p, cur);
	}
end:
	pthread_mutex_lock(&p->mu);
	/* A run that ended on its fins (or went idle) counts every datagram of them: wait for the
	 * batches still queued and at work, a tick at a time; a signal still cuts it short. */
	while ((rx->done == RX_STOP_FIN || rx->done == RX_STOP_IDLE || rx->done == RX_STOP_STALE) &&
	       (atomic_load(&p->qlen) || p->busy))
		wait_tick(rx, p);
	if (rx->done != RX_STOP_FIN && rx->done != RX_STOP_IDLE && rx->done != RX_STOP_STALE)
		atomic_store(&p->cut, 1);
	p->quit = 1;
	pthread_cond_broadcast(&p->work_cv);
	pthread_mutex_unlock(&p->mu);
	for (unsigned i = 0; i < p->started; i++)
		pthread_join(p->w[i].tid, NULL);
	for (unsigned q = 0; q < atomic_load(&p->qlen); q++)
		p->unworked += p->slots[p->queue[(p->head + q) % p->cap]].n;
	for (unsigned i = 0; i < p->started; i++) {
		struct pool_worker *w = &p->w[i];
		p->unworked += w->unworked;
		work_merge(&rx->work, &w->work);
		if (w->lat && rx->lat)
			rx_latency_merge(rx->lat, w->lat);
	}
}

static void pool_counts(const struct rx *rx, struct variant_counts *c)
{
	const struct pool *p = rx->priv;

	c->unworked = p->unworked;
	c->queue_hwm = p->queue_hwm;
}

static void pool_teardown(struct rx *rx)
{
	struct pool *p = rx->priv;

	if (!p)
		return;
	for (unsigned i = 0; p->slots && i < p->nslots; i++) {
		rx_msgs_free(p->slots[i].m);
		free(p->slots[i].items);
	}
	for (unsigned i = 0; p->w && i < p->nworkers; i++)
		lat_free(p->w[i].lat);
	free(p->slots);
	free(p->queue);
	free(p->free_slots);
	free(p->w);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->work_cv);
	pthread_cond_destroy(&p->space_cv);
	free(p);
}

const struct variant variant_pool = {
	.name = "pool",
	.what = "recvmmsg and counting on one thread, the work on --workers; a bounded queue",
	.batch = 32,
	.pools = 1,
	.busy_polls = 1,
	.setup = pool_setup,
	.run = pool_run,
	.teardown = pool_teardown,
	.counts = pool_counts,
};
