/* gro: UDP_GRO with recvmmsg. The kernel may hand over several datagrams of one flow in one
 * buffer (coalesced by GRO, or a GSO send that was never split, as on loopback) and says the
 * segment size in a control message. Every segment is one wire datagram: it is split out and
 * counted, checked and worked on exactly as if it had arrived alone. */
#include <netinet/in.h>
#include <stdlib.h>
#include <netinet/udp.h>
#include <sys/socket.h>

#include "variant.h"

#ifndef UDP_GRO
#define UDP_GRO 104
#endif

#define GRO_SLOT 65535 /* a coalesced buffer can be as large as any datagram */

struct gro_state {
	struct rx_msgs *m;
	uint64_t bufs;             /* buffers taken (variant_counts) */
};

static int gro_setup(struct rx *rx)
{
	struct gro_state *st;
	int one = 1;

	if (setsockopt(rx->fd, SOL_UDP, UDP_GRO, &one, sizeof one) < 0)
		return VARIANT_UNSUPPORTED;
	rx->priv = st = calloc(1, sizeof *st);
	if (!st)
		return -1;
	st->m = rx_msgs_new(rx->cfg->batch, GRO_SLOT, RX_CTL_LEN);
	return st->m ? 0 : -1;
}

/* The segment size of a coalesced message, or 0 when it holds one datagram. */
static size_t segment_size(struct msghdr *mh)
{
	for (struct cmsghdr *c = CMSG_FIRSTHDR(mh); c; c = CMSG_NXTHDR(mh, c))
		if (c->cmsg_level == SOL_UDP && c->cmsg_type == UDP_GRO) {
			int seg;
			memcpy(&seg, CMSG_DATA(c), sizeof seg);
			return seg > 0 ? (size_t)seg : 0;
		}
	return 0;
}

/* Empty non-blocking receive calls before a blocking one (not with --spin, which never
 * blocks). A receiver that sleeps whenever its queue is empty for a moment is woken by the
 * sender's every send call, and on one host the sender pays for the wakeup in its own system
 * call; polling a little before sleeping keeps a busy receiver awake between the sender's
 * messages. The budget is a quarter of the datagrams the last batch carried, at most
 * GRO_POLLS (a count, no clock read): behind a sender of 64 KiB GSO messages a batch carries
 * tens of datagrams and the receiver polls, and on this VM it found the next message after
 * about one empty call on average; a paced sender's datagrams arrive one at a time, and a receiver
 * that polled 128 times for each of them spent 1.9x the CPU per datagram of one that sleeps. */
#define GRO_POLLS 128

static void gro_run(struct rx *rx)
{
	struct gro_state *st = rx->priv;
	struct rx_msgs *m = st->m;
	unsigned empty = 0, budget = 0;

	while (!rx->done) {
		/* No MSG_TRUNC: a buffer longer than GRO_SLOT is told by msg_flags (below). */
		uint64_t idle0 = rx->idle_calls;
		int n = rx_msgs_recv(rx, m, empty < budget ? MSG_DONTWAIT : 0);

		if (n < 0) {
			if (rx->idle_calls != idle0 && empty < budget)
				empty++;
			continue;
		}
		empty = 0;
		budget = 0;
		st->bufs += (uint64_t)n;
		for (int i = 0; i < n && !rx_cut(rx); i++) {
			struct msghdr *mh = &m->msgs[i].msg_hdr;
			const uint8_t *p = m->iov[i].iov_base;
			size_t len = m->msgs[i].msg_len;
			size_t seg = segment_size(mh);
			const struct rx_name *from = &m->names[i];

			if (rx->ctl)
				rx_ctl(rx, mh); /* one stamp and marking for every segment of the buffer */

			if (mh->msg_flags & MSG_TRUNC) {
				/* Larger than any datagram can be: count it once, as truncated. */
				rx_datagram(rx, p, GRO_SLOT + 1, from);
				continue;
			}
			if (!seg || seg >= len) {
				rx_datagram(rx, p, len, from);
				budget++;
				continue;
			}
			budget += (unsigned)(len / seg);
			/* Every segment of a buffer came from one source. */
			for (size_t off = 0; off < len && !rx_cut(rx); off += seg)
				rx_datagram(rx, p + off, len - off < seg ? len - off : seg, from);
		}
		budget = budget / 4 < GRO_POLLS ? budget / 4 : GRO_POLLS;
		rx_batch(rx);
	}
}

static void gro_counts(const struct rx *rx, struct variant_counts *c)
{
	const struct gro_state *st = rx->priv;

	c->bufs = st->bufs;
}

static void gro_teardown(struct rx *rx)
{
	struct gro_state *st = rx->priv;

	if (!st)
		return;
	rx_msgs_free(st->m);
	free(st);
}

const struct variant variant_gro = {
	.name = "gro",
	.what = "UDP_GRO + recvmmsg; coalesced buffers split into wire datagrams",
	/* A gro buffer can hold 64 KiB: 8 of them per call stay in the second-level cache while
	 * the datagrams in them are checked; 32 (2 MiB) do not, and cost 10-15 % more per datagram. */
	.batch = 8,
	.slot = GRO_SLOT,
	.spins = 1,
	.busy_polls = 1,
	.setup = gro_setup,
	.run = gro_run,
	.teardown = gro_teardown,
	.counts = gro_counts,
};
