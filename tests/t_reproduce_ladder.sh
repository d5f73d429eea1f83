# scripts/reproduce cloudflare-2018 (lib/ladder.sh, bin/ladder): the drop ladder at its smallest
# (-t 0.3, one run per row) has every row with its numbers, conntrack seen where it is on and not
# where notrack takes it off, the published table's source, the plot where gnuplot is, and leaves
# nothing behind: no namespace of its own, no drop point (bin/ladder) running, nothing in the
# host's nftables. SIGINT while the tc row holds its drop point and SIGTERM in the nft-raw row
# end it with 130 and 143, all removed. The table and paragraph on fixed numbers. Bad usage
# exits 2, no root exits 4. No speed is asserted, nor that one rung beats another. Runs: about
# 7 s, and two of 1 s per row interrupted; blast bounded by -t (and -n); the traffic stays in
# the namespaces the script makes, on 198.18.0.0/15. Every run's noise (lib/noise.sh) is in
# reproduce.tsv and its sentence in reproduce.md; a CPU hog pinned to CPUs 0 and 1 over the first
# run of a second ladder (--noise 5) makes it noisy: flagged, measured again, its try kept in raw/
# only (as t_suite_noise.sh; no run is asserted quiet, no speed judged). About 7 s more.
# shellcheck disable=SC2016 # the conditions are eval'd
. tests/lib.sh

ROWS="xdp tc nft-raw nft-input-ct nft-input-notrack nft-input sockfilter unread app-mmsg app-buffer"

# usage: exit 2 before anything is built, as root or not
for bad in "--sink" "-t bogus" "-r 0" "--mtu 99" "--rx-dev eth0" "--noise 0" "--noise 101" "--retry 4" "--retry x"; do
	st=0
	# shellcheck disable=SC2086 # the words of the bad option
	sh scripts/reproduce cloudflare-2018 $bad -o "$TMP/bad" >/dev/null 2>"$TMP/bad.err" || st=$?
	check "cloudflare-2018 $bad: exit 2 (got $st: $(head -n 1 "$TMP/bad.err"))" test "$st" -eq 2
done
check "bad usage: nothing written" test ! -e "$TMP/bad"
check "-h names cloudflare-2018" sh -c 'sh scripts/reproduce -h 2>&1 | grep -q "^  cloudflare-2018 "'

# the table and the paragraph on fixed numbers (lib/ladder-tsv.awk, lib/reproduce-ladder.awk):
# 1 s windows, xdp 2 Mpps at 50 % busy, nft-input 0.5 and with conntrack 0.25, app-mmsg 0.1
{
	printf 'xdp\t1\tmap\t1.0\t2100000\t2000000\t0.5\t1\t2\t1.5\t12.0\t3.1\t0.0\t1\n'
	printf 'nft-input\t1\tnft\t1.0\t600000\t500000\t0.95\t1\n'
	printf 'nft-input-ct\t1\tnft\t1.0\t300000\t250000\t0.95\t1\n'
	printf 'app-mmsg\t1\tsuck\t1.0\t200000\t100000\t1.0\t1\n'
} >"$TMP/fixed.list"
awk -v pub=results/published/cloudflare-2018.tsv -f scripts/lib/ladder-tsv.awk "$TMP/fixed.list" >"$TMP/fixed.tsv"
check "fixed: xdp's run in reproduce.tsv, its noise" grep -q '^here	xdp	1	map	1.0	2100000	2000000	95.24	2.0000	0.5	250	2	1.5	12.0	3.1	0.0	1$' "$TMP/fixed.tsv"
check "fixed: a run without noise: -" awk -F'\t' '$2 == "app-mmsg" { f = NF == 17 && $12 $13 $14 $15 $16 $17 == "------" } END { exit !f }' "$TMP/fixed.tsv"
check "fixed: a published row: no noise" awk -F'\t' '$1 == "2018" && $2 == "xdp" { f = NF == 17 && $12 $13 $14 $15 $16 $17 == "" } END { exit !f }' "$TMP/fixed.tsv"
awk -v time=1 -v runs=1 -v machine=m -v size=32 -v batch=1024 -v gso=64 -v dest=198.18.0.2 -v noise="1 of 4 runs were noisy (said so)." \
	-f scripts/lib/reproduce-ladder.awk "$TMP/fixed.tsv" >"$TMP/fixed.md"
