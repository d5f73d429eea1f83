# suck's calls and idle_calls: every receive system call counted. One call per datagram for
# copy and buffer (and mmsg -b 1): calls == received + fins + idle_calls exactly; batching
# variants make fewer calls than datagrams when several are queued, never more than that sum.
. tests/lib.sh

for v in copy buffer "mmsg -b 1" mmsg gro uring; do
	n=calls-$(echo "$v" | tr -d ' ')
	# shellcheck disable=SC2086
	start_suck "$n" -m $v -R 4M -o tsv -t 30 || { skip "$n: $(cat "$TMP/$n.err")"; continue; }
	"$BIN/blast" -p "$PORT" -s 200 -n 3000 -r 30k -o tsv >/dev/null 2>&1
	check "$n: suck ends" wait_pid "$SUCK_PID" 20
	S=$TMP/$n.out
	c=$(field "$S" calls) i=$(field "$S" idle_calls) sum=$(($(field "$S" received) + $(field "$S" fins) + $(field "$S" idle_calls)))
	check "$n: some idle calls (the 20 ms tick) ($i)" test "$i" -gt 0
	case $v in
	copy|buffer|"mmsg -b 1")
		check "$n: calls $c == received + fins + idle_calls $sum" test "$c" = "$sum" ;;
	*)
		check "$n: calls $c <= received + fins + idle_calls $sum" test "$c" -le "$sum"
		check "$n: calls $c > idle_calls $i" test "$c" -gt "$i" ;;
	esac
done

# gro polls before it sleeps only as much as its last batch was worth (a quarter of its
# datagrams): fed one datagram at a time it sleeps at once, so its empty calls are the tick's
# and the few polls after a batch that queued up, far fewer than the datagrams (polling a
# fixed 128 times after each one made about 128 empty calls per datagram).
n=calls-gro-paced
start_suck "$n" -m gro -R 4M -o tsv -t 30 || fail "$n: suck did not start"
"$BIN/blast" -p "$PORT" -s 200 -n 2000 -r 2k -o tsv >/dev/null 2>&1
check "$n: suck ends" wait_pid "$SUCK_PID" 20
S=$TMP/$n.out
r=$(field "$S" received) i=$(field "$S" idle_calls)
check "$n: idle_calls $i < received $r" test "$i" -lt "$r"

# A burst queued before suck reads it: mmsg takes it in batches of 32.
n=calls-burst
start_suck "$n" -m mmsg -R 8M -o tsv -t 30 -w histogram:20 || fail "$n: suck did not start"
"$BIN/blast" -p "$PORT" -s 200 -n 3200 -o tsv >/dev/null 2>&1
wait_pid "$SUCK_PID" 20
S=$TMP/$n.out
if [ "$(field "$S" kernel_drops)" = 0 ]; then
	check "$n: fewer calls ($(field "$S" calls)) than datagrams" test "$(field "$S" calls)" -lt "$(field "$S" received)"
fi

# copy, a failed allocation: the datagram the call took is counted and worked
# on, then the run ends on the error, so the identity holds on that path too. Under ulimit -v,
# --retain keeps every copy alive until malloc fails, some 20000 datagrams in.
n=calls-copy-nomem
if (ulimit -v 40000 && "$BIN/suck" -V) >/dev/null 2>&1; then
	start_listener "$n" sh -c 'ulimit -v 40000 && exec "$0" -p 0 -m copy --retain 100000 -s 2000 -R 8M -o tsv -t 30' \
		"$BIN/suck" || fail "$n: suck did not start"
	"$BIN/blast" -p "$PORT" -s 1400 -n 50000 -r 50k -o tsv >/dev/null 2>&1
	check "$n: suck ends" wait_pid "$LISTENER_PID" 20
	S=$TMP/$n.out
	check "$n: malloc failed: $(grep -v listening "$TMP/$n.err" | head -n 2)" grep -q 'suck: malloc: Cannot allocate memory' "$TMP/$n.err"
	check "$n: stop error" test "$(field "$S" stop)" = error
	c=$(field "$S" calls) sum=$(($(field "$S" received) + $(field "$S" fins) + $(field "$S" idle_calls)))
	check "$n: calls $c == received + fins + idle_calls $sum" test "$c" = "$sum"
	check "$n: the datagram without a copy is received: allocs $(field "$S" allocs) + 1 == received" \
		test $(($(field "$S" allocs) + 1)) = "$(field "$S" received)"
else
	skip "$n: suck does not start under ulimit -v (a sanitizer build)"
fi

done_tests
