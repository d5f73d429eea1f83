# scripts/lib/trial.sh: what ndr and sweep share. Sourced after pair.sh and plot.sh, never run.
# A trial is one fresh suck and one blast for TIME seconds at a rate (0: as fast as blast goes),
# run by pair_trial (lib/pair.sh, the runner under every script), its reports kept in
# STAGE/raw/; trial_row turns them into one row of trial.awk's columns. Also here: the options
# both take (trial_opt, trial_args), what happens before the first trial (trial_init: the tools'
# options checked, the result directory staged), env.txt and progress arithmetic.
#
# The caller sets PROG and INVOCATION, parses its options with opt_next, its own and
# TRIAL_OPTS and TRIAL_LONG, which trial_opt sets (the variables below, from their defaults
# here, wire.sh's: --wire, --mtu, --rx-dev, and noise.sh's --retry), then calls trial_args and
# trial_init KIND SIZE_OPTION SIZES. wire.sh and noise.sh are sourced before this file.

VARIANTS=        # -m: the receive variants (empty: every one suck offers)
TIME=2           # -t: each trial's seconds
WORK=histogram   # -w: suck's per-datagram work
BLAST_ARGS=      # -B: more blast words
SUCK_ARGS=       # ndr -S: more suck words
ADDR=127.0.0.1   # -a: where suck listens and blast sends
OUT=             # -o: the result directory (empty: results/runs/KIND-STAMP)
PLOTS=1          # -P: 0, no plots

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

# trial_usage_end WHAT: the end of ndr's and sweep's usage, WHAT being what fails or is skipped.
trial_usage_end() {
	cat <<EOF
  --retry N  a trial found noisy (lib/noise.sh: bin/bare's calibration before and after
             it, other processes' CPU, steal) is run again before it counts, at most N
             times, 0..3, and a quarter of the trials in all (1; 0: never)
Environment: SUCK_CMD, BLAST_CMD, SUCK_BIN, BLAST_BIN, BIN, GNUPLOT as for scripts/suite.
Exit: 0 done, 1 a $1 failed (the others are kept) or the disk is full, 2 bad usage (before
the first trial), 4 every $1 skipped (a tool's exit 4: this kernel lacks GRO, io_uring or
the UDP GSO that -B asks for; a variant skipped beside others is noted in env.txt; or --wire
cannot build its path here), 130/143 interrupted (DIR holds the old result or the new, as
the message says).
EOF
}

# TRIAL_OPTS: the letters of the options both take (opt_next's SHORT); trial_opt sets the
# variable of the one in OPT.
# shellcheck disable=SC2034 # the caller's
TRIAL_OPTS=m:t:w:B:a:o:P
TRIAL_LONG="retry= $WIRE_LONG" # opt_next's LONG: the long options both take
# shellcheck disable=SC2034 # the caller's variables
trial_opt() {
	case $OPT in
	-m) VARIANTS=$OPTARG MSET=1 ;;
	-t) TIME=$OPTARG ;;
	-w) WORK=$OPTARG ;;
	-B) BLAST_ARGS=$OPTARG ;;
	-a) ADDR=$OPTARG ;;
	-o) opt_need directory; OUT=$OPTARG ;;
	-P) PLOTS=0 ;;
	--retry) opt_need number; NOISE_RETRY=$OPTARG ;;
	--wire | --mtu | --rx-dev) wire_opt ;;
	esac
}

# trial_args [ARG]: after the options: no argument left (ARG is the first one), TIME, WORK and
# ADDR usable.
trial_args() {
	[ $# -eq 0 ] || usage_error "unexpected argument '$1'"
	is_secs "$TIME" || usage_error "-t '$TIME': not a number of seconds; accepted: a decimal > 0, at most 86400"
	[ -n "$WORK" ] || usage_error "-w: a work is needed"
	[ -n "$ADDR" ] || usage_error "-a: an address is needed"
	in_range "$NOISE_RETRY" 0 3 || usage_error "--retry '$NOISE_RETRY': accepted: 0..3 trials more of a noisy trial"
	NOISE_RETRY=$UINT
	wire_args
}

# trial_size SIZE OPTION: a datagram size blast can send with a header (it checks IPv4's 65507).
trial_size() {
	! is_size_mix "$1" || usage_error "$2 '$1': a size mix is for scripts/suite -s (one mix for every run); a trial here has one datagram size in bytes, 32..65507 (IPv6: ..65527)"
	in_range "$1" 32 65527 || usage_error "$2 '$1': accepted: a size in bytes, 32..65507 (IPv6: ..65527)"
}
# trial_sizes LIST OPTION: LIST checked by trial_size, in TRIAL_SIZES without leading zeros.
trial_sizes() {
	[ -n "$(printf '%s' "$1" | tr -d ' \t')" ] || usage_error "$2: no size given"
	TRIAL_SIZES=
	for ts in $1; do trial_size "$ts" "$2"; TRIAL_SIZES="$TRIAL_SIZES${TRIAL_SIZES:+ }$UINT"; done
	! ts=$(twice "$TRIAL_SIZES") || usage_error "$2: '$ts' named twice; name each size once"
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

# trial_init KIND SIZE_OPTION SIZES: before the first trial: -B and -S may not carry what every
# trial sets itself; the tools, the variants, the result directory (-o), with --wire the path
# (wire.sh wire_up: SUCK_CMD, BLAST_CMD, suck --rx-dev in SUCK_ARGS), the hosts and pinning;
# the tools' options checked for every variant and size; then the traps, the staging
# directory and the noise's calibration (noise.sh noise_setup; the caller sets noise_cap).
trial_init() {
	words_check -B "$BLAST_ARGS" apohV "addr port output run-id key-file help version"
	words_check -S "$SUCK_ARGS" apomwhV "addr port output variant work run-id key-file help version"
	tool_bins
	variants_pick
	result_check
	wire_up
	SUCK_ARGS="${SUCK_ARGS:-}${WIRE_RX_ARGS:+${SUCK_ARGS:+ }$WIRE_RX_ARGS}"
	host_pins
	wire_pin
	SHAPE=$(trial_shape)
	ti_o=$2
	for ti_s in $3; do check_blast "$ti_s" "$ti_o" -B "$BLAST_ARGS" $SHAPE $BLAST_ARGS; done
	for ti_v in $VARIANTS; do check_suck "$ti_v" -S "$SUCK_ARGS" $SUCK_ARGS; done
	result_stage "$1-"
	noise_setup
	START=$(date +%s)
}

# trial_header: the names of trial_row's columns, tab-separated.
trial_header() { awk -v header=1 -f "$LIB/trial.awk"; }
# trial_row NAME RATE SIZE: the columns of one finished trial (a header line, then the row), its
# noise too when it was measured (noise_run's NAME.noise.tsv).
trial_row() {
	tr_n=$STAGE/raw/$1.noise.tsv
	[ -e "$tr_n" ] || tr_n=
	awk -v asked="$2" -v size="$3" -f "$LIB/trial.awk" "$STAGE/raw/$1.blast.tsv" "$STAGE/raw/$1.suck.tsv" ${tr_n:+"$tr_n"}
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
	echo "blast_args: $SHAPE $BLAST_ARGS"
	echo "suck_args: ${SUCK_ARGS:-}"
	echo "addr: $ADDR"
	echo "idle_s: $IDLE"
	echo "noise_limit_pct: $NOISE_LIMIT"
	echo "noise_cpus: $NOISE_CPUS"
	echo "retry: $NOISE_RETRY"
	wire_env
	env_tools
}
