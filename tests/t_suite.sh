# scripts/suite in quick mode (-t 1 -r 1): every file with its documented columns, warm-ups run
# and discarded, the tools pinned apart, a variant the kernel lacks (suck exit 4) skipped, a failed
# run reported and kept out of the tables, bad tool options stopping the suite.
# The wrappers stand in for SUCK_CMD/BLAST_CMD (the two-host prefixes) to record each tool's pid
# and to inject failures, and to see the run keys pass through; t_suite_signal.sh checks interrupts.
# Where commands are counted, --retry 0: a noisy run measured again (lib/noise.sh) would add its
# own; t_suite_noise.sh checks that path.
. tests/lib.sh

no_tmp() { # DIR: nothing half-written left in DIR
	[ -z "$(find "$1" -name '*.tmp' 2>/dev/null | head -n 1)" ]
}
run_ids() { # ENV.TXT PAIRS: each blast command has the --run-id of the suck command before it,
	# a number 1..4294967295, and each of the PAIRS its own
	sed -En 's/^cmd: .*\/(suck|blast) .*--run-id ([0-9]+)( .*)?$/\1 \2/p' "$1" | awk -v pairs="$2" '
		$1 == "suck" { s = $2; next }
		{ if ($2 != s || s + 0 < 1 || s + 0 > 4294967295 || s in seen) bad = 1; seen[s] = 1; s = ""; n++ }
		END { exit bad || n != pairs }'
}
every_row() { # FILE AWK-CONDITION: the condition holds on every data row (columns by name: c["x"])
	awk -F'\t' "NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } !($2) { bad = 1; print \"row \" NR \": \" \$0 } END { exit bad }" "$1"
}

D=$TMP/quick
sh scripts/suite -t 1 -r 1 --retry 0 -m "copy mmsg" -o "$D" >"$TMP/quick.out" 2>"$TMP/quick.err"
st=$?
check "quick suite exits 0" test "$st" -eq 0
[ "$st" -eq 0 ] || cat "$TMP/quick.err"
for f in runs.tsv summary.tsv table.md env.txt; do
	check "$f written" test -s "$D/$f"
done
check "runs.tsv: documented columns" has_cols "$D/runs.tsv" variant run received_pct blast_sent blast_pps \
	blast_duration_s blast_cpu_ns_per_pkt blast_rss_kib suck_variant suck_received suck_valid suck_sent suck_lost \
	suck_dropped suck_elsewhere suck_pps suck_mbps suck_cpu_ns_per_pkt suck_rss_kib suck_heap_kib suck_user_s suck_sys_s
check "runs.tsv: one row per measured run, warm-ups left out" test "$(col "$D/runs.tsv" run | tr '\n' ' ')" = "1 1 "
check "runs.tsv: the variants in order" test "$(col "$D/runs.tsv" variant | tr '\n' ' ')" = "copy mmsg "
check "runs.tsv: suck ran the variant of its row" every_row "$D/runs.tsv" '$c["variant"] == $c["suck_variant"]'
check "runs.tsv: blast's sent is suck's sent (the fin)" every_row "$D/runs.tsv" '$c["blast_sent"] == $c["suck_sent"]'
check "runs.tsv: sent == valid + lost" every_row "$D/runs.tsv" '$c["suck_sent"] == $c["suck_valid"] + $c["suck_lost"]'
check "runs.tsv: something was received" every_row "$D/runs.tsv" '$c["suck_received"] > 0'
check "runs.tsv: received_pct is received/sent" every_row "$D/runs.tsv" \
	'($c["received_pct"] - 100 * $c["suck_received"] / $c["blast_sent"])^2 < 0.01'
check "runs.tsv: work and size as asked" every_row "$D/runs.tsv" '$c["suck_work"] == "histogram" && $c["blast_size"] == 1450'
check "summary.tsv: header" test "$(head -n 1 "$D/summary.tsv")" = "$(printf 'variant\tfigure\truns\tmedian\tmin\tmax\tmedian_lo\tmedian_hi\tmedian_ci_pct')"
check "summary.tsv: suck_received of each variant" test "$(awk -F'\t' '$2 == "suck_received"' "$D/summary.tsv" | wc -l)" -eq 2
check "summary.tsv: min <= median <= max" every_row "$D/summary.tsv" '$4 + 0 >= $5 + 0 && $4 + 0 <= $6 + 0'
check "summary.tsv: the median of one run is that run" test \
	"$(awk -F'\t' '$1 == "copy" && $2 == "suck_received" { print $4 }' "$D/summary.tsv")" = "$(col "$D/runs.tsv" suck_received | head -n 1)"
