/* sys: the small operating-system readings both tools need, and how their threads' failed
 * calls are said. */
#include "sys.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

volatile sig_atomic_t sys_stop;

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t sys_mono_ns(void) { return clock_ns(CLOCK_MONOTONIC); }
uint64_t sys_real_ns(void) { return clock_ns(CLOCK_REALTIME); }

static void on_stop(int sig)
{
	(void)sig;
	sys_stop = 1;
}

int sys_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_RESTART: a blocked recvfrom must return EINTR */
	if (sigaction(SIGINT, &sa, NULL) < 0 || sigaction(SIGTERM, &sa, NULL) < 0)
		return -1;
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

int sys_stdio(void)
{
	int rc = 0;

	for (int fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
			if (fd == 1)
				rc = -1;
			if (open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY) < 0)
				rc = -1;
		}
	return rc;
}

void sys_cpu_now(struct sys_cpu *c)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	c->user_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
	c->sys_s = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* The peak resident set of this program's own memory. ru_maxrss would not do: it survives
 * exec, so a tool started by a process that once held 400 MiB reports 400 MiB. VmHWM belongs
 * to the address space, which exec replaces. */
uint64_t sys_rss_kib(void)
{
	char buf[4096];
	struct rusage ru;
	ssize_t n = -1;
	int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		n = read(fd, buf, sizeof buf - 1);
		close(fd);
	}
	if (n > 0) {
		char *p;
		buf[n] = 0;
		if ((p = strstr(buf, "\nVmHWM:")))
			return strtoull(p + 7, NULL, 10);
	}
	getrusage(RUSAGE_SELF, &ru);
	return (uint64_t)ru.ru_maxrss;
}

uint64_t sys_heap_kib(void)
{
	struct mallinfo2 mi = mallinfo2();

	/* uordblks: in use from the arenas; hblkhd: large blocks malloc took with mmap. */
	return (uint64_t)(mi.uordblks + mi.hblkhd) / 1024;
}

int sys_pin(unsigned cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof set, &set);
}

unsigned sys_ncpu(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned)n : 1;
}

void sys_random(void *buf, unsigned long len)
{
	unsigned char *p = buf;

	while (len > 0) {
		ssize_t got = getrandom(p, len, 0);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			/* No getrandom (very old kernel): a clock-seeded xorshift is enough for payloads. */
			uint64_t x = sys_real_ns() ^ (uint64_t)getpid() << 32;
			for (; len > 0; len--) {
				x ^= x << 13; x ^= x >> 7; x ^= x << 17;
				*p++ = (unsigned char)x;
			}
			return;
		}
		p += got;
		len -= (unsigned long)got;
	}
}

int sys_start(void)
{
	if (sys_stdio() < 0) {
		warnx("stdout is closed: the report would be lost (redirect it, to /dev/null if need be)");
		return -1;
	}
	/* Handlers first: a signal from now on gives a report, not a silent death. */
	if (sys_signals() < 0) {
		warn("sigaction");
		return -1;
	}
	return 0;
}

void sys_error_set(struct sys_error *e, const char *call, int err)
{
	e->call = call;
	e->err = err;
}

unsigned sys_error_print(const struct sys_error *const *e, unsigned n, const char *what)
{
	unsigned failed = 0;

	for (unsigned i = 0; i < n; i++) {
		unsigned same = 0, earlier = 0;

		if (!e[i]->call)
			continue;
		failed++;
		for (unsigned k = 0; k < n; k++)
			if (e[k]->call && strcmp(e[k]->call, e[i]->call) == 0 && e[k]->err == e[i]->err) {
				same++;
				earlier += k < i;
			}
		if (earlier)
			continue;
		if (same > 1)
			warnx("%s: %s (%u %s)", e[i]->call, strerror(e[i]->err), same, what);
		else
			warnx("%s: %s", e[i]->call, strerror(e[i]->err));
	}
	return failed;
}
