# Runs that cannot be hijacked or lost. A run is started only by what its sender can make: under
# a run key, data with the run's proof (or a fresh proven fin); with --run-id A,B,... (--serve,
# --senders), one of the runs named. A run that never sent its fins (a stranger's datagram, a
# blast killed with SIGKILL) is stale once the next run begins, and the next run is counted
# whole: its first datagrams are carried over the stale run's end. Without key or names, a run
# is stale only after a quiet second.
. tests/lib.sh

KEY=00112233445566778899aabbccddeeff
# exact FILE ROW BLAST NAME: row ROW of suck's tsv is blast's run, whole.
exact() {
	check "$4: row $2 is blast's run ($(at "$1" sent "$2") of $(field "$3" sent) sent)" \
		test "$(at "$1" sent "$2")" = "$(field "$3" sent)"
	check "$4: row $2 valid == sent, stop fin ($(at "$1" valid "$2"), $(at "$1" stop "$2"))" \
		test "$(at "$1" valid "$2")" = "$(at "$1" sent "$2")" -a "$(at "$1" stop "$2")" = fin
}
# wait_valid FILE N: suck's -i progress on stderr says N datagrams received (up to 10 s).
wait_recv() {
	wv=0
	while ! grep -q "received" "$1" 2>/dev/null && [ $wv -lt 1000 ]; do
		wv=$((wv + 1))
		sleep 0.01
	done
}

# 1. --serve without a key: a stranger's one datagram starts a run; a quiet second later the real
# blast finds it stale. Before: blast's datagrams were that run's other_run (sent 2000, valid 0).
n=serve-stranger
start_suck "$n" --serve --runs 2 -R 4M -o tsv -t 30 || fail "$n: suck did not start"
"$BIN/inject" data "$PORT" 9001 200 0 0 1
sleep 1.2
"$BIN/blast" -p "$PORT" -n 2000 -r 20000 -s 200 -o tsv >"$TMP/$n.blast" 2>/dev/null
check "$n: suck ends after 2 runs" wait_pid "$SUCK_PID" 20
S=$TMP/$n.out
check "$n: the stranger's run is stale" test "$(at "$S" stop 1)" = stale
exact "$S" 2 "$TMP/$n.blast" "$n"

# 1b. --stale: the quiet time is the option's (stale_s in the row and in --check), so a run
# quiet for 0.3 s is stale under --stale 0.1; out of range is bad usage.
n=serve-stale
check "$n: --check says the default ($("$BIN/suck" --check -p 0 -o tsv | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "stale_s") c = i } NR == 2 { print $c }'))" \
	test "$("$BIN/suck" --check -p 0 -o tsv | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "stale_s") c = i } NR == 2 { print $c }')" = 1.000
for a in 0.01 3601 soon; do
	"$BIN/suck" --check -p 0 --stale "$a" >/dev/null 2>"$TMP/$n.err"
	st=$?
	check "$n: --stale $a: exit 2 ($st), naming it ($(cat "$TMP/$n.err"))" \
		sh -c "test $st = 2 && grep -q -- \"--stale '$a'\" '$TMP/$n.err'"
done
start_suck "$n" --serve --runs 2 --stale 100ms -R 4M -o tsv -t 30 || fail "$n: suck did not start"
"$BIN/inject" data "$PORT" 9004 200 0 0 1
sleep 0.3
"$BIN/blast" -p "$PORT" -n 2000 -r 20000 -s 200 -o tsv >"$TMP/$n.blast" 2>/dev/null
check "$n: suck ends after 2 runs" wait_pid "$SUCK_PID" 20
S=$TMP/$n.out
check "$n: the stranger's run is stale after 0.3 s ($(at "$S" stop 1))" test "$(at "$S" stop 1)" = stale
check "$n: stale_s 0.100 in the rows ($(col "$S" stale_s | tr '\n' ' '))" \
	test "$(col "$S" stale_s | tr '\n' ' ')" = "0.100 0.100 "
exact "$S" 2 "$TMP/$n.blast" "$n"

