# scripts/compare on two made-up result directories: medians of A and B, the ratio B/A, every
# run's value, a variant on one side only, both output formats, the note on too few runs; on the
# two committed result sets of tests/data, "~" for a figure within the noise and the change for
# one beyond it, with p and interval; the medians and their intervals in summary.tsv (odd and even
# counts, min, max) that suite and plot share; and the same test deciding table.md's commentary
# and reproduce.md's sentences; a cell that is not a number ("-", nan, inf) is no sample.
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
# row9 FILE VARIANT FIGURE: its first 9 columns (those compare printed before the test)
row9() { row "$@" | cut -f 1-9; }
tab() { printf '%s\t' "$@" | sed 's/\t$//'; }

sh scripts/compare -o tsv "$TMP/a" "$TMP/b" >"$TMP/c.tsv" 2>"$TMP/c.err"
check "compare -o tsv exits 0" test $? -eq 0
check "tsv header" test "$(head -n 1 "$TMP/c.tsv")" = "$(tab variant figure a_runs a_median b_runs b_median ratio a_values b_values \
	change p min_p ratio_hl ratio_lo ratio_hi ratio_ci_pct)"
check "copy received: medians, ratio and each run" test "$(row9 "$TMP/c.tsv" copy suck_received)" = \
	"$(tab copy suck_received 3 200 3 400 2.000 100,300,200 300,500,400)"
# 100 200 300 against 300 400 500: midranks 1 2 3.5 | 3.5 5 6, p = 2 * 2/20; 3 against 3 can
# give 0.1 at best, so ~; the interval: the smallest and largest of the 9 ratios, 90 % sure.
check "copy received: ~, p, smallest p and interval" test "$(row "$TMP/c.tsv" copy suck_received | cut -f 10-)" = \
	"$(tab '~' 0.2 0.1 2.000 1.000 5.000 90)"
check "copy received_pct" test "$(row9 "$TMP/c.tsv" copy received_pct)" = "$(tab copy received_pct 3 20 3 40 2.000 10,30,20 30,50,40)"
check "identical runs: p = 1" test "$(row "$TMP/c.tsv" copy blast_sent | cut -f 10,11)" = "$(tab '~' 1)"
check "A only: B is -" test "$(row "$TMP/c.tsv" buffer suck_received)" = "$(tab buffer suck_received 1 500 0 - - 500 - - - - - - - -)"
check "B only, even count: mean of the middle two" test "$(row9 "$TMP/c.tsv" mmsg suck_received)" = \
	"$(tab mmsg suck_received 0 - 2 3.75 - - 2.5,5)"
check "tsv: too few runs said on stderr" grep -q '^compare: too few runs: with 3 runs against 3 the smallest p the test can give is 0.1, above 0.05, .*4 runs on each side' "$TMP/c.err"
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
check "md: table header" grep -q '^| variant *| figure *| A median *| B median *| *B/A *| *change *| *B/A 95% interval *| *p *| A runs *| B runs *|$' "$TMP/c.md"
check "md: copy received row" grep -q '^| copy *| suck_received *| *200 | *400 | 2.000 | *~ | *1.000..5.000 (90%) | *0.2 | 100,300,200 *| 300,500,400 *|$' "$TMP/c.md"
check "md: too few runs, and how many would do" grep -q '^Note: too few runs: with 3 runs against 3 the smallest p the test can give is 0.1, above 0.05, so no change can be called (copy); 4 runs on each side at least would do.$' "$TMP/c.md"

sh scripts/compare "$TMP/a" >/dev/null 2>&1
check "one directory: exit 2" test $? -eq 2
sh scripts/compare "$TMP/a" "$TMP/none" >/dev/null 2>"$TMP/none.err"
check "missing directory: exit 2, as bad usage" test $? -eq 2
check "missing directory: says which" grep -qF "'$TMP/none': no such directory" "$TMP/none.err"
# Files that are not a result's runs.tsv: refused, exit 2, as bad usage.
mkdir -p "$TMP/nv" "$TMP/empty" "$TMP/head"
printf 'run\tsuck_received\n1\t100\n2\t200\n' >"$TMP/nv/runs.tsv"
: >"$TMP/empty/runs.tsv"
printf 'variant\trun\tsuck_received\n' >"$TMP/head/runs.tsv"
for nrc in nv:"has no variant column" empty:"is empty" head:"holds no run"; do
	sh scripts/compare "$TMP/a" "$TMP/${nrc%%:*}" >"$TMP/nr.out" 2>"$TMP/nr.err"
	check "runs.tsv that ${nrc#*:}: exit 2" test $? -eq 2
	check "runs.tsv that ${nrc#*:}: says so" grep -qF "compare: $TMP/${nrc%%:*}/runs.tsv ${nrc#*:}: not the runs.tsv of a result" "$TMP/nr.err"
	check "runs.tsv that ${nrc#*:}: no table" test ! -s "$TMP/nr.out"
	sh scripts/compare "$TMP/${nrc%%:*}" "$TMP/a" >/dev/null 2>&1
	check "runs.tsv that ${nrc#*:}, as A: exit 2" test $? -eq 2
