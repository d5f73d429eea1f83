# suck -m xdp on a wire path of its own: two network namespaces joined by a veth
# pair (one queue; a second pair of two queues for -j 2), native XDP on the receiving end.
# The accounting is exact on IPv4 and IPv6, paced and overloaded (every loss in dropped, from
# XDP_STATISTICS); ARP, ICMP, neighbour discovery and other ports reach the stack while suck
# runs; the program is gone from the device after a normal end, SIGINT and SIGKILL (a BPF link)
# and after a normal end and SIGINT with the netlink fallback; a verifier refusal is printed
# with the verifier's log. Without root or namespaces: the loopback refusal (exit 4) and the
# options only, and a SKIP line. Every address is in 198.18.0.0/15 or 2001:2::/48, inside the
# namespaces made here, which the trap removes; every blast is bounded by -n.
. tests/lib.sh

S=bs-xdp-$$-s
R=bs-xdp-$$-r
DS=bsx$$s
DR=bsx$$r
MS=bsx$$t
MR=bsx$$u
A4=198.18.0.2
A6=2001:2:0:1::2
M4=198.18.0.6
trap 'for p in $PIDS; do kill "$p" 2>/dev/null; done; ip netns del "$S" 2>/dev/null; ip netns del "$R" 2>/dev/null
	if [ "${KEEP:-0}" = 1 ]; then echo "kept $TMP"; else rm -rf "$TMP"; fi' EXIT

# --- anywhere: loopback has no native XDP (exit 4, quickly, with the reason); the options
"$BIN/suck" -m xdp -p 0 --check >"$TMP/lo.out" 2>"$TMP/lo.err"
st=$?
check "loopback: suck --check -m xdp exits 4 (got $st: $(cat "$TMP/lo.err"))" test $st = 4
check "loopback: the message says why" grep -q '^suck: -m xdp: lo is the loopback device, which has no native XDP' "$TMP/lo.err"
check "loopback: no row" test ! -s "$TMP/lo.out"
# one reason, the true one: the kernel offers XDP, lo lacks it natively (not "this kernel does
# not offer it", which a table's note would carry beside the first)
check "loopback: one reason, one line ($(cat "$TMP/lo.err"))" test "$(wc -l <"$TMP/lo.err")" -eq 1
check "loopback: not 'this kernel does not offer it'" sh -c "! grep -q 'does not offer it' '$TMP/lo.err'"
"$BIN/suck" -m xdp -a ::1 -p 0 -t 1 >/dev/null 2>&1
check "loopback: a run on ::1 exits 4 too" test $? = 4
"$BIN/suck" -m mmsg --xdp-dev eth0 --check >/dev/null 2>"$TMP/o.err"
check "--xdp-dev with -m mmsg: exit 2 ($(cat "$TMP/o.err"))" sh -c "test $? = 2 && grep -q 'xdp-dev applies to -m xdp only' '$TMP/o.err'"
"$BIN/suck" -m buffer --xdp-zc --check >/dev/null 2>"$TMP/o.err"
check "--xdp-zc with -m buffer: exit 2" test $? = 2
"$BIN/suck" -m xdp --xdp-dev a/b --check >/dev/null 2>"$TMP/o.err"
check "--xdp-dev a/b: exit 2" test $? = 2
"$BIN/suck" -m xdp -a 0.0.0.0 -p 0 --check >/dev/null 2>"$TMP/o.err"
st=$?
check "-a 0.0.0.0 without --xdp-dev: exit 2 ($st: $(cat "$TMP/o.err"))" test $st = 2
check "... naming --xdp-dev" grep -q 'name the receiving device with --xdp-dev' "$TMP/o.err"
"$BIN/suck" -m xdp -p 0 --xdp-dev bs-no-such --check >/dev/null 2>"$TMP/o.err"
check "--xdp-dev of no device: exit 2 ($(cat "$TMP/o.err"))" test $? = 2
check "suck -m list names xdp" sh -c "'$BIN/suck' -m list | cut -f 1 | grep -qx xdp"

