# scripts/compare on two made-up result directories: medians of A and B, the ratio B/A, every
# run's value, a variant on one side only, both output formats; and the medians of summary.tsv
# (odd and even counts, min, max) that suite and plot share.
. tests/lib.sh

mkdir -p "$TMP/a" "$TMP/b"
{
	printf 'variant\trun\treceived_pct\tblast_sent\tsuck_received\tsuck_digest\tsuck_stop\n'
	printf 'copy\t1\t10\t1000\t100\t123456789\tfin\n'
	printf 'copy\t2\t30\t1000\t300\t123456789\tfin\n'
	printf 'copy\t3\t20\t1000\t200\t123456789\tfin\n'
	printf 'buffer\t1\t50\t1000\t500\t1\tfin\n'
} >"$TMP/a/runs.tsv"
{
	printf 'variant\trun\treceived_pct\tblast_sent\tsuck_received\tsuck_digest\tsuck_stop\n'
	printf 'copy\t1\t30\t1000\t300\t5\tfin\n'
	printf 'copy\t2\t50\t1000\t500\t5\tfin\n'
	printf 'copy\t3\t40\t1000\t400\t5\tfin\n'
	printf 'mmsg\t1\t0.25\t1000\t2.5\t5\tidle\n'
	printf 'mmsg\t2\t0.5\t1000\t5\t5\tfin\n'
} >"$TMP/b/runs.tsv"
echo 'git_describe: v1' >"$TMP/a/env.txt"
echo 'git_describe: v2' >"$TMP/b/env.txt"

# row FILE VARIANT FIGURE: that row of compare's tsv output
row() { awk -F'\t' -v v="$2" -v f="$3" '$1 == v && $2 == f' "$1"; }
tab() { printf '%s\t' "$@" | sed 's/\t$//'; }

sh scripts/compare -o tsv "$TMP/a" "$TMP/b" >"$TMP/c.tsv" 2>"$TMP/c.err"
check "compare -o tsv exits 0" test $? -eq 0
check "tsv header" test "$(head -n 1 "$TMP/c.tsv")" = "$(tab variant figure a_runs a_median b_runs b_median ratio a_values b_values)"
check "copy received: medians, ratio and each run" test "$(row "$TMP/c.tsv" copy suck_received)" = \
	"$(tab copy suck_received 3 200 3 400 2.000 100,300,200 300,500,400)"
check "copy received_pct" test "$(row "$TMP/c.tsv" copy received_pct)" = "$(tab copy received_pct 3 20 3 40 2.000 10,30,20 30,50,40)"
check "A only: B is -" test "$(row "$TMP/c.tsv" buffer suck_received)" = "$(tab buffer suck_received 1 500 0 - - 500 -)"
check "B only, even count: mean of the middle two" test "$(row "$TMP/c.tsv" mmsg suck_received)" = \
	"$(tab mmsg suck_received 0 - 2 3.75 - - 2.5,5)"
check "figures not in runs.tsv are left out" test -z "$(row "$TMP/c.tsv" copy suck_cpu_ns_per_pkt)"
check "identifiers and text are not compared by default" sh -c "! grep -q -E 'digest|stop' '$TMP/c.tsv'"

sh scripts/compare -o tsv -f all "$TMP/a" "$TMP/b" >"$TMP/all.tsv"
check "-f all: every numeric figure" test "$(awk -F'\t' '$1 == "copy" { print $2 }' "$TMP/all.tsv" | tr '\n' ' ')" = \
	"received_pct blast_sent suck_received "
sh scripts/compare -o tsv -f "blast_sent" "$TMP/a" "$TMP/b" >"$TMP/one.tsv"
check "-f: only the figures asked for" test "$(awk -F'\t' 'NR > 1 { print $2 }' "$TMP/one.tsv" | sort -u)" = blast_sent
check "B/A of equal medians is 1.000" test "$(row "$TMP/one.tsv" copy blast_sent | cut -f 7)" = 1.000

sh scripts/compare "$TMP/a" "$TMP/b" >"$TMP/c.md"
check "md: names both directories and builds" sh -c "grep -q '^A: $TMP/a (build v1' '$TMP/c.md' && grep -q '^B: $TMP/b (build v2' '$TMP/c.md'"
check "md: table header" grep -q '^| variant *| figure *| A median *| B median *| *B/A *| A runs *| B runs *|$' "$TMP/c.md"
check "md: copy received row" grep -q '^| copy *| suck_received *| *200 | *400 | 2.000 | 100,300,200 *| 300,500,400 *|$' "$TMP/c.md"

sh scripts/compare "$TMP/a" >/dev/null 2>&1
check "one directory: exit 2" test $? -eq 2
sh scripts/compare "$TMP/a" "$TMP/none" >/dev/null 2>"$TMP/none.err"
check "missing directory: exit 1" test $? -eq 1
check "missing directory: says which" grep -q "$TMP/none/runs.tsv" "$TMP/none.err"

# summary.tsv: scripts/summary.awk, which suite and plot use
awk -f scripts/stats.awk -f scripts/summary.awk "$TMP/b/runs.tsv" >"$TMP/sum.tsv"
check "summary: header" test "$(head -n 1 "$TMP/sum.tsv")" = "$(tab variant figure runs median min max)"
check "summary: odd count" test "$(awk -F'\t' '$1 == "copy" && $2 == "suck_received"' "$TMP/sum.tsv")" = "$(tab copy suck_received 3 400 300 500)"
check "summary: even count" test "$(awk -F'\t' '$1 == "mmsg" && $2 == "received_pct"' "$TMP/sum.tsv")" = "$(tab mmsg received_pct 2 0.375 0.25 0.5)"
check "summary: no digest, no text column" sh -c "! grep -q -E 'digest|stop|	run	' '$TMP/sum.tsv'"

done_tests