done
for bad in 0 1 1.5 -0.1 x ''; do
	sh scripts/compare --alpha "$bad" "$TMP/a" "$TMP/b" >/dev/null 2>"$TMP/alpha.err"
	check "--alpha '$bad': exit 2" test $? -eq 2
done
check "--alpha: the message names it" grep -q "^compare: -a '': accepted: a significance level between 0 and 1" "$TMP/alpha.err"

# A cell that is not a number is no sample: A measured the latency (suite --latency),
# B did not and says "-" (or nan, inf, -inf). 4 runs against 4, all of A above 0: read as 0s,
# B would be "-100.0%" at p = 0.0286. It is "not comparable", and a note names the figure.
mkdir -p "$TMP/la" "$TMP/lb"
echo 'git_describe: v1' >"$TMP/la/env.txt"
echo 'git_describe: v2' >"$TMP/lb/env.txt"
{
	printf 'variant\trun\tsuck_received\tsuck_lat_p50_us\n'
	for i in 1 2 3 4; do printf 'copy\t%s\t10%s\t1%s.5\n' "$i" "$i" "$i"; done
} >"$TMP/la/runs.tsv"
for cell in - nan inf -inf NaN; do
	{
		printf 'variant\trun\tsuck_received\tsuck_lat_p50_us\n'
		for i in 1 2 3 4; do printf 'copy\t%s\t20%s\t%s\n' "$i" "$i" "$cell"; done
	} >"$TMP/lb/runs.tsv"
	sh scripts/compare -o tsv -f "suck_received suck_lat_p50_us" "$TMP/la" "$TMP/lb" >"$TMP/l.tsv" 2>"$TMP/l.err"
	check "B's cells '$cell': exit 0" test $? -eq 0
	check "B's cells '$cell': not comparable, no median, no test" test "$(row "$TMP/l.tsv" copy suck_lat_p50_us)" = \
		"$(tab copy suck_lat_p50_us 4 13 0 - - 11.5,12.5,13.5,14.5 - 'not comparable' - - - - - -)"
	check "B's cells '$cell': named on stderr" grep -qxF "compare: not comparable: suck_lat_p50_us of copy: no number in B's 4 run(s) (their cells: $cell)" "$TMP/l.err"
	check "B's cells '$cell': the other figure compared" test "$(row "$TMP/l.tsv" copy suck_received | cut -f 3-7,10,11)" = \
		"$(tab 4 102.5 4 202.5 1.976 +97.6% 0.0286)"
	sh scripts/compare -f suck_lat_p50_us "$TMP/la" "$TMP/lb" >"$TMP/l.md"
	check "B's cells '$cell', md: not comparable, no -100%" sh -c "grep -q '^| copy *| suck_lat_p50_us *| *13 | *- | *- | not comparable |' '$TMP/l.md' && ! grep -q -- '-100' '$TMP/l.md'"
	check "B's cells '$cell', md: the note" grep -qxF "Note: not comparable: suck_lat_p50_us of copy: no number in B's 4 run(s) (their cells: $cell)." "$TMP/l.md"
	sh scripts/compare -o tsv -f all "$TMP/la" "$TMP/lb" >"$TMP/lall.tsv" 2>/dev/null
	check "B's cells '$cell', -f all: the figure is listed, not comparable" test "$(row "$TMP/lall.tsv" copy suck_lat_p50_us | cut -f 10)" = 'not comparable'
