# suck -j owns its SO_REUSEPORT group: a port that already has a listener of
# any kind is refused (exit 1, the port named), and a process that joins the group later with
# SO_REUSEPORT (bin/joiner) receives no datagram of the run while suck counts every one. Before, two
# suck -j 2 on one port both started and split one blast's datagrams and fins.
. tests/lib.sh

refused() { # name args...: suck ARGS exits 1 naming the port in use, and prints no report
	rn=$1; shift
	"$BIN/suck" "$@" -t 2 -o tsv >"$TMP/$rn.out" 2>"$TMP/$rn.err" </dev/null
	st=$?
	check "$rn: exit 1 ($st): $(head -n 2 "$TMP/$rn.err")" test $st = 1
	check "$rn: names the port in use" grep -q "^suck: bind [^ ]*:$P: Address already in use" "$TMP/$rn.err"
	check "$rn: never listening" sh -c "! grep -q 'listening on' '$TMP/$rn.err'"
	check "$rn: no report" test ! -s "$TMP/$rn.out"
}

# A second suck on a suck -j 2's port, with -j 2 or without, and its --check: refused.
n=second
start_suck "$n" -j 2 -t 30 -o tsv || fail "$n: suck did not start"
P=$PORT
refused "$n-j2" -p "$P" -j 2
refused "$n-j4" -p "$P" -j 4 -m mmsg
refused "$n-j1" -p "$P"
refused "$n-check" -p "$P" -j 2 --check
kill -INT "$SUCK_PID"
wait_pid "$SUCK_PID" 10

# A SO_REUSEPORT group that was there first: suck -j 2 does not join it.
n=group-first
start_listener "$n" "$BIN/joiner" 127.0.0.1 0 30 || fail "$n: joiner did not start"
P=$PORT
JPID=$LISTENER_PID
refused "$n" -p "$P" -j 2
kill "$JPID"
wait_pid "$JPID" 10

# A joiner after suck: its bind goes through (the group has SO_REUSEPORT), but the reuseport
# program hands every datagram to one of suck's two sockets, so it receives none, and suck
# counts everything and ends on the fins. 8 flows over two sockets, on every variant.
for addr in 127.0.0.1 ::1; do
	if [ $addr = ::1 ] && ! "$BIN/suck" --check -a ::1 -p 0 >/dev/null 2>&1; then
		skip "no IPv6 here"
		continue
	fi
	for v in $(variants); do
		# t, not n: start_listener sets n
		t=joiner-$v-$addr
		start_suck "$t" -a $addr -j 2 -m "$v" -R 4M -o tsv -t 30 ||
			{ skip "$t: $(cat "$TMP/$t.err")"; continue; }
		SPID=$SUCK_PID
		P=$PORT
		start_listener "$t-joiner" "$BIN/joiner" $addr "$P" 30 || fail "$t: the joiner could not join"
		JPID=$LISTENER_PID
		# blast in the background: it repeats its fins until a closed port refuses them, and the
		# joiner holds the port until it is ended here, once suck is done
		"$BIN/blast" -a $addr -p "$P" -j 8 -s 200 -n 16000 -r 40k -o tsv >"$TMP/$t.blast" 2>"$TMP/$t.berr" &
		BPID=$!
		PIDS="$PIDS $BPID"
		check "$t: suck ends on the fins" wait_pid "$SPID" 20
		kill "$JPID" 2>/dev/null
		wait_pid "$JPID" 10
		check "$t: blast ends once the port refuses its fins" wait_pid "$BPID" 10
		S=$TMP/$t.out
		check "$t: stop fin ($(field "$S" stop))" test "$(field "$S" stop)" = fin
		check "$t: sent 16000 from the fins ($(field "$S" sent), estimated $(field "$S" sent_estimated))" \
			test "$(field "$S" sent)" = 16000 -a "$(field "$S" sent_estimated)" = 0
		check "$t: 8 flows" test "$(field "$S" flows)" = 8
		check "$t: no foreign" test "$(field "$S" foreign)" = 0
		if [ "$(field "$S" kernel_drops)" = 0 ]; then
			check "$t: every datagram valid ($(field "$S" valid))" test "$(field "$S" valid)" = 16000
		fi
		# data only: the fins blast repeats after suck has closed its sockets go to the joiner,
		# the one left on the port; the fins that counted are in suck's stop and flows
		jd=$(cut -d ' ' -f 1 "$TMP/$t-joiner.out")
		check "$t: the joiner received no data (${jd:-nothing printed})" test "$jd" = 0
	done
done

done_tests
