# Wire mode (--wire, scripts/lib/wire.sh): a veth pair between two network namespaces, GRO on
# suck's end, threaded NAPI pinned to suck's CPU. A short suite over every variant (suck -m
# list) completes with the accounting exact and the kernel's receive work counted, so does one
# over IPv6 at a paced rate; ndr, sweep and reproduce gro-2018 run on it; with two hosts'
# prefixes env.txt describes suck's device (--rx-dev too); nothing they made is left after a
# normal end, a bad option found once it was built, SIGTERM while it is being set up and SIGINT
# mid-run. Loopback's rx_kernel_s is "-". Without root --wire exits 4 with its
# message. Runs: 0.3-0.5 s each, about 20 in all; every sender bounded by -t; the traffic stays
# in the namespaces the scripts make, on 198.18.0.0/15 and 2001:2::/48.
# shellcheck disable=SC2046,SC2016 # names_of's words are two names; the conditions are eval'd
. tests/lib.sh
export GNUPLOT=/nonexistent/gnuplot # no plots: -P, or they would be drawn

# rv FILE VARIANT KEY: KEY's value in the row of VARIANT of a runs.tsv.
rv() {
	awk -F'\t' -v v="$2" -v k="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i; next }
		$1 == v && c { print $c; exit }' "$1"
}
# num_gt X Y: X is a number greater than Y.
num_gt() { awk -v x="$1" -v y="$2" 'BEGIN { exit !(x ~ /^[0-9]+(\.[0-9]+)?$/ && x + 0 > y + 0) }'; }
# names_of DIR: the namespaces a result's env.txt says its wire used.
names_of() { sed -n 's/^wire: veth between network namespaces \([^ ]*\) (blast) and \([^ ]*\) (suck).*/\1 \2/p' "$1/env.txt"; }
# gone NAMES...: no namespace of NAMES exists, and no device of theirs is left here.
gone() {
	[ $# -gt 0 ] || { echo "no namespace named"; return 1; }
	for g in "$@"; do
		ip netns list 2>/dev/null | awk -v n="$g" '$1 == n { f = 1 } END { exit f }' || { echo "namespace $g left"; return 1; }
		p=${g#bs-wire-}
		p=${p%%-*}
		! ip -o link show 2>/dev/null | grep -q "bs$(printf '%07d' "$p")" || { echo "a device of $g left"; return 1; }
	done
}
# rows_exact FILE ADDR VARIANTS: every run of each variant adds up exactly, its fin was believed,
# it crossed the wire to ADDR, and the kernel's receive work is a number above 0.
rows_exact() {
	re_f=$1 re_a=$2
	shift 2
	for v in "$@"; do
		if [ -z "$(rv "$re_f" "$v" variant)" ]; then
			# a variant this kernel lacks (suck's exit 4) is skipped with a note; anything else fails
			check "$v: no row, skipped with a note (notes: $(grep "^- $v" "${re_f%/runs.tsv}/table.md" 2>/dev/null | head -n 2 | tr '\n' ' '))" \
				grep -q "^- $v: skipped, not supported here" "${re_f%/runs.tsv}/table.md"
			continue
		fi
		sent=$(rv "$re_f" "$v" suck_sent) valid=$(rv "$re_f" "$v" suck_valid) lost=$(rv "$re_f" "$v" suck_lost)
		recv=$(rv "$re_f" "$v" suck_received) dropped=$(rv "$re_f" "$v" suck_dropped)
		check "$v: suck stopped on the fin" test "$(rv "$re_f" "$v" suck_stop)" = fin
		check "$v: sent not estimated, and blast's" test "$(rv "$re_f" "$v" suck_sent_estimated):$sent" = "0:$(rv "$re_f" "$v" blast_sent)"
		check "$v: valid > 0 ($valid)" test "${valid:-0}" -gt 0
		check "$v: sent == valid + lost ($sent $valid $lost)" test "$sent" -eq $((valid + lost))
		check "$v: dropped <= lost ($dropped $lost)" test "$dropped" -le "$lost"
		check "$v: lost == dropped + queue_dropped + elsewhere" test "$lost" -eq \
			$((dropped + $(rv "$re_f" "$v" suck_queue_dropped) + $(rv "$re_f" "$v" suck_elsewhere)))
		check "$v: received == valid + dup + late + foreign + truncated" test "$recv" -eq \
			$((valid + $(rv "$re_f" "$v" suck_dup) + $(rv "$re_f" "$v" suck_late) + $(rv "$re_f" "$v" suck_foreign) + $(rv "$re_f" "$v" suck_truncated)))
		check "$v: nothing foreign on a link of its own" test "$(rv "$re_f" "$v" suck_foreign)" = 0
		check "$v: suck bound $re_a" sh -c "printf '%s\n' '$(rv "$re_f" "$v" suck_addr)' | grep -qF '$re_a'"
		k=$(rv "$re_f" "$v" suck_rx_kernel_s)
		if [ "$NAPI" = 0 ]; then
			check "$v: no NAPI thread here: rx_kernel_s is '-', never a guess" test "$k" = -
			continue
		fi
		check "$v: rx_kernel_s is a number > 0 on the wire ($k)" num_gt "$k" 0
		check "$v: rx_kernel_ns_per_pkt > 0" num_gt "$(rv "$re_f" "$v" suck_rx_kernel_ns_per_pkt)" 0
		check "$v: rx_total_ns_per_pkt = cpu_ns_per_pkt + rx_kernel_ns_per_pkt" awk -v t="$(rv "$re_f" "$v" suck_rx_total_ns_per_pkt)" \
			-v c="$(rv "$re_f" "$v" suck_cpu_ns_per_pkt)" -v k="$(rv "$re_f" "$v" suck_rx_kernel_ns_per_pkt)" \
			'BEGIN { d = t - c - k; exit !(t > 0 && d < 1 && d > -1) }'
	done
}

# --- loopback: the kernel's receive work cannot be attributed, "-" (no device; lo has no NAPI)
for rxd in none lo; do
	a=
	[ "$rxd" = none ] || a="--rx-dev lo"
	# shellcheck disable=SC2086
	start_suck "lo-$rxd" -m buffer -o tsv --idle 5 -t 30 $a || { fail "loopback $rxd: suck did not start"; continue; }
	"$BIN/blast" -p "$PORT" -t 0.2 -o tsv >/dev/null 2>&1
	wait_pid "$SUCK_PID" 10
	check "loopback ($rxd): datagrams received" num_gt "$(field "$TMP/lo-$rxd.out" received)" 0
	for k in rx_napi_s rx_kernel_s rx_kernel_ns_per_pkt rx_total_ns_per_pkt; do
		check "loopback ($rxd): $k is '-'" test "$(field "$TMP/lo-$rxd.out" "$k")" = -
	done
done

# --- bad usage, found before anything is made (root or not)
wbad() {
	wb_says=$1
	shift
	wb_st=0
	"$@" >"$TMP/bad.out" 2>"$TMP/bad.err" || wb_st=$?
	check "$*: exit 2 (got $wb_st)" test "$wb_st" -eq 2
	check "$*: says \"$wb_says\"" grep -qF -- "$wb_says" "$TMP/bad.err"
}
wbad "--mtu: only with --wire" sh scripts/suite --mtu 9000 -o "$TMP/bad"
wbad "--mtu '100': accepted: 1280..65535" sh scripts/suite --wire --mtu 100 -o "$TMP/bad"
wbad "-a '10.0.0.1': with --wire suck listens on the receive end: 198.18.0.2" sh scripts/ndr --wire -a 10.0.0.1 -o "$TMP/bad"
wbad "--wire runs suck and blast in namespaces of its own" env SUCK_CMD="ssh host-b" sh scripts/sweep rate --wire -o "$TMP/bad"
wbad "--rx-dev: --wire names suck's device itself" sh scripts/suite --wire --rx-dev eth0 -o "$TMP/bad"
wbad "--rx-dev 'a/b': a device name" sh scripts/suite --rx-dev a/b -o "$TMP/bad"
wbad "gso-2018 --wire: gso-2018 measures one CPU" sh scripts/reproduce gso-2018 --wire -o "$TMP/bad"
wbad "--wire: not for perf" sh scripts/perf --wire
check "bad usage: nothing written" test ! -e "$TMP/bad"

# --- without root: exit 4 and its message, from every command (a copy of scripts/ the
# unprivileged user can read: the tree may be in root's home)
if [ "$(id -u)" -ne 0 ]; then
	AS=
elif setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	AS="setpriv --reuid=65534 --regid=65534 --clear-groups"
elif su nobody -s /bin/sh -c true 2>/dev/null; then
	AS=su
else
	AS=none
fi
if [ "$AS" = none ]; then
	skip "neither setpriv nor su: --wire without root not checked"
else
	chmod 755 "$TMP"
	mkdir "$TMP/u"
	cp -R scripts "$TMP/u/"
	chmod -R a+rX "$TMP/u"
	for c in suite ndr "sweep rate" "reproduce gro-2018"; do
		line="sh $TMP/u/scripts/$c --wire -o $TMP/u/out" # TMP: mktemp's, no space or quote
		st=0
		# shellcheck disable=SC2086 # the runner's words and the line's
		case $AS in
		su) su nobody -s /bin/sh -c "cd / && $line" >"$TMP/u.out" 2>"$TMP/u.err" || st=$? ;;
		*) (cd / && $AS $line) >"$TMP/u.out" 2>"$TMP/u.err" || st=$? ;;
		esac
		check "$c --wire without root: exit 4 (got $st: $(head -n 1 "$TMP/u.err"))" test "$st" -eq 4
		check "$c --wire without root: says it needs root" grep -q -- '--wire needs root .*: not supported here (exit 4)' "$TMP/u.err"
	done
	check "--wire without root: nothing written" test ! -e "$TMP/u/out"
