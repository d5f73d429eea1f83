#!/bin/sh
# Runs every unit test program (bin/test_*) and every integration test (tests/t_*.sh), counts
# checks, says how many were skipped ("N skipped", the tests' SKIP lines: a skip is visible, not
# silent), and ends with one line "N passed, N failed", the line CI and the README promise.
# BIN selects the build (bin, bin/san).
# T=pattern runs only the tests whose file name matches.
set -u
cd "$(dirname "$0")/.." || exit 1
BIN=${BIN:-bin}
export BIN
passed=0
failed=0
skipped=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT INT TERM

count() { # name status: adds the "N passed, N failed" summary a test printed last
	p=$(sed -n 's/^.*: \([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed$/\1/p' "$log" | tail -n 1)
	f=$(sed -n 's/^.*: \([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed$/\2/p' "$log" | tail -n 1)
	if [ -z "$p" ]; then
		# No summary: the test died before it could say how it did.
		echo "FAIL $1: ended without a summary (status $2)"
		tail -n 20 "$log"
		p=0 f=1
	elif [ "$2" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "FAIL $1: exit status $2 with no failed check"
		f=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
}

for t in "$BIN"/test_* tests/t_*.sh; do
	[ -e "$t" ] || continue
	case "$t" in *"${T:-}"*) ;; *) continue ;; esac
	name=$(basename "$t")
	start=$(date +%s)
	case "$t" in
	*.sh) sh "$t" >"$log" 2>&1 ;;
	*) "$t" >"$log" 2>&1 ;;
	esac
	st=$?
	grep -E '^(FAIL|SKIP)' "$log"
	skipped=$((skipped + $(grep -c '^SKIP' "$log")))
	count "$name" "$st"
	echo "-- $name ($(( $(date +%s) - start )) s): $(tail -n 1 "$log")"
done
echo "$skipped skipped"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
