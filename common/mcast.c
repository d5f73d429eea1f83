/* mcast: multicast sockets (see mcast.h). Pitfalls: IP_TTL does not apply to multicast (its own
 * IP_MULTICAST_TTL, default 1); IP_MULTICAST_IF takes an ip_mreqn to name an interface by
 * index; the group_req and group_source_req of the protocol-independent calls hold addresses
 * as sockaddr_storage, with the port ignored. */
#include "mcast.h"

#include <errno.h>
#include <netinet/in.h>
#include <string.h>

int mcast_is_group(const struct net_addr *a)
{
	if (a->ss.ss_family == AF_INET)
		return IN_MULTICAST(ntohl(((const struct sockaddr_in *)&a->ss)->sin_addr.s_addr));
	if (a->ss.ss_family == AF_INET6)
		return IN6_IS_ADDR_MULTICAST(&((const struct sockaddr_in6 *)&a->ss)->sin6_addr);
	return 0;
}

static int set_int(int fd, int level, int name, int v)
{
	return setsockopt(fd, level, name, &v, sizeof v);
}

int mcast_send(int fd, const struct net_addr *to, int ttl, unsigned ifindex, int loop, const char **call)
{
	if (to->ss.ss_family == AF_INET6) {
		if (set_int(fd, IPPROTO_IPV6, IPV6_MULTICAST_HOPS, ttl) < 0) {
			*call = "setsockopt IPV6_MULTICAST_HOPS";
			return -1;
		}
		if (ifindex && set_int(fd, IPPROTO_IPV6, IPV6_MULTICAST_IF, (int)ifindex) < 0) {
			*call = "setsockopt IPV6_MULTICAST_IF";
			return -1;
		}
		if (set_int(fd, IPPROTO_IPV6, IPV6_MULTICAST_LOOP, loop) < 0) {
			*call = "setsockopt IPV6_MULTICAST_LOOP";
			return -1;
		}
		return 0;
	}
	if (set_int(fd, IPPROTO_IP, IP_MULTICAST_TTL, ttl) < 0) {
		*call = "setsockopt IP_MULTICAST_TTL";
		return -1;
	}
	if (ifindex) {
		struct ip_mreqn m = { .imr_ifindex = (int)ifindex };
		if (setsockopt(fd, IPPROTO_IP, IP_MULTICAST_IF, &m, sizeof m) < 0) {
			*call = "setsockopt IP_MULTICAST_IF";
			return -1;
		}
	}
	if (set_int(fd, IPPROTO_IP, IP_MULTICAST_LOOP, loop) < 0) {
		*call = "setsockopt IP_MULTICAST_LOOP";
		return -1;
	}
	return 0;
}

int mcast_join(int fd, const struct net_addr *group, const struct net_addr *source, unsigned ifindex,
	       const char **call)
{
	int level = group->ss.ss_family == AF_INET6 ? IPPROTO_IPV6 : IPPROTO_IP;

	if (source) {
		struct group_source_req g = { .gsr_interface = ifindex };
		memcpy(&g.gsr_group, &group->ss, group->len);
		memcpy(&g.gsr_source, &source->ss, source->len);
		if (setsockopt(fd, level, MCAST_JOIN_SOURCE_GROUP, &g, sizeof g) < 0) {
			*call = "setsockopt MCAST_JOIN_SOURCE_GROUP";
			return -1;
		}
	} else {
		struct group_req g = { .gr_interface = ifindex };
		memcpy(&g.gr_group, &group->ss, group->len);
		if (setsockopt(fd, level, MCAST_JOIN_GROUP, &g, sizeof g) < 0) {
			*call = "setsockopt MCAST_JOIN_GROUP";
			return -1;
		}
	}
	/* Only the groups this socket joined (Linux's default is every group of the host on a
	 * socket bound to the port), and so a source filter that holds whoever else joined. */
	if (level == IPPROTO_IPV6 ? set_int(fd, IPPROTO_IPV6, IPV6_MULTICAST_ALL, 0) < 0 :
				    set_int(fd, IPPROTO_IP, IP_MULTICAST_ALL, 0) < 0) {
		*call = level == IPPROTO_IPV6 ? "setsockopt IPV6_MULTICAST_ALL" : "setsockopt IP_MULTICAST_ALL";
		return -1;
	}
	return 0;
}
