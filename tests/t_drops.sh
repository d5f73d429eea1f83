# suck --drops: where the kernel dropped the run's datagrams, by reason (a BPF program on the
# tracepoint skb:kfree_skb). A known number of a run's datagrams is dropped at one place at a
# time, and the report must attribute exactly that number to that place's reason with
# unexplained 0 (lost == queue_dropped + drops_attributed + unexplained): the receive buffer
# overflowing (-R small, slow work: SOCKET_RCVBUFF, equal to the socket's own counter; with
# gro and GSO sends exact per datagram where kernel_drops counts buffers), an nftables rule
# dropping every Nth datagram of the port (NETFILTER_DROP; GSO skbs counted as their
# segments), datagrams with a wrong UDP checksum from a raw socket (UDP_CSUM), a tc ingress
# cls_bpf program in direct-action mode on a veth (TC_INGRESS), an XDP program on it
# (XDP_DROP, which the kernel frees without a reason: NOT_SPECIFIED, in drop_other), GRO on the
# veth coalescing what then overflows the buffer (each datagram once, though the kernel frees a
# coalesced skb's frag_list after it), and a filter on the sender's egress (blast's
# qdisc_drops; suck's unexplained); IPv4 and IPv6. Then --serve's rows each with their own run's drops, the program gone after SIGINT and
# SIGKILL, the exit 4 of a missing tracepoint, BTF or privilege, and the keys without --drops.
# Everything runs in network namespaces made here (their lo, or a veth pair with addresses of
# 198.18.0.0/15 and 2001:2::/48), which the trap removes with their rules and programs; every
# blast is bounded by -n, every suck by -t. Without root, ip, nft or BPF: the options only and
# a SKIP line.
. tests/lib.sh

L=bs-drops-$$-l
S=bs-drops-$$-s
R=bs-drops-$$-r
DS=bsd$$s
DR=bsd$$r
RUN=77
trap 'for p in $PIDS; do kill "$p" 2>/dev/null; done
	for n in "$L" "$S" "$R"; do ip netns del "$n" 2>/dev/null; done
	if [ "${KEEP:-0}" = 1 ]; then echo "kept $TMP"; else rm -rf "$TMP"; fi' EXIT

# --- anywhere: the options, and the keys without --drops
"$BIN/suck" --drops -m xdp --check >/dev/null 2>"$TMP/o.err"
check "--drops -m xdp: exit 2 ($(cat "$TMP/o.err"))" sh -c "test $? = 2 && grep -q 'drops with -m xdp' '$TMP/o.err'"
"$BIN/suck" --drops --senders 2 --check >/dev/null 2>"$TMP/o.err"
check "--drops --senders 2: exit 2 ($(cat "$TMP/o.err"))" test $? = 2
"$BIN/suck" -p 0 --check -o tsv >"$TMP/chk0.tsv" 2>/dev/null
check "--check without --drops: drops 0" test "$(field "$TMP/chk0.tsv" drops)" = 0
"$BIN/suck" -p 0 -t 10ms -o tsv >"$TMP/off.tsv" 2>/dev/null
check "without --drops: drops 0" test "$(field "$TMP/off.tsv" drops)" = 0
for k in drops_attributed unexplained drop_socket_rcvbuff drop_no_socket drop_udp_csum drop_netfilter_drop \
	drop_tc_ingress drop_cpu_backlog drop_full_ring drop_other drop_fins drop_detail udp_rcvbuf_errors \
	udp_in_csum_errors udp_no_ports udp_mem_errors; do
	check "without --drops: $k is - ($(field "$TMP/off.tsv" $k))" test "$(field "$TMP/off.tsv" $k)" = -
done
"$BIN/suck" -p 0 -t 10ms -o json >"$TMP/off.json" 2>/dev/null
check "without --drops: json null" grep -q '"drops":0,"drops_attributed":null,"unexplained":null' "$TMP/off.json"

