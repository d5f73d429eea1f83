# scripts/trial.sh: what ndr and sweep share. Sourced after lib.sh, never run.
# A trial is one fresh suck and one blast for TIME seconds at a rate (0: as fast as blast goes).
# trial_run keeps both reports in STAGE/raw/, trial_row turns them into one row of trial.awk's
# columns. Also here: what happens before the first trial (trial_init: the tools' options checked,
# the result directory staged), env.txt, progress arithmetic and drawing a plot.
#
# Pitfalls, as in scripts/suite: the tools run in the background and are waited for, so a signal
# reaches the trap at once instead of after the trial; a background child of a non-interactive
# shell ignores SIGINT, so the trap ends the children with SIGTERM. Everything is written to STAGE
# beside OUT and swapped into place by trial_finish (lib.sh, result directories): an interrupted
# run leaves nothing, and an earlier result in the same place stays whole.
#
# The caller sets PROG, TIME, WORK, ADDR, BLAST_ARGS, SUCK_ARGS, VARIANTS, OUT (empty:
# results/runs/KIND-STAMP) and INVOCATION, then calls tool_bins, trial_words and
# trial_init KIND SIZE_OPTION SIZES.

IDLE=5          # suck stops this long after the last datagram: a lost fin cannot hang a trial
LISTEN_WAIT=30  # seconds to wait for suck's listening line (ssh may be slow to start)
SUCK_PID=
BLAST_PID=
CHILD_PID=

# trial_shape: "-b 32" unless BLAST_ARGS shapes the send calls itself (-b, -g). Every trial of
# an experiment sends the same way: by default blast sends GSO messages when unthrottled but
# sendmmsg when paced (-r) or when a datagram is over 32 KiB, and a zero-loss search, a rate
# sweep or a size sweep would then compare two ways of sending instead of rates or sizes.
trial_shape() {
	case " $BLAST_ARGS " in
	*" -b"* | *" -g"* | *" --batch"* | *" --gso"*) ;;
	*) echo "-b 32" ;;
	esac
}

# trial_words: -B and -S may not carry what every trial sets itself.
trial_words() {
	words_check -B "$BLAST_ARGS" apohV "addr port output run-id help version"
	words_check -S "$SUCK_ARGS" apomwhV "addr port output variant work run-id help version"
}

# trial_size SIZE OPTION: a datagram size blast can send with a header (it checks IPv4's 65507).
trial_size() {
	in_range "$1" 32 65527 || usage_error "$2 '$1': accepted: a size in bytes, 32..65507 (IPv6: ..65527)"
}

# is_decimal VALUE: 0, 12, 0.5, .5 (no sign, no exponent, no unit)
is_decimal() {
	printf '%s\n' "$1" | awk '{ exit !($0 ~ /^([0-9]+|[0-9]*\.[0-9]+)$/) }'
}

# trial_rate VALUE: a rate in datagrams per second, as blast -r takes it (k and M as powers of
# 1000), printed as a plain integer; status 1 when VALUE is not one.
trial_rate() {
	printf '%s\n' "$1" | awk '
		/^([0-9]+|[0-9]*\.[0-9]+)[kMG]?$/ {
			m = 1
			if (/k$/) m = 1e3; else if (/M$/) m = 1e6; else if (/G$/) m = 1e9
			v = $0; sub(/[kMG]$/, "", v); v = v * m
			if (v == int(v) && v < 1e9) { printf "%d\n", v; ok = 1 }
		}
		END { exit !ok }'
}

trial_cleanup() {
	for tc_p in $BLAST_PID $SUCK_PID $CHILD_PID; do stop_child "$tc_p"; done
	BLAST_PID=
	SUCK_PID=
	CHILD_PID=
}

# trial_init KIND SIZE_OPTION SIZES: before the first trial: the result directory checked (-o),
# the hosts, pinning, the tools' options checked for every variant and size, then the traps and
# the staging directory.
trial_init() {
	result_check
	host_pins
	ti_o=$2
	# shellcheck disable=SC2046 # trial_shape's words
	for ti_s in $3; do check_blast "$ti_s" "$ti_o" -B "$BLAST_ARGS" $(trial_shape) $BLAST_ARGS; done
	for ti_v in $VARIANTS; do check_suck "$ti_v" -S "$SUCK_ARGS" $SUCK_ARGS; done
	# shellcheck disable=SC2034 # read by lib.sh
	RESULT_CLEANUP=trial_cleanup
	result_traps
	result_begin "$1-"
	mkdir "$STAGE/raw" "$WORKDIR"
	: >"$WORKDIR/cmds"
	: >"$WORKDIR/notes"
	disk_check
	LIMIT=$(awk -v t="$TIME" 'BEGIN { printf "%d", t + 60 }') # suck's own bound if blast never comes
	START=$(date +%s)
}

