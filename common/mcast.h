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

#endif
