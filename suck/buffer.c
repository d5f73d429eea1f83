/* buffer: recvfrom into one reusable buffer and work on it in place, the 2014 suckb.lua's
 * "buffer userdata". One receive call per datagram; nothing allocated after setup. */
#include <errno.h>
#include <stdlib.h>
#include <sys/socket.h>

#include "variant.h"

static int buffer_setup(struct rx *rx)
{
	rx->priv = malloc(rx->cap);
	return rx->priv ? 0 : -1;
}

static void buffer_run(struct rx *rx)
{
	uint8_t *buf = rx->priv;
	size_t cap = rx->cap;
	struct rx_name from = { { 0 } };

	while (!rx->done) {
		ssize_t len = rx_recv(rx, buf, cap, &from);
		if (len < 0) {
			rx_recv_failed(rx, errno, "recvfrom");
			continue;
		}
		rx_datagram(rx, buf, (size_t)len, &from);
	}
}

static void buffer_teardown(struct rx *rx)
{
	free(rx->priv);
}

const struct variant variant_buffer = {
	.name = "buffer",
	.what = "recvfrom into one reusable buffer, work in place (2014 suckb.lua)",
	.busy_polls = 1,
	.setup = buffer_setup,
	.spins = 1,
	.echoes = 1,
	.run = buffer_run,
	.teardown = buffer_teardown,
};
