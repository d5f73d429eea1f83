# scripts/lib/pair.sh: the one trial runner. Sourced after base.sh, tools.sh and result.sh,
# never run.
#
# A pair is a receiver that says "listening on ADDR:PORT" on stderr once bound (suck, bare recv,
# bare sink) and a sender given that port (blast, bare send). Every pair of every script starts
# here: suite, ndr and sweep run one suck and one blast at a time through pair_trial; perf runs a
# tool beside its bare twin, each with its own sender, through pair_rx, pair_tx and pair_run.
#
# pair_run runs the pairs queued since the last one, all at once:
#   1. every receiver started in the background through SUCK_CMD, the prefix of its host ("ssh
#      host-b", "ip netns exec ns-b"), and its listening line waited for (LISTEN_WAIT s). One
#      that ends first has said why on stderr, and then no sender starts.
#   2. every sender started through BLAST_CMD, its word '{port}' the port of its receiver's line;
#      each waited for, and the receiver of one that failed stopped (no fin is coming).
#   3. every receiver waited for: suck ends on blast's fin (or --idle after its last datagram,
#      or its -t), bare recv on its count, a bare sink once nothing arrives.
#   4. every pair judged, with a note (base.sh note) on what went wrong: exit 4 of either tool is a
#      skip (this kernel lacks what it was asked for: GRO, io_uring, UDP GSO), exit 2 a refusal of
#      its options, any other end a failure, and so is a report that is not a tsv header and row.
# The word {run_id}, in both commands of a pair, is one random run id (tools.sh run_id): given to
# suck and blast alike, suck counts no datagram of another pair as this one's. Each pair has its
# own random run key too (tools.sh run_key), never on a command line: a tool whose command has
# the words "--key-file -" reads it on its standard input (through any prefix, ssh too), so
# suck believes only the fins of its own blast; the other tools' standard input is /dev/null.
# Reports: the receiver's stdout and stderr go to PAIR_DIR/NAME.suck.tsv and .err, the sender's
# to NAME.blast.tsv and .err (whichever tools they are), and once complete into PAIR_KEEP when it
# is set (a result's raw/: result.sh result_stage).
#
# Pitfalls: the tools run in the background and are waited for, so a signal reaches the caller's
# trap at once instead of after the run; a background child of a non-interactive shell ignores
# SIGINT, so pair_stop (result.sh stop_children) ends them with SIGTERM, on which suck and blast stop
# and report. A process that has ended stays known to kill -0 until the shell reaps it, which it
# does while it waits for the next command it runs (sed, sleep): the loops below run one each time.

# shellcheck disable=SC2154 # the pairs' variables (PR_*_I, pl_*, ps_*, pj_*) are set by eval
IDLE=5          # suck stops this long after the last datagram: a lost fin cannot hang a run
LISTEN_WAIT=30  # seconds to wait for a listening line (ssh may be slow to start)
PAIR_DIR=       # where a running pair's tools write
PAIR_KEEP=      # where their reports go once complete (empty: they stay in PAIR_DIR)
PAIR_N=0        # pairs queued for the next pair_run
PAIR_PIDS=      # the tools running now
PAIR_SKIP=      # pair_trial: the variants skipped, or * for every one

# pair_rx NAME LABEL CMD...: queues a pair, its receiver CMD (SUCK_CMD goes before it), its files
# NAME.*; notes on its run say LABEL. pair_sink: the same for a receiver with no report (a sink).
pair_rx() { pair_queue tsv "$@"; }
pair_sink() { pair_queue none "$@"; }
# pair_alone NAME LABEL PORT PREFIX: a pair with no receiver (the send-only sink, lib/wire.sh:
# nothing on the host receives); its sender, queued by pair_tx, gets PORT for '{port}' and runs
# through PREFIX instead of BLAST_CMD; only its report is judged.
pair_alone() {
	pair_queue alone "$1" "$2"
	eval "PR_APORT_$PAIR_N=\$3 PR_APRE_$PAIR_N=\$4"
}
pair_queue() {
	PAIR_N=$((PAIR_N + 1))
	eval "PR_REPORT_$PAIR_N=\$1 PR_NAME_$PAIR_N=\$2 PR_LABEL_$PAIR_N=\$3"
	shift 3
	eval "PR_RX_$PAIR_N=\$(quote_args \"\$@\") PR_TX_$PAIR_N="
}
# pair_tx CMD...: the sender of the pair queued last (BLAST_CMD goes before it).
pair_tx() { eval "PR_TX_$PAIR_N=\$(quote_args \"\$@\")"; }

