# suck --serve: successive runs on the same sockets, each reported as it ends, with
# its own run id; a late datagram or a repeated fin of a run already reported is other_run of the
# next; --runs, --run-timeout, a signal and --idle end it; memory stays flat over the runs. Runs
# are bin/inject's (`inject run`: N datagrams and a fin from one socket, a run in a moment) and
# one real blast each on IPv4 and IPv6 (blast repeats its fin for 2 s to a receiver that stays).
. tests/lib.sh

# identities FILE NAME: DESIGN.md's identities on every row.
identities() {
	awk -F'\t' -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ if ($c["sent"] != $c["valid"] + $c["lost"] || $c["valid"] > $c["sent"] ||
		      $c["received"] != $c["valid"] + $c["dup"] + $c["late"] + $c["foreign"] + $c["truncated"]) {
			print "row " NR - 1 " breaks an identity"; bad = 1 } }
		END { exit bad }' "$1"
}

# 1. Five runs, IPv4, the default variant: a real blast, then four injected runs, then a late
# datagram of the first run and of the fourth, which must be other_run of the next, not a run.
n=five
start_suck "$n" --serve --runs 5 -R 4M -o tsv -t 60 || fail "$n: suck did not start"
"$BIN/blast" -p "$PORT" -n 2000 -r 20000 -s 200 -o tsv >"$TMP/$n.blast" 2>&1
wait_rows "$TMP/$n.out" 1
"$BIN/inject" run "$PORT" 1001 200 500
wait_rows "$TMP/$n.out" 2
"$BIN/inject" data "$PORT" "$((0x$(at "$TMP/$n.out" run_id 1)))" 200 0 5000 3 # run 1, late
"$BIN/inject" run "$PORT" 1002 200 700
wait_rows "$TMP/$n.out" 3
"$BIN/inject" run "$PORT" 1003 200 900
wait_rows "$TMP/$n.out" 4
"$BIN/inject" data "$PORT" 1003 200 0 0 4 # a replay of the run just reported
"$BIN/inject" run "$PORT" 1004 200 1100
check "$n: suck ends after --runs 5" wait_pid "$SUCK_PID" 20
S=$TMP/$n.out
check "$n: one header, five rows" test "$(rows "$S")" = 5
check "$n: serve_run 1..5" test "$(col "$S" serve_run | tr '\n' ' ')" = "1 2 3 4 5 "
check "$n: every run ends on its fins" test "$(col "$S" stop | sort -u)" = fin
check "$n: the run ids" test "$(col "$S" run_id | sed 1d | tr '\n' ' ')" = "000003e9 000003ea 000003eb 000003ec "
check "$n: identities on every row" identities "$S" "$n"
if [ "$(col "$S" kernel_drops | sort -u)" = 0 ]; then
	check "$n: each run's valid is exactly its own" test "$(col "$S" valid | tr '\n' ' ')" = "2000 500 700 900 1100 "
	check "$n: nothing lost" test "$(col "$S" lost | sort -u)" = 0
else
	skip "$n: the kernel dropped; exact counts not compared"
fi
# run 2 sees blast's repeated fins (other_run) and nothing else of another run; run 3 the 3
# late datagrams of run 1; run 5 the 4 of run 4
check "$n: run 3 counts run 1's late datagrams as other_run" test "$(at "$S" other_run 3)" = 3
check "$n: run 5 counts run 4's replays as other_run" test "$(at "$S" other_run 5)" = 4
check "$n: other_run is foreign" test "$(at "$S" foreign 5)" -ge 4
check "$n: memory flat over five runs (rss_kib)" test "$(at "$S" rss_kib 5)" -le $(($(at "$S" rss_kib 2) + 512))
check "$n: heap flat over five runs (heap_kib)" test "$(at "$S" heap_kib 5)" -le $(($(at "$S" heap_kib 2) + 64))
check "$n: blast's fin believed" test "$(at "$S" sent_estimated 1)" = 0

# 2. Every variant but xdp, two runs each, IPv4 and IPv6 (a dual-stack ::, injected on both).
for v in $(variants); do
	[ "$v" = xdp ] && continue
	n=var-$v
	start_suck "$n" --serve --runs 2 -m "$v" -a :: -R 4M -o tsv -t 30 || { fail "$n: suck did not start"; continue; }
	"$BIN/inject" run "$PORT" 2001 300 400
	wait_rows "$TMP/$n.out" 1
	INJECT_V6=1 "$BIN/inject" run "$PORT" 2002 300 600
	check "$n: suck ends" wait_pid "$SUCK_PID" 20
	S=$TMP/$n.out
	check "$n: two rows" test "$(rows "$S")" = 2
	check "$n: identities" identities "$S" "$n"
	if [ "$(col "$S" kernel_drops | sort -u)" = 0 ]; then
		check "$n: each run's own" test "$(col "$S" valid | tr '\n' ' ')" = "400 600 "
	else
		skip "$n: the kernel dropped; exact counts not compared"
	fi
	check "$n: fins" test "$(col "$S" stop | tr '\n' ' ')" = "fin fin "
