/* bare: the least code that makes each system call blast and suck make, so `make perf` can
 * show what the tools cost on top of the kernel, measured in the same run.
 *
 *   bare send -p PORT -s SIZE -t SECS [-b N] [-g SEGS]   sendto, sendmmsg (-b), UDP GSO (-g)
 *   bare recv -p PORT [-n COUNT] [-b N] [-R BYTES]       recvfrom, recvmmsg MSG_WAITFORONE (-b)
 *   bare recv -p PORT --uring [-n COUNT] [-R BYTES]      io_uring multishot recvmsg, buffer ring
 *   bare recv -p PORT --xdp DEV -a ADDR [-n COUNT]       AF_XDP RX ring of DEV's queue 0
 *   bare recv -p PORT --epoll [-b N] [-n COUNT]          epoll_wait, then recvmsg (recvmmsg) to EAGAIN
 *   bare recv -p PORT --pool N [-b N] [--queue SLOTS]    one reader, N workers, suck's ring
 *   bare sink -p PORT [--idle SECS]                      a bound socket nobody reads
 *   bare port                                            a free TCP and UDP port on 127.0.0.1
 *   bare copy -s SIZE -t SECS [--from N] [--cpu N]       the copy-bound rate: memcpy in SIZE pieces
 *
 * Always 127.0.0.1 (but --xdp: -a, on DEV), no headers, no payload work. Like blast, the sender reads CLOCK_MONOTONIC
 * once per call (its time limit needs it); like suck, the receiver reads it once per call with
 * -b and every 64 datagrams without, and its CPU is counted from the listening line on. The
 * report is one tsv line under a header, with blast's and suck's column names.
 * Exit: 0 done, 1 a failed call, 2 bad usage, 4 no UDP GSO (no AF_XDP or native XDP on DEV)
 * in this kernel. The one part not in this file: --xdp's program and socket setup, suck's own
 * (common/xsk.c, common/bpf.c), so that both drain rings set up alike. */
#include <arpa/inet.h>
#include <errno.h>
#include <error.h>
#include <getopt.h>
#include <linux/if_link.h>
#include <linux/io_uring.h>
#include <net/if.h>
#include <linux/sock_diag.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "bpf.h"
#include "xsk.h"

#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103
#endif
#ifndef SO_MEMINFO
#define SO_MEMINFO 55
#endif

#define BARE_BUF 65535      /* receive buffer per datagram, suck's default -s */
#define BARE_STRIDE (65536 + 17 * 64) /* buffer to buffer, as suck lays them out (rx.c) */
#define BARE_FLUSH 64       /* recvfrom: datagrams between clock reads, suck's RX_FLUSH */
#define BARE_IDLE_S 2       /* recv: stop this long after the last datagram */
#define BARE_MAX_BATCH 1024
#define BARE_MAX_SEGS 64

static const char *cfg_mode;
static unsigned cfg_port;
static unsigned cfg_size;
static double cfg_secs;
static unsigned cfg_batch = 1;
static unsigned cfg_segs = 1;
static uint64_t cfg_count;  /* recv: 0 = until idle or a signal */
static int cfg_rcvbuf;      /* recv: SO_RCVBUF, 0 = the kernel's default */
static int cfg_cpu = -1;
static double cfg_idle;     /* sink: 0 = until a signal */
static int cfg_uring;       /* recv: io_uring instead of recvfrom/recvmmsg */
static const char *cfg_xdp; /* recv: AF_XDP on this device instead */
static const char *cfg_addr = "127.0.0.1"; /* recv --xdp: the address the program takes UDP for */
static int cfg_epoll;       /* recv: a non-blocking socket and epoll, level-triggered */
static unsigned cfg_pool;   /* recv: workers that take the reader's batches, 0 = no pool */
static unsigned cfg_queue = 8; /* recv --pool: batches that may wait, suck's --queue */
static int cfg_from = -1;   /* copy: the CPU that writes what is copied; -1 = the copier's own buffer */
static const char *cfg_cpus; /* calib: the CPUs, "0,1"; NULL = the one it runs on */

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void usage(FILE *out)
{
	fprintf(out,
"usage: bare send -p PORT -s SIZE -t SECS [-b N] [-g SEGS] [--cpu N]\n"
"       bare recv -p PORT [-n COUNT] [-b N | --uring] [-R BYTES] [--cpu N]\n"
"       bare recv -p PORT --xdp DEV -a ADDR [-n COUNT] [--cpu N]\n"
"       bare recv -p PORT --epoll | --pool N [--queue SLOTS] [-n COUNT] [-b N] [-R BYTES] [--cpu N]\n"
"       bare sink -p PORT [--idle SECS] [--cpu N]\n"
"       bare port\n"
"       bare copy -s SIZE -t SECS [--from N] [--cpu N]\n"
"       bare calib -n LOOPS | -t SECS [--cpus LIST]\n"
"The least code that makes each system call blast and suck make, on 127.0.0.1.\n"
"  send  sendto per datagram (-b 1), sendmmsg of N (-b N), UDP GSO of SEGS (-g)\n"
"        into a connected socket, for SECS, as fast as possible\n"
"  recv  recvfrom (-b 1) or recvmmsg MSG_WAITFORONE (-b N); stops after COUNT\n"
"        datagrams, %d s after the last one, or on SIGINT/SIGTERM; -p 0 = a free port;\n"
"        -R BYTES sets SO_RCVBUF as suck -R does (past rmem_max as root);\n"
"        --uring: io_uring multishot recvmsg over a provided buffer ring, as suck -m uring\n"
"        --xdp DEV: suck -m xdp's program and AF_XDP socket on DEV's queue 0, for UDP to\n"
"        -a ADDR (an address of DEV) and PORT; every frame counted, none parsed\n"
"        --epoll: non-blocking, epoll_wait, then recvmsg (-b: recvmmsg) until EAGAIN or a\n"
"        short batch, as suck -m epoll; --pool N: recvmmsg -b batches (32) handed to N\n"
"        worker threads through a ring of --queue SLOTS waiting batches (8), as suck -m pool\n"
"  sink  binds the port and reads nothing until SIGINT/SIGTERM, or with --idle\n"
"        until nothing arrived for SECS after something did (its queue and drop\n"
"        counter stop changing): then a sender's next datagram is refused\n"
"  port  prints a port free for TCP and UDP on 127.0.0.1 (for iperf3, sockperf)\n"
"  copy  the copy-bound rate, no socket: memcpy of 64 KiB blocks in SIZE-byte pieces\n"
"        (a datagram's payload each), for SECS; the source is this thread's own buffer\n"
"        (hot in its cache, as blast's payload is when the kernel copies it in), or with\n"
"        --from N blocks a thread on CPU N has just written (as a received datagram is,\n"
"        written by the sender's CPU on loopback); prints bytes, copy_s (the time in\n"
"        memcpy only), gbytes_per_s and ns_per_piece\n"
"  calib a fixed piece of work for scripts/perf to time the CPUs with: LOOPS memcpy of a\n"
"        64 KiB buffer (or as many as fit in SECS), at once on each CPU of LIST (0,1), a\n"
"        thread pinned to each; prints a row per CPU: cpu, loops, wall_ns, cpu_ns (the\n"
"        thread's own CPU time); more wall time than the run's best: the CPU was shared\n"
"  -b 1..%d, -g 1..%d, -s 1..65507, --cpu N pins to CPU N.\n"
"send and recv print a tsv header and one row: sent or received, duration_s, pps,\n"
"user_s, sys_s, cpu_ns_per_pkt (getrusage over the loop), rcvbuf (recv: granted).\n",
		BARE_IDLE_S, BARE_MAX_BATCH, BARE_MAX_SEGS);
}

