# blast --rtt split by direction, from the echo block suck --echo writes into each reply (the
# requests of the flow it took, its receive and send times). On loopback with no loss: nothing
# lost either way, the one-way delays and the echo's time present, and their medians add up to
# the round trip's within its max (and twice the offset's bound); the identity rtt_lost ==
# rtt_lost_up + rtt_lost_down on every run. Requests or replies too short for the block: the
# split is '-'. Under a run key the proof before the block is kept. bin/inject's requests of 51
# to 53 bytes asking for 65507: no reply larger than its request; one longer than suck's buffer
# truncated and not answered. Against bin/echoer, which
# writes the block and loses only on the way back: every loss is down; one whose blocks claim
# more requests than were sent counts them in rtt_forged and uses none. Then, as root with nft,
# in a network namespace of its own (bs-rtt-$$, removed by the trap): every 10th request
# dropped on its way in is rtt_lost_up, exactly nft's count, with rtt_lost_down 0; every 10th
# reply dropped on its way back is rtt_lost_down, with rtt_lost_up 0.
. tests/lib.sh

L=bs-rtt-$$
trap 'for p in $PIDS; do kill "$p" 2>/dev/null; done
	ip netns del "$L" 2>/dev/null
	if [ "${KEEP:-0}" = 1 ]; then echo "kept $TMP"; else rm -rf "$TMP"; fi' EXIT

# num V: V is a number (not '-')
num() { awk -v v="$1" 'BEGIN { exit !(v ~ /^-?[0-9]+(\.[0-9]+)?$/) }'; }
brief() {
	for k in sent transactions rtt_lost rtt_lost_up rtt_lost_down rtt_lost_tail rtt_late rtt_forged; do
		printf '%s %s ' "$k" "$(field "$1" $k)"
	done
}
# identity FILE NAME: rtt_lost == rtt_lost_up + rtt_lost_down
identity() {
	check "$2: rtt_lost == rtt_lost_up + rtt_lost_down ($(brief "$1"))" \
		test "$(field "$1" rtt_lost)" = "$(($(field "$1" rtt_lost_up) + $(field "$1" rtt_lost_down)))"
}

# --- loopback, no loss
for addr in 127.0.0.1 ::1; do
	for v in copy mmsg; do
		for o in 1 8; do
			n=split-$v-$o-$addr
			start_suck "$n" -a "$addr" -m "$v" --echo -R 4M -o tsv -t 30 || { fail "$n: suck did not start"; continue; }
			"$BIN/blast" -a "$addr" -p "$PORT" --rtt --outstanding $o -s 200 -n 2000 -o tsv \
				>"$TMP/$n.b" 2>"$TMP/$n.berr"
			check "$n: blast exit 0 ($(cat "$TMP/$n.berr"))" test $? = 0
			check "$n: suck ends" wait_pid "$SUCK_PID" 20
			B=$TMP/$n.b
			check "$n: none lost either way ($(brief "$B"))" \
				test "$(field "$B" rtt_lost) $(field "$B" rtt_lost_up) $(field "$B" rtt_lost_down) $(field "$B" rtt_lost_tail) $(field "$B" rtt_forged)" = "0 0 0 0 0"
			identity "$B" "$n"
			for k in rtt_up_p50_us rtt_up_p99_us rtt_up_max_us rtt_down_p50_us rtt_down_p99_us rtt_down_max_us \
				rtt_echo_p50_us rtt_echo_p99_us rtt_echo_max_us rtt_offset_err_us; do
				check "$n: $k $(field "$B" $k)" num "$(field "$B" $k)"
			done
			check "$n: up $(field "$B" rtt_up_p50_us) + down $(field "$B" rtt_down_p50_us) + echo $(field "$B" rtt_echo_p50_us) ~ rtt $(field "$B" rtt_p50_us) (medians; within max $(field "$B" rtt_max_us) + 2 x err $(field "$B" rtt_offset_err_us))" \
				awk -v u="$(field "$B" rtt_up_p50_us)" -v d="$(field "$B" rtt_down_p50_us)" \
				-v e="$(field "$B" rtt_echo_p50_us)" -v r="$(field "$B" rtt_p50_us)" \
				-v m="$(field "$B" rtt_max_us)" -v x="$(field "$B" rtt_offset_err_us)" \
				'BEGIN { s = u + d + e - r; if (s < 0) s = -s; exit !(s <= m + 2 * x) }'
			check "$n: the echo's time within the round trip (max $(field "$B" rtt_echo_max_us) <= $(field "$B" rtt_max_us))" \
				awk -v e="$(field "$B" rtt_echo_max_us)" -v m="$(field "$B" rtt_max_us)" 'BEGIN { exit !(e <= m) }'
		done
	done
done

