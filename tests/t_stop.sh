# How suck and blast end: a signal to an idle suck, the fin behind a slow consumer, -t,
# --idle, and an interrupted blast that still sends its fin. Bounds are generous on purpose:
# a blocked receive wakes every 20 ms, so "within a second" has a wide margin.
. tests/lib.sh

for sig in INT TERM; do
	start_suck "idle$sig" -o tsv || fail "idle$sig: suck did not start"
	kill -"$sig" "$SUCK_PID"
	check "SIG$sig ends an idle suck" wait_pid "$SUCK_PID" 3
	check "SIG$sig: the report is printed" test "$(field "$TMP/idle$sig.out" stop)" = signal
	check "SIG$sig: received 0" test "$(field "$TMP/idle$sig.out" received)" = 0
done

# Mid-run: suck interrupted while datagrams arrive still reports, and its numbers add up.
start_suck midrun -m mmsg -o tsv -i 0.2 || fail "midrun: suck did not start"
"$BIN/blast" -p "$PORT" -t 3 -r 20k >/dev/null 2>&1 &
BPID=$!
PIDS="$PIDS $BPID"
wait_received midrun
kill -INT "$SUCK_PID"
check "midrun: SIGINT ends a busy suck" wait_pid "$SUCK_PID" 3
S=$TMP/midrun.out
check "midrun: stop is signal" test "$(field "$S" stop)" = signal
check "midrun: received > 0" test "$(field "$S" received)" -gt 0
check "midrun: sent estimated without a fin" test "$(field "$S" sent_estimated)" = 1
check "midrun: sent == valid + lost" test "$(field "$S" sent)" -eq $(($(field "$S" valid) + $(field "$S" lost)))
check "midrun: interval rows (tsv, as -o) on stderr" grep -q '^suck	[0-9.]*	[0-9]' "$TMP/midrun.err"
kill "$BPID" 2>/dev/null
wait_pid "$BPID" 5

# A slow consumer: the receive buffer is full when blast stops, so the first fins are
# dropped; blast repeats them until one gets through.
start_suck slow -w histogram:200 -o tsv --idle 20 -t 60 || fail "slow: suck did not start"
"$BIN/blast" -p "$PORT" -t 0.5 -o tsv >"$TMP/slow.blast" 2>/dev/null
check "slow: suck ends" wait_pid "$SUCK_PID" 30
S=$TMP/slow.out
check "slow: stopped by the fin" test "$(field "$S" stop)" = fin
check "slow: sent is blast's sent" test "$(field "$S" sent)" = "$(field "$TMP/slow.blast" sent)"
check "slow: most datagrams lost" test "$(field "$S" lost)" -gt "$(field "$S" valid)"
check "slow: the loss is the kernel's receive buffer" test "$(field "$S" dropped)" -gt 0
check "slow: sent == valid + lost" test "$(field "$S" sent)" -eq $(($(field "$S" valid) + $(field "$S" lost)))
check "slow: dropped <= lost" test "$(field "$S" dropped)" -le "$(field "$S" lost)"

# blast interrupted mid-run still sends its fin: suck ends on it with blast's count.
start_suck bint -o tsv -i 0.1 --idle 20 -t 60 || fail "bint: suck did not start"
"$BIN/blast" -p "$PORT" -t 30 -r 20k -o tsv >"$TMP/bint.blast" 2>/dev/null &
BPID=$!
PIDS="$PIDS $BPID"
wait_received bint
kill -INT "$BPID"
check "bint: blast ends on SIGINT" wait_pid "$BPID" 5
check "bint: suck ends on blast's fin" wait_pid "$SUCK_PID" 10
check "bint: blast says it stopped on a signal" test "$(field "$TMP/bint.blast" stop)" = signal
check "bint: suck stopped on the fin" test "$(field "$TMP/bint.out" stop)" = fin
check "bint: counts agree" test "$(field "$TMP/bint.out" sent)" = "$(field "$TMP/bint.blast" sent)"

# -t and --idle
start_suck tlimit -o tsv -t 0.3 || fail "tlimit: suck did not start"
check "-t 0.3 ends suck" wait_pid "$SUCK_PID" 5
check "-t: stop is time" test "$(field "$TMP/tlimit.out" stop)" = time
start_suck idle -o tsv --idle 0.3 -t 60 || fail "idle: suck did not start"
"$BIN/blast" -p "$PORT" --raw -n 10 -r 1k >/dev/null 2>&1
check "--idle ends suck after the last datagram" wait_pid "$SUCK_PID" 5
check "--idle: stop is idle" test "$(field "$TMP/idle.out" stop)" = idle

done_tests
