# scripts/lib.sh: what the scripts share. Sourced, not run; the caller sets PROG (its name, for
# messages) before sourcing. Here: messages and numbers, tsv lookups, the tools and their
# variants, checking the tools' options before the first run, run ids, pinning, gnuplot, and
# result directories (staged, swapped into place whole, cleaned up by the traps). The one trial
# runner, which starts every suck and blast pair of every script, is scripts/pair.sh, sourced at
# the end.
#
# Pitfalls kept here once: a file is published by a rename inside its own directory (a rename
# across file systems would copy and could leave half a file); `set -f` because option values
# such as -B "BLAST ARGS" are split into words on purpose and must not be globbed; a number the
# shell compares or adds is checked for its length first (in_range), or sh stops on one too large
# for it with "Illegal number" instead of a message naming the option.
set -eu
set -f

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SCRIPTS=$ROOT/scripts

die() { echo "$PROG: $*" >&2; exit 1; }
usage_error() { echo "$PROG: $*" >&2; usage >&2; exit 2; }
# usage_other OPT: what getopts found that the script takes no value from: h prints the usage
# (exit 0), anything else is bad usage (the usage on stderr, exit 2).
usage_other() {
	[ "$1" != h ] || { usage; exit 0; }
	usage >&2
	exit 2
}

