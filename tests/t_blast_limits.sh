# blast values that parse but cannot work are usage errors (exit 2, the option and the accepted
# range named), not a runtime failure after setup; their neighbours that can work do.
. tests/lib.sh

bad() { # expected-text args...: blast exits 2 and says expected-text on stderr
	want=$1; shift
	"$BIN/blast" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
	st=$?
	if [ $st -ne 2 ]; then fail "blast $*: exit $st, want 2: $(cat "$TMP/err")"; return; fi
	if ! grep -q -- "$want" "$TMP/err"; then fail "blast $*: message lacks '$want': $(cat "$TMP/err")"; return; fi
	if [ -s "$TMP/out" ]; then fail "blast $*: wrote to stdout on a usage error"; return; fi
	ok
}

good() { # args...: blast to the discard port exits 0 having sent something
	"$BIN/blast" -p 9 "$@" -o tsv >"$TMP/out" 2>"$TMP/err" </dev/null
	st=$?
	check "blast $*: exit $st, want 0 ($(grep -v ECONNREFUSED "$TMP/err"))" test $st -eq 0
	check "blast $*: sent something" test "$(field "$TMP/out" sent)" -gt 0
}

# A deadline shorter than a send call: nothing could go.
bad "-t '0.4ns': too short for a run; accepted: 0 (with -n) or 0.001..1e+07 seconds" -t 0.4ns
bad "-t '999us'" -t 999us
bad "-t '1ns'" -t 1ns -n 5
good -t 1ms
good -t 0 -n 5

# A v4-mapped IPv6 address goes out as IPv4: IPv4's limit.
if "$BIN/blast" -a ::1 -p 9 -n 1 >/dev/null 2>&1; then
	bad "-s '65520': out of range 32..65507" -a ::ffff:127.0.0.1 -s 65520
	bad "-s '65508'" -a ::ffff:127.0.0.1 -s 65508
	good -a ::ffff:127.0.0.1 -s 65507 -n 3
	good -a ::1 -s 65527 -n 3
	bad "a GSO message is at most 65507 bytes" -a ::ffff:127.0.0.1 -s 32k -g 2
else
	skip "no IPv6 here"
fi

# Nothing listening: said once per run, whatever -j, as the docs say; the
# errors are still counted. The port is one suck held a moment ago, so it is closed now.
start_suck closed -t 30 || fail "closed: suck did not start"
kill "$SUCK_PID"; wait_pid "$SUCK_PID" 10
for j in 1 4; do
	n=closed-j$j
	"$BIN/blast" -p "$PORT" -j $j -t 0.2 -o tsv >"$TMP/$n.out" 2>"$TMP/$n.err" </dev/null
	st=$?
	check "$n: exit 0 ($st)" test $st = 0
	c=$(grep -c 'nothing is listening' "$TMP/$n.err")
	check "$n: 'nothing is listening' once ($c)" test "$c" = 1
	check "$n: the refusals counted ($(field "$TMP/$n.out" errors))" test "$(field "$TMP/$n.out" errors)" -gt 0
done
# The same in batches: sendmmsg returns short at the refused message with no errno (the refusal
# cleared by the message it failed), so blast sends that message again alone and counts what
# the kernel then says. One size, a size mix and --zerocopy each have their sendmmsg call.
for r in "b32:-b 32 -s 100" "mix:-b 32 -s 64:1,128:1" "zc:-b 32 -s 100 --zerocopy"; do
	n=closed-${r%%:*}
	# shellcheck disable=SC2086
	"$BIN/blast" -p "$PORT" ${r#*:} -t 0.2 -o tsv >"$TMP/$n.out" 2>"$TMP/$n.err" </dev/null
	st=$?
	if [ $st = 4 ]; then
		skip "$n: $(head -n 1 "$TMP/$n.err")"
		continue
	fi
	check "$n: exit 0 ($st)" test $st = 0
	c=$(grep -c 'nothing is listening' "$TMP/$n.err")
	check "$n: 'nothing is listening' once ($c)" test "$c" = 1
	check "$n: the refusals counted ($(field "$TMP/$n.out" errors))" test "$(field "$TMP/$n.out" errors)" -gt 0
	check "$n: as ECONNREFUSED ($(field "$TMP/$n.out" error_detail))" \
		test "$(field "$TMP/$n.out" error_detail)" = "ECONNREFUSED:$(field "$TMP/$n.out" errors)"
done

done_tests
