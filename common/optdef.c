/* optdef: the option table's parser, usage, settings and docs (see optdef.h). Nothing here knows
 * a tool: what is special to one option is its row's setter, show or when. */
#include "optdef.h"

#include <assert.h>
#include <ctype.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "sys.h"
#include "version.h"

#define OD_MAX_ROWS 64
#define OD_DOC (OD_MAX_ROWS + 256) /* getopt_long's value for --options-doc */

enum target { PLAIN, MD, MAN };

static const struct optdef *row_of(const struct optdef_table *t, const char *name)
{
	for (unsigned i = 0; i < t->n; i++)
		if (t->row[i].name && strcmp(t->row[i].name, name) == 0)
			return &t->row[i];
	return NULL;
}

const struct optdef *optdef_row(const struct optdef_table *t, const char *name)
{
	const struct optdef *o = row_of(t, name);

	if (!o) {
		fprintf(stderr, "%s: no option --%s in the table\n", t->prog, name);
		abort();
	}
	return o;
}

const char *optdef_given(const struct optdef_table *t, const char *name)
{
	return t->given[optdef_row(t, name) - t->row];
}

const char *optdef_name(const struct optdef *o, char *buf, size_t len)
{
	if (o->sname)
		snprintf(buf, len, "-%c", o->sname);
	else
		snprintf(buf, len, "--%s", o->name);
	return buf;
}

static enum opt_unit unit_of(enum optdef_type type)
{
	return type == OD_COUNT ? OPT_COUNT : type == OD_BYTES ? OPT_BYTES : type == OD_HEX ? OPT_HEX : OPT_PLAIN;
}

uint64_t optdef_u64(const struct optdef *o, const char *arg, uint64_t lo, uint64_t hi)
{
	char name[40];

	return opt_u64(optdef_name(o, name, sizeof name), arg, unit_of(o->type), lo, hi);
}

/* The row's field, written and read at its own width: a number may go into an unsigned, a
 * uint64_t or an int that starts at -1. */
static void *field(const struct optdef *o, void *cfg)
{
	assert(o->off >= 0);
	return (char *)cfg + o->off;
}

static void put(const struct optdef *o, void *cfg, int64_t v)
{
	void *p = field(o, cfg);

	switch (o->size) {
	case 1: *(uint8_t *)p = (uint8_t)v; break;
	case 2: *(uint16_t *)p = (uint16_t)v; break;
	case 4: *(uint32_t *)p = (uint32_t)v; break;
	case 8: *(uint64_t *)p = (uint64_t)v; break;
	default: assert(!"a number's field is 1, 2, 4 or 8 bytes");
	}
}

/* The field's value; signed: an int that may be -1. */
static int64_t get(const struct optdef *o, const void *cfg, int is_signed)
{
	const void *p = (const char *)cfg + o->off;

	switch (o->size) {
	case 1: return is_signed ? *(const int8_t *)p : *(const uint8_t *)p;
	case 2: return is_signed ? *(const int16_t *)p : *(const uint16_t *)p;
	case 4: return is_signed ? *(const int32_t *)p : (int64_t)*(const uint32_t *)p;
	default: return *(const int64_t *)p;
	}
}

static void store(const struct optdef *o, void *cfg, const char *arg)
{
	char name[40];

	if (o->set) {
		o->set(o, cfg, arg);
		return;
	}
	if (o->off < 0)
		return;
	optdef_name(o, name, sizeof name);
	switch (o->type) {
	case OD_FLAG:
		assert(o->size == sizeof(int));
		*(int *)field(o, cfg) = 1;
		break;
	case OD_UINT: case OD_COUNT: case OD_BYTES: case OD_HEX:
		put(o, cfg, (int64_t)opt_u64(name, arg, unit_of(o->type), (uint64_t)o->lo, (uint64_t)o->hi));
		break;
	case OD_CPU:
		put(o, cfg, (int64_t)opt_u64(name, arg, OPT_PLAIN, 0, sys_ncpu() - 1));
		break;
	case OD_SECS:
		assert(o->size == sizeof(double));
		*(double *)field(o, cfg) = opt_secs(name, arg, o->lo, o->hi);
		break;
	case OD_STR:
		assert(o->size == sizeof(const char *));
		*(const char **)field(o, cfg) = arg;
		break;
	case OD_NAMES:
		assert(o->size == sizeof(int));
		*(int *)field(o, cfg) = opt_name(name, arg, o->names);
		break;
	case OD_HELP: case OD_VERSION:
		break;
	}
}

