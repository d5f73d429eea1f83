# suck --latency and --spin: every valid datagram sampled at a low paced rate, on
# every variant and on IPv4 and IPv6; the stack and queue parts consistent with the total; the
# queue part grows when the consumer is slow; --spin refused where it cannot poll; without
# --latency no latency key is a number. No timing assertion beyond orderings in one test.
. tests/lib.sh

KEYS="lat_p50_us lat_p90_us lat_p99_us lat_p999_us lat_max_us lat_mean_us stack_p50_us stack_p99_us stack_max_us queue_p50_us queue_p99_us queue_max_us"

# le A B: A <= B for decimals
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 <= b + 0) }'; }

for addr in 127.0.0.1 ::1; do
	for v in $(variants); do
		n=lat-$v-$addr
		start_suck "$n" -a "$addr" -m $v --latency -R 4M -o tsv -t 30 || { skip "$n: $(cat "$TMP/$n.err")"; continue; }
		"$BIN/blast" -a "$addr" -p "$PORT" -s 200 -n 1000 -r 5000 -o tsv >"$TMP/$n.blast" 2>/dev/null
		check "$n: suck ends" wait_pid "$SUCK_PID" 20
		S=$TMP/$n.out
		check "$n: stop fin" test "$(field "$S" stop)" = fin
		check "$n: every valid datagram sampled ($(field "$S" lat_samples) of $(field "$S" valid))" \
			test "$(field "$S" lat_samples)" = "$(field "$S" valid)"
		check "$n: lat_negative 0" test "$(field "$S" lat_negative)" = 0
		check "$n: no clock warning" sh -c "! grep -q 'not in step' '$TMP/$n.err'"
		for k in $KEYS; do
			check "$n: $k is a number ($(field "$S" $k))" le 0 "$(field "$S" $k)"
		done
		m=$(field "$S" lat_max_us)
		for k in lat_p50_us lat_p99_us stack_p50_us stack_max_us queue_p50_us queue_max_us; do
			check "$n: $k $(field "$S" $k) <= lat_max_us $m" le "$(field "$S" $k)" "$m"
		done
		check "$n: p50 <= p99" le "$(field "$S" lat_p50_us)" "$(field "$S" lat_p99_us)"
		check "$n: spin 0" test "$(field "$S" spin)" = 0
	done
done

# Overload: a consumer 200 times slower fed as fast as blast can, against the same variant at a
# low rate: the queue part of the delay grows.
for v in buffer mmsg; do
	n=queue-low-$v
	start_suck "$n" -m $v -w histogram:200 --latency -R 8M -o tsv -t 30 || fail "$n: suck did not start"
	"$BIN/blast" -p "$PORT" -s 1000 -n 300 -r 300 -o tsv >/dev/null 2>&1
	wait_pid "$SUCK_PID" 20
	n=queue-high-$v
	start_suck "$n" -m $v -w histogram:200 --latency -R 8M -o tsv -t 30 || fail "$n: suck did not start"
	"$BIN/blast" -p "$PORT" -s 1000 -n 3000 -o tsv >/dev/null 2>&1
	wait_pid "$SUCK_PID" 30
	lo=$(field "$TMP/queue-low-$v.out" queue_p50_us) hi=$(field "$TMP/queue-high-$v.out" queue_p50_us)
	check "$v: queue p50 under overload ($hi us) > at a low rate ($lo us)" le "$lo" "$hi"
	check "$v: ... and not equal" test "$lo" != "$hi"
done

# --spin: a polling receiver for buffer, mmsg and gro, refused where it cannot poll.
for v in buffer mmsg gro; do
	n=spin-$v
	start_suck "$n" -m $v --spin --latency -R 4M -o tsv -t 30 || { skip "$n: $(cat "$TMP/$n.err")"; continue; }
	"$BIN/blast" -p "$PORT" -s 200 -n 500 -r 2000 -o tsv >/dev/null 2>&1
	check "$n: suck ends" wait_pid "$SUCK_PID" 20
	check "$n: stop fin" test "$(field "$TMP/$n.out" stop)" = fin
	check "$n: spin 1" test "$(field "$TMP/$n.out" spin)" = 1
	check "$n: every datagram sampled" test "$(field "$TMP/$n.out" lat_samples)" = "$(field "$TMP/$n.out" valid)"
done
for v in copy uring; do
	"$BIN/suck" -p 0 -m $v --spin >/dev/null 2>"$TMP/spin.err"
	check "--spin with -m $v: exit 2" test $? = 2
	check "--spin with -m $v: says where it applies" grep -q -- "--spin applies to -m buffer, mmsg, gro" "$TMP/spin.err"
done

# Duplicates and reordered datagrams (bin/inject script): only valid datagrams are sampled.
n=lat-dups
start_suck "$n" --latency -R 4M -o tsv --idle 10 -t 60 || fail "$n: suck did not start"
"$BIN/inject" script "$PORT" 4242 1450 2000 >"$TMP/$n.inj"
check "$n: suck ends" wait_pid "$SUCK_PID" 20
S=$TMP/$n.out
check "$n: some dups ($(field "$S" dup))" test "$(field "$S" dup)" -gt 0
check "$n: lat_samples $(field "$S" lat_samples) == valid $(field "$S" valid), dups left out" \
	test "$(field "$S" lat_samples)" = "$(field "$S" valid)"

# Without --latency: every latency key is "-" in tsv and text, null in json.
n=off
start_suck "$n" -o tsv -t 30 || fail "$n: suck did not start"
"$BIN/blast" -p "$PORT" -n 100 -o tsv >/dev/null 2>&1
wait_pid "$SUCK_PID" 20
for k in $KEYS lat_samples lat_negative; do
	check "off: $k is -" test "$(field "$TMP/$n.out" $k)" = "-"
done
"$BIN/suck" -p 0 -t 10ms -o json >"$TMP/off.json" 2>/dev/null
check "off: json null" grep -q '"lat_p50_us":null' "$TMP/off.json"

done_tests
