# suck --one-socket: -j N threads on one shared socket, their batches counted under
# one lock into one tracker. Exact on loopback, IPv4 and IPv6: one flow split between two
# threads is one flow (no other_src, every datagram valid once), sent and bytes from the fins,
# the identities; bin/inject's duplicates, reordered datagrams, losses of known lengths and
# hostile datagrams counted as one thread counts them; --latency and --marks per valid datagram;
# the threads' counts add up (thread_received_min + max = received with two); a signal and -t
# end it with a report. The combinations it refuses, exit 2 with a message, and --check.
. tests/lib.sh

RUN=305419896 # 0x12345678

# identities FILE NAME: the accounting identities of a tsv report
identities() {
	f=$1 n=$2
	check "$n: sent $(field "$f" sent) == valid $(field "$f" valid) + lost $(field "$f" lost)" \
		test "$(field "$f" sent)" -eq $(($(field "$f" valid) + $(field "$f" lost)))
	check "$n: received == valid + dup + late + foreign + truncated" test "$(field "$f" received)" -eq \
		$(($(field "$f" valid) + $(field "$f" dup) + $(field "$f" late) + $(field "$f" foreign) + $(field "$f" truncated)))
	check "$n: lost == dropped + queue_dropped + elsewhere" test "$(field "$f" lost)" -eq \
		$(($(field "$f" dropped) + $(field "$f" queue_dropped) + $(field "$f" elsewhere)))
	check "$n: one_socket 1" test "$(field "$f" one_socket)" = 1
}
# shares FILE NAME: two threads' counts add up to received
shares() {
	check "$1: thread_received_min $(field "$1" thread_received_min) + max $(field "$1" thread_received_max) = received $(field "$1" received)" \
		test $(($(field "$1" thread_received_min) + $(field "$1" thread_received_max))) -eq "$(field "$1" received)"
}

# --- Refused: exit 2, the option named; nothing listens
refused() { # name says args...
	rn=$1 rs=$2
	shift 2
	"$BIN/suck" -p 0 -t 1 "$@" >"$TMP/$rn.out" 2>"$TMP/$rn.err" </dev/null
	st=$?
	check "$rn: exit 2 ($st): $(head -n 1 "$TMP/$rn.err")" test $st = 2
	check "$rn: says \"$rs\"" grep -qF -- "$rs" "$TMP/$rn.err"
	check "$rn: never listening" sh -c "! grep -q 'listening on' '$TMP/$rn.err'"
}
refused no-j "give -j 2 or more" -m mmsg --one-socket
refused j1 "give -j 2 or more" -m mmsg -j 1 --one-socket
for v in copy buffer gro uring epoll pool xdp; do
	refused "variant-$v" "--one-socket applies to -m mmsg; $v" -m "$v" -j 2 --one-socket
done
refused serve "--one-socket with --serve" -m mmsg -j 2 --one-socket --serve
refused senders "--one-socket with --senders" -m mmsg -j 2 --one-socket --senders 2
refused jitter "--one-socket with --jitter" -m mmsg -j 2 --one-socket --jitter
refused echo "--one-socket with --echo" -m mmsg -j 2 --one-socket --echo
refused join "--one-socket with --join" -m mmsg -j 2 --one-socket --join 239.255.0.1 -a 127.0.0.1
refused check "give -j 2 or more" -m mmsg --one-socket --check

# --check: the row says it, and no SO_REUSEPORT group is left behind (the port is free)
"$BIN/suck" --check -p 0 -m mmsg -j 2 --one-socket -o tsv >"$TMP/check.tsv" 2>"$TMP/check.err"
check "--check -j 2 --one-socket: exit 0 ($(cat "$TMP/check.err"))" test $? = 0
check "--check: one_socket 1, threads 2" test "$(field "$TMP/check.tsv" one_socket) $(field "$TMP/check.tsv" threads)" = "1 2"
"$BIN/suck" --check -p 0 -m mmsg -j 2 -o tsv >"$TMP/check0.tsv" 2>/dev/null
check "--check without it: one_socket 0" test "$(field "$TMP/check0.tsv" one_socket)" = 0

