/* one: --one-socket, -j N threads receiving on ONE shared socket (no SO_REUSEPORT), the
 * "two threads on one socket" of Cloudflare's 2015 post: the threads meet in the kernel, on the
 * socket's receive queue and its lock, as a server's threads do when they share a socket.
 *
 * The accounting stays a run alone's. One flow's datagrams are split between the threads by
 * whichever thread's call the kernel answers, so a tracker per thread would see part of a flow
 * each: a duplicate could be counted valid once on each thread, a datagram one thread holds
 * looks lost to the other, and the fins (one per flow) would reach one tracker only. So there is
 * one receive state, the accountant (a struct rx that no thread receives with), and each thread
 * counts its batches into it under one lock, taken once per batch: the thread works on its batch
 * first, outside the lock, then takes the lock and hands every datagram of the batch to the
 * accountant (rx_take_as without the work, as pool's receiver does), then lets go before its
 * next receive call. The receive calls themselves take no lock of suck's: their contention is the
 * kernel's, which is what the row is to show.
 *
 * Each thread keeps its own receive calls, clock checks and stop conditions (its struct rx, the
 * hub, as for -j), its work (merged at the end), and its share of received and foreign (what
 * the accountant counted while it held the lock), so the threads' counts add up to the run's.
 * Pitfalls: the accountant sees batches in the order the threads took the lock, not the order
 * the socket gave them, so reordered includes the threads' own (two batches of one flow
 * accounted the other way round); a batch held longer than the others take to account a
 * tracker's window of one flow (65536 datagrams) would be late, counted, never valid. Fins
 * consumed by the accountant are not worked on, as in a run alone: a datagram that looks like
 * a fin is left to the accountant's work, under the lock (a handful per run). */
#include "one.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "total.h"

struct one {
	pthread_mutex_t mu;
	struct rx acct;            /* the run's one receive state, under mu */
	uint64_t *hand;            /* --latency: each thread's batch of hand-off times */
	unsigned batch;
	size_t bytes;              /* the mapping */
};

struct one *one_new(const struct suck_cfg *cfg, int fd, struct rx_shared *sh, unsigned threads)
{
	struct one *o;
	size_t bytes = sizeof *o + (cfg->latency ? (size_t)threads * cfg->batch * sizeof(uint64_t) : 0);

	/* mmap, as the tracker: the meter's memory is not the strategy's heap_kib */
	o = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (o == MAP_FAILED)
		return NULL;
	o->bytes = bytes;
	o->batch = cfg->batch;
	o->hand = cfg->latency ? (uint64_t *)(o + 1) : NULL;
	if (pthread_mutex_init(&o->mu, NULL)) {
		munmap(o, bytes);
		return NULL;
	}
	/* id 0: every flow is owned by the accountant, so by its source alone */
	if (rx_init(&o->acct, fd, 0, cfg, sh) < 0) {
		one_free(o);
		return NULL;
	}
	o->acct.next_progress_ns = 0; /* the threads print the -i lines */
	return o;
}

void one_attach(struct one *o, struct rx *hub)
{
	hub->hook = o;
}

void one_free(struct one *o)
{
	if (!o)
		return;
	rx_free(&o->acct);
	pthread_mutex_destroy(&o->mu);
	munmap(o, o->bytes);
}

void one_batch(struct rx *rx, struct rx_msgs *m, int n)
{
	struct one *o = rx->hook;
	struct rx *a = &o->acct;
	uint64_t *hand = o->hand ? o->hand + (size_t)rx->id * o->batch : NULL;
	size_t bufsize = rx->cfg->bufsize;
	uint64_t received, foreign;
	int k;

	if (n > 0 && !rx->first_ns)
		rx_first(rx);
	/* The work, outside the lock; a stop by a signal, -t or an error cuts it between two
	 * datagrams, and only the datagrams worked on are counted, as a run alone counts them. */
	for (k = 0; k < n && !rx_cut(rx); k++) {
		const uint8_t *buf = m->iov[k].iov_base;
		size_t len = m->msgs[k].msg_len;

		if (!rx_maybe_fin(rx, buf, len)) {
			if (hand)
				hand[k] = sys_real_ns();
			work_run(&rx->work, buf, len > bufsize ? bufsize : len);
		}
		if (++rx->since_check >= rx->check_every)
			rx_batch(rx);
	}
	/* The accounting, under the lock: once per batch. */
	pthread_mutex_lock(&o->mu);
	received = a->received;
	foreign = a->foreign;
	for (int i = 0; i < k; i++) {
		const uint8_t *buf = m->iov[i].iov_base;
		size_t len = m->msgs[i].msg_len;
		int maybe_fin = rx_maybe_fin(a, buf, len);

		if (a->ctl)
			rx_ctl(a, &m->msgs[i].msg_hdr);
		/* a datagram that looks like a fin is worked on here unless the fin is believed */
		if (rx_take_as(a, buf, len, &m->names[i], maybe_fin) == 1 && hand)
			rx_latency_add(rx->lat, a->sh->start_real_ns, wire_get64(buf + 24), a->stamp_ns, hand[i]);
	}
	rx->received += a->received - received;
	rx->foreign += a->foreign - foreign;
	pthread_mutex_unlock(&o->mu);
}

void one_sum(struct one *o, struct rx *hubs, unsigned n, int64_t kernel_drops, struct total *t)
{
	total_sum(&o->acct, 1, kernel_drops, t);
	/* the threads' own: the calls, the receive window, the stop, the work, the delays */
	t->stop = RX_STOP_FIN;
	t->first_ns = t->last_ns = 0;
	t->calls = t->idle_calls = 0;
	t->thread_min = t->thread_max = 0;
	for (unsigned i = 0; i < n; i++) {
		const struct rx *r = &hubs[i];
		t->calls += r->calls;
		t->idle_calls += r->idle_calls;
		if (r->first_ns && (!t->first_ns || r->first_ns < t->first_ns))
			t->first_ns = r->first_ns;
		if (r->last_ns > t->last_ns)
			t->last_ns = r->last_ns;
		if (r->done != RX_STOP_FIN)
			t->stop = r->done;
		if (!i || r->received < t->thread_min)
			t->thread_min = r->received;
		if (r->received > t->thread_max)
			t->thread_max = r->received;
		work_merge(&t->work, &r->work);
		if (r->lat) {
			t->latency = 1;
			rx_latency_merge(&t->lat, r->lat);
		}
	}
}
