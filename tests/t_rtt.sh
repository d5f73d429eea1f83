# Round trips: blast --rtt against suck --echo on the variants that can
# reply, IPv4 and IPv6, one and many requests in flight, a reply of another size, several
# flows; every request answered (sent == transactions == suck's valid == echoed). Against
# bin/echoer, which loses, duplicates and garbles replies by sequence, the counts are exact:
# a lost reply costs its timeout, not the run. Against a suck without --echo nothing comes
# back and the run still ends on time. --echo refused where a variant cannot reply; strict
# options. The clock offset: suck's own clock (0 on one host) and an echoer's clock set ahead,
# each found within the error blast states (half its fastest round trip). No round trip above
# --rtt-timeout, even for replies blast reads long after it (blast stopped meanwhile).
. tests/lib.sh

# within V LO HI: LO <= V <= HI, decimals
within() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v != "" && v != "-" && v + 0 >= lo && v + 0 <= hi) }'; }
# offset_ok FILE US: blast's clock_offset_us is US within its clock_offset_err_us (and 2 us for
# the clocks' reads)
offset_ok() {
	awk -v o="$(field "$1" clock_offset_us)" -v e="$(field "$1" clock_offset_err_us)" -v want="$2" \
		'BEGIN { d = o - want; if (d < 0) d = -d; exit !(o != "-" && e != "-" && e > 0 && d <= e + 2) }'
}
brief() { echo "sent $(field "$1" sent) tx $(field "$1" transactions) lost $(field "$1" rtt_lost) late $(field "$1" rtt_late) foreign $(field "$1" rtt_foreign)"; }

ECHOES="copy buffer mmsg"
for addr in 127.0.0.1 ::1; do
	for v in $ECHOES; do
		for o in 1 16; do
			n=rtt-$v-$o-$addr
			start_suck "$n" -a "$addr" -m "$v" --echo -R 4M -o tsv -t 30 || { fail "$n: suck did not start"; continue; }
			"$BIN/blast" -a "$addr" -p "$PORT" --rtt --outstanding $o -s 200 -n 3000 -o tsv \
				>"$TMP/$n.b" 2>"$TMP/$n.berr"
			check "$n: blast exit 0 ($(cat "$TMP/$n.berr"))" test $? = 0
			check "$n: suck ends" wait_pid "$SUCK_PID" 20
			B=$TMP/$n.b S=$TMP/$n.out
			check "$n: every request answered ($(brief "$B"))" \
				test "$(field "$B" sent) $(field "$B" transactions) $(field "$B" rtt_lost)" = "3000 3000 0"
			check "$n: no late or foreign reply ($(brief "$B"))" \
				test "$(field "$B" rtt_late) $(field "$B" rtt_foreign)" = "0 0"
			check "$n: suck valid $(field "$S" valid), echoed $(field "$S" echoed)" \
				test "$(field "$S" valid) $(field "$S" echoed) $(field "$S" echo_errors)" = "3000 3000 0"
			check "$n: stop count, fin" test "$(field "$B" stop) $(field "$S" stop)" = "count fin"
			for k in rtt_p50_us rtt_p90_us rtt_p99_us rtt_p999_us rtt_max_us rtt_mean_us tps; do
				check "$n: $k $(field "$B" $k) > 0" within "$(field "$B" $k)" 0.001 1e9
			done
			check "$n: p50 <= p99 <= max" awk -v a="$(field "$B" rtt_p50_us)" -v b="$(field "$B" rtt_p99_us)" \
				-v c="$(field "$B" rtt_max_us)" 'BEGIN { exit !(a <= b && b <= c) }'
			check "$n: outstanding $o, rtt 1" test "$(field "$B" outstanding) $(field "$B" rtt)" = "$o 1"
			check "$n: clock offset $(field "$B" clock_offset_us) us within $(field "$B" clock_offset_err_us) of 0" \
				offset_ok "$B" 0
		done
	done
done

