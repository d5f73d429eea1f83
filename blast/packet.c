/* packet: blast --via packet, the mode_packet row (mode.h): beneath the socket. Every flow
 * builds its own Ethernet frames (Ethernet, IPv4 or IPv6, UDP with its checksum over the
 * pseudo-header, blast's header and payload) in the frames of an AF_PACKET TX ring (TPACKET_V2,
 * PACKET_TX_RING, mmap) bound to the device of the route to -a, PACKET_QDISC_BYPASS set, and
 * hands a batch (-b) to the kernel with one send a call. The fins go the same way, repeated as
 * the UDP path repeats them. packet_prepare finds the path once for every flow: the device
 * (RTM_GETROUTE, or --dev), its MAC, the source address the kernel would pick (a connected UDP
 * socket), the next hop's MAC (RTM_GETNEIGH; asked for first by one UDP datagram to the
 * discard port when the table has none, or --dst-mac). Not on loopback (exit 4): lo's Ethernet
 * header is 14 zero bytes, and an IPv4 frame written there reaches the receive path without
 * the route a local datagram carries, whose routing then drops 127.0.0.0/8 (a martian) and
 * this host's own addresses, uncounted; ::1 would arrive, but one family is no mode.
 *
 * The ring's accounting: frames are filled in order at the head and the kernel takes them in
 * order from its own head within send; a frame it could not take (a full socket buffer, a
 * device that said busy) stays TP_STATUS_SEND_REQUEST and is taken by the next send, so the
 * frames taken are always a prefix of those filled: `taken` counts them and is the flow's
 * `sent`, the sequence numbers filled but not taken when the flow ends are withdrawn (never
 * sent, never counted). A frame taken is TP_STATUS_SENDING until its skb is freed or orphaned;
 * a frame is filled again only once it is TP_STATUS_AVAILABLE: a flow that finds the next
 * frame still in flight waits (`ring_full`), in short sleeps, at most PKT_STALL_NS.
 *
 * Pitfalls: a frame taken by the kernel becomes skb fragments that point into the ring, marked
 * as zero-copy fragments, which the receive path copies before a local socket sees them (a
 * veth's peer): so a frame marked available can be written again at once. A ring frame of a TX ring
 * holds its data TPACKET_ALIGN(sizeof(struct tpacket2_hdr)) after its start. The kernel refuses
 * a frame longer than the device's MTU plus its header (TP_STATUS_WRONG_FORMAT, and the ring
 * stops there): the size is checked against the MTU before anything is sent. The UDP checksum
 * changes with every sequence number and send time: it is kept per frame as the sum of what
 * does not change, and the 16 bytes that do are added to it per datagram. */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/neighbour.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <netinet/in.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "blast.h"
#include "mode.h"
#include "nl.h"
#include "report.h"
#include "sys.h"
#include "wire.h"

#ifndef AF_XDP
#define AF_XDP 44
#endif

#define PKT_RING_FRAMES 1024               /* frames in a flow's ring, at least 2 x -b */
#define PKT_RING_BYTES  (64u << 20)        /* ... and at most this much memory */
#define PKT_DATA        TPACKET_ALIGN(sizeof(struct tpacket2_hdr)) /* a frame's data offset */
#define PKT_STALL_NS    2000000000ull      /* a frame in flight this long ends the flow */
#define PKT_SETTLE_NS   1000000000ull      /* frames the kernel refused are offered this long at the end */
#define PKT_NAP_NS      50000              /* a wait's sleep, while frames are in flight */
#define PKT_NEIGH_NS    3000000000ull      /* asking for the next hop's MAC, at most */

/* The path every flow's frames take, found once (packet_prepare). */
static struct pkt_path path;
static int path_ready;

/* One flow's ring. */
struct pkt {
	int fd;                 /* the AF_PACKET socket */
	int port_fd;            /* a UDP socket bound to the source address and port, connected to
				   -a: it holds the port (nobody else takes it) and gets the ICMP
				   errors for it (ECONNREFUSED ends the fins) */
	uint16_t sport;         /* host order */
	uint8_t *map;
	size_t map_len;
	uint8_t **frame;        /* every frame's start (its tpacket2_hdr) */
	uint32_t *base;         /* a data frame's UDP checksum sum without seq and send time */
	unsigned n;             /* frames in the ring */
	unsigned head, tail;    /* the next frame to fill; the oldest filled and not taken */
	uint64_t queued, taken; /* frames filled, frames the kernel took (a prefix) */
	uint64_t data;          /* of those taken, data (the rest are fins) */
	uint64_t ring_full;     /* waits for a frame still in flight */
	uint64_t refused;       /* send calls that left frames in the ring */
	unsigned len;           /* a data frame's length */
	int jammed;             /* a frame the kernel called malformed: nothing goes after it */
	int fin_phase;          /* the fins: their sends are not in calls nor their refusals in
				   errors, as the UDP path's are not */
};

/* --- frames ----------------------------------------------------------------------------- */

uint64_t pkt_sum(uint64_t sum, const uint8_t *p, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	return sum;
}