# 2. Under a key, a stranger's datagram (no proof) starts nothing; a blast killed with SIGKILL
# leaves a stale run, and the blast started at once after it is whole, on every variant a
# server runs (one thread, and -j 2 where the variant has threads).
for spec in buffer mmsg gro epoll pool "mmsg -j 2" "buffer -j 2"; do
	set -- $spec
	v=$1; shift
	n=serve-kill-$v$(echo "$*" | tr -d ' -')
	case " $(variants | tr "\n" " ") " in *" $v "*) ;; *) skip "$n: -m $v not offered here"; continue ;; esac
	BS_RUN_KEY=$KEY start_suck "$n" --serve --runs 2 -m $v "$@" -R 8M -o tsv -i 0.05 -t 30 ||
		fail "$n: suck did not start"
	"$BIN/inject" data "$PORT" 9002 200 0 0 3 # no key here: no proof
	BS_RUN_KEY=$KEY "$BIN/blast" -p "$PORT" -t 5 -r 20000 -s 200 -j 2 -o tsv >/dev/null 2>&1 &
	K=$!
	PIDS="$PIDS $K"
	wait_recv "$TMP/$n.err"
	sleep 0.2
	kill -9 $K 2>/dev/null
	wait $K 2>/dev/null
	BS_RUN_KEY=$KEY "$BIN/blast" -p "$PORT" -n 3000 -r 30000 -s 200 -j 2 -o tsv >"$TMP/$n.blast" 2>/dev/null
	check "$n: suck ends after 2 runs" wait_pid "$SUCK_PID" 20
	S=$TMP/$n.out
	check "$n: 2 rows ($(rows "$S"))" test "$(rows "$S")" = 2
	check "$n: the killed run is stale ($(at "$S" stop 1))" test "$(at "$S" stop 1)" = stale
	check "$n: the stranger's datagrams are foreign ($(at "$S" other_run 1))" test "$(at "$S" other_run 1)" -ge 3
	exact "$S" 2 "$TMP/$n.blast" "$n"
	check "$n: row 2 has nothing foreign ($(at "$S" foreign 2))" test "$(at "$S" foreign 2)" = 0
done

# 3. A lone suck under a key: a stranger's datagram first cannot take the run. Before: it
# locked the run and blast's datagrams were other_run.
n=lone-key
BS_RUN_KEY=$KEY start_suck "$n" -R 4M -o tsv -t 30 || fail "$n: suck did not start"
"$BIN/inject" data "$PORT" 9003 200 0 0 1
BS_RUN_KEY=$KEY "$BIN/blast" -p "$PORT" -n 2000 -r 20000 -s 200 -o tsv >"$TMP/$n.blast" 2>/dev/null
check "$n: suck ends" wait_pid "$SUCK_PID" 20
exact "$TMP/$n.out" 1 "$TMP/$n.blast" "$n"

# 4. A lone suck without a key: the stranger's run is set aside after a quiet second.
n=lone-quiet
start_suck "$n" -R 4M -o tsv -t 30 || fail "$n: suck did not start"
"$BIN/inject" data "$PORT" 9004 200 0 0 1
sleep 1.2
"$BIN/blast" -p "$PORT" -n 2000 -r 20000 -s 200 -o tsv >"$TMP/$n.blast" 2>/dev/null
check "$n: suck ends" wait_pid "$SUCK_PID" 20
exact "$TMP/$n.out" 1 "$TMP/$n.blast" "$n"
check "$n: a warning says the stale run was set aside" grep -q 'set aside' "$TMP/$n.err"

# 5. Named runs, no key: --serve --run-id 11,12 takes only those, in any order; a stranger's
# run 99 is other_run; run 12 killed, run 11 started at once: 12 is stale, 11 whole.
n=serve-named
start_suck "$n" --serve --runs 2 --run-id 11,12 -R 8M -o tsv -i 0.05 -t 30 || fail "$n: suck did not start"
"$BIN/inject" data "$PORT" 99 200 0 0 2
"$BIN/blast" -p "$PORT" --run-id 12 -t 5 -r 20000 -s 200 -o tsv >/dev/null 2>&1 &
K=$!
PIDS="$PIDS $K"
wait_recv "$TMP/$n.err"
sleep 0.2
kill -9 $K 2>/dev/null
wait $K 2>/dev/null
"$BIN/blast" -p "$PORT" --run-id 11 -n 3000 -r 30000 -s 200 -o tsv >"$TMP/$n.blast" 2>/dev/null
check "$n: suck ends after 2 runs" wait_pid "$SUCK_PID" 20
S=$TMP/$n.out
check "$n: run 12 first, stale ($(at "$S" run_id 1) $(at "$S" stop 1))" test "$(at "$S" run_id 1) $(at "$S" stop 1)" = "0000000c stale"
check "$n: the stranger's run is other_run" test "$(at "$S" other_run 1)" -ge 2
exact "$S" 2 "$TMP/$n.blast" "$n"