static void __attribute__((noreturn, format(printf, 1, 2))) bad(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "bare: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(2);
}

static uint64_t num(const char *opt, const char *s, uint64_t min, uint64_t max)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || v < min || v > max)
		bad("%s '%s': a whole number %llu..%llu", opt, s, (unsigned long long)min,
		    (unsigned long long)max);
	return v;
}

static double secs(const char *opt, const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v > 0 && v <= 1e6))
		bad("%s '%s': seconds, more than 0 and at most 1000000", opt, s);
	return v;
}

static void parse_opts(int argc, char **argv)
{
	enum { O_CPU = 256, O_IDLE, O_URING, O_EPOLL, O_POOL, O_QUEUE, O_XDP, O_FROM, O_CPUS };
	static const struct option longs[] = {
		{ "port", required_argument, 0, 'p' }, { "size", required_argument, 0, 's' },
		{ "time", required_argument, 0, 't' }, { "batch", required_argument, 0, 'b' },
		{ "gso", required_argument, 0, 'g' }, { "count", required_argument, 0, 'n' },
		{ "rcvbuf", required_argument, 0, 'R' },
		{ "cpu", required_argument, 0, O_CPU }, { "idle", required_argument, 0, O_IDLE },
		{ "uring", no_argument, 0, O_URING }, { "epoll", no_argument, 0, O_EPOLL },
		{ "xdp", required_argument, 0, O_XDP }, { "addr", required_argument, 0, 'a' },
		{ "pool", required_argument, 0, O_POOL }, { "queue", required_argument, 0, O_QUEUE },
		{ "from", required_argument, 0, O_FROM }, { "cpus", required_argument, 0, O_CPUS },
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 },
	};
	int c, port_set = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(argc < 2 ? stderr : stdout);
		exit(argc < 2 ? 2 : 0);
	}
	cfg_mode = argv[1];
	if (strcmp(cfg_mode, "send") && strcmp(cfg_mode, "recv") && strcmp(cfg_mode, "sink") &&
	    strcmp(cfg_mode, "port") && strcmp(cfg_mode, "copy") && strcmp(cfg_mode, "calib"))
		bad("unknown mode '%s': send, recv, sink, port, copy or calib", cfg_mode);
	opterr = 0;
	optind = 2;
	while ((c = getopt_long(argc, argv, ":p:s:t:b:g:n:R:a:h", longs, NULL)) != -1) {
		switch (c) {
		case 'p': cfg_port = (unsigned)num("-p", optarg, 0, 65535); port_set = 1; break;
		case 's': cfg_size = (unsigned)num("-s", optarg, 1, 65507); break;
		case 't': cfg_secs = secs("-t", optarg); break;
		case 'b': cfg_batch = (unsigned)num("-b", optarg, 1, BARE_MAX_BATCH); break;
		case 'g': cfg_segs = (unsigned)num("-g", optarg, 1, BARE_MAX_SEGS); break;
		case 'n': cfg_count = num("-n", optarg, 0, UINT64_MAX / 2); break;
		case 'R': cfg_rcvbuf = (int)num("-R", optarg, 4096, 1u << 30); break;
		case O_IDLE: cfg_idle = secs("--idle", optarg); break;
		case O_URING: cfg_uring = 1; break;
		case O_XDP: cfg_xdp = optarg; break;
		case 'a': cfg_addr = optarg; break;
		case O_EPOLL: cfg_epoll = 1; break;
		case O_POOL: cfg_pool = (unsigned)num("--pool", optarg, 1, 64); break;
		case O_QUEUE: cfg_queue = (unsigned)num("--queue", optarg, 1, 1024); break;
		case O_CPU: cfg_cpu = (int)num("--cpu", optarg, 0, ncpu > 0 ? (uint64_t)ncpu - 1 : 0); break;
		case O_FROM: cfg_from = (int)num("--from", optarg, 0, ncpu > 0 ? (uint64_t)ncpu - 1 : 0); break;
		case O_CPUS: cfg_cpus = optarg; break;
		case 'h': usage(stdout); exit(0);
		case ':': bad("%s needs a value", argv[optind - 1]);
		default: bad("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		bad("unexpected argument '%s'", argv[optind]);
	if (cfg_uring && (strcmp(cfg_mode, "recv") || cfg_batch > 1))
		bad("--uring is a way to recv, without -b");
	if (cfg_xdp && (strcmp(cfg_mode, "recv") || cfg_batch > 1 || cfg_uring || cfg_epoll || cfg_pool ||
			cfg_rcvbuf))
		bad("--xdp is a way to recv, without -b, --uring, --epoll, --pool or -R");
	if (strcmp(cfg_addr, "127.0.0.1") && !cfg_xdp)
		bad("-a is for recv --xdp; the others are on 127.0.0.1");
	if ((cfg_epoll || cfg_pool) && (strcmp(cfg_mode, "recv") || cfg_uring || (cfg_epoll && cfg_pool)))
		bad("--epoll and --pool are ways to recv, one at a time, not with --uring");
	if (cfg_pool && cfg_batch == 1)
		cfg_batch = 32; /* suck -m pool's default */
	if (cfg_from >= 0 && strcmp(cfg_mode, "copy"))
		bad("--from is for copy");
	if (cfg_cpus && strcmp(cfg_mode, "calib"))
		bad("--cpus is for calib");
	if (!strcmp(cfg_mode, "port"))
		return;
	if (!strcmp(cfg_mode, "calib")) {
		if (!cfg_count == !cfg_secs || cfg_size || port_set || cfg_batch > 1 || cfg_segs > 1 || cfg_rcvbuf ||
		    cfg_uring || cfg_xdp || cfg_epoll || cfg_pool || cfg_cpu >= 0)
			bad("calib takes -n LOOPS or -t SECS, and --cpus LIST only");
		return;
	}
	if (!strcmp(cfg_mode, "copy")) {
		if (!cfg_size || !cfg_secs || port_set || cfg_batch > 1 || cfg_segs > 1 || cfg_count || cfg_rcvbuf ||
		    cfg_uring || cfg_xdp || cfg_epoll || cfg_pool)
			bad("copy takes -s SIZE, -t SECS, --from N and --cpu N only");
		return;
	}
	if (!port_set)
		bad("%s needs -p PORT", cfg_mode);
	if (!strcmp(cfg_mode, "send")) {
		if (!cfg_port || !cfg_size || !cfg_secs)
			bad("send needs -p PORT (not 0), -s SIZE and -t SECS");
		if ((uint64_t)cfg_segs * cfg_size > 65507)
			bad("-g %u with -s %u: a GSO message is at most 65507 bytes", cfg_segs, cfg_size);
	}
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static double cpu_s(int sys)
{
	struct rusage ru;
	struct timeval *tv = sys ? &ru.ru_stime : &ru.ru_utime;

	getrusage(RUSAGE_SELF, &ru);
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

static struct sockaddr_in loopback(unsigned port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return a;
}

/* A UDP socket bound to 127.0.0.1:port, with the receive options of recv set before it is
 * bound (so no datagram arrives before them), the listening line printed once bound. */
static int bound_socket(int recv_opts)
{
	struct sockaddr_in a = loopback(cfg_port);
	struct timeval idle = { .tv_sec = BARE_IDLE_S };
	socklen_t len = sizeof a;
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (fd < 0)
		error(1, errno, "socket");
	/* SO_RCVTIMEO: a blocked receive returns EAGAIN after the idle time, so the loop needs no
	 * clock of its own to notice that the sender is gone. */
	if (recv_opts && setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &idle, sizeof idle) < 0)
		error(1, errno, "setsockopt SO_RCVTIMEO");
	if (recv_opts && cfg_rcvbuf) {
		/* As suck -R: the kernel doubles what it is given, so ask for half; FORCE passes
		 * net.core.rmem_max as root. */
		int half = cfg_rcvbuf / 2;
		if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &half, sizeof half) < 0 &&
		    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &half, sizeof half) < 0)
			error(1, errno, "setsockopt SO_RCVBUF");
	}
	if (bind(fd, (struct sockaddr *)&a, sizeof a) < 0)
		error(1, errno, "bind 127.0.0.1:%u", cfg_port);
	if (getsockname(fd, (struct sockaddr *)&a, &len) < 0)
		error(1, errno, "getsockname");
	fprintf(stderr, "bare: listening on 127.0.0.1:%u\n", ntohs(a.sin_port));
	return fd;
}

