# scripts/lib/underload.sh: the suite's latency-under-load trial (suite --under-load): a probe
# of round trips (blast --rtt at a fixed rate) into one suck --echo, alone or beside a
# flood of data from a second blast into the same socket. Sourced after pair.sh, whose
# spawning, waiting and stopping it uses (so the traps stop these tools too), never run.
#
# One socket: suck takes only the probe's run (--run-id, its run key on stdin) and answers
# its requests; the flood has a run id of its own and no key, so suck counts its datagrams as
# foreign: received, read, worked on (-w), never answered and never the run's. That is what
# the probe waits behind: the flood's datagrams queued before it in the socket and the work on
# them. The flood's loss is not tracked by sequence (it is not suck's run): its received/s is
# suck's foreign over suck's duration (its few unkeyed fins included), its drops suck's
# kernel_drops. The flood starts first and ends with the probe (-t alike), its fins repeated
# for 100 ms only (nobody waits for them); the probe's fin ends suck.
#
# Reports: NAME.suck.tsv, NAME.blast.tsv (the probe), NAME.flood.tsv (loaded only), each with
# its .err (the -i interval rows).
UL_PROBE_SIZE=64  # the probe's requests and replies: small (under a run key 36 at least)
UL_PROBE_WAIT=20ms # a request unanswered this long is lost
UL_PROBE_RATE=1000 # requests a second, evenly: at most 20 in flight within the wait, 32 allowed
UL_PROBE="--rtt -r $UL_PROBE_RATE --outstanding 32 --rtt-timeout $UL_PROBE_WAIT"

# ul_trial NAME LABEL VARIANT LOADED: the trial, LOADED 1 with the flood; status as
# pair_trial's (0 done, 1 failed, 2 a tool refused its options, 4 skipped: the variant from
# then on, or every trial for blast's).
ul_trial() {
	! pair_skipped "$3" || return 4
	[ -n "${PAIR_LIMIT:-}" ] || PAIR_LIMIT=$(awk -v t="$TIME" 'BEGIN { printf "%d", t + 60 }')
	ut_dir=$PAIR_DIR ut_keep=${PAIR_KEEP:-$PAIR_DIR}
	ut_id=$(run_id)
	ut_fid=$ut_id
	while [ "$ut_fid" = "$ut_id" ]; do ut_fid=$(run_id); done
	run_key
	# shellcheck disable=SC2086 # the pinning and the options' words, split on purpose
	ut_line=$(quote_args "$SUCK_BIN" -a "$ADDR" -p 0 -m "$3" -w "$WORK" -o tsv --idle "$IDLE" -t "$PAIR_LIMIT" \
		$SUCK_PIN --run-id "$ut_id" --key-file - -i 0.25 ${SUCK_ARGS:-})
	pair_spawn "$SUCK_CMD" "$ut_line" "$ut_dir/$1.suck" '' '' "$RUN_KEY"
	ut_rx=$PAIR_PID ut_rst='' ut_st=0
	await_line "$ut_rx" "$ut_dir/$1.suck.err" 'listening on .*:[0-9][0-9]*$' "$LISTEN_WAIT" || ut_st=$?
	case $ut_st in
	0) ut_port=$(listen_port "$ut_dir/$1.suck.err") ;;
	1) pair_reap "$ut_rx" ut_rst ;;
	*) pair_end "$ut_rx" ut_rst; ut_rst=deaf ;;
	esac
	ut_fpid='' ut_fst=0 ut_pst=0
	if [ -z "$ut_rst" ]; then
		if [ "$4" = 1 ]; then
			# shellcheck disable=SC2086
			ut_fline=$(quote_args "$BLAST_BIN" -a "$ADDR" -p "$ut_port" -t "$TIME" -s "$SIZE" -o tsv $BLAST_PIN \
				--run-id "$ut_fid" --fin-time 100ms -i 0.25 ${BLAST_ADDR_ARGS:-} $BLAST_ARGS)
			pair_spawn "$BLAST_CMD" "$ut_fline" "$ut_dir/$1.flood" '' '' ''
			ut_fpid=$PAIR_PID
		fi
		# shellcheck disable=SC2086
		ut_pline=$(quote_args "$BLAST_BIN" -a "$ADDR" -p "$ut_port" -t "$TIME" -s "$UL_PROBE_SIZE" -o tsv $BLAST_PIN \
			--run-id "$ut_id" --key-file - -i 0.25 ${BLAST_ADDR_ARGS:-} $UL_PROBE)
		pair_spawn "$BLAST_CMD" "$ut_pline" "$ut_dir/$1.blast" '' '' "$RUN_KEY"
		ut_ppid=$PAIR_PID
		pair_reap "$ut_ppid" ut_pst
		[ -z "$ut_fpid" ] || pair_reap "$ut_fpid" ut_fst
		# the probe's fin ends suck; a probe that failed sent none
		[ "$ut_pst" = 0 ] || pair_end "$ut_rx" ut_rst
		[ -n "$ut_rst" ] || pair_reap "$ut_rx" ut_rst
	fi
	for ut_f in suck blast flood; do
		for ut_x in tsv err; do
			[ -z "$PAIR_KEEP" ] || [ ! -e "$ut_dir/$1.$ut_f.$ut_x" ] || mv -f "$ut_dir/$1.$ut_f.$ut_x" "$PAIR_KEEP/"
		done
	done
	ut_k=$ut_keep/$1
	case $ut_rst:$ut_pst:$ut_fst in
	4:*) PAIR_SKIP="$PAIR_SKIP $3"; note "$3: skipped, not supported here (suck exit 4: $(pair_msg "$ut_k.suck.err"))"; return 4 ;;
	*:4:* | *:*:4)
		PAIR_SKIP="*"
		ut_w=blast; [ "$ut_pst" = 4 ] || ut_w=flood
		note "$3: skipped, not supported here (the $ut_w's blast exit 4: $(pair_msg "$ut_k.$ut_w.err")); every run skipped from here on"
		return 4 ;;
	2:*) note "$3: suck refused its options (exit 2): $(pair_msg "$ut_k.suck.err")"; return 2 ;;
	*:2:*) note "$3: the probe's blast refused its options (exit 2): $(pair_msg "$ut_k.blast.err")"; return 2 ;;
	*:*:2) note "$3: the flood's blast refused its options (exit 2): $(pair_msg "$ut_k.flood.err")"; return 2 ;;
	deaf:*) note "$2: suck did not say it was listening within $LISTEN_WAIT s"; return 1 ;;
	0:0:0) ;;
	*:0:0) note "$2: suck failed (exit $ut_rst): $(pair_msg "$ut_k.suck.err")"; return 1 ;;
	*:0:*) note "$2: the flood's blast failed (exit $ut_fst): $(pair_msg "$ut_k.flood.err")"; return 1 ;;
	*) note "$2: the probe's blast failed (exit $ut_pst): $(pair_msg "$ut_k.blast.err")"; return 1 ;;
	esac
	for ut_f in suck blast $([ "$4" = 0 ] || echo flood); do
		tsv_whole "$ut_k.$ut_f.tsv" && continue
		disk_check
		note "$2: the $ut_f printed no tsv report (see raw/$1.$ut_f.tsv and .err)"
		return 1
	done
	ut_stop=$(tsv_field "$ut_k.suck.tsv" stop)
	[ "$ut_stop" = fin ] || note "$2: suck stopped on '$ut_stop', not on the probe's fin"
	return 0
}
