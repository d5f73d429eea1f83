/* rx: what every receive variant shares. A variant owns its receive loop (suck/<name>.c) and
 * hands each datagram, with the address it came from, to rx_datagram, which counts it, runs the
 * work and tracks its sequence; every rx->check_every datagrams (and once per batch call) it
 * calls rx_batch, which is the only place the clock is read on the hot path and the stop
 * conditions are checked. The socket variants receive through rx_recv (one datagram) or
 * rx_msgs_recv (a batch), which count every call where it is made; a call that returns no
 * datagram (EINTR, the SO_RCVTIMEO tick, EAGAIN while draining) goes to rx_recv_failed, which
 * counts it idle and calls rx_idle. The loop runs while rx->done is 0; a batch loop also stops
 * between datagrams once it is set.
 *
 * Who may speak for a flow: the first thread that accepts a datagram (or a fin) of a flow owns
 * it, with the source address it came from. Datagrams and fins of that flow from any other
 * source, or reaching another thread's socket, are foreign: a replay from another port cannot be
 * counted twice, and a forged fin cannot end the run. One flow is then tracked by one thread, so
 * everything any thread saw of a flow is in its owner's tracker. */
#ifndef RX_H
#define RX_H
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <sys/socket.h>
#include <sys/types.h>

#include "gaps.h"
#include "hist.h"
#include "jitter.h"
#include "key.h"
#include "mark.h"
#include "seq.h"
#include "sizes.h"
#include "suck.h"
#include "sys.h"
#include "wire.h"
#include "work.h"

#define RX_FLUSH 64            /* datagrams between clock reads, at most */
#define RX_CHECK_NS 10000000ull /* aim: a stop condition is seen within 10 ms, whatever the work */
#define RX_TICK_MS 20          /* SO_RCVTIMEO: how long a blocked receive waits before a check */
#define RX_DRAIN_NS 1000000000ull /* after the last fin, drain what is queued for at most 1 s */
#define RX_DONE_IDS 16         /* --serve: finished runs whose stragglers are other_run, not a new run */

enum rx_stop { RX_RUNNING, RX_STOP_FIN, RX_STOP_SIGNAL, RX_STOP_TIME, RX_STOP_IDLE, RX_STOP_ERROR,
	       RX_STOP_RUN_TIMEOUT, RX_STOP_STALE };
extern const char *const rx_stop_names[];


/* A source address as the kernel writes it (sockaddr_in or sockaddr_in6) into a zeroed buffer
 * of RX_NAME_LEN bytes; on one socket the family, and so the length written, never changes,
 * so comparing the whole buffer compares addresses. */
#define RX_NAME_LEN 32
struct rx_name {
	_Alignas(8) uint8_t b[RX_NAME_LEN];
};

/* Word by word, each loaded straight into a register: copied whole into arrays first, the
 * compiler moved them through the stack in 16-byte pieces and read them back in 8-byte ones,
 * which stalled every datagram on the forwarding of those stores. */
static inline int rx_name_eq(const struct rx_name *a, const void *b)
{
	const uint8_t *p = a->b, *q = b;
	uint64_t d = 0;

	for (unsigned i = 0; i < RX_NAME_LEN; i += 8) {
		uint64_t x, y;
		memcpy(&x, p + i, sizeof x);
		memcpy(&y, q + i, sizeof y);
		d |= x ^ y;
	}
	return d == 0;
}

/* State the threads of one run share: the run id they lock onto, who owns each flow, and the
 * fin count. */
