/* optdef: a tool's options as one table of rows, each the one declaration of its option: its
 * forms, argument, range, where the value goes, default, help, report key and section. From the
 * table come the getopt_long arrays and the loop, -h, the settings of --check's row and of the
 * report, and the option lists of docs/manual.md and the man pages (--options-doc md|man, a
 * maintainer's flag that `make docs` runs). Cross-option rules that are real logic stay in the
 * tool's options.c, after optdef_parse; "X applies only with Y" is a row's needs.
 *
 * Texts (help, doc, def) take a little markup: `code`, [text](link) (the manual keeps both,
 * the man page the text), %R for the row's range, %A..%Z for what the table's expand says of
 * the row (suck's %V: the variants an option applies to). -h strips the markup. */
#ifndef OPTDEF_H
#define OPTDEF_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "opt.h"
#include "report.h"

enum optdef_type {
	OD_FLAG,    /* no argument: an int set to 1 */
	OD_UINT,    /* a number lo..hi, no suffix */
	OD_COUNT,   /* ... with k, M, G = 10^3.. (counts, rates) */
	OD_BYTES,   /* ... with k, M, G = 2^10.. (sizes) */
	OD_HEX,     /* ... decimal, or hexadecimal after 0x */
	OD_CPU,     /* a CPU number 0..CPUs-1 in an int; -1 (not pinned) until given */
	OD_SECS,    /* a duration lo..hi seconds with ns, us, ms, s, m, in a double */
	OD_STR,     /* a string, kept as given (a const char *) */
	OD_NAMES,   /* one of names, its index in an int */
	OD_HELP,    /* -h: the usage on stdout, exit 0 */
	OD_VERSION, /* -V: "PROG VERSION" on stdout, exit 0 */
};

enum {
	OD_LATE = 1,       /* the argument is kept for the tool's rules, not stored (its range
			      depends on other options); an init is stored all the same */
	OD_CHECK_ONLY = 2, /* its key is in --check's row, not in the report */
	OD_HIDDEN = 4,     /* not in -h nor in the docs */
	OD_UNSET_NONE = 8, /* the field starts at -1, reported as '-' (the kernel's default) */
};

struct optdef;
/* A setter parses arg into cfg itself (and may end the command line with opt_die). */
typedef void optdef_set_fn(const struct optdef *o, void *cfg, const char *arg);
/* A show adds the row's key(s) to a report (check: --check's row); ctx is what the tool passes
 * to optdef_settings. */
typedef void optdef_show_fn(struct report *r, const struct optdef *o, const void *cfg, int check,
			    const void *ctx);

struct optdef {
	long off;                 /* the value's offset in the tool's cfg; -1: none */
	size_t size;              /* ... and its size */
	char sname;               /* the short form, 0 none */
	const char *name;         /* the long form, without "--" */
	const char *arg;          /* the argument's name in -h (NULL: a flag) */
	enum optdef_type type;
	double lo, hi;            /* the range, for numbers and durations */
	const char *range;        /* the range as the docs show it, when not lo..hi ("" none) */
	const char *const *names; /* OD_NAMES */
	const char *def;          /* the default as -h and the docs show it (NULL: none said) */
	const char *init;         /* parsed as the option's argument before the command line */
	const char *help;         /* one line of -h */
	const char *doc;          /* the docs' text, when more than help */
	const char *key;          /* the report's and --check's key; NULL: none */
	int sec;                  /* the report's section the key is in (the tool's numbers) */
	unsigned flags;           /* OD_LATE, ... */
	const char *needs;        /* the long name of an option that must be given with it */
	const char *needs_msg;    /* ... the message when it is not (default "X applies to --Y") */
	int cap;                  /* the tool's own: suck, the variants that take it (0: all) */
	int prec;                 /* OD_SECS in the report: decimals (0: 3) */
	optdef_set_fn *set;       /* parses instead of the type's parser */
	optdef_show_fn *show;     /* reports instead of the type's way */
	int (*when)(const void *cfg); /* the key is '-' unless this says 1 */
	void (*usage_more)(FILE *out); /* -h: lines printed after the row's (suck -m) */
};

/* The default shown is the value taken: the same text parsed before the command line. */
#define OD_DEF(s) .def = (s), .init = (s)
/* A number's macro as the text of a default: OD_NUM(BLAST_PLAIN_BATCH) is "32". */
#define OD_NUM(x) OD_NUM_(x)
#define OD_NUM_(x) #x

struct optdef_table {
	const char *prog;         /* "blast", "suck" */
	const struct optdef *row;
	unsigned n;
	const char *usage_head;   /* -h: the lines before the options */
	const char *usage_tail;   /* ... and after */
	/* %A..%Z (but %R) in a text: what the tool says of row o (NULL: nothing) */
	const char *(*expand)(const struct optdef *o, char letter);
	const char **given;       /* n entries: the argument given ("" a flag), NULL not given */
};

/* Every option of argv into cfg: the rows' inits first, then the command line; -h, -V and
 * --options-doc end the process here; a bad option, value or argument ends it with exit 2. */
void optdef_parse(struct optdef_table *t, void *cfg, int argc, char **argv);
/* The row with this long name; a name no row has is a bug (abort). */
const struct optdef *optdef_row(const struct optdef_table *t, const char *name);
/* The argument given to the option (a flag's ""), NULL when not given. */
const char *optdef_given(const struct optdef_table *t, const char *name);
/* The option as messages name it: "-p", or "--tos" where there is no short form. */
const char *optdef_name(const struct optdef *o, char *buf, size_t len);
/* The rows' needs: the first option given without the one it needs ends the command line. */
void optdef_needs(const struct optdef_table *t);
/* The number in arg under row o's type and range, lo..hi given (a range known only now);
 * a bad one ends the command line, naming the option. */
uint64_t optdef_u64(const struct optdef *o, const char *arg, uint64_t lo, uint64_t hi);
/* The keys of section sec, in the table's order (check: with the OD_CHECK_ONLY ones). */
void optdef_settings(struct report *r, const struct optdef_table *t, const void *cfg, int sec,
		     int check, const void *ctx);
/* The usage (-h) on out. */
void optdef_usage(const struct optdef_table *t, FILE *out);
/* The option list as docs/manual.md's table ("md") or the man page's OPTIONS items ("man");
 * -1 for another fmt. */
int optdef_doc(const struct optdef_table *t, const char *fmt, FILE *out);

#endif
