# Multicast, only inside network namespaces this test makes, so that no
# group's datagram can leave on the machine's own interfaces: namespace A (this shell, run
# again under unshare -n) with lo and one end of a veth pair, namespace B (held by a sleep)
# with the other end; 198.18.0.0/15 and 2001:2::/48 addresses, administratively scoped groups
# (239.255.26.0/24, ff05::26:0/112), TTL 1. Checks: two receivers of one group on one port
# each count exactly, on every variant (lo) and across the veth (IPv4 and IPv6); a group's TTL
# is 1 unless --ttl; a receiver that did not join, or joined another group, gets nothing; a
# source filter keeps another source out while an any-source receiver gets both; strict
# options. Without root or unshare: skipped, visibly.
# shellcheck disable=SC2086 # $INB is words on purpose: nsenter and its arguments
if [ -z "${BS_MCAST_NS:-}" ] && [ "$(id -u)" = 0 ] && unshare -n true 2>/dev/null; then
	BS_MCAST_NS=1 exec unshare -n sh "$0" "$@"
fi
. tests/lib.sh
if [ -z "${BS_MCAST_NS:-}" ]; then
	skip "multicast: needs root and unshare -n for a network namespace of its own"
	done_tests
	exit
fi

G4=239.255.26.1 G4B=239.255.26.2 G6=ff05::26:1 G6B=ff05::26:2
A4=198.18.0.1 B4=198.18.0.2 A6=2001:2::1 B6=2001:2::2

# Namespace A: lo with multicast, the veth pair va (here) and vb (in B).
ip link set lo up && ip link set lo multicast on || { fail "lo up"; done_tests; exit 1; }
unshare -n sleep 600 &
NSB=$!
PIDS="$PIDS $NSB"
i=0
while [ "$(readlink /proc/$NSB/ns/net 2>/dev/null)" = "$(readlink /proc/self/ns/net)" ] && [ $i -lt 500 ]; do
	i=$((i + 1))
	sleep 0.01
done
# A command in B: words, not a function, so that a process started with it is the command
# itself (nsenter execs it), which kill and wait reach.
INB="nsenter -t $NSB -n"
if ! ip link add va type veth peer name vb || ! ip link set vb netns "$NSB"; then
	skip "no veth pair here: the tests between two namespaces"
	VETH=0
else
	VETH=1
	ip addr add $A4/24 dev va && ip -6 addr add $A6/64 dev va nodad && ip link set va up &&
		$INB ip link set lo up && $INB ip addr add $B4/24 dev vb && $INB ip -6 addr add $B6/64 dev vb nodad &&
		$INB ip link set vb up || fail "setting up the veth pair"
fi

# rx NAME: the keys of a receiver's report that the messages show
rx() { echo "received $(field "$TMP/$1.out" received) valid $(field "$TMP/$1.out" valid) foreign $(field "$TMP/$1.out" foreign) stop $(field "$TMP/$1.out" stop)"; }
# A blast to a group repeats its fins for the whole 2 s (no port can refuse them): each
# runs in the background while the test goes on, and is waited for at the end (blasts_done);
# one the test must wait for says --fin-time 0.5.
BLASTS=""
bg_blast() { # NAME ARGS...: blast ARGS in the background, report in $TMP/NAME.b
	bb=$1; shift
	"$BIN/blast" "$@" >"$TMP/$bb.b" 2>"$TMP/$bb.berr" &
	echo $! >"$TMP/$bb.bpid"
	PIDS="$PIDS $!"
	BLASTS="$BLASTS $bb"
}
blasts_done() { # waits for every background blast and checks it exited 0
	for bb in $BLASTS; do
		wait "$(cat "$TMP/$bb.bpid")"
		check "$bb: blast exit 0 ($(cat "$TMP/$bb.berr"))" test $? = 0
	done
	BLASTS=""
}
# exact NAME SENT: the receiver NAME got exactly SENT datagrams, every one valid, and the fins
exact() {
	check "$1: exact, $2 sent ($(rx "$1"))" \
		test "$(field "$TMP/$1.out" received) $(field "$TMP/$1.out" valid) $(field "$TMP/$1.out" lost) $(field "$TMP/$1.out" stop)" = "$2 $2 0 fin"
}

