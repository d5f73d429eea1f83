# scripts/lib/base.sh: what every command sources first. Sourced, not run; the caller sets PROG
# (its name, for messages) and defines usage before. Here: the paths (ROOT, SCRIPTS, LIB),
# messages, the one option parser (opt_next), numbers, files written whole, the tables a result
# holds (env.txt, a tool's tsv report), quoting, and the notes and commands a run records. What else a command needs it
# sources from LIB itself: tools.sh (the tools, their variants, their options checked),
# result.sh (result directories), pair.sh (the one trial runner), trial.sh (ndr and sweep),
# plot.sh (gnuplot). README beside this file says what is where.
#
# Pitfalls kept here once: a file is published by a rename inside its own directory (a rename
# across file systems would copy and could leave half a file); `set -f` because option values
# such as -B "BLAST ARGS" are split into words on purpose and must not be globbed; a number the
# shell compares or adds is checked for its length first (in_range), or sh stops on one too large
# for it with "Illegal number" instead of a message naming the option.
set -eu
set -f

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SCRIPTS=$ROOT/scripts # the commands
LIB=$SCRIPTS/lib      # what they source and run: this file, the other .sh, the .awk programs

# printf, not echo: dash's echo reads a backslash in a message (a path, a value given) as an escape.
die() { printf '%s: %s\n' "$PROG" "$*" >&2; exit 1; }
# sig_exit SIG: the exit of a command a trap of SIG ends, 128 + the signal's number (HUP 129,
# INT 130, QUIT 131, TERM 143), as a shell killed by it would report.
sig_exit() {
	case $1 in HUP) exit 129 ;; INT) exit 130 ;; QUIT) exit 131 ;; *) exit 143 ;; esac
}
usage_error() { printf '%s: %s\n' "$PROG" "$*" >&2; usage >&2; exit 2; }

# opt_next SHORT LONG ARGS...: the option at the front of ARGS. Every command reads its options
# with this one loop, in the shape of getopts but with long options too:
#	while opt_next t:r:P "latency loss=" "$@"; do
#		case $OPT in -t) TIME=$OPTARG ;; -P) PLOTS=0 ;; --latency) LATENCY=1 ;; esac
#		shift "$OPTN"
#	done
#	shift "$OPTN"
# SHORT: the letters, a colon after one that takes a value (as getopts has them); LONG: the long
# names, "=" after one that takes a value. Sets OPT to the option as written (-t, --loss),
# OPTARG to its value, OPTN to the words it took. Taken: -t 3, -t3, -Pt 3 (letters together),
# --loss 1, --loss=1. The first word that is no option, or "--", ends the options: status 1,
# OPTN 1 for the "--", else 0. -h and --help print the usage (exit 0). An unknown option, short
# or long, a missing value or a value given to a long option that takes none is bad usage,
# worded alike for both kinds: "unknown option '-x'", "unknown option '--wire'" (exit 2).
OPT_REST= # the letters after a flag in one word (-Pt3): the next option, in no word of its own
opt_next() {
	on_short=$1 on_long=$2
	shift 2
	OPT='' OPTARG='' OPTN=1
	if [ -n "$OPT_REST" ]; then
		on_w=-$OPT_REST OPTN=0
		OPT_REST=
	elif [ $# -gt 0 ]; then
		on_w=$1
		shift
	else
		OPTN=0
		return 1
	fi
	case $on_w in
	--) return 1 ;;
	--*)
		OPT=${on_w%%=*}
		on_name=${OPT#--}
		[ -n "$on_name" ] || usage_error "unknown option '$on_w'"
		case " $on_long " in
		*" $on_name= "*)
			case $on_w in
			*=*) OPTARG=${on_w#*=} ;;
			*) opt_value "$@" ;;
			esac ;;
		*" $on_name "*) case $on_w in *=*) usage_error "$OPT: takes no value" ;; esac ;;
		*)
			[ "$OPT" != --help ] || { usage; exit 0; }
			usage_error "unknown option '$OPT'" ;;
		esac ;;
	-?*)
		on_c=${on_w#-}
		on_rest=${on_c#?}
		on_c=${on_c%"$on_rest"}
		OPT=-$on_c
		case $on_c in [!A-Za-z0-9]) on_short= ;; esac # ':' is no option letter
		case $on_short in
		*"$on_c:"*) if [ -n "$on_rest" ]; then OPTARG=$on_rest; else opt_value "$@"; fi ;;
		*"$on_c"*) OPT_REST=$on_rest ;;
		*)
			[ "$OPT" != -h ] || { usage; exit 0; }
			usage_error "unknown option '$OPT'" ;;
		esac ;;
	*)
		OPTN=0
		return 1 ;;
	esac
}
# opt_value ARGS...: the value of OPT is the next word, ARGS' first.
opt_value() {
	[ $# -gt 0 ] || usage_error "$OPT: a value is needed"
	OPTARG=$1
	OPTN=$((OPTN + 1))
}

# opt_need WHAT: OPTARG is not empty. An option given an empty value is bad usage, never its
# default: "sweep rate --rates ''" is no sweep of the default rates, "-o ''" no default DIR.
opt_need() { [ -n "$OPTARG" ] || usage_error "$OPT: no $1 given"; }

# abspath PATH: PATH made absolute against the current directory (the directory need not exist).
abspath() {
	case "$1" in
	/*) printf '%s\n' "$1" ;;
	*) printf '%s/%s\n' "$(pwd)" "$1" ;;
	esac
}

# in_dir DIR: DIR, a directory a command reads (compare, plot, index), is one and can be read;
# else bad usage naming it (exit 2), as any other bad argument.
in_dir() {
	[ -e "$1" ] || [ -L "$1" ] || usage_error "'$1': no such directory"
	[ -d "$1" ] || usage_error "'$1': not a directory"
	{ [ -r "$1" ] && [ -x "$1" ]; } || usage_error "'$1': cannot be read (permission denied)"
}

# pid_alive PID: a process PID is running (a zombie, killed and not yet waited for, is not).
# What a run leaves when SIGKILL gives its traps no time (its network namespaces, its staging
# directory) carries its pid in the name: the next run removes it when this says the run is gone.
pid_alive() {
	if [ -d /proc/self ]; then
		pa_state=$(sed 's/.*) //; s/ .*//' "/proc/$1/stat" 2>/dev/null) || return 1
		case $pa_state in '' | Z | X) return 1 ;; esac
		return 0
	fi
	kill -0 "$1" 2>/dev/null
}

