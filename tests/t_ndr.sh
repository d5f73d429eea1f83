# scripts/ndr in a quick mode (0.2 s trials, a 25 % resolution, a slow receiver: histogram:20):
# bad options refused with exit 2 and nothing written; a search per variant and size that prints
# one line each, writes ndr.tsv and trials.tsv with the documented columns, and finds a positive
# rate below the unthrottled one, ended by a confirming trial; SIGINT mid-trial leaves no output
# and no child. No speed is asserted: the machine is loaded while tests run.
. tests/lib.sh
export BIN

# children_of PID: "PID NAME" of each child process (from /proc; cat skips one that just ended).
children_of() {
	cat /proc/[0-9]*/status 2>/dev/null | awk -v p="$1" '
		/^Name:/ { n = $2 } /^Pid:/ { me = $2 } /^PPid:/ { if ($2 == p) print me, n }'
}
no_staged() { # NAME: no staging directory .NAME.PID.tmp left in TMP
	for ns in "$TMP"/.$1.*; do [ ! -e "$ns" ] || return 1; done
}
is_num() { printf '%s\n' "$1" | grep -Eq '^-?[0-9]+(\.[0-9]+)?$'; }

# --- bad usage: exit 2, a message naming the option, nothing on stdout, nothing written
bad() { # description text-of-the-message args...
	d=$1 says=$2; shift 2
	sh scripts/ndr -o "$TMP/bad" "$@" >"$TMP/bad.out" 2>"$TMP/bad.err"
	st=$?
	check "$d: exit 2 (got $st)" test $st -eq 2
	check "$d: says \"$says\"" grep -qF -- "$says" "$TMP/bad.err"
	check "$d: nothing on stdout" test ! -s "$TMP/bad.out"
	check "$d: nothing written" test ! -e "$TMP/bad"
}
bad "--loss not a number" "--loss 'abc': accepted: a percentage" --loss abc
bad "--loss 100" "--loss '100'" --loss 100
bad "--loss negative" "--loss '-1'" --loss -1
bad "--resolution 0" "--resolution '0': accepted" --resolution 0
bad "--resolution above 50" "--resolution '60'" --resolution 60
bad "-R not a number" "--resolution 'x'" -R x
bad "-t 0" "-t '0'" -t 0
bad "-t not a number" "-t 'fast'" -t fast
bad "-s too small" "-s '10': accepted: a size in bytes, 32..65507" -s "64 10"
bad "-s trailing characters" "-s '1450x'" -s 1450x
bad "--max-trials 2" "--max-trials '2': accepted: 5..100" --max-trials 2
bad "an unknown option" "unknown option '--bogus'" --bogus
bad "-m no such variant" "suck has no variant 'nosuch'" -m "copy nosuch"
sh scripts/ndr --loss >/dev/null 2>"$TMP/bad.err"
check "--loss without a value: exit 2" test $? -eq 2
sh scripts/ndr -m buffer -w bogus -t 0.2 -o "$TMP/bad" >"$TMP/bad.out" 2>"$TMP/bad.err"
check "suck refusing -w: exit 2" test $? -eq 2
check "suck refusing -w: nothing written" test ! -e "$TMP/bad"

# --- a quick search: two variants, two sizes
OUT=$TMP/ndr
sh scripts/ndr -m "buffer mmsg" -s "256 1450" -t 0.2 --resolution 25 -w histogram:20 -o "$OUT" \
	>"$TMP/ndr.out" 2>"$TMP/ndr.err"
st=$?
check "ndr exits 0 (got $st; $(tail -n 2 "$TMP/ndr.err" | tr '\n' ' '))" test $st -eq 0
check "one line per variant and size" test "$(wc -l <"$TMP/ndr.out")" -eq 4
check "lines: VARIANT RATE_PPS SIZE key=value..." test "$(grep -Ec '^(buffer|mmsg) [0-9]+ (256|1450) loss_pct=[0-9.e+-]+ confirmed=(yes|no) trials=[0-9]+ bound=(receiver|sender) asked_pps=[0-9]+ rate_pct=[0-9.]+ gap_p99_us=[0-9.]+ unthrottled_pps=[0-9]+ first_loss=-$' "$TMP/ndr.out")" -eq 4
for p in "buffer 256" "buffer 1450" "mmsg 256" "mmsg 1450"; do
	check "a line for $p" grep -q "^${p% *} [0-9]* ${p#* } " "$TMP/ndr.out"
done
check "a progress line per trial on stderr" grep -q '^ndr: buffer 256 B, trial 1 (probe): unthrottled: .*left$' "$TMP/ndr.err"
for f in ndr.tsv trials.tsv env.txt; do check "$f written" test -s "$OUT/$f"; done
check "raw/ holds the trials' reports" test -s "$OUT/raw/buffer-256-1.suck.tsv"
check "every trial's suck and blast under a run key" test -z "$(for f in "$OUT"/raw/*.suck.tsv "$OUT"/raw/*.blast.tsv; do field "$f" keyed; done | grep -vx 1)"
if command -v gnuplot >/dev/null 2>&1; then
	check "ndr.png and ndr.svg drawn" test -s "$OUT/ndr.png" -a -s "$OUT/ndr.svg"
