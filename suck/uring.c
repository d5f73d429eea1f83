/* uring: io_uring with one multishot recvmsg and a provided buffer ring, through the raw
 * system calls and <linux/io_uring.h> (no liburing). One submission keeps receiving: the
 * kernel picks a buffer from the ring for every datagram and posts a completion; suck reaps
 * every completion that is ready, hands each datagram to rx, returns the buffers to the ring
 * and reads the clock once per reap. Where the kernel refuses (no io_uring, io_uring disabled
 * by sysctl, no buffer rings or multishot recvmsg) suck exits 4. */
#include <errno.h>
#include <linux/io_uring.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "variant.h"

#define URING_ENTRIES 64
#define URING_BUFS    256    /* provided buffers: datagrams the kernel may hold for us; when
                                * they run out, data waits in the socket until we re-arm */
#define URING_BGID    7

struct uring_state {
	int ring_fd;
	/* submission ring */
	void *sq_ptr;
	size_t sq_len;
	unsigned *sq_tail, *sq_mask, *sq_array;
	struct io_uring_sqe *sqes;
	size_t sqes_len;
	/* completion ring */
	void *cq_ptr;
	size_t cq_len;
	unsigned *cq_head, *cq_tail, *cq_mask;
	struct io_uring_cqe *cqes;
	/* provided buffers */
	struct io_uring_buf_ring *br;
	size_t br_len;
	uint8_t *bufs;
	size_t buf_len;
	unsigned short br_tail;
	struct msghdr mh;        /* the template for multishot recvmsg: a name, control with --latency */
	size_t head_len;         /* what the kernel writes before the payload in each buffer */
	int armed;
};

static int uring_setup_sys(unsigned entries, struct io_uring_params *p)
{
	return (int)syscall(__NR_io_uring_setup, entries, p);
}

static int uring_enter(int fd, unsigned submit, unsigned wait, unsigned flags, void *arg, size_t argsz)
{
	return (int)syscall(__NR_io_uring_enter, fd, submit, wait, flags, arg, argsz);
}

static int uring_register(int fd, unsigned op, void *arg, unsigned n)
{
	return (int)syscall(__NR_io_uring_register, fd, op, arg, n);
}

static void buf_give(struct uring_state *st, unsigned bid)
{
	struct io_uring_buf *b = &st->br->bufs[st->br_tail & (URING_BUFS - 1)];

	b->addr = (uint64_t)(uintptr_t)(st->bufs + (size_t)bid * st->buf_len);
	b->len = (uint32_t)st->buf_len;
	b->bid = (uint16_t)bid;
	st->br_tail++;
}

static void buf_publish(struct uring_state *st)
{
	__atomic_store_n(&st->br->tail, st->br_tail, __ATOMIC_RELEASE);
}

