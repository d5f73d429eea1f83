# suck at its limits: fins read whatever -s is; rss_kib is suck's
# own peak, not the parent's; -t and signals honoured with slow work; a failing thread named once.
. tests/lib.sh

# 5. A fin (58 bytes) is longer than -s 1..57, on every variant: suck still ends on it.
for v in $(variants); do
	for s in 1 40 57; do
		n=fin-s$s-$v
		start_suck "$n" -m $v -s $s -R 4M -o tsv -t 30 || { skip "$n: $(cat "$TMP/$n.err")"; continue; }
		"$BIN/blast" -p "$PORT" -s 32 -n 100 -r 10k -o tsv >"$TMP/$n.blast" 2>/dev/null
		check "$n: suck ends" wait_pid "$SUCK_PID" 20
		S=$TMP/$n.out
		check "$n: stop fin ($(field "$S" stop))" test "$(field "$S" stop)" = fin
		check "$n: sent from the fin" test "$(field "$S" sent)" = 100 -a "$(field "$S" sent_estimated)" = 0
		if [ "$(field "$S" kernel_drops)" = 0 ]; then
			if [ $s -lt 32 ]; then
				check "$n: every datagram truncated" test "$(field "$S" truncated)" = 100
			else
				check "$n: every datagram valid" test "$(field "$S" valid)" = 100
			fi
		fi
		check "$n: the fin is not foreign" test "$(field "$S" foreign)" = 0
	done
done

# 6. rss_kib is the tool's own peak: started by a process that held 400 MiB, suck and blast
# report far less (ru_maxrss would report the 400 MiB). The bound leaves room for sanitizers.
n=rss
start_listener "$n" "$BIN/hog" 400 "$BIN/suck" -p 0 -o tsv -t 30 || fail "$n: suck did not start"
"$BIN/hog" 400 "$BIN/blast" -p "$PORT" -s 100 -n 100 -o tsv >"$TMP/$n.blast" 2>/dev/null
check "$n: suck ends" wait_pid "$LISTENER_PID" 20
check "$n: suck's rss_kib $(field "$TMP/$n.out" rss_kib) < 200000" test "$(field "$TMP/$n.out" rss_kib)" -lt 200000
check "$n: suck's rss_kib > 0" test "$(field "$TMP/$n.out" rss_kib)" -gt 0
check "$n: blast's rss_kib $(field "$TMP/$n.blast" rss_kib) < 200000" test "$(field "$TMP/$n.blast" rss_kib)" -lt 200000

# 8. Slow work: 400 bytes x 1000000 passes a datagram takes a good fraction of a second. Before,
# suck checked -t and signals every 64 datagrams (or every batch of 64): tens of seconds late.
for v in buffer mmsg epoll pool; do
	b=""; [ $v = mmsg ] && b="-b 64"
	n=slow-time-$v
	# shellcheck disable=SC2086
	start_suck "$n" -m $v $b -w histogram:1000000 -R 4M -o tsv -t 1 || fail "$n: suck did not start"
	"$BIN/blast" -p "$PORT" -s 400 -n 200 -o tsv >"$TMP/$n.blast" 2>/dev/null
	check "$n: -t 1 ends within 8 s" wait_pid "$SUCK_PID" 8
	check "$n: stop time" test "$(field "$TMP/$n.out" stop)" = time
	n=slow-signal-$v
	# shellcheck disable=SC2086
	start_suck "$n" -m $v $b -w histogram:1000000 -R 4M -o tsv || fail "$n: suck did not start"
	"$BIN/blast" -p "$PORT" -s 400 -n 200 -o tsv >"$TMP/$n.blast" 2>/dev/null
	kill -INT "$SUCK_PID"
	check "$n: SIGINT honoured within 8 s" wait_pid "$SUCK_PID" 8
	check "$n: stop signal" test "$(field "$TMP/$n.out" stop)" = signal
done

# 13. One thread fails (malloc under a memory limit, copy keeping every datagram alive): its
# call and errno are named once, the others do not print "(null): Success".
n=thread-error
if (ulimit -v 200000 && "$BIN/suck" -V) >/dev/null 2>&1; then
	(ulimit -v 200000 && exec "$BIN/suck" -p 0 -m copy -j 2 --retain 100000 -s 2000 -R 8M -o tsv -t 30) \
		>"$TMP/$n.out" 2>"$TMP/$n.err" &
	SPID=$!
	PIDS="$PIDS $SPID"
	i=0
	while ! grep -q 'listening on' "$TMP/$n.err" && [ $i -lt 1000 ]; do i=$((i + 1)); sleep 0.01; done
	PORT=$(sed -n 's/.*listening on .*:\([0-9][0-9]*\)$/\1/p' "$TMP/$n.err")
	"$BIN/blast" -p "$PORT" -s 1400 -j 8 -t 20 -r 200k -o tsv >"$TMP/$n.blast" 2>/dev/null &
	BPID=$!
	PIDS="$PIDS $BPID"
	wait_pid "$SPID" 30
	st=$?
	kill "$BPID" 2>/dev/null
	check "$n: suck ended" test $st = 0
	wait "$SPID"
	check "$n: exit 1" test $? = 1
	check "$n: the failed call named: $(grep -v listening "$TMP/$n.err" | head -n 3)" grep -q "suck: malloc: Cannot allocate memory" "$TMP/$n.err"
	check "$n: named once" test "$(grep -c "suck: malloc" "$TMP/$n.err")" = 1
	check "$n: no (null)" sh -c "! grep -q null '$TMP/$n.err'"
	check "$n: a report" test "$(field "$TMP/$n.out" stop)" = error
else
	skip "$n: suck does not start under ulimit -v (a sanitizer build)"
fi

done_tests
