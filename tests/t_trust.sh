# Who may speak for a run: sums that cannot wrap, one owner per flow across threads, --run-id,
# and flows tied to the source they first came from. Strangers are
# bin/inject, each invocation a new source port. Runs are paced with a large receive buffer so
# that nothing is dropped; where the kernel drops anyway the exact checks are skipped, not failed.
. tests/lib.sh

# identities FILE NAME: the accounting identities of DESIGN.md hold in a tsv report.
identities() {
	S=$1 n=$2
	if [ -z "$(field "$S" received)" ]; then
		fail "$n: no report"
		return
	fi
	check "$n: valid <= sent" test "$(field "$S" valid)" -le "$(field "$S" sent)"
	check "$n: sent == valid + lost" test "$(field "$S" sent)" -eq $(($(field "$S" valid) + $(field "$S" lost)))
	check "$n: received == valid + dup + late + foreign + truncated" test "$(field "$S" received)" -eq \
		$(($(field "$S" valid) + $(field "$S" dup) + $(field "$S" late) + $(field "$S" foreign) + $(field "$S" truncated)))
}

# no_drops FILE NAME: 0 when the kernel dropped nothing (exact counts can be compared).
no_drops() {
	[ "$(field "$1" kernel_drops)" = 0 ] && return 0
	skip "$2: the kernel dropped $(field "$1" kernel_drops); exact counts not compared"
	return 1
}

RUN=777

# 2. Sequences no flow can reach, on several flows: sent must not wrap below valid.
n=wrap
start_suck "$n" -s 100 -R 4M -o tsv --idle 1 -t 20 || fail "$n: suck did not start"
"$BIN/inject" data "$PORT" $RUN 100 0 0 1
for f in 1 2 3 4; do "$BIN/inject" data "$PORT" $RUN 100 $f 4611686018427387903 1; done # 2^62 - 1
check "$n: suck ends" wait_pid "$SUCK_PID" 20
S=$TMP/$n.out
identities "$S" "$n"
check "$n: 2^62-1 is malformed, foreign" test "$(field "$S" foreign)" = 4
check "$n: sent 1" test "$(field "$S" sent)" = 1

n=wrap-limit
start_suck "$n" -s 100 -R 4M -o tsv --idle 1 -t 20 || fail "$n: suck did not start"
"$BIN/inject" data "$PORT" $RUN 100 0 0 1
for f in 1 2 3 4; do "$BIN/inject" data "$PORT" $RUN 100 $f 281474976710655 1; done # 2^48 - 1
check "$n: suck ends" wait_pid "$SUCK_PID" 20
S=$TMP/$n.out
identities "$S" "$n"
check "$n: sent is exact, 1 + 4 x 2^48" test "$(field "$S" sent)" = 1125899906842625
check "$n: lost is exact" test "$(field "$S" lost)" = 1125899906842620

# 3. Threads agree on a flow: replays of blast's flow from other sources, which land on
# either socket, and a fin with impossible totals from strangers, are foreign on every thread.
# blast is stopped (SIGSTOP) while the strangers send, so all of theirs are in suck's sockets
# before blast's fin can end the run, however loaded the machine (at -r 8000 without the stop,
# one forged fin once came after blast's under the sanitizers: 803 foreign, not 804).
for v in buffer mmsg epoll pool; do
	n=threads-$v
	start_suck "$n" -m $v -j 2 --run-id $RUN -R 4M -i 0.05 -o tsv --idle 10 -t 60 || fail "$n: suck did not start"
	"$BIN/blast" -p "$PORT" --run-id $RUN -s 500 -n 6000 -r 8000 -o tsv >"$TMP/$n.blast" 2>/dev/null &
	BPID=$!
	PIDS="$PIDS $BPID"
	wait_received "$n"
	kill -STOP "$BPID"
	for src in 1 2 3 4; do
		"$BIN/inject" data "$PORT" $RUN 500 0 0 200
		"$BIN/inject" fin "$PORT" $RUN 500 0 1 1  # fewer than seen, believable to a thread that saw none
	done
	kill -CONT "$BPID"
	check "$n: blast ends" wait_pid "$BPID" 30
	check "$n: suck ends" wait_pid "$SUCK_PID" 30
	S=$TMP/$n.out
	identities "$S" "$n"
	check "$n: ends on blast's fin" test "$(field "$S" stop)" = fin
	check "$n: sent from blast's fin" test "$(field "$S" sent)" = 6000
	check "$n: sent not estimated" test "$(field "$S" sent_estimated)" = 0
	if no_drops "$S" "$n"; then
		check "$n: valid $(field "$S" valid) = 6000" test "$(field "$S" valid)" = 6000
		check "$n: replays foreign ($(field "$S" foreign))" test "$(field "$S" foreign)" = 804
		check "$n: replays from another source ($(field "$S" other_src))" test "$(field "$S" other_src)" = 800
		check "$n: no dup" test "$(field "$S" dup)" = 0
	fi
