# An interrupted suite: SIGINT (or SIGTERM) while blast is sending ends suck and blast, leaves no
# partial file, writes nothing to a new result directory and leaves an earlier one as it was, and
# says which. (t_scripts_result interrupts the swap of an earlier result for the new one.)
# A shell ignores SIGINT in what it starts in the background; env --default-signal gives the
# suite the SIGINT a terminal's ^C would.
. tests/lib.sh

cat >"$TMP/wrap" <<EOF
#!/bin/sh
tool=\$1; shift
case " \$* " in *" -p "*) echo \$\$ >>"$TMP/\$tool.pids" ;; esac
exec "\$@"
EOF

# interrupt NAME SIG DIR SAYS: starts a suite writing DIR, waits until blast is sending, sends SIG;
# the suite must say SAYS. Sets SUITE_ST (its exit status, or "hung").
interrupt() {
	rm -f "$TMP/suck.pids" "$TMP/blast.pids"
	$LAUNCH env SUCK_CMD="sh $TMP/wrap suck" BLAST_CMD="sh $TMP/wrap blast" GNUPLOT=/nonexistent/gnuplot \
		sh scripts/suite -t 20 -r 2 -W 0 -m buffer -o "$3" >"$TMP/$1.out" 2>"$TMP/$1.err" &
	spid=$!
	PIDS="$PIDS $spid"
	i=0
	while [ ! -s "$TMP/blast.pids" ] && [ $i -lt 1000 ]; do
		i=$((i + 1))
		sleep 0.01
	done
	bpid=$(head -n 1 "$TMP/blast.pids" 2>/dev/null)
	check "$1: blast started" test -n "$bpid"
	kill -"$2" "$spid"
	if wait_pid "$spid" 10; then
		wait "$spid"
		SUITE_ST=$?
	else
		SUITE_ST=hung
	fi
	alive=
	for p in $(cat "$TMP/suck.pids" "$TMP/blast.pids" 2>/dev/null); do kill -0 "$p" 2>/dev/null && alive="$alive $p"; done
	check "$1: suck and blast ended with the suite" test -z "$alive"
	check "$1: says it was interrupted and what it left" grep -qF "interrupted by SIG$2; $4" "$TMP/$1.err"
	check "$1: no partial file" test -z "$(find "$TMP" -name '*.tmp' | head -n 1)"
}

LAUNCH=
if env --default-signal=INT true 2>/dev/null; then
	LAUNCH="env --default-signal=INT"
	interrupt int INT "$TMP/new" "nothing written to $TMP/new"
	check "SIGINT: exit status 130" test "$SUITE_ST" = 130
	check "SIGINT: no result directory" test ! -e "$TMP/new"
else
	skip "env --default-signal is missing: SIGINT not checked (SIGTERM is)"
fi

# ^C in the first moments: the traps are set before the checks that come before the
# first run (some 200 ms: suck's variant list, the hosts, --check), which once ended the suite
# without a word. Interrupted as soon as it can catch SIGINT, while suck lists its variants,
# while blast and suck check its options: "nothing written", exit 130, nothing left.
if [ -n "$LAUNCH" ] || env --default-signal=INT true 2>/dev/null; then
	for at in start "suck list" "blast check" "suck check"; do
		early_int "early-${at% *}-${at#* }" "$at" "$TMP/early" suite -t 1 -r 1 -W 0 -P -m "buffer mmsg" -o "$TMP/early"
	done
else
	skip "env --default-signal is missing: the first moments not interrupted"
fi

# An earlier result in the directory stays as it was.
mkdir -p "$TMP/old/raw"
printf 'variant\trun\nold\t1\n' >"$TMP/old/runs.tsv"
echo old >"$TMP/old/table.md"
printf 'date: 2026-01-01T00:00:00Z\nsuite: scripts/suite -o old\n' >"$TMP/old/env.txt"
cp -R "$TMP/old" "$TMP/old.copy"
LAUNCH=
interrupt term TERM "$TMP/old" "kept the old result in $TMP/old"
check "SIGTERM: exit status 143" test "$SUITE_ST" = 143
check "SIGTERM: the earlier result untouched" diff -r "$TMP/old" "$TMP/old.copy"

done_tests
