# lib.sh: helpers for the integration tests. Source it; it sets BIN, counts checks and
# cleans up every process it started. Tests never sleep to synchronise: they wait for
# suck's "listening on" line, with a generous bound so a loaded machine does not fail them.
set -u
BIN=${BIN:-bin}
TESTNAME=$(basename "$0" .sh)
TMP=$(mktemp -d)
PASS=0
FAIL=0
PIDS=""
# KEEP=1 keeps the temporary directory of a failing run for a look.
trap 'for p in $PIDS; do kill "$p" 2>/dev/null; done
	if [ "${KEEP:-0}" = 1 ]; then echo "kept $TMP"; else rm -rf "$TMP"; fi' EXIT
trap 'exit 1' INT TERM

ok() { PASS=$((PASS + 1)); }
fail() { FAIL=$((FAIL + 1)); echo "FAIL $TESTNAME: $*"; }
check() { # description command...: passes when the command succeeds
	d=$1; shift
	if "$@"; then ok; else fail "$d"; fi
}
skip() { echo "SKIP $TESTNAME: $*"; }
done_tests() { echo "$TESTNAME: $PASS passed, $FAIL failed"; [ "$FAIL" -eq 0 ]; }

# start_listener NAME CMD...: runs CMD in the background, output in $TMP/NAME.out and .err, and
# waits (up to 10 s) for its "listening on ADDR:PORT" line; sets PORT and LISTENER_PID.
start_listener() {
	n=$1; shift
	rm -f "$TMP/$n.out" "$TMP/$n.err" # a reused NAME must not show the last run's port
	"$@" >"$TMP/$n.out" 2>"$TMP/$n.err" &
	LISTENER_PID=$!
	PIDS="$PIDS $LISTENER_PID"
	i=0
	while ! grep -q 'listening on' "$TMP/$n.err" 2>/dev/null; do
		i=$((i + 1))
		if [ $i -gt 1000 ] || ! kill -0 "$LISTENER_PID" 2>/dev/null; then
			PORT=""
			echo "$(basename "$1") did not start: $(cat "$TMP/$n.err")"
			return 1
		fi
		sleep 0.01
	done
	PORT=$(sed -n 's/.*listening on .*:\([0-9][0-9]*\)$/\1/p' "$TMP/$n.err" | head -n 1)
}

# start_suck NAME ARGS...: suck -p 0 ARGS through start_listener; sets PORT and SUCK_PID.
start_suck() {
	ss_n=$1; shift
	start_listener "$ss_n" "$BIN/suck" -p 0 "$@"
	ss_st=$?
	SUCK_PID=$LISTENER_PID
	return $ss_st
}

# wait_pid PID SECS: waits for a process to end, at most SECS; 1 if it did not.
wait_pid() {
	i=0
	while kill -0 "$1" 2>/dev/null; do
		i=$((i + 1))
		[ $i -gt $(($2 * 100)) ] && return 1
		sleep 0.01
	done
	wait "$1" 2>/dev/null
	return 0
}

# field FILE KEY: the value of KEY in a tsv report (header line, then one row).
field() {
	awk -F'\t' -v k="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i }
		NR == 2 && c { print $c }' "$1"
}

# wait_received NAME: waits (up to 10 s) until a suck started with -i shows datagrams received.
wait_received() {
	i=0
	# the line for people, or a tsv or json interval row (suck -o tsv/json -i)
	while ! grep -q -e 'received *[1-9]' -e '^suck	[0-9.]*	[1-9]' -e '"received":[1-9]' "$TMP/$1.err" &&
		[ $i -lt 1000 ]; do
		i=$((i + 1))
		sleep 0.01
	done
}

# col FILE NAME: the column NAME of every row of a tsv file with a header line (status 1, and
# nothing printed, when there is no such column).
col() {
	awk -F'\t' -v k="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i; if (!c) exit 1; next }
		{ print $c }' "$1"
}

# has_cols FILE NAME...: the header line has every NAME.
has_cols() {
	hc_f=$1; shift
	for hc in "$@"; do
		head -n 1 "$hc_f" | tr '\t' '\n' | grep -qx "$hc" || { echo "no column $hc in $hc_f"; return 1; }
	done
}

# variants: the names of suck's receive variants, one a line, from suck -m list (first column),
# so that a test covers a new variant without naming it.
variants() {
	"$BIN/suck" -m list | cut -f 1
}