# trial_run NAME VARIANT SIZE RATE: one suck and one blast (blast -r RATE unless RATE is 0); the
# reports go to STAGE/raw/NAME.{suck,blast}.{tsv,err}. Status: 0 done, 1 failed (said why),
# 2 a tool refused its options, 4 the variant is not supported here.
trial_run() {
	tr_b=$WORKDIR/$1
	tr_r=$STAGE/raw/$1
	tr_name=$1 tr_v=$2 tr_size=$3 tr_rate=$4
	tr_id=$(run_id)
	set -- $SUCK_CMD "$SUCK_BIN" -a "$ADDR" -p 0 -m "$tr_v" -w "$WORK" -o tsv --idle "$IDLE" -t "$LIMIT" $SUCK_PIN \
		--run-id "$tr_id" ${SUCK_ARGS:-}
	logcmd "$@"
	"$@" >"$tr_b.suck.tsv" 2>"$tr_b.suck.err" &
	SUCK_PID=$!
	tr_n=0
	tr_port=
	while [ -z "$tr_port" ]; do
		tr_port=$(sed -n 's/^suck: listening on .*:\([0-9][0-9]*\)$/\1/p' "$tr_b.suck.err" | head -n 1)
		[ -z "$tr_port" ] || break
		if ! kill -0 "$SUCK_PID" 2>/dev/null; then
			tr_st=0
			wait "$SUCK_PID" || tr_st=$?
			SUCK_PID=
			disk_check
			trial_keep "$tr_name"
			tr_msg=$(tail -n 3 "$tr_r.suck.err" | tr '\n' ' ')
			case $tr_st in
			4) note "$tr_v: skipped, not supported here (suck exit 4: $tr_msg)"; return 4 ;;
			2) note "$tr_v: suck refused its options (exit 2): $tr_msg"; return 2 ;;
			*) note "$tr_name: suck ended before listening (exit $tr_st): $tr_msg"; return 1 ;;
			esac
		fi
		tr_n=$((tr_n + 1))
		# No listening line for a second: a full disk may have swallowed it.
		[ $((tr_n % 20)) -ne 0 ] || disk_check
		if [ $tr_n -gt $((LISTEN_WAIT * 20)) ]; then
			stop_child "$SUCK_PID"
			SUCK_PID=
			trial_keep "$tr_name"
			note "$tr_name: suck did not say it was listening within $LISTEN_WAIT s"
			return 1
		fi
		sleep 0.05
	done

	tr_rateopt=
	[ "$tr_rate" = 0 ] || tr_rateopt="-r $tr_rate"
	set -- $BLAST_CMD "$BLAST_BIN" -a "$ADDR" -p "$tr_port" -t "$TIME" -s "$tr_size" $tr_rateopt -o tsv \
		$BLAST_PIN --run-id "$tr_id" $(trial_shape) $BLAST_ARGS
	logcmd "$@"
	"$@" >"$tr_b.blast.tsv" 2>"$tr_b.blast.err" &
	BLAST_PID=$!
	tr_bst=0
	wait "$BLAST_PID" || tr_bst=$?
	BLAST_PID=
	if [ "$tr_bst" -ne 0 ]; then
		stop_child "$SUCK_PID" # no fin is coming
		SUCK_PID=
		disk_check
		trial_keep "$tr_name"
		tr_msg=$(tail -n 3 "$tr_r.blast.err" | tr '\n' ' ')
		if [ "$tr_bst" -eq 2 ]; then note "$tr_v: blast refused its options (exit 2): $tr_msg"; return 2; fi
		note "$tr_name: blast failed (exit $tr_bst): $tr_msg"
		return 1
	fi
	tr_sst=0
	wait "$SUCK_PID" || tr_sst=$? # ends on blast's fin, or --idle after the last datagram
	SUCK_PID=
	[ "$tr_sst" -eq 0 ] || disk_check
	trial_keep "$tr_name"
	if [ "$tr_sst" -ne 0 ]; then
		note "$tr_name: suck failed (exit $tr_sst): $(tail -n 3 "$tr_r.suck.err" | tr '\n' ' ')"
		return 1
	fi
	for tr_side in blast suck; do
		if [ "$(awk -F'\t' 'NR <= 2 { n[NR] = NF } END { print (NR == 2 && n[1] == n[2] && n[1] > 1) }' "$tr_r.$tr_side.tsv")" != 1 ]; then
			disk_check
			note "$tr_name: $tr_side printed no tsv report (see raw/$tr_name.$tr_side.tsv and .err)"
			return 1
		fi
	done
	return 0
}
trial_keep() { # NAME: the trial's outputs, complete now, into raw/
	for tk_f in suck.tsv suck.err blast.tsv blast.err; do
		[ ! -e "$WORKDIR/$1.$tk_f" ] || mv -f "$WORKDIR/$1.$tk_f" "$STAGE/raw/"
	done
}

