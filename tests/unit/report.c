/* Unit tests for common/report.c: the exact text, tsv and json output, report_str keeping
 * tsv rows and json strings well-formed whatever the value, and a report's key limit: an
 * assertion, with room for suck's report, the largest. */
#include <ctype.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report.h"
#include "total.h"
#include "unit.h"
#include "variant.h"

/* report_write into a string; the caller frees it. */
static char *render(const struct report *r, enum report_fmt fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	if (!f) {
		CHECK(f != NULL, "open_memstream failed");
		exit(1);
	}
	rc = report_write(r, fmt, f);
	CHECK(rc == 0, "report_write format %d returned %d", (int)fmt, rc);
	fclose(f);
	return buf;
}

static unsigned count(const char *s, char c)
{
	unsigned n = 0;

	for (; *s; s++)
		n += *s == c;
	return n;
}

/* A flat json object of string and number values, as report_write makes them; the number of
 * members, or -1 when it is not well-formed json. */
static int json_members(const char *s)
{
	int n = 0;

	if (*s++ != '{')
		return -1;
	if (*s == '}')
		return s[1] == '\n' && s[2] == '\0' ? 0 : -1;
	for (;;) {
		if (*s++ != '"')
			return -1;
		for (; *s != '"'; s++)
			if (*s == '\0' || *s == '\\' || (unsigned char)*s < 0x20)
				return -1;
		s++;
		if (*s++ != ':')
			return -1;
		if (*s == '"') {
			for (s++; *s != '"'; s++)
				if (*s == '\0' || *s == '\\' || (unsigned char)*s < 0x20)
					return -1;
			s++;
		} else {
			if (*s == '-')
				s++;
			if (!isdigit((unsigned char)*s))
				return -1;
			while (isdigit((unsigned char)*s))
				s++;
			if (*s == '.') {
				s++;
				if (!isdigit((unsigned char)*s))
					return -1;
				while (isdigit((unsigned char)*s))
					s++;
			}
		}
		n++;
		if (*s == ',') {
			s++;
			continue;
		}
		if (*s == '}' && s[1] == '\n' && s[2] == '\0')
			return n;
		return -1;
	}
}

static void sample(struct report *r)
{
	report_init(r);
	report_str(r, "tool", "suck");
	report_u64(r, "received", 12345);
	report_i64(r, "delta", -7);
	report_f(r, "duration_s", 1.5, 6);
	report_f(r, "pps", 1234.4, 0);
	report_f(r, "mbps", 12.34, 1);
	report_u64(r, "big", UINT64_MAX);
	report_i64(r, "min", INT64_MIN);
	report_str(r, "w", "");
}

static void test_values(void)
{
	struct report r;

	sample(&r);
	CHECK(r.n == 9, "n %u", r.n);
	CHECK(strcmp(r.val[0], "suck") == 0 && r.quoted[0] == 1, "str '%s'", r.val[0]);
	CHECK(strcmp(r.val[1], "12345") == 0 && r.quoted[1] == 0, "u64 '%s'", r.val[1]);
	CHECK(strcmp(r.val[2], "-7") == 0 && r.quoted[2] == 0, "i64 '%s'", r.val[2]);
	CHECK(strcmp(r.val[3], "1.500000") == 0 && r.quoted[3] == 0, "f '%s'", r.val[3]);
	CHECK(strcmp(r.val[4], "1234") == 0, "f0 '%s'", r.val[4]);
	CHECK(strcmp(r.val[5], "12.3") == 0, "f1 '%s'", r.val[5]);
	CHECK(strcmp(r.val[6], "18446744073709551615") == 0, "u64 max '%s'", r.val[6]);
	CHECK(strcmp(r.val[7], "-9223372036854775808") == 0, "i64 min '%s'", r.val[7]);
	CHECK(strcmp(r.val[8], "") == 0 && r.quoted[8] == 1, "empty str '%s'", r.val[8]);
	CHECK(strcmp(report_fmt_names[REPORT_TEXT], "text") == 0 &&
	      strcmp(report_fmt_names[REPORT_TSV], "tsv") == 0 &&
	      strcmp(report_fmt_names[REPORT_JSON], "json") == 0 && report_fmt_names[3] == NULL,
	      "report_fmt_names");
}

