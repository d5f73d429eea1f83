# scripts/suite --wire --ceiling (scripts/lib/dropceiling.sh): in every round the same blast into an
# XDP_DROP on suck's end of the veth. A short run of two variants and two rounds has a row per
# round in ceiling.tsv with a count above 0 and its rate computed as documented, runs.tsv's
# of_ceiling is each run's suck_pps over its round's ceiling, and table.md's "of ceiling" cell
# is the median (least..most) of the ratios this test computes from runs.tsv and ceiling.tsv,
# with the sentence on the ceiling under the table; nothing is left after it, after native XDP
# was refused (--mtu 9000: exit 4), nor after a SIGTERM while the drop holds. --ceiling without
# --wire, or with what it cannot go with, is bad usage (exit 2). No rate or ratio's size is
# asserted, only their consistency. Runs: 4 of 0.5 s and 2 ceilings, then one of 2 s and its
# ceiling interrupted; the traffic stays in the namespaces the suite makes, on 198.18.0.0/15.
# shellcheck disable=SC2016 # the table's backquotes are text
. tests/lib.sh
export GNUPLOT=/nonexistent/gnuplot # no plots: -P

# --- bad usage, found before anything is made (root or not)
wbad() {
	wb_says=$1
	shift
	wb_st=0
	"$@" >"$TMP/bad.out" 2>"$TMP/bad.err" || wb_st=$?
	check "$*: exit 2 (got $wb_st)" test "$wb_st" -eq 2
	check "$*: says \"$wb_says\"" grep -qF -- "$wb_says" "$TMP/bad.err"
}
wbad "--ceiling: only with --wire" sh scripts/suite --ceiling -m buffer -o "$TMP/bad"
wbad "--ceiling and --rtt:" sh scripts/suite --wire --ceiling --rtt -o "$TMP/bad"
wbad "--ceiling and --senders:" sh scripts/suite --wire --ceiling --senders 2 -o "$TMP/bad"
wbad "--ceiling and -a '2001:2::2': the XDP drop counts IPv4 datagrams only" sh scripts/suite --wire --ceiling -a 2001:2::2 -o "$TMP/bad"
check "bad usage: nothing written" test ! -e "$TMP/bad"
check "-h: --ceiling in the usage" sh -c 'sh scripts/suite -h | grep -q "^  --ceiling "'

need_root_ip "--wire --ceiling"
if ! ip netns add "bs-wire-probe-$$" 2>"$TMP/ip.err"; then
	skip "cannot make network namespaces here: $(head -n 1 "$TMP/ip.err")"
	done_tests
	exit
fi
ip netns del "bs-wire-probe-$$"

# gone PID: no namespace of suite PID is left, and no device of its veth anywhere here (its XDP
# program went with the device).
gone() {
	for g in "bs-wire-$1-blast" "bs-wire-$1-suck"; do
		! ip netns list 2>/dev/null | grep -q "^$g\( \|$\)" || { echo "namespace $g left"; return 1; }
	done
	! ip -o link show 2>/dev/null | grep -q "bs$(printf '%07d' "$1")" || { echo "a device of suite $1 left"; return 1; }
	! ip -all netns exec ip -o link show 2>/dev/null | grep -q "bs$(printf '%07d' "$1")" || { echo "a device of suite $1 left in a namespace"; return 1; }
}
# num_gt X Y: X is a number greater than Y.
num_gt() { awk -v x="$1" -v y="$2" 'BEGIN { exit !(x ~ /^[0-9]+(\.[0-9]+)?$/ && x + 0 > y + 0) }'; }

D=$TMP/c
sh scripts/suite --wire --ceiling -t 0.5 -r 2 -W 0 -m "mmsg buffer" -P -o "$D" >"$TMP/c.out" 2>"$TMP/c.err" &
P=$!
PIDS="$PIDS $P"
if wait_pid "$P" 60; then wait "$P"; st=$?; else st=hung; kill -TERM "$P"; fi
if [ "$st" = 4 ] && grep -q -- '--\(wire\|ceiling\) .*: not supported here (exit 4)' "$TMP/c.err"; then
	# root, but no veth or no native XDP on it here
	skip "$(grep -- 'not supported here' "$TMP/c.err" | head -n 1)"
	gone "$P"
	check "exit 4: nothing left behind" test $? -eq 0
	done_tests
	exit