struct rx_shared {
	_Atomic uint64_t run;      /* 1 << 32 | run id once locked (or given), 0 before */
	_Atomic uint32_t size;     /* the run's datagram size, from its first believed fin */
	struct key key;            /* the run key (set before the threads start), or none */
	uint64_t start_real_ns;    /* CLOCK_REALTIME when suck started: older send times are not
				      of this run */
	uint64_t fresh_ns;         /* under a run key, a fin sent (its tagged send time) before this
				      is stale: suck's start, then past every run already served */
	_Atomic uint64_t fin_ns;   /* the newest send time of a fin believed in this run */
	_Atomic uint64_t run_ns;   /* when the run last took a datagram of its own, at a check */
	_Atomic uint64_t next;     /* 1 << 32 | the run id that found this one stale, 0 before */
	_Atomic uint8_t owner[WIRE_MAX_FLOWS]; /* thread id + 1 of the flow's owner, 0 = none */
	_Atomic unsigned fins;     /* flows whose first fin arrived */
	_Atomic unsigned flows;    /* flows in the run, from the first believed fin */
	_Atomic int drain;         /* every flow has sent its fin: drain and stop */
	_Atomic uint64_t received; /* summed from every thread at each progress line */
	_Atomic uint64_t foreign;  /* likewise */
	_Atomic uint64_t last_ns;  /* newest datagram of any thread, for --idle */
	_Atomic int stop;          /* a reason that ends every thread: signal, time, idle, error */
	_Atomic uint32_t mark_first; /* --marks: the first valid datagram's marking | RX_MARK_SEEN */
	_Atomic uint64_t jit_sum;  /* --jitter -i: every thread's flows' J (ns), at its last check */
	_Atomic unsigned jit_flows; /* ... and how many flows that is */
	struct echo_budget *echo_budget; /* --echo: the replies' budget per source (echo.h), every
				      thread's, made by the first rx_init, kept from run to run */
	/* --serve (serve.c): kept from run to run by serve_next, the rest is reset */
	uint64_t serve_ns;         /* CLOCK_MONOTONIC when serving began: -t counts from it */
	_Atomic uint64_t lock_ns;  /* when the run locked, for --run-timeout; 0 before */
	uint32_t done_ids[RX_DONE_IDS]; /* the run ids of the last runs served, a ring */
	unsigned ndone;            /* runs served so far */
};
#define RX_MARK_SEEN (1u << 29)   /* beside mark.h's bits: mark_first has been set */

struct rx {
	int fd;
	unsigned id;               /* thread index */
	const struct suck_cfg *cfg;
	struct rx_shared *sh;
	int flags;                 /* recv flags: MSG_DONTWAIT while draining */
	enum rx_stop done;

	uint64_t received, bytes, foreign, truncated;
	struct sizes sizes;        /* received and bytes per size class (sizes.h) */
	uint64_t other_run;        /* foreign: a well-formed header of another run */
	uint64_t other_src;        /* foreign: this run's, from a source that does not own the flow */
	uint64_t own_seen;         /* received - foreign - truncated at the last check */
	struct carry *carry;       /* the next run's datagrams once this one is stale; NULL where
				      runs are fixed (--run-id alone, --senders, --one-socket) */
	uint64_t carried;          /* of them, taken by this thread (not counted in this run) */
	int64_t drops_end;         /* the kernel's drops for this thread as it stopped (rx_drops) */
	uint64_t forged_fins;      /* foreign: fins whose tag is wrong under the run key, or stale */
	uint64_t stale_fins;       /* of them: a right tag, but sent before fresh_ns (a replay) */
	uint64_t untagged_fins;    /* of them: tag 0, as a blast without a key sends its fins */
	uint64_t calls;            /* receive system calls made, idle and failed ones too */
	uint64_t idle_calls;       /* of them: no datagram (the tick, a signal, EAGAIN) */
	int napi_read;             /* the socket's NAPI id was read, at the first datagram */
	unsigned napi_id;          /* SO_INCOMING_NAPI_ID: 0 = none (loopback), no busy polling */
	uint32_t run_id, other_id; /* the run; the first other run id seen */
	uint32_t proof;            /* under a run key the run's proof (wire_run_proof), else 0 */
	uint64_t unproven;         /* foreign: this run's data without its proof, under a key */
	int have_run;
	size_t cap;                /* receive buffer bytes: -s, but room for a whole fin */
	struct work work;
	struct seq_tracker trk;
	uint8_t mine[WIRE_MAX_FLOWS]; /* FLOW_UNKNOWN, FLOW_MINE or FLOW_OTHERS */
	struct rx_name src[WIRE_MAX_FLOWS]; /* the source of each flow this thread owns */
	unsigned check_every, since_check; /* datagrams between checks, adapted to the work */
	/* --latency: one-way delay (send time in the header to the hand-off to the work), and
	 * its two parts: stack (send to the kernel's receive stamp) and queue (stamp to work). */
	struct rx_latency *lat;    /* NULL without --latency */
	uint64_t stamp_ns;         /* the kernel's receive stamp of the datagram at hand, 0 = none */
	/* Control messages (--latency's stamp, --marks' marking): a variant that receives them
	 * hands each datagram's to rx_ctl before rx_datagram. */
	int ctl;                   /* 1: the receive calls ask for control messages */
	int extra;                 /* 1: a valid datagram has more to do than be counted (rx_extra) */
	uint32_t mark;             /* --marks: the marking of the datagram at hand (mark.h) */
	uint64_t marks_changed;    /* --marks: valid datagrams marked unlike the run's first */
	struct jitter *jit;        /* --jitter: per flow J and |D|; NULL without */
	struct gaps *gap;          /* --gaps: per flow arrival gaps; NULL without */
	struct echo *echo;         /* --echo: the replies queued; NULL without */
	uint64_t jit_sum;          /* ... as last added into rx_shared */
	unsigned jit_flows;

