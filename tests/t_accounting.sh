# Every variant, on real loopback sockets: the numbers of one run add up exactly, and blast's
# and suck's counts agree. Output formats tsv and json carry the same keys.
. tests/lib.sh

for v in copy buffer mmsg; do
	for fam in 127.0.0.1 ::1; do
		n=$v-$(echo "$fam" | tr -d ':.')
		start_suck "$n" -a "$fam" -m "$v" -o tsv --idle 10 -t 60 || { fail "$n: suck did not start"; continue; }
		"$BIN/blast" -a "$fam" -p "$PORT" -t 0.5 -o tsv >"$TMP/$n.blast" 2>"$TMP/$n.berr"
		check "$n: blast exits 0" test $? -eq 0
		check "$n: suck ends on the fin within 10 s" wait_pid "$SUCK_PID" 10
		S=$TMP/$n.out B=$TMP/$n.blast
		sent=$(field "$S" sent) valid=$(field "$S" valid) lost=$(field "$S" lost)
		dropped=$(field "$S" dropped) elsewhere=$(field "$S" elsewhere) recv=$(field "$S" received)
		check "$n: suck stopped on the fin ($(field "$S" stop))" test "$(field "$S" stop)" = fin
		check "$n: sent ($sent) > 0" test "${sent:-0}" -gt 0
		check "$n: sent == valid + lost ($sent $valid $lost)" test "$sent" -eq $((valid + lost))
		check "$n: dropped <= lost ($dropped $lost)" test "$dropped" -le "$lost"
		check "$n: elsewhere == lost - dropped" test "$elsewhere" -eq $((lost - dropped))
		check "$n: blast's sent equals suck's ($(field "$B" sent) $sent)" test "$(field "$B" sent)" = "$sent"
		check "$n: sent not estimated" test "$(field "$S" sent_estimated)" = 0
		check "$n: received == valid + dup + late + foreign + truncated" \
			test "$recv" -eq $(($(field "$S" valid) + $(field "$S" dup) + $(field "$S" late) + $(field "$S" foreign) + $(field "$S" truncated)))
		check "$n: nothing foreign" test "$(field "$S" foreign)" -eq 0
		check "$n: variant reported" test "$(field "$S" variant)" = "$v"
		if [ "$v" = copy ]; then
			# fins are copied too, but are not "received" (they carry no work)
			check "$n: copy allocates once per datagram" test "$(field "$S" allocs)" -eq $((recv + $(field "$S" fins)))
		else
			check "$n: $v allocates nothing per datagram" test "$(field "$S" allocs)" -eq 0
		fi
	done
done

# Counted runs: -n gives exactly that many datagrams, each one accounted for.
start_suck count -m mmsg -o json --idle 10 -t 60 || fail "count: suck did not start"
"$BIN/blast" -p "$PORT" -n 5000 -r 50k -o json >"$TMP/count.blast" 2>/dev/null
wait_pid "$SUCK_PID" 10
check "count: blast json is one object per line" grep -q '^{"tool":"blast",.*"sent":5000,' "$TMP/count.blast"
check "count: suck json has sent 5000" grep -q '"sent":5000,' "$TMP/count.out"
check "count: suck json's valid+lost add up" \
	awk -F'[:,]' '{ for (i = 1; i < NF; i++) { gsub(/"/, "", $i); v[$i] = $(i+1) } }
	END { exit !(v["sent"] == v["valid"] + v["lost"]) }' "$TMP/count.out"

# The same keys in text (-v), tsv and json.
start_suck keys -o text -v --idle 10 -t 60 || fail "keys: suck did not start"
"$BIN/blast" -p "$PORT" -n 100 -o text >"$TMP/keys.blast" 2>/dev/null
wait_pid "$SUCK_PID" 10
tk=$(sed 's/:.*//' "$TMP/keys.out" | paste -sd ' ' -)
vk=$(head -n 1 "$TMP/buffer-127001.out" | tr '\t' ' ')
check "text -v and tsv keys are the same" test "$tk" = "$vk"
check "text report has sent: 100" grep -q '^sent: *100$' "$TMP/keys.out"

# Without -v the text report fits a screen: the headline keys, the rest left to -v, tsv and json.
start_suck brief --idle 10 -t 60 || fail "brief: suck did not start"
"$BIN/blast" -p "$PORT" -n 100 >"$TMP/brief.blast" 2>/dev/null
wait_pid "$SUCK_PID" 10
check "brief: suck's text report is at most 30 lines ($(wc -l <"$TMP/brief.out"))" test "$(wc -l <"$TMP/brief.out")" -le 30
check "brief: blast's too ($(wc -l <"$TMP/brief.blast"))" test "$(wc -l <"$TMP/brief.blast")" -le 30
for k in sent received valid lost dropped elsewhere pps cpu_ns_per_pkt rss_kib; do
	check "brief: suck says $k" grep -q "^$k: " "$TMP/brief.out"
done
for k in sent pps cpu_ns_per_pkt; do
	check "brief: blast says $k" grep -q "^$k: " "$TMP/brief.blast"
done
check "brief: nothing that was not measured (no '-')" sh -c "! grep -q ': *-$' '$TMP/brief.out' '$TMP/brief.blast'"

# Several flows: one fin each, totals summed.
start_suck flows -m mmsg -o tsv --idle 10 -t 60 || fail "flows: suck did not start"
"$BIN/blast" -p "$PORT" -j 3 -n 30000 -o tsv >"$TMP/flows.blast" 2>/dev/null
wait_pid "$SUCK_PID" 10
check "flows: 3 flows seen" test "$(field "$TMP/flows.out" flows)" = 3
check "flows: sent 30000" test "$(field "$TMP/flows.out" sent)" = 30000
check "flows: blast says 30000" test "$(field "$TMP/flows.blast" sent)" = 30000
check "flows: adds up" test "$(field "$TMP/flows.out" sent)" -eq $(($(field "$TMP/flows.out" valid) + $(field "$TMP/flows.out" lost)))

done_tests
