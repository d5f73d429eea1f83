/* xsk: an AF_XDP socket and the XDP program that feeds it, with system calls only (no libbpf,
 * no libxdp): the UMEM (one region of fixed frames, from malloc), its fill and completion rings and the RX
 * ring mapped at the offsets the kernel gives (XDP_MMAP_OFFSETS), the bind to one queue of a
 * device, and the program, written as BPF instructions (bpf.h), that sends UDP for one address
 * and port to the socket of the queue it arrived on and everything else on to the stack.
 * Functions return -1 with errno and the name of the failed call in *call. The rings are read
 * and written by the receive loops themselves (suck/xdp.c, perf/bare.c), with the acquire and
 * release that the kernel's side pairs with.
 *
 * Pitfalls: the fill ring starts empty, so nothing is received until frames are given to it;
 * the frame's address in an RX descriptor is the UMEM offset of the packet's first byte, which
 * in copy mode lies XDP_PACKET_HEADROOM into its frame; a frame longer than the frame size
 * minus that headroom is dropped by the kernel (counted in rx_dropped). */
#ifndef XSK_H
#define XSK_H
#include <linux/if_xdp.h>
#include <net/if.h>
#include <stddef.h>
#include <stdint.h>

#include "bpf.h"
#include "net.h"

#define XSK_FRAME   4096 /* bytes per UMEM frame: a page, the most the kernel allows */
#define XSK_FRAMES  4096 /* frames in the UMEM (16 MiB), all given to the fill ring at first */
#define XSK_HUGE    (2u << 20) /* the UMEM aligned to a huge page, where THP can back it */
#define XSK_RX      2048 /* descriptors in the RX ring: so the fill ring is never empty while
			      suck returns each batch's frames before it takes the next */

/* One ring as the kernel shares it: producer and consumer indices that run freely (masked on
 * use), the flags word (XDP_RING_NEED_WAKEUP) and the descriptors. */
struct xsk_ring {
	uint32_t *producer, *consumer, *flags;
	void *desc;                 /* struct xdp_desc (RX) or uint64_t UMEM offsets (fill) */
	uint32_t mask;
	void *map;
	size_t map_len;
};

struct xsk {
	int fd;
	uint8_t *umem;
	size_t umem_len;
	struct xsk_ring rx, fill;   /* the completion ring is made (bind wants it), not mapped */
	int zerocopy;               /* XDP_OPTIONS after the bind: the driver took zero-copy */
	struct xsk_ring tx, comp;   /* xsk_open_tx's: the TX and completion rings (the fill ring is
				       made, the bind wants it, not mapped) */
	unsigned frames, frame;     /* the UMEM's frames and their size */
};

/* Opens, maps and binds an AF_XDP socket to queue of ifindex (XDP_COPY, or XDP_ZEROCOPY with
 * zc; with XDP_USE_NEED_WAKEUP) and gives every frame that fits to the fill ring. */
int xsk_open(struct xsk *x, unsigned ifindex, unsigned queue, int zc, const char **call);
/* A socket that only sends (blast --via xdp): a UMEM of frames of frame bytes (2048 or 4096),
 * a TX ring and a completion ring of frames entries each (a power of 2: every frame can be in
 * flight at once, so the completion ring never refuses one), bound to queue of ifindex with
 * XDP_USE_NEED_WAKEUP and zero-copy where the driver offers it (zerocopy says). No RX ring, no
 * program. The rings are the sender's to use, as the RX ring is the receiver's. */
int xsk_open_tx(struct xsk *x, unsigned ifindex, unsigned queue, unsigned frames, unsigned frame,
		const char **call);
void xsk_close(struct xsk *x);
/* The kernel's drops for this socket: rx_dropped (no frame in the fill ring, or a frame too
 * long) plus rx_ring_full (the RX ring full); -1 when the kernel does not say. */
int64_t xsk_drops(const struct xsk *x);

/* What the program, and the frame parser after it, take as suck's: UDP to port, over IPv4 to
 * a4 (any with any4) and over IPv6 to a6 (any with any6); v4, v6 say which families at all.
 * Addresses and port in network byte order. The socket's family decides how a source is
 * written (sockaddr_in, or sockaddr_in6 with IPv4 v4-mapped), as the kernel would write it. */
struct xsk_match {
	int family;                 /* AF_INET or AF_INET6: the bound socket's */
	int v4, v6, any4, any6;
	uint8_t a4[4], a6[16];
	uint16_t port;
	unsigned ifindex;           /* for the scope of a link-local IPv6 source */
};
/* From the address a socket is bound to: an IPv4 address; an IPv6 one; :: (both families,
 * as a dual-stack socket receives); ::ffff:a.b.c.d (IPv4 to a.b.c.d). */
void xsk_match_of(const struct net_addr *bound, unsigned ifindex, struct xsk_match *m);

/* The XDP program for m into insn (room for BPF_ASM_MAX); map_fd is an XSKMAP keyed by queue.
 * broken: a program the verifier must refuse (a packet read not checked against its end),
 * for the test that a refusal is reported. The instruction count, or -1. */
int xsk_prog(const struct xsk_match *m, int map_fd, int broken, struct bpf_insn *insn);

/* The device that holds addr (getifaddrs) into name; -1 (ENODEV) when none does, EINVAL for
 * a wildcard address. */
int xsk_dev_of(const struct net_addr *addr, char name[IF_NAMESIZE]);
/* The receive queues of the device name with ifindex (sysfs queues/rx-*), or 0 when they
 * cannot be counted (the sysfs seen here is another network namespace's). */
unsigned xsk_dev_queues(const char *name, unsigned ifindex);
/* Its transmit queues (queues/tx-*), the same way. */
unsigned xsk_dev_tx_queues(const char *name, unsigned ifindex);

#endif
