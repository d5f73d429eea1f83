# suck --echo is no amplifier. bin/inject sends 32-byte requests that ask for 65507-byte
# replies, from its own socket on loopback, which stands for the victim a spoofed source would
# name, and counts what comes back to it. By default a reply is never larger than its request
# (bytes back <= bytes sent, every reply 32 bytes, each counted in echo_clipped); --echo-max
# BYTES allows up to BYTES, and the per-source budget (--echo-budget) bounds what replies carry
# beyond their requests: bytes back <= bytes sent + budget x (1 + seconds), the rest dropped and
# counted (echo_limited). A normal blast --rtt run still gets every reply; one that asks for
# replies larger than its requests of a suck without --echo-max counts them (rtt_short) and
# says why. The options, and the warning of --echo on a wildcard address.
. tests/lib.sh

RUN=4242
# le A B: A <= B, decimals
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && b != "" && a + 0 <= b + 0) }'; }

# amp NAME N REPLY SUCK_ARGS...: suck SUCK_ARGS --echo, then N requests of 32 bytes asking for
# REPLY bytes from bin/inject; suck ends on inject's fins. $TMP/NAME.inj is inject's count,
# $TMP/NAME.out suck's report.
amp() {
	a_n=$1 a_count=$2 a_reply=$3
	shift 3
	start_suck "$a_n" -R 4M -o tsv -t 30 --echo "$@" || { fail "$a_n: suck did not start"; return 1; }
	"$BIN/inject" amp "$PORT" $RUN 32 "$a_count" "$a_reply" >"$TMP/$a_n.inj"
	check "$a_n: suck ends on the fin" wait_pid "$SUCK_PID" 20
	I=$TMP/$a_n.inj S=$TMP/$a_n.out
}
brief() { echo "sent $(field "$I" bytes_sent) B, back $(field "$I" bytes_back) B in $(field "$I" replies) replies (largest $(field "$I" reply_max)); suck echoed $(field "$S" echoed) clipped $(field "$S" echo_clipped) limited $(field "$S" echo_limited)"; }

# By default: every request answered, no reply larger than its request.
for addr in 127.0.0.1 ::1; do
	for v in copy buffer mmsg; do
		n=default-$v-$addr
		case $addr in *:*) export INJECT_V6=1 ;; *) unset INJECT_V6 ;; esac
		amp "$n" 64 65507 -a "$addr" -m "$v" || continue
		check "$n: bytes back <= bytes sent ($(brief))" le "$(field "$I" bytes_back)" "$(field "$I" bytes_sent)"
		check "$n: every reply 32 bytes ($(brief))" test "$(field "$I" replies) $(field "$I" reply_max)" = "64 32"
		check "$n: suck echoed 64, clipped 64, limited 0 ($(brief))" \
			test "$(field "$S" echoed) $(field "$S" echo_clipped) $(field "$S" echo_limited)" = "64 64 0"
		check "$n: echo_max 0" test "$(field "$S" echo_max)" = 0
	done
done
unset INJECT_V6

# --echo-max 1000: replies up to 1000 bytes, no larger.
n=max1000
if amp "$n" 64 65507 -m mmsg --echo-max 1000; then
	check "$n: every reply 1000 bytes ($(brief))" test "$(field "$I" replies) $(field "$I" reply_max)" = "64 1000"
	check "$n: bytes back <= 64 x 1000 ($(brief))" le "$(field "$I" bytes_back)" 64000
	check "$n: clipped 64, limited 0 ($(brief))" \
		test "$(field "$S" echo_clipped) $(field "$S" echo_limited) $(field "$S" echo_max)" = "64 0 1000"
fi