done

# 4. A stranger cannot steer the run.
# a) A fake run's data before blast's: suck without --run-id locks onto it, and says so.
# blast --fin-time 0.2 where suck believes none of its fins: their 2 s would only wait.
n=early
start_suck "$n" -R 4M -o tsv --idle 1 -t 20 || fail "$n: suck did not start"
"$BIN/inject" data "$PORT" 4242 100 0 0 10
"$BIN/blast" -p "$PORT" --run-id $RUN -s 100 -n 300 -r 3000 --fin-time 0.2 -o tsv >"$TMP/$n.blast" 2>/dev/null
check "$n: suck ends" wait_pid "$SUCK_PID" 20
S=$TMP/$n.out
identities "$S" "$n"
check "$n: locked onto the first run" test "$(field "$S" run_id)" = 00001092
check "$n: blast's datagrams counted as another run's" test "$(field "$S" other_run)" = 300
check "$n: a warning names the other run" grep -q "another run.*00000309.*--run-id" "$TMP/$n.err"
# b) The same with --run-id: the fake run is foreign, blast's run is counted.
n=early-runid
start_suck "$n" --run-id $RUN -R 4M -o tsv --idle 5 -t 20 || fail "$n: suck did not start"
"$BIN/inject" data "$PORT" 4242 100 0 0 10
"$BIN/blast" -p "$PORT" --run-id $RUN -s 100 -n 300 -r 3000 -o tsv >"$TMP/$n.blast" 2>/dev/null
check "$n: suck ends" wait_pid "$SUCK_PID" 20
S=$TMP/$n.out
identities "$S" "$n"
check "$n: the given run" test "$(field "$S" run_id)" = 00000309
check "$n: stop fin" test "$(field "$S" stop)" = fin
check "$n: sent 300" test "$(field "$S" sent)" = 300
check "$n: the fake run is foreign" test "$(field "$S" other_run)" = 10
if no_drops "$S" "$n"; then check "$n: valid 300" test "$(field "$S" valid)" = 300; fi
check "$n: warned about the other run" grep -q "another run.*00001092" "$TMP/$n.err"
# c) A believable fin from another source does not end the run early; d) nor does a datagram
# far ahead from another source keep blast's fin from being believed.
for what in fin ahead; do
	n=steer-$what
	start_suck "$n" --run-id $RUN -R 4M -i 0.05 -o tsv --idle 10 -t 60 || fail "$n: suck did not start"
	"$BIN/blast" -p "$PORT" --run-id $RUN -s 100 -n 6000 -r 4000 -o tsv >"$TMP/$n.blast" 2>/dev/null &
	BPID=$!
	PIDS="$PIDS $BPID"
	wait_received "$n"
	if [ $what = fin ]; then
		"$BIN/inject" fin "$PORT" $RUN 100 0 6000 1
	else
		"$BIN/inject" data "$PORT" $RUN 100 0 1000000000 1
	fi
	check "$n: blast ends" wait_pid "$BPID" 30
	check "$n: suck ends" wait_pid "$SUCK_PID" 30
	S=$TMP/$n.out
	identities "$S" "$n"
	check "$n: ends on blast's fin ($(field "$S" stop))" test "$(field "$S" stop)" = fin
	check "$n: sent 6000 ($(field "$S" sent))" test "$(field "$S" sent)" = 6000
	check "$n: sent not estimated" test "$(field "$S" sent_estimated)" = 0
	check "$n: the stranger is foreign" test "$(field "$S" foreign)" = 1
	if no_drops "$S" "$n"; then check "$n: nothing lost" test "$(field "$S" lost)" = 0; fi
