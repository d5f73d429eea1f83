/* Unit tests for suck/work.c: the -w spec, histogram counts, the checksum by its definition,
 * the digest, and merging per-thread work states. */
#include <stdint.h>
#include <string.h>

#include "unit.h"
#include "work.h"

#define ULL(x) ((unsigned long long)(x))

static void parse_ok(const char *spec, enum work_kind kind, unsigned reps, const char *canon)
{
	struct work w;
	char buf[64];
	const char *err;

	memset(&w, 0x5a, sizeof w);
	err = work_parse(spec, &w);
	CHECK(err == NULL, "'%s' refused: %s", spec, err ? err : "");
	CHECK(w.kind == kind, "'%s': kind %d, want %d", spec, (int)w.kind, (int)kind);
	CHECK(w.reps == reps, "'%s': reps %u, want %u", spec, w.reps, reps);
	CHECK(w.sum == 0, "'%s': sum starts at %llu", spec, ULL(w.sum));
	for (int i = 0; i < 256; i++)
		if (w.hist[i]) {
			CHECK(w.hist[i] == 0, "'%s': hist[%d] starts at %llu", spec, i, ULL(w.hist[i]));
			break;
		}
	/* Back to text, and that text parses to the same work. */
	memset(buf, 'X', sizeof buf);
	work_spec(&w, buf, sizeof buf);
	CHECK(strcmp(buf, canon) == 0, "'%s': work_spec gave '%s', want '%s'", spec, buf, canon);
	{
		struct work w2;
		CHECK(work_parse(buf, &w2) == NULL && w2.kind == kind && w2.reps == reps,
		      "'%s' does not round trip through '%s'", spec, buf);
	}
}

static void parse_bad(const char *spec)
{
	struct work w;
	const char *err = work_parse(spec, &w);

	CHECK(err != NULL && err[0] != '\0', "'%s' accepted as kind %d reps %u", spec, (int)w.kind, w.reps);
}

static void test_parse(void)
{
	parse_ok("none", WORK_NONE, 1, "none");
	parse_ok("histogram", WORK_HISTOGRAM, 1, "histogram");
	parse_ok("checksum", WORK_CHECKSUM, 1, "checksum");
	parse_ok("histogram:200", WORK_HISTOGRAM, 200, "histogram:200");
	parse_ok("checksum:1k", WORK_CHECKSUM, 1000, "checksum:1000");
	parse_ok("histogram:1", WORK_HISTOGRAM, 1, "histogram");
	parse_ok("checksum:2", WORK_CHECKSUM, 2, "checksum:2");
	parse_ok("none:3", WORK_NONE, 3, "none:3");
	parse_ok("histogram:1M", WORK_HISTOGRAM, 1000000, "histogram:1000000");
	parse_ok("histogram:1000000", WORK_HISTOGRAM, WORK_MAX_REPS, "histogram:1000000");

	parse_bad("");
	parse_bad("hist");
	parse_bad("Histogram");
	parse_bad("histogramx");
	parse_bad("histogram ");
	parse_bad(" histogram");
	parse_bad("histogram:");
	parse_bad("histogram:0");
	parse_bad("histogram:x");
	parse_bad("histogram:2:3");
	parse_bad("histogram:-1");
	parse_bad("histogram: 2");
	parse_bad("histogram:2x");
	parse_bad("histogram:1.5");
	parse_bad("histogram:1000001");
	parse_bad("histogram:2M");
	parse_bad("checksum:99999999999999999999");
	parse_bad(":2");
	parse_bad(":");
	parse_bad("a-very-long-work-name-longer-than-thirty-two-characters");
	parse_bad("a-very-long-work-name-longer-than-thirty-two-characters:2");
}

