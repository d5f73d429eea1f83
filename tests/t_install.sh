# make install / uninstall into a staging DESTDIR; the man pages name every report key (the
# options' own in the generated OPTIONS list); the man pages lint clean (groff or mandoc, when
# installed).
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

# The option lists of -h, the man pages and the manual come from one table per tool:
# tests/t_docs.sh checks the generated parts are current.
check "the README links the manual" grep -q '(docs/manual.md)' README.md

# --- report keys: every key the tool prints is in its man page (REPORT, or an option's "Report
# key" under OPTIONS), and every key REPORT names is printed -----------------------------------
# report_keys MANPAGE: the words of the .TP tags of the REPORT section.
report_keys() {
	awk '/^\.SH/ { in_rep = ($2 == "REPORT"); next }
		in_rep && tag { print; tag = 0; next }
		in_rep && /^\.TP/ { tag = 1 }' "$1" |
		sed -e 's/^\.[A-Za-z]* //' -e 's/"//g' | tr -s ' ,' '[\n*]' | grep -E '^[a-z][a-z0-9_]*$' |
		LC_ALL=C sort -u
}
# option_keys MANPAGE: the options' report keys, from the lines "Report key: \fBKEY\fR..." of
# the OPTIONS list.
option_keys() {
	sed -n 's/^Report key: \\fB\([a-z0-9_]*\)\\fR.*/\1/p' "$1" | LC_ALL=C sort -u
}
"$BIN/suck" -p 0 -t 10ms -o tsv 2>/dev/null | head -n 1 >"$TMP/suck.tsv"
"$BIN/blast" -p 9 -n 1 -o tsv 2>/dev/null | head -n 1 >"$TMP/blast.tsv"
for tool in blast suck; do
	tr '\t' '\n' <"$TMP/$tool.tsv" | LC_ALL=C sort -u >"$TMP/$tool.keys"
	report_keys "man/$tool.1" >"$TMP/$tool.mankeys"
	check "$tool prints a report with keys ($(wc -l <"$TMP/$tool.keys"))" test "$(wc -l <"$TMP/$tool.keys")" -ge 20
	option_keys "man/$tool.1" | LC_ALL=C sort -u - "$TMP/$tool.mankeys" >"$TMP/$tool.allkeys"
	check "man/$tool.1 names options' report keys ($(option_keys "man/$tool.1" | wc -l))" \
		test "$(option_keys "man/$tool.1" | wc -l)" -ge 10
	for k in $(LC_ALL=C comm -23 "$TMP/$tool.keys" "$TMP/$tool.allkeys"); do
		fail "$tool report key $k is missing from man/$tool.1 (REPORT, or an option's under OPTIONS)"
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
