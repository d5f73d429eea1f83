# The scripts with suck --latency and the pages and timelines: the suite's
# latency table and plot, every run's interval rows kept and drawn as a timeline, sweep rate
# --latency's latency.md and rate_latency plot, and an index.html naming every plot.
. tests/lib.sh

D=$TMP/suite
sh scripts/suite -t 0.4 -r 2 -W 0 -m "buffer mmsg" --latency -o "$D" >"$TMP/suite.out" 2>"$TMP/suite.err"
check "suite --latency: exit 0 ($(tail -n 2 "$TMP/suite.err"))" test $? = 0
check "runs.tsv: the delay of every run" awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	!(($c["suck_lat_p50_us"] + 0) > 0 && $c["suck_lat_samples"] == $c["suck_valid"]) { exit 1 }' "$D/runs.tsv"
check "summary.tsv: lat_p50" grep -q '	suck_lat_p50_us	' "$D/summary.tsv"
check "table.md: the latency table" grep -q '| variant | delay p50 us ' "$D/table.md"
check "env.txt says latency" grep -qx 'latency: 1' "$D/env.txt"
check "raw/: interval rows kept" grep -q '^suck	[0-9.]*	' "$D/raw/buffer-1.suck.err"
check "index.html" test -s "$D/index.html"
if command -v gnuplot >/dev/null 2>&1; then
	for p in latency timeline datagrams; do
		check "suite: $p.svg" test -s "$D/$p.svg"
		check "index.html names $p.svg" grep -q "<img src=\"./$p.svg\"" "$D/index.html"
	done
else
	skip "no gnuplot: plots not checked"
fi
command -v xmllint >/dev/null 2>&1 && check "suite index.html well-formed" xmllint --noout "$D/index.html"

# Without --latency: no latency table.
D2=$TMP/suite2
sh scripts/suite -t 0.3 -r 1 -W 0 -m buffer -o "$D2" >/dev/null 2>&1
check "suite without --latency: no latency table" sh -c "! grep -q 'delay p50' '$D2/table.md'"

S=$TMP/sweep
sh scripts/sweep rate --latency -m "buffer" --rates "2000 0" -t 0.4 -o "$S" >"$TMP/sweep.out" 2>"$TMP/sweep.err"
check "sweep rate --latency: exit 0 ($(tail -n 2 "$TMP/sweep.err"))" test $? = 0
check "rate.tsv: lat_p50_us a number" awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	!(($c["lat_p50_us"] + 0) > 0) { exit 1 }' "$S/rate.tsv"
check "latency.md: the table" grep -q '^| buffer | ' "$S/latency.md"
check "latency.md: the paragraph" grep -q '^At the lowest load, buffer waits least' "$S/latency.md"
check "sweep index.html has latency.md" grep -q 'One-way delay against offered rate' "$S/index.html"
if command -v gnuplot >/dev/null 2>&1; then
	check "sweep: rate_latency.svg" test -s "$S/rate_latency.svg"
fi
sh scripts/sweep size --latency >/dev/null 2>"$TMP/e"
check "sweep size --latency: exit 2" test $? = 2

done_tests
