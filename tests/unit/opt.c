/* Unit tests for common/opt.c: opt_parse_u64 with every unit, opt_parse_secs, opt_parse_name. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "opt.h"
#include "unit.h"

#define SENTINEL 0x5a5a5a5a5a5a5a5aull

static const char *unit_name(enum opt_unit u)
{
	return u == OPT_PLAIN ? "plain" : u == OPT_COUNT ? "count" : u == OPT_HEX ? "hex" : "bytes";
}

/* s parses to want within min..max. */
static void u64_ok(const char *s, enum opt_unit u, uint64_t min, uint64_t max, uint64_t want)
{
	uint64_t v = SENTINEL;
	const char *err = opt_parse_u64(s, u, min, max, &v);

	CHECK(err == NULL, "'%s' (%s, %llu..%llu) refused: %s", s, unit_name(u),
	      (unsigned long long)min, (unsigned long long)max, err ? err : "");
	CHECK(v == want, "'%s' (%s) gave %llu, want %llu", s, unit_name(u),
	      (unsigned long long)v, (unsigned long long)want);
}

/* s is refused with a reason, and *out is left alone. */
static void u64_bad(const char *s, enum opt_unit u, uint64_t min, uint64_t max)
{
	uint64_t v = SENTINEL;
	const char *err = opt_parse_u64(s, u, min, max, &v);

	CHECK(err != NULL && err[0] != '\0', "'%s' (%s, %llu..%llu) accepted as %llu", s, unit_name(u),
	      (unsigned long long)min, (unsigned long long)max, (unsigned long long)v);
	CHECK(v == SENTINEL, "'%s' (%s) refused but wrote %llu", s, unit_name(u), (unsigned long long)v);
}

static int close_to(double a, double b)
{
	double d = fabs(a - b), m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);

	return d <= m * 1e-12 || d == 0;
}

static void secs_ok(const char *s, double min, double max, double want)
{
	double v = -12345;
	const char *err = opt_parse_secs(s, min, max, &v);

	CHECK(err == NULL, "'%s' (%g..%g) refused: %s", s, min, max, err ? err : "");
	CHECK(close_to(v, want), "'%s' gave %.17g, want %.17g", s, v, want);
}

static void secs_bad(const char *s, double min, double max)
{
	double v = -12345;
	const char *err = opt_parse_secs(s, min, max, &v);

	CHECK(err != NULL && err[0] != '\0', "'%s' (%g..%g) accepted as %.17g", s, min, max, v);
	CHECK(v == -12345, "'%s' refused but wrote %.17g", s, v);
}

static void test_u64_plain(void)
{
	u64_ok("0", OPT_PLAIN, 0, UINT64_MAX, 0);
	u64_ok("1", OPT_PLAIN, 0, UINT64_MAX, 1);
	u64_ok("42", OPT_PLAIN, 0, 100, 42);
	u64_ok("007", OPT_PLAIN, 0, 100, 7);
	u64_ok("18446744073709551615", OPT_PLAIN, 0, UINT64_MAX, UINT64_MAX);
	/* Boundaries: min and max exactly, one past each. */
	u64_ok("32", OPT_PLAIN, 32, 65507, 32);
	u64_ok("65507", OPT_PLAIN, 32, 65507, 65507);
	u64_bad("31", OPT_PLAIN, 32, 65507);
	u64_bad("65508", OPT_PLAIN, 32, 65507);
	u64_ok("5", OPT_PLAIN, 5, 5, 5);
	u64_bad("4", OPT_PLAIN, 5, 5);
	u64_bad("6", OPT_PLAIN, 5, 5);
	u64_bad("0", OPT_PLAIN, 1, 10);
	/* No suffixes at all in plain numbers. */
	u64_bad("1k", OPT_PLAIN, 0, UINT64_MAX);
	u64_bad("1K", OPT_PLAIN, 0, UINT64_MAX);
	u64_bad("1M", OPT_PLAIN, 0, UINT64_MAX);
	u64_bad("1G", OPT_PLAIN, 0, UINT64_MAX);
	/* Malformed. */
	u64_bad("", OPT_PLAIN, 0, UINT64_MAX);
	u64_bad("-1", OPT_PLAIN, 0, UINT64_MAX);
	u64_bad("+1", OPT_PLAIN, 0, UINT64_MAX);
	u64_bad(" 5", OPT_PLAIN, 0, UINT64_MAX);
	u64_bad("5 ", OPT_PLAIN, 0, UINT64_MAX);
	u64_bad("5x", OPT_PLAIN, 0, UINT64_MAX);
	u64_bad("0x10", OPT_PLAIN, 0, UINT64_MAX);
	u64_bad("1.5", OPT_PLAIN, 0, UINT64_MAX);
	u64_bad("1e3", OPT_PLAIN, 0, UINT64_MAX);
	u64_bad("k", OPT_PLAIN, 0, UINT64_MAX);
	u64_bad("abc", OPT_PLAIN, 0, UINT64_MAX);
	u64_bad("99999999999999999999", OPT_PLAIN, 0, UINT64_MAX);
	u64_bad("18446744073709551616", OPT_PLAIN, 0, UINT64_MAX);
	u64_bad(NULL, OPT_PLAIN, 0, UINT64_MAX);
}

