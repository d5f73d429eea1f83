# scripts/index: one self-contained page per result directory, with its tables, every
# plot beside it, the machine and the commands; well-formed (every tag closed: xmllint reads it
# as XML, and as HTML, where installed); no script and nothing from the network; every link a
# relative path, whatever the names in the result (headless Chromium checks, where installed).
. tests/lib.sh

D=$TMP/result
mkdir -p "$D/raw" "$D/inner"
cat >"$D/env.txt" <<'E'
date: 2026-12-02T10:00:00Z
suite: scripts/suite -t 1 -o x <odd & name>
cpu_model: Test CPU
cmd: bin/suck -p 0 -m copy -o tsv
cmd: bin/blast -p 1 -t 1 -o tsv
E
cat >"$D/table.md" <<'E'
# blast & suck: copy <buffer>

Some text with `code` and **strong** & an ampersand.

| variant | runs | received/s |
|:--------|-----:|-----------:|
| copy    |    3 | 724.4k (495.8k..729.1k) |
| buffer  |    3 | 775.6k |

- a list item
- another
E
for p in datagrams cpu; do echo '<svg xmlns="http://www.w3.org/2000/svg"/>' >"$D/$p.svg"; : >"$D/$p.png"; done
echo "date: x" >"$D/inner/env.txt"
echo "ndr: scripts/ndr" >>"$D/inner/env.txt"

check "index writes the page" sh scripts/index "$D"
H=$D/index.html
check "index.html exists" test -s "$H"
check "doctype first" sh -c "head -n 1 '$H' | grep -qx '<!DOCTYPE html>'"
# The title says what the result is: the command, the date, the machine (not "scripts/suite").
check "the title: the command, escaped, the date and the machine" \
	grep -q '<title>blast &amp; suck: scripts/suite -t 1 -o x &lt;odd &amp; name&gt;, 2026-12-02 10:00 UTC, on Test CPU</title>' "$H"
check "the heading is the title" grep -q '<h1>blast &amp; suck: scripts/suite -t 1 -o x &lt;odd &amp; name&gt;, 2026-12-02 10:00 UTC, on Test CPU</h1>' "$H"
# make bench's suite, given no option, on a named host: the defaults said, the host first
B=$TMP/bench
mkdir -p "$B"
printf 'date: 2026-12-03T07:05:59Z\nsuite: scripts/suite\nhostname: box\nkernel: Linux 6.1.0-9 x86_64\ncpu_model: AMD EPYC\ncpu_count: 2\n' >"$B/env.txt"
sh scripts/index "$B"
check "the title of a suite with the defaults" \
	grep -q '<title>blast &amp; suck: scripts/suite (the defaults), 2026-12-03 07:05 UTC, on box (AMD EPYC, 2 CPUs, Linux 6.1.0-9)</title>' "$B/index.html"
check "the table's rows" grep -q '<td>copy</td><td>3</td><td>724.4k (495.8k..729.1k)</td>' "$H"
check "the table's header" grep -q '<th>variant</th><th>runs</th><th>received/s</th>' "$H"
check "no alignment row as data" sh -c "! grep -q ':------' '$H'"
check "inline code and strong" grep -q '<code>code</code> and <strong>strong</strong> &amp; an ampersand' "$H"
check "a list" grep -q '<li>a list item</li>' "$H"
for p in datagrams cpu; do
	check "plot $p named and linked" grep -q "<img src=\"./$p.svg\" alt=\"plot: $p\" />" "$H"
	check "plot $p's png linked" grep -q "<a href=\"./$p.png\">png</a>" "$H"
done
check "the machine" grep -q '<tr><th>cpu_model</th><td>Test CPU</td></tr>' "$H"
check "the commands, in order" sh -c "grep -A2 'Commands, in order' '$H' | grep -q 'bin/suck -p 0 -m copy'"
check "a result inside it linked" grep -q '<a href="./inner/index.html">inner</a>' "$H"
check "no script" sh -c "! grep -qi '<script' '$H'"
check "nothing from the network" sh -c "! grep -Eq '(src|href)=\"(https?:)?//' '$H'"
check "no temporary file left" sh -c "! ls -a '$D' | grep -q '^\.index'"
if command -v xmllint >/dev/null 2>&1; then
	check "well-formed as XML: every tag closed" xmllint --noout "$H"
	check "valid enough as HTML" sh -c "xmllint --html --noout '$H' 2>&1 | grep -c . | grep -qx 0"
else
	skip "xmllint not installed: well-formedness not checked"
fi