fi

# --- as root: the path itself
need_root_ip "--wire"
if ! ip netns add "bs-wire-probe-$$" 2>"$TMP/ip.err"; then
	skip "cannot make network namespaces here: $(head -n 1 "$TMP/ip.err")"
	done_tests
	exit
fi
ip netns del "bs-wire-probe-$$"

# Every variant, IPv4, as fast as blast goes (drops happen: the identities hold whatever is lost).
V=$(variants | tr '\n' ' ')
D=$TMP/v4
sh scripts/suite --wire -t 0.5 -r 1 -W 0 -P -o "$D" >"$TMP/v4.out" 2>"$TMP/v4.err"
st=$?
if [ "$st" -eq 4 ] && grep -q -- '--wire .*: not supported here (exit 4)' "$TMP/v4.err"; then
	# root with network namespaces, but no veth (or no ip netns exec) here
	skip "$(grep -- '--wire' "$TMP/v4.err" | head -n 1)"
	done_tests
	exit
fi
check "suite --wire: exit 0 (got $st: $(tail -n 1 "$TMP/v4.err"))" test "$st" -eq 0
[ "$st" -eq 0 ] || tail -n 20 "$TMP/v4.err"
# A kernel without threaded NAPI (before 5.12) runs, says so, and reports '-' for its work.
NAPI=$(grep -c '^rx_dev.napi: [0-9]' "$D/env.txt")
[ "$NAPI" -gt 0 ] || skip "no threaded NAPI here ($(sed -n 's/^wire_refused: //p' "$D/env.txt")): rx_kernel_s checked to be '-'"
# shellcheck disable=SC2086 # one word per variant
rows_exact "$D/runs.tsv" 198.18.0.2: $V
check "gro: datagrams coalesced on the wire (segs_per_buf $(rv "$D/runs.tsv" gro suck_segs_per_buf))" \
	num_gt "$(rv "$D/runs.tsv" gro suck_segs_per_buf)" 1
