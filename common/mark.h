/* mark: the IP marking of datagrams, both ends. blast sets the TOS byte (IPv4) or traffic class
 * (IPv6), the TTL or hop limit and SO_PRIORITY on its socket before the first send; suck asks
 * the kernel for what arrived (IP_RECVTOS, IP_RECVTTL, IPV6_RECVTCLASS, IPV6_RECVHOPLIMIT) and
 * reads it from each datagram's control messages. A mark is packed in 32 bits so that two
 * datagrams' markings compare as integers: MARK_TOS and MARK_TTL say which halves are known. */
#ifndef MARK_H
#define MARK_H
#include <stdint.h>
#include <sys/socket.h>

#include "net.h"

#define MARK_TOS (1u << 31)      /* the TOS / traffic class byte is in bits 8..15 */
#define MARK_TTL (1u << 30)      /* the TTL / hop limit is in bits 0..7 */
#define MARK_NONE 0u             /* no control message said anything */

static inline unsigned mark_tos(uint32_t m) { return (m >> 8) & 0xff; }
static inline unsigned mark_ttl(uint32_t m) { return m & 0xff; }

/* What blast sets; -1 leaves the kernel's default. */
struct mark_set {
	int tos;                 /* 0..255: the whole byte, DSCP << 2 | ECN */
	int ttl;                 /* 1..255: unicast TTL or hop limit */
	long priority;           /* SO_PRIORITY, 0..INT_MAX (above 6 needs CAP_NET_ADMIN) */
};

/* Sets the marks on a socket that sends to `to` (the address decides the family, and a
 * v4-mapped IPv6 address, which leaves as IPv4, takes the IPv4 options as well). 0, or -1 with
 * errno and *call naming the setsockopt that failed. */
int mark_apply(int fd, const struct net_addr *to, const struct mark_set *m, const char **call);

/* Asks the kernel to deliver the TOS and TTL (IPv4) or traffic class and hop limit (IPv6) of
 * every datagram as control messages; an IPv6 socket asks for both families' (IPv4 datagrams
 * reach a dual-stack socket with IPv4's). 0, or -1 with errno and *call. */
int mark_receive(int fd, int family, const char **call);

/* The marking among one control message's contents; m is updated (call it for each). */
void mark_cmsg(const struct cmsghdr *c, uint32_t *m);
/* Room for the marking's control messages in a receive's control buffer. */
#define MARK_CTL_LEN (2 * CMSG_SPACE(sizeof(int)))

#endif
