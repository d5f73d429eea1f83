/* Unit tests for blast/packet.c's frame builder: the frames blast --via packet writes are taken
 * whole by suck's frame parser (suck/frame.c: the same knowledge, written apart), carry blast's
 * header, and hold an IPv4 header checksum and a UDP checksum over the pseudo-header that an
 * independent sum (RFC 1071, written here byte by byte from a pseudo-header laid out in a
 * buffer) finds right; the per-datagram checksum (the constant part plus seq and send time) is
 * the full one, for every sequence and time tried, odd sizes too; --dst-mac's parsing. */
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blast.h"
#include "frame.h"
#include "unit.h"
#include "wire.h"

static struct pkt_path path_of(int family)
{
	struct pkt_path p;
	static const uint8_t s4[4] = { 198, 18, 0, 1 }, d4[4] = { 198, 18, 0, 2 };
	static const uint8_t s6[16] = { 0x20, 0x01, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 };
	static const uint8_t d6[16] = { 0x20, 0x01, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2 };

	memset(&p, 0, sizeof p);
	p.family = family;
	memcpy(p.src_mac, "\x02\x62\x73\x00\x00\x01", 6);
	memcpy(p.dst_mac, "\x02\x62\x73\x00\x00\x02", 6);
	memcpy(p.src, family == AF_INET ? s4 : s6, family == AF_INET ? 4 : 16);
	memcpy(p.dst, family == AF_INET ? d4 : d6, family == AF_INET ? 4 : 16);
	p.dport = 22222;
	p.tos = 0xb8;
	p.ttl = 9;
	p.hdr_len = ETH_HLEN + (family == AF_INET ? 20 : 40) + 8;
	return p;
}

/* RFC 1071, the plain way: a 16-bit one's complement sum of buf, odd byte padded. */
static uint16_t rfc1071(const uint8_t *b, size_t n)
{
	uint32_t sum = 0;

	for (size_t i = 0; i < n; i += 2) {
		sum += (uint32_t)b[i] << 8 | (i + 1 < n ? b[i + 1] : 0);
		sum = (sum & 0xffff) + (sum >> 16);
	}
	return (uint16_t)sum;
}

/* The UDP checksum is right: the sum over a pseudo-header laid out in a buffer and the whole
 * UDP datagram, checksum included, is 0xffff (and the checksum is never 0). */
static int udp_ok(const struct pkt_path *p, const uint8_t *udp)
{
	static uint8_t b[40 + 65536];
	unsigned ulen = (unsigned)udp[4] << 8 | udp[5], alen = p->family == AF_INET ? 4 : 16, n = 0;

	memcpy(b, p->src, alen);
	memcpy(b + alen, p->dst, alen);
	n = 2 * alen;
	if (p->family == AF_INET) {
		b[n++] = 0;
		b[n++] = IPPROTO_UDP;
		b[n++] = (uint8_t)(ulen >> 8);
		b[n++] = (uint8_t)ulen;
	} else {
		b[n++] = 0;
		b[n++] = 0;
		b[n++] = (uint8_t)(ulen >> 8);
		b[n++] = (uint8_t)ulen;
		b[n++] = 0;
		b[n++] = 0;
		b[n++] = 0;
		b[n++] = IPPROTO_UDP;
	}
	memcpy(b + n, udp, ulen);
	return (udp[6] | udp[7]) != 0 && rfc1071(b, n + ulen) == 0xffff;
}

static struct xsk_match match_of(const struct pkt_path *p)
{
	struct net_addr a;
	struct xsk_match m;

	memset(&a, 0, sizeof a);
	if (p->family == AF_INET) {
		struct sockaddr_in *s = (struct sockaddr_in *)&a.ss;
		s->sin_family = AF_INET;
		s->sin_port = htons(p->dport);
		memcpy(&s->sin_addr, p->dst, 4);
	} else {
		struct sockaddr_in6 *s = (struct sockaddr_in6 *)&a.ss;
		s->sin6_family = AF_INET6;
		s->sin6_port = htons(p->dport);
		memcpy(&s->sin6_addr, p->dst, 16);
	}
	xsk_match_of(&a, 3, &m);
	return m;
}

