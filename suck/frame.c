/* frame: Ethernet, IPv4 or IPv6, UDP, bounds-checked (see frame.h). The rules are the
 * kernel's receive path's: an IPv4 header of 20..60 bytes whose total length fits the frame,
 * an IPv6 payload length that fits it, a UDP length of at least 8 within the IP payload; the
 * UDP length gives the datagram (what follows is padding). */
#include "frame.h"

#include <linux/if_ether.h>
#include <netinet/in.h>
#include <string.h>

static unsigned be16(const uint8_t *p) { return (unsigned)p[0] << 8 | p[1]; }

/* The source as udp_recvmsg and udpv6_recvmsg write it: sockaddr_in for an IPv4 socket;
 * sockaddr_in6 for an IPv6 one, IPv4 v4-mapped, with the scope of a link-local address. */
static void name4(const struct xsk_match *m, const uint8_t *saddr, const uint8_t *sport, struct rx_name *n)
{
	memset(n, 0, sizeof *n);
	if (m->family == AF_INET) {
		struct sockaddr_in s = { .sin_family = AF_INET };
		memcpy(&s.sin_port, sport, 2);
		memcpy(&s.sin_addr, saddr, 4);
		memcpy(n->b, &s, sizeof s);
	} else {
		struct sockaddr_in6 s = { .sin6_family = AF_INET6 };
		memcpy(&s.sin6_port, sport, 2);
		s.sin6_addr.s6_addr[10] = s.sin6_addr.s6_addr[11] = 0xff;
		memcpy(s.sin6_addr.s6_addr + 12, saddr, 4);
		memcpy(n->b, &s, sizeof s);
	}
}

static void name6(const struct xsk_match *m, const uint8_t *saddr, const uint8_t *sport, struct rx_name *n)
{
	struct sockaddr_in6 s = { .sin6_family = AF_INET6 };

	memset(n, 0, sizeof *n);
	memcpy(&s.sin6_port, sport, 2);
	memcpy(&s.sin6_addr, saddr, 16);
	/* a link-local source carries its interface (a multicast one cannot be a source) */
	if (saddr[0] == 0xfe && (saddr[1] & 0xc0) == 0x80)
		s.sin6_scope_id = m->ifindex;
	_Static_assert(sizeof s <= RX_NAME_LEN, "a sockaddr_in6 fits a name");
	memcpy(n->b, &s, sizeof s);
}

static int udp_of(const struct xsk_match *m, const uint8_t *u, size_t room, struct frame_udp *d)
{
	size_t ulen;

	if (room < 8 || memcmp(u + 2, &m->port, 2) != 0)
		return 0;
	ulen = be16(u + 4);
	if (ulen < 8 || ulen > room)
		return 0;
	d->payload = u + 8;
	d->len = ulen - 8;
	return 1;
}

int frame_udp(const struct xsk_match *m, const uint8_t *f, size_t len, struct frame_udp *d)
{
	const uint8_t *ip = f + ETH_HLEN;
	size_t room;

	if (len < ETH_HLEN)
		return 0;
	room = len - ETH_HLEN;
	switch (be16(f + 12)) {
	case ETH_P_IP: {
		size_t ihl, total;
		if (!m->v4 || room < 20 || ip[0] >> 4 != 4)
			return 0;
		ihl = (size_t)(ip[0] & 15) * 4;
		total = be16(ip + 2);
		if (ihl < 20 || total < ihl || total > room || ip[9] != IPPROTO_UDP)
			return 0;
		if (be16(ip + 6) & 0x3fff) /* a fragment: more to come, or not the first */
			return 0;
		if (!m->any4 && memcmp(ip + 16, m->a4, 4) != 0)
			return 0;
		if (!udp_of(m, ip + ihl, total - ihl, d))
			return 0;
		name4(m, ip + 12, ip + ihl, &d->src);
		d->mark = MARK_TOS | MARK_TTL | (uint32_t)ip[1] << 8 | ip[8];
		return 1;
	}
	case ETH_P_IPV6: {
		size_t plen;
		if (!m->v6 || room < 40 || ip[0] >> 4 != 6 || ip[6] != IPPROTO_UDP)
			return 0;
		plen = be16(ip + 4);
		if (plen > room - 40) /* 0 is a jumbogram's, which has a hop-by-hop header: not UDP */
			return 0;
		if (!m->any6 && memcmp(ip + 24, m->a6, 16) != 0)
			return 0;
		if (!udp_of(m, ip + 40, plen, d))
			return 0;
		name6(m, ip + 8, ip + 40, &d->src);
		/* the traffic class straddles the first two bytes, after the version */
		d->mark = MARK_TOS | MARK_TTL | (uint32_t)((ip[0] & 15) << 4 | ip[1] >> 4) << 8 | ip[7];
		return 1;
	}
	default:
		return 0;
	}
}
