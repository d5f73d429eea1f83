# suck -m epoll: an event loop on a non-blocking socket. Level- and edge-triggered,
# one recvmsg a datagram or recvmmsg batches: every run ends on its fin with every datagram
# counted, an edge-triggered wakeup drains the socket (a backlog left behind would stall the
# run: no new datagram, no new edge, the fin never read), and every system call is counted:
# with -b 1, calls == received + fins + idle_calls + wakeups exactly. --edge elsewhere: exit 2.
. tests/lib.sh

RUN=4660 # 0x1234

# A backlog: slow work (histogram:400 on 1000 bytes, slower than inject's pace) while bin/inject sends a whole run and its
# three fins at once at the end, then nothing; the socket holds the rest, and only a loop that
# drains to EAGAIN reads the fins before -t. The receive buffer holds the whole run.
for mode in "" "--edge" "-b 16" "-b 16 --edge"; do
	n=backlog$(echo "$mode" | tr -d ' -')
	# shellcheck disable=SC2086
	start_suck "$n" -m epoll $mode -w histogram:400 -s 2000 -R 16M --run-id $RUN -o tsv -t 40 ||
		{ fail "$n: suck did not start"; continue; }
	"$BIN/inject" script "$PORT" $RUN 1000 3000 >"$TMP/$n.inj"
	check "$n: suck ends" wait_pid "$SUCK_PID" 45
	S=$TMP/$n.out I=$TMP/$n.inj
	check "$n: stop fin, not -t: the backlog was drained ($(field "$S" stop))" test "$(field "$S" stop)" = fin
	check "$n: sent == valid + lost" test "$(field "$S" sent)" -eq $(($(field "$S" valid) + $(field "$S" lost)))
	check "$n: a backlog formed: more datagrams than wakeups ($(field "$S" received) > $(field "$S" wakeups))" \
		test "$(field "$S" received)" -gt "$(field "$S" wakeups)"
	if [ "$(field "$S" kernel_drops)" = 0 ]; then
		for k in valid dup reordered sent; do
			check "$n: $k $(field "$S" $k) = $(field "$I" $k)" test "$(field "$S" $k)" = "$(field "$I" $k)"
		done
		check "$n: lost 0" test "$(field "$S" lost)" = 0
	else
		skip "$n: the kernel dropped $(field "$S" kernel_drops); exact counts not compared"
	fi
	check "$n: edge reported" test "$(field "$S" edge)" = "$(case $mode in *edge*) echo 1 ;; *) echo 0 ;; esac)"
done

# blast -n N into suck --edge ends on the fin with valid == N; every call counted.
for mode in "" "--edge" "-b 32" "-b 32 --edge"; do
	n=count$(echo "$mode" | tr -d ' -')
	# shellcheck disable=SC2086
	start_suck "$n" -m epoll $mode -R 8M -o tsv -t 40 || { fail "$n: suck did not start"; continue; }
	"$BIN/blast" -p "$PORT" -s 500 -n 20000 -r 40k -o tsv >"$TMP/$n.blast" 2>/dev/null
	check "$n: suck ends" wait_pid "$SUCK_PID" 30
	S=$TMP/$n.out
	c=$(field "$S" calls) i=$(field "$S" idle_calls) w=$(field "$S" wakeups)
	sum=$(($(field "$S" received) + $(field "$S" fins) + i + w))
	check "$n: stop fin" test "$(field "$S" stop)" = fin
	check "$n: sent 20000 from the fin" test "$(field "$S" sent)" = 20000 -a "$(field "$S" sent_estimated)" = 0
	[ "$(field "$S" kernel_drops)" = 0 ] && check "$n: valid 20000" test "$(field "$S" valid)" = 20000
	check "$n: wakeups > 0 ($w)" test "$w" -gt 0
	check "$n: some idle calls (the tick, EAGAIN) ($i)" test "$i" -gt 0
	case $mode in
	""|--edge)
		check "$n: calls $c == received + fins + idle_calls + wakeups $sum" test "$c" = "$sum" ;;
	*)
		check "$n: calls $c <= received + fins + idle_calls + wakeups $sum" test "$c" -le "$sum" ;;
	esac
	# Edge-triggered, every wakeup ends with the EAGAIN that proves the socket empty.
	case $mode in *edge*) check "$n: idle_calls $i >= wakeups $w (a drain to EAGAIN each)" test "$i" -ge "$w" ;; esac
done

# wakeups is the event loop's: "-" (json null) for the variants without one.
for v in $(variants); do
	[ "$v" = epoll ] && continue
	"$BIN/suck" -p 0 -m "$v" -t 10ms -o tsv >"$TMP/w-$v" 2>/dev/null
	[ -s "$TMP/w-$v" ] || continue # a kernel without the variant
	check "$v: wakeups -" test "$(field "$TMP/w-$v" wakeups)" = "-"
	check "$v: edge -" test "$(field "$TMP/w-$v" edge)" = "-"
	"$BIN/suck" -p 0 -m "$v" --edge >/dev/null 2>"$TMP/edge.err"
	check "--edge with -m $v: exit 2" test $? = 2
	check "--edge with -m $v: says where it applies" grep -q -- "--edge applies to -m epoll; $v has no event loop" "$TMP/edge.err"
done
"$BIN/suck" -p 0 -m epoll -t 10ms -o json >"$TMP/w.json" 2>/dev/null
check "epoll: wakeups 0 in json when nothing came" grep -q '"wakeups":0,' "$TMP/w.json"
"$BIN/suck" -p 0 -m buffer -t 10ms -o json >"$TMP/w.json" 2>/dev/null
check "buffer: wakeups null in json" grep -q '"wakeups":null,' "$TMP/w.json"

done_tests
