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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

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
	int halt;              /* the flow stops: f->stop and f->error say why (zc_result) */
	uint64_t mark;         /* zc_completions at an ENOBUFS (progressed) */
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
 * in flight is within 2^31 of the next one, so a 32-bit id extends to blast's 64-bit one by its
 * signed distance from next_id. Ids at or past next_id are none blast counted as sent: the kernel
 * numbered a message it then refused after building it (a route that takes no GSO: EIO, EINVAL;
 * a firewall: EPERM), and zc_result reads the queue right after such a call, before blast sends
 * again, so such an id is always the next one: it is taken as used (next_id past it) and its
 * completion counted in zc_foreign, not in zc_completions. */
static void complete(struct flow *f, uint32_t lo32, uint32_t hi32, int copied)
{
	struct zc *z = f->zc;
	uint64_t n = (uint64_t)(uint32_t)(hi32 - lo32) + 1;
	int64_t d = (int32_t)(lo32 - (uint32_t)z->next_id);
	uint64_t lo, hi;

	if (d < 0 && (uint64_t)-d > z->next_id) { /* before the first id: not this socket's */
		f->zc_foreign++;
		return;
	}
	lo = z->next_id + (uint64_t)d;
	hi = lo + n;
	if (hi > z->next_id) { /* the part blast never counted as sent */
		uint64_t past = hi - (lo > z->next_id ? lo : z->next_id);
		f->zc_foreign += past;
		n -= past;
		z->next_id = hi;
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
		if (m.msg_flags & MSG_CTRUNC) { /* a notification cut short: its range is lost */
			f->zc_foreign++;
			continue;
		}
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
			const struct sock_extended_err *ee = (const void *)CMSG_DATA(c);
			if (!((c->cmsg_level == SOL_IP && c->cmsg_type == IP_RECVERR) ||
			      (c->cmsg_level == SOL_IPV6 && c->cmsg_type == IPV6_RECVERR)))
				continue;
			if (c->cmsg_len < CMSG_LEN(sizeof *ee)) {
				f->zc_foreign++;
				continue;
			}
			if (ee->ee_origin != SO_EE_ORIGIN_ZEROCOPY || ee->ee_errno != 0) {
				f->zc_foreign++;
				continue;
			}
			complete(f, ee->ee_info, ee->ee_data, ee->ee_code & SO_EE_CODE_ZEROCOPY_COPIED);
		}
	}
}

/* Waits on the error queue for up to ms milliseconds, then reads it. A socket error (an ICMP
 * refusal on the connected socket) also wakes poll with POLLERR, and the queue is then empty:
 * the rest of the interval is slept instead, so the wait does not spin. */
static void wait_reap(struct flow *f, int ms)
{
	struct pollfd p = { .fd = f->fd, .events = 0 }; /* POLLERR is always reported */

	if (poll(&p, 1, ms) > 0 && !reap(f)) {
		struct timespec ts = { .tv_sec = 0, .tv_nsec = (long)ms * 1000000 };
		nanosleep(&ts, NULL);
	}
}

static uint64_t in_flight(const struct zc *z)
{
	uint64_t n = 0;

	for (unsigned s = 0; s < ZC_SLOTS; s++)
		n += z->slot[s].pending;
	return n;
}

/* Waits until done(f) or a stop: 0 when done, else -1 with f->stop (and for a stall f->error)
 * set: a signal, the deadline, or ZC_STALL_NS without a completion. */
static int wait_for(struct flow *f, int (*done)(const struct flow *))
{
	uint64_t t0 = 0, seen = f->zc_completions;

	while (!done(f)) {
		uint64_t now = sys_mono_ns();
		if (!t0) {
			t0 = now;
			f->zc_waits++;
		}
		if (f->zc_completions != seen) { /* progress: the stall clock starts again */
			seen = f->zc_completions;
			t0 = now;
		}
		if (sys_stop) {
			f->stop = BLAST_STOP_SIGNAL;
			return -1;
		}
		if (f->deadline_ns && now >= f->deadline_ns) {
			f->stop = BLAST_STOP_TIME;
			return -1;
		}
		if (now - t0 >= ZC_STALL_NS) {
			sys_error_set(&f->error, "MSG_ZEROCOPY: no completion for 2 s (the path holds the "
				      "datagrams: IP fragments awaiting reassembly, a paused device?)", ETIMEDOUT);
			f->stop = BLAST_STOP_ERROR;
			return -1;
		}
		wait_reap(f, 10);
	}
	return 0;
}
static int slot_free(const struct flow *f) { return !f->zc->slot[f->zc->next].pending; }
/* after an ENOBUFS: one completion more than at the refusal (mark), or nothing in flight */
static int progressed(const struct flow *f) { return f->zc_completions != f->zc->mark || !in_flight(f->zc); }

