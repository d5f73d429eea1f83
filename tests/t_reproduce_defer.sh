# scripts/reproduce skb-defer: net.core.skb_defer_max off (0) against on (the value found at the
# start) at its shortest (-t 0.3 -r 2), on loopback and across the wire (--wire): the table and
# tsv with both settings of both sizes in every round, the sysctl written as each row says
# (skb_defer_max per run), the rows in A B B A order, the on/off ratios recomputed here from the
# per-run rows and found in reproduce.md, the sysctl back at its value afterwards; a SIGTERM (on
# the wire) and a SIGHUP (loopback) in the middle of an off run end it with the sysctl restored
# and no namespace left. The verdicts on fixed numbers (met, not met, unresolved). Bad usage
# exits 2, no root exits 4 with the sysctl untouched. No speed is asserted, nor which setting
# wins. Runs: about 10 s each, bounded from outside (timeout); traffic on 127.0.0.1 or inside
# the namespaces the script makes (198.18.0.0/15). The sysctl is global: this test writes its
# value back on its own exit too, should the script have failed to.
# shellcheck disable=SC2016 # awk programs and sh -c scripts in single quotes
. tests/lib.sh

SYSCTL=/proc/sys/net/core/skb_defer_max
SIZES="1450 64"

for bad in "--sink" "-t bogus" "-r 0" "--mtu 99"; do
	st=0
	# shellcheck disable=SC2086 # the words of the bad option
	sh scripts/reproduce skb-defer $bad -o "$TMP/bad" >/dev/null 2>"$TMP/bad.err" || st=$?
	check "skb-defer $bad: exit 2 (got $st: $(head -n 1 "$TMP/bad.err"))" test "$st" -eq 2
done
check "bad usage: nothing written" test ! -e "$TMP/bad"
check "-h names skb-defer" sh -c 'sh scripts/reproduce -h 2>&1 | grep -q "^  skb-defer "'

# ---- The verdicts on fixed numbers (lib/reproduce-skb.awk): 5 rounds at 1450 B all at or above
# 1.20 (met), at 64 B all near 1 (not met), at 512 B across 1.20 (unresolved); 2 rounds at 256 B
# (unresolved: too few rounds for the interval's level).
{
	printf 'source\trow\tsetting\tsize\trun\thow\tduration_s\tskb_defer_max\tsent\treceived\treceived_pct\tdropped\tpps\tcpu_ns_per_pkt\trx_kernel_ns_per_pkt\tpub_lo\tpub_hi\tattempt\tnoise_pre_pct\tnoise_post_pct\tnoise_other_pct\tnoise_steal_pct\tnoisy\n'
	printf '2025\tcommit\t\t\t-\tx\t\t\t\t\t\t\t\t\t\t1.20\t1.30\t\t\t\t\t\t\n'
	printf '2025\tlkp\t\t\t-\tx\t\t\t\t\t\t\t\t\t\t3.00\t3.00\t\t\t\t\t\t\n'
	awk 'BEGIN {
		split("125000 130000 135000 128000 140000", h, " ")
		split("101000 99000 100500 99500 100000", l, " ")
		split("110000 130000 115000 125000 120000", m, " ")
		for (r = 1; r <= 5; r++) {
			printf "here\toff-1450\toff\t1450\t%d\tx\t1.0\t0\t200000\t100000\t50\t100000\t100000\t900\t\t\t\t1\t0\t0\t0\t0\t0\n", r
			printf "here\ton-1450\ton\t1450\t%d\tx\t1.0\t64\t200000\t%d\t60\t0\t%d\t800\t\t\t\t1\t0\t0\t0\t0\t0\n", r, h[r], h[r]
			printf "here\toff-64\toff\t64\t%d\tx\t1.0\t0\t200000\t100000\t50\t100000\t100000\t900\t\t\t\t1\t0\t0\t0\t0\t0\n", r
			printf "here\ton-64\ton\t64\t%d\tx\t1.0\t64\t200000\t%d\t50\t0\t%d\t900\t\t\t\t1\t0\t0\t0\t0\t0\n", r, l[r], l[r]
			printf "here\toff-512\toff\t512\t%d\tx\t1.0\t0\t200000\t100000\t50\t0\t100000\t900\t\t\t\t1\t0\t0\t0\t0\t0\n", r
			printf "here\ton-512\ton\t512\t%d\tx\t1.0\t64\t200000\t%d\t50\t0\t%d\t900\t\t\t\t1\t0\t0\t0\t0\t0\n", r, m[r], m[r]
		}
		for (r = 1; r <= 2; r++) {
			printf "here\toff-256\toff\t256\t%d\tx\t1.0\t0\t200000\t100000\t50\t0\t100000\t900\t\t\t\t1\t0\t0\t0\t0\t0\n", r
			printf "here\ton-256\ton\t256\t%d\tx\t1.0\t64\t200000\t150000\t50\t0\t150000\t900\t\t\t\t1\t0\t0\t0\t0\t%d\n", r, r == 2
		}
	}'
} >"$TMP/fixed.tsv"
awk -f scripts/lib/stats.awk -v pubsrc=2025 -v time=1 -v runs=5 -v machine=m -v cpu=c -v batch=32 -v rounds=abba \
	-f scripts/lib/reproduce-2018.awk -f scripts/lib/reproduce-skb.awk "$TMP/fixed.tsv" >"$TMP/fixed.md"
