/* pattern: --pattern, the shape of a paced run's schedule; -r stays its mean rate. even is
 * rate.c's arithmetic schedule, as before patterns. The others are events drawn one after the
 * other, per flow, as the last one is sent (rate.c asks once per send call): poisson, one
 * datagram after an exponential gap (flows independent, so their sum is Poisson at -r too);
 * burst:N, N datagrams back to back every N / -r seconds, the flows' bursts interleaved;
 * frames:FPS:MEAN:SD, FPS frames a second over the flows (frame j on flow j mod -j), each of a
 * normally distributed size in bytes cut into datagrams of -s, back to back.
 * Pitfalls: the generator's seed is fixed (per flow), so the same command line draws the same
 * schedule, run after run; no libm (the logarithm and the square root are computed here and in
 * gaps.c); a draw costs a few multiplications, and a stall's skip (rate.c) is not a draw, so
 * the schedule's figures (sched.drawn) are of the gaps drawn. */
#include <stdio.h>
#include <string.h>

#include "blast.h"
#include "opt.h"

static const char *const kind_names[] = { "even", "poisson", "burst", "frames", NULL };

uint64_t pattern_rand(uint64_t *x)
{
	/* xorshift64* (Vigna): a 64-bit state, never 0, its top bits good enough for timing */
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return *x * 0x2545f4914f6cdd1dull;
}

/* Uniform in (0, 1]: 53 bits, never 0, so that its logarithm is finite. */
static double uniform(uint64_t *x)
{
	return (double)((pattern_rand(x) >> 11) + 1) * 0x1p-53;
}

double pattern_ln(double x)
{
	static const double ln2 = 0.69314718055994530942;
	uint64_t b;
	double m, z, z2, s;
	int e;

	/* x = m 2^e with m in [sqrt(1/2), sqrt(2)); ln m = 2 atanh z, z = (m - 1) / (m + 1), so
	 * |z| < 0.172 and the series' terms (z^2 < 0.03) are below 1e-16 after ten */
	memcpy(&b, &x, sizeof b);
	e = (int)((b >> 52) & 0x7ff) - 1023;
	b = (b & 0x000fffffffffffffull) | 0x3ff0000000000000ull;
	memcpy(&m, &b, sizeof m);
	if (m > 1.41421356237309504880) {
		m /= 2;
		e++;
	}
	z = (m - 1) / (m + 1);
	z2 = z * z;
	s = 1.0 / 21;
	for (int k = 9; k >= 0; k--)
		s = 1.0 / (2 * k + 1) + z2 * s;
	return e * ln2 + 2 * z * s;
}

double pattern_exp(uint64_t *x)
{
	return -pattern_ln(uniform(x));
}

double pattern_normal(uint64_t *x)
{
	double u, v, s;

	/* Marsaglia's polar method: a point in the unit disc, no sine or cosine */
	do {
		u = 2 * uniform(x) - 1;
		v = 2 * uniform(x) - 1;
		s = u * u + v * v;
	} while (s >= 1 || s == 0);
	return u * gaps_sqrt(-2 * pattern_ln(s) / s);
}

/* A frame's datagrams: its size drawn, at least a byte, cut into datagrams of dsize, the last
 * one padded (every datagram of a run is one size). */
static unsigned frame_draw(const struct blast_pattern *p, unsigned dsize, uint64_t *x)
{
	double bytes = (double)p->mean + (p->sd ? (double)p->sd * pattern_normal(x) : 0);
	uint64_t b = bytes < 1 ? 1 : (uint64_t)(bytes + 0.5), d = (b + dsize - 1) / dsize;

	return d > (1u << 31) ? 1u << 31 : (unsigned)d;
}

double pattern_frame_dgrams(const struct blast_pattern *p, unsigned size)
{
	uint64_t x = 0x243f6a8885a308d3ull, sum = 0;
	unsigned n = p->sd ? 65536 : 1;

	for (unsigned i = 0; i < n; i++)
		sum += frame_draw(p, size, &x);
	return (double)sum / n;
}

/* The next event's datagrams, and its gap from the last event into the schedule's figures. */
static void event(struct sched *s, uint64_t prev, int first)
{
	switch (s->kind) {
	case PATTERN_POISSON:
		s->size = 1;
		break;
	case PATTERN_BURST:
		s->size = s->p->burst;
		break;
	case PATTERN_FRAMES:
		s->size = frame_draw(s->p, s->dsize, &s->x);
		break;
	}
	s->left = s->size;
	if (!first)
		gaps_sum_add(&s->drawn, s->due - prev);
	s->drawn.n += s->size - 1; /* back to back: gaps of 0 */
}

void pattern_next(struct sched *s)
{
	uint64_t prev = s->due;

	if (s->kind == PATTERN_POISSON)
		s->due += (uint64_t)(s->period * pattern_exp(&s->x) + 0.5);
	else
		s->due = s->t0 + (uint64_t)((double)++s->k * s->period);
	event(s, prev, 0);
}