# A reply of another size: 100-byte requests, 3000-byte replies (suck --echo-max 3000: a reply
# larger than its request only where suck allows it; t_echo_amp without); and 1000-byte
# requests, 40-byte replies.
for sizes in "100 3000" "1000 40"; do
	set -- $sizes
	n=reply-$1-$2
	max=
	[ "$2" -le "$1" ] || max="--echo-max $2"
	# shellcheck disable=SC2086 # the words, split on purpose
	start_suck "$n" -m mmsg --echo $max -R 4M -o tsv -t 30 || fail "$n: suck did not start"
	"$BIN/blast" -p "$PORT" --rtt --outstanding 4 -s "$1" --reply-size "$2" -n 1000 -o tsv >"$TMP/$n.b" 2>/dev/null
	wait_pid "$SUCK_PID" 20
	check "$n: every reply of the size asked ($(brief "$TMP/$n.b"))" \
		test "$(field "$TMP/$n.b" transactions) $(field "$TMP/$n.b" rtt_foreign)" = "1000 0"
	check "$n: reply_size $2" test "$(field "$TMP/$n.b" reply_size)" = "$2"
	check "$n: suck's bytes are the requests'" test "$(field "$TMP/$n.out" bytes)" = $((1000 * $1))
done

# Paced requests (-r): 200 at 1000/s, never sooner than their due times, so the run lasts at
# least 199 ms; every request answered or lost.
n=paced
start_suck "$n" -m mmsg --echo -R 4M -o tsv -t 30 || fail "$n: suck did not start"
"$BIN/blast" -p "$PORT" --rtt -r 1000 --outstanding 8 -n 200 -i 0.05 -o tsv >"$TMP/$n.b" 2>"$TMP/$n.i"
wait_pid "$SUCK_PID" 20
check "$n: sent 200 == transactions + rtt_lost ($(brief "$TMP/$n.b"))" \
	test "$(field "$TMP/$n.b" sent)" = 200 -a $(($(field "$TMP/$n.b" transactions) + $(field "$TMP/$n.b" rtt_lost))) = 200
check "$n: paced: duration $(field "$TMP/$n.b" duration_s) s >= 0.199" \
	awk -v d="$(field "$TMP/$n.b" duration_s)" 'BEGIN { exit !(d >= 0.199) }'
check "$n: rate 1000 in the report" test "$(field "$TMP/$n.b" rate)" = 1000
# its -i rows: the interval's mean round trip beside pps
check "$n: -i rows carry rtt_mean_us ($(head -n 1 "$TMP/$n.i"))" grep -q "^tool	t_s	sent	pps	rtt_mean_us$" "$TMP/$n.i"
check "$n: a row with a round trip above 0 and below the run's max ($(sed -n 2p "$TMP/$n.i"))" awk -F'\t' -v max="$(field "$TMP/$n.b" rtt_max_us)" \
	'NR > 1 && $1 == "blast" && $5 != "-" && $5 > 0 && $5 <= max + 0.1 { ok = 1 } END { exit !ok }' "$TMP/$n.i"

# Several flows over several receive threads, by time: the identity holds per run.
n=flows
start_suck "$n" -m mmsg -j 2 --echo -R 4M -o tsv -t 30 || fail "$n: suck did not start"
"$BIN/blast" -p "$PORT" --rtt -j 3 --outstanding 4 -t 1 -o tsv >"$TMP/$n.b" 2>/dev/null
wait_pid "$SUCK_PID" 20
B=$TMP/$n.b
check "$n: sent == transactions + lost ($(brief "$B"))" \
	test "$(field "$B" sent)" = $(($(field "$B" transactions) + $(field "$B" rtt_lost)))
check "$n: suck's valid is blast's sent" test "$(field "$TMP/$n.out" valid)" = "$(field "$B" sent)"
check "$n: some transactions" test "$(field "$B" transactions)" -gt 100

