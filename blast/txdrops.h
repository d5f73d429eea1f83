/* txdrops: what blast's own host dropped of what its send calls handed over. A UDP send call
 * that a qdisc drops still says yes (the kernel keeps ENOBUFS from a UDP socket without
 * IP_RECVERR), and a device's own drops (a veth whose peer's ring is full) come after it: both
 * are counted in sent, and never reach the receiver. blast reads, before and after the run, the
 * sending device's tx_dropped (rtnetlink, IFLA_STATS64) and the drops of its qdiscs (the root
 * and clsact/ingress ones: the others' are in the root's); the deltas are the device's, any
 * traffic's, not only this run's. */
#ifndef TXDROPS_H
#define TXDROPS_H
#include <net/if.h>
#include <stdint.h>

#include "report.h"

struct txd_snap {
	int dev_ok, qdisc_ok; /* the counter could be read */
	uint64_t dev_dropped, qdisc_drops;
};

struct txd {
	unsigned ifindex; /* 0: no device found */
	char dev[IF_NAMESIZE];
	struct txd_snap s0, s1;
};

/* The device: dev when named (--via packet's), else the one whose address fd (connected) sends
 * from; then the first reading. */
void txd_start(struct txd *t, int fd, const char *dev);
/* The second reading, at the run's end. */
void txd_stop(struct txd *t);
/* tx_dev, tx_dev_dropped and qdisc_drops; '-' for what could not be read. */
void txd_report(struct report *r, const struct txd *t);
#endif