uint16_t pkt_fold(uint64_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

static void put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* The pseudo-header's sum for a UDP length. */
static uint64_t pseudo_sum(const struct pkt_path *p, unsigned ulen)
{
	unsigned alen = p->family == AF_INET ? 4 : 16;
	uint64_t sum = pkt_sum(0, p->src, alen);

	sum = pkt_sum(sum, p->dst, alen);
	return sum + IPPROTO_UDP + ulen; /* IPv6's 32-bit length and next header sum the same */
}

size_t pkt_headers(const struct pkt_path *p, uint8_t *f, uint16_t sport, size_t len)
{
	unsigned ulen = (unsigned)len + 8;
	uint8_t *ip = f + ETH_HLEN, *udp;

	memcpy(f, p->dst_mac, 6);
	memcpy(f + 6, p->src_mac, 6);
	if (p->family == AF_INET) {
		put16(f + 12, ETH_P_IP);
		ip[0] = 0x45;
		ip[1] = p->tos;
		put16(ip + 2, 20 + ulen);
		put16(ip + 4, 0);      /* id: 0, as the fragment never comes (DF) */
		put16(ip + 6, 0x4000); /* DF */
		ip[8] = p->ttl;
		ip[9] = IPPROTO_UDP;
		put16(ip + 10, 0);
		memcpy(ip + 12, p->src, 4);
		memcpy(ip + 16, p->dst, 4);
		put16(ip + 10, (uint16_t)~pkt_fold(pkt_sum(0, ip, 20)));
		udp = ip + 20;
	} else {
		put16(f + 12, ETH_P_IPV6);
		ip[0] = (uint8_t)(0x60 | p->tos >> 4);
		ip[1] = (uint8_t)(p->tos << 4);
		ip[2] = ip[3] = 0;
		put16(ip + 4, ulen);
		ip[6] = IPPROTO_UDP;
		ip[7] = p->ttl;
		memcpy(ip + 8, p->src, 16);
		memcpy(ip + 24, p->dst, 16);
		udp = ip + 40;
	}
	put16(udp, sport);
	put16(udp + 2, p->dport);
	put16(udp + 4, ulen);
	put16(udp + 6, 0);
	return (size_t)(udp + 8 - f);
}

uint32_t pkt_udp_base(const struct pkt_path *p, const uint8_t *udp)
{
	unsigned ulen = (unsigned)udp[4] << 8 | udp[5];

	return pkt_fold(pkt_sum(pseudo_sum(p, ulen), udp, ulen));
}

/* The sum of a 64-bit value's four 16-bit words, as its big-endian bytes are summed. */
static inline uint32_t words64(uint64_t v)
{
	return (uint32_t)(v >> 48) + (uint32_t)(v >> 32 & 0xffff) + (uint32_t)(v >> 16 & 0xffff) + (uint32_t)(v & 0xffff);
}

static inline void csum_put(uint8_t *udp, uint64_t sum)
{
	uint16_t c = (uint16_t)~pkt_fold(sum);

	put16(udp + 6, c ? c : 0xffff); /* 0 says "no checksum": its other form */
}

void pkt_stamp(uint8_t *udp, uint32_t base, uint64_t seq, uint64_t send_ns)
{
	wire_put_seq(udp + 8, seq, send_ns);
	csum_put(udp, (uint64_t)base + words64(seq) + words64(send_ns));
}

void pkt_udp_csum(const struct pkt_path *p, uint8_t *udp)
{
	put16(udp + 6, 0);
	csum_put(udp, pkt_udp_base(p, udp));
}

int packet_mac(const char *s, uint8_t mac[6])
{
	static const char hex[] = "0123456789abcdef";

	if (strlen(s) != 17)
		return -1;
	for (unsigned i = 0; i < 17; i++) {
		const char *d = strchr(hex, s[i] >= 'A' && s[i] <= 'F' ? s[i] - 'A' + 'a' : s[i]);
		if (i % 3 == 2 ? s[i] != ':' : !s[i] || !d)
			return -1;
		if (i % 3 == 0)
			mac[i / 3] = (uint8_t)((d - hex) << 4);
		else if (i % 3 == 1)
			mac[i / 3] = (uint8_t)(mac[i / 3] | (d - hex));
	}
	return 0;
}

static void mac_text(const uint8_t *m, char *buf, size_t len)
{
	snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
}

/* --- the path: netlink, the device, the neighbour ---------------------------------------- */

struct route {
	int found, type;
	unsigned oif;
	int has_gw;
	uint8_t gw[16];
};

static void route_of(const struct nlmsghdr *h, void *ctx)
{
	struct route *r = ctx;
	const struct rtmsg *m = NLMSG_DATA(h);
	int left = (int)RTM_PAYLOAD(h);
	unsigned alen = m->rtm_family == AF_INET ? 4 : 16;

	if (h->nlmsg_type != RTM_NEWROUTE)
		return;
	r->found = 1;
	r->type = m->rtm_type;
	for (const struct rtattr *a = RTM_RTA(m); RTA_OK(a, left); a = RTA_NEXT(a, left)) {
		if (a->rta_type == RTA_OIF && RTA_PAYLOAD(a) >= 4)
			memcpy(&r->oif, RTA_DATA(a), 4);
		else if (a->rta_type == RTA_GATEWAY && RTA_PAYLOAD(a) == alen) {
			memcpy(r->gw, RTA_DATA(a), alen);
			r->has_gw = 1;
		}
	}
}

struct neigh {
	unsigned ifindex;
	unsigned alen;
	const uint8_t *addr;
	int found;
	uint8_t mac[6];
};

static void neigh_of(const struct nlmsghdr *h, void *ctx)
{
	struct neigh *n = ctx;
	const struct ndmsg *m = NLMSG_DATA(h);
	int left = (int)(h->nlmsg_len - NLMSG_LENGTH(sizeof *m));
	const struct rtattr *a = (const struct rtattr *)((const char *)m + NLMSG_ALIGN(sizeof *m));
	const uint16_t usable = NUD_REACHABLE | NUD_STALE | NUD_DELAY | NUD_PROBE | NUD_PERMANENT | NUD_NOARP;
	const uint8_t *dst = NULL, *ll = NULL;

	if (h->nlmsg_type != RTM_NEWNEIGH || (unsigned)m->ndm_ifindex != n->ifindex || !(m->ndm_state & usable))
		return;
	for (; RTA_OK(a, left); a = RTA_NEXT(a, left)) {
		if (a->rta_type == NDA_DST && RTA_PAYLOAD(a) == n->alen)
			dst = RTA_DATA(a);
		else if (a->rta_type == NDA_LLADDR && RTA_PAYLOAD(a) == 6)
			ll = RTA_DATA(a);
	}
	if (dst && ll && !memcmp(dst, n->addr, n->alen)) {
		memcpy(n->mac, ll, 6);
		n->found = 1;
	}
}

/* The neighbour table's MAC for addr on the path's device: 1 found, 0 none usable, -1 error. */
static int neigh_lookup(const uint8_t *addr, uint8_t mac[6])
{
	struct {
		struct nlmsghdr nh;
		struct ndmsg nd;
	} req;
	struct neigh n = { .ifindex = path.ifindex, .alen = path.family == AF_INET ? 4 : 16, .addr = addr };

	memset(&req, 0, sizeof req);
	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof req.nd);
	req.nh.nlmsg_type = RTM_GETNEIGH;
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.nd.ndm_family = (uint8_t)path.family;
	if (nl_ask(&req.nh, neigh_of, &n) < 0)
		return -1;
	if (n.found)
		memcpy(mac, n.mac, 6);
	return n.found;
}