# blast's side reads its device's counters through rtnetlink, which needs no privilege
"$BIN/blast" -p 9 -n 10 -o tsv >"$TMP/b.tsv" 2>/dev/null
check "blast: tx_dev lo, tx_dev_dropped and qdisc_drops counted ($(field "$TMP/b.tsv" tx_dev), $(field "$TMP/b.tsv" tx_dev_dropped), $(field "$TMP/b.tsv" qdisc_drops))" \
	sh -c "test '$(field "$TMP/b.tsv" tx_dev)' = lo && test '$(field "$TMP/b.tsv" tx_dev_dropped)' -ge 0 && test '$(field "$TMP/b.tsv" qdisc_drops)' -ge 0"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
	setpriv --reuid 65534 --regid 65534 --clear-groups --inh-caps=-all "$BIN/blast" -p 9 -n 10 -o tsv >"$TMP/b.tsv" 2>/dev/null
	check "blast not root: qdisc_drops $(field "$TMP/b.tsv" qdisc_drops) all the same" test "$(field "$TMP/b.tsv" qdisc_drops)" -ge 0
fi

need_root_ip "suck --drops' injected drops"
if ! command -v nft >/dev/null 2>&1; then
	skip "no nft: apt-get install -y nftables"
	done_tests
	exit
fi
"$BIN/suck" -p 0 --drops --check -o tsv >"$TMP/chk.tsv" 2>"$TMP/chk.err"
st=$?
if [ $st = 4 ]; then
	skip "suck --drops is not offered here: $(cat "$TMP/chk.err")"
	done_tests
	exit
fi
check "suck --drops --check: exit 0 ($st: $(cat "$TMP/chk.err"))" test $st = 0
check "--check: drops 1" test "$(field "$TMP/chk.tsv" drops)" = 1
BS_DROPS_TEST=btf "$BIN/suck" -p 0 --drops --check >/dev/null 2>"$TMP/o.err"
check "no BTF: exit 4 ($(cat "$TMP/o.err"))" sh -c "test $? = 4 && grep -q 'btf/vmlinux' '$TMP/o.err'"
BS_DROPS_TEST=tracepoint "$BIN/suck" -p 0 --drops -t 1 >/dev/null 2>"$TMP/o.err"
check "no tracepoint: a run exits 4 ($(cat "$TMP/o.err"))" sh -c "test $? = 4 && grep -q 'skb:kfree_skb' '$TMP/o.err'"
if command -v setpriv >/dev/null 2>&1; then
	setpriv --reuid 65534 --regid 65534 --clear-groups --inh-caps=-all "$BIN/suck" -p 0 --drops --check \
		>/dev/null 2>"$TMP/o.err"
	check "not root: exit 4 ($(cat "$TMP/o.err"))" sh -c "test $? = 4 && grep -q 'needs root' '$TMP/o.err'"
fi

# mkns: the namespace L (lo only), and S and R joined by a veth pair with fixed addresses and
# permanent neighbours (no resolution to queue behind: its drops would be NEIGH_QUEUEFULL).
mkns() {
	ip netns add "$L" && ip -n "$L" link set lo up &&
	ip netns add "$S" && ip netns add "$R" &&
	ip link add "$DS" netns "$S" address 02:00:00:00:d0:01 type veth peer name "$DR" netns "$R" \
		address 02:00:00:00:d0:02 &&
	ip -n "$S" addr add 198.18.0.1/30 dev "$DS" && ip -n "$R" addr add 198.18.0.2/30 dev "$DR" &&
	ip -n "$S" addr add 2001:2::1/64 dev "$DS" nodad && ip -n "$R" addr add 2001:2::2/64 dev "$DR" nodad || return 1
	for d in "$S lo" "$R lo" "$S $DS" "$R $DR"; do
		ip -n "${d%% *}" link set "${d#* }" up || return 1
	done
	ip -n "$S" neigh replace 198.18.0.2 lladdr 02:00:00:00:d0:02 dev "$DS" nud permanent &&
	ip -n "$S" neigh replace 2001:2::2 lladdr 02:00:00:00:d0:02 dev "$DS" nud permanent &&
	ip -n "$R" neigh replace 198.18.0.1 lladdr 02:00:00:00:d0:01 dev "$DR" nud permanent &&
	ip -n "$R" neigh replace 2001:2::1 lladdr 02:00:00:00:d0:01 dev "$DR" nud permanent
}
if ! mkns 2>"$TMP/ip.err"; then
	skip "cannot make the namespaces and the veth pair here: $(head -n 1 "$TMP/ip.err")"
	done_tests
	exit