static char help_buf[1 << 14]; /* stdout's buffer for -h */

void optdef_parse(struct optdef_table *t, void *cfg, int argc, char **argv)
{
	static struct option longs[OD_MAX_ROWS + 2];
	char shorts[3 * OD_MAX_ROWS + 2] = ":";
	size_t k = 1;
	int c;

	assert(t->n <= OD_MAX_ROWS);
	opt_prog = t->prog;
	for (unsigned i = 0; i < t->n; i++) {
		const struct optdef *o = &t->row[i];
		t->given[i] = NULL;
		if (o->off >= 0 && (o->type == OD_CPU || (o->flags & OD_UNSET_NONE)))
			put(o, cfg, -1);
		if (o->init)
			store(o, cfg, o->init);
		longs[i] = (struct option){ o->name, o->arg ? required_argument : no_argument, NULL,
					    o->sname ? o->sname : (int)(256 + i) };
		if (o->sname) {
			shorts[k++] = o->sname;
			if (o->arg)
				shorts[k++] = ':';
		}
	}
	shorts[k] = '\0';
	longs[t->n] = (struct option){ "options-doc", required_argument, NULL, OD_DOC };
	longs[t->n + 1] = (struct option){ 0, 0, 0, 0 };
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		const struct optdef *o = NULL;

		if (c == ':')
			opt_die("%s needs a value", argv[optind - 1]);
		if (c == OD_DOC) {
			if (optdef_doc(t, optarg, stdout) < 0)
				opt_die("--options-doc '%s': unknown; accepted: md, man", optarg);
			opt_done();
		}
		if (c >= 256 && c < 256 + (int)t->n)
			o = &t->row[c - 256];
		for (unsigned i = 0; !o && c != '?' && i < t->n; i++)
			if (t->row[i].sname == c)
				o = &t->row[i];
		if (!o)
			opt_die("unknown option '%s'", argv[optind - 1]);
		t->given[o - t->row] = optarg ? optarg : "";
		if (o->type == OD_HELP) {
			/* One buffer for the whole text (over 4 KiB): a write that fails part-way then
			 * fails in opt_done's fflush, whose errno it names (ENOSPC), not earlier in
			 * stdio, which keeps no errno. */
			setvbuf(stdout, help_buf, _IOFBF, sizeof help_buf); /* glibc: a size alone is ignored */
			optdef_usage(t, stdout);
			opt_done();
		}
		if (o->type == OD_VERSION) {
			printf("%s %s\n", t->prog, version_text);
			opt_done();
		}
		if (!(o->flags & OD_LATE))
			store(o, cfg, optarg);
	}
	if (optind < argc)
		opt_die("unexpected argument '%s'", argv[optind]);
}

void optdef_needs(const struct optdef_table *t)
{
	char name[40];

	for (unsigned i = 0; i < t->n; i++) {
		const struct optdef *o = &t->row[i];
		if (!o->needs || !t->given[i] || optdef_given(t, o->needs))
			continue;
		if (o->needs_msg)
			opt_die("%s", o->needs_msg);
		opt_die("%s applies to --%s", optdef_name(o, name, sizeof name), o->needs);
	}
}

void optdef_settings(struct report *r, const struct optdef_table *t, const void *cfg, int sec,
		     int check, const void *ctx)
{
	for (unsigned i = 0; i < t->n; i++) {
		const struct optdef *o = &t->row[i];
		int64_t v;

		if (!o->key || o->sec != sec || (!check && (o->flags & OD_CHECK_ONLY)))
			continue;
		if (o->when && !o->when(cfg)) {
			report_none(r, o->key);
			continue;
		}
		if (o->show) {
			o->show(r, o, cfg, check, ctx);
			continue;
		}
		switch (o->type) {
		case OD_SECS:
			report_f(r, o->key, *(const double *)((const char *)cfg + o->off), o->prec ? o->prec : 3);
			break;
		case OD_STR: {
			const char *s = *(const char *const *)((const char *)cfg + o->off);
			if (s)
				report_str(r, o->key, s);
			else
				report_none(r, o->key);
			break;
		}
		case OD_NAMES:
			report_str(r, o->key, o->names[get(o, cfg, 1)]);
			break;
		default:
			v = get(o, cfg, o->type == OD_CPU || (o->flags & OD_UNSET_NONE));
			if (v < 0 && (o->type == OD_CPU || (o->flags & OD_UNSET_NONE)))
				report_none(r, o->key);
			else
				report_u64(r, o->key, (uint64_t)v);
			break;
		}
	}
}

