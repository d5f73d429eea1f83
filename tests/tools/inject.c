/* inject: sends hand-made datagrams to suck for the hostile-input tests. Not part of the
 * product; built by `make unit` as bin/inject.
 *
 *   inject hostile PORT RUN_ID SIZE   garbage, cut headers, forged and absurd fins, another run's
 *                                     data and oversized datagrams, during someone else's run
 *   inject script PORT RUN_ID SIZE N  a whole run of N datagrams on flow 0, replaying some
 *                                     (duplicates) and swapping some (reordered), then fins
 *   inject data PORT RUN_ID SIZE FLOW SEQ N
 *                                     N data datagrams of FLOW from sequence SEQ, as a stranger
 *                                     would replay or forge them (each inject is a new source)
 *   inject fin PORT RUN_ID SIZE FLOW SENT FLOWS [MAX BYTES]
 *                                     one fin of FLOW claiming SENT datagrams of SIZE bytes; with
 *                                     MAX, of a size mix SIZE..MAX, BYTES in all
 *   inject marks PORT RUN_ID SIZE N   a whole run of N datagrams on flow 0 and its fins, three
 *                                     in ten marked otherwise (TOS 72, TTL 9) than the first
 *                                     (TOS 32, TTL 64), as a path that remarks some would
 *   inject run PORT RUN_ID SIZE N [MAX BYTES]
 *                                     a whole run of N datagrams on flow 0 and its one fin, from one
 *                                     socket (suck --serve: many short runs in a moment); with MAX,
 *                                     the fin says a size mix SIZE..MAX and BYTES in all
 *   inject spray PORT RUN_ID SIZE N   N data datagrams on every flow of runs RUN_ID, RUN_ID+1, ...
 *                                     (256 flows a run), one each: what a stranger sends to make
 *                                     suck map trackers
 *   inject runs PORT RUN_ID SIZE      a run on flow 0 with losses of known lengths (runs of 1 to
 *                                     300 datagrams, and some at the end that only its fin counts)
 *   inject amp PORT RUN_ID SIZE N REPLY
 *                                     N requests (blast --rtt's type) of SIZE bytes on flow 0, each
 *                                     asking suck --echo for a reply of REPLY bytes, as a reflection
 *                                     attack would, one at a time with a wait of up to 20 ms for its
 *                                     reply; then its fins. This socket is the attack's victim: it
 *                                     counts what came back (sent, bytes_sent, replies, bytes_back,
 *                                     reply_max, elapsed_s: first send to the last wait's end)
 *
 * To ::1 instead of 127.0.0.1 when INJECT_V6 is set and not empty. INJECT_JITTER_NS=X adds X
 * to the send time of every second data datagram: each pair of them then differs in transit
 * by X, which is what suck --jitter must find.
 * Data headers carry the time of sending, or INJECT_SEND_NS when it is set; fins carry the time
 * of sending, or INJECT_FIN_NS when it is set (a fin made earlier under the same key: what a
 * recording of an earlier run would play again).
 * Fins are tagged, and data carries the run's proof, under the run key in BS_RUN_KEY when it is
 * set (as blast does), and tag and proof are 0 otherwise: with a key in suck and none here,
 * every fin is a forgery and no datagram can start a run.
 *
 * Prints, as tsv, what suck should count: foreign, truncated, valid, dup, reordered, sent. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "key.h"
#include "wire.h"

static int fd;
static struct key key;
static uint32_t fin_size; /* SIZE: the datagram size every fin claims, or a mix's size word */
static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void pace(unsigned i)
{
	/* A pause every few datagrams keeps suck's receive buffer from overflowing, so what was
	 * sent is what arrives and the counts can be compared exactly. */
	if (i % 32 == 31) {
		struct timespec ts = { 0, 2000000 };
		nanosleep(&ts, NULL);
	}
}