	uint64_t start_ns, first_ns, last_ns, drain_ns, next_progress_ns, check_ns;
	uint64_t seen_at_clock;    /* received when the clock was last read */
	uint64_t progress_received, progress_foreign; /* already added into rx_shared */
	struct suck_progress prog; /* thread 0: the -i lines */
	void *priv;                /* the variant's buffers */
	const char *mech;          /* how the variant set up its mechanism, for the report */
	struct sys_error error;    /* the receive call that ended this thread, if one did */
	/* A feature that stands between the receive and the count, which rx.c does not know:
	 * hooks it calls instead of counting itself (struct rx_hooks: --senders, fanin.c), and
	 * the feature's state for this thread (fanin.c's, or one.c's for one_batch, which the
	 * variant calls with --one-socket). NULL without, and in a lane or the accountant. */
	const struct rx_hooks *hooks;
	void *hook;
};

/* What a feature set in rx->hooks does in rx's place, with its state in rx->hook: take and
 * discard get every datagram rx_take_as and rx_discard would count (their arguments, work
 * the same constant); check runs at every check, after the stop conditions (now: the clock
 * just read); foreign is the thread's foreign for the -i lines. */
struct rx_hooks {
	int (*take)(struct rx *rx, const uint8_t *buf, size_t len, const void *src, int work);
	void (*discard)(struct rx *rx, const uint8_t *buf, size_t len, const void *src);
	void (*check)(struct rx *rx, uint64_t now);
	uint64_t (*foreign)(const struct rx *rx);
};

int rx_init(struct rx *rx, int fd, unsigned id, const struct suck_cfg *cfg, struct rx_shared *sh);

/* Receive slots for recvmmsg, allocated once: n messages, each one buffer of slot bytes, a
 * source address and, when ctl > 0, a control buffer of ctl bytes (reset msg_controllen before
 * each call). */
struct rx_msgs {
	unsigned n;
	size_t ctl;
	struct mmsghdr *msgs;
	struct iovec *iov;
	struct rx_name *names;
	uint8_t *bufs, *ctls;
};
struct rx_msgs *rx_msgs_new(unsigned n, size_t slot, size_t ctl); /* NULL with errno */
/* One batch receive call for the batch variants: recvmmsg of up to m->n datagrams,
 * MSG_WAITFORONE (block for the first only), flags and rx->flags; counted in rx->calls, and
 * when it fails, handed to rx_recv_failed (then -1). The datagrams taken, or -1. */
