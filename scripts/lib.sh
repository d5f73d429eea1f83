# scripts/lib.sh: what suite, reproduce, plot and compare share. Sourced, not run; the caller
# sets PROG (its name, for messages) before sourcing.
#
# Pitfalls kept here once: a file is published by a rename inside its own directory (a rename
# across file systems would copy and could leave half a file); `set -f` because option values
# such as -B "BLAST ARGS" are split into words on purpose and must not be globbed.
set -eu
set -f

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SCRIPTS=$ROOT/scripts

die() { echo "$PROG: $*" >&2; exit 1; }
usage_error() { echo "$PROG: $*" >&2; usage >&2; exit 2; }

# abspath PATH: PATH made absolute against the current directory (the directory need not exist).
abspath() {
	case "$1" in
	/*) printf '%s\n' "$1" ;;
	*) printf '%s/%s\n' "$(pwd)" "$1" ;;
	esac
}

is_uint() { case "$1" in '' | *[!0-9]*) return 1 ;; esac; }
# is_secs VALUE: a positive decimal number of seconds (1, 0.5, 10.25)
is_secs() {
	printf '%s\n' "$1" | awk '{ exit !($0 ~ /^([0-9]+|[0-9]*\.[0-9]+)$/ && $0 + 0 > 0) }'
}

# stop_child PID: SIGTERM, then SIGKILL if it has not ended within 3 s; reaps it.
stop_child() {
	[ -n "$1" ] || return 0
	kill -TERM "$1" 2>/dev/null || true
	sc_i=0
	while kill -0 "$1" 2>/dev/null && [ $sc_i -lt 60 ]; do
		sc_i=$((sc_i + 1))
		sleep 0.05
	done
	kill -KILL "$1" 2>/dev/null || true
	wait "$1" 2>/dev/null || true
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

# describe_run DIR: one line for a plot's subtitle: the run's size and the machine.
describe_run() {
	dr_env=$1/env.txt
	dr_size=$(env_value "$dr_env" size_bytes)
	dr_time=$(env_value "$dr_env" time_s)
	dr_runs=$(env_value "$dr_env" runs)
	dr_work=$(env_value "$dr_env" work)
	dr_bargs=$(env_value "$dr_env" blast_args)
	dr_cpu=$(env_value "$dr_env" cpu_model)
	dr_n=$(env_value "$dr_env" cpu_count)
	dr_kern=$(env_value "$dr_env" kernel)
	dr_two=$(env_value "$dr_env" blast_host.cpu_model)
	printf '%s-byte datagrams, %s s x %s runs, work %s%s | %s, %s CPUs, %s%s\n' \
		"${dr_size:-?}" "${dr_time:-?}" "${dr_runs:-?}" "${dr_work:-?}" \
		"${dr_bargs:+, blast $dr_bargs}" "${dr_cpu:-unknown CPU}" "${dr_n:-?}" \
		"$(printf '%s\n' "${dr_kern:-unknown kernel}" | awk '{ print $1, $2 }')" \
		"${dr_two:+ (blast on another host: $dr_two)}"
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

# install_dir STAGE DIR: a finished staging directory into place. A new DIR is one rename; into an
# existing DIR the files move one by one (each rename whole), and DIR's plots and raw/ that this
# result does not have are removed, so nothing stale is left beside the new tables.
install_dir() {
	if [ ! -e "$2" ]; then
		mv "$1" "$2"
		return
	fi
	set +f
	for id_f in "$2"/*.png "$2"/*.svg "$2"/reproduce.*; do
		[ ! -e "$id_f" ] || [ -e "$1/$(basename "$id_f")" ] || rm -f "$id_f"
	done
	for id_f in "$1"/*; do
		[ "$(basename "$id_f")" = raw ] || mv -f "$id_f" "$2/"
	done
	set -f
	rm -rf "$2/raw"
	if [ -d "$1/raw" ]; then mv "$1/raw" "$2/raw"; fi
	rmdir "$1"
}
