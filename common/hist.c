/* gaps: the gaps between send calls in a log-linear histogram (blast's gap_p50_us, gap_p99_us,
 * gap_max_us): 32 steps per power of two, so a percentile is exact to about 3 %, and recording
 * is a count-leading-zeros and an increment, cheap enough for every send call. */
#include "blast.h"

static unsigned gap_bucket(uint64_t ns)
{
	unsigned msb;

	if (ns < GAP_SUB)
		return (unsigned)ns;
	msb = 63u - (unsigned)__builtin_clzll(ns);
	/* the top bit picks the power of two, the next five bits the step within it */
	return (msb - 4) * GAP_SUB + (unsigned)((ns >> (msb - 5)) & (GAP_SUB - 1));
}

/* The smallest value that falls in bucket b. */
static uint64_t gap_value(unsigned b)
{
	unsigned msb;

	if (b < GAP_SUB)
		return b;
	msb = b / GAP_SUB + 4;
	return (1ull << msb) | (uint64_t)(b % GAP_SUB) << (msb - 5);
}

void gaps_add(struct gaps *g, uint64_t ns)
{
	g->n++;
	g->count[gap_bucket(ns)]++;
	if (ns > g->max_ns)
		g->max_ns = ns;
}

void gaps_merge(struct gaps *dst, const struct gaps *src)
{
	dst->n += src->n;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	for (unsigned i = 0; i < GAP_BUCKETS; i++)
		dst->count[i] += src->count[i];
}

uint64_t gaps_quantile(const struct gaps *g, double q)
{
	uint64_t want = (uint64_t)(q * (double)g->n), seen = 0;

	if (!g->n)
		return 0;
	if (want >= g->n)
		want = g->n - 1;
	for (unsigned i = 0; i < GAP_BUCKETS; i++) {
		seen += g->count[i];
		if (seen > want) {
			uint64_t v = gap_value(i);
			return v < g->max_ns ? v : g->max_ns;
		}
	}
	return g->max_ns;
}