uint8_t *zc_take(struct flow *f, int *flags)
{
	struct zc *z = f->zc;

	if (z->halt)
		return NULL;
	if (!slot_free(f))
		reap(f);
	if (!slot_free(f) && wait_for(f, slot_free) < 0) {
		z->halt = 1;
		return NULL;
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
	if (n >= 0 || !(flags & MSG_ZEROCOPY))
		return;
	if (e != ENOBUFS) {
		/* A message refused after the kernel built it took an id: its completion is queued
		 * by now, and read before the next send takes the id after it (complete()). */
		reap(f);
		return;
	}
	/* Refused: the option memory (net.core.optmem_max) holds the zerocopy messages not yet
	 * complete and the notifications not yet read. Read them, and wait for one more
	 * completion while any is in flight (bounded as a slot's wait); when nothing of blast's
	 * is in flight any more, the limit is too small for even one: the call goes again plain. */
	f->zc_enobufs++;
	reap(f);
	if (!in_flight(z)) {
		z->plain = 1;
		return;
	}
	z->mark = f->zc_completions;
	if (wait_for(f, progressed) < 0)
		z->halt = 1; /* wait_for said why: f->stop, f->error */
}

/* The last completions, before the fins: up to ZC_STALL_NS, or 200 ms after a signal (the run
 * is ending: what has not come by then stays out of zc_completions); none after a stall. */
void zc_drain(struct flow *f)
{
	uint64_t t0 = sys_mono_ns();

	if (f->zc->halt && f->stop == BLAST_STOP_ERROR)
		return;
	for (reap(f); in_flight(f->zc); wait_reap(f, 10)) {
		uint64_t limit = sys_stop ? 200000000ull : ZC_STALL_NS;
		if (sys_mono_ns() - t0 >= limit)
			return;
	}
}

/* 1 when a is an address of this host, as a socket can bind only those (ip_nonlocal_bind
 * aside): the kernel copies every datagram it delivers there. */
static int host_address(const struct net_addr *a)
{
	struct sockaddr_storage ss = a->ss;
	int fd = socket(ss.ss_family, SOCK_DGRAM, 0), ok;

	if (fd < 0)
		return 0;
	if (ss.ss_family == AF_INET6)
		((struct sockaddr_in6 *)&ss)->sin6_port = 0;
	else
		((struct sockaddr_in *)&ss)->sin_port = 0;
	ok = bind(fd, (const struct sockaddr *)&ss, a->len) == 0;
	close(fd);
	return ok;
}

/* A --zerocopy run that sent nothing zero-copy says so, and why where blast can tell: the
 * report alone (zc_copied == zc_completions) reads like success. */
void zc_say(const struct flow_total *t, const struct blast_cfg *cfg)
{
	char where[80];

	if (!t->sent || t->zc_copied < t->zc_completions)
		return;
	net_format(&cfg->to, where, sizeof where);
	if (!t->zc_sends)
		fprintf(stderr, "blast: warning: --zerocopy: no message went with MSG_ZEROCOPY: every call was "
			"refused for the option memory (ENOBUFS) with nothing in flight and went as a copy; "
			"net.core.optmem_max is too small for one zerocopy message\n");
	else if (!t->zc_completions)
		fprintf(stderr, "blast: warning: --zerocopy: no completion of the %llu zerocopy messages came "
			"back before the end (zc_completions 0): whether the kernel sent any from blast's "
			"pages is not known\n", (unsigned long long)t->zc_sends);
	else if (!cfg->group && host_address(&cfg->to))
		fprintf(stderr, "blast: warning: --zerocopy: the kernel copied every message after all "
			"(zc_copied == zc_completions, %llu): %s is an address of this host, and on loopback "
			"the kernel always copies what it delivers, so this is expected here; zero-copy "
			"takes a device that sends from blast's pages\n",
			(unsigned long long)t->zc_completions, where);
	else
		fprintf(stderr, "blast: warning: --zerocopy: the kernel copied every message after all "
			"(zc_copied == zc_completions, %llu), so nothing went zero-copy to %s: it copies "
			"what it delivers on a host (another network namespace over a veth too), a "
			"datagram it fragments, and one for a device without scatter-gather or checksum "
			"offload\n", (unsigned long long)t->zc_completions, where);
}