fi

# sk NAME NS ADDR SUCKARGS...: suck --drops of run $RUN in NS on ADDR, a free port (PORT).
sk() {
	sk_n=$1 sk_ns=$2 sk_a=$3
	shift 3
	start_listener "$sk_n" ip netns exec "$sk_ns" "$BIN/suck" -a "$sk_a" -p 0 --drops --run-id $RUN -t 30 \
		-o tsv "$@"
}
# sk_end NAME: waits for suck's end (30 s at most).
sk_end() {
	wait_pid "$LISTENER_PID" 35 || fail "$1: suck did not end"
}
# v NAME KEY: the report's KEY.
v() { field "$TMP/$1.out" "$2"; }
# ledger NAME KEY [WANT]: the run ended on its fins, its whole loss is KEY's (WANT datagrams when
# given, else at least one), nothing unexplained, and the identity holds.
ledger() {
	ln=$1 lk=$2 lw=${3:-}
	lf="$ln: lost $(v "$ln" lost), $lk $(v "$ln" "$lk"), detail $(v "$ln" drop_detail), unexplained $(v "$ln" unexplained)"
	check "$ln: a report ($(tail -n 2 "$TMP/$ln.err" 2>/dev/null | tr '\n' ' '))" test -n "$(v "$ln" lost)"
	check "$ln: stop fin ($(v "$ln" stop))" test "$(v "$ln" stop)" = fin
	if [ -n "$lw" ]; then
		check "$lf: lost is the $lw dropped" test "$(v "$ln" lost)" = "$lw"
	else
		check "$lf: some lost" test "$(v "$ln" lost)" -gt 0
	fi
	check "$lf: $lk is all of it" test "$(v "$ln" "$lk")" = "$(v "$ln" lost)"
	check "$lf: drops_attributed is lost" test "$(v "$ln" drops_attributed)" = "$(v "$ln" lost)"
	check "$lf: unexplained 0" test "$(v "$ln" unexplained)" = 0
	check "$ln: lost == queue_dropped + drops_attributed + unexplained" \
		test "$(($(v "$ln" queue_dropped) + $(v "$ln" drops_attributed) + $(v "$ln" unexplained)))" = "$(v "$ln" lost)"
	check "$ln: drops 1" test "$(v "$ln" drops)" = 1
}
inL() { ip netns exec "$L" "$@"; }

# Where a count is exact, suck's buffer (-R 8M, SO_RCVBUFFORCE as root) holds the whole run, so
# that a receiver the machine's load holds back drops nothing else (it would balance the ledger
# all the same, as SOCKET_RCVBUFF).

# --- (a) the receive buffer: a slow receiver behind a small -R
sk rcv4 "$L" 127.0.0.1 -m mmsg -R 4k -w histogram:200 &&
	inL "$BIN/blast" -p "$PORT" --run-id $RUN -n 20000 -s 500 -g 1 >/dev/null 2>&1
sk_end rcv4
ledger rcv4 drop_socket_rcvbuff
check "rcv4: dropped is drop_socket_rcvbuff ($(v rcv4 dropped))" test "$(v rcv4 dropped)" = "$(v rcv4 drop_socket_rcvbuff)"
check "rcv4: kernel_drops $(v rcv4 kernel_drops) == drop_socket_rcvbuff + drop_fins ($(v rcv4 drop_fins))" \
	test "$(v rcv4 kernel_drops)" = "$(($(v rcv4 drop_socket_rcvbuff) + $(v rcv4 drop_fins)))"
check "rcv4: udp_rcvbuf_errors $(v rcv4 udp_rcvbuf_errors) == kernel_drops" \
	test "$(v rcv4 udp_rcvbuf_errors)" = "$(v rcv4 kernel_drops)"
