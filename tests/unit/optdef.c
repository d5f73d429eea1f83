/* Unit tests for common/optdef.c: a small table parsed (inits, then argv, into fields of every
 * width), its settings as report keys, -h's layout and the docs' markup (md, man). Bad command
 * lines exit, so the shell tests (t_options, t_check) hold those. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "optdef.h"
#include "report.h"
#include "unit.h"

struct cfg {
	const char *host;
	uint32_t id;
	uint64_t rate;
	int size;
	double wait_s;
	int flag, mode, mark, cpu;
};

static const char *const modes[] = { "slow", "fast", NULL };

static int flag_on(const void *cfg)
{
	return ((const struct cfg *)cfg)->flag;
}

#define F(m) .off = offsetof(struct cfg, m), .size = sizeof(((struct cfg *)0)->m)
static const struct optdef rows[] = {
	{ F(host), .sname = 'a', .name = "addr", .arg = "ADDR", .type = OD_STR, OD_DEF("127.0.0.1"),
	  .key = "addr", .sec = 1, .help = "where to, a `code` word" },
	{ F(id), .name = "run-id", .arg = "ID", .type = OD_UINT, .lo = 1, .hi = UINT32_MAX, .key = "run_id",
	  .sec = 1, .flags = OD_CHECK_ONLY, .help = "an id, %R" },
	{ F(rate), .sname = 'r', .name = "rate", .arg = "PPS", .type = OD_COUNT, .lo = 0, .hi = 1e9,
	  OD_DEF("2k"), .key = "rate", .sec = 2, .help = "per second, %R" },
	{ F(size), .sname = 'R', .name = "rcvbuf", .arg = "BYTES", .type = OD_BYTES, .lo = 4096, .hi = 1 << 30,
	  .key = "rcvbuf", .sec = 2, .help = "a buffer, %R, with a long help that has to be wrapped over more "
	  "than one line of the usage, at 79 columns" },
	{ F(wait_s), .name = "wait-a-long-time", .arg = "SECS", .type = OD_SECS, .lo = 0.001, .hi = 60,
	  OD_DEF("1s"), .key = "wait_s", .sec = 2, .needs = "flag", .help = "a wait, %R" },
	{ F(flag), .name = "flag", .type = OD_FLAG, .def = "off", .key = "flag", .sec = 2,
	  .help = "a flag |x| [see this](#there)", .doc = "a flag's doc, |x| [see this](#there)" },
	{ F(mode), .name = "mode", .arg = "HOW", .type = OD_NAMES, .names = modes, OD_DEF("slow"), .key = "mode",
	  .sec = 2, .when = flag_on, .help = "slow or fast" },
	{ F(mark), .name = "mark", .arg = "N", .type = OD_HEX, .lo = 0, .hi = 255, .flags = OD_UNSET_NONE,
	  .key = "mark", .sec = 2, .help = "a mark, %R" },
	{ F(cpu), .name = "cpu", .arg = "N", .type = OD_CPU, .key = "cpu", .sec = 2, .help = "a CPU" },
	{ .off = -1, .name = "secret", .type = OD_FLAG, .flags = OD_HIDDEN, .help = "not shown" },
};
static const char *given[sizeof rows / sizeof rows[0]];
static struct optdef_table table = {
	.prog = "unit", .row = rows, .n = sizeof rows / sizeof rows[0],
	.usage_head = "usage: unit\n", .usage_tail = "end\n", .given = given,
};

/* The report's keys and values as "k=v k=v ". */
static const char *pairs(const struct report *r)
{
	static char buf[512];
	size_t n = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < r->n; i++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s=%s ", r->key[i], r->val[i]);
	return buf;
}

/* What f writes to a memory stream. */
static char *capture(void (*f)(FILE *))
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	f(m);
	fclose(m);
	return text;
}

static void usage(FILE *out) { optdef_usage(&table, out); }
static void md(FILE *out) { optdef_doc(&table, "md", out); }
static void man(FILE *out) { optdef_doc(&table, "man", out); }