static void test_u64_count(void)
{
	u64_ok("7", OPT_COUNT, 0, UINT64_MAX, 7);
	u64_ok("1k", OPT_COUNT, 0, UINT64_MAX, 1000);
	u64_ok("1K", OPT_COUNT, 0, UINT64_MAX, 1000);
	u64_ok("5k", OPT_COUNT, 0, UINT64_MAX, 5000);
	u64_ok("1M", OPT_COUNT, 0, UINT64_MAX, 1000000);
	u64_ok("3M", OPT_COUNT, 0, UINT64_MAX, 3000000);
	u64_ok("1G", OPT_COUNT, 0, UINT64_MAX, 1000000000);
	u64_ok("12G", OPT_COUNT, 0, UINT64_MAX, 12000000000ull);
	u64_ok("0k", OPT_COUNT, 0, UINT64_MAX, 0);
	/* Boundaries with and without a suffix. */
	u64_ok("1k", OPT_COUNT, 1000, 1000, 1000);
	u64_ok("1000", OPT_COUNT, 1000, 2000, 1000);
	u64_ok("2k", OPT_COUNT, 1000, 2000, 2000);
	u64_bad("999", OPT_COUNT, 1000, 2000);
	u64_bad("2001", OPT_COUNT, 1000, 2000);
	u64_bad("3k", OPT_COUNT, 1000, 2000);
	u64_ok("1M", OPT_COUNT, 1, 1000000, 1000000);
	u64_bad("1000001", OPT_COUNT, 1, 1000000);
	u64_bad("2M", OPT_COUNT, 1, 1000000);
	/* The largest value that still fits with each suffix, and one more. */
	u64_ok("18446744073709551k", OPT_COUNT, 0, UINT64_MAX, 18446744073709551000ull);
	u64_bad("18446744073709552k", OPT_COUNT, 0, UINT64_MAX);
	u64_ok("18446744073709M", OPT_COUNT, 0, UINT64_MAX, 18446744073709000000ull);
	u64_bad("18446744073710M", OPT_COUNT, 0, UINT64_MAX);
	u64_ok("18446744073G", OPT_COUNT, 0, UINT64_MAX, 18446744073000000000ull);
	u64_bad("18446744074G", OPT_COUNT, 0, UINT64_MAX);
	u64_bad("18446744073709551615k", OPT_COUNT, 0, UINT64_MAX);
	u64_bad("18446744073709551615G", OPT_COUNT, 0, UINT64_MAX);
	u64_bad("99999999999999999999", OPT_COUNT, 0, UINT64_MAX);
	u64_bad("99999999999999999999k", OPT_COUNT, 0, UINT64_MAX);
	/* Only k, K, M, G, once, right at the end. */
	u64_bad("", OPT_COUNT, 0, UINT64_MAX);
	u64_bad("-1", OPT_COUNT, 0, UINT64_MAX);
	u64_bad("-1k", OPT_COUNT, 0, UINT64_MAX);
	u64_bad(" 5", OPT_COUNT, 0, UINT64_MAX);
	u64_bad("5x", OPT_COUNT, 0, UINT64_MAX);
	u64_bad("5kk", OPT_COUNT, 0, UINT64_MAX);
	u64_bad("5kM", OPT_COUNT, 0, UINT64_MAX);
	u64_bad("5k ", OPT_COUNT, 0, UINT64_MAX);
	u64_bad("5 k", OPT_COUNT, 0, UINT64_MAX);
	u64_bad("5T", OPT_COUNT, 0, UINT64_MAX);
	u64_bad("5m", OPT_COUNT, 0, UINT64_MAX);
	u64_bad("5g", OPT_COUNT, 0, UINT64_MAX);
	u64_bad("0x10", OPT_COUNT, 0, UINT64_MAX);
	u64_bad("1.5", OPT_COUNT, 0, UINT64_MAX);
	u64_bad("1.5k", OPT_COUNT, 0, UINT64_MAX);
	u64_bad("k", OPT_COUNT, 0, UINT64_MAX);
	u64_bad("k5", OPT_COUNT, 0, UINT64_MAX);
}

