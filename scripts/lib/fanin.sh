# scripts/lib/fanin.sh: the suite's fan-in trial (suite --senders N): one suck --senders N and N
# blasts at once into its port. Sourced after pair.sh, whose spawning, waiting and stopping it
# uses (so the traps stop these tools too), never run.
#
# The senders: sender i runs through FANIN_CMD_i (BLAST_CMD, or its i-th ';'-separated entry:
# one prefix per sender, e.g. "ssh host-a;ssh host-b"), pinned to CPU 1 + (i-1) mod (CPUs-1)
# of its host when host_pins pins (suck keeps CPU 0; on two CPUs every sender shares CPU 1).
# No --run-id: each blast's random run id is its run, which suck --senders tells apart; one run
# key for the trial, on every tool's stdin, so suck believes the fins of these senders only.
# Reports: NAME.suck.tsv (a row per run and the total row), NAME.blastI.tsv for each sender,
# and, made of them by fanin.awk, NAME.blast.tsv (the senders added up) and NAME.fanin.tsv (the
# total row with each sender's sent, valid, share and Jain's index, jain.awk): what runs.awk
# joins.

# fanin_cmds N: FANIN_CMD_1..N from BLAST_CMD (after wire_up: the sender namespace's prefix).
# One entry serves every sender; else there must be N. Bad usage otherwise.
fanin_cmds() {
	fc_n=$(printf '%s\n' "$BLAST_CMDS" | awk -F';' '{ print NF }')
	[ -n "$BLAST_CMDS" ] || fc_n=1
	[ "$fc_n" = 1 ] || [ "$fc_n" = "$1" ] ||
		usage_error "--senders $1: BLAST_CMD has $fc_n ';'-separated prefixes; give one (every sender through it) or $1 (one per sender)"
	fc_i=1
	while [ $fc_i -le "$1" ]; do
		if [ "$fc_n" = 1 ]; then fc_c=$BLAST_CMD; else fc_c=$(printf '%s\n' "$BLAST_CMDS" | cut -d';' -f $fc_i); fi
		eval "FANIN_CMD_$fc_i=\$fc_c"
		fc_i=$((fc_i + 1))
	done
}

# fanin_pin I: blast's --cpu for sender I, or nothing when the suite does not pin.
fanin_pin() {
	[ -n "$BLAST_PIN" ] || return 0
	fp_n=${hp_bn:-2}
	printf -- '--cpu %s\n' $((1 + ($1 - 1) % (fp_n > 1 ? fp_n - 1 : 1)))
}

