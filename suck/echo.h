/* echo: suck --echo, every valid datagram sent back to its source after the work, for blast
 * --rtt. A request (wire.h, WIRE_REQ) may ask for a reply of another size: the reply is the
 * request cut to that size, or padded with zeros, so its header is the request's. Replies are
 * queued as sendmmsg messages pointing into the receive buffers and sent when the queue is full
 * (one at a time for the one-datagram variants) or when the variant flushes it after a batch,
 * before the buffers are reused; nothing is allocated or copied per datagram.
 *
 * Pitfall: a UDP source address is whatever the sender wrote, so every reply may go to a host
 * that never asked (a reflection attack). Two limits keep suck from amplifying one: a reply is
 * never larger than its request unless --echo-max allows more (larger ones are cut to the
 * allowance: clipped), and the bytes a reply carries beyond its request (the padding) are taken
 * from a per-source budget (struct echo_budget, shared by every thread and every run served):
 * a reply over it is not sent (limited). So what any address receives is at most what was sent
 * in its name, plus the budget.
 *
 * A request of at least WIRE_ECHO_END bytes whose reply is as long gets the echo block (wire.h)
 * written over its own bytes: the requests of its flow suck has taken so far (the tracker's
 * valid count, this one included) and the receive time, the clock read once per batch as its
 * first such reply is queued (after the receive call and that datagram's work), so every
 * request of a batch carries the batch's time; the flush's read is the send time. The
 * one-datagram variants (a queue of one, flushed as it is added) read once: both times are the
 * flush's. The reply's size does not change. */
#ifndef ECHO_H
#define ECHO_H
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "key.h"

#define ECHO_BUCKETS 4096 /* the budget's buckets, a power of two: 64 KiB */

/* A token bucket of padding bytes per source address (IPv4, or IPv6 as the socket reports it;
 * the port does not count, a spoofer picks it), in nano-bytes so that a refill every
 * microsecond loses nothing to rounding. An address's bucket is picked by SipHash under a random
 * key: addresses that share one share its budget, so none can have more than one budget, and no
 * address can push another out of the table. */
struct echo_bucket {
	uint64_t tokens;          /* bytes x 1e9 that may still be sent beyond the requests */
	uint64_t last_ns;         /* when it was last filled (suck's wall clock); 0: never */
};
struct echo_budget {
	pthread_mutex_t lock;     /* taken once per flush, and only by a flush with padding */
	uint64_t rate;            /* bytes a second; the bucket holds one second's */
	uint8_t key[KEY_LEN];
	struct echo_bucket bucket[ECHO_BUCKETS];
};

struct echo {
	unsigned n, cap;          /* replies queued; at most */
	socklen_t namelen;        /* of the socket's family: the source address as the kernel wrote it */
	unsigned max;             /* --echo-max: a reply may be this large even when its request is not */
	unsigned padded;          /* replies queued with padding: the flush asks the budget */
	struct echo_budget *budget;
	uint64_t sent, errors;    /* replies the kernel took; replies it refused (EAGAIN, ENOBUFS, ...) */
	uint64_t clipped;         /* replies cut to the allowance: asked for more than --echo-max */
	uint64_t limited;         /* replies not sent: their padding was over their source's budget */
	uint64_t rx_ns;           /* the echo block's receive time for the batch queued, 0: not read */
	struct mmsghdr *msgs;
	struct iovec *iov;        /* two per reply: the datagram, and zeros when the reply is longer */
};

/* rate: bytes a second (--echo-budget). mmap'd, as suck's other meters: not the variant's
 * heap. NULL with errno. */
struct echo_budget *echo_budget_new(uint64_t rate);
void echo_budget_free(struct echo_budget *b);
/* Whether extra bytes of padding may go to the address addr (alen bytes: an in_addr or in6_addr)
 * at now_ns; if so they are taken from its bucket. The caller holds b->lock. */
int echo_budget_take(struct echo_budget *b, const void *addr, size_t alen, uint64_t extra, uint64_t now_ns);

/* cap replies queued at most; max the --echo-max allowance; budget every thread's. NULL with
 * errno. */
struct echo *echo_new(unsigned cap, int family, unsigned max, struct echo_budget *budget);
/* Queues the reply to a datagram of len bytes in buf from src; flushes when the queue is full.
 * buf and src must stay as they are until the queue is flushed. count: the requests of its flow
 * taken so far, this one included, for the echo block, which is written into buf as the
 * header is at the flush. */
void echo_add(struct echo *e, int fd, const uint8_t *buf, size_t len, const void *src, uint64_t count);
/* Sends what is queued, without blocking: a reply the kernel refuses is counted, not retried;
 * one over its source's budget is counted and not sent. Reads the clock once (and echo_add once
 * per batch with an echo block, in a queue longer than one). */
void echo_flush(struct echo *e, int fd);
void echo_free(struct echo *e);

#endif
