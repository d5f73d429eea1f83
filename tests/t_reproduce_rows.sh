# scripts/reproduce sendmmsg-2011, cloudflare-2015 and zerocopy at their shortest (-t 0.2 -r 1),
# on loopback and, as root, across the wire (--wire): the files, the protocol of each (env.txt's
# commands: every suck bounded by -t and --idle), the identities that make it that protocol
# (one datagram per send call at -b 1, 64 a call at -b 64; one per receive call at suck -b 1;
# one socket read by two threads), reproduce.tsv's shape with the published rows, reproduce.md's
# tables, ratios and paragraph (its numbers this run's), the plot; the ratios' arithmetic on fixed
# numbers. Every run is bounded from outside too (a past attempt hung 20 minutes in
# sendmmsg-2011 --wire): a script that has not ended in time is ended and fails; nothing of the
# wire's is left after an end, a SIGTERM mid-run included.
. tests/lib.sh

# bounded SECS NAME ARGS...: sh scripts/reproduce ARGS, output in $TMP/NAME.out and .err, waited
# for at most SECS; past that it is ended (SIGTERM, then SIGKILL) and BST is "hung", else its
# exit status.
bounded() {
	b_s=$1 b_n=$2
	shift 2
	sh scripts/reproduce "$@" >"$TMP/$b_n.out" 2>"$TMP/$b_n.err" &
	b_pid=$!
	PIDS="$PIDS $b_pid"
	b_i=0
	while kill -0 "$b_pid" 2>/dev/null && [ $b_i -lt $((b_s * 10)) ]; do
		b_i=$((b_i + 1))
		sleep 0.1
	done
	if kill -0 "$b_pid" 2>/dev/null; then
		kill -TERM "$b_pid" 2>/dev/null
		wait_pid "$b_pid" 15 || kill -KILL "$b_pid" 2>/dev/null
		BST=hung
	else
		wait "$b_pid"
		BST=$?
	fi
}
# col FILE SOURCE ROW COLUMN: a value of a reproduce.tsv
rcol() { awk -F'\t' -v s="$2" -v r="$3" -v k="$4" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i } NR > 1 && $1 == s && $2 == r { print $c }' "$1"; }
# fx X: a ratio as reproduce.md prints it
# near SHOWN X: SHOWN (a ratio as a table shows it, 2 or 3 digits) is X rounded, give or take the
# last digit shown.
near() { awk -v s="$1" -v x="$2" 'BEGIN { d = s - x; if (d < 0) d = -d; exit !(s != "" && d <= (s >= 10 ? 1 : 0.011) * (s >= 100 ? 10 : 1)) }'; }
fx() { awk -v x="$1" 'BEGIN { x = sprintf("%.3f", x) + 0; printf(x >= 100 ? "%.0f\n" : x >= 10 ? "%.1f\n" : "%.2f\n", x) }'; }
# bounded_sucks ENV: every suck of the run has its own end (-t and --idle)
bounded_sucks() {
	n_s=$(grep -c '^cmd: .*/suck ' "$1")
	n_b=$(grep '^cmd: .*/suck ' "$1" | grep -c -e ' --idle [0-9]' | tr -d ' ')
	n_t=$(grep '^cmd: .*/suck ' "$1" | grep -c -e ' -t [0-9]')
	test "$n_s" -gt 0 -a "$n_s" = "$n_b" -a "$n_s" = "$n_t"
}
# names_of DIR: the namespaces a result's env.txt says its wire used; gone NAMES: none is left
names_of() { sed -n 's/^wire: veth between network namespaces \([^ ]*\) (blast) and \([^ ]*\) (suck).*/\1 \2/p' "$1/env.txt"; }
gone() {
	[ $# -gt 0 ] || return 1
	for g in "$@"; do
		ip netns list 2>/dev/null | awk -v n="$g" '$1 == n { f = 1 } END { exit f }' || return 1
	done
}

usage_is() { # what says args...
	u_w=$1 u_s=$2
	shift 2
	u_st=0
	sh scripts/reproduce "$@" >"$TMP/u.out" 2>"$TMP/u.err" || u_st=$?
	check "$u_w: exit 2 (got $u_st)" test "$u_st" -eq 2
	check "$u_w: says \"$u_s\"" grep -qF -- "$u_s" "$TMP/u.err"
}
usage_is "an unknown experiment" "accepted: lua-2014, gso-2018, gro-2018, sendmmsg-2011, cloudflare-2015, cloudflare-2018, zerocopy, ceilings, skb-defer, all" bogus -o "$TMP/u1"
usage_is "--sink with cloudflare-2015" "--sink: only for sendmmsg-2011 and zerocopy" cloudflare-2015 --sink -o "$TMP/u1"
usage_is "sendmmsg-2011 -t 0" "-t '0'" sendmmsg-2011 -t 0 -o "$TMP/u1"
SUCK_CMD=env usage_is "cloudflare-2015 with SUCK_CMD" "cloudflare-2015 runs on this host's 127.0.0.1 only" cloudflare-2015 -o "$TMP/u1"
check "nothing written" test ! -e "$TMP/u1"

# --- sendmmsg-2011 on loopback
D=$TMP/sm
bounded 120 sm sendmmsg-2011 -t 0.2 -r 1 -o "$D"
check "sendmmsg-2011: exit 0 (got $BST)" test "$BST" = 0
[ "$BST" = 0 ] || tail -n 20 "$TMP/sm.err"
for f in reproduce.tsv reproduce.md env.txt raw/send-1-1.blast.tsv raw/send-64-1.suck.tsv raw/recv-1-1.suck.tsv raw/recv-64-1.suck.tsv; do
	check "sendmmsg: $f written" test -s "$D/$f"
done
E=$D/env.txt
check "sendmmsg: env.txt names it" grep -q '^experiment: sendmmsg-2011$' "$E"
for b in 1 2 4 8 16 32 64; do
	check "sendmmsg: send-$b: blast -s 64 -b $b -g 1" grep -q "^cmd: .*/blast .*-s 64 -t 0.2 -o tsv -b $b -g 1 " "$E"
	check "sendmmsg: recv-$b: suck -m mmsg -b $b -s 64 -w none" grep -q "^cmd: .*/suck .*-m mmsg -b $b -s 64 -w none " "$E"
done
check "sendmmsg: every suck bounded by -t and --idle" bounded_sucks "$E"
S1=$D/raw/send-1-1.blast.tsv S64=$D/raw/send-64-1.blast.tsv R1=$D/raw/recv-1-1.suck.tsv
check "sendmmsg: -b 1: one datagram per send call (calls $(field "$S1" calls) = sent $(field "$S1" sent))" test "$(field "$S1" calls)" = "$(field "$S1" sent)"
check "sendmmsg: -b 64 -g 1: batch 64, no GSO" test "$(field "$S64" batch) $(field "$S64" gso)" = "64 1"
check "sendmmsg: -b 64: about 64 datagrams per call (sent $(field "$S64" sent), calls $(field "$S64" calls))" \
	test "$(field "$S64" sent)" -ge $((60 * $(field "$S64" calls)))
check "sendmmsg: recv -b 1: one datagram per receive call" \
	test "$(field "$R1" calls)" -eq $(($(field "$R1" received) + $(field "$R1" fins) + $(field "$R1" idle_calls)))
check "sendmmsg: 64-byte datagrams" test "$(field "$S1" bytes)" -eq $(($(field "$S1" sent) * 64))
R=$D/reproduce.tsv
check "sendmmsg: reproduce.tsv: columns" test "$(head -n 1 "$R")" = "$(printf 'source\trow\ttable\tbatch\trun\thow\tduration_s\tsent\treceived\treceived_pct\tdropped\tpps\tsender_pps\treceiver_pps\tcalls\tdatagrams_per_call\tcpu_ns_per_pkt\trx_kernel_ns_per_pkt\traw_pps\tattempt\tnoise_pre_pct\tnoise_post_pct\tnoise_other_pct\tnoise_steal_pct\tnoisy')"
check "sendmmsg: reproduce.tsv: the 7 published rows" test "$(awk -F'\t' '$1 == "2011"' "$R" | wc -l)" -eq 7
check "sendmmsg: reproduce.tsv: published 804570 .. 964800, raw 1201449 .. 1557888" test \
	"$(rcol "$R" 2011 send-1 pps) $(rcol "$R" 2011 send-64 pps) $(rcol "$R" 2011 send-1 raw_pps) $(rcol "$R" 2011 send-64 raw_pps)" = "804570 964800 1201449 1557888"
check "sendmmsg: reproduce.tsv: 14 rows here" test "$(awk -F'\t' '$1 == "here"' "$R" | wc -l)" -eq 14
check "sendmmsg: send rows are blast's rate" test "$(rcol "$R" here send-64 pps)" = "$(field "$S64" pps)"
check "sendmmsg: recv rows are suck's rate" test "$(rcol "$R" here recv-1 pps)" = "$(field "$R1" pps)"
M=$D/reproduce.md
for h in '## Sending: 2011 beside here' '## Receiving, the mirror' '## The ratios that carry across machines' '## Every run here' '## What the comparison shows'; do
	check "sendmmsg: reproduce.md: $h" grep -qF "$h" "$M"
done
check "sendmmsg: the published column beside here's" grep -q "^| 64 | 964800 | +20 % | 1557888 | +30 % | $(printf '%.0f' "$(rcol "$R" here send-64 pps)") | " "$M"
r64=$(fx "$(awk -v a="$(rcol "$R" here send-64 pps)" -v b="$(rcol "$R" here send-1 pps)" 'BEGIN { print a / b }')")
check "sendmmsg: ratio batch 64 / 1: 1.20 published, $r64 here" grep -qF "| pkts/s, sendmmsg batch 64 / batch 1 | 1.20 | $r64 | none: one run each | " "$M"
check "sendmmsg: the receive ratios, none published" grep -qF "| pkts/s, recvmmsg batch 64 / batch 1 (no published counterpart) | - | " "$M"
check "sendmmsg: the paragraph: published" grep -qF 'Published: with sendmmsg of 64 messages the sender sent 1.20x the datagrams per second of one message a call (964800 against 804570), +20 % for UDP (+30 % on a raw socket, 1557888 against 1201449); half of that gain came by batch 4 (+14 %).' "$M"
check "sendmmsg: the paragraph: here's numbers" grep -qF "Here (medians) blast sent $(printf '%.0f' "$(rcol "$R" here send-64 pps)") datagrams per second at batch 64 against $(printf '%.0f' "$(rcol "$R" here send-1 pps)") at batch 1." "$M"
check "sendmmsg: the paragraph: here's ratio" grep -qF "Datagrams per second, batch 64 over batch 1: ${r64}x here against 1.20x published (one run each: no interval)" "$M"
check "sendmmsg: the paragraph: loopback's receive path" grep -qF 'On 127.0.0.1 the receive path runs inside blast' "$M"
check "sendmmsg: the paragraph: the sink not measured" grep -qF 'Into a send-only sink (no receiver on the host, the commit' "$M"
if command -v gnuplot >/dev/null 2>&1; then
	check "sendmmsg: published_vs_here.svg: 2011's and here's ratios" sh -c "grep -q '2011 (published)' '$D/published_vs_here.svg' && grep -q 'send 64/1' '$D/published_vs_here.svg'"
fi

# --- zerocopy on loopback: the negative control (the sink's rows: t_zerocopy, as root)
Z=$TMP/zc
bounded 120 zc zerocopy -t 0.2 -r 1 -o "$Z"
check "zerocopy: exit 0 (got $BST)" test "$BST" = 0
[ "$BST" = 0 ] || tail -n 20 "$TMP/zc.err"
for f in reproduce.tsv reproduce.md env.txt raw/copy-4-1.blast.tsv raw/zc-4-1.blast.tsv raw/zc-6-1.suck.tsv; do
	check "zerocopy: $f written" test -s "$Z/$f"
done
E=$Z/env.txt
check "zerocopy: env.txt names it" grep -q '^experiment: zerocopy$' "$E"
check "zerocopy: copy rows: blast -s 65000 -g 1 -b 1, no --zerocopy" test "$(grep -c '^cmd: .*/blast .*-s 65000 -t 0.2 -o tsv -g 1 -b 1 --cpu 1 --run-id ' "$E")" -eq 2
check "zerocopy: zc rows: the same with --zerocopy" test "$(grep -c '^cmd: .*/blast .*-s 65000 -t 0.2 -o tsv -g 1 -b 1 --zerocopy --cpu 1 ' "$E")" -eq 2
check "zerocopy: IPv6 rows at ::1" test "$(grep -c '^cmd: .*/suck -a ::1 .*-m mmsg -b 64 -s 65535 -w none ' "$E")" -eq 2
check "zerocopy: every suck bounded by -t and --idle" bounded_sucks "$E"
for q in 4 6; do
	ZB=$Z/raw/zc-$q-1.blast.tsv CB=$Z/raw/copy-$q-1.blast.tsv
	check "zerocopy: zc-$q: zerocopy 1, copy-$q: 0" test "$(field "$ZB" zerocopy) $(field "$CB" zerocopy)" = "1 0"
	check "zerocopy: zc-$q: one message a datagram, each completed (sent $(field "$ZB" sent), zc_sends $(field "$ZB" zc_sends), completions $(field "$ZB" zc_completions))" \
		test "$(field "$ZB" zc_sends) $(field "$ZB" zc_completions)" = "$(field "$ZB" sent) $(field "$ZB" sent)"
	check "zerocopy: zc-$q: on this host every completion copied" test "$(field "$ZB" zc_copied)" = "$(field "$ZB" zc_completions)"
	check "zerocopy: zc-$q: suck's sent == blast's" test "$(field "$Z/raw/zc-$q-1.suck.tsv" sent)" = "$(field "$ZB" sent)"
done
R=$Z/reproduce.tsv
check "zerocopy: reproduce.tsv: columns" test "$(head -n 1 "$R")" = "$(printf 'source\trow\ttable\tfamily\tsize\trun\thow\tduration_s\tsent\treceived\treceived_pct\tpps\treceived_pps\tmbytes_s\tcpu_ns_per_pkt\tzc_sends\tzc_completions\tzc_copied\tzc_enobufs\tdropped\tpub_copy\tpub_zc\tpub_unit\tpub_ratio\tattempt\tnoise_pre_pct\tnoise_post_pct\tnoise_other_pct\tnoise_steal_pct\tnoisy')"
check "zerocopy: reproduce.tsv: the 7 published rows" test "$(awk -F'\t' '$1 == "2021-2024"' "$R" | wc -l)" -eq 7
check "zerocopy: reproduce.tsv: published 0.677, 0.493, 2.594" test \
	"$(rcol "$R" 2021-2024 zc-4 pub_ratio) $(rcol "$R" 2021-2024 zc-6 pub_ratio) $(rcol "$R" 2021-2024 sink-zc-65435 pub_ratio)" = "0.677 0.493 2.594"
check "zerocopy: reproduce.tsv: 4 rows here" test "$(awk -F'\t' '$1 == "here"' "$R" | wc -l)" -eq 4
check "zerocopy: the rows are blast's rate" test "$(rcol "$R" here zc-4 pps)" = "$(field "$Z/raw/zc-4-1.blast.tsv" pps)"
M=$Z/reproduce.md
for h in '## The negative control: zero copy to a receiver on this host' '## The positive case: into the send-only sink, by size' '## The ratios that carry across machines' '## Every run here' '## What the comparison shows'; do
	check "zerocopy: reproduce.md: $h" grep -qF "$h" "$M"
done
r4=$(fx "$(awk -v a="$(rcol "$R" here copy-4 pps)" -v b="$(rcol "$R" here zc-4 pps)" 'BEGIN { print a / b }')")
check "zerocopy: ratio copy / zero copy IPv4: 1.48 published, $r4 here" grep -qF "| datagrams/s, copy / zero copy, IPv4 (loopback; published: over veth) | 1.48 | $r4 | none: one run each | " "$M"
check "zerocopy: the table: published beside here" grep -q "^| IPv4 | 173970 | 117728 | 0.677 | $(printf '%.0f' "$(rcol "$R" here copy-4 pps)") | $(printf '%.0f' "$(rcol "$R" here zc-4 pps)") | " "$M"
nz=$(($(field "$Z/raw/zc-4-1.blast.tsv" zc_completions) + $(field "$Z/raw/zc-6-1.blast.tsv" zc_completions)))
check "zerocopy: the paragraph: every one of the $nz completions copied" grep -qF "The kernel marked every one of the $nz completions of the control's zero-copy runs copied" "$M"
check "zerocopy: the paragraph: here's ratio" grep -qF "Copy over zero copy, IPv4: ${r4}x here against 1.48x published (one run each: no interval)" "$M"
check "zerocopy: the paragraph: the sink not measured" grep -qF 'The positive case needs the send-only sink: scripts/reproduce zerocopy --sink (root).' "$M"
if command -v gnuplot >/dev/null 2>&1; then
	check "zerocopy: published_vs_here.svg: the ratios" sh -c "grep -q '2021-2024 (published)' '$Z/published_vs_here.svg' && grep -q 'copy/zc IPv4' '$Z/published_vs_here.svg'"
fi

# --- cloudflare-2015 on loopback
C=$TMP/cf
bounded 120 cf cloudflare-2015 -t 0.2 -r 1 -o "$C"
if [ "$BST" = 4 ] && grep -q 'needs two CPUs' "$TMP/cf.err"; then
	skip "cloudflare-2015: one CPU here ($(tail -n 1 "$TMP/cf.err"))"
else
	check "cloudflare-2015: exit 0 (got $BST)" test "$BST" = 0
	[ "$BST" = 0 ] || tail -n 20 "$TMP/cf.err"
	E=$C/env.txt
	check "cloudflare: every suck bounded by -t and --idle" bounded_sucks "$E"
	check "cloudflare: suck -m mmsg -b 1024 -s 32, six rows" test "$(grep -c '^cmd: .*/suck .*-m mmsg -b 1024 -s 32 -w none ' "$E")" -eq 6
	check "cloudflare: blast -s 32 -b 1024 -g 1 from CPU 1" test "$(grep -c '^cmd: .*/blast .*-s 32 -t 0.2 -o tsv -b 1024 -g 1 -j [12] --cpu 1 ' "$E")" -eq 6
	check "cloudflare: one-socket: -j 2 --one-socket --cpu 0" grep -q '^cmd: .*/suck .* -j 2 --one-socket --cpu 0 ' "$E"
	check "cloudflare: unpinned: no --cpu" grep -q '^cmd: .*/suck .*-t [0-9]* --run-id ' "$E"
	O=$C/raw/one-socket-1.suck.tsv P=$C/raw/reuseport-1.suck.tsv
	check "cloudflare: one-socket: one_socket 1, threads 2" test "$(field "$O" one_socket) $(field "$O" threads)" = "1 2"
	check "cloudflare: reuseport: one_socket 0, threads 2" test "$(field "$P" one_socket) $(field "$P" threads)" = "0 2"
	check "cloudflare: one-socket: the threads add up" test $(($(field "$O" thread_received_min) + $(field "$O" thread_received_max))) -eq "$(field "$O" received)"
	check "cloudflare: one-socket: sent == valid + lost" test "$(field "$O" sent)" -eq $(($(field "$O" valid) + $(field "$O" lost)))
	check "cloudflare: one-socket: nothing foreign" test "$(field "$O" foreign)" = 0
	R=$C/reproduce.tsv
	check "cloudflare: reproduce.tsv: columns" test "$(head -n 1 "$R")" = "$(printf 'source\trow\trun\thow\tduration_s\tsent\treceived\treceived_pct\tdropped\tmpps\tcpu_ns_per_pkt\trx_kernel_ns_per_pkt\tthreads\tthread_received_min\tthread_received_max\tmpps_lo\tmpps_hi\tattempt\tnoise_pre_pct\tnoise_post_pct\tnoise_other_pct\tnoise_steal_pct\tnoisy')"
	check "cloudflare: reproduce.tsv: the published rows, the middles of their ranges" test \
		"$(rcol "$R" 2015 unpinned mpps) $(rcol "$R" 2015 pinned mpps) $(rcol "$R" 2015 one-socket mpps) $(rcol "$R" 2015 reuseport mpps)" = "0.2745 0.3700 0.4780 1.1305"
	check "cloudflare: reproduce.tsv: 6 rows here" test "$(awk -F'\t' '$1 == "here"' "$R" | wc -l)" -eq 6
	check "cloudflare: Mpps is suck's pps" test "$(rcol "$R" here pinned mpps)" = "$(awk -v p="$(field "$C/raw/pinned-1.suck.tsv" pps)" 'BEGIN { printf "%.4f\n", p / 1e6 }')"
	M=$C/reproduce.md
	check "cloudflare: reproduce.md: the rows, 2015 beside here" grep -qF '| row | receiver here | Mpps (2015) | Mpps mean (here) | least..most (here) | most / least (here) |' "$M"
	check "cloudflare: reproduce.md: published ranges" sh -c "grep -qF '| unpinned | one thread, not pinned; blast -j 1 | 0.197-0.352 |' '$M' && grep -qF '| pinned | one thread on CPU 0; blast -j 1 | ~0.370 |' '$M' && grep -qF '| reuseport | ' '$M'"
	# The ratios are computed here from reproduce.tsv's Mpps, which are rounded to 4 decimals, and
	# by the table builder from the same figures unrounded: they may differ in the last digit
	# shown (1.09 against 1.10 once), so they are compared within that digit, not as text.
	rp=$(awk -v a="$(rcol "$R" here pinned mpps)" -v b="$(rcol "$R" here unpinned mpps)" 'BEGIN { print a / b }')
	rp_md=$(awk -F' [|] ' '/^[|] Mpps, pinned [/] unpinned [(]published: the middles of the ranges[)] [|] 1.35 [|] / { print $3 }' "$M")
	check "cloudflare: ratio pinned / unpinned: 1.35 published, $rp_md here ($rp from the tsv)" near "$rp_md" "$rp"
	check "cloudflare: the pinned / unpinned row says one run each" grep -qF "| $rp_md | none: one run each | " "$M"
	ro=$(awk -v a="$(rcol "$R" here one-socket mpps)" -v b="$(rcol "$R" here pinned2 mpps)" 'BEGIN { print a / b }')
	ro_md=$(awk -F' [|] ' '/^[|] Mpps, one socket read by two threads [/] one thread [(]published: two threads against one pinned[)] [|] 1.29 [|] / { print $3 }' "$M")
	check "cloudflare: ratio one socket / one thread: 1.29 published, $ro_md here ($ro from the tsv)" near "$ro_md" "$ro"
	check "cloudflare: ratio reuseport / one socket, none published" grep -qF '| Mpps, two SO_REUSEPORT sockets / one socket read by two threads (published: four processes, not like for like) | - | ' "$M"
	check "cloudflare: the paragraph: published" grep -qF 'Published: one receiver thread took 0.197-0.352 Mpps unpinned (the most 1.79x the least) and about 0.370 pinned' "$M"
	check "cloudflare: the paragraph: RSS does not survive" grep -qF 'Multi-queue RSS does not survive on two CPUs' "$M"
	check "cloudflare: the paragraph: here's means" grep -qF "Here one thread took $(rcol "$R" here unpinned mpps | awk '{ printf "%.3f", $1 }') Mpps unpinned and $(rcol "$R" here pinned mpps | awk '{ printf "%.3f", $1 }') pinned on CPU 0 (means)." "$M"
	if command -v gnuplot >/dev/null 2>&1; then
		check "cloudflare: published_vs_here.svg" sh -c "grep -q '2015 (published)' '$C/published_vs_here.svg' && grep -q 'pinned/unpinned' '$C/published_vs_here.svg'"
	fi
fi

# --- The ratios and the paragraph on fixed numbers: sendmmsg-2011, three runs of each send row
# (batch 1 to 64: 100000, 110000, 125000, 130000, 135000, 138000, 140000, plus 10 x the run), no
# receive row: 1.40 at 64, beyond the published 1.20; 1.10 at 2, as published (1.08); half of
# the gain (+20 %) by batch 4
X=$TMP/fixed
mkdir -p "$X"
{
	: >"$TMP/empty.list"
	awk -f scripts/lib/stats.awk -v experiment=sendmmsg-2011 -v list="$TMP/empty.list" -v pub=results/published/sendmmsg-2011.tsv \
		-v pubsrc="$(sed -n 's/^#set PUBSRC //p' scripts/lib/rows/sendmmsg-2011.tsv)" \
		-v columns="$(sed -n 's/^#set TSV_COLUMNS //p' scripts/lib/rows/sendmmsg-2011.tsv)" \
		-f scripts/lib/reproduce-rows-tsv.awk "$TMP/empty.list" results/published/sendmmsg-2011.tsv
	for bp in 1:100000 2:110000 4:125000 8:130000 16:135000 32:138000 64:140000; do
		for k in 1 2 3; do
			printf 'here\tsend-%s\tsend\t%s\t%s\t-\t2\t\t\t99\t0\t%s\t\t\t\t\t\t\t\n' "${bp%:*}" "${bp%:*}" "$k" $((${bp#*:} + 10 * k))
		done
	done
} >"$X/reproduce.tsv"
awk -f scripts/lib/stats.awk -v pubsrc=2011 -v time=2 -v runs=3 -v machine=test -v cpu=pins -v size=64 -v rxbatch=1024 -v sender=x \
	-f scripts/lib/reproduce-2018.awk -f scripts/lib/reproduce-sendmmsg.awk "$X/reproduce.tsv" >"$X/reproduce.md"
check "fixed: batch 64 / 1: 1.40 (1.40..1.40, 90 %), larger than published" grep -qF '| pkts/s, sendmmsg batch 64 / batch 1 | 1.20 | 1.40 | 1.40..1.40 (90 %) | yes; larger than published |' "$X/reproduce.md"
check "fixed: batch 2 / 1: 1.10, as large as published (1.08)" grep -qF '| pkts/s, sendmmsg batch 2 / batch 1 | 1.08 | 1.10 | 1.10..1.10 (90 %) | yes; as large as published |' "$X/reproduce.md"
check "fixed: the half of the gain: batch 4" grep -qF 'Half of the gain here came by batch 4 (+25 %).' "$X/reproduce.md"
check "fixed: no receive rows: not measured" grep -qF 'over one datagram a call: not measured here.' "$X/reproduce.md"
check "fixed: medians in the table" grep -q '^| 64 | 964800 | +20 % | 1557888 | +30 % | 140020 | +40 % | ' "$X/reproduce.md"
awk -v dat=1 -v pubsrc=2011 -f scripts/lib/stats.awk -f scripts/lib/reproduce-2018.awk -f scripts/lib/reproduce-sendmmsg.awk "$X/reproduce.tsv" >"$X/ratios.dat"
check "fixed: the plot's data: 12 ratios, the receive ones unpublished (NaN)" test "$(wc -l <"$X/ratios.dat") $(sed -n 7p "$X/ratios.dat" | cut -f 2)" = "12 NaN"

# --- --wire (root): both experiments across the veth pair; nothing left after; SIGTERM mid-run
if [ "$(id -u)" -ne 0 ] || ! command -v ip >/dev/null 2>&1; then
	skip "not root or no ip: --wire not run"
	done_tests
	exit
fi
for e in sendmmsg-2011 cloudflare-2015; do
	W=$TMP/wire-$e
	bounded 150 "wire-$e" "$e" --wire -t 0.2 -r 1 -o "$W"
	if [ "$BST" = 4 ]; then
		skip "$e --wire: $(tail -n 1 "$TMP/wire-$e.err")"
		continue
	fi
	check "$e --wire: exit 0 (got $BST)" test "$BST" = 0
	[ "$BST" = 0 ] || tail -n 20 "$TMP/wire-$e.err"
	check "$e --wire: env.txt: the wire" grep -q '^wire: veth between network namespaces bs-wire-' "$W/env.txt"
	check "$e --wire: every suck bounded by -t and --idle, in its namespace" sh -c "grep -q '^cmd: ip netns exec bs-wire-[0-9]*-suck .*/suck ' '$W/env.txt'"
	check "$e --wire: every suck bounded" bounded_sucks "$W/env.txt"
	check "$e --wire: suck at 198.18.0.2 with --rx-dev" grep -q '^cmd: .*/suck -a 198.18.0.2 .*--rx-dev bs[0-9]*r' "$W/env.txt"
	check "$e --wire: reproduce.md says the wire" grep -qF 'across a veth pair between two network namespaces' "$W/reproduce.md"
	check "$e --wire: nothing of the wire left ($(names_of "$W"))" gone $(names_of "$W")
done
check "sendmmsg --wire: the paragraph: the wire's receive path" grep -qF 'On the wire blast' "$TMP/wire-sendmmsg-2011/reproduce.md"

# SIGTERM in the middle of a --wire run: exit 143, the namespaces removed, no tool left in them
sh scripts/reproduce sendmmsg-2011 --wire -t 0.5 -r 1 -o "$TMP/term" >"$TMP/term.out" 2>"$TMP/term.err" &
TP=$!
PIDS="$PIDS $TP"
i=0
while ! grep -q '\[3/' "$TMP/term.err" 2>/dev/null && kill -0 "$TP" 2>/dev/null && [ $i -lt 600 ]; do
	i=$((i + 1))
	sleep 0.05
done
ns=$(ip netns list 2>/dev/null | awk -v p="bs-wire-$TP-" 'index($1, p) == 1 { print $1 }')
kill -TERM "$TP" 2>/dev/null
st=hung
if wait_pid "$TP" 20; then
	wait "$TP"
	st=$?
fi
check "SIGTERM mid-run: exit 143 (got $st)" test "$st" = 143
check "SIGTERM mid-run: its namespaces existed ($ns)" test -n "$ns"
check "SIGTERM mid-run: and are gone" gone $ns
check "SIGTERM mid-run: nothing written" test ! -e "$TMP/term"

done_tests
