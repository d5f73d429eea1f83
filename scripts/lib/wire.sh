# scripts/lib/wire.sh: wire mode (--wire): a real receive path on one machine. Sourced after
# base.sh, tools.sh, result.sh and pair.sh, never run. Also the receiving device's facts for
# env.txt on any path that is not loopback (two hosts: --rx-dev, or the device holding -a).
#
# On 127.0.0.1 the kernel's whole receive path runs inside blast's send call, on blast's CPU, and
# a GSO message arrives whole. --wire builds instead, for the run of one command:
#   two network namespaces, WIRE_NS_TX (blast) and WIRE_NS_RX (suck), joined by a veth pair
#   (WIRE_DEV_TX, WIRE_DEV_RX), 198.18.0.1/30 and 2001:2::1/64 on blast's end, 198.18.0.2/30 and
#   2001:2::2/64 on suck's (RFC 2544's and RFC 5180's benchmarking ranges; every pair of
#   namespaces is a network of its own, so the same addresses serve every run at once), --mtu
#   on both ends, the neighbour entries made permanent (no ARP or ND wait drops the first burst);
#   on suck's end GRO (rx-gro); on blast's end no segmentation offload (TSO off, because veth
#   takes its NAPI path only for a skb from a device without TSO, veth_skb_is_eligible_for_gro;
#   USO off, so blast's GSO messages are cut in software before the link and cross it as
#   separate datagrams, as from a NIC without UDP segmentation offload); the receiving device's
#   NAPI in a kernel thread (/sys/class/net/DEV/threaded) pinned to suck's CPU, where a NIC's
#   softirq would run.
# suck then runs through SUCK_CMD "ip netns exec WIRE_NS_RX" with --rx-dev WIRE_DEV_RX (its
# report adds the NAPI thread's CPU, rx_kernel_s), blast through BLAST_CMD "ip netns exec
# WIRE_NS_TX"; the pairs are lib/pair.sh's as on every path, ADDR the receive end's address.
# The features go through bin/netdev (SIOCETHTOOL: no ethtool program needed); what the kernel
# did not take is said in env.txt (wire_refused), never fatal: a run without GRO or without the
# NAPI thread still runs, and says so.
#
# Cleanup: deleting a namespace deletes its end of the veth, and the peer with it, so the two
# namespaces are all there is to remove. Each name is recorded before it is made (only names
# that did not exist: another run's are never touched) and removed by wire_down from the
# command's cleanup (RESULT_CLEANUP, after the tools are stopped) on every exit: normal, error,
# SIGINT, SIGTERM. Until the result's traps are set (result_traps) wire_traps holds those exits.
# Only SIGKILL leaves them (`ip netns list` shows bs-wire-PID-*): the next run that makes
# namespaces (wire_up, sink_up) removes those whose PID is no running process (wire_reap).
# wire_path2, after wire_up: a second veth pair between the same two namespaces (WIRE_DEV2_TX,
# WIRE_DEV2_RX; 198.18.0.5/30 on blast's end, 198.18.0.6/30 on suck's), set up as the first, for
# make perf's xdp pair: each receiver its own device and its own NAPI. It goes with the
# namespaces, so the same cleanup removes it.
# Exit 4 (skip, as the tools do for a feature the kernel lacks): not root, no ip, no network
# namespaces or veth here.
#
# Pitfalls: a device name has 15 characters at most, and so has a task's name: the NAPI thread
# "napi/DEV-ID" is cut, so DEV is 10 characters (bs, the pid in 7 digits, r or s) and suck's
# --rx-dev compares the part that is there. A namespace outlives `ip netns del` while a process
# is in it: the tools are stopped first.

