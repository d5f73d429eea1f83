/* Unit tests for common/wire.c: header and fin encoding, exact byte layout (DESIGN.md, "Wire
 * format"), rejection of every malformed field, and random garbage. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "key.h"
#include "wire.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t xorshift(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static uint64_t be(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

static void test_round_trip(void)
{
	static const struct wire_hdr cases[] = {
		{ WIRE_DATA, 0, 0, 0, 0, 0 },
		{ WIRE_DATA, 1, 1, 1, 1, 0 },
		{ WIRE_FIN, 7, 0xdeadbeefu, 123456789012345ull, 1700000000123456789ull, 0 },
		{ WIRE_DATA, WIRE_MAX_FLOWS - 1, UINT32_MAX, WIRE_SEQ_LIMIT - 1, UINT64_MAX, 0 },
		{ WIRE_FIN, WIRE_MAX_FLOWS - 1, UINT32_MAX, WIRE_SEQ_LIMIT - 1, UINT64_MAX, 0 },
		{ WIRE_DATA, 0x00a5, 0x01020304u, 0x0000030405060708ull, 0x1112131415161718ull, 0 },
		{ WIRE_DATA, 0x80, 0x80000000u, 0x0000800000000000ull, 0x8000000000000001ull, 0 },
	};

	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		const struct wire_hdr *in = &cases[c];
		uint8_t buf[WIRE_HDR_LEN + 8];
		struct wire_hdr out;

		memset(buf, 0xee, sizeof buf);
		memset(&out, 0x55, sizeof out);
		wire_put_hdr(buf, in);
		for (size_t i = WIRE_HDR_LEN; i < sizeof buf; i++)
			CHECK(buf[i] == 0xee, "case %zu: byte %zu past the header written", c, i);
		CHECK(wire_get_hdr(buf, WIRE_HDR_LEN, &out) == 0, "case %zu rejected", c);
		CHECK(out.type == in->type, "case %zu type %u", c, out.type);
		CHECK(out.flow == in->flow, "case %zu flow %u", c, out.flow);
		CHECK(out.run_id == in->run_id, "case %zu run_id %x", c, out.run_id);
		CHECK(out.seq == in->seq, "case %zu seq %llx", c, (unsigned long long)out.seq);
		CHECK(out.send_ns == in->send_ns, "case %zu send_ns %llx", c, (unsigned long long)out.send_ns);
		/* A longer buffer (header + payload) decodes the same. */
		memset(&out, 0, sizeof out);
		CHECK(wire_get_hdr(buf, sizeof buf, &out) == 0 && out.seq == in->seq && out.flow == in->flow,
		      "case %zu with payload", c);
	}
}

static void test_layout(void)
{
	const struct wire_hdr h = { WIRE_DATA, 0x0a0b, 0x11223344u, 0x2122232425262728ull,
				    0x3132333435363738ull, 0 };
	static const uint8_t want[WIRE_HDR_LEN] = {
		'B', 'L', 'S', 'T', 1, 0, 0x0a, 0x0b,
		0x11, 0x22, 0x33, 0x44, 0, 0, 0, 0,
		0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28,
		0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38,
	};
	uint8_t buf[WIRE_HDR_LEN];
	struct wire_hdr f = h;

	memset(buf, 0xff, sizeof buf); /* reserved must be written as 0, not left alone */
	wire_put_hdr(buf, &h);
	for (int i = 0; i < WIRE_HDR_LEN; i++)
		CHECK(buf[i] == want[i], "byte %d is %02x, want %02x", i, buf[i], want[i]);
	CHECK(memcmp(buf, "BLST", 4) == 0, "magic");
	CHECK(buf[4] == 1, "version %u", buf[4]);
	CHECK(buf[5] == 0, "type %u", buf[5]);
	CHECK(be(buf + 6, 2) == 0x0a0b, "flow");
	CHECK(be(buf + 8, 4) == 0x11223344u, "run id");
	CHECK(be(buf + 12, 4) == 0, "reserved");
	CHECK(be(buf + 16, 8) == 0x2122232425262728ull, "seq");
	CHECK(be(buf + 24, 8) == 0x3132333435363738ull, "send time");

	f.type = WIRE_FIN;
	wire_put_hdr(buf, &f);
	CHECK(buf[5] == 1, "fin type %u", buf[5]);
	CHECK(WIRE_HDR_LEN == 32, "header length %d", WIRE_HDR_LEN);
	CHECK(WIRE_FIN_LEN == 70, "fin length %d", WIRE_FIN_LEN);
}

