# blast -r: a paced run sends at most rate x time + one call's worth over all flows, reports
# rate_pct near 100 from 1/s up, and ends at -t or on a signal even when every flow sleeps
# for seconds between datagrams. Time bounds are generous: the machine may be busy.
. tests/lib.sh

in_range() { # value low high
	awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v != "" && v >= lo && v <= hi) }'
}

# paced NAME MAX-SENT PCT-LOW SECS BLAST-ARGS...: blast into a fresh suck, ending within SECS;
# blast's sent at most MAX-SENT, rate_pct in PCT-LOW..110 (PCT-LOW "-": no lower bound; "none":
# not checked, for runs shorter than one datagram's interval), suck ends on the fins with
# blast's count.
paced() {
	p_n=$1 p_max=$2 p_lo=$3 p_secs=$4
	shift 4
	if ! start_suck "$p_n" -w none -o tsv -t 60; then
		fail "$p_n: suck did not start"
		return
	fi
	"$BIN/blast" -p "$PORT" "$@" -o tsv >"$TMP/$p_n.blast" 2>"$TMP/$p_n.berr" &
	p_pid=$!
	PIDS="$PIDS $p_pid"
	if ! wait_pid "$p_pid" "$p_secs"; then
		fail "$p_n: blast $* still runs after $p_secs s"
		kill "$p_pid" 2>/dev/null
		return
	fi
	ok
	B=$TMP/$p_n.blast
	p_sent=$(field "$B" sent) p_pct=$(field "$B" rate_pct)
	check "$p_n: blast stopped on time ($(field "$B" stop))" test "$(field "$B" stop)" = time -o "$(field "$B" stop)" = count
	check "$p_n: sent $p_sent, at most $p_max" test "${p_sent:-999999999}" -le "$p_max"
	[ "$p_lo" = - ] && p_lo=0
	[ "$p_lo" = none ] || check "$p_n: rate_pct $p_pct in $p_lo..110" in_range "$p_pct" "$p_lo" 110
	check "$p_n: suck ends on the fins" wait_pid "$SUCK_PID" 10
	check "$p_n: suck stopped on the fins" test "$(field "$TMP/$p_n.out" stop)" = fin
	check "$p_n: suck's sent is blast's" test "$(field "$TMP/$p_n.out" sent)" = "$p_sent"
}

# rate x time + one call (-b 32) at most; the low rates within 10 % of the rate.
paced r1 34 90 6 -r 1 -t 2
paced r10 42 90 5 -r 10 -t 1
paced r1000j4 1032 90 5 -r 1000 -t 1 -j 4
paced n10 10 90 5 -r 10 -n 10
paced r20kj3 10032 - 5 -r 20k -t 0.5 -j 3
# 64 flows at one datagram a second in all: most flows have nothing due before -t.
paced r1j64 32 none 2 -r 1 -j 64 -t 0.1

# A signal ends a paced run at once, whichever thread it reaches; the report and fins follow.
for j in 1 8; do
	n=sig-j$j
	start_suck "$n" -w none -o tsv -i 0.05 -t 60 || { fail "$n: suck did not start"; continue; }
	"$BIN/blast" -p "$PORT" -r 1 -j $j -t 60 -o tsv >"$TMP/$n.blast" 2>"$TMP/$n.berr" &
	BPID=$!
	PIDS="$PIDS $BPID"
	wait_received "$n" # the first datagram goes at the start: blast is past its setup
	kill -INT "$BPID"
	check "$n: SIGINT ends blast -r 1 -j $j -t 60 within 2 s" wait_pid "$BPID" 2
	wait "$BPID" 2>/dev/null
	check "$n: blast exits 0" test $? -eq 0
	check "$n: the report says signal" test "$(field "$TMP/$n.blast" stop)" = signal
	check "$n: suck ends on the fins" wait_pid "$SUCK_PID" 10
	check "$n: counts agree" test "$(field "$TMP/$n.out" sent)" = "$(field "$TMP/$n.blast" sent)"
	kill "$BPID" 2>/dev/null
done

done_tests
