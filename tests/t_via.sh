# blast --via packet (blast/packet.c): frames built by blast, sent through an AF_PACKET TX ring
# on a veth pair between two network namespaces made here, into suck -m mmsg in the other one.
# suck's valid is blast's sent with nothing lost and the fins believed, over IPv4 and IPv6, with
# a run key and two flows; the neighbour's MAC is found (asked for when the table has none) or
# given with --dst-mac, and a wrong one loses every frame, counted by the receiving device
# (otherhost) while blast ends normally; a frame's UDP checksum is the kernel's to check (a run
# with it broken: every datagram lost, as many UDP checksum errors); a SIGINT ends blast with
# its fins; the --check row names the device; bad options exit 2, loopback and an unprivileged
# user exit 4 with the reason. A copy of this test killed by SIGTERM while its blast runs leaves
# no namespace or process behind. Without root or ip: the options and a SKIP line. Every
# address is in 198.18.0.0/15 or 2001:2::/48 inside the namespaces made here, which the trap
# removes; every blast is bounded by -n or -t, every suck by -t.
. tests/lib.sh

S=bs-via-$$-s
R=bs-via-$$-r
DS=bsv$$s
DR=bsv$$r
A4=198.18.0.2
A6=2001:2::2
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

# mkwire: the namespaces, the pair, its addresses, everything up (no neighbour entries: blast
# finds them).
mkwire() {
	ip netns add "$S" && ip netns add "$R" &&
	ip link add "$DS" netns "$S" type veth peer name "$DR" netns "$R" &&
	ip -n "$S" addr add 198.18.0.1/30 dev "$DS" && ip -n "$R" addr add "$A4/30" dev "$DR" &&
	ip -n "$S" addr add 2001:2::1/64 dev "$DS" nodad && ip -n "$R" addr add "$A6/64" dev "$DR" nodad || return 1
	for d in "$S lo" "$R lo" "$S $DS" "$R $DR"; do
		ip -n "${d%% *}" link set "${d#* }" up || return 1
	done
}

# --- a copy held by VIA_HOLD=FILE: the namespaces made, suck and a long blast started, their
# names and pids written to FILE; then it waits for the signal its parent sends
if [ -n "${VIA_HOLD:-}" ]; then
	mkwire || exit 1
	start_listener hold ip netns exec "$R" "$BIN/suck" -m mmsg -a "$A4" -p 0 -t 60 -o tsv || exit 1
	ip netns exec "$S" "$BIN/blast" --via packet -a "$A4" -p "$PORT" -t 60 -r 1000 -o tsv >/dev/null 2>&1 &
	PIDS="$PIDS $!"
	echo "$S $R $LISTENER_PID $!" >"$VIA_HOLD.tmp" && mv "$VIA_HOLD.tmp" "$VIA_HOLD"
	wait
	exit 0
fi

# --- anywhere: the options
bad "--via 'frames'" --via frames
bad "--dev applies to --via packet" --dev lo
bad "--dst-mac applies to --via packet" --dst-mac 02:62:73:00:00:02
bad "--dst-mac '02:62:73:00:00'" --via packet --dst-mac 02:62:73:00:00
bad "--dst-mac '02-62-73-00-00-02'" --via packet --dst-mac 02-62-73-00-00-02
bad "--dev 'bs-no-such'" --via packet --dev bs-no-such
bad "--via packet with --rtt" --via packet --rtt
bad "--via packet with a size mix" --via packet -s 64:1,128:1
bad "--via packet with --zerocopy" --via packet --zerocopy
bad "--via packet with a multicast group" --via packet -a 239.255.0.1
check "blast -h names --via" sh -c "'$BIN/blast' -h | grep -q -- '--via PATH'"

# loopback: exit 4 with the reason (not root: the privilege is the reason)
"$BIN/blast" --via packet --check >"$TMP/lo.out" 2>"$TMP/lo.err"
st=$?
check "loopback: exit 4 ($st: $(cat "$TMP/lo.err"))" test $st = 4
if [ "$(id -u)" -eq 0 ]; then
	check "loopback: says lo has no Ethernet header" grep -q 'through lo, the loopback device: lo has no Ethernet header' "$TMP/lo.err"
else
	check "not root: says it needs CAP_NET_RAW" grep -q 'needs CAP_NET_RAW (root)' "$TMP/lo.err"
fi
check "loopback: no row" test ! -s "$TMP/lo.out"

# --- the veth pair
need_root_ip "--via packet on a veth pair"
if ! mkwire 2>"$TMP/ip.err"; then
	skip "cannot make the namespaces and the veth pair here: $(head -n 1 "$TMP/ip.err")"
	done_tests
	exit
fi
inR() { ip netns exec "$R" "$@"; }
inS() { ip netns exec "$S" "$@"; }
MAC_R=$(ip -n "$R" link show "$DR" | awk '$1 == "link/ether" { print $2 }')