check "summary.tsv: identifiers are not figures" sh -c "! grep -q -E 'run_id|digest|	run	' '$D/summary.tsv'"
check "table.md: a row per variant" test "$(grep -c -E '^\| (copy|mmsg) ' "$D/table.md")" -eq 4
check "table.md: headings" grep -q 'received by suck.*received %' "$D/table.md"
check "table.md: printed at the end" cmp -s "$D/table.md" "$TMP/quick.out"
for k in kernel cpu_model cpu_count net.core.rmem_default net.core.rmem_max compiler git_describe time_s runs size_bytes; do
	check "env.txt: $k" grep -q "^$k: ." "$D/env.txt"
done
check "env.txt: every suck and blast command (2 variants x 2 runs)" test "$(grep -c -E '^cmd: .*/(suck|blast) ' "$D/env.txt")" -eq 8
if [ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ]; then
	check "suck pinned to CPU 0" test "$(grep -c '^cmd: .*/suck .*--cpu 0' "$D/env.txt")" -eq 4
	check "blast pinned to CPU 1" test "$(grep -c '^cmd: .*/blast .*--cpu 1' "$D/env.txt")" -eq 4
else
	skip "one CPU: no pinning to check"
fi
check "raw/: the warm-up's reports are kept" test -s "$D/raw/copy-warmup1.suck.tsv"
# One random run id per run, the same for its suck and its blast (suck --run-id then takes that
# run's datagrams only); the reports say so.
check "run ids: suck and blast of each run share one, every run its own" run_ids "$D/env.txt" 4
check "run ids: in the reports, blast's is suck's" every_row "$D/runs.tsv" '$c["blast_run_id"] == $c["suck_run_id"] && $c["suck_run_id"] != "00000000"'

# One random run key per run, never on a command line: both tools are told to read it
# on their standard input, and both reports say a key was in force.
check "run keys: every run's suck and blast keyed" every_row "$D/runs.tsv" '$c["suck_keyed"] == 1 && $c["blast_keyed"] == 1'
check "run keys: every suck and blast reads its key on stdin" test "$(grep -c -E '^cmd: .*/(suck|blast) .*--key-file - ' "$D/env.txt")" -eq 8
check "run keys: no key-like word on a command line" sh -c "! grep -Eq '[0-9a-fA-F]{32}' '$D/env.txt'"

check "progress: run i of n with elapsed and time left" grep -q '^suite: \[3/4\] copy run 1 of 1, .* elapsed, about .* left$' "$TMP/quick.err"
# In rounds: both warm-ups, then run 1 of each variant.
check "progress: in rounds, every variant once per round" \
	test "$(sed -n 's/^suite: \[[0-9]*\/4\] \([a-z]*\) \([a-z-]*\) .*/\1 \2/p' "$TMP/quick.err" | tr '\n' ',')" = "copy warm-up,mmsg warm-up,copy run,mmsg run,"
check "nothing half-written" no_tmp "$TMP"
if command -v gnuplot >/dev/null 2>&1; then
	for p in datagrams cpu memory; do
		check "$p.png is a PNG" sh -c "head -c 4 '$D/$p.png' | grep -q PNG"
		check "$p.svg is an SVG" grep -q '<svg' "$D/$p.svg"
	done
else
	skip "no gnuplot: plots not checked (apt-get install gnuplot-nox)"
fi

# Wrappers in the place of SUCK_CMD/BLAST_CMD: record the pid, then run the tool. suck -m gro
# says the kernel lacks it (exit 4); the second blast run fails when $TMP/failblast exists.
cat >"$TMP/wrap" <<EOF
#!/bin/sh
tool=\$1; shift
case " \$* " in *" -p "*) echo \$\$ >>"$TMP/\$tool.pids" ;; esac
if [ "\$tool" = suck ]; then
	case " \$* " in *" -m gro "*) echo "suck: -m gro: not offered by this kernel" >&2; exit 4 ;; esac
fi
if [ "\$tool" = blast ] && [ -e "$TMP/failblast" ]; then
	case " \$* " in *" -p "*)
		n=\$(cat "$TMP/failblast"); echo \$((n + 1)) >"$TMP/failblast"
		[ "\$n" -ne 1 ] || { echo "blast: sendto: injected failure" >&2; exit 1; } ;;
	esac
fi
exec "\$@"
EOF

# A variant the kernel does not offer is skipped with a message; the others still run. xdp too,
# which lo cannot run (no native XDP): its note gives that reason alone.
SUCK_CMD="sh $TMP/wrap suck" GNUPLOT=/nonexistent/gnuplot \
	sh scripts/suite -t 1 -r 1 -W 0 -m "gro xdp buffer" -o "$TMP/skip" >"$TMP/skip.out" 2>"$TMP/skip.err"
