/* xdp: blast --via xdp, the mode_xdp row (mode.h): the frames --via packet builds (packet.c:
 * the path, Ethernet, IP and UDP headers, the checksums, blast's header and payload) sent
 * through an AF_XDP socket (common/xsk.c: a UMEM, a TX ring, a completion ring; no RX ring and
 * no XDP program) bound to queue i of the path's device for flow i; zero-copy where the driver
 * has it, else copy (veth). Every UMEM frame is made a whole data frame once, at setup, with
 * its checksum's constant part kept; a batch (-b) takes free frames, stamps each (sequence,
 * send time, checksum), writes a descriptor each and publishes them with one release store,
 * then kicks the kernel (sendto) when the ring's XDP_RING_NEED_WAKEUP says so, and always in
 * copy mode, where only a sendto sends (6.18 keeps the flag set there anyway). The kernel hands each frame back through the
 * completion ring once its skb is gone (copy) or the device sent it (zero-copy); those frames
 * are free again. The fins go the same way, repeated as the UDP path repeats them.
 *
 * The accounting: at every moment frames submitted == completed + outstanding (in the TX ring,
 * or taken and not yet completed). A descriptor cannot be taken back once published, so a
 * flow's `sent` is its data frames submitted and `fins` its fin frames submitted; at the end
 * of each phase the flow kicks and waits up to XT_SETTLE_NS for the rest to complete, and what
 * did not is reported as outstanding (tx_outstanding). A flow with no free frame waits
 * (ring_full, the TX ring full: every frame is in it or in flight), in short sleeps, at most
 * XT_STALL_NS; a kick that moved nothing is a refusal (ring_refused, its errno in errors).
 *
 * Pitfalls: copy mode's sendto sends at most 32 descriptors (the kernel's TX budget) and then
 * says EAGAIN: a batch may take several kicks, and EAGAIN after progress is no refusal. EBUSY
 * means the device dropped a frame (NET_XMIT_DROP: a veth whose peer's backlog is full): it is
 * completed, not sent; counted in errors, its datagram lost at suck. A descriptor the kernel
 * finds invalid is consumed and never completed (tx_invalid_descs): blast writes none, every
 * frame's length fits its chunk (packet_prepare checks -s). The queue must exist for TX: copy
 * mode sends nothing on a queue at or above the device's TX queues, so -j is checked against
 * them. */
#include <errno.h>
#include <linux/if_xdp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "blast.h"
#include "mode.h"
#include "sys.h"
#include "wire.h"
#include "xsk.h"

#define XT_FRAMES      2048          /* UMEM frames a flow, and TX and completion ring entries */
#define XT_KICKS       64            /* kicks a flush makes at most (32 descriptors each in copy mode) */
#define XT_STALL_NS    2000000000ull /* no frame completed this long ends the flow */
#define XT_SETTLE_NS   1000000000ull /* the end of a phase: completions waited for this long */
#define XT_NAP_NS      50000         /* a wait's sleep */

/* One flow's socket. */
struct xtx {
	struct xsk x;
	int port_fd;            /* packet_port's: the source port, its ICMP errors */
	uint16_t sport;
	uint32_t *base;         /* per UMEM frame: its data frame's UDP checksum sum without seq, time */
	uint64_t *free;         /* free frames' UMEM addresses, a stack */
	unsigned nfree;
	unsigned len;           /* a data frame's length */
	uint32_t tx_prod;       /* the TX ring's producer, ours until published */
	uint32_t comp_cons;     /* the completion ring's consumer */
	uint64_t submitted, completed, data; /* frames published, frames completed, data published */
	uint64_t ring_full;     /* waits for a free frame */
	uint64_t refused;       /* kicks that moved nothing */
	int kick_always;        /* copy mode: only a sendto sends */
	int fin_phase;          /* the fins' kicks are not in calls nor their refusals in errors */
};

static const struct pkt_path *path;
static const char *mode_name; /* "copy" or "zerocopy": the probe's, then flow 0's */

static unsigned frame_size(const struct blast_cfg *cfg, const struct pkt_path *p)
{
	unsigned len = p->hdr_len + (cfg->size > WIRE_FIN_LEN ? cfg->size : WIRE_FIN_LEN);

	return len <= 2048 ? 2048 : XT_FRAME_MAX;
}

