/* mmsg: recvmmsg into a batch of preallocated buffers. MSG_WAITFORONE blocks for the first
 * datagram only and returns whatever else is queued, up to -b, so one system call and one
 * clock read serve a whole batch. */
#include <errno.h>
#include <sys/socket.h>

#include "variant.h"

static int mmsg_setup(struct rx *rx)
{
	rx->priv = rx_msgs_new(rx->cfg->batch, rx->cap, rx->lat ? RX_CTL_LEN : 0);
	return rx->priv ? 0 : -1;
}

static void mmsg_run(struct rx *rx)
{
	struct rx_msgs *m = rx->priv;

	while (!rx->done) {
		int n;

		/* msg_controllen is an in/out field: with --latency, reset it before every call. */
		for (unsigned i = 0; m->ctl && i < m->n; i++)
			m->msgs[i].msg_hdr.msg_controllen = m->ctl;
		rx->calls++;
		n = recvmmsg(rx->fd, m->msgs, m->n, MSG_WAITFORONE | MSG_TRUNC | rx->flags, NULL);
		if (n < 0) {
			rx_recv_failed(rx, errno, "recvmmsg");
			continue;
		}
		for (int i = 0; i < n && !rx_cut(rx); i++) {
			if (rx->lat)
				rx->stamp_ns = rx_stamp(&m->msgs[i].msg_hdr);
			rx_datagram(rx, m->iov[i].iov_base, m->msgs[i].msg_len, &m->names[i]);
		}
		rx_batch(rx);
	}
}

static void mmsg_teardown(struct rx *rx)
{
	rx_msgs_free(rx->priv);
}

const struct variant variant_mmsg = {
	.name = "mmsg",
	.what = "recvmmsg into a batch of buffers, MSG_WAITFORONE",
	.batch = 32,
	.spins = 1,
	.setup = mmsg_setup,
	.run = mmsg_run,
	.teardown = mmsg_teardown,
};
