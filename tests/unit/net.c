/* Unit tests for common/net.c's SO_REUSEPORT group: net_steer hands each datagram to socket
 * (flow id mod n) and never to a later joiner, a short datagram to socket 0; net_strangers
 * sees a socket that joined the group and only that. On loopback, as suck -j builds it: the
 * first socket bound alone, then SO_REUSEPORT on it and on the others. And net_is_any, which
 * tells suck --echo's wildcard. */
#include <arpa/inet.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "net.h"
#include "unit.h"
#include "wire.h"

static int one = 1;

static int bound(struct net_addr *a, int reuse_before)
{
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	struct timeval tick = { 0, 20000 };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tick, sizeof tick);
	if (reuse_before)
		setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
	if (bind(fd, (struct sockaddr *)&a->ss, a->len) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static unsigned drain(int fd, unsigned *flows)
{
	uint8_t buf[64];
	unsigned n = 0;
	ssize_t len;

	while ((len = recv(fd, buf, sizeof buf, MSG_DONTWAIT)) >= 0) {
		n++;
		if (flows && len >= WIRE_FLOW_OFF + 2)
			*flows |= 1u << wire_get16(buf + WIRE_FLOW_OFF);
	}
	return n;
}

int main(void)
{
	struct net_addr a;
	int s[2], stranger, tx;
	unsigned flows[2] = { 0, 0 };
	uint8_t buf[32] = { 0 };

	net_resolve("127.0.0.1", 0, &a);
	s[0] = bound(&a, 0);
	CHECK(s[0] >= 0, "bind the first socket");
	net_local(s[0], &a);
	/* A port held alone is refused to a joiner, SO_REUSEPORT or not. */
	stranger = bound(&a, 1);
	CHECK(stranger < 0, "joined a socket bound without SO_REUSEPORT");
	if (stranger >= 0)
		close(stranger);
	setsockopt(s[0], SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
	s[1] = bound(&a, 1);
	CHECK(s[1] >= 0, "the second socket joins once the first has SO_REUSEPORT");
	CHECK(net_strangers(s, 2) == 0, "no strangers: %d", net_strangers(s, 2));
	CHECK(net_steer(s[0], WIRE_FLOW_OFF, 2) == 0, "attach the program");
	CHECK(net_steer(s[0], WIRE_FLOW_OFF, 0) < 0, "n 0 refused");

	stranger = bound(&a, 1);
	CHECK(stranger >= 0, "a stranger may still join the group");
	CHECK(net_strangers(s, 2) == 1, "one stranger: %d", net_strangers(s, 2));
	CHECK(net_strangers(s, 1) == 2, "the second socket counts as a stranger to the first alone: %d",
	      net_strangers(s, 1));
	{
		int all[3] = { s[0], s[1], stranger };
		CHECK(net_strangers(all, 3) == 0, "none among all three: %d", net_strangers(all, 3));
	}

	/* 8 flows, each from a new source port (as blast's flows are), and a short datagram: the
	 * even flows on socket 0, the odd on 1, the short one on 0, nothing on the stranger. */
	for (unsigned flow = 0; flow < 8; flow++) {
		tx = socket(AF_INET, SOCK_DGRAM, 0);
		connect(tx, (struct sockaddr *)&a.ss, a.len);
		buf[WIRE_FLOW_OFF] = 0;
		buf[WIRE_FLOW_OFF + 1] = (uint8_t)flow;
		for (int k = 0; k < 4; k++)
			send(tx, buf, sizeof buf, 0);
		if (flow == 0)
			send(tx, buf, 3, 0);
		close(tx);
	}
	usleep(20000);
	unsigned n0 = drain(s[0], &flows[0]), n1 = drain(s[1], &flows[1]), ns = drain(stranger, NULL);
	CHECK(n0 == 17 && n1 == 16, "socket 0: %u (want 16 + the short one), socket 1: %u", n0, n1);
	CHECK(flows[0] == 0x55 && flows[1] == 0xaa, "flows on 0: %#x, on 1: %#x", flows[0], flows[1]);
	CHECK(ns == 0, "the stranger received %u", ns);

	close(stranger);
	close(s[0]);
	close(s[1]);

	/* net_is_any: the wildcards of both families, and nothing else */
	static const struct { const char *addr; int any; } wild[] = {
		{ "0.0.0.0", 1 }, { "::", 1 }, { "::ffff:0.0.0.0", 1 }, { "127.0.0.1", 0 }, { "::1", 0 },
		{ "::ffff:127.0.0.1", 0 }, { "0.0.0.1", 0 }, { "::2", 0 },
	};
	for (unsigned i = 0; i < sizeof wild / sizeof wild[0]; i++) {
		struct net_addr w;
		CHECK(net_resolve(wild[i].addr, 0, &w) == NULL, "resolve %s", wild[i].addr);
		CHECK(net_is_any(&w) == wild[i].any, "net_is_any(%s) %d, want %d", wild[i].addr, net_is_any(&w),
		      wild[i].any);
	}
	return unit_done("test_net");
}
