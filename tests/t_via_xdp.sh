# blast --via xdp (blast/xdp.c): the frames --via packet builds, sent through an AF_XDP socket's
# TX ring (copy mode on veth) on a veth pair between two network namespaces made here, into
# suck -m mmsg in the other one. suck's valid is exactly blast's -n, nothing lost, the fins
# believed and the bytes exact, over IPv4 and IPv6, 64 and 1450 bytes, and with two flows on a
# pair of two queues; blast's frames add up: sent + fins == tx_frames + tx_outstanding, none
# outstanding. A SIGINT ends blast with its fins and every datagram it counted arrived; a
# SIGKILL takes the AF_XDP socket with it (the queue binds again at once); a copy of this test
# killed by SIGTERM while its blast runs leaves no namespace or process behind. Bad
# combinations exit 2; loopback, an unprivileged user and a kernel without AF_XDP sockets
# (tests/tools/nofeature) exit 4 with the reason. Without root or ip: the options and a SKIP
# line. Every address is in 198.18.0.0/15 or 2001:2::/48 inside the namespaces made here, which
# the trap removes; every blast is bounded by -n or -t, every suck by -t.
. tests/lib.sh

S=bs-vxdp-$$-s
R=bs-vxdp-$$-r
DS=bsvx$$s
DR=bsvx$$r
MS=bsvx$$t
MR=bsvx$$u
A4=198.18.0.2
A6=2001:2::2
M4=198.18.0.6
# shellcheck disable=SC2154 # p: the trap's loop
trap 'for p in $PIDS; do kill "$p" 2>/dev/null; done; ip netns del "$S" 2>/dev/null; ip netns del "$R" 2>/dev/null
	if [ "${KEEP:-0}" = 1 ]; then echo "kept $TMP"; else rm -rf "$TMP"; fi' EXIT

# bad ARGS... WANT: blast ARGS --check exits 2 and says WANT (before anything needs root).
bad() {
	want=$1
	shift
	"$BIN/blast" "$@" --check >/dev/null 2>"$TMP/bad.err"
	st=$?
	check "blast $*: exit 2 ($st: $(cat "$TMP/bad.err"))" test $st = 2
	check "blast $*: says '$want'" grep -qF -- "$want" "$TMP/bad.err"
}

# mkwire: the namespaces, a pair of one queue and one of two, their addresses, everything up.
mkwire() {
	ip netns add "$S" && ip netns add "$R" &&
	ip link add "$DS" netns "$S" type veth peer name "$DR" netns "$R" &&
	ip link add "$MS" netns "$S" numtxqueues 2 numrxqueues 2 type veth peer name "$MR" netns "$R" \
		numtxqueues 2 numrxqueues 2 &&
	ip -n "$S" addr add 198.18.0.1/30 dev "$DS" && ip -n "$R" addr add "$A4/30" dev "$DR" &&
	ip -n "$S" addr add 2001:2::1/64 dev "$DS" nodad && ip -n "$R" addr add "$A6/64" dev "$DR" nodad &&
	ip -n "$S" addr add 198.18.0.5/30 dev "$MS" && ip -n "$R" addr add "$M4/30" dev "$MR" || return 1
	for d in "$S lo" "$R lo" "$S $DS" "$R $DR" "$S $MS" "$R $MR"; do
		ip -n "${d%% *}" link set "${d#* }" up || return 1
	done
}

# --- a copy held by XDP_HOLD=FILE: the namespaces made, suck and a long blast started, their
# names and pids written to FILE; then it waits for the signal its parent sends
if [ -n "${XDP_HOLD:-}" ]; then
	mkwire || exit 1
	start_listener hold ip netns exec "$R" "$BIN/suck" -m mmsg -a "$A4" -p 0 -t 60 -o tsv || exit 1
	ip netns exec "$S" "$BIN/blast" --via xdp -a "$A4" -p "$PORT" -t 60 -r 1000 -o tsv >/dev/null 2>&1 &
	PIDS="$PIDS $!"
	echo "$S $R $LISTENER_PID $!" >"$XDP_HOLD.tmp" && mv "$XDP_HOLD.tmp" "$XDP_HOLD"
	wait
	exit 0
fi

# --- anywhere: the options
bad "--via 'frame'" --via frame
bad "--via xdp with --rtt" --via xdp --rtt
bad "--via xdp with a size mix" --via xdp -s 64:1,128:1
bad "--via xdp with --zerocopy" --via xdp --zerocopy
bad "--via xdp with a multicast group" --via xdp -a 239.255.0.1
bad "--via xdp with --pattern poisson" --via xdp --pattern poisson -r 1000
bad "--dev 'bs-no-such'" --via xdp --dev bs-no-such
bad "--dst-mac '02:62'" --via xdp --dst-mac 02:62
check "blast -h names xdp" sh -c "'$BIN/blast' -h | grep -q 'xdp: the same frames through an AF_XDP'"

