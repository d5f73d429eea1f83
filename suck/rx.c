/* rx: the shared half of every receive variant (see rx.h): run locking, fins, the stop
 * conditions, and the counts behind the progress lines (progress.c prints them). Nothing here
 * runs per datagram except through rx_datagram. */
#include "rx.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>

#include "carry.h"
#include "echo.h"
#include "net.h"
#include "sys.h"
#include "variant.h"

#ifndef SO_INCOMING_NAPI_ID
#define SO_INCOMING_NAPI_ID 56
#endif

const char *const rx_stop_names[] = { "running", "fin", "signal", "time", "idle", "error",
					 "run_timeout", "stale" };

int rx_init(struct rx *rx, int fd, unsigned id, const struct suck_cfg *cfg, struct rx_shared *sh)
{
	memset(rx, 0, sizeof *rx);
	rx->fd = fd;
	rx->id = id;
	rx->cfg = cfg;
	rx->sh = sh;
	rx->work.kind = cfg->work.kind;
	rx->work.reps = cfg->work.reps;
	rx->cap = cfg->bufsize < WIRE_FIN_LEN ? WIRE_FIN_LEN : cfg->bufsize;
	rx->check_every = 1; /* grows to RX_FLUSH once the work is seen to be quick */
	rx->start_ns = rx->check_ns = sys_mono_ns();
	suck_progress_start(&rx->prog, cfg->fmt, rx->start_ns);
	if (cfg->interval_s > 0)
		rx->next_progress_ns = rx->start_ns + (uint64_t)(cfg->interval_s * 1e9);
	if (cfg->spin)
		rx->flags |= MSG_DONTWAIT; /* every receive returns at once: a polling receiver */
	if (cfg->latency) {
		/* mmap, as the tracker: the meter's memory is not the strategy's heap_kib */
		rx->lat = mmap(NULL, sizeof *rx->lat, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (rx->lat == MAP_FAILED) {
			rx->lat = NULL;
			return -1;
		}
	}
	if (cfg->jitter) {
		rx->jit = mmap(NULL, sizeof *rx->jit, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (rx->jit == MAP_FAILED) {
			rx->jit = NULL;
			return -1;
		}
	}
	if (cfg->gaps) {
		rx->gap = mmap(NULL, sizeof *rx->gap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (rx->gap == MAP_FAILED) {
			rx->gap = NULL;
			return -1;
		}
	}
	/* --echo: as many replies queued as one receive call can take; one budget for every
	 * thread, made before any thread runs (the threads' states are set up one by one) */
	if (cfg->echo && !sh->echo_budget && !(sh->echo_budget = echo_budget_new(cfg->echo_budget)))
		return -1;
	if (cfg->echo && !(rx->echo = echo_new(cfg->variant && cfg->variant->batch ? cfg->batch : 1,
					      cfg->to.ss.ss_family, cfg->echo_max, sh->echo_budget)))
		return -1;
	rx->ctl = cfg->latency || cfg->marks || cfg->jitter || cfg->gaps;
	rx->extra = cfg->latency || cfg->marks || cfg->jitter || cfg->gaps || cfg->echo;
	return seq_init(&rx->trk);
}

void rx_ctl(struct rx *rx, struct msghdr *mh)
{
	uint32_t mark = MARK_NONE;

	rx->stamp_ns = 0;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(mh); c; c = CMSG_NXTHDR(mh, c)) {
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
			struct timespec ts;
			memcpy(&ts, CMSG_DATA(c), sizeof ts);
			rx->stamp_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
		} else {
			mark_cmsg(c, &mark);
		}
	}
	rx->mark = mark;
}

/* --marks: the run's first valid datagram sets the marking every later one is held against,
 * whichever thread took it. */
static void mark_seen(struct rx *rx)
{
	uint32_t first = atomic_load_explicit(&rx->sh->mark_first, memory_order_relaxed);

	if (!first && atomic_compare_exchange_strong(&rx->sh->mark_first, &first, rx->mark | RX_MARK_SEEN))
		return;
	if ((first & ~RX_MARK_SEEN) != rx->mark)
		rx->marks_changed++;
}

int rx_extra(struct rx *rx, const struct wire_hdr *h, uint64_t hand_ns, const uint8_t *buf, size_t len,
	     const void *src, int work)
{
	uint64_t before = rx->trk.flow[h->flow].valid;
	int worker_lat = 0;

	seq_seen(&rx->trk, h->flow, h->seq);
	/* valid datagrams only: not a duplicate or a late one */
	if (rx->trk.flow[h->flow].valid == before)
		return 0;
	if (rx->lat && work)
		rx_latency(rx, h->send_ns, hand_ns);
	worker_lat = rx->lat && !work; /* pool: its worker records the delay */
	if (rx->cfg->marks)
		mark_seen(rx);
	/* --jitter: the kernel's receive stamp; the hand-off's time (--latency) or now without */
	if (rx->jit)
		jitter_add(rx->jit, h->flow, h->send_ns, rx->stamp_ns ? rx->stamp_ns : hand_ns ? hand_ns : sys_real_ns());
	/* --gaps: likewise; gro's segments of one buffer share its stamp, arriving as one */
	if (rx->gap)
		gaps_add(rx->gap, h->flow, rx->stamp_ns ? rx->stamp_ns : hand_ns ? hand_ns : sys_real_ns());
	/* after the work, which rx_take has done (no variant that hands the work on echoes) */
	if (rx->echo)
		echo_add(rx->echo, rx->fd, buf, len, src, rx->trk.flow[h->flow].valid);
	return worker_lat;
}

uint64_t rx_stamp(struct msghdr *mh)
{
	for (struct cmsghdr *c = CMSG_FIRSTHDR(mh); c; c = CMSG_NXTHDR(mh, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
			struct timespec ts;
			memcpy(&ts, CMSG_DATA(c), sizeof ts);
			return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
		}
	return 0;
}

ssize_t rx_recv_stamped(struct rx *rx, void *buf, size_t cap, struct rx_name *from)
{
	union { char b[RX_CTL_LEN]; struct cmsghdr align; } ctl;
	struct iovec iov = { .iov_base = buf, .iov_len = cap };
	struct msghdr mh = { .msg_name = from, .msg_namelen = RX_NAME_LEN, .msg_iov = &iov,
			     .msg_iovlen = 1, .msg_control = ctl.b, .msg_controllen = sizeof ctl.b };
	ssize_t len = recvmsg(rx->fd, &mh, MSG_TRUNC | rx->flags);

	if (len >= 0)
		rx_ctl(rx, &mh);
	return len;
}

void rx_latency(struct rx *rx, uint64_t send_ns, uint64_t hand_ns)
{
	rx_latency_add(rx->lat, rx->sh->start_real_ns, send_ns, rx->stamp_ns, hand_ns);
}

void rx_latency_merge(struct rx_latency *dst, const struct rx_latency *src)
{
	hist_merge(&dst->total, &src->total);
	hist_merge(&dst->stack, &src->stack);
	hist_merge(&dst->queue, &src->queue);
	dst->negative += src->negative;
	dst->outside += src->outside;
}

void rx_latency_add(struct rx_latency *l, uint64_t start_real_ns, uint64_t send_ns, uint64_t stamp,
		    uint64_t hand_ns)
{
	if (send_ns > hand_ns) {
		l->negative++;
		return;
	}
	/* Sent before this suck started: no delay of this run, whatever the header says; counted,
	 * not sampled. No slack: on one host both tools read the same clock, and a slack of S would
	 * let a forged stamp set lat_max_us up to S beyond the run. Across two hosts, a sender whose
	 * clock is behind suck's by more than it started after suck has its first datagrams counted
	 * here, visibly (lat_outside and a warning), not sampled with the offset in them. */
	if (send_ns < start_real_ns) {
		l->outside++;
		return;
	}
	hist_add(&l->total, hand_ns - send_ns);
	/* A stamp outside [send, hand-off] says the clocks disagree: no split for it. */
	if (stamp && stamp >= send_ns && stamp <= hand_ns) {
		hist_add(&l->stack, stamp - send_ns);
		hist_add(&l->queue, hand_ns - stamp);
	}
}

struct rx_msgs *rx_msgs_new(unsigned n, size_t slot, size_t ctl)
{
	struct rx_msgs *m = calloc(1, sizeof *m);
	size_t stride;

	if (!m)
		return NULL;
	m->n = n;
	m->ctl = ctl;
	m->msgs = calloc(n, sizeof *m->msgs);
	m->iov = calloc(n, sizeof *m->iov);
	m->names = calloc(n, sizeof *m->names); /* zeroed: see struct rx_name */
	/* Buffers 64 KiB apart would put the same line of every buffer in the same cache set
	 * (the set is chosen by the address bits below 4 KiB), so a batch of 32 datagrams evicts
	 * itself before the work reads it. Starting each buffer 17 lines further into a page
	 * spreads them over the sets. */
	stride = ((slot + 4095) & ~(size_t)4095) + 17 * 64;
	m->bufs = aligned_alloc(4096, (n * stride + 4095) & ~(size_t)4095); /* C11: a multiple */
	m->ctls = ctl ? calloc(n, ctl) : NULL;
	if (!m->msgs || !m->iov || !m->names || !m->bufs || (ctl && !m->ctls)) {
		rx_msgs_free(m);
		errno = ENOMEM;
		return NULL;
	}
	for (unsigned i = 0; i < n; i++) {
		m->iov[i].iov_base = m->bufs + i * stride;
		m->iov[i].iov_len = slot;
		m->msgs[i].msg_hdr.msg_iov = &m->iov[i];
		m->msgs[i].msg_hdr.msg_iovlen = 1;
		/* The kernel shortens msg_namelen to what it wrote, the same for every datagram
		 * of one socket: no need to reset it. */
		m->msgs[i].msg_hdr.msg_name = &m->names[i];
		m->msgs[i].msg_hdr.msg_namelen = RX_NAME_LEN;
		if (ctl) {
			m->msgs[i].msg_hdr.msg_control = m->ctls + i * ctl;
			m->msgs[i].msg_hdr.msg_controllen = ctl;
		}
	}
	return m;
}

int rx_msgs_take(struct rx *rx, struct rx_msgs *m, int flags)
{
	/* msg_controllen is an in/out field: where there are control buffers (--latency, gro),
	 * reset it before every call. */
	for (unsigned i = 0; m->ctl && i < m->n; i++)
		m->msgs[i].msg_hdr.msg_controllen = m->ctl;
	rx->calls++;
	return recvmmsg(rx->fd, m->msgs, m->n, MSG_WAITFORONE | flags | rx->flags, NULL);
}

int rx_msgs_recv(struct rx *rx, struct rx_msgs *m, int flags)
{
	int n = rx_msgs_take(rx, m, flags);

	if (n < 0)
		rx_recv_failed(rx, errno, "recvmmsg");
	return n;
}

void rx_msgs_free(struct rx_msgs *m)
{
	if (!m)
		return;
	free(m->msgs);
	free(m->iov);
	free(m->names);
	free(m->bufs);
	free(m->ctls);
	free(m);
}

void rx_free(struct rx *rx)
{
	if (rx->lat)
		munmap(rx->lat, sizeof *rx->lat);
	rx->lat = NULL;
	if (rx->jit)
		munmap(rx->jit, sizeof *rx->jit);
	rx->jit = NULL;
	if (rx->gap)
		munmap(rx->gap, sizeof *rx->gap);
	rx->gap = NULL;
	echo_free(rx->echo);
	rx->echo = NULL;
	seq_free(&rx->trk);
}

void rx_discard(struct rx *rx, const uint8_t *buf, size_t len, const void *src)
{
	struct wire_hdr h;

	if (rx->hooks) {
		rx->hooks->discard(rx, buf, len, src);
		return;
	}
	if (len <= rx->cfg->bufsize && wire_get_hdr(buf, len, &h) == 0 && h.type == WIRE_DATA &&
	    ((rx->have_run && h.run_id == rx->run_id) || rx_lock(rx, &h)) && (!rx->proof || h.proof == rx->proof) &&
	    ((rx->mine[h.flow] == FLOW_MINE && rx_name_eq(&rx->src[h.flow], src)) ||
	     rx_claim(rx, h.flow, src)) &&
	    seq_discard(&rx->trk, h.flow, h.seq))
		return;
	rx_take(rx, buf, len, src);
}

void rx_first(struct rx *rx)
{
	uint64_t seen = 0;
	int id = 0;
	socklen_t len = sizeof id;

	/* The device queue the datagram came through (the kernel marks the socket with it as the
	 * datagram is queued): busy polling needs one, and loopback has none (0). Once a run. */
	if (getsockopt(rx->fd, SOL_SOCKET, SO_INCOMING_NAPI_ID, &id, &len) == 0) {
		rx->napi_read = 1;
		rx->napi_id = (unsigned)id;
	}

	rx->first_ns = rx->last_ns = sys_mono_ns();
	rx->seen_at_clock = rx->received + 1; /* this datagram is about to be counted */
	atomic_compare_exchange_strong(&rx->sh->last_ns, &seen, rx->first_ns);
}

/* A reason that ends the whole run, not just this thread's socket. */
static void stop_all(struct rx *rx, enum rx_stop why)
{
	int none = 0;

	atomic_compare_exchange_strong(&rx->sh->stop, &none, (int)why);
	rx->done = why;
}

int rx_may_lock(const struct suck_cfg *cfg, const struct rx_shared *sh, const struct wire_hdr *h)
{
	unsigned i = 0;

	/* named runs: one of them; under a key also with its proof, which data and requests carry */
	while (i < cfg->nrun_ids && cfg->run_ids[i] != h->run_id)
		i++;
	if (cfg->nrun_ids && i == cfg->nrun_ids)
		return 0;
	/* and sent after suck started (or after the newest fin of a run it served): a recording of
	 * an earlier run, played again as it was, starts nothing */
	if (sh->key.set)
		return (h->type == WIRE_DATA || h->type == WIRE_REQ) && h->send_ns >= sh->fresh_ns &&
		       h->proof == wire_run_proof(sh->key.k, h->run_id);
	return 1;
}

int rx_lock(struct rx *rx, const struct wire_hdr *h)
{
	struct rx_shared *sh = rx->sh;
	uint64_t want = 1ull << 32 | h->run_id, cur = 0;

	if (!rx->have_run) {
		/* --serve: a late datagram of a run already reported names no new run; nor does one
		 * that cannot start a run (rx_may_lock) */
		if (!atomic_load(&sh->run) && ((sh->ndone && rx_finished(sh, h->run_id)) ||
					       !rx_may_lock(rx->cfg, sh, h))) {
			if (!rx->other_id)
				rx->other_id = h->run_id;
			return 0;
		}
		/* --run-id, or the first data datagram of any thread, decides the run; the others
		 * adopt it. */
		if (!atomic_compare_exchange_strong(&sh->run, &cur, want)) {
			want = cur;
		} else {
			uint64_t now = sys_mono_ns(); /* once a run */
			atomic_store(&sh->run_ns, now);
			if (rx->cfg->run_timeout_s > 0)
				atomic_store(&sh->lock_ns, now);
		}
		rx->run_id = (uint32_t)want;
		rx->have_run = 1;
		rx->proof = sh->key.set ? wire_run_proof(sh->key.k, rx->run_id) : 0;
	}
	if (h->run_id != rx->run_id) {
		if (!rx->other_id)
			rx->other_id = h->run_id;
		return 0;
	}
	return 1;
}

int rx_finished(const struct rx_shared *sh, uint32_t run_id)
{
	unsigned n = sh->ndone < RX_DONE_IDS ? sh->ndone : RX_DONE_IDS;

	for (unsigned i = 0; i < n; i++)
		if (sh->done_ids[i] == run_id)
			return 1;
	return 0;
}

/* Is the run stale now that h, of another run, arrived? Only a run without a believed fin
 * (one with fins is ending on its own), never a fixed one, and only for a run that may start:
 * a named one, a proven one under a key; with neither, a run quiet for --stale, as a
 * stranger's datagram or a killed blast leaves. */
static int stale_now(struct rx *rx, const struct wire_hdr *h)
{
	struct rx_shared *sh = rx->sh;

	uint64_t last = atomic_load(&sh->run_ns);

	/* a run with every fin in is ending on its own; one with some fins may still be stale (a
	 * flow's fin in, the rest of it killed) */
	if (!atomic_load(&sh->run) || atomic_load(&sh->drain))
		return 0;
	if (sh->ndone && rx_finished(sh, h->run_id))
		return 0;
	if (rx->cfg->nrun_ids || sh->key.set)
		return rx_may_lock(rx->cfg, sh, h);
	/* another thread may have seen the run after this thread's last check: not quiet */
	return rx->check_ns > last && rx->check_ns - last >= (uint64_t)(rx->cfg->stale_s * 1e9);
}

int rx_other(struct rx *rx, const struct wire_hdr *h, const uint8_t *buf, size_t len, const void *src)
{
	struct rx_shared *sh = rx->sh;
	uint64_t want = 1ull << 32 | h->run_id, next = atomic_load(&sh->next);

	if (next != want) {
		if (next || !stale_now(rx, h))
			return 0;
		if (!atomic_compare_exchange_strong(&sh->next, &next, want) && next != want)
			return 0;
		stop_all(rx, RX_STOP_STALE);
	}
	/* full: counted here as other_run, which the next run then reports lost */
	if (carry_add(rx->carry, buf, len, src, rx->stamp_ns, rx->mark) < 0)
		return 0;
	rx->received--;
	rx->bytes -= len;
	sizes_sub(&rx->sizes, len);
	rx->carried++;
	return 1;
}

void rx_feed(struct rx *rx, struct carry *c)
{
	struct carry *own = rx->carry;
	const uint8_t *buf;
	const void *src;
	size_t at = 0, len;

	_Static_assert(CARRY_SRC_LEN == RX_NAME_LEN, "carry holds a whole source address");
	rx->carry = NULL; /* what is fed is this run's, never carried again */
	uint64_t stamp;
	uint32_t mark;

	while ((buf = carry_next(c, &at, &len, &src, &stamp, &mark))) {
		rx->stamp_ns = stamp;
		rx->mark = mark;
		(void)rx_take_as(rx, buf, len, src, 1);
	}
	/* the replies (--echo) name sources in the carry: out before it can be written again */
	if (rx->echo)
		echo_flush(rx->echo, rx->fd);
	carry_clear(c);
	rx->carry = own;
}

int rx_claim(struct rx *rx, unsigned flow, const void *src)
{
	uint8_t none = 0;

	if (rx->mine[flow] == FLOW_UNKNOWN) {
		if (atomic_compare_exchange_strong(&rx->sh->owner[flow], &none, (uint8_t)(rx->id + 1))) {
			memcpy(rx->src[flow].b, src, RX_NAME_LEN);
			rx->mine[flow] = FLOW_MINE;
			return 1;
		}
		rx->mine[flow] = FLOW_OTHERS;
	}
	return 0;
}

/* Reads the clock; if datagrams arrived since the last read, the newest arrived by now. */
static uint64_t clock_read(struct rx *rx)
{
	uint64_t now = sys_mono_ns();

	if (rx->received != rx->seen_at_clock) {
		uint64_t seen = atomic_load(&rx->sh->last_ns);
		rx->last_ns = now;
		rx->seen_at_clock = rx->received;
		while (seen < now && !atomic_compare_exchange_weak(&rx->sh->last_ns, &seen, now))
			;
	}
	return now;
}

/* A fin of this run whose totals can be true: under a run key, a tag that only the key's
 * holder can make; at least as many datagrams as the flow's owner saw of it (the owner is the
 * only thread that tracks it), no more than any flow can send, bytes that can be that many
 * datagrams of the fin's size word, the same size word and number of flows as the first
 * believed fin.
 * A forged or garbled fin must not end the run or set sent. The size is the fins' word, never a
 * data datagram's: one datagram of another size sent first must not make the real fins lies. */
/* A fin's bytes against its size word (wire.h): one size, exactly sent x size; a size mix (its
 * smallest and largest, 32 <= min < max), between sent x min and sent x max. The bytes of the
 * datagrams lost are not known here: the exact check, when nothing was lost, is sizes_check's
 * at the end. No product can wrap: sent < 2^48, a size < 2^16. */
static int fin_bytes_can_be(const struct wire_fin *f)
{
	if (wire_size_mixed(f->size)) {
		unsigned min = wire_mix_min(f->size), max = wire_mix_max(f->size);
		return min >= WIRE_HDR_LEN && min < max && f->bytes >= f->sent * min && f->bytes <= f->sent * max;
	}
	return f->size >= WIRE_HDR_LEN && f->bytes == f->sent * f->size;
}

static int fin_believable(struct rx *rx, const uint8_t *buf, const struct wire_hdr *h, const struct wire_fin *f)
{
	struct rx_shared *sh = rx->sh;
	uint64_t run = atomic_load(&sh->run);
	unsigned flows = atomic_load(&sh->flows);
	uint32_t none = 0;

	if (sh->key.set) {
		if (wire_fin_tag(buf, sh->key.k) != f->tag) {
			rx->forged_fins++;
			rx->untagged_fins += !f->tag;
			return 0;
		}
		if (sh->ndone && rx_finished(sh, h->run_id))
			return 0; /* --serve: a repeat of a run already reported (other_run) */
		if (!rx_fin_fresh(sh, h)) {
			rx->forged_fins++;
			rx->stale_fins++;
			return 0;
		}
		/* A proven fin may name the run, even one that sent nothing (no data to lock on). */
		if (!run) {
			uint64_t want = 1ull << 32 | h->run_id;
			if (!atomic_compare_exchange_strong(&sh->run, &run, want))
				want = run;
			else if (rx->cfg->run_timeout_s > 0)
				atomic_store(&sh->lock_ns, sys_mono_ns());
			run = want;
		}
	}
	if (!run || h->run_id != (uint32_t)run)
		return 0;
	if (flows && f->flows != flows)
		return 0;
	if (f->sent > WIRE_SEQ_LIMIT || f->sent < rx->trk.flow[h->flow].next)
		return 0;
	if (!fin_bytes_can_be(f))
		return 0;
	return atomic_compare_exchange_strong(&sh->size, &none, f->size) || none == f->size;
}

int rx_fin(struct rx *rx, const uint8_t *buf, size_t len, const void *src)
{
	struct wire_hdr h;
	struct wire_fin f;
	struct rx_shared *sh = rx->sh;
	unsigned none = 0;
	uint64_t now;

	if (wire_get_fin(buf, len, &h, &f) < 0)
		return 0;
	if (!fin_believable(rx, buf, &h, &f)) {
		/* --serve: a repeated fin of a run already reported is a datagram of another run */
		if (sh->ndone && h.run_id != (uint32_t)atomic_load(&sh->run) && rx_finished(sh, h.run_id))
			rx->other_run++;
		return 0;
	}
	/* Only the flow's source may end it; a fin for a flow nobody has seen claims it. */
	if (rx->mine[h.flow] != FLOW_MINE || !rx_name_eq(&rx->src[h.flow], src)) {
		if (!rx_claim(rx, h.flow, src))
			return 0;
	}
	if (!atomic_compare_exchange_strong(&sh->flows, &none, f.flows) && none != f.flows)
		return 0;
	for (uint64_t seen = atomic_load(&sh->fin_ns); seen < h.send_ns &&
	     !atomic_compare_exchange_weak(&sh->fin_ns, &seen, h.send_ns);)
		;
	now = clock_read(rx);
	if (!seq_fin(&rx->trk, h.flow, f.sent, f.bytes, f.duration_ns, f.flows))
		return 1;
	if (atomic_fetch_add(&sh->fins, 1) + 1 >= f.flows && !atomic_load(&sh->drain)) {
		atomic_store(&sh->drain, 1);
		rx->flags |= MSG_DONTWAIT;
		rx->drain_ns = now;
	}
	return 1;
}

/* From the first -i interval on, every thread adds what it received since into the shared
 * counts; thread 0 does so once an interval and has the line printed from the totals, the
 * others at every check, so that the totals are at most one check behind them. */
static void progress(struct rx *rx, uint64_t now)
{
	struct rx_shared *sh = rx->sh;
	uint64_t every = (uint64_t)(rx->cfg->interval_s * 1e9);
	struct suck_counts c;
	uint64_t foreign = rx->hooks ? rx->hooks->foreign(rx) : rx->foreign; /* --senders: the runs' too */

	atomic_fetch_add(&sh->received, rx->received - rx->progress_received);
	atomic_fetch_add(&sh->foreign, foreign - rx->progress_foreign);
	rx->progress_received = rx->received;
	rx->progress_foreign = foreign;
	if (rx->jit) {
		uint64_t jsum;
		unsigned jflows;
		jitter_now(rx->jit, rx->trk.flows_seen, &jsum, &jflows);
		atomic_fetch_add(&sh->jit_sum, jsum - rx->jit_sum);
		atomic_fetch_add(&sh->jit_flows, jflows - rx->jit_flows);
		rx->jit_sum = jsum;
		rx->jit_flows = jflows;
	}
	if (rx->id != 0)
		return;
	c.received = atomic_load(&sh->received);
	c.foreign = atomic_load(&sh->foreign);
	c.kernel_drops = rx->cfg->threads == 1 || rx->cfg->one_socket ? rx_drops(rx) : -1; /* one socket */
	c.fins = atomic_load(&sh->fins);
	c.jitter_us = -1;
	if (rx->jit && atomic_load(&sh->jit_flows))
		c.jitter_us = (double)atomic_load(&sh->jit_sum) / atomic_load(&sh->jit_flows) / 1e3;
	suck_progress_line(&rx->prog, now, &c);
	rx->next_progress_ns += every;
	if (rx->next_progress_ns <= now) /* after a stall: no burst of catch-up lines */
		rx->next_progress_ns = now + every;
}

/* The checks shared by rx_batch and rx_idle, at most once per batch or tick. */
static void check(struct rx *rx, uint64_t now)
{
	const struct suck_cfg *cfg = rx->cfg;
	uint64_t own = rx->received - rx->foreign - rx->truncated;

	/* when the run last took a datagram of its own: what says a run without fins is stale */
	if (own != rx->own_seen) {
		uint64_t seen = atomic_load(&rx->sh->run_ns);
		rx->own_seen = own;
		while (seen < now && !atomic_compare_exchange_weak(&rx->sh->run_ns, &seen, now))
			;
	}

	if (sys_stop)
		stop_all(rx, RX_STOP_SIGNAL);
	else if (cfg->time_s > 0 && now - (rx->sh->serve_ns ? rx->sh->serve_ns : rx->start_ns) >=
		 (uint64_t)(cfg->time_s * 1e9))
		stop_all(rx, RX_STOP_TIME);
	else if (cfg->run_timeout_s > 0 && atomic_load(&rx->sh->lock_ns) &&
		 now - atomic_load(&rx->sh->lock_ns) >= (uint64_t)(cfg->run_timeout_s * 1e9))
		stop_all(rx, RX_STOP_RUN_TIMEOUT);
	else if (atomic_load(&rx->sh->stop))
		rx->done = (enum rx_stop)atomic_load(&rx->sh->stop);
	if (rx->hooks)
		rx->hooks->check(rx, now);
	if (rx->drain_ns == 0 && atomic_load(&rx->sh->drain)) {
		rx->flags |= MSG_DONTWAIT;
		rx->drain_ns = now;
	}
	if (rx->drain_ns && now - rx->drain_ns >= RX_DRAIN_NS && !rx->done)
		rx->done = RX_STOP_FIN;
	if (rx->next_progress_ns && now >= rx->next_progress_ns)
		progress(rx, now);
}

/* How many datagrams to take between checks: as many as fit in RX_CHECK_NS at the pace just
 * seen, at most RX_FLUSH. Quick work settles at RX_FLUSH (one clock read per 64 datagrams, or
 * per batch call); work that takes longer than RX_CHECK_NS a datagram checks after each one,
 * so -t and signals are seen within one datagram's work. */
static void pace_checks(struct rx *rx, uint64_t now)
{
	uint64_t dt = now - rx->check_ns;

	/* One datagram since the last check says nothing: the time may have gone in waiting for
	 * it (a batch call blocks for the first datagram), not in the work. */
	if (rx->since_check > 1 && dt > RX_CHECK_NS)
		rx->check_every = rx->since_check / 2;
	else if (rx->since_check >= rx->check_every && dt < RX_CHECK_NS / 2 && rx->check_every < RX_FLUSH)
		rx->check_every *= 2;
	rx->check_ns = now;
	rx->since_check = 0;
}

void rx_batch(struct rx *rx)
{
	uint64_t now = clock_read(rx);

	pace_checks(rx, now);
	check(rx, now);
}

void rx_idle(struct rx *rx)
{
	uint64_t now = clock_read(rx);

	rx->check_ns = now;
	rx->since_check = 0;
	check(rx, now);
	if (rx->done)
		return;
	if (rx->drain_ns) {
		rx->done = RX_STOP_FIN; /* the queue is empty after the last fin */
		return;
	}
	/* Idle means no datagram on any thread's socket: one thread may see no traffic at all. */
	uint64_t last = atomic_load(&rx->sh->last_ns);
	if (rx->cfg->idle_s > 0 && last && now > last && now - last >= (uint64_t)(rx->cfg->idle_s * 1e9))
		stop_all(rx, RX_STOP_IDLE);
}

void rx_foreign(struct rx *rx, const uint8_t *buf, size_t len)
{
	if (!rx->first_ns)
		rx_first(rx);
	rx->received++;
	rx->bytes += len;
	sizes_add(&rx->sizes, len);
	rx->foreign++;
	work_run(&rx->work, buf, len < rx->cfg->bufsize ? len : rx->cfg->bufsize);
	if (++rx->since_check >= rx->check_every)
		rx_batch(rx);
}

int64_t rx_drops(struct rx *rx)
{
	const struct variant *v = rx->cfg->variant;

	return v && v->drops ? v->drops(rx) : net_drops(rx->fd);
}

void rx_recv_failed(struct rx *rx, int err, const char *call)
{
	if (err == EINTR || err == EAGAIN || err == EWOULDBLOCK) {
		rx->idle_calls++;
		rx_idle(rx);
		return;
	}
	rx_failed(rx, call, err);
}

void rx_failed(struct rx *rx, const char *call, int err)
{
	sys_error_set(&rx->error, call, err);
	stop_all(rx, RX_STOP_ERROR);
}