void pattern_init(struct sched *s, const struct blast_pattern *p, double pps, unsigned flows, unsigned phase,
		  unsigned size, uint64_t t0)
{
	/* splitmix64 of the flow's number: a seed per flow, never 0 */
	uint64_t z = 0x9e3779b97f4a7c15ull * (phase + 1);

	memset(s, 0, sizeof *s);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	s->x = (z ^ (z >> 31)) | 1;
	s->kind = p->kind;
	s->p = p;
	s->dsize = size;
	switch (p->kind) {
	case PATTERN_POISSON:
		/* a Poisson process from t0 on: its first event after a gap of its own */
		s->period = flows * 1e9 / pps;
		s->due = t0 + (uint64_t)(s->period * pattern_exp(&s->x) + 0.5);
		break;
	case PATTERN_BURST:
		/* the run's bursts N / pps apart, flow i taking i, i + flows, ... as even does */
		s->period = (double)flows * p->burst * 1e9 / pps;
		s->t0 = s->due = t0 + (uint64_t)((double)phase * p->burst * 1e9 / pps);
		break;
	case PATTERN_FRAMES:
		s->period = (double)flows * 1e9 / (double)p->fps;
		s->t0 = s->due = t0 + (uint64_t)((double)phase * 1e9 / (double)p->fps);
		break;
	default:
		return;
	}
	event(s, 0, 1);
}

const char *pattern_plan(struct blast_cfg *cfg, int *batch_set)
{
	static char why[160];
	struct blast_pattern *p = &cfg->pattern;
	unsigned segs = cfg->segs ? cfg->segs : 1; /* 0: automatic, which a paced run makes 1 */
	uint64_t d;

	if (p->kind == PATTERN_EVEN)
		return NULL;
	if (cfg->rtt)
		return " with --rtt: a round trip is one request per send call, unpaced";
	if (p->kind == PATTERN_FRAMES) {
		double rate;
		/* a frame's bytes cut into datagrams of one size; the frames set the rate */
		if (cfg->mix.n)
			return " with a size mix: a frame is cut into datagrams of -s; give -s N";
		if (cfg->rate)
			return " with -r: the frames set the rate (FPS x the datagrams of a frame); drop -r";
		p->frame_dgrams = pattern_frame_dgrams(p, cfg->size);
		rate = (double)p->fps * p->frame_dgrams;
		if (rate > 1e9) {
			snprintf(why, sizeof why, " with -s %u: %.0f datagrams a second, above 1G", cfg->size, rate);
			return why;
		}
		cfg->rate = (uint64_t)(rate + 0.5);
	}
	if (!cfg->rate)
		return " needs -r: its mean rate";
	if (*batch_set || p->kind == PATTERN_POISSON)
		return NULL;
	/* a burst, or a frame of MEAN + 3 SD bytes, in one send call */
	d = p->kind == PATTERN_BURST ? p->burst : (p->mean + 3 * p->sd + cfg->size - 1) / cfg->size;
	d = (d + segs - 1) / segs;
	if (d > cfg->batch)
		cfg->batch = d < BLAST_MAX_BATCH ? (unsigned)d : BLAST_MAX_BATCH;
	*batch_set = 1;
	return NULL;
}

int pattern_parse(const char *spec, struct blast_pattern *p, char *err, size_t errlen)
{
	const char *colon = strchr(spec, ':'), *end = spec + strlen(spec);
	size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
	int kind = -1;
	uint64_t v;

	memset(p, 0, sizeof *p);
	for (int i = 0; kind_names[i]; i++)
		if (strlen(kind_names[i]) == len && strncmp(spec, kind_names[i], len) == 0)
			kind = i;
	if (kind < 0) {
		snprintf(err, errlen, "no pattern '%.*s'", (int)(len > 20 ? 20 : len), spec);
		return -1;
	}
	if (strlen(spec) >= sizeof p->spec) {
		snprintf(err, errlen, "a spec of at most %zu characters", sizeof p->spec - 1);
		return -1;
	}
	snprintf(p->spec, sizeof p->spec, "%s", spec);
	p->kind = kind;
	switch (kind) {
	case PATTERN_EVEN:
	case PATTERN_POISSON:
		if (colon) {
			snprintf(err, errlen, "%s takes no parameter", kind_names[kind]);
			return -1;
		}
		return 0;
	case PATTERN_BURST:
		if (!colon) {
			snprintf(err, errlen, "burst needs its size: burst:N");
			return -1;
		}
		if (opt_parse_span(colon + 1, end, OPT_COUNT, 1, BLAST_MAX_BURST, &v, "N", err, errlen) < 0)
			return -1;
		p->burst = (unsigned)v;
		return 0;
	default: {
		const char *c2 = colon ? strchr(colon + 1, ':') : NULL, *c3 = c2 ? strchr(c2 + 1, ':') : NULL;
		if (!c3 || strchr(c3 + 1, ':')) {
			snprintf(err, errlen, "frames takes three numbers: frames:FPS:MEAN:SD");
			return -1;
		}
		if (opt_parse_span(colon + 1, c2, OPT_COUNT, 1, BLAST_MAX_FPS, &p->fps, "FPS", err, errlen) < 0 ||
		    opt_parse_span(c2 + 1, c3, OPT_BYTES, 1, BLAST_MAX_FRAME, &p->mean, "MEAN", err, errlen) < 0 ||
		    opt_parse_span(c3 + 1, end, OPT_BYTES, 0, BLAST_MAX_FRAME, &p->sd, "SD", err, errlen) < 0)
			return -1;
		return 0;
	}
	}
}