static void report(const char *count_key, uint64_t n, uint64_t calls, uint64_t errors,
		   uint64_t t0, uint64_t t1, double u0, double s0, const char *stop_why, int rcvbuf)
{
	double dur = (double)(t1 - t0) / 1e9;
	double user = cpu_s(0) - u0, sys = cpu_s(1) - s0;
	const char *call = !strcmp(cfg_mode, "send") ? (cfg_batch > 1 ? "sendmmsg" : "sendto") :
			   cfg_uring ? "io_uring" : cfg_xdp ? "af_xdp" : cfg_epoll ? (cfg_batch > 1 ? "epoll+recvmmsg" : "epoll+recvmsg") :
			   cfg_pool ? "pool+recvmmsg" : (cfg_batch > 1 ? "recvmmsg" : "recvfrom");

	printf("tool\tmode\tcall\tsize\tbatch\tgso\tstop\t%s\tcalls\terrors\tduration_s\tpps\t"
	       "user_s\tsys_s\tcpu_ns_per_pkt\trcvbuf\n", count_key);
	printf("bare\t%s\t%s\t%u\t%u\t%u\t%s\t%llu\t%llu\t%llu\t%.6f\t%.0f\t%.3f\t%.3f\t%.1f\t%d\n",
	       cfg_mode, call, cfg_size, cfg_batch, cfg_segs, stop_why, (unsigned long long)n,
	       (unsigned long long)calls, (unsigned long long)errors, dur,
	       dur > 0 ? (double)n / dur : 0, user, sys, n ? (user + sys) * 1e9 / (double)n : 0, rcvbuf);
}

static void do_send(void)
{
	struct sockaddr_in to = loopback(cfg_port);
	size_t per_msg = (size_t)cfg_segs * cfg_size;
	struct mmsghdr *msgs = calloc(cfg_batch, sizeof *msgs);
	struct iovec *iov = calloc(cfg_batch, sizeof *iov);
	uint8_t *buf = malloc(cfg_batch * per_msg);
	uint64_t sent = 0, calls = 0, errors = 0, t0, now, deadline;
	double u0, s0;
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (!msgs || !iov || !buf)
		error(1, errno, "malloc");
	if (fd < 0)
		error(1, errno, "socket");
	if (connect(fd, (struct sockaddr *)&to, sizeof to) < 0)
		error(1, errno, "connect 127.0.0.1:%u", cfg_port);
	if (cfg_segs > 1) {
		int seg = (int)cfg_size;
		if (setsockopt(fd, SOL_UDP, UDP_SEGMENT, &seg, sizeof seg) < 0) {
			fprintf(stderr, "bare: setsockopt UDP_SEGMENT: %s (no UDP GSO)\n", strerror(errno));
			exit(4);
		}
	}
	memset(buf, 0xa5, cfg_batch * per_msg);
	for (unsigned m = 0; m < cfg_batch; m++) {
		iov[m].iov_base = buf + m * per_msg;
		iov[m].iov_len = per_msg;
		msgs[m].msg_hdr.msg_iov = &iov[m];
		msgs[m].msg_hdr.msg_iovlen = 1;
	}
	u0 = cpu_s(0);
	s0 = cpu_s(1);
	now = t0 = mono_ns();
	deadline = t0 + (uint64_t)(cfg_secs * 1e9);
	while (!stop && now < deadline) {
		long n;
		if (cfg_batch == 1) {
			n = sendto(fd, buf, per_msg, 0, NULL, 0) < 0 ? -1 : (long)cfg_segs;
		} else {
			int r = sendmmsg(fd, msgs, cfg_batch, 0);
			n = r < 0 ? -1 : (long)r * cfg_segs;
		}
		calls++;
		if (n >= 0)
			sent += (uint64_t)n;
		else if (errno == ENOBUFS || errno == EAGAIN || errno == ECONNREFUSED || errno == ENOMEM)
			errors++;
		else if (errno != EINTR)
			error(1, errno, "%s", cfg_batch == 1 ? "sendto" : "sendmmsg");
		now = mono_ns();
	}
	report("sent", sent, calls, errors, t0, now, u0, s0, stop ? "signal" : "time", 0);
	close(fd);
	free(msgs);
	free(iov);
	free(buf);
}