# trial_header: the names of trial_row's columns, tab-separated.
trial_header() { awk -v header=1 -f "$SCRIPTS/trial.awk"; }
# trial_row NAME RATE SIZE: the columns of one finished trial (a header line, then the row).
trial_row() {
	awk -v asked="$2" -v size="$3" -f "$SCRIPTS/trial.awk" "$STAGE/raw/$1.blast.tsv" "$STAGE/raw/$1.suck.tsv"
}
# tsv_field FILE KEY: KEY's value in a header-and-one-row tsv file.
tsv_field() {
	awk -F'\t' -v k="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i }
		NR == 2 && c { print $c }' "$1"
}

# trial_eta DONE LEFT: "N s elapsed, about M left", from the time the DONE trials took, but never
# less than TIME a trial (the clock here counts whole seconds).
trial_eta() {
	te_el=$(($(date +%s) - START))
	te_left=$(awk -v t="$TIME" -v n="$2" -v d="$1" -v el="$te_el" 'BEGIN {
		per = d > 0 ? el / d : t + 0.1; if (per < t) per = t
		printf "%d", per * n + 0.5 }')
	echo "$(fmt_secs $te_el) elapsed, about $(fmt_secs $te_left) left"
}

# trial_env: the lines of env.txt every result has (the caller prints its own settings before).
trial_env() {
	echo "work: $WORK"
	echo "time_s: $TIME"
	echo "blast_args: $(trial_shape) $BLAST_ARGS"
	echo "suck_args: ${SUCK_ARGS:-}"
	echo "addr: $ADDR"
	echo "suck_cmd: $SUCK_CMD"
	echo "blast_cmd: $BLAST_CMD"
	echo "pinning: $PINNING"
	echo "idle_s: $IDLE"
	echo "git_describe: $(git -C "$ROOT" describe --always --dirty --tags 2>/dev/null || echo unknown)"
	echo "suck_version: $($SUCK_CMD "$SUCK_BIN" -V 2>&1 | head -n 1)"
	echo "blast_version: $($BLAST_CMD "$BLAST_BIN" -V 2>&1 | head -n 1)"
	echo "compiler: $(${CC:-cc} --version 2>/dev/null | head -n 1 || echo unknown)"
	host_env
	sed 's/^/note: /' "$WORKDIR/notes"
	sed 's/^/cmd: /' "$WORKDIR/cmds"
}

# trial_machine: the machine, for a plot's subtitle (from STAGE/env.txt).
trial_machine() {
	tm_env=$STAGE/env.txt
	tm_two=$(env_value "$tm_env" blast_host.cpu_model)
	printf '%s, %s CPUs, %s%s\n' "$(env_value "$tm_env" cpu_model)" "$(env_value "$tm_env" cpu_count)" \
		"$(env_value "$tm_env" kernel | awk '{ print $1, $2 }')" "${tm_two:+ (blast on another host: $tm_two)}"
}

# gpstr TEXT: TEXT as a gnuplot single-quoted string
gpstr() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/''/g")"; }

# trial_plot NAME GPFILE DATAFILE SUBTITLE [GNUPLOT ASSIGNMENTS]: STAGE/NAME.png and .svg from
# scripts/GPFILE. No gnuplot: one line saying how to get it, and status 0 (the tables are whole).
trial_plot() {
	GNUPLOT=${GNUPLOT:-gnuplot}
	if ! command -v "$GNUPLOT" >/dev/null 2>&1; then
		if [ -z "${TP_SAID:-}" ]; then
			echo "$PROG: no gnuplot, so no plots (the tables are complete); install it with: apt-get install gnuplot-nox" >&2
			TP_SAID=1
		fi
		return 0
	fi
	if [ -z "${TP_PNG:-}" ]; then
		if echo 'set terminal pngcairo' | "$GNUPLOT" >/dev/null 2>&1; then TP_PNG=pngcairo; else TP_PNG=png; fi
	fi
	for tp_fmt in png svg; do
		if [ $tp_fmt = png ]; then tp_term=$TP_PNG; else tp_term=svg; fi
		tp_out=$STAGE/$1.$tp_fmt
		if "$GNUPLOT" -e "dir=$(gpstr "$SCRIPTS"); term='$tp_term'; out=$(gpstr "$tp_out"); datafile=$(gpstr "$3"); subtitle=$(gpstr "$4"); ${5:-}" \
			"$SCRIPTS/$2" 2>"$WORKDIR/gnuplot.err" && [ -s "$tp_out" ]; then
			:
		else
			rm -f "$tp_out"
			echo "$PROG: gnuplot failed on $1.$tp_fmt: $(tail -n 3 "$WORKDIR/gnuplot.err")" >&2
			return 1
		fi
	done
}

# trial_finish: the staging directory into place as OUT.
trial_finish() { result_install; }
