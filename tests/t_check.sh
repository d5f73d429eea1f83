# blast --check and suck --check: every option, the address and the feature a run needs are
# checked as a run would check them (the same exit and message: 2 bad usage, 4 a feature this
# kernel lacks), and the settings come out as one report row in -o's format; nothing is sent,
# nothing received, and the port suck probed is free the moment it ends.
. tests/lib.sh

# keys FILE FMT: the keys of a report, one a line, in order.
keys() {
	case $2 in
	text) sed 's/:.*//' "$1" ;;
	tsv) head -n 1 "$1" | tr '\t' '\n' ;;
	json) sed -e 's/^{//' -e 's/}$//' "$1" | tr ',' '\n' | sed 's/^"\([a-z_0-9]*\)":.*/\1/' ;;
	esac
}

# --- one row in each format, the same keys in all three
for tool in blast suck; do
	for fmt in text tsv json; do
		"$BIN/$tool" --check -o $fmt >"$TMP/$tool.$fmt" 2>"$TMP/$tool.$fmt.err"
		check "$tool --check -o $fmt: exit 0 ($(cat "$TMP/$tool.$fmt.err"))" test $? = 0
		keys "$TMP/$tool.$fmt" $fmt >"$TMP/$tool.$fmt.keys"
	done
	check "$tool --check -o tsv: a header and one row" test "$(wc -l <"$TMP/$tool.tsv")" = 2
	check "$tool --check -o tsv: as many values as keys" \
		test "$(sed -n 2p "$TMP/$tool.tsv" | tr '\t' '\n' | wc -l)" = "$(wc -l <"$TMP/$tool.tsv.keys")"
	check "$tool --check -o tsv: tool $tool" test "$(field "$TMP/$tool.tsv" tool)" = $tool
	check "$tool --check -o tsv: check 1" test "$(field "$TMP/$tool.tsv" check)" = 1
	check "$tool --check -o json: one object" \
		sh -c "test \$(wc -l <'$TMP/$tool.json') = 1 && grep -q '^{\"tool\":\"$tool\",.*\"check\":1,.*}\$' '$TMP/$tool.json'"
	check "$tool --check -o text: check: 1" grep -q '^check: *1$' "$TMP/$tool.text"
	check "$tool --check: the same keys in text and tsv" cmp -s "$TMP/$tool.text.keys" "$TMP/$tool.tsv.keys"
	check "$tool --check: the same keys in json and tsv" cmp -s "$TMP/$tool.json.keys" "$TMP/$tool.tsv.keys"
	check "$tool --check: nothing on stderr ($(cat "$TMP/$tool.tsv.err"))" test ! -s "$TMP/$tool.tsv.err"
	check "$tool --check: at least 15 keys" test "$(wc -l <"$TMP/$tool.tsv.keys")" -ge 15
done
check "suck --check says no 'listening on'" sh -c "! grep -q 'listening on' '$TMP/suck.tsv.err'"

# --- the row says what a run would use
# is FILE KEY VALUE: the check row's KEY is VALUE.
is() { check "$1: $2 $(field "$1" "$2"), want $3" test "$(field "$1" "$2")" = "$3"; }
"$BIN/blast" --check -o tsv >"$TMP/b1" 2>/dev/null
is "$TMP/b1" batch 1
is "$TMP/b1" gso_auto 1
check "blast --check: GSO of several datagrams by default ($(field "$TMP/b1" gso))" test "$(field "$TMP/b1" gso)" -gt 1
is "$TMP/b1" run_id random
is "$TMP/b1" addr 127.0.0.1:22222
"$BIN/blast" --check -o tsv -a ::1 -p 9 -s 200 -j 4 -n 100 -r 1k --run-id 255 --payload zero >"$TMP/b2" 2>/dev/null
if [ -s "$TMP/b2" ]; then
	is "$TMP/b2" addr "[::1]:9"
	is "$TMP/b2" port 9
	is "$TMP/b2" size 200
	is "$TMP/b2" flows 4
	is "$TMP/b2" batch 32
	is "$TMP/b2" gso 1
	is "$TMP/b2" rate 1000
	is "$TMP/b2" count_limit 100
	is "$TMP/b2" time_limit_s 0.000
	is "$TMP/b2" run_id 000000ff
	is "$TMP/b2" payload zero
else
	skip "no IPv6 here"
fi
for v in $(variants); do
	"$BIN/suck" --check -o tsv -m "$v" >"$TMP/s-$v" 2>"$TMP/s-$v.err"
	st=$?
	[ $st = 4 ] && { skip "suck -m $v: $(cat "$TMP/s-$v.err")"; continue; }
	check "suck --check -m $v: exit $st" test $st = 0
	is "$TMP/s-$v" variant "$v"
