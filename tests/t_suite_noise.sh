# scripts/suite's noise (lib/noise.sh noise_run): every run between two calibrations, its noise in
# runs.tsv, a noisy run measured again and its noisy attempt kept in raw/ only, table.md saying
# how many were noisy. A CPU hog (a spinning shell pinned to the CPUs the suite uses, as in
# t_perf_noise.sh; bin/hog holds memory, it does not spin) overlaps the first measured run,
# which must then be flagged and measured again. The machine is shared: no run is ever asserted
# quiet, and no speed is judged.
. tests/lib.sh

NCOLS="attempt noise_pre_pct noise_post_pct noise_other_pct noise_steal_pct noisy"
# numbers FILE: every row's noise is numbers ("-" for the calibration when there is none),
# noisy 0 or 1, attempt 1 or 2.
numbers() {
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["noise_pre_pct"] !~ /^([0-9.]+|-)$/ || $c["noise_post_pct"] !~ /^([0-9.]+|-)$/ ||
		$c["noise_other_pct"] !~ /^-?[0-9.]+$/ || $c["noise_steal_pct"] !~ /^[0-9.]+$/ ||
		$c["noisy"] !~ /^[01]$/ || $c["attempt"] !~ /^[12]$/ { bad = 1; print "row " NR ": " $0 }
		END { exit bad || NR < 2 }' "$1"
}

# past_first: the suite has gone past its first measured run (its retry, or the next run, or
# its end).
past_first() {
	grep -q -e '^suite: buffer-1 was noisy' -e '^suite: \[2/' "$TMP/hog.err" || ! kill -0 "$SP" 2>/dev/null
}

# The hogged run: buffer's first (-W 0), from its progress line to its end, on both CPUs.
D=$TMP/hog
sh scripts/suite -t 0.5 -r 2 -W 0 -P -m "buffer mmsg" -o "$D" >"$TMP/hog.out" 2>"$TMP/hog.err" &
SP=$!
PIDS="$PIDS $SP"
until_ grep -q -e '^suite: \[1/' "$TMP/hog.err"
ncpu=$(getconf _NPROCESSORS_ONLN)
c=0
while [ $c -lt "$ncpu" ] && [ $c -lt 2 ]; do
	hog $c
	c=$((c + 1))
done
until_ past_first
unhog
wait "$SP"
st=$?
check "hogged suite exits 0 ($st: $(tail -n 1 "$TMP/hog.err"))" test $st -eq 0
R=$D/runs.tsv
# shellcheck disable=SC2086 # the names, a word each
check "runs.tsv has the noise columns" has_cols "$R" $NCOLS
check "runs.tsv: the noise in numbers" numbers "$R"
check "runs.tsv: one row per run, the noisy attempt not among them" test "$(($(wc -l <"$R") - 1))" -eq 4
check "the hogged run flagged noisy ($(sed -n 2p "$D/raw/buffer-1.try1.noise.tsv" 2>/dev/null))" \
	awk -F'\t' 'NR == 2 { ok = $1 == 1 && $6 == 1 } END { exit !(ok && NR == 2) }' "$D/raw/buffer-1.try1.noise.tsv"
check "... its reports kept in raw/" test -s "$D/raw/buffer-1.try1.suck.tsv" -a -s "$D/raw/buffer-1.try1.blast.tsv"
check "... measured again: buffer run 1 is attempt 2 in runs.tsv" \
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["variant"] == "buffer" && $c["run"] == 1 { ok = $c["attempt"] == 2 } END { exit !ok }' "$R"
check "... its retry's reports under the run's name" test -s "$D/raw/buffer-1.suck.tsv" -a -s "$D/raw/buffer-1.noise.tsv"
check "the progress says it was measured again" grep -q '^suite: buffer-1 was noisy (.*): measuring it again (retry 1 of at most 1)$' "$TMP/hog.err"
check "table.md says how many runs were noisy and what was done" \
	grep -qE "^Noise \(runs.tsv's noise_\* columns\): [1-4] of 4 runs were noisy \(.*\); (each was|1) measured again.*; [0-4] remain noisy\.$" "$D/table.md"
check "summary.tsv: no noise figure among the medians" sh -c "! grep -qE '	(attempt|noisy|noise_[a-z]+_pct)	' '$D/summary.tsv'"
check "env.txt: the noise limit, the CPUs and --retry" sh -c "grep -q '^noise_limit_pct: 10\$' '$D/env.txt' &&
	grep -qE '^noise_cpus: [0-9]' '$D/env.txt' && grep -q '^retry: 1\$' '$D/env.txt'"

# The quiet path, with --retry 0 and without bin/bare (BIN a directory of suck and blast only):
# the structure holds whatever the machine does, the calibration is off with a note.
mkdir "$TMP/bin"
ln -s "$(cd "$BIN" && pwd)/suck" "$TMP/bin/suck"
ln -s "$(cd "$BIN" && pwd)/blast" "$TMP/bin/blast"
Q=$TMP/quiet
BIN=$TMP/bin sh scripts/suite -t 0.3 -r 2 -W 1 -P --retry 0 -m buffer -o "$Q" >"$TMP/quiet.out" 2>"$TMP/quiet.err"
st=$?
check "quiet: exits 0 without bin/bare ($st: $(tail -n 1 "$TMP/quiet.err"))" test $st -eq 0
# shellcheck disable=SC2086 # the names, a word each
check "quiet: runs.tsv has the noise columns" has_cols "$Q/runs.tsv" $NCOLS
check "quiet: the noise in numbers" numbers "$Q/runs.tsv"
check "quiet: no calibration: its figures '-', every run its first attempt" awk -F'\t' '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ n++; if ($c["noise_pre_pct"] != "-" || $c["noise_post_pct"] != "-" || $c["attempt"] != 1) bad = 1 }
	END { exit bad || n != 2 }' "$Q/runs.tsv"
check "quiet: the missing calibration noted in table.md" grep -q '^- noise: no .*/bare (make bin/bare): no calibration' "$Q/table.md"
check "quiet: table.md's sentence, nothing measured again" \
	grep -qE "^Noise \(runs.tsv's noise_\* columns\): [0-2] of 2 runs were noisy .*(limit 10 %.*no calibration).*" "$Q/table.md"
check "quiet: --retry 0 measures none again" sh -c "! grep -q 'measuring it again' '$TMP/quiet.err' && ! ls '$Q/raw' | grep -q try"
check "quiet: the warm-up measured too, not in runs.tsv" test -s "$Q/raw/buffer-warmup1.noise.tsv"
check "--retry: 0..3" sh -c "sh scripts/suite --retry 4 -o '$TMP/bad' 2>&1 >/dev/null | grep -q \"retry '4': accepted: 0..3\""

done_tests
