# scripts/lib/bidir.sh: the suite's trial in both directions at once (suite --bidir), as
# iperf3 --bidir and iperf2 --full-duplex run it. Sourced after pair.sh and wire.sh, whose
# spawning, waiting and stopping it uses (so the traps stop these tools too), never run.
#
# Every trial runs two pairs at the same time, each with its own run id and run key:
#   fwd: blast through BLAST_CMD (blast's end) into suck through SUCK_CMD at ADDR, as always;
#   rev: a second suck through BLAST_CMD, bound to BIDIR_ADDR (blast's end's address), and a
#        second blast through SUCK_CMD (suck's end) sending to it.
# Same variant, size, -B options, work and time; every suck pinned to CPU 0 of its host, every
# blast to CPU 1 of its host (SUCK_PIN, BLAST_PIN): on one machine (loopback, --wire) the two
# sucks share CPU 0 and the two blasts CPU 1. BIDIR_ADDR: --wire's blast end (198.18.0.1, or
# 2001:2::1 with -a 2001:2::2); on loopback ADDR itself (both pairs on this host) unless
# --bidir-addr; across two hosts (SUCK_CMD or BLAST_CMD set) --bidir-addr is required: the address
# of blast's host that suck's host reaches. The reverse tools' binaries: BIDIR_SUCK_BIN (suck on
# blast's host: beside BLAST_BIN) and BIDIR_BLAST_BIN (blast on suck's host: beside SUCK_BIN).
# On --wire the reverse path is set up as the forward one (bidir_up, bidir_pin): GRO on blast's
# end, no segmentation offload on suck's end, blast's end's NAPI in a kernel thread pinned to
# the reverse suck's CPU (CPU 0, beside the forward NAPI thread) and counted (--rx-dev), and
# permanent neighbour entries in suck's namespace.
#
# Reports: NAME-fwd-RUN.* and NAME-rev-RUN.* (VARIANT-fwd-1.suck.tsv ...), each direction's
# rows of runs.tsv with a direction column (bidir_runs), summary.tsv per variant and direction,
# table.md a section per direction and "Both at once" (bidir_table).
# shellcheck disable=SC2154,SC2034 # the trial's variables (BT_*, bt_*, bj_*) are set and read by
# eval; BIDIR_LONG is the suite's
BIDIR=0         # --bidir
BIDIR_ADDR=     # --bidir-addr, or the one bidir_args settles
BIDIR_ASET=     # --bidir-addr given
BIDIR_SUCK_ARGS= # the reverse suck's words: SUCK_ARGS less --rx-dev, plus the wire's --rx-dev
BIDIR_LONG="bidir bidir-addr="

# bidir_usage: the options' lines of suite -h.
bidir_usage() {
	cat <<'EOF'
  --bidir       both directions at once: in every trial a second suck on blast's end and a
                second blast on suck's end sending to it, each pair its own run; runs.tsv
                and summary.tsv by direction (fwd, rev), table.md a section per direction and
                "Both at once" (the two received/s, their sum, each one's loss); --wire,
                loopback or two hosts (then --bidir-addr); not with --senders, --under-load,
                --rtt, --group, --drops, --rx-dev. On two CPUs the two sucks share CPU 0 (and
                on --wire both NAPI threads), the two blasts CPU 1
  --bidir-addr ADDR  with --bidir: the address of blast's host that suck's host reaches, where
                the reverse suck binds (required with SUCK_CMD or BLAST_CMD; on loopback -a's
                address by default; --wire knows it: 198.18.0.1, 2001:2::1)
EOF
}

bidir_opt() {
	case $OPT in
	--bidir) BIDIR=1 ;;
	--bidir-addr) opt_need address; BIDIR_ADDR=$OPTARG BIDIR_ASET=1 ;;
	esac
}

