# The high-rate paths: gro and uring receivers, GSO and several flows from blast, several
# SO_REUSEPORT threads in suck. Exact accounting on each; uring skips where the kernel
# refuses it (suck exits 4).
. tests/lib.sh

run_pair() { # name "suck args" "blast args": runs one pair; leaves $TMP/name.out and .blast
	n=$1
	# shellcheck disable=SC2086
	start_suck "$n" $2 -o tsv --idle 10 -t 60 || { fail "$n: suck did not start: $(cat "$TMP/$n.err")"; return 1; }
	# shellcheck disable=SC2086
	"$BIN/blast" -p "$PORT" $3 -o tsv >"$TMP/$n.blast" 2>"$TMP/$n.berr"
	check "$n: blast exits 0" test $? -eq 0
	check "$n: suck ends on the fin" wait_pid "$SUCK_PID" 15
}

adds_up() { # name [expected sent]
	S=$TMP/$1.out
	sent=$(field "$S" sent) valid=$(field "$S" valid) lost=$(field "$S" lost)
	check "$1: stop fin" test "$(field "$S" stop)" = fin
	check "$1: sent == valid + lost ($sent $valid $lost)" test "$sent" -eq $((valid + lost))
	check "$1: dropped <= lost" test "$(field "$S" dropped)" -le "$lost"
	check "$1: blast and suck agree on sent" test "$(field "$TMP/$1.blast" sent)" = "$sent"
	check "$1: no dup, no foreign" test "$(field "$S" dup)$(field "$S" foreign)" = 00
	[ $# -gt 1 ] && check "$1: sent is $2" test "$sent" -eq "$2"
	return 0
}

# uring: skip with a message where the kernel has no io_uring (or it is disabled)
"$BIN/suck" -p 0 -m uring -t 1ms >/dev/null 2>"$TMP/uring-probe"
URING=$?
[ $URING -eq 4 ] && skip "uring: $(cat "$TMP/uring-probe")"

# GSO with a count that does not divide into whole messages: the last send is shorter.
for v in gro mmsg buffer uring; do
	[ $v = uring ] && [ $URING -eq 4 ] && continue
	run_pair "gso-$v" "-m $v" "-g 7 -b 3 -n 10000 -r 200k" && adds_up "gso-$v" 10000
done
check "gso-gro: coalesced buffers seen" awk "BEGIN { exit !($(field "$TMP/gso-gro.out" segs_per_buf) > 1) }"
check "gso: blast's calls cover 10000 in messages of 7, 3 per call" \
	test "$(field "$TMP/gso-gro.blast" calls)" -ge $(( (10000 + 20) / 21 ))

# Several flows into several threads, for every variant.
for v in $(variants); do
	[ $v = uring ] && [ $URING -eq 4 ] && continue
	# a variant loopback cannot run (xdp: no native XDP on lo) exits 4 in its check: skipped, said
	"$BIN/suck" --check -p 0 -m "$v" -j 3 >/dev/null 2>"$TMP/probe-$v"
	[ $? -eq 4 ] && { skip "flows-$v: $(head -n 1 "$TMP/probe-$v")"; continue; }
	run_pair "flows-$v" "-m $v -j 3" "-j 4 -n 40000 -r 100k" && adds_up "flows-$v" 40000
	check "flows-$v: 4 flows" test "$(field "$TMP/flows-$v.out" flows)" = 4
	check "flows-$v: 3 threads" test "$(field "$TMP/flows-$v.out" threads)" = 3
done

# As fast as possible, GSO into gro: drops happen, the accounting stays exact.
run_pair fast "-m gro -w none" "-g 16 -b 4 -t 0.5" && adds_up fast
# A slow gro receiver with a small buffer: most of the run is dropped, as whole buffers of 16
# that the kernel counts once each. dropped scales the count by the datagrams per data buffer
# (a fin comes in a buffer of its own and is left out), so it accounts for all the loss but
# for a short last message; counting the fins in would leave hundreds "lost elsewhere".
if run_pair slow "-m gro -w histogram:20 -R 64k" "-g 16 -b 4 -t 0.5"; then
	adds_up slow
	check "slow: dropped accounts for the loss ($(field "$TMP/slow.out" lost) lost, $(field "$TMP/slow.out" dropped) dropped)" \
		test "$(field "$TMP/slow.out" elsewhere)" -lt 16
fi

# A timed uring run, as fast as plain sends go.
if [ $URING -ne 4 ]; then
	run_pair uring-fast "-m uring" "-t 0.5" && adds_up uring-fast
fi

done_tests
