# scripts/perf's noise: a CPU hog started during one measurement makes that measurement noisy
# (its calibration after it is slow: the hog takes half of each CPU), the figures say so, and
# perf does what it says: the measurement made again while its row has a retry left, else
# kept and counted. The rows are --peer-only's, against a stand-in iperf3 (no peer's speed is
# judged here), so that a round takes a second or two.
. tests/lib.sh

mkdir -p "$TMP/fake"
cat >"$TMP/fake/iperf3" <<'FAKE'
#!/bin/sh
case " $* " in
*" --help "*) echo "  --gsro   enable UDP GSO/GRO" ;;
*" --version "*) echo "iperf 3.21+ (stand-in)" ;;
*" -s "*) echo "Server listening on 5201"; exec sleep 5 ;;
*) printf '{\n\t"end":\t{\n\t\t"sum_sent":\t{\n\t\t\t"seconds":\t1,\n\t\t\t"packets":\t1000\n\t\t},\n\t\t"sum_received":\t{\n\t\t\t"seconds":\t1,\n\t\t\t"bytes":\t1450000\n\t\t}\n\t}\n}\n' ;;
esac
FAKE
chmod +x "$TMP/fake/iperf3"

# progress N: perf's N-th progress line ("perf: [N/...] ...") is out, or perf has ended.
progress() { grep -q "^perf: \[$1/" "$TMP/perf.err" || ! kill -0 "$PP" 2>/dev/null; }

IPERF3=$TMP/fake/iperf3 sh scripts/perf --peer-only -r 2 -t 1 -s 1450 --retry 1 -o "$TMP/h/h.txt" \
	>"$TMP/perf.out" 2>"$TMP/perf.err" &
PP=$!
PIDS="$PIDS $PP"
# The second measurement: the hog from its progress line (before its first calibration) to the
# third's (after its last), on every CPU the measurements use.
until_ progress 2
if grep -q '^perf: \[2/' "$TMP/perf.err"; then
	ncpu=$(getconf _NPROCESSORS_ONLN)
	c=0
	while [ $c -lt "$ncpu" ] && [ $c -lt 2 ]; do
		hog $c
		c=$((c + 1))
	done
	until_ progress 3
fi
unhog
wait "$PP"
st=$?
check "perf exits 0 ($st: $(tail -n 1 "$TMP/perf.err"))" test $st -eq 0
F=$TMP/h/h.tsv
T=$TMP/h/h.txt
check "the figures written" test -s "$F"

# Which measurement was hogged: its row, round and attempt, from its progress line.
line=$(grep '^perf: \[2/' "$TMP/perf.err")
case $line in
*"--spin"*) row=pps.grospin ;;
*) row=peer.gro ;;
esac
round=$(printf '%s\n' "$line" | sed -n 's/.* round \([0-9]*\)\/.*/\1/p')
att=1
case $line in *"(again: the last was noisy)"*) att=2 ;; esac
# noise: its noise columns (noisy, calib_pre_pct, calib_post_pct, other_pct, used).
noise=$(awk -F'\t' -v r="$row" -v n="$round" -v a="$att" '$6 == r && $4 == n && $7 == a {
	print $10, $11, $12, $13, $9; exit }' "$F")
set -- $noise
check "the hogged measurement ($row, round $round, attempt $att) is in the figures" test $# -eq 5
check "... flagged noisy ($noise)" test "${1:-0}" = 1
check "... its calibration after it at least 50 % slower, or other above 40 % ($noise)" \
	awk -v post="${3:-0}" -v other="${4:-0}" 'BEGIN { exit !(post >= 50 || other >= 40) }'
if [ "$att" = 1 ]; then
	# Its row had its retry left: made again (attempt 2 of the same round), and that one used.
	check "... made again: attempt 2 of $row, round $round" \
		awk -F'\t' -v r="$row" -v n="$round" '$6 == r && $4 == n && $7 == 2 && $9 == 1 { ok = 1 } END { exit !ok }' "$F"
	check "... not used itself" test "${5:-1}" = 0
	check "the table counts it made again" grep -qE '^  1450 B: [0-9]+ measurements, [0-9]+ noisy: [1-9][0-9]* made again' "$T"
else
	# It was its row's retry already (the one before was noisy too): kept, and said so.
	check "... kept: the round's, with no retry left" test "${5:-0}" = 1
	check "the table names it kept" grep -qE "^  1450 B: .* kept \(no retries left: .*$row round $round" "$T"
fi
check "the progress says a measurement was made again" grep -q '(again: the last was noisy)' "$TMP/perf.err"
check "the run's command says --retry 1" grep -q '^run: .* --retry 1 ' "$T"

done_tests
