/* Unit tests for suck/frame.c: the UDP datagram in an Ethernet frame. Frames built here the way
 * the kernel sends them (IPv4, IPv6, over a dual-stack or a v4-mapped socket), then every length
 * and field broken one at a time, every cut of a good frame, and random bytes: a frame is taken
 * only when all of it is right, and never read past its end (the tests run under ASan in make
 * check; every frame is copied to a buffer of exactly its length). */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "frame.h"
#include "unit.h"

static const uint8_t src4[4] = { 198, 18, 0, 1 }, dst4[4] = { 198, 18, 0, 2 };
static const uint8_t src6[16] = { 0x20, 0x01, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1 };
static const uint8_t dst6[16] = { 0x20, 0x01, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2 };
static const uint8_t ll6[16] = { 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9 };

static void put16(uint8_t *p, unsigned v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }

/* A frame of payload n bytes (pattern i & 0xff) from sport to dport; pad bytes after it. */
static size_t frame4(uint8_t *f, size_t n, unsigned sport, unsigned dport, size_t pad)
{
	uint8_t *ip = f + 14, *u = ip + 20;

	memset(f, 0, 14 + 20 + 8 + n + pad);
	put16(f + 12, 0x0800);
	ip[0] = 0x45;
	put16(ip + 2, (unsigned)(20 + 8 + n));
	ip[8] = 64;
	ip[9] = IPPROTO_UDP;
	memcpy(ip + 12, src4, 4);
	memcpy(ip + 16, dst4, 4);
	put16(u, sport);
	put16(u + 2, dport);
	put16(u + 4, (unsigned)(8 + n));
	for (size_t i = 0; i < n; i++)
		u[8 + i] = (uint8_t)i;
	return 14 + 20 + 8 + n + pad;
}

static size_t frame6(uint8_t *f, size_t n, const uint8_t *s, unsigned sport, unsigned dport)
{
	uint8_t *ip = f + 14, *u = ip + 40;

	memset(f, 0, 14 + 40 + 8 + n);
	put16(f + 12, 0x86dd);
	ip[0] = 0x60;
	put16(ip + 4, (unsigned)(8 + n));
	ip[6] = IPPROTO_UDP;
	ip[7] = 64;
	memcpy(ip + 8, s, 16);
	memcpy(ip + 24, dst6, 16);
	put16(u, sport);
	put16(u + 2, dport);
	put16(u + 4, (unsigned)(8 + n));
	for (size_t i = 0; i < n; i++)
		u[8 + i] = (uint8_t)i;
	return 14 + 40 + 8 + n;
}

static struct xsk_match match(const char *addr, int family)
{
	struct net_addr a;
	struct xsk_match m;

	memset(&a, 0, sizeof a);
	if (family == AF_INET) {
		struct sockaddr_in *s = (struct sockaddr_in *)&a.ss;
		s->sin_family = AF_INET;
		s->sin_port = htons(5000);
		inet_pton(AF_INET, addr, &s->sin_addr);
		a.len = sizeof *s;
	} else {
		struct sockaddr_in6 *s = (struct sockaddr_in6 *)&a.ss;
		s->sin6_family = AF_INET6;
		s->sin6_port = htons(5000);
		inet_pton(AF_INET6, addr, &s->sin6_addr);
		a.len = sizeof *s;
	}
	xsk_match_of(&a, 7, &m);
	return m;
}

static size_t payload_at; /* the payload's offset in the frame, from the last parse that took it */

/* frame_udp on an exact-length copy, so that ASan sees a read past the end (d->payload points
 * into the copy, freed here: read the payload at payload_at in the frame). */
static int parse(const struct xsk_match *m, const uint8_t *f, size_t len, struct frame_udp *d)
{
	uint8_t *copy = malloc(len ? len : 1);
	int r;

	memcpy(copy, f, len);
	r = frame_udp(m, copy, len, d);
	if (r) { /* the payload stays inside the frame */
		r = d->payload >= copy && d->payload + d->len <= copy + len ? 1 : -1;
		payload_at = (size_t)(d->payload - copy);
	}
	free(copy);
	return r;
}

