/* mark: marking datagrams and reading the marking back (see mark.h). The pitfalls: IP_TOS is
 * delivered as one byte, IP_TTL, IPV6_TCLASS and IPV6_HOPLIMIT as an int; an IPv6 socket that
 * sends to a v4-mapped address puts the IPv4 options on the wire, not the IPv6 ones. */
#include "mark.h"

#include <errno.h>
#include <netinet/in.h>
#include <string.h>

static int set_int(int fd, int level, int name, int v)
{
	return setsockopt(fd, level, name, &v, sizeof v);
}

int mark_apply(int fd, const struct net_addr *to, const struct mark_set *m, const char **call)
{
	const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)&to->ss;
	int v6 = to->ss.ss_family == AF_INET6;
	int v4 = !v6 || IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr);

	if (m->tos >= 0) {
		if (v6 && set_int(fd, IPPROTO_IPV6, IPV6_TCLASS, m->tos) < 0) {
			*call = "setsockopt IPV6_TCLASS";
			return -1;
		}
		if (v4 && set_int(fd, IPPROTO_IP, IP_TOS, m->tos) < 0) {
			*call = "setsockopt IP_TOS";
			return -1;
		}
	}
	if (m->ttl >= 0) {
		if (v6 && set_int(fd, IPPROTO_IPV6, IPV6_UNICAST_HOPS, m->ttl) < 0) {
			*call = "setsockopt IPV6_UNICAST_HOPS";
			return -1;
		}
		if (v4 && set_int(fd, IPPROTO_IP, IP_TTL, m->ttl) < 0) {
			*call = "setsockopt IP_TTL";
			return -1;
		}
	}
	if (m->priority >= 0 && set_int(fd, SOL_SOCKET, SO_PRIORITY, (int)m->priority) < 0) {
		*call = "setsockopt SO_PRIORITY";
		return -1;
	}
	return 0;
}

int mark_receive(int fd, int family, const char **call)
{
	if (family == AF_INET6) {
		if (set_int(fd, IPPROTO_IPV6, IPV6_RECVTCLASS, 1) < 0) {
			*call = "setsockopt IPV6_RECVTCLASS";
			return -1;
		}
		if (set_int(fd, IPPROTO_IPV6, IPV6_RECVHOPLIMIT, 1) < 0) {
			*call = "setsockopt IPV6_RECVHOPLIMIT";
			return -1;
		}
	}
	/* On an IPv6 socket too: IPv4 datagrams reaching it (bound to ::) carry IPv4's. */
	if (set_int(fd, IPPROTO_IP, IP_RECVTOS, 1) < 0) {
		*call = "setsockopt IP_RECVTOS";
		return -1;
	}
	if (set_int(fd, IPPROTO_IP, IP_RECVTTL, 1) < 0) {
		*call = "setsockopt IP_RECVTTL";
		return -1;
	}
	return 0;
}

void mark_cmsg(const struct cmsghdr *c, uint32_t *m)
{
	const unsigned char *d = CMSG_DATA(c);
	int v;

	if (c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_TOS && c->cmsg_len >= CMSG_LEN(1)) {
		*m = (*m & ~(MARK_TOS | 0xff00u)) | MARK_TOS | (uint32_t)d[0] << 8;
		return;
	}
	if (c->cmsg_len < CMSG_LEN(sizeof v))
		return;
	memcpy(&v, d, sizeof v);
	v &= 0xff;
	if ((c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_TTL) ||
	    (c->cmsg_level == IPPROTO_IPV6 && c->cmsg_type == IPV6_HOPLIMIT))
		*m = (*m & ~(MARK_TTL | 0xffu)) | MARK_TTL | (uint32_t)v;
	else if (c->cmsg_level == IPPROTO_IPV6 && c->cmsg_type == IPV6_TCLASS)
		*m = (*m & ~(MARK_TOS | 0xff00u)) | MARK_TOS | (uint32_t)v << 8;
}
