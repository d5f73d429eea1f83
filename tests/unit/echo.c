/* Unit tests for suck/echo.c: the per-source budget's buckets (full at first use, emptied by
 * padding, refilled at the rate without rounding loss, never above one second's, nothing for a
 * clock stepped back, one bucket per address), and a reply cut to the request's size (or to
 * --echo-max) on a real loopback socket, counted clipped; one over the budget counted limited
 * and not sent. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "echo.h"
#include "net.h"
#include "sys.h"
#include "unit.h"
#include "wire.h"

#define S 1000000000ull

static void test_bucket(void)
{
	struct echo_budget *b = echo_budget_new(1000);
	struct in_addr a = { htonl(0x0a000001) }, other = a;
	uint64_t t = 1700000000ull * S;

	CHECK(b != NULL, "echo_budget_new");
	if (!b)
		return;
	CHECK(echo_budget_take(b, &a, sizeof a, 1000, t), "a full bucket at first use");
	CHECK(!echo_budget_take(b, &a, sizeof a, 1, t), "then empty");
	CHECK(echo_budget_take(b, &a, sizeof a, 500, t + S / 2), "half a second: 500 bytes");
	CHECK(!echo_budget_take(b, &a, sizeof a, 1, t + S / 2), "and no more");
	/* a byte every millisecond, 1000 times: each refill is exact */
	unsigned ok = 0;
	for (unsigned i = 1; i <= 1000; i++)
		ok += (unsigned)echo_budget_take(b, &a, sizeof a, 1, t + S / 2 + i * (S / 1000));
	CHECK(ok == 1000, "a byte a millisecond at 1000 B/s: %u of 1000", ok);
	t += 3 * S / 2;
	/* ten seconds idle: one second's worth, no more */
	CHECK(echo_budget_take(b, &a, sizeof a, 1000, t + 10 * S), "full after a pause");
	CHECK(!echo_budget_take(b, &a, sizeof a, 1, t + 10 * S), "but never more than a second's");
	/* the clock stepped back an hour: nothing refilled, then on from there */
	t += 10 * S;
	CHECK(!echo_budget_take(b, &a, sizeof a, 1, t - 3600 * S), "a clock stepped back refills nothing");
	CHECK(echo_budget_take(b, &a, sizeof a, 100, t - 3600 * S + S / 10), "and counts on from where it is");
	/* another address (in another bucket) has its own */
	for (uint32_t x = 2; x < 100; x++) {
		other.s_addr = htonl(0x0a000000 | x);
		if (key_siphash(b->key, &other, sizeof other) % ECHO_BUCKETS != key_siphash(b->key, &a, sizeof a) % ECHO_BUCKETS)
			break;
	}
	CHECK(echo_budget_take(b, &other, sizeof other, 1000, t - 3600 * S + S / 10), "another address's bucket is full");
	CHECK(!echo_budget_take(b, &a, sizeof a, 1, t - 3600 * S + S / 10), "the first's still empty");
	echo_budget_free(b);
}

/* A request of len bytes asking for reply bytes through echo (max, budget) to socket rx from
 * socket tx; the reply's length, or -1 when none came. */
static uint8_t got[70000]; /* the last reply */

static long round_trip(struct echo *e, int tx, int rx, const struct sockaddr_in *to, size_t len, uint32_t reply)
{
	static uint8_t req[2048];
	struct wire_hdr h = { .type = WIRE_REQ, .run_id = 7, .seq = 1 };

	memset(req, 0xab, sizeof req);
	wire_put_hdr(req, &h);
	wire_put_reply(req, reply);
	echo_add(e, tx, req, len, to, 9);
	echo_flush(e, tx);
	return (long)recv(rx, got, sizeof got, MSG_TRUNC);
}

static void test_clip(void)
{
	struct echo_budget *b = echo_budget_new(5000);
	struct echo *e0 = b ? echo_new(4, AF_INET, 0, b) : NULL, *e1 = b ? echo_new(4, AF_INET, 3000, b) : NULL;
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_addr = { htonl(INADDR_LOOPBACK) } };
	socklen_t tl = sizeof to;
	int tx = socket(AF_INET, SOCK_DGRAM, 0), rx = socket(AF_INET, SOCK_DGRAM, 0);
	struct timeval wait = { 0, 200000 }; /* a reply that does not come */

	CHECK(e0 && e1 && tx >= 0 && rx >= 0, "set up");
	if (!e0 || !e1 || tx < 0 || rx < 0)
		return;
	bind(rx, (struct sockaddr *)&to, sizeof to);
	getsockname(rx, (struct sockaddr *)&to, &tl);
	setsockopt(rx, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
	long n = round_trip(e0, tx, rx, &to, 32, 65507);
	CHECK(n == 32 && e0->clipped == 1, "65507 asked of 32: %ld bytes, clipped %llu", n,
	      (unsigned long long)e0->clipped);
	n = round_trip(e0, tx, rx, &to, 1000, 40);
	CHECK(n == 40 && e0->clipped == 1, "40 asked of 1000: %ld, not clipped", n);
	n = round_trip(e0, tx, rx, &to, 100, 0);
	CHECK(n == 100, "as large as the request: %ld", n);
	n = round_trip(e1, tx, rx, &to, 32, 65507);
	CHECK(n == 3000 && e1->clipped == 1, "--echo-max 3000: %ld, clipped %llu", n, (unsigned long long)e1->clipped);
	n = round_trip(e1, tx, rx, &to, 100, 3000);
	CHECK(n == -1 && e1->limited == 1, "2900 bytes of padding over the 2032 left: none sent (%ld), limited %llu",
	      n, (unsigned long long)e1->limited);
	n = round_trip(e1, tx, rx, &to, 1000, 2000);
	CHECK(n == 2000 && e1->limited == 1, "1000 of padding within the 2032 left: %ld", n);
	CHECK(e0->sent == 3 && e1->sent == 2, "sent %llu and %llu", (unsigned long long)e0->sent,
	      (unsigned long long)e1->sent);
	close(tx);
	close(rx);
	echo_free(e0);
	echo_free(e1);
	echo_budget_free(b);
}

