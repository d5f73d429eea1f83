/* zc: --zerocopy. Every send call goes with MSG_ZEROCOPY on a socket with SO_ZEROCOPY, so the
 * kernel may send from blast's pages instead of copying them; a page so lent must not change
 * until the kernel says it is done with it. So the flow's buffer is a ring of ZC_SLOTS slots,
 * one send call's datagrams each: a call lays its headers out in the next slot, and a slot is
 * used again only once every message sent from it is complete. The kernel numbers the
 * zerocopy messages of a socket 0, 1, 2, ... (one per message of a call; a refused message
 * takes no number) and reports completed ranges on the socket's error queue, merged when
 * adjacent, with SO_EE_CODE_ZEROCOPY_COPIED when it copied after all (a datagram delivered on
 * this host, a device without scatter-gather). The queue is read when the next slot is still
 * in flight, not after every call: at full speed a read of one merged notification every
 * ZC_SLOTS calls or fewer. No clock is read here but while waiting for a slot. */
#include <errno.h>
#include <time.h>             /* struct timespec, which linux/errqueue.h uses */
#include <linux/errqueue.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "blast.h"
#include "sys.h"

#ifndef SO_ZEROCOPY
#define SO_ZEROCOPY 60
#endif
#ifndef SO_EE_ORIGIN_ZEROCOPY
#define SO_EE_ORIGIN_ZEROCOPY 5
#endif
#ifndef SO_EE_CODE_ZEROCOPY_COPIED
#define SO_EE_CODE_ZEROCOPY_COPIED 1
#endif

/* How long a slot (or, at the end, the last completions) may stay in flight before blast stops
 * waiting: no healthy path holds a datagram this long; a path that does has stopped. */
#define ZC_STALL_NS 2000000000ull

struct zc_slot {
	uint64_t lo, hi;       /* the messages sent from this slot: ids lo .. hi-1 */
	uint64_t pending;      /* of which not yet complete */
};

struct zc {
	struct zc_slot slot[ZC_SLOTS];
	unsigned next;         /* the slot the next call lays out */
	uint64_t next_id;      /* the id the kernel gives the next zerocopy message */
	int plain;             /* the next call goes without MSG_ZEROCOPY (see zc_result) */
};

int zc_socket(struct flow *f)
{
	int on = 1;

	if (setsockopt(f->fd, SOL_SOCKET, SO_ZEROCOPY, &on, sizeof on) == 0)
		return 0;
	sys_error_set(&f->error, "setsockopt SO_ZEROCOPY (this kernel has no MSG_ZEROCOPY for UDP)", errno);
	return -1;
}

int zc_setup(struct flow *f)
{
	return (f->zc = calloc(1, sizeof *f->zc)) ? 0 : -1;
}

void zc_free(struct flow *f)
{
	free(f->zc);
	f->zc = NULL;
}

/* The completed range lo..hi (32-bit ids, inclusive) taken off every slot it covers. Every id
 * in flight is within 2^32 of the next one, so the 32-bit ids extend to blast's 64-bit ones
 * by their distance below next_id. */
static void complete(struct flow *f, uint32_t lo32, uint32_t hi32, int copied)
{
	struct zc *z = f->zc;
	uint64_t lo = z->next_id - (uint32_t)((uint32_t)z->next_id - lo32);
	uint64_t n = (uint64_t)(uint32_t)(hi32 - lo32) + 1, hi = lo + n;

	if (lo + n > z->next_id) { /* a range blast never sent: not the kernel's, counted apart */
		f->zc_foreign++;
		return;
	}
	f->zc_completions += n;
	if (copied)
		f->zc_copied += n;
	for (unsigned s = 0; s < ZC_SLOTS; s++) {
		struct zc_slot *sl = &z->slot[s];
		uint64_t a = lo > sl->lo ? lo : sl->lo, b = hi < sl->hi ? hi : sl->hi;
		if (sl->pending && a < b)
			sl->pending -= b - a < sl->pending ? b - a : sl->pending;
	}
}