static void do_recv(void)
{
	struct mmsghdr *msgs = calloc(cfg_batch, sizeof *msgs);
	struct iovec *iov = calloc(cfg_batch, sizeof *iov);
	/* The source of every datagram, as suck asks for it (a flow belongs to its source): the
	 * same system call, so the ratio is what suck's own code adds. */
	struct sockaddr_in6 *from = calloc(cfg_batch, sizeof *from);
	uint8_t *buf = aligned_alloc(4096, ((size_t)cfg_batch * BARE_STRIDE + 4095) & ~(size_t)4095);
	uint64_t got = 0, calls = 0, first = 0, last = 0;
	const char *why = "count";
	unsigned since_clock = 0;
	socklen_t optlen = sizeof(int);
	double u0, s0;
	int fd, rcvbuf;

	if (!msgs || !iov || !buf || !from)
		error(1, errno, "malloc");
	fd = bound_socket(1);
	if (getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, &optlen) < 0)
		error(1, errno, "getsockopt SO_RCVBUF");
	for (unsigned m = 0; m < cfg_batch; m++) {
		iov[m].iov_base = buf + (size_t)m * BARE_STRIDE;
		iov[m].iov_len = BARE_BUF;
		msgs[m].msg_hdr.msg_iov = &iov[m];
		msgs[m].msg_hdr.msg_iovlen = 1;
		msgs[m].msg_hdr.msg_name = &from[m];
		msgs[m].msg_hdr.msg_namelen = sizeof from[m];
	}
	u0 = cpu_s(0);
	s0 = cpu_s(1);
	while (!cfg_count || got < cfg_count) {
		long n;
		if (stop) {
			why = "signal";
			break;
		}
		if (cfg_batch == 1) {
			socklen_t flen = sizeof from[0];
			n = recvfrom(fd, buf, BARE_BUF, 0, (struct sockaddr *)from, &flen) < 0 ? -1 : 1;
		} else {
			/* Never past COUNT, so -n is exact even when more is queued. */
			unsigned vlen = cfg_batch;
			if (cfg_count && cfg_count - got < vlen)
				vlen = (unsigned)(cfg_count - got);
			n = recvmmsg(fd, msgs, vlen, MSG_WAITFORONE, NULL);
		}
		calls++;
		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK) {
				if (got) {
					why = "idle";
					break;
				}
				continue; /* idle before the first datagram: keep waiting */
			}
			if (errno == EINTR)
				continue;
			error(1, errno, "%s", cfg_batch == 1 ? "recvfrom" : "recvmmsg");
		}
		if (!got)
			first = last = mono_ns();
		got += (uint64_t)n;
		if (cfg_batch > 1 || ++since_clock == BARE_FLUSH) {
			since_clock = 0;
			last = mono_ns();
		}
	}
	if (!strcmp(why, "count"))
		last = mono_ns();
	report("received", got, calls, 0, first, last, u0, s0, why, rcvbuf);
	close(fd);
	free(msgs);
	free(iov);
	free(from);
	free(buf);
}

/* recv --uring: one multishot recvmsg over a ring of provided buffers, reaped in batches, the
 * clock read once per reap, as suck -m uring does; the ring set up as the kernel recommends for
 * one thread (SINGLE_ISSUER, DEFER_TASKRUN), plainly where the kernel lacks those flags. */
#define URING_BUFS 256
#define URING_BGID 1

static void do_recv_uring(void)
{
	struct io_uring_params p;
	struct io_uring_buf_reg reg;
	struct io_uring_buf_ring *br;
	struct msghdr mh = { 0 };
	size_t buf_len = (sizeof(struct io_uring_recvmsg_out) + BARE_BUF + 63) & ~(size_t)63;
	uint8_t *bufs = aligned_alloc(4096, URING_BUFS * buf_len), *sq, *cq;
	unsigned *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail, *cq_mask, head;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
	struct __kernel_timespec tick = { .tv_sec = BARE_IDLE_S };
	struct io_uring_getevents_arg ga = { .ts = (uint64_t)(uintptr_t)&tick };
	uint64_t got = 0, calls = 0, first = 0, last = 0;
	unsigned short br_tail = 0;
	const char *why = "count";
	socklen_t optlen = sizeof(int);
	double u0, s0;
	int fd, ring, rcvbuf, armed = 0, submit = 0;

	if (!bufs)
		error(1, errno, "malloc");
	fd = bound_socket(1); /* its SO_RCVTIMEO does not touch io_uring, which has its own wait */
	if (getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, &optlen) < 0)
		error(1, errno, "getsockopt SO_RCVBUF");
	memset(&p, 0, sizeof p);
	p.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
	ring = (int)syscall(__NR_io_uring_setup, 64, &p);
	if (ring < 0 && errno == EINVAL) {
		memset(&p, 0, sizeof p);
		ring = (int)syscall(__NR_io_uring_setup, 64, &p);
	}
	if (ring < 0) {
		fprintf(stderr, "bare: io_uring_setup: %s (no io_uring)\n", strerror(errno));
		exit(4);
	}
	sq = mmap(NULL, p.sq_off.array + p.sq_entries * sizeof(unsigned) + p.cq_off.cqes +
		  p.cq_entries * sizeof(struct io_uring_cqe), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_POPULATE, ring, IORING_OFF_SQ_RING);
	sqes = mmap(NULL, p.sq_entries * sizeof *sqes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		    ring, IORING_OFF_SQES);
	br = mmap(NULL, URING_BUFS * sizeof(struct io_uring_buf), PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (sq == MAP_FAILED || sqes == MAP_FAILED || br == MAP_FAILED)
		error(1, errno, "mmap");
	cq = sq; /* IORING_FEAT_SINGLE_MMAP */
	sq_tail = (unsigned *)(sq + p.sq_off.tail);
	sq_mask = (unsigned *)(sq + p.sq_off.ring_mask);
	sq_array = (unsigned *)(sq + p.sq_off.array);
	cq_head = (unsigned *)(cq + p.cq_off.head);
	cq_tail = (unsigned *)(cq + p.cq_off.tail);
	cq_mask = (unsigned *)(cq + p.cq_off.ring_mask);
	cqes = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
	memset(&reg, 0, sizeof reg);
	reg.ring_addr = (uint64_t)(uintptr_t)br;
	reg.ring_entries = URING_BUFS;
	reg.bgid = URING_BGID;
	if (syscall(__NR_io_uring_register, ring, IORING_REGISTER_PBUF_RING, &reg, 1) < 0) {
		fprintf(stderr, "bare: IORING_REGISTER_PBUF_RING: %s\n", strerror(errno));
		exit(4);
	}
	for (unsigned b = 0; b < URING_BUFS; b++, br_tail++) {
		struct io_uring_buf *e = &br->bufs[br_tail & (URING_BUFS - 1)];
		e->addr = (uint64_t)(uintptr_t)(bufs + b * buf_len);
		e->len = (uint32_t)buf_len;
		e->bid = (uint16_t)b;
	}
	__atomic_store_n(&br->tail, br_tail, __ATOMIC_RELEASE);
	u0 = cpu_s(0);
	s0 = cpu_s(1);
	while (!cfg_count || got < cfg_count) {
		unsigned tail;
		if (stop) {
			why = "signal";
			break;
		}
		if (!armed) {
			unsigned t = *sq_tail, i = t & *sq_mask;
			struct io_uring_sqe *e = &sqes[i];
			memset(e, 0, sizeof *e);
			e->opcode = IORING_OP_RECVMSG;
			e->fd = fd;
			e->addr = (uint64_t)(uintptr_t)&mh;
			e->len = 1;
			e->ioprio = IORING_RECV_MULTISHOT;
			e->flags = IOSQE_BUFFER_SELECT;
			e->buf_group = URING_BGID;
			sq_array[i] = i;
			__atomic_store_n(sq_tail, t + 1, __ATOMIC_RELEASE);
			armed = submit = 1;
		}
		head = *cq_head;
		tail = __atomic_load_n(cq_tail, __ATOMIC_ACQUIRE);
		if (head == tail || submit) {
			int r = (int)syscall(__NR_io_uring_enter, ring, submit, 1,
					     IORING_ENTER_GETEVENTS | IORING_ENTER_EXT_ARG, &ga, sizeof ga);
			calls++;
			if (r < 0 && errno != ETIME && errno != EINTR && errno != EBUSY)
				error(1, errno, "io_uring_enter");
			if (r >= 0)
				submit = 0;
			tail = __atomic_load_n(cq_tail, __ATOMIC_ACQUIRE);
			if (head == tail) {
				if (r < 0 && errno == ETIME && got) {
					why = "idle";
					break;
				}
				continue;
			}
		}
		for (; head != tail; head++) {
			struct io_uring_cqe *c = &cqes[head & *cq_mask];
			if (!(c->flags & IORING_CQE_F_MORE))
				armed = 0;
			if (c->res < 0) {
				if (c->res != -ENOBUFS)
					error(1, -c->res, "io_uring recvmsg");
				continue;
			}
			if (c->flags & IORING_CQE_F_BUFFER) {
				unsigned bid = c->flags >> IORING_CQE_BUFFER_SHIFT;
				struct io_uring_buf *e = &br->bufs[br_tail++ & (URING_BUFS - 1)];
				e->addr = (uint64_t)(uintptr_t)(bufs + bid * buf_len);
				e->len = (uint32_t)buf_len;
				e->bid = (uint16_t)bid;
				got++;
			}
		}
		__atomic_store_n(cq_head, head, __ATOMIC_RELEASE);
		__atomic_store_n(&br->tail, br_tail, __ATOMIC_RELEASE);
		if (!first)
			first = mono_ns();
		last = mono_ns();
	}
	if (!strcmp(why, "count"))
		last = mono_ns();
	report("received", got, calls, 0, first, last, u0, s0, why, rcvbuf);
	close(ring);
	close(fd);
	free(bufs);
}

