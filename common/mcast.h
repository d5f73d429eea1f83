/* mcast: multicast groups, both ends. blast sends to a group with a TTL (1 unless --ttl: a
 * group's datagrams stay on the link unless asked), an outgoing interface and multicast loop
 * set on its socket before the first datagram; suck joins a group, any-source or
 * source-specific (MCAST_JOIN_GROUP, MCAST_JOIN_SOURCE_GROUP: one call for IPv4 and IPv6), on
 * an interface, and asks for the groups it joined only (IP_MULTICAST_ALL 0: by default Linux
 * hands a socket bound to the port every group any socket of the host joined). Functions
 * return -1 with errno and name the failed call in *call. */
#ifndef MCAST_H
#define MCAST_H

#include "net.h"

/* 1 when a is a multicast address (224.0.0.0/4, ff00::/8). */
int mcast_is_group(const struct net_addr *a);
/* A sender's socket to group `to`: TTL or hop limit ttl, outgoing interface ifindex (0: the
 * route's), loop 1 (local receivers get a copy) or 0. */
int mcast_send(int fd, const struct net_addr *to, int ttl, unsigned ifindex, int loop, const char **call);
/* Joins group on interface ifindex (0: the kernel's choice by route), from source only when
 * source is not NULL, and stops the groups this socket did not join from reaching it. */
int mcast_join(int fd, const struct net_addr *group, const struct net_addr *source, unsigned ifindex,
	       const char **call);
/* For a source-specific join on interface ifindex (0: the route's): whether a sender on this
 * host would be kept out. 1 when source is an address of this host and the kernel gives this
 * host's datagrams to group another source address, *kernel (on lo, a host's other address:
 * 127.0.0.1 has host scope, which a multicast route does not pick); 0 when not, or when source
 * is no address of this host (its sender is elsewhere); -1 with errno and *call. */
int mcast_source_kept_out(const struct net_addr *group, const struct net_addr *source, unsigned ifindex,
			  struct net_addr *kernel, const char **call);

#endif
