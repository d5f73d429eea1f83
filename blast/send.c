/* send: one flow's send loop and its fin. A send call carries -b messages of -g datagrams
 * each (sendto for one datagram, send for one GSO message, sendmmsg for more); the clock is
 * read once per call, for the time limit, the rate and the send time in every header. */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "blast.h"
#include "mode.h"
#include "sys.h"
#include "wire.h"

void fill_payload(const struct blast_cfg *cfg, uint8_t *p, size_t len)
{
	switch (cfg->payload) {
	case BLAST_PAYLOAD_RANDOM:
		sys_random(p, len);
		break;
	case BLAST_PAYLOAD_ZERO:
		memset(p, 0, len);
		break;
	case BLAST_PAYLOAD_PATTERN: /* byte i of every datagram is i mod 251: checkable, not periodic in 256 */
		for (size_t i = 0; i < len; i++)
			p[i] = (uint8_t)((i % cfg->size) % 251);
		break;
	}
}

/* Points the first msgs messages at their parts of the buffer, for the flow's current shape. */
static void shape(struct flow *f, unsigned msgs)
{
	size_t per_msg = (size_t)f->segs * f->cfg->size;

	for (unsigned m = 0; m < msgs; m++) {
		f->iov[m].iov_base = f->bufs + m * per_msg;
		f->msgs[m].msg_hdr.msg_iov = &f->iov[m];
		f->msgs[m].msg_hdr.msg_iovlen = 1;
	}
}

int flow_setup(struct flow *f)
{
	const struct blast_cfg *cfg = f->cfg;
	/* Room for the shape of the calls, and for the plain one an automatic GSO falls back to. */
	size_t dgrams = (size_t)cfg->batch * cfg->segs;
	unsigned slots = cfg->batch;

	if (cfg->gso_auto) {
		if (dgrams < BLAST_PLAIN_BATCH)
			dgrams = BLAST_PLAIN_BATCH;
		if (slots < BLAST_PLAIN_BATCH)
			slots = BLAST_PLAIN_BATCH;
	}
	/* --zerocopy: ZC_SLOTS calls' buffers, a ring (zc.c), the headers written in each */
	f->zc_slot_bytes = dgrams * cfg->size;
	if (cfg->zerocopy) {
		dgrams *= ZC_SLOTS;
		if (zc_setup(f) < 0)
			return -1;
	}
	f->bufs = malloc(dgrams * cfg->size);
	f->msgs = calloc(slots, sizeof *f->msgs);
	f->iov = calloc(slots, sizeof *f->iov);
	if (!f->bufs || !f->msgs || !f->iov)
		return -1;
	fill_payload(cfg, f->bufs, dgrams * cfg->size);
	shape(f, f->batch);
	if (!cfg->raw) {
		/* --rtt: requests, which ask for a reply of --reply-size */
		struct wire_hdr h = { .type = cfg->rtt ? WIRE_REQ : WIRE_DATA, .flow = (uint16_t)f->id,
				      .run_id = cfg->run_id,
				      .proof = cfg->key.set ? wire_run_proof(cfg->key.k, cfg->run_id) : 0 };
		for (size_t d = 0; d < dgrams; d++) {
			wire_put_hdr(f->bufs + d * cfg->size, &h);
			if (cfg->rtt)
				wire_put_reply(f->bufs + d * cfg->size, cfg->reply_size);
			if (cfg->rtt && h.proof) /* options.c: -s leaves room for it */
				wire_put_req_proof(f->bufs + d * cfg->size, h.proof);
		}
	}
	return 0;
}

void flow_free(struct flow *f)
{
	zc_free(f);
	free(f->bufs);
	free(f->msgs);
	free(f->iov);
}

/* Lays out dgrams datagrams from base over the messages (each full but maybe the last) and
 * stamps their headers; returns the number of messages. */