# Too short for the block (52 bytes): a request of 40, a reply of 40: the split is '-', and a note
# says why.
for args in "-s 40" "-s 200 --reply-size 40"; do
	n=short-$(echo "$args" | tr -d ' -')
	start_suck "$n" -m mmsg --echo -R 4M -o tsv -t 30 || { fail "$n: suck did not start"; continue; }
	# shellcheck disable=SC2086 # the words, split on purpose
	"$BIN/blast" -p "$PORT" --rtt $args -n 200 -o tsv >"$TMP/$n.b" 2>"$TMP/$n.berr"
	wait_pid "$SUCK_PID" 20
	for k in rtt_lost_up rtt_lost_down rtt_lost_tail rtt_up_p50_us rtt_down_p50_us rtt_echo_p50_us rtt_offset_err_us; do
		check "$n: $k -" test "$(field "$TMP/$n.b" $k)" = -
	done
	check "$n: every request answered" test "$(field "$TMP/$n.b" transactions)" = 200
	check "$n: a note says why ($(cat "$TMP/$n.berr"))" grep -q "need 52 bytes or more" "$TMP/$n.berr"
done

# Under a run key: the proof (bytes 32..36) kept, the block after it; 52-byte requests.
n=keyed
export BS_RUN_KEY=000102030405060708090a0b0c0d0e0f
start_suck "$n" -m mmsg --echo -R 4M -o tsv -t 30 || fail "$n: suck did not start"
"$BIN/blast" -p "$PORT" --rtt -s 52 -n 500 -o tsv >"$TMP/$n.b" 2>/dev/null
wait_pid "$SUCK_PID" 20
unset BS_RUN_KEY
check "$n: suck took every request ($(field "$TMP/$n.out" valid) valid, unproven $(field "$TMP/$n.out" unproven))" \
	test "$(field "$TMP/$n.out" valid)" = 500
check "$n: none lost either way ($(brief "$TMP/$n.b"))" \
	test "$(field "$TMP/$n.b" rtt_lost_up) $(field "$TMP/$n.b" rtt_lost_down) $(field "$TMP/$n.b" transactions)" = "0 0 500"
check "$n: one-way figures" num "$(field "$TMP/$n.b" rtt_up_p50_us)"

# bin/echoer with the block: it takes every request and loses only replies (never sent, or one
# byte too long), so every loss is down; forge: 1 in 20 blocks claim 2^40 requests, 1 in 20 an
# echo that sends before it receives, 1 in 10 times at the epoch (believed: numbers, no crash).
for mode in block forge; do
	n=echoer-$mode
	start_listener "$n" "$BIN/echoer" 127.0.0.1 0 $mode || { fail "$n: echoer did not start"; continue; }
	"$BIN/blast" -p "$PORT" --rtt --outstanding 32 --rtt-timeout 50ms -s 200 -n 1000 -o tsv \
		>"$TMP/$n.b" 2>"$TMP/$n.berr"
	check "$n: blast exit 0" test $? = 0
	check "$n: echoer ends" wait_pid "$LISTENER_PID" 20
	for k in transactions rtt_lost rtt_lost_up rtt_lost_down rtt_forged; do
		check "$n: $k $(field "$TMP/$n.b" $k), want $(field "$TMP/$n.out" $k)" \
			test "$(field "$TMP/$n.b" $k)" = "$(field "$TMP/$n.out" $k)"
	done
	identity "$TMP/$n.b" "$n"
done
check "echoer-forge: says so ($(cat "$TMP/echoer-forge.berr"))" grep -q "rtt_forged" "$TMP/echoer-forge.berr"
check "echoer-forge: 100 forged" test "$(field "$TMP/echoer-forge.b" rtt_forged)" = 100
for k in rtt_up_max_us rtt_down_max_us rtt_offset_err_us; do
	check "echoer-forge: times at the epoch: $k a number ($(field "$TMP/echoer-forge.b" $k))" \
		num "$(field "$TMP/echoer-forge.b" $k)"
done

# Hostile requests to the echo (bin/inject amp, 32 of them, each asking for 65507 bytes): at
# and around the block's end, each reply no larger than its request, with or without a block
# written; one longer than suck's buffer (-s 40) is truncated, counted, never answered.
for size in 51 52 53; do
	for v in copy mmsg; do
		n=amp-$v-$size
		start_suck "$n" -m "$v" --echo -R 4M -o tsv -t 30 || { fail "$n: suck did not start"; continue; }
		"$BIN/inject" amp "$PORT" 4343 "$size" 32 65507 >"$TMP/$n.inj"
		wait_pid "$SUCK_PID" 20
		I=$TMP/$n.inj
		check "$n: 32 replies of $size bytes, bytes back == bytes sent ($(field "$I" replies) of $(field "$I" reply_max), $(field "$I" bytes_back) of $(field "$I" bytes_sent))" 			test "$(field "$I" replies) $(field "$I" reply_max) $(field "$I" bytes_back)" = "32 $size $(field "$I" bytes_sent)"
		check "$n: suck echoed 32, clipped 32" 			test "$(field "$TMP/$n.out" echoed) $(field "$TMP/$n.out" echo_clipped)" = "32 32"
	done
