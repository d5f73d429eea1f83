/* gaps: gaps between a flow's datagrams, their mean, variation and percentiles (see gaps.h). */
#include "gaps.h"

#include <string.h>

void gaps_sum_merge(struct gaps_sum *dst, const struct gaps_sum *src)
{
	dst->n += src->n;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
}

double gaps_mean(const struct gaps_sum *s)
{
	return s->n ? (double)s->sum / (double)s->n : 0;
}

double gaps_sqrt(double x)
{
	uint64_t b;
	double y;

	if (!(x > 0))
		return 0;
	/* The exponent halved: a start within 6 %, then Newton, quadratic, to the last bits. */
	memcpy(&b, &x, sizeof b);
	b = (b >> 1) + (1023ull << 51);
	memcpy(&y, &b, sizeof y);
	for (int i = 0; i < 100; i++) {
		double next = (y + x / y) / 2;
		if (next == y)
			break;
		y = next;
	}
	return y;
}

double gaps_cv(const struct gaps_sum *s)
{
	long double n, mean, var;

	if (s->n < 2 || !s->sum)
		return -1;
	/* long double: an even stream's variance is a tiny difference of two large numbers */
	n = (long double)s->n;
	mean = (long double)s->sum / n;
	var = (long double)s->sumsq / n - mean * mean;
	if (var < 0)
		var = 0;
	return gaps_sqrt((double)(var / (mean * mean)));
}

void gaps_add(struct gaps *g, unsigned flow, uint64_t at_ns)
{
	uint64_t last = g->last[flow], d;

	g->last[flow] = at_ns;
	if (!last)
		return;
	d = at_ns > last ? at_ns - last : 0;
	if (d > GAPS_MAX_NS)
		d = GAPS_MAX_NS;
	gaps_sum_add(&g->sum, d);
	hist_add(&g->hist, d);
}

void gaps_merge(struct gaps *dst, const struct gaps *src)
{
	for (unsigned i = 0; i < WIRE_MAX_FLOWS; i++)
		if (src->last[i] > dst->last[i])
			dst->last[i] = src->last[i];
	gaps_sum_merge(&dst->sum, &src->sum);
	hist_merge(&dst->hist, &src->hist);
}
