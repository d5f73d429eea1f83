/* echo: replies to valid datagrams (see echo.h). */
#include "echo.h"

#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>

#include "sys.h"
#include "wire.h"

static const uint8_t zeros[WIRE_MAX_REPLY]; /* the padding of a reply longer than its request */

struct echo *echo_new(unsigned cap, int family)
{
	struct echo *e = calloc(1, sizeof *e);

	if (!e)
		return NULL;
	e->cap = cap ? cap : 1;
	e->namelen = family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
	e->msgs = calloc(e->cap, sizeof *e->msgs);
	e->iov = calloc(2 * (size_t)e->cap, sizeof *e->iov);
	if (!e->msgs || !e->iov) {
		echo_free(e);
		errno = ENOMEM;
		return NULL;
	}
	for (unsigned i = 0; i < e->cap; i++) {
		e->msgs[i].msg_hdr.msg_iov = &e->iov[2 * i];
		e->iov[2 * i + 1].iov_base = (void *)zeros;
	}
	return e;
}

void echo_add(struct echo *e, int fd, const uint8_t *buf, size_t len, const void *src)
{
	struct msghdr *mh = &e->msgs[e->n].msg_hdr;
	struct iovec *iov = mh->msg_iov;
	size_t reply = buf[5] == WIRE_REQ && wire_get_reply(buf) ? wire_get_reply(buf) : len;

	iov[0].iov_base = (void *)buf;
	iov[0].iov_len = reply < len ? reply : len;
	iov[1].iov_len = reply - iov[0].iov_len;
	mh->msg_iovlen = iov[1].iov_len ? 2 : 1;
	mh->msg_name = (void *)src;
	mh->msg_namelen = e->namelen;
	if (++e->n == e->cap)
		echo_flush(e, fd);
}

void echo_flush(struct echo *e, int fd)
{
	unsigned i = 0;
	uint64_t now;

	if (!e->n)
		return;
	/* Each reply says when suck sent it (wall clock, once per flush), so that blast can tell
	 * how far the two hosts' clocks are apart. */
	now = sys_real_ns();
	for (unsigned k = 0; k < e->n; k++)
		wire_put_echo(e->msgs[k].msg_hdr.msg_iov[0].iov_base, now);

	while (i < e->n) {
		/* MSG_DONTWAIT: a full send buffer costs a reply (blast counts it lost), never the
		 * receive loop's time */
		int r = sendmmsg(fd, e->msgs + i, e->n - i, MSG_DONTWAIT);
		if (r <= 0) {
			if (r < 0 && errno == EINTR)
				continue;
			e->errors++;
			i++;
			continue;
		}
		e->sent += (uint64_t)r;
		i += (unsigned)r;
	}
	e->n = 0;
}

void echo_free(struct echo *e)
{
	if (!e)
		return;
	free(e->msgs);
	free(e->iov);
	free(e);
}
