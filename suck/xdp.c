/* xdp: receive beneath the socket, through an AF_XDP socket per receive queue (common/xsk.c).
 * An XDP program on the device (written as BPF instructions, no compiler) sends UDP for
 * suck's address and port to the socket of the queue it came in on and passes everything else
 * (ARP, ICMP, other ports, neighbour discovery) on to the stack. The kernel copies each frame
 * into a frame of the UMEM (copy mode; none with --xdp-zc where the driver can) and posts a
 * descriptor on the RX ring; this loop takes a batch of descriptors, finds the UDP datagram in
 * each frame (frame.c), hands it to rx as every variant does, and gives the frames back to the
 * fill ring. No system call while the ring has frames: poll(2) only to wait when it is empty
 * (never with --spin), and recvfrom(2) only to wake the driver when the kernel asks
 * (XDP_RING_NEED_WAKEUP on the fill ring; zero-copy drivers set it, copy mode never does).
 *
 * The program is attached with a BPF link held by suck's fd, so it goes from the device when
 * suck ends, however it ends (SIGKILL included); where the kernel has no XDP links (before
 * 5.9), with netlink, detached at teardown and at exit (a SIGKILL then leaves it attached).
 * suck's UDP socket stays bound beside: it holds the port (-p 0 picks it), and what the
 * program passes to the stack for that port (an IPv4 fragment or options, IPv6 extension
 * headers, a queue beyond -j) lands there unread, lost in elsewhere.
 *
 * Exit 4 where it cannot run: loopback and any device without native XDP (generic XDP would
 * run after the kernel built the socket buffer, which is the cost this variant is there to
 * show without), no AF_XDP or BPF in the kernel, no privilege, zero-copy not offered. The
 * test hook BS_XDP_TEST (docs/testing.md): "refuse" loads a program the verifier must refuse,
 * "netlink" attaches the pre-link way. */
#include <err.h>
#include <errno.h>
#include <linux/if_link.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef SO_INCOMING_NAPI_ID
#define SO_INCOMING_NAPI_ID 56
#endif

#include "bpf.h"
#include "frame.h"
#include "variant.h"
#include "xsk.h"

#define XDP_LOG (64 * 1024) /* the verifier's log of a refusal: a program this size needs little */

/* What the receive threads share, made by thread 0's setup: the device, the program, the map
 * of sockets by queue, the link. */
static struct {
	int map, prog, link;       /* fds; -1 none */
	int netlink;               /* attached with netlink: detach at teardown, or at exit */
	unsigned ifindex;
	char dev[IF_NAMESIZE];
	struct xsk_match m;
	char mech[IF_NAMESIZE + 32];
} g = { .map = -1, .prog = -1, .link = -1 };

struct xdp_rx {
	struct xsk x;
	uint32_t rx_cons, fill_prod; /* this side's ring indices; the kernel's copies are released */
	int napi_done;
};

static void detach(void)
{
	if (g.link >= 0)
		close(g.link); /* the link's last reference: the kernel detaches the program */
	g.link = -1;
	if (g.netlink && bpf_xdp_netlink(g.ifindex, -1, XDP_FLAGS_DRV_MODE) < 0)
		warn("-m xdp: detaching the XDP program from %s (netlink)", g.dev);
	g.netlink = 0;
	if (g.prog >= 0)
		close(g.prog);
	if (g.map >= 0)
		close(g.map);
	g.prog = g.map = -1;
}

static void detach_at_exit(void)
{
	if (g.netlink)
		detach();
}

/* errno of a call that asks for privilege or a kernel feature: exit 4 for those, 1 else. Every
 * caller has said why (the call and its errno), so no more is said: VARIANT_NOT_HERE. */
static int refused(int e)
{
	return e == EPERM || e == EACCES || e == ENOSYS || e == EAFNOSUPPORT || e == EOPNOTSUPP ||
	       e == EPROTONOSUPPORT ? VARIANT_NOT_HERE : -1;
}