# bidir_args: after wire_args (ADDR settled): the refusals (bad usage, exit 2) and the reverse
# address where it is known before anything is built.
bidir_args() {
	if [ "$BIDIR" = 0 ]; then
		[ -z "$BIDIR_ASET" ] || usage_error "--bidir-addr: only with --bidir (where the reverse suck binds)"
		return 0
	fi
	[ -z "$SENDERS" ] || usage_error "--bidir and --senders: fan-in is many senders into one receiver, --bidir one pair each way"
	[ "$UNDER_LOAD" = 0 ] || usage_error "--bidir and --under-load: the probe's round trips need a receiver that answers, --bidir's sucks only count"
	[ "$RTT" = 0 ] || usage_error "--bidir and --rtt: a round trip is both directions already (suck --echo answers blast)"
	[ -z "$GROUP" ] || usage_error "--bidir and --group: a group's datagrams stay on this machine's lo or --wire's veth, one way"
	[ "$DROPS" = 0 ] || usage_error "--bidir and --drops: two sucks at once would each count the kernel's drops of the host, not of their own direction"
	[ -z "$RX_DEV" ] || usage_error "--bidir and --rx-dev: the reverse suck's device on blast's host has no option; --wire names both ends"
	if [ "$WIRE" = 1 ]; then
		[ -z "$BIDIR_ASET" ] || usage_error "--bidir-addr and --wire: the wire's blast end is the reverse suck's address ($WIRE_ADDR_TX, $WIRE_ADDR6_TX)"
		if [ "$ADDR" = "$WIRE_ADDR6_RX" ]; then BIDIR_ADDR=$WIRE_ADDR6_TX; else BIDIR_ADDR=$WIRE_ADDR_TX; fi
	elif [ -n "${SUCK_CMD:-}${BLAST_CMD:-}" ]; then
		[ -n "$BIDIR_ASET" ] ||
			usage_error "--bidir across two hosts (SUCK_CMD, BLAST_CMD): --bidir-addr ADDR is needed, the address of blast's host that suck's host reaches (the reverse suck binds it)"
	else
		[ -n "$BIDIR_ASET" ] || BIDIR_ADDR=$ADDR # both pairs on this host
	fi
	return 0
}

# bidir_up: after wire_up and tool_bins: the reverse tools' binaries, the reverse suck's words
# and, on --wire, the reverse path set up as the forward one (the top of this file).
bidir_up() {
	[ "$BIDIR" = 1 ] || return 0
	BIDIR_SUCK_BIN=${BIDIR_SUCK_BIN:-$(dirname "$BLAST_BIN")/suck}
	BIDIR_BLAST_BIN=${BIDIR_BLAST_BIN:-$(dirname "$SUCK_BIN")/blast}
	BIDIR_SUCK_ARGS=${SUCK_ARGS:-} # --latency; the forward suck's --rx-dev is added after
	[ "$WIRE" = 1 ] || return 0
	wire_features "$WIRE_NS_TX" "$WIRE_DEV_TX" rx-gro on
	wire_features "$WIRE_NS_RX" "$WIRE_DEV_RX" tx-tcp-segmentation off tx-tcp6-segmentation off \
		tx-tcp-ecn-segmentation off tx-tcp-mangleid-segmentation off tx-udp-segmentation off
	# shellcheck disable=SC2016 # $1 is the inner shell's
	if ip netns exec "$WIRE_NS_TX" sh -c 'echo 1 >"/sys/class/net/$1/threaded"' sh "$WIRE_DEV_TX" 2>/dev/null; then
		wire_said set "$WIRE_DEV_TX threaded NAPI (--bidir)"
	else
		wire_said refused "$WIRE_DEV_TX threaded NAPI (--bidir: the reverse rx_kernel_s is -)"
	fi
	for bu_a in "$WIRE_ADDR_TX" "$WIRE_ADDR6_TX"; do
		wire_ip "cannot set the neighbour entry of $bu_a" -n "$WIRE_NS_RX" neigh replace "$bu_a" \
			lladdr "$WIRE_MAC_TX" dev "$WIRE_DEV_RX" nud permanent
	done
	BIDIR_SUCK_ARGS="$BIDIR_SUCK_ARGS${BIDIR_SUCK_ARGS:+ }--rx-dev $WIRE_DEV_TX"
}

