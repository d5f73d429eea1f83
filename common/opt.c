/* opt: command-line numbers with units and ranges (see opt.h). strtoull alone accepts "-1",
 * " 5", "" and "5x"; every one of those is refused here. */
#include "opt.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *opt_prog = "blast&suck";

static char why[160];

const char *opt_parse_u64(const char *s, enum opt_unit unit, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;
	uint64_t mul = 1;
	int radix = 10;

	if (!s || !isdigit((unsigned char)s[0]))
		return "not a number";
	if (unit == OPT_HEX && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		/* strtoull would take "0x" alone as 0, and a sign or blanks after it */
		if (!isxdigit((unsigned char)s[2]))
			return "no hexadecimal digits after 0x";
		radix = 16;
	}
	errno = 0;
	v = strtoull(s, &end, radix);
	if (errno == ERANGE)
		return "too large";
	if (*end && (unit == OPT_COUNT || unit == OPT_BYTES) && end[1] == '\0') {
		uint64_t base = unit == OPT_BYTES ? 1024 : 1000;
		switch (*end) {
		case 'k': case 'K': mul = base; end++; break;
		case 'M': mul = base * base; end++; break;
		case 'G': mul = base * base * base; end++; break;
		default: break;
		}
	}
	if (*end) {
		snprintf(why, sizeof why, "unexpected '%.20s' after the number", end);
		return why;
	}
	if (v > UINT64_MAX / mul)
		return "too large";
	v *= mul;
	if (v < min || v > max) {
		if (radix == 16)
			snprintf(why, sizeof why, "out of range 0x%llx..0x%llx",
				 (unsigned long long)min, (unsigned long long)max);
		else
			snprintf(why, sizeof why, "out of range %llu..%llu",
				 (unsigned long long)min, (unsigned long long)max);
		return why;
	}
	*out = v;
	return NULL;
}

const char *opt_parse_secs(const char *s, double min, double max, double *out)
{
	static const struct { const char *name; double scale; } units[] = {
		{ "", 1 }, { "s", 1 }, { "ms", 1e-3 }, { "us", 1e-6 }, { "ns", 1e-9 }, { "m", 60 },
	};
	char *end;
	double v;
	size_t i;

	/* Digits first: strtod would also take "inf", "nan", "0x1p3" and leading blanks. */
	if (!s || !(isdigit((unsigned char)s[0]) || (s[0] == '.' && isdigit((unsigned char)s[1]))))
		return "not a number";
	for (end = (char *)s; isdigit((unsigned char)*end) || *end == '.'; end++)
		;
	if (*end == 'e' || *end == 'E' || *end == 'x' || *end == 'X')
		return "not a plain decimal number";
	errno = 0;
	v = strtod(s, &end);
	if (errno == ERANGE || !isfinite(v))
		return "too large";
	for (i = 0; i < sizeof units / sizeof units[0]; i++)
		if (strcmp(end, units[i].name) == 0)
			break;
	if (i == sizeof units / sizeof units[0]) {
		snprintf(why, sizeof why, "unexpected '%.20s' after the number (units: s, ms, us, ns, m)", end);
		return why;
	}
	v *= units[i].scale;
	if (v < min || v > max) {
		snprintf(why, sizeof why, "out of range %g..%g seconds", min, max);
		return why;
	}
	*out = v;
	return NULL;
}

int opt_parse_name(const char *s, const char *const *names)
{
	for (int i = 0; names[i]; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	return -1;
}

void opt_die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", opt_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (try %s -h)\n", opt_prog);
	exit(2);
}

uint64_t opt_u64(const char *opt, const char *s, enum opt_unit unit, uint64_t min, uint64_t max)
{
	uint64_t v = 0;
	const char *err = opt_parse_u64(s, unit, min, max, &v);

	if (err)
		opt_die("%s '%s': %s; accepted: %llu..%llu%s", opt, s, err, (unsigned long long)min,
			(unsigned long long)max,
			unit == OPT_BYTES ? " bytes (k, M, G = 1024, 1024^2, 1024^3)" :
			unit == OPT_COUNT ? " (k, M, G = 1000, 1000^2, 1000^3)" :
			unit == OPT_HEX ? " (decimal, or hexadecimal after 0x)" : "");
	return v;
}

double opt_secs(const char *opt, const char *s, double min, double max)
{
	double v = 0;
	const char *err = opt_parse_secs(s, min, max, &v);

	if (err)
		opt_die("%s '%s': %s; accepted: %g..%g seconds (units: s, ms, us, ns, m)", opt, s, err, min, max);
	return v;
}

int opt_name(const char *opt, const char *s, const char *const *names)
{
	char list[256] = "";
	int i = opt_parse_name(s, names);

	if (i >= 0)
		return i;
	for (int k = 0; names[k]; k++) {
		strncat(list, k ? ", " : "", sizeof list - strlen(list) - 1);
		strncat(list, names[k], sizeof list - strlen(list) - 1);
	}
	opt_die("%s '%s': unknown; accepted: %s", opt, s, list);
}

void opt_done(void)
{
	int before = errno, e = 0; /* a text longer than stdout's buffer failed in its printf */

	if (fflush(stdout) != 0)
		e = errno;
	else if (ferror(stdout))
		e = before ? before : EIO; /* an earlier write failed: its errno, when nothing came after */
	if (!e)
		exit(0);
	fprintf(stderr, "%s: writing to stdout: %s\n", opt_prog, strerror(e));
	exit(1);
}

int opt_parse_span(const char *s, const char *e, enum opt_unit unit, uint64_t min, uint64_t max, uint64_t *out,
		   const char *what, char *err, size_t errlen)
{
	char tok[32];
	const char *bad;

	if (e - s <= 0 || (size_t)(e - s) >= sizeof tok) {
		snprintf(err, errlen, "%s '%.*s': not a number", what, (int)(e - s > 20 ? 20 : e - s), s);
		return -1;
	}
	memcpy(tok, s, (size_t)(e - s));
	tok[e - s] = '\0';
	if ((bad = opt_parse_u64(tok, unit, min, max, out))) {
		snprintf(err, errlen, "%s '%s': %s", what, tok, bad);
		return -1;
	}
	return 0;
}
