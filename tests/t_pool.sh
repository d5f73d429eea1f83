# suck -m pool: one receiving thread, --workers threads that run the work, a bounded
# queue of batches. The workers' work adds up to one thread's (the digest of the same datagrams
# equals -m buffer's); a full queue in drop mode is counted exactly in queue_dropped (lost ==
# dropped + queue_dropped + elsewhere, and with no kernel drop lost == queue_dropped); in block
# mode only the kernel drops; a stop with batches queued says how many were left unworked;
# the pool's options are refused elsewhere. No timing assertion beyond generous bounds.
. tests/lib.sh

RUN=4919 # 0x1337

# identities FILE NAME: DESIGN.md's, with queue_dropped in lost.
identities() {
	S=$1 n=$2
	if [ -z "$(field "$S" received)" ]; then
		fail "$n: no report"
		return 1
	fi
	check "$n: sent == valid + lost" test "$(field "$S" sent)" -eq $(($(field "$S" valid) + $(field "$S" lost)))
	check "$n: lost == dropped + queue_dropped + elsewhere" test "$(field "$S" lost)" -eq \
		$(($(field "$S" dropped) + $(field "$S" queue_dropped) + $(field "$S" elsewhere)))
	check "$n: received == valid + dup + late + foreign + truncated" test "$(field "$S" received)" -eq \
		$(($(field "$S" valid) + $(field "$S" dup) + $(field "$S" late) + $(field "$S" foreign) + $(field "$S" truncated)))
}

# --- the same datagrams (a fixed send time, a fixed payload) give the same digest on one thread
# and on a pool of three: the work is split, not changed; dups and reordered counted alike.
for v in "buffer" "pool --workers 3 --queue 2"; do
	n=digest-$(echo "$v" | cut -d ' ' -f 1)
	# shellcheck disable=SC2086
	start_suck "$n" -m $v -R 8M --run-id $RUN -o tsv -t 40 || { fail "$n: suck did not start"; continue; }
	INJECT_SEND_NS=1000000000000000000 "$BIN/inject" script "$PORT" $RUN 700 4000 >"$TMP/$n.inj"
	check "$n: suck ends" wait_pid "$SUCK_PID" 30
	identities "$TMP/$n.out" "$n"
done
A=$TMP/digest-buffer.out B=$TMP/digest-pool.out
if [ "$(field "$A" kernel_drops)$(field "$B" kernel_drops)" = 00 ]; then
	for k in received valid dup reordered sent digest; do
		check "pool and buffer agree on $k ($(field "$B" $k) $(field "$A" $k))" test "$(field "$B" $k)" = "$(field "$A" $k)"
	done
	check "pool: nothing unworked, nothing dropped" test "$(field "$B" unworked)$(field "$B" queue_dropped)" = 00
	check "pool: queue_hwm 1..2 ($(field "$B" queue_hwm))" test "$(field "$B" queue_hwm)" -ge 1 -a "$(field "$B" queue_hwm)" -le 2
	check "pool: workers 3, queue 2, queue_full block" \
		test "$(field "$B" workers) $(field "$B" queue) $(field "$B" queue_full)" = "3 2 block"
else
	skip "digest: the kernel dropped; the runs are not the same datagrams"
fi

# --- drop mode: one slow worker (histogram:3000 on 1000 bytes: milliseconds a datagram), a
# queue of one batch, a receive buffer that holds the whole run: the receiver keeps reading and
# throws away what does not fit, every new sequence of it counted in queue_dropped.
n=drop
start_suck "$n" -m pool --workers 1 --queue 1 --queue-full drop -w histogram:3000 -s 2000 -R 32M \
	--run-id $RUN -o tsv -t 60 || fail "$n: suck did not start"