/* The echo block: in a request long enough, and a reply as long, the count and the batch's
 * receive time, written over the request's bytes (the reply no larger); none in a shorter one,
 * whose bytes stay as they came; every reply of a batch has its receive time. */
static void test_block(void)
{
	struct echo_budget *b = echo_budget_new(5000);
	struct echo *e = b ? echo_new(4, AF_INET, 0, b) : NULL;
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_addr = { htonl(INADDR_LOOPBACK) } };
	socklen_t tl = sizeof to;
	int tx = socket(AF_INET, SOCK_DGRAM, 0), rx = socket(AF_INET, SOCK_DGRAM, 0);
	struct timeval wait = { 0, 200000 };
	struct wire_echo w;
	uint64_t before = sys_real_ns();

	CHECK(e && tx >= 0 && rx >= 0, "set up");
	if (!e || tx < 0 || rx < 0)
		return;
	bind(rx, (struct sockaddr *)&to, sizeof to);
	getsockname(rx, (struct sockaddr *)&to, &tl);
	setsockopt(rx, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
	long n = round_trip(e, tx, rx, &to, 100, 0);
	CHECK(n == 100 && wire_get_echo(got, (size_t)n, &w) == 0 && w.count == 9 && w.rx_ns >= before &&
	      w.rx_ns <= w.tx_ns && w.tx_ns <= sys_real_ns(), "a block in a 100-byte reply: count %llu",
	      (unsigned long long)w.count);
	n = round_trip(e, tx, rx, &to, WIRE_ECHO_END, 0);
	CHECK(n == WIRE_ECHO_END && wire_get_echo(got, (size_t)n, &w) == 0, "and in one of WIRE_ECHO_END bytes");
	n = round_trip(e, tx, rx, &to, WIRE_ECHO_END - 1, 0);
	CHECK(n == WIRE_ECHO_END - 1 && got[WIRE_ECHO_OFF] == 0xab && got[n - 1] == 0xab,
	      "none in a shorter request: %ld bytes as they came", n);
	n = round_trip(e, tx, rx, &to, 1000, 40);
	CHECK(n == 40 && got[WIRE_ECHO_OFF] == 0xab, "none in a reply cut to 40: %ld", n);

	/* a batch: three requests, one receive time */
	static uint8_t reqs[3][200];
	uint64_t rx0 = 0;
	int same = 1;
	for (unsigned i = 0; i < 3; i++) {
		struct wire_hdr h = { .type = WIRE_REQ, .run_id = 7, .seq = i };
		memset(reqs[i], 0, sizeof reqs[i]);
		wire_put_hdr(reqs[i], &h);
		echo_add(e, tx, reqs[i], sizeof reqs[i], &to, i + 1);
	}
	echo_flush(e, tx);
	for (unsigned i = 0; i < 3; i++) {
		n = (long)recv(rx, got, sizeof got, MSG_TRUNC);
		CHECK(n == 200 && wire_get_echo(got, (size_t)n, &w) == 0 && w.count == i + 1,
		      "batch reply %u: count %llu", i, (unsigned long long)w.count);
		if (i == 0)
			rx0 = w.rx_ns;
		same &= w.rx_ns == rx0;
	}
	CHECK(same, "one receive time for the batch");
	/* a queue of one (copy, buffer): one clock read, both times the flush's */
	{
		struct echo *one = echo_new(1, AF_INET, 0, b);
		struct wire_hdr h = { .type = WIRE_REQ, .run_id = 7 };
		memset(reqs[0], 0, sizeof reqs[0]);
		wire_put_hdr(reqs[0], &h);
		if (one)
			echo_add(one, tx, reqs[0], 100, &to, 1);
		n = (long)recv(rx, got, sizeof got, MSG_TRUNC);
		CHECK(one && n == 100 && wire_get_echo(got, (size_t)n, &w) == 0 && w.rx_ns == w.tx_ns && w.rx_ns >= rx0,
		      "a queue of one: receive time == send time");
		echo_free(one);
	}
	/* data is echoed as it came */
	{
		struct wire_hdr h = { .type = WIRE_DATA, .run_id = 7 };
		memset(reqs[0], 0, sizeof reqs[0]);
		wire_put_hdr(reqs[0], &h);
		echo_add(e, tx, reqs[0], 100, &to, 5);
		echo_flush(e, tx);
		n = (long)recv(rx, got, sizeof got, MSG_TRUNC);
		CHECK(n == 100 && wire_get_echo(got, (size_t)n, &w) == -1, "no block in echoed data");
	}
	close(tx);
	close(rx);
	echo_free(e);
	echo_budget_free(b);
}

int main(void)
{
	test_block();
	test_bucket();
	test_clip();
	return unit_done("echo");
}