# fanin_trial NAME LABEL VARIANT SIZE: the trial; status as pair_trial's (0 done, 1 failed, 2 a
# tool refused its options, 4 skipped: the variant from then on, or every trial for blast's).
fanin_trial() {
	! pair_skipped "$3" || return 4
	[ -n "${PAIR_LIMIT:-}" ] || PAIR_LIMIT=$(awk -v t="$TIME" 'BEGIN { printf "%d", t + 60 }')
	ft_dir=$PAIR_DIR ft_keep=${PAIR_KEEP:-$PAIR_DIR}
	run_key
	ft_line=$(quote_args "$SUCK_BIN" -a "$ADDR" -p 0 -m "$3" -w "$WORK" -o tsv --idle "$IDLE" -t "$PAIR_LIMIT" \
		$SUCK_PIN --senders "$SENDERS" --key-file - ${SUCK_ARGS:-})
	pair_spawn "$SUCK_CMD" "$ft_line" "$ft_dir/$1.suck" '' '' "$RUN_KEY"
	ft_rx=$PAIR_PID ft_rst= ft_st=0
	await_line "$ft_rx" "$ft_dir/$1.suck.err" 'listening on .*:[0-9][0-9]*$' "$LISTEN_WAIT" || ft_st=$?
	case $ft_st in
	0) ft_port=$(listen_port "$ft_dir/$1.suck.err") ;;
	1) pair_reap "$ft_rx" ft_rst ;;
	*) pair_end "$ft_rx" ft_rst; ft_rst=deaf ;;
	esac
	ft_tx=
	if [ -z "$ft_rst" ]; then
		ft_i=1
		while [ $ft_i -le "$SENDERS" ]; do
			eval "ft_pre=\$FANIN_CMD_$ft_i"
			ft_tline=$(quote_args "$BLAST_BIN" -a "$ADDR" -p "$ft_port" -t "$TIME" -s "$4" -o tsv $(fanin_pin $ft_i) \
				--key-file - $BLAST_ARGS)
			pair_spawn "$ft_pre" "$ft_tline" "$ft_dir/$1.blast$ft_i" '' '' "$RUN_KEY"
			ft_tx="$ft_tx $PAIR_PID"
			ft_i=$((ft_i + 1))
		done
	fi
	# every sender waited for; the first that failed is the trial's (its fin will not come)
	ft_tst=0 ft_bad=0 ft_i=0
	for ft_p in $ft_tx; do
		ft_i=$((ft_i + 1))
		pair_reap "$ft_p" ft_s
		[ "$ft_s" = 0 ] || [ "$ft_tst" != 0 ] || { ft_tst=$ft_s ft_bad=$ft_i; }
	done
	if [ -z "$ft_rst" ]; then
		[ "$ft_tst" = 0 ] || pair_end "$ft_rx" ft_rst
		[ -n "$ft_rst" ] || pair_reap "$ft_rx" ft_rst
	fi
	for ft_f in suck $(awk -v n="$SENDERS" 'BEGIN { for (i = 1; i <= n; i++) print "blast" i }'); do
		for ft_x in tsv err; do
			[ -z "$PAIR_KEEP" ] || [ ! -e "$ft_dir/$1.$ft_f.$ft_x" ] || mv -f "$ft_dir/$1.$ft_f.$ft_x" "$PAIR_KEEP/"
		done
	done
	ft_g=$3
	case $ft_rst:$ft_tst in
	4:*) PAIR_SKIP="$PAIR_SKIP $3"; note "$ft_g: skipped, not supported here (suck exit 4: $(pair_msg "$ft_keep/$1.suck.err"))"; return 4 ;;
	*:4) PAIR_SKIP="*"; note "$ft_g: skipped, not supported here (blast $ft_bad exit 4: $(pair_msg "$ft_keep/$1.blast$ft_bad.err")); every run skipped from here on"; return 4 ;;
	2:*) note "$ft_g: suck refused its options (exit 2): $(pair_msg "$ft_keep/$1.suck.err")"; return 2 ;;
	*:2) note "$ft_g: blast refused its options (exit 2): $(pair_msg "$ft_keep/$1.blast$ft_bad.err")"; return 2 ;;
	deaf:*) note "$2: suck did not say it was listening within $LISTEN_WAIT s"; return 1 ;;
	0:0) ;;
	*:0) note "$2: suck failed (exit $ft_rst): $(pair_msg "$ft_keep/$1.suck.err")"; return 1 ;;
	*) note "$2: blast $ft_bad of $SENDERS failed (exit $ft_tst): $(pair_msg "$ft_keep/$1.blast$ft_bad.err")"; return 1 ;;
	esac
	set -- "$@" "$ft_keep/$1"
	ft_blasts=$(awk -v f="$5" -v n="$SENDERS" 'BEGIN { for (i = 1; i <= n; i++) print f ".blast" i ".tsv" }')
	# shellcheck disable=SC2086 # the file names, one word each
	if ! awk -v out="$5" -v senders="$SENDERS" -f "$LIB/jain.awk" -f "$LIB/fanin.awk" "$5.suck.tsv" $ft_blasts; then
		disk_check
		note "$2: the reports of suck and its $SENDERS blasts do not add up (see raw/$1.*)"
		return 1
	fi
	ft_stop=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "stop") c = i } END { print $c }' "$5.suck.tsv")
	[ "$ft_stop" = fin ] || note "$2: suck stopped on '$ft_stop', not on every blast's fin: a sent is estimated"
	return 0
}
