# -i interval lines in each format: text for people; with -o tsv a header line and
# one row per interval, with -o json one object per line; the keys and units of the report,
# still on stderr. A 2 s run with -i 0.25 gives 8 lines, give or take one.
. tests/lib.sh

for fmt in tsv json text; do
	n=iv-$fmt
	start_suck "$n" -o $fmt -i 0.25 -R 4M -t 30 || fail "$n: suck did not start"
	"$BIN/blast" -p "$PORT" -t 2 -r 20k -s 200 -o $fmt -i 0.25 >"$TMP/$n.blast" 2>"$TMP/$n.berr"
	check "$n: suck ends" wait_pid "$SUCK_PID" 20
	case $fmt in
	tsv)
		for who in berr err; do
			f=$TMP/$n.$who
			grep -v '^suck: \|^blast: ' "$f" >"$f.rows"
			tool=blast; [ $who = err ] && tool=suck
			check "$n $tool: a header line" sh -c "head -n 1 '$f.rows' | grep -q '^tool	t_s	'"
			check "$n $tool: one header" test "$(grep -c '^tool	' "$f.rows")" = 1
			rows=$(grep -c "^$tool	" "$f.rows")
			check "$n $tool: 7..9 rows ($rows)" test "$rows" -ge 7 -a "$rows" -le 9
			check "$n $tool: every row as wide as the header" \
				awk -F'\t' 'NR == 1 { w = NF } NF != w { exit 1 }' "$f.rows"
			check "$n $tool: t_s rises" awk -F'\t' 'NR > 1 && $2 + 0 <= last { exit 1 } NR > 1 { last = $2 + 0 }' "$f.rows"
		done
		check "$n blast: sent and pps columns" sh -c "head -n 1 '$TMP/$n.berr.rows' | grep -q 'sent	pps'"
		check "$n suck: received and pps columns" sh -c "head -n 1 '$TMP/$n.err.rows' | grep -q 'received.*pps'" ;;
	json)
		for who in berr err; do
			f=$TMP/$n.$who
			tool=blast; [ $who = err ] && tool=suck
			rows=$(grep -c "^{\"tool\":\"$tool\",\"t_s\":[0-9.]*,.*\"pps\":[0-9]*}$" "$f")
			check "$n $tool: 7..9 json lines ($rows)" test "$rows" -ge 7 -a "$rows" -le 9
		done ;;
	text)
		rows=$(grep -c '^blast: .* s  sent .* pps$' "$TMP/$n.berr")
		check "$n blast: 7..9 lines ($rows)" test "$rows" -ge 7 -a "$rows" -le 9
		rows=$(grep -c '^suck: .* s  received ' "$TMP/$n.err")
		check "$n suck: 7..9 lines ($rows)" test "$rows" -ge 7 -a "$rows" -le 9
		# The kernel's counter under the report's name: its dropped is
		# another number, scaled and capped, known only at the end.
		rows=$(grep -c '^suck: .* s  received .*  kernel_drops [0-9][0-9]*  fins ' "$TMP/$n.err")
		check "$n suck: kernel_drops on every line ($rows)" test "$rows" -ge 7 -a "$rows" -le 9
		check "$n suck: no dropped on a line" sh -c "! grep -q '^suck: .* s  received .* dropped ' '$TMP/$n.err'" ;;
	esac
	check "$n: the report still on stdout" test -s "$TMP/$n.out"
done

# -j 2: the sockets' counters are not summed on a line, so kernel_drops is unknown: "-", as the
# tsv and json rows say, never -1.
n=iv-text-j2
start_suck "$n" -j 2 -i 0.1 -R 4M -t 30 || fail "$n: suck did not start"
"$BIN/blast" -p "$PORT" -t 1 -r 10k -s 200 -o tsv >/dev/null 2>&1
check "$n: suck ends" wait_pid "$SUCK_PID" 20
rows=$(grep -c '^suck: .* s  received .*  kernel_drops -  fins ' "$TMP/$n.err")
check "$n: kernel_drops - on every line ($rows)" test "$rows" -ge 5
check "$n: no -1" sh -c "! grep -q -- '-1' '$TMP/$n.err'"

done_tests
