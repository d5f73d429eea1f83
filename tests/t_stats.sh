# The statistics of scripts/lib/stats.awk that compare, reproduce.md, table.md and summary.tsv share,
# driven directly, against cases computed by hand: the Mann-Whitney U test (identical samples,
# fully separated ones, ties, the normal approximation), the smallest p a number of runs can give,
# the Hodges-Lehmann interval of a ratio and the order-statistics interval of a median. Run by
# every awk installed of mawk, gawk and original-awk (the scripts use plain awk: mawk on Debian),
# which must print the same numbers.
. tests/lib.sh

# The driver: one case a line, "what A B" (A and B comma-separated samples), one answer a line.
cat >"$TMP/drv.awk" <<'EOF'
{
	na = split($2, a, ","); nb = split($3, b, ",")
	if ($1 == "mw") {
		p = mw_test(a, na, b, nb)
		print fmtp(p), MW_U, MW_EXACT, MW_TIES, sprintf("%.9f", p)
	} else if ($1 == "ci") {
		if (ratio_ci(a, na, b, nb, 0.05)) print CI_EST, CI_LO, CI_HI, CI_PCT
		else print "undefined"
	} else if ($1 == "med") {
		sortnum(a, na); median_ci(a, na, 0.05); print MCI_LO, MCI_HI, MCI_PCT
	} else if ($1 == "minp")
		print fmtp(mw_minp($2, $3)), mw_needed($4)
}
EOF
# ask AWK CASE [VAR=VALUE]: the driver's answer to one case
ask() { printf '%s\n' "$2" | $1 ${3:+-v "$3"} -f scripts/lib/stats.awk -f "$TMP/drv.awk"; }

AWKS="awk"
seen=" $(readlink -f "$(command -v awk)") "
for a in mawk gawk original-awk; do
	w=$(command -v "$a") || continue
	case $seen in *" $(readlink -f "$w") "*) continue ;; esac
	seen="$seen$(readlink -f "$w") "
	AWKS="$AWKS $a"
