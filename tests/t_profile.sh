# scripts/profile and bare copy, quickly and without judging speed: bare copy
# reports a rate for every piece size and refuses what it does not take; scripts/profile makes
# its table and figures for one size, each tool's five shares adding up to its samples, the
# rates positive, and refuses bad usage. Without perf (or where perf may not record) the
# script's exit is 4 with a message, which is what is checked then.
. tests/lib.sh

for s in 64 1450 65507; do
	"$BIN/bare" copy -s $s -t 0.2 >"$TMP/copy$s" 2>"$TMP/copy$s.err"
	check "bare copy -s $s: exit 0 ($(cat "$TMP/copy$s.err"))" test $? = 0
	check "bare copy -s $s: a rate ($(field "$TMP/copy$s" gbytes_per_s) GB/s)" \
		awk -v g="$(field "$TMP/copy$s" gbytes_per_s)" -v b="$(field "$TMP/copy$s" bytes)" 'BEGIN { exit !(g > 0 && b >= 60000) }'
	check "bare copy -s $s: from own" test "$(field "$TMP/copy$s" from)" = own
done
"$BIN/bare" copy -s 1450 -t 0.2 --from 0 --cpu "$(($(nproc) > 1 ? 1 : 0))" >"$TMP/from" 2>"$TMP/from.err"
check "bare copy --from: exit 0 ($(cat "$TMP/from.err"))" test $? = 0
check "bare copy --from: from other, a rate" \
	awk -v f="$(field "$TMP/from" from)" -v g="$(field "$TMP/from" gbytes_per_s)" 'BEGIN { exit !(f == "other" && g > 0) }'
for args in "copy -t 1" "copy -s 64" "copy -s 64 -t 1 -p 5" "copy -s 64 -t 1 -b 4" "recv -p 0 --from 0"; do
	# shellcheck disable=SC2086
	"$BIN/bare" $args >/dev/null 2>"$TMP/bad.err"
	check "bare $args: exit 2 ($(cat "$TMP/bad.err"))" test $? = 2
done

BIN=$BIN sh scripts/profile -x >/dev/null 2>"$TMP/u.err"
check "profile -x: exit 2" test $? = 2
BIN=$BIN sh scripts/profile -t 0.1 >/dev/null 2>"$TMP/u.err"
check "profile -t 0.1: exit 2 ($(head -n 1 "$TMP/u.err"))" grep -q -- "-t '0.1': seconds, 0.5..60" "$TMP/u.err"
BIN=$BIN sh scripts/profile -s 20 >/dev/null 2>"$TMP/u.err"
check "profile -s 20: exit 2" grep -q -- "-s '20': bytes, 32..65507" "$TMP/u.err"
PERF=/nonexistent/perf BIN=$BIN sh scripts/profile -t 0.5 -o "$TMP/np/latest.txt" >/dev/null 2>"$TMP/np.err"
check "no perf: exit 4" test $? = 4
check "no perf: says so ($(cat "$TMP/np.err"))" grep -q "no perf on PATH" "$TMP/np.err"
check "no perf: nothing written" test ! -e "$TMP/np/latest.txt"

BIN=$BIN sh scripts/profile -t 0.5 -s 256 -o "$TMP/p/latest.txt" >"$TMP/p.out" 2>"$TMP/p.err"
st=$?
if [ $st = 4 ]; then
	skip "perf cannot record here: $(tail -n 1 "$TMP/p.err")"
else
	check "profile: exit 0 ($(tail -n 2 "$TMP/p.err" | tr '\n' ' '))" test $st = 0
	T=$TMP/p/latest.tsv
	check "profile: two rows" test "$(awk 'END { print NR }' "$T" 2>/dev/null)" = 3
	for tool in blast suck; do
		row=$(awk -F'\t' -v t=$tool '$1 == t' "$T")
		check "profile $tool: shares add up to 100 ($row)" awk -F'\t' -v t=$tool \
			'$1 == t { s = $5 + $6 + $7 + $8 + $9; ok = s > 97 && s < 103 } END { exit !ok }' "$T"
		check "profile $tool: size 256, pps, cpu, a bound" awk -F'\t' -v t=$tool \
			'$1 == t { ok = $2 == 256 && $3 > 0 && $4 > 0 && $10 > 0 && $11 > 0 && $12 > 0 } END { exit !ok }' "$T"
	done
	check "profile: the table has both tools" test "$(grep -c '^| \(blast\|suck\) | 256 |' "$TMP/p/latest.txt")" = 2
	check "profile: the table names perf's event" grep -q "^perf event: " "$TMP/p/latest.txt"
fi
done_tests
