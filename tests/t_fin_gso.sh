# Fins on a GSO path: the socket's UDP_SEGMENT size must not cut the fin (WIRE_FIN_LEN, 58
# bytes) when the datagrams are smaller than it. Every size below 58, with -g 2 and with the
# automatic GSO path, one flow and two: suck ends on whole fins, sent is exact, nothing foreign.
. tests/lib.sh

for s in 32 40 57; do
	for j in 1 2; do
		for g in 2 auto; do
			n=s$s-j$j-g$g
			set -- -n 1000 -s "$s" -j "$j"
			[ "$g" = auto ] || set -- "$@" -g "$g"
			if ! start_suck "$n" -w none -o tsv -t 5; then
				fail "$n: suck did not start"
				continue
			fi
			"$BIN/blast" -p "$PORT" "$@" -o tsv >"$TMP/$n.blast" 2>"$TMP/$n.berr"
			st=$?
			if [ $st -eq 4 ] || [ "$(field "$TMP/$n.blast" gso)" = 1 ]; then
				skip "$n: no UDP GSO here: $(head -n 1 "$TMP/$n.berr")"
				kill "$SUCK_PID" 2>/dev/null
				continue
			fi
			check "$n: blast exits 0 (got $st: $(head -n 1 "$TMP/$n.berr"))" test $st -eq 0
			check "$n: suck ends" wait_pid "$SUCK_PID" 15
			S=$TMP/$n.out
			check "$n: suck stopped on the fins ($(field "$S" stop))" test "$(field "$S" stop)" = fin
			check "$n: sent from the fins, not estimated" test "$(field "$S" sent_estimated)" = 0
			check "$n: sent 1000 ($(field "$S" sent))" test "$(field "$S" sent)" = 1000
			check "$n: nothing foreign ($(field "$S" foreign))" test "$(field "$S" foreign)" = 0
		done
	done
done

done_tests
