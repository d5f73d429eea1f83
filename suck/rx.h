/* rx: what every receive variant shares. A variant owns its receive loop (suck/<name>.c) and
 * hands each datagram to rx_datagram, which counts it, runs the work and tracks its sequence;
 * every RX_FLUSH datagrams (or once per batch call) it calls rx_batch, which is the only
 * place the clock is read on the hot path and the stop conditions are checked. When a receive
 * call returns no datagram (EINTR, the SO_RCVTIMEO tick, EAGAIN while draining) the variant
 * calls rx_idle. The loop runs while rx->done is 0. */
#ifndef RX_H
#define RX_H
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "stats.h"
#include "wire.h"
#include "work.h"

#define RX_FLUSH 64            /* datagrams between clock reads in one-at-a-time variants */
#define RX_TICK_MS 20          /* SO_RCVTIMEO: how long a blocked receive waits before a check */
#define RX_DRAIN_NS 1000000000ull /* after the last fin, drain what is queued for at most 1 s */

enum rx_stop { RX_RUNNING, RX_STOP_FIN, RX_STOP_SIGNAL, RX_STOP_TIME, RX_STOP_IDLE, RX_STOP_ERROR };
extern const char *const rx_stop_names[];

struct suck_cfg {
	const char *addr;
	unsigned port;
	int variant;
	struct work work;      /* kind and repetitions; the state lives in each rx */
	unsigned batch;        /* datagrams per recvmmsg */
	unsigned bufsize;      /* bytes per receive buffer; larger datagrams are truncated */
	double time_s, idle_s, interval_s;
	int rcvbuf;            /* -R, 0 = kernel default */
	unsigned threads;
	unsigned retain;
	int cpu;               /* -1 = not pinned */
	int fmt;
};

/* State the threads of one run share: the run id they lock onto and the fin count. */
struct rx_shared {
	_Atomic uint64_t run;      /* 1 << 32 | run id once locked, 0 before */
	_Atomic unsigned fins;     /* flows whose first fin arrived */
	_Atomic unsigned flows;    /* flows in the run, from the fins */
	_Atomic int drain;         /* every flow has sent its fin: drain and stop */
	_Atomic uint64_t received; /* summed from every thread at each progress line */
	_Atomic uint64_t last_ns;  /* newest datagram of any thread, for --idle */
	_Atomic int stop;          /* a reason that ends every thread: signal, time, idle, error */
};

struct rx {
	int fd;
	unsigned id;               /* thread index */
	const struct suck_cfg *cfg;
	struct rx_shared *sh;
	int flags;                 /* recv flags: MSG_DONTWAIT while draining */
	enum rx_stop done;

	uint64_t received, bytes, foreign, truncated, allocs;
	uint64_t bufs;             /* gro: buffers taken, each one or more coalesced datagrams */
	uint32_t run_id;
	int have_run;
	size_t size;               /* length of the first datagram of the run: blast's -s */
	struct work work;
	struct stats_tracker trk;

	uint64_t start_ns, first_ns, last_ns, drain_ns, next_progress_ns;
	uint64_t seen_at_clock;    /* received when the clock was last read */
	uint64_t progress_received;
	void *priv;                /* the variant's buffers */
	int error;                 /* errno of a failed receive call */
	const char *error_call;
};

int rx_init(struct rx *rx, int fd, unsigned id, const struct suck_cfg *cfg, struct rx_shared *sh);

/* Receive slots for recvmmsg, allocated once: n messages, each one buffer of slot bytes and,
 * when ctl > 0, a control buffer of ctl bytes (reset msg_controllen before each call). */
struct rx_msgs {
	unsigned n;
	size_t ctl;
	struct mmsghdr *msgs;
	struct iovec *iov;
	uint8_t *bufs, *ctls;
};
struct rx_msgs *rx_msgs_new(unsigned n, size_t slot, size_t ctl); /* NULL with errno */
void rx_msgs_free(struct rx_msgs *m);
void rx_free(struct rx *rx);
void rx_batch(struct rx *rx);
void rx_idle(struct rx *rx);
/* A receive call failed with err: EINTR and EAGAIN are idle moments, anything else ends the
 * run with an error. */
void rx_recv_failed(struct rx *rx, int err, const char *call);

/* Out of line, the rare cases: a datagram that looks like a fin (counted as foreign when it is
 * not a believable fin of this run); the first datagram of the run (reads the clock); a run id
 * seen for the first time by this thread (1 when it is the run's, which the first data
 * datagram decides). */
void rx_fin(struct rx *rx, const uint8_t *buf, size_t len);
void rx_first(struct rx *rx);
int rx_lock(struct rx *rx, uint32_t run_id, size_t len);

/* One datagram of len bytes (the length the kernel reported, MSG_TRUNC style) in buf. */
static inline void rx_datagram(struct rx *rx, const uint8_t *buf, size_t len)
{
	struct wire_hdr h;
	size_t have = len;

	if (len > rx->cfg->bufsize) {
		rx->truncated++;
		have = rx->cfg->bufsize;
	} else if (len >= WIRE_HDR_LEN && buf[5] == WIRE_FIN) {
		rx_fin(rx, buf, len);
		return;
	}
	if (!rx->first_ns)
		rx_first(rx);
	rx->received++;
	rx->bytes += len;
	work_run(&rx->work, buf, have);
	if (have != len)
		return;
	if (wire_get_hdr(buf, len, &h) < 0 || h.type != WIRE_DATA ||
	    ((!rx->have_run || h.run_id != rx->run_id) && !rx_lock(rx, h.run_id, len))) {
		rx->foreign++;
		return;
	}
	stats_seq(&rx->trk, h.flow, h.seq);
}

#endif
