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
	check "datagrams: title, axis with unit, legend" sh -c "grep -q 'Datagrams sent and received' '$D/datagrams.svg' &&
		grep -q 'datagrams per run (count' '$D/datagrams.svg' && grep -q 'received by suck' '$D/datagrams.svg'"
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