static void test_reject(void)
{
	const struct wire_hdr h = { WIRE_DATA, 3, 0xabcdef01u, 99, 1000, 0 };
	uint8_t good[WIRE_HDR_LEN], buf[WIRE_HDR_LEN];
	struct wire_hdr out;

	wire_put_hdr(good, &h);
	CHECK(wire_get_hdr(good, sizeof good, &out) == 0, "the base case is accepted");

	/* Every short length, in a buffer of exactly that length (ASan sees an overread). */
	for (size_t len = 0; len < WIRE_HDR_LEN; len++) {
		uint8_t *p = malloc(len ? len : 1);
		memcpy(p, good, len);
		CHECK(wire_get_hdr(p, len, &out) == -1, "length %zu accepted", len);
		free(p);
	}

	/* Each magic byte wrong. */
	for (int i = 0; i < 4; i++) {
		memcpy(buf, good, sizeof buf);
		buf[i] ^= 0x20; /* "bLST", "BlST", ... */
		CHECK(wire_get_hdr(buf, sizeof buf, &out) == -1, "magic byte %d changed", i);
	}
	memcpy(buf, good, sizeof buf);
	memcpy(buf, "TSLB", 4); /* little-endian magic */
	CHECK(wire_get_hdr(buf, sizeof buf, &out) == -1, "byte-swapped magic");

	/* Version. */
	for (int v = 0; v < 256; v++) {
		memcpy(buf, good, sizeof buf);
		buf[4] = (uint8_t)v;
		CHECK(wire_get_hdr(buf, sizeof buf, &out) == (v == 1 ? 0 : -1), "version %d", v);
	}

	/* Type: only 0, 1 and 2 (a request) for suck. */
	for (int t = 0; t < 256; t++) {
		memcpy(buf, good, sizeof buf);
		buf[5] = (uint8_t)t;
		memset(&out, 0, sizeof out);
		int r = wire_get_hdr(buf, sizeof buf, &out);
		CHECK(r == (t <= 2 ? 0 : -1), "type %d: %d", t, r);
		if (t <= 2)
			CHECK(out.type == t, "type %d decoded as %u", t, out.type);
	}

	/* A request's reserved field is the reply's size: 0, or 32..65527; in data the run's proof,
	 * any value (decoded as proof); in a fin, 0. */
	static const struct { uint32_t size; int ok; } replies[] = {
		{ 0, 1 }, { 1, 0 }, { 31, 0 }, { 32, 1 }, { 1450, 1 }, { 65527, 1 }, { 65528, 0 },
		{ 0x10000, 0 }, { 0x80000000u, 0 }, { 0xffffffffu, 0 },
	};
	for (size_t i = 0; i < sizeof replies / sizeof replies[0]; i++)
		for (int t = 0; t <= 2; t++) {
			memcpy(buf, good, sizeof buf);
			buf[5] = (uint8_t)t;
			buf[12] = (uint8_t)(replies[i].size >> 24);
			buf[13] = (uint8_t)(replies[i].size >> 16);
			buf[14] = (uint8_t)(replies[i].size >> 8);
			buf[15] = (uint8_t)replies[i].size;
			int want = t == WIRE_DATA || (replies[i].ok && (t == WIRE_REQ || replies[i].size == 0)) ? 0 : -1;
			memset(&out, 0, sizeof out);
			CHECK(wire_get_hdr(buf, sizeof buf, &out) == want, "type %d reply size %u", t, replies[i].size);
			if (want == 0)
				CHECK(wire_get_reply(buf) == replies[i].size, "reply size %u", replies[i].size);
			CHECK(out.proof == (t == WIRE_DATA ? replies[i].size : 0), "type %d proof %u", t, out.proof);
		}
	{
		struct wire_hdr rq = { .type = WIRE_REQ, .flow = 3, .run_id = 9, .seq = 5 }, back;
		wire_put_hdr(buf, &rq);
		CHECK(be(buf + 12, 4) == 0, "a header is written with reserved 0");
		wire_put_reply(buf, 4000);
		CHECK(wire_get_hdr(buf, sizeof buf, &back) == 0 && back.type == WIRE_REQ && wire_get_reply(buf) == 4000 &&
		      be(buf + 12, 4) == 4000, "a request round trip");
	}
	/* suck --echo's reply: the request with type 3 and suck's time; blast's reply parser takes
	 * it with the reply size kept, suck's takes neither it nor any type past 3. */
	{
		struct wire_hdr rq = { .type = WIRE_REQ, .flow = 3, .run_id = 9, .seq = 5, .send_ns = 111 }, back;
		wire_put_hdr(buf, &rq);
		wire_put_reply(buf, 4000);
		wire_put_echo(buf, 0x0102030405060708ull);
		CHECK(wire_get_hdr(buf, sizeof buf, &back) == -1, "suck counts a reply foreign");
		memset(&back, 0, sizeof back);
		CHECK(wire_get_typed(buf, sizeof buf, &back, WIRE_TYPES_REPLY) == 0 && back.type == WIRE_ECHO &&
		      back.seq == 5 && back.flow == 3 && back.run_id == 9 && back.send_ns == 0x0102030405060708ull &&
		      wire_get_reply(buf) == 4000, "a stamped reply parsed");
		buf[5] = WIRE_REQ;
		CHECK(wire_get_typed(buf, sizeof buf, &back, WIRE_TYPES_REPLY) == 0 && back.type == WIRE_REQ,
		      "a plain echo of a request parsed");
		for (int t = 0; t < 256; t++) {
			buf[5] = (uint8_t)t;
			CHECK(wire_get_typed(buf, sizeof buf, &back, WIRE_TYPES_REPLY) == (t == 2 || t == 3 ? 0 : -1),
			      "reply parser, type %d", t);
		}
	}

	/* Flow: 0 .. WIRE_MAX_FLOWS-1 only. */
	static const unsigned flows[] = { 0, 1, WIRE_MAX_FLOWS - 1, WIRE_MAX_FLOWS, WIRE_MAX_FLOWS + 1,
					  0x1000, 0x8000, 0xffff };
	for (size_t i = 0; i < sizeof flows / sizeof flows[0]; i++) {
		memcpy(buf, good, sizeof buf);
		buf[6] = (uint8_t)(flows[i] >> 8);
		buf[7] = (uint8_t)flows[i];
		int want = flows[i] < WIRE_MAX_FLOWS ? 0 : -1;
		memset(&out, 0, sizeof out);
		CHECK(wire_get_hdr(buf, sizeof buf, &out) == want, "flow %u", flows[i]);
		if (want == 0)
			CHECK(out.flow == flows[i], "flow %u decoded as %u", flows[i], out.flow);
	}

	/* Reserved, in a fin: any nonzero bit in any of the four bytes. */
	for (int i = 12; i < 16; i++)
		for (int b = 0; b < 8; b++) {
			memcpy(buf, good, sizeof buf);
			buf[5] = WIRE_FIN;
			buf[i] = (uint8_t)(1u << b);
			CHECK(wire_get_hdr(buf, sizeof buf, &out) == -1, "reserved byte %d bit %d", i, b);
		}
	/* The run's proof: a fixed function of the key and the run id, never 0, and it tells runs
	 * and keys apart. */
	{
		uint8_t k1[KEY_LEN] = { 1 }, k2[KEY_LEN] = { 2 };
		CHECK(wire_run_proof(k1, 7) == wire_run_proof(k1, 7), "proof is a function");
		CHECK(wire_run_proof(k1, 7) != wire_run_proof(k1, 8), "proof tells runs apart");
		CHECK(wire_run_proof(k1, 7) != wire_run_proof(k2, 7), "proof tells keys apart");
		CHECK(wire_run_proof(k1, 7) != 0 && wire_run_proof(k2, 0) != 0, "proof never 0");
		struct wire_hdr ph = { WIRE_DATA, 1, 7, 3, 4, wire_run_proof(k1, 7) }, back;
		wire_put_hdr(buf, &ph);
		CHECK(wire_get_hdr(buf, WIRE_HDR_LEN, &back) == 0 && back.proof == ph.proof, "proof round trip");
		ph.type = WIRE_REQ;
		wire_put_hdr(buf, &ph);
		CHECK(wire_get_reply(buf) == 0, "a request carries no proof");
	}

	/* Any run id and time, and any sequence below 2^48, are accepted. */
	memcpy(buf, good, sizeof buf);
	memset(buf + 8, 0xff, 4);
	memset(buf + 16, 0xff, 16);
	buf[16] = buf[17] = 0;
	CHECK(wire_get_hdr(buf, sizeof buf, &out) == 0 && out.run_id == UINT32_MAX &&
	      out.seq == WIRE_SEQ_LIMIT - 1 && out.send_ns == UINT64_MAX, "all-ones run id, time, seq 2^48-1");

	/* A sequence number at or above 2^48 is malformed (DESIGN.md). */
	CHECK(WIRE_SEQ_LIMIT == 1ull << 48, "WIRE_SEQ_LIMIT is 2^48");
	static const uint64_t seqs[] = { 0, 1, WIRE_SEQ_LIMIT - 1, WIRE_SEQ_LIMIT, WIRE_SEQ_LIMIT + 1, 1ull << 62,
					 1ull << 63, UINT64_MAX - 1, UINT64_MAX };
	for (size_t i = 0; i < sizeof seqs / sizeof seqs[0]; i++) {
		int want = seqs[i] < WIRE_SEQ_LIMIT ? 0 : -1;
		memcpy(buf, good, sizeof buf);
		for (int b = 0; b < 8; b++)
			buf[16 + b] = (uint8_t)(seqs[i] >> (56 - 8 * b));
		memset(&out, 0, sizeof out);
		CHECK(wire_get_hdr(buf, sizeof buf, &out) == want, "seq %llx", (unsigned long long)seqs[i]);
		if (want == 0)
			CHECK(out.seq == seqs[i], "seq %llx decoded as %llx", (unsigned long long)seqs[i],
			      (unsigned long long)out.seq);
	}
}