static void test_text(void)
{
	struct report r;
	char *out;

	sample(&r);
	out = render(&r, REPORT_TEXT);
	CHECK(strcmp(out,
		     "tool:       suck\n"
		     "received:   12345\n"
		     "delta:      -7\n"
		     "duration_s: 1.500000\n"
		     "pps:        1234\n"
		     "mbps:       12.3\n"
		     "big:        18446744073709551615\n"
		     "min:        -9223372036854775808\n"
		     "w:          \n") == 0,
	      "text output:\n%s", out);
	/* Every value starts in the same column: longest key + ": ". */
	{
		unsigned lines = 0, bad = 0;
		for (char *p = out; *p; lines++) {
			char *nl = strchr(p, '\n');
			char *colon = strchr(p, ':');
			if (!nl || !colon || colon > nl || colon - p > 10 ||
			    strspn(colon + 1, " ") != (size_t)(10 - (colon - p) + 1))
				bad++;
			p = nl ? nl + 1 : p + strlen(p);
		}
		CHECK(lines == 9 && bad == 0, "text: %u lines, %u misaligned", lines, bad);
	}
	free(out);

	/* One key: no padding beyond the single space. */
	report_init(&r);
	report_u64(&r, "x", 1);
	out = render(&r, REPORT_TEXT);
	CHECK(strcmp(out, "x: 1\n") == 0, "one key: '%s'", out);
	free(out);
}

static void test_tsv(void)
{
	struct report r;
	char *out;

	sample(&r);
	out = render(&r, REPORT_TSV);
	CHECK(strcmp(out,
		     "tool\treceived\tdelta\tduration_s\tpps\tmbps\tbig\tmin\tw\n"
		     "suck\t12345\t-7\t1.500000\t1234\t12.3\t18446744073709551615\t-9223372036854775808\t\n") == 0,
	      "tsv output:\n%s", out);
	CHECK(count(out, '\n') == 2 && count(out, '\t') == 16, "tsv shape");
	free(out);

	report_init(&r);
	report_u64(&r, "x", 1);
	out = render(&r, REPORT_TSV);
	CHECK(strcmp(out, "x\n1\n") == 0, "one key tsv: '%s'", out);
	free(out);
}

static void test_json(void)
{
	struct report r;
	char *out;

	sample(&r);
	out = render(&r, REPORT_JSON);
	CHECK(strcmp(out,
		     "{\"tool\":\"suck\",\"received\":12345,\"delta\":-7,\"duration_s\":1.500000,"
		     "\"pps\":1234,\"mbps\":12.3,\"big\":18446744073709551615,"
		     "\"min\":-9223372036854775808,\"w\":\"\"}\n") == 0,
	      "json output:\n%s", out);
	CHECK(out[0] == '{' && strlen(out) >= 2 && strcmp(out + strlen(out) - 2, "}\n") == 0 &&
	      count(out, '\n') == 1, "json is one line in braces");
	CHECK(json_members(out) == 9, "json well-formed with 9 members: %d", json_members(out));
	free(out);
}

static void test_empty(void)
{
	struct report r;
	char *out;

	report_init(&r);
	out = render(&r, REPORT_TEXT);
	CHECK(strcmp(out, "") == 0, "empty text '%s'", out);
	free(out);
	out = render(&r, REPORT_TSV);
	CHECK(strcmp(out, "\n\n") == 0, "empty tsv '%s'", out);
	free(out);
	out = render(&r, REPORT_JSON);
	CHECK(strcmp(out, "{}\n") == 0, "empty json '%s'", out);
	CHECK(json_members(out) == 0, "empty json well-formed");
	free(out);
}

