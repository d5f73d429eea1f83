/* report: one result as text (aligned "key: value"), tsv (header + row) or json (one line).
 * Keys carry their unit (duration_s, rss_kib); the same keys in every format. */
#ifndef REPORT_H
#define REPORT_H
#include <stdint.h>
#include <stdio.h>

enum report_fmt { REPORT_TEXT, REPORT_TSV, REPORT_JSON };
extern const char *const report_fmt_names[]; /* "text", "tsv", "json", NULL */

#define REPORT_MAX 256 /* keys in one report; one more is an assertion failure */

struct report {
	unsigned n;
	const char *key[REPORT_MAX];
	char val[REPORT_MAX][96];
	unsigned char quoted[REPORT_MAX]; /* 1 a string in json, 2 null (not a number) */
	/* Text for people: only these keys (NULL: all), those of a measure this run did not take
	 * ("-") left out, and those written "?key" also when they are 0. tsv and json keep all. */
	const char *const *brief;
};

void report_init(struct report *r);
void report_str(struct report *r, const char *key, const char *val);
void report_u64(struct report *r, const char *key, uint64_t v);
void report_i64(struct report *r, const char *key, int64_t v);
void report_f(struct report *r, const char *key, double v, int decimals);
/* A figure this run did not measure: "-" in text and tsv, null in json. */
void report_none(struct report *r, const char *key);
/* Writes the report and flushes; -1 when the stream fails (a closed stdout, a full disk). */
int report_write(const struct report *r, enum report_fmt fmt, FILE *out);
/* The same, for one of a series of rows with the same keys (interval lines): tsv prints its
 * header line only when header is 1. */
int report_write_row(const struct report *r, enum report_fmt fmt, FILE *out, int header);

#endif
