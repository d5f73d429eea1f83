/* echo: replies to valid datagrams, cut to the allowance and held to a per-source budget (see
 * echo.h). */
#include "echo.h"

#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "sys.h"
#include "wire.h"

static const uint8_t zeros[WIRE_MAX_REPLY]; /* the padding of a reply longer than its request */

struct echo_budget *echo_budget_new(uint64_t rate)
{
	struct echo_budget *b = mmap(NULL, sizeof *b, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (b == MAP_FAILED)
		return NULL;
	/* zeroed: every bucket is filled at its first use */
	b->rate = rate;
	sys_random(b->key, sizeof b->key);
	pthread_mutex_init(&b->lock, NULL);
	return b;
}

void echo_budget_free(struct echo_budget *b)
{
	if (!b)
		return;
	pthread_mutex_destroy(&b->lock);
	munmap(b, sizeof *b);
}

int echo_budget_take(struct echo_budget *b, const void *addr, size_t alen, uint64_t extra, uint64_t now_ns)
{
	struct echo_bucket *k = &b->bucket[key_siphash(b->key, addr, alen) & (ECHO_BUCKETS - 1)];
	/* nano-bytes: rate x 1e9 fits 64 bits while rate <= 2^34 (SUCK_MAX_ECHO_BUDGET) */
	uint64_t full = b->rate * 1000000000ull, dt = now_ns > k->last_ns ? now_ns - k->last_ns : 0;

	/* a wall clock stepped back refills nothing, and counts on from where it is now */
	k->last_ns = now_ns;
	k->tokens = dt >= 1000000000ull || full - k->tokens <= dt * b->rate ? full : k->tokens + dt * b->rate;
	if (extra * 1000000000ull > k->tokens)
		return 0;
	k->tokens -= extra * 1000000000ull;
	return 1;
}

struct echo *echo_new(unsigned cap, int family, unsigned max, struct echo_budget *budget)
{
	struct echo *e = calloc(1, sizeof *e);

	if (!e)
		return NULL;
	e->cap = cap ? cap : 1;
	e->max = max;
	e->budget = budget;
	e->namelen = family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
	e->msgs = calloc(e->cap, sizeof *e->msgs);
	e->iov = calloc(2 * (size_t)e->cap, sizeof *e->iov);
	if (!e->msgs || !e->iov) {
		echo_free(e);
		errno = ENOMEM;
		return NULL;
	}
	for (unsigned i = 0; i < e->cap; i++)
		e->iov[2 * i + 1].iov_base = (void *)zeros;
	return e;
}

void echo_add(struct echo *e, int fd, const uint8_t *buf, size_t len, const void *src, uint64_t count)
{
	struct msghdr *mh = &e->msgs[e->n].msg_hdr;
	struct iovec *iov = &e->iov[2 * e->n];
	size_t reply = buf[5] == WIRE_REQ && wire_get_reply(buf) ? wire_get_reply(buf) : len;
	size_t allowed = len > e->max ? len : e->max;

	/* never larger than the request, unless --echo-max allows it */
	if (reply > allowed) {
		reply = allowed;
		e->clipped++;
	}
	iov[0].iov_base = (void *)buf;
	iov[0].iov_len = reply < len ? reply : len;
	iov[1].iov_len = reply - iov[0].iov_len;
	/* the echo block, over the request's own bytes, when the reply carries it: the count now,
	 * the receive time once per batch (its first such reply), written in by the flush. A
	 * queue of one (copy, buffer) is flushed right here: the flush's read is the receive time
	 * too, and no second read per datagram measures the nothing in between. */
	if (buf[5] == WIRE_REQ && iov[0].iov_len >= WIRE_ECHO_END) {
		wire_put_echo_count((uint8_t *)buf, count); /* the receive buffer, as the flush writes it */
		if (!e->rx_ns && e->cap > 1)
			e->rx_ns = sys_real_ns();
	}
	/* set each time: a flush that drops a reply moves the others' headers down */
	mh->msg_iov = iov;
	mh->msg_iovlen = iov[1].iov_len ? 2 : 1;
	e->padded += iov[1].iov_len != 0;
	mh->msg_name = (void *)src;
	mh->msg_namelen = e->namelen;
	if (++e->n == e->cap)
		echo_flush(e, fd);
}

/* The replies with padding over their source's budget taken out of the queue, the others moved
 * down in order. */
static void budget_pass(struct echo *e, uint64_t now)
{
	struct echo_budget *b = e->budget;
	unsigned kept = 0;

	pthread_mutex_lock(&b->lock);
	for (unsigned k = 0; k < e->n; k++) {
		const struct msghdr *mh = &e->msgs[k].msg_hdr;
		const struct sockaddr *sa = mh->msg_name;
		int ok = 1;

		if (mh->msg_iovlen > 1) {
			if (sa->sa_family == AF_INET6)
				ok = echo_budget_take(b, &((const struct sockaddr_in6 *)mh->msg_name)->sin6_addr,
						      sizeof(struct in6_addr), mh->msg_iov[1].iov_len, now);
			else
				ok = echo_budget_take(b, &((const struct sockaddr_in *)mh->msg_name)->sin_addr,
						      sizeof(struct in_addr), mh->msg_iov[1].iov_len, now);
		}
		if (!ok) {
			e->limited++;
			continue;
		}
		if (kept != k)
			e->msgs[kept].msg_hdr = *mh;
		kept++;
	}
	pthread_mutex_unlock(&b->lock);
	e->n = kept;
}

void echo_flush(struct echo *e, int fd)
{
	unsigned i = 0;
	uint64_t now;

	if (!e->n)
		return;
	/* Each reply says when suck sent it (wall clock, once per flush), so that blast can tell
	 * how far the two hosts' clocks are apart; the same reading fills the budget's buckets. */
	now = sys_real_ns();
	if (e->padded)
		budget_pass(e, now);
	e->padded = 0;
	for (unsigned k = 0; k < e->n; k++) {
		const struct iovec *iov = e->msgs[k].msg_hdr.msg_iov;
		uint8_t *b = iov[0].iov_base;
		if (b[5] == WIRE_REQ && iov[0].iov_len >= WIRE_ECHO_END)
			wire_put_echo_rx(b, e->rx_ns ? e->rx_ns : now);
		wire_put_echo(b, now);
	}
	e->rx_ns = 0;

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