/* recv --epoll: suck -m epoll's calls with nothing around them. A non-blocking socket,
 * level-triggered; each wakeup reads until EAGAIN, or with -b until a short batch; the clock is
 * read once per wakeup. epoll_wait's timeout is the idle time. */
static void do_recv_epoll(void)
{
	struct mmsghdr *msgs = calloc(cfg_batch, sizeof *msgs);
	struct iovec *iov = calloc(cfg_batch, sizeof *iov);
	struct sockaddr_in6 *from = calloc(cfg_batch, sizeof *from);
	uint8_t *buf = aligned_alloc(4096, ((size_t)cfg_batch * BARE_STRIDE + 4095) & ~(size_t)4095);
	struct epoll_event ev = { .events = EPOLLIN };
	uint64_t got = 0, calls = 0, first = 0, last = 0;
	const char *why = "count";
	socklen_t optlen = sizeof(int);
	double u0, s0;
	int fd, ep, rcvbuf;

	if (!msgs || !iov || !buf || !from)
		error(1, errno, "malloc");
	fd = bound_socket(1);
	if (getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, &optlen) < 0)
		error(1, errno, "getsockopt SO_RCVBUF");
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) < 0)
		error(1, errno, "fcntl O_NONBLOCK");
	ep = epoll_create1(EPOLL_CLOEXEC);
	if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) < 0)
		error(1, errno, "epoll");
	for (unsigned m = 0; m < cfg_batch; m++) {
		iov[m].iov_base = buf + (size_t)m * BARE_STRIDE;
		iov[m].iov_len = BARE_BUF;
		msgs[m].msg_hdr.msg_iov = &iov[m];
		msgs[m].msg_hdr.msg_iovlen = 1;
		msgs[m].msg_hdr.msg_name = &from[m];
		msgs[m].msg_hdr.msg_namelen = sizeof from[m];
	}
	u0 = cpu_s(0);
	s0 = cpu_s(1);
	while (!cfg_count || got < cfg_count) {
		if (stop) {
			why = "signal";
			break;
		}
		int n = epoll_wait(ep, &ev, 1, BARE_IDLE_S * 1000);
		calls++;
		if (n < 0 && errno != EINTR)
			error(1, errno, "epoll_wait");
		if (n == 0 && got) {
			why = "idle";
			break;
		}
		if (n <= 0)
			continue;
		for (;;) {
			int k;
			if (cfg_batch == 1) {
				msgs[0].msg_hdr.msg_namelen = sizeof from[0];
				k = recvmsg(fd, &msgs[0].msg_hdr, 0) < 0 ? -1 : 1;
			} else {
				unsigned vlen = cfg_batch;
				if (cfg_count && cfg_count - got < vlen)
					vlen = (unsigned)(cfg_count - got);
				k = recvmmsg(fd, msgs, vlen, MSG_WAITFORONE, NULL);
			}
			calls++;
			if (k < 0) {
				if (errno == EAGAIN || errno == EWOULDBLOCK)
					break;
				if (errno == EINTR)
					continue;
				error(1, errno, "%s", cfg_batch == 1 ? "recvmsg" : "recvmmsg");
			}
			if (!got)
				first = mono_ns();
			got += (uint64_t)k;
			if ((cfg_count && got >= cfg_count) || (cfg_batch > 1 && (unsigned)k < cfg_batch))
				break;
		}
		last = mono_ns();
	}
	if (!strcmp(why, "count"))
		last = mono_ns();
	report("received", got, calls, 0, first, last, u0, s0, why, rcvbuf);
	close(ep);
	close(fd);
	free(msgs);
	free(iov);
	free(from);
	free(buf);
}

/* recv --pool N: suck -m pool's hand-off with nothing else: the reader (this thread) takes
 * recvmmsg batches into the slots of a ring (--queue waiting, one per worker, the reader's),
 * queues each under one mutex and wakes a sleeping worker; a worker takes the batch and gives
 * the slot back, doing no work (suck -w none). A full queue blocks the reader, as suck's
 * default. The clock is read once per batch, by the reader. */
struct bare_pool {
	pthread_mutex_t mu;
	pthread_cond_t work_cv, space_cv;
	unsigned *queue, head, qlen, *free_slots, nfree, idle, waiting;
	int quit;
};

