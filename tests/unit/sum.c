/* Unit tests for the adding up behind both reports, apart from printing: suck's total_sum (sums
 * over threads, the receive window, the stop reason, dropped scaled by the datagrams per gro
 * buffer and capped at lost, the threads' least and most), --one-socket's one_batch and one_sum
 * (one flow split between two threads, counted once into one tracker) and blast's flow_sum
 * (sums, window, errors per errno). */
#include <errno.h>
#include <string.h>

#include "blast.h"
#include "one.h"
#include "total.h"
#include "unit.h"
#include "variant.h"

/* A variant's own counts (gro's bufs, epoll's wakeups, pool's queue), which total_sum reads
 * through its counts function: here each thread's state is its variant_counts. */
static void test_counts(const struct rx *r, struct variant_counts *c)
{
	*c = *(const struct variant_counts *)r->priv;
}
static const struct variant test_variant = { .name = "test", .counts = test_counts };

static struct suck_cfg cfg = { .variant = &test_variant, .work = { .kind = WORK_NONE, .reps = 1 },
			       .bufsize = 2000 };
static struct rx_shared sh;
static struct rx rx[3];
static struct variant_counts vc[3];

static void fresh(void)
{
	for (unsigned i = 0; i < 3; i++) {
		rx_free(&rx[i]);
		if (rx_init(&rx[i], -1, i, &cfg, &sh) < 0)
			CHECK(0, "rx_init");
		rx[i].done = RX_STOP_FIN;
		memset(&vc[i], 0, sizeof vc[i]);
		rx[i].priv = &vc[i];
	}
}

static void test_threads(void)
{
	struct total t;

	fresh();
	/* thread 0 owns flow 0 (100 of 120 seen), thread 1 flow 1 (50 of 50), thread 2 nothing */
	for (uint64_t s = 0; s < 120; s++)
		if (s % 6)
			seq_seen(&rx[0].trk, 0, s);
	for (uint64_t s = 0; s < 50; s++)
		seq_seen(&rx[1].trk, 1, s);
	rx[0].received = 100 + 7; rx[0].foreign = 7; rx[0].other_src = 3;
	rx[1].received = 50 + 2;  rx[1].truncated = 2; rx[1].other_run = 0;
	rx[2].received = 0;
	rx[0].first_ns = 2000; rx[0].last_ns = 9000;
	rx[1].first_ns = 1000; rx[1].last_ns = 5000;
	vc[0].bufs = 107; vc[1].bufs = 52;
	total_sum(rx, 3, 5, &t);
	CHECK(t.received == 159 && t.foreign == 7 && t.truncated == 2 && t.other_src == 3,
	      "sums: received %llu", (unsigned long long)t.received);
	CHECK(t.first_ns == 1000 && t.last_ns == 9000, "window over threads");
	CHECK(t.seq.valid == 150 && t.seq.sent == 170 && t.seq.lost == 20 && t.seq.sent_estimated,
	      "valid %llu sent %llu lost %llu", (unsigned long long)t.seq.valid,
	      (unsigned long long)t.seq.sent, (unsigned long long)t.seq.lost);
	CHECK(t.stop == RX_STOP_FIN, "stop fin");
	CHECK(t.segs_per_buf == 1 && t.dropped == 5 && t.kernel_drops == 5, "one datagram a buffer: dropped %llu",
	      (unsigned long long)t.dropped);
	CHECK(t.thread_min == 0 && t.thread_max == 107, "threads' least %llu and most %llu received",
	      (unsigned long long)t.thread_min, (unsigned long long)t.thread_max);

	fresh();
	rx[1].done = RX_STOP_SIGNAL;
	total_sum(rx, 3, -1, &t);
	CHECK(t.stop == RX_STOP_SIGNAL, "a thread stopped by a signal: stop signal");
	CHECK(t.dropped == 0 && t.kernel_drops == -1, "unknown drops: 0 dropped, -1 raw");
}

/* gro: 4000 datagrams in 100 buffers and 1 fin buffer: 40 a buffer; 10 buffers dropped are
 * 400 datagrams, capped at lost. */
static void test_gro_scaling(void)
{
	struct total t;

	fresh();
	for (uint64_t s = 0; s < 4000; s++)
		seq_seen(&rx[0].trk, 0, s);
	seq_fin(&rx[0].trk, 0, 4400, 4400 * 100, 1000, 1);
	rx[0].received = 4000;
	vc[0].bufs = 101;
	total_sum(rx, 1, 10, &t);
	CHECK(t.seq.fins == 1 && t.seq.sent == 4400 && t.seq.lost == 400, "gro run: lost %llu",
	      (unsigned long long)t.seq.lost);
	CHECK(t.segs_per_buf == 40, "segs per buffer %.2f: the fin's buffer left out", t.segs_per_buf);
	CHECK(t.dropped == 400, "dropped %llu = 10 buffers x 40", (unsigned long long)t.dropped);
	total_sum(rx, 1, 50, &t);
	CHECK(t.dropped == 400, "dropped capped at lost: %llu", (unsigned long long)t.dropped);
}

