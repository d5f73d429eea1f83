# make install / uninstall into a staging DESTDIR; the option lists of -h, the man pages and the
# manual's tables (docs/manual.md) agree; the man pages name every report key; the man pages lint clean (groff or
# mandoc, when installed).
. tests/lib.sh

# The nested make must not take the outer make's flags (a jobserver, a PREFIX given to make test).
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s B="$BIN" "$@"; }

# --- make install / uninstall ---------------------------------------------------------------
root=$TMP/root
# Files that were there before must survive uninstall, and directories stay.
mkdir -p "$root/usr/bin" "$root/usr/share/man/man1"
echo keep >"$root/usr/bin/other"
echo keep >"$root/usr/share/man/man1/other.1"

if mk install DESTDIR="$root" PREFIX=/usr >"$TMP/install.out" 2>&1; then ok; else
	fail "make install DESTDIR=$root PREFIX=/usr: $(tail -n 5 "$TMP/install.out")"
fi
printf '%s\n' ./usr/bin/blast ./usr/bin/other ./usr/bin/suck ./usr/share/man/man1/blast.1 \
	./usr/share/man/man1/other.1 ./usr/share/man/man1/suck.1 >"$TMP/want"
(cd "$root" && find . ! -type d | LC_ALL=C sort) >"$TMP/got"
check "make install puts exactly the documented files: $(diff "$TMP/want" "$TMP/got" | grep '^[<>]' | tr '\n' ' ')" \
	cmp -s "$TMP/want" "$TMP/got"