static void *bare_worker(void *arg)
{
	struct bare_pool *p = arg;
	int slot = -1;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		if (slot >= 0) {
			p->free_slots[p->nfree++] = (unsigned)slot;
			if (p->waiting)
				pthread_cond_signal(&p->space_cv);
		}
		while (!p->qlen && !p->quit) {
			p->idle++;
			pthread_cond_wait(&p->work_cv, &p->mu);
			p->idle--;
		}
		if (!p->qlen)
			break;
		slot = (int)p->queue[p->head];
		p->head = (p->head + 1) % cfg_queue;
		p->qlen--;
		if (p->waiting)
			pthread_cond_signal(&p->space_cv);
		/* the work would be here, outside the lock */
		pthread_mutex_unlock(&p->mu);
		pthread_mutex_lock(&p->mu);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

static void do_recv_pool(void)
{
	unsigned nslots = cfg_queue + cfg_pool + 1, cur;
	size_t per = (size_t)cfg_batch;
	struct mmsghdr *msgs = calloc(nslots * per, sizeof *msgs);
	struct iovec *iov = calloc(nslots * per, sizeof *iov);
	struct sockaddr_in6 *from = calloc(nslots * per, sizeof *from);
	uint8_t *buf = aligned_alloc(4096, (nslots * per * BARE_STRIDE + 4095) & ~(size_t)4095);
	pthread_t *tid = calloc(cfg_pool, sizeof *tid);
	struct bare_pool p = { .quit = 0 };
	uint64_t got = 0, calls = 0, first = 0, last = 0;
	const char *why = "count";
	socklen_t optlen = sizeof(int);
	sigset_t sigs, old;
	double u0, s0;
	int fd, rcvbuf;

	p.queue = calloc(cfg_queue, sizeof *p.queue);
	p.free_slots = calloc(nslots, sizeof *p.free_slots);
	if (!msgs || !iov || !buf || !from || !tid || !p.queue || !p.free_slots)
		error(1, errno, "malloc");
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.work_cv, NULL);
	pthread_cond_init(&p.space_cv, NULL);
	for (size_t m = 0; m < nslots * per; m++) {
		iov[m].iov_base = buf + m * BARE_STRIDE;
		iov[m].iov_len = BARE_BUF;
		msgs[m].msg_hdr.msg_iov = &iov[m];
		msgs[m].msg_hdr.msg_iovlen = 1;
		msgs[m].msg_hdr.msg_name = &from[m];
		msgs[m].msg_hdr.msg_namelen = sizeof from[m];
	}
	for (unsigned i = 0; i < nslots; i++)
		p.free_slots[p.nfree++] = i;
	fd = bound_socket(1);
	if (getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, &optlen) < 0)
		error(1, errno, "getsockopt SO_RCVBUF");
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &sigs, &old);
	for (unsigned i = 0; i < cfg_pool; i++)
		if ((errno = pthread_create(&tid[i], NULL, bare_worker, &p)))
			error(1, errno, "pthread_create");
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	cur = p.free_slots[--p.nfree];
	u0 = cpu_s(0);
	s0 = cpu_s(1);
	while (!cfg_count || got < cfg_count) {
		unsigned vlen = cfg_batch;
		int n;
		if (stop) {
			why = "signal";
			break;
		}
		pthread_mutex_lock(&p.mu);
		while (p.qlen >= cfg_queue) {
			p.waiting = 1;
			pthread_cond_wait(&p.space_cv, &p.mu);
			p.waiting = 0;
		}
		pthread_mutex_unlock(&p.mu);
		if (cfg_count && cfg_count - got < vlen)
			vlen = (unsigned)(cfg_count - got);
		n = recvmmsg(fd, msgs + (size_t)cur * per, vlen, MSG_WAITFORONE, NULL);
		calls++;
		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK) {
				if (got) {
					why = "idle";
					break;
				}
				continue;
			}
			if (errno == EINTR)
				continue;
			error(1, errno, "recvmmsg");
		}
		if (!got)
			first = mono_ns();
		got += (uint64_t)n;
		last = mono_ns();
		pthread_mutex_lock(&p.mu);
		p.queue[(p.head + p.qlen) % cfg_queue] = cur;
		p.qlen++;
		if (p.idle)
			pthread_cond_signal(&p.work_cv);
		cur = p.free_slots[--p.nfree];
		pthread_mutex_unlock(&p.mu);
	}
	pthread_mutex_lock(&p.mu);
	p.quit = 1;
	pthread_cond_broadcast(&p.work_cv);
	pthread_mutex_unlock(&p.mu);
	for (unsigned i = 0; i < cfg_pool; i++)
		pthread_join(tid[i], NULL);
	if (!strcmp(why, "count"))
		last = mono_ns();
	report("received", got, calls, 0, first, last, u0, s0, why, rcvbuf);
	close(fd);
	free(msgs);
	free(iov);
	free(from);
	free(buf);
	free(tid);
	free(p.queue);
	free(p.free_slots);
}

/* recv --xdp DEV: suck -m xdp's program, map and AF_XDP socket (common/xsk.c) on queue 0, a
 * UDP socket bound to ADDR:PORT beside as suck's; the RX ring drained in batches, every frame
 * counted and given back to the fill ring, poll only when the ring is empty, the clock read
 * once per batch. The program goes with the process (a BPF link). */
