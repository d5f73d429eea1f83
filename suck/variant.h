/* variant: the one interface every receive strategy implements. setup allocates what the
 * receive loop needs (into rx->priv), run is the loop, teardown frees; suck measures the heap
 * between run and teardown, so a variant's buffers count in heap_kib as they would in a real
 * program. */
#ifndef VARIANT_H
#define VARIANT_H
#include "rx.h"

/* What only some variants count, in their own state (rx->priv), read at the end through their
 * counts function: total.c adds them up over the threads (queue_hwm: the largest). 0 where a
 * variant counts none of it. */
struct variant_counts {
	uint64_t allocs;           /* copy: allocations, one per datagram taken */
	uint64_t bufs;             /* gro: buffers taken, each one or more coalesced datagrams */
	uint64_t wakeups;          /* epoll: epoll_wait calls that returned an event */
	uint64_t unworked;         /* pool: counted, but the work was left undone at a stop */
	uint64_t queue_hwm;        /* pool: the most batches waiting for a worker at once */
};

/* What differs between variants is said here, in the variant's own table entry, not found out
 * elsewhere by comparing pointers. */
struct variant {
	const char *name;
	const char *what; /* one line for suck -h and suck -m list */
	unsigned batch;   /* default datagrams (gro: buffers) per receive call; 0 = one call per
			     datagram, and -b does not apply */
	unsigned slot;    /* bytes a received message can hold when it is more than -s (gro: a
			     coalesced buffer of many datagrams), 0 = -s */
	int retains;      /* --retain applies */
	int spins;        /* --spin applies: its receive calls can poll with MSG_DONTWAIT */
	int events;       /* an event loop: --edge applies, wakeups are counted */
	int pools;        /* hands the work to worker threads: --workers, --queue, --queue-full */
	int busy_polls;   /* blocks in a receive call or epoll_wait: --busy-poll applies */
	int device;       /* receives frames from a device beneath the socket: --xdp-dev and
			     --xdp-zc apply, and its mech is reported as xdp_setup */
	int echoes;       /* --echo applies: it flushes rx->echo after each batch (or takes one
			     datagram a call) before its buffers are reused */
	int shares;       /* --one-socket applies: its batches go to one_batch (one.c) */
	int (*setup)(struct rx *rx);   /* 0; -1 with errno; VARIANT_UNSUPPORTED with errno;
					  VARIANT_NOT_HERE and VARIANT_USAGE, the message said */
	void (*run)(struct rx *rx);
	void (*teardown)(struct rx *rx);
	/* The kernel's drops for this thread's receive, where they are not the socket's
	 * (/proc/net/udp); -1 unknown. NULL: the socket's (rx_drops). */
	int64_t (*drops)(struct rx *rx);
	/* This thread's part of variant_counts, into c (zeroed), from its state as set up. NULL:
	 * none. */
	void (*counts)(const struct rx *rx, struct variant_counts *c);
};

#define VARIANT_UNSUPPORTED 4 /* the kernel refuses the mechanism: suck exits 4 */
/* Not to be had here, and setup said why (lo has no native XDP; a driver without it; no
 * privilege): suck exits 4 and adds nothing, where VARIANT_UNSUPPORTED's "this kernel does not
 * offer it" would contradict the reason said. */
#define VARIANT_NOT_HERE    5
#define VARIANT_USAGE       2 /* the options do not fit what setup found (said): suck exits 2 */

extern const struct variant variant_copy, variant_buffer, variant_mmsg, variant_gro, variant_uring,
	variant_epoll, variant_pool, variant_xdp;
/* Every variant in the order of suck -h, NULL-terminated; the first is not the default. */
extern const struct variant *const variants[];

#endif