# --- two receivers of one group on lo, every variant (IPv4: IPv6 routes nothing through lo) ---
for v in $(variants); do
	c=lo-$v
	start_suck "$c-a" -m "$v" --join $G4 --mc-if lo -R 4M -o tsv -t 30 || { skip "$c: $(cat "$TMP/$c-a.err")"; continue; }
	a=$SUCK_PID
	start_listener "$c-b" "$BIN/suck" -p "$PORT" -m "$v" --join $G4 --mc-if lo -R 4M -o tsv -t 30 ||
		{ fail "$c: a second receiver of the group was refused the port"; continue; }
	b=$LISTENER_PID
	bg_blast "$c" -a $G4 -p "$PORT" --mc-if lo -s 500 -n 2000 -r 20000 -o tsv
	check "$c: receivers end" wait_pid "$a" 20
	wait_pid "$b" 20
	exact "$c-a" 2000
	exact "$c-b" 2000
	check "$c: suck: group $G4, mc_if lo" test "$(field "$TMP/$c-a.out" group) $(field "$TMP/$c-a.out" mc_if) $(field "$TMP/$c-a.out" source)" = "$G4 lo -"
done
LO_BLASTS=$BLASTS
blasts_done
for c in $LO_BLASTS; do
	check "$c: blast: group 1, ttl 1, mc_if lo, mc_loop 0" test "$(field "$TMP/$c.b" group) $(field "$TMP/$c.b" ttl) $(field "$TMP/$c.b" mc_if) $(field "$TMP/$c.b" mc_loop)" = "1 1 lo 0"
done

# A plain suck holds its port alone: a group's receiver is refused it, and the other way round.
start_suck plain -a 0.0.0.0 -o tsv -t 30 || fail "plain: suck did not start"
"$BIN/suck" -p "$PORT" --join $G4 --mc-if lo -t 1 >/dev/null 2>"$TMP/share.err"
check "a group receiver does not share a plain suck's port (exit $?)" grep -q "bind" "$TMP/share.err"
kill "$SUCK_PID" 2>/dev/null
wait_pid "$SUCK_PID" 10

# --- source-specific on lo: the source the kernel gives this host's datagrams to a group over lo
# is not 127.0.0.1 (host scope, which a multicast route never picks) but another device's address,
# here va's $A4 (ip route get $G4 oif lo). suck --source 127.0.0.1 would silently get nothing:
# it says at the start which source the kernel will use, and at the end that nothing arrived.
if [ $VETH = 1 ]; then
	kern=$(ip route get $G4 oif lo 2>/dev/null | sed -n 's/.* src \([0-9.]*\).*/\1/p')
	check "lo: the kernel's source for $G4 over lo is $A4 (got '$kern')" test "$kern" = "$A4"
	c=lo-ssm-127
	start_suck "$c" --join $G4 --source 127.0.0.1 --mc-if lo -o tsv -t 10 --idle 2 || fail "$c: suck did not start"
	a=$SUCK_PID
	bg_blast "$c" -a $G4 -p "$PORT" --mc-if lo -n 300 -r 10000 -o tsv
	wait_pid "$a" 20
	check "$c: says at the start the kernel sends from $A4 ($(head -n 1 "$TMP/$c.err"))" \
		grep -q "^suck: warning: --source 127.0.0.1: a sender on this host sends to $G4 over lo from $A4, the address the kernel picks (ip route get $G4 oif lo)" "$TMP/$c.err"
	check "$c: said before it listens" test "$(grep -n 'sends to' "$TMP/$c.err" | cut -d: -f1)" -lt "$(grep -n 'listening on' "$TMP/$c.err" | cut -d: -f1)"
	check "$c: the filter let nothing in ($(rx "$c"))" test "$(field "$TMP/$c.out" received)" = 0
	check "$c: says at the end that nothing arrived from 127.0.0.1" \
		grep -q "^suck: warning: --source 127.0.0.1: nothing arrived from it; this host's senders send to $G4 from $A4" "$TMP/$c.err"
	c=lo-ssm-a
	start_suck "$c" --join $G4 --source $A4 --mc-if lo -o tsv -t 10 || fail "$c: suck did not start"
	a=$SUCK_PID
	bg_blast "$c" -a $G4 -p "$PORT" --mc-if lo -n 300 -r 10000 -o tsv
	wait_pid "$a" 20
	exact "$c" 300
	check "$c: --source $A4, the kernel's: no warning ($(grep warning "$TMP/$c.err"))" sh -c "! grep -q warning '$TMP/$c.err'"
	c=lo-ssm-far
	start_suck "$c" --join $G4 --source 198.18.0.9 --mc-if lo -o tsv -t 10 --idle 2 || fail "$c: suck did not start"
	a=$SUCK_PID
	bg_blast "$c" -a $G4 -p "$PORT" --mc-if lo -n 300 -r 10000 -o tsv
	wait_pid "$a" 20
	check "$c: another host's source: nothing said at the start" sh -c "! grep -q 'sends to' '$TMP/$c.err'"
	check "$c: nothing arrived, said at the end" grep -q "^suck: warning: --source 198.18.0.9: nothing arrived from it (a source-specific join" "$TMP/$c.err"
	blasts_done