# bidir_pin: after wire_pin: on --wire the reverse NAPI thread onto the reverse suck's CPU.
bidir_pin() {
	[ "$BIDIR" = 1 ] && [ "$WIRE" = 1 ] || return 0
	if [ -z "$SUCK_PIN" ]; then
		wire_said refused "NAPI thread of $WIRE_DEV_TX not pinned (fewer than two CPUs)"
	elif bp_n=$($BLAST_CMD "$WIRE_NETDEV" pin "$WIRE_DEV_TX" "${SUCK_PIN#--cpu }" 2>/dev/null); then
		wire_said set "$bp_n NAPI thread(s) napi/$WIRE_DEV_TX-* pinned to CPU ${SUCK_PIN#--cpu } (the reverse suck's)"
	else
		wire_said refused "NAPI thread of $WIRE_DEV_TX pinned to CPU ${SUCK_PIN#--cpu } (no napi/$WIRE_DEV_TX-* thread)"
	fi
}

# bidir_rcheck suck|blast WORDS...: tool_check of a reverse tool, through the other prefix.
bidir_rcheck() {
	br_t=$1
	shift
	br_sc=$SUCK_CMD br_bc=$BLAST_CMD br_sb=$SUCK_BIN br_bb=$BLAST_BIN
	SUCK_CMD=$br_bc BLAST_CMD=$br_sc SUCK_BIN=$BIDIR_SUCK_BIN BLAST_BIN=$BIDIR_BLAST_BIN
	br_st=0
	tool_check "$br_t" "$@" || br_st=$?
	SUCK_CMD=$br_sc BLAST_CMD=$br_bc SUCK_BIN=$br_sb BLAST_BIN=$br_bb
	return $br_st
}

# bidir_checks: after the forward checks (VARIANTS: those this host runs): the reverse tools
# asked too (--check) before the first run: a refusal is bad usage, and so is an address they
# cannot bind or reach there (their exit 1, as check_suck takes -a's); a variant the reverse
# suck cannot run on blast's end (exit 4) is left out with a note (BIDIR_NOTES).
bidir_checks() {
	BIDIR_NOTES=
	[ "$BIDIR" = 1 ] || return 0
	bc_st=0
	# shellcheck disable=SC2086 # the words, split on purpose
	bidir_rcheck blast -a "$BIDIR_ADDR" -t "$TIME" -s "$SIZE" $BLAST_ARGS || bc_st=$?
	case $bc_st in
	0 | 4) ;; # 4: the runs say it (every run skipped)
	*) usage_error "--bidir: the reverse blast (on suck's end, to $BIDIR_ADDR) refuses its options: $TRY_MSG" ;;
	esac
	bc_keep=
	for bc_v in $VARIANTS; do
		bc_st=0
		# shellcheck disable=SC2086
		bidir_rcheck suck -a "$BIDIR_ADDR" -w "$WORK" -m "$bc_v" $BIDIR_SUCK_ARGS || bc_st=$?
		case $bc_st in
		0) bc_keep="$bc_keep${bc_keep:+ }$bc_v" ;;
		4) BIDIR_NOTES="$BIDIR_NOTES$bc_v: skipped, not supported on blast's end (the reverse suck exit 4: suck: $TRY_MSG)
"
			printf '%s: %s: skipped, not supported on blast'\''s end (the reverse suck exit 4: suck: %s)\n' "$PROG" "$bc_v" "$TRY_MSG" >&2 ;;
		*) usage_error "--bidir: the reverse suck (-m $bc_v on blast's end, at $BIDIR_ADDR) refuses its options: $TRY_MSG" ;;
		esac
	done
	VARIANTS=$bc_keep
}