static void test_put_seq(void)
{
	const struct wire_hdr h = { WIRE_DATA, 5, 0x01020304u, 1, 2, 0 };
	uint8_t buf[64], before[64];
	struct wire_hdr out;

	/* On a buffer that is not a header at all: only bytes 16..31 change. */
	for (int i = 0; i < 64; i++)
		buf[i] = (uint8_t)(i * 37 + 11);
	memcpy(before, buf, sizeof buf);
	wire_put_seq(buf, 0, UINT64_MAX);
	for (int i = 0; i < 64; i++)
		CHECK(buf[i] == (i < 16 ? before[i] : i < 24 ? 0 : i < 32 ? 0xff : before[i]),
		      "raw buffer: byte %d is %02x after wire_put_seq", i, buf[i]);

	for (int i = 0; i < 64; i++)
		buf[i] = (uint8_t)(i * 37 + 11);
	wire_put_hdr(buf, &h);
	memcpy(before, buf, sizeof buf);
	wire_put_seq(buf, 0x0000030405060708ull, 0xa1a2a3a4a5a6a7a8ull);
	for (int i = 0; i < 64; i++)
		if (i < 16 || i >= 32)
			CHECK(buf[i] == before[i], "byte %d changed by wire_put_seq", i);
	CHECK(be(buf + 16, 8) == 0x0000030405060708ull, "seq bytes");
	CHECK(be(buf + 24, 8) == 0xa1a2a3a4a5a6a7a8ull, "time bytes");
	CHECK(wire_get_hdr(buf, sizeof buf, &out) == 0, "accepted after put_seq");
	CHECK(out.type == WIRE_DATA && out.flow == 5 && out.run_id == 0x01020304u, "fixed fields kept");
	CHECK(out.seq == 0x0000030405060708ull && out.send_ns == 0xa1a2a3a4a5a6a7a8ull, "seq and time");
	wire_put_seq(buf, WIRE_SEQ_LIMIT - 1, 0);
	CHECK(wire_get_hdr(buf, sizeof buf, &out) == 0 && out.seq == WIRE_SEQ_LIMIT - 1 && out.send_ns == 0,
	      "max seq, zero time");
	wire_put_seq(buf, WIRE_SEQ_LIMIT, 0);
	CHECK(wire_get_hdr(buf, sizeof buf, &out) == -1, "seq 2^48 written, refused on reading");
	CHECK(be(buf + 16, 8) == WIRE_SEQ_LIMIT, "seq 2^48 bytes");
}

