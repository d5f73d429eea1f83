# scripts/sweep in a quick mode (short trials, one variant, few steps): bad options refused with
# exit 2 and nothing written; the rate sweep (steps up to the unthrottled rate, or the rates
# given) and the size sweep write their tables with the documented columns, one row per trial,
# stdout lines of the documented shape and the plots; without gnuplot the tables still come out.
# No speed is asserted: the machine is loaded while tests run. Where trials are counted, --retry 0:
# a noisy trial run again (lib/noise.sh) would add its own (t_suite_noise.sh checks that path).
. tests/lib.sh
export BIN

TRIAL_COLS="variant size trial asked_pps offered_pps delivered_pps delivered_mbps loss_pct sent valid lost
dropped elsewhere received suck_pps rate_pct gap_p50_us gap_p99_us gap_max_us blast_errors suck_stop
attempt noise_pre_pct noise_post_pct noise_other_pct noise_steal_pct noisy"
# consistent FILE: every row adds up: sent == valid + lost, dropped <= lost, delivered <= offered
# (both over blast's sending time), loss_pct == 100 lost / sent
consistent() {
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{
			s = $c["sent"]; v = $c["valid"]; l = $c["lost"]
			if (s != v + l || $c["dropped"] > l || $c["delivered_pps"] > $c["offered_pps"] + 1 || s <= 0) bad++
			p = 100 * l / s; d = p - $c["loss_pct"]; if (d < 0) d = -d
			if (d > 0.001 * p + 0.0001) bad++
		}
		END { exit bad > 0 }' "$1"
}

run_ids() { # ENV.TXT PAIRS: each blast command has the --run-id of the suck command before it,
	# a number 1..4294967295, and each of the PAIRS its own
	sed -En 's/^cmd: .*\/(suck|blast) .*--run-id ([0-9]+)( .*)?$/\1 \2/p' "$1" | awk -v pairs="$2" '
		$1 == "suck" { s = $2; next }
		{ if ($2 != s || s + 0 < 1 || s + 0 > 4294967295 || s in seen) bad = 1; seen[s] = 1; s = ""; n++ }
		END { exit bad || n != pairs }'
}
no_staged() { # no staging directory .NAME.PID.tmp left in TMP
	for ns in "$TMP"/.*.tmp; do [ ! -e "$ns" ] || return 1; done
}

# --- bad usage: exit 2, the reason, nothing on stdout, nothing written
bad() { # description text-of-the-message args...
	d=$1 says=$2; shift 2
	sh scripts/sweep "$@" -o "$TMP/bad" >"$TMP/bad.out" 2>"$TMP/bad.err"
	st=$?
	check "$d: exit 2 (got $st)" test $st -eq 2
	check "$d: says \"$says\"" grep -qF -- "$says" "$TMP/bad.err"
	check "$d: nothing on stdout" test ! -s "$TMP/bad.out"
	check "$d: nothing written" test ! -e "$TMP/bad"
}
bad "no mode" "a mode is needed"
bad "an unknown mode" "unknown mode 'fast'" fast
bad "--steps 0" "--steps '0': accepted: 1..100" rate --steps 0
bad "--rates not a rate" "--rates: 'x' is not a rate" rate --rates "10k x"
bad "--rates and --steps" "--steps and --rates: one or the other" rate --rates 10k --steps 3
bad "--sizes in rate mode" "--sizes: only for sweep size" rate --sizes 64
bad "--steps in size mode" "--steps: only for sweep rate" size --steps 3
bad "-s in size mode" "-s: only for sweep rate" size -s 64
bad "--sizes too small" "--sizes '20': accepted" size --sizes "64 20"
bad "-t negative" "-t '-1'" rate -t -1
bad "an unknown option" "unknown option '--bogus'" size --bogus
bad "-m no such variant" "suck has no variant 'nosuch'" rate -m nosuch

# --- the rate sweep: one unthrottled trial, then 3 steps up to its rate
OUT=$TMP/rate
sh scripts/sweep rate -m buffer -t 0.5 --steps 3 --retry 0 -o "$OUT" >"$TMP/rate.out" 2>"$TMP/rate.err"
st=$?
check "sweep rate exits 0 (got $st; $(tail -n 2 "$TMP/rate.err" | tr '\n' ' '))" test $st -eq 0
for f in rate.tsv rate_summary.tsv env.txt; do check "rate: $f written" test -s "$OUT/$f"; done
T=$OUT/rate.tsv
check "rate.tsv has the documented columns" has_cols "$T" $TRIAL_COLS
check "rate.tsv: 4 trials" test "$(($(wc -l <"$T") - 1))" -eq 4
check "rate.tsv: unthrottled first, then 3 rising rates" \
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		NR == 2 { ok = $c["asked_pps"] == 0; top = $c["offered_pps"]; last = 0; next }
		{ if (!($c["asked_pps"] > last)) ok = 0; last = $c["asked_pps"] }
		END { d = last - top; if (d < 0) d = -d; exit !(ok && NR == 5 && d <= 0.01 * top) }' "$T"