/* The device: --xdp-dev, or the one that holds the bound address. */
static int find_dev(struct rx *rx, const struct net_addr *bound)
{
	const struct suck_cfg *cfg = rx->cfg;
	struct ifreq ifr;

	if (cfg->xdp_dev) {
		snprintf(g.dev, sizeof g.dev, "%s", cfg->xdp_dev);
	} else if (xsk_dev_of(bound, g.dev) < 0) {
		if (errno == EINVAL)
			warnx("-m xdp: -a %s is every device's address: name the receiving device with --xdp-dev",
			      cfg->addr);
		else
			warnx("-m xdp: -a %s: no device here holds it: name one with --xdp-dev", cfg->addr);
		return VARIANT_USAGE;
	}
	if (!(g.ifindex = if_nametoindex(g.dev))) {
		warnx("-m xdp: --xdp-dev %s: no such device here", g.dev);
		return VARIANT_USAGE;
	}
	memset(&ifr, 0, sizeof ifr);
	snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", g.dev);
	if (ioctl(rx->fd, SIOCGIFFLAGS, &ifr) == 0 && (ifr.ifr_flags & IFF_LOOPBACK)) {
		warnx("-m xdp: %s is the loopback device, which has no native XDP (a wire path has: "
		      "scripts --wire, or a veth or NIC with --xdp-dev)", g.dev);
		errno = EOPNOTSUPP;
		return VARIANT_NOT_HERE;
	}
	return 0;
}

/* Thread 0: the device, the map, the program, the link. 0, or what setup returns. */
static int attach(struct rx *rx)
{
	const struct suck_cfg *cfg = rx->cfg;
	const char *test = getenv("BS_XDP_TEST");
	static struct bpf_insn insn[BPF_ASM_MAX];
	static char log[XDP_LOG];
	struct net_addr bound;
	unsigned queues, entries;
	int st, n, v6only = 0;
	socklen_t len = sizeof v6only;

	if (net_local(rx->fd, &bound) < 0)
		return -1;
	if ((st = find_dev(rx, &bound)))
		return st;
	queues = xsk_dev_queues(g.dev, g.ifindex);
	if (queues && cfg->threads > queues) {
		warnx("-j %u: %s has %u receive queue%s: -m xdp takes one queue per thread, 1..%u",
		      cfg->threads, g.dev, queues, queues == 1 ? "" : "s", queues);
		return VARIANT_USAGE;
	}
	if (queues > cfg->threads && !cfg->check)
		fprintf(stderr, "suck: warning: %s has %u receive queues and -j %u takes the first %u: "
			"datagrams on the others pass to the stack, unread (elsewhere)\n",
			g.dev, queues, cfg->threads, cfg->threads);
	xsk_match_of(&bound, g.ifindex, &g.m);
	if (g.m.family == AF_INET6 && g.m.v4 && g.m.v6 &&
	    getsockopt(rx->fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, &len) == 0 && v6only)
		g.m.v4 = g.m.any4 = 0;

	entries = queues > cfg->threads ? queues : cfg->threads;
	if ((g.map = bpf_map_new(BPF_MAP_TYPE_XSKMAP, 4, 4, entries, "suck_xsks")) < 0) {
		int e = errno;
		warn("-m xdp: bpf BPF_MAP_CREATE of an XSKMAP%s", e == EPERM ? " (needs root: CAP_BPF and "
		     "CAP_NET_ADMIN)" : e == EINVAL ? " (a kernel without AF_XDP)" : "");
		errno = e;
		return refused(e) == VARIANT_NOT_HERE || e == EINVAL ? VARIANT_NOT_HERE : -1;
	}
	if ((n = xsk_prog(&g.m, g.map, test && !strcmp(test, "refuse"), insn)) < 0)
		return -1;
	if ((g.prog = bpf_prog_new(BPF_PROG_TYPE_XDP, insn, (unsigned)n, "suck_xdp", log, sizeof log)) < 0) {
		int e = errno;
		if (e == EPERM) {
			warn("-m xdp: bpf BPF_PROG_LOAD");
			return VARIANT_NOT_HERE;
		}
		/* A refusal is a fault of this program or of an old verifier: said in full. */
		fprintf(stderr, "suck: -m xdp: the verifier refused the XDP program (bpf BPF_PROG_LOAD: %s); "
			"the verifier's log:\n%s%s", strerror(e), log, log[0] && log[strlen(log) - 1] != '\n' ? "\n" : "");
		errno = e;
		return -1;
	}
	if (test && !strcmp(test, "netlink")) {
		errno = EINVAL; /* as a kernel without XDP links answers */
		g.link = -1;
	} else {
		g.link = bpf_xdp_link(g.prog, g.ifindex, XDP_FLAGS_DRV_MODE);
	}
	if (g.link < 0 && errno == EINVAL) {
		if (bpf_xdp_netlink(g.ifindex, g.prog, XDP_FLAGS_DRV_MODE | XDP_FLAGS_UPDATE_IF_NOEXIST) == 0) {
			g.netlink = 1;
			atexit(detach_at_exit);
		}
	}
	if (g.link < 0 && !g.netlink) {
		int e = errno;
		if (e == EOPNOTSUPP) {
			warnx("-m xdp: %s has no native XDP (its driver's); generic XDP is not used: it runs after "
			      "the kernel built the socket buffer, which is what this variant goes without", g.dev);
			errno = e;
			return VARIANT_NOT_HERE;
		}
		if (e == EBUSY || e == EEXIST) {
			warnx("-m xdp: %s already has an XDP program (ip link show %s): suck does not replace it",
			      g.dev, g.dev);
			errno = e;
			return -1;
		}
		warn("-m xdp: attaching the XDP program to %s (bpf BPF_LINK_CREATE, netlink)", g.dev);
		errno = e;
		return refused(e);
	}
	return 0;
}