check "rcv4: detail $(v rcv4 drop_detail)" test "$(v rcv4 drop_detail)" = "SOCKET_RCVBUFF:$(v rcv4 lost)"
# the program's own cost: it ran at least once per skb dropped, each run timed
if [ "$(v rcv4 drops_prog_runs)" = - ]; then
	skip "rcv4: the kernel does not time BPF programs here (BPF_ENABLE_STATS)"
else
	check "rcv4: drops_prog_runs $(v rcv4 drops_prog_runs) >= kernel_drops $(v rcv4 kernel_drops), drops_prog_ns $(v rcv4 drops_prog_ns) > 0" \
		sh -c "test '$(v rcv4 drops_prog_runs)' -ge '$(v rcv4 kernel_drops)' && awk 'BEGIN { exit !($(v rcv4 drops_prog_ns) > 0) }'"
fi
# gro behind GSO sends: the kernel drops whole buffers (kernel_drops counts them), the program
# counts their segments, so dropped is exact
sk rcv6 "$L" ::1 -m gro -R 4k -w histogram:200 &&
	inL "$BIN/blast" -a ::1 -p "$PORT" --run-id $RUN -n 20000 -s 500 >/dev/null 2>&1
sk_end rcv6
ledger rcv6 drop_socket_rcvbuff
check "rcv6 (gro): dropped $(v rcv6 dropped) is lost, exactly" test "$(v rcv6 dropped)" = "$(v rcv6 lost)"
check "rcv6 (gro): kernel_drops $(v rcv6 kernel_drops) counts buffers, fewer" \
	test "$(v rcv6 kernel_drops)" -lt "$(v rcv6 dropped)"

# --- (b) nftables: every Nth datagram of the port (fins too: they come after the data)
# nft_run NAME ADDR N SUCKARGS -- BLASTARGS: the rule on the port, the pair, the table removed
nft_run() {
	nn=$1 na=$2 nN=$3
	shift 3
	ns=""
	while [ "$1" != -- ]; do ns="$ns $1"; shift; done
	shift
	# shellcheck disable=SC2086 # the options: words
	sk "$nn" "$L" "$na" $ns || return 1
	inL nft add table inet bs_drops && inL nft add chain inet bs_drops in '{ type filter hook input priority 0; }' &&
		inL nft add rule inet bs_drops in udp dport "$PORT" numgen inc mod "$nN" == 0 drop ||
		fail "$nn: nft could not add the rule"
	inL "$BIN/blast" -a "$na" -p "$PORT" --run-id $RUN "$@" >/dev/null 2>&1
	sk_end "$nn"
	inL nft delete table inet bs_drops
}
nft_run nft4 127.0.0.1 10 -m mmsg -R 8M -- -n 1000 -s 500 -g 1 -r 50k
ledger nft4 drop_netfilter_drop 100
nft_run nft6 ::1 7 -m gro -R 8M -- -n 1000 -s 500 -g 1 -r 50k
ledger nft6 drop_netfilter_drop 143
# GSO skbs dropped whole, each counted as its segments
nft_run nftgso 127.0.0.1 3 -m gro -R 16M -- -n 20000 -s 500
ledger nftgso drop_netfilter_drop
check "nftgso: GSO sends ($(v nftgso segs_per_buf) datagrams a buffer)" test "$(v nftgso segs_per_buf)" != 1.00
check "no nft table left" sh -c "! ip netns exec '$L' nft list tables | grep -q bs_drops"