static void do_recv_xdp(void)
{
	static struct bpf_insn insn[BPF_ASM_MAX];
	static char log[64 * 1024];
	struct addrinfo hints = { .ai_socktype = SOCK_DGRAM, .ai_flags = AI_NUMERICHOST }, *res;
	struct net_addr bound = { .len = sizeof bound.ss };
	struct xsk_match m;
	struct xsk x;
	struct pollfd pfd = { .events = POLLIN };
	uint64_t got = 0, calls = 0, first = 0, last = 0;
	uint32_t cons, prod, key = 0;
	const char *why = "count", *call = "";
	unsigned ifindex = if_nametoindex(cfg_xdp);
	double u0, s0;
	int fd, map, prog = -1, link, n; /* prog: clang cannot see that error(1, ...) does not return */

	if (!ifindex)
		error(2, errno, "--xdp %s", cfg_xdp);
	if (getaddrinfo(cfg_addr, NULL, &hints, &res) != 0)
		bad("-a '%s': a numeric IPv4 or IPv6 address", cfg_addr);
	memcpy(&bound.ss, res->ai_addr, res->ai_addrlen);
	freeaddrinfo(res);
	((struct sockaddr_in *)&bound.ss)->sin_port = htons((uint16_t)cfg_port); /* same place in _in6 */
	if ((fd = socket(bound.ss.ss_family, SOCK_DGRAM, 0)) < 0 ||
	    bind(fd, (struct sockaddr *)&bound.ss, bound.ss.ss_family == AF_INET ? sizeof(struct sockaddr_in) :
		 sizeof(struct sockaddr_in6)) < 0 || getsockname(fd, (struct sockaddr *)&bound.ss, &bound.len) < 0)
		error(1, errno, "bind %s:%u", cfg_addr, cfg_port);
	xsk_match_of(&bound, ifindex, &m);
	if ((map = bpf_map_new(BPF_MAP_TYPE_XSKMAP, 4, 4, 1, "bare_xsks")) < 0)
		error(4, errno, "bpf BPF_MAP_CREATE of an XSKMAP");
	if ((n = xsk_prog(&m, map, 0, insn)) < 0 ||
	    (prog = bpf_prog_new(BPF_PROG_TYPE_XDP, insn, (unsigned)n, "bare_xdp", log, sizeof log)) < 0)
		error(1, errno, "bpf BPF_PROG_LOAD; the verifier's log:\n%s", log);
	if (xsk_open(&x, ifindex, 0, 0, &call) < 0)
		error(errno == EOPNOTSUPP || errno == EPERM || errno == EAFNOSUPPORT ? 4 : 1, errno, "%s", call);
	if (bpf_map_put(map, &key, &x.fd) < 0)
		error(1, errno, "bpf BPF_MAP_UPDATE_ELEM");
	if ((link = bpf_xdp_link(prog, ifindex, XDP_FLAGS_DRV_MODE)) < 0)
		error(errno == EOPNOTSUPP || errno == EINVAL ? 4 : 1, errno, "bpf BPF_LINK_CREATE on %s (native XDP)",
		      cfg_xdp);
	fprintf(stderr, "bare: listening on %s:%u\n", cfg_addr, ntohs(m.port));
	pfd.fd = x.fd;
	cons = *x.rx.consumer;
	prod = *x.fill.producer;
	u0 = cpu_s(0);
	s0 = cpu_s(1);
	while (!cfg_count || got < cfg_count) {
		uint32_t k = __atomic_load_n(x.rx.producer, __ATOMIC_ACQUIRE) - cons;
		if (stop) {
			why = "signal";
			break;
		}
		if (!k) {
			calls++;
			if (poll(&pfd, 1, BARE_IDLE_S * 1000) == 0 && got) {
				why = "idle";
				break;
			}
			continue;
		}
		if (cfg_count && cfg_count - got < k)
			k = (uint32_t)(cfg_count - got);
		for (uint32_t i = 0; i < k; i++)
			((uint64_t *)x.fill.desc)[(prod + i) & x.fill.mask] =
				((const struct xdp_desc *)x.rx.desc)[(cons + i) & x.rx.mask].addr & ~(uint64_t)(XSK_FRAME - 1);
		prod += k;
		cons += k;
		__atomic_store_n(x.fill.producer, prod, __ATOMIC_RELEASE);
		__atomic_store_n(x.rx.consumer, cons, __ATOMIC_RELEASE);
		if (!got)
			first = mono_ns();
		got += k;
		last = mono_ns();
	}
	report("received", got, calls, 0, first, last, u0, s0, why, 0);
	close(link);
	close(prog);
	close(map);
	xsk_close(&x);
	close(fd);
}

/* The queue's memory and the drop counter: while a sender fills the socket, one of them
 * changes with every datagram. */
static uint64_t sink_activity(int fd)
{
	uint32_t mem[SK_MEMINFO_VARS] = { 0 };
	socklen_t len = sizeof mem;

	if (getsockopt(fd, SOL_SOCKET, SO_MEMINFO, mem, &len) < 0)
		error(1, errno, "getsockopt SO_MEMINFO");
	return (uint64_t)mem[SK_MEMINFO_DROPS] << 32 | mem[SK_MEMINFO_RMEM_ALLOC];
}

/* With --idle the sink goes away by itself once the sender has stopped: blast repeats its fin
 * until the port is closed, so this ends blast's run a fraction of a second after its last
 * datagram instead of after blast's 2 s of repeating. */
static void do_sink(void)
{
	int fd = bound_socket(0);
	uint64_t seen = sink_activity(fd), quiet_since = 0;

	while (!stop) {
		if (!cfg_idle) {
			pause();
			continue;
		}
		poll(NULL, 0, 20);
		uint64_t now = mono_ns(), act = sink_activity(fd);
		if (act != seen) {
			seen = act;
			quiet_since = now;
		} else if (quiet_since && now - quiet_since >= (uint64_t)(cfg_idle * 1e9)) {
			break;
		}
	}
	close(fd);
}

/* Binds port 0 for TCP, then checks the same port is free for UDP too (iperf3 uses both). */
static void do_port(void)
{
	for (int tries = 0; tries < 50; tries++) {
		struct sockaddr_in a = loopback(0);
		socklen_t len = sizeof a;
		int t = socket(AF_INET, SOCK_STREAM, 0), u = socket(AF_INET, SOCK_DGRAM, 0);
		if (t < 0 || u < 0)
			error(1, errno, "socket");
		if (bind(t, (struct sockaddr *)&a, sizeof a) < 0 ||
		    getsockname(t, (struct sockaddr *)&a, &len) < 0)
			error(1, errno, "bind 127.0.0.1:0");
		int ok = bind(u, (struct sockaddr *)&a, sizeof a) == 0;
		close(t);
		close(u);
		if (ok) {
			printf("%u\n", ntohs(a.sin_port));
			return;
		}
	}
	error(1, 0, "no port free for both TCP and UDP after 50 tries");
}

/* copy: blocks of BARE_COPY_BLOCK bytes in a ring; a slot is either the writer's to fill or the
 * copier's to read, handed over with release/acquire, so every byte the copier reads was last
 * written by the other CPU (--from) and sits in its cache. */
#define BARE_COPY_BLOCK 65536
#define BARE_COPY_SLOTS 4

static struct {
	_Alignas(64) uint8_t buf[BARE_COPY_SLOTS][BARE_COPY_BLOCK];
	_Alignas(64) _Atomic int full[BARE_COPY_SLOTS];
	_Atomic int done;
} ring;

static void *copy_writer(void *arg)
{
	cpu_set_t set;
	uint8_t v = 1;

	(void)arg;
	CPU_ZERO(&set);
	CPU_SET(cfg_from, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof set, &set) != 0)
		fprintf(stderr, "bare: warning: pinning the writer to CPU %d failed\n", cfg_from);
	for (unsigned k = 0; !atomic_load_explicit(&ring.done, memory_order_relaxed); k = (k + 1) % BARE_COPY_SLOTS) {
		while (atomic_load_explicit(&ring.full[k], memory_order_acquire))
			if (atomic_load_explicit(&ring.done, memory_order_relaxed))
				return NULL;
		memset(ring.buf[k], v++, BARE_COPY_BLOCK);
		atomic_store_explicit(&ring.full[k], 1, memory_order_release);
	}
	return NULL;
}