# bidir_trial NAME LABEL VARIANT SIZE: the trial (the top of this file); NAME is VARIANT-RUN,
# the reports VARIANT-fwd-RUN.* and VARIANT-rev-RUN.*. Status as
# pair_trial's (0 done, 1 failed, 2 a tool refused its options, 4 skipped: the variant from
# then on, or every trial for a blast's).
bidir_trial() {
	! pair_skipped "$3" || return 4
	[ -n "${PAIR_LIMIT:-}" ] || PAIR_LIMIT=$(awk -v t="$TIME" 'BEGIN { printf "%d", t + 60 }')
	bt_dir=$PAIR_DIR bt_keep=${PAIR_KEEP:-$PAIR_DIR} bt_run=${1#"$3"-}
	bt_idf=$(run_id)
	bt_idr=$bt_idf
	while [ "$bt_idr" = "$bt_idf" ]; do bt_idr=$(run_id); done
	# the receivers, each through its host's prefix
	for bt_d in fwd rev; do
		if [ $bt_d = fwd ]; then
			bt_pre=$SUCK_CMD bt_bin=$SUCK_BIN bt_a=$ADDR bt_id=$bt_idf bt_args=${SUCK_ARGS:-}
		else
			bt_pre=$BLAST_CMD bt_bin=$BIDIR_SUCK_BIN bt_a=$BIDIR_ADDR bt_id=$bt_idr bt_args=$BIDIR_SUCK_ARGS
		fi
		run_key
		eval "BT_KEY_$bt_d=\$RUN_KEY BT_F_$bt_d=\$3-\$bt_d-\$bt_run BT_TST_$bt_d=- BT_TX_$bt_d="
		# shellcheck disable=SC2086 # the pinning and the options' words, split on purpose
		bt_line=$(quote_args "$bt_bin" -a "$bt_a" -p 0 -m "$3" -w "$WORK" -o tsv --idle "$IDLE" -t "$PAIR_LIMIT" \
			$SUCK_PIN --run-id "$bt_id" --key-file - -i 0.25 $bt_args)
		pair_spawn "$bt_pre" "$bt_line" "$bt_dir/$3-$bt_d-$bt_run.suck" '' '' "$RUN_KEY"
		eval "BT_RX_$bt_d=\$PAIR_PID BT_RST_$bt_d="
	done
	bt_up=1
	for bt_d in fwd rev; do
		eval "bt_rx=\$BT_RX_$bt_d bt_f=\$BT_F_$bt_d"
		bt_st=0
		await_line "$bt_rx" "$bt_dir/$bt_f.suck.err" 'listening on .*:[0-9][0-9]*$' "$LISTEN_WAIT" || bt_st=$?
		case $bt_st in
		0) eval "BT_PORT_$bt_d=\$(listen_port \"\$bt_dir/\$bt_f.suck.err\")" ;;
		1) pair_reap "$bt_rx" "BT_RST_$bt_d"; bt_up=0 ;;
		*) pair_end "$bt_rx" "BT_RST_$bt_d"; eval "BT_RST_$bt_d=deaf"; bt_up=0 ;;
		esac
	done
	if [ $bt_up = 1 ]; then
		for bt_d in fwd rev; do
			if [ $bt_d = fwd ]; then
				bt_pre=$BLAST_CMD bt_bin=$BLAST_BIN bt_a=$ADDR bt_id=$bt_idf
			else
				bt_pre=$SUCK_CMD bt_bin=$BIDIR_BLAST_BIN bt_a=$BIDIR_ADDR bt_id=$bt_idr
			fi
			eval "bt_port=\$BT_PORT_$bt_d bt_key=\$BT_KEY_$bt_d bt_f=\$BT_F_$bt_d"
			# shellcheck disable=SC2086
			bt_line=$(quote_args "$bt_bin" -a "$bt_a" -p "$bt_port" -t "$TIME" -s "$4" -o tsv $BLAST_PIN \
				--run-id "$bt_id" --key-file - -i 0.25 $BLAST_ARGS)
			pair_spawn "$bt_pre" "$bt_line" "$bt_dir/$bt_f.blast" '' '' "$bt_key"
			eval "BT_TX_$bt_d=\$PAIR_PID"
		done
		# a blast that failed sends no fin: its suck is stopped
		for bt_d in fwd rev; do
			eval "pair_reap \"\$BT_TX_$bt_d\" BT_TST_$bt_d; bt_t=\$BT_TST_$bt_d"
			[ "$bt_t" = 0 ] || eval "pair_end \"\$BT_RX_$bt_d\" BT_RST_$bt_d"
		done
	fi
	for bt_d in fwd rev; do
		eval "bt_rx=\$BT_RX_$bt_d bt_r=\$BT_RST_$bt_d"
		[ -n "$bt_r" ] || if [ $bt_up = 1 ]; then pair_reap "$bt_rx" "BT_RST_$bt_d"; else
			pair_end "$bt_rx" "BT_RST_$bt_d"
			eval "BT_RST_$bt_d=beside"
		fi
	done
	bt_first=0
	for bt_d in fwd rev; do
		eval "bt_f=\$BT_F_$bt_d"
		for bt_x in suck.tsv suck.err blast.tsv blast.err; do
			[ -z "$PAIR_KEEP" ] || [ ! -e "$bt_dir/$bt_f.$bt_x" ] || mv -f "$bt_dir/$bt_f.$bt_x" "$PAIR_KEEP/"
		done
		bt_st=0
		bidir_judge "$bt_d" "$2" "$3" || bt_st=$?
		[ $bt_first -ne 0 ] || bt_first=$bt_st
	done
	return $bt_first
}