/* --- texts ----------------------------------------------------------------------------- */

/* A bound: counts and sizes with their suffix where it is exact, durations in ms below 1 s. */
static void bound(const struct optdef *o, double v, char *buf, size_t len)
{
	static const char sfx[] = "kMG";
	uint64_t base = o->type == OD_BYTES ? 1024 : 1000, u = (uint64_t)v;

	if (o->type == OD_SECS) {
		if (v > 0 && v < 1)
			snprintf(buf, len, "%gms", v * 1e3);
		else
			snprintf(buf, len, "%gs", v);
		return;
	}
	if (o->type == OD_COUNT || o->type == OD_BYTES) {
		for (int i = 2; i >= 0; i--) {
			uint64_t m = i == 2 ? base * base * base : i == 1 ? base * base : base;
			if (u >= m && u % m == 0) {
				snprintf(buf, len, "%llu%c", (unsigned long long)(u / m), sfx[i]);
				return;
			}
		}
	}
	snprintf(buf, len, "%.0f", v);
}

static void range_text(const struct optdef *o, char *buf, size_t len)
{
	char lo[32], hi[32];

	if (o->range) {
		snprintf(buf, len, "%s", o->range);
		return;
	}
	if (o->lo == 0 && o->hi == 0) {
		buf[0] = '\0';
		return;
	}
	bound(o, o->lo, lo, sizeof lo);
	bound(o, o->hi, hi, sizeof hi);
	/* "1ms..60s", "1..60s" */
	if (o->type == OD_SECS && lo[strlen(lo) - 1] == 's' && lo[strlen(lo) - 2] != 'm')
		lo[strlen(lo) - 1] = '\0';
	snprintf(buf, len, "%s..%s", lo, hi);
}

struct out {
	char *s;
	size_t n, len;
};

static void add(struct out *b, const char *s, size_t n)
{
	if (b->n + n >= b->len)
		n = b->len - b->n - 1;
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
}

static void adds(struct out *b, const char *s)
{
	add(b, s, strlen(s));
}

/* src in target's markup: `code`, [text](link), %R, %A..%Z; md escapes '|', man '-' and '\'. */
static void render(const struct optdef_table *t, const struct optdef *o, const char *src, enum target to,
		   struct out *b)
{
	int code = 0;

	for (const char *p = src; *p; p++) {
		const char *close, *end;
		char sub[160];

		if (*p == '%' && p[1] >= 'A' && p[1] <= 'Z') {
			if (p[1] == 'R')
				range_text(o, sub, sizeof sub);
			else
				snprintf(sub, sizeof sub, "%s", t->expand ? t->expand(o, p[1]) : "");
			render(t, o, sub, to, b);
			p++;
		} else if (*p == '`') {
			code = !code;
			adds(b, to == MD ? "`" : to == MAN ? (code ? "\\fB" : "\\fR") : "");
		} else if (*p == '[' && (close = strstr(p, "](")) && (end = strchr(close, ')')) &&
			   !memchr(p, '`', (size_t)(close - p))) {
			/* a link: the manual keeps it, elsewhere its text */
			if (to == MD) {
				add(b, p, (size_t)(end + 1 - p));
			} else {
				char text[160];
				snprintf(text, sizeof text, "%.*s", (int)(close - p - 1), p + 1);
				render(t, o, text, to, b);
			}
			p = end;
		} else if (to == MD && *p == '|') {
			adds(b, "\\|");
		} else if (to == MAN && *p == '-') {
			adds(b, "\\-");
		} else if (to == MAN && *p == '\\') {
			adds(b, "\\e");
		} else if (to == MAN && strncmp(p, "\xc3\x97", 2) == 0) { /* × */
			adds(b, "\\(mu");
			p++;
		} else if (to == MAN && strncmp(p, "\xc2\xb5", 2) == 0) { /* µ */
			adds(b, "\\(mc");
			p++;
		} else {
			add(b, p, 1);
		}
	}
}

