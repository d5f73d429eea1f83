/* rtt: blast --rtt, round trips to suck --echo (netperf UDP_RR, sockperf ping-pong, neper
 * udp_rr). A flow keeps --outstanding requests in flight: each a datagram of type WIRE_REQ
 * whose reserved field asks for a reply of --reply-size bytes, timed from the send call to the
 * reply's arrival on CLOCK_MONOTONIC. A request unanswered after --rtt-timeout is counted lost
 * and its place taken by a new one, so a lost datagram costs one timeout of one slot, never the
 * run (netperf's UDP_RR stalls on the first loss). A reply read at or after its request's
 * timeout is late and its request lost, even when it is read in the wake-up that would have
 * expired it: no round trip is above the timeout. A reply shorter than asked (a suck without
 * --echo-max cuts a reply to its request's size) ends its request as lost too, counted in
 * rtt_short, at once rather than at the timeout. At the end the flow waits for what is in
 * flight (at most one timeout), so that every request sent is answered or lost:
 * sent == transactions + rtt_lost. The clock is read once per request, once per wake-up and
 * once per reply: what the option asks for.
 *
 * Directions: suck --echo writes into each reply of a request of at least WIRE_ECHO_END bytes
 * the flow's requests it has taken so far and its receive time (wire.h's echo block). The
 * largest count seen is what the echo took (at least the transactions, at most sent), so
 * rtt_lost_up = sent - count and rtt_lost_down = rtt_lost - rtt_lost_up. Requests after the
 * last one whose block came back are unanswered and no count says which way (their replies
 * may carry a higher count, lost): they are counted up, and in rtt_lost_tail, so the true loss
 * on the way out is within [up - tail, up] (exact when the echo takes them in order). A block
 * that cannot be true (a count above the requests sent so far, an echo time below 0 or above
 * the round trip) is counted forged and not used. One-way delays: with t1 our send, t2 and t3
 * the echo's receive and send, t4 the reply, its clock minus ours is ((t2 - t1) + (t3 - t4)) /
 * 2, off by at most half of the round trip minus the echo's time (NTP's on-wire estimate); the
 * best of a flow's first RTT_SETTLE samples is applied to all of them and kept, so every
 * sample shares one offset and one bound. */
#include <errno.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "blast.h"
#include "mode.h"
#include "sys.h"
#include "wire.h"

#define RTT_MIN_SLOTS 1024u     /* requests that may be between the oldest in flight and the newest */
#define RTT_WAKE_NS 20000000ull /* the longest wait: signals, -t and progress lines are seen this often */
#define RTT_BUF 65536           /* a reply of any size, and one byte more than any can be */
#define RTT_SETTLE 256          /* samples held until the offset applied to them is chosen */
#define RTT_THETA_MAX (1ll << 62) /* the largest offset taken, ns */

struct rtt_stamps {
	uint64_t t1, t2, t3, t4; /* our send, the echo's receive and send, our receive: wall ns */
};

struct rtt_slot {
	uint64_t seq1;          /* the request's sequence + 1 while it is in flight, 0 = free */
	uint64_t t_ns;          /* when it was sent */
};

struct rtt_flow {
	struct rtt_slot *slots;
	uint64_t mask;          /* slots - 1 */
	uint8_t *buf;           /* replies */
	uint64_t lo;            /* the oldest request that may be in flight */
	unsigned outstanding;
	uint64_t transactions, lost, late, foreign, short_;
	struct hist rtt;
	uint64_t wall;          /* CLOCK_REALTIME - CLOCK_MONOTONIC, as the send stamps use */
	uint64_t stamped;       /* replies that carried suck's time (WIRE_ECHO) */
	uint64_t best_rtt;      /* the fastest of those, ns */
	int64_t offset;         /* suck's clock - ours, from that fastest round trip, ns */
	/* the echo block */
	uint64_t echo_count;    /* the largest count seen */
	uint64_t echo_hi;       /* the highest sequence + 1 of a reply with a block */
	uint64_t blocks, forged;
	uint64_t best_delta;    /* the smallest round trip minus echo time, ns */
	int64_t theta;          /* the offset from it, ns */
	int settled;            /* the offset applied is chosen: applied, within applied_err */
	int64_t applied;
	uint64_t applied_err;
	unsigned npend;
	struct rtt_stamps pend[RTT_SETTLE];
	struct hist up, down, echo;
};

/* The flow's buffers as for a stream (its requests are laid out in them), then its requests in
 * flight. */