# --- (c) a wrong UDP checksum on every 10th datagram, from a raw socket
for fam in 4 6; do
	a=127.0.0.1 m=mmsg
	[ $fam = 6 ] && a=::1 m=buffer
	sk csum$fam "$L" $a -m $m -R 8M &&
		inL env DROPPER_V6="$([ $fam = 6 ] && echo 1)" "$BIN/dropper" csum "$PORT" $RUN 200 1000 10 >"$TMP/bad$fam" 2>&1
	sk_end csum$fam
	check "csum$fam: dropper sent 100 bad ($(cat "$TMP/bad$fam"))" grep -qx 'bad 100' "$TMP/bad$fam"
	ledger csum$fam drop_udp_csum 100
	check "csum$fam: dropped 0 ($(v csum$fam dropped)): no buffer overflowed" test "$(v csum$fam dropped)" = 0
	check "csum$fam: the socket counted them (kernel_drops $(v csum$fam kernel_drops))" test "$(v csum$fam kernel_drops)" = 100
	check "csum$fam: udp_in_csum_errors 100 ($(v csum$fam udp_in_csum_errors))" test "$(v csum$fam udp_in_csum_errors)" = 100
done

# --- (d) tc ingress, (e) XDP, on the veth: every 8th data datagram of 1000
# veth_run NAME ADDR HOW SUCKARGS: HOW is tc or xdp-skb/xdp-drv; the pair across the veth
veth_run() {
	vn=$1 va=$2 vh=$3
	shift 3
	sk "$vn" "$R" "$va" "$@" || return 1
	case $vh in
	tc) ip netns exec "$R" tc qdisc add dev "$DR" clsact &&
		ip netns exec "$R" "$BIN/dropper" tc "$DR" "$PORT" 8 >"$TMP/$vn.drop" 2>&1 ;;
	xdp-*) ip netns exec "$R" "$BIN/dropper" xdp "$DR" "$PORT" 8 "${vh#xdp-}" >"$TMP/$vn.drop" 2>&1 ;;
	esac
	vst=$?
	ip netns exec "$S" "$BIN/blast" -a "$va" -p "$PORT" --run-id $RUN -n 1000 -s 500 -g 1 -r 50k >/dev/null 2>&1
	sk_end "$vn"
	case $vh in
	tc) ip netns exec "$R" tc qdisc del dev "$DR" clsact ;;
	xdp-skb) ip -n "$R" link set dev "$DR" xdpgeneric off ;; # "xdp off" is the native one's
	xdp-drv) ip -n "$R" link set dev "$DR" xdpdrv off ;;
	esac
	return $vst
}
for a in 198.18.0.2 2001:2::2; do
	n=tc$(echo $a | cut -c1-4)
	if veth_run "$n" $a tc -m mmsg -R 8M; then
		ledger "$n" drop_tc_ingress 125
	else
		fail "$n: the cls_bpf filter: $(cat "$TMP/$n.drop")"
	fi
done
check "no clsact left on $DR" sh -c "! ip netns exec '$R' tc qdisc show dev '$DR' | grep -q clsact"
for how in xdp-drv xdp-skb xdp-drv6; do
	n=$how a=198.18.0.2
	[ $how = xdp-drv6 ] && how=xdp-drv a=2001:2::2
	if veth_run "$n" $a "$how" -m mmsg -R 8M; then
		ledger "$n" drop_other 125
		check "$n: XDP_DROP is NOT_SPECIFIED ($(v "$n" drop_detail))" test "$(v "$n" drop_detail)" = NOT_SPECIFIED:125
	else
		skip "$n: no XDP program on the veth: $(cat "$TMP/$n.drop")"
	fi
done
check "no XDP program left on $DR ($(ip -n "$R" link show dev "$DR" | tr '\n' ' '))" sh -c "! ip -n '$R' link show dev '$DR' | grep -q xdp"