check "rate.tsv: every row adds up" consistent "$T"
check "rate.tsv: paced trials report rate_pct and gaps" test -z "$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["asked_pps"] > 0 && !($c["rate_pct"] > 0 && $c["gap_p99_us"] >= $c["gap_p50_us"] && $c["gap_max_us"] >= $c["gap_p99_us"])' "$T")"
# One random run id per trial, given to its suck and its blast alike (scripts/lib/trial.sh).
check "rate: each trial's suck and blast share a run id, every trial its own" run_ids "$OUT/env.txt" 4
check "rate: each trial's suck and blast under a run key" test "$(for f in "$OUT"/raw/*.suck.tsv "$OUT"/raw/*.blast.tsv; do field "$f" keyed; done | tr '\n' ' ')" = "1 1 1 1 1 1 1 1 "
check "rate_summary.tsv has its columns" has_cols "$OUT/rate_summary.tsv" variant lossfree_pps drops_from_pps \
	peak_delivered_pps top_offered_pps top_delivered_pps past_peak
check "rate: one stdout line per variant, of the documented shape" \
	test "$(grep -Ec '^buffer lossfree_pps=[0-9]+ drops_from_pps=([0-9]+|none) peak_delivered_pps=[0-9]+ top_offered_pps=[0-9]+ top_delivered_pps=[0-9]+ past_peak=(holds|collapses)$' "$TMP/rate.out")/$(wc -l <"$TMP/rate.out")" = 1/1
check "rate: a progress line per trial" test "$(grep -c '^sweep: \[[1-4]/4\] buffer 1450 B ' "$TMP/rate.err")" -eq 4
if command -v gnuplot >/dev/null 2>&1; then
	for f in rate.png rate.svg rate_loss.png rate_loss.svg; do check "rate: $f drawn" test -s "$OUT/$f"; done
else
	skip "no gnuplot: plots not checked"
fi

# --- rates given, and no gnuplot: the tables come out, one line says how to get plots
OUT=$TMP/rates
GNUPLOT=no-such-gnuplot sh scripts/sweep rate -m mmsg -t 0.3 --rates "5k 0" -o "$OUT" >"$TMP/rates.out" 2>"$TMP/rates.err"
st=$?
check "sweep rate --rates exits 0 (got $st)" test $st -eq 0
check "--rates: exactly the rates given" test "$(col "$OUT/rate.tsv" asked_pps | tr '\n' ' ')" = "5000 0 "
check "--rates: rows add up" consistent "$OUT/rate.tsv"
check "no gnuplot: one line saying how to get it" test "$(grep -c 'apt-get install gnuplot-nox' "$TMP/rates.err")" -eq 1
check "no gnuplot: no plot, the tables still written" test ! -e "$OUT/rate.png" -a -s "$OUT/rate.tsv"

# --- the size sweep
OUT=$TMP/size
sh scripts/sweep size -m buffer -t 0.3 --sizes "64 1450 65000" --retry 0 -o "$OUT" >"$TMP/size.out" 2>"$TMP/size.err"
st=$?
check "sweep size exits 0 (got $st; $(tail -n 2 "$TMP/size.err" | tr '\n' ' '))" test $st -eq 0
T=$OUT/size.tsv
check "size.tsv has the documented columns" has_cols "$T" $TRIAL_COLS
check "size.tsv: one trial per size, unthrottled" test "$(awk -F'\t' 'NR > 1 { printf "%s:%s ", $2, $4 }' "$T")" = "64:0 1450:0 65000:0 "
check "size.tsv: every row adds up" consistent "$T"
# One shape of send calls for every trial: sendmmsg of 32, at 64 bytes (where blast alone would
# send GSO messages) as at 65000; the user's -B would set another.
check "size: every trial sent with blast -b 32, no GSO" test "$(cat "$OUT"/raw/*.blast.tsv |
	awk -F'\t' '$1 == "tool" { for (i = 1; i <= NF; i++) c[$i] = i; next } { printf "%s/%s ", $c["batch"], $c["gso"] }')" = "32/1 32/1 32/1 "
check "size: env.txt says so" grep -q '^blast_args: -b 32 *$' "$OUT/env.txt"
check "size.tsv: Mbit/s is datagrams/s x size" awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ m = $c["delivered_pps"] * $c["size"] * 8 / 1e6; d = m - $c["delivered_mbps"]; if (d < 0) d = -d; if (d > 0.01 * m + 0.1) bad++ }
	END { exit bad > 0 }' "$T"
check "size: stdout lines of the documented shape" \
	test "$(grep -Ec '^buffer (64|1450|65000) delivered_pps=[0-9]+ delivered_mbps=[0-9.]+ loss_pct=[0-9.e+-]+$' "$TMP/size.out")/$(wc -l <"$TMP/size.out")" = 3/3
if command -v gnuplot >/dev/null 2>&1; then
	for f in size_pps.png size_pps.svg size_mbps.png size_mbps.svg; do check "size: $f drawn" test -s "$OUT/$f"; done
fi
check "nothing staged left beside the results" no_staged
# index.html names its tables as the result holds them, not by the staging directory it was
# written in (.size.PID.tmp, renamed after).
check "size: index.html's heading is size.tsv" grep -qx '<h2>size.tsv</h2>' "$OUT/index.html"
check "size: index.html names no staging directory" sh -c "! grep -qF '.tmp' '$OUT/index.html'"

# --- a new run into the same directory replaces the old one whole
sh scripts/sweep size -m buffer -t 0.2 --sizes "512" -o "$OUT" >/dev/null 2>&1
check "a rerun replaces size.tsv" test "$(col "$T" size | tr '\n' ' ')" = "512 "
check "a rerun leaves no stale raw report" test ! -e "$OUT/raw/buffer-64-0.suck.tsv"

done_tests
