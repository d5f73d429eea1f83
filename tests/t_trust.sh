# Who may speak for a run: sums that cannot wrap, one owner per flow across threads, --run-id,
# and flows tied to the source they first came from (issue 10, items 2-4). Strangers are
# bin/inject, each invocation a new source port. Runs are paced with a large receive buffer so
# that nothing is dropped; where the kernel drops anyway the exact checks are skipped, not failed.
. tests/lib.sh

# identities FILE NAME: the accounting identities of DESIGN.md hold in a tsv report.
identities() {
	S=$1 n=$2
	if [ -z "$(field "$S" received)" ]; then
		fail "$n: no report"
		return
	fi
	check "$n: valid <= sent" test "$(field "$S" valid)" -le "$(field "$S" sent)"
	check "$n: sent == valid + lost" test "$(field "$S" sent)" -eq $(($(field "$S" valid) + $(field "$S" lost)))
	check "$n: received == valid + dup + late + foreign + truncated" test "$(field "$S" received)" -eq \
		$(($(field "$S" valid) + $(field "$S" dup) + $(field "$S" late) + $(field "$S" foreign) + $(field "$S" truncated)))
}

# no_drops FILE NAME: 0 when the kernel dropped nothing (exact counts can be compared).
no_drops() {
	[ "$(field "$1" kernel_drops)" = 0 ] && return 0
	skip "$2: the kernel dropped $(field "$1" kernel_drops); exact counts not compared"
	return 1
}

RUN=777

# 2. Sequences no flow can reach, on several flows: sent must not wrap below valid.
n=wrap
start_suck "$n" -s 100 -R 4M -o tsv --idle 1 -t 20 || fail "$n: suck did not start"
"$BIN/inject" data "$PORT" $RUN 100 0 0 1
for f in 1 2 3 4; do "$BIN/inject" data "$PORT" $RUN 100 $f 4611686018427387903 1; done # 2^62 - 1
check "$n: suck ends" wait_pid "$SUCK_PID" 20
S=$TMP/$n.out
identities "$S" "$n"
check "$n: 2^62-1 is malformed, foreign" test "$(field "$S" foreign)" = 4
check "$n: sent 1" test "$(field "$S" sent)" = 1

n=wrap-limit
start_suck "$n" -s 100 -R 4M -o tsv --idle 1 -t 20 || fail "$n: suck did not start"
"$BIN/inject" data "$PORT" $RUN 100 0 0 1
for f in 1 2 3 4; do "$BIN/inject" data "$PORT" $RUN 100 $f 281474976710655 1; done # 2^48 - 1
check "$n: suck ends" wait_pid "$SUCK_PID" 20
S=$TMP/$n.out
identities "$S" "$n"
check "$n: sent is exact, 1 + 4 x 2^48" test "$(field "$S" sent)" = 1125899906842625
check "$n: lost is exact" test "$(field "$S" lost)" = 1125899906842620

# 3. Threads agree on a flow: replays of blast's flow from other sources, which land on
# either socket, and a fin with impossible totals from strangers, are foreign on every thread.
for v in buffer mmsg; do
	n=threads-$v
	start_suck "$n" -m $v -j 2 --run-id $RUN -R 4M -i 0.05 -o tsv --idle 10 -t 60 || fail "$n: suck did not start"
	"$BIN/blast" -p "$PORT" --run-id $RUN -s 500 -n 6000 -r 4000 -o tsv >"$TMP/$n.blast" 2>/dev/null &
	BPID=$!
	PIDS="$PIDS $BPID"
	wait_received "$n"
	for src in 1 2 3 4; do
		"$BIN/inject" data "$PORT" $RUN 500 0 0 200
		"$BIN/inject" fin "$PORT" $RUN 500 0 1 1  # fewer than seen, believable to a thread that saw none
	done
	check "$n: blast ends" wait_pid "$BPID" 30
	check "$n: suck ends" wait_pid "$SUCK_PID" 30
	S=$TMP/$n.out
	identities "$S" "$n"
	check "$n: ends on blast's fin" test "$(field "$S" stop)" = fin
	check "$n: sent from blast's fin" test "$(field "$S" sent)" = 6000
	check "$n: sent not estimated" test "$(field "$S" sent_estimated)" = 0
	if no_drops "$S" "$n"; then
		check "$n: valid $(field "$S" valid) = 6000" test "$(field "$S" valid)" = 6000
		check "$n: replays foreign ($(field "$S" foreign))" test "$(field "$S" foreign)" = 804
		check "$n: replays from another source ($(field "$S" other_src))" test "$(field "$S" other_src)" = 800
		check "$n: no dup" test "$(field "$S" dup)" = 0
	fi