done
# Some cells missing: the numbers are the sample, and compare says how many runs it used.
{
	printf 'variant\trun\tsuck_received\tsuck_lat_p50_us\n'
	printf 'copy\t1\t201\t21.5\ncopy\t2\t202\tnan\ncopy\t3\t203\t23.5\ncopy\t4\t204\t\n'
} >"$TMP/lb/runs.tsv"
sh scripts/compare -o tsv -f suck_lat_p50_us "$TMP/la" "$TMP/lb" >"$TMP/l.tsv" 2>"$TMP/l.err"
check "some cells missing: B's 2 numbers are its sample" test "$(row9 "$TMP/l.tsv" copy suck_lat_p50_us)" = \
	"$(tab copy suck_lat_p50_us 4 13 2 22.5 1.731 11.5,12.5,13.5,14.5 21.5,23.5)"
check "some cells missing: says how many runs it used" grep -qxF "compare: suck_lat_p50_us of copy: B used 2 of its 4 runs (the others' cells: nan, empty)" "$TMP/l.err"
sh scripts/compare -f suck_lat_p50_us "$TMP/la" "$TMP/lb" >"$TMP/l.md"
check "some cells missing, md: the note" grep -qxF "Note: suck_lat_p50_us of copy: B used 2 of its 4 runs (the others' cells: nan, empty)." "$TMP/l.md"
# A result without the column (an older build): not comparable, and why.
printf 'variant\trun\tsuck_received\ncopy\t1\t201\ncopy\t2\t202\n' >"$TMP/lb/runs.tsv"
sh scripts/compare -o tsv -f suck_lat_p50_us "$TMP/la" "$TMP/lb" >"$TMP/l.tsv" 2>"$TMP/l.err"
check "no such column in B: not comparable" test "$(row "$TMP/l.tsv" copy suck_lat_p50_us | cut -f 5,6,10)" = "$(tab 0 - 'not comparable')"
check "no such column in B: says so" grep -qxF "compare: not comparable: suck_lat_p50_us of copy: B has no column suck_lat_p50_us" "$TMP/l.err"
# Neither side has a number: named with -f, listed as not comparable; by default left out.
printf 'variant\trun\tsuck_received\tsuck_lat_p50_us\ncopy\t1\t201\t-\ncopy\t2\t202\t-\n' >"$TMP/lb/runs.tsv"
sh scripts/compare -o tsv -f suck_lat_p50_us "$TMP/lb" "$TMP/lb" >"$TMP/l.tsv" 2>/dev/null
check "no number on either side, -f: not comparable" test "$(row "$TMP/l.tsv" copy suck_lat_p50_us | cut -f 10)" = 'not comparable'
sh scripts/compare -o tsv -f all "$TMP/lb" "$TMP/lb" >"$TMP/l.tsv" 2>/dev/null
check "no number on either side, -f all: left out" test -z "$(row "$TMP/l.tsv" copy suck_lat_p50_us)"

# The committed result sets (tests/data/README.md): 5 runs against 5 of copy and buffer.
DA=tests/data/compare-before
DB=tests/data/compare-after
sh scripts/compare -o tsv "$DA" "$DB" >"$TMP/d.tsv" 2>"$TMP/d.err"
check "data: compare exits 0" test $? -eq 0
check "data: no note with 5 runs against 5" test ! -s "$TMP/d.err"
# copy's CPU per datagram: every after run below every before run, p = 2/252; the change of the
# median 1282.4/1371.9 - 1 = -6.5 %; Hodges-Lehmann: the 3rd smallest and largest of the 25 ratios.
check "data: copy CPU, beyond the noise: change, p = 2/252, interval" test "$(row "$TMP/d.tsv" copy suck_cpu_ns_per_pkt | cut -f 7,10-)" = \
	"$(tab 0.935 -6.5% 0.00794 0.00794 0.934 0.914 0.954 96.8)"