done
is "$TMP/s-buffer" batch 1
is "$TMP/s-mmsg" batch 32
is "$TMP/s-epoll" batch 1
is "$TMP/s-epoll" edge 0
is "$TMP/s-pool" batch 32
is "$TMP/s-pool" workers 1
is "$TMP/s-pool" queue 8
is "$TMP/s-pool" queue_full block
is "$TMP/s-buffer" workers -
is "$TMP/s-buffer" edge -
is "$TMP/s-buffer" busy_poll_us 0
"$BIN/suck" --check -o tsv -m pool --workers 3 --queue 5 --queue-full drop -b 16 --busy-poll 20 >"$TMP/s3" 2>/dev/null
is "$TMP/s3" workers 3
is "$TMP/s3" queue 5
is "$TMP/s3" queue_full drop
is "$TMP/s3" batch 16
is "$TMP/s3" busy_poll_us 20
"$BIN/suck" --check -o tsv -m epoll --edge -b 8 >"$TMP/s4" 2>/dev/null
is "$TMP/s4" edge 1
is "$TMP/s4" batch 8
[ -s "$TMP/s-gro" ] && is "$TMP/s-gro" batch 8
"$BIN/suck" --check -o tsv -p 0 -m copy --retain 5 -s 2k -j 3 -w checksum:2 -t 5 --idle 1 --run-id 16 >"$TMP/s2" 2>/dev/null
is "$TMP/s2" port 0
is "$TMP/s2" retain 5
is "$TMP/s2" bufsize 2048
is "$TMP/s2" threads 3
is "$TMP/s2" work checksum:2
is "$TMP/s2" time_limit_s 5.000
is "$TMP/s2" idle_s 1.000
is "$TMP/s2" run_id 00000010
check "suck --check: rcvbuf as the kernel granted it ($(field "$TMP/s2" rcvbuf))" test "$(field "$TMP/s2" rcvbuf)" -gt 0

# --- bad usage: exit 2 and the message a run gives, nothing on stdout
# same TOOL ARGS...: TOOL --check ARGS exits as TOOL ARGS does, with the same message.
same() {
	sm_t=$1; shift
	"$BIN/$sm_t" "$@" >"$TMP/run.out" 2>"$TMP/run.err" </dev/null
	sm_want=$?
	"$BIN/$sm_t" --check "$@" >"$TMP/chk.out" 2>"$TMP/chk.err" </dev/null
	sm_got=$?
	check "$sm_t --check $*: exit $sm_got, as a run's $sm_want" test $sm_got = $sm_want
	check "$sm_t --check $*: the run's message ($(cat "$TMP/chk.err"))" cmp -s "$TMP/run.err" "$TMP/chk.err"
	check "$sm_t --check $*: nothing on stdout" test ! -s "$TMP/chk.out"
}
# bad TOOL ARGS...: as same, and the status is 2.
bad() {
	same "$@"
	check "$1: exit 2 for ${*#"$1"}" test $sm_got = 2
}
bad blast -s 20
bad blast -t 0
bad blast -g 64 -s 1450
bad blast -p 0
bad blast --frobnicate
bad blast -a no.such.host.invalid
# The scripts once ended their pre-flight with -n 1 -j 2 and took blast's refusal of it to mean
# every other option was good; now the pairing is checked like any other.
bad blast -j 4 -n 3
bad blast -j 2 -n 1 -p 9
bad suck -m buffer -b 8
bad suck -m mmsg --retain 3
bad suck -m uring --spin
bad suck -m uring --busy-poll 50
bad suck -m buffer --edge
bad suck -m mmsg --workers 2
bad suck -m pool --queue-full later
bad suck -m mmsg --prefer-busy-poll
bad suck -w histo
# The address was resolved only after the options, at setup.
bad suck -a 300.1.1.1
bad suck -a no.such.host.invalid

# A run key (never on the command line): keyed says it was read; a bad one is bad usage, as in a run.
export BS_RUN_KEY=00112233445566778899aabbccddeeff
"$BIN/blast" --check -o tsv >"$TMP/k1" 2>/dev/null
is "$TMP/k1" keyed 1
"$BIN/suck" --check -o tsv >"$TMP/k2" 2>/dev/null
is "$TMP/k2" keyed 1
is "$TMP/b1" keyed 0
BS_RUN_KEY=nothex
bad blast -p 9 -n 1
bad suck -p 0 -t 1ms
unset BS_RUN_KEY