static int rtt_setup(struct flow *f)
{
	struct rtt_flow *r;
	uint64_t n = RTT_MIN_SLOTS;

	if (flow_setup(f) < 0)
		return -1;
	f->rtt = r = calloc(1, sizeof *r);
	if (!r)
		return -1;
	/* Room for 64 requests per slot of the window between the oldest unanswered request and
	 * the newest: only a window that full waits for the oldest to time out. */
	while (n < 64ull * f->cfg->outstanding)
		n *= 2;
	r->mask = n - 1;
	r->best_delta = UINT64_MAX;
	r->slots = calloc(n, sizeof *r->slots);
	r->buf = malloc(RTT_BUF);
	/* the echo block's place, zero whatever the payload: a count of 0 back says no echo wrote */
	if (f->cfg->size >= WIRE_ECHO_END)
		memset(f->bufs + WIRE_ECHO_OFF, 0, WIRE_ECHO_END - WIRE_ECHO_OFF);
	return r->slots && r->buf ? 0 : -1;
}

static void rtt_free(struct flow *f)
{
	flow_free(f);
	if (!f->rtt)
		return;
	free(f->rtt->slots);
	free(f->rtt->buf);
	free(f->rtt);
	f->rtt = NULL;
}

/* Requests unanswered for the timeout are lost; lo moves past what is answered or lost. */
static void expire(struct rtt_flow *r, uint64_t hi, uint64_t now, uint64_t timeout)
{
	while (r->lo < hi) {
		struct rtt_slot *s = &r->slots[r->lo & r->mask];
		if (s->seq1 == r->lo + 1) {
			if (now - s->t_ns < timeout)
				return;
			s->seq1 = 0;
			r->lost++;
			r->outstanding--;
		}
		r->lo++;
	}
}

/* suck stamped its reply at t3 (its wall clock) between our send at t1 and the reply's arrival at
 * t4 (monotonic here), so its clock minus ours lies in [t3 - t4, t3 - t1] (as wall clocks); the
 * middle of the narrowest such interval, the fastest round trip's, is the estimate (NTP's clock
 * filter), off by at most half that round trip. */
static void clock_sample(struct rtt_flow *r, uint64_t t1, uint64_t t4, uint64_t t3)
{
	uint64_t rtt = t4 - t1;

	r->stamped++;
	if (r->stamped > 1 && rtt >= r->best_rtt)
		return;
	r->best_rtt = rtt;
	r->offset = (int64_t)(t3 - (t1 + r->wall)) - (int64_t)(rtt / 2);
}

/* a - b + c, of wall-clock stamps and an offset, below 0 as 0: in 128 bits, so that no stamp a
 * hostile echo writes can overflow it */