fi

# --- across the veth pair, IPv4 and IPv6: two receivers in B, the sender in A -----------------
if [ $VETH = 1 ]; then
	for fam in 4 6; do
		if [ $fam = 4 ]; then G=$G4 GB=$G4B SRC_A=$A4 SRC_B=$B4 ANY=0.0.0.0; else G=$G6 GB=$G6B SRC_A=$A6 SRC_B=$B6 ANY=::; fi
		c=veth$fam
		start_listener "$c-a" $INB "$BIN/suck" -p 0 -m mmsg --join $G --mc-if vb --marks -R 4M -o tsv -t 30 ||
			{ fail "$c: suck did not start"; continue; }
		a=$LISTENER_PID P=$PORT
		start_listener "$c-b" $INB "$BIN/suck" -p $P -m buffer --join $G --mc-if vb -R 4M -o tsv -t 30 ||
			fail "$c: a second receiver was refused"
		b=$LISTENER_PID
		bg_blast "$c" -a $G -p $P --mc-if va -s 300 -n 1500 -r 15000 -o tsv
		wait_pid "$a" 20
		wait_pid "$b" 20
		exact "$c-a" 1500
		exact "$c-b" 1500
		check "$c: a group's TTL is 1 ($(field "$TMP/$c-a.out" ttl))" test "$(field "$TMP/$c-a.out" ttl)" = 1

		# --ttl for a group
		c=veth$fam-ttl
		start_listener "$c" $INB "$BIN/suck" -p 0 --join $G --mc-if vb --marks -R 4M -o tsv -t 30 || fail "$c: suck did not start"
		a=$LISTENER_PID
		bg_blast "$c" -a $G -p $PORT --mc-if va --ttl 3 --tos 32 -n 300 -r 10000 -o tsv
		wait_pid "$a" 20
		check "$c: ttl 3 tos 32 ($(field "$TMP/$c.out" ttl) $(field "$TMP/$c.out" tos))" \
			test "$(field "$TMP/$c.out" ttl) $(field "$TMP/$c.out" tos) $(field "$TMP/$c.out" valid)" = "3 32 300"

		# A receiver that did not join gets nothing (B has joined no group now). One on the
		# wildcard address that joined another group gets nothing of this one, although a
		# receiver of this group shares its port and so the host is a member (Linux hands such
		# a socket every group of the host unless it says IP_MULTICAST_ALL 0, as --join does).
		c=veth$fam-none
		start_listener "$c" $INB "$BIN/suck" -p 0 -a $ANY -o tsv -t 2 || fail "$c: suck did not start"
		a=$LISTENER_PID
		"$BIN/blast" -a $G -p $PORT --mc-if va -n 500 -r 10000 --fin-time 0.5 -o tsv >"$TMP/$c.b" 2>/dev/null
		wait_pid "$a" 20
		check "$c: blast sent ($(field "$TMP/$c.b" sent))" test "$(field "$TMP/$c.b" sent)" = 500
		check "$c: a receiver that did not join gets nothing ($(rx "$c"))" test "$(field "$TMP/$c.out" received)" = 0
		c=veth$fam-other
		start_listener "$c-g" $INB "$BIN/suck" -p 0 --join $G --mc-if vb -R 4M -o tsv -t 30 || fail "$c: suck did not start"
		a=$LISTENER_PID P=$PORT
		start_listener "$c" $INB "$BIN/suck" -p $P -a $ANY --join $GB --mc-if vb -o tsv -t 30 --idle 3 ||
			fail "$c: suck did not start"
		b=$LISTENER_PID
		bg_blast "$c" -a $G -p $P --mc-if va -n 500 -r 10000 -o tsv
		wait_pid "$a" 20
		kill "$b" 2>/dev/null
		wait_pid "$b" 20
		exact "$c-g" 500
		check "$c: one that joined $GB gets nothing of $G ($(rx "$c"))" test "$(field "$TMP/$c.out" received)" = 0

		# Source filter: R1 joins G from A's address only, R2 from any source. B sends to
		# the group too (run 2, looped to B's own receivers), then A (run 1): R1 counts A's
		# alone, R2 both, B's as another run.
		c=veth$fam-ssm
		start_listener "$c-r1" $INB "$BIN/suck" -p 0 --join $G --source $SRC_A --mc-if vb --run-id 1 -R 4M -o tsv -t 30 ||
			{ fail "$c: suck did not start"; continue; }
		r1=$LISTENER_PID P=$PORT
		start_listener "$c-r2" $INB "$BIN/suck" -p $P --join $G --mc-if vb --run-id 1 -R 4M -o tsv -t 30 ||
			fail "$c-r2: suck did not start"
		r2=$LISTENER_PID
		$INB "$BIN/blast" -a $G -p $P --mc-if vb --mc-loop --run-id 2 -n 700 -r 10000 --fin-time 0.5 -o tsv >"$TMP/$c.bb" 2>&1
		bg_blast "$c-a" -a $G -p $P --mc-if va --run-id 1 -n 900 -r 10000 -o tsv
		wait_pid "$r1" 20
		wait_pid "$r2" 20
		check "$c: the source filter keeps $SRC_B out ($(rx "$c-r1"))" \
			test "$(field "$TMP/$c-r1.out" received) $(field "$TMP/$c-r1.out" foreign) $(field "$TMP/$c-r1.out" valid)" = "900 0 900"
		check "$c-r1: source $SRC_A" test "$(field "$TMP/$c-r1.out" source)" = "$SRC_A"
		fb=$(field "$TMP/$c.bb" fins)
		check "$c: an any-source receiver gets both: 900 + 700 + $fb of B's fins ($(rx "$c-r2"))" \
			test "$(field "$TMP/$c-r2.out" received) $(field "$TMP/$c-r2.out" valid) $(field "$TMP/$c-r2.out" foreign)" = "$((1600 + fb)) 900 $((700 + fb))"
	done
	blasts_done