check "fixed: the noise's sentence" grep -qxF "Noise (reproduce.tsv's noise_* columns): 1 of 4 runs were noisy (said so)." "$TMP/fixed.md"
check "fixed: the fraction of the top rung" grep -qF 'The application (app-mmsg) took 0.100 Mpps, 0.05 of the top rung (xdp, 2.000 Mpps).' "$TMP/fixed.md"
check "fixed: conntrack's cost" grep -qF 'Conntrack on took the input drop to 0.50 of its rate without conntrack (+1900 ns of the NAPI thread per datagram).' "$TMP/fixed.md"
check "fixed: the steps down the ladder" grep -qF 'a later point dropped fewer here at xdp > nft-input-ct, nft-input > app-mmsg; as many or more at nft-input-ct <= nft-input.' "$TMP/fixed.md"
check "fixed: the rows the NAPI thread left idle" grep -qF 'busy less than 90 % of the send window at xdp 50 %:' "$TMP/fixed.md"
check "fixed: xdp's row, the post's 10 beside it" grep -qF '| xdp | XDP_DROP, native mode on the receiving veth | 10 | 2.000 | 2.000..2.000 | 1.00 | 95.2 | 250 | 50 | map |' "$TMP/fixed.md"
check "fixed: a row with no run, the post's figure beside it" grep -qF '| tc | tc clsact ingress, cls_bpf direct-action TC_ACT_SHOT | 1.8 | - | - | - | - | - | - | no run |' "$TMP/fixed.md"
check "fixed: the figures read from the post, named" grep -qF 'figures read: xdp 10 Mpps, tc 1.8 Mpps; the others were not available offline: -)' "$TMP/fixed.md"
check "fixed: beside the post's XDP_DROP" grep -qF "The post's XDP_DROP took 10 Mpps on one CPU, 5.0 times the 2.000 here. " "$TMP/fixed.md"
# with a tc run too: tc against the top rung there and here
printf 'tc\t1\tmap\t1.0\t1100000\t1000000\t0.5\t1\n' >>"$TMP/fixed.list"
awk -v pub=results/published/cloudflare-2018.tsv -f scripts/lib/ladder-tsv.awk "$TMP/fixed.list" |
	awk -v time=1 -v runs=1 -v machine=m -v size=32 -v batch=1024 -v gso=64 -v dest=198.18.0.2 \
		-f scripts/lib/reproduce-ladder.awk >"$TMP/fixed2.md"
check "fixed: tc against XDP there and here" grep -qF "5.0 times the 2.000 here; against that top rung, tc 0.18 of it there, 0.50 here. " "$TMP/fixed2.md"

# without root: exit 4 and why
unprivileged_exit4 cloudflare-2018

[ "$(id -u)" -eq 0 ] || { done_tests; exit; }
need_root_ip "cloudflare-2018"
command -v nft >/dev/null 2>&1 || { skip "no nft: the ladder's runs not checked"; done_tests; exit; }

# left P: what run P may have left: its namespaces, a drop point on its device, a table here.
left() {
	for ns in "bs-wire-$1-blast" "bs-wire-$1-suck"; do
		! ip netns list 2>/dev/null | grep -q "^$ns\>" || { echo "namespace $ns"; return 0; }
	done
	lf_dev=bs$(printf '%07d' "$1")r
	for lf_p in /proc/[0-9]*/cmdline; do
		{ tr '\0' ' ' <"$lf_p"; } 2>/dev/null | grep -q "/ladder [a-z]* $lf_dev " && { echo "bin/ladder on $lf_dev"; return 0; }
	done
	! nft list tables 2>/dev/null | grep -q bs_ladder || { echo "an nft table bs_ladder here"; return 0; }
	return 1
}

