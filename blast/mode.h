/* mode: blast's send modes, a row each, as suck's receive variants are (suck/variant.h): a name
 * and what a flow does in that mode: setup (its buffers and state, after main has opened its
 * socket), run (the send loop, then the fins) and free. mode_pick chooses the row once, from
 * the options, and every flow runs it. The rows live beside their loops: plain, mix and
 * zerocopy in send.c (one loop, compiled for each), rtt in rtt.c, packet in packet.c, xdp in xdp.c. */
#ifndef MODE_H
#define MODE_H
#include "blast.h"

struct send_mode {
	const char *name;
	const char *what;                /* one line, for people reading the table */
	/* 1: the flow sends on the connected UDP socket main opens for it (with its marks, GSO
	 * and SO_ZEROCOPY) and closes; 0: a sender on something else (a raw or AF_XDP socket)
	 * opens it in setup and closes it in free. */
	int socket;
	int (*setup)(struct flow *f);    /* 0; -1 with errno */
	void (*run)(struct flow *f);
	void (*free)(struct flow *f);    /* what setup made, also after it failed halfway */
};

extern const struct send_mode mode_plain, mode_mix, mode_zerocopy, mode_rtt, mode_packet, mode_xdp;
/* Every mode, NULL-terminated. */
extern const struct send_mode *const modes[];
/* The mode the options ask for: --via packet or xdp, --rtt, a size mix (-s as a mix), --zerocopy, else plain. The
 * options exclude one another where two would apply (options.c). */
const struct send_mode *mode_pick(const struct blast_cfg *cfg);

#endif