# loopback: exit 4 with the reason (not root: the privilege is the reason)
"$BIN/blast" --via xdp --check >"$TMP/lo.out" 2>"$TMP/lo.err"
st=$?
check "loopback: exit 4 ($st: $(cat "$TMP/lo.err"))" test $st = 4
if [ "$(id -u)" -eq 0 ]; then
	check "loopback: says lo has no Ethernet header" grep -q '^blast: --via xdp: .* through lo, the loopback device' "$TMP/lo.err"
else
	check "not root: says it needs CAP_NET_RAW" grep -q 'needs CAP_NET_RAW (root)' "$TMP/lo.err"
fi
check "loopback: no row" test ! -s "$TMP/lo.out"

# a kernel without AF_XDP sockets: exit 4, said so
if "$BIN/nofeature" xdp true 2>/dev/null; then
	"$BIN/nofeature" xdp "$BIN/blast" --via xdp -a "$A4" --check >"$TMP/nf.out" 2>"$TMP/nf.err"
	st=$?
	check "no AF_XDP: exit 4 ($st: $(cat "$TMP/nf.err"))" test $st = 4
	check "no AF_XDP: says so" grep -q 'socket AF_XDP: .*this kernel offers no AF_XDP sockets' "$TMP/nf.err"
	check "no AF_XDP: no row" test ! -s "$TMP/nf.out"
else
	skip "no seccomp filter here: the kernel without AF_XDP not checked"
fi

# --- the veth pairs
need_root_ip "--via xdp on a veth pair"
if ! mkwire 2>"$TMP/ip.err"; then
	skip "cannot make the namespaces and the veth pairs here: $(head -n 1 "$TMP/ip.err")"
	done_tests
	exit
fi
inR() { ip netns exec "$R" "$@"; }
inS() { ip netns exec "$S" "$@"; }
inS "$BIN/blast" --via xdp -a "$A4" -p 9 --check -o tsv >"$TMP/chk.out" 2>"$TMP/chk.err"
st=$?
if [ $st = 4 ]; then
	skip "--via xdp is not offered here: $(cat "$TMP/chk.err")"
	done_tests
	exit
fi
MAC_R=$(ip -n "$R" link show "$DR" | awk '$1 == "link/ether" { print $2 }')
check "check: exit 0 ($st: $(cat "$TMP/chk.err"))" test $st = 0
check "check: via xdp dev $DS xdp_mode copy ($(field "$TMP/chk.out" via) $(field "$TMP/chk.out" dev) $(field "$TMP/chk.out" xdp_mode))" \
	test "$(field "$TMP/chk.out" via) $(field "$TMP/chk.out" dev) $(field "$TMP/chk.out" xdp_mode)" = "xdp $DS copy"

# frames FILE: blast's frames add up (sent + fins == tx_frames + tx_outstanding), none outstanding.
frames() {
	fb=$1
	check "$2: sent $(field "$fb" sent) + fins $(field "$fb" fins) == tx_frames $(field "$fb" tx_frames) + tx_outstanding $(field "$fb" tx_outstanding)" \
		test $(($(field "$fb" sent) + $(field "$fb" fins))) -eq $(($(field "$fb" tx_frames) + $(field "$fb" tx_outstanding)))
	check "$2: nothing outstanding ($(field "$fb" tx_outstanding))" test "$(field "$fb" tx_outstanding)" = 0
}

# pair NAME ADDR "SUCK ARGS" "BLAST ARGS" [DEV]: suck -m mmsg in R, blast --via xdp in S, to the
# fins: blast exits 0, suck ends on believed fins with every datagram valid, nothing lost.
pair() {
	# shellcheck disable=SC2086 # $3: words
	if ! start_listener "$1" ip netns exec "$R" "$BIN/suck" -m mmsg -a "$2" -p 0 -R 8M -o tsv -t 30 $3; then
		fail "$1: suck did not start"
		return 1
	fi
	# shellcheck disable=SC2086 # $4: words
	inS "$BIN/blast" --via xdp -a "$2" -p "$PORT" -o tsv $4 >"$TMP/$1.blast" 2>"$TMP/$1.berr"
	check "$1: blast exits 0 ($(head -n 1 "$TMP/$1.berr"))" test $? = 0
	check "$1: suck ends on the fins" wait_pid "$LISTENER_PID" 20
	b=$TMP/$1.blast s=$TMP/$1.out
	check "$1: stop fin ($(field "$s" stop)), sent not estimated" test "$(field "$s" stop) $(field "$s" sent_estimated)" = "fin 0"
	check "$1: suck's sent $(field "$s" sent) is blast's $(field "$b" sent)" test "$(field "$s" sent)" = "$(field "$b" sent)"
	check "$1: every datagram valid ($(field "$s" valid)), none lost ($(field "$s" lost)) or foreign ($(field "$s" foreign))" \
		test "$(field "$s" valid) $(field "$s" lost) $(field "$s" foreign)" = "$(field "$b" sent) 0 0"
	check "$1: bytes_check exact ($(field "$s" bytes_check))" test "$(field "$s" bytes_check)" = exact
	check "$1: via xdp on ${5:-$DS}, copy" test "$(field "$b" via) $(field "$b" dev) $(field "$b" xdp_mode)" = "xdp ${5:-$DS} copy"
	check "$1: no error ($(field "$b" error_detail))" test "$(field "$b" errors)" = 0
	frames "$b" "$1"
}

