/* sys: clocks, CPU and memory readings, signals and CPU placement. */
#ifndef SYS_H
#define SYS_H
#include <signal.h>
#include <stdint.h>

extern volatile sig_atomic_t sys_stop; /* set by SIGINT/SIGTERM */

uint64_t sys_mono_ns(void);  /* CLOCK_MONOTONIC */
uint64_t sys_real_ns(void);  /* CLOCK_REALTIME, for send times on the wire */

/* SIGINT and SIGTERM set sys_stop, without SA_RESTART so a blocked receive returns EINTR.
 * SIGPIPE is ignored so a closed stdout shows up as a write error we can report. */
int sys_signals(void);

/* Opens /dev/null on any of fds 0..2 that is closed, so that no socket is ever given fd 1
 * and a report written into it; returns -1 when stdout was the closed one. */
int sys_stdio(void);

/* What both tools do first: sys_stdio, then sys_signals; -1 (and a message) when the tool
 * must exit 1. */
int sys_start(void);

struct sys_cpu { double user_s, sys_s; };
void sys_cpu_now(struct sys_cpu *c);          /* the whole process so far */
uint64_t sys_rss_kib(void);                   /* peak resident set since exec (VmHWM) */
uint64_t sys_heap_kib(void);                  /* heap in use now, mallinfo2 */

/* Pins the calling thread to cpu; -1 with errno on failure. */
int sys_pin(unsigned cpu);
unsigned sys_ncpu(void);
/* Random bytes for run ids and payloads (getrandom, falling back to the clock). */
void sys_random(void *buf, unsigned long len);

/* A system call that ended one thread's work (a flow, a receive thread), kept for the main
 * thread to say once the threads are joined. call NULL: none failed. */
struct sys_error {
	const char *call;
	int err;                    /* its errno */
};
void sys_error_set(struct sys_error *e, const char *call, int err);
/* Says each distinct failure among the n once on stderr, "PROG: CALL: errno text", and
 * "(K WHAT)" after it when K of them failed alike; those without one (stopped because of the
 * others) say nothing. Returns how many failed. */
unsigned sys_error_print(const struct sys_error *const *e, unsigned n, const char *what);

#endif