static void test_ipv4(void)
{
	static uint8_t f[2048];
	struct xsk_match m = match("198.18.0.2", AF_INET), any = match("0.0.0.0", AF_INET);
	struct frame_udp d;
	struct sockaddr_in want = { .sin_family = AF_INET, .sin_port = htons(40000) };
	size_t len = frame4(f, 100, 40000, 5000, 0);

	memcpy(&want.sin_addr, src4, 4);
	CHECK(parse(&m, f, len, &d) == 1, "a whole IPv4 datagram is taken");
	CHECK(d.len == 100, "its payload length %zu", d.len);
	CHECK(d.mark == (MARK_TOS | MARK_TTL | 64), "its TOS 0 and TTL 64: mark %08x", d.mark);
	f[14 + 1] = 0xb8;
	f[14 + 8] = 7;
	CHECK(parse(&m, f, len, &d) == 1 && mark_tos(d.mark) == 0xb8 && mark_ttl(d.mark) == 7,
	      "TOS 184 and TTL 7: mark %08x", d.mark);
	f[14 + 1] = 0;
	f[14 + 8] = 64;
	CHECK(memcmp(d.src.b, &want, sizeof want) == 0 && d.src.b[sizeof want] == 0,
	      "the source as udp_recvmsg writes it");
	CHECK(parse(&any, f, len, &d) == 1, "0.0.0.0 takes it too");
	CHECK(m.v4 && !m.v6 && !m.any4 && any.any4, "the match of an IPv4 address and of 0.0.0.0");

	len = frame4(f, 100, 40000, 5000, 18); /* Ethernet padding after the datagram */
	CHECK(parse(&m, f, len, &d) == 1 && d.len == 100, "padding after the datagram is not payload");
	len = frame4(f, 0, 40000, 5000, 0);
	CHECK(parse(&m, f, len, &d) == 1 && d.len == 0, "an empty datagram is one");

	len = frame4(f, 100, 40000, 5001, 0);
	CHECK(parse(&m, f, len, &d) == 0, "another port is not taken");
	len = frame4(f, 100, 40000, 5000, 0);
	f[14 + 19] = 3;
	CHECK(parse(&m, f, len, &d) == 0, "another address is not taken");
	CHECK(parse(&any, f, len, &d) == 1, "... but 0.0.0.0 takes it");

	/* IPv4 options: the program passes them to the stack, the parser can read them */
	len = frame4(f, 100, 40000, 5000, 4);
	memmove(f + 14 + 24, f + 14 + 20, 8 + 100);
	f[14] = 0x46;
	put16(f + 14 + 2, 24 + 8 + 100);
	CHECK(parse(&m, f, len, &d) == 1 && d.len == 100 && payload_at == 14 + 24 + 8 && f[payload_at + 1] == 1,
	      "IPv4 with 4 bytes of options");
}

static void test_ipv4_broken(void)
{
	static uint8_t f[2048];
	struct xsk_match m = match("198.18.0.2", AF_INET);
	struct frame_udp d;
	size_t len = frame4(f, 100, 40000, 5000, 0);
	/* one byte (wide 0) or one 16-bit field (wide 1) at a time */
	static const struct { size_t at; unsigned v; int wide; const char *what; } breaks[] = {
		{ 12, 0x86dd, 1, "ethertype IPv6 on an IPv4 socket" }, { 12, 0x0806, 1, "ethertype ARP" },
		{ 14, 0x44, 0, "IHL 4" }, { 14, 0x55, 0, "version 5" }, { 14, 0x4f, 0, "IHL 15, past the total" },
		{ 16, 27, 1, "a total length shorter than the headers" }, { 16, 129, 1, "a total length past the frame" },
		{ 23, IPPROTO_TCP, 0, "TCP" }, { 20, 0x2000, 1, "more fragments" }, { 20, 0x0001, 1, "a later fragment" },
		{ 14 + 20 + 4, 109, 1, "a UDP length past the IP payload" },
		{ 14 + 20 + 4, 7, 1, "a UDP length below 8" },
	};

	for (unsigned i = 0; i < sizeof breaks / sizeof breaks[0]; i++) {
		uint8_t keep[2] = { f[breaks[i].at], f[breaks[i].at + 1] };
		if (breaks[i].wide)
			put16(f + breaks[i].at, breaks[i].v);
		else
			f[breaks[i].at] = (uint8_t)breaks[i].v;
		CHECK(parse(&m, f, len, &d) == 0, "%s is not taken", breaks[i].what);
		memcpy(f + breaks[i].at, keep, 2);
	}
	CHECK(parse(&m, f, len, &d) == 1, "the frame is whole again");
	for (size_t cut = 0; cut < len; cut++)
		CHECK(parse(&m, f, cut, &d) == 0, "a frame cut at %zu of %zu is not taken", cut, len);
}