# pair NAME ADDR "SUCK ARGS" "BLAST ARGS": suck -m mmsg in R, blast --via packet in S, to the
# fins: blast exits 0, suck ends on believed fins with every datagram valid, nothing lost.
pair() {
	# shellcheck disable=SC2086 # $3: words
	if ! start_listener "$1" ip netns exec "$R" "$BIN/suck" -m mmsg -a "$2" -p 0 -R 4M -o tsv -t 30 $3; then
		fail "$1: suck did not start"
		return 1
	fi
	# shellcheck disable=SC2086 # $4: words
	inS "$BIN/blast" --via packet -a "$2" -p "$PORT" -o tsv $4 >"$TMP/$1.blast" 2>"$TMP/$1.berr"
	check "$1: blast exits 0 ($(head -n 1 "$TMP/$1.berr"))" test $? = 0
	check "$1: suck ends on the fins" wait_pid "$LISTENER_PID" 20
	b=$TMP/$1.blast s=$TMP/$1.out
	check "$1: stop fin ($(field "$s" stop)), sent not estimated" test "$(field "$s" stop) $(field "$s" sent_estimated)" = "fin 0"
	check "$1: suck's sent $(field "$s" sent) is blast's $(field "$b" sent)" test "$(field "$s" sent)" = "$(field "$b" sent)"
	check "$1: every datagram valid ($(field "$s" valid)), none lost ($(field "$s" lost)) or foreign ($(field "$s" foreign))" \
		test "$(field "$s" valid) $(field "$s" lost) $(field "$s" foreign)" = "$(field "$b" sent) 0 0"
	check "$1: bytes_check exact ($(field "$s" bytes_check))" test "$(field "$s" bytes_check)" = exact
	check "$1: via packet on $DS" test "$(field "$b" via) $(field "$b" dev)" = "packet $DS"
	check "$1: dst_mac is suck's end's ($(field "$b" dst_mac), $MAC_R)" test "$(field "$b" dst_mac)" = "$MAC_R"
	check "$1: tx_frames $(field "$b" tx_frames) = sent + fins" \
		test "$(field "$b" tx_frames)" -eq $(($(field "$b" sent) + $(field "$b" fins)))
	check "$1: no error ($(field "$b" error_detail))" test "$(field "$b" errors)" = 0
}

# --- exact over IPv4 and IPv6, the neighbour asked for first (the table is empty)
for a in "$A4" "$A6"; do
	n=paced-$a
	ip -n "$S" neigh flush dev "$DS" 2>/dev/null
	pair "$n" "$a" "" "-n 20000 -r 50000" || continue
	check "$n: 20000 sent" test "$(field "$TMP/$n.blast" sent)" = 20000
	check "$n: the neighbour now known" sh -c "ip -n '$S' neigh show '$a' dev '$DS' | grep -q '$MAC_R'"
done

# --- a run key, two flows: the proof in every datagram, the fins tagged
n=keyed
BS_RUN_KEY=00112233445566778899aabbccddeeff
export BS_RUN_KEY
if pair $n "$A4" "" "-n 20000 -r 50000 -j 2"; then
	check "$n: both keyed" test "$(field "$TMP/$n.out" keyed) $(field "$TMP/$n.blast" keyed)" = "1 1"
	check "$n: 2 flows, no forged fin" test "$(field "$TMP/$n.out" flows) $(field "$TMP/$n.out" forged_fins)" = "2 0"
fi
unset BS_RUN_KEY

# --- -g does not apply: said, and 1; --dst-mac given (the right one); --tos, --ttl in the header
n=gso
if pair $n "$A4" "--marks" "-n 3000 -r 50000 -g 8 -s 300 --dst-mac $MAC_R --dscp 46 --ttl 9"; then
	check "$n: -g 8 said to be 1" grep -q 'note: -g 8 with --via packet: every frame is one datagram; -g 1' "$TMP/$n.berr"
	check "$n: gso 1" test "$(field "$TMP/$n.blast" gso)" = 1
	check "$n: tos 184 ttl 9 read by suck" test "$(field "$TMP/$n.out" tos) $(field "$TMP/$n.out" ttl)" = "184 9"
fi

