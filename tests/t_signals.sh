# SIGINT and SIGTERM at random moments — before the first datagram, mid-run, while draining,
# with several threads — always give a report and exit 0 promptly; an interrupted blast still
# sends its fin. A closed stdout is refused at start, a broken pipe reported: never silent.
# The delays below pick the moment of the signal; they are not used to synchronise.
. tests/lib.sh

rand_delay() { # a pseudo-random delay in 0..0.6 s, seeded by the round
	awk -v s="$1" 'BEGIN { srand(s * 7919); printf "%.3f", rand() * 0.6 }'
}

# Every variant suck offers (from suck -m list), then three of them again.
round=0
for v in $(variants) mmsg buffer gro; do
	round=$((round + 1))
	for threads in 1 3; do
		n=r$round-$v-j$threads
		sig=INT
		[ $((round % 2)) -eq 0 ] && sig=TERM
		start_suck "$n" -m "$v" -j $threads -o tsv -t 60 || { skip "$n: $(cat "$TMP/$n.err")"; continue; }
		"$BIN/blast" -p "$PORT" -j 2 -t 1.5 -r 30k -o tsv >"$TMP/$n.blast" 2>/dev/null &
		BPID=$!
		PIDS="$PIDS $BPID"
		sleep "$(rand_delay $round$threads)"
		kill -$sig "$SUCK_PID"
		t0=$(date +%s)
		check "$n: SIG$sig ends suck" wait_pid "$SUCK_PID" 5
		wait "$SUCK_PID"
		st=$?
		check "$n: suck exits 0 (got $st)" test $st -eq 0
		S=$TMP/$n.out
		stop=$(field "$S" stop)
		check "$n: a report, stopped by the signal or the fins ($stop)" test "$stop" = signal -o "$stop" = fin
		check "$n: sent == valid + lost" test "$(field "$S" sent)" -eq $(($(field "$S" valid) + $(field "$S" lost)))
		check "$n: ended within 3 s of the signal" test $(($(date +%s) - t0)) -le 3
		# blast meets a closed port from here on: it counts, warns once and still ends.
		# blast would send on into the closed port until its -t: it is not what is tested here
		kill -TERM "$BPID" 2>/dev/null
		check "$n: blast ends" wait_pid "$BPID" 10
	done
done

# blast interrupted at a random moment still sends its fin, and reports.
for round in 1 2 3 4; do
	n=blast$round
	start_suck "$n" -m mmsg -i 0.05 -o tsv --idle 20 -t 60 || { fail "$n: suck did not start"; continue; }
	"$BIN/blast" -p "$PORT" -t 20 -r 20k -o tsv >"$TMP/$n.blast" 2>/dev/null &
	BPID=$!
	PIDS="$PIDS $BPID"
	# mid-run: once datagrams arrive blast is past its start (a signal before main() runs, as
	# can happen under a slow sanitizer start, is the kernel's to handle, not blast's)
	wait_received "$n"
	sleep "$(rand_delay $round)"
	kill -TERM "$BPID"
	check "$n: blast ends on SIGTERM" wait_pid "$BPID" 5
	wait "$BPID"
	check "$n: blast exits 0" test $? -eq 0
	check "$n: suck ends on the fin" wait_pid "$SUCK_PID" 10
	check "$n: counts agree" test "$(field "$TMP/$n.out" sent)" = "$(field "$TMP/$n.blast" sent)"
	check "$n: suck stopped on the fin" test "$(field "$TMP/$n.out" stop)" = fin
done

# Closed stdout: refused at once, with a message; a stdout whose reader is gone: reported.
"$BIN/suck" -p 0 -t 0.2 >&- 2>"$TMP/closed.err"
check "suck with stdout closed exits 1" test $? -eq 1
check "suck says why" grep -q 'stdout is closed' "$TMP/closed.err"
"$BIN/blast" -p 9 -n 1 >&- 2>"$TMP/closed.err"
check "blast with stdout closed exits 1" test $? -eq 1
check "blast says why" grep -q 'stdout is closed' "$TMP/closed.err"
( "$BIN/suck" -p 0 -t 0.2 -o tsv 2>"$TMP/pipe.err"; echo $? >"$TMP/pipe.st" ) | true
check "suck into a closed pipe exits 1" test "$(cat "$TMP/pipe.st")" = 1
check "suck into a closed pipe says so" grep -q 'writing the report' "$TMP/pipe.err"

done_tests
