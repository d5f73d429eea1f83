# scripts/index (issue 14): one self-contained page per result directory, with its tables, every
# plot beside it, the machine and the commands; well-formed (every tag closed: xmllint reads it
# as XML, and as HTML, where installed); no script and nothing from the network.
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
check "the title from env.txt, escaped" grep -q '<title>scripts/suite -t 1 -o x &lt;odd &amp; name&gt;</title>' "$H"
check "the table's rows" grep -q '<td>copy</td><td>3</td><td>724.4k (495.8k..729.1k)</td>' "$H"
check "the table's header" grep -q '<th>variant</th><th>runs</th><th>received/s</th>' "$H"
check "no alignment row as data" sh -c "! grep -q ':------' '$H'"
check "inline code and strong" grep -q '<code>code</code> and <strong>strong</strong> &amp; an ampersand' "$H"
check "a list" grep -q '<li>a list item</li>' "$H"
for p in datagrams cpu; do
	check "plot $p named and linked" grep -q "<img src=\"$p.svg\" alt=\"plot: $p\" />" "$H"
	check "plot $p's png linked" grep -q "<a href=\"$p.png\">png</a>" "$H"
done
check "the machine" grep -q '<tr><th>cpu_model</th><td>Test CPU</td></tr>' "$H"
check "the commands, in order" sh -c "grep -A2 'Commands, in order' '$H' | grep -q 'bin/suck -p 0 -m copy'"
check "a result inside it linked" grep -q '<a href="inner/index.html">inner</a>' "$H"
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
if command -v xmllint >/dev/null 2>&1; then
	check "ndr page well-formed" xmllint --noout "$N/index.html"
fi

# Bad use.
sh scripts/index "$TMP/none" 2>"$TMP/e"; check "not a directory: exit 2" test $? = 2
mkdir -p "$TMP/empty"
sh scripts/index "$TMP/empty" 2>"$TMP/e"; check "no env.txt: exit 2" test $? = 2
check "says why" grep -q 'not a result directory' "$TMP/e"

done_tests