# --echo-max 65507 with a budget of 256 KiB/s: the amplification is bounded by the budget, what
# is over it dropped and counted; every reply suck sent arrived, so the count is the whole.
B=262144
for v in buffer mmsg; do
	n=budget-$v
	amp "$n" 64 65507 -m "$v" --echo-max 65507 --echo-budget 256k || continue
	bound=$(awk -v s="$(field "$I" bytes_sent)" -v t="$(field "$I" elapsed_s)" -v b=$B 'BEGIN { printf "%.0f", s + b * (1 + t) }')
	check "$n: bytes back <= sent + budget x (1 + $(field "$I" elapsed_s) s) = $bound ($(brief))" \
		le "$(field "$I" bytes_back)" "$bound"
	check "$n: some replies limited ($(brief))" test "$(field "$S" echo_limited)" -gt 0
	check "$n: the budget's first bucket served (at least 4 replies: $(brief))" test "$(field "$I" replies)" -ge 4
	check "$n: replies of 65507 bytes ($(brief))" test "$(field "$I" reply_max)" = 65507
	check "$n: echoed + limited == valid ($(brief))" \
		test $(($(field "$S" echoed) + $(field "$S" echo_limited))) = "$(field "$S" valid)"
	check "$n: every reply suck sent arrived ($(brief))" test "$(field "$I" replies)" = "$(field "$S" echoed)"
	check "$n: echo_budget 262144" test "$(field "$S" echo_budget)" = 262144
done

# A normal blast --rtt run gets every reply, 16 in flight; and one asking for replies 30 times its
# requests, against --echo-max 3000 (the default budget).
n=rtt-normal
start_suck "$n" -m mmsg --echo -R 4M -o tsv -t 30 || fail "$n: suck did not start"
"$BIN/blast" -p "$PORT" --rtt --outstanding 16 -n 5000 -o tsv >"$TMP/$n.b" 2>"$TMP/$n.berr"
wait_pid "$SUCK_PID" 20
B=$TMP/$n.b S=$TMP/$n.out
check "$n: every request answered ($(field "$B" transactions) of $(field "$B" sent))" \
	test "$(field "$B" sent) $(field "$B" transactions) $(field "$B" rtt_short)" = "5000 5000 0"
check "$n: nothing clipped or limited" test "$(field "$S" echo_clipped) $(field "$S" echo_limited)" = "0 0"
n=rtt-max
start_suck "$n" -m mmsg --echo --echo-max 3000 -R 4M -o tsv -t 30 || fail "$n: suck did not start"
"$BIN/blast" -p "$PORT" --rtt --outstanding 16 -s 100 --reply-size 3000 -n 3000 -o tsv >"$TMP/$n.b" 2>"$TMP/$n.berr"
wait_pid "$SUCK_PID" 20
B=$TMP/$n.b S=$TMP/$n.out
check "$n: every request answered ($(field "$B" transactions) of $(field "$B" sent), short $(field "$B" rtt_short))" \
	test "$(field "$B" sent) $(field "$B" transactions) $(field "$B" rtt_short)" = "3000 3000 0"
check "$n: nothing clipped or limited" test "$(field "$S" echo_clipped) $(field "$S" echo_limited)" = "0 0"

# Replies larger than the requests from a suck without --echo-max: each comes back clipped, is
# counted short (and its request lost at once, not after a timeout), and blast says what suck
# needs.
n=rtt-short
start_suck "$n" -m mmsg --echo -R 4M -o tsv -t 30 || fail "$n: suck did not start"
"$BIN/blast" -p "$PORT" --rtt --outstanding 4 -s 100 --reply-size 3000 -n 200 --rtt-timeout 200ms -o tsv >"$TMP/$n.b" 2>"$TMP/$n.berr"
check "$n: blast exit 0" test $? = 0
wait_pid "$SUCK_PID" 20
B=$TMP/$n.b S=$TMP/$n.out
check "$n: every reply short, every request lost ($(field "$B" transactions) tx, $(field "$B" rtt_short) short, $(field "$B" rtt_lost) lost, $(field "$B" rtt_foreign) foreign)" \
	test "$(field "$B" transactions) $(field "$B" rtt_short) $(field "$B" rtt_lost) $(field "$B" rtt_foreign)" = "0 200 200 0"
