# scripts/reproduce ceilings (lib/ceilings.sh): the sending ladder at its smallest (-t 0.3, one
# run per rung) has every rung with its numbers (trafgen's when installed and it ran, else its
# note), what the XDP drop counted no more than what was sent (sent + fins: blast's fins reach
# the port too; fewer where the veth's ring dropped), the md's paragraph, the plot where gnuplot
# is, and leaves nothing behind: no namespace of its own, no drop point or trafgen running.
# SIGINT mid-run ends it with 130, all removed. The table and paragraph on fixed numbers. Bad
# usage exits 2, no root exits 4. No speed is asserted, nor an order of rungs. Runs: about 4 s,
# and one of 1 s per rung interrupted; every sender bounded in time and count (blast -t, -n;
# trafgen timeout, -n), the traffic inside the namespaces the script makes, on 198.18.0.0/15.
# Every run's noise (lib/noise.sh) is in reproduce.tsv and its sentence in reproduce.md (a noisy
# run measured again: t_reproduce_ladder.sh, on the same lib/ladder.sh rounds).
# shellcheck disable=SC2016 # the conditions are eval'd
. tests/lib.sh

ROWS="sendto sendmmsg gso packet xdp"

for bad in "--sink" "-t bogus" "-r 0" "--mtu 99" "--noise 0" "--retry 4"; do
	st=0
	# shellcheck disable=SC2086 # the words of the bad option
	sh scripts/reproduce ceilings $bad -o "$TMP/bad" >/dev/null 2>"$TMP/bad.err" || st=$?
	check "ceilings $bad: exit 2 (got $st: $(head -n 1 "$TMP/bad.err"))" test "$st" -eq 2
done
check "bad usage: nothing written" test ! -e "$TMP/bad"
check "-h names ceilings" sh -c 'sh scripts/reproduce -h 2>&1 | grep -q "^  ceilings "'

# the table and the paragraph on fixed numbers (lib/reproduce-ceilings.awk): 1 s windows, gso
# 2 Mfps at 500 ns a frame, sendto 0.5 at 2000 ns, 80 % of it counted, the NAPI thread 40 % busy
{
	printf 'row\trun\thow\tduration_s\tsent\tfins\tcounted\tcounted_pct\tmfps\tnapi_cpu_s\tnapi_ns_per_frame\tsender_ns_per_frame\tveth_tx_dropped\tveth_rx_dropped\n'
	printf 'sendto\t1\tblast -b 1 -g 1\t1.0\t625000\t8\t500000\t80.00\t0.5000\t0.4\t800\t2000.0\t125008\t0\n'
	printf 'gso\t1\tblast -b 1 -g 64\t1.0\t2000000\t8\t2000000\t100.00\t2.0000\t0.8\t400\t500.0\t8\t0\n'
} >"$TMP/fixed.tsv"
awk -f scripts/lib/stats.awk -v time=1 -v runs=1 -v machine=m -v size=32 -v gso=64 -v dest=198.18.0.2 -v noise="0 of 2 runs were noisy (said so)." \
	-v rows="sendto sendmmsg gso packet xdp trafgen" -f scripts/lib/reproduce-ceilings.awk "$TMP/fixed.tsv" >"$TMP/fixed.md"
check "fixed: the noise's sentence" grep -qxF "Noise (reproduce.tsv's noise_* columns): 0 of 2 runs were noisy (said so)." "$TMP/fixed.md"
check "fixed: the top rung" grep -qF 'The top rung is gso at 2.000 Mfps, 500 ns of the sender'"'"'s CPU per frame.' "$TMP/fixed.md"
check "fixed: a rung below it" grep -qF 'sendto 0.500 Mfps, 0.25 of it (75 % below), 2000 ns of the sender'"'"'s CPU per frame (4.00 x the top'"'"'s)' "$TMP/fixed.md"
check "fixed: where the drop counted less" grep -qF 'less than 99 % of what was sent at sendto 80.0 %:' "$TMP/fixed.md"
check "fixed: where the NAPI thread had time" grep -qF 'busy less than 90 % of the window at sendto 40 %:' "$TMP/fixed.md"
check "fixed: sendto's row" grep -qF '| sendto | blast -b 1 -g 1: one sendto a datagram | 0.500 | 0.500..0.500 | 0.25 | 0.625 | 80.0 | 2000 | 4.00 | 800 | 2.00 | 40 |' "$TMP/fixed.md"
check "fixed: a run's veth drops" grep -qF '| sendto | 1 | blast -b 1 -g 1 | 1.0 | 625000 | 8 | 500000 | 80.00 | 125008 |' "$TMP/fixed.md"
check "fixed: a rung with no run" grep -qF '| xdp | blast --via xdp: AF_XDP TX ring | - |' "$TMP/fixed.md"
printf 'source\trow\trun\tmpps\n2018\txdp\t-\t-\nhere\txdp\t1\t1.5\nhere\txdp\t2\t2.5\nhere\ttc\t1\t0.5\n' >"$TMP/drop.tsv"
awk -f scripts/lib/stats.awk -v time=1 -v runs=1 -v machine=m -v size=32 -v dest=198.18.0.2 -v drop="$TMP/drop.tsv" -v dropname=D \
	-v rows="sendto gso" -f scripts/lib/reproduce-ceilings.awk "$TMP/fixed.tsv" >"$TMP/drop.md"