# twice LIST: the first word of LIST that comes again, on stdout; status 1 when each comes once.
# A list of variants, sizes or rates names each once: a run's reports are named by them, and a
# second copy would overwrite the first's and count its runs twice.
twice() {
	tw_seen=' '
	for tw in $1; do
		case $tw_seen in *" $tw "*) printf '%s\n' "$tw"; return 0 ;; esac
		tw_seen="$tw_seen$tw "
	done
	return 1
}

is_uint() { case "$1" in '' | *[!0-9]*) return 1 ;; esac; }
# in_range VALUE MIN MAX: VALUE is written in digits and is MIN..MAX (MAX below 10^9). Sets UINT
# to VALUE without leading zeros ($((010)) is 8 to sh).
in_range() {
	is_uint "$1" || return 1
	UINT=${1#"${1%%[!0]*}"}
	UINT=${UINT:-0}
	[ ${#UINT} -le 9 ] && [ "$UINT" -ge "$2" ] && [ "$UINT" -le "$3" ]
}
# is_secs VALUE [MAX]: a decimal number of seconds above 0 and at most MAX (86400: a day; the
# tools take up to 10^7, suck's limit is the run's time plus a minute)
is_secs() {
	[ ${#1} -le 20 ] || return 1
	printf '%s\n' "$1" | awk -v max="${2:-86400}" '{ exit !($0 ~ /^([0-9]+|[0-9]*\.[0-9]+)$/ && $0 + 0 > 0 && $0 + 0 <= max) }'
}

# stop_child PID: SIGTERM, then SIGKILL if it has not ended within 3 s; reaps it. SC_ST is its
# exit status (that of its own end when it had ended already).
# shellcheck disable=SC2034 # SC_ST is for the caller (pair.sh)
stop_child() {
	SC_ST=0
	[ -n "$1" ] || return 0
	kill -TERM "$1" 2>/dev/null || true
	sc_i=0
	while kill -0 "$1" 2>/dev/null && [ $sc_i -lt 60 ]; do
		sc_i=$((sc_i + 1))
		sleep 0.05
	done
	kill -KILL "$1" 2>/dev/null || true
	wait "$1" 2>/dev/null || SC_ST=$?
}

# fmt_secs N: 75 -> "1 min 15 s"
fmt_secs() {
	if [ "$1" -ge 60 ]; then echo "$(($1 / 60)) min $(($1 % 60)) s"; else echo "$1 s"; fi
}

# stamp: a name for a new run directory, sortable by time.
stamp() { date -u +%Y%m%d-%H%M%SZ; }

# write_atomic FILE COMMAND...: COMMAND's stdout becomes FILE whole, or FILE is left as it was.
write_atomic() {
	wa_file=$1
	shift
	wa_tmp=$(dirname "$wa_file")/.$(basename "$wa_file").$$.tmp
	if "$@" >"$wa_tmp"; then
		mv -f "$wa_tmp" "$wa_file"
	else
		wa_st=$?
		rm -f "$wa_tmp"
		return "$wa_st"
	fi
}

# env_value FILE KEY: the value of a "KEY: value" line of env.txt (the first one).
env_value() {
	awk -v k="$2" 'index($0, k ": ") == 1 { print substr($0, length(k) + 3); exit }' "$1" 2>/dev/null || true
}

# tsv_field FILE KEY: KEY's value in a header-and-one-row tsv file (a tool's report).
tsv_field() {
	awk -F'\t' -v k="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i }
		NR == 2 && c { print $c }' "$1"
}
# tsv_whole FILE: FILE is a tool's whole tsv report: a header line and one row of as many fields.
tsv_whole() {
	[ "$(awk -F'\t' 'NR <= 2 { n[NR] = NF } END { print (NR == 2 && n[1] == n[2] && n[1] > 1) }' "$1" 2>/dev/null)" = 1 ]
}

# is_size_mix VALUE: VALUE has the shape of a blast size mix (imix, SIZE:WEIGHT,..., MIN-MAX);
# blast --check says whether it is a good one.
is_size_mix() {
	case $1 in
	imix) return 0 ;;
	'' | *[!0-9kKMG:,-]*) return 1 ;;
	*[:,-]*) return 0 ;;
	esac
	return 1
}
# size_words SIZE: "1450-byte datagrams", or for a size mix "datagrams of the size mix SPEC".
size_words() {
	if is_size_mix "$1"; then printf 'datagrams of the size mix %s' "$1"; else printf '%s-byte datagrams' "$1"; fi
}

# describe_run DIR: one line for a plot's subtitle: the run's size and the machine.
describe_run() {
	dr_env=$1/env.txt
	dr_size=$(env_value "$dr_env" size_bytes)
	dr_time=$(env_value "$dr_env" time_s)
	dr_runs=$(env_value "$dr_env" runs)
	dr_work=$(env_value "$dr_env" work)
	dr_bargs=$(env_value "$dr_env" blast_args)
	dr_mode= # suite --rtt, --group, --under-load, --bidir
	[ "$(env_value "$dr_env" rtt)" != 1 ] || dr_mode=", round trips ($(env_value "$dr_env" outstanding) outstanding)"
	dr_group=$(env_value "$dr_env" group)
	[ -z "$dr_group" ] || [ "$dr_group" = none ] || dr_mode=", multicast group $dr_group"
	[ "$(env_value "$dr_env" under_load)" != 1 ] || dr_mode=", under load: a probe beside a flood"
	[ "$(env_value "$dr_env" bidir)" != 1 ] || dr_mode=", both directions at once (VARIANT-fwd, VARIANT-rev)"
	printf '%s, %s s x %s runs, work %s%s%s | %s\n' \
		"$(size_words "${dr_size:-?}")" "${dr_time:-?}" "${dr_runs:-?}" "${dr_work:-?}" \
		"${dr_bargs:+, blast $dr_bargs}" "$dr_mode" "$(describe_machine "$1")"
}
# describe_machine DIR: the machine of a result, from its env.txt: "CPU, N CPUs, Linux x.y",
# blast's host's CPU when it ran elsewhere, and the path when it was the wire (--wire).
describe_machine() {
	dm_env=$1/env.txt
	dm_cpu=$(env_value "$dm_env" cpu_model)
	dm_n=$(env_value "$dm_env" cpu_count)
	dm_kern=$(env_value "$dm_env" kernel)
	dm_two=$(env_value "$dm_env" blast_host.cpu_model)
	dm_wire=$(env_value "$dm_env" wire)
	printf '%s, %s CPUs, %s%s%s\n' "${dm_cpu:-unknown CPU}" "${dm_n:-?}" \
		"$(printf '%s\n' "${dm_kern:-unknown kernel}" | awk '{ print $1, $2 }')" \
		"${dm_two:+ (blast on another host: $dm_two)}" "${dm_wire:+, on the wire (veth, --wire)}"
}

# summarize RUNS_TSV: summary.tsv on stdout.
summarize() { awk -f "$LIB/stats.awk" -f "$LIB/summary.awk" "$1"; }

# quote_args ARGS...: one line that sh would split back into the same words.
quote_args() {
	qa_line=
	for qa in "$@"; do
		case $qa in
		'' | *[!A-Za-z0-9_./:=,+@%-]*) qa="'$(printf '%s' "$qa" | sed "s/'/'\\\\''/g")'" ;;
		esac
		qa_line="$qa_line${qa_line:+ }$qa"
	done
	printf '%s\n' "$qa_line"
}

# note MESSAGE: on stderr now, and into the run's record, WORKDIR/notes (a result's env.txt; the
# suite's table.md too). logcmd ARGS...: a command run, into WORKDIR/cmds (env.txt's cmd: lines).
note() {
	echo "$PROG: $*" >&2
	printf '%s\n' "$*" >>"$WORKDIR/notes"
}
logcmd() { quote_args "$@" >>"$WORKDIR/cmds"; }
