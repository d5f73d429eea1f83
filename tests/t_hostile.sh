# Hostile datagrams during a real run, and replays: the real run's accounting stays exact and
# foreign, truncated, dup and reordered count exactly what was injected (bin/inject says what
# it sent). Runs are paced and the receive buffer large, so nothing should be dropped; if the
# kernel drops anyway on a very loaded machine, that is reported and the exact comparison of
# the injected classes is skipped for that run rather than failed.
. tests/lib.sh

RUN=305419896 # 0x12345678

for v in $(variants); do
	n=hostile-$v
	start_suck "$n" -m "$v" -s 4000 -R 4M -i 0.1 -o tsv --idle 10 -t 60 || { skip "$n: $(cat "$TMP/$n.err")"; continue; }
	"$BIN/blast" -p "$PORT" --run-id $RUN -s 1000 -n 8000 -r 10k -o tsv >"$TMP/$n.blast" 2>/dev/null &
	BPID=$!
	PIDS="$PIDS $BPID"
	wait_received "$n"
	"$BIN/inject" hostile "$PORT" $RUN 1000 >"$TMP/$n.inj"
	check "$n: blast ends" wait_pid "$BPID" 20
	check "$n: suck ends on the real fin" wait_pid "$SUCK_PID" 20
	S=$TMP/$n.out
	check "$n: stop fin" test "$(field "$S" stop)" = fin
	check "$n: the real run's sent" test "$(field "$S" sent)" = "$(field "$TMP/$n.blast" sent)"
	check "$n: sent not estimated" test "$(field "$S" sent_estimated)" = 0
	check "$n: sent == valid + lost" test "$(field "$S" sent)" -eq $(($(field "$S" valid) + $(field "$S" lost)))
	check "$n: run id kept" test "$(field "$S" run_id)" = 12345678
	check "$n: no dup from hostile input" test "$(field "$S" dup)" = 0
	if [ -z "$(field "$S" kernel_drops)" ]; then
		fail "$n: no report from suck: $(tail -n 3 "$TMP/$n.err")"
	elif [ "$(field "$S" kernel_drops)" = 0 ]; then
		check "$n: foreign = injected ($(field "$S" foreign) vs $(field "$TMP/$n.inj" foreign))" \
			test "$(field "$S" foreign)" = "$(field "$TMP/$n.inj" foreign)"
		check "$n: truncated = injected" test "$(field "$S" truncated)" = "$(field "$TMP/$n.inj" truncated)"
		check "$n: nothing lost" test "$(field "$S" lost)" = 0
	else
		skip "$n: the kernel dropped $(field "$S" kernel_drops) datagrams; exact class counts not compared"
	fi
done

for v in $(variants); do
	n=replay-$v
	start_suck "$n" -m "$v" -R 4M -o tsv --idle 10 -t 60 || { skip "$n: $(cat "$TMP/$n.err")"; continue; }
	"$BIN/inject" script "$PORT" $RUN 1450 6000 >"$TMP/$n.inj"
	check "$n: suck ends on the fin" wait_pid "$SUCK_PID" 20
	S=$TMP/$n.out I=$TMP/$n.inj
	if [ -z "$(field "$S" kernel_drops)" ]; then
		fail "$n: no report from suck: $(tail -n 3 "$TMP/$n.err")"
		continue
	fi
	if [ "$(field "$S" kernel_drops)" != 0 ]; then
		skip "$n: the kernel dropped $(field "$S" kernel_drops); exact counts not compared"
		continue
	fi
	for k in valid dup reordered sent; do
		check "$n: $k $(field "$S" $k) = $(field "$I" $k)" test "$(field "$S" $k)" = "$(field "$I" $k)"
	done
	check "$n: lost 0" test "$(field "$S" lost)" = 0
	check "$n: late 0" test "$(field "$S" late)" = 0
	check "$n: received = valid + dup" test "$(field "$S" received)" -eq $(($(field "$S" valid) + $(field "$S" dup)))
done

done_tests