# --- the wire path
need_root_ip "-m xdp on a veth pair"
# mkwire: the namespaces, both pairs, their addresses, everything up.
mkwire() {
	ip netns add "$S" && ip netns add "$R" &&
	ip link add "$DS" netns "$S" type veth peer name "$DR" netns "$R" &&
	ip link add "$MS" netns "$S" numtxqueues 2 numrxqueues 2 type veth peer name "$MR" netns "$R" \
		numtxqueues 2 numrxqueues 2 &&
	ip -n "$S" addr add 198.18.0.1/30 dev "$DS" && ip -n "$R" addr add "$A4/30" dev "$DR" &&
	ip -n "$S" addr add 2001:2:0:1::1/64 dev "$DS" nodad && ip -n "$R" addr add "$A6/64" dev "$DR" nodad &&
	ip -n "$S" addr add 198.18.0.5/30 dev "$MS" && ip -n "$R" addr add "$M4/30" dev "$MR" || return 1
	for d in "$S lo" "$R lo" "$S $DS" "$R $DR" "$S $MS" "$R $MR"; do
		ip -n "${d%% *}" link set "${d#* }" up || return 1
	done
}
if ! mkwire 2>"$TMP/ip.err"; then
	skip "cannot make the namespaces and the veth pairs here: $(head -n 1 "$TMP/ip.err")"
	done_tests
	exit
fi
inR() { ip netns exec "$R" "$@"; }
inS() { ip netns exec "$S" "$@"; }
inR "$BIN/suck" -m xdp -a "$A4" -p 0 --check -o tsv >"$TMP/chk.out" 2>"$TMP/chk.err"
st=$?
if [ $st = 4 ]; then
	skip "suck -m xdp is not offered here: $(cat "$TMP/chk.err")"
	done_tests
	exit
fi
check "check: suck --check -m xdp on $DR exits 0 ($st: $(cat "$TMP/chk.err"))" test $st = 0
check "check: xdp_setup $DR:copy,link ($(field "$TMP/chk.out" xdp_setup))" test "$(field "$TMP/chk.out" xdp_setup)" = "$DR:copy,link"
check "check: uring_setup stays -" test "$(field "$TMP/chk.out" uring_setup)" = -

# attached DEV: 0 when the device shows an XDP program, waiting up to 2 s for it to be so
# (want 1) or not (want 0): a link's release is done by the kernel a moment after close.
attached() {
	i=0
	while :; do
		if ip -n "$R" link show "$1" | grep -q 'prog/xdp'; then has=1; else has=0; fi
		[ $has = "$2" ] && return 0
		i=$((i + 1))
		[ $i -gt 200 ] && return 1
		sleep 0.01
	done
}
check "check: nothing attached after --check" attached "$DR" 0

# resolved ADDR: the sender has a link-layer address for ADDR, waiting up to 2 s for it.
resolved() {
	i=0
	until ip -n "$S" neigh show "$1" dev "$DS" | grep -q lladdr; do
		i=$((i + 1))
		[ $i -gt 200 ] && return 1
		sleep 0.01
	done
}

# adds_up NAME: DESIGN.md's identities on suck's report NAME, as integers.
adds_up() {
	f=$TMP/$1.out
	sent=$(field "$f" sent) valid=$(field "$f" valid) lost=$(field "$f" lost) dropped=$(field "$f" dropped)
	check "$1: sent $sent = valid $valid + lost $lost" test "$sent" -eq $((valid + lost))
	check "$1: received = valid + dup + late + foreign + truncated" test "$(field "$f" received)" -eq \
		$((valid + $(field "$f" dup) + $(field "$f" late) + $(field "$f" foreign) + $(field "$f" truncated)))
	check "$1: dropped $dropped <= lost $lost" test "$dropped" -le "$lost"
	check "$1: elsewhere = lost - dropped" test "$(field "$f" elsewhere)" -eq $((lost - dropped))
}