# --- (f) GRO on the veth: coalesced skbs dropped whole at a full buffer, each counted as its
# segments; the members of a frag_list, freed after their head, are not counted again
for a in 198.18.0.2 2001:2::2; do
	n=grov$(echo $a | cut -c1-4)
	if ! ip netns exec "$R" "$BIN/netdev" set "$DR" rx-gro on >"$TMP/$n.gro" 2>&1 ||
		! grep -qx 'rx-gro on' "$TMP/$n.gro"; then
		skip "$n: GRO cannot be turned on on the veth: $(tr '\n' ' ' <"$TMP/$n.gro")"
		continue
	fi
	# blast's GSO buffers cut into datagrams on the way out, a burst into the veth's ring (the
	# veth takes its NAPI path only from a peer without TSO); NAPI in a thread of its own polls
	# them in batches, which GRO coalesces
	ip netns exec "$S" "$BIN/netdev" set "$DS" tx-udp-segmentation off tx-tcp-segmentation off \
		tx-tcp6-segmentation off tx-tcp-ecn-segmentation off tx-tcp-mangleid-segmentation off >/dev/null 2>&1
	ip netns exec "$R" sh -c "echo 1 >/sys/class/net/$DR/threaded" 2>/dev/null
	sk "$n" "$R" $a -m gro -R 4k -w histogram:200 &&
		ip netns exec "$S" "$BIN/blast" -a $a -p "$PORT" --run-id $RUN -n 20000 -s 500 >/dev/null 2>&1
	sk_end "$n"
	ip netns exec "$R" "$BIN/netdev" set "$DR" rx-gro off >/dev/null 2>&1
	ip netns exec "$R" sh -c "echo 0 >/sys/class/net/$DR/threaded" 2>/dev/null
	ledger "$n" drop_socket_rcvbuff
	check "$n: coalesced on the veth (kernel_drops $(v "$n" kernel_drops) < dropped $(v "$n" dropped))" \
		test "$(v "$n" kernel_drops)" -lt "$(v "$n" dropped)"
	check "$n: detail SOCKET_RCVBUFF only ($(v "$n" drop_detail))" test "$(v "$n" drop_detail)" = "SOCKET_RCVBUFF:$(v "$n" lost)"
done

# --- (g) at the sender: a clsact egress filter on blast's end of the veth drops every 8th data
# datagram after the send call said yes; blast's qdisc_drops counts them, and suck, whose kernel
# never saw them, has them as unexplained
for a in 198.18.0.2 2001:2::2; do
	n=egr$(echo $a | cut -c1-4)
	sk "$n" "$R" $a -m mmsg -R 8M || continue
	if ! { ip netns exec "$S" tc qdisc add dev "$DS" clsact &&
		ip netns exec "$S" "$BIN/dropper" tc "$DS" "$PORT" 8 egress; } >"$TMP/$n.drop" 2>&1; then
		fail "$n: the egress filter: $(cat "$TMP/$n.drop")"
	fi
	ip netns exec "$S" "$BIN/blast" -a $a -p "$PORT" --run-id $RUN -n 1000 -s 500 -g 1 -r 50k -o tsv \
		>"$TMP/$n.blast" 2>"$TMP/$n.berr"
	sk_end "$n"
	ip netns exec "$S" tc qdisc del dev "$DS" clsact
	check "$n: blast sent 1000 with no error ($(field "$TMP/$n.blast" sent), $(field "$TMP/$n.blast" error_detail))" \
		test "$(field "$TMP/$n.blast" sent)/$(field "$TMP/$n.blast" errors)" = 1000/0
	check "$n: blast's tx_dev $(field "$TMP/$n.blast" tx_dev), qdisc_drops $(field "$TMP/$n.blast" qdisc_drops): $DS, 125" \
		test "$(field "$TMP/$n.blast" tx_dev)/$(field "$TMP/$n.blast" qdisc_drops)" = "$DS/125"
	check "$n: suck lost 125 ($(v "$n" lost)), all unexplained ($(v "$n" unexplained)), none attributed ($(v "$n" drop_detail))" \
		test "$(v "$n" lost)/$(v "$n" unexplained)/$(v "$n" drops_attributed)" = 125/125/0
done
check "no clsact left on $DS" sh -c "! ip netns exec '$S' tc qdisc show dev '$DS' | grep -q clsact"
inL "$BIN/blast" -p 9 -n 10 -o tsv >"$TMP/lo.blast" 2>/dev/null
check "loopback: blast's tx_dev lo, tx_dev_dropped 0, qdisc_drops 0 ($(field "$TMP/lo.blast" tx_dev), $(field "$TMP/lo.blast" tx_dev_dropped), $(field "$TMP/lo.blast" qdisc_drops))" \
	test "$(field "$TMP/lo.blast" tx_dev)/$(field "$TMP/lo.blast" tx_dev_dropped)/$(field "$TMP/lo.blast" qdisc_drops)" = lo/0/0

