/* gso: blast's whole UDP GSO policy in one place. When to use it (gso_plan, at parsing: unpaced
 * and unshaped runs send messages of as many datagrams as fit in 64 KiB), the fallback at setup
 * (gso_socket: a kernel without UDP_SEGMENT), the fallback at run time (gso_fallback: a route
 * that refuses a GSO message), and turning it off before the fins (gso_off). Pitfall: the
 * socket's segment size cuts every send on it, fins included; a fin longer than a datagram
 * would arrive in foreign pieces. */
#include <errno.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "blast.h"

unsigned gso_max_segs(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof a;
	static uint8_t buf[BLAST_MAX_SEGS * 8];
	int seg = 8, rx = socket(AF_INET, SOCK_DGRAM, 0), tx = socket(AF_INET, SOCK_DGRAM, 0);
	unsigned max = BLAST_OLD_SEGS;

	/* The kernel checks the count at the send, not at setsockopt: one real send of 128
	 * segments of 8 bytes, to a socket nobody else knows, decides it. */
	if (rx >= 0 && tx >= 0 && bind(rx, (struct sockaddr *)&a, sizeof a) == 0 &&
	    getsockname(rx, (struct sockaddr *)&a, &alen) == 0 &&
	    connect(tx, (struct sockaddr *)&a, sizeof a) == 0 &&
	    setsockopt(tx, SOL_UDP, UDP_SEGMENT, &seg, sizeof seg) == 0 &&
	    send(tx, buf, sizeof buf, MSG_DONTWAIT) == (ssize_t)sizeof buf)
		max = BLAST_MAX_SEGS;
	if (rx >= 0)
		close(rx);
	if (tx >= 0)
		close(tx);
	return max;
}

void gso_plan(struct blast_cfg *cfg, int batch_set, unsigned max)
{
	/* Each GSO segment leaves as a datagram of its own, with its own header. -b, -g or -r:
	 * the user chose the shape of the calls, and blast keeps to it. */
	if (!cfg->segs) {
		unsigned fit = max / cfg->size;
		cfg->segs = 1;
		if (!batch_set && !cfg->rate && fit >= 2) {
			cfg->segs = fit < cfg->max_segs ? fit : cfg->max_segs;
			cfg->gso_auto = 1;
		}
	}
	if (cfg->segs < 2 || batch_set)
		return;
	/* A call's fixed cost is paid per send call: small messages (64 x 64 B is 4 KiB) go
	 * several to a sendmmsg, as many as fit in BLAST_CALL_BYTES (docs/performance.md has
	 * the shapes measured). A -g of the user's keeps one message per call unless -b says. */
	cfg->batch = 1;
	if (cfg->gso_auto) {
		size_t msg = (size_t)cfg->segs * cfg->size;
		unsigned n = (unsigned)(BLAST_CALL_BYTES / msg);
		cfg->batch = n < 1 ? 1 : n > BLAST_MAX_MSGS ? BLAST_MAX_MSGS : n;
	}
}

/* The plain shape a flow falls back to: sendmmsg of BLAST_PLAIN_BATCH. */
static void plain(struct flow *f)
{
	f->segs = 1;
	f->batch = BLAST_PLAIN_BATCH;
}

int gso_socket(struct flow *f)
{
	const struct blast_cfg *cfg = f->cfg;
	static atomic_int said;
	int seg = (int)cfg->size;

	f->batch = cfg->batch;
	f->segs = cfg->segs;
	if (f->segs < 2 || setsockopt(f->fd, SOL_UDP, UDP_SEGMENT, &seg, sizeof seg) == 0)
		return 0;
	if (!cfg->gso_auto) {
		fprintf(stderr, "blast: setsockopt UDP_SEGMENT: %s (this kernel has no UDP GSO)\n",
			strerror(errno));
		return -1;
	}
	if (!atomic_exchange(&said, 1))
		fprintf(stderr, "blast: note: no UDP GSO here (setsockopt UDP_SEGMENT: %s); "
			"sending with sendmmsg -b %u\n", strerror(errno), BLAST_PLAIN_BATCH);
	plain(f);
	return 0;
}

int gso_refused(const struct flow *f, int e)
{
	return f->segs > 1 && f->cfg->gso_auto &&
	       (e == EIO || e == EMSGSIZE || e == EINVAL || e == EOPNOTSUPP);
}

void gso_fallback(struct flow *f, int e)
{
	static atomic_int said;
	int off = 0;

	/* A device without checksum offload, IPsec, a path MTU below the datagram size...: this
	 * flow goes on with sendmmsg, as without GSO. */
	setsockopt(f->fd, SOL_UDP, UDP_SEGMENT, &off, sizeof off);
	plain(f);
	if (!atomic_exchange(&said, 1))
		fprintf(stderr, "blast: note: the route refused UDP GSO (%s); sending with sendmmsg -b %u\n",
			strerrorname_np(e) ? strerrorname_np(e) : strerror(e), BLAST_PLAIN_BATCH);
}

int gso_off(struct flow *f)
{
	int off = 0;

	if (f->segs < 2) /* never on, or off since a fallback (at setup or at run time) */
		return 0;
	return setsockopt(f->fd, SOL_UDP, UDP_SEGMENT, &off, sizeof off);
}