static inline __attribute__((always_inline)) unsigned layout(struct flow *f, uint8_t *base, unsigned dgrams,
							      uint64_t send_ns)
{
	const struct blast_cfg *cfg = f->cfg;
	unsigned msgs = 0;

	if (!cfg->raw) {
		uint64_t be_ns = htobe64(send_ns);
		uint8_t *p = base;
		for (uint64_t seq = f->sent, end = f->sent + dgrams; seq < end; seq++, p += cfg->size)
			wire_put_seq_be(p, seq, be_ns);
	}
	for (unsigned left = dgrams; left > 0; msgs++) {
		unsigned k = left < f->segs ? left : f->segs;
		f->iov[msgs].iov_len = (size_t)k * cfg->size;
		left -= k;
	}
	return msgs;
}

/* "nothing is listening" is said once per run, not once per flow: every flow sends to the
 * same address. A flow asks the shared flag only at its own first refusal. */
static atomic_int refused_said;

/* Inlined into each mode's send loop, as it was into the one loop before mixes: the one-size
 * loop keeps its code (send_loop). */
static inline __attribute__((always_inline)) void count_error(struct flow *f, int e)
{
	char where[80];

	f->errors++;
	f->err_by[e < BLAST_ERRNOS ? e : 0]++;
	if (e == ECONNREFUSED && !f->refused_warned) {
		f->refused_warned = 1;
		if (atomic_exchange(&refused_said, 1))
			return;
		net_format(&f->cfg->to, where, sizeof where);
		fprintf(stderr, "blast: nothing is listening on %s (ECONNREFUSED); counting and going on\n", where);
	}
}

/* sendmmsg sent the first sent of a call's messages and returned: the next one failed, and a
 * call that sent something returns no errno. An asynchronous error of the connected socket (an
 * ICMP refusal: nothing is listening) is even cleared by the message it failed, so a closed port
 * would otherwise never be counted nor said. The message goes again alone (plain: no zerocopy
 * id to account for), and its failure is counted under the errno the kernel gives back: the
 * retry's when it fails, else the socket's error right after it (SO_ERROR: on loopback the
 * refusal of the retried datagram is in before send returns). Over a network the refusal can
 * come later: it then fails a later call, or is cleared by a later cut and not counted, as an
 * error nobody can name. A signal that cut the call (EINTR) is not counted, as in the loop.
 * Returns the messages sent: sent, or sent + 1 when the retry went. Out of line: a full return
 * pays one compare for it. */
static __attribute__((noinline, cold)) unsigned cut_short(struct flow *f, unsigned sent)
{
	const struct iovec *iov = &f->iov[sent];
	socklen_t len = sizeof(int);
	int e = 0;

	if (send(f->fd, iov->iov_base, iov->iov_len, 0) < 0) {
		e = errno;
		/* a GSO refusal fails the next call too, which falls back (send_loop) */
		if (e != EINTR && !gso_refused(f, e))
			count_error(f, e);
		return sent;
	}
	if (getsockopt(f->fd, SOL_SOCKET, SO_ERROR, &e, &len) == 0 && e > 0)
		count_error(f, e);
	return sent + 1;
}

/* Datagrams sent by one call, or -1 with errno. */
static long send_call(struct flow *f, unsigned dgrams, uint64_t send_ns)
{
	const struct blast_cfg *cfg = f->cfg;
	unsigned msgs = layout(f, f->bufs, dgrams, send_ns);
	long datagrams = 0;
	int n;

	if (msgs == 1) {
		ssize_t r = sendto(f->fd, f->bufs, f->iov[0].iov_len, 0, NULL, 0);
		return r < 0 ? -1 : (long)dgrams;
	}
	n = sendmmsg(f->fd, f->msgs, msgs, 0);
	if (n < 0)
		return -1;
	if ((unsigned)n < msgs)
		n = (int)cut_short(f, (unsigned)n);
	for (int m = 0; m < n; m++)
		datagrams += (long)(f->iov[m].iov_len / cfg->size);
	return datagrams;
}

/* --zerocopy's send call: send_call's, from the ring's slot at base, with flags (MSG_ZEROCOPY
 * or, once after a refusal with nothing in flight, none); the messages sent in *sent_msgs. */
