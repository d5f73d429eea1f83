/* nl: one request on NETLINK_ROUTE and its answers (nl.h). */
#include "nl.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

/* Sends req on NETLINK_ROUTE and gives every answer to fn; 0, or -1 with errno (an NLMSG_ERROR's). */
int nl_ask(struct nlmsghdr *req, void (*fn)(const struct nlmsghdr *, void *), void *ctx)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct timeval tv = { .tv_sec = 2 };
	static union {
		char b[65536];
		struct nlmsghdr align;
	} buf;
	int s = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE), e = 0;

	if (s < 0)
		return -1;
	setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	req->nlmsg_seq = 1;
	if (sendto(s, req, req->nlmsg_len, 0, (struct sockaddr *)&kernel, sizeof kernel) < 0) {
		e = errno;
		goto out;
	}
	for (;;) {
		ssize_t got = recv(s, buf.b, sizeof buf.b, 0);
		size_t at = 0;
		if (got < 0) {
			e = errno;
			goto out;
		}
		/* NLMSG_OK and NLMSG_NEXT, without their signed length */
		for (struct nlmsghdr *h = &buf.align; at + NLMSG_HDRLEN <= (size_t)got && h->nlmsg_len >= NLMSG_HDRLEN &&
		     at + h->nlmsg_len <= (size_t)got;
		     at += NLMSG_ALIGN(h->nlmsg_len), h = (struct nlmsghdr *)(void *)(buf.b + at)) {
			if (h->nlmsg_type == NLMSG_DONE)
				goto out;
			if (h->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *err = NLMSG_DATA(h);
				e = h->nlmsg_len >= NLMSG_LENGTH(sizeof *err) ? -err->error : EPROTO;
				goto out;
			}
			fn(h, ctx);
			if (!(h->nlmsg_flags & NLM_F_MULTI))
				goto out;
		}
	}
out:
	close(s);
	errno = e;
	return e ? -1 : 0;
}

void nl_attr(struct nlmsghdr *h, unsigned type, const void *v, size_t len)
{
	struct rtattr *a = (struct rtattr *)((char *)h + NLMSG_ALIGN(h->nlmsg_len));

	a->rta_type = (unsigned short)type;
	a->rta_len = (unsigned short)RTA_LENGTH(len);
	if (len) /* none: a nest's header, its members after it */
		memcpy(RTA_DATA(a), v, len);
	h->nlmsg_len = NLMSG_ALIGN(h->nlmsg_len) + RTA_ALIGN(a->rta_len);
}