# bidir_judge fwd|rev LABEL VARIANT: one direction's reports judged, with a note unless all is
# well; status as pair_trial's, and a skip recorded as pair_trial records it.
bidir_judge() {
	eval "bj_r=\$BT_RST_$1 bj_t=\$BT_TST_$1 bj_f=\$bt_keep/\$BT_F_$1"
	bj_w="$2 $1" # "mmsg 1 rev"
	bj_s="the $1 suck" bj_b="the $1 blast"
	case $bj_r:$bj_t in
	4:*) PAIR_SKIP="$PAIR_SKIP $3"; note "$3: skipped, not supported here ($bj_s exit 4: $(pair_msg "$bj_f.suck.err"))"; return 4 ;;
	*:4)
		PAIR_SKIP="*"
		note "$3: skipped, not supported here ($bj_b exit 4: $(pair_msg "$bj_f.blast.err"))"
		note "every run skipped from here on: blast is given the same options in each"
		return 4 ;;
	2:*) note "$3: $bj_s refused its options (exit 2): $(pair_msg "$bj_f.suck.err")"; return 2 ;;
	*:2) note "$3: $bj_b refused its options (exit 2): $(pair_msg "$bj_f.blast.err")"; return 2 ;;
	beside:*) return 1 ;; # the note of the suck that did not start says why
	deaf:*) note "$bj_w: $bj_s did not say it was listening within $LISTEN_WAIT s"; return 1 ;;
	*:-) note "$bj_w: $bj_s ended before listening (exit $bj_r): $(pair_msg "$bj_f.suck.err")"; return 1 ;;
	0:0) ;;
	*:0) note "$bj_w: $bj_s failed (exit $bj_r): $(pair_msg "$bj_f.suck.err")"; return 1 ;;
	*) note "$bj_w: $bj_b failed (exit $bj_t): $(pair_msg "$bj_f.blast.err")"; return 1 ;;
	esac
	for bj_side in blast suck; do
		tsv_whole "$bj_f.$bj_side.tsv" && continue
		disk_check
		note "$bj_w: the $1 $bj_side printed no tsv report (see raw/${bj_f##*/}.$bj_side.tsv and .err)"
		return 1
	done
	bj_stop=$(tsv_field "$bj_f.suck.tsv" stop)
	[ "$bj_stop" = fin ] || note "$bj_w: $bj_s stopped on '$bj_stop', not on its blast's fin: its sent is estimated"
	return 0
}

# bidir_rounds VARIANT RUN: a measured trial's two lines of the suite's rounds file, the
# direction last (runs.awk reads the first four fields).
bidir_rounds() {
	for br_d in fwd rev; do
		printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$STAGE/raw/$1-$br_d-$2.blast.tsv" "$STAGE/raw/$1-$br_d-$2.suck.tsv" "$br_d" \
			"$STAGE/raw/$1-$2.noise.tsv" # the trial's noise, both directions (lib/noise.sh)
	done
}