# --- a wrong --dst-mac: every frame goes, none arrives; the receiving device counts them all
# otherhost: the receiving device's drops of frames to another MAC (ip shows the column from
# Linux 6.0 on, and only once it is not 0)
otherhost() { ip -n "$R" -s -s link show "$DR" | awk 'f { print $NF; exit } /RX errors:/ && $NF == "otherhost" { f = 1 }'; }
o0=$(otherhost)
o0=${o0:-0}
n=wrongmac
if start_listener $n ip netns exec "$R" "$BIN/suck" -m mmsg -a "$A4" -p 0 -o tsv -t 4; then
	inS "$BIN/blast" --via packet -a "$A4" -p "$PORT" -o tsv -n 2000 -r 50000 --dst-mac 02:62:73:00:00:99 \
		>"$TMP/$n.blast" 2>"$TMP/$n.berr"
	check "$n: blast exits 0 ($(head -n 1 "$TMP/$n.berr"))" test $? = 0
	check "$n: suck ends at -t" wait_pid "$LISTENER_PID" 10
	check "$n: blast sent 2000 and fins ($(field "$TMP/$n.blast" sent), $(field "$TMP/$n.blast" fins))" \
		test "$(field "$TMP/$n.blast" sent)" = 2000 -a "$(field "$TMP/$n.blast" fins)" -gt 0
	check "$n: suck received none ($(field "$TMP/$n.out" received))" test "$(field "$TMP/$n.out" received)" = 0
	o1=$(otherhost)
	if [ -n "$o1" ]; then
		check "$n: the receiving device dropped every frame as another host's ($((o1 - o0)), tx_frames $(field "$TMP/$n.blast" tx_frames))" \
			test $((o1 - o0)) = "$(field "$TMP/$n.blast" tx_frames)"
	else
		skip "this ip shows no otherhost counter: the wrong MAC's drops not counted"
	fi
else
	fail "$n: suck did not start"
fi

# --- the checksum is the kernel's to check: off by one in every data frame, every one dropped
# (the fins, right, tell suck what was sent), as many UDP checksum errors
# shellcheck disable=SC2016 # awk's $
csum_errors() { inR awk '/^Udp:/ { n++; if (n == 1) for (i = 2; i <= NF; i++) if ($i == "InCsumErrors") c = i; if (n == 2) print $c }' /proc/net/snmp; }
c0=$(csum_errors)
n=badsum
if start_listener $n ip netns exec "$R" "$BIN/suck" -m mmsg -a "$A4" -p 0 -o tsv -t 10 --run-id 77; then
	inS env BS_VIA_TEST=badsum "$BIN/blast" --via packet -a "$A4" -p "$PORT" -o tsv -n 2000 -r 10000 --run-id 77 \
		>"$TMP/$n.blast" 2>/dev/null
	check "$n: suck ends on the fins" wait_pid "$LISTENER_PID" 10
	check "$n: sent 2000, valid 0, lost 2000 ($(field "$TMP/$n.out" sent) $(field "$TMP/$n.out" valid) $(field "$TMP/$n.out" lost))" \
		test "$(field "$TMP/$n.out" sent) $(field "$TMP/$n.out" valid) $(field "$TMP/$n.out" lost)" = "2000 0 2000"
	# Every frame that reaches UDP fails its checksum; on a loaded machine a few may be dropped
	# before it (the veth's backlog), so at least 95 %, never more than sent.
	ce=$(($(csum_errors) - c0))
	check "$n: UDP checksum errors in suck's namespace, 1900..2000 ($ce)" test "$ce" -ge 1900 -a "$ce" -le 2000
else
	fail "$n: suck did not start"
fi

# --- SIGINT: blast stops, sends its fins, and every datagram it counted arrived
n=sigint
sigint_via packet 4M

# --- --check: the row says the path; nothing sent
inS "$BIN/blast" --via packet -a "$A4" -p 9 --check -o tsv >"$TMP/chk.out" 2>"$TMP/chk.err"
check "check: exit 0 ($(cat "$TMP/chk.err"))" test $? = 0
check "check: via packet dev $DS dst_mac $MAC_R" \
	test "$(field "$TMP/chk.out" via) $(field "$TMP/chk.out" dev) $(field "$TMP/chk.out" dst_mac)" = "packet $DS $MAC_R"
inS "$BIN/blast" --via packet -a "$A4" -s 1473 --check >/dev/null 2>"$TMP/mtu.err"
check "-s 1473 over an MTU of 1500: exit 2 ($(cat "$TMP/mtu.err"))" test $? = 2
check "... naming -s and the largest" grep -q '^blast: -s 1473 with --via packet on .*accepted: -s 1472 or less' "$TMP/mtu.err"
inS "$BIN/blast" --via packet -a "$A4" --dev lo --check >/dev/null 2>"$TMP/lodev.err"
check "--dev lo: exit 4 ($(cat "$TMP/lodev.err"))" test $? = 4
if command -v setpriv >/dev/null 2>&1; then
	inS setpriv --reuid=65534 --regid=65534 --clear-groups "$BIN/blast" --via packet -a "$A4" --check \
		>/dev/null 2>"$TMP/priv.err"
	st=$?
	check "unprivileged: exit 4 ($st: $(cat "$TMP/priv.err"))" test $st = 4
	check "unprivileged: says it needs CAP_NET_RAW" grep -q 'needs CAP_NET_RAW (root)' "$TMP/priv.err"
else
	skip "no setpriv: the unprivileged refusal not checked"
fi

# --- a copy of this test, SIGTERM while its blast sends: its namespaces and processes go
n=hold
held_copy VIA_HOLD

done_tests
