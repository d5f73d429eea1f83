# The scripts' result directories (scripts/lib/result.sh), through scripts/suite (ndr, sweep and
# reproduce share the code): -o over an earlier result replaces it whole, and a signal at any
# moment of the swap leaves either the old result or the new one, whole, and says which; what the
# scripts did not write (a user's cat.png, raw/x, a subdirectory) is kept; -o of a file, or of a
# non-empty directory that is no result, is refused before the first run; a second run into a
# directory another run is writing stops before its first run (exit 2); what a run killed by
# SIGKILL left beside its directory (its staging directory, the earlier result set aside) is
# settled by the next run into it; two suites started in the same second without -o keep both
# their results, and what a killed one left in results/runs goes with the next.
# The moments of the swap are found with an mv in PATH that sends SIGTERM to the suite right after
# its K-th rename touching the result directory, for K = 1, 2, ... until the suite gets through.
. tests/lib.sh

quick() { # OUT NAME ARGS...: a short suite into OUT, with the environment QENV (words);
	# output in $TMP/NAME.out and .err, status in ST
	q_o=$1 q_n=$2
	shift 2
	ST=0
	env ${QENV:-} GNUPLOT=/nonexistent/gnuplot sh scripts/suite -t 0.2 -r 1 -W 0 -P "$@" -o "$q_o" \
		>"$TMP/$q_n.out" 2>"$TMP/$q_n.err" || ST=$?
}
leftovers() { # DIR: staging or set-aside directories left beside the results in DIR
	for lo in "$1"/.*.[0-9]*.tmp "$1"/.*.[0-9]*.old; do [ ! -e "$lo" ] || echo "$lo"; done
}

# The earlier result: a real one (copy), with a plot the new run will not draw (-P) and what a
# user put there.
quick "$TMP/old" old -m copy
check "the earlier result is made" test "$ST" -eq 0
echo stale >"$TMP/old/memory.png"
echo meow >"$TMP/old/cat.png"
echo mine >"$TMP/old/raw/x"
mkdir "$TMP/old/notes"
echo mine >"$TMP/old/notes/n.txt"

# new_whole DIR: the new result (buffer), whole, with the user's files, without the old result's.
new_whole() {
	nw=
	[ "$(col "$1/runs.tsv" variant 2>/dev/null | tr '\n' ' ')" = "buffer " ] || nw="$nw runs.tsv"
	for f in env.txt summary.tsv table.md raw/buffer-1.suck.tsv raw/buffer-1.blast.tsv; do
		[ -s "$1/$f" ] || nw="$nw no-$f"
	done
	[ ! -e "$1/memory.png" ] || nw="$nw stale-memory.png"
	[ ! -e "$1/raw/copy-1.suck.tsv" ] || nw="$nw stale-raw"
	[ "$(cat "$1/cat.png" 2>/dev/null)" = meow ] || nw="$nw cat.png-lost"
	[ "$(cat "$1/raw/x" 2>/dev/null)" = mine ] || nw="$nw raw/x-lost"
	[ "$(cat "$1/notes/n.txt" 2>/dev/null)" = mine ] || nw="$nw notes-lost"
	[ -z "$nw" ] || { echo "not the new result whole:$nw"; return 1; }
}

# --- a rerun over an earlier result: the new result, the user's files carried over
D=$TMP/res
cp -R "$TMP/old" "$D"
quick "$D" rerun -m buffer
check "rerun over an earlier result: exit 0 (got $ST)" test "$ST" -eq 0
check "rerun: the new result whole, the user's files kept, the old result's gone" new_whole "$D"
check "rerun: nothing left beside it" test -z "$(leftovers "$TMP")"