# bidir_runs LIST: runs.tsv of the rounds LIST (runs.awk's), a direction column after variant.
bidir_runs() {
	awk -f "$LIB/stats.awk" -f "$LIB/runs.awk" "$1" >"$WORKDIR/bidir.runs" || return 1
	awk -F'\t' -v OFS='\t' 'FNR == NR { d[FNR] = $5; next }
		{ v = $1; $1 = ""; sub(/^\t/, ""); print v, (FNR == 1 ? "direction" : d[FNR - 1]), $0 }' \
		"$1" "$WORKDIR/bidir.runs"
}

# bidir_part DIR FILE: FILE (runs.tsv or summary.tsv) with the rows of direction DIR only and
# without the direction column: what table.awk and the plots read for one direction.
bidir_part() {
	awk -F'\t' -v d="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "direction") c = i }
		NR == 1 || $c == d {
			l = s = ""
			for (i = 1; i <= NF; i++)
				if (i != c) {
					l = l s $i
					s = "\t"
				}
			print l
		}' "$2"
}

# bidir_table: table.md's sections (after its header): "Both at once", then per direction the
# suite's tables and rank test (table.awk on that direction's rows), and with a size mix its
# size classes (sizes-md.awk).
bidir_table() {
	echo "## Both at once"
	echo
	echo "Per variant, what each direction's suck received per second and their sum (medians over the rounds;" \
		"the sum is each round's fwd + rev), and each direction's loss: lost / sent of its own run, median (min..max) over the rounds."
	echo
	awk -f "$LIB/stats.awk" -f "$LIB/bidir-md.awk" "$STAGE/runs.tsv"
	for bt_d in fwd rev; do
		bidir_part "$bt_d" "$STAGE/runs.tsv" >"$WORKDIR/bidir.$bt_d.runs"
		bidir_part "$bt_d" "$STAGE/summary.tsv" >"$WORKDIR/bidir.$bt_d.summary"
		echo
		if [ $bt_d = fwd ]; then
			echo "## fwd: blast ${BLAST_CMD:+(${BLAST_CMD}) }-> suck at $ADDR${SUCK_CMD:+ ($SUCK_CMD)}"
		else
			echo "## rev: blast ${SUCK_CMD:+(${SUCK_CMD}) }-> suck at $BIDIR_ADDR${BLAST_CMD:+ ($BLAST_CMD)}"
		fi
		echo
		awk -v runsfile="$WORKDIR/bidir.$bt_d.runs" -f "$LIB/stats.awk" -f "$LIB/table.awk" "$WORKDIR/bidir.$bt_d.summary"
		if is_size_mix "$SIZE"; then
			echo
			echo "Size mix $SIZE, $bt_d: the share of the datagrams suck received in each size class, and the mean size (medians over the runs):"
			echo
			awk -f "$LIB/sizes-md.awk" "$WORKDIR/bidir.$bt_d.summary"
		fi
	done
}

# bidir_env: env.txt's lines of --bidir.
bidir_env() {
	echo "bidir: $BIDIR"
	[ "$BIDIR" = 1 ] || return 0
	echo "bidir_addr: $BIDIR_ADDR"
	echo "bidir_suck_cmd: $BLAST_CMD"
	echo "bidir_blast_cmd: $SUCK_CMD"
	echo "bidir_suck_bin: $BIDIR_SUCK_BIN"
	echo "bidir_blast_bin: $BIDIR_BLAST_BIN"
	echo "bidir_pinning: $(bidir_pinning)"
}
# bidir_pinning: which CPUs the four tools (and --wire's two NAPI threads) run on, in words.
bidir_pinning() {
	if [ -z "$SUCK_PIN" ]; then
		echo "none (fewer than two CPUs): the four tools share the CPUs as the scheduler places them"
	elif [ "$WIRE" = 1 ]; then
		echo "one machine: both sucks and both NAPI threads $SUCK_PIN, both blasts $BLAST_PIN: each direction shares its CPUs with the other"
	elif [ -z "$SUCK_CMD$BLAST_CMD" ]; then
		echo "one machine: both sucks $SUCK_PIN, both blasts $BLAST_PIN: each direction shares its CPUs with the other"
	else
		echo "each host: its suck $SUCK_PIN, its blast $BLAST_PIN"
	fi
}
