/* bare: the least code that makes each system call blast and suck make, so `make perf` can
 * show what the tools cost on top of the kernel, measured in the same run.
 *
 *   bare send -p PORT -s SIZE -t SECS [-b N] [-g SEGS]   sendto, sendmmsg (-b), UDP GSO (-g)
 *   bare recv -p PORT [-n COUNT] [-b N] [-R BYTES]       recvfrom, recvmmsg MSG_WAITFORONE (-b)
 *   bare sink -p PORT [--idle SECS]                      a bound socket nobody reads
 *   bare port                                            a free TCP and UDP port on 127.0.0.1
 *
 * Always 127.0.0.1, no headers, no payload work. Like blast, the sender reads CLOCK_MONOTONIC
 * once per call (its time limit needs it); like suck, the receiver reads it once per call with
 * -b and every 64 datagrams without, and its CPU is counted from the listening line on. The
 * report is one tsv line under a header, with blast's and suck's column names.
 * Exit: 0 done, 1 a failed call, 2 bad usage, 4 no UDP GSO in this kernel. */
#include <arpa/inet.h>
#include <errno.h>
#include <error.h>
#include <getopt.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

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
"       bare recv -p PORT [-n COUNT] [-b N] [-R BYTES] [--cpu N]\n"
"       bare sink -p PORT [--idle SECS] [--cpu N]\n"
"       bare port\n"
"The least code that makes each system call blast and suck make, on 127.0.0.1.\n"
"  send  sendto per datagram (-b 1), sendmmsg of N (-b N), UDP GSO of SEGS (-g)\n"
"        into a connected socket, for SECS, as fast as possible\n"
"  recv  recvfrom (-b 1) or recvmmsg MSG_WAITFORONE (-b N); stops after COUNT\n"
"        datagrams, %d s after the last one, or on SIGINT/SIGTERM; -p 0 = a free port;\n"
"        -R BYTES sets SO_RCVBUF as suck -R does (past rmem_max as root)\n"
"  sink  binds the port and reads nothing until SIGINT/SIGTERM, or with --idle\n"
"        until nothing arrived for SECS after something did (its queue and drop\n"
"        counter stop changing): then a sender's next datagram is refused\n"
"  port  prints a port free for TCP and UDP on 127.0.0.1 (for iperf3, sockperf)\n"
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
	enum { O_CPU = 256, O_IDLE };
	static const struct option longs[] = {
		{ "port", required_argument, 0, 'p' }, { "size", required_argument, 0, 's' },
		{ "time", required_argument, 0, 't' }, { "batch", required_argument, 0, 'b' },
		{ "gso", required_argument, 0, 'g' }, { "count", required_argument, 0, 'n' },
		{ "rcvbuf", required_argument, 0, 'R' },
		{ "cpu", required_argument, 0, O_CPU }, { "idle", required_argument, 0, O_IDLE },
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
	    strcmp(cfg_mode, "port"))
		bad("unknown mode '%s': send, recv, sink or port", cfg_mode);
	opterr = 0;
	optind = 2;
	while ((c = getopt_long(argc, argv, ":p:s:t:b:g:n:R:h", longs, NULL)) != -1) {
		switch (c) {
		case 'p': cfg_port = (unsigned)num("-p", optarg, 0, 65535); port_set = 1; break;
		case 's': cfg_size = (unsigned)num("-s", optarg, 1, 65507); break;
		case 't': cfg_secs = secs("-t", optarg); break;
		case 'b': cfg_batch = (unsigned)num("-b", optarg, 1, BARE_MAX_BATCH); break;
		case 'g': cfg_segs = (unsigned)num("-g", optarg, 1, BARE_MAX_SEGS); break;
		case 'n': cfg_count = num("-n", optarg, 0, UINT64_MAX / 2); break;
		case 'R': cfg_rcvbuf = (int)num("-R", optarg, 4096, 1u << 30); break;
		case O_IDLE: cfg_idle = secs("--idle", optarg); break;
		case O_CPU: cfg_cpu = (int)num("--cpu", optarg, 0, ncpu > 0 ? (uint64_t)ncpu - 1 : 0); break;
		case 'h': usage(stdout); exit(0);
		case ':': bad("%s needs a value", argv[optind - 1]);
		default: bad("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		bad("unexpected argument '%s'", argv[optind]);
	if (!strcmp(cfg_mode, "port"))
		return;
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
	const char *call = !strcmp(cfg_mode, "send") ?
		(cfg_batch > 1 ? "sendmmsg" : "sendto") : (cfg_batch > 1 ? "recvmmsg" : "recvfrom");

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
	uint8_t *buf = aligned_alloc(4096, ((size_t)cfg_batch * BARE_STRIDE + 4095) & ~(size_t)4095);
	uint64_t got = 0, calls = 0, first = 0, last = 0;
	const char *why = "count";
	unsigned since_clock = 0;
	socklen_t optlen = sizeof(int);
	double u0, s0;
	int fd, rcvbuf;

	if (!msgs || !iov || !buf)
		error(1, errno, "malloc");
	fd = bound_socket(1);
	if (getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, &optlen) < 0)
		error(1, errno, "getsockopt SO_RCVBUF");
	for (unsigned m = 0; m < cfg_batch; m++) {
		iov[m].iov_base = buf + (size_t)m * BARE_STRIDE;
		iov[m].iov_len = BARE_BUF;
		msgs[m].msg_hdr.msg_iov = &iov[m];
		msgs[m].msg_hdr.msg_iovlen = 1;
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
			n = recvfrom(fd, buf, BARE_BUF, 0, NULL, NULL) < 0 ? -1 : 1;
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
	free(buf);
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
	else if (!strcmp(cfg_mode, "recv"))
		do_recv();
	else if (!strcmp(cfg_mode, "sink"))
		do_sink();
	else
		do_port();
	if (fflush(stdout) != 0)
		error(1, errno, "writing the report");
	return 0;
}
