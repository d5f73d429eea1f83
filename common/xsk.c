/* xsk: the AF_XDP socket's setup, the redirect program, and finding the device (see xsk.h). */
#include "xsk.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <ifaddrs.h>
#include <linux/if_ether.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#ifndef SOL_XDP
#define SOL_XDP 283
#endif
#ifndef AF_XDP
#define AF_XDP 44
#endif

static void *ring_map(int fd, off_t pgoff, size_t len, struct xsk_ring *r, const struct xdp_ring_offset *o,
		      uint32_t entries)
{
	void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, pgoff);

	if (m == MAP_FAILED)
		return NULL;
	r->map = m;
	r->map_len = len;
	r->producer = (uint32_t *)((uint8_t *)m + o->producer);
	r->consumer = (uint32_t *)((uint8_t *)m + o->consumer);
	r->flags = (uint32_t *)((uint8_t *)m + o->flags);
	r->desc = (uint8_t *)m + o->desc;
	r->mask = entries - 1;
	return m;
}

/* A socket's shape: its UMEM and rings (0: none), its bind flags, the fill ring given every
 * frame (a receiver's) or not mapped at all (a sender's). */
struct xsk_shape {
	unsigned frames, frame;
	int rx, fill, tx, comp;
	uint16_t flags;
	int give_fill;
	const char *rings_call, *bind_call;
};