done

# 3. -j 2: threads' state made again on the same group.
n=threads
start_suck "$n" --serve --runs 2 -m mmsg -j 2 -R 4M -o json -t 30 || fail "$n: suck did not start"
"$BIN/inject" run "$PORT" 3001 100 300
while [ "$(grep -c valid "$TMP/$n.out")" -lt 1 ] && kill -0 "$SUCK_PID" 2>/dev/null; do sleep 0.01; done
"$BIN/inject" run "$PORT" 3002 100 500
check "$n: suck ends" wait_pid "$SUCK_PID" 20
check "$n: two json lines, each run's valid" test "$(sed -n 's/.*"valid":\([0-9]*\).*/\1/p' "$TMP/$n.out" | tr '\n' ' ')" = "300 500 "

# 4. A run that never sends its fin ends by --run-timeout; the next still counts exactly.
n=timeout
start_suck "$n" --serve --runs 2 --run-timeout 0.5 -R 4M -o tsv -t 30 || fail "$n: suck did not start"
"$BIN/inject" data "$PORT" 4001 200 0 0 50
"$BIN/inject" data "$PORT" 4001 200 1 10 5 # no fins: sent estimated from the highest sequences
wait_rows "$TMP/$n.out" 1
"$BIN/inject" run "$PORT" 4002 200 800
check "$n: suck ends" wait_pid "$SUCK_PID" 20
S=$TMP/$n.out
check "$n: the first ends by run_timeout" test "$(at "$S" stop 1)" = run_timeout
check "$n: ... estimated" test "$(at "$S" sent_estimated 1)" = 1
check "$n: ... lost what it never got" test "$(at "$S" valid 1) $(at "$S" sent 1) $(at "$S" lost 1)" = "55 65 10"
check "$n: the next on its fins, exact" test "$(at "$S" stop 2) $(at "$S" valid 2) $(at "$S" sent 2)" = "fin 800 800"
check "$n: identities" identities "$S" "$n"

# 4b. Under a run key a proven fin names a run: a repeat of the last run's must not.
n=keyed
BS_RUN_KEY=00112233445566778899aabbccddeeff
export BS_RUN_KEY
start_suck "$n" --serve --runs 2 -R 4M -o tsv -t 30 || fail "$n: suck did not start"
"$BIN/inject" run "$PORT" 5001 200 300
wait_rows "$TMP/$n.out" 1
"$BIN/inject" fin "$PORT" 5001 200 0 300 1 # the run's fin again, tagged right
"$BIN/inject" run "$PORT" 5002 200 400
check "$n: suck ends" wait_pid "$SUCK_PID" 20
unset BS_RUN_KEY
S=$TMP/$n.out
check "$n: keyed" test "$(at "$S" keyed 2)" = 1
check "$n: the second run is 5002's, not the repeated fin's" test "$(at "$S" run_id 2) $(at "$S" valid 2)" = "0000138a 400"
check "$n: the repeat is other_run of it" test "$(at "$S" other_run 2)" = 1

# 5. A real blast over IPv6, then --idle ends serving (no row for the wait), exit 0.
n=v6-idle
start_suck "$n" --serve -a ::1 --idle 2.5 -R 4M -o tsv -t 30 || fail "$n: suck did not start"
"$BIN/blast" -a ::1 -p "$PORT" -n 1500 -r 20000 -s 1000 -o tsv >"$TMP/$n.blast" 2>&1
wait_pid "$SUCK_PID" 20
check "$n: exit 0 after --idle" test $? = 0
S=$TMP/$n.out
check "$n: one row, the blast's" test "$(rows "$S")" = 1
check "$n: its repeated fins said on stderr, not a run" grep -q 'runs already reported' "$TMP/$n.err"
check "$n: exact" test "$(at "$S" stop 1) $(at "$S" sent 1) $(at "$S" sent_estimated 1)" = "fin 1500 0"
identities "$S" "$n" || fail "$n: identities"

# 6. A signal while waiting ends serving: exit 0, no row for a run that saw nothing; text
# format: one block per run.
n=signal
start_suck "$n" --serve -o text -t 30 || fail "$n: suck did not start"
"$BIN/inject" run "$PORT" 6001 100 10
while [ "$(grep -c '^serve_run:' "$TMP/$n.out")" != 1 ] && kill -0 "$SUCK_PID" 2>/dev/null; do sleep 0.01; done
"$BIN/inject" run "$PORT" 6002 100 20
while [ "$(grep -c '^serve_run:' "$TMP/$n.out")" != 2 ] && kill -0 "$SUCK_PID" 2>/dev/null; do sleep 0.05; done
kill -TERM "$SUCK_PID"
wait "$SUCK_PID"
check "$n: exit 0 on SIGTERM" test $? = 0
check "$n: two reports, no third" test "$(grep -c '^serve_run:' "$TMP/$n.out")" = 2
check "$n: a blank line between them" test "$(grep -c '^$' "$TMP/$n.out")" = 1

