/* mmsg: recvmmsg into a batch of preallocated buffers. MSG_WAITFORONE blocks for the first
 * datagram only and returns whatever else is queued, up to -b, so one system call and one
 * clock read serve a whole batch. */
#include <errno.h>
#include <stdlib.h>
#include <sys/socket.h>

#include "variant.h"

struct mmsg_state {
	struct mmsghdr *msgs;
	struct iovec *iov;
	uint8_t *bufs;
};

static int mmsg_setup(struct rx *rx)
{
	struct mmsg_state *st = calloc(1, sizeof *st);
	unsigned batch = rx->cfg->batch;
	size_t cap = rx->cfg->bufsize;

	rx->priv = st;
	if (!st)
		return -1;
	st->msgs = calloc(batch, sizeof *st->msgs);
	st->iov = calloc(batch, sizeof *st->iov);
	st->bufs = malloc(batch * cap);
	if (!st->msgs || !st->iov || !st->bufs)
		return -1;
	for (unsigned i = 0; i < batch; i++) {
		st->iov[i].iov_base = st->bufs + i * cap;
		st->iov[i].iov_len = cap;
		st->msgs[i].msg_hdr.msg_iov = &st->iov[i];
		st->msgs[i].msg_hdr.msg_iovlen = 1;
	}
	return 0;
}

static void mmsg_run(struct rx *rx)
{
	struct mmsg_state *st = rx->priv;
	unsigned batch = rx->cfg->batch;

	while (!rx->done) {
		int n = recvmmsg(rx->fd, st->msgs, batch, MSG_WAITFORONE | MSG_TRUNC | rx->flags, NULL);
		if (n < 0) {
			rx_recv_failed(rx, errno, "recvmmsg");
			continue;
		}
		for (int i = 0; i < n; i++)
			rx_datagram(rx, st->iov[i].iov_base, st->msgs[i].msg_len);
		rx_batch(rx);
	}
}

static void mmsg_teardown(struct rx *rx)
{
	struct mmsg_state *st = rx->priv;

	if (!st)
		return;
	free(st->msgs);
	free(st->iov);
	free(st->bufs);
	free(st);
}

const struct variant variant_mmsg = {
	.name = "mmsg",
	.what = "recvmmsg into a batch of buffers, MSG_WAITFORONE",
	.setup = mmsg_setup,
	.run = mmsg_run,
	.teardown = mmsg_teardown,
};