# No round trip above the timeout: a reply read after its request's timeout, even in the
# wakeup that would have expired it, is late and its request lost, never a round trip. blast is
# stopped (SIGSTOP) for 200 ms three times while its requests in flight (up to 16) are answered:
# when it goes on, their replies wait in its socket, long after the 50 ms timeout.
n=timeout-max
start_suck "$n" -m mmsg --echo -R 4M -i 0.05 -o tsv -t 60 || fail "$n: suck did not start"
"$BIN/blast" -p "$PORT" --rtt --outstanding 16 --rtt-timeout 50ms -t 1.5 -o tsv >"$TMP/$n.b" 2>/dev/null &
BPID=$!
PIDS="$PIDS $BPID"
wait_received "$n"
for _ in 1 2 3; do
	kill -STOP "$BPID"
	sleep 0.2
	kill -CONT "$BPID"
	sleep 0.1
done
check "$n: blast ends" wait_pid "$BPID" 20
wait_pid "$SUCK_PID" 20
B=$TMP/$n.b
check "$n: rtt_max_us $(field "$B" rtt_max_us) <= 50000, the timeout ($(brief "$B"))" within "$(field "$B" rtt_max_us)" 0 50000
check "$n: sent == transactions + lost ($(brief "$B"))" \
	test "$(field "$B" sent)" = $(($(field "$B" transactions) + $(field "$B" rtt_lost)))
check "$n: some transactions, some requests lost in the stops ($(brief "$B"))" \
	test "$(field "$B" transactions)" -gt 0 -a "$(field "$B" rtt_lost)" -gt 0

# bin/echoer: 1 in 10 never answered, 1 in 10 answered twice, 1 in 10 too long.
for addr in 127.0.0.1 ::1; do
	n=echoer-$addr
	start_listener "$n" "$BIN/echoer" "$addr" || { fail "$n: echoer did not start"; continue; }
	"$BIN/blast" -a "$addr" -p "$PORT" --rtt --outstanding 32 --rtt-timeout 50ms -n 1000 -o tsv \
		>"$TMP/$n.b" 2>"$TMP/$n.berr"
	check "$n: blast exit 0" test $? = 0
	check "$n: echoer ends" wait_pid "$LISTENER_PID" 20
	for k in transactions rtt_lost rtt_late rtt_foreign; do
		check "$n: $k $(field "$TMP/$n.b" $k), want $(field "$TMP/$n.out" $k)" \
			test "$(field "$TMP/$n.b" $k)" = "$(field "$TMP/$n.out" $k)"
	done
	check "$n: sent 1000" test "$(field "$TMP/$n.b" sent)" = 1000
	check "$n: a reply without suck's stamp: clock offset -" \
		test "$(field "$TMP/$n.b" clock_offset_us) $(field "$TMP/$n.b" clock_offset_err_us)" = "- -"
done
# An echoer whose clock is 5 ms (and then 3 ms behind) from this host's: blast finds it.
for ahead in 5000000 -3000000; do
	n=ahead$ahead
	start_listener "$n" "$BIN/echoer" 127.0.0.1 $ahead || { fail "$n: echoer did not start"; continue; }
	"$BIN/blast" -p "$PORT" --rtt --outstanding 4 --rtt-timeout 50ms -n 1000 -o tsv >"$TMP/$n.b" 2>/dev/null
	check "$n: blast exit 0" test $? = 0
	wait_pid "$LISTENER_PID" 20
	check "$n: clock offset $(field "$TMP/$n.b" clock_offset_us) us within $(field "$TMP/$n.b" clock_offset_err_us) of $((ahead / 1000))" \
		offset_ok "$TMP/$n.b" $((ahead / 1000))
done