else
	skip "no gnuplot: plots not checked"
fi
check "nothing staged left beside the result" no_staged ndr
# index.html names its tables as the result holds them, not by the staging directory it was
# written in (.ndr.PID.tmp, renamed after).
check "index.html's heading is ndr.tsv" grep -qx '<h2>ndr.tsv</h2>' "$OUT/index.html"
check "index.html names no staging directory" sh -c "! grep -qF '.tmp' '$OUT/index.html'"

T=$OUT/ndr.tsv
check "ndr.tsv has the documented columns" has_cols "$T" variant size rate_pps loss_pct confirmed trials \
	bound asked_pps high_pps unthrottled_pps unthrottled_delivered_pps sent valid lost dropped elsewhere \
	rate_pct gap_p50_us gap_p99_us gap_max_us loss_limit_pct resolution_pct time_s first_loss_pps first_loss
check "ndr.tsv: a row per variant and size" test "$(($(wc -l <"$T") - 1))" -eq 4
TR=$OUT/trials.tsv
check "trials.tsv has the documented columns" has_cols "$TR" variant size trial phase verdict asked_pps \
	offered_pps delivered_pps delivered_mbps loss_pct sent valid lost dropped elsewhere received rate_pct \
	gap_p50_us gap_p99_us gap_max_us suck_stop drops_attributed unexplained drop_detail sender_drops
# every trial between the calibrations of lib/noise.sh: its noise, a number (or "-": no calibration)
check "trials.tsv has each trial's noise" has_cols "$TR" attempt noise_pre_pct noise_post_pct noise_other_pct \
	noise_steal_pct noisy
check "trials.tsv: the noise in numbers, noisy 0 or 1, attempt 1 or 2" awk -F'\t' '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["noise_other_pct"] !~ /^[0-9.-]+$/ || $c["noise_pre_pct"] !~ /^([0-9.-]+|-)$/ || $c["noisy"] !~ /^[01]$/ ||
		$c["attempt"] !~ /^[12]$/ { bad = 1 }
	END { exit bad || NR < 2 }' "$TR"
check "env.txt: the noise limit and what the noise was" sh -c "grep -q '^noise_limit_pct: 10\$' '$OUT/env.txt' &&
	grep -qE '^note: noise \\(trials.tsv.s noise_\\* columns\\): [0-9]+ of [0-9]+ trials were noisy' '$OUT/env.txt'"