set -- $(names_of "$D")
check "env.txt: the two namespaces ($*)" test $# -eq 2
gone "$@"
check "suite --wire: nothing left behind" test $? -eq 0
E=$D/env.txt
check "env.txt: GRO set on suck's end" grep -q '^wire_set: .*r rx-gro on' "$E"
check "env.txt: USO off on blast's end" grep -q '^wire_set: .*s .*tx-udp-segmentation off' "$E"
check "env.txt: what the kernel refused" grep -q '^wire_refused: ' "$E"
check "env.txt: the receiving device and its driver" sh -c "grep -q '^rx_dev: bs[0-9]*r$' '$E' && grep -q '^rx_dev.driver: veth$' '$E'"
check "env.txt: its features" grep -q '^rx_dev.feature.rx-gro: on' "$E"
[ "$NAPI" = 0 ] || check "env.txt: the NAPI thread and its CPUs" grep -q '^rx_dev.napi: [0-9]* napi/bs[0-9]*r.* cpus [0-9]' "$E"
check "env.txt: one host (the namespaces share it)" sh -c "! grep -q '^blast_host\.' '$E'"
check "suck ran in suck's namespace with --rx-dev" grep -q "^cmd: ip netns exec $2 .*/suck -a 198.18.0.2 .* --rx-dev bs[0-9]*r" "$E"
check "blast ran in blast's" grep -q "^cmd: ip netns exec $1 .*/blast -a 198.18.0.2 " "$E"
[ "$NAPI" = 0 ] || check "table.md: the receive path's table" grep -qF '| kernel rx ns/datagram | total rx ns/datagram |' "$D/table.md"
check "table.md: the path said" grep -q '^Path: wire (--wire)' "$D/table.md"