done

# 5. The run key (BS_RUN_KEY or --key-file, never on a command line): what ps shows (the run id,
# the port) is not enough to end a run or set sent.
KEY=0123456789abcdef0123456789abcdef
# a) A forged fin (sent 0) before blast's first datagram: without a key it is believed and ends
# the run; with the key it is a forgery, and blast's own fin ends the run.
for keyed in 0 1; do
	n=forged-early-$keyed
	if [ $keyed = 1 ]; then export BS_RUN_KEY=$KEY; else unset BS_RUN_KEY; fi
	start_suck "$n" --run-id $RUN -R 4M -o tsv --idle 5 -t 20 || fail "$n: suck did not start"
	env -u BS_RUN_KEY "$BIN/inject" fin "$PORT" $RUN 100 0 0 1
	"$BIN/blast" -p "$PORT" --run-id $RUN -s 100 -n 300 -r 3000 -o tsv >"$TMP/$n.blast" 2>/dev/null
	check "$n: suck ends" wait_pid "$SUCK_PID" 20
	S=$TMP/$n.out
	identities "$S" "$n"
	check "$n: keyed $keyed in the report" test "$(field "$S" keyed)" = $keyed
	check "$n: blast says keyed $keyed" test "$(field "$TMP/$n.blast" keyed)" = $keyed
	if [ $keyed = 1 ]; then
		check "$n: the forged fin is counted" test "$(field "$S" forged_fins)" = 1
		check "$n: blast's fin sets sent ($(field "$S" sent))" test "$(field "$S" sent)" = 300
		check "$n: ends on blast's fin" test "$(field "$S" stop)" = fin
		if no_drops "$S" "$n"; then check "$n: valid 300" test "$(field "$S" valid)" = 300; fi
		check "$n: a warning names the forged fin" grep -q "forged_fins" "$TMP/$n.err"
		# its tag is 0 (inject without a key), but blast's fins were believed: not blast's
		check "$n: the warning says the untagged fin was not the run's blast's" \
			grep -q "^suck: warning: 1 fins carried no tag (tag 0: sent without the run key, not by the blast whose fins were believed)" "$TMP/$n.err"
	else
		check "$n: without a key the forged fin ends the run ($(field "$S" received))" \
			test "$(field "$S" sent)" = 0 -a "$(field "$S" stop)" = fin
	fi
done
export BS_RUN_KEY=$KEY
# b) A fin for a flow blast does not use, claiming two flows: forged, so blast's one flow ends
# the run and sets sent.
n=forged-flows
start_suck "$n" --run-id $RUN -R 4M -i 0.05 -o tsv --idle 10 -t 60 || fail "$n: suck did not start"
"$BIN/blast" -p "$PORT" --run-id $RUN -s 100 -n 3000 -r 3000 -o tsv >"$TMP/$n.blast" 2>/dev/null &
BPID=$!
PIDS="$PIDS $BPID"
wait_received "$n"
env -u BS_RUN_KEY "$BIN/inject" fin "$PORT" $RUN 100 1 999999999999 2
check "$n: blast ends" wait_pid "$BPID" 30
check "$n: suck ends" wait_pid "$SUCK_PID" 30
S=$TMP/$n.out
identities "$S" "$n"
check "$n: sent 3000 ($(field "$S" sent))" test "$(field "$S" sent)" = 3000
check "$n: one flow" test "$(field "$S" flows)" = 1
check "$n: forged" test "$(field "$S" forged_fins)" = 1
check "$n: ends on blast's fin" test "$(field "$S" stop)" = fin
# c) One datagram of another size sent first (on a flow blast does not use) no longer decides
# the run's size: blast's fin is believed; with and without a key. d) With --latency, its send
# time (1 ns after the epoch) is outside the run: counted, not sampled.
for keyed in 0 1; do
	n=size-first-$keyed
	if [ $keyed = 1 ]; then export BS_RUN_KEY=$KEY; else unset BS_RUN_KEY; fi
	start_suck "$n" --run-id $RUN --latency -R 4M -o tsv --idle 5 -t 20 || fail "$n: suck did not start"
	INJECT_SEND_NS=1 "$BIN/inject" data "$PORT" $RUN 100 3 0 1
	"$BIN/blast" -p "$PORT" --run-id $RUN -s 500 -n 300 -r 3000 -o tsv >"$TMP/$n.blast" 2>/dev/null
	check "$n: suck ends" wait_pid "$SUCK_PID" 20
	S=$TMP/$n.out
	identities "$S" "$n"
	# fins counts repeats too (blast repeats its fin until suck's port is closed; a loaded
	# machine lets a repeat in before suck's drain ends): at least one, none forged.
	check "$n: blast's fin believed ($(field "$S" fins) fins, $(field "$S" forged_fins) forged)" \
		test "$(field "$S" fins)" -ge 1 -a "$(field "$S" forged_fins)" = 0
	check "$n: ends on the fin ($(field "$S" stop))" test "$(field "$S" stop)" = fin
	check "$n: sent counts blast's 300 and the stranger's flow, estimated ($(field "$S" sent))" \
		test "$(field "$S" sent)" = 301 -a "$(field "$S" sent_estimated)" = 1
	check "$n: the epoch-old send time is outside the run" test "$(field "$S" lat_outside)" = 1
	check "$n: and not in the maximum ($(field "$S" lat_max_us) us)" \
		awk -v m="$(field "$S" lat_max_us)" 'BEGIN { exit !(m + 0 < 10000000) }'
