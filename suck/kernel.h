/* kernel: the receiver's kernel work around a run, for wire mode (suck --rx-dev DEV): the CPU
 * time of the receiving device's threaded-NAPI kernel threads ("napi/DEV-ID", whose poll does
 * GRO, IP, UDP and the enqueue onto suck's socket) and the softirq time of the CPUs suck's
 * threads are pinned to (/proc/stat), both read once before and once after the run. On
 * loopback none of this runs on suck's side (the sender's call does it), so without --rx-dev
 * nothing is read and the report says '-'. */
#ifndef KERNEL_H
#define KERNEL_H
#include <stdint.h>

#define KERNEL_MAX_NAPI 64

struct kernel_snap {
	unsigned napi;                   /* threads found */
	int pid[KERNEL_MAX_NAPI];
	uint64_t run_ns[KERNEL_MAX_NAPI]; /* /proc/PID/schedstat: time on a CPU, ns */
	int softirq_ok;                  /* the CPUs were given and /proc/stat read */
	uint64_t softirq_ticks;          /* summed over the CPUs, USER_HZ ticks */
};

/* Reads the NAPI threads of dev and, when cpu >= 0, the softirq time of CPUs cpu..cpu+n-1. */
void kernel_snap(struct kernel_snap *s, const char *dev, int cpu, unsigned n);

struct kernel_work {
	int napi_ok;                     /* a NAPI thread was there at the start */
	unsigned napi_threads;
	double napi_s;
	int softirq_ok;
	double softirq_s;
};
/* What ran between a and b (threads that came or went are counted from 0 / up to their end). */
void kernel_delta(const struct kernel_snap *a, const struct kernel_snap *b, struct kernel_work *w);

#endif
