/* kernel: reading the receiver's kernel work (see kernel.h). Not on any hot path: two reads of
 * /proc per run. */
#include "kernel.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int napi_comm(const char *comm, const char *dev)
{
	char want[40];
	size_t k;

	/* A task's name holds 15 characters: "napi/" and a long DEV are cut, so compare the part
	 * that is there (and at least the "napi/" and one character of DEV). */
	snprintf(want, sizeof want, "napi/%s-", dev);
	k = strlen(comm);
	if (k < 6)
		return 0;
	return strncmp(comm, want, k < strlen(want) ? k : strlen(want)) == 0;
}

static uint64_t schedstat(int pid)
{
	char path[64];
	unsigned long long ns = 0;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/schedstat", pid);
	if (!(f = fopen(path, "r")))
		return 0;
	if (fscanf(f, "%llu", &ns) != 1)
		ns = 0;
	fclose(f);
	return ns;
}

static void find_napi(struct kernel_snap *s, const char *dev)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	char path[300], comm[64];

	if (!d)
		return;
	while ((e = readdir(d)) && s->napi < KERNEL_MAX_NAPI) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof path, "/proc/%s/comm", e->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof comm, f)) {
			comm[strcspn(comm, "\n")] = 0;
			if (napi_comm(comm, dev)) {
				int pid = atoi(e->d_name);
				s->pid[s->napi] = pid;
				s->run_ns[s->napi++] = schedstat(pid);
			}
		}
		fclose(f);
	}
	closedir(d);
}

/* The softirq column of /proc/stat's "cpuN" lines for cpu..cpu+n-1 (modulo the CPU count, as
 * suck pins its threads). */
static void read_softirq(struct kernel_snap *s, int cpu, unsigned n)
{
	char line[512];
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	unsigned found = 0;
	FILE *f = fopen("/proc/stat", "r");

	if (!f || ncpu < 1) {
		if (f)
			fclose(f);
		return;
	}
	if ((long)n > ncpu)
		n = (unsigned)ncpu;
	while (fgets(line, sizeof line, f)) {
		unsigned long long v[7];
		int c;
		if (sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu", &c, &v[0], &v[1], &v[2], &v[3],
			   &v[4], &v[5], &v[6]) != 8)
			continue;
		for (unsigned i = 0; i < n; i++)
			if (c == (int)((cpu + (long)i) % ncpu)) {
				s->softirq_ticks += v[6];
				found++;
			}
	}
	fclose(f);
	s->softirq_ok = found == n;
}

void kernel_snap(struct kernel_snap *s, const char *dev, int cpu, unsigned n)
{
	memset(s, 0, sizeof *s);
	find_napi(s, dev);
	if (cpu >= 0)
		read_softirq(s, cpu, n ? n : 1);
}

void kernel_delta(const struct kernel_snap *a, const struct kernel_snap *b, struct kernel_work *w)
{
	uint64_t ns = 0;
	long hz = sysconf(_SC_CLK_TCK);

	memset(w, 0, sizeof *w);
	w->napi_ok = a->napi > 0;
	w->napi_threads = b->napi > a->napi ? b->napi : a->napi;
	for (unsigned i = 0; i < b->napi; i++) {
		uint64_t before = 0;
		for (unsigned k = 0; k < a->napi; k++)
			if (a->pid[k] == b->pid[i])
				before = a->run_ns[k];
		if (b->run_ns[i] > before)
			ns += b->run_ns[i] - before;
	}
	w->napi_s = (double)ns / 1e9;
	w->softirq_ok = a->softirq_ok && b->softirq_ok && hz > 0;
	if (w->softirq_ok && b->softirq_ticks >= a->softirq_ticks)
		w->softirq_s = (double)(b->softirq_ticks - a->softirq_ticks) / (double)hz;
}
