/* fuzz_rx: libFuzzer target for everything suck does with bytes from the network: the header
 * and fin decoders, the receive path (rx_datagram: run locking, fins, truncation) and the
 * sequence tracker. The input is a series of datagrams, each a 2-byte big-endian length and
 * then that many bytes (cut short at the end of the input). After each input the accounting
 * identities must hold; a violation aborts, which libFuzzer reports as a crash.
 *
 *   make fuzz FUZZ_SECONDS=60 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rx.h"
#include "wire.h"

static struct suck_cfg cfg = {
	.work = { .kind = WORK_CHECKSUM, .reps = 1 },
	.bufsize = 1500, /* small, so that truncation is reachable */
	.batch = 1,
};
static struct rx rx;
static struct rx_shared sh;
static int ready;

static void check_round_trip(const uint8_t *p, size_t n)
{
	struct wire_hdr h;
	struct wire_fin f;
	uint8_t again[WIRE_FIN_LEN];

	if (wire_get_hdr(p, n, &h) == 0) {
		wire_put_hdr(again, &h);
		if (memcmp(again, p, WIRE_HDR_LEN) != 0)
			abort();
	}
	if (wire_get_fin(p, n, &h, &f) == 0) {
		wire_put_fin(again, &h, &f);
		if (memcmp(again, p, WIRE_FIN_LEN) != 0 || f.flows == 0 || h.flow >= f.flows)
			abort();
	}
}

/* A fresh run without a fresh mapping: clear only the flows the last input touched. */
static void reset(void)
{
	struct stats_tracker *t = &rx.trk;
	unsigned touched = t->flows_seen;

	for (unsigned i = 0; i < touched; i++) {
		uint64_t *bits = t->flow[i].bits;
		memset(&t->flow[i], 0, sizeof t->flow[i]);
		memset(bits, 0, STATS_WINDOW / 8);
		t->flow[i].bits = bits;
	}
	t->flows_seen = 0;
	memset(&sh, 0, sizeof sh);
	rx.received = rx.bytes = rx.foreign = rx.truncated = 0;
	rx.have_run = 0;
	rx.run_id = 0;
	rx.size = 0;
	rx.flags = 0;
	rx.drain_ns = 0;
	rx.first_ns = 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t buf[65536];
	struct stats_total t;

	if (!ready) {
		if (rx_init(&rx, -1, 0, &cfg, &sh) < 0)
			abort();
		ready = 1;
	}
	reset();
	while (size >= 2) {
		size_t len = (size_t)data[0] << 8 | data[1], have;
		data += 2;
		size -= 2;
		have = len < size ? len : size;
		/* The kernel reports the real length; the buffer holds at most bufsize bytes. */
		memcpy(buf, data, have < cfg.bufsize ? have : cfg.bufsize);
		check_round_trip(data, have);
		rx_datagram(&rx, buf, have);
		data += have;
		size -= have;
	}
	stats_sum(&rx.trk, &t);
	if (rx.received != t.valid + t.dup + t.late + rx.foreign + rx.truncated)
		abort();
	if (t.valid > t.sent || t.lost != t.sent - t.valid)
		abort();
	return 0;
}