NCOLS="attempt noise_pre_pct noise_post_pct noise_other_pct noise_steal_pct noisy"
# noise_numbers TSV: every run here has its noise in numbers ("-" for a calibration that could not
# run, lib/noise.sh), noisy 0 or 1, attempt 1 or 2 (--retry 1); a published row none.
noise_numbers() {
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == "2018" { if ($c["attempt"] $c["noisy"] $c["noise_other_pct"] != "") bad = 1; next }
		{ n++ }
		$c["noise_pre_pct"] !~ /^([0-9.]+|-)$/ || $c["noise_post_pct"] !~ /^([0-9.]+|-)$/ ||
		$c["noise_other_pct"] !~ /^-?[0-9.]+$/ || $c["noise_steal_pct"] !~ /^[0-9.]+$/ ||
		$c["noisy"] !~ /^[01]$/ || $c["attempt"] !~ /^[12]$/ { bad = 1; print "row " NR ": " $0 }
		END { exit bad || !n }' "$1"
}
# noise_said DIR: reproduce.md's sentence counts every run of reproduce.tsv.
noise_said() {
	ns_n=$(awk -F'\t' 'NR > 1 && $1 == "here" { n++ } END { print n + 0 }' "$1/reproduce.tsv")
	grep -qE "^Noise \(reproduce.tsv's noise_\* columns\): [0-9]+ of $ns_n runs were noisy \(.*limit 10 %.*\)" "$1/reproduce.md"
}

D=$TMP/lad
timeout 120 sh scripts/reproduce cloudflare-2018 -t 0.3 -r 1 -o "$D" >"$TMP/lad.out" 2>"$TMP/lad.err" &
P=$!
PIDS="$PIDS $P"
st=0
wait "$P" || st=$?
if [ "$st" -eq 4 ]; then
	skip "cloudflare-2018 cannot run here: $(grep 'exit 4' "$TMP/lad.err" | head -n 1)"
else
	check "cloudflare-2018 -t 0.3 -r 1: exit 0 (got $st: $(tail -n 1 "$TMP/lad.err"))" test "$st" -eq 0
	[ "$st" -eq 0 ] || tail -n 20 "$TMP/lad.err"
	for r in $ROWS; do
		if grep -q "^- $r: skipped" "$D/reproduce.md"; then # this kernel lacks its drop point
			skip "$r: $(grep "^- $r: skipped" "$D/reproduce.md")"
			continue
		fi
		check "$r: a run here with its numbers" awk -F'\t' -v r="$r" '
			NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$1 == "here" && $2 == r && $c["sent"] ~ /^[0-9]+$/ && $c["counted"] ~ /^[1-9][0-9]*$/ &&
				$c["mpps"] ~ /^[0-9.]+$/ && $c["napi_cpu_s"] ~ /^[0-9.]+$/ { f = 1 }
			END { exit !f }' "$D/reproduce.tsv"
		check "$r: a row of reproduce.md" grep -q "^| $r | .* | [0-9.]* | [0-9.]*\.\.[0-9.]* | [0-9.]* |" "$D/reproduce.md"
		check "$r: the published row (or its -)" grep -q "^2018	$r	-	" "$D/reproduce.tsv"
	done
	grep -q "^- nft-input-ct: skipped" "$D/reproduce.md" ||
		check "nft-input-ct: conntrack saw the datagrams" grep -q '^here	nft-input-ct	1	.*conntrack saw [1-9][0-9]* new' "$D/reproduce.tsv"
	grep -q "^- nft-input-notrack: skipped" "$D/reproduce.md" ||
		check "nft-input-notrack: conntrack saw none" grep -q '^here	nft-input-notrack	1	.*conntrack saw 0 new' "$D/reproduce.tsv"
	check "reproduce.md: the published source" grep -qF '"How to drop 10 million packets per second", Cloudflare blog, July 2018' "$D/reproduce.md"
	check "reproduce.md: the paragraph from the numbers" grep -q '^The application (app-mmsg) took [0-9.]* Mpps, [0-9.]* of the top rung' "$D/reproduce.md"
	check "reproduce.md: how busy the NAPI thread was" grep -q 'The NAPI thread was busy \(less than 90 % of the send window at\|90 % or more of the send window in every row\)' "$D/reproduce.md"
	check "reproduce.md: what is not re-made" grep -q '^## Not re-made here' "$D/reproduce.md"
	check "the published table: its source" grep -q '^# .*https://blog.cloudflare.com/how-to-drop-10-million-packets/' results/published/cloudflare-2018.tsv
	check "env.txt: the experiment and the wire" sh -c "grep -q '^experiment: cloudflare-2018$' '$D/env.txt' && grep -q '^wire: veth' '$D/env.txt'"
	# shellcheck disable=SC2086 # the names, a word each
	check "reproduce.tsv: the noise columns" has_cols "$D/reproduce.tsv" $NCOLS
	check "reproduce.tsv: every run's noise in numbers (the calibration's or -), none on a published row" noise_numbers "$D/reproduce.tsv"
	check "raw/: a run's noise beside its reports" test -s "$D/raw/xdp-1.noise.tsv"
	check "reproduce.md: the noise's sentence, of every run" noise_said "$D"
	check "env.txt: the noise limit, its CPUs (0 and 1), --retry and the sentence" sh -c "grep -q '^noise_limit_pct: 10\$' '$D/env.txt' &&
		grep -q '^noise_cpus: 0 1\$' '$D/env.txt' && grep -q '^retry: 1\$' '$D/env.txt' && grep -q '^noise: [0-9]* of [0-9]* runs were noisy' '$D/env.txt'"
	if command -v "${GNUPLOT:-gnuplot}" >/dev/null 2>&1; then
		check "the plot" test -s "$D/published_vs_here.png"
	else
		skip "no gnuplot: the plot not checked"
	fi
	w=$(left "$P")
	check "nothing left behind (${w:-none})" test -z "$w"
