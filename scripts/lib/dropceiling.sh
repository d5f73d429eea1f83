# scripts/lib/dropceiling.sh: the suite's --ceiling (on --wire only): in every measured round, beside
# the variants, one more run of the same blast (pair.sh pair_flood: the same options, size, rate,
# time and CPU) into lib/ladder.sh's XDP drop on suck's end of the veth (bin/ladder xdp, native
# mode, run by the NAPI thread pinned to suck's CPU) in place of a suck: what the path carries
# when nothing above the driver takes a datagram. Sourced by scripts/suite after wire.sh and
# ladder.sh, never run. (lib/ceilings.sh is another thing: reproduce ceilings, the sending ladder.)
#
# Each run's count, over blast's send window as the ladders count, goes into WORKDIR/ceiling and
# then ceiling.tsv (results/README.md); runs.awk divides each run's suck_pps by its round's
# dropped_pps (of_ceiling), table.awk shows the median of those ratios and the sentence on the
# ceiling. The drop is put on for the run and taken off after it (the program goes with
# bin/ladder); the command's cleanup (WIRE_NEXT ladder_stop) ends bin/ladder before the
# namespaces go, on every exit. Exit 4 before the first run when native XDP cannot be put on the
# veth (an MTU above what veth's XDP takes, say).
#
# Pitfalls: the drop counts IPv4 datagrams with a 20-byte header to CEIL_PORT only (bin/ladder),
# so the suite refuses --ceiling with an IPv6 -a; blast's fins reach it too, and are taken off
# its count (each repeat: nothing answers them, so blast repeats them until --fin-time, 0.1 s here).
CEILING=0       # --ceiling
CEIL_PORT=$LADDER_PORT # ladder_hold's port (nothing else listens in suck's namespace)
CEIL_NAME=xdp-drop # raw/xdp-drop-RUN.*: blast's reports, bin/ladder's messages (.suck.err)
CEIL_CMD=       # the first run's blast, for table.md's sentence

# ceiling_args: after the options (ADDR as given): --ceiling checked against the others.
ceiling_args() {
	[ "$CEILING" = 1 ] || return 0
	[ "$WIRE" = 1 ] || usage_error "--ceiling: only with --wire (its XDP drop goes on suck's end of the veth that --wire builds)"
	[ "$RTT" = 0 ] || usage_error "--ceiling and --rtt: the drop answers no request, so blast --rtt would wait instead of sending"
	[ "$UNDER_LOAD" = 0 ] || usage_error "--ceiling and --under-load: the probe's round trips need a receiver that answers"
	[ -z "$SENDERS" ] || usage_error "--ceiling and --senders: the ceiling is one blast's flood, as in a run without --senders"
	[ -z "$GROUP" ] || usage_error "--ceiling and --group: the drop counts datagrams to one IPv4 address and port"
	[ "$BIDIR" = 0 ] || usage_error "--ceiling and --bidir: the ceiling is one direction's"
	case $ADDR in *:*) usage_error "--ceiling and -a '$ADDR': the XDP drop counts IPv4 datagrams only (bin/ladder)" ;; esac
	is_secs "$TIME" 3540 || usage_error "--ceiling and -t '$TIME': at most 3540 s (bin/ladder holds its drop for an hour at most)"
}