# IPv6, paced (few drops, if any: the identities are checked either way), jumbo frames.
D=$TMP/v6
sh scripts/suite --wire --mtu 9000 -a 2001:2::2 -m "buffer gro" -s 8000 -B "-r 5000" -t 0.5 -r 1 -W 0 -P -o "$D" >"$TMP/v6.out" 2>"$TMP/v6.err"
st=$?
check "suite --wire IPv6: exit 0 (got $st: $(tail -n 1 "$TMP/v6.err"))" test "$st" -eq 0
[ "$st" -eq 0 ] || tail -n 20 "$TMP/v6.err"
rows_exact "$D/runs.tsv" 2001:2::2 buffer gro
check "IPv6: 8000-byte datagrams whole on a 9000-byte MTU" test "$(rv "$D/runs.tsv" buffer suck_bytes)" -eq $((8000 * $(rv "$D/runs.tsv" buffer suck_received)))
check "env.txt: the MTU, set and read back" sh -c "grep -q '^wire_mtu: 9000$' '$D/env.txt' && grep -q '^rx_dev.mtu: 9000$' '$D/env.txt'"
gone $(names_of "$D")
check "IPv6 suite: nothing left behind" test $? -eq 0

# ndr, sweep and reproduce gro-2018 on the wire: short, each cleaned up.
sh scripts/ndr --wire -m buffer -t 0.3 --max-trials 5 -R 50 -P -o "$TMP/ndr" >"$TMP/ndr.out" 2>"$TMP/ndr.err"
st=$?
check "ndr --wire: exit 0 (got $st: $(tail -n 1 "$TMP/ndr.err"))" test "$st" -eq 0
[ "$NAPI" = 0 ] || check "ndr --wire: trials.tsv has the kernel's work per datagram" num_gt "$(col "$TMP/ndr/trials.tsv" rx_kernel_ns_per_pkt | head -n 1)" 0
gone $(names_of "$TMP/ndr")
check "ndr --wire: nothing left behind" test $? -eq 0
sh scripts/sweep size --wire -m gro --sizes 1450 -t 0.3 -P -o "$TMP/sweep" >"$TMP/sweep.out" 2>"$TMP/sweep.err"
st=$?
check "sweep --wire: exit 0 (got $st: $(tail -n 1 "$TMP/sweep.err"))" test "$st" -eq 0
[ "$NAPI" = 0 ] || check "sweep --wire: size.tsv has the whole receive path per datagram" num_gt "$(col "$TMP/sweep/size.tsv" rx_total_ns_per_pkt | head -n 1)" 0
gone $(names_of "$TMP/sweep")
check "sweep --wire: nothing left behind" test $? -eq 0
sh scripts/reproduce gro-2018 --wire -t 0.3 -r 1 -o "$TMP/gro" >"$TMP/gro.out" 2>"$TMP/gro.err"
st=$?
check "reproduce gro-2018 --wire: exit 0 (got $st: $(tail -n 1 "$TMP/gro.err"))" test "$st" -eq 0
[ "$NAPI" = 0 ] || check "reproduce gro-2018 --wire: the NAPI thread's CPU per GB" num_gt "$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "rx_kernel_s_per_gb") c = i; next } $1 == "here" { print $c; exit }' "$TMP/gro/reproduce.tsv")" 0
check "reproduce gro-2018 --wire: the paragraph on the wire" grep -qF 'On the wire the datagrams cross the link one by one' "$TMP/gro/reproduce.md"
gone $(names_of "$TMP/gro")
check "reproduce --wire: nothing left behind" test $? -eq 0

