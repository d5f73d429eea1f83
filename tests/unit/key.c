/* Unit tests for common/key.c: SipHash-2-4 against the paper's test vector and its first
 * lengths, key parsing, and the key's sources (file, standard input, environment). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "key.h"
#include "unit.h"

static void test_siphash(void)
{
	uint8_t k[KEY_LEN], m[64];

	for (int i = 0; i < KEY_LEN; i++)
		k[i] = (uint8_t)i;
	for (int i = 0; i < 64; i++)
		m[i] = (uint8_t)i;
	/* "SipHash: a fast short-input PRF", appendix A: key 00..0f, message 00..0e. */
	CHECK(key_siphash(k, m, 15) == 0xa129ca6149be45e5ull, "vector: %016llx",
	      (unsigned long long)key_siphash(k, m, 15));
	/* The reference implementation's vectors.h, lengths 0 and 8 (little-endian bytes
	 * 31 0e 0e dd 47 db 6f 72 and 93 f5 f5 79 9a 93 24 62). */
	CHECK(key_siphash(k, m, 0) == 0x726fdb47dd0e0e31ull, "empty: %016llx",
	      (unsigned long long)key_siphash(k, m, 0));
	CHECK(key_siphash(k, m, 8) == 0x93f5f5799a932462ull, "8 bytes: %016llx",
	      (unsigned long long)key_siphash(k, m, 8));
	/* Every byte and every key byte matters. */
	uint64_t base = key_siphash(k, m, 62);
	int same = 0;
	for (int i = 0; i < 62; i++) {
		m[i] ^= 1;
		same += key_siphash(k, m, 62) == base;
		m[i] ^= 1;
	}
	for (int i = 0; i < KEY_LEN; i++) {
		k[i] ^= 0x80;
		same += key_siphash(k, m, 62) == base;
		k[i] ^= 0x80;
	}
	CHECK(same == 0, "%d flipped bits left the tag as it was", same);
	CHECK(key_siphash(k, m, 61) != base, "length matters");
}

static void test_parse(void)
{
	struct key k;
	const char *hex = "000102030405060708090a0B0c0d0e0f";

	CHECK(key_parse(hex, &k) == NULL && k.set && k.k[0] == 0 && k.k[11] == 0x0b && k.k[15] == 0x0f,
	      "32 hex digits");
	CHECK(key_parse("  000102030405060708090a0b0c0d0e0f\n", &k) == NULL, "white space around");
	k.set = 0;
	CHECK(key_parse("000102030405060708090a0b0c0d0e0", &k) != NULL && !k.set, "31 digits");
	CHECK(key_parse("000102030405060708090a0b0c0d0e0f0", &k) != NULL, "33 digits");
	CHECK(key_parse("000102030405060708090a0b0c0d0e0fx", &k) != NULL, "trailing garbage");
	CHECK(key_parse("0001020304050607 08090a0b0c0d0e0f", &k) != NULL, "space inside");
	CHECK(key_parse("", &k) != NULL, "empty");
	CHECK(key_parse("g00102030405060708090a0b0c0d0e0f", &k) != NULL, "not hex");
}

static void test_load(void)
{
	char path[] = "/tmp/unit-key-XXXXXX";
	struct key k;
	int fd = mkstemp(path);

	CHECK(fd >= 0, "mkstemp");
	if (fd < 0)
		return;
	CHECK(write(fd, "ffeeddccbbaa99887766554433221100\n", 33) == 33, "write");
	close(fd);
	unsetenv(KEY_ENV);
	CHECK(key_load(NULL, &k) == NULL && !k.set, "no file, no environment: no key");
	CHECK(key_load(path, &k) == NULL && k.set && k.k[0] == 0xff && k.k[15] == 0x00, "from a file");
	setenv(KEY_ENV, "00112233445566778899aabbccddeeff", 1);
	CHECK(key_load(NULL, &k) == NULL && k.set && k.k[0] == 0x00 && k.k[15] == 0xff, "from the environment");
	CHECK(key_load(path, &k) == NULL && k.k[0] == 0xff, "a file wins over the environment");
	setenv(KEY_ENV, "short", 1);
	const char *why = key_load(NULL, &k);
	CHECK(why && strstr(why, KEY_ENV) && !k.set, "a bad key in the environment is named: %s", why ? why : "");
	unsetenv(KEY_ENV);
	unlink(path);
	why = key_load(path, &k);
	CHECK(why && strstr(why, "--key-file") && strstr(why, path), "a missing file is named: %s", why ? why : "");
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0 && write(fd, "0011", 4) == 4, "write");
	close(fd);
	CHECK(key_load(path, &k) != NULL && !k.set, "a short key in a file is refused");
	unlink(path);
}

int main(void)
{
	test_siphash();
	test_parse();
	test_load();
	return unit_done("key");
}