# ceiling_up: after wire_up and wire_pin, before result_stage (an exit 4 leaves nothing staged):
# bin/ladder there, native XDP tried once on suck's end (exit 4 with why when it is refused),
# its cleanup first on every exit.
ceiling_up() {
	[ "$CEILING" = 1 ] || return 0
	LADDER_BIN=${LADDER_BIN:-$(dirname "$SUCK_BIN")/ladder}
	[ -x "$LADDER_BIN" ] || die "no $LADDER_BIN: run make first (it holds the XDP drop)"
	# shellcheck disable=SC2034 # wire.sh's: run before the namespaces go
	WIRE_NEXT=ladder_stop
	ladder_xdp_try || {
		[ "$LADDER_ST" = 4 ] || die "--ceiling: bin/ladder xdp $RX_DEV failed (exit $LADDER_ST): $LADDER_ERR"
		cu_hint=
		# veth refuses a program without XDP frags (bin/ladder's) above a page's frame (ERANGE)
		[ -z "$WIRE_MTU" ] || cu_hint=" (--mtu $WIRE_MTU: veth's native XDP takes an MTU up to about 3500 bytes)"
		echo "$PROG: --ceiling needs native XDP on $RX_DEV, suck's end of the veth: $LADDER_ERR$cu_hint: not supported here (exit 4)" >&2
		exit 4
	}
	# shellcheck disable=SC2034 # ladder_hold's: bin/ladder's own bound on its hold, past blast's -t
	LIMIT=$(awk -v t="$TIME" 'BEGIN { printf "%d", t + 60 }')
}

# ceiling_run LABEL: round LABEL's run (the top of this file); a line into WORKDIR/ceiling. Status
# 0 done, else failed with a note (the round's ratios are then "-").
ceiling_run() {
	cr_name=$CEIL_NAME-$1
	ladder_hold "$CEIL_NAME" "$1" xdp "$RX_DEV" || return 1
	pair_alone "$cr_name" "$CEIL_NAME $1" "$CEIL_PORT" "$BLAST_CMD"
	pair_flood "$SIZE" 0 --fin-time 0.1
	[ -n "$CEIL_CMD" ] || eval "CEIL_CMD=\$PR_TX_$PAIR_N"
	cr_st=0
	pair_run "$CEIL_NAME" || cr_st=$?
	ladder_release "$WORKDIR/$cr_name.ladder"
	[ "$cr_st" = 0 ] || return 1
	cr_f=$STAGE/raw/$cr_name.blast.tsv
	cr_s=$(tsv_field "$cr_f" sent) cr_fins=$(tsv_field "$cr_f" fins) cr_d=$(tsv_field "$cr_f" duration_s)
	if [ -z "$LADDER_N" ] || [ -z "$cr_s" ] || [ -z "$cr_d" ]; then
		note "$CEIL_NAME $1: FAILED: sent ${cr_s:-?}, dropped ${LADDER_N:-?} (see raw/$cr_name.*): the round has no ceiling"
		return 1
	fi
	printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$cr_s" "${cr_fins:-0}" "$cr_d" "$LADDER_N" >>"$WORKDIR/ceiling"
}

# ceiling_tsv: ceiling.tsv from WORKDIR/ceiling and each run's noise (results/README.md).
ceiling_tsv() {
	printf 'run\tsent\tfins\tduration_s\tdropped\tdropped_pps\tnoisy\n'
	while IFS='	' read -r ct_r ct_s ct_f ct_d ct_n; do
		ct_q=$(tsv_field "$STAGE/raw/$CEIL_NAME-$ct_r.noise.tsv" noisy 2>/dev/null)
		awk -v r="$ct_r" -v s="$ct_s" -v f="$ct_f" -v d="$ct_d" -v n="$ct_n" -v q="${ct_q:--}" 'BEGIN {
			p = d > 0 ? (n > f ? n - f : 0) / d : 0
			printf "%s\t%s\t%s\t%s\t%s\t%.0f\t%s\n", r, s, f, d, n, p, q
		}'
	done <"$WORKDIR/ceiling"
}

# ceiling_env: env.txt's line on it; nothing without --ceiling.
ceiling_env() {
	[ "$CEILING" = 1 ] || return 0
	echo "ceiling: each round, the same blast (--fin-time 0.1) into XDP_DROP on $RX_DEV (bin/ladder xdp $RX_DEV $CEIL_PORT, native mode), counted over blast's send window less its fins: ceiling.tsv"
}

# ceiling_cmd: the first run's blast as table.md's sentence shows it: blast by name, the port and
# the run id in place.
ceiling_cmd() {
	printf '%s\n' "$CEIL_CMD" | sed -e "s|'{port}'|$CEIL_PORT|" -e "s|'{run_id}'|ID|" -e 's|^[^ ]*/blast |blast |'
}