# pair_run [GROUP]: runs the pairs queued, all at once, as the top of this file says, and empties
# the queue. A note on a tool refusing its options or lacking the kernel's support names GROUP
# (the variant) rather than the run's LABEL. Sets PR_ST_I, the status of the I-th pair queued
# (pair_ok I), and PAIR_WHO, the side of the last skip (rx or tx). Status: 0 every pair done, else
# the first not done's: 1 failed, 2 a tool refused its options, 4 skipped.
pair_run() {
	pr_group=${1:-}
	pr_n=$PAIR_N
	PAIR_N=0
	pr_i=1
	while [ $pr_i -le $pr_n ]; do
		eval "pr_name=\$PR_NAME_$pr_i pr_line=\$PR_RX_$pr_i pr_rep=\$PR_REPORT_$pr_i"
		eval "PR_ID_$pr_i=\$(run_id)"
		run_key
		eval "PR_KEY_$pr_i=\$RUN_KEY"
		if [ "$pr_rep" = alone ]; then
			eval "PR_RXPID_$pr_i= PR_RXST_$pr_i=0 PR_TXST_$pr_i=- PR_TXPID_$pr_i= PR_PORT_$pr_i=\$PR_APORT_$pr_i"
			pr_i=$((pr_i + 1))
			continue
		fi
		eval "pair_spawn \"\$SUCK_CMD\" \"\$pr_line\" \"\$PAIR_DIR/\$pr_name.suck\" '' \"\$PR_ID_$pr_i\" \"\$PR_KEY_$pr_i\""
		eval "PR_RXPID_$pr_i=\$PAIR_PID PR_RXST_$pr_i= PR_TXST_$pr_i=- PR_TXPID_$pr_i="
		pr_i=$((pr_i + 1))
	done
	pair_listen "$pr_n" && pair_send "$pr_n"
	pr_first=0
	pr_i=1
	while [ $pr_i -le $pr_n ]; do
		pr_st=0
		pair_judge $pr_i || pr_st=$?
		eval "PR_ST_$pr_i=\$pr_st"
		[ $pr_first -ne 0 ] || pr_first=$pr_st
		pr_i=$((pr_i + 1))
	done
	return $pr_first
}
pair_ok() { eval "[ \"\${PR_ST_$1:-1}\" = 0 ]"; }

# pair_listen N: the port of each of the N receivers (PR_PORT_I). One that ends first, or says
# nothing for LISTEN_WAIT s, has its status (PR_RXST_I: its exit status, or "deaf"); then the
# others are stopped ("beside": not a failure of their own) and the status is 1.
pair_listen() {
	pl_up=0
	pl_i=1
	while [ $pl_i -le "$1" ]; do
		eval "pl_pid=\$PR_RXPID_$pl_i pl_err=\$PAIR_DIR/\$PR_NAME_$pl_i.suck.err"
		[ -n "$pl_pid" ] || { pl_i=$((pl_i + 1)); continue; } # pair_alone's: no receiver
		pl_st=0
		await_line "$pl_pid" "$pl_err" 'listening on .*:[0-9][0-9]*$' "$LISTEN_WAIT" || pl_st=$?
		case $pl_st in
		0) eval "PR_PORT_$pl_i=\$(listen_port \"\$pl_err\")" ;;
		1) pair_reap "$pl_pid" "PR_RXST_$pl_i"; pl_up=1 ;;
		*) pair_end "$pl_pid" "PR_RXST_$pl_i"; eval "PR_RXST_$pl_i=deaf"; pl_up=1 ;;
		esac
		pl_i=$((pl_i + 1))
	done
	[ $pl_up -ne 0 ] || return 0
	pl_i=1
	while [ $pl_i -le "$1" ]; do
		eval "pl_pid=\$PR_RXPID_$pl_i pl_st=\$PR_RXST_$pl_i"
		[ -n "$pl_st" ] || { pair_end "$pl_pid" "PR_RXST_$pl_i"; eval "PR_RXST_$pl_i=beside"; }
		pl_i=$((pl_i + 1))
	done
	return 1
}