check "fixed: 1450 B met" grep -qF '| 1450 | 5 | 100.0k (100.0k..100.0k) | 130.0k (125.0k..140.0k) | 1.300 | 1.250..1.400 | 1.250..1.400 (93.8 %) | 1.20..1.30 | met |' "$TMP/fixed.md"
check "fixed: 64 B not met" grep -q '^| 64 | 5 | .* | 1.000 | 0.990..1.010 | 0.990..1.010 (93.8 %) | 1.20..1.30 | not met |$' "$TMP/fixed.md"
check "fixed: 512 B unresolved" grep -q '^| 512 | 5 | .* | 1.200 | 1.100..1.300 | 1.100..1.300 (93.8 %) | 1.20..1.30 | unresolved |$' "$TMP/fixed.md"
check "fixed: 2 rounds, unresolved, one noisy" grep -q '^| 256 | 2 (1 noisy) | .* | 1.500 | 1.500..1.500 | .* | unresolved |$' "$TMP/fixed.md"
check "fixed: a round's ratio, on first in an even round" grep -qF '| 1450 | 2 | on | 100.0k | 130.0k | 1.300 |' "$TMP/fixed.md"
check "fixed: the paragraph's verdicts" sh -c 'grep -q "the published gain is met" "$1" && grep -q "the deferral cost throughput here\|not met: the whole interval" "$1" && grep -q "unresolved, the interval holds 1.2" "$1" && grep -q "too few rounds for a verdict" "$1"' sh "$TMP/fixed.md"
awk -v dat=1 -f scripts/lib/stats.awk -v pubsrc=2025 -f scripts/lib/reproduce-2018.awk -f scripts/lib/reproduce-skb.awk "$TMP/fixed.tsv" >"$TMP/fixed.dat"
check "fixed: the plot's data, the published range beside here's interval" grep -qF "$(printf 'on/off 1450 B\t1.25\t1.20\t1.30\t1.300\t1.250\t1.400')" "$TMP/fixed.dat"

# ---- Without root: exit 4 and why (a copy of scripts/ the unprivileged user can read).
if [ "$(id -u)" -ne 0 ]; then
	AS=
elif setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	AS="setpriv --reuid=65534 --regid=65534 --clear-groups"
else
	AS=none
fi
if [ "$AS" = none ]; then
	skip "no setpriv: skb-defer without root not checked"
else
	chmod 755 "$TMP"
	mkdir "$TMP/u"
	cp -R scripts "$TMP/u/"
	chmod -R a+rX "$TMP/u"
	before=$(cat "$SYSCTL" 2>/dev/null)
	st=0
	# shellcheck disable=SC2086 # the runner's words
	(cd / && $AS sh "$TMP/u/scripts/reproduce" skb-defer -t 0.3 -r 1 -o "$TMP/u/out") >/dev/null 2>"$TMP/u.err" || st=$?
	check "without root: exit 4 (got $st: $(head -n 1 "$TMP/u.err"))" test "$st" -eq 4
	check "without root: says it needs root" grep -q 'skb-defer needs root .*: not supported here (exit 4)' "$TMP/u.err"
	check "without root: nothing written" test ! -e "$TMP/u/out"
	check "without root: the sysctl untouched" test "$(cat "$SYSCTL" 2>/dev/null)" = "$before"
fi

if [ "$(id -u)" -ne 0 ]; then
	skip "not root: skb-defer writes the sysctl net.core.skb_defer_max; its runs not checked"
	done_tests
	exit
fi
if [ ! -f "$SYSCTL" ]; then
	skip "no $SYSCTL on this kernel: skb-defer's runs not checked"
	done_tests
	exit
fi
S0=$(cat "$SYSCTL")
if [ "$S0" = 0 ]; then
	skip "net.core.skb_defer_max is 0 here (the deferral off): skb-defer's runs not checked"
	st=0
	sh scripts/reproduce skb-defer -t 0.3 -r 1 -o "$TMP/zero" >/dev/null 2>"$TMP/zero.err" || st=$?
	check "skb_defer_max 0: exit 4 (got $st)" test "$st" -eq 4
	done_tests
	exit