# Two hosts (prefixes, no --wire), made here as t_twohost makes them: env.txt describes the
# device holding -a; --rx-dev DEV goes to suck, and without threaded NAPI its kernel work is "-".
NSA=bs-hosta-$$ NSB=bs-hostb-$$
# shellcheck disable=SC2154 # p is the loop variable inside the trap
trap 'ip netns del "$NSA" 2>/dev/null; ip netns del "$NSB" 2>/dev/null; for p in $PIDS; do kill "$p" 2>/dev/null; done; rm -rf "$TMP"' EXIT
if ip netns add "$NSA" && ip netns add "$NSB" &&
	ip link add "ha$$" netns "$NSA" type veth peer name "hb$$" netns "$NSB" &&
	ip -n "$NSA" addr add 198.19.0.1/30 dev "ha$$" && ip -n "$NSB" addr add 198.19.0.2/30 dev "hb$$" &&
	ip -n "$NSA" link set "ha$$" up && ip -n "$NSB" link set "hb$$" up; then
	for rxd in "" "hb$$"; do
		D=$TMP/two$rxd
		SUCK_CMD="ip netns exec $NSB" BLAST_CMD="ip netns exec $NSA" \
			sh scripts/suite -t 0.3 -r 1 -W 0 -m buffer -P -a 198.19.0.2 ${rxd:+--rx-dev "$rxd"} -o "$D" >/dev/null 2>"$TMP/two.err"
		check "two hosts${rxd:+ --rx-dev $rxd}: exit 0" test $? -eq 0
		check "two hosts${rxd:+ --rx-dev $rxd}: env.txt names suck's device" grep -qx "rx_dev: hb$$" "$D/env.txt"
		check "two hosts${rxd:+ --rx-dev $rxd}: and says it has no NAPI thread" grep -q '^rx_dev.napi: none' "$D/env.txt"
		check "two hosts${rxd:+ --rx-dev $rxd}: no wire lines" sh -c "! grep -q '^wire' '$D/env.txt'"
		if [ -n "$rxd" ]; then
			check "two hosts --rx-dev $rxd: given to suck" grep -q "^cmd: ip netns exec $NSB .*/suck .* --rx-dev $rxd\$" "$D/env.txt"
		else
			check "two hosts: no --rx-dev for suck" sh -c "! grep -q -- '--rx-dev' '$D/env.txt'"
		fi
		check "two hosts${rxd:+ --rx-dev $rxd}: rx_kernel_s '-', never a guess" test "$(rv "$D/runs.tsv" buffer suck_rx_kernel_s)" = -
	done
else
	skip "cannot make the two-host namespaces"
fi
ip netns del "$NSA" 2>/dev/null
ip netns del "$NSB" 2>/dev/null

# A bad option suck refuses, found after the path is built: exit 2, nothing left.
sh scripts/suite --wire -m buffer -w bogus -t 0.3 -r 1 -W 0 -P -o "$TMP/badw" >/dev/null 2>"$TMP/badw.err" &
bp=$!
wait "$bp"
check "suite --wire -w bogus: exit 2" test $? -eq 2
gone "bs-wire-$bp-blast" "bs-wire-$bp-suck"
check "suite --wire -w bogus: nothing left behind" test $? -eq 0

# interrupted NAME SIG WHEN: a suite --wire of 20 s runs sent SIG once WHEN holds (its pid in P):
# it ends within 15 s with 128 + the signal and leaves no namespace, and no process in one.
interrupted() {
	$LAUNCH sh scripts/suite --wire -t 20 -r 2 -W 0 -m buffer -P -o "$TMP/$1" >/dev/null 2>"$TMP/$1.err" &
	P=$!
	PIDS="$PIDS $P"
	i=0
	while ! eval "$3" && [ $i -lt 1000 ]; do
		i=$((i + 1))
		sleep 0.01
	done
	inside=$(ip netns pids "bs-wire-$P-suck" 2>/dev/null; ip netns pids "bs-wire-$P-blast" 2>/dev/null)
	kill -"$2" "$P"
	if wait_pid "$P" 15; then wait "$P"; st=$?; else st=hung; fi
	case $2 in INT) want=130 ;; *) want=143 ;; esac
	check "$1: SIG$2 ends it with $want (got $st)" test "$st" = "$want"
	gone "bs-wire-$P-blast" "bs-wire-$P-suck"
	check "$1: no namespace left" test $? -eq 0
	alive=
	for p in $inside; do kill -0 "$p" 2>/dev/null && alive="$alive $p"; done
	check "$1: what ran in them ended ($inside)" test -z "$alive"
	check "$1: nothing written" test ! -e "$TMP/$1"
}
# sending P: the blast of a run (not of a check: it has no -p) is in suite P's namespace.
sending() {
	for sp in $(ip netns pids "bs-wire-$1-blast" 2>/dev/null); do
		tr '\0' ' ' <"/proc/$sp/cmdline" 2>/dev/null | grep -q '/blast .*-p [0-9]' && return 0
	done
	return 1
}
LAUNCH=
! env --default-signal=INT true 2>/dev/null || LAUNCH="env --default-signal=INT"
# SIGTERM as soon as suck's namespace exists: the path half made, before the result's traps.
interrupted early TERM 'ip netns list 2>/dev/null | grep -q "^bs-wire-$P-suck"'
# SIGINT (a terminal's ^C) while blast sends across the link.
if [ -n "$LAUNCH" ]; then
	interrupted midrun INT 'sending "$P"'
	check "midrun: blast was sending when interrupted" test -n "$inside"
else
	skip "env --default-signal is missing: SIGINT mid-run not checked"
fi

done_tests