static void test_histogram(void)
{
	struct work w;
	uint8_t buf[1000];

	/* Byte i % 256 for i < 1000: values 0..231 four times, 232..255 three times. */
	for (int i = 0; i < 1000; i++)
		buf[i] = (uint8_t)i;
	CHECK(work_parse("histogram", &w) == NULL, "histogram");
	work_run(&w, buf, sizeof buf);
	for (int v = 0; v < 256; v++)
		CHECK(w.hist[v] == (v < 232 ? 4u : 3u), "hist[%d] = %llu", v, ULL(w.hist[v]));
	CHECK(w.sum == 0, "histogram leaves the sum alone");
	work_run(&w, buf, 0);
	CHECK(w.hist[0] == 4 && w.hist[255] == 3, "an empty datagram counts nothing");

	/* Reps multiply the counts. */
	CHECK(work_parse("histogram:7", &w) == NULL, "histogram:7");
	work_run(&w, buf, sizeof buf);
	for (int v = 0; v < 256; v++)
		CHECK(w.hist[v] == 7u * (v < 232 ? 4u : 3u), "hist:7 [%d] = %llu", v, ULL(w.hist[v]));

	/* A small known buffer. */
	{
		static const uint8_t s[] = { 'h', 'e', 'l', 'l', 'o', 0, 0, 0xff };
		uint64_t total = 0;
		CHECK(work_parse("histogram:3", &w) == NULL, "histogram:3");
		work_run(&w, s, sizeof s);
		CHECK(w.hist['h'] == 3 && w.hist['e'] == 3 && w.hist['l'] == 6 && w.hist['o'] == 3 &&
		      w.hist[0] == 6 && w.hist[0xff] == 3, "hello counts");
		for (int v = 0; v < 256; v++)
			total += w.hist[v];
		CHECK(total == 3 * sizeof s, "hello total %llu", ULL(total));
	}

	/* none and checksum leave the histogram alone. */
	CHECK(work_parse("none:5", &w) == NULL, "none:5");
	work_run(&w, buf, sizeof buf);
	CHECK(w.hist[1] == 0 && w.sum == 0, "none does nothing");
	CHECK(work_parse("checksum", &w) == NULL, "checksum");
	work_run(&w, buf, sizeof buf);
	CHECK(w.hist[1] == 0, "checksum does not count bytes");
}

/* A 32-bit word as memcpy reads it on this machine. */
static uint64_t native32(uint8_t b0, uint8_t b1, uint8_t b2, uint8_t b3)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return (uint64_t)b0 << 24 | (uint64_t)b1 << 16 | (uint64_t)b2 << 8 | b3;
#else
	return (uint64_t)b3 << 24 | (uint64_t)b2 << 16 | (uint64_t)b1 << 8 | b0;
#endif
}