int rx_msgs_recv(struct rx *rx, struct rx_msgs *m, int flags);
/* The same call, counted, but a failure left to the caller (-1 with errno): epoll, for which
 * EAGAIN ends a wakeup, not an idle tick. */
int rx_msgs_take(struct rx *rx, struct rx_msgs *m, int flags);
void rx_msgs_free(struct rx_msgs *m);
void rx_free(struct rx *rx);
void rx_batch(struct rx *rx);
void rx_idle(struct rx *rx);
/* A receive call failed with err: EINTR and EAGAIN are idle moments, anything else ends the
 * run with an error. */
void rx_recv_failed(struct rx *rx, int err, const char *call);
/* A frame a receiver beneath the socket took that holds no datagram for suck (malformed, or
 * not UDP to its address and port): received and foreign, its first -s bytes worked on, as a
 * datagram without a header would be. */
void rx_foreign(struct rx *rx, const uint8_t *buf, size_t len);
/* The kernel's drops for this thread: its variant's (-m xdp: the AF_XDP socket's), else its
 * socket's (net_drops); -1 unknown. */
int64_t rx_drops(struct rx *rx);
/* Any other call failed with err: the run ends with an error that names it. */
void rx_failed(struct rx *rx, const char *call, int err);

enum { FLOW_UNKNOWN, FLOW_MINE, FLOW_OTHERS };

struct rx_latency {
	struct hist total, stack, queue;
	uint64_t negative;         /* send time after the hand-off: clocks not in step */
	uint64_t outside;          /* send time before suck started: not of this run */
};

/* Room for the control messages a receive may carry: the UDP_GRO segment size, the receive
 * stamp (SO_TIMESTAMPNS) and the marking (--marks). */
#define RX_CTL_LEN (CMSG_SPACE(sizeof(int)) + CMSG_SPACE(sizeof(struct timespec)) + MARK_CTL_LEN)
/* The stamp and the marking of one received message, into rx->stamp_ns and rx->mark. */
void rx_ctl(struct rx *rx, struct msghdr *mh);
/* A valid datagram's measures beyond the count (--latency, --marks, --jitter, --gaps) and its reply
 * (--echo), after seq_seen; returns what rx_take_as does (1: valid, work 0 and --latency, for
 * pool's worker to record the delay): out of
 * line, so that the fast path without them is one test of rx->extra. */
int rx_extra(struct rx *rx, const struct wire_hdr *h, uint64_t hand_ns, const uint8_t *buf, size_t len,
	     const void *src, int work);
/* The kernel's receive stamp among a message's control messages, in ns since the epoch; 0
 * when there is none. */
uint64_t rx_stamp(struct msghdr *mh);
/* recvmsg for one datagram with its source and control messages, setting rx->stamp_ns (the
 * one-at-a-time variants with --latency, and epoll, which receives with recvmsg as event loops
 * do); as recvfrom otherwise. Not counted in rx->calls: the caller counts. */
ssize_t rx_recv_stamped(struct rx *rx, void *buf, size_t cap, struct rx_name *from);
/* src's delays added into dst (threads, pool's workers, --senders' runs, summed at the end). */
void rx_latency_merge(struct rx_latency *dst, const struct rx_latency *src);
/* Records one valid datagram's delays; hand_ns is when it was handed to the work. */
void rx_latency(struct rx *rx, uint64_t send_ns, uint64_t hand_ns);
/* The same into any thread's histograms (pool's workers keep their own): stamp is the
 * kernel's receive stamp (0: none), start_real_ns rx_shared's. */
void rx_latency_add(struct rx_latency *l, uint64_t start_real_ns, uint64_t send_ns, uint64_t stamp,
		    uint64_t hand_ns);

/* One datagram into buf with its source, for the one-at-a-time variants: recvfrom, or with
 * --latency recvmsg with the receive stamp. MSG_TRUNC: the return value is the datagram's
 * real length, so an oversized one is seen as truncated instead of passing for a short one. */
