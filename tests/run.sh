#!/bin/sh
# Runs every unit test program (bin/test_*) and every integration test (tests/t_*.sh), counts
# checks, says how many were skipped ("N skipped", the tests' SKIP lines: a skip is visible, not
# silent), and ends with one line "N passed, N failed", the line CI and the README promise.
# BIN selects the build (bin, bin/san).
# T=pattern runs only the tests whose file name matches.
# JOBS=N runs the integration tests in N lanes at once (default: one more than the CPUs, at
# most 5: a test waits on timers and signals a good part of its time; JOBS=1 one after the
# other). A lane that is free takes the next test not yet taken, the
# longest first by the times of the last run ($BIN/.durations), or the largest file first.
# Every test has its own temporary directory, ports the kernel picks and namespaces named by its
# pid, so lanes do not meet; each test's lines are printed whole as it ends, and the counts are
# the same whatever N is.
set -u
cd "$(dirname "$0")/.." || exit 1
BIN=${BIN:-bin}
cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
case $cpus in '' | *[!0-9]* | 0) cpus=1 ;; esac
[ "$cpus" -gt 4 ] && cpus=4
JOBS=${JOBS:-$((cpus + 1))}
export BIN
case $JOBS in '' | *[!0-9]* | 0) echo "run.sh: JOBS=$JOBS: a number of lanes, 1 or more" >&2; exit 2 ;; esac
passed=0
failed=0
skipped=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# one TEST: runs it, keeps its output in $dir/NAME.log and prints its FAIL and SKIP lines and
# a summary line, in one write.
one() {
	name=$(basename "$1")
	start=$(date +%s)
	case "$1" in
	*.sh) sh "$1" >"$dir/$name.log" 2>&1 ;;
	*) "$1" >"$dir/$name.log" 2>&1 ;;
	esac
	echo $? >"$dir/$name.st"
	echo "$(($(date +%s) - start)) $name" >"$dir/$name.sec"
	{
		grep -E '^(FAIL|SKIP)' "$dir/$name.log"
		echo "-- $name ($(($(date +%s) - start)) s): $(tail -n 1 "$dir/$name.log")"
	} >"$dir/$name.line"
	cat "$dir/$name.line"
}

count() { # name: adds the "N passed, N failed" summary the test printed last
	log=$dir/$1.log st=$(cat "$dir/$1.st" 2>/dev/null || echo 1)
	p=$(sed -n 's/^.*: \([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed$/\1/p' "$log" | tail -n 1)
	f=$(sed -n 's/^.*: \([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed$/\2/p' "$log" | tail -n 1)
	if [ -z "$p" ]; then
		# No summary: the test died before it could say how it did.
		echo "FAIL $1: ended without a summary (status $st)"
		tail -n 20 "$log"
		p=0 f=1
	elif [ "$st" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "FAIL $1: exit status $st with no failed check"
		f=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + $(grep -c '^SKIP' "$log")))
}

units="" scripts=""
for t in "$BIN"/test_* tests/t_*.sh; do
	[ -e "$t" ] || continue
	case "$t" in *"${T:-}"*) ;; *) continue ;; esac
	case "$t" in *.sh) scripts="$scripts $t" ;; *) units="$units $t" ;; esac
done
# The unit tests take well under a second each: one after the other.
for t in $units; do one "$t"; done
# The integration tests, longest first when the last run's times are known (new tests first of
# all), else the largest file first; each lane claims a test with mkdir, which one lane only can
# win.
times=$BIN/.durations
if [ -s "$times" ]; then
	scripts=$(for t in $scripts; do
		awk -v n="$(basename "$t")" -v t="$t" '$2 == n { s = $1 } END { print (s == "" ? 999999 : s), t }' "$times"
	done | sort -k1,1nr -k2 | awk '{ print $2 }')
elif [ -n "$scripts" ]; then
	# shellcheck disable=SC2086 # the names: words
	scripts=$(wc -c $scripts | awk '$2 != "total"' | sort -k1,1nr -k2 | awk '{ print $2 }')
fi
lane=0 pids=""
while [ $lane -lt "$JOBS" ]; do
	(
		for t in $scripts; do
			mkdir "$dir/claim.$(basename "$t")" 2>/dev/null && one "$t"
		done
	) &
	pids="$pids $!"
	lane=$((lane + 1))
done
for p in $pids; do wait "$p"; done
# This run's times, and the last run's for the tests it did not run (T=...).
if [ -n "$scripts" ] && [ -d "$BIN" ]; then
	{
		cat "$dir"/*.sec 2>/dev/null | grep ' t_'
		[ ! -s "$times" ] || awk 'FNR == NR { seen[$2] = 1; next } !($2 in seen)' "$dir"/*.sec "$times"
	} >"$times.tmp" && mv "$times.tmp" "$times"
fi
for t in $units $scripts; do count "$(basename "$t")"; done
echo "$skipped skipped"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
