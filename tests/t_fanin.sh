# suck --senders N (issue 27, fan-in): N runs into one suck at once, each locked on its own first
# datagram and counted apart, a row per run and a total row, the identities on every row; a run
# beyond N is other_run, as the 2nd and 3rd are without --senders; a run whose fin never comes
# ends at --idle and the others stay exact; every loopback variant. Real blasts (IPv4 with a run
# key and -j 2, IPv6) and bin/inject's runs (a run in a moment, from one socket each).
. tests/lib.sh

# at FILE KEY ROW: KEY of data row ROW (1 = the first after the header).
at() { col "$1" "$2" | sed -n "${3}p"; }
rows() { awk 'NR > 1' "$1" | wc -l | tr -d ' '; }
# identities FILE: DESIGN.md's identities on every row, and the total row (the last, run_id
# total) the sum of the runs' rows in valid, sent, lost, and received less what no run claimed.
identities() {
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ if ($c["sent"] != $c["valid"] + $c["lost"] || $c["valid"] > $c["sent"] ||
		      $c["received"] != $c["valid"] + $c["dup"] + $c["late"] + $c["foreign"] + $c["truncated"] ||
		      $c["lost"] != $c["dropped"] + $c["queue_dropped"] + $c["elsewhere"]) {
			print "row " NR - 1 " breaks an identity"; bad = 1 }
		  if ($c["run_id"] == "total") {
			if ($c["valid"] != v || $c["sent"] != s || $c["lost"] != l || $c["sender"] != 0 ||
			    $c["received"] - $c["foreign"] != r - f) {
				print "the total row is not the runs added up"; bad = 1 }
			tot++
		  } else { v += $c["valid"]; s += $c["sent"]; l += $c["lost"]; r += $c["received"]
			   f += $c["foreign"]; if ($c["sender"] != NR - 1) { print "row " NR - 1 " sender"; bad = 1 } } }
		END { if (tot != 1) { print tot + 0 " total rows"; bad = 1 }; exit bad }' "$1"
}
# drops_none FILE: the kernel dropped nothing, so counts can be compared exactly
drops_none() { test "$(col "$1" kernel_drops | tail -n 1)" = 0; }

# 1. Three blasts at once, IPv4, -j 2 (two flows each), under a run key: each run exact.
BS_RUN_KEY=00112233445566778899aabbccddeeff
export BS_RUN_KEY
for fam in 4 6; do
	n=three$fam
	a=127.0.0.1
	j=2
	[ $fam = 6 ] && a=::1 && j=1
	start_suck "$n" -a $a --senders 3 -j $j -R 4M -o tsv -t 20 || { fail "$n: suck did not start"; continue; }
	bl=""
	for b in 1 2 3; do
		"$BIN/blast" -a $a -p "$PORT" -j $j -n $((300 * b)) -t 0 -r 20000 -s 300 -o tsv >"$TMP/$n.b$b" 2>&1 &
		bl="$bl $!"
	done
	PIDS="$PIDS $bl"
	check "$n: suck ends on the three runs' fins" wait_pid "$SUCK_PID" 15
	for p in $bl; do wait_pid "$p" 10 || fail "$n: blast $p did not end"; done
	S=$TMP/$n.out
	check "$n: three run rows and a total row" test "$(rows "$S")" = 4
	check "$n: every row ends on fins" test "$(col "$S" stop | sort -u)" = fin
	check "$n: identities per run and in total" identities "$S"
	check "$n: senders 3 in every row" test "$(col "$S" senders | sort -u)" = 3
	for b in 1 2 3; do
		id=$(field "$TMP/$n.b$b" run_id)
		check "$n: blast $b's run has a row" test -n "$(col "$S" run_id | grep -x "$id")"
		check "$n: blast $b's sent from its fins" test "$(awk -F'\t' -v id="$id" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["run_id"] == id { print $c["sent"] "/" $c["sent_estimated"] "/" $c["flows"] }' "$S")" = "$((300 * b))/0/$j"
	done
	if drops_none "$S"; then
		check "$n: nothing lost" test "$(col "$S" lost | sort -u)" = 0
		check "$n: total valid" test "$(at "$S" valid 4)" = 1800
	else
		skip "$n: the kernel dropped; valid not compared exactly"
	fi
	check "$n: nothing foreign" test "$(col "$S" foreign | sort -u)" = 0
done
unset BS_RUN_KEY

# 2. Without --senders three runs are one run and two others (today's rule), exactly; with
# --senders 3 the fourth run is the stranger, and a run that sends no fin ends at --idle while
# the others end on theirs, exact.
n=one
start_suck "$n" -R 4M -o tsv --idle 0.5 -t 20 || fail "$n: suck did not start"
"$BIN/inject" data "$PORT" 1001 200 0 0 300 >/dev/null
"$BIN/inject" data "$PORT" 1002 200 0 0 400 >/dev/null
"$BIN/inject" data "$PORT" 1003 200 0 0 500 >/dev/null
check "$n: suck ends at --idle" wait_pid "$SUCK_PID" 15
S=$TMP/$n.out
if drops_none "$S"; then
	check "$n: the first run's 300 valid" test "$(field "$S" valid)" = 300
	check "$n: the 2nd and 3rd are other_run, 900" test "$(field "$S" other_run)" = 900
	check "$n: and foreign" test "$(field "$S" foreign)" = 900