# shellcheck disable=SC2034 # WIRE_LONG, WIRE_RX_ARGS are the commands'
WIRE=0          # --wire
WIRE_MTU=       # --mtu: both ends' MTU (1500)
RX_DEV=         # --rx-dev, or the wire's receive end: suck --rx-dev, and env.txt's rx_dev lines
WIRE_RX_ARGS=   # the words suck gets for it: "--rx-dev DEV"
WIRE_LONG="wire mtu= rx-dev=" # opt_next's LONG names; wire_opt sets the one in OPT
WIRE_NS_TX=''   # the namespaces: blast's, suck's
WIRE_NS_RX=''
WIRE_DEV_TX=''  # the veth's ends: blast's, suck's
WIRE_DEV_RX=''
WIRE_ADDR_TX=198.18.0.1 WIRE_ADDR_RX=198.18.0.2 WIRE_ADDR6_TX=2001:2::1 WIRE_ADDR6_RX=2001:2::2
WIRE_MAC_TX=02:62:73:00:00:01 WIRE_MAC_RX=02:62:73:00:00:02 # locally administered ("bs")
WIRE_DEV2_TX='' WIRE_DEV2_RX='' # wire_path2's veth ends
WIRE_ADDR2_TX=198.18.0.5 WIRE_ADDR2_RX=198.18.0.6
WIRE_MAC2_TX=02:62:73:00:00:03 WIRE_MAC2_RX=02:62:73:00:00:04
WIRE_MADE=      # the namespaces this run made, removed by wire_down
WIRE_SET=       # what was set, for env.txt ("; " between items)
WIRE_REFUSED=   # what the kernel did not take
RXDEV_INFO=     # devinfo.sh's lines from suck's host
WIRE_NEXT=      # the cleanup wire_cleanup runs before wire_down and sink_down
WIRE_SAYS=      # the option wire_skip names (--wire; sink_up: --sink)

# wire_usage COLUMN: the options' lines for a command's usage, their text from COLUMN on.
wire_usage() {
	awk -v c="$1" -F'|' '{ printf "  %-" (c - 2) "s%s\n", $1, $2 }' <<'EOF'
--wire|a real receive path on this machine (root): suck and blast in two
|network namespaces joined by a veth pair, GRO on suck's end, blast's
|GSO messages cut into datagrams before the link, the receiving NAPI in
|a kernel thread pinned to suck's CPU and counted (suck --rx-dev); -a is
|then 198.18.0.2 (the default) or 2001:2::2 (IPv6). All it makes is
|removed on exit; exit 4 where it cannot be (not root, no ip, no veth)
--mtu N|with --wire: the link's MTU, 1280..65535 (1500; 9000: jumbo frames)
--rx-dev DEV|without --wire (two hosts): suck's receiving device on its host,
|given to suck (its NAPI threads' CPU, when threaded), described in env.txt
EOF
}

# napi_pids DEV...: the pids of the NAPI threads of each DEV ("napi/DEV-ID", the name cut at 15
# characters, so DEV is 10 at most). wire_napi: those of the wire's receiving ends, whose CPU
# time is the run's own (noise.sh's NOISE_OWN).
napi_pids() {
	set +f
	for np_f in /proc/[0-9]*/comm; do
		{ read -r np_c <"$np_f"; } 2>/dev/null || continue
		for np_d in "$@"; do
			case $np_c in "napi/$np_d" | "napi/$np_d-"*) np_p=${np_f#/proc/}; printf '%s ' "${np_p%/comm}" ;; esac
		done
	done
	set -f
}
wire_napi() {
	# shellcheck disable=SC2086 # none, one or two names
	napi_pids $RX_DEV $WIRE_DEV2_RX
}

wire_opt() {
	case $OPT in
	--wire) WIRE=1 ;;
	--mtu) WIRE_MTU=$OPTARG ;;
	--rx-dev) RX_DEV=$OPTARG ;;
	esac
}

