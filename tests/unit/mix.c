/* Unit tests for blast/mix.c (the size mix's cycle: each size exactly its weight, shuffled, the
 * same every time; uniform ranges; the refusals) and suck/sizes.c (the size classes' edges, the
 * end's exact bytes check). */
#include <stdlib.h>
#include <string.h>

#include "blast.h"
#include "sizes.h"
#include "unit.h"

static unsigned count(const struct blast_mix *m, unsigned size)
{
	unsigned n = 0;

	for (unsigned i = 0; i < m->n; i++)
		n += m->cycle[i] == size;
	return n;
}

static void test_weights(void)
{
	struct blast_mix m, again;
	char err[160];
	unsigned runs = 0;

	CHECK(mix_parse("64:7,576:4,1500:1", 32, 65507, &m, err, sizeof err) == 0, "refused: %s", err);
	CHECK(m.n == 12 && m.min == 64 && m.max == 1500 && m.kinds == 3, "n %u min %u max %u", m.n, m.min, m.max);
	CHECK(count(&m, 64) == 7 && count(&m, 576) == 4 && count(&m, 1500) == 1, "counts %u %u %u",
	      count(&m, 64), count(&m, 576), count(&m, 1500));
	/* shuffled: not the sorted runs it was built from */
	for (unsigned i = 1; i < m.n; i++)
		runs += m.cycle[i] != m.cycle[i - 1];
	CHECK(runs > 2, "the cycle is shuffled (%u changes of size)", runs);
	CHECK(mix_parse("64:7,576:4,1500:1", 32, 65507, &again, err, sizeof err) == 0 &&
	      memcmp(m.cycle, again.cycle, m.n * sizeof *m.cycle) == 0, "the same spec, the same cycle");
	CHECK(mix_mean(&m) > 354.3 && mix_mean(&m) < 354.4, "mean %.3f", mix_mean(&m));
	free(m.cycle);
	free(again.cycle);

	CHECK(mix_parse("imix", 32, 65507, &m, err, sizeof err) == 0, "imix refused: %s", err);
	CHECK(m.n == 12 && count(&m, 32) == 7 && count(&m, 524) == 4 && count(&m, 1472) == 1,
	      "imix is 32:7,524:4,1472:1");
	free(m.cycle);
	CHECK(mix_parse("1k:1,2k:3", 32, 65507, &m, err, sizeof err) == 0 && count(&m, 1024) == 1 &&
	      count(&m, 2048) == 3, "sizes take k");
	free(m.cycle);
}

static void test_uniform(void)
{
	struct blast_mix m;
	char err[160];
	int each = 1;

	CHECK(mix_parse("100-199", 32, 65507, &m, err, sizeof err) == 0, "refused: %s", err);
	CHECK(m.n == 100 && m.min == 100 && m.max == 199 && m.uniform, "n %u", m.n);
	for (unsigned s = 100; s <= 199; s++)
		each &= count(&m, s) == 1;
	CHECK(each, "every size of the range once");
	free(m.cycle);
	CHECK(mix_parse("32-65527", 32, 65527, &m, err, sizeof err) == 0 && m.n == 65496, "the widest range");
	free(m.cycle);
}

static void bad(const char *spec, unsigned hi, const char *word)
{
	struct blast_mix m;
	char err[160] = "";

	CHECK(mix_parse(spec, 32, hi, &m, err, sizeof err) < 0 && strstr(err, word), "'%s' (..%u): '%s', want '%s'",
	      spec, hi, err, word);
}

static void test_bad(void)
{
	bad("64:0,576:1", 65507, "weight '0'");
	bad("31:1,576:1", 65507, "size '31'");
	bad("64:1,65508:1", 65507, "size '65508'");
	bad("64:1,65527:1", 65507, "size '65527'");
	bad("200-100", 65507, "MIN < MAX");
	bad("100-100", 65507, "MIN < MAX");
	bad("8-100", 65507, "MIN '8'");
	bad("100-", 65507, "MAX ''");
	bad("64", 65507, "not SIZE:WEIGHT");
	bad("64:1", 65507, "two sizes");
	bad("64:1,64:1", 65507, "twice");
	bad("64:x,1:1", 65507, "weight 'x'");
	bad("64:65536,100:1", 65507, "add up");
	bad("64:1,", 65507, "not SIZE:WEIGHT");
	bad("imix", 1000, "1472");
}

static void test_wire(void)
{
	uint32_t w = WIRE_MIX_SIZE(64, 1500);

	CHECK(wire_size_mixed(w) && wire_mix_min(w) == 64 && wire_mix_max(w) == 1500, "the mix's size word");
	CHECK(!wire_size_mixed(65535) && !wire_size_mixed(32), "one size is no mix");
}

static void test_sizes(void)
{
	static const size_t len[] = { 0, 64, 65, 256, 257, 576, 577, 1024, 1025, 1500, 1501, 65535 };
	struct sizes s = { 0 };
	struct seq_total t = { .valid = 10, .sent = 10, .bytes_sent = 1000 };

	for (unsigned i = 0; i < sizeof len / sizeof len[0]; i++)
		sizes_add(&s, len[i]);
	for (unsigned b = 0; b < SIZES_BINS; b++)
		CHECK(s.n[b] == 2 && s.bytes[b] == len[2 * b] + len[2 * b + 1], "bin %u: %llu, %llu bytes", b,
		      (unsigned long long)s.n[b], (unsigned long long)s.bytes[b]);
	CHECK(sizes_check(100, &t, 10, 1000) == 1, "exact");
	CHECK(sizes_check(WIRE_MIX_SIZE(64, 1500), &t, 10, 1001) == -1, "a mismatch");
	CHECK(sizes_check(0, &t, 10, 1000) == 0, "no fin: no check");
	t.lost = 1;
	t.valid = 9;
	CHECK(sizes_check(100, &t, 9, 900) == 0, "lost: no check");
	t.lost = 0;
	t.valid = 10;
	CHECK(sizes_check(100, &t, 11, 1100) == 0, "a foreign datagram: no check");
	t.sent_estimated = 1;
	CHECK(sizes_check(100, &t, 10, 1000) == 0, "sent estimated: no check");
}

int main(void)
{
	test_weights();
	test_uniform();
	test_bad();
	test_wire();
	test_sizes();
	return unit_done("mix");
}