check "fixed: beside the drop ladder's xdp rung" grep -qF 'Beside the drop ladder (D): its xdp rung, blast -g 64 into the same XDP drop, counted 2.000 Mpps (median of 2 run(s)); the top rung here is 1.00 of that.' "$TMP/drop.md"
check "fixed: no drop ladder, no sentence" sh -c '! grep -q "Beside the drop ladder" "$1"' sh "$TMP/fixed.md"
awk -f scripts/lib/stats.awk -v time=1 -v runs=1 -v machine=m -v size=1450 -v gso=45 -v dest=198.18.0.2 -v drop="$TMP/drop.tsv" -v dropname=D \
	-v rows="sendto gso" -f scripts/lib/reproduce-ceilings.awk "$TMP/fixed.tsv" >"$TMP/drop1450.md"
check "fixed, -s 1450: not beside the drop ladder's 32-byte frames" sh -c '! grep -q "Beside the drop ladder" "$1"' sh "$TMP/drop1450.md"
check "fixed, -s 1450: gso's segments" grep -qF '| gso | blast -b 1 -g 45: UDP GSO' "$TMP/drop1450.md"
for bad in "ceilings -s 31" "ceilings -s 1473" "ceilings -s x" "ceilings -s 1300 --mtu 1280" "lua-2014 -s 64"; do
	st=0
	# shellcheck disable=SC2086 # the words of the bad option
	sh scripts/reproduce $bad -o "$TMP/bads" >/dev/null 2>"$TMP/bads.err" || st=$?
	check "reproduce $bad: exit 2 (got $st: $(head -n 1 "$TMP/bads.err"))" test "$st" -eq 2
done
check "reproduce -s with another experiment: says ceilings only" grep -q -- '-s: only with ceilings' "$TMP/bads.err"
check "fixed: no published table, said" grep -qF 'No published table: the ceilings of this machine' "$TMP/fixed.md"

# without root: exit 4 and why
unprivileged_exit4 ceilings

[ "$(id -u)" -eq 0 ] || { done_tests; exit; }
need_root_ip "ceilings"

# left P: what run P may have left: its namespaces, a drop point on its device, a trafgen on it.
left() {
	for ns in "bs-wire-$1-blast" "bs-wire-$1-suck"; do
		! ip netns list 2>/dev/null | grep -q "^$ns\>" || { echo "namespace $ns"; return 0; }
	done
	lf_r=bs$(printf '%07d' "$1")r lf_s=bs$(printf '%07d' "$1")s
	for lf_p in /proc/[0-9]*/cmdline; do
		lf_c=$({ tr '\0' ' ' <"$lf_p"; } 2>/dev/null) || continue
		case $lf_c in
		*"/ladder xdp $lf_r "*) echo "bin/ladder on $lf_r"; return 0 ;;
		*"trafgen -o $lf_s "*) echo "trafgen on $lf_s"; return 0 ;;
		*"blast "*"--dev $lf_s "*) echo "blast on $lf_s"; return 0 ;;
		esac
	done
	return 1
}

D=$TMP/ceil
timeout 120 sh scripts/reproduce ceilings -t 0.3 -r 1 -o "$D" >"$TMP/ceil.out" 2>"$TMP/ceil.err" &
P=$!
PIDS="$PIDS $P"
st=0
wait "$P" || st=$?
if [ "$st" -eq 4 ]; then
	skip "ceilings cannot run here: $(grep 'exit 4' "$TMP/ceil.err" | head -n 1)"
