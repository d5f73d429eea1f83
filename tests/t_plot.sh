# scripts/plot on a made-up result directory (no benchmark needed): PNG and SVG of every plot,
# titled, with the run's size and machine; the published plot when reproduce.tsv is there; a
# redraw leaves nothing half-written; without gnuplot one line says how to install it.
. tests/lib.sh

D=$TMP/res
mkdir -p "$D"
{
	printf 'variant\trun\treceived_pct\tblast_sent\tblast_cpu_ns_per_pkt\tsuck_received\tsuck_cpu_ns_per_pkt\tsuck_rss_kib\tsuck_heap_kib\n'
	printf 'copy\t1\t40\t1000\t900\t400\t2000\t1800\t67\n'
	printf 'copy\t2\t50\t1000\t950\t500\t2100\t1810\t67\n'
	printf 'copy\t3\t45\t1000\t920\t450\t2050\t1790\t68\n'
	printf 'mmsg\t1\t90\t1000\t900\t900\t1500\t1900\t2051\n'
} >"$D/runs.tsv"
cat >"$D/env.txt" <<'EOF'
time_s: 5
runs: 3
size_bytes: 1450
work: histogram
blast_args: 
cpu_model: Test CPU 9000
cpu_count: 2
kernel: Linux 6.1.0-test x86_64
EOF

sh scripts/plot "$D" 2>"$TMP/plot.err" >/dev/null
st=$?
if command -v gnuplot >/dev/null 2>&1; then
	check "plot exits 0" test "$st" -eq 0
	[ "$st" -eq 0 ] || cat "$TMP/plot.err"
	for p in datagrams cpu memory; do
		check "$p.png is a PNG" sh -c "head -c 8 '$D/$p.png' | grep -q PNG"
		check "$p.svg is an SVG" grep -q '<svg' "$D/$p.svg"
		check "$p.svg: subtitle with size and machine" grep -q '1450-byte datagrams, 5 s x 3 runs.*Test CPU 9000, 2 CPUs, Linux 6.1.0-test' "$D/$p.svg"
	done
	check "datagrams: title, axis with unit, legend" sh -c "grep -q 'How much of what blast sent suck received' '$D/datagrams.svg' &&
		grep -q 'datagrams per run (log scale)' '$D/datagrams.svg' && grep -q 'received by suck' '$D/datagrams.svg'"
	check "cpu: axis with unit" grep -q 'CPU ns per datagram' "$D/cpu.svg"
	check "memory: rss and heap in the legend" sh -c "grep -q 'rss_kib' '$D/memory.svg' && grep -q 'heap_kib' '$D/memory.svg'"
	check "no published plot without reproduce.tsv" test ! -e "$D/published_vs_here.png"

	# The published plot, from a reproduce.tsv.
	{
		printf 'source\tvariant\tstrategy_2014\treceiver\trun\tduration_s\tsent\treceived\treceived_pct\tmemory_k\tdropped\tcpu_ns_per_pkt\n'
		printf '2014\tcopy\timmutable-string\tsuck.lua\t1\t10\t1442627\t12003\t0.832\t67\t\t\n'
		printf 'here\tcopy\timmutable-string\tsuck -m copy\t1\t10\t2000000\t1000000\t50\t67\t1000000\t2000\n'
		printf 'here\tmmsg\t-\tsuck -m mmsg\t1\t10\t2000000\t1500000\t75\t2051\t500000\t1500\n'
	} >"$D/reproduce.tsv"
	sh scripts/plot "$D" 2>"$TMP/plot2.err" >/dev/null
	check "redraw with reproduce.tsv exits 0" test $? -eq 0
	check "published_vs_here.png" sh -c "head -c 8 '$D/published_vs_here.png' | grep -q PNG"
	check "published_vs_here.svg: both sides in the legend" sh -c "grep -q 'published' '$D/published_vs_here.svg' &&
		grep -q 'here: suck' '$D/published_vs_here.svg' && grep -q 'received / sent (%' '$D/published_vs_here.svg'"
	check "published_vs_here.svg: the variant without 2014 numbers is there" grep -q 'mmsg (no 2014 counterpart)' "$D/published_vs_here.svg"
	check "nothing half-written" test -z "$(find "$D" -name '.*' -type f | head -n 1)"