"$BIN/blast" -p "$PORT" --run-id $RUN -s 1000 -n 4000 -r 20k -o tsv >"$TMP/$n.blast" 2>/dev/null
check "$n: suck ends" wait_pid "$SUCK_PID" 60
S=$TMP/$n.out
identities "$S" "$n"
check "$n: stop fin" test "$(field "$S" stop)" = fin
check "$n: sent 4000 from the fin" test "$(field "$S" sent)" = 4000 -a "$(field "$S" sent_estimated)" = 0
check "$n: the queue overflowed ($(field "$S" queue_dropped) dropped)" test "$(field "$S" queue_dropped)" -gt 0
check "$n: queue_hwm 1" test "$(field "$S" queue_hwm)" = 1
check "$n: valid + queue_dropped <= sent" test $(($(field "$S" valid) + $(field "$S" queue_dropped))) -le 4000
check "$n: nothing unworked (the fin waits for the queue)" test "$(field "$S" unworked)" = 0
if [ "$(field "$S" kernel_drops)" = 0 ]; then
	check "$n: lost $(field "$S" lost) == queue_dropped $(field "$S" queue_dropped) exactly" \
		test "$(field "$S" lost)" = "$(field "$S" queue_dropped)"
	check "$n: valid + queue_dropped == 4000" test $(($(field "$S" valid) + $(field "$S" queue_dropped))) = 4000
	check "$n: dropped 0, elsewhere 0" test "$(field "$S" dropped)$(field "$S" elsewhere)" = 00
else
	skip "$n: the kernel dropped $(field "$S" kernel_drops) too; lost == queue_dropped not compared"
fi

# Drop mode under hostile input: only what would be valid is queue_dropped; the rest of a
# dropped batch (foreign, truncated, fins) is counted as ever.
n=drop-hostile
start_suck "$n" -m pool --workers 1 --queue 1 --queue-full drop -w histogram:3000 -s 4000 -R 32M \
	--run-id $RUN -i 0.1 -o tsv -t 60 || fail "$n: suck did not start"
"$BIN/blast" -p "$PORT" --run-id $RUN -s 1000 -n 4000 -r 10k -o tsv >"$TMP/$n.blast" 2>/dev/null &
BPID=$!
PIDS="$PIDS $BPID"
wait_received "$n"
"$BIN/inject" hostile "$PORT" $RUN 1000 >"$TMP/$n.inj"
check "$n: blast ends" wait_pid "$BPID" 30
check "$n: suck ends" wait_pid "$SUCK_PID" 60
S=$TMP/$n.out
identities "$S" "$n"
check "$n: stop fin" test "$(field "$S" stop)" = fin
if [ "$(field "$S" kernel_drops)" = 0 ]; then
	check "$n: foreign = injected ($(field "$S" foreign) vs $(field "$TMP/$n.inj" foreign))" \
		test "$(field "$S" foreign)" = "$(field "$TMP/$n.inj" foreign)"
	check "$n: truncated = injected" test "$(field "$S" truncated)" = "$(field "$TMP/$n.inj" truncated)"
	check "$n: lost == queue_dropped" test "$(field "$S" lost)" = "$(field "$S" queue_dropped)"
else
	skip "$n: the kernel dropped; exact class counts not compared"
fi

# --- block mode: the same slow worker and a small receive buffer: the receiver waits for room,
# the kernel drops, suck drops nothing itself.
n=block
start_suck "$n" -m pool --workers 1 --queue 1 -w histogram:3000 -s 2000 -R 64k --run-id $RUN -o tsv -t 60 ||
	fail "$n: suck did not start"
"$BIN/blast" -p "$PORT" --run-id $RUN -s 1000 -n 4000 -r 20k -o tsv >"$TMP/$n.blast" 2>/dev/null
check "$n: suck ends" wait_pid "$SUCK_PID" 60
S=$TMP/$n.out
identities "$S" "$n"
check "$n: stop fin" test "$(field "$S" stop)" = fin
check "$n: queue_full block" test "$(field "$S" queue_full)" = block
check "$n: queue_dropped 0" test "$(field "$S" queue_dropped)" = 0
check "$n: the kernel dropped ($(field "$S" kernel_drops))" test "$(field "$S" kernel_drops)" -gt 0
check "$n: lost $(field "$S" lost) all dropped by the kernel ($(field "$S" dropped))" \
	test "$(field "$S" dropped)" = "$(field "$S" lost)"

