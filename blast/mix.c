/* mix: -s as a size mix. A weighted list (64:7,576:4,1500:1), imix, or a uniform range (MIN-MAX)
 * becomes one cycle of sizes, built and shuffled once at parsing; a flow's send calls take the
 * next sizes of the cycle by an index, so the hot path draws nothing. Pitfall: the shuffle has a
 * fixed seed, so every run (and every flow, each from the cycle's start) sends the same order of
 * sizes, and N datagrams of a flow that are whole cycles hold each size exactly weight times. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blast.h"
#include "opt.h"

/* The classic 7:4:1 IMIX of 64, 570 and 1518-byte Ethernet frames, as UDP payloads over IPv4:
 * a frame less 14 (Ethernet header) + 4 (FCS) + 20 (IPv4) + 8 (UDP) = 46 bytes. The 64-byte
 * frame's 18 bytes cannot hold blast's 32-byte header: raised to 32 (a 78-byte frame). */
static const unsigned imix_size[3] = { 32, 570 - 46, 1518 - 46 };
static const unsigned imix_weight[3] = { 7, 4, 1 };

int mix_is_spec(const char *s)
{
	return strcmp(s, "imix") == 0 || strchr(s, ':') || strchr(s, ',') || (s[0] && strchr(s + 1, '-'));
}

/* A fixed seed: the same spec gives the same cycle, run after run. */
static uint64_t next_rand(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static void shuffle(uint16_t *c, unsigned n)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;

	for (unsigned i = n - 1; i > 0; i--) {
		unsigned j = (unsigned)(next_rand(&x) % (i + 1));
		uint16_t t = c[i];
		c[i] = c[j];
		c[j] = t;
	}
}

static int add(struct blast_mix *m, unsigned size, unsigned weight, char *err, size_t errlen)
{
	for (unsigned i = 0; i < m->kinds; i++)
		if (m->size[i] == size) {
			snprintf(err, errlen, "size %u given twice", size);
			return -1;
		}
	if (m->kinds == BLAST_MIX_KINDS) {
		snprintf(err, errlen, "more than %d sizes", BLAST_MIX_KINDS);
		return -1;
	}
	if (m->n + weight > BLAST_MIX_CYCLE) {
		snprintf(err, errlen, "the weights add up to more than %d", BLAST_MIX_CYCLE);
		return -1;
	}
	m->size[m->kinds] = size;
	m->weight[m->kinds++] = weight;
	m->n += weight;
	if (!m->min || size < m->min)
		m->min = size;
	if (size > m->max)
		m->max = size;
	return 0;
}

/* One number of a spec (opt_parse_span), as an unsigned: every hi here fits one. */
static int number(const char *s, const char *e, enum opt_unit u, uint64_t lo, uint64_t hi, unsigned *out,
		  const char *what, char *err, size_t errlen)
{
	uint64_t v;

	if (opt_parse_span(s, e, u, lo, hi, &v, what, err, errlen) < 0)
		return -1;
	*out = (unsigned)v;
	return 0;
}

int mix_parse(const char *spec, unsigned lo, unsigned hi, struct blast_mix *m, char *err, size_t errlen)
{
	const char *dash = spec[0] ? strchr(spec + 1, '-') : NULL;
	unsigned k = 0;

	memset(m, 0, sizeof *m);
	if (strlen(spec) >= sizeof m->spec) {
		snprintf(err, errlen, "a mix of at most %zu characters", sizeof m->spec - 1);
		return -1;
	}
	snprintf(m->spec, sizeof m->spec, "%s", spec);
	if (strcmp(spec, "imix") == 0) {
		for (unsigned i = 0; i < 3; i++)
			if (imix_size[i] < lo || imix_size[i] > hi) {
				snprintf(err, errlen, "imix's %u bytes are outside %u..%u here", imix_size[i], lo, hi);
				return -1;
			} else if (add(m, imix_size[i], imix_weight[i], err, errlen) < 0)
				return -1;
	} else if (dash && !strchr(spec, ':') && !strchr(spec, ',')) {
		unsigned a, b;
		if (number(spec, dash, OPT_BYTES, lo, hi, &a, "MIN", err, errlen) < 0 ||
		    number(dash + 1, dash + 1 + strlen(dash + 1), OPT_BYTES, lo, hi, &b, "MAX", err, errlen) < 0)
			return -1;
		if (a >= b) {
			snprintf(err, errlen, "MIN-MAX needs MIN < MAX (%u-%u); one size is -s N", a, b);
			return -1;
		}
		if (b - a + 1 > BLAST_MIX_CYCLE) {
			snprintf(err, errlen, "a range of more than %d sizes", BLAST_MIX_CYCLE);
			return -1;
		}
		m->uniform = 1;
		m->min = a;
		m->max = b;
		m->n = b - a + 1;
	} else {
		for (const char *p = spec;; k++) {
			const char *end = strchr(p, ','), *colon;
			unsigned size, weight;
			if (!end)
				end = p + strlen(p);
			colon = memchr(p, ':', (size_t)(end - p));
			if (!colon) {
				snprintf(err, errlen, "'%.*s' is not SIZE:WEIGHT", (int)(end - p > 20 ? 20 : end - p), p);
				return -1;
			}
			if (number(p, colon, OPT_BYTES, lo, hi, &size, "size", err, errlen) < 0 ||
			    number(colon + 1, end, OPT_PLAIN, 1, BLAST_MIX_CYCLE, &weight, "weight", err, errlen) < 0 ||
			    add(m, size, weight, err, errlen) < 0)
				return -1;
			if (!*end)
				break;
			p = end + 1;
		}
		if (m->kinds < 2) {
			snprintf(err, errlen, "a mix needs two sizes or more; one size is -s N");
			return -1;
		}
	}
	if (!(m->cycle = malloc(m->n * sizeof *m->cycle))) {
		snprintf(err, errlen, "no memory for the cycle of %u sizes", m->n);
		return -1;
	}
	if (m->uniform)
		for (unsigned i = 0; i < m->n; i++)
			m->cycle[i] = (uint16_t)(m->min + i);
	else
		for (unsigned i = 0, at = 0; i < m->kinds; i++)
			for (unsigned w = 0; w < m->weight[i]; w++)
				m->cycle[at++] = (uint16_t)m->size[i];
	shuffle(m->cycle, m->n);
	return 0;
}

uint32_t mix_fin_size(const struct blast_cfg *cfg)
{
	return cfg->mix.n ? WIRE_MIX_SIZE(cfg->mix.min, cfg->mix.max) : (uint32_t)cfg->size;
}

double mix_mean(const struct blast_mix *m)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < m->n; i++)
		sum += m->cycle[i];
	return m->n ? (double)sum / m->n : 0;
}