done
export BS_RUN_KEY=$KEY
# d') A send time forged a moment before suck started, within the second the filter once
# allowed (a review's: suck's start - 0.9 s gave lat_max_us 2.02 s beside a p50 of 17 us): before
# suck's start is outside the run, however little before. t0 is read before suck is started,
# so t0 - 0.3 s is before its start by 0.3 s and the time suck took to start.
n=stamp-before-start
t0=$(date +%s%N)
start_suck "$n" --run-id $RUN --latency -R 4M -o tsv --idle 5 -t 20 || fail "$n: suck did not start"
INJECT_SEND_NS=$((t0 - 300000000)) "$BIN/inject" data "$PORT" $RUN 100 3 0 1
"$BIN/blast" -p "$PORT" --run-id $RUN -s 500 -n 300 -r 3000 -o tsv >"$TMP/$n.blast" 2>/dev/null
check "$n: suck ends" wait_pid "$SUCK_PID" 20
S=$TMP/$n.out
identities "$S" "$n"
check "$n: the stamp before suck's start is outside the run ($(field "$S" lat_outside))" \
	test "$(field "$S" lat_outside)" = 1
check "$n: every other valid datagram sampled ($(field "$S" lat_samples))" \
	test "$(field "$S" lat_samples)" = $(($(field "$S" valid) - 1))
check "$n: the forged delay is not the maximum ($(field "$S" lat_max_us) us)" \
	awk -v m="$(field "$S" lat_max_us)" 'BEGIN { exit !(m + 0 < 300000) }'
check "$n: a warning names lat_outside" grep -q "before suck started.*(lat_outside)" "$TMP/$n.err"
# e) A run that sent nothing (blast's first send failed): its keyed fin names the run even
# without --run-id and ends suck at once; without a key suck cannot tell it from a forgery and
# waits for -t.
n=empty-keyed
start_suck "$n" -o tsv -t 30 || fail "$n: suck did not start"
"$BIN/inject" fin "$PORT" 4711 100 0 0 1
check "$n: suck ends on the fin, long before -t" wait_pid "$SUCK_PID" 15
S=$TMP/$n.out
check "$n: stop fin, sent 0" test "$(field "$S" stop)" = fin -a "$(field "$S" sent)" = 0
check "$n: the fin's run" test "$(field "$S" run_id)" = 00001267
unset BS_RUN_KEY
n=empty-unkeyed
start_suck "$n" -o tsv -t 1 || fail "$n: suck did not start"
"$BIN/inject" fin "$PORT" 4711 100 0 0 1
check "$n: suck ends" wait_pid "$SUCK_PID" 15
check "$n: without a key and a run, only -t ends it" test "$(field "$TMP/$n.out" stop)" = time
# f) blast without the key, suck with it: the fins are not believed and suck says why.
n=key-suck-only
BS_RUN_KEY=$KEY start_suck "$n" --run-id $RUN -o tsv --idle 1 -t 20 || fail "$n: suck did not start"
"$BIN/blast" -p "$PORT" --run-id $RUN -s 100 -n 100 -r 2000 --fin-time 0.2 -o tsv >/dev/null 2>&1
check "$n: suck ends" wait_pid "$SUCK_PID" 20
check "$n: not on a fin" test "$(field "$TMP/$n.out" stop)" = idle
check "$n: the warning asks about the key" grep -q "same run key" "$TMP/$n.err"
# Its fins carry tag 0, blast's mark of no key: the warning says first that blast seems to have
# run without the key, with the count of such fins, and does not call them another key's tags.
c=$(field "$TMP/$n.out" forged_fins)
check "$n: the fins not believed ($c)" test "$c" -gt 0
check "$n: the warning opens with: blast seems to have run without the key" \
	grep -q "^suck: warning: blast seems to have run without the run key: $c fins carried no tag (tag 0" "$TMP/$n.err"