int xdptx_probe(const struct blast_cfg *cfg)
{
	const struct pkt_path *p = packet_path();
	struct xsk x;
	const char *call = "";
	unsigned q;

	if (!p) {
		fprintf(stderr, "blast: --via xdp: no path (packet_prepare first)\n");
		return 1;
	}
	q = xsk_dev_tx_queues(p->dev, p->ifindex); /* 0: not counted (another namespace's sysfs) */
	if (q && cfg->flows > q) {
		fprintf(stderr, "blast: -j %u with --via xdp on %s: a flow sends on a TX queue of its own and %s "
			"has %u; accepted: -j %u or less\n", cfg->flows, p->dev, p->dev, q, q);
		return 2;
	}
	if (xsk_open_tx(&x, p->ifindex, 0, 64, frame_size(cfg, p), &call) < 0) {
		int e = errno;
		xsk_close(&x);
		fprintf(stderr, "blast: --via xdp: %s on %s queue 0: %s%s\n", call, p->dev, strerror(e),
			e == EBUSY ? " (another AF_XDP socket has the queue)" :
			e == ENOMEM || e == ENOBUFS ? " (the UMEM is pinned: RLIMIT_MEMLOCK)" : "");
		return e == EOPNOTSUPP || e == EAFNOSUPPORT || e == EPROTONOSUPPORT || e == EPERM ? 4 : 1;
	}
	mode_name = x.zerocopy ? "zerocopy" : "copy";
	xsk_close(&x);
	return 0;
}

const char *xdptx_mode(void)
{
	return mode_name;
}

static void xt_free(struct flow *f)
{
	struct xtx *t = f->xtx;

	if (!t)
		return;
	xsk_close(&t->x);
	if (t->port_fd >= 0)
		close(t->port_fd);
	free(t->base);
	free(t->free);
	free(t);
	f->xtx = NULL;
}

static int xt_setup(struct flow *f)
{
	const struct blast_cfg *cfg = f->cfg;
	struct xtx *t;
	const char *call;
	unsigned frame;

	if (!(path = packet_path())) {
		errno = ENODEV; /* packet_prepare first */
		return -1;
	}
	if (!(t = f->xtx = calloc(1, sizeof *t)))
		return -1;
	t->x.fd = t->port_fd = -1;
	f->segs = 1;
	f->batch = cfg->batch < XT_FRAMES / 2 ? cfg->batch : XT_FRAMES / 2;
	call = "the source port's UDP socket";
	if ((t->port_fd = packet_port(cfg, &t->sport)) < 0)
		goto fail;
	frame = frame_size(cfg, path);
	if (xsk_open_tx(&t->x, path->ifindex, f->id, XT_FRAMES, frame, &call) < 0)
		goto fail;
	call = "calloc";
	t->base = calloc(XT_FRAMES, sizeof *t->base);
	t->free = calloc(XT_FRAMES, sizeof *t->free);
	if (!t->base || !t->free)
		goto fail;
	if (f->id == 0)
		mode_name = t->x.zerocopy ? "zerocopy" : "copy";
	t->kick_always = !t->x.zerocopy;
	t->tx_prod = *t->x.tx.producer;
	t->comp_cons = *t->x.comp.consumer;
	/* Every frame a whole data frame, as packet.c's ring frames; the stack pops frame 0 first. */
	struct wire_hdr h = { .type = WIRE_DATA, .flow = (uint16_t)f->id, .run_id = cfg->run_id,
			      .proof = cfg->key.set ? wire_run_proof(cfg->key.k, cfg->run_id) : 0 };
	for (unsigned i = 0; i < XT_FRAMES; i++) {
		uint8_t *fr = t->x.umem + (size_t)i * frame, *udp = fr + path->hdr_len - 8;
		t->len = (unsigned)pkt_headers(path, fr, t->sport, cfg->size) + cfg->size;
		fill_payload(cfg, udp + 8, cfg->size);
		if (!cfg->raw)
			wire_put_hdr(udp + 8, &h);
		t->base[i] = pkt_udp_base(path, udp) + (uint32_t)path->test_badsum;
		if (cfg->raw)
			pkt_udp_csum(path, udp);
		t->free[XT_FRAMES - 1 - i] = (uint64_t)i * frame;
	}
	t->nfree = XT_FRAMES;
	return 0;
fail:
	fprintf(stderr, "blast: --via xdp: flow %u: %s on %s queue %u: %s\n", f->id, call, path->dev, f->id,
		strerror(errno));
	return -1;
}

static void xt_fail(struct flow *f, const char *call, int e)
{
	sys_error_set(&f->error, call, e);
	f->stop = BLAST_STOP_ERROR;
}