# pair NAME ADDR "SUCK ARGS" "BLAST ARGS": suck -m xdp in R, blast in S, to the fins.
pair() {
	if ! start_listener "$1" ip netns exec "$R" "$BIN/suck" -m xdp -a "$2" -p 0 -o tsv -t 30 $3; then
		fail "$1: suck did not start"
		return 1
	fi
	inS "$BIN/blast" -a "$2" -p "$PORT" -o tsv $4 >"$TMP/$1.blast" 2>"$TMP/$1.berr"
	check "$1: blast exits 0 ($(head -n 1 "$TMP/$1.berr"))" test $? = 0
	check "$1: suck ends on the fins" wait_pid "$LISTENER_PID" 20
	check "$1: stop fin" test "$(field "$TMP/$1.out" stop)" = fin
	check "$1: blast's sent is suck's" test "$(field "$TMP/$1.out" sent)" = "$(field "$TMP/$1.blast" sent)"
	adds_up "$1"
}

# --- exact accounting, paced so that nothing is lost, IPv4 and IPv6, then --spin
for a in "$A4" "$A6"; do
	n=paced-$a
	pair "$n" "$a" "" "-n 10000 -r 20000 -s 1000" || continue
	check "$n: every datagram valid, none lost" test "$(field "$TMP/$n.out" valid) $(field "$TMP/$n.out" lost)" = "10000 0"
	check "$n: none foreign" test "$(field "$TMP/$n.out" foreign)" = 0
	check "$n: fewer calls than datagrams" test "$(field "$TMP/$n.out" calls)" -lt 10000
done
# --marks: the TOS (traffic class) and TTL (hop limit) read from each frame's IP header
for a in "$A4" "$A6"; do
	n=marks-$a
	pair "$n" "$a" "--marks" "-n 2000 -r 20000 -s 300 --dscp 46 --ttl 9" || continue
	check "$n: tos 184 ttl 9, none changed" test "$(field "$TMP/$n.out" tos) $(field "$TMP/$n.out" ttl) $(field "$TMP/$n.out" marks_changed)" = "184 9 0"
done
n=spin
pair $n "$A4" "--spin" "-n 5000 -r 20000 -s 200" &&
	check "$n: every datagram valid" test "$(field "$TMP/$n.out" valid)" = 5000
check "after runs: nothing attached" attached "$DR" 0

# --- overload: a slow consumer and a burst; the RX ring fills and the kernel drops, and says
# so: every loss is in dropped (XDP_STATISTICS), none elsewhere
n=overload
if pair $n "$A4" "-w histogram:100" "-n 60000 -s 1450"; then
	check "$n: the kernel dropped some ($(field "$TMP/$n.out" dropped))" test "$(field "$TMP/$n.out" dropped)" -gt 0
	check "$n: every loss is a drop XDP_STATISTICS counted (elsewhere $(field "$TMP/$n.out" elsewhere))" \
		test "$(field "$TMP/$n.out" elsewhere)" = 0
	check "$n: kernel_drops >= dropped" test "$(field "$TMP/$n.out" kernel_drops)" -ge "$(field "$TMP/$n.out" dropped)"
fi