# abspath PATH: PATH made absolute against the current directory (the directory need not exist).
abspath() {
	case "$1" in
	/*) printf '%s\n' "$1" ;;
	*) printf '%s/%s\n' "$(pwd)" "$1" ;;
	esac
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

# describe_run DIR: one line for a plot's subtitle: the run's size and the machine.
describe_run() {
	dr_env=$1/env.txt
	dr_size=$(env_value "$dr_env" size_bytes)
	dr_time=$(env_value "$dr_env" time_s)
	dr_runs=$(env_value "$dr_env" runs)
	dr_work=$(env_value "$dr_env" work)
	dr_bargs=$(env_value "$dr_env" blast_args)
	printf '%s-byte datagrams, %s s x %s runs, work %s%s | %s\n' \
		"${dr_size:-?}" "${dr_time:-?}" "${dr_runs:-?}" "${dr_work:-?}" \
		"${dr_bargs:+, blast $dr_bargs}" "$(describe_machine "$1")"
}
# describe_machine DIR: the machine of a result, from its env.txt: "CPU, N CPUs, Linux x.y" and
# blast's host's CPU when it ran elsewhere.
describe_machine() {
	dm_env=$1/env.txt
	dm_cpu=$(env_value "$dm_env" cpu_model)
	dm_n=$(env_value "$dm_env" cpu_count)
	dm_kern=$(env_value "$dm_env" kernel)
	dm_two=$(env_value "$dm_env" blast_host.cpu_model)
	printf '%s, %s CPUs, %s%s\n' "${dm_cpu:-unknown CPU}" "${dm_n:-?}" \
		"$(printf '%s\n' "${dm_kern:-unknown kernel}" | awk '{ print $1, $2 }')" \
		"${dm_two:+ (blast on another host: $dm_two)}"
}

# gnuplot_found: GNUPLOT (gnuplot) can be run; if not, one line (once) says how to get it, and
# status 1: the tables never depend on the plots. Sets GP_PNG, the PNG terminal (pngcairo, else png).
gnuplot_found() {
	GNUPLOT=${GNUPLOT:-gnuplot}
	if ! command -v "$GNUPLOT" >/dev/null 2>&1; then
		[ -n "${GP_SAID:-}" ] ||
			echo "$PROG: no gnuplot, so no plots (the tables are complete); install it with: apt-get install gnuplot-nox" >&2
		GP_SAID=1
		return 1
	fi
	if [ -z "${GP_PNG:-}" ]; then
		if echo 'set terminal pngcairo' | "$GNUPLOT" >/dev/null 2>&1; then GP_PNG=pngcairo; else GP_PNG=png; fi
	fi
}
# gp_str TEXT: TEXT as a gnuplot single-quoted string
gp_str() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/''/g")"; }
# plot_draw DIR NAME GPFILE DATAFILE SUBTITLE [SETTINGS]: DIR/NAME.png and .svg from
# scripts/GPFILE, which reads the gnuplot variables dir, term, out, datafile and subtitle (and
# SETTINGS, more gnuplot statements). Each image is drawn to a temporary name and renamed, so a
# redraw never leaves half a file. Without gnuplot, status 0 (gnuplot_found says so); status 1
# when gnuplot fails, with its message.
plot_draw() {
	gnuplot_found || return 0
	for pd_fmt in png svg; do
		if [ $pd_fmt = png ]; then pd_term=$GP_PNG; else pd_term=svg; fi
		pd_tmp=$1/.$2.$$.tmp.$pd_fmt
		if pd_err=$("$GNUPLOT" -e "dir=$(gp_str "$SCRIPTS"); term='$pd_term'; out=$(gp_str "$pd_tmp"); datafile=$(gp_str "$4"); subtitle=$(gp_str "$5"); ${6:-}" \
			"$SCRIPTS/$3" 2>&1) && [ -s "$pd_tmp" ]; then
			mv -f "$pd_tmp" "$1/$2.$pd_fmt"
		else
			rm -f "$pd_tmp"
			echo "$PROG: gnuplot failed on $2.$pd_fmt: $(printf '%s\n' "$pd_err" | tail -n 3)" >&2
			return 1
		fi
	done
}

# summarize RUNS_TSV: summary.tsv on stdout.
summarize() { awk -f "$SCRIPTS/stats.awk" -f "$SCRIPTS/summary.awk" "$1"; }

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

# --- The tools

# tool_bins: the tools' commands and binaries. SUCK_CMD and BLAST_CMD prefix each tool's command
# ("ssh host-b", "ip netns exec ns-b"); SUCK_BIN and BLAST_BIN are the binaries there (BIN=bin).
tool_bins() {
	SUCK_CMD=${SUCK_CMD:-}
	BLAST_CMD=${BLAST_CMD:-}
	tb_bin_set=${BIN:+1}
	BIN=$(abspath "${BIN:-$ROOT/bin}")
	SUCK_BIN=${SUCK_BIN:-$BIN/suck}
	BLAST_BIN=${BLAST_BIN:-$BIN/blast}
	# Not built in this checkout but installed (make install): the tools on PATH, said in env.txt.
	if [ -z "$tb_bin_set" ] && [ -z "$SUCK_CMD$BLAST_CMD" ] && [ ! -x "$SUCK_BIN" ] && [ ! -x "$BLAST_BIN" ] &&
		command -v suck >/dev/null 2>&1 && command -v blast >/dev/null 2>&1; then
		SUCK_BIN=$(command -v suck)
		BLAST_BIN=$(command -v blast)
	fi
	if [ -z "$SUCK_CMD" ] && [ ! -x "$SUCK_BIN" ]; then die "no $SUCK_BIN: run make first"; fi
	if [ -z "$BLAST_CMD" ] && [ ! -x "$BLAST_BIN" ]; then die "no $BLAST_BIN: run make first"; fi
	return 0
}

# variants_offered: every variant suck offers, in its order, from `suck -m list` (a name, a tab
# and what it does, a line each); empty when suck cannot say.
variants_offered() {
	$SUCK_CMD "$SUCK_BIN" -m list 2>/dev/null | awk -F'\t' '
		NF >= 2 && $1 ~ /^[a-z][a-z0-9_]*$/ { printf "%s%s", sep, $1; sep = " " }
		END { if (sep) print "" }' || true
}

# variants_check "VARIANTS": each one suck offers (when its help can be read), so that a
# misspelt name is bad usage at once rather than a failure halfway through.
variants_check() {
	[ -n "$(printf '%s' "$1" | tr -d ' \t')" ] || usage_error "-m: no variant given"
	vc_known=$(variants_offered)
	for vc in $1; do
		case $vc in
		*[!a-z0-9_]*) usage_error "-m: '$vc' is not a variant name; accepted: ${vc_known:-see suck -m list}" ;;
		esac
		[ -z "$vc_known" ] || case " $vc_known " in
			*" $vc "*) ;;
			*) usage_error "-m: suck has no variant '$vc'; accepted: $vc_known" ;;
			esac
	done
}
# variants_pick: VARIANTS as -m gave them (MSET set: each one checked), else every variant suck
# offers (copy buffer mmsg when it cannot say); NVARIANTS, how many.
variants_pick() {
	if [ -n "${MSET:-}" ]; then variants_check "$VARIANTS"; else VARIANTS=$(variants_offered); fi
	[ -n "$VARIANTS" ] || VARIANTS="copy buffer mmsg"
	# shellcheck disable=SC2086,SC2034 # the names, one word each; NVARIANTS is the caller's
	NVARIANTS=$(set -- $VARIANTS && echo $#)
}

# words_check OPTION "WORDS" LETTERS LONGS: none of WORDS is an option the script gives the tool
# itself (short ones by their letter, LETTERS like "apo"; long ones by name or a prefix of it, as
# getopt_long takes them): -B "-p 5" would send elsewhere, -B "-o json" lose the report.
words_check() {
	for wc_w in $2; do
		case $wc_w in
		--?*)
			wc_n=${wc_w#--}
			wc_n=${wc_n%%=*}
			for wc_l in $4; do
				case $wc_l in "$wc_n"*) usage_error "$1 '$2': '$wc_w' is not accepted here: $PROG gives the tool that option itself (-h and -V would end it at once)" ;; esac
			done ;;
		-?*)
			wc_c=${wc_w#-}
			wc_c=${wc_c%"${wc_c#?}"}
			case $3 in *"$wc_c"*) usage_error "$1 '$2': '$wc_w' is not accepted here: $PROG gives the tool that option itself (-h and -V would end it at once)" ;; esac ;;
		esac
	done
}

# tool_msg: a tool's message (stdin) without its name and the "(try TOOL -h)" hint, on one line.
tool_msg() { sed -e 's/^[a-z]*: //' -e 's/ (try [a-z]* -h)$//' | tr '\n' ' ' | sed 's/ *$//'; }

# suck_try WORDS...: suck with WORDS for a millisecond. It binds a free port, receives nothing,
# reports and ends, so it refuses now what it would refuse in a run. Sets TRY_MSG; its status.
suck_try() {
	st_st=0
	TRY_MSG=$($SUCK_CMD "$SUCK_BIN" -p 0 -o tsv --run-id 1 $SUCK_PIN "$@" -t 1ms --idle 0 2>&1 >/dev/null) || st_st=$?
	TRY_MSG=$(printf '%s\n' "$TRY_MSG" | tool_msg)
	return "$st_st"
}

# check_suck VARIANT OPTION VALUE WORDS...: suck takes what a run of VARIANT gives it (ADDR, WORK,
# and WORDS, from the script's OPTION VALUE). A refusal is bad usage naming the option whose words suck
# refused (tried again with fewer of them to find which); 4, a variant this kernel lacks, passes:
# the runs skip it.
check_suck() {
	cs_v=$1 cs_o=$2 cs_val=$3
	shift 3
	cs_st=0
	suck_try -a "$ADDR" -w "$WORK" -m "$cs_v" "$@" || cs_st=$?
	case $cs_st in 0 | 4) return 0 ;; esac
	cs_why=$TRY_MSG
	suck_try || die "suck refuses what every run gives it: $TRY_MSG"
	suck_try -a "$ADDR" || usage_error "-a '$ADDR': suck refuses it: $TRY_MSG"
	suck_try -a "$ADDR" -w "$WORK" || usage_error "-w '$WORK': suck refuses it: $TRY_MSG"
	cs_st=0
	suck_try -a "$ADDR" -w "$WORK" -m "$cs_v" || cs_st=$?
	case $cs_st in 0 | 4) ;; *) usage_error "-m '$cs_v': suck refuses it: $TRY_MSG" ;; esac
	usage_error "$cs_o '$cs_val': suck refuses it with -m $cs_v: $cs_why"
}

# blast_try WORDS...: blast's options checked without sending. blast has no dry run; -n 1 -j 2
# at the end is refused by its last check ("-n 1 is less than -j 2"), after every option, the
# address and the size passed: that refusal and nothing else means WORDS are good. -n and -j
# of WORDS are overridden here (each still parsed), so their pairing is not checked.
blast_try() {
	bt_st=0
	TRY_MSG=$($BLAST_CMD "$BLAST_BIN" -o tsv --run-id 1 $BLAST_PIN "$@" -n 1 -j 2 2>&1 >/dev/null) || bt_st=$?
	TRY_MSG=$(printf '%s\n' "$TRY_MSG" | tool_msg)
	case $bt_st:$TRY_MSG in
	2:*"-n 1 is less than -j 2"*) return 0 ;;
	0:*) TRY_MSG="it ended at once, sending nothing"; return 1 ;;
	esac
	return 1
}

# check_blast SIZE SIZE_OPTION OPTION VALUE WORDS...: blast takes what a run gives it (ADDR, TIME,
# SIZE, and WORDS, from the script's OPTION VALUE); a refusal is bad usage naming the option at
# fault.
check_blast() {
	cb_s=$1 cb_so=$2 cb_o=$3 cb_val=$4
	shift 4
	blast_try -a "$ADDR" -t "$TIME" -s "$cb_s" "$@" && return 0
	cb_why=$TRY_MSG
	blast_try -t "$TIME" || die "blast refuses what every run gives it: $TRY_MSG"
	blast_try -t "$TIME" -a "$ADDR" || usage_error "-a '$ADDR': blast refuses it: $TRY_MSG"
	blast_try -t "$TIME" -a "$ADDR" -s "$cb_s" || usage_error "$cb_so '$cb_s': blast refuses it: $TRY_MSG"
	usage_error "$cb_o '$cb_val': blast refuses it: $cb_why"
}

# run_id: a random run id, 1..4294967295, for one suck and blast pair: suck --run-id takes only
# that run's datagrams, so a late datagram of an earlier pair cannot count in this one.
run_id() {
	ri=0
	while [ "$ri" = 0 ]; do
		ri=$(od -An -N4 -tu4 /dev/urandom 2>/dev/null | tr -d ' \n') || ri=
		[ -n "$ri" ] || ri=$(awk 'BEGIN { srand(); printf "%d\n", 1 + rand() * 4294967294 }')
	done
	printf '%s\n' "$ri"
}

# host_pins [SUCK_CPU BLAST_CPU]: SUCK_HOST and BLAST_HOST (hostinfo.sh where each tool runs;
# BLAST_HOST empty when both run through the same prefix), and pinning: suck on CPU SUCK_CPU (0),
# blast on CPU BLAST_CPU (1), when the host each runs on has two CPUs or more (SUCK_PIN,
# BLAST_PIN: "--cpu N" or nothing; PINNING says which).
# shellcheck disable=SC2034 # PINNING is for the caller's env.txt
host_pins() {
	SUCK_HOST=$($SUCK_CMD sh <"$SCRIPTS/hostinfo.sh" 2>/dev/null) || true
	hp_sn=$(printf '%s\n' "$SUCK_HOST" | sed -n 's/^cpu_count: //p')
	BLAST_HOST=
	hp_bn=$hp_sn
	if [ "$BLAST_CMD" != "$SUCK_CMD" ]; then
		BLAST_HOST=$($BLAST_CMD sh <"$SCRIPTS/hostinfo.sh" 2>/dev/null) || true
		hp_bn=$(printf '%s\n' "$BLAST_HOST" | sed -n 's/^cpu_count: //p')
	fi
	SUCK_PIN=
	BLAST_PIN=
	PINNING="none (fewer than two CPUs)"
	if in_range "${hp_sn:-x}" 2 100000000 && in_range "${hp_bn:-x}" 2 100000000; then
		SUCK_PIN="--cpu ${1:-0}"
		BLAST_PIN="--cpu ${2:-1}"
		PINNING="suck $SUCK_PIN, blast $BLAST_PIN"
	fi
}
# host_env: the hosts' lines of env.txt.
host_env() {
	printf '%s\n' "$SUCK_HOST"
	[ -z "$BLAST_HOST" ] || printf '%s\n' "$BLAST_HOST" | sed 's/^/blast_host./'
}
# host_value KEY: KEY's value in suck's host's lines (hostinfo.sh).
host_value() { printf '%s\n' "$SUCK_HOST" | sed -n "s/^$1: //p"; }

# env_tools: the lines of env.txt every result ends with, after the script's own settings: the
# prefixes, pinning, the build, both hosts, the notes and every command run.
env_tools() {
	echo "suck_cmd: $SUCK_CMD"
	echo "blast_cmd: $BLAST_CMD"
	echo "pinning: $PINNING"
	echo "git_describe: $(git -C "$ROOT" describe --always --dirty --tags 2>/dev/null || echo unknown)"
	echo "suck_bin: $SUCK_BIN"
	echo "blast_bin: $BLAST_BIN"
	echo "suck_version: $($SUCK_CMD "$SUCK_BIN" -V 2>&1 | head -n 1)"
	echo "blast_version: $($BLAST_CMD "$BLAST_BIN" -V 2>&1 | head -n 1)"
	echo "compiler: $(${CC:-cc} --version 2>/dev/null | head -n 1 || echo unknown)"
	host_env
	sed 's/^/note: /' "$WORKDIR/notes"
	sed 's/^/cmd: /' "$WORKDIR/cmds"
}

note() { # MESSAGE: on stderr now, and into the result (env.txt; the suite's table.md too)
	echo "$PROG: $*" >&2
	printf '%s\n' "$*" >>"$WORKDIR/notes"
}
logcmd() { quote_args "$@" >>"$WORKDIR/cmds"; }

# --- Result directories
#
# A result appears whole or not at all, and an earlier one in its place stays whole until the
# new one is complete. Everything is written to a staging directory beside OUT, STAGE
# (.NAME.PID.tmp), then swapped in with two renames: the old result aside as BACKUP
# (.NAME.PID.old), STAGE to OUT. Whatever stops the script, result_abort looks at what is on disk
# and puts back the old result, or completes the new one, and says which.
# What the scripts did not write is never deleted: -o of a non-empty directory that is no result
# of theirs (its env.txt names none) is refused; from an earlier result, entries result_own does
# not name (a user's notes, raw/x, the subdirectories of results/reference) are carried over
# into the new one.
OUT=
OLD=0
RESERVED=0
DEFAULT_OUT=0
LATEST=0 # 1: results/latest points to a new default-named result (suite, reproduce)
STAGE=
BACKUP=
WORKDIR=
RESULT_PHASE= # staging, installing, installed
FAIL_WHY=
RESULT_CLEANUP=stop_children # the function that ends the script's children
CHILD_PID= # a child besides the pairs' tools (the plots, a suite), ended by stop_children
stop_children() {
	pair_stop
	stop_child "$CHILD_PID"
	CHILD_PID=
}

# result_own NAME [raw]: a name the scripts write in a result directory (with raw: in its raw/).
# Every file a script writes into a result must be named here.
result_own() {
	case ${2:-}:$1 in
	raw:*.suck.tsv | raw:*.suck.err | raw:*.blast.tsv | raw:*.blast.err) return 0 ;;
	raw:*) return 1 ;;
	:env.txt | :runs.tsv | :summary.tsv | :table.md | :reproduce.tsv | :reproduce.md | :ndr.tsv | \
		:trials.tsv | :rate.tsv | :rate_summary.tsv | :size.tsv | :index.html | :.index.html.* | \
		:.*.tmp | :.*.tmp.png | :.*.tmp.svg) return 0 ;;
	:*.png | :*.svg)
		case ${1%.*} in
		datagrams | cpu | memory | published_vs_here | ndr | rate | rate_loss | size_pps | size_mbps | \
			latency | timeline | rate_latency) return 0 ;;
		esac ;;
	esac
	return 1
}

# result_is DIR: DIR is a result of these scripts (its env.txt names the script that wrote it).
result_is() {
	[ -f "$1/env.txt" ] && grep -Eq '^(suite|ndr|sweep|reproduce): scripts/' "$1/env.txt"
}

# result_carry FROM TO: the entries of FROM, and of FROM/raw, that result_own does not name move
# to the same place in TO, each by one rename.
result_carry() {
	set +f
	for rc_f in "$1"/* "$1"/.[!.]* "$1"/..?*; do
		[ -e "$rc_f" ] || [ -L "$rc_f" ] || continue
		rc_n=${rc_f##*/}
		if [ "$rc_n" = raw ] && [ -d "$rc_f" ]; then
			for rc_r in "$rc_f"/* "$rc_f"/.[!.]* "$rc_f"/..?*; do
				[ -e "$rc_r" ] || [ -L "$rc_r" ] || continue
				result_own "${rc_r##*/}" raw && continue
				mkdir -p "$2/raw"
				mv -T "$rc_r" "$2/raw/${rc_r##*/}"
			done
		elif ! result_own "$rc_n"; then
			mv -T "$rc_f" "$2/$rc_n"
		fi
	done
	set -f
}