# 6. --senders 2: two strangers' datagrams cannot squat the slots, under a key or with the runs
# named. Before: both slots were taken and both blasts were other_run.
for how in key named; do
	n=senders-$how
	if [ $how = key ]; then
		BS_RUN_KEY=$KEY start_suck "$n" --senders 2 -R 8M -o tsv -t 30 || fail "$n: suck did not start"
		b1="" b2=""
	else
		start_suck "$n" --senders 2 --run-id 21,22 -R 8M -o tsv -t 30 || fail "$n: suck did not start"
		b1="--run-id 21" b2="--run-id 22"
	fi
	"$BIN/inject" data "$PORT" 9005 200 0 0 1
	"$BIN/inject" data "$PORT" 9006 200 0 0 1
	BS_RUN_KEY=$([ $how = key ] && echo $KEY) "$BIN/blast" -p "$PORT" $b1 -n 2000 -r 20000 -s 200 -o tsv \
		>"$TMP/$n.b1" 2>/dev/null &
	B1=$!
	BS_RUN_KEY=$([ $how = key ] && echo $KEY) "$BIN/blast" -p "$PORT" $b2 -n 2000 -r 20000 -s 200 -o tsv \
		>"$TMP/$n.b2" 2>/dev/null
	wait $B1
	check "$n: suck ends" wait_pid "$SUCK_PID" 20
	tot=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["run_id"] == "total" { print $c["valid"] " " $c["lost"] " " $c["other_run"] }' "$TMP/$n.out")
	check "$n: both blasts whole, the strangers' 2 other_run ($tot)" test "$tot" = "4000 0 2"
done

# 7. Under a key, a stranger's datagram of the run on a flow blast never used (the run id known,
# as from ps) is unproven and foreign, not a flow of 2^48 datagrams. Before: sent was inflated.
n=unproven
BS_RUN_KEY=$KEY start_suck "$n" --run-id 31 -R 4M -o tsv -t 30 || fail "$n: suck did not start"
BS_RUN_KEY=$KEY "$BIN/blast" -p "$PORT" --run-id 31 -t 3 -r 2000 -s 200 -o tsv >"$TMP/$n.blast" 2>/dev/null &
B1=$!
PIDS="$PIDS $B1"
sleep 0.3
"$BIN/inject" data "$PORT" 31 200 200 281474976710654 1 # no key: no proof
"$BIN/inject" data "$PORT" 31 200 0 100000 1
wait $B1
check "$n: suck ends" wait_pid "$SUCK_PID" 20
S=$TMP/$n.out
check "$n: sent is blast's ($(field "$S" sent))" test "$(field "$S" sent)" = "$(field "$TMP/$n.blast" sent)"
check "$n: two unproven, foreign ($(field "$S" unproven), $(field "$S" foreign))" \
	test "$(field "$S" unproven) $(field "$S" foreign)" = "2 2"
check "$n: flows 1" test "$(field "$S" flows)" = 1

# 8. Memory: 16384 strangers' datagrams, each on its own flow of 64 runs, into --senders 64. Under
# a key none can take a slot, so suck maps no tracker for them (docs/output.md: a stranger makes
# suck map none of it). Before: every slot and flow was taken, about 260 MiB.
n=spray
BS_RUN_KEY=$KEY start_suck "$n" --senders 64 -R 8M -o tsv --idle 1 -t 30 || fail "$n: suck did not start"
"$BIN/inject" spray "$PORT" 70000 100 16384
check "$n: suck ends" wait_pid "$SUCK_PID" 30
S=$TMP/$n.out
tot=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["run_id"] == "total" { print $c["received"] - $c["other_run"], $c["rss_kib"], $c["received"] }' "$S")
check "$n: most of the 16384 arrived ($(echo $tot | cut -d' ' -f 3))" test "$(echo $tot | cut -d' ' -f 3)" -ge 8192
check "$n: every datagram arrived is other_run, none in a slot ($tot)" test "$(echo $tot | cut -d' ' -f 1)" = 0
check "$n: suck's peak memory under 64 MiB ($(echo $tot | cut -d' ' -f 2) KiB)" test "$(echo $tot | cut -d' ' -f 2)" -lt 65536

# 9. Bad lists are refused before any work.
for bad in "11,11" "11,,12" "0" "11," "x"; do
	"$BIN/suck" --serve --run-id "$bad" --check >/dev/null 2>"$TMP/bad.err"
	check "--run-id '$bad': exit 2" test $? = 2
done
"$BIN/suck" --run-id 1,2 --check >/dev/null 2>&1
check "--run-id with two ids on a lone run: exit 2" test $? = 2
"$BIN/suck" --senders 2 --run-id 1,2,3 --check >/dev/null 2>&1
check "--senders 2 with three ids: exit 2" test $? = 2

done_tests
