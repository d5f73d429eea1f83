/* mcast: multicast sockets (see mcast.h). Pitfalls: IP_TTL does not apply to multicast (its own
 * IP_MULTICAST_TTL, default 1); IP_MULTICAST_IF takes an ip_mreqn to name an interface by
 * index; the group_req and group_source_req of the protocol-independent calls hold addresses
 * as sockaddr_storage, with the port ignored. */
#include "mcast.h"

#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <unistd.h>

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

/* The address and its port set apart: the port of a net_addr is not part of what is compared. */
static int same_host(const struct net_addr *a, const struct net_addr *b)
{
	if (a->ss.ss_family != b->ss.ss_family)
		return 0;
	if (a->ss.ss_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)&a->ss)->sin6_addr,
			       &((const struct sockaddr_in6 *)&b->ss)->sin6_addr, sizeof(struct in6_addr));
	return ((const struct sockaddr_in *)&a->ss)->sin_addr.s_addr ==
	       ((const struct sockaddr_in *)&b->ss)->sin_addr.s_addr;
}

int mcast_source_kept_out(const struct net_addr *group, const struct net_addr *source, unsigned ifindex,
			  struct net_addr *kernel, const char **call)
{
	struct net_addr to = *group, here = *source;
	int fd, r = 0;

	/* An address of this host is one a socket can bind to. */
	if ((fd = socket(source->ss.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0) {
		*call = "socket";
		return -1;
	}
	if (here.ss.ss_family == AF_INET6)
		((struct sockaddr_in6 *)&here.ss)->sin6_port = 0;
	else
		((struct sockaddr_in *)&here.ss)->sin_port = 0;
	if (bind(fd, (const struct sockaddr *)&here.ss, here.len) < 0) {
		close(fd);
		return 0;
	}
	close(fd);
	/* The source the kernel picks for this host's datagrams to the group, out of ifindex: a
	 * connected socket's own address (connect routes, nothing is sent). Port 9, for a group
	 * given with port 0 (suck -p 0), which connect refuses. */
	if ((fd = socket(group->ss.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0) {
		*call = "socket";
		return -1;
	}
	if (to.ss.ss_family == AF_INET6)
		((struct sockaddr_in6 *)&to.ss)->sin6_port = htons(9);
	else
		((struct sockaddr_in *)&to.ss)->sin_port = htons(9);
	kernel->len = sizeof kernel->ss;
	if (mcast_send(fd, &to, 1, ifindex, 1, call) < 0) {
		r = -1;
	} else if (connect(fd, (const struct sockaddr *)&to.ss, to.len) < 0) {
		*call = "connect";
		r = -1;
	} else if (getsockname(fd, (struct sockaddr *)&kernel->ss, &kernel->len) < 0) {
		*call = "getsockname";
		r = -1;
	} else {
		r = !same_host(kernel, source);
	}
	int e = errno;
	close(fd);
	errno = e;
	return r;
}