# pair_send N: every sender started, then waited for (PR_TXST_I), and every receiver
# (PR_RXST_I); the receiver of a sender that failed is stopped first.
pair_send() {
	ps_i=1
	while [ $ps_i -le "$1" ]; do
		eval "ps_pre=\$BLAST_CMD; [ \"\$PR_REPORT_$ps_i\" != alone ] || ps_pre=\$PR_APRE_$ps_i"
		eval "pair_spawn \"\$ps_pre\" \"\$PR_TX_$ps_i\" \"\$PAIR_DIR/\$PR_NAME_$ps_i.blast\" \"\$PR_PORT_$ps_i\" \"\$PR_ID_$ps_i\" \"\$PR_KEY_$ps_i\""
		eval "PR_TXPID_$ps_i=\$PAIR_PID"
		ps_i=$((ps_i + 1))
	done
	ps_i=1
	while [ $ps_i -le "$1" ]; do
		eval "pair_reap \"\$PR_TXPID_$ps_i\" PR_TXST_$ps_i; ps_st=\$PR_TXST_$ps_i"
		[ "$ps_st" = 0 ] || eval "pair_end \"\$PR_RXPID_$ps_i\" PR_RXST_$ps_i"
		ps_i=$((ps_i + 1))
	done
	ps_i=1
	while [ $ps_i -le "$1" ]; do
		eval "[ -n \"\$PR_RXST_$ps_i\" ] || pair_reap \"\$PR_RXPID_$ps_i\" PR_RXST_$ps_i"
		ps_i=$((ps_i + 1))
	done
}

# pair_judge I: the I-th pair's reports into PAIR_KEEP, and its status, with a note unless it is 0.
pair_judge() {
	eval "pj_name=\$PR_NAME_$1 pj_label=\$PR_LABEL_$1 pj_report=\$PR_REPORT_$1"
	eval "pj_rst=\$PR_RXST_$1 pj_tst=\$PR_TXST_$1 pj_rx=\$PR_RX_$1 pj_tx=\$PR_TX_$1"
	[ "$pj_rst:$pj_tst" = 0:0 ] || disk_check
	pair_collect "$pj_name"
	pj_f=${PAIR_KEEP:-$PAIR_DIR}/$pj_name
	pj_r=none
	[ -z "$pj_rx" ] || pj_r=$(pair_tool "$pj_rx")
	pj_t=$(pair_tool "$pj_tx")
	pj_g=${pr_group:-$pj_label}
	case $pj_rst:$pj_tst in
	4:*) PAIR_WHO=rx; note "$pj_g: skipped, not supported here ($pj_r exit 4: $(pair_msg "$pj_f.suck.err"))"; return 4 ;;
	*:4) PAIR_WHO=tx; note "$pj_g: skipped, not supported here ($pj_t exit 4: $(pair_msg "$pj_f.blast.err"))"; return 4 ;;
	2:*) note "$pj_g: $pj_r refused its options (exit 2): $(pair_msg "$pj_f.suck.err")"; return 2 ;;
	*:2) note "$pj_g: $pj_t refused its options (exit 2): $(pair_msg "$pj_f.blast.err")"; return 2 ;;
	beside:*) return 1 ;; # the note of the receiver that did not start says why
	deaf:*) note "$pj_label: $pj_r did not say it was listening within $LISTEN_WAIT s"; return 1 ;;
	*:-) note "$pj_label: $pj_r ended before listening (exit $pj_rst): $(pair_msg "$pj_f.suck.err")"; return 1 ;;
	*:0) ;;
	*) note "$pj_label: $pj_t failed (exit $pj_tst): $(pair_msg "$pj_f.blast.err")"; return 1 ;;
	esac
	if [ "$pj_rst" != 0 ]; then
		note "$pj_label: $pj_r failed (exit $pj_rst): $(pair_msg "$pj_f.suck.err")"
		return 1
	fi
	for pj_side in blast suck; do
		case $pj_side:$pj_report in suck:none | suck:alone) continue ;; esac
		tsv_whole "$pj_f.$pj_side.tsv" && continue
		disk_check
		if [ $pj_side = suck ]; then pj_who=$pj_r; else pj_who=$pj_t; fi
		note "$pj_label: $pj_who printed no tsv report (see ${PAIR_KEEP:+raw/}$pj_name.$pj_side.tsv and .err)"
		return 1
	done
	return 0
}