# --- SIGTERM right after each rename of the swap
mkdir "$TMP/fake"
REAL_MV=$(command -v mv)
cat >"$TMP/fake/mv" <<EOF
#!/bin/sh
"$REAL_MV" "\$@"
st=\$?
for a in "\$@"; do
	case \$a in
	"\$FAKE_OUT" | "\$FAKE_OUT"/*)
		n=\$((\$(cat "\$FAKE_COUNT" 2>/dev/null || echo 0) + 1))
		echo \$n >"\$FAKE_COUNT"
		if [ \$n -eq "\$FAKE_K" ]; then echo "\$*" >"\$FAKE_COUNT.fired"; kill -TERM \$PPID; fi
		break ;;
	esac
done
exit \$st
EOF
chmod +x "$TMP/fake/mv"
kept=0 complete=0 K=1
while [ $K -le 12 ]; do
	rm -rf "$D" "$TMP/count" "$TMP/count.fired"
	cp -R "$TMP/old" "$D"
	QENV="PATH=$TMP/fake:$PATH FAKE_OUT=$D FAKE_K=$K FAKE_COUNT=$TMP/count"
	quick "$D" k$K -m buffer
	QENV=
	if [ ! -e "$TMP/count.fired" ]; then
		check "after the last rename ($((K - 1))): exit 0 (got $ST)" test "$ST" -eq 0
		check "after the last rename: the new result" new_whole "$D"
		break
	fi
	what="SIGTERM after rename $K ($(cat "$TMP/count.fired"))"
	check "$what: exit 143 (got $ST)" test "$ST" -eq 143
	if grep -qxF "suite: interrupted by SIGTERM; kept the old result in $D" "$TMP/k$K.err"; then
		kept=$((kept + 1))
		check "$what: says the old result is kept, and it is, whole" diff -r "$TMP/old" "$D"
	elif grep -qxF "suite: interrupted by SIGTERM; the new result is complete in $D" "$TMP/k$K.err"; then
		complete=$((complete + 1))
		check "$what: says the new result is complete, and it is" new_whole "$D"
	else
		fail "$what: says neither 'kept the old result' nor 'the new result is complete': $(grep interrupted "$TMP/k$K.err")"
	fi
	check "$what: nothing left beside it" test -z "$(leftovers "$TMP")"
	K=$((K + 1))
done
check "the swap was interrupted both before and after the new result was in place ($kept, $complete)" \
	test "$kept" -ge 1 -a "$complete" -ge 1

# --- what cannot work is refused before the first run, and nothing is touched
refused() { # NAME DESCRIPTION: exit 2, the message names -o, no run, nothing written
	check "$2: exit 2 (got $ST)" test "$ST" -eq 2
	check "$2: the message names -o" grep -q "^suite: -o '" "$TMP/$1.err"
	check "$2: before the first run" sh -c "! grep -q '^suite: \[1/' '$TMP/$1.err'"
	check "$2: nothing staged" test -z "$(leftovers "$TMP")"
}
echo 'not a directory' >"$TMP/file"
quick "$TMP/file" file -m buffer
refused file "-o FILE"
check "-o FILE: the file untouched" test "$(cat "$TMP/file")" = 'not a directory'
mkdir "$TMP/mine"
echo mine >"$TMP/mine/notes.txt"
quick "$TMP/mine" mine -m buffer
refused mine "-o of a directory that is no result"
check "-o of a directory that is no result: untouched" test "$(ls -A "$TMP/mine")" = notes.txt
mkdir "$TMP/empty"
quick "$TMP/empty" empty -m buffer
check "-o of an empty directory: exit 0 (got $ST)" test "$ST" -eq 0
check "-o of an empty directory: the result in it" test -s "$TMP/empty/runs.tsv"

# --- two runs into one directory at once: the second stops before its first run, exit 2, naming
# the first's pid; the first writes its result (once the last to finish replaced the other's
# result without a word).
D=$TMP/both
cp -R "$TMP/old" "$D"
GNUPLOT=/nonexistent/gnuplot sh scripts/suite -t 2 -r 1 -W 0 -P -m buffer -o "$D" >"$TMP/first.out" 2>"$TMP/first.err" &
FIRST=$!
PIDS="$PIDS $FIRST"
i=0
while [ ! -d "$TMP/.both.$FIRST.tmp" ] && kill -0 "$FIRST" 2>/dev/null && [ $i -lt 1000 ]; do i=$((i + 1)); sleep 0.01; done
quick "$D" second -m copy
check "a second run into it: exit 2 (got $ST: $(tail -n 1 "$TMP/second.err"))" test "$ST" -eq 2
check "the second: says another run is writing it, and which" grep -qF "suite: -o '$D': another run (pid $FIRST) is writing it" "$TMP/second.err"
check "the second: before its first run" sh -c "! grep -q '^suite: \[1/' '$TMP/second.err'"
st=0
wait "$FIRST" || st=$?
check "the first: exit 0 (got $st)" test "$st" -eq 0
check "the first: its result in place, the user's files kept" new_whole "$D"
check "both: nothing left beside it" test -z "$(leftovers "$TMP")"

# --- a run killed by SIGKILL (no trap runs) leaves its staging directory; the next run into the
# same directory removes it (its pid is no process) and says so.
D=$TMP/killed
cp -R "$TMP/old" "$D"
GNUPLOT=/nonexistent/gnuplot sh scripts/suite -t 1 -r 1 -W 0 -P -m copy -o "$D" >/dev/null 2>"$TMP/killed.err" &
K=$!
PIDS="$PIDS $K"
i=0
while [ ! -d "$TMP/.killed.$K.tmp/.work" ] && kill -0 "$K" 2>/dev/null && [ $i -lt 1000 ]; do i=$((i + 1)); sleep 0.01; done
kill -KILL "$K"
wait "$K" 2>/dev/null
check "SIGKILL: the staging directory is left" test -d "$TMP/.killed.$K.tmp"
quick "$D" afterkill -m buffer
check "the next run: exit 0 (got $ST: $(tail -n 1 "$TMP/afterkill.err"))" test "$ST" -eq 0
check "the next run: says it removed the staging directory" \
	grep -qF "suite: removed $TMP/.killed.$K.tmp, the staging directory of a run that is gone (pid $K)" "$TMP/afterkill.err"
check "the next run: its result, the user's files kept" new_whole "$D"
check "the next run: nothing left beside it" test -z "$(leftovers "$TMP")"
# Killed between the two renames of the swap: the earlier result set aside (.old), the new one
# staged with the user's files carried into it (.tmp), no result in place. The next run puts the
# earlier result back with the user's files, then replaces it as usual.
sh -c 'exit 0' &
DEAD=$!
wait "$DEAD"
D=$TMP/swap
cp -R "$TMP/old" "$TMP/.swap.$DEAD.old"
mkdir "$TMP/.swap.$DEAD.tmp"
for f in cat.png raw notes; do mv "$TMP/.swap.$DEAD.old/$f" "$TMP/.swap.$DEAD.tmp/"; done
mkdir "$TMP/.swap.$DEAD.tmp/.work"
quick "$D" afterswap -m buffer
check "killed mid-swap, the next run: exit 0 (got $ST: $(tail -n 1 "$TMP/afterswap.err"))" test "$ST" -eq 0
check "the next run: says it put the earlier result back" \
	grep -qF "suite: put the earlier result back in $D from $TMP/.swap.$DEAD.old" "$TMP/afterswap.err"
check "the next run: its result, the user's files kept" new_whole "$D"
check "the next run: nothing left beside it" test -z "$(leftovers "$TMP")"

# --- two suites started in the same second, without -o: two results. The tree's scripts are
# copied so that results/runs is this test's; date tells both the same second.
mkdir -p "$TMP/tree" "$TMP/clock"
cp -R scripts "$TMP/tree/"
REAL_DATE=$(command -v date)
cat >"$TMP/clock/date" <<EOF
#!/bin/sh
case "\$*" in *%H%M%S*) echo 20260101-000000Z ;; *) exec "$REAL_DATE" "\$@" ;; esac
EOF
chmod +x "$TMP/clock/date"
for n in 1 2; do
	PATH="$TMP/clock:$PATH" GNUPLOT=/nonexistent/gnuplot sh "$TMP/tree/scripts/suite" -t 0.2 -r 1 -W 0 -P -m buffer \
		>"$TMP/same$n.out" 2>"$TMP/same$n.err" &
	eval "SAME$n=\$!"
	PIDS="$PIDS $!"
done
st1=0 st2=0
wait "$SAME1" || st1=$?
wait "$SAME2" || st2=$?
check "same second: both suites exit 0 ($st1, $st2)" test "$st1" -eq 0 -a "$st2" -eq 0
r1=$(sed -n 's/^suite: done in .*; results in //p' "$TMP/same1.err")
r2=$(sed -n 's/^suite: done in .*; results in //p' "$TMP/same2.err")
check "same second: two result directories ($r1, $r2)" test -n "$r1" -a -n "$r2" -a "$r1" != "$r2"
check "same second: both whole" test -s "$r1/runs.tsv" -a -s "$r2/runs.tsv" -a -s "$r1/raw/buffer-1.suck.tsv" -a -s "$r2/raw/buffer-1.suck.tsv"
check "same second: each its own runs" test "$(cat "$r1/raw/buffer-1.suck.tsv" 2>/dev/null)" != "$(cat "$r2/raw/buffer-1.suck.tsv" 2>/dev/null)"
check "same second: results/runs holds the two" test "$(ls "$TMP/tree/results/runs" | wc -l)" -eq 2
# Without -o: a run killed by SIGKILL leaves its staging directory and the directory it reserved
# in results/runs; the next run without -o removes both.
PATH="$TMP/clock:$PATH" GNUPLOT=/nonexistent/gnuplot sh "$TMP/tree/scripts/suite" -t 1 -r 1 -W 0 -P -m buffer \
	>/dev/null 2>"$TMP/killed3.err" &
K=$!
PIDS="$PIDS $K"
R=$TMP/tree/results/runs/20260101-000000Z-3
i=0
while [ ! -d "$TMP/tree/results/runs/.20260101-000000Z-3.$K.tmp/.work" ] && kill -0 "$K" 2>/dev/null && [ $i -lt 1000 ]; do
	i=$((i + 1))
	sleep 0.01
done
kill -KILL "$K"
wait "$K" 2>/dev/null
check "without -o, SIGKILL: the reserved directory and the staging directory left" \
	test -d "$R" -a -d "$TMP/tree/results/runs/.20260101-000000Z-3.$K.tmp"
GNUPLOT=/nonexistent/gnuplot sh "$TMP/tree/scripts/suite" -t 0.2 -r 1 -W 0 -P -m buffer >/dev/null 2>"$TMP/next.err"
check "without -o, the next run: exit 0 (got $?)" test $? -eq 0
check "without -o, the next run: removed what the killed run left" \
	test ! -e "$R" -a ! -e "$TMP/tree/results/runs/.20260101-000000Z-3.$K.tmp"
check "without -o, the next run: says so" grep -qF "suite: removed $TMP/tree/results/runs/.20260101-000000Z-3.$K.tmp" "$TMP/next.err"

done_tests
