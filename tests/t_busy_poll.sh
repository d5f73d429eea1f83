# suck --busy-poll: SO_BUSY_POLL (with --prefer-busy-poll, --busy-poll-budget) on
# the variants that block in a receive call or epoll_wait, exit 2 on the others; the report says
# the socket's NAPI id, 0 on loopback, where busy polling cannot take effect (and suck warns);
# what needs CAP_NET_ADMIN fails with exit 1, naming the option and the capability. Loopback
# only: a device with NAPI (the wire mode) is where busy polling does something.
. tests/lib.sh

# --- where it applies: a run of every variant that takes it; exit 2 and the list elsewhere
applies=0
for v in $(variants); do
	"$BIN/suck" --check -m "$v" --busy-poll 50 -o tsv >"$TMP/c-$v" 2>"$TMP/c-$v.err"
	st=$?
	[ $st = 4 ] && { skip "-m $v: $(cat "$TMP/c-$v.err")"; continue; }
	if [ $st = 2 ]; then
		check "--busy-poll with -m $v: refused, with where it applies ($(cat "$TMP/c-$v.err"))" \
			grep -q -- "--busy-poll applies to -m .*, which block in a receive call or epoll_wait; $v does not" "$TMP/c-$v.err"
		"$BIN/suck" -p 0 -m "$v" --busy-poll 50 >/dev/null 2>&1
		check "--busy-poll with -m $v: a run exits 2 too" test $? = 2
		continue
	fi
	check "--check -m $v --busy-poll 50: exit $st" test $st = 0
	check "--check -m $v: busy_poll_us 50" test "$(field "$TMP/c-$v" busy_poll_us)" = 50
	applies=$((applies + 1))
	n=run-$v
	start_suck "$n" -m "$v" --busy-poll 50 -R 4M -o tsv -t 30 || { fail "$n: suck did not start"; continue; }
	"$BIN/blast" -p "$PORT" -s 300 -n 2000 -r 20k -o tsv >/dev/null 2>&1
	check "$n: suck ends" wait_pid "$SUCK_PID" 20
	S=$TMP/$n.out
	check "$n: stop fin" test "$(field "$S" stop)" = fin
	check "$n: sent == valid + lost" test "$(field "$S" sent)" -eq $(($(field "$S" valid) + $(field "$S" lost)))
	check "$n: busy_poll_us 50" test "$(field "$S" busy_poll_us)" = 50
	check "$n: napi_id 0 on loopback ($(field "$S" napi_id))" test "$(field "$S" napi_id)" = 0
	check "$n: says busy polling could not take effect" grep -q "napi_id 0: loopback.*could not take effect" "$TMP/$n.err"
done
check "--busy-poll applies somewhere ($applies variants)" test $applies -ge 5
"$BIN/suck" -p 0 -m uring --busy-poll 50 >/dev/null 2>"$TMP/u.err"
check "--busy-poll with -m uring: exit 2 (io_uring has its own NAPI polling)" test $? = 2

# --- the companions need --busy-poll; ranges
for a in "--prefer-busy-poll" "--busy-poll-budget 8"; do
	# shellcheck disable=SC2086
	"$BIN/suck" -p 0 -m mmsg $a >/dev/null 2>"$TMP/e.err"
	check "$a alone: exit 2" test $? = 2
	check "$a alone: says it needs --busy-poll" grep -q -- "need --busy-poll USECS" "$TMP/e.err"
done
for a in "--busy-poll 0" "--busy-poll 1000001" "--busy-poll 50 --busy-poll-budget 0" "--busy-poll 50 --busy-poll-budget 65536"; do
	# shellcheck disable=SC2086
	"$BIN/suck" -p 0 -m mmsg $a >/dev/null 2>"$TMP/e.err"
	check "$a: exit 2 ($(cat "$TMP/e.err"))" test $? = 2
done

# --- the NAPI id is read at the first datagram: "-" (json null) when none came, 0 on loopback
"$BIN/suck" -p 0 -t 10ms -o tsv >"$TMP/none" 2>/dev/null
check "no datagram: napi_id -" test "$(field "$TMP/none" napi_id)" = "-"
check "off: busy_poll_us 0, prefer_busy_poll 0, busy_poll_budget 0" \
	test "$(field "$TMP/none" busy_poll_us)$(field "$TMP/none" prefer_busy_poll)$(field "$TMP/none" busy_poll_budget)" = 000
n=napi
start_suck "$n" -m mmsg -o tsv -t 30 || fail "$n: suck did not start"
"$BIN/blast" -p "$PORT" -n 100 -o tsv >/dev/null 2>&1
wait_pid "$SUCK_PID" 20
check "$n: without --busy-poll, napi_id 0 on loopback" test "$(field "$TMP/$n.out" napi_id)" = 0
check "$n: and no warning" sh -c "! grep -q 'could not take effect' '$TMP/$n.err'"