static int xdp_setup(struct rx *rx)
{
	struct xdp_rx *st = calloc(1, sizeof *st);
	const char *call = "";
	uint32_t key = rx->id;
	int r;

	rx->priv = st;
	if (!st)
		return -1;
	st->x.fd = -1;
	if (rx->id == 0 && (r = attach(rx)))
		return r;
	if (xsk_open(&st->x, g.ifindex, rx->id, rx->cfg->xdp_zc, &call) < 0) {
		int e = errno;
		if (rx->cfg->xdp_zc && (e == EOPNOTSUPP || e == EINVAL))
			warnx("-m xdp --xdp-zc: %s does not offer zero-copy AF_XDP (%s: %s)", g.dev, call, strerror(e));
		else
			warn("-m xdp: %s on %s queue %u", call, g.dev, rx->id);
		errno = e;
		return rx->cfg->xdp_zc && e == EINVAL ? VARIANT_NOT_HERE : refused(e);
	}
	if (bpf_map_put(g.map, &key, &st->x.fd) < 0) {
		warn("-m xdp: bpf BPF_MAP_UPDATE_ELEM of queue %u's socket", rx->id);
		return -1;
	}
	st->rx_cons = *st->x.rx.consumer;
	st->fill_prod = *st->x.fill.producer;
	if (rx->id == 0)
		snprintf(g.mech, sizeof g.mech, "%s:%s,%s", g.dev, st->x.zerocopy ? "zerocopy" : "copy",
			 g.netlink ? "netlink" : "link");
	rx->mech = g.mech;
	return 0;
}

