/* copy: recvfrom into a buffer, then malloc a new block and memcpy the datagram into it, and
 * run the work on the copy: the 2014 suck.lua, where every datagram became a new immutable
 * Lua string. The copy is freed at once, or with --retain N only when N newer copies exist,
 * like a garbage collector that runs late. This is the one variant that allocates per
 * datagram, on purpose. */
#include <errno.h>
#include <stdlib.h>
#include <sys/socket.h>

#include "variant.h"

struct copy_state {
	uint8_t *buf;
	uint8_t **ring; /* the last --retain copies, oldest at next */
	unsigned next;
	uint64_t allocs;           /* variant_counts */
};

static int copy_setup(struct rx *rx)
{
	struct copy_state *st = calloc(1, sizeof *st);

	rx->priv = st;
	if (!st)
		return -1;
	st->buf = malloc(rx->cap);
	if (rx->cfg->retain)
		st->ring = calloc(rx->cfg->retain, sizeof *st->ring);
	return st->buf && (st->ring || !rx->cfg->retain) ? 0 : -1;
}

static void copy_run(struct rx *rx)
{
	struct copy_state *st = rx->priv;
	size_t cap = rx->cap;
	unsigned retain = rx->cfg->retain;
	struct rx_name from = { { 0 } };

	while (!rx->done) {
		ssize_t len = rx_recv(rx, st->buf, cap, &from);
		size_t have;
		uint8_t *copy;

		if (len < 0) {
			rx_recv_failed(rx, errno, "recvfrom");
			continue;
		}
		have = (size_t)len < cap ? (size_t)len : cap;
		copy = malloc(have ? have : 1);
		if (!copy) {
			/* The call took a datagram: count it and work on it where it lies, then end
			 * the run on the error. Dropped here it would be neither received nor idle,
			 * and calls == received + fins + idle_calls would not hold. */
			rx_datagram(rx, st->buf, (size_t)len, &from);
			rx_recv_failed(rx, ENOMEM, "malloc");
			continue;
		}
		memcpy(copy, st->buf, have);
		st->allocs++;
		rx_datagram(rx, copy, (size_t)len, &from);
		if (retain) {
			free(st->ring[st->next]);
			st->ring[st->next] = copy;
			st->next = st->next + 1 == retain ? 0 : st->next + 1;
		} else {
			free(copy);
		}
	}
}

static void copy_counts(const struct rx *rx, struct variant_counts *c)
{
	const struct copy_state *st = rx->priv;

	c->allocs = st->allocs;
}

static void copy_teardown(struct rx *rx)
{
	struct copy_state *st = rx->priv;

	if (!st)
		return;
	for (unsigned i = 0; st->ring && i < rx->cfg->retain; i++)
		free(st->ring[i]);
	free(st->ring);
	free(st->buf);
	free(st);
}

const struct variant variant_copy = {
	.name = "copy",
	.what = "recvfrom, then malloc + memcpy a new copy per datagram (2014 suck.lua)",
	.retains = 1,
	.busy_polls = 1,
	.echoes = 1,
	.setup = copy_setup,
	.run = copy_run,
	.teardown = copy_teardown,
	.counts = copy_counts,
};