# --- with CAP_NET_ADMIN (root): preferring and a budget are set and reported, on a socket
# (mmsg) and on an epoll instance too (EPIOCSPARAMS, which refuses a budget above 64 without it)
if [ "$(id -u)" = 0 ]; then
	for v in mmsg epoll pool; do
		"$BIN/suck" --check -m $v --busy-poll 50 --prefer-busy-poll --busy-poll-budget 100 -o tsv \
			>"$TMP/p-$v" 2>"$TMP/p-$v.err"
		st=$?
		if [ $st = 4 ]; then
			skip "$v: $(cat "$TMP/p-$v.err")"
			continue
		fi
		check "root, -m $v: --prefer-busy-poll --busy-poll-budget 100: exit $st ($(cat "$TMP/p-$v.err"))" test $st = 0
		check "root, -m $v: prefer_busy_poll 1, busy_poll_budget 100" \
			test "$(field "$TMP/p-$v" prefer_busy_poll) $(field "$TMP/p-$v" busy_poll_budget)" = "1 100"
	done
else
	skip "not root: --prefer-busy-poll and a budget need CAP_NET_ADMIN"
fi

# --- without CAP_NET_ADMIN: exit 1, the option and the capability named, in a run and a check
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 &&
	setpriv --reuid=65534 --regid=65534 --clear-groups "$BIN/suck" -V >/dev/null 2>&1; then
	unpriv() { setpriv --reuid=65534 --regid=65534 --clear-groups "$BIN/suck" "$@"; }
	for a in "--prefer-busy-poll:SO_PREFER_BUSY_POLL" "--busy-poll-budget 16:SO_BUSY_POLL_BUDGET"; do
		o=${a%%:*} opt=${a#*:}
		for c in "" "--check"; do
			# shellcheck disable=SC2086
			unpriv $c -p 0 -m mmsg --busy-poll 50 $o -t 1 >"$TMP/np.out" 2>"$TMP/np.err"
			st=$?
			check "unprivileged $c $o: exit 1 ($st)" test $st = 1
			check "unprivileged $c $o: names $opt and CAP_NET_ADMIN ($(cat "$TMP/np.err"))" \
				grep -q "^suck: setsockopt $opt: Operation not permitted: .*needs CAP_NET_ADMIN" "$TMP/np.err"
			check "unprivileged $c $o: no report" test ! -s "$TMP/np.out"
		done
	done
else
	skip "unprivileged busy polling: not root or no setpriv(1)"
fi

# --- a path with NAPI: two network namespaces joined by a veth pair, GRO on the receiving end
# and no TSO on the sending one (veth then delivers through its NAPI, bin/netdev sets both): the
# socket has a NAPI id, and busy polling can take effect (no warning). Root, ip(8) and network
# namespaces needed; skipped otherwise.
NSA=bs-bp-a-$$ NSB=bs-bp-b-$$ VA=bpa$$ VB=bpb$$
netns_gone() {
	ip netns del "$NSA" 2>/dev/null
	ip netns del "$NSB" 2>/dev/null
}
if [ "$(id -u)" = 0 ] && command -v ip >/dev/null 2>&1 && [ -x "$BIN/netdev" ] &&
	ip netns add "$NSA" 2>/dev/null; then
	trap 'netns_gone; for p in $PIDS; do kill "$p" 2>/dev/null; done; rm -rf "$TMP"' EXIT
	if ip netns add "$NSB" && ip link add "$VA" type veth peer name "$VB" &&
		ip link set "$VA" netns "$NSA" && ip link set "$VB" netns "$NSB" &&
		ip -n "$NSA" addr add 198.19.31.1/24 dev "$VA" && ip -n "$NSB" addr add 198.19.31.2/24 dev "$VB" &&
		ip -n "$NSA" link set "$VA" up && ip -n "$NSB" link set "$VB" up &&
		ip netns exec "$NSB" "$BIN/netdev" set "$VB" rx-gro on >/dev/null &&
		ip netns exec "$NSA" "$BIN/netdev" set "$VA" tx-tcp-segmentation off tx-tcp6-segmentation off \
			tx-tcp-ecn-segmentation off tx-udp-segmentation off >/dev/null 2>&1; then
		ip netns exec "$NSA" "$BIN/netdev" set "$VA" tx-tcp-accecn-segmentation off >/dev/null 2>&1
		for v in mmsg epoll; do
			n=veth-$v
			start_listener "$n" ip netns exec "$NSB" "$BIN/suck" -a 198.19.31.2 -p 0 -m $v --busy-poll 50 \
				-R 4M -o tsv -t 30 || { fail "$n: suck did not start"; continue; }
			ip netns exec "$NSA" "$BIN/blast" -a 198.19.31.2 -p "$PORT" -s 500 -n 3000 -r 20k -o tsv >/dev/null 2>&1
			check "$n: suck ends" wait_pid "$LISTENER_PID" 20
			S=$TMP/$n.out
			check "$n: stop fin" test "$(field "$S" stop)" = fin
			check "$n: a NAPI id through the veth's NAPI ($(field "$S" napi_id))" test "$(field "$S" napi_id)" -gt 0
			check "$n: no warning that busy polling could not take effect" \
				sh -c "! grep -q 'could not take effect' '$TMP/$n.err'"
		done
	else
		skip "veth NAPI path: the namespaces, the veth pair or its features could not be set up"
	fi
	netns_gone
else
	skip "veth NAPI path: needs root, ip(8), network namespaces and bin/netdev"
fi

done_tests