# Nothing answers (suck without --echo): every request is lost at its timeout, and new ones
# keep going meanwhile: 4 in flight, 50 ms each, over 1 s is about 80.
n=silent
start_suck "$n" -o tsv -t 30 || fail "$n: suck did not start"
"$BIN/blast" -p "$PORT" --rtt --outstanding 4 --rtt-timeout 50ms -t 1 -o tsv >"$TMP/$n.b" 2>/dev/null
check "$n: blast ends" test $? = 0
wait_pid "$SUCK_PID" 20
B=$TMP/$n.b
check "$n: all lost ($(brief "$B"))" test "$(field "$B" transactions) $(field "$B" rtt_lost)" = "0 $(field "$B" sent)"
check "$n: not stalled: $(field "$B" sent) requests in 1 s" test "$(field "$B" sent)" -ge 40
check "$n: within -t and one timeout ($(field "$B" duration_s) s)" within "$(field "$B" duration_s)" 0.9 1.6
check "$n: no round trip: rtt_p50_us -" test "$(field "$B" rtt_p50_us)" = "-"
check "$n: suck counted them valid" test "$(field "$TMP/$n.out" valid)" = "$(field "$B" sent)"

# Without --rtt the keys are '-'; without --echo suck's are.
"$BIN/blast" -p 9 -n 1 -o tsv >"$TMP/plain.b" 2>/dev/null
for k in outstanding reply_size rtt_timeout_s transactions rtt_lost tps rtt_p50_us rtt_mean_us clock_offset_us clock_offset_err_us; do
	check "blast without --rtt: $k -" test "$(field "$TMP/plain.b" $k)" = "-"
done
check "blast without --rtt: rtt 0" test "$(field "$TMP/plain.b" rtt)" = 0
check "suck without --echo: echoed -" test "$(field "$TMP/silent.out" echoed) $(field "$TMP/silent.out" echo)" = "- 0"
"$BIN/blast" --check --rtt --outstanding 7 --rtt-timeout 20ms --reply-size 64 -o tsv >"$TMP/bcheck" 2>&1
check "blast --check --rtt" test "$(field "$TMP/bcheck" rtt) $(field "$TMP/bcheck" outstanding) $(field "$TMP/bcheck" rtt_timeout_s) $(field "$TMP/bcheck" reply_size)" = "1 7 0.020 64"

# --echo where a variant cannot reply; blast's options strict.
for v in $(variants); do
	case " $ECHOES " in *" $v "*) continue ;; esac
	"$BIN/suck" -p 0 -m "$v" --echo >/dev/null 2>"$TMP/echo.err"
	check "--echo with -m $v: exit 2" test $? = 2
	check "--echo with -m $v: says where it applies ($(cat "$TMP/echo.err"))" \
		grep -q -- "--echo applies to -m copy, buffer, mmsg" "$TMP/echo.err"
done
bad() { # MESSAGE ARGS...: blast --check ARGS exits 2 and says MESSAGE
	m=$1; shift
	"$BIN/blast" --check "$@" >/dev/null 2>"$TMP/bad.err"
	st=$?
	check "blast $*: exit 2 ($st)" test "$st" = 2
	check "blast $*: says '$m' ($(cat "$TMP/bad.err"))" grep -qF -- "$m" "$TMP/bad.err"
}
bad "--outstanding applies to --rtt" --outstanding 4
bad "--rtt-timeout applies to --rtt" --rtt-timeout 1s
bad "--reply-size applies to --rtt" --reply-size 100
bad "--outstanding '0': out of range 1..4096" --rtt --outstanding 0
bad "--outstanding '4097': out of range 1..4096" --rtt --outstanding 4097
bad "--rtt-timeout '0': out of range" --rtt --rtt-timeout 0
bad "--rtt-timeout '61'" --rtt --rtt-timeout 61
bad "--reply-size '31': out of range 32..65507" --rtt --reply-size 31
bad "--reply-size '65508': out of range 32..65507" --rtt --reply-size 65508
bad "--rtt with --pattern" --rtt -r 1000 --pattern poisson
bad "--rtt with -b" --rtt -b 4
bad "--rtt with -g" --rtt -g 2
bad "--rtt with --raw" --rtt --raw

done_tests