static void test_fin(void)
{
	const struct wire_hdr h = { WIRE_DATA, 2, 0xcafef00du, 777, 888, 0 };
	const struct wire_fin f = { 1000001, 1450001450ull, 10000000123ull, 4, 1450, 0x0102030405060708ull };
	uint8_t buf[WIRE_FIN_LEN + 4], good[WIRE_FIN_LEN];
	struct wire_hdr oh;
	struct wire_fin of;

	memset(buf, 0xee, sizeof buf);
	CHECK(wire_put_fin(buf, &h, &f, NULL) == WIRE_FIN_LEN, "fin length");
	for (size_t i = WIRE_FIN_LEN; i < sizeof buf; i++)
		CHECK(buf[i] == 0xee, "byte %zu past the fin written", i);
	memcpy(good, buf, sizeof good);
	/* Layout: a header of type fin, then sent, bytes, duration, flows, big-endian. */
	CHECK(memcmp(buf, "BLST", 4) == 0 && buf[4] == 1 && buf[5] == WIRE_FIN, "fin header");
	CHECK(be(buf + 6, 2) == 2 && be(buf + 8, 4) == 0xcafef00du && be(buf + 12, 4) == 0, "fin ids");
	CHECK(be(buf + 16, 8) == 777 && be(buf + 24, 8) == 888, "fin seq and time");
	CHECK(be(buf + 32, 8) == 1000001, "fin sent");
	CHECK(be(buf + 40, 8) == 1450001450ull, "fin bytes");
	CHECK(be(buf + 48, 8) == 10000000123ull, "fin duration");
	CHECK(be(buf + 56, 2) == 4, "fin flows");
	CHECK(be(buf + 58, 4) == 1450, "fin size");
	CHECK(be(buf + 62, 8) == 0x0102030405060708ull, "fin tag as given, without a key");

	memset(&oh, 0, sizeof oh);
	memset(&of, 0, sizeof of);
	CHECK(wire_get_fin(buf, WIRE_FIN_LEN, &oh, &of) == 0, "fin round trip");
	CHECK(oh.type == WIRE_FIN && oh.flow == 2 && oh.run_id == 0xcafef00du && oh.seq == 777 &&
	      oh.send_ns == 888, "fin header fields");
	CHECK(of.sent == 1000001 && of.bytes == 1450001450ull && of.duration_ns == 10000000123ull &&
	      of.flows == 4 && of.size == 1450 && of.tag == 0x0102030405060708ull, "fin fields");
	CHECK(h.type == WIRE_DATA, "wire_put_fin does not change the caller's header");
	/* A fin is also a valid header. */
	CHECK(wire_get_hdr(buf, WIRE_FIN_LEN, &oh) == 0 && oh.type == WIRE_FIN, "fin as header");

	/* Max values. */
	{
		const struct wire_hdr mh = { WIRE_DATA, WIRE_MAX_FLOWS - 1, UINT32_MAX, WIRE_SEQ_LIMIT - 1,
					     UINT64_MAX, 0 };
		const struct wire_fin mf = { UINT64_MAX, UINT64_MAX, UINT64_MAX, WIRE_MAX_FLOWS, UINT32_MAX,
					     UINT64_MAX };
		wire_put_fin(buf, &mh, &mf, NULL);
		CHECK(wire_get_fin(buf, WIRE_FIN_LEN, &oh, &of) == 0, "max fin accepted");
		CHECK(oh.flow == WIRE_MAX_FLOWS - 1 && oh.run_id == UINT32_MAX && of.sent == UINT64_MAX &&
		      of.bytes == UINT64_MAX && of.duration_ns == UINT64_MAX && of.flows == WIRE_MAX_FLOWS &&
		      of.size == UINT32_MAX && of.tag == UINT64_MAX,
		      "max fin fields");
	}
	/* The smallest: one flow, flow 0, nothing sent. */
	{
		const struct wire_hdr zh = { WIRE_DATA, 0, 0, 0, 0, 0 };
		const struct wire_fin zf = { 0, 0, 0, 1, 0, 0 };
		wire_put_fin(buf, &zh, &zf, NULL);
		CHECK(wire_get_fin(buf, WIRE_FIN_LEN, &oh, &of) == 0 && of.flows == 1 && of.sent == 0,
		      "one-flow empty fin");
	}

	/* Too short: every length below WIRE_FIN_LEN, in an exact-size buffer. */
	for (size_t len = 0; len < WIRE_FIN_LEN; len++) {
		uint8_t *p = malloc(len ? len : 1);
		memcpy(p, good, len);
		CHECK(wire_get_fin(p, len, &oh, &of) == -1, "fin of length %zu accepted", len);
		free(p);
	}
	/* Flow counts: 0, above the maximum, and flow id not below the count. */
	static const struct { unsigned flow, flows; int ok; } fc[] = {
		{ 0, 0, -1 }, { 0, 1, 0 }, { 1, 1, -1 }, { 2, 3, 0 }, { 3, 3, -1 }, { 4, 3, -1 },
		{ 0, WIRE_MAX_FLOWS, 0 }, { WIRE_MAX_FLOWS - 1, WIRE_MAX_FLOWS, 0 },
		{ 0, WIRE_MAX_FLOWS + 1, -1 }, { 0, 0xffff, -1 }, { 5, 0, -1 },
	};
	for (size_t i = 0; i < sizeof fc / sizeof fc[0]; i++) {
		memcpy(buf, good, WIRE_FIN_LEN);
		buf[6] = (uint8_t)(fc[i].flow >> 8);
		buf[7] = (uint8_t)fc[i].flow;
		buf[56] = (uint8_t)(fc[i].flows >> 8);
		buf[57] = (uint8_t)fc[i].flows;
		CHECK(wire_get_fin(buf, WIRE_FIN_LEN, &oh, &of) == fc[i].ok, "flow %u of %u flows",
		      fc[i].flow, fc[i].flows);
	}
	/* A data header, even with a well-formed fin body after it. */
	memcpy(buf, good, WIRE_FIN_LEN);
	buf[5] = WIRE_DATA;
	CHECK(wire_get_fin(buf, WIRE_FIN_LEN, &oh, &of) == -1, "data header passed as fin");
	CHECK(wire_get_fin(buf, sizeof buf, &oh, &of) == -1, "data header passed as fin, longer");
	/* A broken header under a fin body. */
	memcpy(buf, good, WIRE_FIN_LEN);
	buf[0] = 'X';
	CHECK(wire_get_fin(buf, WIRE_FIN_LEN, &oh, &of) == -1, "fin with bad magic");
	memcpy(buf, good, WIRE_FIN_LEN);
	buf[4] = 2;
	CHECK(wire_get_fin(buf, WIRE_FIN_LEN, &oh, &of) == -1, "fin with bad version");
	memcpy(buf, good, WIRE_FIN_LEN);
	buf[15] = 1;
	CHECK(wire_get_fin(buf, WIRE_FIN_LEN, &oh, &of) == -1, "fin with reserved set");
	memcpy(buf, good, WIRE_FIN_LEN);
	buf[5] = 2;
	CHECK(wire_get_fin(buf, WIRE_FIN_LEN, &oh, &of) == -1, "fin with type 2");
	/* A fin whose header sequence is past the limit. */
	memcpy(buf, good, WIRE_FIN_LEN);
	buf[16] = 0x40;
	CHECK(wire_get_fin(buf, WIRE_FIN_LEN, &oh, &of) == -1, "fin with seq 2^62");
	memcpy(buf, good, WIRE_FIN_LEN);
	buf[17] = 0x01;
	CHECK(wire_get_fin(buf, WIRE_FIN_LEN, &oh, &of) == -1, "fin with seq 2^48");
	/* The base case still passes. */
	CHECK(wire_get_fin(good, WIRE_FIN_LEN, &oh, &of) == 0, "fin base case");

	/* Under a key: the tag is SipHash of everything before it, so any changed byte, or
	 * another key, gives another tag. */
	{
		uint8_t k[16], k2[16];
		for (int i = 0; i < 16; i++)
			k[i] = (uint8_t)(i * 7 + 1), k2[i] = k[i];
		k2[9] ^= 4;
		wire_put_fin(buf, &h, &f, k);
		CHECK(wire_get_fin(buf, WIRE_FIN_LEN, &oh, &of) == 0 && of.tag == wire_fin_tag(buf, k),
		      "a keyed fin carries its tag");
		CHECK(of.tag != f.tag, "the key's tag, not the one in the struct");
		CHECK(wire_fin_tag(buf, k2) != of.tag, "another key, another tag");
		int same = 0;
		for (size_t i = 0; i < WIRE_FIN_TAGGED; i++) {
			buf[i] ^= 0x10;
			same += wire_fin_tag(buf, k) == of.tag;
			buf[i] ^= 0x10;
		}
		CHECK(same == 0, "%d changed bytes kept the tag", same);
	}
}

