# Jitter and loss runs on real sockets, IPv4 and IPv6, every variant:
# bin/inject runs sends a run with losses of known lengths (and a tail only its fin counts),
# and with INJECT_JITTER_NS every second datagram's send time shifted by 10 ms, so that suck
# --jitter must find J and |D| near 10 ms; the loss runs, always counted, must be exact. A
# blast into a slow receiver drops: the runs add up. -i rows carry jitter_us; off, '-'.
. tests/lib.sh

# within V LO HI: LO <= V <= HI, decimals
within() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v != "" && v != "-" && v + 0 >= lo && v + 0 <= hi) }'; }
# rows_jitter FILE number|none: the -o tsv -i rows in FILE (after suck's other lines) have a
# jitter_us column, and some row has a number in it (number) or every row '-' (none).
rows_jitter() {
	awk -F'\t' -v want="$2" '/^tool\tt_s\t/ { for (i = 1; i <= NF; i++) if ($i == "jitter_us") c = i; next }
		c && /^suck\t/ { rows++; if ($c ~ /^[0-9.]+$/) nums++ }
		END { exit !(c && rows && (want == "number" ? nums > 0 : nums == 0)) }' "$1"
}
RUNKEYS="lost loss_runs loss_run_max loss_runs_1 loss_runs_2_3 loss_runs_4_15 loss_runs_16_up"

for v6 in "" 1; do
	addr=127.0.0.1
	[ -n "$v6" ] && addr=::1
	for v in $(variants); do
		n=runs-$v-$addr
		start_suck "$n" -a "$addr" -m "$v" --jitter -R 4M -o tsv --idle 5 -t 60 || { skip "$n: $(cat "$TMP/$n.err")"; continue; }
		INJECT_V6=$v6 INJECT_JITTER_NS=10000000 "$BIN/inject" runs "$PORT" 4242 200 >"$TMP/$n.inj"
		check "$n: suck ends" wait_pid "$SUCK_PID" 30
		S=$TMP/$n.out I=$TMP/$n.inj
		check "$n: stop fin" test "$(field "$S" stop)" = fin
		check "$n: sent $(field "$S" sent) as the fin says" test "$(field "$S" sent)" = "$(field "$I" sent)"
		for k in $RUNKEYS; do
			check "$n: $k $(field "$S" $k), want $(field "$I" $k)" test "$(field "$S" $k)" = "$(field "$I" $k)"
		done
		check "$n: jitter_us $(field "$S" jitter_us) near 10 ms" within "$(field "$S" jitter_us)" 7000 13000
		check "$n: ipdv_p50_us $(field "$S" ipdv_p50_us) near 10 ms" within "$(field "$S" ipdv_p50_us)" 9000 11000
		check "$n: ipdv_p99_us $(field "$S" ipdv_p99_us) >= p50" \
			within "$(field "$S" ipdv_p99_us)" "$(field "$S" ipdv_p50_us)" 1e9
		check "$n: jitter 1" test "$(field "$S" jitter)" = 1
	done
done

# The loss runs without --jitter: the same, and the jitter keys '-'.
for v in buffer mmsg; do
	n=runs-off-$v
	start_suck "$n" -m "$v" -R 4M -o tsv --idle 5 -t 60 || fail "$n: suck did not start"
	"$BIN/inject" runs "$PORT" 4242 200 >"$TMP/$n.inj"
	check "$n: suck ends" wait_pid "$SUCK_PID" 30
	for k in $RUNKEYS; do
		check "$n: $k $(field "$TMP/$n.out" $k), want $(field "$TMP/$n.inj" $k)" \
			test "$(field "$TMP/$n.out" $k)" = "$(field "$TMP/$n.inj" $k)"
	done
	for k in jitter_us ipdv_p50_us ipdv_p99_us; do
		check "$n: $k is -" test "$(field "$TMP/$n.out" $k)" = "-"
	done
	check "$n: jitter 0" test "$(field "$TMP/$n.out" jitter)" = 0
