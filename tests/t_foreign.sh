# Datagrams suck cannot attribute: without a header (blast --raw), larger than its buffer,
# or of another run. They are counted, worked on, and never counted as valid.
# Exact counts need every datagram to arrive: suck gets a 4 MiB receive buffer (-R 4M), which
# rides out a loaded machine's pauses at these rates.
. tests/lib.sh

for v in copy buffer mmsg; do
	start_suck "raw-$v" -m "$v" -R 4M -o tsv --idle 2 -t 60 || fail "raw-$v: suck did not start"
	"$BIN/blast" -p "$PORT" --raw -n 2000 -r 20k -o tsv >"$TMP/raw-$v.blast" 2>/dev/null
	check "raw-$v: suck ends on --idle" wait_pid "$SUCK_PID" 10
	S=$TMP/raw-$v.out
	check "raw-$v: nothing valid" test "$(field "$S" valid)" = 0
	check "raw-$v: every datagram foreign" test "$(field "$S" foreign)" -eq "$(field "$S" received)"
	check "raw-$v: all 2000 received" test "$(field "$S" received)" -eq 2000
	check "raw-$v: no fin from --raw" test "$(field "$S" fins)" = 0
done

# Too large for suck's buffer: counted as truncated, not foreign, not valid.
start_suck trunc -m mmsg -s 1000 -R 4M -o tsv --idle 2 -t 60 || fail "trunc: suck did not start"
"$BIN/blast" -p "$PORT" -s 1450 -n 500 -r 20k >/dev/null 2>&1
wait_pid "$SUCK_PID" 10
S=$TMP/trunc.out
check "trunc: 500 truncated" test "$(field "$S" truncated)" -eq 500
check "trunc: none valid" test "$(field "$S" valid)" = 0
# The truncated datagrams' headers still tell the run, so its fin is believed and the run ends.
check "trunc: the fin is believed, not foreign" test "$(field "$S" foreign)" = 0
check "trunc: stop fin" test "$(field "$S" stop)" = fin
check "trunc: sent from the fin, all of it lost" test "$(field "$S" sent)" = 500 -a "$(field "$S" lost)" = 500

# Foreign first, then a real run: the real run is accounted exactly, the raw ones foreign.
start_suck mix -R 4M -o tsv --idle 10 -t 60 || fail "mix: suck did not start"
"$BIN/blast" -p "$PORT" --raw -n 300 -r 20k >/dev/null 2>&1
"$BIN/blast" -p "$PORT" -n 3000 -r 50k -o tsv >"$TMP/mix.blast" 2>/dev/null
wait_pid "$SUCK_PID" 10
S=$TMP/mix.out
check "mix: 300 foreign" test "$(field "$S" foreign)" -eq 300
check "mix: the real run's 3000 sent" test "$(field "$S" sent)" -eq 3000
check "mix: adds up" test "$(field "$S" sent)" -eq $(($(field "$S" valid) + $(field "$S" lost)))
check "mix: received = valid + foreign" test "$(field "$S" received)" -eq $(($(field "$S" valid) + 300))

# A second run while the first is going: its datagrams are another run's, so foreign.
start_suck two -R 4M -o tsv -i 0.1 --idle 10 -t 60 || fail "two: suck did not start"
"$BIN/blast" -p "$PORT" --run-id 1111 -n 4000 -r 4k -o tsv >"$TMP/two-a.blast" 2>/dev/null &
APID=$!
PIDS="$PIDS $APID"
wait_received two
"$BIN/blast" -p "$PORT" --run-id 2222 -n 200 -r 20k >/dev/null 2>&1
wait_pid "$APID" 10
wait_pid "$SUCK_PID" 10
S=$TMP/two.out
check "two: locked on the first run" test "$(field "$S" run_id)" = 00000457
check "two: the second run's 200 and its fins are foreign" test "$(field "$S" foreign)" -ge 200
check "two: first run's count" test "$(field "$S" sent)" -eq 4000

done_tests