/* What wire_get_hdr must decide for buf, written independently of wire.c. */
static int hdr_ok(const uint8_t *p, size_t len)
{
	return len >= 32 && p[0] == 'B' && p[1] == 'L' && p[2] == 'S' && p[3] == 'T' && p[4] == 1 &&
	       p[5] <= 2 && be(p + 6, 2) < WIRE_MAX_FLOWS &&
	       (be(p + 12, 4) == 0 || p[5] == 0 || (p[5] == 2 && be(p + 12, 4) >= 32 && be(p + 12, 4) <= 65527)) &&
	       be(p + 16, 8) < (1ull << 48); /* DESIGN.md, not the constant under test */
}

static int fin_ok(const uint8_t *p, size_t len)
{
	uint64_t flows;

	if (len < 70 || !hdr_ok(p, len) || p[5] != 1)
		return 0;
	flows = be(p + 56, 2);
	return flows >= 1 && flows <= WIRE_MAX_FLOWS && be(p + 6, 2) < flows;
}

static void test_garbage(void)
{
	unsigned accepted = 0, fins = 0, wrong = 0, wrongfin = 0, wrongval = 0;

	/* Pure random bytes: accepted only when the magic happens to match. */
	for (int n = 0; n < 100000; n++) {
		size_t len = (size_t)(xorshift() % 101);
		uint8_t *p = malloc(len ? len : 1);
		struct wire_hdr h;
		struct wire_fin f;

		for (size_t i = 0; i < len; i++)
			p[i] = (uint8_t)xorshift();
		if (wire_get_hdr(p, len, &h) == 0) {
			accepted++;
			if (!hdr_ok(p, len))
				wrong++;
		}
		if (wire_get_fin(p, len, &h, &f) == 0) {
			fins++;
			if (!fin_ok(p, len))
				wrong++;
		}
		free(p);
	}
	CHECK(wrong == 0, "%u random buffers accepted that do not start with a good header", wrong);
	CHECK(accepted <= 1, "%u of 100000 random buffers accepted as headers", accepted);
	CHECK(fins <= 1, "%u of 100000 random buffers accepted as fins", fins);

	/* Random bytes behind a good magic and version: the decision must be exactly the one the
	 * table gives, and an accepted buffer decodes to its bytes. Fields are biased towards
	 * valid values so that both answers occur often. */
	accepted = 0;
	fins = 0;
	for (int n = 0; n < 100000; n++) {
		size_t len = (size_t)(xorshift() % 101);
		uint8_t *p = malloc(len ? len : 1);
		struct wire_hdr h;
		struct wire_fin f;
		uint64_t r = xorshift();
		int got, want;

		for (size_t i = 0; i < len; i++)
			p[i] = (uint8_t)xorshift();
		for (size_t i = 0; i < len && i < 5; i++)
			p[i] = (uint8_t)"BLST\1"[i];
		if (len > 5)
			p[5] &= (r & 1) ? 0x01 : 0xff;
		if (len > 6 && (r & 2))
			p[6] = (r & 4) ? 1 : 0;
		for (size_t i = 12; i < len && i < 16 && (r & 8); i++)
			p[i] = 0;
		if (len > 17 && (r & 128))
			p[16] = p[17] = 0;
		if (len > 56 && (r & 16))
			p[56] = 0;
		if (len > 5 && (r & 32))
			p[5] = WIRE_FIN;
		if (len > 5 && (r & 64))
			p[(r >> 8) % 5] ^= (uint8_t)(1u << ((r >> 16) % 8)); /* break the magic or version */

		memset(&h, 0, sizeof h);
		got = wire_get_hdr(p, len, &h) == 0;
		want = hdr_ok(p, len);
		if (got != want)
			wrong++;
		if (got) {
			accepted++;
			if (h.type != p[5] || h.flow != be(p + 6, 2) || h.run_id != be(p + 8, 4) ||
			    h.seq != be(p + 16, 8) || h.send_ns != be(p + 24, 8))
				wrongval++;
		}
		memset(&f, 0, sizeof f);
		got = wire_get_fin(p, len, &h, &f) == 0;
		want = fin_ok(p, len);
		if (got != want)
			wrongfin++;
		if (got) {
			fins++;
			if (f.sent != be(p + 32, 8) || f.bytes != be(p + 40, 8) ||
			    f.duration_ns != be(p + 48, 8) || f.flows != be(p + 56, 2))
				wrongval++;
		}
		free(p);
	}
	CHECK(wrong == 0, "%u headers decided differently from the table", wrong);
	CHECK(wrongfin == 0, "%u fins decided differently from the table", wrongfin);
	CHECK(wrongval == 0, "%u accepted buffers decoded to other values", wrongval);
	CHECK(accepted > 1000, "only %u near-valid headers accepted: the test does not reach them", accepted);
	CHECK(fins > 100, "only %u near-valid fins accepted: the test does not reach them", fins);
}

