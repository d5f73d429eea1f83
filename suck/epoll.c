/* epoll: the event loop of libuv (Node's dgram), libevent, nginx, Go's netpoller and most QUIC
 * stacks. A non-blocking socket registered with epoll; epoll_wait, whose timeout is the tick,
 * then receive until the socket says EAGAIN: recvmsg one datagram a call (-b 1, the default),
 * or recvmmsg batches of -b. Level-triggered by default; --edge registers EPOLLET, where a
 * wakeup says only that something arrived since the last one, so each wakeup is drained to
 * EAGAIN (stopping at a short batch would leave a stall to chance). Level-triggered, a short
 * recvmmsg batch ends the wakeup: the queue was empty then, and epoll reports the socket
 * again if more came, so the EAGAIN call that would confirm it is saved.
 * Every epoll_wait is a receive system call (calls); one that returned an event is a wakeup
 * (wakeups); a timeout, a signal and the EAGAIN that ends a wakeup are idle_calls. With -b 1,
 * calls == received + fins + idle_calls + wakeups. The clock is read once per wakeup (and
 * every 64 datagrams of a long one), never per datagram.
 * --busy-poll: the socket's SO_BUSY_POLL makes each non-blocking receive poll the device once;
 * what makes epoll_wait itself poll is the epoll instance's own setting (EPIOCSPARAMS, Linux
 * 6.9), set here too. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "variant.h"

/* <linux/eventpoll.h> has these from Linux 6.9, but its EPOLL* macros clash with
 * <sys/epoll.h>'s; the layout is the kernel's ABI. */
struct epoll_busy_params {
	uint32_t busy_poll_usecs;
	uint16_t busy_poll_budget;
	uint8_t prefer_busy_poll;
	uint8_t pad;
};
#define EPOLL_SET_PARAMS _IOW(0x8A, 0x01, struct epoll_busy_params)

struct epoll_state {
	int ep;
	struct rx_msgs *m;     /* -b 1: one slot, received with recvmsg */
	uint64_t wakeups;      /* epoll_wait calls that returned an event (variant_counts) */
};

static int epoll_setup(struct rx *rx)
{
	const struct suck_cfg *cfg = rx->cfg;
	struct epoll_state *st = calloc(1, sizeof *st);
	struct epoll_event ev = { .events = EPOLLIN | (cfg->edge ? EPOLLET : 0) };
	int fl;

	rx->priv = st;
	if (!st)
		return -1;
	st->ep = -1;
	st->m = rx_msgs_new(cfg->batch, rx->cap, rx->ctl ? RX_CTL_LEN : 0);
	if (!st->m)
		return -1;
	fl = fcntl(rx->fd, F_GETFL);
	if (fl < 0 || fcntl(rx->fd, F_SETFL, fl | O_NONBLOCK) < 0) {
		sys_error_set(&rx->error, "fcntl O_NONBLOCK", errno);
		return -1;
	}
	st->ep = epoll_create1(EPOLL_CLOEXEC);
	if (st->ep < 0) {
		sys_error_set(&rx->error, "epoll_create1", errno);
		return -1;
	}
	if (epoll_ctl(st->ep, EPOLL_CTL_ADD, rx->fd, &ev) < 0) {
		sys_error_set(&rx->error, "epoll_ctl", errno);
		return -1;
	}
	if (cfg->busy_poll) {
		struct epoll_busy_params p = {
			.busy_poll_usecs = cfg->busy_poll,
			.busy_poll_budget = (uint16_t)cfg->busy_budget,
			.prefer_busy_poll = (uint8_t)cfg->prefer_busy_poll,
		};
		if (ioctl(st->ep, EPOLL_SET_PARAMS, &p) < 0) {
			int e = errno;
			sys_error_set(&rx->error, e == EPERM ?
				      "ioctl EPIOCSPARAMS (a --busy-poll-budget above 64 needs CAP_NET_ADMIN)" :
				      "ioctl EPIOCSPARAMS (epoll busy polling, Linux 6.9)", e);
			errno = e;
			return e == ENOTTY || e == EINVAL ? VARIANT_UNSUPPORTED : -1;
		}
	}
	return 0;
}

/* One wakeup: receive until EAGAIN, a stop, or (level-triggered, -b N) a short batch. */
static void drain(struct rx *rx, struct epoll_state *st)
{
	struct rx_msgs *m = st->m;
	int edge = rx->cfg->edge;

	for (;;) {
		const char *call = m->n == 1 ? "recvmsg" : "recvmmsg";
		int n;

		if (m->n == 1) {
			ssize_t len;
			rx->calls++;
			len = rx_recv_stamped(rx, m->iov[0].iov_base, rx->cap, &m->names[0]);
			n = len < 0 ? -1 : 1;
			if (len >= 0)
				rx_datagram(rx, m->iov[0].iov_base, (size_t)len, &m->names[0]);
		} else {
			/* MSG_TRUNC: msg_len is the datagram's real length, so a truncated one is seen */
			n = rx_msgs_take(rx, m, MSG_TRUNC);
			for (int i = 0; i < n && !rx_cut(rx); i++) {
				if (rx->ctl)
					rx_ctl(rx, &m->msgs[i].msg_hdr);
				rx_datagram(rx, m->iov[i].iov_base, m->msgs[i].msg_len, &m->names[i]);
			}
		}
		if (n < 0) {
			if (errno != EAGAIN && errno != EWOULDBLOCK) {
				rx_recv_failed(rx, errno, call); /* EINTR: idle, and on; else the end */
				if (rx->done)
					return;
				continue;
			}
			/* The socket is empty: the wakeup is over. After the last fin, so is the run
			 * (rx_idle ends it); otherwise no clock read here, one per wakeup is enough. */
			rx->idle_calls++;
			if (rx->drain_ns)
				rx_idle(rx);
			return;
		}
		if (rx->done)
			return;
		if (!edge && m->n > 1 && (unsigned)n < m->n && !rx->drain_ns)
			return;
	}
}

static void epoll_run(struct rx *rx)
{
	struct epoll_state *st = rx->priv;
	struct epoll_event ev;

	while (!rx->done) {
		int n;

		rx->calls++;
		n = epoll_wait(st->ep, &ev, 1, RX_TICK_MS);
		if (n <= 0) {
			/* the tick (0) or a signal: an idle call, the stop conditions checked */
			rx_recv_failed(rx, n < 0 ? errno : EAGAIN, "epoll_wait");
			continue;
		}
		st->wakeups++;
		drain(rx, st);
		rx_batch(rx);
	}
}

static void epoll_counts(const struct rx *rx, struct variant_counts *c)
{
	const struct epoll_state *st = rx->priv;

	c->wakeups = st->wakeups;
}

static void epoll_teardown(struct rx *rx)
{
	struct epoll_state *st = rx->priv;

	if (!st)
		return;
	if (st->ep >= 0)
		close(st->ep);
	rx_msgs_free(st->m);
	free(st);
}

const struct variant variant_epoll = {
	.name = "epoll",
	.what = "epoll_wait, then recvmsg (-b: recvmmsg) until EAGAIN, non-blocking",
	.batch = 1,
	.events = 1,
	.busy_polls = 1,
	.setup = epoll_setup,
	.run = epoll_run,
	.teardown = epoll_teardown,
	.counts = epoll_counts,
};