# result_remove DIR: removes what result_own names from DIR and DIR/raw, then the directories
# if nothing else is left in them; status 1 when something is.
result_remove() {
	set +f
	for rr_f in "$1"/* "$1"/.[!.]* "$1"/..?* "$1"/raw/* "$1"/raw/.[!.]* "$1"/raw/..?*; do
		[ -f "$rr_f" ] || [ -L "$rr_f" ] || continue
		case $rr_f in "$1"/raw/*) rr_k=raw ;; *) rr_k= ;; esac
		! result_own "${rr_f##*/}" $rr_k || rm -f "$rr_f"
	done
	set -f
	[ ! -d "$1/raw" ] || rmdir "$1/raw" 2>/dev/null || true
	rmdir "$1" 2>/dev/null
}

# result_check: OUT, from -o, can take a result: it does not exist (its parent is made now), is
# an empty directory, or an earlier result of these scripts (OLD=1). Anything else cannot work
# and is bad usage, before the first run.
result_check() {
	OLD=0
	[ -n "$OUT" ] || return 0
	if [ -L "$OUT" ] && [ ! -d "$OUT" ]; then usage_error "-o '$OUT': a symbolic link to no directory"; fi
	if [ -e "$OUT" ] && [ ! -d "$OUT" ]; then
		usage_error "-o '$OUT': exists and is not a directory; accepted: a new directory, an empty one or an earlier result"
	fi
	# The real path: a symbolic link's directory is the one replaced, ".." and "." are names.
	if [ -d "$OUT" ]; then
		OUT=$(cd -P "$OUT" && pwd)
	else
		mkdir -p "$(dirname "$OUT")" 2>/dev/null || usage_error "-o '$OUT': cannot make $(dirname "$OUT")"
		OUT=$(cd -P "$(dirname "$OUT")" && pwd)/$(basename "$OUT")
		OUT=/${OUT#"${OUT%%[!/]*}"}
	fi
	[ "$OUT" != / ] || usage_error "-o '/': accepted: a directory for the result"
	if [ -d "$OUT" ] && [ -n "$(ls -A "$OUT" 2>&1)" ]; then
		result_is "$OUT" || usage_error "-o '$OUT': not empty and no result of these scripts (no env.txt of one): refusing to write over what it holds; accepted: a new directory, an empty one or an earlier result"
		[ ! -e "$OUT/raw" ] || [ -d "$OUT/raw" ] || usage_error "-o '$OUT': its raw is not a directory"
		OLD=1
	fi
}

# fs_full DIR: the file system of DIR takes no more data (a 4 KiB file cannot be written there).
fs_full() {
	ff=$1/.space.$$.tmp
	if (printf '%4096s' '' >"$ff") 2>/dev/null; then
		rm -f "$ff"
		return 1
	fi
	rm -f "$ff"
	return 0
}
# disk_check: exits (die_full) when the disk the result is written to is full. Called where a
# write may have failed: sh says "I/O error" at best and a tool's message cannot be written.
disk_check() {
	if [ -d "$STAGE" ] && fs_full "$STAGE"; then die_full; fi
}
die_full() {
	FAIL_WHY="writing the result failed: the disk of $(dirname "$OUT") is full (No space left on device, ENOSPC)"
	exit 1
}

# result_begin PREFIX: the staging directory; without -o, a new name in results/runs, reserved
# by mkdir so that two scripts started in the same second do not take the same one (PREFIX-STAMP,
# else PREFIX-STAMP-2, ...). Call after result_traps.
result_begin() {
	if [ -z "$OUT" ]; then
		mkdir -p "$ROOT/results/runs" || die "cannot make $ROOT/results/runs"
		rb_base=$ROOT/results/runs/$1$(stamp)
		OUT=$rb_base
		rb_n=1
		while ! mkdir "$OUT" 2>/dev/null; do
			rb_n=$((rb_n + 1))
			[ $rb_n -le 100 ] || die "cannot make a directory $rb_base-N in $ROOT/results/runs"
			OUT=$rb_base-$rb_n
		done
		RESERVED=1
		DEFAULT_OUT=1
	fi
	STAGE=$(dirname "$OUT")/.$(basename "$OUT").$$.tmp
	BACKUP=$(dirname "$OUT")/.$(basename "$OUT").$$.old
	WORKDIR=$STAGE/.work
	RESULT_PHASE=staging
	mkdir "$STAGE" || die "cannot make the staging directory $STAGE"
	disk_check
}

# result_stage PREFIX: before the first run: the traps, the staging directory (result_begin
# PREFIX) with its raw/, and the work directory with its cmds and notes; the pairs' reports are
# written to the work directory and kept in raw/ (pair.sh).
result_stage() {
	result_traps
	result_begin "$1"
	mkdir "$STAGE/raw" "$WORKDIR"
	: >"$WORKDIR/cmds"
	: >"$WORKDIR/notes"
	disk_check
	PAIR_DIR=$WORKDIR PAIR_KEEP=$STAGE/raw
}

# nothing_kept FAILED MESSAGE: the end of a script none of whose runs finished. When none failed,
# each was skipped (a tool's exit 4: this kernel lacks what it needs, as the notes said): exit 4,
# as the tools do. Else MESSAGE, exit 1.
nothing_kept() {
	[ "$1" -eq 0 ] || die "$2"
	FAIL_WHY="every run was skipped: this kernel lacks what they need (see the notes above)"
	exit 4
}

# result_install: the finished staging directory into place as OUT (WORKDIR removed first). A
# new or empty OUT is replaced by one rename; an earlier result has what it holds of the user's
# carried over, moves aside and is removed once the new one is in place.
result_install() {
	rm -rf "$WORKDIR"
	RESULT_PHASE=installing
	[ "$OLD" = 0 ] || result_carry "$OUT" "$STAGE"
	# The page for people (scripts/index), last: it links what is in the result, carried too.
	sh "$SCRIPTS/index" "$STAGE" || echo "$PROG: index.html not written; the result is complete" >&2
	[ "$OLD" = 0 ] || mv -T "$OUT" "$BACKUP"
	mv -T "$STAGE" "$OUT"
	result_finish
}
result_finish() {
	RESULT_PHASE=installed
	if [ -d "$BACKUP" ] && ! result_remove "$BACKUP"; then
		echo "$PROG: $BACKUP holds files the scripts did not write: left there" >&2
	fi
	if [ "$LATEST" = 1 ] && [ "$DEFAULT_OUT" = 1 ]; then
		ln -sfn "runs/$(basename "$OUT")" "$ROOT/results/latest"
	fi
}

# result_abort WHY: after a signal or a failure, OUT as it was or the new result complete, by
# what is on disk (each rename happened or did not); one line says WHY and which.
result_abort() {
	ra_what="nothing written to $OUT"
	[ "$OLD" != 1 ] || ra_what="kept the old result in $OUT"
	case $RESULT_PHASE in
	staging) rm -rf "$STAGE" ;;
	installing)
		if [ -d "$STAGE" ]; then
			# Not in place yet: the old result back, and what was carried over from it.
			if [ -d "$BACKUP" ] && [ ! -e "$OUT" ]; then mv -T "$BACKUP" "$OUT"; fi
			if [ "$OLD" = 1 ]; then
				result_carry "$STAGE" "$OUT"
				rm -rf "$STAGE/.work"
				result_remove "$STAGE" || echo "$PROG: $STAGE holds what could not be put back: left there" >&2
			else
				rm -rf "$STAGE"
			fi
		else
			RESULT_PHASE=installed
		fi ;;
	esac
	if [ "$RESULT_PHASE" = installed ]; then
		result_finish
		ra_what="the new result is complete in $OUT"
	elif [ "$RESERVED" = 1 ]; then
		rmdir "$OUT" 2>/dev/null || true
	fi
	echo "$PROG: $1; $ra_what" >&2
}