# 6b. -j 2: each run's kernel drops are its part of the sockets' counters, read by each thread as
# it stops. Run 1 is slow, run 2 floods a small buffer with slow work: both rows hold the
# identities, and run 2's drops are in run 2's row (more dropped than run 1 ever sent).
n=drops-j2
start_suck "$n" --serve --runs 2 -j 2 -m mmsg -R 64k -w histogram:50 -o tsv -t 30 || fail "$n: suck did not start"
"$BIN/blast" -p "$PORT" -n 2000 -r 20000 -s 1000 -j 4 -o tsv >/dev/null 2>&1
wait_rows "$TMP/$n.out" 1
"$BIN/blast" -p "$PORT" -t 1 -s 1000 -j 4 -o tsv >/dev/null 2>&1
check "$n: suck ends after 2 runs" wait_pid "$SUCK_PID" 20
S=$TMP/$n.out
check "$n: both end on their fins" test "$(at "$S" stop 1) $(at "$S" stop 2)" = "fin fin"
check "$n: run 1's drops are at most its loss ($(at "$S" dropped 1) of $(at "$S" lost 1))" \
	test "$(at "$S" dropped 1)" -le "$(at "$S" lost 1)"
check "$n: run 2's drops are its own ($(at "$S" dropped 2) > 2000)" test "$(at "$S" dropped 2)" -gt 2000
check "$n: identities" identities "$S" "$n"

# 7. Usage: exit 2 with the option named.
for args in "--runs 3" "--run-timeout 1" "--run-id 5,6" "--serve -m xdp" "--serve --runs 0" \
	"--serve --run-timeout x"; do
	# shellcheck disable=SC2086
	"$BIN/suck" $args --check >"$TMP/u.out" 2>"$TMP/u.err"
	check "usage '$args': exit 2" test $? = 2
	check "usage '$args': says which" grep -q -e '--serve' -e '--runs' -e '--run-timeout' -e '--run-id' "$TMP/u.err"
done
"$BIN/suck" --serve --runs 4 --run-timeout 2 -p 0 -o tsv --check >"$TMP/c.out" 2>&1
check "--check reports serve, runs, run_timeout_s" test "$(field "$TMP/c.out" serve) $(field "$TMP/c.out" runs) $(field "$TMP/c.out" run_timeout_s)" = "1 4 2.000"

# 9. blast --fin-time: to a receiver that stays its fins are repeated that long, not 2 s; the
# setting is in --check's row and in the report (fin_time_s).
n=fin-time
check "$n: --check says the default ($("$BIN/blast" --check -p 9 -o tsv 2>/dev/null | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "fin_time_s") c = i } NR == 2 { print $c }'))" \
	test "$("$BIN/blast" --check -p 9 -o tsv 2>/dev/null | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "fin_time_s") c = i } NR == 2 { print $c }')" = 2.000
for a in 0.05 61 1x; do
	"$BIN/blast" --check -p 9 --fin-time "$a" >/dev/null 2>"$TMP/$n.err"
	st=$?
	check "$n: --fin-time $a: exit 2 ($st), naming it ($(cat "$TMP/$n.err"))" \
		sh -c "test $st = 2 && grep -q -- \"--fin-time '$a'\" '$TMP/$n.err'"
done
start_suck "$n" --serve -R 4M -o tsv -t 30 || fail "$n: suck did not start"
t0=$(date +%s%N)
"$BIN/blast" -p "$PORT" -n 100 -s 200 --fin-time 200ms -o tsv >"$TMP/$n.blast" 2>/dev/null
ms=$((($(date +%s%N) - t0) / 1000000))
check "$n: blast ends soon after 200 ms of fins ($ms ms), not after 2 s" test "$ms" -lt 1500
check "$n: the report says fin_time_s 0.200 ($(field "$TMP/$n.blast" fin_time_s))" \
	test "$(field "$TMP/$n.blast" fin_time_s)" = 0.200
check "$n: fins repeated ($(field "$TMP/$n.blast" fins))" test "$(field "$TMP/$n.blast" fins)" -gt 1
wait_rows "$TMP/$n.out" 1
t0=$(date +%s%N)
"$BIN/blast" -p "$PORT" -n 100 -s 200 -o tsv >"$TMP/$n.blast2" 2>/dev/null
ms=$((($(date +%s%N) - t0) / 1000000))
check "$n: without it, 2 s of fins ($ms ms)" test "$ms" -ge 1900
wait_rows "$TMP/$n.out" 2
kill -INT "$SUCK_PID"
check "$n: suck ends on SIGINT" wait_pid "$SUCK_PID" 20
check "$n: both runs whole ($(col "$TMP/$n.out" stop | tr '\n' ' '))" test "$(col "$TMP/$n.out" stop | tr '\n' ' ')" = "fin fin "

done_tests