fi
check "suite --wire --ceiling: exit 0 (got $st: $(tail -n 1 "$TMP/c.err"))" test "$st" = 0
[ "$st" = 0 ] || tail -n 20 "$TMP/c.err"
gone "$P"
check "suite --wire --ceiling: nothing left behind" test $? -eq 0

C=$D/ceiling.tsv R=$D/runs.tsv
check "ceiling.tsv: its columns" has_cols "$C" run sent fins duration_s dropped dropped_pps noisy
check "ceiling.tsv: a row for each of the 2 rounds" test "$(col "$C" run | tr '\n' ' ')" = "1 2 "
for r in 1 2; do
	row=$(awk -F'\t' -v r="$r" 'NR > 1 && $1 == r { print $2, $3, $4, $5, $6 }' "$C")
	# shellcheck disable=SC2086 # the row's words
	set -- ${row:-- - - - -}
	check "round $r: the drop counted datagrams ($4)" num_gt "${4:-0}" 0
	check "round $r: no more than blast sent, fins included ($4 <= $1 + $2)" awk -v s="$1" -v f="$2" -v n="$4" \
		'BEGIN { exit !(s ~ /^[0-9]+$/ && f ~ /^[0-9]+$/ && n ~ /^[0-9]+$/ && n + 0 <= s + f) }'
	check "round $r: dropped_pps = (dropped - fins) / duration_s ($5)" awk -v s="$1" -v f="$2" -v d="$3" -v n="$4" -v p="$5" \
		'BEGIN { q = (n - f) / d; exit !(p > 0 && p - q < 0.51 && q - p < 0.51) }'
	check "round $r: blast's report of the ceiling run kept" test -s "$D/raw/xdp-drop-$r.blast.tsv"
done
check "runs.tsv: of_ceiling after received_pct" sh -c "head -n 1 '$R' | cut -f 3,4 | grep -q '^received_pct	of_ceiling$'"
check "runs.tsv: the ceiling is no variant's row" sh -c "! cut -f 1 '$R' | grep -q xdp-drop"
# each run's ratio, from runs.tsv and ceiling.tsv here: suck_pps / its round's dropped_pps
awk -F'\t' 'NR == FNR { if (FNR > 1) c[$1] = $6; next }
	FNR == 1 { for (i = 1; i <= NF; i++) { if ($i == "suck_pps") p = i; if ($i == "of_ceiling") o = i }; next }
	{ print $1, $2, $p / c[$2], $o }' "$C" "$R" >"$TMP/ratios"
check "runs.tsv: a ratio per run of each variant (4)" test "$(wc -l <"$TMP/ratios")" -eq 4
while read -r v r mine theirs; do
	check "$v run $r: of_ceiling $theirs = suck_pps / dropped_pps ($mine)" awk -v a="$mine" -v b="$theirs" \
		'BEGIN { exit !(b ~ /^[0-9]+\.[0-9]+$/ && a - b < 0.00006 && b - a < 0.00006) }'
done <"$TMP/ratios"