static void do_copy(void)
{
	static uint8_t own[BARE_COPY_BLOCK], dst[BARE_COPY_BLOCK];
	size_t piece = cfg_size < BARE_COPY_BLOCK ? cfg_size : BARE_COPY_BLOCK;
	size_t per_block = BARE_COPY_BLOCK / piece * piece;
	uint64_t bytes = 0, pieces = 0, copy_ns = 0, end;
	pthread_t writer;
	unsigned k = 0;

	memset(own, 7, sizeof own);
	if (cfg_from >= 0 && (errno = pthread_create(&writer, NULL, copy_writer, NULL)) != 0)
		error(1, errno, "pthread_create");
	end = mono_ns() + (uint64_t)(cfg_secs * 1e9);
	while (!stop) {
		const uint8_t *src = own;
		if (cfg_from >= 0) {
			while (!atomic_load_explicit(&ring.full[k], memory_order_acquire) && !stop)
				;
			src = ring.buf[k];
		}
		uint64_t t0 = mono_ns();
		for (size_t off = 0; off < per_block; off += piece)
			memcpy(dst + off, src + off, piece);
		uint64_t t1 = mono_ns();
		/* keep the copy: the compiler may not drop a memcpy whose result is read */
		__asm__ volatile("" : : "r"(dst) : "memory");
		copy_ns += t1 - t0;
		bytes += per_block;
		pieces += per_block / piece;
		if (cfg_from >= 0) {
			atomic_store_explicit(&ring.full[k], 0, memory_order_release);
			k = (k + 1) % BARE_COPY_SLOTS;
		}
		if (t1 >= end)
			break;
	}
	if (cfg_from >= 0) {
		atomic_store(&ring.done, 1);
		pthread_join(writer, NULL);
	}
	printf("mode\tsize\tfrom\tbytes\tcopy_s\tgbytes_per_s\tns_per_piece\n");
	printf("copy\t%u\t%s\t%llu\t%.6f\t%.3f\t%.2f\n", cfg_size, cfg_from >= 0 ? "other" : "own",
	       (unsigned long long)bytes, (double)copy_ns / 1e9, copy_ns ? (double)bytes / (double)copy_ns : 0.0,
	       pieces ? (double)copy_ns / (double)pieces : 0.0);
}

/* calib: the same piece of work on each CPU of --cpus at once, one pinned thread each, started
 * together so that each CPU's figure is taken in the same moment. The work is memcpy of a
 * buffer that stays in the cache, so its time is the CPU's availability (a process beside it, a
 * hypervisor's steal) more than the memory's; scripts/perf compares it with its run's best. */
#define BARE_CALIB_BUF 65536
#define BARE_MAX_CALIB 64

struct calib {
	int cpu;
	uint64_t loops, wall_ns, cpu_ns;
	pthread_t tid;
};

static pthread_barrier_t calib_start;

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void *calib_thread(void *arg)
{
	static _Thread_local uint8_t src[BARE_CALIB_BUF], dst[BARE_CALIB_BUF];
	struct calib *c = arg;
	uint64_t t0, c0, end, n = 0;

	if (c->cpu >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(c->cpu, &set);
		if ((errno = pthread_setaffinity_np(pthread_self(), sizeof set, &set)) != 0)
			error(1, errno, "pinning calib's thread to CPU %d", c->cpu);
	}
	memset(src, 7, sizeof src);
	memcpy(dst, src, sizeof dst); /* both buffers in the cache before the clock starts */
	pthread_barrier_wait(&calib_start);
	t0 = mono_ns();
	c0 = thread_cpu_ns();
	end = t0 + (uint64_t)(cfg_secs * 1e9);
	while (!stop && (cfg_count ? n < cfg_count : mono_ns() < end)) {
		memcpy(dst, src, sizeof dst);
		/* keep the copy: the compiler may not drop a memcpy whose result is read */
		__asm__ volatile("" : : "r"(dst) : "memory");
		n++;
	}
	c->wall_ns = mono_ns() - t0;
	c->cpu_ns = thread_cpu_ns() - c0;
	c->loops = n;
	return NULL;
}

static void do_calib(void)
{
	static struct calib c[BARE_MAX_CALIB];
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned n = 0;

	if (!cfg_cpus) {
		c[n++].cpu = -1;
	} else {
		char *list = strdup(cfg_cpus), *save = NULL, *w;
		if (!list)
			error(1, errno, "strdup");
		for (w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
			if (n == BARE_MAX_CALIB)
				bad("--cpus '%s': at most %d CPUs", cfg_cpus, BARE_MAX_CALIB);
			c[n++].cpu = (int)num("--cpus", w, 0, ncpu > 0 ? (uint64_t)ncpu - 1 : 0);
		}
		free(list);
		if (!n)
			bad("--cpus '%s': a list of CPUs, as 0,1", cfg_cpus);
	}
	if ((errno = pthread_barrier_init(&calib_start, NULL, n)) != 0)
		error(1, errno, "pthread_barrier_init");
	for (unsigned i = 0; i < n; i++)
		if ((errno = pthread_create(&c[i].tid, NULL, calib_thread, &c[i])) != 0)
			error(1, errno, "pthread_create");
	for (unsigned i = 0; i < n; i++)
		pthread_join(c[i].tid, NULL);
	printf("cpu\tloops\twall_ns\tcpu_ns\n");
	for (unsigned i = 0; i < n; i++) {
		if (c[i].cpu < 0)
			printf("-");
		else
			printf("%d", c[i].cpu);
		printf("\t%llu\t%llu\t%llu\n", (unsigned long long)c[i].loops, (unsigned long long)c[i].wall_ns,
		       (unsigned long long)c[i].cpu_ns);
	}
}


int main(int argc, char **argv)
{
	struct sigaction sa;

	parse_opts(argc, argv);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a blocked receive, or pause(), returns at once on SIGINT/SIGTERM. */
	if (sigaction(SIGINT, &sa, NULL) < 0 || sigaction(SIGTERM, &sa, NULL) < 0)
		error(1, errno, "sigaction");
	if (cfg_cpu >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(cfg_cpu, &set);
		if (sched_setaffinity(0, sizeof set, &set) < 0)
			fprintf(stderr, "bare: warning: sched_setaffinity: %s\n", strerror(errno));
	}
	if (!strcmp(cfg_mode, "send"))
		do_send();
	else if (!strcmp(cfg_mode, "recv") && cfg_uring)
		do_recv_uring();
	else if (!strcmp(cfg_mode, "recv") && cfg_xdp)
		do_recv_xdp();
	else if (!strcmp(cfg_mode, "recv") && cfg_epoll)
		do_recv_epoll();
	else if (!strcmp(cfg_mode, "recv") && cfg_pool)
		do_recv_pool();
	else if (!strcmp(cfg_mode, "recv"))
		do_recv();
	else if (!strcmp(cfg_mode, "sink"))
		do_sink();
	else if (!strcmp(cfg_mode, "copy"))
		do_copy();
	else if (!strcmp(cfg_mode, "calib"))
		do_calib();
	else
		do_port();
	if (fflush(stdout) != 0)
		error(1, errno, "writing the report");
	return 0;
}