static inline ssize_t rx_recv(struct rx *rx, void *buf, size_t cap, struct rx_name *from)
{
	socklen_t flen = RX_NAME_LEN;

	rx->calls++;
	if (rx->ctl)
		return rx_recv_stamped(rx, buf, cap, from);
	return recvfrom(rx->fd, buf, cap, MSG_TRUNC | rx->flags, (struct sockaddr *)from, &flen);
}

/* Out of line, the rare cases: a datagram that looks like a fin (1 when it was a believable
 * fin of this run and is consumed; 0 and it is an ordinary datagram); the first datagram of the
 * run (reads the clock); a run id seen for the first time by this thread (1 when it is the
 * run's, which --run-id or the first data datagram decides); a flow this thread does not yet
 * own from this source (1 when it now does). */
int rx_fin(struct rx *rx, const uint8_t *buf, size_t len, const void *src);
void rx_first(struct rx *rx);
int rx_lock(struct rx *rx, const struct wire_hdr *h);
/* May h start a run (or take a --senders slot)? With named runs (--run-id A,B,...), only one of
 * them; else under a run key only data that carries the run's proof, or a request (blast --rtt,
 * whose reserved field is the reply's size); else any. */
int rx_may_lock(const struct suck_cfg *cfg, const struct rx_shared *sh, const struct wire_hdr *h);
/* A datagram of another run: 1 when it was carried to the next run (carry.h), which happens
 * when its run has found this one stale. Undoes rx_take_as's counts of it. */
int rx_other(struct rx *rx, const struct wire_hdr *h, const uint8_t *buf, size_t len, const void *src);
/* The next run's first datagrams, held over a stale run's end (carry.h), taken as rx_take takes
 * them (the work included), oldest first; c is emptied. */
void rx_feed(struct rx *rx, struct carry *c);
int rx_claim(struct rx *rx, unsigned flow, const void *src);

/* A datagram rx_fin is asked about: a fin is read whatever -s is (rx->cap holds a whole one). */
static inline int rx_maybe_fin(const struct rx *rx, const uint8_t *buf, size_t len)
{
	return len >= WIRE_HDR_LEN && len <= rx->cap && buf[5] == WIRE_FIN;
}
/* One datagram of len bytes (the length the kernel reported, MSG_TRUNC style) in buf, which
 * holds min(len, rx->cap) of them; src is its source address, RX_NAME_LEN bytes (struct
 * rx_name). work: run the work here. Every variant but pool passes 1, a constant, so that
 * rx_take compiles as it always did; pool's receiver passes 0 and hands the work to a worker
 * (pool.c). Returns -1 for a fin it consumed (no work for it), 1 for a valid datagram when
 * work is 0 and --latency is on (the worker records its delay), else 0; -1 also for a datagram
 * carried to the next run (rx_other), which this run does not count. */