static void out(const uint8_t *buf, size_t len)
{
	static unsigned n;

	while (send(fd, buf, len, 0) < 0) {
		if (errno == ECONNREFUSED) /* suck has ended (after a fin): nothing left to say */
			break;
		if (errno != ENOBUFS && errno != EAGAIN && errno != EINTR) {
			perror("inject: send");
			exit(1);
		}
	}
	pace(n++);
}

/* The send time in every data header: now (CLOCK_REALTIME, as blast writes it), or the value
 * of INJECT_SEND_NS, for a stamp outside the run. */
static uint64_t send_ns(void)
{
	const char *e = getenv("INJECT_SEND_NS");
	struct timespec ts;

	const char *j = getenv("INJECT_JITTER_NS");
	static unsigned n;

	if (e)
		return strtoull(e, NULL, 0);
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec +
	       (j && n++ % 2 ? strtoull(j, NULL, 0) : 0);
}

static uint64_t fin_ns(void)
{
	const char *e = getenv("INJECT_FIN_NS");
	struct timespec ts;

	if (e)
		return strtoull(e, NULL, 0);
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void data(uint8_t *buf, size_t size, uint32_t run, uint16_t flow, uint64_t seq)
{
	struct wire_hdr h = { .type = WIRE_DATA, .flow = flow, .run_id = run, .seq = seq, .send_ns = send_ns(),
			      .proof = key.set ? wire_run_proof(key.k, run) : 0 };

	memset(buf, 0xab, size);
	wire_put_hdr(buf, &h);
	out(buf, size);
}

static void fin(uint32_t run, uint16_t flow, uint64_t sent, uint64_t bytes, uint16_t flows)
{
	uint8_t buf[WIRE_FIN_LEN];
	struct wire_hdr h = { .flow = flow, .run_id = run, .send_ns = fin_ns() };
	struct wire_fin f = { .sent = sent, .bytes = bytes, .duration_ns = 1000, .flows = flows,
			      .size = fin_size };

	out(buf, wire_put_fin(buf, &h, &f, key.set ? key.k : NULL));
}

static int hostile(uint32_t run, size_t size)
{
	static uint8_t buf[9000];
	unsigned foreign = 0, truncated = 0;

	for (int i = 0; i < 50; i++) { /* garbage that never starts with the magic */
		size_t len = 1 + next_rand() % 200;
		for (size_t k = 0; k < len; k++)
			buf[k] = (uint8_t)next_rand();
		buf[0] = 'X';
		out(buf, len);
		foreign++;
	}
	for (size_t len = 1; len < WIRE_HDR_LEN; len++) { /* headers cut short */
		struct wire_hdr h = { .type = WIRE_DATA, .run_id = run, .seq = 1 };
		wire_put_hdr(buf, &h);
		out(buf, len);
		foreign++;
	}
	for (int type = 0; type < 2; type++) { /* fins cut short, of this run */
		uint8_t f[WIRE_FIN_LEN];
		struct wire_hdr h = { .run_id = run };
		struct wire_fin t = { .sent = 1, .bytes = size, .flows = 1, .size = (uint32_t)size };
		wire_put_fin(f, &h, &t, key.set ? key.k : NULL);
		out(f, WIRE_FIN_LEN - 1 - (size_t)type * 10);
		foreign++;
	}
	for (int i = 0; i < 20; i++) { /* forged fins of another run */
		fin(run + 1 + (uint32_t)i, 0, 5, 5 * size, 1);
		foreign++;
	}
	/* fins of this run that cannot be true */
	fin(run, 0, 0, 0, 1);                       /* fewer datagrams than already seen */
	fin(run, 0, 1ull << 40, 7, 1);              /* bytes that are not sent * size */
	fin(run, 0, UINT64_MAX, UINT64_MAX, 1);     /* overflows sent * size */
	fin(run, 0, 10, 10 * size, 0);              /* no flows */
	fin(run, 5, 10, 10 * size, 3);              /* flow beyond the flows */
	fin(run, 0, 10, 10 * size, WIRE_MAX_FLOWS + 1);
	foreign += 6;
	for (int i = 0; i < 30; i++) { /* another run's data */
		data(buf, size, run ^ 0x5a5a5a5a, 0, (uint64_t)i);
		foreign++;
	}
	for (int i = 0; i < 10; i++) { /* headers with a sequence no run can reach */
		data(buf, size, run, 0, WIRE_SEQ_LIMIT + (uint64_t)i);
		foreign++;
	}
	for (int i = 0; i < 10; i++) { /* larger than suck's buffer (the test runs suck -s 4000) */
		data(buf, 4001 + 100 * (size_t)i, run, 0, 1);
		truncated++;
	}
	printf("foreign\ttruncated\n%u\t%u\n", foreign, truncated);
	return 0;
}

static int v6;

/* Marks every datagram sent after it: TOS (traffic class) and TTL (hop limit). */
static void set_marks(int tos, int ttl)
{
	if (setsockopt(fd, v6 ? IPPROTO_IPV6 : IPPROTO_IP, v6 ? IPV6_TCLASS : IP_TOS, &tos, sizeof tos) < 0 ||
	    setsockopt(fd, v6 ? IPPROTO_IPV6 : IPPROTO_IP, v6 ? IPV6_UNICAST_HOPS : IP_TTL, &ttl, sizeof ttl) < 0) {
		perror("inject: setsockopt");
		exit(1);
	}
}

static int marks(uint32_t run, size_t size, uint64_t n)
{
	static uint8_t buf[65536];
	uint64_t changed = 0;
	int other = -1;

	for (uint64_t s = 0; s < n; s++) {
		int o = s % 10 >= 7;
		if (o != other)
			set_marks(o ? 72 : 32, o ? 9 : 64);
		other = o;
		changed += (uint64_t)o;
		data(buf, size, run, 0, s);
	}
	set_marks(32, 64);
	for (int i = 0; i < 3; i++)
		fin(run, 0, n, n * size, 1);
	printf("valid\tmarks_changed\ttos\tttl\n%llu\t%llu\t32\t64\n", (unsigned long long)n,
	       (unsigned long long)changed);
	return 0;
}

/* Runs of losses of known lengths, every 50 datagrams, and a tail lost after the last datagram. */
static int runs(uint32_t run, size_t size)
{
	static uint8_t buf[65536];
	static const unsigned lens[] = { 1, 1, 1, 2, 3, 3, 4, 7, 15, 16, 17, 40, 300 };
	const unsigned nl = sizeof lens / sizeof lens[0], tail = 25;
	uint64_t seq = 0, lost = 0, b1 = 0, b2 = 0, b4 = 0, b16 = 0;

	for (unsigned k = 0; k < nl; k++) {
		for (int i = 0; i < 50; i++)
			data(buf, size, run, 0, seq++);
		seq += lens[k];
		lost += lens[k];
		b1 += lens[k] == 1;
		b2 += lens[k] >= 2 && lens[k] <= 3;
		b4 += lens[k] >= 4 && lens[k] <= 15;
		b16 += lens[k] >= 16;
	}
	for (int i = 0; i < 50; i++)
		data(buf, size, run, 0, seq++);
	seq += tail; /* the last ones lost: only the fin's sent says so */
	lost += tail;
	b16++;
	for (int i = 0; i < 3; i++)
		fin(run, 0, seq, seq * size, 1);
	printf("sent\tlost\tloss_runs\tloss_run_max\tloss_runs_1\tloss_runs_2_3\tloss_runs_4_15\tloss_runs_16_up\n"
	       "%llu\t%llu\t%u\t300\t%llu\t%llu\t%llu\t%llu\n", (unsigned long long)seq,
	       (unsigned long long)lost, nl + 1, (unsigned long long)b1, (unsigned long long)b2,
	       (unsigned long long)b4, (unsigned long long)b16);
	return 0;
}

/* Every reply queued on the socket, waiting up to wait_ms for the first; counted. */
static void amp_take(int wait_ms, uint64_t *replies, uint64_t *bytes, uint64_t *largest)
{
	static uint8_t buf[65536];
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (poll(&p, 1, wait_ms) <= 0)
		return;
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof buf, MSG_DONTWAIT | MSG_TRUNC);
		if (n < 0)
			return;
		(*replies)++;
		*bytes += (uint64_t)n;
		if ((uint64_t)n > *largest)
			*largest = (uint64_t)n;
	}
}