/* The completions: their frames free again. */
static inline void xt_reap(struct xtx *t)
{
	uint32_t prod = __atomic_load_n(t->x.comp.producer, __ATOMIC_ACQUIRE), n = prod - t->comp_cons;
	const uint64_t *ring = t->x.comp.desc;

	if (!n)
		return;
	for (uint32_t i = 0; i < n && t->nfree < XT_FRAMES; i++)
		t->free[t->nfree++] = ring[(t->comp_cons + i) & t->x.comp.mask];
	t->comp_cons = prod;
	__atomic_store_n(t->x.comp.consumer, prod, __ATOMIC_RELEASE);
	t->completed += n;
}

static inline void xt_publish(struct xtx *t)
{
	__atomic_store_n(t->x.tx.producer, t->tx_prod, __ATOMIC_RELEASE);
}

/* Kicks until the kernel has taken every published descriptor, a kick takes none (a refusal)
 * or XT_KICKS kicks; then takes the completions. */
static void xt_flush(struct flow *f)
{
	struct xtx *t = f->xtx;

	for (unsigned k = 0; k < XT_KICKS; k++) {
		uint32_t before = __atomic_load_n(t->x.tx.consumer, __ATOMIC_ACQUIRE), after;
		ssize_t r;
		int e;

		if (before == t->tx_prod)
			break;
		if (!t->kick_always && !(__atomic_load_n(t->x.tx.flags, __ATOMIC_ACQUIRE) & XDP_RING_NEED_WAKEUP))
			break; /* zero-copy: the driver is sending on its own */
		r = sendto(t->x.fd, NULL, 0, MSG_DONTWAIT, NULL, 0);
		e = errno;
		f->calls += !t->fin_phase;
		after = __atomic_load_n(t->x.tx.consumer, __ATOMIC_ACQUIRE);
		if (r < 0 && (e == EBUSY || after == before) && e != EINTR && !t->fin_phase) {
			f->errors++;
			f->err_by[e < BLAST_ERRNOS ? e : 0]++;
		}
		if (r < 0 && e != EAGAIN && e != EBUSY && e != ENOBUFS && e != ENOMEM && e != EINTR) {
			xt_fail(f, "sendto (AF_XDP TX)", e);
			break;
		}
		if (after == before) {
			t->refused++;
			break;
		}
	}
	xt_reap(t);
}

static void nap(void)
{
	struct timespec ts = { .tv_nsec = XT_NAP_NS };

	nanosleep(&ts, NULL);
}

/* Waits for a free frame: kicks what is published, takes completions, sleeps briefly. 0, or -1
 * when the flow stops: a signal (stoppable), until passed (0: none), no completion for
 * XT_STALL_NS, an error. */
static int xt_wait(struct flow *f, uint64_t until, int stoppable)
{
	struct xtx *t = f->xtx;
	uint64_t t0 = sys_mono_ns(), now, done = t->completed;

	t->ring_full++;
	xt_publish(t);
	for (;;) {
		xt_flush(f);
		if (f->stop == BLAST_STOP_ERROR)
			return -1;
		if (t->nfree)
			return 0;
		nap();
		now = sys_mono_ns();
		if (stoppable && sys_stop) {
			f->stop = BLAST_STOP_SIGNAL;
			return -1;
		}
		if (until && now >= until)
			return -1;
		if (t->completed != done) {
			done = t->completed;
			t0 = now;
		} else if (now - t0 >= XT_STALL_NS) {
			xt_fail(f, "sendto (AF_XDP TX: no frame completed in 2 s)", ETIMEDOUT);
			return -1;
		}
	}
}

/* Stamps want data frames with seq and send_ns and publishes them; the frames submitted, fewer
 * when the flow stops while waiting for a free one. */
static unsigned xt_fill(struct flow *f, unsigned want, uint64_t send_ns, uint64_t deadline)
{
	const struct blast_cfg *cfg = f->cfg;
	struct xtx *t = f->xtx;
	struct xdp_desc *ring = t->x.tx.desc;
	const size_t udp_off = path->hdr_len - 8;
	const unsigned shift = t->x.frame == 2048 ? 11 : 12;
	unsigned d;

	if (t->nfree < want)
		xt_reap(t);
	for (d = 0; d < want; d++) {
		if (!t->nfree && xt_wait(f, deadline, 1) < 0)
			break;
		uint64_t addr = t->free[--t->nfree];
		struct xdp_desc *desc = &ring[t->tx_prod & t->x.tx.mask];
		if (!cfg->raw)
			pkt_stamp(t->x.umem + addr + udp_off, t->base[addr >> shift], t->data, send_ns);
		desc->addr = addr;
		desc->len = t->len;
		desc->options = 0;
		t->tx_prod++;
		t->data++;
		t->submitted++;
	}
	if (d)
		xt_publish(t);
	return d;
}