check "skip: suite exits 0" test $? -eq 0
check "skip: says why" grep -q 'gro: skipped, not supported here (suck exit 4' "$TMP/skip.err"
check "skip: the other variant ran" test "$(col "$TMP/skip/runs.tsv" variant | tr '\n' ' ')" = "buffer "
check "skip: noted in table.md" grep -q 'gro: skipped' "$TMP/skip/table.md"
check "skip: xdp's note says lo has no native XDP" grep -q '^- xdp: skipped, not supported here (suck exit 4: suck: -m xdp: lo is the loopback device, which has no native XDP' "$TMP/skip/table.md"
check "skip: xdp's note gives no second, wrong reason" sh -c "! grep '^- xdp:' '$TMP/skip/table.md' | grep -q 'does not offer it'"
check "skip: index.html has the one reason too" sh -c "grep -q 'xdp: skipped.*no native XDP' '$TMP/skip/index.html' && ! grep 'xdp: skipped' '$TMP/skip/index.html' | grep -q 'does not offer it'"
# Which variants run is settled before the first measurement (suck --check): the progress's total
# is fixed from its first line and its first estimate counts only what will run (1 run of 1 s),
# no run of a skipped variant is started, and table.md's title names what ran.
check "skip: the progress total fixed from the start" test "$(sed -n 's/^suite: \[\([0-9]*\/[0-9]*\)\].*/\1/p' "$TMP/skip.err" | tr '\n' ' ')" = "1/1 "
check "skip: the first estimate counts only what runs" grep -q '^suite: \[1/1\] buffer run 1 of 1, [0-9]* s elapsed, about 1 s left$' "$TMP/skip.err"
check "skip: no run of a skipped variant started" sh -c "! grep -E '^cmd: .*/suck .*-m (gro|xdp) ' '$TMP/skip/env.txt' | grep -qv -- '--check'"
check "skip: table.md's title lists what ran" test "$(head -n 1 "$TMP/skip/table.md")" = "# blast & suck: buffer"
check "no gnuplot: one line says how to install it" grep -q 'apt-get install gnuplot-nox' "$TMP/skip.err"
check "no gnuplot: the tables still come out" test -s "$TMP/skip/table.md"

# A run whose blast fails: reported, its suck ended, the other runs kept, exit 1.
echo 0 >"$TMP/failblast"
rm -f "$TMP/suck.pids" "$TMP/blast.pids"
SUCK_CMD="sh $TMP/wrap suck" BLAST_CMD="sh $TMP/wrap blast" GNUPLOT=/nonexistent/gnuplot \
	sh scripts/suite -t 1 -r 2 -W 1 --retry 0 -m buffer -o "$TMP/fail" >"$TMP/fail.out" 2>"$TMP/fail.err"
check "failed run: suite exits 1" test $? -eq 1
check "failed run: the message names the run and blast's error" grep -q 'buffer 1: blast failed (exit 1): blast: sendto: injected failure' "$TMP/fail.err"
check "failed run: the other run is kept" test "$(col "$TMP/fail/runs.tsv" run | tr '\n' ' ')" = "2 "
check "failed run: noted in table.md" grep -q 'buffer 1: blast failed' "$TMP/fail/table.md"
check "failed run: its stderr is kept in raw/" grep -q 'injected failure' "$TMP/fail/raw/buffer-1.blast.err"
alive=
for p in $(cat "$TMP/suck.pids" "$TMP/blast.pids" 2>/dev/null); do kill -0 "$p" 2>/dev/null && alive="$alive $p"; done
check "failed run: no suck or blast left running" test -z "$alive"
check "failed run: three sucks were started" test "$(grep -c '^cmd: .*/suck ' "$TMP/fail/env.txt")" -eq 3
check "two prefixes: env.txt has both hosts" grep -q '^blast_host.kernel: ' "$TMP/fail/env.txt"

# The run key through a prefix, as over ssh: a wrapper in the place of SUCK_CMD and
# BLAST_CMD keeps each key the tools are given on stdin (outside the result: the test's own
# record) and hands it on. Every pair has its own key, the same for its suck and its blast, and
# the reports say keyed=1; no key is in any file of the result, nor, while the suite runs, in
# any process's arguments (ps) or environment.
cat >"$TMP/keywrap" <<EOF
#!/bin/sh
case " \$* " in
*" --key-file - "*)
	k=\$(cat)
	case " \$* " in *" --check "*) w=check ;; *) w=run ;; esac
	echo "\${1##*/} \$w \$k" >>"$TMP/keys"
	exec "\$@" <<K
\$k
K
	;;
