/* gro: UDP_GRO with recvmmsg. The kernel may hand over several datagrams of one flow in one
 * buffer (coalesced by GRO, or a GSO send that was never split, as on loopback) and says the
 * segment size in a control message. Every segment is one wire datagram: it is split out and
 * counted, checked and worked on exactly as if it had arrived alone. */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <stdlib.h>
#include <sys/socket.h>

#include "variant.h"

#ifndef UDP_GRO
#define UDP_GRO 104
#endif

#define GRO_SLOT 65535 /* a coalesced buffer can be as large as any datagram */

struct gro_state {
	struct mmsghdr *msgs;
	struct iovec *iov;
	uint8_t *bufs;
	char (*ctl)[CMSG_SPACE(sizeof(int))];
};

static int gro_setup(struct rx *rx)
{
	struct gro_state *st = calloc(1, sizeof *st);
	unsigned batch = rx->cfg->batch;
	int one = 1;

	rx->priv = st;
	if (!st)
		return -1;
	if (setsockopt(rx->fd, SOL_UDP, UDP_GRO, &one, sizeof one) < 0)
		return VARIANT_UNSUPPORTED;
	st->msgs = calloc(batch, sizeof *st->msgs);
	st->iov = calloc(batch, sizeof *st->iov);
	st->ctl = calloc(batch, sizeof *st->ctl);
	st->bufs = malloc((size_t)batch * GRO_SLOT);
	if (!st->msgs || !st->iov || !st->ctl || !st->bufs)
		return -1;
	for (unsigned i = 0; i < batch; i++) {
		st->iov[i].iov_base = st->bufs + (size_t)i * GRO_SLOT;
		st->iov[i].iov_len = GRO_SLOT;
		st->msgs[i].msg_hdr.msg_iov = &st->iov[i];
		st->msgs[i].msg_hdr.msg_iovlen = 1;
	}
	return 0;
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

static void gro_run(struct rx *rx)
{
	struct gro_state *st = rx->priv;
	unsigned batch = rx->cfg->batch;

	while (!rx->done) {
		int n;

		/* msg_controllen is an in/out field: reset it before every call. */
		for (unsigned i = 0; i < batch; i++) {
			st->msgs[i].msg_hdr.msg_control = st->ctl[i];
			st->msgs[i].msg_hdr.msg_controllen = sizeof st->ctl[i];
		}
		n = recvmmsg(rx->fd, st->msgs, batch, MSG_WAITFORONE | rx->flags, NULL);
		if (n < 0) {
			rx_recv_failed(rx, errno, "recvmmsg");
			continue;
		}
		rx->bufs += (uint64_t)n;
		for (int i = 0; i < n; i++) {
			struct msghdr *mh = &st->msgs[i].msg_hdr;
			const uint8_t *p = st->iov[i].iov_base;
			size_t len = st->msgs[i].msg_len;
			size_t seg = segment_size(mh);

			if (mh->msg_flags & MSG_TRUNC) {
				/* Larger than any datagram can be: count it once, as truncated. */
				rx_datagram(rx, p, (size_t)rx->cfg->bufsize + 1);
				continue;
			}
			if (!seg || seg >= len) {
				rx_datagram(rx, p, len);
				continue;
			}
			for (size_t off = 0; off < len; off += seg)
				rx_datagram(rx, p + off, len - off < seg ? len - off : seg);
		}
		rx_batch(rx);
	}
}

static void gro_teardown(struct rx *rx)
{
	struct gro_state *st = rx->priv;

	if (!st)
		return;
	free(st->msgs);
	free(st->iov);
	free(st->ctl);
	free(st->bufs);
	free(st);
}

const struct variant variant_gro = {
	.name = "gro",
	.what = "UDP_GRO + recvmmsg; coalesced buffers split into wire datagrams",
	.setup = gro_setup,
	.run = gro_run,
	.teardown = gro_teardown,
};