static inline int rx_take_as(struct rx *rx, const uint8_t *buf, size_t len, const void *src, const int work)
{
	struct wire_hdr h;

	/* A feature counts it (--senders: the run's own lane). Expected not: the plain path falls
	 * through, as it did when this was a direct call to fanin.c. */
	if (__builtin_expect(rx->hooks != NULL, 0))
		return rx->hooks->take(rx, buf, len, src, work);
	/* A fin is read whatever -s is: -s decides what counts as truncated, not what ends a run. */
	if (rx_maybe_fin(rx, buf, len) && rx_fin(rx, buf, len, src))
		return -1;
	/* --latency: the moment the datagram is handed to the work (a clock read per datagram,
	 * which is why it is an option). */
	uint64_t hand_ns = work && rx->lat ? sys_real_ns() : 0;

	if (!rx->first_ns)
		rx_first(rx);
	rx->received++;
	rx->bytes += len;
	sizes_add(&rx->sizes, len);
	if (len > rx->cfg->bufsize) {
		rx->truncated++;
		if (work)
			work_run(&rx->work, buf, rx->cfg->bufsize);
		/* The header is in the buffer even when -s is smaller (rx->cap holds it): it may
		 * still tell the run, so that its fins are believed. */
		if (!rx->have_run && wire_get_hdr(buf, len, &h) == 0 && h.type != WIRE_FIN)
			rx_lock(rx, &h);
		return 0;
	}
	if (work)
		work_run(&rx->work, buf, len);
	/* data, or a request (blast --rtt), which is data that asks for a reply */
	if (wire_get_hdr(buf, len, &h) < 0 || h.type == WIRE_FIN) {
		rx->foreign++;
		return 0;
	}
	if ((!rx->have_run || h.run_id != rx->run_id) && !rx_lock(rx, &h)) {
		if (rx->carry && rx_other(rx, &h, buf, len, src))
			return -1;
		rx->foreign++;
		rx->other_run++;
		return 0;
	}
	/* under a run key only the key's holder makes this run's data: a stranger's, on a flow the
	 * run never used, would otherwise claim up to 2^48 datagrams sent */
	if (rx->proof && h.proof != rx->proof) {
		rx->foreign++;
		rx->unproven++;
		return 0;
	}
	if ((rx->mine[h.flow] != FLOW_MINE || !rx_name_eq(&rx->src[h.flow], src)) &&
	    !rx_claim(rx, h.flow, src)) {
		rx->foreign++;
		rx->other_src++;
		return 0;
	}
	if (rx->extra)
		return rx_extra(rx, &h, hand_ns, buf, len, src, work);
	seq_seen(&rx->trk, h.flow, h.seq);
	return 0;
}

static inline void rx_take(struct rx *rx, const uint8_t *buf, size_t len, const void *src)
{
	(void)rx_take_as(rx, buf, len, src, 1);
}

/* Stop within a batch already taken from the socket? Only for a time limit, a signal or an
 * error, which are to be honoured within one datagram's work; never at the end of the drain
 * after the fins, whose datagrams are in the fins' sent and must all be counted. */
static inline int rx_cut(const struct rx *rx)
{
	return rx->done != RX_RUNNING && rx->done != RX_STOP_FIN && rx->done != RX_STOP_STALE;
}

/* rx_take, then the stop conditions every check_every datagrams: a counter, not a clock. */
static inline void rx_datagram(struct rx *rx, const uint8_t *buf, size_t len, const void *src)
{
	rx_take(rx, buf, len, src);
	if (++rx->since_check >= rx->check_every)
		rx_batch(rx);
}

/* rx_datagram for pool's receiver: everything but the work, which a worker runs; returns what
 * rx_take_as does. */
static inline int rx_account(struct rx *rx, const uint8_t *buf, size_t len, const void *src)
{
	int r = rx_take_as(rx, buf, len, src, 0);

	if (++rx->since_check >= rx->check_every)
		rx_batch(rx);
	return r;
}

/* A datagram the receiver throws away unworked (pool, a full queue in drop mode): one that would
 * be valid is marked seen and counted discarded (queue_dropped; seq_discard); a fin, or anything
 * that would not be valid (foreign, truncated, a dup, late), is taken as rx_take takes it, its
 * work run here, so that the discarded are exactly this run's loss and received stays what was
 * worked on. */
void rx_discard(struct rx *rx, const uint8_t *buf, size_t len, const void *src);

/* --serve: is run_id one of the last RX_DONE_IDS runs served (its stragglers: other_run, never
 * the next run's lock)? serve.c's serve_next keeps the ring between runs. */
int rx_finished(const struct rx_shared *sh, uint32_t run_id);
/* Under a run key, may a fin whose tag is right be believed? Not when it was sent before
 * sh->fresh_ns: a fin of an earlier run, played again. */
static inline int rx_fin_fresh(const struct rx_shared *sh, const struct wire_hdr *h)
{
	return h->send_ns >= sh->fresh_ns;
}

#endif
