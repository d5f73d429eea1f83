/* key: SipHash-2-4 and the run key's sources (see key.h). Written from the algorithm's
 * description; unit-tested against the test vector of the SipHash paper (appendix A). */
#include "key.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rotl(uint64_t x, unsigned b) { return (x << b) | (x >> (64 - b)); }

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* One SipRound over the four state words. */
static void round4(uint64_t v[4])
{
	v[0] += v[1]; v[1] = rotl(v[1], 13); v[1] ^= v[0]; v[0] = rotl(v[0], 32);
	v[2] += v[3]; v[3] = rotl(v[3], 16); v[3] ^= v[2];
	v[0] += v[3]; v[3] = rotl(v[3], 21); v[3] ^= v[0];
	v[2] += v[1]; v[1] = rotl(v[1], 17); v[1] ^= v[2]; v[2] = rotl(v[2], 32);
}

static void compress(uint64_t v[4], uint64_t m)
{
	v[3] ^= m;
	round4(v);
	round4(v);
	v[0] ^= m;
}

uint64_t key_siphash(const uint8_t k[KEY_LEN], const void *msg, size_t len)
{
	const uint8_t *p = msg;
	uint64_t k0 = le64(k), k1 = le64(k + 8);
	uint64_t v[4] = { k0 ^ 0x736f6d6570736575ull, k1 ^ 0x646f72616e646f6dull,
			  k0 ^ 0x6c7967656e657261ull, k1 ^ 0x7465646279746573ull };
	uint8_t last[8] = { 0 };
	size_t whole = len & ~(size_t)7;

	for (size_t i = 0; i < whole; i += 8)
		compress(v, le64(p + i));
	/* The last block: the remaining bytes, and the length's low byte in the top byte. */
	memcpy(last, p + whole, len - whole);
	last[7] = (uint8_t)len;
	compress(v, le64(last));
	v[2] ^= 0xff;
	for (int i = 0; i < 4; i++)
		round4(v);
	return v[0] ^ v[1] ^ v[2] ^ v[3];
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

const char *key_parse(const char *text, struct key *k)
{
	const char *s = text;
	size_t n = 0;

	while (isspace((unsigned char)*s))
		s++;
	for (; n < 2 * KEY_LEN && hexval((unsigned char)s[n]) >= 0; n++)
		;
	if (n < 2 * KEY_LEN)
		return "a run key is 32 hex digits";
	for (const char *t = s + n; *t; t++)
		if (!isspace((unsigned char)*t))
			return hexval((unsigned char)*t) >= 0 ? "a run key is 32 hex digits, no more"
							      : "a run key is 32 hex digits, nothing else";
	for (size_t i = 0; i < KEY_LEN; i++)
		k->k[i] = (uint8_t)(hexval((unsigned char)s[2 * i]) << 4 | hexval((unsigned char)s[2 * i + 1]));
	k->set = 1;
	return NULL;
}

const char *key_load(const char *path, struct key *k)
{
	static char msg[160];
	char text[128];
	const char *env, *why;

	k->set = 0;
	if (!path) {
		env = getenv(KEY_ENV);
		if (!env || !*env)
			return NULL;
		if ((why = key_parse(env, k))) {
			snprintf(msg, sizeof msg, "%s: %s", KEY_ENV, why);
			return msg;
		}
		return NULL;
	}
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	if (!f) {
		snprintf(msg, sizeof msg, "--key-file '%s': %s", path, strerror(errno));
		return msg;
	}
	size_t n = fread(text, 1, sizeof text - 1, f);
	int bad = ferror(f);
	if (f != stdin)
		fclose(f);
	text[n] = 0;
	if (bad || n == sizeof text - 1 || strlen(text) != n)
		why = bad ? "cannot be read" : "a run key is 32 hex digits, nothing else";
	else
		why = key_parse(text, k);
	if (why) {
		k->set = 0;
		snprintf(msg, sizeof msg, "--key-file '%s': %s", path, why);
		return msg;
	}
	return NULL;
}