/* The end of a phase: kicks and takes completions until every frame submitted is completed,
 * at most XT_SETTLE_NS; what is left is outstanding. */
static void xt_settle(struct flow *f)
{
	struct xtx *t = f->xtx;
	uint64_t t0 = sys_mono_ns();

	xt_publish(t);
	while (t->completed < t->submitted && f->stop != BLAST_STOP_ERROR && sys_mono_ns() - t0 < XT_SETTLE_NS) {
		xt_flush(f);
		if (t->completed < t->submitted)
			nap();
	}
}

/* The fins, repeated as the UDP path repeats them (send.c): with a growing gap until the
 * receiver is gone (an ICMP port unreachable on the port's socket) or --fin-time has passed. */
static void xt_fins(struct flow *f, uint64_t duration_ns)
{
	const struct blast_cfg *cfg = f->cfg;
	struct xtx *t = f->xtx;
	struct xdp_desc *ring = t->x.tx.desc;
	struct wire_hdr h = { .flow = (uint16_t)f->id, .run_id = cfg->run_id, .send_ns = sys_real_ns() };
	struct wire_fin fin = { .sent = f->sent, .bytes = f->bytes, .duration_ns = duration_ns,
				.flows = (uint16_t)cfg->flows, .size = mix_fin_size(cfg) };
	uint8_t buf[WIRE_FIN_LEN];
	uint64_t t0, gap = 1000000, fin_ns = (uint64_t)(cfg->fin_time_s * 1e9);

	wire_put_fin(buf, &h, &fin, cfg->key.set ? cfg->key.k : NULL);
	t->fin_phase = 1;
	packet_refused(t->port_fd); /* an earlier refusal (suck not there yet) is not this one's */
	t0 = sys_mono_ns();
	for (;;) {
		if (!t->nfree)
			xt_reap(t);
		if (!t->nfree && xt_wait(f, t0 + fin_ns, 0) < 0)
			break;
		uint64_t addr = t->free[--t->nfree];
		uint8_t *data = t->x.umem + addr;
		size_t hl = pkt_headers(path, data, t->sport, WIRE_FIN_LEN);
		memcpy(data + hl, buf, WIRE_FIN_LEN);
		pkt_udp_csum(path, data + hl - 8);
		ring[t->tx_prod & t->x.tx.mask] = (struct xdp_desc){ .addr = addr, .len = (uint32_t)(hl + WIRE_FIN_LEN) };
		t->tx_prod++;
		t->submitted++;
		xt_publish(t);
		xt_flush(f);
		f->fins = t->submitted - t->data;
		if (f->stop == BLAST_STOP_ERROR || packet_refused(t->port_fd))
			break;
		if (sys_mono_ns() - t0 >= fin_ns)
			break;
		struct timespec ts = { .tv_sec = 0, .tv_nsec = (long)gap };
		nanosleep(&ts, NULL);
		gap = gap * 2 < 250000000 ? gap * 2 : 250000000;
	}
	xt_settle(f);
	f->fins = t->submitted - t->data;
}

static uint64_t xt_data(const struct flow *f) { return f->xtx->data; }
static int xt_wait_all(struct flow *f)
{
	int waited = f->xtx->completed < f->xtx->submitted;

	if (waited)
		xt_settle(f);
	return waited;
}
static int xt_fins_ok(const struct flow *f) { return f->stop != BLAST_STOP_ERROR; }

static const struct ring_ops xt_ops = { xt_fill, xt_flush, xt_data, xt_data, xt_wait_all, xt_fins_ok,
					 xt_fins };

static void xt_run(struct flow *f)
{
	ring_run(f, &xt_ops);
}

const struct send_mode mode_xdp = {
	.name = "xdp",
	.what = "--via xdp: the same frames through an AF_XDP socket's TX ring, one kick a batch",
	.socket = 0,
	.setup = xt_setup,
	.run = xt_run,
	.free = xt_free,
};

void xdptx_report(struct report *r, const struct flow *fs, unsigned n)
{
	uint64_t frames = 0, full = 0, refused = 0, outstanding = 0;

	for (unsigned i = 0; i < n; i++)
		if (fs[i].xtx) {
			frames += fs[i].xtx->completed;
			full += fs[i].xtx->ring_full;
			refused += fs[i].xtx->refused;
			outstanding += fs[i].xtx->submitted - fs[i].xtx->completed;
		}
	packet_report_frames(r, 1, frames, outstanding, full, refused);
}