/* The echo block: at its offsets, big-endian, after a keyed request's proof; none in a reply
 * shorter than WIRE_ECHO_END or with a count of 0 (a request as blast sends it, an echo that
 * writes none); the reply's send time is the echo's send time. */
static void test_echo_block(void)
{
	uint8_t buf[WIRE_ECHO_END + 8];
	struct wire_hdr rq = { .type = WIRE_REQ, .flow = 1, .run_id = 7, .seq = 2, .send_ns = 5 };
	struct wire_echo e;

	CHECK(WIRE_ECHO_OFF == WIRE_REQ_PROOF_END && WIRE_ECHO_END == 52, "block at 36..52");
	memset(buf, 0, sizeof buf);
	wire_put_hdr(buf, &rq);
	wire_put_req_proof(buf, 0xaabbccdd);
	CHECK(wire_get_echo(buf, sizeof buf, &e) == -1, "a request as sent carries no block");
	wire_put_echo_count(buf, 0x0102030405060708ull);
	wire_put_echo_rx(buf, 0x1112131415161718ull);
	wire_put_echo(buf, 0x2122232425262728ull);
	CHECK(be(buf + 36, 8) == 0x0102030405060708ull && be(buf + 44, 8) == 0x1112131415161718ull,
	      "count at 36, receive time at 44, big-endian");
	CHECK(be(buf + 32, 4) == 0xaabbccdd, "the proof kept");
	memset(&e, 0, sizeof e);
	CHECK(wire_get_echo(buf, WIRE_ECHO_END, &e) == 0 && e.count == 0x0102030405060708ull &&
	      e.rx_ns == 0x1112131415161718ull && e.tx_ns == 0x2122232425262728ull, "a block read back");
	for (size_t len = 0; len < WIRE_ECHO_END; len++)
		CHECK(wire_get_echo(buf, len, &e) == -1, "a reply of %zu bytes carries none", len);
	wire_put_echo_count(buf, 0);
	CHECK(wire_get_echo(buf, sizeof buf, &e) == -1, "count 0: none");
}

int main(void)
{
	test_echo_block();
	test_round_trip();
	test_layout();
	test_reject();
	test_put_seq();
	test_fin();
	test_garbage();
	return unit_done("wire");
}