/* -a as the frames' family: a v4-mapped IPv6 address goes out as IPv4. */
static void frame_dst(const struct net_addr *to, struct sockaddr_storage *ss, socklen_t *len)
{
	const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)&to->ss;

	memcpy(ss, &to->ss, sizeof *ss);
	*len = to->len;
	if (to->ss.ss_family == AF_INET6 && IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr)) {
		struct sockaddr_in s4 = { .sin_family = AF_INET, .sin_port = s6->sin6_port };
		memcpy(&s4.sin_addr, s6->sin6_addr.s6_addr + 12, 4);
		memset(ss, 0, sizeof *ss);
		memcpy(ss, &s4, sizeof s4);
		*len = sizeof s4;
	}
}

static const uint8_t *addr_bytes(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET)
		return (const uint8_t *)&((const struct sockaddr_in *)ss)->sin_addr;
	return ((const struct sockaddr_in6 *)ss)->sin6_addr.s6_addr;
}

/* A UDP socket of the path's family, on the path's device when --dev names one, connected to
 * the destination at port (-1 with errno). */
static int udp_to(const struct blast_cfg *cfg, unsigned port)
{
	struct sockaddr_storage ss = path.dst_ss;
	int fd = socket(path.family, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	if (path.family == AF_INET)
		((struct sockaddr_in *)&ss)->sin_port = htons((uint16_t)port);
	else
		((struct sockaddr_in6 *)&ss)->sin6_port = htons((uint16_t)port);
	if ((cfg->dev && setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, cfg->dev, (socklen_t)strlen(cfg->dev) + 1) < 0) ||
	    connect(fd, (struct sockaddr *)&ss, path.dst_len) < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

static unsigned read_uint(const char *file, unsigned dflt)
{
	FILE *f = fopen(file, "r");
	unsigned v;

	if (!f)
		return dflt;
	if (fscanf(f, "%u", &v) != 1 || v < 1 || v > 255)
		v = dflt;
	fclose(f);
	return v;
}

/* A TX ring on a new AF_PACKET socket bound to the path's device, for frames of frame bytes
 * (want frames at least); the socket, or -1 with errno and the failed call in *call. */
static int ring_open(struct pkt *p, size_t frame, unsigned want, int priority, const char **call)
{
	struct tpacket_req req;
	struct sockaddr_ll ll = { .sll_family = AF_PACKET, .sll_ifindex = (int)path.ifindex };
	size_t page = (size_t)sysconf(_SC_PAGESIZE), block;
	int v = TPACKET_V2, one = 1, fd, e;
	unsigned fpb, blocks;

	frame = TPACKET_ALIGN(frame);
	block = frame <= 65536 ? 65536 : (frame + page - 1) / page * page;
	fpb = (unsigned)(block / frame);
	blocks = (want + fpb - 1) / fpb;
	memset(&req, 0, sizeof req);
	req.tp_block_size = (unsigned)block;
	req.tp_block_nr = blocks;
	req.tp_frame_size = (unsigned)frame;
	req.tp_frame_nr = blocks * fpb;
	*call = "socket(AF_PACKET, SOCK_RAW)";
	/* protocol 0: the socket receives nothing, it only sends */
	if ((fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0)) < 0)
		return -1;
	int sndbuf = (int)(req.tp_frame_nr * (frame + 1024)); /* every frame in flight, with its skb */
	if ((*call = "setsockopt PACKET_VERSION TPACKET_V2", setsockopt(fd, SOL_PACKET, PACKET_VERSION, &v, sizeof v) < 0) ||
	    (*call = "setsockopt PACKET_QDISC_BYPASS", setsockopt(fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof one) < 0) ||
	    (*call = "setsockopt PACKET_TX_RING", setsockopt(fd, SOL_PACKET, PACKET_TX_RING, &req, sizeof req) < 0) ||
	    (priority >= 0 && (*call = "setsockopt SO_PRIORITY",
			       setsockopt(fd, SOL_SOCKET, SO_PRIORITY, &priority, sizeof priority) < 0)))
		goto fail;
	/* SO_SNDBUFFORCE: the privilege this mode needs anyway; SO_SNDBUF up to wmem_max else */
	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &sndbuf, sizeof sndbuf) < 0)
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);
	*call = "mmap of the TX ring";
	p->map_len = block * blocks;
	p->map = mmap(NULL, p->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p->map == MAP_FAILED) {
		p->map = NULL;
		goto fail;
	}
	*call = "bind AF_PACKET";
	if (bind(fd, (struct sockaddr *)&ll, sizeof ll) < 0)
		goto fail;
	p->n = req.tp_frame_nr;
	p->frame = calloc(p->n, sizeof *p->frame);
	p->base = calloc(p->n, sizeof *p->base);
	*call = "calloc";
	if (!p->frame || !p->base)
		goto fail;
	for (unsigned i = 0; i < p->n; i++)
		p->frame[i] = p->map + (size_t)(i / fpb) * block + (size_t)(i % fpb) * frame;
	return fd;