# pair_trial NAME LABEL VARIANT SIZE RATE: the trial of suite, ndr and sweep, one suck -m VARIANT
# and one blast -s SIZE (-r RATE unless RATE is 0) for TIME s, through pair_run; the reports are
# kept as NAME.{suck,blast}.{tsv,err}. Reads ADDR, WORK, TIME, SUCK_PIN, BLAST_PIN, BLAST_ARGS,
# SUCK_ARGS (ndr -S; suite --latency, --rtt's --echo, --group's --join), BLAST_ADDR_ARGS and
# BLAST_MORE (suite --group's and --rtt's words for blast: tools.sh check_blast), PAIR_INTERVAL (suite: -i rows for the timeline, kept in the
# .err files) and SHAPE (ndr, sweep: trial_shape). A skip lasts: suck's exit 4 skips
# VARIANT from then on, blast's every trial (blast is given the same options in each), which
# then returns 4 at once. A suck that did not stop on blast's fin is noted. Status as pair_run.
pair_trial() {
	! pair_skipped "$3" || return 4
	[ -n "${PAIR_LIMIT:-}" ] || PAIR_LIMIT=$(awk -v t="$TIME" 'BEGIN { printf "%d", t + 60 }') # suck's own bound if blast never comes
	pair_rx "$1" "$2" "$SUCK_BIN" -a "$ADDR" -p 0 -m "$3" -w "$WORK" -o tsv --idle "$IDLE" -t "$PAIR_LIMIT" \
		$SUCK_PIN --run-id '{run_id}' --key-file - ${PAIR_INTERVAL:+-i "$PAIR_INTERVAL"} ${SUCK_ARGS:-}
	pair_flood "$4" "$5"
	pt_st=0
	pair_run "$3" || pt_st=$?
	if [ $pt_st -eq 4 ] && [ "$PAIR_WHO" = tx ]; then
		PAIR_SKIP="*"
		note "every run skipped from here on: blast is given the same options in each"
	elif [ $pt_st -eq 4 ]; then
		PAIR_SKIP="$PAIR_SKIP $3"
	fi
	[ $pt_st -eq 0 ] || return $pt_st
	pt_stop=$(tsv_field "${PAIR_KEEP:-$PAIR_DIR}/$1.suck.tsv" stop)
	[ "$pt_stop" = fin ] || note "$2: suck stopped on '$pt_stop', not on blast's fin: its sent is estimated"
}
# pair_flood SIZE RATE [WORDS...]: pair_trial's blast, the sender of the pair queued last: -s SIZE,
# -r RATE unless RATE is 0, WORDS before the command's -B words (suite --ceiling's --fin-time:
# the same flood into a drop that answers no fin).
pair_flood() {
	pfl_rate=
	[ "$2" = 0 ] || pfl_rate="-r $2"
	pfl_size=$1
	shift 2
	pair_tx "$BLAST_BIN" -a "$ADDR" -p '{port}' -t "$TIME" -s "$pfl_size" $pfl_rate -o tsv $BLAST_PIN --run-id '{run_id}' --key-file - \
		${PAIR_INTERVAL:+-i "$PAIR_INTERVAL"} ${SHAPE:-} ${BLAST_ADDR_ARGS:-} ${BLAST_MORE:-} "$@" $BLAST_ARGS
}
# pair_skipped VARIANT: pair_trial skips VARIANT (suck lacked it here, or blast lacked what its
# options ask).
pair_skipped() {
	case " $PAIR_SKIP " in *" * "* | *" $1 "*) return 0 ;; esac
	return 1
}

# pair_stop: ends every tool of the pairs running now (result.sh stop_children, from the traps).
pair_stop() {
	for pp in $PAIR_PIDS; do stop_child "$pp"; done
	PAIR_PIDS=
}