for f in usr/bin/blast usr/bin/suck usr/share/man/man1/blast.1 usr/share/man/man1/suck.1; do
	case $f in usr/bin/*) want=755 ;; *) want=644 ;; esac
	m=$(stat -c %a "$root/$f" 2>/dev/null)
	check "$f: mode ${m:-missing}, want $want" test "$m" = "$want"
done
for tool in blast suck; do
	v=$("$root/usr/bin/$tool" -V 2>&1)
	check "installed $tool -V runs and matches the build's ($v)" test "$v" = "$("$BIN/$tool" -V)"
	check "installed $tool.1 is man/$tool.1" cmp -s "$root/usr/share/man/man1/$tool.1" "man/$tool.1"
done

if mk uninstall DESTDIR="$root" PREFIX=/usr >"$TMP/uninstall.out" 2>&1; then ok; else
	fail "make uninstall: $(tail -n 5 "$TMP/uninstall.out")"
fi
printf '%s\n' ./usr/bin/other ./usr/share/man/man1/other.1 >"$TMP/want"
(cd "$root" && find . ! -type d | LC_ALL=C sort) >"$TMP/got"
check "make uninstall removes exactly the installed files: $(diff "$TMP/want" "$TMP/got" | grep '^[<>]' | tr '\n' ' ')" \
	cmp -s "$TMP/want" "$TMP/got"
check "make uninstall leaves the directories" test -d "$root/usr/bin" -a -d "$root/usr/share/man/man1"

# PREFIX defaults to /usr/local (unset here: an exported PREFIX overrides the default).
if (unset PREFIX; mk install DESTDIR="$TMP/def") >"$TMP/def.out" 2>&1; then ok; else
	fail "make install DESTDIR=$TMP/def: $(tail -n 5 "$TMP/def.out")"
fi
check "the default PREFIX is /usr/local" test -x "$TMP/def/usr/local/bin/suck" -a \
	-f "$TMP/def/usr/local/share/man/man1/suck.1"

# An empty PREFIX is refused: it would install into /bin and /share. The
# DESTDIR shows nothing was written.
for goal in install uninstall; do
	mkdir -p "$TMP/empty-$goal"
	mk $goal PREFIX= DESTDIR="$TMP/empty-$goal" >"$TMP/empty.out" 2>&1
	st=$?
	check "make $goal PREFIX=: exit $st, not 0" test $st != 0
	check "make $goal PREFIX=: says why: $(tail -n 1 "$TMP/empty.out")" grep -q 'PREFIX is empty' "$TMP/empty.out"
	check "make $goal PREFIX=: nothing installed" test -z "$(find "$TMP/empty-$goal" ! -type d)"
done
# A space and a single quote in PREFIX and DESTDIR are characters like any other.
q="$TMP/dest d'q"
pfx="/opt/a b'c"
if mk install DESTDIR="$q" PREFIX="$pfx" >"$TMP/quote.out" 2>&1; then ok; else
	fail "make install PREFIX=\"$pfx\": $(tail -n 3 "$TMP/quote.out")"
fi
printf '%s\n' "./opt/a b'c/bin/blast" "./opt/a b'c/bin/suck" "./opt/a b'c/share/man/man1/blast.1" \
	"./opt/a b'c/share/man/man1/suck.1" >"$TMP/want"
(cd "$q" 2>/dev/null && find . ! -type d | LC_ALL=C sort) >"$TMP/got"
check "make install with a quote in PREFIX puts exactly the files: $(diff "$TMP/want" "$TMP/got" | grep '^[<>]' | tr '\n' ' ')" \
	cmp -s "$TMP/want" "$TMP/got"
check "nothing beside DESTDIR (a cut-off path)" test -z "$(find "$TMP" -maxdepth 1 -name 'dest*' ! -name "dest d'q")"
if mk uninstall DESTDIR="$q" PREFIX="$pfx" >"$TMP/quote.out" 2>&1; then ok; else
	fail "make uninstall PREFIX=\"$pfx\": $(tail -n 3 "$TMP/quote.out")"
fi
check "make uninstall with a quote in PREFIX removes them" test -z "$(find "$q" ! -type d 2>/dev/null)" -a -d "$q/opt/a b'c/bin"

# --- option lists: -h, man page, the manual (docs/manual.md) ----------------------------------
# Each source becomes one option per line, named by its long form (--rate), or by its short form
# (-x) when -h gives it no long form. A short form in a document is mapped through -h's pairs,
# so the manual's "-h, -V" row stands for --help and --version.

# help_pairs HELPTEXT: "SHORT LONG" per option line of a usage text ("-" where a form is absent).
# Option lines start with at most 8 spaces and a dash (mawk has no {1,8}); continuation lines are
# indented further.
help_pairs() {
	awk 'match($0, /^ +-/) && RLENGTH <= 9 {
		sub(/^ +/, ""); spec = $0; i = index(spec, "  "); if (i) spec = substr(spec, 1, i - 1)
		n = split(spec, w, /[ ,]+/); s = "-"; l = "-"
		for (j = 1; j <= n; j++)
			if (w[j] ~ /^--[A-Za-z0-9]/) l = w[j]; else if (w[j] ~ /^-[A-Za-z0-9?]$/) s = w[j]
		print s, l }' "$1"
}

# man_opts MANPAGE: the option words of the .TP tags of the OPTIONS section.
man_opts() {
	awk '/^\.SH/ { in_opts = ($2 == "OPTIONS") ; next }
		in_opts && tag { print; tag = 0; next }
		in_opts && /^\.TP/ { tag = 1 }' "$1" |
		sed -e 's/\\-/-/g' -e 's/\\f\[[^]]*\]//g' -e 's/\\f([A-Za-z][A-Za-z]//g' -e 's/\\f.//g' \
			-e 's/^\.[A-Za-z]* //' -e 's/"//g' | opt_words
}

# readme_opts README TOOL: the option words in the first cell of the rows "| `-..." of the
# table in the section "## TOOL".
readme_opts() {
	awk -v sec="## $2" '/^## / { in_sec = ($0 == sec); next }
		in_sec && /^\| `-/ { split($0, c, "|"); print c[2] }' "$1" | opt_words
}

# opt_words: every word of stdin that looks like an option.
opt_words() {
	tr -s ' ,`\t' '[\n*]' | grep -E '^-(-[A-Za-z0-9][A-Za-z0-9-]*|[A-Za-z0-9?])$'
}

# canon PAIRS: option words on stdin to their names (see above), sorted and unique.
canon() {
	awk 'NR == FNR { if ($2 != "-") long[$1] = $2; next }
		{ print (($0 in long) ? long[$0] : $0) }' "$1" - | LC_ALL=C sort -u
}

# compare_opts TOOL HELPTEXT MANPAGE README: prints "OPTION is missing from WHERE" for every
# option that one of the three lacks, and "no options in WHERE" for a source that yields none
# (an extraction that broke must not pass); status 1 if it printed anything.
compare_opts() {
	help_pairs "$2" >"$TMP/pairs"
	awk '{ print ($2 != "-") ? $2 : $1 }' "$TMP/pairs" | LC_ALL=C sort -u >"$TMP/o.help"
	man_opts "$3" | canon "$TMP/pairs" >"$TMP/o.man"
	readme_opts "$4" "$1" | canon "$TMP/pairs" >"$TMP/o.readme"
	: >"$TMP/o.missing"
	for src in help man readme; do
		case $src in help) where="$1 -h" ;; man) where=$3 ;; readme) where="$4 (## $1 table)" ;; esac
		[ -s "$TMP/o.$src" ] || echo "no options in $where" >>"$TMP/o.missing"
	done
	LC_ALL=C sort -u "$TMP/o.help" "$TMP/o.man" "$TMP/o.readme" >"$TMP/o.all"
	while read -r o; do
		for src in help man readme; do
			case $src in help) where="$1 -h" ;; man) where=$3 ;; readme) where="$4 (## $1 table)" ;; esac
			grep -qxF -- "$o" "$TMP/o.$src" || echo "$o is missing from $where" >>"$TMP/o.missing"
		done
	done <"$TMP/o.all"
	cat "$TMP/o.missing"
	[ ! -s "$TMP/o.missing" ]
}

# The option tables live in the manual; the README links it.
MANUAL=docs/manual.md
check "the README links the manual" grep -q '(docs/manual.md)' README.md
for tool in blast suck; do
	"$BIN/$tool" -h >"$TMP/$tool.help" 2>&1
	if compare_opts "$tool" "$TMP/$tool.help" "man/$tool.1" "$MANUAL" >"$TMP/$tool.cmp"; then ok; else
		while read -r line; do fail "$tool options: $line"; done <"$TMP/$tool.cmp"
	fi
	n=$(wc -l <"$TMP/o.all")
	check "$tool: at least 15 options compared ($n)" test "$n" -ge 15
done

# The comparison itself must fail on an option that only -h has, on one that only the man page
# has, and on one given by its short form alone.
cp "$TMP/suck.help" "$TMP/mod.help"
printf '      --frobnicate N   new option\n  -Z                   short only\n' >>"$TMP/mod.help"
compare_opts suck "$TMP/mod.help" man/suck.1 "$MANUAL" >"$TMP/mod.cmp"
check "an option only in -h is found missing from the man page and the manual" \
	test "$(grep -c -e '^--frobnicate is missing from man/suck.1$' \
		-e "^--frobnicate is missing from $MANUAL" -e '^-Z is missing from man/suck.1$' \
		-e "^-Z is missing from $MANUAL" "$TMP/mod.cmp")" = 4
awk '/^\.SH REPORT/ { print ".TP"; print "\\fB\\-\\-ghost\\fR \\fIN\\fR"; print "A stale option." }
	{ print }' man/suck.1 >"$TMP/mod.1"
compare_opts suck "$TMP/suck.help" "$TMP/mod.1" "$MANUAL" >"$TMP/mod.cmp"
check "an option only in the man page is found missing from -h" \
	grep -q "^--ghost is missing from suck -h$" "$TMP/mod.cmp"
grep -v '^| `--retain' "$MANUAL" >"$TMP/mod.md"
compare_opts suck "$TMP/suck.help" man/suck.1 "$TMP/mod.md" >"$TMP/mod.cmp"
check "a manual row removed is found missing" grep -q "^--retain is missing from $TMP/mod.md" "$TMP/mod.cmp"

# --- report keys: every key the tool prints is in its man page's REPORT section, and back ------
# report_keys MANPAGE: the words of the .TP tags of the REPORT section.
report_keys() {
	awk '/^\.SH/ { in_rep = ($2 == "REPORT"); next }
		in_rep && tag { print; tag = 0; next }
		in_rep && /^\.TP/ { tag = 1 }' "$1" |
		sed -e 's/^\.[A-Za-z]* //' -e 's/"//g' | tr -s ' ,' '[\n*]' | grep -E '^[a-z][a-z0-9_]*$' |
		LC_ALL=C sort -u
}
"$BIN/suck" -p 0 -t 10ms -o tsv 2>/dev/null | head -n 1 >"$TMP/suck.tsv"
"$BIN/blast" -p 9 -n 1 -o tsv 2>/dev/null | head -n 1 >"$TMP/blast.tsv"
for tool in blast suck; do
	tr '\t' '\n' <"$TMP/$tool.tsv" | LC_ALL=C sort -u >"$TMP/$tool.keys"
	report_keys "man/$tool.1" >"$TMP/$tool.mankeys"
	check "$tool prints a report with keys ($(wc -l <"$TMP/$tool.keys"))" test "$(wc -l <"$TMP/$tool.keys")" -ge 20
	for k in $(LC_ALL=C comm -23 "$TMP/$tool.keys" "$TMP/$tool.mankeys"); do
		fail "$tool report key $k is missing from man/$tool.1 (REPORT)"
	done
	for k in $(LC_ALL=C comm -13 "$TMP/$tool.keys" "$TMP/$tool.mankeys"); do
		fail "man/$tool.1 (REPORT) names $k, which $tool does not print"
	done
done

# --- lint --------------------------------------------------------------------------------------
linted=0
if command -v groff >/dev/null 2>&1; then
	linted=1
	for f in man/blast.1 man/suck.1; do
		for dev in ascii utf8; do
			groff -ww -z -man -T"$dev" "$f" >"$TMP/lint" 2>&1
			check "groff -ww -z -man -T$dev $f: $(head -n 3 "$TMP/lint")" test ! -s "$TMP/lint"
		done
	done
fi
if command -v mandoc >/dev/null 2>&1; then
	linted=1
	for f in man/blast.1 man/suck.1; do
		mandoc -Tlint -W warning "$f" >"$TMP/lint" 2>&1
		check "mandoc -Tlint $f: $(head -n 3 "$TMP/lint")" test ! -s "$TMP/lint"
	done
fi
[ $linted = 1 ] || skip "man page lint: neither groff nor mandoc is installed"

# The scripts from a checkout without bin/ use the installed tools on PATH, and say so in env.txt.
P=$TMP/pathroot
MAKEFLAGS= MFLAGS= make -s install DESTDIR="$P" PREFIX=/usr B="$BIN" >/dev/null 2>&1
mkdir -p "$TMP/tree"
cp -r scripts "$TMP/tree/"
env -u BIN PATH="$P/usr/bin:$PATH" sh "$TMP/tree/scripts/suite" -t 0.2 -r 1 -W 0 -m buffer -P -o "$TMP/pathrun" >/dev/null 2>"$TMP/pathrun.err"
check "suite with the tools on PATH only: exit 0 ($(tail -n 1 "$TMP/pathrun.err"))" test $? = 0
check "env.txt names the installed suck" grep -qx "suck_bin: $P/usr/bin/suck" "$TMP/pathrun/env.txt"
check "env.txt names the installed blast" grep -qx "blast_bin: $P/usr/bin/blast" "$TMP/pathrun/env.txt"

done_tests