/* pool, drop mode: 100 valid, 300 discarded at a full queue, the fin says 500. queue_dropped is
 * the discarded, exactly; the kernel's part of lost is capped at what they leave (100), and
 * lost == dropped + queue_dropped + elsewhere. The pool's own figures add up over threads. */
static void test_pool(void)
{
	struct total t;

	fresh();
	for (uint64_t s = 0; s < 500; s++) {
		if (s % 5 == 0)
			seq_seen(&rx[0].trk, 0, s);
		else if (s % 5 != 4)
			CHECK(seq_discard(&rx[0].trk, 0, s), "discard %llu", (unsigned long long)s);
	}
	seq_fin(&rx[0].trk, 0, 500, 500 * 100, 1000, 1);
	rx[0].received = 100;
	vc[0].queue_hwm = 3; vc[1].queue_hwm = 7;
	vc[0].unworked = 5; vc[1].unworked = 6;
	vc[0].wakeups = 10; vc[1].wakeups = 20;
	vc[0].allocs = 100; vc[2].allocs = 1;
	rx[2].priv = NULL; /* a lane: no variant state, none of its counts */
	vc[2].unworked = 1000; vc[2].queue_hwm = 1000;
	total_sum(rx, 2, 1000, &t);
	CHECK(t.seq.valid == 100 && t.seq.lost == 400, "pool: valid %llu lost %llu",
	      (unsigned long long)t.seq.valid, (unsigned long long)t.seq.lost);
	CHECK(t.queue_dropped == 300, "queue_dropped %llu", (unsigned long long)t.queue_dropped);
	CHECK(t.dropped == 100, "dropped capped at lost - queue_dropped: %llu", (unsigned long long)t.dropped);
	CHECK(t.seq.lost - t.dropped - t.queue_dropped == 0, "elsewhere 0");
	total_sum(rx, 2, 40, &t);
	CHECK(t.dropped == 40 && t.seq.lost - t.dropped - t.queue_dropped == 60, "40 kernel drops: elsewhere 60");
	CHECK(t.queue_hwm == 7 && t.unworked == 11 && t.wakeups == 30 && t.allocs == 100,
	      "the variants' counts: hwm the largest, unworked, wakeups and allocs summed");
	CHECK(t.napi_id == -1, "no thread read a NAPI id: -1 (reported as -)");
	rx[1].napi_read = 1; rx[1].napi_id = 0;
	rx[2].napi_read = 1; rx[2].napi_id = 8193;
	total_sum(rx, 3, 40, &t);
	CHECK(t.napi_id == 8193, "the first nonzero NAPI id: %lld", (long long)t.napi_id);
	CHECK(t.queue_hwm == 7 && t.unworked == 11 && t.allocs == 100,
	      "a thread without variant state (a lane) adds none of the variant's counts");
	rx[2].napi_read = 0;
	total_sum(rx, 3, 40, &t);
	CHECK(t.napi_id == 0, "read, none nonzero: 0 (%lld)", (long long)t.napi_id);
}

/* batch m: n data datagrams of flow 0 from sequence seq (dup: the last one again), then a fin
 * for sent when sent > 0; 100 bytes each, one source. The count put in. */
static int fill(struct rx_msgs *m, uint64_t seq, int n, int dup, uint64_t sent)
{
	int k = 0;

	for (int i = 0; i < n + dup; i++, k++) {
		struct wire_hdr h = { .type = WIRE_DATA, .flow = 0, .run_id = 77, .seq = seq + (uint64_t)(i < n ? i : n - 1) };
		memset(m->iov[k].iov_base, 0x5a, 100);
		wire_put_hdr(m->iov[k].iov_base, &h);
		m->msgs[k].msg_len = 100;
	}
	if (sent) {
		struct wire_hdr h = { .flow = 0, .run_id = 77 };
		struct wire_fin f = { .sent = sent, .bytes = sent * 100, .duration_ns = 1000, .flows = 1, .size = 100 };
		m->msgs[k].msg_len = (unsigned)wire_put_fin(m->iov[k].iov_base, &h, &f, NULL);
		k++;
	}
	return k;
}