# wire_args: after the options, ADDR set (127.0.0.1 when -a was not given): the wire options
# checked against each other and the environment, ADDR the receive end's. Bad usage first; then,
# with --wire, exit 4 when this machine cannot build the path (nothing made yet).
wire_args() {
	if [ "$WIRE" = 0 ]; then
		[ -z "$WIRE_MTU" ] || usage_error "--mtu: only with --wire (the link it makes)"
		if [ -n "$RX_DEV" ]; then
			case $RX_DEV in
			*/* | *[[:space:]]* | .*) usage_error "--rx-dev '$RX_DEV': a device name of 1..15 characters, no '/' or space" ;;
			esac
			[ ${#RX_DEV} -le 15 ] || usage_error "--rx-dev '$RX_DEV': a device name of 1..15 characters, no '/' or space"
			WIRE_RX_ARGS="--rx-dev $RX_DEV"
		fi
		return 0
	fi
	[ -z "$RX_DEV" ] || usage_error "--rx-dev: --wire names suck's device itself (its end of the veth)"
	[ -z "${SUCK_CMD:-}${BLAST_CMD:-}" ] ||
		usage_error "--wire runs suck and blast in namespaces of its own: unset SUCK_CMD and BLAST_CMD"
	if [ -n "$WIRE_MTU" ]; then
		in_range "$WIRE_MTU" 1280 65535 || usage_error "--mtu '$WIRE_MTU': accepted: 1280..65535 (IPv6's minimum to veth's largest)"
		WIRE_MTU=$UINT
	fi
	case $ADDR in
	127.0.0.1 | "$WIRE_ADDR_RX") ADDR=$WIRE_ADDR_RX ;;
	"$WIRE_ADDR6_RX") ;;
	*) usage_error "-a '$ADDR': with --wire suck listens on the receive end: $WIRE_ADDR_RX (IPv4, the default) or $WIRE_ADDR6_RX (IPv6)" ;;
	esac
	wa_uid=$(id -u 2>/dev/null || echo unknown)
	[ "$wa_uid" = 0 ] || wire_skip "needs root (network namespaces, a veth pair, the NAPI thread's CPU), and this is uid $wa_uid"
	command -v ip >/dev/null 2>&1 || wire_skip "needs iproute2's ip, which is not installed (apt-get install iproute2)"
	[ -e /proc/self/ns/net ] || wire_skip "this kernel has no network namespaces (/proc/self/ns/net)"
}

# wire_skip MESSAGE: exit 4 with MESSAGE (what was made is removed by the traps).
wire_skip() {
	echo "$PROG: ${WIRE_SAYS:---wire} $*: not supported here (exit 4)" >&2
	exit 4
}

# wire_up: builds the path (the top of this file), after tool_bins and the usage checks; sets
# SUCK_CMD, BLAST_CMD, RX_DEV and WIRE_RX_ARGS. Nothing to do without --wire.
wire_up() {
	[ "$WIRE" = 1 ] || return 0
	[ -z "$WIRE_NS_RX" ] || return 0
	WIRE_NETDEV=${NETDEV_BIN:-$(dirname "$SUCK_BIN")/netdev}
	[ -x "$WIRE_NETDEV" ] || die "no $WIRE_NETDEV: run make first (it sets the devices' features)"
	WIRE_NS_TX=bs-wire-$$-blast WIRE_NS_RX=bs-wire-$$-suck
	WIRE_DEV_TX=$(printf 'bs%07ds' "$$") WIRE_DEV_RX=$(printf 'bs%07dr' "$$")
	wire_traps
	wire_reap
	for wu_ns in "$WIRE_NS_TX" "$WIRE_NS_RX"; do
		! wire_ns_is "$wu_ns" || die "a network namespace $wu_ns exists already: not this run's, left as it is"
		WIRE_MADE="$WIRE_MADE $wu_ns" # before it exists: a signal between the two cannot leak it
		wire_ip "cannot make a network namespace" netns add "$wu_ns"
	done
	wu_mtu=${WIRE_MTU:+mtu $WIRE_MTU}
	# shellcheck disable=SC2086 # wu_mtu: two words or none
	wire_ip "cannot make a veth pair" link add "$WIRE_DEV_TX" netns "$WIRE_NS_TX" address "$WIRE_MAC_TX" $wu_mtu \
		type veth peer name "$WIRE_DEV_RX" netns "$WIRE_NS_RX" address "$WIRE_MAC_RX" $wu_mtu
	wire_ip "cannot address blast's end" -n "$WIRE_NS_TX" addr add "$WIRE_ADDR_TX/30" dev "$WIRE_DEV_TX"
	wire_ip "cannot address suck's end" -n "$WIRE_NS_RX" addr add "$WIRE_ADDR_RX/30" dev "$WIRE_DEV_RX"
	wire_ip "cannot give blast's end an IPv6 address" -n "$WIRE_NS_TX" addr add "$WIRE_ADDR6_TX/64" dev "$WIRE_DEV_TX" nodad
	wire_ip "cannot give suck's end an IPv6 address" -n "$WIRE_NS_RX" addr add "$WIRE_ADDR6_RX/64" dev "$WIRE_DEV_RX" nodad
	for wu_ns in "$WIRE_NS_TX" "$WIRE_NS_RX"; do wire_ip "cannot bring lo up" -n "$wu_ns" link set lo up; done
	wire_ip "cannot bring blast's end up" -n "$WIRE_NS_TX" link set "$WIRE_DEV_TX" up
	wire_ip "cannot bring suck's end up" -n "$WIRE_NS_RX" link set "$WIRE_DEV_RX" up
	for wu_a in "$WIRE_ADDR_RX" "$WIRE_ADDR6_RX"; do
		wire_ip "cannot set the neighbour entry of $wu_a" -n "$WIRE_NS_TX" neigh replace "$wu_a" \
			lladdr "$WIRE_MAC_RX" dev "$WIRE_DEV_TX" nud permanent
	done
	WIRE_SET="netns $WIRE_NS_TX $WIRE_NS_RX; veth $WIRE_DEV_TX ($WIRE_ADDR_TX, $WIRE_ADDR6_TX) -> $WIRE_DEV_RX ($WIRE_ADDR_RX, $WIRE_ADDR6_RX)${WIRE_MTU:+; mtu $WIRE_MTU}"
	wire_ends "$WIRE_DEV_TX" "$WIRE_DEV_RX" ": no kernel thread, rx_kernel_s is -"
	SUCK_CMD="ip netns exec $WIRE_NS_RX"
	BLAST_CMD="ip netns exec $WIRE_NS_TX"
	RX_DEV=$WIRE_DEV_RX
	# shellcheck disable=SC2034 # the commands'
	WIRE_RX_ARGS="--rx-dev $RX_DEV"
}

# wire_path2: the second veth pair (the top of this file), after wire_up; exit 4 as wire_up
# where the kernel refuses it. Its NAPI thread is pinned by wire_pin with the first's.
wire_path2() {
	[ -n "$WIRE_NS_RX" ] || die "wire_path2 before wire_up"
	[ -z "$WIRE_DEV2_RX" ] || return 0
	# 10 characters as the first pair's (the NAPI thread's name is cut at 15)
	WIRE_DEV2_TX=$(printf 'bs%07dt' "$$") WIRE_DEV2_RX=$(printf 'bs%07dq' "$$")
	wire_ip "cannot make a second veth pair" link add "$WIRE_DEV2_TX" netns "$WIRE_NS_TX" address "$WIRE_MAC2_TX" \
		type veth peer name "$WIRE_DEV2_RX" netns "$WIRE_NS_RX" address "$WIRE_MAC2_RX"
	wire_ip "cannot address blast's second end" -n "$WIRE_NS_TX" addr add "$WIRE_ADDR2_TX/30" dev "$WIRE_DEV2_TX"
	wire_ip "cannot address suck's second end" -n "$WIRE_NS_RX" addr add "$WIRE_ADDR2_RX/30" dev "$WIRE_DEV2_RX"
	wire_ip "cannot bring blast's second end up" -n "$WIRE_NS_TX" link set "$WIRE_DEV2_TX" up
	wire_ip "cannot bring suck's second end up" -n "$WIRE_NS_RX" link set "$WIRE_DEV2_RX" up
	wire_ip "cannot set the neighbour entry of $WIRE_ADDR2_RX" -n "$WIRE_NS_TX" neigh replace "$WIRE_ADDR2_RX" \
		lladdr "$WIRE_MAC2_RX" dev "$WIRE_DEV2_TX" nud permanent
	wire_said set "veth $WIRE_DEV2_TX ($WIRE_ADDR2_TX) -> $WIRE_DEV2_RX ($WIRE_ADDR2_RX)"
	wire_ends "$WIRE_DEV2_TX" "$WIRE_DEV2_RX" ""
}

# wire_ends TX RX WHY: the settings of one veth pair, the same for every pair: GRO on suck's end
# RX, segmentation off on blast's end TX (the top of this file), RX's NAPI in a kernel thread;
# what the kernel refused is said with WHY after it.
wire_ends() {
	wire_features "$WIRE_NS_RX" "$2" rx-gro on
	wire_features "$WIRE_NS_TX" "$1" tx-tcp-segmentation off tx-tcp6-segmentation off \
		tx-tcp-ecn-segmentation off tx-tcp-mangleid-segmentation off tx-udp-segmentation off
	# shellcheck disable=SC2016 # $1 is the inner shell's
	if ip netns exec "$WIRE_NS_RX" sh -c 'echo 1 >"/sys/class/net/$1/threaded"' sh "$2" 2>/dev/null; then
		wire_said set "$2 threaded NAPI"
	else
		wire_said refused "$2 threaded NAPI (/sys/class/net/$2/threaded$3)"
	fi
}

# wire_ip WHY ARGS...: ip ARGS, or exit 4 saying WHY and what ip said.
wire_ip() {
	wi_why=$1
	shift
	wi_err=$(ip "$@" 2>&1 >/dev/null) && return 0
	wire_skip "$wi_why: ip $*: $(printf '%s\n' "$wi_err" | head -n 1)"
}

# wire_said set|refused ITEM: ITEM into WIRE_SET or WIRE_REFUSED.
wire_said() {
	if [ "$1" = set ]; then WIRE_SET="$WIRE_SET; $2"; else WIRE_REFUSED="$WIRE_REFUSED${WIRE_REFUSED:+; }$2"; fi
}

# wire_features NS DEV NAME on|off ...: each feature asked of DEV (netdev set); what the kernel
# kept as asked is set, anything else refused: a name the device lacks (netdev's exit 4) or
# keeps fixed, or a state it did not take.
wire_features() {
	wf_ns=$1 wf_dev=$2
	shift 2
	wf_out=$(ip netns exec "$wf_ns" "$WIRE_NETDEV" set "$wf_dev" "$@" 2>/dev/null) || true
	wf_set='' wf_ref=''
	while [ $# -ge 2 ]; do
		wf_now=$(printf '%s\n' "$wf_out" | awk -v n="$1" '$1 == n { print $2; exit }')
		if [ "$wf_now" = "$2" ]; then
			wf_set="$wf_set${wf_set:+, }$1 $2"
		elif [ -z "$wf_now" ]; then
			wf_ref="$wf_ref${wf_ref:+, }$1 $2 (no such feature, or fixed)"
		else
			wf_ref="$wf_ref${wf_ref:+, }$1 $2 (kept $wf_now)"
		fi
		shift 2
	done
	[ -z "$wf_set" ] || wire_said set "$wf_dev $wf_set"
	[ -z "$wf_ref" ] || wire_said refused "$wf_dev $wf_ref"
}

# wire_pin: after host_pins: with --wire, the NAPI thread onto suck's CPU, and one host (the two
# namespaces share the machine, BLAST_HOST is not another one); on any path but loopback, the
# receiving device described (RXDEV_INFO).
wire_pin() {
	if [ "$WIRE" = 1 ]; then
		# shellcheck disable=SC2034 # tools.sh's
		BLAST_HOST=
		wp_cpu=${SUCK_PIN#--cpu }
		if [ -z "$SUCK_PIN" ]; then
			wire_said refused "NAPI thread not pinned (fewer than two CPUs: suck is not pinned either)"
		elif wp_n=$($SUCK_CMD "$WIRE_NETDEV" pin "$RX_DEV" "$wp_cpu" 2>/dev/null); then
			wire_said set "$wp_n NAPI thread(s) napi/$RX_DEV-* pinned to CPU $wp_cpu (suck's)"
		else
			wire_said refused "NAPI thread pinned to CPU $wp_cpu (netdev pin: no napi/$RX_DEV-* thread)"
		fi
		if [ -n "$SUCK_PIN" ] && [ -n "$WIRE_DEV2_RX" ]; then
			if wp_n=$($SUCK_CMD "$WIRE_NETDEV" pin "$WIRE_DEV2_RX" "$wp_cpu" 2>/dev/null); then
				wire_said set "$wp_n NAPI thread(s) napi/$WIRE_DEV2_RX-* pinned to CPU $wp_cpu"
			else
				wire_said refused "NAPI thread of $WIRE_DEV2_RX pinned to CPU $wp_cpu (no napi/$WIRE_DEV2_RX-* thread)"
			fi
		fi
	fi
	[ "$WIRE" = 1 ] || [ -n "$RX_DEV" ] || [ -n "${SUCK_CMD:-}" ] || return 0
	wp_nd=${WIRE_NETDEV:-${NETDEV_BIN:-$(dirname "$SUCK_BIN")/netdev}}
	RXDEV_INFO=$({
		printf 'DEV=%s ADDR=%s NETDEV=%s\n' "$(quote_args "$RX_DEV")" "$(quote_args "$ADDR")" "$(quote_args "$wp_nd")"
		cat "$LIB/devinfo.sh"
	} | $SUCK_CMD sh 2>/dev/null) || true
}

# wire_env: env.txt's lines: the wire (what was set, what the kernel refused) and the receiving
# device (devinfo.sh); nothing on loopback.
wire_env() {
	if [ "$WIRE" = 1 ]; then
		echo "wire: veth between network namespaces $WIRE_NS_TX (blast) and $WIRE_NS_RX (suck), removed at the end"
		echo "wire_mtu: ${WIRE_MTU:-1500}"
		echo "wire_set: $WIRE_SET"
		echo "wire_refused: ${WIRE_REFUSED:-none}"
	fi
	[ -z "$RXDEV_INFO" ] || printf '%s\n' "$RXDEV_INFO"
}

# wire_describe: a sentence on the path for a table's header; empty on loopback.
wire_describe() {
	if [ "$WIRE" = 1 ]; then
		echo "Path: wire (--wire), a veth pair between two network namespaces, GRO on suck's end, datagrams cut before the link, the receiving NAPI in a kernel thread${SUCK_PIN:+ on the CPU of suck} (rx_kernel: its CPU per datagram)${WIRE_REFUSED:+; refused: $WIRE_REFUSED}."
	elif [ -n "$RX_DEV" ]; then
		echo "Path: suck's device $RX_DEV (--rx-dev)."
	fi
}

# wire_traps: until result_traps replaces them, every exit runs the command's cleanup
# (RESULT_CLEANUP, wire_down with it); a signal exits 130 or 143 as the result's traps do.
wire_traps() {
	if [ "$RESULT_CLEANUP" != wire_cleanup ]; then # once: wire_up and sink_up both call it
		WIRE_NEXT=$RESULT_CLEANUP
		RESULT_CLEANUP=wire_cleanup
	fi
	trap 'wire_on_signal INT' INT
	trap 'wire_on_signal TERM' TERM
	trap 'wire_on_exit' EXIT
}
wire_cleanup() {
	$WIRE_NEXT
	wire_down
	sink_down
}
wire_on_signal() {
	set +e
	trap '' INT TERM HUP QUIT
	trap - EXIT
	$RESULT_CLEANUP
	echo "$PROG: interrupted by SIG$1" >&2
	sig_exit "$1"
}
wire_on_exit() {
	wx_st=$?
	set +e
	trap '' INT TERM HUP QUIT
	trap - EXIT
	$RESULT_CLEANUP
	exit "$wx_st"
}

# wire_down: removes the namespaces this run made (and with them the veth pair and its NAPI
# thread); says so if one could not be.
wire_down() {
	for wd_ns in $WIRE_MADE; do
		ip netns del "$wd_ns" 2>/dev/null && continue
		! wire_ns_is "$wd_ns" || echo "$PROG: could not remove network namespace $wd_ns: ip netns del $wd_ns" >&2
	done
	WIRE_MADE=
}
# wire_reap: the namespaces that runs killed by SIGKILL left (their traps never ran), removed,
# each said: bs-wire-PID-blast, bs-wire-PID-suck and bs-sink-PID whose PID is no running process
# (base.sh pid_alive). Deleting a namespace deletes its veth ends with it. A namespace of a
# running process, this one's or named otherwise is never touched; two runs reaping at once
# only see one `ip netns del` fail.
wire_reap() {
	for wr_ns in $(ip netns list 2>/dev/null | awk '{ print $1 }'); do
		case $wr_ns in
		bs-wire-*-blast | bs-wire-*-suck)
			wr_p=${wr_ns#bs-wire-}
			wr_p=${wr_p%-*} ;;
		bs-sink-*) wr_p=${wr_ns#bs-sink-} ;;
		*) continue ;;
		esac
		is_uint "$wr_p" && [ "$wr_p" != $$ ] || continue
		! pid_alive "$wr_p" || continue
		! ip netns del "$wr_ns" 2>/dev/null ||
			echo "$PROG: removed network namespace $wr_ns, left by a run that is gone (pid $wr_p)" >&2
	done
}
# wire_ns_is NAME: a network namespace NAME exists.
wire_ns_is() { ip netns list 2>/dev/null | awk -v n="$1" '$1 == n { f = 1 } END { exit !f }'; }

# The send-only sink (reproduce sendmmsg-2011 --sink): a sender with no receiver on the host, as
# a NIC takes packets away. This kernel has no dummy device; instead, one network namespace
# SINK_NS (bs-sink-PID) holding both ends of a veth pair: SINK_DEV (bsPIDk) up with
# 198.18.1.1/30 and 2001:2:0:1::1/64, its peer SINK_PEER (bsPIDj) left down, so SINK_DEV has no
# carrier, its qdisc stays noop (dev_activate waits for a carrier) and every packet sent to
# SINK_ADDR (198.18.1.2) or SINK_ADDR6 (2001:2:0:1::2), whose neighbour entries are permanent
# (no ARP or ND), goes through the socket, UDP/IP output, routing and the neighbour output and
# is dropped at the qdisc's enqueue, counted in SINK_DEV's tx_dropped (sink_drops). The send
# call succeeds (NET_XMIT_CN is no error) and no ICMP comes back. Not included: the driver, the
# wire, and the segmentation of a GSO message, which happens after the qdisc: a GSO message is
# one drop (measured: blast -s 1000 -n 10000, 64 segments a message, 157 drops + 16 fins, the
# same with tx-udp-segmentation, tx-generic-segmentation and scatter-gather off), so the sink
# rows send with -g 1, where the drops are exactly blast's sent + fins.
# blast runs in it through SINK_CMD ("ip netns exec SINK_NS"). The namespace is recorded before
# it is made and removed by sink_down from the command's cleanup (wire_traps, as wire_up's), on
# every exit; deleting it deletes both ends; one SIGKILL left, the next run reaps (wire_reap).
# Exit 4 as --wire's: not root, no ip, no veth.
SINK=0          # --sink
SINK_NS='' SINK_DEV='' SINK_PEER='' SINK_CMD='' SINK_MADE=''
SINK_SRC=198.18.1.1 SINK_SRC6=2001:2:0:1::1 SINK_ADDR=198.18.1.2 SINK_ADDR6=2001:2:0:1::2
SINK_MAC=02:62:73:00:01:02 # the absent neighbour's (locally administered)

# sink_up: builds the sink (above); sets SINK_NS, SINK_DEV, SINK_PEER, SINK_CMD.
sink_up() {
	[ -z "$SINK_NS" ] || return 0
	sink_args
	WIRE_SAYS=--sink
	SINK_NS=bs-sink-$$
	SINK_DEV=$(printf 'bs%07dk' "$$") SINK_PEER=$(printf 'bs%07dj' "$$")
	wire_traps
	wire_reap
	! wire_ns_is "$SINK_NS" || die "a network namespace $SINK_NS exists already: not this run's, left as it is"
	SINK_MADE=$SINK_NS # before it exists: a signal between the two cannot leak it
	wire_ip "cannot make a network namespace" netns add "$SINK_NS"
	wire_ip "cannot make a veth pair" -n "$SINK_NS" link add "$SINK_DEV" type veth peer name "$SINK_PEER"
	wire_ip "cannot bring lo up" -n "$SINK_NS" link set lo up
	wire_ip "cannot address the sink's device" -n "$SINK_NS" addr add "$SINK_SRC/30" dev "$SINK_DEV"
	wire_ip "cannot give the sink's device an IPv6 address" -n "$SINK_NS" addr add "$SINK_SRC6/64" dev "$SINK_DEV" nodad
	# SINK_MTU (reproduce zerocopy: 65535, so a 64 KB datagram is not fragmented, which
	# copies it): the device's MTU; the veth's own 1500 without it.
	wire_ip "cannot bring the sink's device up" -n "$SINK_NS" link set "$SINK_DEV" mtu "${SINK_MTU:-1500}" up
	for su_a in "$SINK_ADDR" "$SINK_ADDR6"; do
		wire_ip "cannot set the neighbour entry of $su_a" -n "$SINK_NS" neigh replace "$su_a" \
			lladdr "$SINK_MAC" dev "$SINK_DEV" nud permanent
	done
	sink_drops >/dev/null || wire_skip "cannot read $SINK_DEV's tx_dropped in $SINK_NS"
	WIRE_SAYS=
	SINK_CMD="ip netns exec $SINK_NS"
}
# sink_args: with --sink (SINK=1; sink_up: always), exit 4 before anything is made or run when
# this machine cannot build the sink: not root, no ip, no network namespaces.
sink_args() {
	[ "$SINK" = 1 ] || [ -z "${1:-}" ] || return 0
	WIRE_SAYS=--sink
	sa_uid=$(id -u 2>/dev/null || echo unknown)
	[ "$sa_uid" = 0 ] || wire_skip "needs root (a network namespace and a veth pair), and this is uid $sa_uid"
	command -v ip >/dev/null 2>&1 || wire_skip "needs iproute2's ip, which is not installed (apt-get install iproute2)"
	[ -e /proc/self/ns/net ] || wire_skip "this kernel has no network namespaces (/proc/self/ns/net)"
	WIRE_SAYS=
}
# sink_drops: SINK_DEV's tx_dropped, read inside SINK_NS (its /sys is the namespace's).
sink_drops() { ip netns exec "$SINK_NS" cat "/sys/class/net/$SINK_DEV/statistics/tx_dropped"; }
# sink_sent: SINK_DEV's tx_packets: 0 while the sink holds (nothing left the device).
sink_sent() { ip netns exec "$SINK_NS" cat "/sys/class/net/$SINK_DEV/statistics/tx_packets"; }
# sink_env: env.txt's lines of the sink; nothing without one.
sink_env() {
	[ -n "$SINK_NS" ] || return 0
	echo "sink: network namespace $SINK_NS, veth $SINK_DEV ($SINK_SRC, $SINK_SRC6; up, no carrier, MTU ${SINK_MTU:-1500}) -> $SINK_PEER (down); $SINK_ADDR and $SINK_ADDR6 permanent neighbours; drops counted in $SINK_DEV's tx_dropped; removed at the end"
}
# sink_down: removes the sink's namespace (and both ends of its veth); says so if it could not.
sink_down() {
	for sd_ns in $SINK_MADE; do
		ip netns del "$sd_ns" 2>/dev/null && continue
		! wire_ns_is "$sd_ns" || echo "$PROG: could not remove network namespace $sd_ns: ip netns del $sd_ns" >&2
	done
	SINK_MADE=
}