# --- a missing feature: exit 4 and the run's message, from a kernel that lacks it (simulated by
# a seccomp filter that fails the one call the feature needs)
if "$BIN/nofeature" gro true 2>"$TMP/nf.err"; then
	# nf FEATURE TOOL ARGS...: TOOL --check ARGS on a kernel without FEATURE, as a run there.
	nf() {
		nf_f=$1 nf_t=$2; shift 2
		"$BIN/nofeature" "$nf_f" "$BIN/$nf_t" "$@" >"$TMP/run.out" 2>"$TMP/run.err" </dev/null
		nf_want=$?
		"$BIN/nofeature" "$nf_f" "$BIN/$nf_t" --check "$@" >"$TMP/chk.out" 2>"$TMP/chk.err" </dev/null
		nf_got=$?
		check "no $nf_f: $nf_t --check $*: exit $nf_got, as a run's $nf_want" test $nf_got = $nf_want
		check "no $nf_f: $nf_t --check $*: the run's message ($(cat "$TMP/chk.err"))" \
			cmp -s "$TMP/run.err" "$TMP/chk.err"
	}
	nf gro suck -p 0 -m gro -t 1ms
	check "no gro: suck --check -m gro exits 4" test $nf_got = 4
	nf uring suck -p 0 -m uring -t 1ms
	check "no uring: suck --check -m uring exits 4" test $nf_got = 4
	nf gso blast -p 9 -n 1 -g 4
	check "no gso: blast --check -g 4 exits 4" test $nf_got = 4
	"$BIN/nofeature" gro "$BIN/suck" --check -m mmsg -o tsv >"$TMP/nf.out" 2>&1
	check "no gro: suck --check -m mmsg still exits 0" test $? = 0
	# Without -g, blast falls back to sendmmsg and says so, as a run does: the row says so too.
	"$BIN/nofeature" gso "$BIN/blast" --check -o tsv >"$TMP/nf.out" 2>"$TMP/nf.err"
	check "no gso: blast --check exits 0" test $? = 0
	check "no gso: blast --check says it sends with sendmmsg" grep -q '^blast: note: no UDP GSO here' "$TMP/nf.err"
	is "$TMP/nf.out" gso 1
	is "$TMP/nf.out" batch 32
	is "$TMP/nf.out" gso_auto 0
else
	skip "no seccomp filter here, exit 4 not simulated: $(cat "$TMP/nf.err")"
fi

# --- blast --check sends nothing: a suck on the port sees only the one datagram (and its fin)
# of the run that follows the checks.
n=nothing-sent
if start_suck "$n" -o tsv -t 30; then
	for a in "" "-j 4" "-b 1 -g 1" "-g 8" "--raw" "-r 1k -n 10"; do
		# shellcheck disable=SC2086
		"$BIN/blast" --check -p "$PORT" $a >/dev/null 2>"$TMP/$n.berr"
		check "$n: blast --check -p $PORT $a: exit 0 ($(cat "$TMP/$n.berr"))" test $? = 0
	done
	"$BIN/blast" -p "$PORT" -n 1 -o tsv >/dev/null 2>&1
	check "$n: suck ends on the fin" wait_pid "$SUCK_PID" 20
	S=$TMP/$n.out
	check "$n: received 1 ($(field "$S" received))" test "$(field "$S" received)" = 1
	check "$n: valid 1, sent 1" test "$(field "$S" valid) $(field "$S" sent)" = "1 1"
	check "$n: foreign 0" test "$(field "$S" foreign)" = 0
else
	fail "$n: suck did not start"
fi

# --- suck --check binds as a run would and frees the port at once
n=port
start_suck "$n" -o tsv || fail "$n: suck did not start"
P=$PORT
"$BIN/suck" --check -p "$P" >"$TMP/busy.out" 2>"$TMP/busy.err"
st=$?
check "$n: suck --check on a port in use: exit 1 ($st)" test $st = 1
check "$n: ... naming the bind ($(cat "$TMP/busy.err"))" grep -q "^suck: bind 127.0.0.1:$P: Address already in use" "$TMP/busy.err"
check "$n: ... and no row" test ! -s "$TMP/busy.out"
kill -INT "$SUCK_PID"
wait_pid "$SUCK_PID" 10
for v in $(variants); do
	for j in 1 2; do
		"$BIN/suck" --check -p "$P" -m "$v" -j $j >/dev/null 2>"$TMP/$n.err"
		st=$?
		[ $st = 4 ] && { skip "$n -m $v: $(cat "$TMP/$n.err")"; break; }
		check "$n: suck --check -p $P -m $v -j $j: exit 0 ($(cat "$TMP/$n.err"))" test $st = 0
		# a plain socket, no SO_REUSEPORT: the probe's socket must be gone, not shared
		if start_listener "$n-$v-$j" "$BIN/suck" -p "$P" -m "$v" -o tsv; then
			ok
			kill -INT "$LISTENER_PID"
			wait_pid "$LISTENER_PID" 10
			# A ring's last requests are cancelled by the kernel after the process is gone
			# (io_uring's exit work), so its socket may hold the port a moment longer: wait
			# for that (bounded), it is not --check's doing.
			k=0
			while [ "$v" = uring ] && [ $k -lt 500 ] &&
				! "$BIN/suck" --check -p "$P" -m buffer >/dev/null 2>&1; do
				k=$((k + 1))
				sleep 0.01
			done
		else
			fail "$n: port $P not free right after suck --check -m $v -j $j"
		fi
	done
done

done_tests