static void test_ipv6(void)
{
	static uint8_t f[2048];
	struct xsk_match m = match("2001:2:0:1::2", AF_INET6), dual = match("::", AF_INET6),
			 mapped = match("::ffff:198.18.0.2", AF_INET6), v4 = match("198.18.0.2", AF_INET);
	struct frame_udp d;
	struct sockaddr_in6 want = { .sin6_family = AF_INET6, .sin6_port = htons(40000) };
	size_t len = frame6(f, 200, src6, 40000, 5000);

	memcpy(&want.sin6_addr, src6, 16);
	CHECK(m.v6 && !m.v4 && dual.v4 && dual.v6 && dual.any4 && dual.any6 && mapped.v4 && !mapped.v6,
	      "the matches of an IPv6 address, ::, and ::ffff:198.18.0.2");
	CHECK(parse(&m, f, len, &d) == 1 && d.len == 200, "a whole IPv6 datagram is taken");
	CHECK(memcmp(d.src.b, &want, sizeof want) == 0, "the source as udpv6_recvmsg writes it");
	CHECK(d.mark == (MARK_TOS | MARK_TTL | 64), "traffic class 0, hop limit 64: mark %08x", d.mark);
	f[14] = 0x6b; /* version 6, traffic class 0xb8 across the nibbles, flow label 0x80000 */
	f[14 + 1] = 0x88;
	f[14 + 7] = 3;
	CHECK(parse(&m, f, len, &d) == 1 && mark_tos(d.mark) == 0xb8 && mark_ttl(d.mark) == 3,
	      "traffic class 184 and hop limit 3: mark %08x", d.mark);
	f[14] = 0x60;
	f[14 + 1] = 0;
	f[14 + 7] = 64;
	CHECK(parse(&dual, f, len, &d) == 1, ":: takes it");
	CHECK(parse(&v4, f, len, &d) == 0 && parse(&mapped, f, len, &d) == 0, "an IPv4 socket does not");
	for (size_t cut = 0; cut < len; cut++)
		CHECK(parse(&m, f, cut, &d) == 0, "an IPv6 frame cut at %zu of %zu is not taken", cut, len);
	f[14 + 6] = 0; /* hop-by-hop options first */
	CHECK(parse(&m, f, len, &d) == 0, "an extension header first is not taken");
	f[14 + 6] = IPPROTO_UDP;
	put16(f + 14 + 4, 0);
	CHECK(parse(&m, f, len, &d) == 0, "payload length 0 (a jumbogram's) is not taken");
	put16(f + 14 + 4, 209);
	CHECK(parse(&m, f, len, &d) == 0, "a payload length past the frame is not taken");
	put16(f + 14 + 4, 208);
	f[14 + 39] = 3;
	CHECK(parse(&m, f, len, &d) == 0 && parse(&dual, f, len, &d) == 1, "another address: only :: takes it");

	len = frame6(f, 10, ll6, 40000, 5000);
	CHECK(parse(&m, f, len, &d) == 1, "from a link-local source");
	memcpy(&want.sin6_addr, ll6, 16);
	want.sin6_scope_id = 7;
	CHECK(memcmp(d.src.b, &want, sizeof want) == 0, "... whose name carries the interface");

	/* IPv4 on a dual-stack or v4-mapped socket: the source v4-mapped, as the kernel writes it */
	len = frame4(f, 50, 40000, 5000, 0);
	memset(&want, 0, sizeof want);
	want.sin6_family = AF_INET6;
	want.sin6_port = htons(40000);
	want.sin6_addr.s6_addr[10] = want.sin6_addr.s6_addr[11] = 0xff;
	memcpy(want.sin6_addr.s6_addr + 12, src4, 4);
	CHECK(parse(&dual, f, len, &d) == 1 && memcmp(d.src.b, &want, sizeof want) == 0, ":: takes IPv4, v4-mapped");
	CHECK(parse(&mapped, f, len, &d) == 1 && memcmp(d.src.b, &want, sizeof want) == 0,
	      "::ffff:198.18.0.2 takes IPv4 to 198.18.0.2");
	CHECK(parse(&m, f, len, &d) == 0, "an IPv6 address does not take IPv4");
}

static void test_random(void)
{
	static uint8_t f[256];
	struct xsk_match ms[] = { match("0.0.0.0", AF_INET), match("::", AF_INET6) };
	struct frame_udp d;
	uint64_t r = 0x9e3779b97f4a7c15ull;
	unsigned bad = 0, taken = 0;

	for (unsigned i = 0; i < 200000; i++) {
		size_t len = frame4(f, 60, 40000, 5000, 0);
		if (i & 1)
			len = frame6(f, 60, src6, 40000, 5000);
		/* a few random bytes into a good frame, a random length */
		for (unsigned k = 0; k < 1 + i % 4; k++) {
			r ^= r << 13, r ^= r >> 7, r ^= r << 17;
			f[r % len] = (uint8_t)(r >> 32);
		}
		r ^= r << 13, r ^= r >> 7, r ^= r << 17;
		len = r % (len + 1);
		int got = parse(&ms[i & 1], f, len, &d);
		bad += got < 0;
		taken += got > 0;
	}
	CHECK(bad == 0, "%u of the taken frames had a payload outside them", bad);
	CHECK(taken > 0, "some random frames are still whole (%u)", taken);
}

int main(void)
{
	test_ipv4();
	test_ipv4_broken();
	test_ipv6();
	test_random();
	return unit_done("frame");
}
