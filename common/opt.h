/* opt: numbers and names from the command line, with units, ranges and no trailing garbage.
 * opt_parse_* only parse and return a reason on failure (unit-tested); opt_* wrap them for the
 * tools and end a bad command line with a message naming the option and the range, exit 2. */
#ifndef OPT_H
#define OPT_H
#include <stddef.h>
#include <stdint.h>

enum opt_unit {
	OPT_PLAIN, /* no suffix */
	OPT_COUNT, /* k M G = 10^3 10^6 10^9 (counts and rates) */
	OPT_BYTES, /* k M G = 2^10 2^20 2^30 (sizes in bytes) */
	OPT_HEX,   /* no suffix; decimal, or hexadecimal after 0x (TOS bytes, priorities: ping
		    * and iperf3 take 0x10); a leading 0 is still decimal, never octal */
};

extern const char *opt_prog; /* "blast" or "suck", for messages */

/* NULL on success, otherwise why the text is not acceptable. */
const char *opt_parse_u64(const char *s, enum opt_unit unit, uint64_t min, uint64_t max, uint64_t *out);
/* One number of a longer spec (blast -s 64:7,576:4 or --pattern burst:8), the text [s, e) within
 * min..max; on failure -1 and "WHAT 'TEXT': why" in err. */
int opt_parse_span(const char *s, const char *e, enum opt_unit unit, uint64_t min, uint64_t max, uint64_t *out,
		   const char *what, char *err, size_t errlen);
/* Durations: a decimal number with an optional unit ns, us, ms, s (default) or m. */
const char *opt_parse_secs(const char *s, double min, double max, double *out);
/* Index of s in the NULL-terminated list names, or -1. */
int opt_parse_name(const char *s, const char *const *names);

uint64_t opt_u64(const char *opt, const char *s, enum opt_unit unit, uint64_t min, uint64_t max);
double opt_secs(const char *opt, const char *s, double min, double max);
int opt_name(const char *opt, const char *s, const char *const *names);
/* A usage error not about one number: prints "PROG: MESSAGE" and exits 2. */
void opt_die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
/* After -h, -V or a list printed instead of a run: exit 0 once stdout has taken every byte, or
 * "PROG: writing to stdout: ERRNO TEXT" and exit 1 (a full disk, /dev/full), as a report would. */
void opt_done(void) __attribute__((noreturn));

#endif