# --- exact: IPv4 and IPv6, 64 and 1450 bytes, paced, the neighbour asked for first
for a in "$A4" "$A6"; do
	for sz in 64 1450; do
		n=xdp-$a-$sz
		ip -n "$S" neigh flush dev "$DS" 2>/dev/null
		pair "$n" "$a" "" "-n 20000 -r 20k -s $sz" || continue
		check "$n: 20000 sent, size $sz" test "$(field "$TMP/$n.blast" sent) $(field "$TMP/$n.blast" size)" = "20000 $sz"
		check "$n: dst_mac is suck's end's ($(field "$TMP/$n.blast" dst_mac))" test "$(field "$TMP/$n.blast" dst_mac)" = "$MAC_R"
	done
done

# --- unpaced batches of 64, more than the kernel sends a kick (32): several kicks a batch, no
# refusal counted; 5000 datagrams of 64 bytes fit suck's 8 MiB buffer even unread
n=batch64
if pair $n "$A4" "" "-n 5000 -b 64 -s 64"; then
	c=$(field "$TMP/$n.blast" calls)
	check "$n: kicks ($c) at least one a batch (79), fewer than sent / 8" test "$c" -ge 79 -a "$c" -lt 625
	check "$n: no kick refused ($(field "$TMP/$n.blast" ring_refused))" test "$(field "$TMP/$n.blast" ring_refused)" = 0
fi

# --- a run key, two flows on two queues
n=keyed
BS_RUN_KEY=00112233445566778899aabbccddeeff
export BS_RUN_KEY
if pair $n "$M4" "" "-n 20000 -r 20k -j 2" "$MS"; then
	check "$n: both keyed" test "$(field "$TMP/$n.out" keyed) $(field "$TMP/$n.blast" keyed)" = "1 1"
	check "$n: 2 flows, no forged fin" test "$(field "$TMP/$n.out" flows) $(field "$TMP/$n.out" forged_fins)" = "2 0"
fi
unset BS_RUN_KEY

# --- -j above the device's TX queues: exit 2 with the largest; -s beyond the MTU: exit 2
inS "$BIN/blast" --via xdp -a "$A4" -j 2 --check >/dev/null 2>"$TMP/j.err"
check "-j 2 on one queue: exit 2 ($(cat "$TMP/j.err"))" test $? = 2
check "... naming -j and the largest" grep -q '^blast: -j 2 with --via xdp on .*accepted: -j 1 or less' "$TMP/j.err"
inS "$BIN/blast" --via xdp -a "$A4" -s 1473 --check >/dev/null 2>"$TMP/mtu.err"
check "-s 1473 over an MTU of 1500: exit 2 ($(cat "$TMP/mtu.err"))" test $? = 2
check "... naming -s and the largest" grep -q '^blast: -s 1473 with --via xdp on .*accepted: -s 1472 or less' "$TMP/mtu.err"
if command -v setpriv >/dev/null 2>&1; then
	inS setpriv --reuid=65534 --regid=65534 --clear-groups "$BIN/blast" --via xdp -a "$A4" --check \
		>/dev/null 2>"$TMP/priv.err"
	st=$?
	check "unprivileged: exit 4 ($st: $(cat "$TMP/priv.err"))" test $st = 4
	check "unprivileged: says it needs CAP_NET_RAW" grep -q 'socket AF_XDP: .*needs CAP_NET_RAW (root)' "$TMP/priv.err"
else
	skip "no setpriv: the unprivileged refusal not checked"
fi

# --- SIGINT: blast stops, sends its fins, and every datagram it counted arrived
n=sigint
! sigint_via xdp 8M || frames "$TMP/$n.blast" "$n"

# --- SIGKILL: the socket goes with the process, so its queue binds again at once
n=sigkill
if start_listener $n ip netns exec "$R" "$BIN/suck" -m mmsg -a "$A4" -p 0 -o tsv -t 30 -i 0.05; then
	ip netns exec "$S" "$BIN/blast" --via xdp -a "$A4" -p "$PORT" -o tsv -t 20 -r 20000 >/dev/null 2>&1 &
	bp=$!
	PIDS="$PIDS $bp"
	wait_received "$n"
	kill -KILL $bp
	check "$n: blast is gone" wait_pid $bp 5
	inS "$BIN/blast" --via xdp -a "$A4" -p 9 --check >/dev/null 2>"$TMP/$n.err"
	check "$n: queue 0 of $DS binds again ($(cat "$TMP/$n.err"))" test $? = 0
	kill "$LISTENER_PID" 2>/dev/null
	check "$n: suck ends on SIGTERM" wait_pid "$LISTENER_PID" 10
	check "$n: suck received some ($(field "$TMP/$n.out" received))" test "$(field "$TMP/$n.out" received)" -gt 0
else
	fail "$n: suck did not start"
fi

# --- a copy of this test, SIGTERM while its blast sends: its namespaces and processes go
n=hold
held_copy XDP_HOLD

done_tests