# copy's received/s: the runs interleave (U = 12 of 25): p = 1
check "data: copy received/s, within the noise: ~" test "$(row "$TMP/d.tsv" copy suck_pps | cut -f 7,10,11)" = "$(tab 0.989 '~' 1)"
# buffer's CPU: U = 4, p = 24/252 = 0.0952: ~ at 0.05, a change at 0.1
check "data: buffer CPU at 0.05: ~" test "$(row "$TMP/d.tsv" buffer suck_cpu_ns_per_pkt | cut -f 10,11)" = "$(tab '~' 0.0952)"
sh scripts/compare -o tsv --alpha 0.1 "$DA" "$DB" >"$TMP/d10.tsv"
check "data: buffer CPU at --alpha 0.1: -1.8%" test "$(row "$TMP/d10.tsv" buffer suck_cpu_ns_per_pkt | cut -f 10,11)" = "$(tab -1.8% 0.0952)"
# at 0.1: k = 5, 2 P(U <= 4) = 24/252 <= 0.1 < 2 P(U <= 5) = 38/252: 1 - 24/252 = 90.5 %
check "data: --alpha 0.1: a 90 % interval" test "$(row "$TMP/d10.tsv" copy suck_cpu_ns_per_pkt | cut -f 16)" = 90.5
sh scripts/compare "$DA" "$DB" >"$TMP/d.md"
check "data md: copy CPU row" grep -q '^| copy *| suck_cpu_ns_per_pkt *| *1371.9 | *1282.4 | 0.935 | *-6.5% | *0.914..0.954 | *0.00794 |' "$TMP/d.md"
check "data md: copy received/s row: ~" grep -q '^| copy *| suck_pps *| *724410 | *716300 | 0.989 | *~ | *0.948..1.051 | *1 |' "$TMP/d.md"
check "data md: what ~ means" grep -q '^change: .*p <= 0.05 in a two-sided Mann-Whitney U test.*~: not beyond it' "$TMP/d.md"
check "data md: no note with 5 runs against 5" sh -c "! grep -q '^Note:' '$TMP/d.md'"

# summary.tsv: scripts/lib/summary.awk, which suite and plot use
awk -f scripts/lib/stats.awk -f scripts/lib/summary.awk "$TMP/b/runs.tsv" >"$TMP/sum.tsv"
check "summary: header" test "$(head -n 1 "$TMP/sum.tsv")" = "$(tab variant figure runs median min max median_lo median_hi median_ci_pct)"
# 3 runs: min..max covers the median with 1 - 2/8 = 75 %; 2 runs: 1 - 2/4 = 50 %
check "summary: odd count" test "$(awk -F'\t' '$1 == "copy" && $2 == "suck_received"' "$TMP/sum.tsv")" = "$(tab copy suck_received 3 400 300 500 300 500 75)"
check "summary: even count" test "$(awk -F'\t' '$1 == "mmsg" && $2 == "received_pct"' "$TMP/sum.tsv")" = "$(tab mmsg received_pct 2 0.375 0.25 0.5 0.25 0.5 50)"
# 9 runs: the 2nd and 8th values, 1 - 2 * 10/512 = 96.1 % (P(X <= 1) of binomial(9, 1/2))
{
	printf 'variant\trun\tsuck_pps\n'
	for i in 5 9 1 7 3 8 2 6 4; do printf 'v\t%s\t%s00\n' "$i" "$i"; done
} >"$TMP/nine.tsv"
check "summary: 9 runs, 2nd..8th at 96.1 %" test "$(awk -f scripts/lib/stats.awk -f scripts/lib/summary.awk "$TMP/nine.tsv" | sed -n 2p)" = "$(tab v suck_pps 9 500 100 900 200 800 96.1)"
check "summary: no digest, no text column" sh -c "! grep -q -E 'digest|stop|	run	' '$TMP/sum.tsv'"

# table.md's commentary (table.awk reads runs.tsv beside summary.tsv): the same test.
mkdir "$TMP/t"
cp "$DA/runs.tsv" "$TMP/t/"
awk -f scripts/lib/stats.awk -f scripts/lib/summary.awk "$TMP/t/runs.tsv" >"$TMP/t/summary.tsv"
awk -f scripts/lib/stats.awk -f scripts/lib/table.awk "$TMP/t/summary.tsv" >"$TMP/t/table.md"
check "table: buffer beats copy on received/s, with p" grep -q '^- received/s: buffer > copy (1.071x, 1.026..1.115, p = 0.00794)$' "$TMP/t/table.md"
check "table: and on CPU" grep -q '^- suck CPU ns/datagram: buffer < copy (0.928x, 0.907..0.954, p = 0.00794)$' "$TMP/t/table.md"
check "table: the tables are still there" test "$(grep -c '^| copy ' "$TMP/t/table.md")" -eq 2
# 3 runs a variant (the first three of each): never beyond the noise, and the note says so
awk -F'\t' 'NR == 1 || $2 <= 3' "$DA/runs.tsv" >"$TMP/t/runs.tsv"
awk -f scripts/lib/stats.awk -f scripts/lib/summary.awk "$TMP/t/runs.tsv" >"$TMP/t/summary.tsv"
awk -f scripts/lib/stats.awk -f scripts/lib/table.awk "$TMP/t/summary.tsv" >"$TMP/t/table3.md"
check "table, 3 runs: ~" grep -q '^- received/s: buffer ~ copy (p = 0.1)$' "$TMP/t/table3.md"
check "table, 3 runs: too few" grep -q '^Too few runs to call a difference: 3 runs against 3 give p = 0.1 at the smallest, above 0.05; 4 runs per variant at least would do (scripts/suite -r 4).$' "$TMP/t/table3.md"
# without runs.tsv: the tables alone
rm "$TMP/t/runs.tsv"
awk -f scripts/lib/stats.awk -f scripts/lib/table.awk "$TMP/t/summary.tsv" >"$TMP/t/table0.md" 2>"$TMP/t/table0.err"
check "table, no runs.tsv: no commentary, no error" sh -c "! grep -q 'Beyond the noise' '$TMP/t/table0.md' && test ! -s '$TMP/t/table0.err'"

