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

# need_root_ip WHAT: ends the test here, skipped visibly, unless it runs as root with iproute2's
# ip: WHAT says what needs them (network namespaces, veth pairs).
need_root_ip() {
	if [ "$(id -u)" -ne 0 ]; then
		skip "not root: $1 needs network namespaces"
	elif ! command -v ip >/dev/null 2>&1; then
		skip "no ip: apt-get install -y iproute2"
	else
		return 0
	fi
	done_tests
	exit
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

# sigint_via WAY RCVBUF: (checks named n) blast --via WAY from namespace S into suck -m mmsg -R
# RCVBUF in R at A4, SIGINT to blast mid-run: blast ends at once with exit 0 and its fins, and
# suck counts every datagram blast did valid. Status 1 when suck did not start.
sigint_via() {
	if ! start_listener "$n" ip netns exec "$R" "$BIN/suck" -m mmsg -a "$A4" -p 0 -R "$2" -o tsv -t 30 -i 0.05; then
		fail "$n: suck did not start"
		return 1
	fi
	# not through inS: $! must be blast's own pid (ip netns exec execs it)
	ip netns exec "$S" "$BIN/blast" --via "$1" -a "$A4" -p "$PORT" -o tsv -t 20 -r 20000 >"$TMP/$n.blast" 2>"$TMP/$n.berr" &
	sv_p=$!
	PIDS="$PIDS $sv_p"
	wait_received "$n"
	kill -INT $sv_p
	check "$n: blast ends within 5 s" wait_pid $sv_p 5
	wait $sv_p
	check "$n: exit 0" test $? = 0
	check "$n: suck ends on the fins" wait_pid "$LISTENER_PID" 10
	check "$n: stop signal ($(field "$TMP/$n.blast" stop))" test "$(field "$TMP/$n.blast" stop)" = signal
	check "$n: every datagram valid ($(field "$TMP/$n.out" valid) of $(field "$TMP/$n.blast" sent)), none lost" \
		test "$(field "$TMP/$n.out" valid) $(field "$TMP/$n.out" lost)" = "$(field "$TMP/$n.blast" sent) 0"
}

# none_left DIR: no process runs with a run id of DIR's commands (every suck and blast)
none_left() {
	nl_ids=$(sed -n 's/^cmd: .*\/\(suck\|blast\) .* --run-id \([0-9][0-9]*\) .*/\2/p' "$1/env.txt" | sort -u)
	[ -n "$nl_ids" ] || { echo "no run id in $1/env.txt"; return 1; }
	for nl_id in $nl_ids; do
		for nl_p in /proc/[0-9]*; do
			{ tr '\0' ' ' <"$nl_p/cmdline"; } 2>/dev/null | grep -Eq -- "(suck|blast) .*--run-id $nl_id " &&
				{ echo "a tool of run $nl_id still running: $nl_p"; return 1; }
		done
	done
	return 0
}

# hog CPU: a shell spinning on CPU (pinned where taskset is), its pid in HOGS and PIDS (the EXIT
# trap kills it whatever ends the test); unhog: every hog killed and reaped at once.
HOGS=
hog() {
	if command -v taskset >/dev/null 2>&1; then
		taskset -c "$1" sh -c 'while :; do :; done' &
	else
		sh -c 'while :; do :; done' &
	fi
	HOGS="$HOGS $!"
	PIDS="$PIDS $!"
}
unhog() {
	for h in $HOGS; do kill "$h" 2>/dev/null; done
	for h in $HOGS; do wait "$h" 2>/dev/null; done
	HOGS=
}
# until_ COND ARGS...: waits for COND, at most 60 s.
until_() {
	u=0
	until "$@"; do
		u=$((u + 1))
		[ $u -lt 3000 ] || return 1
		sleep 0.02
	done
}

# unprivileged_exit4 EXPERIMENT: scripts/reproduce EXPERIMENT run by nobody (a copy of scripts/
# nobody can read) exits 4, says it needs root and writes nothing; skipped without setpriv.
unprivileged_exit4() {
	if [ "$(id -u)" -ne 0 ]; then
		ue_as=
	elif setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
		ue_as="setpriv --reuid=65534 --regid=65534 --clear-groups"
	else
		skip "no setpriv: $1 without root not checked"
		return 0
	fi
	chmod 755 "$TMP"
	mkdir -p "$TMP/u"
	cp -R scripts "$TMP/u/"
	chmod -R a+rX "$TMP/u"
	ue_st=0
	# shellcheck disable=SC2086 # the runner's words
	(cd / && $ue_as sh "$TMP/u/scripts/reproduce" "$1" -t 0.3 -r 1 -o "$TMP/u/out") >/dev/null 2>"$TMP/u.err" || ue_st=$?
	check "without root: exit 4 (got $ue_st: $(head -n 1 "$TMP/u.err"))" test "$ue_st" -eq 4
	check "without root: says it needs root" grep -q 'needs root .*: not supported here (exit 4)' "$TMP/u.err"
	check "without root: nothing written" test ! -e "$TMP/u/out"
}

# interrupted EXPERIMENT NAME SIG ROW: reproduce EXPERIMENT (-t 1 -r 1 -o $TMP/NAME; SIGINT at
# its default through env --default-signal, as a command started with & ignores it) sent SIG
# once ROW's run 1 has begun and its blast sends in the wire's namespace: it ends within 15 s
# with 128 + the signal, leaves nothing (the test's `left PID`) and writes nothing.
LAUNCH=
! env --default-signal=INT true 2>/dev/null || LAUNCH="env --default-signal=INT"
interrupted() {
	# shellcheck disable=SC2086 # LAUNCH: words
	$LAUNCH sh scripts/reproduce "$1" -t 1 -r 1 -o "$TMP/$2" >/dev/null 2>"$TMP/$2.err" &
	P=$!
	PIDS="$PIDS $P"
	i=0
	while ! grep -q "$1 $4, run 1" "$TMP/$2.err" 2>/dev/null && kill -0 "$P" 2>/dev/null && [ $i -lt 3000 ]; do
		i=$((i + 1))
		sleep 0.01
	done
	i=0
	while ! ip netns pids "bs-wire-$P-blast" 2>/dev/null | grep -q . && kill -0 "$P" 2>/dev/null && [ $i -lt 500 ]; do
		i=$((i + 1))
		sleep 0.01
	done
	kill -"$3" "$P"
	if wait_pid "$P" 15; then wait "$P"; st=$?; else st=hung; fi
	case $3 in INT) want=130 ;; *) want=143 ;; esac
	check "$2: SIG$3 in the $4 row ends it with $want (got $st)" test "$st" = "$want"
	w=$(left "$P")
	check "$2: nothing left behind (${w:-none})" test -z "$w"
	check "$2: nothing written" test ! -e "$TMP/$2"
}