static void test_checksum(void)
{
	static const uint8_t w1234[] = { 1, 2, 3, 4 };
	static const uint8_t w7[] = { 1, 2, 3, 4, 5, 6, 7 };
	static const uint8_t tail3[] = { 0xaa, 0xbb, 0xcc };
	static const uint8_t ones8[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t carry[] = { 0x01, 0, 0, 0x80, 0x01, 0, 0, 0x80 };
	static const uint8_t le[] = { 0x12, 0x34, 0x56, 0x78 };
	uint8_t odd[16];
	struct work w;

	CHECK(work_checksum(w1234, 0, 0) == 0, "empty, seed 0");
	CHECK(work_checksum(w1234, 0, 12345) == 12345, "empty keeps the seed");
	CHECK(work_checksum(w1234, 0, 0x100000005ull) == 6, "a seed over 32 bits is folded");
	CHECK(work_checksum(w1234, 4, 0) == native32(1, 2, 3, 4), "one word: %llx",
	      ULL(work_checksum(w1234, 4, 0)));
	CHECK(work_checksum(le, 4, 0) == native32(0x12, 0x34, 0x56, 0x78), "0x12345678 word");
	/* Tail bytes shifted by 8 * (i % 4), whatever the byte order. */
	CHECK(work_checksum(w7, 7, 0) == native32(1, 2, 3, 4) + 0x070605, "word + 3-byte tail: %llx",
	      ULL(work_checksum(w7, 7, 0)));
	CHECK(work_checksum(tail3, 1, 0) == 0xaa, "one byte");
	CHECK(work_checksum(tail3, 2, 0) == 0xbbaa, "two bytes");
	CHECK(work_checksum(tail3, 3, 0) == 0xccbbaa, "three bytes");
	CHECK(work_checksum(tail3, 3, 0x11) == 0xccbbbb, "three bytes + seed");
	/* Carries folded: 0xffffffff + 0xffffffff = 0x1fffffffe -> 0xfffffffe + 1. */
	CHECK(work_checksum(ones8, 4, 0) == 0xffffffffu, "one all-ones word");
	CHECK(work_checksum(ones8, 8, 0) == 0xffffffffu, "two all-ones words: %llx",
	      ULL(work_checksum(ones8, 8, 0)));
	/* 1 + 0x1fffffffe = 0x1ffffffff -> 0x100000000 -> 1: folded until it fits. */
	CHECK(work_checksum(ones8, 8, 1) == 1, "fold twice: %llx", ULL(work_checksum(ones8, 8, 1)));
	/* 0xffffffff + 0xff = 0x1000000fe -> 0xfe + 1. */
	CHECK(work_checksum(ones8, 5, 0) == 0xff, "word + tail, folded: %llx",
	      ULL(work_checksum(ones8, 5, 0)));
	{
		uint64_t c = native32(0x01, 0, 0, 0x80); /* 0x80000001 on little-endian */
		uint64_t want = 2 * c;
		while (want >> 32)
			want = (want & 0xffffffffu) + (want >> 32);
		CHECK(work_checksum(carry, 8, 0) == want, "carry: %llx, want %llx",
		      ULL(work_checksum(carry, 8, 0)), ULL(want));
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		CHECK(work_checksum(carry, 8, 0) == 3, "carry on little-endian: 0x100000002 -> 3");
		CHECK(work_checksum(w7, 7, 0) == 0x040a0806, "w7 on little-endian");
#endif
	}
	/* Unaligned: the same bytes at an odd address give the same sum. */
	memcpy(odd + 1, w7, sizeof w7);
	CHECK(work_checksum(odd + 1, 7, 0) == work_checksum(w7, 7, 0), "unaligned");

	/* work_run chains the sum over datagrams and repetitions. */
	CHECK(work_parse("checksum:3", &w) == NULL, "checksum:3");
	work_run(&w, w1234, 4);
	CHECK(w.sum == 3 * native32(1, 2, 3, 4), "3 reps: %llx", ULL(w.sum));
	work_run(&w, tail3, 3);
	CHECK(w.sum == 3 * native32(1, 2, 3, 4) + 3 * 0xccbbaa, "3 reps of two datagrams: %llx", ULL(w.sum));
	CHECK(work_parse("checksum", &w) == NULL, "checksum");
	work_run(&w, ones8, 8);
	work_run(&w, w1234, 0);
	CHECK(w.sum == 0xffffffffu, "checksum over datagrams: %llx", ULL(w.sum));
	for (int i = 0; i < 256; i++)
		if (w.hist[i])
			CHECK(0, "checksum touched hist[%d]", i);
}

static void test_digest(void)
{
	static const uint8_t a[] = "the quick brown fox";
	static const uint8_t b[] = "jumps over the lazy dog";
	struct work x, y, z;

	work_parse("histogram", &x);
	work_parse("histogram", &y);
	CHECK(work_digest(&x) == work_digest(&y), "two empty histograms");
	work_run(&x, a, sizeof a - 1);
	CHECK(work_digest(&x) != work_digest(&y), "empty and not empty");
	work_run(&y, a, sizeof a - 1);
	CHECK(work_digest(&x) == work_digest(&y), "equal histograms");
	work_run(&y, b, sizeof b - 1);
	CHECK(work_digest(&x) != work_digest(&y), "different histograms");
	/* One more count of one value, and a count moved from one value to another. */
	x = y;
	x.hist['q']++;
	CHECK(work_digest(&x) != work_digest(&y), "one count more");
	x = y;
	x.hist['q']--;
	x.hist['z']++;
	CHECK(work_digest(&x) != work_digest(&y), "one count moved");
	x.hist['z']--;
	x.hist['q']++;
	CHECK(work_digest(&x) == work_digest(&y), "moved back");
	/* Every single-count histogram differs from every other. */
	{
		uint64_t d[256];
		int same = 0;
		work_parse("histogram", &z);
		for (int v = 0; v < 256; v++) {
			z.hist[v] = 1;
			d[v] = work_digest(&z);
			z.hist[v] = 0;
		}
		for (int i = 0; i < 256; i++)
			for (int j = i + 1; j < 256; j++)
				same += d[i] == d[j];
		CHECK(same == 0, "%d pairs of one-byte histograms with the same digest", same);
	}
	/* Checksum: the digest follows the sum. */
	work_parse("checksum", &x);
	work_parse("checksum", &y);
	CHECK(work_digest(&x) == work_digest(&y), "two empty checksums");
	work_run(&x, a, sizeof a - 1);
	CHECK(work_digest(&x) != work_digest(&y), "checksum digest changes");
	work_run(&y, a, sizeof a - 1);
	CHECK(work_digest(&x) == work_digest(&y), "equal checksums");
	/* none: a fixed value. */
	work_parse("none", &x);
	work_run(&x, a, sizeof a - 1);
	work_parse("none:4", &y);
	CHECK(work_digest(&x) == work_digest(&y), "none");
}

static void test_merge(void)
{
	uint8_t a[1000], b[777], ab[1777];
	struct work x, y, both;
	uint32_t r = 12345;

	for (size_t i = 0; i < sizeof ab; i++) {
		r = r * 1103515245u + 12345u;
		ab[i] = (uint8_t)(r >> 16);
	}
	memcpy(a, ab, sizeof a);
	memcpy(b, ab + sizeof a, sizeof b);

	work_parse("histogram", &x);
	work_parse("histogram", &y);
	work_parse("histogram", &both);
	work_run(&x, a, sizeof a);
	work_run(&y, b, sizeof b);
	work_run(&both, ab, sizeof ab);
	work_merge(&x, &y);
	CHECK(memcmp(x.hist, both.hist, sizeof x.hist) == 0, "merged histogram equals one over both");
	CHECK(work_digest(&x) == work_digest(&both), "merged digest");
	CHECK(y.hist[ab[sizeof a]] >= 1, "src left alone");

	/* Merging an empty state changes nothing. */
	work_parse("histogram", &y);
	work_merge(&x, &y);
	CHECK(memcmp(x.hist, both.hist, sizeof x.hist) == 0, "merge of an empty histogram");

	/* Checksums: with the first part a whole number of words, the merged sum is the sum over
	 * both; folding is the same whatever the order. */
	work_parse("checksum", &x);
	work_parse("checksum", &y);
	work_parse("checksum", &both);
	work_run(&x, a, sizeof a);
	work_run(&y, b, sizeof b);
	work_run(&both, ab, sizeof ab);
	work_merge(&x, &y);
	CHECK(x.sum == both.sum, "merged checksum %llx, want %llx", ULL(x.sum), ULL(both.sum));
	CHECK(x.sum >> 32 == 0, "merged checksum folded");
	{
		struct work p, q;
		static const uint8_t ones[] = { 0xff, 0xff, 0xff, 0xff };
		work_parse("checksum", &p);
		work_parse("checksum", &q);
		work_run(&p, ones, 4);
		q.sum = 2;
		work_merge(&p, &q); /* 0xffffffff + 2 = 0x100000001 -> 2 */
		CHECK(p.sum == 2, "merge folds the carry: %llx", ULL(p.sum));
	}
}

int main(void)
{
	test_parse();
	test_histogram();
	test_checksum();
	test_digest();
	test_merge();
	return unit_done("work");
}
