# suck --senders N (fan-in): N runs into one suck at once, each locked on its own first
# datagram and counted apart, a row per run and a total row, the identities on every row; a run
# beyond N is other_run, as the 2nd and 3rd are without --senders; a run whose fin never comes
# ends at --idle and the others stay exact; every loopback variant; Jain's index; scripts/suite
# --senders 2 at its shortest. Real blasts (IPv4 with a run key and -j 2, IPv6) and bin/inject's
# runs (a run in a moment, from one socket each).
. tests/lib.sh

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

# Under a run key a proven fin takes a slot: a run that sent nothing ends on its fin, and a
# forged fin (no key) takes none.
n=finonly
BS_RUN_KEY=00112233445566778899aabbccddeeff
export BS_RUN_KEY
start_suck "$n" --senders 2 -o tsv --idle 3 -t 20 || fail "$n: suck did not start"
env -u BS_RUN_KEY "$BIN/inject" fin "$PORT" 3000 100 0 5 1 >/dev/null # forged: tag 0
"$BIN/inject" fin "$PORT" 3001 100 0 0 1 >/dev/null
"$BIN/inject" run "$PORT" 3002 100 50 >/dev/null
unset BS_RUN_KEY
check "$n: suck ends on both runs' fins" wait_pid "$SUCK_PID" 15
S=$TMP/$n.out
check "$n: the runs of the proven fins, in order" test "$(col "$S" run_id | tr '\n' ' ')" = "00000bb9 00000bba total "
check "$n: every row ends on fins" test "$(col "$S" stop | sort -u)" = fin
check "$n: sent from the fins" test "$(col "$S" sent | tr '\n' ' ')" = "0 50 50 "
check "$n: the forged fin is the total's forged_fins" test "$(col "$S" forged_fins | tr '\n' ' ')" = "0 0 1 "

# Runs of two sizes: each row its size, classes and exact bytes; the total row every class
n=twosizes
start_suck "$n" --senders 2 -R 4M -o tsv --idle 3 -t 20 || fail "$n: suck did not start"
"$BIN/inject" run "$PORT" 11 100 40 >/dev/null
"$BIN/inject" run "$PORT" 12 1200 30 >/dev/null
check "$n: suck ends on both runs' fins" wait_pid "$SUCK_PID" 15
S=$TMP/$n.out
check "$n: each run's size, none shared in the total" test "$(col "$S" size | tr '\n' ' ')" = "100 1200 - "
if drops_none "$S"; then
	check "$n: the size classes per run and in total" \
		test "$(col "$S" dgrams_65_256 | tr '\n' ' ')/$(col "$S" dgrams_1025_1500 | tr '\n' ' ')" = "40 0 40 /0 30 30 "
	check "$n: bytes exact per run and in total" test "$(col "$S" bytes_check | sort -u)" = exact
else
	skip "$n: the kernel dropped; not compared"
fi

# The measures per run: --latency's samples, --marks' changes (inject marks: 3 in 10 remarked),
# --jitter; other_src within a run; and the -i lines count every run's foreign datagrams.
n=measures
start_suck "$n" --senders 2 --latency --jitter --marks -R 4M -o tsv -i 0.05 --idle 0.5 -t 20 ||
	fail "$n: suck did not start"
"$BIN/inject" marks "$PORT" 7 100 50 >/dev/null
"$BIN/inject" data "$PORT" 8 100 0 0 20 >/dev/null # no fin: ends at --idle
"$BIN/inject" data "$PORT" 8 100 0 0 5 >/dev/null  # a stranger's datagrams of run 8's flow: other_src
# the -i rows count the runs' foreign datagrams too, within the half second before --idle
w=0
while ! awk -F'\t' '$1 == "tool" { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$1 == "suck" && $c["foreign"] == 5 { f = 1 } END { exit !f }' "$TMP/$n.err" && [ $w -lt 300 ]; do
	w=$((w + 1))
	sleep 0.01
done
check "$n: -i lines count the runs' foreign" test $w -lt 300
check "$n: suck ends at --idle" wait_pid "$SUCK_PID" 15
S=$TMP/$n.out
if drops_none "$S"; then
	check "$n: latency samples per run" test "$(col "$S" lat_samples | tr '\n' ' ')" = "50 20 70 "
	check "$n: marks changed per run" test "$(col "$S" marks_changed | tr '\n' ' ')" = "15 0 15 "
	check "$n: other_src is the second run's" test "$(col "$S" other_src | tr '\n' ' ')" = "0 5 5 "
else
	skip "$n: the kernel dropped; not compared"
fi
check "$n: jitter per run" test "$(col "$S" jitter_us | grep -c '^[0-9]')" = 3

# pool dropping at a full queue (--queue-full drop): what it threw away is each run's own loss
n=pooldrop
start_suck "$n" -m pool --queue 1 --queue-full drop -w histogram:200 --senders 2 -R 4M -o tsv --idle 0.5 -t 20 ||
	fail "$n: suck did not start"
"$BIN/inject" run "$PORT" 9 1000 1500 >/dev/null
"$BIN/inject" run "$PORT" 10 1000 1500 >/dev/null
check "$n: suck ends on both runs' fins" wait_pid "$SUCK_PID" 15
S=$TMP/$n.out
check "$n: identities per run and in total" identities "$S"
check "$n: sent per run" test "$(col "$S" sent | tr '\n' ' ')" = "1500 1500 3000 "
if drops_none "$S"; then
	check "$n: each run's loss is what pool threw away" awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["lost"] != $c["queue_dropped"] { bad = 1 } END { exit bad }' "$S"