/* --one-socket: flow 0's datagrams reach two threads in turn (0..9 thread 0, 10..19 thread 1,
 * 20..29 and a repeat of 29 thread 0, then the fin on thread 1, which says 35 were sent). One
 * tracker: 30 valid, 1 dup, no foreign, 5 lost, sent from the fin; the threads' shares add up
 * (21 and 10 received; the fin is no datagram), their calls and windows are theirs. */
static void test_one(void)
{
	static struct rx_shared osh;
	static struct rx hub[2];
	struct suck_cfg c = cfg;
	struct rx_msgs *m = rx_msgs_new(16, 2000, 0);
	struct total t;
	struct one *o;

	c.threads = 2;
	c.one_socket = 1;
	c.batch = 16;
	o = one_new(&c, -1, &osh, 2);
	CHECK(o && m, "one_new, rx_msgs_new");
	if (!o || !m)
		return;
	for (unsigned i = 0; i < 2; i++) {
		CHECK(rx_init(&hub[i], -1, i, &c, &osh) == 0, "rx_init");
		one_attach(o, &hub[i]);
	}
	one_batch(&hub[0], m, fill(m, 0, 10, 0, 0));
	one_batch(&hub[1], m, fill(m, 10, 10, 0, 0));
	one_batch(&hub[0], m, fill(m, 20, 10, 1, 0));
	one_batch(&hub[1], m, fill(m, 0, 0, 0, 35));
	hub[0].calls = 3; hub[1].calls = 2;
	hub[0].done = hub[1].done = RX_STOP_FIN;
	one_sum(o, hub, 2, 0, &t);
	CHECK(t.seq.valid == 30 && t.seq.dup == 1 && t.foreign == 0 && t.other_src == 0,
	      "one tracker: valid %llu dup %llu foreign %llu", (unsigned long long)t.seq.valid,
	      (unsigned long long)t.seq.dup, (unsigned long long)t.foreign);
	CHECK(t.seq.sent == 35 && !t.seq.sent_estimated && t.seq.lost == 5 && t.seq.fins == 1,
	      "sent %llu from the fin, lost %llu", (unsigned long long)t.seq.sent, (unsigned long long)t.seq.lost);
	CHECK(t.received == 31 && t.bytes == 3100, "received %llu", (unsigned long long)t.received);
	CHECK(hub[0].received == 21 && hub[1].received == 10, "each thread's share: %llu and %llu",
	      (unsigned long long)hub[0].received, (unsigned long long)hub[1].received);
	CHECK(t.thread_min == 10 && t.thread_max == 21, "least %llu, most %llu", (unsigned long long)t.thread_min,
	      (unsigned long long)t.thread_max);
	CHECK(t.calls == 5 && t.stop == RX_STOP_FIN, "the threads' calls %llu", (unsigned long long)t.calls);
	CHECK(t.first_ns && t.first_ns == hub[0].first_ns, "the window from the threads");
	CHECK(t.bytes_check == 0, "some lost: the bytes cannot be checked (%d)", t.bytes_check);
	for (unsigned i = 0; i < 2; i++)
		rx_free(&hub[i]);
	rx_msgs_free(m);
	one_free(o);
}

static void test_flows(void)
{
	static struct flow fs[2];
	static struct flow_total t;

	fs[0].sent = 10; fs[0].bytes = 1000; fs[0].calls = 3; fs[0].start_ns = 500; fs[0].end_ns = 900;
	fs[1].sent = 20; fs[1].bytes = 2000; fs[1].calls = 4; fs[1].start_ns = 400; fs[1].end_ns = 800;
	fs[1].errors = 3; fs[1].err_by[ENOBUFS] = 2; fs[1].err_by[0] = 1;
	fs[1].stop = BLAST_STOP_SIGNAL;
	hist_add(&fs[0].gaps, 100);
	hist_add(&fs[1].gaps, 300);
	flow_sum(fs, 2, &t);
	CHECK(t.sent == 30 && t.bytes == 3000 && t.calls == 7 && t.errors == 3, "flow sums");
	CHECK(t.start_ns == 400 && t.end_ns == 900, "window over flows");
	CHECK(t.stop == BLAST_STOP_SIGNAL, "the most severe stop");
	CHECK(t.gaps.n == 2 && t.gaps.max_ns == 300, "gaps merged");
	CHECK(strcmp(t.detail, "other:1,ENOBUFS:2") == 0, "errors per errno: '%s'", t.detail);
}

int main(void)
{
	test_threads();
	test_gro_scaling();
	test_pool();
	test_one();
	test_flows();
	return unit_done("sum");
}
