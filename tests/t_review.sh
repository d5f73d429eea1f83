# Hostile review of the run key, fresh fins, stale runs and the carry (h-review). Every case
# here FAILED on main 0cf7c64 when written: each is what the contract (DESIGN.md, Accounting,
# Serving, Fan-in, the echo section) promises and the code does not yet keep. Short runs, small
# rates, loopback only.
. tests/lib.sh

KEY=00112233445566778899aabbccddeeff

# 1. Under a key a request (type 2) needs no proof, so a stranger without the key hijacks a live
# lone run with ONE request of another run id: the real run is "set aside" and the report is the
# stranger's (sent 1). Expected: blast's run reported, whole.
n=req-hijack
BS_RUN_KEY=$KEY start_suck "$n" -o tsv -t 3 || fail "$n: suck did not start"
BS_RUN_KEY=$KEY "$BIN/blast" -p "$PORT" -t 1.5 -r 2000 -s 200 -o tsv >"$TMP/$n.blast" 2>/dev/null &
B=$!
PIDS="$PIDS $B"
sleep 0.5
"$BIN/inject" amp "$PORT" 777 32 1 0 >/dev/null # no key: a request and forged fins
wait $B
check "$n: suck ends" wait_pid "$SUCK_PID" 10
check "$n: the report is blast's run ($(field "$TMP/$n.out" run_id) vs $(field "$TMP/$n.blast" run_id))" \
	test "$(field "$TMP/$n.out" run_id)" = "$(field "$TMP/$n.blast" run_id)"

# 2. The same request squats --senders slots under a key (finding 4 again, by type 2).
n=req-squat
BS_RUN_KEY=$KEY start_suck "$n" --senders 2 -R 8M -o tsv -t 3 || fail "$n: suck did not start"
"$BIN/inject" amp "$PORT" 901 32 1 0 >/dev/null
"$BIN/inject" amp "$PORT" 902 32 1 0 >/dev/null
BS_RUN_KEY=$KEY "$BIN/blast" -p "$PORT" -n 500 -r 5000 -s 200 -o tsv >/dev/null 2>&1 &
B1=$!
BS_RUN_KEY=$KEY "$BIN/blast" -p "$PORT" -n 500 -r 5000 -s 200 -o tsv >/dev/null 2>&1
wait $B1
check "$n: suck ends" wait_pid "$SUCK_PID" 10
tot=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["run_id"] == "total" { print $c["valid"] }' "$TMP/$n.out")
check "$n: both blasts counted ($tot valid)" test "$tot" = 1000

# 3. Under a key, a request of the run (id known, as from ps) on flow 0 before blast owns blast's
# flow: blast's datagrams are other_src and its fins never believed. Expected: unproven.
n=req-own
BS_RUN_KEY=$KEY start_suck "$n" --run-id 4242 -o tsv -t 2 || fail "$n: suck did not start"
"$BIN/inject" amp "$PORT" 4242 32 1 0 >/dev/null
BS_RUN_KEY=$KEY "$BIN/blast" -p "$PORT" --run-id 4242 -n 500 -r 5000 -s 200 -o tsv >"$TMP/$n.blast" 2>/dev/null
check "$n: suck ends" wait_pid "$SUCK_PID" 10
check "$n: ends on blast's fin ($(field "$TMP/$n.out" stop), other_src $(field "$TMP/$n.out" other_src))" \
	test "$(field "$TMP/$n.out" stop)" = fin

# 4. Under a key with named runs, an unproven datagram (no key) of a listed run makes the live
# run stale: rx_may_lock checks the names and never the proof.
n=named-unproven
BS_RUN_KEY=$KEY start_suck "$n" --serve --run-id 11,12 -o tsv -t 2.5 || fail "$n: suck did not start"
BS_RUN_KEY=$KEY "$BIN/blast" -p "$PORT" --run-id 11 -t 1.2 -r 2000 -s 200 -o tsv >"$TMP/$n.blast" 2>/dev/null &
B=$!
PIDS="$PIDS $B"
sleep 0.5
"$BIN/inject" data "$PORT" 12 200 0 0 1
wait $B
check "$n: suck ends" wait_pid "$SUCK_PID" 10
check "$n: run 11 not stale ($(at "$TMP/$n.out" stop 1))" test "$(at "$TMP/$n.out" stop 1)" = fin

# 5. No key, -j 2: "stale only once the run has taken nothing for 1 s" does not hold: the other
# thread's run_ns is newer than this thread's check_ns, and the unsigned difference wraps.
n=j2-wrap
start_suck "$n" -m mmsg -j 2 -o tsv -t 2.5 || fail "$n: suck did not start"
"$BIN/blast" -p "$PORT" -t 1.2 -r 2000 -s 200 -o tsv >"$TMP/$n.blast" 2>/dev/null &
B=$!
PIDS="$PIDS $B"
sleep 0.5
"$BIN/inject" data "$PORT" 9999 200 1 0 1 # flow 1: the other thread's socket
wait $B
check "$n: suck ends" wait_pid "$SUCK_PID" 10
check "$n: the report is blast's run ($(field "$TMP/$n.out" run_id) vs $(field "$TMP/$n.blast" run_id))" \
	test "$(field "$TMP/$n.out" run_id)" = "$(field "$TMP/$n.blast" run_id)"

