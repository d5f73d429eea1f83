/* report: collect key/value pairs, then print them in one of three formats. Values are kept
 * as text so every format prints exactly the same digits. */
#include "report.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

const char *const report_fmt_names[] = { "text", "tsv", "json", NULL };

void report_init(struct report *r)
{
	memset(r, 0, sizeof *r);
}

static char *slot(struct report *r, const char *key, int quoted)
{
	/* A report is built by the tools' own code, never from input: a key past REPORT_MAX is a
	 * bug to stop at, not a column to lose without a word (tests/unit/report.c checks that
	 * suck's report, the largest, fits). Built with NDEBUG, the key is dropped. */
	assert(r->n < REPORT_MAX && "REPORT_MAX is too small for this report");
	if (r->n == REPORT_MAX)
		return NULL;
	r->key[r->n] = key;
	r->quoted[r->n] = (unsigned char)quoted;
	return r->val[r->n++];
}

void report_str(struct report *r, const char *key, const char *val)
{
	char *v = slot(r, key, 1);
	size_t i = 0;

	if (!v)
		return;
	/* Tabs and newlines would break tsv rows; quotes and backslashes json strings. */
	for (; *val && i < sizeof r->val[0] - 1; val++)
		v[i++] = (*val == '\t' || *val == '\n' || *val == '"' || *val == '\\' ||
			  (unsigned char)*val < 0x20) ? '_' : *val;
	v[i] = '\0';
}

void report_u64(struct report *r, const char *key, uint64_t v)
{
	char *s = slot(r, key, 0);

	if (s)
		snprintf(s, sizeof r->val[0], "%" PRIu64, v);
}

void report_i64(struct report *r, const char *key, int64_t v)
{
	char *s = slot(r, key, 0);

	if (s)
		snprintf(s, sizeof r->val[0], "%" PRId64, v);
}

void report_f(struct report *r, const char *key, double v, int decimals)
{
	char *s = slot(r, key, 0);

	/* Not a number has no json spelling but null; text and tsv say nan or inf. */
	if (s && !isfinite(v)) {
		snprintf(s, sizeof r->val[0], "%s", isnan(v) ? "nan" : "inf");
		r->quoted[r->n - 1] = 2;
	} else if (s) {
		snprintf(s, sizeof r->val[0], "%.*f", decimals, v);
	}
}

void report_none(struct report *r, const char *key)
{
	char *s = slot(r, key, 0);

	if (s) {
		snprintf(s, sizeof r->val[0], "-");
		r->quoted[r->n - 1] = 2;
	}
}

/* Is a value nothing to say: "-", or a zero ("0", "0.000")? */
static int nothing(const char *v, int zero_too)
{
	if (strcmp(v, "-") == 0)
		return 1;
	if (!zero_too)
		return 0;
	for (; *v; v++)
		if (*v != '0' && *v != '.')
			return 0;
	return 1;
}

/* Is key i in the brief text, and is it worth a line? */
static int shown(const struct report *r, unsigned i)
{
	if (!r->brief)
		return 1;
	for (const char *const *k = r->brief; *k; k++) {
		int opt = (*k)[0] == '?';
		if (strcmp(*k + opt, r->key[i]) == 0)
			return !nothing(r->val[i], opt);
	}
	return 0;
}

int report_write(const struct report *r, enum report_fmt fmt, FILE *out)
{
	return report_write_row(r, fmt, out, 1);
}

int report_write_row(const struct report *r, enum report_fmt fmt, FILE *out, int header)
{
	unsigned width = 0;

	switch (fmt) {
	case REPORT_TEXT:
		for (unsigned i = 0; i < r->n; i++)
			if (shown(r, i) && strlen(r->key[i]) > width)
				width = (unsigned)strlen(r->key[i]);
		for (unsigned i = 0; i < r->n; i++)
			if (shown(r, i))
				fprintf(out, "%s:%*s %s\n", r->key[i], (int)(width - strlen(r->key[i])), "", r->val[i]);
		break;
	case REPORT_TSV:
		for (unsigned i = 0; header && i < r->n; i++)
			fprintf(out, "%s%s", i ? "\t" : "", r->key[i]);
		if (header)
			fputc('\n', out);
		for (unsigned i = 0; i < r->n; i++)
			fprintf(out, "%s%s", i ? "\t" : "", r->val[i]);
		fputc('\n', out);
		break;
	case REPORT_JSON:
		fputc('{', out);
		for (unsigned i = 0; i < r->n; i++)
			fprintf(out, "%s\"%s\":%s%s%s", i ? "," : "", r->key[i], r->quoted[i] == 1 ? "\"" : "",
				r->quoted[i] == 2 ? "null" : r->val[i], r->quoted[i] == 1 ? "\"" : "");
		fputs("}\n", out);
		break;
	}
	if (fflush(out) != 0 || ferror(out))
		return -1;
	return 0;
}