# A directory without markdown (ndr, sweep): its tsv tables instead.
N=$TMP/ndr
mkdir -p "$N"
printf 'ndr: scripts/ndr -t 2\n' >"$N/env.txt"
printf 'variant\tndr_pps\nbuffer\t250000\n' >"$N/ndr.tsv"
check "index of an ndr result" sh scripts/index "$N"
check "ndr.tsv as a table" grep -q '<td>buffer</td><td>250000</td>' "$N/index.html"
# Named as in the result, never by the path the page was written at (ndr and sweep write it in
# their staging directory, renamed after).
check "ndr.tsv's heading names the file, not its directory" grep -qx '<h2>ndr.tsv</h2>' "$N/index.html"
check "the page names no directory it was written in" sh -c "! grep -qF '$N' '$N/index.html'"
if command -v xmllint >/dev/null 2>&1; then
	check "ndr page well-formed" xmllint --noout "$N/index.html"
fi

# Names that would be a scheme, a fragment or a query: a file or folder a user left in
# a result is carried over, and its name must not become a link that runs script. Every link
# and image is a relative path that starts with "./" and names a file of the result.
X=$TMP/hostile
mkdir -p "$X/javascript:alert(1)" "$X/data:text"
printf 'suite: scripts/suite\n' >"$X/env.txt"
printf 'suite: scripts/suite\n' >"$X/javascript:alert(1)/env.txt"
printf 'suite: scripts/suite\n' >"$X/data:text/env.txt"
: >"$X/javascript:alert(1)/index.html"
: >"$X/data:text/index.html"
for n in 'javascript:alert(1)' 'a b#c?d&e' 'vbscript:x' 'JaVaScRiPt:y'; do
	echo '<svg xmlns="http://www.w3.org/2000/svg"/>' >"$X/$n.svg"
	: >"$X/$n.png"
done
printf 'variant\tndr_pps\nbuffer\t1\n' >"$X/ndr.tsv"
check "index of a result with hostile names" sh scripts/index "$X"
grep -o -E '(href|src)="[^"]*"' "$X/index.html" | sed -E 's/^(href|src)="//; s/"$//' >"$TMP/links"
check "hostile: the links are there (4 plots twice, 4 png, 2 results, the data)" test "$(wc -l <"$TMP/links")" -eq 15
check "hostile: every link starts with ./" sh -c "! grep -v '^\./' '$TMP/links'"
check "hostile: no link has a scheme" sh -c "! grep -Ei '^[a-z][a-z0-9+.-]*:' '$TMP/links'"
# each link, its %XX decoded, is a file of the result (awk writes the bytes, printf %b reads them)
while read -r l; do
	f=$(printf '%s\n' "$l" | awk '{ o = ""; while (match($0, /%[0-9A-F][0-9A-F]/)) {
		o = o substr($0, 1, RSTART - 1) sprintf("\\0%03o", index("0123456789ABCDEF", substr($0, RSTART + 1, 1)) * 16 - 17 + index("0123456789ABCDEF", substr($0, RSTART + 2, 1)))
		$0 = substr($0, RSTART + 3) } print o $0 }')
	f=$(printf '%b' "$f")
	check "hostile: $l names a file of the result" test -e "$X/$f"
done <"$TMP/links"
if command -v chromium >/dev/null 2>&1; then
	# A browser's own reading: every link and image of the page, resolved against it, is file:.
	# A copy of the page with a script that writes the protocols into the title (the page has
	# none of its own), dumped by headless Chromium.
	sed 's|</body>|<script>document.title = Array.prototype.map.call(document.querySelectorAll("[href],[src]"), function (e) { return new URL(e.getAttribute("href") \|\| e.getAttribute("src"), document.baseURI).protocol; }).join(" ");</script></body>|' \
		"$X/index.html" >"$X/probe.html"
	timeout 60 chromium --headless --no-sandbox --disable-gpu --dump-dom "file://$X/probe.html" >"$TMP/dom" 2>/dev/null
	sed -n 's:.*<title>\(.*\)</title>.*:\1:p' "$TMP/dom" | tr ' ' '\n' | grep . >"$TMP/protocols"
	check "chromium: every link read" test "$(wc -l <"$TMP/protocols")" -eq 15
	check "chromium: every link is file:, none runs script" sh -c "! grep -vx 'file:' '$TMP/protocols'"
else
	skip "chromium not installed: links not opened in a browser"
fi

# Bad use.
sh scripts/index "$TMP/none" 2>"$TMP/e"; check "not a directory: exit 2" test $? = 2
mkdir -p "$TMP/empty"
sh scripts/index "$TMP/empty" 2>"$TMP/e"; check "no env.txt: exit 2" test $? = 2
check "says why" grep -q 'not a result directory' "$TMP/e"

done_tests