static void test_u64_bytes(void)
{
	u64_ok("1k", OPT_BYTES, 0, UINT64_MAX, 1024);
	u64_ok("1K", OPT_BYTES, 0, UINT64_MAX, 1024);
	u64_ok("4k", OPT_BYTES, 0, UINT64_MAX, 4096);
	u64_ok("1M", OPT_BYTES, 0, UINT64_MAX, 1048576);
	u64_ok("8M", OPT_BYTES, 0, UINT64_MAX, 8388608);
	u64_ok("1G", OPT_BYTES, 0, UINT64_MAX, 1073741824);
	u64_ok("3G", OPT_BYTES, 0, UINT64_MAX, 3221225472ull);
	u64_ok("212992", OPT_BYTES, 0, UINT64_MAX, 212992);
	/* Boundaries. */
	u64_ok("64k", OPT_BYTES, 1024, 65536, 65536);
	u64_ok("1k", OPT_BYTES, 1024, 65536, 1024);
	u64_ok("1024", OPT_BYTES, 1024, 65536, 1024);
	u64_ok("65536", OPT_BYTES, 1024, 65536, 65536);
	u64_bad("1023", OPT_BYTES, 1024, 65536);
	u64_bad("65537", OPT_BYTES, 1024, 65536);
	u64_bad("65k", OPT_BYTES, 1024, 65536);
	u64_ok("1G", OPT_BYTES, 0, 1073741824, 1073741824);
	u64_bad("1073741825", OPT_BYTES, 0, 1073741824);
	/* Largest multiples that fit: 2^64 / 2^10 - 1 etc. */
	u64_ok("18014398509481983k", OPT_BYTES, 0, UINT64_MAX, 18014398509481983ull * 1024);
	u64_bad("18014398509481984k", OPT_BYTES, 0, UINT64_MAX);
	u64_ok("17592186044415M", OPT_BYTES, 0, UINT64_MAX, 17592186044415ull << 20);
	u64_bad("17592186044416M", OPT_BYTES, 0, UINT64_MAX);
	u64_ok("17179869183G", OPT_BYTES, 0, UINT64_MAX, 17179869183ull << 30);
	u64_bad("17179869184G", OPT_BYTES, 0, UINT64_MAX);
	u64_bad("18446744073709551615k", OPT_BYTES, 0, UINT64_MAX);
	/* Malformed. */
	u64_bad("", OPT_BYTES, 0, UINT64_MAX);
	u64_bad("-1", OPT_BYTES, 0, UINT64_MAX);
	u64_bad(" 5", OPT_BYTES, 0, UINT64_MAX);
	u64_bad("5x", OPT_BYTES, 0, UINT64_MAX);
	u64_bad("5kk", OPT_BYTES, 0, UINT64_MAX);
	u64_bad("5KiB", OPT_BYTES, 0, UINT64_MAX);
	u64_bad("5kB", OPT_BYTES, 0, UINT64_MAX);
	u64_bad("0x10", OPT_BYTES, 0, UINT64_MAX);
	u64_bad("1.5", OPT_BYTES, 0, UINT64_MAX);
	u64_bad("1.5M", OPT_BYTES, 0, UINT64_MAX);
	u64_bad("99999999999999999999", OPT_BYTES, 0, UINT64_MAX);
}