static long zc_call(struct flow *f, uint8_t *base, unsigned dgrams, uint64_t send_ns, int flags,
		    unsigned *sent_msgs)
{
	const struct blast_cfg *cfg = f->cfg;
	unsigned msgs = layout(f, base, dgrams, send_ns);
	size_t per_msg = (size_t)f->segs * cfg->size;
	long datagrams = 0;
	int n;

	*sent_msgs = 0;
	if (msgs == 1) {
		if (send(f->fd, base, f->iov[0].iov_len, flags) < 0)
			return -1;
		*sent_msgs = 1;
		return (long)dgrams;
	}
	for (unsigned m = 0; m < msgs; m++)
		f->iov[m].iov_base = base + m * per_msg;
	n = sendmmsg(f->fd, f->msgs, msgs, flags);
	if (n < 0)
		return -1;
	*sent_msgs = (unsigned)n; /* the zerocopy messages: cut_short's retry goes plain */
	if ((unsigned)n < msgs)
		n = (int)cut_short(f, (unsigned)n);
	for (int m = 0; m < n; m++)
		datagrams += (long)(f->iov[m].iov_len / cfg->size);
	return datagrams;
}

/* A size mix's send call: each message one datagram of the cycle's next size (no GSO: a GSO
 * message has one segment size). Datagrams sent, their bytes in *bytes, or -1 with errno; the
 * cycle moves on by what was sent, so the sizes sent are the cycle's order exactly. */
static long mix_call(struct flow *f, unsigned dgrams, uint64_t send_ns, uint64_t *bytes)
{
	const struct blast_cfg *cfg = f->cfg;
	const uint16_t *cycle = cfg->mix.cycle;
	unsigned pos = f->mix_pos, n = cfg->mix.n;
	uint64_t sum = 0;
	int sent;

	uint64_t be_ns = htobe64(send_ns);

	for (unsigned d = 0; d < dgrams; d++) {
		if (!cfg->raw)
			wire_put_seq_be(f->bufs + (size_t)d * cfg->size, f->sent + d, be_ns);
		f->iov[d].iov_len = cycle[pos];
		pos = pos + 1 == n ? 0 : pos + 1;
	}
	if (dgrams == 1) {
		if (sendto(f->fd, f->bufs, f->iov[0].iov_len, 0, NULL, 0) < 0)
			return -1;
		sent = 1;
	} else if ((sent = sendmmsg(f->fd, f->msgs, dgrams, 0)) < 0)
		return -1;
	else if ((unsigned)sent < dgrams)
		sent = (int)cut_short(f, (unsigned)sent);
	for (int m = 0; m < sent; m++)
		sum += f->iov[m].iov_len;
	f->mix_pos = (unsigned)((f->mix_pos + (unsigned)sent) % n);
	*bytes = sum;
	return sent;
}

static void send_fins(struct flow *f, uint64_t duration_ns)
{
	const struct blast_cfg *cfg = f->cfg;
	/* The send time makes a fin fresh: under a run key it is tagged, and suck believes no fin
	 * sent before it started, nor one older than the runs it has already served. */
	struct wire_hdr h = { .flow = (uint16_t)f->id, .run_id = cfg->run_id, .send_ns = sys_real_ns() };
	struct wire_fin fin = { .sent = f->sent, .bytes = f->bytes, .duration_ns = duration_ns,
				.flows = (uint16_t)cfg->flows, .size = mix_fin_size(cfg) };
	uint8_t buf[WIRE_FIN_LEN];
	uint64_t t0, gap = 1000000;
	size_t len = wire_put_fin(buf, &h, &fin, cfg->key.set ? cfg->key.k : NULL);

	/* The socket's GSO size cuts every send on it, the fin too (gso.c). */
	if (gso_off(f) < 0) {
		sys_error_set(&f->error, "setsockopt UDP_SEGMENT 0 before the fin", errno);
		f->stop = BLAST_STOP_ERROR;
		return;
	}
	t0 = sys_mono_ns();
	/* UDP has no acknowledgement, and at the end of a run the receiver's buffer may still be
	 * full, dropping a single fin. So repeat it with a growing gap, until the receiver is gone
	 * (its closed port answers ECONNREFUSED) or --fin-time has passed. */
	for (;;) {
		if (send(f->fd, buf, len, 0) >= 0)
			f->fins++;
		else if (errno == ECONNREFUSED && f->fins > 0)
			break;
		if (sys_mono_ns() - t0 >= (uint64_t)(f->cfg->fin_time_s * 1e9))
			break;
		struct timespec ts = { .tv_sec = 0, .tv_nsec = (long)gap };
		nanosleep(&ts, NULL);
		gap = gap * 2 < 250000000 ? gap * 2 : 250000000;
	}
}

