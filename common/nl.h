/* nl: the rtnetlink requests blast makes (a route, a neighbour, a device's and its qdiscs'
 * counters): one request, every answer to a callback. */
#ifndef NL_H
#define NL_H
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <stddef.h>

/* Sends req on NETLINK_ROUTE (its seq set here) and gives every answer to fn, waiting 2 s at
 * most for each; 0, or -1 with errno (an NLMSG_ERROR's). */
int nl_ask(struct nlmsghdr *req, void (*fn)(const struct nlmsghdr *, void *), void *ctx);
/* Appends attribute type of len bytes at v to h (room is the caller's; len 0, v NULL: a nest). */
void nl_attr(struct nlmsghdr *h, unsigned type, const void *v, size_t len);
#endif