static void test_frames(int family)
{
	static const unsigned sizes[] = { 32, 33, 64, 70, 511, 1450, 1472 };
	static uint8_t f[2048];
	struct pkt_path p = path_of(family);
	struct xsk_match m = match_of(&p);
	const char *fam = family == AF_INET ? "IPv4" : "IPv6";

	for (unsigned k = 0; k < sizeof sizes / sizeof *sizes; k++) {
		unsigned size = sizes[k];
		struct wire_hdr h = { .type = WIRE_DATA, .flow = 3, .run_id = 0xabcdef01, .proof = 0x1234 }, got;
		struct frame_udp d;
		size_t hl;
		uint8_t *udp;

		memset(f, 0, sizeof f);
		hl = pkt_headers(&p, f, 40000, size);
		CHECK(hl == p.hdr_len, "%s: headers %zu bytes", fam, hl);
		udp = f + hl - 8;
		for (unsigned i = 0; i < size; i++)
			udp[8 + i] = (uint8_t)(i * 7 + 1);
		wire_put_hdr(udp + 8, &h);
		CHECK(!memcmp(f, p.dst_mac, 6) && !memcmp(f + 6, p.src_mac, 6), "%s: the MACs", fam);
		if (family == AF_INET) {
			CHECK(f[12] == 0x08 && f[13] == 0x00, "IPv4: ethertype");
			CHECK(rfc1071(f + ETH_HLEN, 20) == 0xffff, "IPv4: header checksum, -s %u", size);
			CHECK(f[ETH_HLEN + 1] == 0xb8 && f[ETH_HLEN + 8] == 9, "IPv4: tos and ttl");
			CHECK((f[ETH_HLEN + 6] & 0x40) && !(f[ETH_HLEN + 6] & 0x3f) && !f[ETH_HLEN + 7], "IPv4: DF, not a fragment");
		} else {
			CHECK(f[12] == 0x86 && f[13] == 0xdd, "IPv6: ethertype");
			CHECK((f[ETH_HLEN] >> 4) == 6 && ((f[ETH_HLEN] & 15) << 4 | f[ETH_HLEN + 1] >> 4) == 0xb8 &&
			      f[ETH_HLEN + 7] == 9, "IPv6: version, traffic class and hop limit");
		}
		/* the constant part and a few stamps, each checked whole */
		uint32_t base = pkt_udp_base(&p, udp);
		static const uint64_t seqs[] = { 0, 1, 0xffff, 0x10000, 0xfffffffffffull, (1ull << 48) - 1 };
		static const uint64_t times[] = { 0, 1, 1700000000123456789ull, 0xffffffffffffffffull };
		for (unsigned s = 0; s < sizeof seqs / sizeof *seqs; s++)
			for (unsigned t = 0; t < sizeof times / sizeof *times; t++) {
				pkt_stamp(udp, base, seqs[s], times[t]);
				CHECK(udp_ok(&p, udp), "%s: -s %u: seq %llu time %llu: the UDP checksum", fam, size,
				      (unsigned long long)seqs[s], (unsigned long long)times[t]);
				CHECK(frame_udp(&m, f, hl + size, &d) == 1 && d.len == size && d.payload == udp + 8,
				      "%s: -s %u: suck's parser takes the frame", fam, size);
				CHECK(wire_get_hdr(udp + 8, size, &got) == 0 && got.seq == seqs[s] && got.send_ns == times[t] &&
				      got.flow == 3 && got.run_id == 0xabcdef01 && got.proof == 0x1234,
				      "%s: -s %u: blast's header, stamped", fam, size);
			}
		/* the checksum of what the datagram holds, as the fins get it */
		memset(udp + 6, 0xaa, 2);
		pkt_udp_csum(&p, udp);
		CHECK(udp_ok(&p, udp), "%s: -s %u: pkt_udp_csum", fam, size);
		/* a changed byte is seen: the sum covers the payload */
		udp[8 + size - 1] ^= 0x10;
		CHECK(!udp_ok(&p, udp), "%s: -s %u: a changed last byte breaks the checksum", fam, size);
	}
}

/* A checksum that sums to 0 goes as 0xffff: 0 says "no checksum" (IPv4) and is refused (IPv6). */
static void test_zero_sum(void)
{
	static uint8_t f[256];
	struct pkt_path p = path_of(AF_INET6);
	size_t hl = pkt_headers(&p, f, 1, 32);
	uint8_t *udp = f + hl - 8;
	int found = 0;

	/* search the send time for a datagram whose sum before inversion is 0xffff */
	for (uint64_t t = 0; t < 0x20000 && !found; t++) {
		pkt_stamp(udp, pkt_udp_base(&p, udp), 5, t);
		if (udp[6] == 0xff && udp[7] == 0xff) {
			found = 1;
			CHECK(udp_ok(&p, udp), "a datagram whose checksum would be 0 carries 0xffff");
		}
	}
	CHECK(found, "a sum of 0xffff found among the send times");
}

static void test_mac(void)
{
	uint8_t m[6];

	CHECK(packet_mac("02:62:73:00:00:0a", m) == 0 && m[0] == 2 && m[5] == 10, "a MAC");
	CHECK(packet_mac("AA:bb:CC:dd:EE:ff", m) == 0 && m[0] == 0xaa && m[5] == 0xff, "upper and lower case");
	CHECK(packet_mac("02:62:73:00:00", m) < 0, "five bytes");
	CHECK(packet_mac("02:62:73:00:00:0a:01", m) < 0, "seven bytes");
	CHECK(packet_mac("02:62:73:00:00:0a ", m) < 0, "a trailing space");
	CHECK(packet_mac("2:62:73:0:0:a", m) < 0, "bytes of one digit");
	CHECK(packet_mac("02-62-73-00-00-0a", m) < 0, "dashes");
	CHECK(packet_mac("0g:62:73:00:00:0a", m) < 0, "not hex");
	CHECK(packet_mac("", m) < 0, "empty");
}

int main(void)
{
	test_frames(AF_INET);
	test_frames(AF_INET6);
	test_zero_sum();
	test_mac();
	return unit_done("packet");
}
