/* fuzz_rx: libFuzzer target for everything suck does with bytes from the network: the header
 * and fin decoders, the receive path (rx_datagram: run locking, flow ownership by thread and
 * source, fins, truncation) and the sequence tracker, over FUZZ_THREADS receive threads that
 * share one run as suck -j does. The input is a series of datagrams, each a 2-byte big-endian
 * length and then that many bytes (cut short at the end of the input); the length 0xffff is
 * not a datagram but one byte that picks the thread (low 2 bits), the source address (next
 * 2 bits) and the path (next 2: rx_datagram twice over, pool's receiver counting without the
 * work, rx_account, or throwing away at a full queue, rx_discard) of the datagrams after it.
 * The length 0xfffe is a frame, as suck -m xdp takes one from its RX ring: a byte that picks
 * the socket's address (FUZZ_MATCHES of them: IPv4, 0.0.0.0, ::, IPv6, v4-mapped), a 2-byte
 * length and the frame, parsed by frame_udp (suck/frame.c) in a buffer of exactly its length,
 * then handed on as suck -m xdp does: its datagram with the source from its headers, or the
 * frame as foreign. After each input the accounting identities must hold as
 * integers, not modulo 2^64; a violation aborts, which libFuzzer reports as a crash.
 *
 *   make fuzz FUZZ_SECONDS=60 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "frame.h"
#include "rx.h"
#include "wire.h"

#define FUZZ_THREADS 4
#define FUZZ_SOURCES 4
#define FUZZ_MATCHES 5

typedef unsigned __int128 u128;

static struct suck_cfg cfg = {
	.work = { .kind = WORK_CHECKSUM, .reps = 1 },
	.bufsize = 40, /* small, so that truncation is reachable and fins are longer than -s */
	.batch = 1,
};
static struct rx rx[FUZZ_THREADS];
static struct rx_shared sh;
static struct rx_name src[FUZZ_SOURCES];
static struct xsk_match matches[FUZZ_MATCHES];
static int ready;

static void check_round_trip(const uint8_t *p, size_t n)
{
	struct wire_hdr h;
	struct wire_fin f;
	uint8_t again[WIRE_FIN_LEN];

	if (wire_get_hdr(p, n, &h) == 0) {
		wire_put_hdr(again, &h);
		if (h.type == WIRE_REQ) /* a request's reply size is not in struct wire_hdr */
			wire_put_reply(again, wire_get_reply(p));
		/* data's reserved field is the run's proof (h.proof); a fin's is 0 */
		if ((h.type != WIRE_REQ && h.type != WIRE_DATA && wire_get_reply(p) != 0) ||
		    (h.type == WIRE_DATA && h.proof != wire_get_reply(p)) || memcmp(again, p, WIRE_HDR_LEN) != 0)
			abort();
	}
	if (wire_get_fin(p, n, &h, &f) == 0) {
		wire_put_fin(again, &h, &f, NULL);
		if (memcmp(again, p, WIRE_FIN_LEN) != 0 || f.flows == 0 || h.flow >= f.flows)
			abort();
	}
}

/* A fresh run without fresh mappings: clear only the flows the last input touched. */
static void reset(struct rx *r)
{
	struct seq_tracker *t = &r->trk;

	for (unsigned i = 0; i < t->flows_seen; i++) {
		uint64_t *bits = t->flow[i].bits;
		memset(&t->flow[i], 0, sizeof t->flow[i]);
		memset(bits, 0, SEQ_BITS / 8);
		t->flow[i].bits = bits;
	}
	t->flows_seen = 0;
	memset(&t->runs, 0, sizeof t->runs);
	t->closed = 0;
	r->received = r->bytes = r->foreign = r->truncated = r->other_run = r->other_src = 0;
	r->have_run = 0;
	r->run_id = r->other_id = 0;
	r->flags = 0;
	r->drain_ns = 0;
	r->first_ns = 0;
	r->done = RX_RUNNING;
	memset(r->mine, 0, sizeof r->mine);
}

static void setup(void)
{
	for (unsigned i = 0; i < FUZZ_THREADS; i++)
		if (rx_init(&rx[i], -1, i, &cfg, &sh) < 0)
			abort();
	for (unsigned i = 0; i < FUZZ_SOURCES; i++) {
		struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)(40000 + i)),
					 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
		memcpy(src[i].b, &a, sizeof a);
	}
	static const char *const addrs[FUZZ_MATCHES] = { "198.18.0.2", "0.0.0.0", "::", "2001:2::2", "::ffff:198.18.0.2" };
	for (unsigned i = 0; i < FUZZ_MATCHES; i++) {
		struct net_addr a;
		if (net_resolve(addrs[i], 5000, &a))
			abort();
		xsk_match_of(&a, 1, &matches[i]);
	}
	ready = 1;
}