int main(void)
{
	char *argv[] = { "unit", "--run-id", "16", "-r", "3k", "-R", "1M", "--flag", "--mode", "fast",
			 "--wait-a-long-time", "250ms", NULL };
	struct cfg c;
	struct report r;
	char *text, *line;
	int widest = 0, lines = 0;

	/* inits first: the defaults shown are the values taken; unset marks and CPUs are -1 */
	memset(&c, 0x5a, sizeof c);
	c.flag = 0;
	optdef_parse(&table, &c, 1, argv);
	CHECK(strcmp(c.host, "127.0.0.1") == 0 && c.rate == 2000 && c.wait_s == 1 && c.mode == 0,
	      "inits: %s %llu %g %d", c.host, (unsigned long long)c.rate, c.wait_s, c.mode);
	CHECK(c.mark == -1 && c.cpu == -1, "unset: mark %d, cpu %d", c.mark, c.cpu);
	CHECK(!optdef_given(&table, "rate"), "rate given without argv");

	optdef_parse(&table, &c, (int)(sizeof argv / sizeof argv[0]) - 1, argv);
	CHECK(c.id == 16, "--run-id 16 gave %u", c.id);
	CHECK(c.rate == 3000 && c.size == 1 << 20 && c.flag == 1 && c.mode == 1 && c.wait_s == 0.25,
	      "argv: %llu %d %d %d %g", (unsigned long long)c.rate, c.size, c.flag, c.mode, c.wait_s);
	CHECK(optdef_given(&table, "rate") && strcmp(optdef_given(&table, "rate"), "3k") == 0, "given rate");
	CHECK(optdef_given(&table, "flag") && !*optdef_given(&table, "flag"), "a flag given is \"\"");
	CHECK(optdef_row(&table, "mode") == &rows[6], "the row by name");

	/* settings: the section's keys in the table's order; --check's only with check; when and
	 * unset show '-' */
	report_init(&r);
	optdef_settings(&r, &table, &c, 1, 0, NULL);
	CHECK(strcmp(pairs(&r), "addr=127.0.0.1 ") == 0, "report, section 1: %s", pairs(&r));
	report_init(&r);
	optdef_settings(&r, &table, &c, 1, 1, NULL);
	CHECK(strcmp(pairs(&r), "addr=127.0.0.1 run_id=16 ") == 0, "check, section 1: %s", pairs(&r));
	report_init(&r);
	optdef_settings(&r, &table, &c, 2, 0, NULL);
	CHECK(strcmp(pairs(&r), "rate=3000 rcvbuf=1048576 wait_s=0.250 flag=1 mode=fast mark=- cpu=- ") == 0,
	      "section 2: %s", pairs(&r));
	c.flag = 0;
	report_init(&r);
	optdef_settings(&r, &table, &c, 2, 0, NULL);
	CHECK(strstr(pairs(&r), "mode=- "), "mode without flag: %s", pairs(&r));

	/* -h: options at column 2 or 6, help at 23 (a long option's on the next line), lines of
	 * at most 79, the default in brackets, ranges from the row, hidden rows left out */
	text = capture(usage);
	for (line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		int len = (int)strlen(line);
		widest = len > widest ? len : widest;
		lines++;
	}
	free(text);
	text = capture(usage);
	CHECK(widest <= 79, "-h is %d wide", widest);
	CHECK(strstr(text, "usage: unit\n  -a, --addr ADDR      where to, a code word (127.0.0.1)\n"), "%s", text);
	CHECK(strstr(text, "      --run-id ID      an id, 1..4294967295\n"), "%s", text);
	CHECK(strstr(text, "  -r, --rate PPS       per second, 0..1G (2k)\n"), "%s", text);
	CHECK(strstr(text, "4k..1G"), "bytes with their suffixes: %s", text);
	CHECK(strstr(text, "      --wait-a-long-time SECS\n                       a wait, 1ms..60s (1s)\n"), "%s", text);
	CHECK(strstr(text, "--mark N         a mark, 0..255\n"), "%s", text);
	CHECK(!strstr(text, "secret"), "a hidden option in -h");
	CHECK(strstr(text, "\nend\n"), "the tail");
	CHECK(lines >= 12, "%d lines", lines);
	free(text);

	/* md: a row per option, '|' escaped, code and links kept; the key, --check's marked */
	text = capture(md);
	CHECK(strncmp(text, "| option | meaning | default | report key |\n|---|---|---|---|\n", 62) == 0, "%s", text);
	CHECK(strstr(text, "| `-a, --addr ADDR` | where to, a `code` word | 127.0.0.1 | `addr` |\n"), "%s", text);
	CHECK(strstr(text, "| `--run-id ID` | an id, 1..4294967295 |  | `run_id` (`--check`) |\n"), "%s", text);
	CHECK(strstr(text, "| `--flag` | a flag's doc, \\|x\\| [see this](#there) | off | `flag` |\n"), "%s", text);
	CHECK(!strstr(text, "secret"), "a hidden option in the manual");
	free(text);

	/* man: a .TP item each, dashes escaped, code bold, a link's text, Default and Report key */
	text = capture(man);
	CHECK(strstr(text, ".TP\n\\fB\\-a\\fR, \\fB\\-\\-addr\\fR \\fIADDR\\fR\nwhere to, a \\fBcode\\fR word.\n"
			   "Default: 127.0.0.1.\nReport key: \\fBaddr\\fR.\n"), "%s", text);
	CHECK(strstr(text, "\\fB\\-\\-flag\\fR\na flag's doc, |x| see this.\n"), "%s", text);
	CHECK(strstr(text, "Report key: \\fBrun_id\\fR (the \\fB\\-\\-check\\fR row only).\n"), "%s", text);
	CHECK(!strstr(text, "secret"), "a hidden option in the man page");
	for (line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
		CHECK(line[0] != '\'' && (line[0] != '.' || strncmp(line, ".TP", 3) == 0), "a request line: %s", line);
	free(text);
	CHECK(optdef_doc(&table, "html", stdout) < 0, "another format");
	return unit_done("optdef");
}
