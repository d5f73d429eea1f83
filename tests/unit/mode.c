/* Unit tests for blast/mode.c: the table of send modes (every row whole, names and loops apart,
 * each mode picked by its options as flow_thread picked them before the table) and each row's
 * setup and free on a flow, no socket needed (packet's and xdp's need one: t_via.sh, t_via_xdp.sh). */
#include <string.h>

#include "mode.h"
#include "unit.h"
#include "wire.h"

static void test_table(void)
{
	unsigned n = 0;

	for (const struct send_mode *const *m = modes; *m; m++, n++) {
		CHECK((*m)->name && (*m)->what && (*m)->setup && (*m)->run && (*m)->free, "row %u whole", n);
		CHECK((*m)->socket == (*m != &mode_packet && *m != &mode_xdp), "%s: sends on main's UDP socket, but "
		      "packet and xdp", (*m)->name);
		for (const struct send_mode *const *o = modes; o < m; o++) {
			CHECK(strcmp((*o)->name, (*m)->name) != 0, "%s: one row a name", (*m)->name);
			CHECK((*o)->run != (*m)->run, "%s and %s: a loop each", (*o)->name, (*m)->name);
		}
	}
	CHECK(n == 6, "six modes: %u", n);
}

/* The options pick as the if/else did: --rtt, then a size mix, then --zerocopy, else plain;
 * --via packet, which parsing lets go with none of them, its own row. */
static void test_pick(void)
{
	struct blast_cfg c = { .size = 100 };

	CHECK(mode_pick(&c) == &mode_plain, "no option: plain");
	c.zerocopy = 1;
	CHECK(mode_pick(&c) == &mode_zerocopy, "--zerocopy");
	c.zerocopy = 0;
	c.mix.n = 3;
	CHECK(mode_pick(&c) == &mode_mix, "a size mix");
	c.zerocopy = 1;
	CHECK(mode_pick(&c) == &mode_mix, "a size mix before --zerocopy");
	c.rtt = 1;
	CHECK(mode_pick(&c) == &mode_rtt, "--rtt before all");
	c.mix.n = 0;
	c.zerocopy = 0;
	CHECK(mode_pick(&c) == &mode_rtt, "--rtt");
	c.rtt = 0;
	c.via = BLAST_VIA_PACKET;
	CHECK(mode_pick(&c) == &mode_packet, "--via packet");
	c.via = BLAST_VIA_XDP;
	CHECK(mode_pick(&c) == &mode_xdp, "--via xdp");
}

/* Each mode's setup gives a flow its buffers, headers written, and its own state; free takes
 * them back. */
static void test_setup(void)
{
	struct blast_cfg c = { .size = 64, .batch = 4, .segs = 1, .flows = 1, .run_id = 7, .outstanding = 2 };

	for (const struct send_mode *const *m = modes; *m; m++) {
		static struct flow f;
		struct wire_hdr h;

		if (!(*m)->socket) {
			/* packet, xdp: their setup needs the path packet_prepare finds (root, a device) */
			memset(&f, 0, sizeof f);
			f.cfg = &c;
			CHECK((*m)->setup(&f) < 0 && !f.pkt && !f.xtx, "%s: no setup before packet_prepare", (*m)->name);
			(*m)->free(&f);
			continue;
		}

		c.zerocopy = *m == &mode_zerocopy;
		c.rtt = *m == &mode_rtt;
		memset(&f, 0, sizeof f);
		f.cfg = &c;
		f.batch = c.batch;
		f.segs = c.segs;
		CHECK((*m)->setup(&f) == 0, "%s: setup", (*m)->name);
		CHECK(f.bufs && wire_get_hdr(f.bufs + 3 * c.size, c.size, &h) == 0 && h.run_id == 7 &&
		      h.type == (c.rtt ? WIRE_REQ : WIRE_DATA), "%s: the buffers' headers", (*m)->name);
		CHECK(!f.zc == !c.zerocopy, "%s: the zerocopy ring's state only for zerocopy", (*m)->name);
		CHECK(!f.rtt == !c.rtt, "%s: requests in flight only for rtt", (*m)->name);
		(*m)->free(&f);
		CHECK(!f.zc && !f.rtt, "%s: free", (*m)->name);
	}
}

int main(void)
{
	test_table();
	test_pick();
	test_setup();
	return unit_done("mode");
}
