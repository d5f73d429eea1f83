#!/bin/sh
# valgrind memcheck of a short blast/suck pair for every variant: no error, no leak, both
# reports printed. Part of `make check`. Skips with a message when valgrind is missing.
. tests/lib.sh
TESTNAME=valgrind
if ! command -v valgrind >/dev/null 2>&1; then
	skip "valgrind is not installed (apt-get install valgrind)"
	done_tests
	exit 0
fi
VG="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect"

for v in $(variants); do
	n=vg-$v
	SVG=$VG
	if [ $v = uring ]; then
		# The kernel fills io_uring's buffers behind valgrind's back: memcheck would call every
		# byte of every datagram uninitialised. The sanitizer build covers uring instead.
		skip "$n: memcheck cannot see io_uring's kernel writes; suck runs without it, blast with it"
		SVG=""
	fi
	# shellcheck disable=SC2086
	$SVG "$BIN/suck" -p 0 -m "$v" -o tsv --idle 10 -t 120 >"$TMP/$n.out" 2>"$TMP/$n.err" &
	SUCK_PID=$!
	PIDS="$PIDS $SUCK_PID"
	i=0
	while ! grep -q 'listening on' "$TMP/$n.err" 2>/dev/null && kill -0 $SUCK_PID 2>/dev/null && [ $i -lt 3000 ]; do
		i=$((i + 1)); sleep 0.01
	done
	PORT=$(sed -n 's/.*listening on .*:\([0-9][0-9]*\)$/\1/p' "$TMP/$n.err")
	if [ -z "$PORT" ]; then
		wait $SUCK_PID
		st=$? # 4: a feature this kernel or device does not offer (xdp on lo), a skip
		if [ $st -eq 4 ]; then skip "$n: $(cat "$TMP/$n.err")"; else fail "$n: suck did not start (exit $st): $(cat "$TMP/$n.err")"; fi
		continue
	fi
	# shellcheck disable=SC2086
	$VG "$BIN/blast" -p "$PORT" -n 3000 -r 20k -g 3 -b 2 -o tsv >"$TMP/$n.blast" 2>"$TMP/$n.berr"
	check "$n: blast clean under memcheck (exit $?): $(grep -v nothing "$TMP/$n.berr" | head -5)" test $? -eq 0
	wait $SUCK_PID
	st=$?
	check "$n: suck clean under memcheck (exit $st): $(grep -v listening "$TMP/$n.err" | head -5)" test $st -eq 0
	check "$n: suck's report" test "$(field "$TMP/$n.out" sent)" = 3000
	# --check sets the variant up and tears it down again: nothing may leak on that path either
	# shellcheck disable=SC2086
	$SVG "$BIN/suck" --check -p 0 -m "$v" -o tsv >"$TMP/$n.chk" 2>"$TMP/$n.chkerr"
	check "$n: suck --check clean under memcheck (exit $?): $(head -5 "$TMP/$n.chkerr")" test $? -eq 0
done
# blast --zerocopy: its ring and the error queue's control messages under memcheck
if start_suck vg-zc -m mmsg -o tsv --idle 10 -t 120; then
	$VG "$BIN/blast" -p "$PORT" -n 3000 -r 20k -g 3 -b 2 --zerocopy -o tsv >"$TMP/vg-zc.blast" 2>"$TMP/vg-zc.berr"
	st=$?
	if [ $st -eq 4 ]; then
		skip "vg-zc: no MSG_ZEROCOPY here: $(head -n 1 "$TMP/vg-zc.berr")"
		kill "$SUCK_PID" 2>/dev/null
	else
		check "vg-zc: blast --zerocopy clean under memcheck (exit $st): $(head -5 "$TMP/vg-zc.berr")" test $st -eq 0
		check "vg-zc: every message completed" test "$(field "$TMP/vg-zc.blast" zc_completions)" = "$(field "$TMP/vg-zc.blast" zc_sends)"
		wait_pid "$SUCK_PID" 30
	fi
fi
$VG "$BIN/blast" --check -p 9 -o tsv >"$TMP/vg-check.blast" 2>"$TMP/vg-check.berr"
check "blast --check clean under memcheck (exit $?): $(head -5 "$TMP/vg-check.berr")" test $? -eq 0
done_tests