else
	check "ceilings -t 0.3 -r 1: exit 0 (got $st: $(tail -n 1 "$TMP/ceil.err"))" test "$st" -eq 0
	[ "$st" -eq 0 ] || tail -n 20 "$TMP/ceil.err"
	if command -v trafgen >/dev/null 2>&1; then
		if grep -q '^- trafgen: skipped' "$D/reproduce.md"; then
			skip "trafgen: $(grep '^- trafgen: skipped' "$D/reproduce.md" | cut -c1-160)"
		else
			ROWS="$ROWS trafgen"
		fi
	else
		check "trafgen not installed: the note says so" grep -q '^- trafgen: skipped, netsniff-ng.s trafgen is not installed' "$D/reproduce.md"
	fi
	for r in $ROWS; do
		if grep -q "^- $r: skipped" "$D/reproduce.md"; then # blast refuses it here
			skip "$r: $(grep "^- $r: skipped" "$D/reproduce.md")"
			continue
		fi
		check "$r: a run with its numbers" awk -F'\t' -v r="$r" '
			NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$1 == r && $c["sent"] ~ /^[1-9][0-9]*$/ && $c["counted"] ~ /^[1-9][0-9]*$/ && $c["mfps"] ~ /^[0-9.]+$/ &&
				$c["napi_ns_per_frame"] ~ /^[0-9]+$/ && $c["sender_ns_per_frame"] ~ /^[0-9.]+$/ { f = 1 }
			END { exit !f }' "$D/reproduce.tsv"
		# the identity: the drop counts only what the sender sent (its fins too); what it did not
		# count the sending veth dropped (tx_dropped, the receiving ring full). Not an equality:
		# --via packet offers a refused frame again, so its drops count attempts, not frames; the
		# upper bound for blast's rungs only (what trafgen counts as out is its own).
		check "$r: counted <= sent + fins <= counted + the veth's tx_dropped" awk -F'\t' -v r="$r" '
			NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$1 == r { n++; s = $c["sent"] + $c["fins"]
				if ($c["counted"] + 0 > s || (r != "trafgen" && s > $c["counted"] + $c["veth_tx_dropped"])) bad = 1 }
			END { exit !(n && !bad) }' "$D/reproduce.tsv"
		check "$r: a row of reproduce.md" grep -q "^| $r | .* | [0-9.]* | [0-9.]*\.\.[0-9.]* | [0-9.]* |" "$D/reproduce.md"
	done
	check "reproduce.md: the paragraph from the numbers" grep -q '^The top rung is [a-z]* at [0-9.]* Mfps' "$D/reproduce.md"
	check "reproduce.md: no published table, said" grep -qF 'No published table: the ceilings of this machine' "$D/reproduce.md"
	check "env.txt: the experiment and the wire" sh -c "grep -q '^experiment: ceilings$' '$D/env.txt' && grep -q '^wire: veth' '$D/env.txt'"
	# every run's noise: numbers ("-" for a calibration that could not run, lib/noise.sh), noisy 0
	# or 1, attempt 1 or 2 (--retry 1)
	check "reproduce.tsv: every run's noise in numbers" awk -F'\t' '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; ok = ("attempt" in c) && ("noisy" in c) && ("noise_steal_pct" in c); next }
		{ n++ }
		$c["noise_pre_pct"] !~ /^([0-9.]+|-)$/ || $c["noise_post_pct"] !~ /^([0-9.]+|-)$/ ||
		$c["noise_other_pct"] !~ /^-?[0-9.]+$/ || $c["noise_steal_pct"] !~ /^[0-9.]+$/ ||
		$c["noisy"] !~ /^[01]$/ || $c["attempt"] !~ /^[12]$/ { bad = 1; print "row " NR ": " $0 }
		END { exit !ok || bad || !n }' "$D/reproduce.tsv"
	n=$(($(wc -l <"$D/reproduce.tsv") - 1))
	check "reproduce.md: the noise's sentence, of its $n runs" \
		grep -qE "^Noise \(reproduce.tsv's noise_\* columns\): [0-9]+ of $n runs were noisy \(.*limit 10 %.*\)" "$D/reproduce.md"
	check "env.txt: the noise limit, its CPUs (0 and 1), --retry" sh -c "grep -q '^noise_limit_pct: 10\$' '$D/env.txt' &&
		grep -q '^noise_cpus: 0 1\$' '$D/env.txt' && grep -q '^retry: 1\$' '$D/env.txt'"
	if command -v "${GNUPLOT:-gnuplot}" >/dev/null 2>&1; then
		check "the plot" test -s "$D/ceilings.png"
	else
		skip "no gnuplot: the plot not checked"
	fi
	w=$(left "$P")
	check "nothing left behind (${w:-none})" test -z "$w"
fi

# -s 1450: every rung sends 1450-byte payloads, GSO 45 segments a message (as fit in 64 KiB)
if [ "$st" != 4 ]; then
	st=0
	timeout 120 sh scripts/reproduce ceilings -s 1450 -t 0.3 -r 1 -o "$TMP/c1450" >/dev/null 2>"$TMP/c1450.err" || st=$?
	check "ceilings -s 1450: exit 0 (got $st: $(tail -n 1 "$TMP/c1450.err"))" test "$st" -eq 0
	check "ceilings -s 1450: the sender's size" grep -q '^sender: blast -s 1450 ' "$TMP/c1450/env.txt"
	check "ceilings -s 1450: gso of 45" awk -F'\t' '$1 == "gso" && $3 == "blast -b 1 -g 45" { f = 1 } END { exit !f }' "$TMP/c1450/reproduce.tsv"
	check "ceilings -s 1450: not set beside the drop ladder" sh -c '! grep -q "Beside the drop ladder" "$1"' sh "$TMP/c1450/reproduce.md"
	st=0
fi

# SIGINT once a rung's sender runs (1 s a rung): 130 within 15 s, nothing left, nothing written.
if [ "$st" != 4 ]; then
	if [ -n "$LAUNCH" ]; then interrupted ceilings int INT gso; else skip "no env --default-signal: SIGINT not checked"; fi
fi
done_tests