# --- Real blasts, IPv4 and IPv6: one flow split between the threads; three flows
for addr in 127.0.0.1 ::1; do
	if [ $addr = ::1 ] && ! "$BIN/suck" --check -a ::1 -p 0 >/dev/null 2>&1; then
		skip "no IPv6 here"
		continue
	fi
	for flows in 1 3; do
		n=blast-$addr-j$flows
		start_suck "$n" -a $addr -m mmsg -b 64 -j 2 --one-socket -R 4M -o tsv --idle 10 -t 60 ||
			{ fail "$n: suck did not start"; continue; }
		"$BIN/blast" -a $addr -p "$PORT" -j $flows -s 200 -n 30000 -r 60k -o tsv >"$TMP/$n.blast" 2>"$TMP/$n.berr"
		check "$n: blast exit 0 ($(tail -n 1 "$TMP/$n.berr"))" test $? = 0
		check "$n: suck ends on the fins" wait_pid "$SUCK_PID" 30
		S=$TMP/$n.out
		check "$n: stop fin ($(field "$S" stop))" test "$(field "$S" stop)" = fin
		check "$n: sent 30000 from the fins ($(field "$S" sent), estimated $(field "$S" sent_estimated))" \
			test "$(field "$S" sent) $(field "$S" sent_estimated)" = "30000 0"
		check "$n: $flows flow(s), a fin each at least (fins $(field "$S" fins), repeats counted)" \
			test "$(field "$S" flows)" = "$flows" -a "$(field "$S" fins)" -ge "$flows"
		check "$n: no foreign: a flow is its source's, whichever thread took it ($(field "$S" foreign), other_src $(field "$S" other_src))" \
			test "$(field "$S" foreign)" = 0
		check "$n: no dup, none late" test "$(field "$S" dup) $(field "$S" late)" = "0 0"
		identities "$S" "$n"
		shares "$S"
		check "$n: threads 2" test "$(field "$S" threads)" = 2
		if [ "$(field "$S" kernel_drops)" = 0 ]; then
			check "$n: every datagram valid ($(field "$S" valid))" test "$(field "$S" valid)" = 30000
			check "$n: bytes 200 x 30000 ($(field "$S" bytes)), bytes_check exact" \
				test "$(field "$S" bytes) $(field "$S" bytes_check)" = "6000000 exact"
		else
			skip "$n: the kernel dropped $(field "$S" kernel_drops); every-datagram checks not made"
		fi
	done
done

# Both threads take datagrams: slow work on a burst keeps one busy while the other receives.
# Without --one-socket, one flow goes to one socket of the group: the other thread gets none.
n=split
start_suck "$n" -m mmsg -j 2 --one-socket -w histogram:20 -R 8M -o tsv --idle 10 -t 60 || fail "$n: suck did not start"
"$BIN/blast" -p "$PORT" -s 1000 -n 20000 -o tsv >/dev/null 2>&1
check "$n: suck ends" wait_pid "$SUCK_PID" 40
S=$TMP/$n.out
check "$n: both threads received (min $(field "$S" thread_received_min), max $(field "$S" thread_received_max))" \
	test "$(field "$S" thread_received_min)" -gt 0
shares "$S"
identities "$S" "$n"
check "$n: no foreign" test "$(field "$S" foreign)" = 0
n=reuseport
start_suck "$n" -m mmsg -j 2 -R 4M -o tsv --idle 10 -t 60 || fail "$n: suck did not start"
"$BIN/blast" -p "$PORT" -s 200 -n 3000 -r 30k -o tsv >/dev/null 2>&1
check "$n: suck ends" wait_pid "$SUCK_PID" 30
S=$TMP/$n.out
check "$n: one flow on one socket: thread_received_min 0, max = received ($(field "$S" thread_received_max))" \
	test "$(field "$S" thread_received_min) $(field "$S" thread_received_max)" = "0 $(field "$S" received)"
check "$n: one_socket 0" test "$(field "$S" one_socket)" = 0