check "$n: suck clipped 200" test "$(field "$S" echo_clipped)" = 200
check "$n: blast says suck needs --echo-max ($(cat "$TMP/$n.berr"))" grep -q -- "--echo-max 3000" "$TMP/$n.berr"
check "$n: no timeout waited for ($(field "$B" duration_s) s)" le "$(field "$B" duration_s)" 0.9
"$BIN/blast" -h >"$TMP/blast.h" 2>&1
check "blast -h: --reply-size says suck needs --echo-max" grep -q -- "--echo-max" "$TMP/blast.h"

# The options: --echo-max and --echo-budget need --echo; ranges; the --check row.
bad() { # MESSAGE ARGS...: suck --check ARGS exits 2 and says MESSAGE
	m=$1; shift
	"$BIN/suck" --check -p 0 "$@" >/dev/null 2>"$TMP/bad.err"
	st=$?
	check "suck $*: exit 2 ($st)" test "$st" = 2
	check "suck $*: says '$m' ($(cat "$TMP/bad.err"))" grep -qF -- "$m" "$TMP/bad.err"
}
bad "--echo-max applies to --echo" --echo-max 1000
bad "--echo-budget applies to --echo" --echo-budget 1M
bad "--echo-max '65528': out of range 0..65527" --echo --echo-max 65528
bad "--echo-max '1x'" --echo --echo-max 1x
bad "--echo-budget '0': out of range" --echo --echo-budget 0
"$BIN/suck" --check -p 0 -o tsv --echo --echo-max 2k --echo-budget 1M >"$TMP/c1" 2>"$TMP/c1.err"
check "suck --check --echo-max 2k --echo-budget 1M: exit 0 ($(cat "$TMP/c1.err"))" test $? = 0
check "--check: echo_max 2048, echo_budget 1048576" \
	test "$(field "$TMP/c1" echo_max) $(field "$TMP/c1" echo_budget)" = "2048 1048576"
"$BIN/suck" --check -p 0 -o tsv --echo >"$TMP/c2" 2>/dev/null
check "--check --echo: echo_max 0, echo_budget the default 64 MiB" \
	test "$(field "$TMP/c2" echo_max) $(field "$TMP/c2" echo_budget)" = "0 67108864"
"$BIN/suck" --check -p 0 -o tsv >"$TMP/c3" 2>/dev/null
check "--check without --echo: echo_max -, echo_budget -" \
	test "$(field "$TMP/c3" echo_max) $(field "$TMP/c3" echo_budget)" = "- -"
"$BIN/suck" -p 0 -t 10ms -o tsv >"$TMP/plain" 2>/dev/null
for k in echo_max echo_budget echo_clipped echo_limited; do
	check "suck without --echo: $k -" test "$(field "$TMP/plain" $k)" = "-"
done

# --echo on a wildcard address: one line on stderr says what it exposes; not on loopback, and not
# without --echo.
for a in 0.0.0.0 ::; do
	"$BIN/suck" --check -p 0 -a "$a" --echo -o tsv >/dev/null 2>"$TMP/w.err"
	check "--echo -a $a: exit 0" test $? = 0
	check "--echo -a $a: one line of warning ($(cat "$TMP/w.err"))" test "$(wc -l <"$TMP/w.err")" = 1
	check "--echo -a $a: says any host gets replies, under the budget ($(cat "$TMP/w.err"))" \
		grep -q "warning: --echo on $a: any host that can reach.*no larger than its requests.*budget" "$TMP/w.err"
	"$BIN/suck" --check -p 0 -a "$a" -o tsv >/dev/null 2>"$TMP/w.err"
	check "-a $a without --echo: nothing on stderr ($(cat "$TMP/w.err"))" test ! -s "$TMP/w.err"
done
"$BIN/suck" --check -p 0 -a 127.0.0.1 --echo -o tsv >/dev/null 2>"$TMP/w.err"
check "--echo on loopback: nothing on stderr ($(cat "$TMP/w.err"))" test ! -s "$TMP/w.err"
n=wild-serve
start_suck "$n" --serve --echo -a 0.0.0.0 -t 100ms -o tsv || fail "$n: suck did not start"
wait_pid "$SUCK_PID" 20
check "$n: a server on the wildcard warns too ($(cat "$TMP/$n.err"))" grep -q "warning: --echo on 0.0.0.0" "$TMP/$n.err"

done_tests