static void test_u64_hex(void)
{
	u64_ok("16", OPT_HEX, 0, 255, 16);
	u64_ok("0x10", OPT_HEX, 0, 255, 16);
	u64_ok("0X10", OPT_HEX, 0, 255, 16);
	u64_ok("0xfF", OPT_HEX, 0, 255, 255);
	u64_ok("0x0", OPT_HEX, 0, 255, 0);
	u64_ok("0x00b8", OPT_HEX, 0, 255, 184);
	u64_ok("010", OPT_HEX, 0, 255, 10); /* decimal, never octal */
	u64_ok("0", OPT_HEX, 0, 255, 0);
	u64_ok("0xffffffffffffffff", OPT_HEX, 0, UINT64_MAX, UINT64_MAX);
	/* The range holds in hex too. */
	u64_bad("0x100", OPT_HEX, 0, 255);
	u64_bad("256", OPT_HEX, 0, 255);
	u64_bad("0x40", OPT_HEX, 0, 63);
	u64_ok("0x3f", OPT_HEX, 0, 63, 63);
	u64_bad("0x10000000000000000", OPT_HEX, 0, UINT64_MAX);
	/* Malformed: no digits, a sign or blank after 0x, no suffix, no 0x elsewhere. */
	u64_bad("0x", OPT_HEX, 0, 255);
	u64_bad("0xzz", OPT_HEX, 0, 255);
	u64_bad("0x1g", OPT_HEX, 0, 255);
	u64_bad("0x-1", OPT_HEX, 0, 255);
	u64_bad("0x+1", OPT_HEX, 0, 255);
	u64_bad("0x 1", OPT_HEX, 0, 255);
	u64_bad("0x0x1", OPT_HEX, 0, 255);
	u64_bad("x10", OPT_HEX, 0, 255);
	u64_bad("1x10", OPT_HEX, 0, 255);
	u64_bad("00x10", OPT_HEX, 0, 255);
	u64_bad("1k", OPT_HEX, 0, UINT64_MAX);
	u64_bad("0x1k", OPT_HEX, 0, UINT64_MAX);
	u64_bad("ff", OPT_HEX, 0, 255);
	u64_bad("", OPT_HEX, 0, 255);
	u64_bad("-1", OPT_HEX, 0, 255);
	u64_bad(NULL, OPT_HEX, 0, 255);
}