fail:
	e = errno;
	if (p->map)
		munmap(p->map, p->map_len);
	p->map = NULL;
	close(fd);
	errno = e;
	return -1;
}

static void ring_close(struct pkt *p)
{
	if (p->map)
		munmap(p->map, p->map_len);
	free(p->frame);
	free(p->base);
	p->map = NULL;
	p->frame = NULL;
	p->base = NULL;
}

static size_t frame_bytes(const struct blast_cfg *cfg)
{
	unsigned len = cfg->size > WIRE_FIN_LEN ? cfg->size : WIRE_FIN_LEN;

	return PKT_DATA + path.hdr_len + len;
}

/* The path's device: its MAC, MTU and whether it is up; its type (ARPHRD_*), or -1 with errno
 * and the failed ioctl in *call. */
static int dev_facts(const char **call)
{
	struct ifreq ifr;
	int ctl = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), type = -1, e;

	*call = "socket";
	if (ctl < 0)
		return -1;
	memset(&ifr, 0, sizeof ifr);
	snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", path.dev);
	if ((*call = "ioctl SIOCGIFHWADDR", ioctl(ctl, SIOCGIFHWADDR, &ifr) < 0))
		goto out;
	memcpy(path.src_mac, ifr.ifr_hwaddr.sa_data, 6);
	type = ifr.ifr_hwaddr.sa_family;
	if ((*call = "ioctl SIOCGIFMTU", ioctl(ctl, SIOCGIFMTU, &ifr) < 0)) {
		type = -1;
		goto out;
	}
	path.mtu = (unsigned)ifr.ifr_mtu;
	if ((*call = "ioctl SIOCGIFFLAGS", ioctl(ctl, SIOCGIFFLAGS, &ifr) < 0)) {
		type = -1;
		goto out;
	}
	path.up = !!(ifr.ifr_flags & IFF_UP);
out:
	e = errno;
	close(ctl);
	errno = e;
	return type;
}