done
"$BIN/suck" -p 0 -t 10ms -o json >"$TMP/off.json" 2>/dev/null
check "off: json null" grep -q '"jitter_us":null' "$TMP/off.json"
check "off: loss runs 0" grep -q '"loss_runs":0,' "$TMP/off.json"

# Real loss: blast as fast as it can into a receiver 100 times slower with a small buffer. The
# runs cannot be predicted, but they must add up: every lost datagram in one run.
for v in buffer mmsg gro; do
	n=drops-$v
	start_suck "$n" -m "$v" -w histogram:100 -R 64k -o tsv -t 60 || { skip "$n: $(cat "$TMP/$n.err")"; continue; }
	"$BIN/blast" -p "$PORT" -s 1000 -n 20000 -o tsv >/dev/null 2>&1
	check "$n: suck ends" wait_pid "$SUCK_PID" 50
	S=$TMP/$n.out
	lost=$(field "$S" lost) runs=$(field "$S" loss_runs) max=$(field "$S" loss_run_max)
	check "$n: some lost ($lost)" test "$lost" -gt 0
	check "$n: runs $runs = the buckets" test "$runs" = $(($(field "$S" loss_runs_1) + $(field "$S" loss_runs_2_3) + \
		$(field "$S" loss_runs_4_15) + $(field "$S" loss_runs_16_up)))
	check "$n: 1 <= runs $runs <= lost $lost" test "$runs" -ge 1 -a "$runs" -le "$lost"
	check "$n: max $max <= lost, and runs x max >= lost" test "$max" -le "$lost" -a $((runs * max)) -ge "$lost"
done

# A paced blast on loopback: jitter far below the injected 10 ms; -i rows carry jitter_us.
for addr in 127.0.0.1 ::1; do
	n=paced-$addr
	start_suck "$n" -a "$addr" --jitter -R 4M -o tsv -i 0.1 -t 30 || fail "$n: suck did not start"
	"$BIN/blast" -a "$addr" -p "$PORT" -b 1 -s 200 -n 1500 -r 1500 -o tsv >/dev/null 2>&1
	check "$n: suck ends" wait_pid "$SUCK_PID" 20
	S=$TMP/$n.out
	check "$n: valid = sent" test "$(field "$S" valid)" = "$(field "$S" sent)"
	check "$n: jitter_us $(field "$S" jitter_us) below 5 ms" within "$(field "$S" jitter_us)" 0 5000
	check "$n: ipdv_p50_us $(field "$S" ipdv_p50_us) below 5 ms" within "$(field "$S" ipdv_p50_us)" 0 5000
	check "$n: a row with a jitter figure" rows_jitter "$TMP/$n.err" number
done

# Several flows over several threads: one J per flow, their mean.
n=flows
start_suck "$n" -m mmsg -j 2 --jitter -R 4M -o tsv -t 30 || fail "$n: suck did not start"
"$BIN/blast" -p "$PORT" -j 4 -b 1 -s 200 -n 2000 -r 2000 -o tsv >/dev/null 2>&1
check "$n: suck ends" wait_pid "$SUCK_PID" 20
check "$n: valid = sent" test "$(field "$TMP/$n.out" valid)" = "$(field "$TMP/$n.out" sent)"
check "$n: jitter_us $(field "$TMP/$n.out" jitter_us)" within "$(field "$TMP/$n.out" jitter_us)" 0 5000

# Without --jitter, the interval rows say '-'; the text line says nothing of jitter.
n=rows-off
start_suck "$n" -o tsv -i 0.1 -t 30 || fail "$n: suck did not start"
"$BIN/blast" -p "$PORT" -n 300 -r 1000 -o tsv >/dev/null 2>&1
wait_pid "$SUCK_PID" 20
check "$n: rows say jitter_us -" rows_jitter "$TMP/$n.err" none

"$BIN/suck" --check -p 0 --jitter -o tsv >"$TMP/scheck" 2>&1
check "suck --check: jitter 1" test "$(field "$TMP/scheck" jitter)" = 1

done_tests