/* The identities of DESIGN.md, computed without wrap-around. */
static void check_totals(void)
{
	struct seq_total t;
	u128 received = 0, foreign = 0, truncated = 0, sent = 0, valid = 0, other = 0;

	for (unsigned i = 0; i < FUZZ_THREADS; i++) {
		received += rx[i].received;
		foreign += rx[i].foreign;
		truncated += rx[i].truncated;
		other += rx[i].other_run + rx[i].other_src;
	}
	if (other > foreign)
		abort();
	/* A flow is tracked by one thread only: its owner. */
	for (unsigned f = 0; f < WIRE_MAX_FLOWS; f++) {
		unsigned trackers = 0;
		for (unsigned i = 0; i < FUZZ_THREADS; i++) {
			const struct seq_flow *sf = &rx[i].trk.flow[f];
			if (f < rx[i].trk.flows_seen && (sf->next || sf->fins))
				trackers++;
			if (sf->valid > sf->next || (u128)sf->valid + sf->discarded > sf->next)
				abort();
		}
		if (trackers > 1)
			abort();
	}
	for (unsigned i = 0; i < FUZZ_THREADS; i++)
		seq_close(&rx[i].trk);
	for (unsigned i = 1; i < FUZZ_THREADS; i++)
		seq_merge(&rx[0].trk, &rx[i].trk);
	seq_sum(&rx[0].trk, &t);
	/* the loss runs cover every lost datagram, each once, but the ones the receiver discarded */
	if (t.runs.sum != t.lost - t.discarded || t.runs.runs != t.runs.len1 + t.runs.len2_3 + t.runs.len4_15 + t.runs.len16 ||
	    t.runs.runs > t.lost || (t.lost > t.discarded && !t.runs.runs) || t.runs.max > t.lost)
		abort();
	for (unsigned f = 0; f < t.flows; f++) {
		const struct seq_flow *sf = &rx[0].trk.flow[f];
		int fin_ok = sf->fins && sf->fin_sent >= sf->next && sf->fin_sent <= WIRE_SEQ_LIMIT;
		sent += fin_ok ? sf->fin_sent : sf->next;
		valid += sf->valid;
	}
	if (sent != t.sent || valid != t.valid || valid > sent || (u128)t.lost != sent - valid)
		abort();
	/* pool's thrown-away datagrams are part of lost, never more */
	if (t.discarded > t.lost)
		abort();
	if (received != (u128)t.valid + t.dup + t.late + foreign + truncated)
		abort();
}

/* A frame as suck -m xdp hands it on, from a buffer of exactly its length (ASan sees any read
 * past it); a datagram frame_udp finds must lie inside the frame. */
static void take_frame(struct rx *r, const struct xsk_match *m, const uint8_t *p, size_t n)
{
	uint8_t *f = malloc(n ? n : 1);
	struct frame_udp d;

	if (!f)
		abort();
	memcpy(f, p, n);
	if (frame_udp(m, f, n, &d)) {
		if (d.payload < f || d.len > n || d.payload + d.len > f + n)
			abort();
		rx_datagram(r, d.payload, d.len, &d.src);
	} else {
		rx_foreign(r, f, n);
	}
	free(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t buf[65536];
	struct rx *r;
	const struct rx_name *from = &src[0];
	unsigned path = 0;

	if (!ready)
		setup();
	for (unsigned i = 0; i < FUZZ_THREADS; i++)
		reset(&rx[i]);
	memset(&sh, 0, sizeof sh);
	r = &rx[0];
	while (size >= 2) {
		size_t len = (size_t)data[0] << 8 | data[1], have;
		data += 2;
		size -= 2;
		if (len == 0xffff) {
			if (size < 1)
				break;
			r = &rx[data[0] % FUZZ_THREADS];
			from = &src[(data[0] >> 2) % FUZZ_SOURCES];
			path = (data[0] >> 4) & 3;
			data++;
			size--;
			continue;
		}
		if (len == 0xfffe) {
			if (size < 3)
				break;
			const struct xsk_match *m = &matches[data[0] % FUZZ_MATCHES];
			len = (size_t)data[1] << 8 | data[2];
			data += 3;
			size -= 3;
			have = len < size ? len : size;
			take_frame(r, m, data, have);
			data += have;
			size -= have;
			continue;
		}
		have = len < size ? len : size;
		/* The kernel reports the real length; the buffer holds at most cap bytes. */
		memcpy(buf, data, have < r->cap ? have : r->cap);
		check_round_trip(data, have);
		if (path == 2)
			(void)rx_account(r, buf, have, from);
		else if (path == 3)
			rx_discard(r, buf, have, from);
		else
			rx_datagram(r, buf, have, from);
		data += have;
		size -= have;
	}
	check_totals();
	return 0;
}