# --- a stop with batches queued: -t ends the run at once (within a datagram's work), and the
# batches counted but not worked on are reported.
n=cut
start_suck "$n" -m pool --workers 1 --queue 16 -w histogram:20000 -s 2000 -R 32M -o tsv -t 1 ||
	fail "$n: suck did not start"
"$BIN/blast" -p "$PORT" -s 1000 -n 3000 -r 20k -o tsv >"$TMP/$n.blast" 2>/dev/null &
BPID=$!
PIDS="$PIDS $BPID"
check "$n: -t 1 ends within 15 s" wait_pid "$SUCK_PID" 15
S=$TMP/$n.out
identities "$S" "$n"
check "$n: stop time" test "$(field "$S" stop)" = time
check "$n: unworked > 0 ($(field "$S" unworked))" test "$(field "$S" unworked)" -gt 0
check "$n: unworked <= received" test "$(field "$S" unworked)" -le "$(field "$S" received)"
check "$n: says so" grep -q "counted but their work not run.*(unworked)" "$TMP/$n.err"
wait_pid "$BPID" 20

# --- a signal reaches the receiver, not a worker busy with slow work
n=signal
start_suck "$n" -m pool --workers 2 -w histogram:20000 -s 2000 -R 32M -i 0.05 -o tsv || fail "$n: suck did not start"
"$BIN/blast" -p "$PORT" -s 1000 -n 2000 -r 10k -o tsv >/dev/null 2>&1 &
BPID=$!
PIDS="$PIDS $BPID"
wait_received "$n"
kill -INT "$SUCK_PID"
check "$n: SIGINT ends the pool within 10 s" wait_pid "$SUCK_PID" 10
check "$n: stop signal" test "$(field "$TMP/$n.out" stop)" = signal
identities "$TMP/$n.out" "$n"
wait_pid "$BPID" 20

# --- the pool's options, elsewhere and out of range: exit 2
for v in $(variants); do
	[ "$v" = pool ] && continue
	for o in "--workers 2" "--queue 4" "--queue-full drop"; do
		# shellcheck disable=SC2086
		"$BIN/suck" -p 0 -m "$v" $o >/dev/null 2>"$TMP/opt.err"
		check "$o with -m $v: exit 2" test $? = 2
		check "$o with -m $v: says where it applies" \
			grep -q -- "--workers, --queue and --queue-full apply to -m pool; $v has no worker threads" "$TMP/opt.err"
	done
	"$BIN/suck" -p 0 -m "$v" -t 10ms -o tsv >"$TMP/o-$v" 2>/dev/null
	[ -s "$TMP/o-$v" ] || continue
	check "$v: queue_dropped 0, unworked 0" test "$(field "$TMP/o-$v" queue_dropped)$(field "$TMP/o-$v" unworked)" = 00
	check "$v: workers, queue, queue_full, queue_hwm -" \
		test "$(field "$TMP/o-$v" workers)$(field "$TMP/o-$v" queue)$(field "$TMP/o-$v" queue_full)$(field "$TMP/o-$v" queue_hwm)" = "----"
done
for a in "--workers 0" "--workers 65" "--queue 0" "--queue 1025" "--queue-full wait"; do
	# shellcheck disable=SC2086
	"$BIN/suck" -p 0 -m pool $a >/dev/null 2>"$TMP/opt.err"
	check "-m pool $a: exit 2 ($(cat "$TMP/opt.err"))" test $? = 2
	check "-m pool $a: names the option" grep -q -- "${a%% *} '" "$TMP/opt.err"
done

done_tests