# Three threads: every share between the least and the most.
n=three
start_suck "$n" -m mmsg -j 3 --one-socket -R 4M -o tsv --idle 10 -t 60 || fail "$n: suck did not start"
"$BIN/blast" -p "$PORT" -j 2 -s 300 -n 9000 -r 40k -o tsv >/dev/null 2>&1
check "$n: suck ends" wait_pid "$SUCK_PID" 30
S=$TMP/$n.out
r=$(field "$S" received) lo=$(field "$S" thread_received_min) hi=$(field "$S" thread_received_max)
check "$n: 3 x min $lo <= received $r <= 3 x max $hi" test $((3 * lo)) -le "$r" -a "$r" -le $((3 * hi))
identities "$S" "$n"

# --- bin/inject: duplicates and reordering, losses of known lengths, hostile datagrams
for v6 in '' 1; do
	addr=127.0.0.1
	[ -z "$v6" ] || addr=::1
	if [ -n "$v6" ] && ! "$BIN/suck" --check -a ::1 -p 0 >/dev/null 2>&1; then continue; fi
	n=replay-$addr
	start_suck "$n" -a $addr -m mmsg -j 2 --one-socket -R 4M -o tsv --idle 10 -t 60 || fail "$n: suck did not start"
	INJECT_V6=$v6 "$BIN/inject" script "$PORT" $RUN 1450 6000 >"$TMP/$n.inj"
	check "$n: suck ends on the fin" wait_pid "$SUCK_PID" 30
	S=$TMP/$n.out I=$TMP/$n.inj
	if [ "$(field "$S" kernel_drops)" = 0 ]; then
		# reordered is not compared: the threads reorder too (one.c)
		for k in valid dup sent; do
			check "$n: $k $(field "$S" $k) = $(field "$I" $k)" test "$(field "$S" $k)" = "$(field "$I" $k)"
		done
		check "$n: lost 0, late 0" test "$(field "$S" lost) $(field "$S" late)" = "0 0"
	else
		skip "$n: the kernel dropped $(field "$S" kernel_drops); exact counts not compared"
	fi
	identities "$S" "$n"
	shares "$S"

	n=runs-$addr
	start_suck "$n" -a $addr -m mmsg -j 2 --one-socket -R 4M -o tsv --idle 5 -t 60 || fail "$n: suck did not start"
	INJECT_V6=$v6 "$BIN/inject" runs "$PORT" 4242 200 >"$TMP/$n.inj"
	check "$n: suck ends" wait_pid "$SUCK_PID" 30
	if [ "$(field "$TMP/$n.out" kernel_drops)" = 0 ]; then
		for k in lost loss_runs loss_run_max loss_runs_1 loss_runs_2_3 loss_runs_4_15 loss_runs_16_up; do
			check "$n: $k $(field "$TMP/$n.out" $k), want $(field "$TMP/$n.inj" $k)" \
				test "$(field "$TMP/$n.out" $k)" = "$(field "$TMP/$n.inj" $k)"
		done
	else
		skip "$n: the kernel dropped $(field "$TMP/$n.out" kernel_drops); loss runs not compared"
	fi
	identities "$TMP/$n.out" "$n"
done

n=hostile
start_suck "$n" -m mmsg -j 2 --one-socket -s 4000 -R 4M -i 0.1 -o tsv --idle 10 -t 60 || fail "$n: suck did not start"
"$BIN/blast" -p "$PORT" --run-id $RUN -s 1000 -n 8000 -r 10k -o tsv >"$TMP/$n.blast" 2>/dev/null &
BPID=$!
PIDS="$PIDS $BPID"
wait_received "$n"
"$BIN/inject" hostile "$PORT" $RUN 1000 >"$TMP/$n.inj"
check "$n: blast ends" wait_pid "$BPID" 30
check "$n: suck ends on the real fin" wait_pid "$SUCK_PID" 30
S=$TMP/$n.out
check "$n: stop fin" test "$(field "$S" stop)" = fin
check "$n: the real run's sent" test "$(field "$S" sent)" = "$(field "$TMP/$n.blast" sent)"
if [ "$(field "$S" kernel_drops)" = 0 ]; then
	check "$n: foreign = injected ($(field "$S" foreign) vs $(field "$TMP/$n.inj" foreign))" \
		test "$(field "$S" foreign)" = "$(field "$TMP/$n.inj" foreign)"
	check "$n: truncated = injected" test "$(field "$S" truncated)" = "$(field "$TMP/$n.inj" truncated)"
	check "$n: nothing lost" test "$(field "$S" lost)" = 0