# held_copy VAR: a copy of this test run with VAR=FILE, which makes its namespaces, starts a suck
# and a long blast and writes "NS1 NS2 SUCK_PID BLAST_PID" to FILE; once it has, a SIGTERM to the
# copy, which must end within 10 s with its namespaces and both processes gone (checks named n).
held_copy() {
	hc_f=$TMP/hold.names
	env "$1=$hc_f" sh "$0" >"$TMP/hold.log" 2>&1 &
	hc_p=$!
	PIDS="$PIDS $hc_p"
	hc_i=0
	while [ ! -s "$hc_f" ] && kill -0 $hc_p 2>/dev/null && [ $hc_i -lt 1000 ]; do
		hc_i=$((hc_i + 1))
		sleep 0.01
	done
	if [ ! -s "$hc_f" ]; then
		fail "$n: the copy did not start ($(tail -n 3 "$TMP/hold.log"))"
		return
	fi
	# shellcheck disable=SC2046 # four words
	set -- $(cat "$hc_f")
	kill -TERM $hc_p
	check "$n: the copy ends within 10 s" wait_pid $hc_p 10
	check "$n: its namespaces $1 $2 are gone" sh -c "! ip netns list | grep -qw -e '$1' -e '$2'"
	check "$n: its suck is gone" wait_gone "$3"
	check "$n: its blast is gone" wait_gone "$4"
}