static void test_sanitise(void)
{
	struct report r;
	char *out;
	char lng[300];

	report_init(&r);
	report_str(&r, "a", "x\ty\nz\"q\\w\rv\001u\037t");
	report_str(&r, "b", "plain text, with: colons; and / slashes 'quotes' {braces} [brackets]");
	report_str(&r, "c", "\t\n\"\\");
	report_str(&r, "d", "caf\xc3\xa9"); /* UTF-8 passes through */
	report_u64(&r, "e", 5);
	CHECK(strcmp(r.val[0], "x_y_z_q_w_v_u_t") == 0, "sanitised '%s'", r.val[0]);
	CHECK(strcmp(r.val[1], "plain text, with: colons; and / slashes 'quotes' {braces} [brackets]") == 0,
	      "plain text kept '%s'", r.val[1]);
	CHECK(strcmp(r.val[2], "____") == 0, "only specials '%s'", r.val[2]);
	CHECK(strcmp(r.val[3], "caf\xc3\xa9") == 0, "utf-8 kept '%s'", r.val[3]);

	out = render(&r, REPORT_TSV);
	CHECK(strcmp(out,
		     "a\tb\tc\td\te\n"
		     "x_y_z_q_w_v_u_t\tplain text, with: colons; and / slashes 'quotes' {braces} [brackets]"
		     "\t____\tcaf\xc3\xa9\t5\n") == 0,
	      "sanitised tsv:\n%s", out);
	CHECK(count(out, '\n') == 2 && count(out, '\t') == 8, "sanitised tsv shape");
	free(out);
	out = render(&r, REPORT_JSON);
	CHECK(json_members(out) == 5, "sanitised json well-formed: %d\n%s", json_members(out), out);
	free(out);
	out = render(&r, REPORT_TEXT);
	CHECK(count(out, '\n') == 5, "sanitised text has one line per key");
	free(out);

	/* A long value is cut to fit, still terminated. */
	memset(lng, 'a', sizeof lng - 1);
	lng[sizeof lng - 1] = '\0';
	lng[100] = '"';
	report_init(&r);
	report_str(&r, "long", lng);
	CHECK(strlen(r.val[0]) == sizeof r.val[0] - 1, "long value length %zu", strlen(r.val[0]));
	CHECK(strspn(r.val[0], "a") == sizeof r.val[0] - 1, "long value content");
	out = render(&r, REPORT_JSON);
	CHECK(json_members(out) == 1, "long json");
	free(out);
}

static void test_full(void)
{
	static char keys[REPORT_MAX][8];
	struct report r;
	char *out;

	report_init(&r);
	for (unsigned i = 0; i < REPORT_MAX; i++) {
		snprintf(keys[i], sizeof keys[i], "k%u", i);
		if (i % 2)
			report_u64(&r, keys[i], i);
		else
			report_str(&r, keys[i], "s");
	}
	CHECK(r.n == REPORT_MAX, "a full report holds %u, want %u", r.n, REPORT_MAX);
	out = render(&r, REPORT_TSV);
	CHECK(count(out, '\t') == 2 * (REPORT_MAX - 1) && count(out, '\n') == 2, "full tsv shape");
	{
		char last[16];
		snprintf(last, sizeof last, "\tk%u\n", REPORT_MAX - 1);
		CHECK(strstr(out, last) != NULL, "key %u is the last column", REPORT_MAX - 1);
	}
	free(out);
	out = render(&r, REPORT_JSON);
	CHECK(json_members(out) == REPORT_MAX, "full json: %d members", json_members(out));
	free(out);
}

/* One key more than REPORT_MAX is a bug in the tool, not a column to drop without a word: it
 * stops at an assertion (in a child, which dies of SIGABRT). */
static void test_overflow(void)
{
	int st = 0;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct report r;
		freopen("/dev/null", "w", stderr); /* the assertion's message is expected */
		report_init(&r);
		for (unsigned i = 0; i <= REPORT_MAX; i++)
			report_u64(&r, "k", i);
		_exit(0);
	}
	CHECK(pid > 0 && waitpid(pid, &st, 0) == pid, "fork and wait");
#ifdef NDEBUG
	CHECK(WIFEXITED(st), "built with NDEBUG: the key past REPORT_MAX is dropped");
#else
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT, "key %u of %u: abort, not dropped (status %#x)",
	      REPORT_MAX + 1, REPORT_MAX, (unsigned)st);
#endif
}

/* suck's report is the largest either tool prints: every key fits, with and without --latency
 * (its keys are printed either way, as "-" when off), and no key twice. */
static void test_suck_fits(void)
{
	static struct suck_cfg cfg = { .variant = &variant_buffer, .work = { .kind = WORK_NONE, .reps = 1 } };
	static struct total t;
	static struct rx_shared sh;
	static struct rx rx0;
	struct total_env env = { .where = "127.0.0.1:1" };
	struct report on, off;

	rx0.cfg = &cfg;
	rx0.sh = &sh;
	report_init(&off);
	total_report(&off, &t, &rx0, &env);
	t.latency = 1;
	report_init(&on);
	total_report(&on, &t, &rx0, &env);
	CHECK(on.n == off.n, "the same keys with --latency (%u) as without (%u)", on.n, off.n);
	CHECK(on.n <= REPORT_MAX, "suck's report: %u keys, at most %u", on.n, REPORT_MAX);
	CHECK(on.n >= 60, "suck's report has its keys (%u)", on.n);
	const char *twice = NULL;
	for (unsigned i = 0; i < on.n; i++)
		for (unsigned k = 0; k < i; k++)
			if (strcmp(on.key[i], on.key[k]) == 0)
				twice = on.key[i];
	CHECK(twice == NULL, "key %s twice", twice);
}

