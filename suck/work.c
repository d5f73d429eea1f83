/* work: parsing the -w spec, the checksum, and the digest of the work's state. */
#include "work.h"

#include <stdio.h>

#include "opt.h"

const char *const work_names[] = { "none", "histogram", "checksum", NULL };

const char *work_parse(const char *spec, struct work *w)
{
	char name[32];
	const char *colon = strchr(spec, ':');
	size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
	uint64_t reps = 1;
	int kind;

	memset(w, 0, sizeof *w);
	if (len >= sizeof name)
		return "unknown work";
	memcpy(name, spec, len);
	name[len] = '\0';
	kind = opt_parse_name(name, work_names);
	if (kind < 0)
		return "unknown work";
	if (colon) {
		const char *err = opt_parse_u64(colon + 1, OPT_COUNT, 1, WORK_MAX_REPS, &reps);
		if (err)
			return err;
	}
	w->kind = (enum work_kind)kind;
	w->reps = (unsigned)reps;
	return NULL;
}

void work_spec(const struct work *w, char *buf, size_t len)
{
	if (w->reps > 1)
		snprintf(buf, len, "%s:%u", work_names[w->kind], w->reps);
	else
		snprintf(buf, len, "%s", work_names[w->kind]);
}

/* Ones'-complement style sum of 32-bit words, carries folded at the end: the kind of sum a
 * protocol stack computes, vectorisable, and it touches every byte once. */
uint64_t work_checksum(const uint8_t *p, size_t n, uint64_t seed)
{
	uint64_t sum = seed;
	size_t i = 0;

	for (; i + 4 <= n; i += 4) {
		uint32_t v;
		memcpy(&v, p + i, 4);
		sum += v;
	}
	for (; i < n; i++)
		sum += (uint64_t)p[i] << (8 * (i % 4));
	while (sum >> 32)
		sum = (sum & 0xffffffffu) + (sum >> 32);
	return sum;
}

uint64_t work_digest(const struct work *w)
{
	uint64_t h = 0xcbf29ce484222325ull ^ w->sum;

	if (w->kind == WORK_HISTOGRAM)
		for (int i = 0; i < 256; i++)
			h = (h ^ w->hist[i]) * 0x100000001b3ull;
	return h;
}

void work_merge(struct work *dst, const struct work *src)
{
	for (int i = 0; i < 256; i++)
		dst->hist[i] += src->hist[i];
	/* Sums of sums fold the same way whatever the order. */
	dst->sum += src->sum;
	while (dst->sum >> 32)
		dst->sum = (dst->sum & 0xffffffffu) + (dst->sum >> 32);
}
