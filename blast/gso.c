/* gso: blast's whole UDP GSO policy in one place. When to use it (gso_plan, at parsing: unpaced
 * and unshaped runs send messages of as many datagrams as fit in 64 KiB), the fallback at setup
 * (gso_socket: a kernel without UDP_SEGMENT), the fallback at run time (gso_fallback: a route
 * that refuses a GSO message), and turning it off before the fins (gso_off). Pitfall: the
 * socket's segment size cuts every send on it, fins included; a fin longer than a datagram
 * would arrive in foreign pieces. */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "blast.h"

void gso_plan(struct blast_cfg *cfg, int batch_set, unsigned max)
{
	/* Each GSO segment leaves as a datagram of its own, with its own header. -b, -g or -r:
	 * the user chose the shape of the calls, and blast keeps to it. */
	if (!cfg->segs) {
		unsigned fit = max / cfg->size;
		cfg->segs = 1;
		if (!batch_set && !cfg->rate && fit >= 2) {
			cfg->segs = fit < BLAST_MAX_SEGS ? fit : BLAST_MAX_SEGS;
			cfg->gso_auto = 1;
		}
	}
	/* A GSO message is up to 64 KiB already: one per call unless -b asks for more. 32 of
	 * them (2 MiB a call) spill out of the cache and cost more per datagram than one. */
	if (cfg->segs > 1 && !batch_set)
		cfg->batch = 1;
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
