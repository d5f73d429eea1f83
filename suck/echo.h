/* echo: suck --echo, every valid datagram sent back to its source after the work, for blast
 * --rtt. A request (wire.h, WIRE_REQ) may ask for a reply of another size: the reply is the
 * request cut to that size, or padded with zeros, so its header is the request's. Replies are
 * queued as sendmmsg messages pointing into the receive buffers and sent when the queue is full
 * (one at a time for the one-datagram variants) or when the variant flushes it after a batch,
 * before the buffers are reused; nothing is allocated or copied per datagram. */
#ifndef ECHO_H
#define ECHO_H
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

struct echo {
	unsigned n, cap;          /* replies queued; at most */
	socklen_t namelen;        /* of the socket's family: the source address as the kernel wrote it */
	uint64_t sent, errors;    /* replies the kernel took; replies it refused (EAGAIN, ENOBUFS, ...) */
	struct mmsghdr *msgs;
	struct iovec *iov;        /* two per reply: the datagram, and zeros when the reply is longer */
};

struct echo *echo_new(unsigned cap, int family); /* NULL with errno */
/* Queues the reply to a datagram of len bytes in buf from src; flushes when the queue is full.
 * buf and src must stay as they are until the queue is flushed. */
void echo_add(struct echo *e, int fd, const uint8_t *buf, size_t len, const void *src);
/* Sends what is queued, without blocking: a reply the kernel refuses is counted, not retried. */
void echo_flush(struct echo *e, int fd);
void echo_free(struct echo *e);

#endif