static int uring_setup(struct rx *rx)
{
	struct uring_state *st = calloc(1, sizeof *st);
	struct io_uring_params p;
	struct io_uring_buf_reg reg;
	int fd;

	rx->priv = st;
	if (!st)
		return -1;
	st->ring_fd = -1;
	/* As the kernel recommends for a ring one thread uses: SINGLE_ISSUER and DEFER_TASKRUN
	 * (completions are posted when this thread asks for them, not by interrupting it). The
	 * ring is set up here, before the threads start, and disabled: the thread that enables it
	 * in uring_run becomes its one submitter. A kernel before 6.1 lacks the flags: a plain
	 * ring, and the report says so (uring_setup). */
	memset(&p, 0, sizeof p);
	p.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_R_DISABLED;
	fd = uring_setup_sys(URING_ENTRIES, &p);
	if (fd < 0 && errno == EINVAL) {
		memset(&p, 0, sizeof p);
		p.flags = IORING_SETUP_R_DISABLED;
		fd = uring_setup_sys(URING_ENTRIES, &p);
	}
	if (fd < 0)
		return errno == ENOMEM ? -1 : VARIANT_UNSUPPORTED;
	rx->mech = p.flags & IORING_SETUP_DEFER_TASKRUN ? "single_issuer,defer_taskrun" : "plain";
	st->ring_fd = fd;
	if (!(p.features & IORING_FEAT_SINGLE_MMAP) || !(p.features & IORING_FEAT_EXT_ARG)) {
		errno = ENOSYS;
		return VARIANT_UNSUPPORTED;
	}
	st->sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned);
	st->cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (st->cq_len > st->sq_len)
		st->sq_len = st->cq_len;
	st->sq_ptr = mmap(NULL, st->sq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd,
			  IORING_OFF_SQ_RING);
	if (st->sq_ptr == MAP_FAILED)
		return -1;
	st->cq_ptr = st->sq_ptr; /* IORING_FEAT_SINGLE_MMAP: one mapping for both rings */
	st->sqes_len = p.sq_entries * sizeof(struct io_uring_sqe);
	st->sqes = mmap(NULL, st->sqes_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd,
			IORING_OFF_SQES);
	if (st->sqes == MAP_FAILED)
		return -1;
	st->sq_tail = (unsigned *)((char *)st->sq_ptr + p.sq_off.tail);
	st->sq_mask = (unsigned *)((char *)st->sq_ptr + p.sq_off.ring_mask);
	st->sq_array = (unsigned *)((char *)st->sq_ptr + p.sq_off.array);
	st->cq_head = (unsigned *)((char *)st->cq_ptr + p.cq_off.head);
	st->cq_tail = (unsigned *)((char *)st->cq_ptr + p.cq_off.tail);
	st->cq_mask = (unsigned *)((char *)st->cq_ptr + p.cq_off.ring_mask);
	st->cqes = (struct io_uring_cqe *)((char *)st->cq_ptr + p.cq_off.cqes);

	/* The buffer ring must be page aligned: mmap gives that. Each buffer holds the
	 * io_uring_recvmsg_out header the kernel writes in front of the payload. */
	st->br_len = URING_BUFS * sizeof(struct io_uring_buf);
	st->br = mmap(NULL, st->br_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (st->br == MAP_FAILED)
		return -1;
	/* Rounded up to a cache line: the kernel writes an io_uring_recvmsg_out (4-byte fields)
	 * and then the source address (RX_NAME_LEN bytes reserved) at the start of every buffer,
	 * so buffers must stay aligned whatever -s is. calloc: the part of the address space the
	 * kernel does not write (past a sockaddr_in) stays zero, as struct rx_name needs. */
	st->mh.msg_namelen = RX_NAME_LEN;
	/* With --latency, --jitter or --gaps the receive stamp, with --marks the marking, come as
	 * control messages, between the address and the payload. */
	st->mh.msg_controllen = (rx->lat || rx->jit || rx->gap ? CMSG_SPACE(sizeof(struct timespec)) : 0) +
				(rx->cfg->marks ? MARK_CTL_LEN : 0);
	st->head_len = sizeof(struct io_uring_recvmsg_out) + RX_NAME_LEN + st->mh.msg_controllen;
	st->buf_len = (st->head_len + rx->cap + 63) & ~(size_t)63;
	st->bufs = calloc(URING_BUFS, st->buf_len);
	if (!st->bufs)
		return -1;
	memset(&reg, 0, sizeof reg);
	reg.ring_addr = (uint64_t)(uintptr_t)st->br;
	reg.ring_entries = URING_BUFS;
	reg.bgid = URING_BGID;
	if (uring_register(fd, IORING_REGISTER_PBUF_RING, &reg, 1) < 0)
		return VARIANT_UNSUPPORTED;
	for (unsigned i = 0; i < URING_BUFS; i++)
		buf_give(st, i);
	buf_publish(st);
	return 0;
}

/* The receive stamp and the marking among the control messages the kernel wrote after the
 * address. */
static void ctl_of(struct rx *rx, const struct uring_state *st, struct io_uring_recvmsg_out *out)
{
	struct msghdr mh = { .msg_control = (uint8_t *)(out + 1) + RX_NAME_LEN,
			     .msg_controllen = out->controllen };

	if (mh.msg_controllen > st->mh.msg_controllen)
		mh.msg_controllen = 0;
	rx_ctl(rx, &mh);
}

/* Queues the multishot recvmsg; it stays armed until the kernel says otherwise. */
static void arm(struct rx *rx, struct uring_state *st)
{
	unsigned tail = *st->sq_tail, idx = tail & *st->sq_mask;
	struct io_uring_sqe *sqe = &st->sqes[idx];

	memset(sqe, 0, sizeof *sqe);
	sqe->opcode = IORING_OP_RECVMSG;
	sqe->fd = rx->fd;
	sqe->addr = (uint64_t)(uintptr_t)&st->mh;
	sqe->len = 1;
	sqe->ioprio = IORING_RECV_MULTISHOT;
	sqe->flags = IOSQE_BUFFER_SELECT;
	sqe->buf_group = URING_BGID;
	sqe->msg_flags = MSG_TRUNC; /* payloadlen is then the datagram's real length */
	st->sq_array[idx] = idx;
	__atomic_store_n(st->sq_tail, tail + 1, __ATOMIC_RELEASE);
	st->armed = 1;
}

