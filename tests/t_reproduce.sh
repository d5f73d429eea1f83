# scripts/reproduce in quick mode (-t 1 -r 1): the 2014 protocol (1450 bytes, blast -b 1,
# suck -w histogram, no warm-up) for copy, buffer and mmsg; reproduce.tsv with its documented
# columns, the published rows beside this run's; reproduce.md in the 2014 shape with a paragraph
# whose numbers are this run's; the published-vs-here plot.
. tests/lib.sh

PUB=results/published/lua-net-speed-2014.tsv
check "the published table is in the tree" test "$(grep -v '^#' "$PUB" | sed 1d | wc -l)" -eq 6
check "published: columns" test "$(grep -v '^#' "$PUB" | head -n 1)" = "$(printf 'receiver\tstrategy\trun\tsent\treceived\tmemory_k')"

D=$TMP/r
sh scripts/reproduce -t 1 -r 1 -o "$D" >"$TMP/r.out" 2>"$TMP/r.err"
st=$?
check "reproduce exits 0" test "$st" -eq 0
[ "$st" -eq 0 ] || tail -n 20 "$TMP/r.err"
for f in runs.tsv summary.tsv table.md env.txt reproduce.tsv reproduce.md; do
	check "$f written" test -s "$D/$f"
done
check "the 2014 protocol: blast -t 1 -s 1450 -b 1" test "$(grep -c '^cmd: .*/blast .*-t 1 -s 1450 .*-b 1$' "$D/env.txt")" -eq 3
check "the 2014 protocol: suck -w histogram, copy buffer mmsg" test \
	"$(sed -n 's/^cmd: .*\/suck .*-m \([a-z]*\) -w histogram .*/\1/p' "$D/env.txt" | tr '\n' ' ')" = "copy buffer mmsg "
check "no warm-up: one run each" test "$(sed 1d "$D/runs.tsv" | wc -l)" -eq 3
check "env.txt: the reproduce command" grep -q '^reproduce: scripts/reproduce -t 1 -r 1 -o ' "$D/env.txt"

R=$D/reproduce.tsv
check "reproduce.tsv: columns" test "$(head -n 1 "$R")" = "$(printf 'source\tvariant\tstrategy_2014\treceiver\trun\tduration_s\tsent\treceived\treceived_pct\tmemory_k\tdropped\tcpu_ns_per_pkt')"
check "reproduce.tsv: the six published runs" test "$(awk -F'\t' '$1 == "2014"' "$R" | wc -l)" -eq 6
check "reproduce.tsv: published received/sent" test "$(awk -F'\t' '$1 == "2014" && $5 == 1 && $2 == "copy" { print $9 }' "$R")" = 0.832
check "reproduce.tsv: this run's three" test "$(awk -F'\t' '$1 == "here" { print $2 }' "$R" | tr '\n' ' ')" = "copy buffer mmsg "
check "reproduce.tsv: memory is suck's heap_kib" test \
	"$(awk -F'\t' '$1 == "here" && $2 == "copy" { print $10 }' "$R")" = "$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "suck_heap_kib") c = i } $1 == "copy" { print $c }' "$D/runs.tsv")"

M=$D/reproduce.md
check "reproduce.md: a table per strategy and the paragraph" test "$(grep -c '^## ' "$M")" -eq 4
check "reproduce.md: the 2014 headings" sh -c "grep -q 'Packets sent by blast.c (2014) | Packets received by suck.lua (2014) | Memory used in K' '$M' &&
	grep -q 'Packets received by suckb.lua (2014)' '$M'"
check "reproduce.md: the published numbers" sh -c "grep -q '^| 1 | 1442627 | 12003 | 67 | 0.832 |' '$M' && grep -q '^| 3 | 1447008 | 8278 | 87 | 0.572 |' '$M'"
check "reproduce.md: received/sent in percent" grep -q 'received/sent % (here)' "$M"
copy_pct=$(awk -F'\t' '$1 == "here" && $2 == "copy" { print $9 }' "$R")
check "reproduce.md: the paragraph carries this run's numbers" grep -q "Here suck processed $copy_pct % (copy)" "$M"
check "reproduce.md: the paragraph compares with 2014" grep -q 'In 2014 the Lua receivers processed 0.837 % (immutable strings) and 0.572 % (buffer userdata)' "$M"
check "reproduce.md: the short runs are said" grep -q 'These runs took 1 s, not 10 s' "$M"
check "reproduce.md printed" grep -q '^## What the comparison shows' "$TMP/r.out"
if command -v gnuplot >/dev/null 2>&1; then
	check "published_vs_here.png" sh -c "head -c 8 '$D/published_vs_here.png' | grep -q PNG"
	check "published_vs_here.svg" grep -q '<svg' "$D/published_vs_here.svg"
	check "the suite's plots too" test -s "$D/datagrams.svg"
else
	skip "no gnuplot: plots not checked"
fi
check "nothing half-written" test -z "$(find "$TMP" -name '*.tmp' | head -n 1)"
sh scripts/reproduce -t 0 >/dev/null 2>&1
check "-t 0: exit 2" test $? -eq 2

done_tests