# wait_gone PID: PID (not a child) gone within 5 s.
wait_gone() {
	wg_i=0
	while kill -0 "$1" 2>/dev/null; do
		wg_i=$((wg_i + 1))
		[ $wg_i -gt 500 ] && return 1
		sleep 0.01
	done
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

# rows FILE: the data rows of a tsv file (after its one header line).
rows() { awk 'NR > 1' "$1" | wc -l | tr -d ' '; }
# at FILE KEY ROW: KEY of data row ROW (1 = the first after the header).
at() { col "$1" "$2" | sed -n "${3}p"; }
# wait_rows FILE N: waits (up to 10 s, while SUCK_PID lives) until suck has reported N runs.
wait_rows() {
	wr=0
	while [ "$(rows "$1" 2>/dev/null)" -lt "$2" ] && [ $wr -lt 1000 ] && kill -0 "$SUCK_PID" 2>/dev/null; do
		wr=$((wr + 1))
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

# early_wrappers DIR: DIR/suck and DIR/blast run BIN's, DIR/bare is BIN's (for a script's
# BIN=DIR). With EARLY_AT="TOOL PHASE" (PHASE: list, suck -m list; check, --check; run) the first
# such call makes the directory EARLY_MARK and waits half a second before it runs: a moment,
# before a script's first run, that a test can interrupt it at.
early_wrappers() {
	ew_bin=$(cd "$BIN" && pwd)
	mkdir -p "$1"
	for ew in suck blast; do
		cat >"$1/$ew" <<EOF
#!/bin/sh
case " \$* " in *" -m list "*) at=list ;; *" --check "*) at=check ;; *) at=run ;; esac
if [ "\${EARLY_AT:-}" = "$ew \$at" ] && mkdir "\$EARLY_MARK" 2>/dev/null; then sleep 0.5; fi
exec "$ew_bin/$ew" "\$@"
EOF
		chmod +x "$1/$ew"
	done
	ln -sf "$ew_bin/bare" "$1/bare"
}
# traps_set PID: the shell PID has trapped SIGTERM (bit 15 of SigCgt in /proc/PID/status), as
# the scripts do with SIGINT. dash catches SIGINT whether trapped or not: its bit tells nothing.
traps_set() {
	awk '/^SigCgt:/ { v = index("0123456789abcdef", tolower(substr($2, length($2) - 3, 1))) - 1; f = int(v / 4) % 2 }
		END { exit !f }' "/proc/$1/status" 2>/dev/null
}
# early_int NAME AT OUT SCRIPT ARGS...: scripts/SCRIPT ARGS, its tools the wrappers of
# early_wrappers in $TMP/early.bin, with the SIGINT a terminal's ^C gives (env --default-signal),
# interrupted at AT: "start", as soon as it has set a trap, or "TOOL PHASE" of the
# wrappers. It must exit 130 within 10 s saying "interrupted by SIGINT; nothing written", and
# leave neither OUT nor a staging directory in OUT's directory.
early_int() {
	ei_n=$1 ei_at=$2 ei_out=$3
	shift 3
	[ -d "$TMP/early.bin" ] || early_wrappers "$TMP/early.bin"
	ei_try=0
	while :; do
		rm -rf "$TMP/$ei_n.mark"
		EARLY_AT=$ei_at EARLY_MARK=$TMP/$ei_n.mark BIN=$TMP/early.bin env --default-signal=INT \
			sh "scripts/$@" >"$TMP/$ei_n.out" 2>"$TMP/$ei_n.err" &
		ei_pid=$!
		PIDS="$PIDS $ei_pid"
		ei_i=0
		if [ "$ei_at" = start ]; then
			while ! traps_set "$ei_pid" && kill -0 "$ei_pid" 2>/dev/null && [ $ei_i -lt 5000 ]; do ei_i=$((ei_i + 1)); done
		else
			while [ ! -d "$TMP/$ei_n.mark" ] && kill -0 "$ei_pid" 2>/dev/null && [ $ei_i -lt 1000 ]; do
				ei_i=$((ei_i + 1))
				sleep 0.01
			done
		fi
		kill -INT "$ei_pid" 2>/dev/null
		ei_st=hung
		if wait_pid "$ei_pid" 10; then
			wait "$ei_pid"
			ei_st=$?
		fi
		# A script that finished before the signal came was not interrupted at all (a loaded
		# machine let it run its whole short job first): that tried nothing. Nor did one whose
		# shell lost the signal: under load dash now and then drops one that lands in the
		# script's first moments (about 1 in 50 here), so the script runs on (hung) or dies of
		# it before its trap runs (130, not a word). Each is tried again, twice at most, from a
		# clean slate.
		if [ "$ei_st" = hung ]; then
			pkill -TERM -P "$ei_pid" 2>/dev/null
			kill -KILL "$ei_pid" 2>/dev/null
			wait_pid "$ei_pid" 10
		fi
		ei_try=$((ei_try + 1))
		[ $ei_try -lt 3 ] || break
		case $ei_st in
		0) grep -q 'done in' "$TMP/$ei_n.err" || break ;;
		hung) ;;
		130) [ ! -s "$TMP/$ei_n.err" ] || break ;;
		*) break ;;
		esac
		echo "$1 interrupted at $ei_at: status $ei_st, $(wc -c <"$TMP/$ei_n.err") bytes said: the signal was not taken; trying again"
		rm -rf "$ei_out"
	done
	ei_d="$1 interrupted at $ei_at"
	check "$ei_d: exit 130 (got $ei_st)" test "$ei_st" = 130
	check "$ei_d: says so ($(tr '\n' ' ' <"$TMP/$ei_n.err"))" grep -qF "$1: interrupted by SIGINT; nothing written" "$TMP/$ei_n.err"
	check "$ei_d: no shell error" sh -c "! grep -Eq 'not found|rror' '$TMP/$ei_n.err'"
	check "$ei_d: nothing written" test ! -e "$ei_out"
	check "$ei_d: no staging directory" test -z "$(find "$(dirname "$ei_out")" -maxdepth 1 -name '.*.tmp' | head -n 1)"
}