done
for AWK in $AWKS; do
	# Identical samples: every ordering of the pooled runs as likely as the observed one: p = 1.
	check "$AWK: identical samples, p = 1" test "$(ask "$AWK" "mw 1,2,3,4,5 1,2,3,4,5" | cut -d' ' -f 1-2)" = "1 12.5"
	check "$AWK: all values tied, p = 1" test "$(ask "$AWK" "mw 5,5,5 5,5,5" | cut -d' ' -f 1-4)" = "1 4.5 1 1"
	# Fully separated 5 against 5: 1 of the C(10,5) = 252 splits is as extreme on each side:
	# p = 2/252 = 0.0079365..., whichever side is higher.
	check "$AWK: 5 vs 5 separated, p = 2/252" test "$(ask "$AWK" "mw 1,2,3,4,5 6,7,8,9,10")" = "0.00794 25 1 0 0.007936508"
	check "$AWK: the other way round, the same p" test "$(ask "$AWK" "mw 6,7,8,9,10 1,2,3,4,5" | cut -d' ' -f 1-2)" = "0.00794 0"
	# 3 against 3 separated: 2/C(6,3) = 2/20 = 0.1, the smallest p of 3 runs against 3.
	check "$AWK: 3 vs 3 separated, p = 0.1" test "$(ask "$AWK" "mw 1,2,3 4,5,6" | cut -d' ' -f 1)" = 0.1
	# 2 against 3: 2/C(5,2) = 0.2.
	check "$AWK: 2 vs 3 separated, p = 0.2" test "$(ask "$AWK" "mw 1,2 3,4,5" | cut -d' ' -f 1)" = 0.2
	# 5 against 5 with 4 of the 25 pairs in B's favour (U = 4): U = 0, 1, 2, 3, 4 happen in
	# 1, 1, 2, 3, 5 of the 252 splits, so p = 2 * 12/252 = 0.0952.
	check "$AWK: 5 vs 5, U = 4: p = 24/252" test "$(ask "$AWK" "mw 1272.5,1290.0,1255.1,1301.3,1268.8 1250.2,1262.9,1281.0,1239.7,1244.6" | cut -d' ' -f 1-2)" = "0.0952 4"
	# 6 against 6 (the suite's default): 5 of the 36 pairs the other way still give p <= 0.05:
	# U = 0..5 in 1, 1, 2, 3, 5, 7 of the C(12,6) = 924 splits, p = 2 * 19/924 = 0.0411; U = 6
	# adds 11: 2 * 30/924 = 0.0649 (what the README says of make bench's 6 runs).
	check "$AWK: 6 vs 6, U = 5: p = 38/924" test "$(ask "$AWK" "mw 10,20,30,40,50,60 1,2,3,4,5,55" | cut -d' ' -f 1-2)" = "0.0411 5"
	check "$AWK: 6 vs 6, U = 6: p = 60/924" test "$(ask "$AWK" "mw 10,20,30,40,50,60 1,2,3,4,5,65" | cut -d' ' -f 1-2)" = "0.0649 6"
	# Ties, 3 against 3 sharing one value: midranks 1, 2, 3.5 | 3.5, 5, 6; A's rank sum 6.5 is
	# the smallest, reached by 2 of the 20 splits (either 3.5): p = 2 * 2/20 = 0.2 (0.1 untied).
	check "$AWK: ties, 3 vs 3 sharing a value: p = 4/20" test "$(ask "$AWK" "mw 1,2,3 3,4,5" | cut -d' ' -f 1,3,4)" = "0.2 1 1"
	# Ties, 4 against 4: A = 1 2 2 3, B = 2 3 3 4; midranks 1 | 3 3 3 | 6 6 6 | 8; A's sum 13.
	# Of the 70 splits of {1, 3,3,3, 6,6,6, 8} into 4 and 4, sums <= 13 are 10 (1+3+3+3, 1 way)
	# and 13 (1+3+3+6, 3*3 = 9 ways): p = 2 * 10/70 = 0.2857; U = 13 (b > a pairs, ties half).
	check "$AWK: ties, 4 vs 4: p = 20/70" test "$(ask "$AWK" "mw 1,2,2,3 2,3,3,4")" = "0.286 13 1 1 0.285714286"
	# Normal approximation (forced with MW_EXACT_MAX=4) of the separated 5 vs 5: U = 0, mean 12.5,
	# variance 5*5*11/12, z = (12.5 - 0.5) / 4.787 = 2.507, p = erfc(z / sqrt 2) = 0.0122.
	check "$AWK: normal approximation" test "$(ask "$AWK" "mw 1,2,3,4,5 6,7,8,9,10" MW_EXACT_MAX=4 | cut -d' ' -f 1,3)" = "0.0122 0"
	# The smallest p of n against n, 2/C(2n, n): 0.1 for 3, 2/70 for 4, 2/252 for 5; at 0.05
	# 4 runs each are the fewest, at 0.01 5.
	check "$AWK: smallest p, 3 vs 3; runs needed at 0.05" test "$(ask "$AWK" "minp 3 3 0.05")" = "0.1 4"
	check "$AWK: smallest p, 4 vs 4" test "$(ask "$AWK" "minp 4 4 0.05" | cut -d' ' -f 1)" = 0.0286
	check "$AWK: smallest p, 5 vs 5; runs needed at 0.01" test "$(ask "$AWK" "minp 5 5 0.01")" = "0.00794 5"
	# Hodges-Lehmann interval of B/A, 1..5 against 6..10: the 25 ratios b/a; k = 3, since
	# 2 P(U <= 2) = 8/252 <= 0.05 < 2 P(U <= 3) = 14/252; the 3rd smallest ratio is 6/4 = 1.5
	# (after 6/5, 7/5), the 3rd largest 8/1 (after 10/1, 9/1); level 1 - 8/252 = 96.8 %;
	# the estimate, the 13th ratio, 8/3.
	check "$AWK: ratio interval 5 vs 5" test "$(ask "$AWK" "ci 1,2,3,4,5 6,7,8,9,10")" = "2.667 1.500 8.000 96.8"
	# 3 against 3: no k reaches 95 %; the widest interval, smallest to largest ratio, is 90 %.
	check "$AWK: ratio interval 3 vs 3, at 90 %" test "$(ask "$AWK" "ci 100,110,120 100,110,120")" = "1.000 0.833 1.200 90"
	check "$AWK: ratio interval, A value 0: undefined" test "$(ask "$AWK" "ci 0,1,2 1,2,3")" = undefined
	# Median intervals: [x(k), x(n+1-k)] at 1 - 2 P(X < k), X ~ binomial(n, 1/2).
	check "$AWK: median of 5: min..max, 1 - 2/32 = 93.8 %" test "$(ask "$AWK" "med 5,1,4,2,3")" = "1 5 93.8"
	check "$AWK: median of 3: min..max, 75 %" test "$(ask "$AWK" "med 3,1,2")" = "1 3 75"
	check "$AWK: median of 6: min..max, 1 - 2/64 = 96.9 %" test "$(ask "$AWK" "med 1,2,3,4,5,6")" = "1 6 96.9"
	check "$AWK: median of 9: 2nd..8th, 1 - 20/512 = 96.1 %" test "$(ask "$AWK" "med 1,2,3,4,5,6,7,8,9")" = "2 8 96.1"
	# n = 20: P(X <= 5) = 21700/2^20 = 0.0207, P(X <= 6) = 0.0577: k = 6, level 95.9 %
	check "$AWK: median of 20: 6th..15th, 95.9 %" test "$(ask "$AWK" "med $(seq 1 20 | paste -sd, -)")" = "6 15 95.9"
	check "$AWK: median of 1: the value, 0 %" test "$(ask "$AWK" "med 7")" = "7 7 0"
done
[ "$AWKS" != awk ] || skip "no other awk than awk installed (gawk, original-awk): one awk checked"

# Deterministic, and the same in every awk: a whole compare of the committed result sets.
for AWK in $AWKS; do
	mkdir -p "$TMP/bin-$AWK"
	ln -sf "$(command -v "$AWK")" "$TMP/bin-$AWK/awk"
	PATH="$TMP/bin-$AWK:$PATH" sh scripts/compare -o tsv tests/data/compare-before tests/data/compare-after >"$TMP/cmp-$AWK.tsv"
done
check "compare: the same table twice" sh -c "sh scripts/compare -o tsv tests/data/compare-before tests/data/compare-after | cmp -s - '$TMP/cmp-awk.tsv'"
for AWK in $AWKS; do
	check "compare: $AWK prints what awk prints" cmp -s "$TMP/cmp-awk.tsv" "$TMP/cmp-$AWK.tsv"
done

done_tests