# pair_spawn PREFIX LINE FILE PORT ID KEY: PREFIX (split into words) and the words of LINE (a
# command line of quote_args), its '{port}' PORT and '{run_id}' ID, in the background, logged (base.sh
# logcmd); stdout to FILE.tsv, stderr to FILE.err; KEY on its stdin when LINE has "--key-file -"
# (printf is the shell's own: the key is in no process's arguments); PAIR_PID its pid.
pair_spawn() {
	psp_pre=$1 psp_file=$3 psp_key=
	case " $2 " in *" --key-file - "*) psp_key=$6 ;; esac
	eval "set -- $(printf '%s\n' "$2" | sed -e "s/'{port}'/$4/g" -e "s/'{run_id}'/$5/g")"
	# shellcheck disable=SC2086 # the prefix is split into words on purpose
	set -- $psp_pre "$@"
	logcmd "$@"
	# The last pair of the same name left its files: gone before the child opens new ones, or
	# await_line may read the old listening line before the child truncates it (an empty port).
	rm -f "$psp_file.tsv" "$psp_file.err"
	if [ -n "$psp_key" ]; then
		printf '%s\n' "$psp_key" | "$@" >"$psp_file.tsv" 2>"$psp_file.err" &
	else
		"$@" >"$psp_file.tsv" 2>"$psp_file.err" </dev/null &
	fi
	PAIR_PID=$!
	PAIR_PIDS="$PAIR_PIDS $PAIR_PID"
}
# pair_reap PID VAR: waits for PID, forgets it, and sets VAR to its exit status.
# shellcheck disable=SC2034 # prp_st is read by the eval
pair_reap() {
	prp_st=0
	wait "$1" || prp_st=$?
	pair_forget "$1"
	eval "$2=\$prp_st"
}
# pair_end PID VAR: stops PID (base.sh stop_child), forgets it, and sets VAR to its exit status.
pair_end() {
	stop_child "$1"
	pair_forget "$1"
	eval "$2=\$SC_ST"
}
pair_forget() {
	pf_left=
	for pf in $PAIR_PIDS; do [ "$pf" = "$1" ] || pf_left="$pf_left $pf"; done
	PAIR_PIDS=$pf_left
}
# pair_collect NAME: a finished pair's files into PAIR_KEEP, when it is set.
pair_collect() {
	[ -n "$PAIR_KEEP" ] || return 0
	for pc_f in suck.tsv suck.err blast.tsv blast.err; do
		[ ! -e "$PAIR_DIR/$1.$pc_f" ] || mv -f "$PAIR_DIR/$1.$pc_f" "$PAIR_KEEP/"
	done
}
# pair_tool LINE: the tool a command line runs, for notes: its program's name, and the word after
# it unless that is an option (bare recv, bare send).
pair_tool() {
	eval "set -- $1"
	case ${2:-} in
	'' | -*) printf '%s\n' "${1##*/}" ;;
	*) printf '%s %s\n' "${1##*/}" "$2" ;;
	esac
}
# pair_msg FILE: the last lines a tool wrote on stderr, on one line.
pair_msg() { tail -n 3 "$1" 2>/dev/null | tr '\n' ' ' | sed 's/ *$//'; }

# await_line PID FILE PATTERN SECS: waits until FILE has a line matching PATTERN (grep) while PID
# runs. Status 0 it has, 1 PID ended without it (not reaped), 2 not within SECS (PID left
# running). Looks every 50 ms, and once a second whether the disk is full (result.sh disk_check): a
# full disk may have swallowed the line.
await_line() {
	al_n=0
	while ! grep -q -e "$3" "$2" 2>/dev/null; do
		if ! kill -0 "$1" 2>/dev/null; then
			grep -q -e "$3" "$2" 2>/dev/null && return 0
			return 1
		fi
		al_n=$((al_n + 1))
		[ $((al_n % 20)) -ne 0 ] || disk_check
		[ $al_n -le $(($4 * 20)) ] || return 2
		sleep 0.05
	done
}
# listen_port FILE: the port of the first "listening on ADDR:PORT" line in FILE.
listen_port() { sed -n 's/.*listening on .*:\([0-9][0-9]*\)$/\1/p' "$1" | head -n 1; }