# 6. No key, --serve: a stranger's datagram and a believable fin for another flow of a 2-flow
# run (a fin for a flow nobody has seen claims it) make a phantom that is never stale, so the
# next real run is other_run until -t (finding 3 again).
n=half-fin
start_suck "$n" --serve -o tsv -t 2.5 || fail "$n: suck did not start"
"$BIN/inject" data "$PORT" 9001 200 0 0 1
"$BIN/inject" fin "$PORT" 9001 200 1 1 2 >/dev/null
sleep 1.2
"$BIN/blast" -p "$PORT" -n 500 -r 5000 -s 200 -o tsv >"$TMP/$n.blast" 2>/dev/null
check "$n: suck ends" wait_pid "$SUCK_PID" 10
check "$n: blast's run has a row" grep -q "$(field "$TMP/$n.blast" run_id)" "$TMP/$n.out"

# 7. The carry holds 2 x (batch + 64) datagrams of -s bytes, but a gro batch is 8 buffers of up
# to 128 segments: after a stale run, datagrams of the next run that arrived are reported lost.
if variants | grep -qx gro; then
	n=gro-carry
	BS_RUN_KEY=$KEY start_suck "$n" -m gro -s 200 -R 8M -o tsv -t 3 --serve --runs 2 ||
		fail "$n: suck did not start"
	BS_RUN_KEY=$KEY "$BIN/inject" data "$PORT" 111 200 0 0 1
	sleep 0.1
	BS_RUN_KEY=$KEY "$BIN/blast" -p "$PORT" -n 5000 -s 200 -o tsv >"$TMP/$n.blast" 2>/dev/null
	check "$n: suck ends" wait_pid "$SUCK_PID" 10
	check "$n: the next run whole ($(at "$TMP/$n.out" valid 2) of $(at "$TMP/$n.out" sent 2), \
elsewhere $(at "$TMP/$n.out" elsewhere 2))" test "$(at "$TMP/$n.out" lost 2)" = 0
else
	skip "gro-carry: -m gro not offered here"
fi

# 8. --serve under a key: one run whose fins carry a send time an hour ahead (a sender's clock
# ahead, or stepped back since) makes every later run's fins stale for that hour.
n=future-fin
BS_RUN_KEY=$KEY start_suck "$n" -R 8M -o tsv -t 2.5 --serve || fail "$n: suck did not start"
BS_RUN_KEY=$KEY INJECT_FIN_NS=$(($(date +%s) * 1000000000 + 3600000000000)) \
	"$BIN/inject" run "$PORT" 5001 200 100 >/dev/null
sleep 0.3
BS_RUN_KEY=$KEY "$BIN/blast" -p "$PORT" -n 500 -r 5000 -s 200 -o tsv >/dev/null 2>&1
check "$n: suck ends" wait_pid "$SUCK_PID" 10
check "$n: run 2 ends on its fins ($(at "$TMP/$n.out" stop 2), stale_fins $(at "$TMP/$n.out" stale_fins 2))" \
	test "$(at "$TMP/$n.out" stop 2)" = fin

# 9. mmsg --echo over a stale switch: a carried request's reply is queued with its source
# pointing at a local of carry_feed (gone); the flush fails (EINVAL) and the reply is lost.
n=echo-carry
BS_RUN_KEY=$KEY start_suck "$n" -m mmsg --echo -o tsv -t 2.5 --serve --runs 2 || fail "$n: suck did not start"
BS_RUN_KEY=$KEY "$BIN/inject" data "$PORT" 111 200 0 0 1
sleep 0.1
BS_RUN_KEY=$KEY "$BIN/blast" -p "$PORT" --rtt -n 20 --rtt-timeout 200ms -s 200 -o tsv >"$TMP/$n.blast" 2>/dev/null
check "$n: suck ends" wait_pid "$SUCK_PID" 10
check "$n: every request answered (rtt_lost $(field "$TMP/$n.blast" rtt_lost), echo_errors \
$(at "$TMP/$n.out" echo_errors 2))" test "$(field "$TMP/$n.blast" rtt_lost)" = 0

# 10. --marks over a stale switch: the carried datagrams have no marking (no control messages
# are carried), the first of them sets the run's, and every later one counts as changed.
n=marks-carry
BS_RUN_KEY=$KEY start_suck "$n" -m mmsg --marks -o tsv -t 2 --serve --runs 2 || fail "$n: suck did not start"
BS_RUN_KEY=$KEY "$BIN/inject" data "$PORT" 111 200 1 0 1
sleep 0.1
BS_RUN_KEY=$KEY "$BIN/blast" -p "$PORT" -n 400 -r 4000 -s 200 --tos 32 --ttl 9 -o tsv >/dev/null 2>&1
check "$n: suck ends" wait_pid "$SUCK_PID" 10
check "$n: tos 32, none changed ($(at "$TMP/$n.out" tos 2), $(at "$TMP/$n.out" marks_changed 2))" \
	test "$(at "$TMP/$n.out" tos 2) $(at "$TMP/$n.out" marks_changed 2)" = "32 0"

# 11. A proven data datagram recorded from any earlier run under the same key (here with a send
# time of 2020) preempts a live lone run: a data proof never goes stale.
n=old-proof
BS_RUN_KEY=$KEY start_suck "$n" -o tsv -t 2.5 || fail "$n: suck did not start"
BS_RUN_KEY=$KEY "$BIN/blast" -p "$PORT" -t 1.2 -r 2000 -s 200 -o tsv >"$TMP/$n.blast" 2>/dev/null &
B=$!
PIDS="$PIDS $B"
sleep 0.5
BS_RUN_KEY=$KEY INJECT_SEND_NS=1600000000000000000 "$BIN/inject" data "$PORT" 31337 200 0 0 1
wait $B
check "$n: suck ends" wait_pid "$SUCK_PID" 10
check "$n: the report is blast's run ($(field "$TMP/$n.out" run_id) vs $(field "$TMP/$n.blast" run_id))" \
	test "$(field "$TMP/$n.out" run_id)" = "$(field "$TMP/$n.blast" run_id)"

done_tests