done
n=amp-truncated
start_suck "$n" -m mmsg --echo -s 40 -R 4M -o tsv -t 30 || fail "$n: suck did not start"
"$BIN/inject" amp "$PORT" 4343 200 32 200 >"$TMP/$n.inj"
wait_pid "$SUCK_PID" 20
check "$n: none answered ($(field "$TMP/$n.inj" replies))" test "$(field "$TMP/$n.inj" replies)" = 0
check "$n: counted truncated ($(field "$TMP/$n.out" truncated)), echoed 0" \
	test "$(field "$TMP/$n.out" truncated) $(field "$TMP/$n.out" echoed)" = "32 0"

# Without --rtt: the new keys are '-'.
"$BIN/blast" -p 9 -n 1 -o tsv >"$TMP/plain.b" 2>/dev/null
for k in rtt_lost_up rtt_lost_down rtt_lost_tail rtt_forged rtt_up_p50_us rtt_down_max_us rtt_echo_p99_us rtt_offset_err_us; do
	check "blast without --rtt: $k -" test "$(field "$TMP/plain.b" $k)" = -
done

# --- loss one way at a time: nft in a namespace of its own (lo), every 10th request (or reply)
# of 1005 dropped: 100 or 101, as nft counts them; the last one passes, so no tail.
need_root_ip "losses one way (nft)"
if ! command -v nft >/dev/null 2>&1; then
	skip "no nft: apt-get install -y nftables"
	done_tests
	exit
fi
if ! { ip netns add "$L" && ip -n "$L" link set lo up; } 2>"$TMP/ip.err"; then
	skip "cannot make a network namespace here: $(head -n 1 "$TMP/ip.err")"
	done_tests
	exit
fi
inL() { ip netns exec "$L" "$@"; }
# oneway NAME MATCH: suck --echo in L, a rule dropping every 10th request-sized datagram that
# MATCH (dport: to suck, requests; sport: from suck, replies), blast's run; DROPPED nft's count.
oneway() {
	n=$1
	start_listener "$n" ip netns exec "$L" "$BIN/suck" -p 0 -m mmsg --echo -R 4M -o tsv -t 30 || { fail "$n: suck did not start"; return 1; }
	# 200-byte requests and replies: UDP length 208 (a fin is 78)
	if ! { inL nft add table inet bs_rtt && inL nft add chain inet bs_rtt in '{ type filter hook input priority 0; }' &&
		inL nft add rule inet bs_rtt in udp "$2" "$PORT" udp length 208 numgen inc mod 10 == 0 counter drop; }; then
		fail "$n: nft could not add the rule"
	fi
	inL "$BIN/blast" -p "$PORT" --rtt --outstanding 64 --rtt-timeout 500ms -s 200 -n 1005 -o tsv \
		>"$TMP/$n.b" 2>"$TMP/$n.berr"
	check "$n: blast exit 0 ($(cat "$TMP/$n.berr"))" test $? = 0
	wait_pid "$LISTENER_PID" 35 || fail "$n: suck did not end"
	DROPPED=$(inL nft list chain inet bs_rtt in | sed -n 's/.*counter packets \([0-9]*\) .*/\1/p')
	inL nft delete table inet bs_rtt
	check "$n: nft dropped 100 or 101 ($DROPPED)" test "$DROPPED" = 100 -o "$DROPPED" = 101
	identity "$TMP/$n.b" "$n"
	check "$n: no tail ($(brief "$TMP/$n.b"))" test "$(field "$TMP/$n.b" rtt_lost_tail)" = 0
}
if oneway up dport; then
	check "up: rtt_lost_up $(field "$TMP/up.b" rtt_lost_up) == dropped $DROPPED, down 0 ($(brief "$TMP/up.b"))" \
		test "$(field "$TMP/up.b" rtt_lost_up) $(field "$TMP/up.b" rtt_lost_down)" = "$DROPPED 0"
	check "up: suck took sent - dropped ($(field "$TMP/up.out" valid))" \
		test "$(field "$TMP/up.out" valid)" = $((1005 - DROPPED))
fi
if oneway down sport; then
	check "down: rtt_lost_down $(field "$TMP/down.b" rtt_lost_down) == dropped $DROPPED, up 0 ($(brief "$TMP/down.b"))" \
		test "$(field "$TMP/down.b" rtt_lost_down) $(field "$TMP/down.b" rtt_lost_up)" = "$DROPPED 0"
	check "down: suck took and answered every request ($(field "$TMP/down.out" valid), echoed $(field "$TMP/down.out" echoed))" \
		test "$(field "$TMP/down.out" valid) $(field "$TMP/down.out" echoed)" = "1005 1005"
fi
check "no namespace rule left" sh -c "! ip netns exec '$L' nft list tables | grep -q bs_rtt"

done_tests