static void xdp_run(struct rx *rx)
{
	struct xdp_rx *st = rx->priv;
	struct xsk *x = &st->x;
	const struct xdp_desc *desc = x->rx.desc;
	uint64_t *fill = x->fill.desc;
	const uint32_t rmask = x->rx.mask, fmask = x->fill.mask, batch = rx->cfg->batch;
	struct pollfd pfd = { .fd = x->fd, .events = POLLIN };
	struct frame_udp d;

	while (!rx->done) {
		uint32_t n = __atomic_load_n(x->rx.producer, __ATOMIC_ACQUIRE) - st->rx_cons, i;

		if (n == 0) {
			/* Only zero-copy drivers sleep and ask to be woken; copy mode runs in the
			 * device's NAPI poll, which needs no kick. */
			if (__atomic_load_n(x->fill.flags, __ATOMIC_RELAXED) & XDP_RING_NEED_WAKEUP &&
			    (rx->flags & MSG_DONTWAIT)) {
				rx->calls++;
				rx->idle_calls++;
				recvfrom(x->fd, NULL, 0, MSG_DONTWAIT, NULL, NULL);
			}
			if (rx->flags & MSG_DONTWAIT) {
				/* --spin, or the drain after the last fin: look again, no wait */
				rx_idle(rx);
				continue;
			}
			rx->calls++;
			int r = poll(&pfd, 1, RX_TICK_MS);
			if (r <= 0)
				rx_recv_failed(rx, r < 0 ? errno : EAGAIN, "poll");
			continue;
		}
		if (n > batch)
			n = batch;
		/* Each frame's headers, which the kernel wrote in the NAPI poll, are a cache and TLB
		 * miss on the first read here: asked for all at once, the batch waits for them once. */
		for (i = 0; i < n; i++) {
			uint64_t a = desc[(st->rx_cons + i) & rmask].addr;
			if (a < x->umem_len - 128)
				__builtin_prefetch(x->umem + a), __builtin_prefetch(x->umem + a + 64);
		}
		for (i = 0; i < n && !rx_cut(rx); i++) {
			const struct xdp_desc *e = &desc[(st->rx_cons + i) & rmask];
			const uint8_t *f = x->umem + e->addr;
			/* the kernel's descriptor, still checked: a frame stays in its UMEM frame */
			size_t len = e->addr < x->umem_len && e->len <= XSK_FRAME - (e->addr & (XSK_FRAME - 1)) ?
				     e->len : 0;
			if (frame_udp(&g.m, f, len, &d)) {
				rx->mark = d.mark; /* --marks: from the frame's IP header (no control message) */
				rx_datagram(rx, d.payload, d.len, &d.src);
			}
			else
				rx_foreign(rx, len ? f : x->umem, len);
			/* the frame back to the kernel: the fill ring has room for every frame */
			fill[(st->fill_prod + i) & fmask] = e->addr & ~(uint64_t)(XSK_FRAME - 1);
		}
		st->fill_prod += i;
		st->rx_cons += i;
		__atomic_store_n(x->fill.producer, st->fill_prod, __ATOMIC_RELEASE);
		__atomic_store_n(x->rx.consumer, st->rx_cons, __ATOMIC_RELEASE);
		if (!st->napi_done && rx->first_ns) {
			/* the NAPI id is the AF_XDP socket's (rx_first asked the UDP socket, which
			 * receives nothing): the kernel marks it with the first frame */
			int id = 0;
			socklen_t len = sizeof id;
			if (getsockopt(x->fd, SOL_SOCKET, SO_INCOMING_NAPI_ID, &id, &len) == 0) {
				rx->napi_read = 1;
				rx->napi_id = (unsigned)id;
			}
			st->napi_done = 1;
		}
		rx_batch(rx);
	}
}

static int64_t xdp_drops(struct rx *rx)
{
	struct xdp_rx *st = rx->priv;

	return st && st->x.fd >= 0 ? xsk_drops(&st->x) : -1;
}

static void xdp_teardown(struct rx *rx)
{
	struct xdp_rx *st = rx->priv;

	/* thread 0 first (finish tears down in order): the program goes before the sockets */
	if (rx->id == 0)
		detach();
	if (!st)
		return;
	xsk_close(&st->x);
	free(st);
	rx->priv = NULL;
}

const struct variant variant_xdp = {
	.name = "xdp",
	.what = "AF_XDP socket per queue, fed by an XDP program on the device (wire mode)",
	.batch = 64,
	.spins = 1,
	.device = 1,
	.setup = xdp_setup,
	.run = xdp_run,
	.teardown = xdp_teardown,
	.drops = xdp_drops,
};
