# Fins played again: under a run key a fin's tag covers its send time, and suck believes no fin
# sent before it started, nor, when serving, one no newer than a run it has already reported.
# A recording is made here by bin/inject with the key and an old send time (INJECT_FIN_NS),
# which is the very datagram a capture of that earlier run would hold.
. tests/lib.sh

BS_RUN_KEY=00112233445566778899aabbccddeeff
export BS_RUN_KEY
now_ns() { date +%s%N; }
OLD=$(($(now_ns) - 60000000000)) # a minute before any suck here started

# 1. A fresh suck: a recorded fin of a run a minute old arrives first, then the real blast.
# Before: the fin made a run of its own (sent 50, valid 0, lost 50, stop fin), blast unmeasured.
for v in buffer mmsg; do
	n=fresh-$v
	start_suck "$n" -m $v -R 4M -o tsv -t 30 || fail "$n: suck did not start"
	INJECT_FIN_NS=$OLD "$BIN/inject" fin "$PORT" 4242 200 0 50 1
	"$BIN/blast" -p "$PORT" -n 2000 -r 20000 -s 200 -o tsv >"$TMP/$n.blast" 2>/dev/null
	check "$n: suck ends" wait_pid "$SUCK_PID" 20
	S=$TMP/$n.out
	check "$n: blast's run is the one measured (sent $(field "$S" sent))" \
		test "$(field "$S" sent)" = "$(field "$TMP/$n.blast" sent)"
	check "$n: nothing lost" test "$(field "$S" lost)" = 0
	check "$n: the replayed fin is stale ($(field "$S" stale_fins))" test "$(field "$S" stale_fins)" = 1
	check "$n: and counted forged" test "$(field "$S" forged_fins)" = 1
	check "$n: a warning says it was played again" grep -q 'stale_fins' "$TMP/$n.err"
done

# 2. --serve: 18 runs, then run 1's fin played again (older than the 16 run ids kept), then a
# real blast: no phantom run between them. Before: a 19th row (sent 1, valid 0, stop fin).
n=serve
start_suck "$n" --serve --runs 19 -R 4M -o tsv -t 60 --idle 3 || fail "$n: suck did not start"
T1=$(now_ns)
INJECT_FIN_NS=$T1 "$BIN/inject" run "$PORT" 5001 200 100
wait_rows "$TMP/$n.out" 1
i=2
while [ $i -le 18 ]; do
	"$BIN/inject" run "$PORT" $((5000 + i)) 200 100
	wait_rows "$TMP/$n.out" $i
	i=$((i + 1))
done
INJECT_FIN_NS=$T1 "$BIN/inject" fin "$PORT" 5001 200 0 100 1
"$BIN/blast" -p "$PORT" -n 1000 -r 20000 -s 200 -o tsv >"$TMP/$n.blast" 2>/dev/null
check "$n: suck ends after --runs 19" wait_pid "$SUCK_PID" 20
S=$TMP/$n.out
check "$n: 19 rows ($(rows "$S"))" test "$(rows "$S")" = 19
check "$n: run 19 is blast's ($(at "$S" sent 19) sent)" test "$(at "$S" sent 19)" = "$(field "$TMP/$n.blast" sent)"
check "$n: run 19 lost nothing" test "$(at "$S" lost 19)" = 0
check "$n: the replay is counted stale in run 19" test "$(at "$S" stale_fins 19)" = 1
check "$n: every run ends on its fins" test "$(col "$S" stop | sort -u)" = fin

# 3. --senders 2: a recorded fin of an old run may not take a slot; two real blasts fill them.
# Before: the replay took slot 1 and the second blast was other_run.
n=senders
start_suck "$n" --senders 2 -R 4M -o tsv -t 30 || fail "$n: suck did not start"
INJECT_FIN_NS=$OLD "$BIN/inject" fin "$PORT" 6001 200 0 50 1
"$BIN/blast" -p "$PORT" -n 1000 -r 20000 -s 200 -o tsv >"$TMP/$n.b1" 2>/dev/null &
B1=$!
"$BIN/blast" -p "$PORT" -n 1000 -r 20000 -s 200 -o tsv >"$TMP/$n.b2" 2>/dev/null
wait $B1
check "$n: suck ends" wait_pid "$SUCK_PID" 20
S=$TMP/$n.out
tot=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["run_id"] == "total" { print $c["valid"] " " $c["lost"] " " $c["other_run"] " " $c["stale_fins"] }' "$S")
check "$n: both blasts measured, nothing lost or other_run, one stale fin ($tot)" test "$tot" = "2000 0 0 1"

done_tests