/* The option's forms: "-a, --addr ADDR" (md), the man page's tag with its fonts. */
static void spec(const struct optdef *o, enum target to, struct out *b)
{
	char s[96];

	if (to == MAN) {
		if (o->sname) {
			snprintf(s, sizeof s, "\\fB\\-%c\\fR, ", o->sname);
			adds(b, s);
		}
		adds(b, "\\fB\\-\\-");
		for (const char *p = o->name; *p; p++)
			adds(b, *p == '-' ? "\\-" : (char[]){ *p, 0 });
		adds(b, "\\fR");
		if (o->arg) {
			adds(b, " \\fI");
			adds(b, o->arg);
			adds(b, "\\fR");
		}
		return;
	}
	snprintf(s, sizeof s, "%s%s%s--%s%s%s", to == PLAIN ? "  " : "", o->sname ? (char[]){ '-', o->sname, 0 } : "",
		 o->sname ? ", " : to == PLAIN ? "    " : "", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
	adds(b, s);
}

/* Prints text in lines of at most width, the first after lead (already printed, col long), the
 * others after indent spaces; man: no line may start with a request's dot or quote. */
static void wrap(FILE *out, const char *text, size_t col, size_t indent, size_t width, int man)
{
	const char *p = text;

	while (*p) {
		const char *end = p, *cut = NULL;
		size_t room = width > col ? width - col : 1;

		while (*end && (size_t)(end - p) <= room) {
			if (*end == ' ')
				cut = end;
			end++;
		}
		if (!*end && (size_t)(end - p) <= room)
			cut = end;
		else if (!cut)
			for (cut = end; *cut && *cut != ' '; cut++)
				;
		if (man && (*p == '.' || *p == '\''))
			fputs("\\&", out);
		fprintf(out, "%.*s\n", (int)(cut - p), p);
		p = *cut ? cut + 1 : cut;
		if (*p && !man)
			fprintf(out, "%*s", (int)indent, "");
		col = indent;
	}
}

void optdef_usage(const struct optdef_table *t, FILE *out)
{
	fputs(t->usage_head, out);
	for (unsigned i = 0; i < t->n; i++) {
		const struct optdef *o = &t->row[i];
		char sb[96], tb[1024];
		struct out s = { sb, 0, sizeof sb }, x = { tb, 0, sizeof tb };

		if (o->flags & OD_HIDDEN)
			continue;
		sb[0] = tb[0] = '\0';
		spec(o, PLAIN, &s);
		render(t, o, o->help, PLAIN, &x);
		if (o->def) {
			adds(&x, " (");
			render(t, o, o->def, PLAIN, &x);
			adds(&x, ")");
		}
		/* the help at column 23, or on the next line after a long option */
		if (s.n + 2 <= 23)
			fprintf(out, "%-23s", sb);
		else
			fprintf(out, "%s\n%23s", sb, "");
		wrap(out, tb, 23, 23, 79, 0);
		if (o->usage_more)
			o->usage_more(out);
	}
	fputs(t->usage_tail, out);
}

int optdef_doc(const struct optdef_table *t, const char *fmt, FILE *out)
{
	enum target to = strcmp(fmt, "md") == 0 ? MD : strcmp(fmt, "man") == 0 ? MAN : PLAIN;

	if (to == PLAIN)
		return -1;
	if (to == MD)
		fputs("| option | meaning | default | report key |\n|---|---|---|---|\n", out);
	for (unsigned i = 0; i < t->n; i++) {
		const struct optdef *o = &t->row[i];
		char sb[128], tb[2048], db[256];
		struct out s = { sb, 0, sizeof sb }, x = { tb, 0, sizeof tb }, d = { db, 0, sizeof db };

		if (o->flags & OD_HIDDEN)
			continue;
		sb[0] = tb[0] = db[0] = '\0';
		spec(o, to, &s);
		render(t, o, o->doc ? o->doc : o->help, to, &x);
		if (o->def)
			render(t, o, o->def, to, &d);
		if (to == MD) {
			fprintf(out, "| `%s` | %s | %s | ", sb, tb, db);
			if (o->key)
				fprintf(out, "`%s`%s", o->key, o->flags & OD_CHECK_ONLY ? " (`--check`)" : "");
			fputs(" |\n", out);
			continue;
		}
		fprintf(out, ".TP\n%s\n", sb);
		if (x.n && tb[x.n - 1] != '.')
			adds(&x, ".");
		wrap(out, tb, 0, 0, 78, 1);
		if (o->def) {
			fputs("Default: ", out);
			if (d.n && db[d.n - 1] != '.')
				adds(&d, ".");
			wrap(out, db, 9, 0, 78, 1);
		}
		if (o->key)
			fprintf(out, "Report key: \\fB%s\\fR%s.\n", o->key,
				o->flags & OD_CHECK_ONLY ? " (the \\fB\\-\\-check\\fR row only)" : "");
	}
	return 0;
}
