/* opttail: the last rows of both tools' option tables (blast/options.h, suck/options.h), which
 * include it at their end: the output format, -v, -h and -V, the same in each. An X-macro
 * table's rows, included as the tables are, so no include guard. */
OPT(int, fmt, .sname = 'o', .name = "output", .arg = "FMT", .type = OD_NAMES, .names = report_fmt_names,
    OD_DEF("text"),
    .help = "text, tsv or json",
    .doc = "`text`, `tsv` or `json`")
OPT(int, verbose, .sname = 'v', .name = "verbose", .type = OD_FLAG, .def = "off",
    .help = "the text report with every key (off: the headline keys only)",
    .doc = "the text report with every key; off, text shows the headline keys (what was sent, received, "
	   "lost and where, the rate, the CPU per datagram, the memory, the measures asked for); tsv and "
	   "json always have every key")
OPT_ARG(.sname = 'h', .name = "help", .type = OD_HELP, .help = "this text",
	.doc = "print the usage and exit")
OPT_ARG(.sname = 'V', .name = "version", .type = OD_VERSION, .help = "version",
	.doc = "print the version (`git describe` of the build) and exit")