else
	skip "$n: the kernel dropped too; queue_dropped not compared with lost"
fi

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

# 5. Jain's index (scripts/lib/jain.awk), as fanin.awk uses it: 1 for equal shares, 1/n when one
# sender has everything, (3+1)^2 / (2 (9+1)) = 0.8, '-' when nothing arrived.
cat >"$TMP/jain.awk" <<'JEOF'
function t(s,    x, n) { n = split(s, x, " "); r = jain(x, n); return r == "-" ? r : sprintf("%.4f", r) }
BEGIN { print t("5 5 5") " " t("7 0 0") " " t("3 1") " " t("0 0") " " t("1 2 3 4") }
JEOF
check "Jain's index of known shares" \
	test "$(awk -f scripts/lib/jain.awk -f "$TMP/jain.awk")" = "1.0000 0.3333 0.8000 - 0.8333"

# 6. The suite with two senders, the shortest settings: its table, its plot, each sender's share
# adding up to 100 % and the index within [1/2, 1].
R=$TMP/suite
if sh scripts/suite --senders 2 -t 1 -r 1 -W 0 -m mmsg -o "$R" >"$TMP/suite.out" 2>"$TMP/suite.err"; then
	ok
	check "suite: table.md has the fan-in table" grep -q "^| mmsg | [01]\.[0-9]* (" "$R/table.md"
	check "suite: runs.tsv has the senders' shares and the index" \
		has_cols "$R/runs.tsv" suck_sender1_share_pct suck_sender2_share_pct suck_jain blast_senders
	check "suite: blast's sent is the senders' added up" test "$(col "$R/runs.tsv" blast_sent)" = \
		"$(($(field "$R/raw/mmsg-1.blast1.tsv" sent) + $(field "$R/raw/mmsg-1.blast2.tsv" sent)))"
	check "suite: Jain's index in [1/2, 1]" awk -F'\t' '$1 == "mmsg" && $2 == "suck_jain" { f = 1; if ($4 < 0.5 || $4 > 1) exit 1 } END { exit !f }' "$R/summary.tsv"
	check "suite: the shares add up to 100 %" awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ s = $c["suck_sender1_share_pct"] + $c["suck_sender2_share_pct"]; if (s < 99.98 || s > 100.02) exit 1 }' "$R/runs.tsv"
	check "suite: each share is its sender's valid" awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ v1 = $c["suck_sender1_valid"]; v2 = $c["suck_sender2_valid"]
		  if (v1 + v2 != $c["suck_valid"] || (v1 + v2 > 0 && ($c["suck_sender1_share_pct"] - 100 * v1 / (v1 + v2))^2 > 0.0001)) exit 1 }' "$R/runs.tsv"
	if command -v "${GNUPLOT:-gnuplot}" >/dev/null 2>&1; then
		check "suite: the fanin plot" test -s "$R/fanin.png" -a -s "$R/fanin.svg"
	else
		skip "no gnuplot: the fanin plot not drawn"
	fi
else
	fail "suite --senders 2 failed: $(tail -n 3 "$TMP/suite.err")"
fi
# 7. Over the wire (two namespaces and a veth, root only): both senders in blast's namespace.
if [ "$(id -u)" -eq 0 ] && command -v ip >/dev/null 2>&1; then
	R=$TMP/wire
	if sh scripts/suite --senders 2 --wire -t 1 -r 1 -W 0 -m mmsg -P -o "$R" >/dev/null 2>"$TMP/wire.err"; then
		check "wire: each sender's valid adds up to suck's" awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			{ f = 1; if ($c["suck_sender1_valid"] + $c["suck_sender2_valid"] != $c["suck_valid"] || $c["suck_jain"] < 0.5) exit 1 }
			END { exit !f }' "$R/runs.tsv"
		check "wire: the senders ran in blast's namespace" grep -q "^cmd: ip netns exec bs-wire-[0-9]*-blast .*blast" "$R/env.txt"
	elif grep -q "exit 4\|not supported" "$TMP/wire.err"; then
		skip "wire: not here: $(tail -n 1 "$TMP/wire.err")"
	else
		fail "wire: suite --senders 2 --wire failed: $(tail -n 3 "$TMP/wire.err")"
	fi
else
	skip "not root, or no ip: the fan-in over --wire needs network namespaces"
fi
for bad in "--senders 1" "--senders 65" "--senders 2 --rtt" "--senders 2 --group 239.255.0.1"; do
	# shellcheck disable=SC2086
	sh scripts/suite $bad -t 1 -r 1 -o "$TMP/bad" >/dev/null 2>"$TMP/bad.err"
	st=$?
	check "suite $bad: exit 2 ($st)" test $st = 2
done
BLAST_CMD="env;env;env" sh scripts/suite --senders 2 -t 1 -r 1 -o "$TMP/bad" >/dev/null 2>"$TMP/bad.err"
check "suite: BLAST_CMD of 3 prefixes for 2 senders: exit 2" test $? = 2
check "... says how many" grep -q "3 ';'-separated prefixes" "$TMP/bad.err"
BLAST_CMD="env;env" sh scripts/suite -t 1 -r 1 -o "$TMP/bad" >/dev/null 2>"$TMP/bad.err"
check "suite: ';' in BLAST_CMD without --senders: exit 2" test $? = 2

done_tests
