# The generated parts of the docs are those the option tables make now: tools/docs.sh run on a
# copy of docs/manual.md and man/*.1 changes nothing. The option lists of -h and of the docs
# come from the same rows; the check itself finds a stale row and refuses a missing marker.
. tests/lib.sh

# regen DIR: the copies in DIR made again; 1 with the message on stderr when docs.sh failed.
copy() {
	rm -rf "$1" && mkdir -p "$1/docs" "$1/man" &&
		cp docs/manual.md "$1/docs/" && cp man/blast.1 man/suck.1 "$1/man/"
}
regen() { sh tools/docs.sh "$BIN" "$1" 2>"$TMP/regen.err"; }

T=$TMP/tree
copy "$T"
if regen "$T"; then ok; else fail "tools/docs.sh: $(cat "$TMP/regen.err")"; fi
for f in docs/manual.md man/blast.1 man/suck.1; do
	check "$f: its generated part is up to date (make docs): $(diff "$f" "$T/$f" | grep '^[<>]' | head -n 2 | tr '\n' ' ')" \
		cmp -s "$f" "$T/$f"
done

# Every option -h lists is in the manual's table and the man page, and the other way round.
for tool in blast suck; do
	# option lines start with 2 to 6 spaces; the help's own lines go on at column 23
	"$BIN/$tool" -h | sed -n 's/^ \{2,6\}\(-[A-Za-z0-9], \)\{0,1\}\(--[a-z0-9-]*\).*/\2/p' |
		LC_ALL=C sort >"$TMP/$tool.h"
	"$BIN/$tool" --options-doc md | sed -n 's/^| `\(-[A-Za-z0-9], \)\{0,1\}\(--[a-z0-9-]*\).*/\2/p' |
		LC_ALL=C sort >"$TMP/$tool.md"
	"$BIN/$tool" --options-doc man | awk '/^\.TP/ { getline; print }' | sed -e 's/\\-/-/g' -e 's/\\f[BIR]//g' |
		sed -n 's/^\(-[A-Za-z0-9], \)\{0,1\}\(--[a-z0-9-]*\).*/\2/p' | LC_ALL=C sort >"$TMP/$tool.man"
	n=$(wc -l <"$TMP/$tool.h")
	check "$tool -h: at least 25 options ($n)" test "$n" -ge 25
	check "$tool: -h and the manual's table list the same options" cmp -s "$TMP/$tool.h" "$TMP/$tool.md"
	check "$tool: -h and the man page list the same options" cmp -s "$TMP/$tool.h" "$TMP/$tool.man"
done

# A stale generated part is found: a row dropped from a copy comes back, so the copies differ.
copy "$T"
grep -v '^| `--retain' docs/manual.md >"$T/docs/manual.md"
awk '/^\\fB\\-\\-payload\\fR/ { skip = 1 } skip && /^\.TP/ { skip = 0 } !skip' man/blast.1 >"$T/man/blast.1"
regen "$T"
check "a manual row removed by hand is made again" grep -q '^| `--retain' "$T/docs/manual.md"
check "a man page item removed by hand is made again" grep -q '^\\fB\\-\\-payload\\fR' "$T/man/blast.1"
check "... so the stale copy is not what make docs writes" sh -c "! grep -v '^| \`--retain' docs/manual.md | cmp -s - '$T/docs/manual.md'"

# A file without its markers is an error, not a file left alone.
copy "$T"
grep -v '^<!-- end options suck -->$' docs/manual.md >"$T/docs/manual.md"
regen "$T"
st=$?
check "docs.sh without an end marker: exit $st, not 0" test $st != 0
check "... says which file ($(cat "$TMP/regen.err"))" grep -q 'manual.md' "$TMP/regen.err"

# --options-doc is a maintainer's flag: hidden from -h, a bad format is bad usage.
for tool in blast suck; do
	check "$tool -h does not list --options-doc" sh -c "! '$BIN/$tool' -h | grep -q options-doc"
	"$BIN/$tool" --options-doc html >"$TMP/od.out" 2>"$TMP/od.err"
	st=$?
	check "$tool --options-doc html: exit 2 ($st)" test $st = 2
	check "$tool --options-doc html: says so ($(cat "$TMP/od.err"))" grep -q "options-doc 'html': unknown" "$TMP/od.err"
done

done_tests