# sink_driver: writes a driver into scripts/ (lib/base.sh finds the tree by its $0) and prints
# its path, which the caller removes. `sh DRIVER OUT CMD...` brings the send-only sink up
# (scripts/lib/wire.sh sink_up; SINK_MTU in the environment: its device's MTU), runs CMD in the
# sink's namespace with its output in OUT, prints "drops D tx_packets N ns NAME" (D: the
# device's drops while CMD ran, N: what left it) and takes the sink down on every exit.
sink_driver() {
	sd_f=scripts/.${TESTNAME}_driver.$$
	cat >"$sd_f" <<'EOS'
PROG=sink_driver
usage() { :; }
. "$(dirname "$0")/lib/base.sh"
. "$LIB/tools.sh"
. "$LIB/result.sh"
. "$LIB/pair.sh"
. "$LIB/wire.sh"
OUT=$1
shift
sink_up
echo "ns $SINK_NS dev $SINK_DEV" >&2
d0=$(sink_drops) p0=$(sink_sent)
$SINK_CMD "$@" >"$OUT" &
b=$!
wait "$b"
echo "drops $(($(sink_drops) - d0)) tx_packets $(($(sink_sent) - p0)) ns $SINK_NS"
EOS
	echo "$sd_f"
}
# sink_gone NS: no namespace NS and no device of its pid left.
sink_gone() {
	ip netns list 2>/dev/null | awk -v n="$1" '$1 == n { f = 1 } END { exit f }' || { echo "namespace $1 left"; return 1; }
	! ip -o link show 2>/dev/null | grep -q "bs$(printf '%07d' "${1#bs-sink-}")" || { echo "a device of $1 left"; return 1; }
}
# sink_drive NAME ARGS...: the driver $DRV with blast ARGS, bounded; sets DST (its exit), DROPS,
# TXP, NS; blast's report in $TMP/NAME.tsv. Nobody receives: the fins last 0.1 s, not 2.
sink_drive() {
	dn=$1
	shift
	timeout 60 sh "$DRV" "$TMP/$dn.tsv" "$BIN/blast" --fin-time 0.1 "$@" >"$TMP/$dn.out" 2>"$TMP/$dn.err"
	DST=$?
	# shellcheck disable=SC2046 # the driver's line: words
	set -- $(cat "$TMP/$dn.out")
	DROPS=${2:-x} TXP=${4:-x} NS=${6:-}
}