static void test_secs(void)
{
	secs_ok("2", 0, 1e9, 2);
	secs_ok("2.5", 0, 1e9, 2.5);
	secs_ok(".5", 0, 1e9, 0.5);
	secs_ok("0", 0, 1e9, 0);
	secs_ok("0.25", 0, 1e9, 0.25);
	secs_ok("10.", 0, 1e9, 10);
	secs_ok("500ms", 0, 1e9, 0.5);
	secs_ok("2s", 0, 1e9, 2);
	secs_ok("2.5s", 0, 1e9, 2.5);
	secs_ok("1m", 0, 1e9, 60);
	secs_ok("1.5m", 0, 1e9, 90);
	secs_ok("100us", 0, 1e9, 100e-6);
	secs_ok("3ns", 0, 1e9, 3e-9);
	secs_ok("1500ms", 0, 1e9, 1.5);
	secs_ok(".5ms", 0, 1e9, 0.5e-3);
	/* Range boundaries, in and out. */
	secs_ok("1", 1, 10, 1);
	secs_ok("10", 1, 10, 10);
	secs_ok("1000ms", 1, 10, 1);
	secs_ok("10s", 1, 10, 10);
	secs_bad("0.999", 1, 10);
	secs_bad("10.001", 1, 10);
	secs_bad("999ms", 1, 10);
	secs_bad("1m", 1, 10);
	secs_bad("0", 0.001, 3600);
	secs_ok("1ms", 0.001, 3600, 0.001);
	secs_ok("60m", 0.001, 3600, 3600);
	secs_bad("61m", 0.001, 3600);
	secs_bad("3601", 0.001, 3600);
	secs_bad("1us", 0.001, 3600);
	/* Overflow. */
	secs_bad("9999999999999999999999999999999999999999999999999999999999999999999999999999999999"
		 "9999999999999999999999999999999999999999999999999999999999999999999999999999999999"
		 "9999999999999999999999999999999999999999999999999999999999999999999999999999999999"
		 "9999999999999999999999999999999999999999999999999999999999999999999999999999999999",
		 0, 1e300);
	/* Malformed. */
	secs_bad("", 0, 1e9);
	secs_bad("-1", 0, 1e9);
	secs_bad("-0", 0, 1e9);
	secs_bad("+1", 0, 1e9);
	secs_bad(" 2", 0, 1e9);
	secs_bad("2 ", 0, 1e9);
	secs_bad(".", 0, 1e9);
	secs_bad("s", 0, 1e9);
	secs_bad("ms", 0, 1e9);
	secs_bad("inf", 0, 1e9);
	secs_bad("infinity", 0, 1e9);
	secs_bad("nan", 0, 1e9);
	secs_bad("NAN", 0, 1e9);
	secs_bad("1e3", 0, 1e9);
	secs_bad("1E3", 0, 1e9);
	secs_bad("1.5e3", 0, 1e9);
	secs_bad("0x10", 0, 1e9);
	secs_bad("0X10", 0, 1e9);
	secs_bad("0x1p3", 0, 1e9);
	secs_bad("2 s", 0, 1e9);
	secs_bad("2sec", 0, 1e9);
	secs_bad("2S", 0, 1e9);
	secs_bad("2ss", 0, 1e9);
	secs_bad("2mss", 0, 1e9);
	secs_bad("5h", 0, 1e9);
	secs_bad("5d", 0, 1e9);
	secs_bad("5min", 0, 1e9);
	secs_bad("1.2.3", 0, 1e9);
	secs_bad("1,5", 0, 1e9);
	secs_bad(NULL, 0, 1e9);
}

static void test_name(void)
{
	static const char *const names[] = { "copy", "buffer", "mmsg", "gro", "uring", NULL };
	static const char *const none[] = { NULL };

	CHECK(opt_parse_name("copy", names) == 0, "copy");
	CHECK(opt_parse_name("buffer", names) == 1, "buffer");
	CHECK(opt_parse_name("mmsg", names) == 2, "mmsg");
	CHECK(opt_parse_name("gro", names) == 3, "gro");
	CHECK(opt_parse_name("uring", names) == 4, "uring");
	CHECK(opt_parse_name("", names) == -1, "empty");
	CHECK(opt_parse_name("cop", names) == -1, "prefix");
	CHECK(opt_parse_name("copyx", names) == -1, "longer");
	CHECK(opt_parse_name("COPY", names) == -1, "case");
	CHECK(opt_parse_name(" copy", names) == -1, "blank");
	CHECK(opt_parse_name("copy", none) == -1, "empty list");
}

int main(void)
{
	test_u64_plain();
	test_u64_count();
	test_u64_bytes();
	test_u64_hex();
	test_secs();
	test_name();
	return unit_done("opt");
}