void flow_fins(struct flow *f, uint64_t duration_ns)
{
	send_fins(f, duration_ns);
}

/* A flow's send loop, written once and compiled for each mode on its own: mixed 1 for a size
 * mix (mix_call), zc 1 for --zerocopy (zc_call from the ring's slot), both 0 for one size
 * (send_call). The callers below pass constants and the function is always inlined, so each
 * mode's loop is compiled for its case alone: the one-size loop is the loop as it was before
 * mixes, instruction for instruction (docs/performance.md says how that was checked), and a mix costs
 * -s N nothing. */
static inline __attribute__((always_inline)) void send_loop(struct flow *f, const int mixed, const int zc)
{
	const struct blast_cfg *cfg = f->cfg;
	unsigned per_call = f->batch * f->segs;
	uint64_t now = sys_mono_ns();
	uint64_t wall = sys_real_ns() - now; /* mono + wall = the epoch time for send stamps */
	uint64_t deadline = f->deadline_ns;

	f->start_ns = f->end_ns = now;
	f->stop = BLAST_STOP_TIME;
	for (;;) {
		unsigned want = per_call;
		long n;

		if (sys_stop) {
			f->stop = BLAST_STOP_SIGNAL;
			break;
		}
		if (deadline && now >= deadline)
			break;
		if (f->quota) {
			if (f->sent >= f->quota) {
				f->stop = BLAST_STOP_COUNT;
				break;
			}
			if (f->quota - f->sent < want)
				want = (unsigned)(f->quota - f->sent);
		}
		if (cfg->rate && (want = rate_take(&f->rate, want, &now)) == 0)
			continue;
		uint64_t mix_bytes = 0;
		if (zc) {
			/* the ring's next slot, once the kernel is done with it (zc.c) */
			int zflags = 0;
			unsigned zmsgs = 0;
			uint8_t *base = zc_take(f, &zflags);
			if (!base)
				break;
			n = zc_call(f, base, want, now + wall, zflags, &zmsgs);
			int e = errno; /* zc_result reads the error queue: the call's errno kept */
			zc_result(f, n, e, zmsgs, zflags);
			errno = e;
		} else
			n = mixed ? mix_call(f, want, now + wall, &mix_bytes) : send_call(f, want, now + wall);
		f->calls++;
		if (n < 0 && gso_refused(f, errno)) {
			/* Nothing of this call left: its sequence numbers go out again, unsegmented. */
			gso_fallback(f, errno);
			shape(f, f->batch);
			per_call = f->batch * f->segs;
		} else if (n < 0) {
			int e = errno;
			if (e != EINTR)
				count_error(f, e);
			if (e != EINTR && e != ECONNREFUSED && e != ENOBUFS && e != EAGAIN && e != ENOMEM) {
				sys_error_set(&f->error, "send", e);
				f->stop = BLAST_STOP_ERROR;
				break;
			}
		} else {
			f->sent += (uint64_t)n;
			f->bytes += mixed ? mix_bytes : (uint64_t)n * cfg->size;
			atomic_store_explicit(&f->progress_sent, f->sent, memory_order_relaxed);
		}
		/* the gap from the end of one send call to the end of the next: what pacing shapes */
		uint64_t prev = f->end_ns;
		f->end_ns = now = sys_mono_ns();
		hist_add(&f->gaps, now - prev);
		if (f->progress_ns && now >= f->progress_ns)
			f->progress_ns = progress_line(now);
	}
	/* The flow's send window, which the rates divide by: until the last send call returned,
	 * and a paced flow also until it stopped, since it spends most of the window asleep (its
	 * last datagram went one interval or more before the deadline or the signal). Stopped by
	 * -n, a paced flow's window ends where its next datagram would have been due. */
	if (cfg->rate) {
		uint64_t until = f->stop == BLAST_STOP_TIME ? deadline : f->stop == BLAST_STOP_SIGNAL ? now :
				 f->stop == BLAST_STOP_COUNT ? rate_due_ns(&f->rate) : f->end_ns;
		if (until > f->end_ns)
			f->end_ns = until;
	}
	if (zc)
		zc_drain(f);
	if (!cfg->raw)
		send_fins(f, f->end_ns - f->start_ns);
}