# --- the rest reaches the stack while suck runs: ARP, neighbour discovery (the sender forgets
# its neighbours and learns them again) and UDP to another port (a suck -m buffer there gets
# all of it), ICMP
# both ways (a closed port answers with port unreachable, which blast counts as refused)
if start_listener xdp-bg ip netns exec "$R" "$BIN/suck" -m xdp -a "$A4" -p 0 -o tsv -t 60 --idle 20; then
	XP=$PORT
	XPID=$LISTENER_PID
	check "stack: the program is on $DR while suck runs" attached "$DR" 1
	for a in "$A4" "$A6"; do
		n=other-$a
		# the sender forgets its neighbours; one datagram to a closed port makes it ask again
		# (ARP, ND), and the answer must come through the program. The datagrams sent while a
		# neighbour is unresolved wait in a short queue, so the count below starts after it.
		ip -n "$S" neigh flush dev "$DS" 2>/dev/null
		inS "$BIN/blast" -a "$a" -p 9 -n 1 -o tsv >/dev/null 2>&1
		check "$n: the sender's neighbour $a resolved (ARP or ND) while the program is on" resolved "$a"
		if start_listener "$n" ip netns exec "$R" "$BIN/suck" -m buffer -a "$a" -p 0 -R 4M -o tsv -t 30; then
			tx0=$(inS cat "/sys/class/net/$DS/statistics/tx_dropped")
			inS "$BIN/blast" -a "$a" -p "$PORT" -n 3000 -r 10000 -s 500 -o tsv >/dev/null 2>&1
			check "$n: suck -m buffer on another port ends on the fin" wait_pid "$LISTENER_PID" 20
			f=$TMP/$n.out
			# Under load a few may be lost in the kernel's queues: at the sender's veth (its
			# ring to the peer full: tx_dropped) or at the socket (dropped). Nothing else may
			# be missing: a datagram the program took would be lost to this socket unseen.
			txd=$(($(inS cat "/sys/class/net/$DS/statistics/tx_dropped") - tx0))
			check "$n: all 3000 there ($(field "$f" valid)), or lost only in the queues (dropped $(field "$f" dropped), the veth's tx_dropped $txd)" \
				test "$(field "$f" sent)" = 3000 -a "$(field "$f" lost)" -eq $(($(field "$f" dropped) + txd))
		else
			fail "$n: suck -m buffer did not start"
		fi
	done
	inS "$BIN/blast" -a "$A4" -p 9 -n 300 -r 3000 -s 100 -o tsv >"$TMP/icmp-in.blast" 2>/dev/null
	check "stack: port unreachable from R comes back (errors $(field "$TMP/icmp-in.blast" errors))" \
		test "$(field "$TMP/icmp-in.blast" errors)" -gt 0
	inR "$BIN/blast" -a 198.18.0.1 -p 9 -n 300 -r 3000 -s 100 -o tsv >"$TMP/icmp-out.blast" 2>/dev/null
	check "stack: ICMP into R passes the program (errors $(field "$TMP/icmp-out.blast" errors))" \
		test "$(field "$TMP/icmp-out.blast" errors)" -gt 0
	inS "$BIN/blast" -a "$A4" -p "$XP" -n 2000 -r 20000 -s 300 -o tsv >/dev/null 2>&1
	check "stack: suck -m xdp ends on its fin" wait_pid "$XPID" 20
	f=$TMP/xdp-bg.out
	check "stack: suck -m xdp took its own 2000 ($(field "$f" valid)) and nothing else (foreign $(field "$f" foreign))" \
		test "$(field "$f" valid) $(field "$f" foreign)" = "2000 0"
else
	fail "stack: suck -m xdp did not start"
fi

# --- nothing stays on the device: after a normal end (above), SIGINT and SIGKILL, by link;
# after a normal end and SIGINT by netlink
for how in INT KILL netlink-fin netlink-INT; do
	n=detach-$how
	case $how in netlink-*) env=BS_XDP_TEST=netlink ;; *) env=BS_XDP_TEST= ;; esac
	if ! start_listener "$n" ip netns exec "$R" env $env "$BIN/suck" -m xdp -a "$A4" -p 0 -o tsv -t 30; then
		fail "$n: suck did not start ($(tail -n 1 "$TMP/$n.err"))"
		continue
	fi
	check "$n: attached while suck runs" attached "$DR" 1
	case $how in
	*-fin) inS "$BIN/blast" -a "$A4" -p "$PORT" -n 100 -r 10000 -o tsv >/dev/null 2>&1 ;;
	*) kill -"${how#netlink-}" "$LISTENER_PID" ;;
	esac
	check "$n: suck ends" wait_pid "$LISTENER_PID" 10
	check "$n: nothing attached to $DR after it" attached "$DR" 0
	case $how in
	netlink-*) check "$n: xdp_setup says netlink" test "$(field "$TMP/$n.out" xdp_setup)" = "$DR:copy,netlink" ;;
	KILL) check "$n: no report after SIGKILL" test ! -s "$TMP/$n.out" ;;
	*) check "$n: stop signal" test "$(field "$TMP/$n.out" stop)" = signal ;;
	esac
done

# --- a verifier refusal is reported with the verifier's log, and nothing is attached
inR env BS_XDP_TEST=refuse "$BIN/suck" -m xdp -a "$A4" -p 0 -t 1 >"$TMP/refuse.out" 2>"$TMP/refuse.err"
st=$?
check "refuse: exit 1 ($st)" test $st = 1
check "refuse: said as the verifier's refusal" grep -q '^suck: -m xdp: the verifier refused the XDP program (bpf BPF_PROG_LOAD: ' "$TMP/refuse.err"
check "refuse: the log follows, named ($(sed -n 2p "$TMP/refuse.err"))" \
	sh -c "grep -q \"the verifier's log:\$\" '$TMP/refuse.err' && test \$(wc -l <'$TMP/refuse.err') -ge 4"