else
	skip "$n: the kernel dropped $(field "$S" kernel_drops); exact class counts not compared"
fi
identities "$S" "$n"
shares "$S"
check "$n: -i rows on stderr" grep -q '^suck	' "$TMP/$n.err"

# --- --latency: every valid datagram sampled, whichever thread took it; --marks: 3 in 10
n=latency
start_suck "$n" -m mmsg -j 2 --one-socket --latency -R 4M -o tsv --idle 10 -t 60 || fail "$n: suck did not start"
"$BIN/inject" script "$PORT" 4242 1450 2000 >"$TMP/$n.inj"
check "$n: suck ends" wait_pid "$SUCK_PID" 30
S=$TMP/$n.out
check "$n: lat_samples $(field "$S" lat_samples) == valid $(field "$S" valid)" \
	test "$(field "$S" lat_samples)" = "$(field "$S" valid)" -a "$(field "$S" valid)" -gt 0
check "$n: a delay measured ($(field "$S" lat_p50_us))" test "$(field "$S" lat_p50_us)" != -
n=marks
start_suck "$n" -m mmsg -j 2 --one-socket --marks -R 4M -o tsv --idle 10 -t 60 || fail "$n: suck did not start"
"$BIN/inject" marks "$PORT" 4242 200 1000 >"$TMP/$n.inj"
check "$n: suck ends" wait_pid "$SUCK_PID" 30
S=$TMP/$n.out
if [ "$(field "$S" kernel_drops)" = 0 ]; then
	# the first valid datagram counted sets the marking held against the rest; with two threads
	# that is the first to take the lock, which may be a remarked one: then the others changed
	v=$(field "$S" valid) c=$(field "$TMP/$n.inj" marks_changed)
	case $(field "$S" tos) in
	32) want=$c ;;
	72) want=$((v - c)) ;;
	*) want="tos 32 or 72" ;;
	esac
	check "$n: marks_changed $(field "$S" marks_changed) = $want (first counted tos $(field "$S" tos); injected $c of $v)" \
		test "$(field "$S" marks_changed)" = "$want"
else
	skip "$n: the kernel dropped $(field "$S" kernel_drops); marks not compared"
fi

# --- The stops: SIGINT in a flood, -t with nothing sent; a report each time
n=sigint
start_suck "$n" -m mmsg -j 2 --one-socket -i 0.05 -o tsv -t 60 || fail "$n: suck did not start"
"$BIN/blast" -p "$PORT" -s 200 -t 30 -o tsv >/dev/null 2>&1 &
BPID=$!
PIDS="$PIDS $BPID"
wait_received "$n"
kill -INT "$SUCK_PID"
check "$n: suck ends on SIGINT" wait_pid "$SUCK_PID" 10
kill "$BPID" 2>/dev/null
wait_pid "$BPID" 10
S=$TMP/$n.out
check "$n: stop signal ($(field "$S" stop))" test "$(field "$S" stop)" = signal
check "$n: received some ($(field "$S" received))" test "$(field "$S" received)" -gt 0
identities "$S" "$n"
shares "$S"
n=time
"$BIN/suck" -p 0 -m mmsg -j 2 --one-socket -t 0.2 -o tsv >"$TMP/$n.out" 2>"$TMP/$n.err"
check "$n: -t 0.2 with nothing sent: exit 0, stop time" test $? = 0 -a "$(field "$TMP/$n.out" stop)" = time
check "$n: nothing received, shares 0" \
	test "$(field "$TMP/$n.out" received) $(field "$TMP/$n.out" thread_received_min) $(field "$TMP/$n.out" thread_received_max)" = "0 0 0"

done_tests
