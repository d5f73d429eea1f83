# A full disk under a script's result directory, on a 128 KiB tmpfs mounted here (root only; SKIP
# otherwise): the suite says the disk is full (ENOSPC), exits 1 at once (no wait for a listening
# line the disk swallowed, no blame on suck), writes nothing half and keeps an earlier result
# whole; full before the first run, and full from the middle of a run on.
# 128 KiB: a result's files and its work directory (the noise's calibration scratch of
# lib/noise.sh among them) take a page of the tmpfs each; --retry 0 keeps their number fixed.
. tests/lib.sh

M=$TMP/disk
mkdir "$M"
if [ "$(id -u)" -ne 0 ] || ! mount -t tmpfs -o size=128k tmpfs "$M" 2>"$TMP/mount.err"; then
	skip "cannot mount a small tmpfs (root only): $(head -n 1 "$TMP/mount.err" 2>/dev/null)"
	done_tests
	exit
fi
# shellcheck disable=SC2154 # p is the loop variable inside the trap
trap 'for p in $PIDS; do kill "$p" 2>/dev/null; done; umount "$M" 2>/dev/null; rm -rf "$TMP"' EXIT

fill() { # FILE: fills the tmpfs up
	dd if=/dev/zero of="$1" bs=4k 2>/dev/null || true
}
quick() { # NAME ARGS...: a short suite into $M/res; output in $TMP/NAME.out/.err; ST, SECS
	q_n=$1
	shift
	ST=0
	q_t=$(date +%s)
	GNUPLOT=/nonexistent/gnuplot sh scripts/suite -t 0.2 -r 1 -W 0 -P --retry 0 -m buffer "$@" -o "$M/res" \
		>"$TMP/$q_n.out" 2>"$TMP/$q_n.err" || ST=$?
	SECS=$(($(date +%s) - q_t))
}
says_full() { # NAME: the suite's message blames the full disk, and only that
	grep -q '^suite: writing the result failed: the disk of .* is full (No space left on device, ENOSPC)' "$TMP/$1.err" &&
		! grep -Eq 'suck (did not say|failed|ended)|status 2' "$TMP/$1.err"
}

# --- full before the first run
fill "$M/fill"
quick full
check "full disk: exit 1 (got $ST)" test "$ST" -eq 1
check "full disk: says so" says_full full
check "full disk: says nothing was written" grep -qF "nothing written to $M/res" "$TMP/full.err"
check "full disk: at once, not after 30 s ($SECS s)" test "$SECS" -le 20
check "full disk: nothing half-written" test "$(ls -A "$M")" = fill
rm -f "$M/fill"

# --- an earlier result, then a rerun whose disk fills as its first suck starts: the listening
# line cannot be written
quick earlier
check "an earlier result fits in 128 KiB (exit $ST)" test "$ST" -eq 0
cp -R "$M/res" "$TMP/earlier"
cat >"$TMP/wrap" <<EOF
#!/bin/sh
case " \$* " in *" --idle 5 "*) dd if=/dev/zero of="$M/fill" bs=4k 2>/dev/null ;; esac
exec "\$@"
EOF
export SUCK_CMD="sh $TMP/wrap"
quick midrun
unset SUCK_CMD
check "full mid-run: exit 1 (got $ST)" test "$ST" -eq 1
check "full mid-run: says so" says_full midrun
check "full mid-run: says the earlier result is kept" grep -qF "kept the old result in $M/res" "$TMP/midrun.err"
check "full mid-run: well within the 30 s suck has to say it listens ($SECS s)" test "$SECS" -le 20
check "full mid-run: the earlier result whole" diff -r "$TMP/earlier" "$M/res"
check "full mid-run: nothing half-written beside it" test "$(ls -A "$M" | tr '\n' ' ')" = "fill res "

done_tests