static uint64_t span(uint64_t a, uint64_t b, int64_t c)
{
	__int128 v = (__int128)a - (__int128)b + c;

	return v <= 0 ? 0 : v >= (__int128)UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

/* One round trip's one-way delays and echo time, with the offset applied; a delay below 0 (the
 * offset off by more than it) counts as 0. */
static void oneway_add(struct rtt_flow *r, const struct rtt_stamps *s)
{
	hist_add(&r->up, span(s->t2, s->t1, -r->applied));
	hist_add(&r->down, span(s->t4, s->t3, r->applied));
	hist_add(&r->echo, s->t3 - s->t2);
}

/* The best offset so far becomes the one applied, to the samples held and every later one. */
static void settle(struct rtt_flow *r)
{
	r->settled = 1;
	r->applied = r->theta;
	r->applied_err = r->best_delta / 2;
	for (unsigned i = 0; i < r->npend; i++)
		oneway_add(r, &r->pend[i]);
	r->npend = 0;
}

/* A reply's echo block: its count for the direction of the losses, and for a round trip
 * (t1, t4: wall ns; 0 for a reply that is none) its stamps. 0, or -1 for a block that cannot be
 * true. */
static int echo_block(struct rtt_flow *r, const struct wire_echo *w, uint64_t sent, uint64_t seq,
		      uint64_t t1, uint64_t t4)
{
	if (w->count > sent || w->tx_ns < w->rx_ns || (t4 && w->tx_ns - w->rx_ns > t4 - t1)) {
		r->forged++;
		return -1;
	}
	r->blocks++;
	if (w->count > r->echo_count)
		r->echo_count = w->count;
	if (seq + 1 > r->echo_hi)
		r->echo_hi = seq + 1;
	if (!t4)
		return 0;
	struct rtt_stamps s = { t1, w->rx_ns, w->tx_ns, t4 };
	uint64_t delta = (t4 - t1) - (w->tx_ns - w->rx_ns);
	if (delta < r->best_delta) {
		r->best_delta = delta;
		__int128 th = ((__int128)s.t2 - s.t1 + (__int128)s.t3 - s.t4) / 2;
		/* within +-2^62 (146 years): what a hostile echo writes stays a number */
		r->theta = th > RTT_THETA_MAX ? RTT_THETA_MAX : th < -RTT_THETA_MAX ? -RTT_THETA_MAX : (int64_t)th;
	}
	if (r->settled) {
		oneway_add(r, &s);
		return 0;
	}
	r->pend[r->npend++] = s;
	if (r->npend == RTT_SETTLE)
		settle(r);
	return 0;
}

/* A reply of this flow to one of its requests in flight, of the size asked for, within the
 * timeout: its round trip. An answer to a request already answered or lost, or one read at or
 * after the timeout (its request then lost, as expire would have had it), is late; one shorter
 * than asked, within the timeout, ends its request as lost and short; anything else is
 * foreign. */
static void take_reply(struct flow *f, size_t len, uint64_t now, uint64_t timeout)
{
	const struct blast_cfg *cfg = f->cfg;
	struct rtt_flow *r = f->rtt;
	size_t want = cfg->reply_size ? cfg->reply_size : cfg->size;
	struct wire_hdr h;
	struct wire_echo w;
	struct rtt_slot *s;
	int block;

	if (len > want || wire_get_typed(r->buf, len, &h, WIRE_TYPES_REPLY) < 0 || h.run_id != cfg->run_id ||
	    h.flow != f->id || wire_get_reply(r->buf) != cfg->reply_size || h.seq >= f->sent) {
		r->foreign++;
		return;
	}
	s = &r->slots[h.seq & r->mask];
	block = wire_get_echo(r->buf, len, &w) == 0;
	if (h.seq < r->lo || s->seq1 != h.seq + 1) {
		r->late++;
		if (block)
			echo_block(r, &w, f->sent, h.seq, 0, 0);
		return;
	}
	if (now - s->t_ns >= timeout || len < want) {
		if (block)
			echo_block(r, &w, f->sent, h.seq, 0, 0);
		s->seq1 = 0;
		r->outstanding--;
		r->lost++;
		if (now - s->t_ns >= timeout)
			r->late++;
		else
			r->short_++;
		return;
	}
	s->seq1 = 0;
	r->outstanding--;
	r->transactions++;
	hist_add(&r->rtt, now - s->t_ns);
	/* for the -i lines (progress.c): this thread alone writes them */
	atomic_store_explicit(&f->progress_rtt_ns,
			      atomic_load_explicit(&f->progress_rtt_ns, memory_order_relaxed) + (now - s->t_ns),
			      memory_order_relaxed);
	atomic_store_explicit(&f->progress_rtt_n, r->transactions, memory_order_relaxed);
	if (h.type == WIRE_ECHO)
		clock_sample(r, s->t_ns, now, h.send_ns);
	if (block)
		echo_block(r, &w, f->sent, h.seq, s->t_ns + r->wall, now + r->wall);
}

/* A send or receive error: counted by errno; 0 to go on, -1 for one that ends the flow. */
static int rtt_error(struct flow *f, int e, const char *call)
{
	if (e == EINTR || e == EAGAIN)
		return 0;
	f->errors++;
	f->err_by[e < BLAST_ERRNOS ? e : 0]++;
	if (e == ECONNREFUSED || e == ENOBUFS || e == ENOMEM)
		return 0;
	sys_error_set(&f->error, call, e);
	f->stop = BLAST_STOP_ERROR;
	return -1;
}

static void rtt_run(struct flow *f)
{
	const struct blast_cfg *cfg = f->cfg;
	struct rtt_flow *r = f->rtt;
	uint64_t timeout = (uint64_t)(cfg->rtt_timeout_s * 1e9);
	uint64_t now = sys_mono_ns(), wall = sys_real_ns() - now, last_send = now;

	r->wall = wall;
	struct pollfd pfd = { .fd = f->fd, .events = POLLIN };
	int sending = 1;

	f->start_ns = f->end_ns = now;
	f->stop = BLAST_STOP_TIME;
	for (;;) {
		uint64_t until;
		struct timespec ts;

		if (sending && sys_stop) {
			f->stop = BLAST_STOP_SIGNAL;
			sending = 0;
		} else if (sending && f->deadline_ns && now >= f->deadline_ns) {
			sending = 0;
		} else if (sending && f->sent >= f->quota) {
			f->stop = BLAST_STOP_COUNT;
			sending = 0;
		}
		expire(r, f->sent, now, timeout);
		while (sending && r->outstanding < cfg->outstanding && f->sent - r->lo <= r->mask &&
		       f->sent < f->quota && (!cfg->rate || rate_poll(&f->rate, now))) {
			uint8_t *req = f->bufs;
			wire_put_seq(req, f->sent, now + wall);
			if (send(f->fd, req, cfg->size, 0) < 0) {
				if (rtt_error(f, errno, "send") < 0)
					sending = 0;
				break; /* and wait a while: nothing listening yet, or the buffer full */
			}
			f->calls++;
			r->slots[f->sent & r->mask] = (struct rtt_slot){ .seq1 = f->sent + 1, .t_ns = now };
			r->outstanding++;
			f->sent++;
			f->bytes += cfg->size;
			hist_add(&f->gaps, now - last_send);
			last_send = now;
			now = sys_mono_ns();
		}
		atomic_store_explicit(&f->progress_sent, f->sent, memory_order_relaxed);
		if (!sending && r->outstanding == 0)
			break;
		/* Wait for a reply, at most until the oldest request times out, -t, the next
		 * progress line, or RTT_WAKE_NS. */
		until = now + RTT_WAKE_NS;
		if (r->outstanding && r->slots[r->lo & r->mask].t_ns + timeout < until)
			until = r->slots[r->lo & r->mask].t_ns + timeout;
		if (sending && f->deadline_ns && f->deadline_ns < until)
			until = f->deadline_ns;
		/* paced (-r): the next request's due time, when a slot is free for it */
		if (sending && cfg->rate && r->outstanding < cfg->outstanding && rate_due_ns(&f->rate) + 1 < until)
			until = rate_due_ns(&f->rate) + 1;
		if (f->progress_ns && f->progress_ns < until)
			until = f->progress_ns;
		ts.tv_sec = 0;
		ts.tv_nsec = until > now ? (long)(until - now) : 0;
		if (ppoll(&pfd, 1, &ts, NULL) < 0 && rtt_error(f, errno, "ppoll") < 0)
			sending = 0;
		for (;;) {
			ssize_t len = recv(f->fd, r->buf, RTT_BUF, MSG_DONTWAIT | MSG_TRUNC);
			if (len < 0) {
				if (errno != EAGAIN && rtt_error(f, errno, "recv") < 0)
					sending = 0;
				break;
			}
			take_reply(f, (size_t)len, sys_mono_ns(), timeout);
		}
		now = sys_mono_ns();
		if (f->progress_ns && now >= f->progress_ns)
			f->progress_ns = progress_line(now);
	}
	f->end_ns = now;
	if (!r->settled && r->npend)
		settle(r);
	flow_fins(f, f->end_ns - f->start_ns);
}

const struct send_mode mode_rtt = {
	.name = "rtt",
	.what = "--rtt: requests to suck --echo, --outstanding in flight, each reply timed",
	.socket = 1,
	.setup = rtt_setup,
	.run = rtt_run,
	.free = rtt_free,
};

/* A flow's losses by direction and its one-way delays, into t. What the echo took is its largest
 * count, but no fewer than the replies in time (each was taken) and no more than sent. */
static void rtt_sum_echo(const struct flow *f, struct rtt_total *t)
{
	const struct rtt_flow *r = f->rtt;
	uint64_t took = r->echo_count, up;

	t->blocks += r->blocks;
	t->forged += r->forged;
	if (took < r->transactions)
		took = r->transactions;
	if (took > f->sent)
		took = f->sent;
	up = f->sent - took < r->lost ? f->sent - took : r->lost;
	t->lost_up += up;
	t->lost_down += r->lost - up;
	t->lost_tail += f->sent - r->echo_hi < up ? f->sent - r->echo_hi : up;
	hist_merge(&t->up, &r->up);
	hist_merge(&t->down, &r->down);
	hist_merge(&t->echo, &r->echo);
	if (r->settled && r->applied_err > t->offset_err)
		t->offset_err = r->applied_err;
}

void rtt_sum(const struct flow *fs, unsigned n, struct rtt_total *t)
{
	memset(t, 0, sizeof *t);
	for (unsigned i = 0; i < n; i++) {
		const struct rtt_flow *r = fs[i].rtt;
		if (!r)
			continue;
		t->transactions += r->transactions;
		t->lost += r->lost;
		t->late += r->late;
		t->foreign += r->foreign;
		t->short_ += r->short_;
		hist_merge(&t->rtt, &r->rtt);
		if (r->stamped && (!t->stamped || r->best_rtt < t->best_rtt)) {
			t->best_rtt = r->best_rtt;
			t->offset = r->offset;
		}
		t->stamped += r->stamped;
		rtt_sum_echo(&fs[i], t);
	}
}