done

# 4. A stranger cannot steer the run.
# a) A fake run's data before blast's: suck without --run-id locks onto it, and says so.
n=early
start_suck "$n" -R 4M -o tsv --idle 1 -t 20 || fail "$n: suck did not start"
"$BIN/inject" data "$PORT" 4242 100 0 0 10
"$BIN/blast" -p "$PORT" --run-id $RUN -s 100 -n 300 -r 3000 -o tsv >"$TMP/$n.blast" 2>/dev/null
check "$n: suck ends" wait_pid "$SUCK_PID" 20
S=$TMP/$n.out
identities "$S" "$n"
check "$n: locked onto the first run" test "$(field "$S" run_id)" = 00001092
check "$n: blast's datagrams counted as another run's" test "$(field "$S" other_run)" = 300
check "$n: a warning names the other run" grep -q "another run.*00000309.*--run-id" "$TMP/$n.err"
# b) The same with --run-id: the fake run is foreign, blast's run is counted.
n=early-runid
start_suck "$n" --run-id $RUN -R 4M -o tsv --idle 5 -t 20 || fail "$n: suck did not start"
"$BIN/inject" data "$PORT" 4242 100 0 0 10
"$BIN/blast" -p "$PORT" --run-id $RUN -s 100 -n 300 -r 3000 -o tsv >"$TMP/$n.blast" 2>/dev/null
check "$n: suck ends" wait_pid "$SUCK_PID" 20
S=$TMP/$n.out
identities "$S" "$n"
check "$n: the given run" test "$(field "$S" run_id)" = 00000309
check "$n: stop fin" test "$(field "$S" stop)" = fin
check "$n: sent 300" test "$(field "$S" sent)" = 300
check "$n: the fake run is foreign" test "$(field "$S" other_run)" = 10
if no_drops "$S" "$n"; then check "$n: valid 300" test "$(field "$S" valid)" = 300; fi
check "$n: warned about the other run" grep -q "another run.*00001092" "$TMP/$n.err"
# c) A believable fin from another source does not end the run early; d) nor does a datagram
# far ahead from another source keep blast's fin from being believed.
for what in fin ahead; do
	n=steer-$what
	start_suck "$n" --run-id $RUN -R 4M -i 0.05 -o tsv --idle 10 -t 60 || fail "$n: suck did not start"
	"$BIN/blast" -p "$PORT" --run-id $RUN -s 100 -n 6000 -r 4000 -o tsv >"$TMP/$n.blast" 2>/dev/null &
	BPID=$!
	PIDS="$PIDS $BPID"
	wait_received "$n"
	if [ $what = fin ]; then
		"$BIN/inject" fin "$PORT" $RUN 100 0 6000 1
	else
		"$BIN/inject" data "$PORT" $RUN 100 0 1000000000 1
	fi
	check "$n: blast ends" wait_pid "$BPID" 30
	check "$n: suck ends" wait_pid "$SUCK_PID" 30
	S=$TMP/$n.out
	identities "$S" "$n"
	check "$n: ends on blast's fin ($(field "$S" stop))" test "$(field "$S" stop)" = fin
	check "$n: sent 6000 ($(field "$S" sent))" test "$(field "$S" sent)" = 6000
	check "$n: sent not estimated" test "$(field "$S" sent_estimated)" = 0
	check "$n: the stranger is foreign" test "$(field "$S" foreign)" = 1
	if no_drops "$S" "$n"; then check "$n: nothing lost" test "$(field "$S" lost)" = 0; fi
done

# --run-id is checked like blast's.
for bad in 0 4294967296 x 1x; do
	"$BIN/suck" --run-id "$bad" >/dev/null 2>"$TMP/bad.err"
	check "--run-id $bad: exit 2" test $? = 2
	check "--run-id $bad: names the option" grep -q -- "--run-id" "$TMP/bad.err"
done

done_tests