fi
# the test's own exit writes the value back if the script left another
trap 'if [ "$(cat "$SYSCTL" 2>/dev/null)" != "$S0" ]; then echo "$S0" >"$SYSCTL"; echo "t_reproduce_defer: wrote net.core.skb_defer_max back to $S0"; fi
	for p in $PIDS; do kill "$p" 2>/dev/null; done
	if [ "${KEEP:-0}" = 1 ]; then echo "kept $TMP"; else rm -rf "$TMP"; fi' EXIT

# ns_left P: the wire's namespaces of run P still there
ns_left() { ip netns list 2>/dev/null | awk -v p="bs-wire-$1-" 'index($1, p) == 1 { print $1 }'; }

# defer_run NAME ARGS...: scripts/reproduce skb-defer -t 0.3 -r 2 ARGS into $TMP/NAME, bounded
# (120 s), then everything a run must hold; the wire's namespaces gone with --wire.
defer_run() {
	dr_n=$1
	shift
	D=$TMP/$dr_n
	st=0
	timeout -s TERM 120 sh scripts/reproduce skb-defer -t 0.3 -r 2 "$@" -o "$D" >"$TMP/$dr_n.out" 2>"$TMP/$dr_n.err" || st=$?
	# as root with the sysctl there, exit 4 only for what this host lacks: two CPUs, a writable
	# /proc/sys, the veth path of --wire
	if [ "$st" -eq 4 ] && grep -q -e 'two CPUs' -e 'cannot write' -e '--wire' -e 'veth' "$TMP/$dr_n.err"; then
		skip "skb-defer $*: cannot run here: $(grep 'exit 4' "$TMP/$dr_n.err" | head -n 1)"
		return 0
	fi
	check "$dr_n: exit 0 (got $st: $(tail -n 1 "$TMP/$dr_n.err"))" test "$st" -eq 0
	[ "$st" -eq 0 ] || { tail -n 20 "$TMP/$dr_n.err"; return 0; }
	check "$dr_n: the sysctl back at $S0 ($(cat "$SYSCTL"))" test "$(cat "$SYSCTL")" = "$S0"
	check "$dr_n: reproduce.md and reproduce.tsv" test -s "$D/reproduce.md" -a -s "$D/reproduce.tsv"
	check "$dr_n: env.txt names the experiment, the order and the saved value" sh -c \
		"grep -q '^experiment: skb-defer\$' '$D/env.txt' && grep -q '^order: abba' '$D/env.txt' && grep -q '^skb_defer_max: off 0, on $S0 ' '$D/env.txt'"
	for s in $SIZES; do
		for r in 1 2; do
			for set in off on; do
				want=0
				[ "$set" = off ] || want=$S0
				check "$dr_n: $set-$s run $r: one row, skb_defer_max $want, suck's figures" awk -F'\t' -v row="$set-$s" -v r="$r" -v w="$want" '
					NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
					$c["source"] == "here" && $c["row"] == row && $c["run"] == r { n++
						if ($c["skb_defer_max"] != w || $c["pps"] !~ /^[0-9.]+$/ || $c["received"] !~ /^[1-9][0-9]*$/ || $c["noisy"] !~ /^[01]$/) bad = 1 }
					END { exit !(n == 1 && !bad) }' "$D/reproduce.tsv"
			done
			# the round's ratio, recomputed from the two runs' rows, is the one reproduce.md shows
			q=$(awk -F'\t' -v s="$s" -v r="$r" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
				$c["source"] == "here" && $c["run"] == r && $c["size"] == s { p[$c["setting"]] = $c["pps"] }
				END { if (p["off"] > 0) printf "%.3f", p["on"] / p["off"] }' "$D/reproduce.tsv")
			check "$dr_n: $s B round $r: on/off $q in reproduce.md" grep -q "^| $s | $r | o[nf]* | .* | $q |\$" "$D/reproduce.md"
		done
		m=$(awk -F'\t' -v s="$s" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["source"] == "here" && $c["size"] == s { p[$c["run"], $c["setting"]] = $c["pps"] }
			END { a = sprintf("%.3f", p[1, "on"] / p[1, "off"]); b = sprintf("%.3f", p[2, "on"] / p[2, "off"]); printf "%.4f", (a + b) / 2 }' "$D/reproduce.tsv")
		check "$dr_n: $s B: the median of the rounds ($m), 2 rounds unresolved" awk -v m="$m" -v s="$s" -F' [|] ' '
			$1 == "| " s && $2 ~ /^2( |$)/ { d = $5 - m; if (d < 0) d = -d; if (d < 0.00051 && $0 ~ /\| unresolved \|$/) f = 1 }
			END { exit !f }' "$D/reproduce.md"
	done
	# A B B A: round 1 in the rows' order, round 2 reversed (the progress lines)
	o=$(sed -n 's/.*\] skb-defer \([a-z0-9-]*\), run \([0-9]\) of 2,.*/\1.\2/p' "$TMP/$dr_n.err" | tr '\n' ' ')
	check "$dr_n: A B B A order ($o)" test "$o" = "off-1450.1 on-1450.1 off-64.1 on-64.1 on-64.2 off-64.2 on-1450.2 off-1450.2 "
	check "$dr_n: the paragraph and the caveat" sh -c "grep -q '^At 1450 bytes suck received' '$D/reproduce.md' && grep -q 'the smallest case it describes' '$D/reproduce.md'"
}

defer_run loop
if command -v ip >/dev/null 2>&1; then
	defer_run wire --wire
	if [ -s "$TMP/wire/reproduce.tsv" ]; then
		check "wire: the NAPI thread's CPU per datagram in every run" awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["source"] == "here" { n++; if ($c["rx_kernel_ns_per_pkt"] !~ /^[0-9.]+$/) bad = 1 } END { exit !(n == 8 && !bad) }' "$TMP/wire/reproduce.tsv"
		P=$(sed -n 's/^wire: veth between network namespaces bs-wire-\([0-9]*\)-blast .*/\1/p' "$TMP/wire/env.txt")
		check "wire: no namespace left (${P:-no pid}: $(ns_left "${P:-x}"))" test -n "$P" -a -z "$(ns_left "${P:-x}")"
	fi
else
	skip "no ip: skb-defer --wire not checked"
fi

# ---- A signal in the middle of an off run: the sysctl restored, nothing written, nothing left.
# signal_mid NAME SIGNAL STATUS ARGS...: a run of 2 s runs, SIGNAL sent once the sysctl reads 0
# (an off run is going: at most 30 s waited), then its end waited for (15 s).
SM_LAUNCH= # what starts the run (env --default-signal=QUIT for SIGQUIT)
signal_mid() {
	sm_n=$1 sm_sig=$2 sm_want=$3
	shift 3
	# shellcheck disable=SC2086 # SM_LAUNCH: words
	$SM_LAUNCH sh scripts/reproduce skb-defer -t 2 -r 1 "$@" -o "$TMP/$sm_n" >/dev/null 2>"$TMP/$sm_n.err" &
	P=$!
	PIDS="$PIDS $P"
	i=0
	while [ "$(cat "$SYSCTL")" != 0 ] && kill -0 "$P" 2>/dev/null && [ $i -lt 3000 ]; do
		i=$((i + 1))
		sleep 0.01
	done
	if [ "$(cat "$SYSCTL")" != 0 ]; then
		if wait_pid "$P" 15; then wait "$P"; st=$?; else st=hung; fi
		[ "$st" != 4 ] || { skip "$sm_n: cannot run here: $(grep 'exit 4' "$TMP/$sm_n.err" | head -n 1)"; return 0; }
		fail "$sm_n: no off run seen in 30 s (status $st: $(tail -n 1 "$TMP/$sm_n.err"))"
		return 0
	fi
	kill "-$sm_sig" "$P"
	if wait_pid "$P" 15; then wait "$P"; st=$?; else st=hung; fi
	check "$sm_n: SIG$sm_sig in an off run ends it with $sm_want (got $st: $(tail -n 1 "$TMP/$sm_n.err"))" test "$st" = "$sm_want"
	check "$sm_n: the sysctl restored to $S0 ($(cat "$SYSCTL"))" test "$(cat "$SYSCTL")" = "$S0"
	check "$sm_n: nothing written" test ! -e "$TMP/$sm_n"
	check "$sm_n: no namespace left ($(ns_left "$P"))" test -z "$(ns_left "$P")"
}
if command -v ip >/dev/null 2>&1; then
	signal_mid term-wire TERM 143 --wire
else
	signal_mid term TERM 143
fi
# A shell that started with SIGHUP ignored (under nohup) cannot trap it, so neither can the
# script it starts: the run goes on, as nohup asks. Checked only where SIGHUP is not ignored.
if [ $((0x$(sed -n 's/^SigIgn:[[:space:]]*//p' /proc/$$/status) & 1)) -eq 1 ]; then
	skip "hup: SIGHUP is ignored in this shell (nohup?): a script cannot trap it"
else
	signal_mid hup HUP 129
fi
# SIGQUIT: a command started with & ignores it unless told otherwise (env --default-signal)
if env --default-signal=QUIT true 2>/dev/null; then
	SM_LAUNCH="env --default-signal=QUIT"
	signal_mid quit QUIT 131
else
	skip "quit: no env --default-signal: SIGQUIT not checked"
fi

done_tests