int packet_prepare(const struct blast_cfg *cfg, int run)
{
	char where[80], ip[INET6_ADDRSTRLEN];
	struct route rt = { 0 };
	struct {
		struct nlmsghdr nh;
		struct rtmsg rt;
		char attrs[64];
	} req;
	struct sockaddr_storage src;
	socklen_t slen = sizeof src;
	const char *call;
	unsigned alen;
	int fd, xdp = cfg->via == BLAST_VIA_XDP;
	const char *via = xdp ? "--via xdp" : "--via packet";

	memset(&path, 0, sizeof path);
	frame_dst(&cfg->to, &path.dst_ss, &path.dst_len);
	path.family = path.dst_ss.ss_family;
	alen = path.family == AF_INET ? 4 : 16;
	memcpy(path.dst, addr_bytes(&path.dst_ss), alen);
	path.dport = (uint16_t)cfg->port;
	net_format(&cfg->to, where, sizeof where);

	/* The privilege first: nothing else matters without it. */
	if ((fd = xdp ? socket(AF_XDP, SOCK_RAW | SOCK_CLOEXEC, 0) : socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0)) < 0) {
		int e = errno;
		fprintf(stderr, "blast: %s: %s: %s: %s\n", via, xdp ? "socket AF_XDP" : "socket(AF_PACKET, SOCK_RAW)",
			strerror(e), e == EPERM || e == EACCES ? "sending beneath the socket needs CAP_NET_RAW (root)" :
			xdp ? "this kernel offers no AF_XDP sockets" : "this kernel offers no packet sockets");
		return 4;
	}
	close(fd);

	/* The route: its device (or --dev's) and its next hop. */
	memset(&req, 0, sizeof req);
	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof req.rt);
	req.nh.nlmsg_type = RTM_GETROUTE;
	req.nh.nlmsg_flags = NLM_F_REQUEST;
	req.rt.rtm_family = (uint8_t)path.family;
	req.rt.rtm_dst_len = (uint8_t)(alen * 8);
	nl_attr(&req.nh, RTA_DST, path.dst, alen);
	if (cfg->dev) {
		uint32_t oif = if_nametoindex(cfg->dev);
		nl_attr(&req.nh, RTA_OIF, &oif, sizeof oif);
	}
	if (nl_ask(&req.nh, route_of, &rt) < 0 || !rt.found || !rt.oif) {
		fprintf(stderr, "blast: %s: no route to %s%s%s (RTM_GETROUTE): %s\n", via, where,
			cfg->dev ? " through " : "", cfg->dev ? cfg->dev : "", rt.found ? "no device" : strerror(errno));
		return 1;
	}
	if (rt.type != RTN_UNICAST && rt.type != RTN_LOCAL) {
		fprintf(stderr, "blast: %s: the route to %s is of type %d, not one a frame can take "
			"(unicast or local)\n", via, where, rt.type);
		return 1;
	}
	path.ifindex = rt.oif;
	if (!if_indextoname(path.ifindex, path.dev)) {
		fprintf(stderr, "blast: %s: the route's device %u: %s\n", via, path.ifindex, strerror(errno));
		return 1;
	}

	/* The device: Ethernet (not lo), up, its MTU. */
	int type = dev_facts(&call);
	if (type < 0) {
		fprintf(stderr, "blast: %s: %s %s: %s\n", via, call, path.dev, strerror(errno));
		return 1;
	}
	if (type == ARPHRD_LOOPBACK || rt.type == RTN_LOCAL) {
		fprintf(stderr, "blast: %s: %s is reached through %s, the loopback device: lo has no "
			"Ethernet header (14 zero bytes stand in) and its receive path drops the IPv4 frames sent "
			"beneath the socket; send over Ethernet, a veth pair to another network namespace\n", via, where,
			path.dev);
		return 4;
	}
	if (type != ARPHRD_ETHER) {
		fprintf(stderr, "blast: %s: %s (device type %d) has no Ethernet header, which is what "
			"%s builds: not supported here\n", via, path.dev, type, via);
		return 4;
	}
	if (!path.up) {
		fprintf(stderr, "blast: %s: %s is down\n", via, path.dev);
		return 1;
	}
	path.hdr_len = ETH_HLEN + (path.family == AF_INET ? 20 : 40) + 8;
	if (cfg->size + path.hdr_len - ETH_HLEN > path.mtu) {
		fprintf(stderr, "blast: -s %u with %s on %s: the IP packet would be %u bytes, above its "
			"MTU %u, and nothing fragments a frame beneath the socket; accepted: -s %u or less\n",
			cfg->size, via, path.dev, cfg->size + path.hdr_len - ETH_HLEN, path.mtu,
			path.mtu - (path.hdr_len - ETH_HLEN));
		return 2;
	}
	if (xdp && cfg->size + path.hdr_len > XT_FRAME_MAX) {
		fprintf(stderr, "blast: -s %u with --via xdp: the frame would be %u bytes, above an AF_XDP "
			"frame's %u; accepted: -s %u or less\n", cfg->size, cfg->size + path.hdr_len, XT_FRAME_MAX,
			XT_FRAME_MAX - path.hdr_len);
		return 2;
	}

	/* The source address the kernel would give a datagram on this path. */
	if ((fd = udp_to(cfg, cfg->port)) < 0 || getsockname(fd, (struct sockaddr *)&src, &slen) < 0) {
		fprintf(stderr, "blast: %s: connect %s: %s\n", via, where, strerror(errno));
		if (fd >= 0)
			close(fd);
		return 1;
	}
	close(fd);
	memcpy(path.src, addr_bytes(&src), alen);
	path.src_ss = src;
	path.src_len = slen;
	if (path.family == AF_INET)
		((struct sockaddr_in *)&path.src_ss)->sin_port = 0;
	else
		((struct sockaddr_in6 *)&path.src_ss)->sin6_port = 0;

	/* The marks go into the IP header: the kernel's defaults unless --tos, --ttl. */
	path.tos = cfg->mark.tos >= 0 ? (uint8_t)cfg->mark.tos : 0;
	if (cfg->mark.ttl >= 0)
		path.ttl = (uint8_t)cfg->mark.ttl;
	else if (path.family == AF_INET)
		path.ttl = (uint8_t)read_uint("/proc/sys/net/ipv4/ip_default_ttl", 64);
	else {
		char file[96];
		snprintf(file, sizeof file, "/proc/sys/net/ipv6/conf/%s/hop_limit", path.dev);
		path.ttl = (uint8_t)read_uint(file, 64);
	}

	/* The next hop's MAC: --dst-mac or the neighbour table's. */
	inet_ntop(path.family, rt.has_gw ? rt.gw : path.dst, ip, sizeof ip);
	if (cfg->dst_mac_set) {
		memcpy(path.dst_mac, cfg->dst_mac, 6);
		path.dst_known = 1;
	} else {
		const uint8_t *hop = rt.has_gw ? rt.gw : path.dst;
		int got = neigh_lookup(hop, path.dst_mac);
		uint64_t t0 = sys_mono_ns(), asked = 0;
		/* none yet: one datagram to the discard port (not -p's: the receiver there would count
		 * it) makes the kernel ask (ARP, neighbour discovery), then the table is read again */
		while (got == 0 && run && sys_mono_ns() - t0 < PKT_NEIGH_NS && !sys_stop) {
			if (sys_mono_ns() - asked >= 1000000000ull) {
				int s = udp_to(cfg, 9);
				if (s >= 0) {
					send(s, "", 0, MSG_DONTWAIT);
					close(s);
				}
				asked = sys_mono_ns();
			}
			struct timespec ts = { .tv_nsec = 10000000 };
			nanosleep(&ts, NULL);
			got = neigh_lookup(hop, path.dst_mac);
		}
		if (got < 0) {
			fprintf(stderr, "blast: %s: reading the neighbour table (RTM_GETNEIGH): %s\n",
				via, strerror(errno));
			return 1;
		}
		if (!got && run) {
			fprintf(stderr, "blast: %s: no link-layer address for %s on %s after %.0f s of asking "
				"(ARP or neighbour discovery): give it with --dst-mac\n", via, ip, path.dev, PKT_NEIGH_NS / 1e9);
			return 1;
		}
		path.dst_known = got;
	}
	path.test_badsum = getenv("BS_VIA_TEST") && !strcmp(getenv("BS_VIA_TEST"), "badsum");

	/* One throwaway ring, as a run's first flow makes it: the kernel's answer now, not later
	 * (--via xdp: its socket is xdptx_probe's, after this). */
	if (xdp) {
		path_ready = 1;
		return 0;
	}
	struct pkt probe = { 0 };
	if ((fd = ring_open(&probe, frame_bytes(cfg), 2, cfg->mark.priority >= 0 ? (int)cfg->mark.priority : -1,
			    &call)) < 0) {
		int e = errno;
		fprintf(stderr, "blast: %s: %s on %s: %s\n", via, call, path.dev, strerror(e));
		return e == ENOPROTOOPT ? 4 : 1; /* a kernel without the option */
	}
	ring_close(&probe);
	close(fd);
	path_ready = 1;
	return 0;
}