check "$n: ... not that a tag was forged" sh -c "! grep -q 'a tag the run key did not make' '$TMP/$n.err'"
# f') blast with another key: its tags are wrong, not absent, and the warning says that.
n=key-other
BS_RUN_KEY=$KEY start_suck "$n" --run-id $RUN -o tsv --idle 1 -t 20 || fail "$n: suck did not start"
BS_RUN_KEY=fedcba9876543210fedcba9876543210 "$BIN/blast" -p "$PORT" --run-id $RUN -s 100 -n 100 -r 2000 --fin-time 0.2 \
	-o tsv >/dev/null 2>&1
check "$n: suck ends" wait_pid "$SUCK_PID" 20
c=$(field "$TMP/$n.out" forged_fins)
check "$n: the fins not believed ($c)" test "$c" -gt 0 -a "$(field "$TMP/$n.out" stop)" = idle
check "$n: the warning: tags the key did not make, and asks about the key" \
	grep -q "^suck: warning: $c fins carried a tag the run key did not make; .*same run key" "$TMP/$n.err"
check "$n: ... and does not say blast had no key" sh -c "! grep -q 'without the run key' '$TMP/$n.err'"
# g) The key is taken from a file or standard input, and a bad one is refused by both tools.
printf '%s\n' "$KEY" >"$TMP/key"
n=key-file
start_suck "$n" --run-id $RUN --key-file "$TMP/key" -o tsv --idle 5 -t 20 || fail "$n: suck did not start"
printf '%s\n' "$KEY" | "$BIN/blast" -p "$PORT" --run-id $RUN --key-file - -s 100 -n 100 -r 2000 -o tsv \
	>"$TMP/$n.blast" 2>/dev/null
check "$n: suck ends" wait_pid "$SUCK_PID" 20
check "$n: ends on the keyed fin" test "$(field "$TMP/$n.out" stop)" = fin -a "$(field "$TMP/$n.out" keyed)" = 1
check "$n: blast keyed from stdin" test "$(field "$TMP/$n.blast" keyed)" = 1
check "$n: the key is not on suck's command line" sh -c "! grep -q $KEY /proc/$SUCK_PID/cmdline 2>/dev/null"
for tool in blast suck; do
	BS_RUN_KEY=0123 "$BIN/$tool" -p 9 -t 1 >/dev/null 2>"$TMP/bad.err"
	check "$tool: a short BS_RUN_KEY: exit 2" test $? = 2
	check "$tool: names BS_RUN_KEY" grep -q BS_RUN_KEY "$TMP/bad.err"
	"$BIN/$tool" --key-file "$TMP/nonexistent" -p 9 -t 1 >/dev/null 2>"$TMP/bad.err"
	check "$tool: a missing key file: exit 2" test $? = 2
	check "$tool: names the file" grep -q "nonexistent" "$TMP/bad.err"
done

# --run-id is checked like blast's.
for bad in 0 4294967296 x 1x; do
	"$BIN/suck" --run-id "$bad" >/dev/null 2>"$TMP/bad.err"
	check "--run-id $bad: exit 2" test $? = 2
	check "--run-id $bad: names the option" grep -q -- "--run-id" "$TMP/bad.err"
done

done_tests