/* The modes whose loop this is (mode.h): flow_run for one size, flow_run_mix for a size mix,
 * flow_run_zc for --zerocopy. */
static void flow_run(struct flow *f)
{
	send_loop(f, 0, 0);
}

static void flow_run_mix(struct flow *f)
{
	send_loop(f, 1, 0);
}

static void flow_run_zc(struct flow *f)
{
	send_loop(f, 0, 1);
}

const struct send_mode mode_plain = {
	.name = "plain",
	.what = "datagrams of one size: sendto, send of a GSO message, or sendmmsg of -b",
	.socket = 1,
	.setup = flow_setup,
	.run = flow_run,
	.free = flow_free,
};

const struct send_mode mode_mix = {
	.name = "mix",
	.what = "-s as a size mix: sendmmsg of -b datagrams, each the cycle's next size",
	.socket = 1,
	.setup = flow_setup,
	.run = flow_run_mix,
	.free = flow_free,
};

const struct send_mode mode_zerocopy = {
	.name = "zerocopy",
	.what = "--zerocopy: as plain, with MSG_ZEROCOPY from a ring of ZC_SLOTS calls' buffers",
	.socket = 1,
	.setup = flow_setup,
	.run = flow_run_zc,
	.free = flow_free,
};

void flow_sum(const struct flow *fs, unsigned n, struct flow_total *t)
{
	memset(t, 0, sizeof *t);
	t->stop = BLAST_STOP_TIME;
	for (unsigned i = 0; i < n; i++) {
		const struct flow *f = &fs[i];
		t->sent += f->sent;
		t->bytes += f->bytes;
		t->calls += f->calls;
		t->errors += f->errors;
		t->fins += f->fins;
		t->zc_sends += f->zc_sends;
		t->zc_completions += f->zc_completions;
		t->zc_copied += f->zc_copied;
		t->zc_enobufs += f->zc_enobufs;
		t->zc_waits += f->zc_waits;
		t->zc_foreign += f->zc_foreign;
		if (!t->start_ns || f->start_ns < t->start_ns)
			t->start_ns = f->start_ns;
		if (f->end_ns > t->end_ns)
			t->end_ns = f->end_ns;
		if (f->stop > t->stop)
			t->stop = f->stop;
		hist_merge(&t->gaps, &f->gaps);
	}
	/* errors per errno, "EAGAIN:3,ENOBUFS:10"; errnos past the table are "other" */
	for (int e = 0; e < BLAST_ERRNOS; e++) {
		uint64_t count = 0;
		for (unsigned i = 0; i < n; i++)
			count += fs[i].err_by[e];
		if (count) {
			const char *name = e ? strerrorname_np(e) : "other";
			size_t len = strlen(t->detail);
			snprintf(t->detail + len, sizeof t->detail - len, "%s%s:%llu", len ? "," : "",
				 name ? name : "?", (unsigned long long)count);
		}
	}
}