else
	skip "no gnuplot: plots not drawn (apt-get install gnuplot-nox)"
fi

# What each plot answers at a glance, on a result shaped to trip them: the variants in an order
# that is not alphabetical (mmsg, gro, copy), gro sending ten times as much as the others, copy's
# runs such that the median of the runs' own received % (30.0) is not the ratio of the medians
# (500 / 1500 = 33.3 %), interval rows of 800k beside 1.2M, and a fan-in.
# svg_texts FILE: "X Y TEXT" for each text of a gnuplot SVG (its place from the translate before).
svg_texts() {
	awk 'match($0, /translate\([0-9.]+,[0-9.]+\)/) { split(substr($0, RSTART + 10, RLENGTH - 11), xy, ",") }
		match($0, /<text>[^<]*<\/text>/) { print xy[1], xy[2], substr($0, RSTART + 6, RLENGTH - 13) }' "$1"
}
# text_y FILE TEXT: the Y of the first text that is exactly TEXT
text_y() { svg_texts "$1" | awk -v t="$2" '{ x = $1; y = $2; $1 = $2 = ""; sub(/^  /, "") } $0 == t { print y; exit }'; }
G=$TMP/glance
mkdir -p "$G/raw"
{
	printf 'variant\trun\treceived_pct\tblast_sent\tsuck_received\tsuck_cpu_ns_per_pkt\tblast_cpu_ns_per_pkt\tsuck_rss_kib\tsuck_heap_kib\tsuck_pps\n'
	printf 'mmsg\t1\t90\t1000\t900\t1500\t900\t1900\t2051\t900\n'
	printf 'mmsg\t2\t90\t1000\t900\t1500\t900\t1900\t2051\t900\n'
	printf 'mmsg\t3\t90\t1000\t900\t1500\t900\t1900\t2051\t900\n'
	printf 'gro\t1\t10\t20000\t2000\t600\t200\t2600\t540\t2000\n'
	printf 'gro\t2\t11\t20000\t2200\t600\t200\t2600\t540\t2200\n'
	printf 'gro\t3\t12\t20000\t2400\t600\t200\t2600\t540\t2400\n'
	printf 'copy\t1\t50\t1000\t500\t2000\t900\t1800\t67\t500\n'
	printf 'copy\t2\t30\t2000\t600\t2000\t900\t1800\t67\t600\n'
	printf 'copy\t3\t20\t1500\t300\t2000\t900\t1800\t67\t300\n'
} >"$G/runs.tsv"
cp "$D/env.txt" "$G/env.txt"
for v in mmsg gro copy; do
	for r in 1 2 3 warmup1; do
		printf 'suck: listening on 127.0.0.1:1\ntool\tt_s\treceived\tpps\n' >"$G/raw/$v-$r.suck.err"
		printf 'tool\tt_s\tsent\tpps\n' >"$G/raw/$v-$r.blast.err"
		for k in 1 2 3 4; do
			printf 'suck\t%s\t0\t%d\n' "$(awk -v k=$k 'BEGIN { print k / 4 }')" $((780000 + 10000 * ${r#warmup})) >>"$G/raw/$v-$r.suck.err"
			printf 'blast\t%s\t0\t%d\n' "$(awk -v k=$k 'BEGIN { print k / 4 }')" $((1150000 + 50000 * ${r#warmup})) >>"$G/raw/$v-$r.blast.err"
		done
	done
done
printf 'blast\t1.25\t0\t1400000\n' >>"$G/raw/gro-2.blast.err" # one run a row longer than the rest
if command -v gnuplot >/dev/null 2>&1; then
	sh scripts/plot "$G" >/dev/null 2>"$TMP/glance.err"
	check "glance: plot exits 0 ($(cat "$TMP/glance.err"))" test $? -eq 0
	# the timeline: a panel per variant in the tables' order, not raw/'s alphabetical one
	tl_order=$(svg_texts "$G/timeline.svg" | sed -n 's/^[0-9.]* [0-9.]* suck -m //p' | tr '\n' ' ')
	check "timeline: panels in the tables' order, mmsg gro copy (got: $tl_order)" test "$tl_order" = "mmsg gro copy "
	# one unit on every tick: 800k beside 1.2M is 0.8M, never "800.0k"
	tl_ticks=$(svg_texts "$G/timeline.svg" | awk 'NF == 3 && $3 ~ /^[0-9.]+[kMG]$/ { print $3 }' | sort -u | tr '\n' ' ')
	check "timeline: every rate tick in M with one decimal, none in k (got: $tl_ticks)" \
		sh -c "test -n '$tl_ticks' && test -z \"\$(printf '%s\n' $tl_ticks | grep -v '^[0-9]*\.[0-9]M\$')\""
	check "timeline: the tick format is fixed, not gnuplot's %s%c" sh -c "grep -q \"format y '%.1fM'\" scripts/lib/gnuplot/timeline.gp && ! grep -q '%.1s%c' scripts/lib/gnuplot/timeline.gp"
	# one time axis: set once, before the panels, from all the data (gro's longer run included)
	check "timeline: one x range for every panel" awk '/^set xrange \[0:tmax\]/ { x = NR } /^do for/ { d = NR } END { exit !(x && d && x < d) }' scripts/lib/gnuplot/timeline.gp
	check "timeline: the x range reaches the longest run (gro's 1.25 s)" grep -q '<text>1.2</text>' "$G/timeline.svg"
	# a band per tool: median, min and max of the runs at each interval (warm-ups left out)
	awk -v order="mmsg gro copy" -f scripts/lib/timeline.awk "$G"/raw/*.err >"$TMP/tl.dat"
	check "timeline: a band, median and min..max of the 3 runs" grep -qx "$(printf 'copy\tsuck\t1\t0.250\t800000\t790000\t810000\t3')" "$TMP/tl.dat"
	check "timeline: data sets in the tables' order" sh -c "awk -F'\t' 'NF { print \$1 }' '$TMP/tl.dat' | uniq | tr '\n' ' ' | grep -qx 'mmsg gro copy '"
	# the legend above the first panel, out of the data
	leg_y=$(text_y "$G/timeline.svg" 'sent by blast: median')
	pan_y=$(text_y "$G/timeline.svg" 'suck -m mmsg')
	check "timeline: the legend above the first panel (legend y $leg_y, panel title y $pan_y)" awk -v a="$leg_y" -v b="$pan_y" 'BEGIN { exit !(a != "" && b != "" && a + 0 < b + 0) }'
	# the datagrams plot: a log scale, the share under each name, the same figure as the table's
	check "datagrams: a log scale" grep -q '^set logscale y' scripts/lib/gnuplot/datagrams.gp
	awk -f scripts/lib/stats.awk -f scripts/lib/summary.awk "$G/runs.tsv" >"$G/summary.tsv"
	awk -f scripts/lib/stats.awk -f scripts/lib/table.awk "$G/summary.tsv" >"$G/table.md"
	tab_pct=$(awk -F'|' '/received %/ { for (i = 2; i < NF; i++) if ($i ~ /received %/) c = i } c && $2 ~ /^ copy / { v = $c; gsub(/^ +| +$/, "", v); sub(/ .*/, "", v); print v; exit }' "$G/table.md")
	check "table.md: received % is the median of the runs' own, one decimal (got $tab_pct)" test "$tab_pct" = 30.0
	check "table.md: the header says how the % is made" grep -q 'received % (per run)' "$G/table.md"
	check "datagrams: copy's share is the table's ($tab_pct %), not the ratio of the medians (33.3 %)" \
		sh -c "grep -q '<text>$tab_pct %</text>' '$G/datagrams.svg' && ! grep -q '33.3 %' '$G/datagrams.svg'"
	copy_y=$(text_y "$G/datagrams.svg" copy)
	pct_y=$(text_y "$G/datagrams.svg" "$tab_pct %")
	check "datagrams: the share under the variant's name, clear of the bars (name y $copy_y, share y $pct_y)" \
		awk -v a="$copy_y" -v b="$pct_y" 'BEGIN { exit !(a != "" && b != "" && b + 0 > a + 0) }'
	# the only counts written are the y axis's ticks, all at one x: none stacked over a bar
	check "datagrams: no count labels over the bars and whiskers" \
		test "$(svg_texts "$G/datagrams.svg" | awk 'NF == 3 && $3 ~ /^[0-9.]+[kMG]?$/ { print $1 }' | sort -u | wc -l)" -eq 1
else
	skip "no gnuplot: the plots' shapes not checked"
fi

# Fan-in: a fair-share line and Jain's index.
F=$TMP/fanin
mkdir -p "$F"
{
	printf 'variant\trun\treceived_pct\tblast_sent\tsuck_received\tsuck_cpu_ns_per_pkt\tblast_cpu_ns_per_pkt\tsuck_rss_kib\tsuck_heap_kib\tsuck_sender1_share_pct\tsuck_sender2_share_pct\tsuck_jain\n'
	printf 'copy\t1\t50\t1000\t500\t900\t900\t1800\t67\t50\t50\t1\n'
	printf 'mmsg\t1\t50\t1000\t500\t900\t900\t1800\t67\t80\t20\t0.735\n'
} >"$F/runs.tsv"
cp "$D/env.txt" "$F/env.txt"
if command -v gnuplot >/dev/null 2>&1; then
	sh scripts/plot "$F" >/dev/null 2>"$TMP/fanin.err"
	check "fanin: plot exits 0 ($(cat "$TMP/fanin.err"))" test $? -eq 0
	check "fanin: the fair-share line, 100/2" grep -q '<text>fair share: 100/2 = 50.0 %</text>' "$F/fanin.svg"
	check "fanin: Jain's index under each variant" sh -c "grep -q '<text>Jain 1.000</text>' '$F/fanin.svg' && grep -q '<text>Jain 0.735</text>' '$F/fanin.svg'"
fi

# Without gnuplot: exit 0, one line on how to install it, no images.
mkdir -p "$TMP/nognu"
cp "$D/runs.tsv" "$D/env.txt" "$TMP/nognu/"
GNUPLOT=/nonexistent/gnuplot sh scripts/plot "$TMP/nognu" >/dev/null 2>"$TMP/nognu.err"
check "no gnuplot: exit 0" test $? -eq 0
check "no gnuplot: one line" test "$(wc -l <"$TMP/nognu.err")" -eq 1
check "no gnuplot: says how to install it" grep -q 'apt-get install gnuplot-nox' "$TMP/nognu.err"
check "no gnuplot: no images" test -z "$(find "$TMP/nognu" -name '*.png' -o -name '*.svg' | head -n 1)"

sh scripts/plot "$TMP/nowhere" >/dev/null 2>"$TMP/nowhere.err"
check "no such directory: exit 2, as bad usage" test $? -eq 2
check "no such directory: says so" grep -qF "'$TMP/nowhere': no such directory" "$TMP/nowhere.err"
mkdir "$TMP/nowhere"
sh scripts/plot "$TMP/nowhere" >/dev/null 2>"$TMP/nowhere.err"
check "not a result directory: exit 2, as bad usage" test $? -eq 2
check "not a result directory: says so" grep -q 'no .*runs.tsv' "$TMP/nowhere.err"

done_tests