static int amp(uint32_t run, size_t size, uint64_t n, uint32_t reply)
{
	static uint8_t buf[3000];
	uint64_t replies = 0, bytes = 0, largest = 0, before;
	struct timespec t0, t1;
	int rcvbuf = 4 << 20;

	/* room for every reply that could be on its way at once: a short count must be suck's */
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (uint64_t s = 0; s < n; s++) {
		struct wire_hdr h = { .type = WIRE_REQ, .run_id = run, .seq = s, .send_ns = send_ns() };
		memset(buf, 0xab, size);
		wire_put_hdr(buf, &h);
		wire_put_reply(buf, reply);
		out(buf, size);
		amp_take(20, &replies, &bytes, &largest);
	}
	do { /* the last replies, until 300 ms pass without one */
		before = replies;
		amp_take(300, &replies, &bytes, &largest);
	} while (replies != before);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	for (int i = 0; i < 3; i++)
		fin(run, 0, n, n * size, 1);
	printf("sent\tbytes_sent\treplies\tbytes_back\treply_max\telapsed_s\n%llu\t%llu\t%llu\t%llu\t%llu\t%.3f\n",
	       (unsigned long long)n, (unsigned long long)(n * size), (unsigned long long)replies,
	       (unsigned long long)bytes, (unsigned long long)largest,
	       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	return 0;
}

static int script(uint32_t run, size_t size, uint64_t n)
{
	static uint8_t buf[65536];
	uint64_t dup = 0, reordered = 0;

	for (uint64_t s = 0; s < n; s++) {
		if (s % 50 == 10 && s + 1 < n) {
			/* s + 1 before s: s arrives after a higher sequence, once reordered */
			data(buf, size, run, 0, s + 1);
			data(buf, size, run, 0, s);
			reordered++;
			s++;
			continue;
		}
		data(buf, size, run, 0, s);
		if (s % 40 == 5) { /* the same datagram again at once */
			data(buf, size, run, 0, s);
			dup++;
		}
		if (s % 100 == 99) { /* a replay of one from a while ago */
			data(buf, size, run, 0, s - 60);
			dup++;
		}
	}
	for (int i = 0; i < 3; i++) /* repeated, as blast does */
		fin(run, 0, n, n * size, 1);
	printf("valid\tdup\treordered\tsent\n%llu\t%llu\t%llu\t%llu\n", (unsigned long long)n,
	       (unsigned long long)dup, (unsigned long long)reordered, (unsigned long long)n);
	return 0;
}

int main(int argc, char **argv)
{
	struct sockaddr_in to = { .sin_family = AF_INET };
	struct sockaddr_in6 to6 = { .sin6_family = AF_INET6, .sin6_addr = IN6ADDR_LOOPBACK_INIT };
	uint32_t run;
	size_t size;

	if (argc < 5 || ((strcmp(argv[1], "script") == 0 || strcmp(argv[1], "marks") == 0 ||
			  strcmp(argv[1], "run") == 0 || strcmp(argv[1], "spray") == 0) && argc < 6) ||
	    ((strcmp(argv[1], "data") == 0 || strcmp(argv[1], "fin") == 0) && argc < 8) ||
	    (strcmp(argv[1], "amp") == 0 && argc < 7)) {
		fprintf(stderr, "usage: inject hostile|script|marks|runs|run|spray PORT RUN_ID SIZE [N]\n"
				"       inject data PORT RUN_ID SIZE FLOW SEQ N\n"
				"       inject fin PORT RUN_ID SIZE FLOW SENT FLOWS\n"
				"       inject amp PORT RUN_ID SIZE N REPLY\n");
		return 2;
	}
	to.sin_port = htons((uint16_t)strtoul(argv[2], NULL, 10));
	to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	to6.sin6_port = to.sin_port;
	v6 = getenv("INJECT_V6") && *getenv("INJECT_V6");
	run = (uint32_t)strtoul(argv[3], NULL, 10);
	size = strtoul(argv[4], NULL, 10);
	fin_size = (uint32_t)size;
	if (size < (strcmp(argv[1], "data") == 0 || strcmp(argv[1], "amp") == 0 ? WIRE_HDR_LEN : WIRE_FIN_LEN) ||
	    size > 3000) {
		fprintf(stderr, "inject: SIZE %zu outside %d..3000\n", size, WIRE_FIN_LEN);
		return 2;
	}
	const char *why = key_load(NULL, &key);
	if (why) {
		fprintf(stderr, "inject: %s\n", why);
		return 2;
	}
	fd = socket(v6 ? AF_INET6 : AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || (v6 ? connect(fd, (struct sockaddr *)&to6, sizeof to6) :
			    connect(fd, (struct sockaddr *)&to, sizeof to)) < 0) {
		perror("inject: socket");
		return 1;
	}
	if (strcmp(argv[1], "hostile") == 0)
		return hostile(run, size);
	if (strcmp(argv[1], "data") == 0) {
		static uint8_t buf[3000];
		uint64_t seq = strtoull(argv[6], NULL, 0), n = strtoull(argv[7], NULL, 0);
		for (uint64_t i = 0; i < n; i++)
			data(buf, size, run, (uint16_t)strtoul(argv[5], NULL, 0), seq + i);
		return 0;
	}
	if (strcmp(argv[1], "fin") == 0) {
		uint64_t sent = strtoull(argv[6], NULL, 0), bytes = sent * size;
		if (argc >= 10) {
			fin_size = WIRE_MIX_SIZE(size, strtoul(argv[8], NULL, 0));
			bytes = strtoull(argv[9], NULL, 0);
		}
		fin(run, (uint16_t)strtoul(argv[5], NULL, 0), sent, bytes, (uint16_t)strtoul(argv[7], NULL, 0));
		return 0;
	}
	if (strcmp(argv[1], "spray") == 0) { /* N datagrams, each of its own run and flow */
		static uint8_t buf[3000];
		uint64_t n = strtoull(argv[5], NULL, 0);
		for (uint64_t i = 0; i < n; i++)
			data(buf, size, run + (uint32_t)(i / WIRE_MAX_FLOWS), (uint16_t)(i % WIRE_MAX_FLOWS), 0);
		return 0;
	}
	if (strcmp(argv[1], "amp") == 0)
		return amp(run, size, strtoull(argv[5], NULL, 0), (uint32_t)strtoul(argv[6], NULL, 0));
	if (strcmp(argv[1], "marks") == 0)
		return marks(run, size, strtoull(argv[5], NULL, 10));
	if (strcmp(argv[1], "runs") == 0)
		return runs(run, size);
	if (strcmp(argv[1], "run") == 0) { /* a whole run of one flow: N datagrams, then its fin */
		static uint8_t buf[3000];
		uint64_t n = strtoull(argv[5], NULL, 0), bytes = n * size;
		if (argc >= 8) {
			fin_size = WIRE_MIX_SIZE(size, strtoul(argv[6], NULL, 0));
			bytes = strtoull(argv[7], NULL, 0);
		}
		for (uint64_t i = 0; i < n; i++)
			data(buf, size, run, 0, i);
		fin(run, 0, n, bytes, 1);
		return 0;
	}
	return script(run, size, strtoull(argv[5], NULL, 10));
}
