/* hist: a log-linear histogram of durations (see hist.h). */
#include "hist.h"

static unsigned bucket(uint64_t ns)
{
	unsigned msb;

	if (ns < HIST_SUB)
		return (unsigned)ns;
	msb = 63u - (unsigned)__builtin_clzll(ns);
	/* the top bit picks the power of two, the next five bits the step within it */
	return (msb - 4) * HIST_SUB + (unsigned)((ns >> (msb - 5)) & (HIST_SUB - 1));
}

/* The smallest value that falls in bucket b. */
static uint64_t bucket_value(unsigned b)
{
	unsigned msb;

	if (b < HIST_SUB)
		return b;
	msb = b / HIST_SUB + 4;
	return (1ull << msb) | (uint64_t)(b % HIST_SUB) << (msb - 5);
}

void hist_add(struct hist *g, uint64_t ns)
{
	g->n++;
	g->sum_ns += ns;
	g->count[bucket(ns)]++;
	if (ns > g->max_ns)
		g->max_ns = ns;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	dst->n += src->n;
	dst->sum_ns += src->sum_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		dst->count[i] += src->count[i];
}

uint64_t hist_quantile(const struct hist *g, double q)
{
	uint64_t want = (uint64_t)(q * (double)g->n), seen = 0;

	if (!g->n)
		return 0;
	if (want >= g->n)
		want = g->n - 1;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		seen += g->count[i];
		if (seen > want) {
			uint64_t v = bucket_value(i);
			return v < g->max_ns ? v : g->max_ns;
		}
	}
	return g->max_ns;
}

double hist_mean(const struct hist *g)
{
	return g->n ? (double)g->sum_ns / (double)g->n : 0;
}