else
	skip "$n: the kernel dropped; not compared"
fi

n=stranger
start_suck "$n" --senders 3 -R 4M -o tsv --idle 0.5 -t 20 || fail "$n: suck did not start"
"$BIN/inject" data "$PORT" 1001 200 0 0 300 >/dev/null # no fin: ends at --idle
"$BIN/inject" run "$PORT" 1002 200 400 >/dev/null
"$BIN/inject" run "$PORT" 1003 200 500 >/dev/null
"$BIN/inject" data "$PORT" 1004 200 0 0 600 >/dev/null # the fourth run: a stranger
"$BIN/inject" run "$PORT" 1005 200 70 >/dev/null      # a fifth, with its fin: foreign too
check "$n: suck ends at --idle" wait_pid "$SUCK_PID" 15
S=$TMP/$n.out
check "$n: three run rows and a total" test "$(rows "$S")" = 4
check "$n: run ids in the order they came" test "$(col "$S" run_id | tr '\n' ' ')" = "000003e9 000003ea 000003eb total "
check "$n: the run without a fin stopped at idle, the others on their fins" \
	test "$(col "$S" stop | tr '\n' ' ')" = "idle fin fin idle "
check "$n: sent estimated for the run without a fin only" test "$(col "$S" sent_estimated | tr '\n' ' ')" = "1 0 0 1 "
check "$n: identities per run and in total" identities "$S"
if drops_none "$S"; then
	check "$n: each run's valid" test "$(col "$S" valid | tr '\n' ' ')" = "300 400 500 1200 "
	check "$n: each run's sent" test "$(col "$S" sent | tr '\n' ' ')" = "300 400 500 1200 "
	check "$n: the stranger's 600 and the fifth's 70 are other_run, of the total only" \
		test "$(col "$S" other_run | tr '\n' ' ')" = "0 0 0 670 "
	check "$n: foreign: the fifth's fin too" test "$(at "$S" foreign 4)" = 671
	check "$n: received, every datagram" test "$(at "$S" received 4)" = 1871
else
	skip "$n: the kernel dropped; not compared"
fi
check "$n: the warning names the run beyond --senders" grep -q "beyond --senders 3.*000003ec" "$TMP/$n.err"

# 3. Every loopback variant: two runs, each exact; json rows, one a line, the last the total.
for v in $(variants); do
	[ "$v" = xdp ] && continue # wire mode only (t_xdp.sh)
	n=var-$v
	start_suck "$n" -m "$v" --senders 2 -R 4M -o json --idle 2 -t 20 2>/dev/null ||
		{ grep -q "does not offer" "$TMP/$n.err" && skip "$n: this kernel lacks $v" || fail "$n: suck did not start"; continue; }
	"$BIN/inject" run "$PORT" 2001 100 300 >/dev/null
	"$BIN/inject" run "$PORT" 2002 100 500 >/dev/null
	check "$n: ends on both runs' fins" wait_pid "$SUCK_PID" 15
	S=$TMP/$n.out
	check "$n: three json lines, objects" test "$(grep -c '^{.*}$' "$S")" = 3
	check "$n: stop fin, every row" test "$(grep -c '"stop":"fin"' "$S")" = 3
	check "$n: the last line is the total" test "$(sed -n '3s/.*"run_id":"\([a-z0-9]*\)".*/\1/p' "$S")" = total
	if grep -q '"kernel_drops":0,' "$S"; then
		check "$n: each run's valid and the total" \
			test "$(sed -n 's/.*"valid":\([0-9]*\).*/\1/p' "$S" | tr '\n' ' ')" = "300 500 800 "
		check "$n: each run's sent" test "$(sed -n 's/.*"sent":\([0-9]*\).*/\1/p' "$S" | tr '\n' ' ')" = "300 500 800 "
	else
		skip "$n: the kernel dropped; not compared"
	fi
done

# 4. Options: the range, and what fan-in does not combine with, each a clear exit 2.
for bad in "--senders 0" "--senders 65" "--senders x" "--senders 3 --serve" "--senders 2 --run-id 7" \
	"--senders 2 --echo" "--senders 64 -j 8"; do
	# shellcheck disable=SC2086
	"$BIN/suck" $bad -p 0 >/dev/null 2>"$TMP/bad.err"
	st=$?
	check "suck $bad: exit 2 ($st)" test $st = 2
	check "suck $bad: says --senders" grep -q -- "--senders" "$TMP/bad.err"
done
check "--check says senders" test "$("$BIN/suck" --check --senders 5 -p 0 -o tsv | col /dev/stdin senders)" = 5

done_tests