static int xsk_make(struct xsk *x, unsigned ifindex, unsigned queue, const struct xsk_shape *s, const char **call)
{
	struct xdp_umem_reg reg;
	struct xdp_mmap_offsets off;
	struct sockaddr_xdp sxdp;
	struct xdp_options opts;
	socklen_t len;

	memset(x, 0, sizeof *x);
	x->frame = s->frame;
	x->frames = s->frames;
	x->fd = socket(AF_XDP, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (x->fd < 0) {
		*call = "socket AF_XDP";
		return -1;
	}
	/* One region of page-aligned frames. From malloc (16 MiB: glibc maps it, one mmap), so
	 * that heap_kib counts it as it counts every variant's receive buffers. Aligned to 2 MiB
	 * and offered to transparent huge pages: the fill ring cycles through all 4096 frames, so
	 * with 4 KiB pages every frame the receiver reads is a TLB miss of its own (on this
	 * project's VM the first read of each frame's header was 5 % of suck -m xdp's CPU and
	 * the xdp pair of make perf 1.27x its bare twin; 1.1x with huge pages). Where THP is off
	 * the madvise fails and nothing else changes. */
	x->umem_len = (size_t)s->frames * s->frame;
	x->umem = aligned_alloc(XSK_HUGE, (x->umem_len + XSK_HUGE - 1) / XSK_HUGE * XSK_HUGE);
	if (!x->umem) {
		*call = "aligned_alloc of the UMEM";
		return -1;
	}
	(void)madvise(x->umem, x->umem_len, MADV_HUGEPAGE);
	memset(&reg, 0, sizeof reg);
	reg.addr = (uint64_t)(uintptr_t)x->umem;
	reg.len = x->umem_len;
	reg.chunk_size = s->frame;
	/* The kernel pins the UMEM's pages (charged to RLIMIT_MEMLOCK without CAP_IPC_LOCK). */
	if (setsockopt(x->fd, SOL_XDP, XDP_UMEM_REG, &reg, sizeof reg) < 0) {
		*call = "setsockopt XDP_UMEM_REG";
		return -1;
	}
	/* A UMEM of its own wants both of its rings at the bind, a sender's fill ring too. */
	if (setsockopt(x->fd, SOL_XDP, XDP_UMEM_FILL_RING, &s->fill, sizeof s->fill) < 0 ||
	    setsockopt(x->fd, SOL_XDP, XDP_UMEM_COMPLETION_RING, &s->comp, sizeof s->comp) < 0 ||
	    (s->rx && setsockopt(x->fd, SOL_XDP, XDP_RX_RING, &s->rx, sizeof s->rx) < 0) ||
	    (s->tx && setsockopt(x->fd, SOL_XDP, XDP_TX_RING, &s->tx, sizeof s->tx) < 0)) {
		*call = s->rings_call;
		return -1;
	}
	len = sizeof off;
	if (getsockopt(x->fd, SOL_XDP, XDP_MMAP_OFFSETS, &off, &len) < 0) {
		*call = "getsockopt XDP_MMAP_OFFSETS";
		return -1;
	}
	if (len < sizeof off) {
		/* before 5.4: no flags word, so no need-wakeup either */
		errno = EOPNOTSUPP;
		*call = "getsockopt XDP_MMAP_OFFSETS (no ring flags: a kernel before 5.4)";
		return -1;
	}
	if ((s->rx && !ring_map(x->fd, XDP_PGOFF_RX_RING, off.rx.desc + (size_t)s->rx * sizeof(struct xdp_desc),
				&x->rx, &off.rx, (uint32_t)s->rx)) ||
	    (s->give_fill && !ring_map(x->fd, (off_t)XDP_UMEM_PGOFF_FILL_RING,
				       off.fr.desc + (size_t)s->fill * sizeof(uint64_t), &x->fill, &off.fr,
				       (uint32_t)s->fill))) {
		*call = "mmap of the RX and fill rings";
		return -1;
	}
	if ((s->tx && !ring_map(x->fd, XDP_PGOFF_TX_RING, off.tx.desc + (size_t)s->tx * sizeof(struct xdp_desc),
				&x->tx, &off.tx, (uint32_t)s->tx)) ||
	    (s->tx && !ring_map(x->fd, (off_t)XDP_UMEM_PGOFF_COMPLETION_RING,
				off.cr.desc + (size_t)s->comp * sizeof(uint64_t), &x->comp, &off.cr, (uint32_t)s->comp))) {
		*call = "mmap of the TX and completion rings";
		return -1;
	}
	/* Every frame to the fill ring before the bind: the driver can take them at once. */
	if (s->give_fill) {
		for (uint32_t i = 0; i < (uint32_t)s->fill; i++)
			((uint64_t *)x->fill.desc)[i] = (uint64_t)i * s->frame;
		__atomic_store_n(x->fill.producer, (uint32_t)s->fill, __ATOMIC_RELEASE);
	}

	memset(&sxdp, 0, sizeof sxdp);
	sxdp.sxdp_family = AF_XDP;
	sxdp.sxdp_ifindex = ifindex;
	sxdp.sxdp_queue_id = queue;
	sxdp.sxdp_flags = s->flags;
	/* EBUSY: the queue still has a socket's buffer pool. The kernel lets go of a closed socket's
	 * pool in deferred work (xp_release_deferred), so a run that follows another on the same
	 * queue may find it busy for a moment: try again for up to 2 s. */
	for (int tries = 0;; tries++) {
		if (bind(x->fd, (struct sockaddr *)&sxdp, sizeof sxdp) == 0)
			break;
		if (errno == EBUSY && tries < 200) {
			nanosleep(&(struct timespec){ .tv_nsec = 10000000 }, NULL);
			continue;
		}
		*call = s->bind_call;
		return -1;
	}
	len = sizeof opts;
	if (getsockopt(x->fd, SOL_XDP, XDP_OPTIONS, &opts, &len) == 0)
		x->zerocopy = (opts.flags & XDP_OPTIONS_ZEROCOPY) != 0;
	return 0;
}

int xsk_open(struct xsk *x, unsigned ifindex, unsigned queue, int zc, const char **call)
{
	const struct xsk_shape s = {
		.frames = XSK_FRAMES, .frame = XSK_FRAME, .rx = XSK_RX, .fill = XSK_FRAMES, .comp = 64,
		.flags = (uint16_t)((zc ? XDP_ZEROCOPY : XDP_COPY) | XDP_USE_NEED_WAKEUP), .give_fill = 1,
		.rings_call = "setsockopt XDP_UMEM_FILL_RING, XDP_UMEM_COMPLETION_RING, XDP_RX_RING",
		.bind_call = zc ? "bind AF_XDP, XDP_ZEROCOPY" : "bind AF_XDP, XDP_COPY",
	};

	return xsk_make(x, ifindex, queue, &s, call);
}

int xsk_open_tx(struct xsk *x, unsigned ifindex, unsigned queue, unsigned frames, unsigned frame,
		const char **call)
{
	/* Neither XDP_COPY nor XDP_ZEROCOPY: the kernel takes zero-copy where the driver has it
	 * and copies where not (veth). No RX ring: a socket that only sends needs no program. */
	const struct xsk_shape s = {
		.frames = frames, .frame = frame, .tx = (int)frames, .fill = 2, .comp = (int)frames,
		.flags = XDP_USE_NEED_WAKEUP,
		.rings_call = "setsockopt XDP_UMEM_FILL_RING, XDP_UMEM_COMPLETION_RING, XDP_TX_RING",
		.bind_call = "bind AF_XDP",
	};

	return xsk_make(x, ifindex, queue, &s, call);
}

void xsk_close(struct xsk *x)
{
	if (x->fd > 0)
		close(x->fd);
	x->fd = -1;
	if (x->rx.map)
		munmap(x->rx.map, x->rx.map_len);
	if (x->fill.map)
		munmap(x->fill.map, x->fill.map_len);
	if (x->tx.map)
		munmap(x->tx.map, x->tx.map_len);
	if (x->comp.map)
		munmap(x->comp.map, x->comp.map_len);
	free(x->umem);
	x->rx.map = x->fill.map = x->tx.map = x->comp.map = NULL;
	x->umem = NULL;
}

int64_t xsk_drops(const struct xsk *x)
{
	struct xdp_statistics st;
	socklen_t len = sizeof st;

	memset(&st, 0, sizeof st);
	if (getsockopt(x->fd, SOL_XDP, XDP_STATISTICS, &st, &len) < 0)
		return -1;
	/* A kernel before 5.9 gives the first three fields, with the full ring in rx_dropped. An
	 * empty fill ring is in rx_dropped in copy mode (the frame had nowhere to go), and
	 * rx_fill_ring_empty_descs counts the same event again: it is not added. */
	if (len < sizeof st)
		return (int64_t)st.rx_dropped;
	return (int64_t)(st.rx_dropped + st.rx_ring_full);
}

void xsk_match_of(const struct net_addr *bound, unsigned ifindex, struct xsk_match *m)
{
	static const uint8_t zero[16];

	memset(m, 0, sizeof *m);
	m->family = bound->ss.ss_family;
	m->ifindex = ifindex;
	if (m->family == AF_INET) {
		const struct sockaddr_in *s = (const struct sockaddr_in *)&bound->ss;
		m->v4 = 1;
		memcpy(m->a4, &s->sin_addr, 4);
		m->any4 = s->sin_addr.s_addr == htonl(INADDR_ANY);
		m->port = s->sin_port;
		return;
	}
	const struct sockaddr_in6 *s = (const struct sockaddr_in6 *)&bound->ss;
	m->port = s->sin6_port;
	if (IN6_IS_ADDR_V4MAPPED(&s->sin6_addr)) {
		m->v4 = 1;
		memcpy(m->a4, s->sin6_addr.s6_addr + 12, 4);
		m->any4 = memcmp(m->a4, zero, 4) == 0;
	} else if (IN6_IS_ADDR_UNSPECIFIED(&s->sin6_addr)) {
		m->v4 = m->v6 = m->any4 = m->any6 = 1; /* a dual-stack socket takes both */
	} else {
		m->v6 = 1;
		memcpy(m->a6, &s->sin6_addr, 16);
	}
}

enum { L_PASS, L_IP4, L_IP6, L_REDIRECT };

/* A packet word as a u32 load reads it: the bytes as they are, in this machine's order. */
static int32_t word(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return (int32_t)v;
}

int xsk_prog(const struct xsk_match *m, int map_fd, int broken, struct bpf_insn *insn)
{
	struct bpf_asm a;
	const struct bpf_insn map[2] = { BI_LD_MAP_FD(BPF_REG_1, map_fd) };
	enum { ETH = 14, IP4 = ETH, UDP4 = IP4 + 20, IP6 = ETH, UDP6 = IP6 + 40 };

	/* The offsets: with the 2 bytes the kernel puts before a frame (NET_IP_ALIGN), every
	 * field read here is aligned to its size, as a strict verifier asks. */
	bpf_asm_init(&a);
	bpf_emit(&a, BI_MOV64_REG(BPF_REG_6, BPF_REG_1));
	bpf_emit(&a, BI_LDX(BPF_W, BPF_REG_2, BPF_REG_6, offsetof(struct xdp_md, data)));
	bpf_emit(&a, BI_LDX(BPF_W, BPF_REG_3, BPF_REG_6, offsetof(struct xdp_md, data_end)));
	bpf_emit(&a, BI_MOV64_REG(BPF_REG_4, BPF_REG_2));
	bpf_emit(&a, BI_ADD64_IMM(BPF_REG_4, ETH));
	if (!broken)
		bpf_jump(&a, BI_JMP_REG(BPF_JGT, BPF_REG_4, BPF_REG_3), L_PASS);
	bpf_emit(&a, BI_LDX(BPF_H, BPF_REG_5, BPF_REG_2, 12));
	if (m->v4)
		bpf_jump(&a, BI_JMP32_IMM(BPF_JEQ, BPF_REG_5, htons(ETH_P_IP)), L_IP4);
	if (m->v6)
		bpf_jump(&a, BI_JMP32_IMM(BPF_JEQ, BPF_REG_5, htons(ETH_P_IPV6)), L_IP6);
	bpf_jump(&a, BI_JA(), L_PASS);

	if (m->v4) {
		/* IPv4 without options, UDP, not a fragment (a later fragment has no port, and
		 * the stack reassembles them), to the address, to the port. */
		bpf_label(&a, L_IP4);
		bpf_emit(&a, BI_MOV64_REG(BPF_REG_4, BPF_REG_2));
		bpf_emit(&a, BI_ADD64_IMM(BPF_REG_4, UDP4 + 8));
		bpf_jump(&a, BI_JMP_REG(BPF_JGT, BPF_REG_4, BPF_REG_3), L_PASS);
		bpf_emit(&a, BI_LDX(BPF_B, BPF_REG_5, BPF_REG_2, IP4));
		bpf_jump(&a, BI_JMP32_IMM(BPF_JNE, BPF_REG_5, 0x45), L_PASS);
		bpf_emit(&a, BI_LDX(BPF_B, BPF_REG_5, BPF_REG_2, IP4 + 9));
		bpf_jump(&a, BI_JMP32_IMM(BPF_JNE, BPF_REG_5, IPPROTO_UDP), L_PASS);
		bpf_emit(&a, BI_LDX(BPF_H, BPF_REG_5, BPF_REG_2, IP4 + 6));
		bpf_emit(&a, BI_AND32_IMM(BPF_REG_5, htons(0x3fff))); /* more fragments, offset */
		bpf_jump(&a, BI_JMP32_IMM(BPF_JNE, BPF_REG_5, 0), L_PASS);
		if (!m->any4) {
			bpf_emit(&a, BI_LDX(BPF_W, BPF_REG_5, BPF_REG_2, IP4 + 16));
			bpf_jump(&a, BI_JMP32_IMM(BPF_JNE, BPF_REG_5, word(m->a4)), L_PASS);
		}
		bpf_emit(&a, BI_LDX(BPF_H, BPF_REG_5, BPF_REG_2, UDP4 + 2));
		bpf_jump(&a, BI_JMP32_IMM(BPF_JNE, BPF_REG_5, m->port), L_PASS);
		bpf_jump(&a, BI_JA(), L_REDIRECT);
	}
	if (m->v6) {
		/* IPv6 with UDP as the first next header (extension headers go to the stack). */
		bpf_label(&a, L_IP6);
		bpf_emit(&a, BI_MOV64_REG(BPF_REG_4, BPF_REG_2));
		bpf_emit(&a, BI_ADD64_IMM(BPF_REG_4, UDP6 + 8));
		bpf_jump(&a, BI_JMP_REG(BPF_JGT, BPF_REG_4, BPF_REG_3), L_PASS);
		bpf_emit(&a, BI_LDX(BPF_B, BPF_REG_5, BPF_REG_2, IP6 + 6));
		bpf_jump(&a, BI_JMP32_IMM(BPF_JNE, BPF_REG_5, IPPROTO_UDP), L_PASS);
		for (int i = 0; !m->any6 && i < 4; i++) {
			bpf_emit(&a, BI_LDX(BPF_W, BPF_REG_5, BPF_REG_2, (int16_t)(IP6 + 24 + 4 * i)));
			bpf_jump(&a, BI_JMP32_IMM(BPF_JNE, BPF_REG_5, word(m->a6 + 4 * i)), L_PASS);
		}
		bpf_emit(&a, BI_LDX(BPF_H, BPF_REG_5, BPF_REG_2, UDP6 + 2));
		bpf_jump(&a, BI_JMP32_IMM(BPF_JNE, BPF_REG_5, m->port), L_PASS);
	}
	/* bpf_redirect_map(map, rx_queue_index, XDP_PASS): the socket of the queue the frame came
	 * in on; a queue without one passes the frame on (the low bits of flags are the action
	 * when the lookup fails). */
	bpf_label(&a, L_REDIRECT);
	bpf_emit(&a, BI_LDX(BPF_W, BPF_REG_2, BPF_REG_6, offsetof(struct xdp_md, rx_queue_index)));
	bpf_emit(&a, map[0]);
	bpf_emit(&a, map[1]);
	bpf_emit(&a, BI_MOV64_IMM(BPF_REG_3, XDP_PASS));
	bpf_emit(&a, BI_CALL(BPF_FUNC_redirect_map));
	bpf_emit(&a, BI_EXIT());
	bpf_label(&a, L_PASS);
	bpf_emit(&a, BI_MOV64_IMM(BPF_REG_0, XDP_PASS));
	bpf_emit(&a, BI_EXIT());
	if (bpf_asm_end(&a) < 0)
		return -1;
	memcpy(insn, a.insn, a.n * sizeof *insn);
	return (int)a.n;
}

int xsk_dev_of(const struct net_addr *addr, char name[IF_NAMESIZE])
{
	struct ifaddrs *all, *i;
	const uint8_t *want;
	size_t len;
	int family, found = 0;

	if (addr->ss.ss_family == AF_INET) {
		want = (const uint8_t *)&((const struct sockaddr_in *)&addr->ss)->sin_addr;
		family = AF_INET, len = 4;
	} else {
		want = ((const struct sockaddr_in6 *)&addr->ss)->sin6_addr.s6_addr;
		family = AF_INET6, len = 16;
		if (IN6_IS_ADDR_V4MAPPED((const struct in6_addr *)want))
			want += 12, family = AF_INET, len = 4;
	}
	if (memcmp(want, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", len) == 0) {
		errno = EINVAL;
		return -1;
	}
	if (getifaddrs(&all) < 0)
		return -1;
	for (i = all; i && !found; i = i->ifa_next) {
		const uint8_t *have;
		if (!i->ifa_addr || i->ifa_addr->sa_family != family)
			continue;
		have = family == AF_INET ? (const uint8_t *)&((struct sockaddr_in *)i->ifa_addr)->sin_addr
					 : ((struct sockaddr_in6 *)i->ifa_addr)->sin6_addr.s6_addr;
		if (memcmp(have, want, len) == 0) {
			snprintf(name, IF_NAMESIZE, "%s", i->ifa_name);
			found = 1;
		}
	}
	freeifaddrs(all);
	if (!found)
		errno = ENODEV;
	return found ? 0 : -1;
}

static unsigned dev_queues(const char *name, unsigned ifindex, const char *prefix)
{
	char path[64];
	DIR *d;
	FILE *f;
	struct dirent *e;
	unsigned n = 0, idx = 0;

	snprintf(path, sizeof path, "/sys/class/net/%s/ifindex", name);
	if (!(f = fopen(path, "r")))
		return 0;
	if (fscanf(f, "%u", &idx) != 1)
		idx = 0;
	fclose(f);
	if (idx != ifindex)
		return 0;
	snprintf(path, sizeof path, "/sys/class/net/%s/queues", name);
	if (!(d = opendir(path)))
		return 0;
	while ((e = readdir(d)))
		if (strncmp(e->d_name, prefix, 3) == 0)
			n++;
	closedir(d);
	return n;
}

unsigned xsk_dev_queues(const char *name, unsigned ifindex)
{
	return dev_queues(name, ifindex, "rx-");
}

unsigned xsk_dev_tx_queues(const char *name, unsigned ifindex)
{
	return dev_queues(name, ifindex, "tx-");
}