/* Reads the error queue until it is empty; returns the notifications read. */
static unsigned reap(struct flow *f)
{
	unsigned got = 0;

	for (;;) {
		union {
			char buf[CMSG_SPACE(sizeof(struct sock_extended_err) + sizeof(struct sockaddr_in6))];
			struct cmsghdr align;
		} ctl;
		struct msghdr m = { .msg_control = ctl.buf, .msg_controllen = sizeof ctl.buf };

		if (recvmsg(f->fd, &m, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
			return got; /* EAGAIN: empty; anything else: nothing more to read either */
		got++;
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
			const struct sock_extended_err *ee = (const void *)CMSG_DATA(c);
			if (!((c->cmsg_level == SOL_IP && c->cmsg_type == IP_RECVERR) ||
			      (c->cmsg_level == SOL_IPV6 && c->cmsg_type == IPV6_RECVERR)))
				continue;
			if (ee->ee_origin != SO_EE_ORIGIN_ZEROCOPY || ee->ee_errno != 0) {
				f->zc_foreign++;
				continue;
			}
			complete(f, ee->ee_info, ee->ee_data, ee->ee_code & SO_EE_CODE_ZEROCOPY_COPIED);
		}
	}
}

/* Waits on the error queue for up to ms milliseconds, then reads it. */
static void wait_reap(struct flow *f, int ms)
{
	struct pollfd p = { .fd = f->fd, .events = 0 }; /* POLLERR is always reported */

	if (poll(&p, 1, ms) > 0)
		reap(f);
}

uint8_t *zc_take(struct flow *f, int *flags)
{
	struct zc *z = f->zc;
	struct zc_slot *sl = &z->slot[z->next];
	uint64_t t0 = 0;

	if (sl->pending)
		reap(f);
	while (sl->pending) {
		uint64_t now = sys_mono_ns();
		if (!t0) {
			t0 = now;
			f->zc_waits++;
		}
		if (sys_stop) {
			f->stop = BLAST_STOP_SIGNAL;
			return NULL;
		}
		if (f->deadline_ns && now >= f->deadline_ns) {
			f->stop = BLAST_STOP_TIME;
			return NULL;
		}
		if (now - t0 >= ZC_STALL_NS) {
			sys_error_set(&f->error, "MSG_ZEROCOPY: no completion for 2 s (the path holds the "
				      "datagrams: IP fragments awaiting reassembly, a paused device?)", ETIMEDOUT);
			f->stop = BLAST_STOP_ERROR;
			return NULL;
		}
		wait_reap(f, 10);
	}
	*flags = z->plain ? 0 : MSG_ZEROCOPY;
	return f->bufs + (size_t)z->next * f->zc_slot_bytes;
}

void zc_result(struct flow *f, long n, int e, unsigned msgs, int flags)
{
	struct zc *z = f->zc;

	z->plain = 0;
	if (n >= 0 && msgs && (flags & MSG_ZEROCOPY)) {
		struct zc_slot *sl = &z->slot[z->next];
		sl->lo = z->next_id;
		sl->hi = z->next_id += msgs;
		sl->pending = msgs;
		f->zc_sends += msgs;
		z->next = (z->next + 1) % ZC_SLOTS;
		return;
	}
	if (n >= 0 || e != ENOBUFS || !(flags & MSG_ZEROCOPY))
		return;
	/* Refused: the option memory (net.core.optmem_max) holds the zerocopy messages not yet
	 * complete and the notifications not yet read. Read them; when nothing of blast's is in
	 * flight any more, the limit is too small for even one: the call goes again plain. */
	f->zc_enobufs++;
	if (!reap(f))
		wait_reap(f, 1);
	for (unsigned s = 0; s < ZC_SLOTS; s++)
		if (z->slot[s].pending)
			return;
	z->plain = 1;
}

void zc_drain(struct flow *f)
{
	uint64_t t0 = sys_mono_ns();

	for (reap(f); sys_mono_ns() - t0 < ZC_STALL_NS; wait_reap(f, 10)) {
		unsigned s = 0;
		while (s < ZC_SLOTS && !f->zc->slot[s].pending)
			s++;
		if (s == ZC_SLOTS)
			return;
	}
}