# result_traps: SIGINT and SIGTERM end the children (RESULT_CLEANUP), settle the result and exit
# 130 or 143; a failure (status not 0) before the result is in place does the same with its
# status (1 when the disk is full). A second signal meanwhile is ignored: the renames must finish.
result_traps() {
	trap 'result_on_signal INT' INT
	trap 'result_on_signal TERM' TERM
	trap 'result_on_exit' EXIT
}
result_on_signal() {
	set +e
	trap '' INT TERM
	trap - EXIT
	$RESULT_CLEANUP
	result_abort "interrupted by SIG$1"
	[ "$1" = INT ] && exit 130
	exit 143
}
result_on_exit() {
	ro_st=$?
	set +e
	trap '' INT TERM
	trap - EXIT
	$RESULT_CLEANUP
	if [ "$RESULT_PHASE" != installed ] && { [ "$ro_st" -ne 0 ] || [ -n "$RESULT_PHASE" ]; }; then
		if [ -z "$FAIL_WHY" ] && [ -d "$STAGE" ] && fs_full "$STAGE"; then
			FAIL_WHY="writing the result failed: the disk of $(dirname "$OUT") is full (No space left on device, ENOSPC)"
			ro_st=1
		fi
		result_abort "${FAIL_WHY:-stopped (status $ro_st)}"
	fi
	exit "$ro_st"
}

# shellcheck source=scripts/pair.sh
. "$SCRIPTS/pair.sh"