check "refuse: no report" test ! -s "$TMP/refuse.out"
check "refuse: nothing attached" attached "$DR" 0

# --- -j: one AF_XDP socket per queue on the two-queue pair; more threads than queues refused
n=queues
if start_listener $n ip netns exec "$R" "$BIN/suck" -m xdp -a "$M4" -p 0 -j 2 -o tsv -t 30; then
	inS "$BIN/blast" -a "$M4" -p "$PORT" -j 4 -n 8000 -r 20000 -s 600 -o tsv >"$TMP/$n.blast" 2>/dev/null
	check "$n: suck ends on the fins" wait_pid "$LISTENER_PID" 20
	check "$n: 4 flows, every datagram valid ($(field "$TMP/$n.out" valid))" \
		test "$(field "$TMP/$n.out" flows) $(field "$TMP/$n.out" valid)" = "4 8000"
	adds_up $n
else
	fail "$n: suck -m xdp -j 2 did not start"
fi
inR "$BIN/suck" -m xdp -a "$M4" -p 0 -j 3 --check >/dev/null 2>"$TMP/j3.err"
st=$?
check "-j 3 on two queues: exit 2 ($st: $(cat "$TMP/j3.err"))" test $st = 2
check "... naming the queues" grep -q "^suck: -j 3: $MR has 2 receive queues" "$TMP/j3.err"
inR "$BIN/suck" -m xdp -a "$A4" -p 0 -j 2 --check >/dev/null 2>&1
check "-j 2 on one queue: exit 2" test $? = 2

# --- the bare twin: the same program and rings, every frame counted, exactly -n of them
n=bare
if [ -x "$BIN/bare" ] && start_listener $n ip netns exec "$R" "$BIN/bare" recv --xdp "$DR" -a "$A4" -p 0 -n 3000; then
	inS "$BIN/blast" -a "$A4" -p "$PORT" -n 3000 -r 20000 -s 64 -o tsv >/dev/null 2>&1
	check "$n: bare recv --xdp ends at -n" wait_pid "$LISTENER_PID" 20
	check "$n: 3000 frames received ($(col "$TMP/$n.out" received))" test "$(col "$TMP/$n.out" received)" = 3000
	check "$n: by AF_XDP" test "$(col "$TMP/$n.out" call)" = af_xdp
	check "$n: nothing attached after it" attached "$DR" 0
else
	fail "$n: bare recv --xdp did not start"
fi

# --- without the privilege: exit 4, naming what it needs
if command -v setpriv >/dev/null 2>&1; then
	inR setpriv --reuid=65534 --regid=65534 --clear-groups "$BIN/suck" -m xdp -a "$A4" -p 0 --check \
		>/dev/null 2>"$TMP/priv.err"
	st=$?
	check "unprivileged: exit 4 ($st: $(head -n 1 "$TMP/priv.err"))" test $st = 4
	check "unprivileged: says it needs root" grep -q 'needs root' "$TMP/priv.err"
else
	skip "no setpriv: the unprivileged refusal not checked"
fi

# --- zero-copy: veth has none, so exit 4 with the reason (0 where a driver gives it)
inR "$BIN/suck" -m xdp -a "$A4" -p 0 --xdp-zc --check -o tsv >"$TMP/zc.out" 2>"$TMP/zc.err"
st=$?
if [ $st = 0 ]; then
	check "zc: offered, and said (xdp_setup $(field "$TMP/zc.out" xdp_setup))" test "$(field "$TMP/zc.out" xdp_setup)" = "$DR:zerocopy,link"
else
	check "zc: refused with exit 4 ($st: $(cat "$TMP/zc.err"))" test $st = 4
	check "zc: the reason" grep -q 'does not offer zero-copy AF_XDP' "$TMP/zc.err"
fi
check "at the end: nothing attached to either device" sh -c "! ip -n '$R' link show | grep -q prog/xdp"

done_tests