fi

# --- options -------------------------------------------------------------------------------------
bad() { # TOOL MESSAGE ARGS...: TOOL --check ARGS exits 2 and says MESSAGE
	t=$1 m=$2; shift 2
	"$BIN/$t" --check "$@" >/dev/null 2>"$TMP/bad.err"
	st=$?
	check "$t $*: exit 2 ($st)" test "$st" = 2
	check "$t $*: says '$m' ($(cat "$TMP/bad.err"))" grep -qF -- "$m" "$TMP/bad.err"
}
bad suck "--source applies to --join" --source 198.18.0.1
bad suck "--mc-if applies to --join" --mc-if lo
bad suck "--join '10.1.2.3': not a multicast group" --join 10.1.2.3
bad suck "--join with -j 2" --join $G4 -j 2
bad suck "--mc-if 'nosuch0': no such interface" --join $G4 --mc-if nosuch0
bad suck "--source '239.255.26.9': a unicast address of the group's family" --join $G4 --source 239.255.26.9
bad suck "--source '2001:2::1': a unicast address of the group's family" --join $G4 --source 2001:2::1
bad suck "with --join '239.255.26.1': bind an address of the group's family" -a :: --join $G4
bad blast "--mc-loop applies to a multicast group" -a 127.0.0.1 --mc-loop
bad blast "--mc-if applies to a multicast group" --mc-if lo
bad blast "--mc-if 'nosuch0': no such interface" -a $G4 --mc-if nosuch0
bad blast "--rtt to a multicast group" -a $G4 --rtt

"$BIN/suck" --check -p 0 --join $G4 --source $A4 --mc-if lo -o tsv >"$TMP/scheck" 2>&1
check "suck --check --join: $(tail -n 1 "$TMP/scheck" | cut -c1-60)" \
	test "$(field "$TMP/scheck" group) $(field "$TMP/scheck" source) $(field "$TMP/scheck" mc_if) $(field "$TMP/scheck" addr)" = "$G4 $A4 lo $G4:0"
"$BIN/blast" --check -a $G4 --mc-if lo --mc-loop -o tsv >"$TMP/bcheck" 2>&1
check "blast --check to a group" test "$(field "$TMP/bcheck" group) $(field "$TMP/bcheck" ttl) $(field "$TMP/bcheck" mc_if) $(field "$TMP/bcheck" mc_loop)" = "1 1 lo 1"
"$BIN/blast" --check -o tsv >"$TMP/ucheck" 2>&1
check "blast --check to a unicast address: group 0, ttl -" test "$(field "$TMP/ucheck" group) $(field "$TMP/ucheck" ttl) $(field "$TMP/ucheck" mc_loop)" = "0 - -"

done_tests