static void uring_run(struct rx *rx)
{
	struct uring_state *st = rx->priv;
	struct __kernel_timespec tick = { .tv_sec = 0, .tv_nsec = RX_TICK_MS * 1000000L };
	struct io_uring_getevents_arg ga = { .ts = (uint64_t)(uintptr_t)&tick };
	struct __kernel_timespec zero = { 0, 0 };
	struct io_uring_getevents_arg gz = { .ts = (uint64_t)(uintptr_t)&zero };
	unsigned submit = 0;

	/* This thread, the one that enables the ring, is its submitter (SINGLE_ISSUER). */
	if (uring_register(st->ring_fd, IORING_REGISTER_ENABLE_RINGS, NULL, 0) < 0) {
		rx_recv_failed(rx, errno, "io_uring_register ENABLE_RINGS");
		return;
	}
	while (!rx->done) {
		unsigned head = *st->cq_head, tail, reaped = 0;
		int draining = rx->flags & MSG_DONTWAIT, r;

		if (!st->armed) {
			arm(rx, st);
			submit = 1;
		}
		tail = __atomic_load_n(st->cq_tail, __ATOMIC_ACQUIRE);
		if (head == tail || submit) {
			/* Wait for one completion, at most a tick; while draining, only look. */
			rx->calls++;
			r = uring_enter(st->ring_fd, submit, draining ? 0 : 1,
					IORING_ENTER_GETEVENTS | IORING_ENTER_EXT_ARG,
					draining ? &gz : &ga, sizeof ga);
			if (r < 0 && errno != ETIME && errno != EINTR && errno != EBUSY) {
				rx_recv_failed(rx, errno, "io_uring_enter");
				continue;
			}
			if (r >= 0)
				submit = 0;
			tail = __atomic_load_n(st->cq_tail, __ATOMIC_ACQUIRE);
			if (head == tail) {
				rx_recv_failed(rx, draining ? EAGAIN : EINTR, "io_uring_enter");
				continue;
			}
		}
		for (; head != tail && !rx_cut(rx); head++, reaped++) {
			struct io_uring_cqe *cqe = &st->cqes[head & *st->cq_mask];
			if (!(cqe->flags & IORING_CQE_F_MORE))
				st->armed = 0;
			if (cqe->res < 0) {
				/* ENOBUFS: every buffer was in use; re-arming after this reap is enough. */
				if (cqe->res != -ENOBUFS) {
					rx_recv_failed(rx, -cqe->res, "io_uring recvmsg");
					break;
				}
				continue;
			}
			if (cqe->flags & IORING_CQE_F_BUFFER) {
				unsigned bid = cqe->flags >> IORING_CQE_BUFFER_SHIFT;
				uint8_t *b = st->bufs + (size_t)bid * st->buf_len;
				struct io_uring_recvmsg_out *out = (struct io_uring_recvmsg_out *)b;
				if (rx->ctl)
					ctl_of(rx, st, out);
				rx_datagram(rx, b + st->head_len, out->payloadlen, b + sizeof *out);
				buf_give(st, bid);
			}
		}
		__atomic_store_n(st->cq_head, head, __ATOMIC_RELEASE);
		buf_publish(st);
		if (reaped)
			rx_batch(rx);
	}
}

static void uring_teardown(struct rx *rx)
{
	struct uring_state *st = rx->priv;

	if (!st)
		return;
	if (st->ring_fd >= 0)
		close(st->ring_fd);
	if (st->sqes && st->sqes != MAP_FAILED)
		munmap(st->sqes, st->sqes_len);
	if (st->sq_ptr && st->sq_ptr != MAP_FAILED)
		munmap(st->sq_ptr, st->sq_len);
	if (st->br && st->br != MAP_FAILED)
		munmap(st->br, st->br_len);
	free(st->bufs);
	free(st);
}

const struct variant variant_uring = {
	.name = "uring",
	.what = "io_uring multishot recvmsg with a provided buffer ring",
	.setup = uring_setup,
	.run = uring_run,
	.teardown = uring_teardown,
};