fi

# A noisy run: a shell spinning on each of CPUs 0 and 1 (pinned when taskset is here; killed at
# once after, and by the EXIT trap of tests/lib.sh whatever ends the test) from the first run's
# progress line until the ladder has gone past it, --noise 5: that run (xdp 1) is flagged, measured
# again (attempt 2 in reproduce.tsv), its first try kept in raw/ only.
past_first() {
	grep -q -e '^reproduce: xdp-1 was noisy' -e '^reproduce: \[2/' "$TMP/hog.err" || ! kill -0 "$P" 2>/dev/null
}
if [ "$st" = 0 ]; then
	H=$TMP/hog
	# not under timeout(1): P is the script, whose pid names what it makes (left); bounded below
	sh scripts/reproduce cloudflare-2018 -t 0.3 -r 1 --noise 5 -o "$H" >"$TMP/hog.out" 2>"$TMP/hog.err" &
	P=$!
	PIDS="$PIDS $P"
	until_ grep -q -e '^reproduce: \[1/' "$TMP/hog.err"
	hog 0
	[ "$(getconf _NPROCESSORS_ONLN)" -lt 2 ] || hog 1
	until_ past_first
	unhog
	until_ sh -c '! kill -0 "$1" 2>/dev/null' sh "$P" || kill "$P" 2>/dev/null
	hst=0
	wait "$P" || hst=$?
	check "hogged: exit 0 ($hst: $(tail -n 1 "$TMP/hog.err"))" test "$hst" -eq 0
	check "hogged: the hogged run flagged noisy ($(sed -n 2p "$H/raw/xdp-1.try1.noise.tsv" 2>/dev/null))" \
		awk -F'\t' 'NR == 2 { ok = $1 == 1 && $6 == 1 } END { exit !(ok && NR == 2) }' "$H/raw/xdp-1.try1.noise.tsv"
	check "hogged: ... its first try's reports kept in raw/" test -s "$H/raw/xdp-1.try1.blast.tsv"
	check "hogged: ... measured again: xdp run 1 is attempt 2, once in reproduce.tsv" awk -F'\t' '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == "here" && $2 == "xdp" { n++; ok = $c["run"] == 1 && $c["attempt"] == 2 } END { exit !(ok && n == 1) }' "$H/reproduce.tsv"
	check "hogged: the progress says it was measured again" \
		grep -q '^reproduce: xdp-1 was noisy (.*): measuring it again (retry 1 of at most 3)$' "$TMP/hog.err"
	check "hogged: every run's noise in numbers" noise_numbers "$H/reproduce.tsv"
	check "hogged: reproduce.md says how many were noisy and what was done" \
		grep -qE "^Noise \(reproduce.tsv's noise_\* columns\): [1-9][0-9]* of [0-9]+ runs were noisy \(.*limit 5 %.*\); (each was|[1-3]) measured again.*; [0-9]+ remain noisy\.$" "$H/reproduce.md"
	w=$(left "$P")
	check "hogged: nothing left behind (${w:-none})" test -z "$w"
fi

# SIGINT while the tc row holds its drop point, SIGTERM in the nft-raw row (lib.sh interrupted)
if [ "$st" != 4 ]; then
	if [ -n "$LAUNCH" ]; then interrupted cloudflare-2018 int INT tc; else skip "no env --default-signal: SIGINT not checked"; fi
	interrupted cloudflare-2018 term TERM nft-raw
fi
done_tests