static void test_files(void)
{
	struct report r;
	char line[256];
	FILE *f = tmpfile();

	sample(&r);
	CHECK(f != NULL, "tmpfile");
	if (f) {
		CHECK(report_write(&r, REPORT_TSV, f) == 0, "tsv to a file");
		CHECK(report_write(&r, REPORT_JSON, f) == 0, "json to a file");
		rewind(f);
		CHECK(fgets(line, sizeof line, f) && strcmp(line, "tool\treceived\tdelta\tduration_s\tpps"
							    "\tmbps\tbig\tmin\tw\n") == 0, "file line 1");
		CHECK(fgets(line, sizeof line, f) && strncmp(line, "suck\t12345\t", 11) == 0, "file line 2");
		CHECK(fgets(line, sizeof line, f) && json_members(line) == 9, "file line 3");
		CHECK(fgets(line, sizeof line, f) == NULL, "file has 3 lines");
		fclose(f);
	}
	/* A stream that fails (a full disk) is reported. */
	f = fopen("/dev/full", "w");
	if (f) {
		CHECK(report_write(&r, REPORT_TEXT, f) == -1, "a full disk is an error");
		fclose(f);
	}
	/* So is a stream not open for writing. */
	f = fopen("/dev/null", "r");
	if (f) {
		CHECK(report_write(&r, REPORT_JSON, f) == -1, "a read-only stream is an error");
		fclose(f);
	}
}

/* A figure that is not a number stays visible: nan/inf in text and tsv, null in json. */
static void test_not_a_number(void)
{
	struct report r;
	char *out;

	report_init(&r);
	report_f(&r, "a", 0.0 / 0.0, 1);
	report_f(&r, "b", 1.0 / 0.0, 1);
	report_u64(&r, "c", 3);
	out = render(&r, REPORT_JSON);
	CHECK(strcmp(out, "{\"a\":null,\"b\":null,\"c\":3}\n") == 0, "json: %s", out);
	free(out);
	out = render(&r, REPORT_TSV);
	CHECK(strcmp(out, "a\tb\tc\nnan\tinf\t3\n") == 0, "tsv: %s", out);
	free(out);
}

/* A figure not measured: "-" in text and tsv, null in json, never a number. */
static void test_none(void)
{
	struct report r;
	char *out;

	report_init(&r);
	report_u64(&r, "a", 1);
	report_none(&r, "lat_p50_us");
	out = render(&r, REPORT_TSV);
	CHECK(strcmp(out, "a\tlat_p50_us\n1\t-\n") == 0, "none in tsv: '%s'", out);
	free(out);
	out = render(&r, REPORT_JSON);
	CHECK(strstr(out, "\"lat_p50_us\":null") != NULL, "none in json: '%s'", out);
	free(out);
	out = render(&r, REPORT_TEXT);
	CHECK(strstr(out, "lat_p50_us: -") != NULL, "none in text: '%s'", out);
	free(out);
}

/* The brief text: only the keys asked, in the report's order, those not measured ("-") left
 * out, "?key" also when 0; tsv and json keep every key. */
static void test_brief(void)
{
	static const char *const keys[] = { "tool", "received", "lost", "?dup", "?truncated", "lat_p50_us", NULL };
	struct report r;
	char *t, *tsv;

	report_init(&r);
	report_str(&r, "tool", "suck");
	report_u64(&r, "received", 10);
	report_u64(&r, "lost", 0);
	report_u64(&r, "dup", 0);
	report_u64(&r, "truncated", 3);
	report_none(&r, "lat_p50_us");
	report_u64(&r, "calls", 99);
	r.brief = keys;
	t = render(&r, REPORT_TEXT);
	CHECK(strcmp(t, "tool:      suck\nreceived:  10\nlost:      0\ntruncated: 3\n") == 0, "brief text: %s", t);
	tsv = render(&r, REPORT_TSV);
	CHECK(count(tsv, '\t') == 2 * 6, "brief leaves tsv whole: %s", tsv);
	free(t);
	free(tsv);
	r.brief = NULL;
	t = render(&r, REPORT_TEXT);
	CHECK(count(t, '\n') == 7, "without brief every key: %s", t);
	free(t);
}

int main(void)
{
	test_brief();
	test_none();
	test_not_a_number();
	test_values();
	test_text();
	test_tsv();
	test_json();
	test_empty();
	test_sanitise();
	test_full();
	test_overflow();
	test_suck_fits();
	test_files();
	return unit_done("report");
}