# reproduce.md's sentences (lua-2014's: reproduce-lua.awk): a winner only when the test calls it.
# rtsv N: a reproduce.tsv with N runs here of copy and buffer; buffer's share above copy's in each.
rtsv() {
	printf 'source\tvariant\tstrategy_2014\treceiver\trun\tduration_s\tsent\treceived\treceived_pct\tmemory_k\tdropped\tcpu_ns_per_pkt\n'
	grep -v '^#' results/published/lua-net-speed-2014.tsv | awk -F'\t' 'NR > 1 {
		v = $2 == "immutable-string" ? "copy" : "buffer"
		printf "2014\t%s\t%s\t%s\t%s\t10\t%s\t%s\t%.3f\t%s\t\t\n", v, $2, $1, $3, $4, $5, 100 * $5 / $4, $6 }'
	i=1
	while [ "$i" -le "$1" ]; do
		printf 'here\tcopy\timmutable-string\tsuck -m copy\t%s\t10\t1000\t%s\t%s\t64\t0\t1500\n' "$i" $((900 + i)) "$(awk -v r=$((900 + i)) 'BEGIN { print r / 10 }')"
		printf 'here\tbuffer\tbuffer-userdata\tsuck -m buffer\t%s\t10\t1000\t%s\t%s\t64\t0\t1400\n' "$i" $((950 + i)) "$(awk -v r=$((950 + i)) 'BEGIN { print r / 10 }')"
		i=$((i + 1))
	done
}
rmd() { awk -f scripts/lib/stats.awk -v time=10 -v runs="$1" -v machine=here -f scripts/lib/reproduce-2018.awk -f scripts/lib/reproduce-lua.awk "$2" | tail -n 1; }
rtsv 5 >"$TMP/r5.tsv"
rtsv 3 >"$TMP/r3.tsv"
rmd 5 "$TMP/r5.tsv" >"$TMP/r5.p"
rmd 3 "$TMP/r3.tsv" >"$TMP/r3.p"
check "reproduce.md, 5 runs: buffer did better, with p = 2/252" grep -q 'Share processed: buffer 95.3 % (95.1..95.5) against copy 90.3 % (90.1..90.5), 1.055x, [0-9.]*\.\.[0-9.]* (96.8 % interval), p = 0.00794: beyond the noise of the runs, buffer did better\.' "$TMP/r5.p"
check "reproduce.md, 3 runs: no winner, too few runs" grep -q 'Share processed: buffer 95.2 % (95.1..95.3) against copy 90.2 % (90.1..90.3), 1.055x, p = 0.1: again too few runs to call it\.' "$TMP/r3.p"
check "reproduce.md, 3 runs: says why once" grep -q '3 runs against 3 cannot give a p below 0.1, so the test cannot call a difference at 0.05 (that needs 4 runs each)' "$TMP/r3.p"
check "reproduce.md, 3 runs: no 'did better'" sh -c "! grep -q 'did better' '$TMP/r3.p'"
check "reproduce.md: 2014's 3 runs cannot call it either" grep -q "the buffer's share was 0.68x the strings', lower by the medians, against the thesis that a reusable buffer is faster; but p = 0.1 in a two-sided Mann-Whitney U test of the runs" "$TMP/r5.p"

done_tests
