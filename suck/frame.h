/* frame: the UDP datagram inside an Ethernet frame, for receivers beneath the socket (-m xdp).
 * Every length is checked against the bytes there are before a byte is read: the frame comes
 * from the network, and a malformed one must come out as not a datagram, never as a read past
 * its end. Checksums are not checked: on a veth the UDP checksum of a local sender is not even
 * complete (CHECKSUM_PARTIAL travels with the packet), and the kernel's socket path trusts it
 * there too. Unit-tested (tests/unit/frame.c) and fuzzed (tests/fuzz/fuzz_rx.c). */
#ifndef FRAME_H
#define FRAME_H
#include <stddef.h>
#include <stdint.h>

#include "rx.h"
#include "xsk.h"

struct frame_udp {
	const uint8_t *payload;     /* the UDP payload, inside the frame */
	size_t len;                 /* its length, from the UDP header (not the frame's padding) */
	struct rx_name src;         /* the source, as the kernel writes it for m's socket */
	uint32_t mark;              /* its TOS (traffic class) and TTL (hop limit), as mark.h packs
				       them, for --marks */
};

/* 1 and d filled: f (len bytes) is one whole UDP datagram that m takes (Ethernet, IPv4
 * without fragmenting or IPv6 with UDP next, to m's address and port, lengths consistent
 * with the frame). 0: anything else, which a receiver counts as foreign. */
int frame_udp(const struct xsk_match *m, const uint8_t *f, size_t len, struct frame_udp *d);

#endif