# --- the same port and run dropped in another namespace (no socket there) are not this suck's
noports() { ip netns exec "$S" awk '/^Udp:/ && ++n == 2 { print $3 }' /proc/net/snmp; }
np0=$(noports)
sk other "$L" 127.0.0.1 -m mmsg -R 8M &&
	ip netns exec "$S" "$BIN/blast" -a 127.0.0.1 -p "$PORT" --run-id $RUN -n 300 -s 200 -g 1 -r 50k >"$TMP/nosock" 2>&1
inL "$BIN/blast" -p "$PORT" --run-id $RUN -n 300 -s 200 -g 1 -r 50k >/dev/null 2>&1
sk_end other
check "other: the other namespace dropped some (NoPorts $np0 -> $(noports))" test "$(noports)" -gt "$np0"
check "other: a report" test -n "$(v other lost)"
check "other: lost 0 ($(v other lost))" test "$(v other lost)" = 0
check "other: nothing attributed ($(v other drop_detail)): the other namespace's drops are its own" \
	test "$(v other drops_attributed)" = 0
check "other: unexplained 0" test "$(v other unexplained)" = 0

# --- --serve: each run's row has its own run's drops
start_listener serve ip netns exec "$L" "$BIN/suck" -p 0 --drops --serve --runs 2 --run-id 501,502 -t 30 -o tsv -m mmsg -R 8M
inL nft add table inet bs_drops && inL nft add chain inet bs_drops in '{ type filter hook input priority 0; }' &&
	inL nft add rule inet bs_drops in udp dport "$PORT" numgen inc mod 4 == 0 drop
inL "$BIN/blast" -p "$PORT" --run-id 501 -n 400 -s 300 -g 1 -r 50k >/dev/null 2>&1
inL "$BIN/blast" -p "$PORT" --run-id 502 -n 800 -s 300 -g 1 -r 50k >/dev/null 2>&1
wait_pid "$LISTENER_PID" 35 || fail "serve: suck did not end"
inL nft delete table inet bs_drops
check "serve: two rows" test "$(wc -l <"$TMP/serve.out")" = 3
for row in 2 3; do
	sed -n "1p;${row}p" "$TMP/serve.out" >"$TMP/serve$row.out"
	ledger serve$row drop_netfilter_drop
done
check "serve: the rows differ ($(v serve2 lost), $(v serve3 lost))" test "$(v serve2 lost)" -lt "$(v serve3 lost)"

# --- every exit path detaches the program: the end of a run, SIGINT, SIGKILL
# prog_gone ID...: no program of these ids is loaded (the kernel frees one a moment after its
# last fd is closed: up to 2 s)
prog_gone() {
	for id in "$@"; do
		i=0
		while "$BIN/dropper" prog "$id" && [ $i -lt 200 ]; do
			i=$((i + 1))
			sleep 0.01
		done
		"$BIN/dropper" prog "$id"
		[ $? = 1 ] || return 1 # 1: no such program; 0 there, else dropper failed
	done
	return 0
}
for how in end INT KILL; do
	start_listener sig$how ip netns exec "$L" "$BIN/suck" -p 0 --drops -t "$([ $how = end ] && echo 1 || echo 30)" \
		-o tsv
	ids=$(cat /proc/"$LISTENER_PID"/fdinfo/* 2>/dev/null | awk '$1 == "prog_id:" { print $2 }')
	check "$how: suck holds its program (ids: $ids)" test -n "$ids"
	# shellcheck disable=SC2086 # the ids: words
	check "$how: the kernel has it" "$BIN/dropper" prog $ids
	[ $how = end ] || kill -$how "$LISTENER_PID"
	wait_pid "$LISTENER_PID" 10
	# shellcheck disable=SC2086 # the ids: words
	check "$how: its program is gone" prog_gone $ids
done
check "end: a report, drops 1" test "$(v sigend drops)" = 1
check "SIGINT: a report, drops 1" test "$(v sigINT drops)" = 1

done_tests
