# Two hosts: the suite with SUCK_CMD and BLAST_CMD prefixes and -a, across two network namespaces
# joined by a veth pair (198.19.77.1 sends, 198.19.77.2 receives), a plain run and one of
# --under-load (the probe and the flood from one, suck --echo on the other). Needs root and iproute2; skips
# with a message otherwise. The namespaces carry this test's pid, so parallel runs do not collide,
# and are deleted on exit.
. tests/lib.sh

NSA=bs-a-$$
NSB=bs-b-$$
need_root_ip "two-host test"
# shellcheck disable=SC2154 # p is the loop variable inside the trap
trap 'ip netns del "$NSA" 2>/dev/null; ip netns del "$NSB" 2>/dev/null; for p in $PIDS; do kill "$p" 2>/dev/null; done; rm -rf "$TMP"' EXIT
if ! { ip netns add "$NSA" && ip netns add "$NSB" &&
	ip link add "va$$" netns "$NSA" type veth peer name "vb$$" netns "$NSB" &&
	ip -n "$NSA" addr add 198.19.77.1/24 dev "va$$" && ip -n "$NSB" addr add 198.19.77.2/24 dev "vb$$" &&
	ip -n "$NSA" link set "va$$" up && ip -n "$NSB" link set "vb$$" up; } 2>"$TMP/ip.err"; then
	skip "cannot make network namespaces here: $(head -n 1 "$TMP/ip.err")"
	done_tests
	exit
fi

D=$TMP/two
# --retry 0: its commands are counted, and a noisy run measured again would add its own
SUCK_CMD="ip netns exec $NSB" BLAST_CMD="ip netns exec $NSA" GNUPLOT=/nonexistent/gnuplot \
	sh scripts/suite -t 1 -r 1 -W 0 --retry 0 -m "buffer mmsg" -a 198.19.77.2 -o "$D" >"$TMP/two.out" 2>"$TMP/two.err"
st=$?
check "suite across namespaces exits 0" test "$st" -eq 0
[ "$st" -eq 0 ] || tail -n 20 "$TMP/two.err"
# c NAME: the column NAME of runs.tsv, values joined by spaces
c() { awk -F'\t' -v k="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) n = i; next } { printf "%s ", $n }' "$D/runs.tsv"; }
check "a row per variant" test "$(c variant)" = "buffer mmsg "
check "suck bound 198.19.77.2" sh -c "echo '$(c suck_addr)' | grep -q '^198\.19\.77\.2:[0-9]* 198\.19\.77\.2:[0-9]* $'"
check "blast sent to 198.19.77.2" sh -c "echo '$(c blast_addr)' | grep -q '^198\.19\.77\.2:[0-9]* 198\.19\.77\.2:[0-9]* $'"
check "datagrams crossed the veth" awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "suck_valid") n = i; next } !($n > 0) { bad = 1 } END { exit bad }' "$D/runs.tsv"
check "the fin crossed too" test "$(c suck_stop)" = "fin fin "
check "env.txt: the prefixes" sh -c "grep -q '^suck_cmd: ip netns exec $NSB$' '$D/env.txt' && grep -q '^blast_cmd: ip netns exec $NSA$' '$D/env.txt'"
check "env.txt: commands run through them" test "$(grep -c "^cmd: ip netns exec $NSB .*/suck -a 198.19.77.2 -p 0 " "$D/env.txt")" -eq 2
check "env.txt: both hosts described" grep -q '^blast_host.net.core.rmem_max: ' "$D/env.txt"

# --under-load across the same two "hosts": the probe and the flood from one, suck --echo on the other
U=$TMP/under
SUCK_CMD="ip netns exec $NSB" BLAST_CMD="ip netns exec $NSA" GNUPLOT=/nonexistent/gnuplot \
	sh scripts/suite --under-load -t 0.5 -r 1 -W 0 -m mmsg -a 198.19.77.2 -o "$U" >"$TMP/under.out" 2>"$TMP/under.err"
st=$?
check "under-load across namespaces exits 0 ($st: $(tail -n 2 "$TMP/under.err" | tr '\n' ' '))" test "$st" -eq 0
u() { awk -F'\t' -v k="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) n = i; next } { printf "%s ", $n }' "$U/runs.tsv"; }
check "under-load: a row alone and a row loaded ($(u phase))" test "$(u phase)" = "alone loaded "
check "under-load: every probe request answered or lost ($(u blast_sent) / $(u blast_transactions) / $(u blast_rtt_lost))" \
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		!($c["blast_sent"] > 0 && $c["blast_sent"] == $c["blast_transactions"] + $c["blast_rtt_lost"]) { bad = 1 } END { exit bad }' "$U/runs.tsv"
check "under-load: the flood crossed (flood_received $(u flood_received))" sh -c "echo '$(u flood_received)' | awk '{ exit !(\$2 > 0) }'"
check "under-load: suck --echo ran through the receiving prefix" grep -q "^cmd: ip netns exec $NSB .*/suck .*--echo" "$U/env.txt"

done_tests