/* --- a flow ----------------------------------------------------------------------------- */

static inline uint32_t frame_status(const uint8_t *frame)
{
	return __atomic_load_n(&((const struct tpacket2_hdr *)(const void *)frame)->tp_status, __ATOMIC_ACQUIRE);
}

static inline void frame_submit(uint8_t *frame, unsigned len)
{
	struct tpacket2_hdr *h = (struct tpacket2_hdr *)(void *)frame;

	h->tp_len = len;
	__atomic_store_n(&h->tp_status, TP_STATUS_SEND_REQUEST, __ATOMIC_RELEASE);
}

static inline int frame_free(uint32_t st)
{
	return !(st & (TP_STATUS_SEND_REQUEST | TP_STATUS_SENDING | TP_STATUS_WRONG_FORMAT));
}

int packet_port(const struct blast_cfg *cfg, uint16_t *sport)
{
	struct sockaddr_storage bound;
	socklen_t blen = sizeof bound;
	int fd = socket(path.family, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	if ((cfg->dev && setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, cfg->dev, (socklen_t)strlen(cfg->dev) + 1) < 0) ||
	    bind(fd, (struct sockaddr *)&path.src_ss, path.src_len) < 0 ||
	    connect(fd, (struct sockaddr *)&path.dst_ss, path.dst_len) < 0 ||
	    getsockname(fd, (struct sockaddr *)&bound, &blen) < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	*sport = ntohs(path.family == AF_INET ? ((struct sockaddr_in *)&bound)->sin_port
					      : ((struct sockaddr_in6 *)&bound)->sin6_port);
	return fd;
}

static int pkt_setup(struct flow *f)
{
	const struct blast_cfg *cfg = f->cfg;
	struct pkt *p;
	const char *call;
	unsigned want;
	size_t frame;

	if (!path_ready) {
		errno = ENODEV; /* packet_prepare first */
		return -1;
	}
	if (!(p = f->pkt = calloc(1, sizeof *p)))
		return -1;
	p->fd = p->port_fd = -1;
	f->segs = 1;
	f->batch = cfg->batch;
	call = "the source port's UDP socket";
	if ((p->port_fd = packet_port(cfg, &p->sport)) < 0)
		goto fail;
	frame = frame_bytes(cfg);
	want = PKT_RING_FRAMES > 2 * f->batch ? PKT_RING_FRAMES : 2 * f->batch;
	if ((size_t)want * frame > PKT_RING_BYTES)
		want = (unsigned)(PKT_RING_BYTES / frame) > 2 ? (unsigned)(PKT_RING_BYTES / frame) : 2;
	if ((p->fd = ring_open(p, frame, want, cfg->mark.priority >= 0 ? (int)cfg->mark.priority : -1, &call)) < 0)
		goto fail;
	if (f->batch > p->n / 2)
		f->batch = p->n / 2;
	/* Every frame a whole data frame: headers, blast's header with seq 0 and send time 0 (the
	 * sum leaves them out), the payload; its checksum's constant part kept. */
	struct wire_hdr h = { .type = WIRE_DATA, .flow = (uint16_t)f->id, .run_id = cfg->run_id,
			      .proof = cfg->key.set ? wire_run_proof(cfg->key.k, cfg->run_id) : 0 };
	for (unsigned i = 0; i < p->n; i++) {
		uint8_t *fr = p->frame[i] + PKT_DATA, *udp = fr + path.hdr_len - 8;
		p->len = (unsigned)pkt_headers(&path, fr, p->sport, cfg->size) + cfg->size;
		fill_payload(cfg, udp + 8, cfg->size);
		if (!cfg->raw)
			wire_put_hdr(udp + 8, &h);
		p->base[i] = pkt_udp_base(&path, udp) + (uint32_t)path.test_badsum;
		if (cfg->raw)
			csum_put(udp, p->base[i]);
	}
	return 0;
fail:
	fprintf(stderr, "blast: --via packet: flow %u: %s: %s\n", f->id, call, strerror(errno));
	return -1;
}

static void pkt_free(struct flow *f)
{
	struct pkt *p = f->pkt;

	if (!p)
		return;
	ring_close(p);
	if (p->fd >= 0)
		close(p->fd);
	if (p->port_fd >= 0)
		close(p->port_fd);
	free(p);
	f->pkt = NULL;
}

static void pkt_fail(struct flow *f, const char *call, int e)
{
	sys_error_set(&f->error, call, e);
	f->stop = BLAST_STOP_ERROR;
}

/* One send: the kernel takes what is queued, in order, as far as it can; taken moves on. */
static void pkt_flush(struct flow *f)
{
	struct pkt *p = f->pkt;
	ssize_t r;
	int e;

	if (p->taken == p->queued)
		return;
	r = send(p->fd, NULL, 0, MSG_DONTWAIT);
	e = errno;
	f->calls += !p->fin_phase;
	while (p->taken < p->queued) {
		uint32_t st = frame_status(p->frame[p->tail]);
		if (st & TP_STATUS_WRONG_FORMAT) {
			p->jammed = 1;
			pkt_fail(f, "send (PACKET_TX_RING: a frame the kernel called malformed)", r < 0 ? e : EINVAL);
			return;
		}
		if (st & TP_STATUS_SEND_REQUEST)
			break;
		p->taken++;
		p->tail = p->tail + 1 == p->n ? 0 : p->tail + 1;
	}
	if (p->taken == p->queued)
		return;
	p->refused++;
	if (r < 0 && e != EINTR) {
		if (!p->fin_phase) {
			f->errors++;
			f->err_by[e < BLAST_ERRNOS ? e : 0]++;
		}
		if (e != EAGAIN && e != ENOBUFS && e != ENOMEM)
			pkt_fail(f, "send (PACKET_TX_RING)", e);
	}
}

static void nap(void)
{
	struct timespec ts = { .tv_nsec = PKT_NAP_NS };

	nanosleep(&ts, NULL);
}

/* Waits until the head frame is free: what is queued is offered again, frames in flight are
 * waited for in short sleeps. 0, or -1 when the flow stops: a signal (stoppable), until passed
 * (0: none), a frame stuck for PKT_STALL_NS, an error. */
static int pkt_wait(struct flow *f, uint64_t until, int stoppable)
{
	struct pkt *p = f->pkt;
	uint64_t t0 = sys_mono_ns(), now;

	p->ring_full++;
	for (;;) {
		if (p->taken < p->queued)
			pkt_flush(f);
		if (f->stop == BLAST_STOP_ERROR)
			return -1;
		if (frame_free(frame_status(p->frame[p->head])))
			return 0;
		nap();
		now = sys_mono_ns();
		if (stoppable && sys_stop) {
			f->stop = BLAST_STOP_SIGNAL;
			return -1;
		}
		if (until && now >= until)
			return -1;
		if (now - t0 >= PKT_STALL_NS) {
			pkt_fail(f, "send (PACKET_TX_RING: a frame still in flight after 2 s)", ETIMEDOUT);
			return -1;
		}
	}
}

/* Fills want data frames stamped with seq and send_ns; the frames filled, fewer when the flow
 * stops while waiting for one. */
static unsigned pkt_fill(struct flow *f, unsigned want, uint64_t send_ns, uint64_t deadline)
{
	const struct blast_cfg *cfg = f->cfg;
	struct pkt *p = f->pkt;
	const size_t udp_off = PKT_DATA + path.hdr_len - 8;

	for (unsigned d = 0; d < want; d++) {
		uint8_t *fr = p->frame[p->head];
		if (!frame_free(frame_status(fr)) && pkt_wait(f, deadline, 1) < 0)
			return d;
		if (!cfg->raw)
			pkt_stamp(fr + udp_off, p->base[p->head], p->queued, send_ns);
		frame_submit(fr, p->len);
		p->queued++;
		p->head = p->head + 1 == p->n ? 0 : p->head + 1;
	}
	return want;
}

/* The end of a phase: what is queued is offered for PKT_SETTLE_NS more, and what the kernel
 * still did not take is withdrawn (its sequence numbers never sent). */
static void pkt_settle(struct flow *f)
{
	struct pkt *p = f->pkt;
	uint64_t t0 = sys_mono_ns();

	while (p->taken < p->queued && f->stop != BLAST_STOP_ERROR && sys_mono_ns() - t0 < PKT_SETTLE_NS) {
		pkt_flush(f);
		if (p->taken < p->queued)
			nap();
	}
	for (unsigned i = p->tail; p->queued > p->taken; p->queued--, i = i + 1 == p->n ? 0 : i + 1)
		if (!p->jammed)
			__atomic_store_n(&((struct tpacket2_hdr *)(void *)p->frame[i])->tp_status, TP_STATUS_AVAILABLE,
					 __ATOMIC_RELEASE);
	p->head = p->tail;
}

int packet_refused(int port_fd)
{
	int e = 0;
	socklen_t len = sizeof e;

	return getsockopt(port_fd, SOL_SOCKET, SO_ERROR, &e, &len) == 0 && e == ECONNREFUSED;
}

/* The fins through the ring, repeated as the UDP path repeats them (send.c): with a growing
 * gap until the receiver is gone (an ICMP port unreachable on the port's socket) or
 * --fin-time has passed. */
static void pkt_fins(struct flow *f, uint64_t duration_ns)
{
	const struct blast_cfg *cfg = f->cfg;
	struct pkt *p = f->pkt;
	struct wire_hdr h = { .flow = (uint16_t)f->id, .run_id = cfg->run_id, .send_ns = sys_real_ns() };
	struct wire_fin fin = { .sent = f->sent, .bytes = f->bytes, .duration_ns = duration_ns,
				.flows = (uint16_t)cfg->flows, .size = mix_fin_size(cfg) };
	uint8_t buf[WIRE_FIN_LEN];
	uint64_t t0, gap = 1000000, fin_ns = (uint64_t)(cfg->fin_time_s * 1e9);

	wire_put_fin(buf, &h, &fin, cfg->key.set ? cfg->key.k : NULL);
	p->fin_phase = 1;
	packet_refused(p->port_fd); /* an earlier refusal (suck not there yet) is not this one's */
	t0 = sys_mono_ns();
	for (;;) {
		uint8_t *fr = p->frame[p->head];
		if (!frame_free(frame_status(fr)) && pkt_wait(f, t0 + fin_ns, 0) < 0)
			break;
		uint8_t *data = fr + PKT_DATA;
		size_t hl = pkt_headers(&path, data, p->sport, WIRE_FIN_LEN);
		memcpy(data + hl, buf, WIRE_FIN_LEN);
		pkt_udp_csum(&path, data + hl - 8);
		frame_submit(fr, (unsigned)(hl + WIRE_FIN_LEN));
		p->queued++;
		p->head = p->head + 1 == p->n ? 0 : p->head + 1;
		pkt_flush(f);
		f->fins = p->taken - p->data;
		if (f->stop == BLAST_STOP_ERROR || (f->fins > 0 && packet_refused(p->port_fd)))
			break;
		if (sys_mono_ns() - t0 >= fin_ns)
			break;
		struct timespec ts = { .tv_sec = 0, .tv_nsec = (long)gap };
		nanosleep(&ts, NULL);
		gap = gap * 2 < 250000000 ? gap * 2 : 250000000;
	}
	pkt_settle(f);
	f->fins = p->taken - p->data;
}

void ring_run(struct flow *f, const struct ring_ops *o)
{
	const struct blast_cfg *cfg = f->cfg;
	uint64_t now = sys_mono_ns();
	uint64_t wall = sys_real_ns() - now; /* mono + wall = the epoch time for send stamps */
	uint64_t deadline = f->deadline_ns;

	f->start_ns = f->end_ns = now;
	f->stop = BLAST_STOP_TIME;
	for (;;) {
		unsigned want = f->batch;
		uint64_t queued = o->queued(f);

		if (sys_stop) {
			f->stop = BLAST_STOP_SIGNAL;
			break;
		}
		if (deadline && now >= deadline)
			break;
		if (f->quota) {
			if (queued >= f->quota) {
				f->stop = BLAST_STOP_COUNT;
				break;
			}
			if (f->quota - queued < want)
				want = (unsigned)(f->quota - queued);
		}
		if (cfg->rate && (want = rate_take(&f->rate, want, &now)) == 0)
			continue;
		unsigned filled = o->fill(f, want, now + wall, deadline);
		if (filled)
			o->flush(f);
		f->sent = o->sent(f);
		f->bytes = f->sent * cfg->size;
		atomic_store_explicit(&f->progress_sent, f->sent, memory_order_relaxed);
		uint64_t prev = f->end_ns;
		f->end_ns = now = sys_mono_ns();
		hist_add(&f->gaps, now - prev);
		if (f->progress_ns && now >= f->progress_ns)
			f->progress_ns = progress_line(now);
		if (filled < want || f->stop == BLAST_STOP_ERROR)
			break;
	}
	if (o->settle(f))
		f->end_ns = sys_mono_ns();
	f->sent = o->sent(f);
	f->bytes = f->sent * cfg->size;
	atomic_store_explicit(&f->progress_sent, f->sent, memory_order_relaxed);
	/* the window as the UDP loop's (send.c) */
	if (cfg->rate) {
		uint64_t until = f->stop == BLAST_STOP_TIME ? deadline : f->stop == BLAST_STOP_SIGNAL ? now :
				 f->stop == BLAST_STOP_COUNT ? rate_due_ns(&f->rate) : f->end_ns;
		if (until > f->end_ns)
			f->end_ns = until;
	}
	if (!cfg->raw && o->fins_ok(f))
		o->fins(f, f->end_ns - f->start_ns);
}

static uint64_t pkt_queued(const struct flow *f) { return f->pkt->queued; }
static uint64_t pkt_taken(const struct flow *f) { return f->pkt->taken; }
/* what the kernel has not taken yet, waited for; the data frames it took are the run's */
static int pkt_wait_all(struct flow *f)
{
	struct pkt *p = f->pkt;
	int waited = p->taken < p->queued;

	if (waited)
		pkt_settle(f);
	p->data = p->taken;
	return waited;
}
static int pkt_fins_ok(const struct flow *f) { return !f->pkt->jammed; }

static const struct ring_ops pkt_ops = { pkt_fill, pkt_flush, pkt_queued, pkt_taken, pkt_wait_all,
					  pkt_fins_ok, pkt_fins };

static void pkt_run(struct flow *f)
{
	ring_run(f, &pkt_ops);
}

const struct send_mode mode_packet = {
	.name = "packet",
	.what = "--via packet: Ethernet frames built by blast in an AF_PACKET TX ring, one send a batch",
	.socket = 0,
	.setup = pkt_setup,
	.run = pkt_run,
	.free = pkt_free,
};

/* --- the report ------------------------------------------------------------------------- */

const char *packet_dev(void)
{
	return path_ready ? path.dev : NULL;
}

const struct pkt_path *packet_path(void)
{
	return path_ready ? &path : NULL;
}

const char *packet_dst_mac(char *buf, size_t len)
{
	if (!path_ready || !path.dst_known)
		return NULL;
	mac_text(path.dst_mac, buf, len);
	return buf;
}

void packet_report_frames(struct report *r, int on, uint64_t frames, uint64_t outstanding, uint64_t full,
			  uint64_t refused)
{
	if (on) {
		report_u64(r, "tx_frames", frames);
		report_u64(r, "tx_outstanding", outstanding);
		report_u64(r, "ring_full", full);
		report_u64(r, "ring_refused", refused);
	} else {
		report_none(r, "tx_frames");
		report_none(r, "tx_outstanding");
		report_none(r, "ring_full");
		report_none(r, "ring_refused");
	}
}

void packet_report(struct report *r, const struct blast_cfg *cfg, const struct flow *fs, unsigned n)
{
	uint64_t frames = 0, full = 0, refused = 0;

	for (unsigned i = 0; i < n; i++)
		if (fs[i].pkt) {
			frames += fs[i].pkt->taken;
			full += fs[i].pkt->ring_full;
			refused += fs[i].pkt->refused;
		}
	packet_report_frames(r, cfg->via != 0, frames, 0, full, refused);
}
