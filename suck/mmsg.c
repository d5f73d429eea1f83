/* mmsg: recvmmsg into a batch of preallocated buffers. MSG_WAITFORONE blocks for the first
 * datagram only and returns whatever else is queued, up to -b, so one system call and one
 * clock read serve a whole batch. With --one-socket each batch goes to one.c instead. */
#include <sys/socket.h>

#include "echo.h"
#include "one.h"
#include "variant.h"

static int mmsg_setup(struct rx *rx)
{
	rx->priv = rx_msgs_new(rx->cfg->batch, rx->cap, rx->ctl ? RX_CTL_LEN : 0);
	return rx->priv ? 0 : -1;
}

static void mmsg_run(struct rx *rx)
{
	struct rx_msgs *m = rx->priv;
	const int share = rx->cfg->one_socket;

	while (!rx->done) {
		/* MSG_TRUNC: msg_len is the datagram's real length, so a truncated one is seen */
		int n = rx_msgs_recv(rx, m, MSG_TRUNC);

		if (n < 0)
			continue;
		/* --one-socket: worked on here, counted with the other threads' under one lock */
		if (share) {
			one_batch(rx, m, n);
			rx_batch(rx);
			continue;
		}
		for (int i = 0; i < n && !rx_cut(rx); i++) {
			if (rx->ctl)
				rx_ctl(rx, &m->msgs[i].msg_hdr);
			rx_datagram(rx, m->iov[i].iov_base, m->msgs[i].msg_len, &m->names[i]);
		}
		/* --echo: the batch's replies point into its buffers, which the next call reuses */
		if (rx->echo)
			echo_flush(rx->echo, rx->fd);
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
	.busy_polls = 1,
	.echoes = 1,
	.shares = 1,
	.setup = mmsg_setup,
	.run = mmsg_run,
	.teardown = mmsg_teardown,
};