T=$D/table.md
check "table.md: the receive path's table has the column" grep -q '| of ceiling *|$' "$T"
for v in mmsg buffer; do
	# the cell: the last of the variant's row in the table with the column
	cell=$(awk -v v="$v" '/\| of ceiling *\|$/ { t = 1; next } t && /^$/ { exit }
		t && $0 ~ "^\\| " v " " { n = split($0, f, "|"); c = f[n - 1]; gsub(/^ +| +$/, "", c); print c; exit }' "$T")
	want=$(awk -v v="$v" '$1 == v { a[++n] = $3 } END {
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		m = n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		print m, a[1], a[n] }' "$TMP/ratios")
	check "table.md: $v's of ceiling '$cell' is the median (least..most) of its rounds' ratios ($want)" \
		awk -v c="$cell" -v w="$want" 'function near(x, y) { return x - y <= 0.0051 && y - x <= 0.0051 }
		BEGIN {
			split(w, e, " ")
			if (c ~ /^[0-9]+\.[0-9][0-9]$/)
				exit !(near(c, e[1]) && near(c, e[2]) && near(c, e[3]))
			if (c !~ /^[0-9]+\.[0-9][0-9] \([0-9]+\.[0-9][0-9]\.\.[0-9]+\.[0-9][0-9]\)$/)
				exit 1
			split(c, g, /[ ().]+/)
			m = g[1] "." g[2]; lo = g[3] "." g[4]; hi = g[5] "." g[6]
			exit !(near(m, e[1]) && near(lo, e[2]) && near(hi, e[3]))
		}'
done
check "table.md: the sentence on the ceiling, under the table" \
	grep -q '^Ceiling (--ceiling, ceiling.tsv): in each round the same blast, `blast -a 198.18.0.2 -p 4321 .*--fin-time 0.1`, into an XDP_DROP .* datagrams/s, the median (least..most) of 2 rounds ' "$T"
nq=$(awk -F'\t' 'NR > 1 && $7 == 1 { n++ } END { print n + 0 }' "$C")
if [ "$nq" -gt 0 ]; then
	check "table.md: its $nq noisy ceiling run(s) said" grep -q " $nq of the 2 ceiling runs were noisy " "$T"
else
	check "table.md: no noisy ceiling run, none said" sh -c '! grep -q "ceiling runs were noisy" "$1"' sh "$T"
fi
check "env.txt: the ceiling's line" grep -q '^ceiling: each round, the same blast .*(bin/ladder xdp bs[0-9]*r 4321, native mode)' "$D/env.txt"
check "env.txt: the ceiling's blast ran in blast's namespace" grep -q "^cmd: ip netns exec bs-wire-$P-blast .*/blast -a 198.18.0.2 -p 4321 .* --fin-time 0.1" "$D/env.txt"

# Native XDP refused (veth takes none above about 3.5 KB of MTU): exit 4 with the reason, before
# anything is written, and nothing left.
sh scripts/suite --wire --ceiling --mtu 9000 -s 8000 -t 0.3 -r 1 -W 0 -m buffer -P -o "$TMP/jumbo" >/dev/null 2>"$TMP/jumbo.err" &
P=$!
PIDS="$PIDS $P"
if wait_pid "$P" 30; then wait "$P"; st=$?; else st=hung; kill -TERM "$P"; fi
check "--mtu 9000: exit 4 (got $st: $(tail -n 1 "$TMP/jumbo.err"))" test "$st" = 4
check "--mtu 9000: says why" grep -q -- '--ceiling needs native XDP on bs[0-9]*r, .*(--mtu 9000: .*: not supported here (exit 4)' "$TMP/jumbo.err"
check "--mtu 9000: nothing written" test ! -e "$TMP/jumbo"
gone "$P"
check "--mtu 9000: nothing left behind" test $? -eq 0

# SIGTERM while the drop holds (its program on suck's end of the veth): 143, nothing left, and
# what ran in the namespaces (bin/ladder, blast) ended.
sh scripts/suite --wire --ceiling -t 2 -r 1 -W 0 -m buffer -P -o "$TMP/term" >/dev/null 2>"$TMP/term.err" &
P=$!
PIDS="$PIDS $P"
# holding P: suite P's ceiling run has begun (bin/ladder's messages in its staging raw/) and the
# program is on the veth (not the check before the first run, which takes it off at once)
holding() {
	[ -e "$TMP/.term.$1.tmp/raw/xdp-drop-1.suck.err" ] && ip -n "bs-wire-$1-suck" link show 2>/dev/null | grep -q 'prog/xdp'
}
i=0
while ! holding "$P" && kill -0 "$P" 2>/dev/null && [ $i -lt 1500 ]; do
	i=$((i + 1))
	sleep 0.01
done
held=0
! holding "$P" || held=1
inside=$(ip netns pids "bs-wire-$P-suck" 2>/dev/null; ip netns pids "bs-wire-$P-blast" 2>/dev/null)
kill -TERM "$P"
if wait_pid "$P" 15; then wait "$P"; st=$?; else st=hung; fi
check "SIGTERM: the XDP drop was on the veth when it came" test "$held" = 1
check "SIGTERM while the drop holds: exit 143 (got $st)" test "$st" = 143
gone "$P"
check "SIGTERM: no namespace, device or XDP program left" test $? -eq 0
alive=
for p in $inside; do kill -0 "$p" 2>/dev/null && alive="$alive $p"; done
check "SIGTERM: what ran in them ended ($inside)" test -z "$alive"
check "SIGTERM: nothing written" test ! -e "$TMP/term"

done_tests