esac
exec "\$@"
EOF
rm -f "$TMP/keys" "$TMP/monitor.stop"
(
	while [ ! -e "$TMP/monitor.stop" ]; do
		ps -ww -eo args
		cat /proc/[0-9]*/environ 2>/dev/null | tr '\0' '\n'
		sleep 0.05
	done
) >"$TMP/ps.log" 2>/dev/null &
MON=$!
PIDS="$PIDS $MON"
K=$TMP/keyed
SUCK_CMD="sh $TMP/keywrap" BLAST_CMD="sh $TMP/keywrap" GNUPLOT=/nonexistent/gnuplot \
	sh scripts/suite -t 1 -r 1 -W 1 --retry 0 -m "buffer mmsg" -o "$K" >"$TMP/keyed.out" 2>"$TMP/keyed.err"
check "keyed through a prefix: suite exits 0" test $? -eq 0
: >"$TMP/monitor.stop"
wait "$MON"
check "keyed: the monitor saw suck and blast run, reading a key on stdin" sh -c \
	"grep -q -- '/suck .*--key-file - ' '$TMP/ps.log' && grep -q -- '/blast .*--key-file - ' '$TMP/ps.log'"
check "keyed: every key 32 hex digits" test -z "$(awk 'length($3) != 32 || $3 ~ /[^0-9a-f]/ || NF != 3' "$TMP/keys")"
# 2 variants x (1 warm-up + 1 run): 4 pairs, each key given to one suck and one blast
check "keyed: a key per pair, the same for its suck and blast" test "$(awk '$2 == "run" { n[$3]++; t[$3] = t[$3] $1 " " }
	END { for (k in n) { c++; if (n[k] != 2 || (t[k] != "suck blast " && t[k] != "blast suck ")) bad = 1 } print (bad ? "bad" : c) }' "$TMP/keys")" = 4
check "keyed: every report of every run says keyed=1" test "$(for f in "$K"/raw/*.suck.tsv "$K"/raw/*.blast.tsv; do field "$f" keyed; done | tr '\n' ' ')" = "1 1 1 1 1 1 1 1 "
check "keyed: every suck stopped on its blast's fin, none forged" every_row "$K/runs.tsv" '$c["suck_stop"] == "fin" && $c["suck_forged_fins"] == 0'
leaked=
while read -r kt kw kk; do
	grep -rqF "$kk" "$K" && leaked="$leaked result:$kt/$kw"
	grep -qF "$kk" "$TMP/ps.log" && leaked="$leaked ps:$kt/$kw"
done <"$TMP/keys"
check "keyed: no key in a file of the result, in ps or an environment ($leaked)" test -z "$leaked"

# Options a tool refuses are bad usage before the first run, with the tool's message; bad suite
# options exit 2 (t_scripts_usage checks every option of every script).
GNUPLOT=/nonexistent/gnuplot sh scripts/suite -t 1 -r 3 -m buffer -B "--no-such-option" -o "$TMP/usage" >/dev/null 2>"$TMP/usage.err"
check "blast usage error: exit 2" test $? -eq 2
check "blast usage error: says so" grep -q "^suite: -B '--no-such-option': blast refuses it: unknown option '--no-such-option'" "$TMP/usage.err"
check "blast usage error: no run tried" test "$(grep -c '^suite: \[' "$TMP/usage.err")" -eq 0
check "blast usage error: nothing written" test ! -e "$TMP/usage"
sh scripts/suite -r 0 -o "$TMP/bad" >/dev/null 2>"$TMP/bad.err"
check "-r 0: exit 2" test $? -eq 2
check "-r 0: the message names the option" grep -q "^suite: -r '0'" "$TMP/bad.err"
sh scripts/suite -t 1x -o "$TMP/bad" >/dev/null 2>&1
check "-t 1x: exit 2" test $? -eq 2
# plot and compare on these real results (t_plot and t_compare check them on made-up ones).
if command -v gnuplot >/dev/null 2>&1; then
	rm -f "$D"/*.png "$D"/*.svg
	sh scripts/plot "$D" 2>"$TMP/replot.err"
	check "scripts/plot DIR redraws a suite's plots, the timeline too" test "$(ls "$D"/*.png "$D"/*.svg | wc -l)" -eq 8
fi
sh scripts/compare -o tsv "$D" "$TMP/fail" >"$TMP/cmp.tsv"
check "compare of two suites: exit 0" test $? -eq 0
check "compare of two suites: a row per variant and figure" test \
	"$(awk -F'\t' '$2 == "suck_received" { print $1 }' "$TMP/cmp.tsv" | tr '\n' ' ')" = "copy mmsg buffer "
check "compare of two suites: A's median is A's run" test \
	"$(awk -F'\t' '$1 == "copy" && $2 == "suck_received" { print $4 }' "$TMP/cmp.tsv")" = "$(col "$D/runs.tsv" suck_received | head -n 1)"
check "nothing half-written after all that" no_tmp "$TMP"

done_tests