row=2
for p in "buffer 256" "buffer 1450" "mmsg 256" "mmsg 1450"; do
	v=${p% *} s=${p#* }
	get() { col "$T" "$1" | sed -n "$((row - 1))p"; }
	check "$p: row in order" test "$(get variant) $(get size)" = "$p"
	rate=$(get rate_pps) un=$(get unthrottled_pps)
	check "$p: found rate $rate is a positive number" test "$rate" -gt 0
	check "$p: found rate $rate below the unthrottled $un" test "$rate" -lt "$un"
	check "$p: stdout says the same rate" grep -q "^$v $rate $s " "$TMP/ndr.out"
	for k in sent valid lost dropped elsewhere rate_pct gap_p50_us gap_p99_us gap_max_us loss_pct; do
		check "$p: confirming trial's $k is a number ($(get $k))" is_num "$(get $k)"
	done
	check "$p: sent == valid + lost" test "$(get sent)" -eq $(($(get valid) + $(get lost)))
	check "$p: dropped <= lost" test "$(get dropped)" -le "$(get lost)"
	if [ "$(get confirmed)" = yes ]; then
		check "$p: confirmed means nothing lost" test "$(get lost)" -eq 0
	else
		skip "$p: not confirmed on this loaded machine ($(get loss_pct) % lost)"
	fi
	# trials.tsv: this search's trials, one probe first, the confirming trial last
	awk -F'\t' -v v="$v" -v s="$s" 'NR == 1 || ($1 == v && $2 == s)' "$TR" >"$TMP/pair.tsv"
	check "$p: trials counted ($(get trials))" test "$(($(wc -l <"$TMP/pair.tsv") - 1))" -eq "$(get trials)"
	check "$p: the first trial is the unthrottled probe" test "$(col "$TMP/pair.tsv" phase | head -n 1) $(col "$TMP/pair.tsv" asked_pps | head -n 1)" = "probe 0"
	check "$p: the last trial confirms" test "$(col "$TMP/pair.tsv" phase | tail -n 1)" = confirm
	check "$p: its figures are the confirming trial's" test "$(col "$TMP/pair.tsv" sent | tail -n 1)" = "$(get sent)"
	check "$p: every paced trial reports rate_pct and the gaps" test -z "$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["phase"] != "probe" && !($c["rate_pct"] > 0 && $c["gap_p50_us"] > 0 && $c["gap_p99_us"] >= $c["gap_p50_us"] && $c["gap_max_us"] >= $c["gap_p99_us"])' "$TMP/pair.tsv")"
	row=$((row + 1))
done

# --- --drops: where the first loss went, from every trial's suck --drops (root)
if [ "$(id -u)" != 0 ]; then
	skip "not root: ndr --drops not checked"
else
	if command -v setpriv >/dev/null 2>&1; then
		mkdir -p "$TMP/pub" && chmod 777 "$TMP/pub" && chmod 755 "$TMP" # where it could write
		timeout 60 setpriv --reuid 65534 --regid 65534 --clear-groups --inh-caps=-all \
			sh scripts/ndr --drops -m mmsg -t 0.2 -o "$TMP/pub/dnr" >/dev/null 2>"$TMP/dnr.err"
		st=$?
		check "--drops not root: exit 4 ($st: $(tail -n 1 "$TMP/dnr.err"))" sh -c "test $st = 4 && grep -q 'needs root' '$TMP/dnr.err'"
		check "--drops not root: nothing written" test ! -e "$TMP/pub/dnr"
	fi
	D=$TMP/drops
	sh scripts/ndr --drops -m mmsg -s 1450 -t 0.2 --resolution 25 -w histogram:20 -o "$D" >"$TMP/d.out" 2>"$TMP/d.err"
	st=$?
	if [ $st = 4 ]; then
		skip "ndr --drops: $(tail -n 1 "$TMP/d.err")"
	else
		check "--drops: exit 0 ($st: $(tail -n 2 "$TMP/d.err" | tr '\n' ' '))" test $st = 0
		fl=$(col "$D/ndr.tsv" first_loss) fp=$(col "$D/ndr.tsv" first_loss_pps)
		lowest=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["verdict"] == "lost" { r = $c["asked_pps"] == 0 ? 1e18 : $c["asked_pps"]; if (m == "" || r < m) { m = r; d = $c["drop_detail"] } }
			END { if (m == "") print "NaN none"; else print (m == 1e18 ? 0 : m), d }' "$D/trials.tsv")
		check "--drops: first_loss_pps $fp, first_loss $fl: the lowest rate that lost and its drops ($lowest)" \
			sh -c "case '$fl' in '${lowest#* }'|'${lowest#* }',*) test '$fp' = '${lowest%% *}' ;; *) exit 1 ;; esac"
		check "--drops: stdout says first_loss=$fl" grep -q " first_loss=$fl\$" "$TMP/d.out"
		check "--drops: every trial that ended on its fin: lost == drops_attributed + unexplained" test -z "$(awk -F'\t' '
			NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["suck_stop"] == "fin" && $c["lost"] != $c["drops_attributed"] + $c["unexplained"]' "$D/trials.tsv")"
		check "--drops: env.txt says drops: 1" grep -qx 'drops: 1' "$D/env.txt"
	fi
fi

# --- SIGINT mid-trial: exit 130, no output, no child left. A background job of a
# non-interactive shell ignores SIGINT (and a shell cannot trap what it was started ignoring),
# so the job is started with SIGINT back to its default, as a terminal's Ctrl-C would find it.
if env --default-signal=INT true 2>/dev/null; then
	RUN="env --default-signal=INT" SIG=INT WANT=130
else
	RUN='' SIG=TERM WANT=143
	skip "env --default-signal missing: interrupting with SIGTERM instead of SIGINT"
fi
$RUN sh scripts/ndr -m buffer -t 5 -o "$TMP/int" >"$TMP/int.out" 2>"$TMP/int.err" &
NPID=$!
PIDS="$PIDS $NPID"
i=0
while ! grep -q 'trial 1 (probe)' "$TMP/int.err" && kill -0 $NPID 2>/dev/null && [ $i -lt 3000 ]; do
	i=$((i + 1))
	sleep 0.01
done
# the next trial: wait until its blast runs, so the signal lands mid-trial
i=0
while ! children_of $NPID | grep -q ' blast$' && kill -0 $NPID 2>/dev/null && [ $i -lt 1000 ]; do
	i=$((i + 1))
	sleep 0.01
done
KIDS=$(children_of $NPID | awk '{ print $1 }')
check "ndr has suck and blast running mid-trial" test "$(children_of $NPID | awk '{ print $2 }' | sort | tr '\n' ' ')" = "blast suck "
kill -$SIG $NPID
check "SIG$SIG ends ndr within 10 s" wait_pid $NPID 10
wait $NPID
st=$?
check "ndr exits $WANT on SIG$SIG (got $st)" test $st -eq $WANT
check "it says it was interrupted" grep -q "^ndr: interrupted by SIG$SIG; nothing written" "$TMP/int.err"
check "nothing on stdout" test ! -s "$TMP/int.out"
check "no result directory" test ! -e "$TMP/int"
check "no staging directory" no_staged int
for k in $KIDS; do
	check "child $k ended" sh -c "! kill -0 $k 2>/dev/null"
done

done_tests
