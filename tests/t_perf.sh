# make perf's parts, quickly and without judging speed (the machine is busy while tests run):
# bin/bare's accounting and options (calib too), the sink that goes away after its sender, one
# short round of scripts/perf with every row of its table and both of its files (the noise of
# each measurement in the figures), and its verdicts, --budget and --twice against a stand-in
# iperf3 whose rate each run sets: met, NOT MET and unresolved, each made so on purpose.
. tests/lib.sh

start_bare() { # NAME ARGS...: bin/bare ARGS -p 0 through start_listener; sets PORT and BARE_PID
	sb_n=$1; shift
	start_listener "$sb_n" "$BIN/bare" "$@" -p 0
	sb_st=$?
	BARE_PID=$LISTENER_PID
	return $sb_st
}

# bare recv -n COUNT takes exactly COUNT, with recvfrom and with recvmmsg (whose last call
# must ask for no more than what is left).
for b in 1 32; do
	n=recv-b$b
	if start_bare "$n" recv -n 1000 -b "$b" -R 1048576; then
		"$BIN/blast" -p "$PORT" -n 1000 -r 50k -o tsv >"$TMP/$n.blast" 2>"$TMP/$n.berr"
		check "$n: blast exits 0" test $? -eq 0
		check "$n: bare ends on the count" wait_pid "$BARE_PID" 15
		check "$n: received 1000 ($(field "$TMP/$n.out" received))" test "$(field "$TMP/$n.out" received)" = 1000
		check "$n: stop count" test "$(field "$TMP/$n.out" stop)" = count
		check "$n: blast sent 1000" test "$(field "$TMP/$n.blast" sent)" = 1000
		check "$n: cpu per datagram reported" awk "BEGIN { exit !($(field "$TMP/$n.out" cpu_ns_per_pkt) > 0) }"
		[ "$b" = 32 ] && check "$n: recvmmsg calls" test "$(field "$TMP/$n.out" call)" = recvmmsg
		# Past net.core.rmem_max only as root (SO_RCVBUFFORCE), as with suck -R.
		[ "$(id -u)" = 0 ] && check "$n: -R 1 MiB granted" test "$(field "$TMP/$n.out" rcvbuf)" = 1048576
	else
		fail "$n: bare recv did not start"
	fi
done

# bare send with sendmmsg and GSO into bare recv: whole GSO messages only, none received that
# was not sent; SIGINT stops the receiver at once, with its report.
if start_bare gso recv -b 32; then
	"$BIN/bare" send -p "$PORT" -s 200 -t 0.2 -b 4 -g 2 >"$TMP/gso.send" 2>"$TMP/gso.serr"
	st=$?
	if [ $st -eq 4 ]; then
		skip "bare send -g: $(cat "$TMP/gso.serr")"
	else
		check "gso: bare send exits 0" test $st -eq 0
	fi
	kill -INT "$BARE_PID"
	check "gso: bare recv ends on SIGINT" wait_pid "$BARE_PID" 10
	if [ $st -eq 0 ]; then
		sent=$(field "$TMP/gso.send" sent) got=$(field "$TMP/gso.out" received)
		check "gso: sent some ($sent)" test "$sent" -gt 0
		check "gso: sent is whole messages of 2" test $((sent % 2)) -eq 0
		check "gso: received $got of $sent" test "$got" -gt 0 -a "$got" -le "$sent"
		check "gso: stop signal" test "$(field "$TMP/gso.out" stop)" = signal
		check "gso: tsv columns as blast's" test "$(field "$TMP/gso.send" gso)" = 2
	fi
else
	fail "gso: bare recv did not start"
fi

# The sink with --idle goes away once its sender stops, so blast's fins end; blast's own
# accounting is untouched.
if start_bare sink sink --idle 0.2; then
	"$BIN/blast" -p "$PORT" -t 0.2 -o tsv >"$TMP/sink.blast" 2>"$TMP/sink.berr"
	check "sink: blast exits 0" test $? -eq 0
	check "sink: goes away by itself" wait_pid "$BARE_PID" 10
	check "sink: blast sent some" test "$(field "$TMP/sink.blast" sent)" -gt 0
else
	fail "sink: did not start"
fi

p=$("$BIN/bare" port)
check "port: a port number ($p)" test "$p" -ge 1 -a "$p" -le 65535

# bare calib: the fixed work on each CPU named, a row each; -t SECS does as many loops as fit.
"$BIN/bare" calib -n 200 --cpus 0 >"$TMP/calib.out" 2>"$TMP/calib.err"
check "calib -n 200: exit 0 ($(cat "$TMP/calib.err"))" test $? -eq 0
check "calib: its header" test "$(head -n 1 "$TMP/calib.out")" = "$(printf 'cpu\tloops\twall_ns\tcpu_ns')"
check "calib: one row, CPU 0, 200 loops, a time" awk -F'\t' 'NR == 2 && $1 == 0 && $2 == 200 && $3 > 0 && $4 > 0 { ok = 1 } END { exit !(ok && NR == 2) }' "$TMP/calib.out"
"$BIN/bare" calib -t 0.01 >"$TMP/calib.out"
check "calib -t 0.01: some loops, about 10 ms" awk -F'\t' 'NR == 2 && $1 == "-" && $2 > 0 && $3 >= 1e7 && $3 < 1e9 { ok = 1 } END { exit !ok }' "$TMP/calib.out"
if [ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ]; then
	"$BIN/bare" calib -n 100 --cpus 0,1 >"$TMP/calib.out"
	check "calib --cpus 0,1: a row per CPU" test "$(cut -f 1 "$TMP/calib.out" | tr '\n' ' ')" = "cpu 0 1 "
fi

for args in "bogus" "send -p 0 -s 100 -t 1" "send -p 9 -s 100" "recv -p 0 -b 0" "recv -p 0 -n x" \
	"send -p 9 -s 5000 -t 1 -g 64" "sink -p 0 --idle 0" "recv -p 0 extra" "calib" "calib -n 5 -t 1" \
	"calib -n 0" "calib -n 5 --cpus 99999" "calib -n 5 --cpus ," "calib -n 5 -p 0" "recv -p 0 --cpus 0"; do
	# shellcheck disable=SC2086
	"$BIN/bare" $args >/dev/null 2>"$TMP/usage.err"
	check "bare $args: exit 2" test $? -eq 2
done

# One short round of scripts/perf into a temporary file: every row, both files.
mkdir "$TMP/scratch"
# In the background for its pid, which names its namespaces (bs-wire-PID-*): other tests and
# commands on the machine may have theirs at the same time.
# No measurement made again (--retry 0): the machine is busy while tests run, and the retries
# have a test of their own (t_perf_noise).
TMPDIR=$TMP/scratch sh scripts/perf -r 1 -t 0.1 -s 1450 --retry 0 -o "$TMP/perf/latest.txt" \
	>"$TMP/perf.out" 2>"$TMP/perf.err" &
perf_pid=$!
wait "$perf_pid"
st=$?
# One round is too few for a verdict (its interval is a point, at 0 %): unresolved, exit 0.
check "perf: exits 0 (status $st: $(tail -n 1 "$TMP/perf.err"))" test $st -eq 0
check "perf: its temporary files removed" test -z "$(ls "$TMP/scratch")"
T=$TMP/perf/latest.txt
check "perf: table file" test -s "$T"
check "perf: figures file" test -s "$TMP/perf/latest.tsv"
check "perf: stdout is the table" cmp -s "$T" "$TMP/perf.out"
check "perf: a progress line per measurement" test "$(grep -c '^perf: \[[0-9]*/[0-9]*\]' "$TMP/perf.err")" -ge 11
has() { grep -q -- "$1" "$T"; }
# A row with a figure: the first line with the label has "median [min max]", not "-".
num() { grep -m 1 -- "$1" "$T" | grep -q '  [0-9][0-9.]* \[[0-9]'; }
for r in "sendto     blast -b 1" "           bare send -b 1" "sendmmsg   blast -b 32" \
	"           bare send -b 32" "recvfrom   suck -m buffer" "             bare recv" \
	"             ratio buffer/bare" "           suck -m copy" "recvmmsg   suck -m mmsg" \
	"             bare recv -b 32" "             ratio mmsg/bare" \
	"blast (default) into suck -m buffer (sent)" "blast -g 45 alone into a sink"; do
	check "perf: row '$r' with a figure" num "$r"
done
check "perf: blast/bare ratio rows" test "$(grep -c 'ratio blast/bare' "$T")" -eq 3
# Every receive pair has its own bare twin and ratio row (the xdp pair's when it ran).
XDP_RAN=0
grep -q '^xdp, on two veth pairs' "$T" && XDP_RAN=1
check "perf: a bare twin per receive pair" test "$(grep -cE '^ +bare recv' "$T")" -eq $((7 + XDP_RAN))
for r in "ratio copy/bare" "ratio gro/bare" "ratio uring/bare" "suck -m gro" "suck -m uring" \
	"GSO        blast -g 45" "bare send -g 45" "blast (default) into suck -m gro (sent)" \
	"suck -m gro (received)" "ratio blast/best of iperf3, sockperf" "at the same time on one CPU"; do
	check "perf: row '$r'" has "$r"
done
for t in iperf3 sockperf; do
	if command -v $t >/dev/null 2>&1; then
		check "perf: $t row with a figure" num "^  $t .*(sent)"
	else
		check "perf: $t said missing" has "missing:.*$t"
	fi
done
# Three targets at 1450 bytes; suck uring against bare io_uring, suck epoll and pool
# against their bare twins and suck --latency against the same variant without it
#, each at 1450 and 64 bytes; blast and suck -m gro against iperf3 at 1450
# and 64 bytes: 64 is not measured here, so those say n/a.
check "perf: twenty-one targets marked" test "$(grep -c -E '^  (met|NOT MET|unresolved|n/a) ' "$T")" -eq 21
check "perf: one round decides no target" sh -c "! grep -qE '^  (met|NOT MET) ' '$T'"
check "perf: the verdicts counted" grep -qE '^verdicts: 0 met, 0 NOT MET, [0-9]+ unresolved, [0-9]+ not measured$' "$T"
check "perf: unresolved, and no budget to resolve it said" grep -q '^  unresolved: no --budget' "$T"
check "perf: the peer's targets name it" grep -q '^targets against .*iperf3' "$T"
for t in "blast default sent pps >= 1.25 x iperf3 client, 64 B" "suck -m gro received pps >= 1.05 x iperf3 server, 64 B"; do
	check "perf: peer target '$t' not measured at -s 1450" grep -qF "n/a       $t" "$T"
done
check "perf: row 'ratio suck gro received/iperf3 server received'" has "ratio suck gro received/iperf3 server received"
# A target measured: its verdict, the median of its per-round ratios, their interval and its
# level, the rounds (and how many of them were noisy), what it needs.
measured() {
	grep -F -- "$1" "$T" |
		grep -qE '^  (met|NOT MET|unresolved) .* [0-9]+\.[0-9]{3} \[[0-9]+\.[0-9]{3} [0-9]+\.[0-9]{3}\] at [0-9.]+ %, [0-9]+ rounds?(, [0-9]+ noisy)?  \(needs (<=|>=) [0-9.]+\)$'
}
check "perf: target of suck --latency at 1450 B measured" measured "suck mmsg --latency <= 1.10 x without (CPU per datagram), 1450 B"
for t in "suck uring <= 1.05 x bare io_uring (CPU per datagram), 64 B" \
	"suck mmsg --latency <= 1.10 x without (CPU per datagram), 64 B"; do
	check "perf: target '$t' not measured at -s 1450" grep -qF "n/a       $t" "$T"
done
# suck -m mmsg --latency beside suck -m mmsg; suck -m uring beside the bare io_uring loop; bare
# io_uring beside bare recvmmsg, a finding in a block of its own and no target.
for r in "latency    suck -m mmsg --latency" "             suck -m mmsg" "             ratio latency/without"; do
	check "perf: row '$r' with a figure" num "$r"
done
check "perf: the io_uring finding is said to be no target" grep -q '^finding, not a target: what io_uring costs against recvmmsg' "$T"
check "perf: no target compares io_uring with recvmmsg" sh -c "! grep -E '^  (met|NOT MET|n/a) .*recvmmsg' '$T' | grep -q io_uring"
figs() { cut -f 2 "$TMP/perf/latest.tsv" | grep -cxE "$1"; }
check "perf: the figures of suck --latency and without, cpu and lost" test "$(figs 'recv\.latency\.(on|off)')" -eq 4
# suck -m epoll and -m pool beside their bare twins, each a target; and suck -m pool
# beside suck -m mmsg, the hand-off's cost, a finding and no target.
for t in "suck epoll <= 1.05 x bare epoll (CPU per datagram), 1450 B" \
	"suck pool <= 1.05 x bare pool (CPU per datagram), 1450 B"; do
	check "perf: target '$t' measured" measured "$t"
done
for r in "epoll      suck -m epoll" "             bare recv --epoll" "             ratio epoll/bare" \
	"pool       suck -m pool" "             bare recv --pool 1 -b 32" "             ratio pool/bare" \
	"pool       suck -m pool --workers 1" "recvmmsg   suck -m mmsg -b 32" "           ratio pool/mmsg"; do
	check "perf: row '$r' with a figure" num "$r"
done
check "perf: the hand-off finding is said to be no target" \
	grep -q "^finding, not a target: what the pool's hand-off" "$T"
check "perf: the figures of epoll, pool and the hand-off pair, cpu and lost" \
	test "$(figs 'recv\.(epoll|pool)\.(suck|bare)|handoff\.(pool|mmsg)')" -eq 12
if "$BIN/suck" -m uring -p 0 -t 1ms --idle 0 >/dev/null 2>&1; then
	check "perf: target of suck uring at 1450 B measured" measured "suck uring <= 1.05 x bare io_uring (CPU per datagram), 1450 B"
	for r in "io_uring   suck -m uring" "             bare recv --uring" "             ratio uring/bare" \
		"io_uring   bare recv --uring" "recvmmsg   bare recv -b 32" "ratio io_uring/recvmmsg"; do
		check "perf: row '$r' with a figure" num "$r"
	done
	check "perf: the figures of suck uring, bare io_uring and bare recvmmsg" \
		test "$(figs 'recv\.uring\.(suck|bare)|bare\.(uring|mmsg)')" -eq 8
else
	skip "no io_uring here (suck -m uring exits 4): its rows not checked"
fi
# The loss-run counting (loss runs on, --jitter and --echo off: suck -m mmsg against bare
# recvmmsg), a target at 1450 and 64 bytes; suck --jitter beside suck without it and --echo
# answering blast --rtt beside suck fed at the rate, findings; loss runs said to be in every pair.
check "perf: target of the loss-run counting at 1450 B measured" measured "suck mmsg counting loss runs <= 1.05 x bare (CPU per datagram), 1450 B"
check "perf: target of the loss-run counting at 64 B not measured at -s 1450" grep -qF "n/a       suck mmsg counting loss runs <= 1.05 x bare (CPU per datagram), 64 B" "$T"
check "perf: --jitter's on-cost said to be a finding" has "jitter/without is a finding, not a target"
check "perf: no target for --jitter on" sh -c "! grep -E '^  (met|NOT MET|n/a) .*--jitter' '$T'"
for r in "jitter     suck -m mmsg --jitter" "             ratio jitter/without" "echo       suck -m mmsg --echo" \
	"             ratio echo/without"; do
	check "perf: row '$r' with a figure" num "$r"
done
check "perf: the echo finding is said to be no target" grep -q "^finding, not a target: what answering costs" "$T"
check "perf: no target for --echo" sh -c "! grep -E '^  (met|NOT MET|n/a) .*echo' '$T'"
check "perf: loss runs said to be counted in every pair" has "loss runs are counted in every suck above"
check "perf: the figures of --jitter and --echo, on and off, cpu and lost" \
	test "$(figs 'recv\.jitter\.(on|off)|echo\.(on|off)')" -eq 9
check "perf: the echo pair's rate" test "$(awk -F'\t' '$2 == "echo.on" && $3 == "pps"' "$TMP/perf/latest.tsv" | wc -l)" -eq 1
# The figures file: beside each figure, the measurement it came from (its row, attempt and leg)
# and that measurement's noise; a row's attempt per round that the table used; the peers A B B A.
F=$TMP/perf/latest.tsv
check "perf: the figures' columns" test "$(head -n 1 "$F")" = \
	"$(printf 'size\tname\tfigure\tround\tvalue\trow\tattempt\tleg\tused\tnoisy\tcalib_pre_pct\tcalib_post_pct\tother_pct\tsteal_pct\tsecs')"
check "perf: every figure line whole, with its noise in numbers" awk -F'\t' 'NR > 1 && !(NF == 15 &&
	$9 ~ /^[01]$/ && $10 ~ /^[01]$/ && $11 ~ /^[0-9.]+$/ && $12 ~ /^[0-9.]+$/ && $13 ~ /^-?[0-9.]+$/ &&
	$14 ~ /^-?[0-9.]+$/ && $15 ~ /^[0-9.]+$/) { bad = 1 } END { exit bad }' "$F"
check "perf: noisy is what the limits say (10 %, other 20 %)" awk -F'\t' 'NR > 1 &&
	$10 != ($11 > 10 || $12 > 10 || $13 > 20 || $14 > 10) { bad = 1 } END { exit bad }' "$F"
check "perf: --retry 0: one attempt of each row and round, used" \
	awk -F'\t' 'NR > 1 && ($7 != 1 || $9 != 1) { bad = 1 } END { exit bad }' "$F"
check "perf: the noise under the table" grep -qE '^  1450 B: [0-9]+ measurements?, [0-9]+ noisy' "$T"
check "perf: the noise's figures under the table" grep -qE '^    other median -?[0-9.]+ %, max -?[0-9.]+ %; steal max' "$T"
# legs NAME ROW: NAME's pps of ROW in round 1 came from two legs, the peer's and blast's (A B B A).
legs() { awk -F'\t' -v n="$1" -v r="$2" '$2 == n && $6 == r && $3 == "pps" { l[$8] = 1 } END { exit !(l[1] && l[2]) }' "$F"; }
# cpu NAME FIG: NAME's FIG has a CPU per datagram above 0.
cpu() { awk -F'\t' -v n="$1" -v f="$2" '$2 == n && $3 == f && $5 > 0 { ok = 1 } END { exit !ok }' "$F"; }
if command -v iperf3 >/dev/null 2>&1; then
	check "perf: iperf3 and blast into suck -m gro, A B B A" legs iperf3 peer.gro
	check "perf: ... blast's legs too" legs pps.gro peer.gro
	check "perf: iperf3's client's CPU per datagram" cpu iperf3 cpu
	check "perf: iperf3's server's CPU per datagram" cpu iperf3 rcpu
	check "perf: blast's and suck -m gro's beside them" sh -c "awk -F'\t' '\$2 == \"pps.gro\" && \$3 == \"scpu\"' '$F' | grep -q . &&
		awk -F'\t' '\$2 == \"pps.gro\" && \$3 == \"cpu\"' '$F' | grep -q ."
	check "perf: the iperf3 row has its CPU column" grep -qE '^  iperf3 -u -b 0 -l 1450 \(sent\) +[0-9]+ \[[0-9 ]+\] +[0-9.]+ \[' "$T"
	check "perf: blast sent/iperf3 sent, per round, pps and CPU" grep -qE '^  ratio blast sent/iperf3 sent +[0-9.]+ \[[0-9. ]+\] +[0-9.]+ \[' "$T"
fi
if command -v sockperf >/dev/null 2>&1; then
	check "perf: sockperf and blast into suck -m buffer, A B B A" legs sockperf peer.sock
	check "perf: ... blast's legs too" legs pps.blast peer.sock
	check "perf: sockperf's client's CPU per datagram" cpu sockperf cpu
	check "perf: sockperf's server's CPU per datagram" cpu sockperf rcpu
fi
# suck -m xdp beside bare recv --xdp on two veth pairs: as root where namespaces
# work, else a note says why it was skipped.
if [ "$XDP_RAN" = 1 ]; then
	for r in "af_xdp     suck -m xdp" "               bare recv --xdp" "             ratio xdp/bare"; do
		check "perf: row '$r' with a figure" num "$r"
	done
	check "perf: target of suck xdp at 1450 B measured" measured "suck xdp <= 1.05 x bare xdp (CPU per datagram, veth), 1450 B"
	check "perf: the figures of the xdp pair, cpu and lost" test "$(figs 'xdp\.(suck|bare)')" -eq 4
else
	check "perf: the xdp pair said skipped, and why" grep -q '^  xdp: the pair of suck -m xdp and bare recv --xdp skipped: ' "$T"
	check "perf: target of suck xdp n/a" grep -qF "n/a       suck xdp <= 1.05 x bare xdp (CPU per datagram, veth), 1450 B" "$T"
fi
check "perf: no namespace left by the run" sh -c "! ip netns list 2>/dev/null | grep -q '^bs-wire-$perf_pid-'"
# --xdp-only where the xdp pair cannot run (a BIN without netdev): the skip said in the table's
# notes, exit 0, the target n/a.
mkdir "$TMP/nonetdev"
for b in blast suck bare; do ln -s "$(cd "$BIN" && pwd)/$b" "$TMP/nonetdev/$b"; done
BIN=$TMP/nonetdev sh scripts/perf -r 1 -t 0.1 -s 1450 --xdp-only -o "$TMP/xo/skip.txt" >"$TMP/xo.out" 2>"$TMP/xo.err"
st=$?
check "perf --xdp-only without netdev: exit 0 ($st: $(tail -n 1 "$TMP/xo.err"))" test $st -eq 0
check "... the skip and why in the notes" grep -q "^  xdp: the pair of suck -m xdp and bare recv --xdp skipped: no .*/netdev" "$TMP/xo/skip.txt"
check "... its target n/a" grep -qF "n/a       suck xdp <= 1.05 x bare xdp (CPU per datagram, veth), 1450 B" "$TMP/xo/skip.txt"
check "... and no other target" test "$(grep -c -E '^  (met|NOT MET|n/a) ' "$TMP/xo/skip.txt")" -eq 2
# SIGTERM in the middle of the xdp pair: perf ends 143, its namespaces and links are gone.
if [ "$XDP_RAN" = 1 ]; then
	sh scripts/perf -r 1 -t 20 -s 1450 --xdp-only -o "$TMP/xo/term.txt" >"$TMP/term.out" 2>"$TMP/term.err" &
	PP=$!
	PIDS="$PIDS $PP"
	i=0
	until grep -q '^perf: \[1/1\]' "$TMP/term.err" && ip netns list 2>/dev/null | grep -q "^bs-wire-$PP-suck" ||
		[ $i -gt 3000 ]; do
		i=$((i + 1))
		sleep 0.01
	done
	check "SIGTERM: perf --xdp-only made its namespaces" sh -c "ip netns list 2>/dev/null | grep -q '^bs-wire-$PP-suck'"
	kill -TERM "$PP"
	wait "$PP"
	st=$?
	check "SIGTERM: perf exits 143 ($st)" test $st -eq 143
	check "SIGTERM: no namespace of it left" sh -c "! ip netns list 2>/dev/null | grep -q '^bs-wire-$PP-'"
	dn=$(printf 'bs%07d' "$PP")
	check "SIGTERM: no link of it left" sh -c "! ip -o link 2>/dev/null | grep -q '$dn'"
	check "SIGTERM: no table written" test ! -e "$TMP/xo/term.txt"
else
	skip "not root or no xdp pair here: SIGTERM in the xdp pair not tried"
fi
check "perf: the machine" has '^machine: .* CPUs, Linux '
check "perf: the command" has '^run: sh scripts/perf -r 1 -t 0.1 -s "1450" -R 100000 -B [0-9]* -g 64 '
# --peer-only: the rows against iperf3 and their four targets, nothing else. The iperf3 here is a
# stand-in that answers as iperf3 3.21's JSON does (its own figures: 1000 packets in 1 s sent,
# 1000 x 1450 bytes received), so the table's parsing is what is checked, not a peer's speed.
mkdir -p "$TMP/fake"
cat >"$TMP/fake/iperf3" <<'FAKE'
#!/bin/sh
case " $* " in
*" --help "*) echo "  --gsro   enable UDP GSO/GRO" ;;
*" --version "*) echo "iperf 3.21+ (stand-in)" ;;
*" -s "*) echo "Server listening on 5201"; sleep 5 ;;
*) printf '{\n\t"end":\t{\n\t\t"sum_sent":\t{\n\t\t\t"seconds":\t1,\n\t\t\t"packets":\t1000\n\t\t},\n\t\t"sum_received":\t{\n\t\t\t"seconds":\t1,\n\t\t\t"bytes":\t1450000\n\t\t}\n\t}\n}\n' ;;
esac
FAKE
chmod +x "$TMP/fake/iperf3"
IPERF3=$TMP/fake/iperf3 sh scripts/perf -r 1 -t 0.1 -s 1450 --peer-only -o "$TMP/po/p.txt" >/dev/null 2>"$TMP/po.err"
st=$?
check "perf --peer-only: exit 0 ($st: $(tail -n 1 "$TMP/po.err"))" test $st -eq 0
P=$TMP/po/p.txt
check "perf --peer-only: the stand-in's sent pps" grep -q '^  iperf3 -u -b 0 -l 1450 (sent) *1000 \[1000 1000\]' "$P"
check "perf --peer-only: its server's received pps" grep -q '^  *its server (received) *1000 \[1000 1000\]' "$P"
check "perf --peer-only: blast into suck -m gro, with a figure" grep -q '^  blast (default) into suck -m gro (sent) *[0-9][0-9]* \[' "$P"
check "perf --peer-only: blast into suck -m gro --spin, with a figure" grep -q '^  blast (default) into suck -m gro --spin (sent) *[0-9][0-9]* \[' "$P"
check "perf --peer-only: suck --spin against the stand-in's server" grep -q '^  ratio suck gro --spin received/iperf3 server received *[0-9.]* \[' "$P"
check "perf --peer-only: --spin said to be a finding" grep -q '^  --spin is a finding, not a target' "$P"
check "perf --peer-only: four peer targets, two measured" test "$(grep -c -E '^  (met|NOT MET|unresolved) .*iperf3 (client|server), 1450 B' "$P")" -eq 2
check "perf --peer-only: no other section" sh -c "! grep -q -e '^send, into' -e '^receive, -w none' -e 'bare recv' -e 'bare send' '$P'"
check "perf --peer-only: the command says it" grep -q '^run: .* --peer-only ' "$P"
check "perf --peer-only: the peer named iperf3, its version and --gsro" \
	grep -q '^targets against iperf3 3\.21+ with --gsro at 1450' "$P"
# iperf3 --version's first line names the program iperf, Debian's as upstream's ("iperf 3.12
# (cJSON 1.7.15)", then more lines): the table still names the peer iperf3, with its version.
# A stand-in of Debian's 3.12 (no --gsro) found on PATH, so whatever iperf3 is installed here.
mkdir -p "$TMP/deb"
cat >"$TMP/deb/iperf3" <<'FAKE'
#!/bin/sh
case " $* " in
*" --help "*) echo "  -u, --udp                 use UDP rather than TCP" ;;
*" --version "*)
	echo "iperf 3.12 (cJSON 1.7.15)"
	echo "Linux deb 6.1.0-18-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01) x86_64"
	echo "Optional features available: CPU affinity setting, IPv6 flow label, SCTP, sendfile / zerocopy" ;;
*" -s "*) echo "Server listening on 5201"; exec sleep 5 ;;
*) printf '{\n\t"end":\t{\n\t\t"sum_sent":\t{\n\t\t\t"seconds":\t1,\n\t\t\t"packets":\t1000\n\t\t},\n\t\t"sum_received":\t{\n\t\t\t"seconds":\t1,\n\t\t\t"bytes":\t1450000\n\t\t}\n\t}\n}\n' ;;
esac
FAKE
chmod +x "$TMP/deb/iperf3"
env -u IPERF3 PATH="$TMP/deb:$PATH" sh scripts/perf -r 1 -t 0.1 -s 1450 --peer-only -o "$TMP/po/d.txt" >/dev/null 2>"$TMP/pod.err"
st=$?
D=$TMP/po/d.txt
check "perf --peer-only, Debian's iperf3: exit 0 ($st: $(tail -n 1 "$TMP/pod.err"))" test $st -eq 0
check "perf --peer-only, Debian's iperf3: the peer's targets name it iperf3 3.12" \
	grep -q '^targets against iperf3 3\.12 at 1450' "$D"
check "perf --peer-only, Debian's iperf3: the build line too" grep -q '^build: .*; iperf3 3\.12; ' "$D"
check "perf --peer-only, Debian's iperf3: never 'iperf 3.12'" sh -c "! grep -q 'iperf 3' '$D'"
# The verdicts, against a stand-in iperf3 whose rate each run sets: each client run takes the
# next line of $STANDIN/rates, round the list (datagrams sent in 1 s, all of them received),
# so the per-round ratio blast/iperf3 is as large or as small as the test wants whatever blast's
# own rate: 1000/s (blast is far ahead: met), 10^12/s (far behind: NOT MET), or both in turn
# (the interval holds the target: unresolved). No measurement is made again (--retry 0): each
# round then runs the stand-in's client twice (A B B A), so the list's lines fall on rounds
# as the test says.
mkdir -p "$TMP/standin"
cat >"$TMP/standin/iperf3" <<'FAKE'
#!/bin/sh
case " $* " in
*" --help "*) echo "  --gsro   enable UDP GSO/GRO" ;;
*" --version "*) echo "iperf 3.21+ (stand-in)" ;;
*" -s "*) echo "Server listening on 5201"; exec sleep 5 ;;
*)
	n=$(($(cat "$STANDIN/n" 2>/dev/null || echo 0) + 1))
	echo "$n" >"$STANDIN/n"
	p=$(awk -v n="$n" '{ r[NR] = $1 } END { print r[(n - 1) % NR + 1] }' "$STANDIN/rates")
	b=$(awk -v p="$p" 'BEGIN { printf "%.0f", p * 1450 }')
	printf '{\n\t"end":\t{\n\t\t"sum_sent":\t{\n\t\t\t"seconds":\t1,\n\t\t\t"packets":\t%s\n\t\t},\n\t\t"sum_received":\t{\n\t\t\t"seconds":\t1,\n\t\t\t"bytes":\t%s\n\t\t}\n\t}\n}\n' "$p" "$b" ;;
esac
FAKE
chmod +x "$TMP/standin/iperf3"
export STANDIN="$TMP/standin"
# standin RATES...: the stand-in's list, its count from the start.
standin() { printf '%s\n' "$@" >"$STANDIN/rates"; rm -f "$STANDIN/n"; }
# vperf NAME ARGS...: perf --peer-only against the stand-in, 1450 B, no retries, into $TMP/v/NAME.txt; VST its status.
vperf() {
	vp_n=$1
	shift
	VST=0
	IPERF3=$STANDIN/iperf3 sh scripts/perf -t 0.1 -s 1450 --peer-only --retry 0 "$@" -o "$TMP/v/$vp_n.txt" \
		>"$TMP/v.$vp_n.out" 2>"$TMP/v.$vp_n.err" || VST=$?
	V=$TMP/v/$vp_n.txt
}
# verdict WORD: both targets at 1450 B say WORD.
verdict() { test "$(grep -cE "^  $1 +(blast default sent pps|suck -m gro received pps) .*1450 B" "$V")" -eq 2; }
standin 1000
vperf met -r 5
check "verdict met: exit 0 ($VST: $(tail -n 1 "$TMP/v.met.err"))" test "$VST" -eq 0
check "verdict met: both targets met" verdict met
check "verdict met: on 5 rounds, at 93.8 %" grep -qE '^  met +blast default sent pps .* at 93\.8 %, 5 rounds' "$V"
check "verdict met: the counts" grep -q '^verdicts: 2 met, 0 NOT MET, 0 unresolved, 2 not measured$' "$V"
check "verdict met: the stand-in ran twice a round (A B B A)" test "$(cat "$STANDIN/n")" -eq 10
standin 1000000000000
vperf notmet -r 5
check "verdict NOT MET: exit 1 ($VST)" test "$VST" -eq 1
check "verdict NOT MET: both targets NOT MET" verdict 'NOT MET'
check "verdict NOT MET: the table written all the same" grep -q '^verdicts: 0 met, 2 NOT MET' "$V"
check "verdict NOT MET: and the figures" test -s "$TMP/v/notmet.tsv"
standin 1000 1000 1000000000000 1000000000000
vperf unres -r 5
check "verdict unresolved: exit 0 ($VST)" test "$VST" -eq 0
check "verdict unresolved: both targets unresolved" verdict unresolved
check "verdict unresolved: no budget said" grep -q '^  unresolved: no --budget' "$V"
# Too few rounds for an interval of 90 %: unresolved whatever the ratios; --budget adds rounds
# of the rows of the unresolved targets (not of the --spin finding) until they resolve.
standin 1000
vperf few -r 2
check "verdict with 2 rounds: unresolved" verdict unresolved
vperf budget -r 2 --budget 120
check "--budget: exit 0 ($VST: $(tail -n 1 "$TMP/v.budget.err"))" test "$VST" -eq 0
check "--budget: met once 5 rounds are in" grep -qE '^  met +blast default sent pps .* at 93\.8 %, 5 rounds' "$V"
check "--budget: more rounds of the peer's row, said" grep -q '^    more rounds for unresolved targets (--budget): peer.gro to round 5$' "$V"
check "--budget: rounds 3 to 5 in the progress" test "$(grep -c 'round [345] (more: unresolved): blast (default) into suck -m gro, iperf3' "$TMP/v.budget.err")" -eq 3
check "--budget: no more rounds of --spin" test "$(awk -F'\t' '$6 == "pps.grospin" && $4 > 2' "$TMP/v/budget.tsv" | wc -l)" -eq 0
check "--budget: the command says it" grep -q '^run: .* --budget 120 ' "$V"
# A budget too small for the rounds it would take: spent, still unresolved, exit 0.
standin 1000 1000 1000000000000 1000000000000
vperf spent -r 5 --budget 1
check "--budget spent: exit 0 ($VST)" test "$VST" -eq 0
check "--budget spent: unresolved" verdict unresolved
check "--budget spent: said" grep -qE '^  unresolved: --budget 1 s spent on more rounds \([0-9]+ rounds in all\)$' "$V"
# --twice: the same command twice. The stand-in's list goes on from the first run to the second:
# 10 client runs of 1000/s then 10 of 10^12/s make the first run met and the second NOT MET, a
# flip, so they disagree (exit 1); a list whose rounds spread the ratio over 10^12 makes both
# unresolved with each median deep inside the other's interval, so they agree (exit 0).
standin 1000 1000 1000 1000 1000 1000 1000 1000 1000 1000 \
	1000000000000 1000000000000 1000000000000 1000000000000 1000000000000 \
	1000000000000 1000000000000 1000000000000 1000000000000 1000000000000
vperf flip -r 5 --twice
check "--twice, a flip: exit 1 ($VST: $(tail -n 1 "$TMP/v.flip.err"))" test "$VST" -eq 1
check "--twice: the first run's table" grep -q '^verdicts: 2 met' "$TMP/v/flip.1.txt"
check "--twice: the second run's table" grep -q '^verdicts: 0 met, 2 NOT MET' "$TMP/v/flip.2.txt"
check "--twice: both runs' figures" test -s "$TMP/v/flip.1.tsv" -a -s "$TMP/v/flip.2.tsv"
check "--twice: its report on stdout and in the file" cmp -s "$V" "$TMP/v.flip.out"
check "--twice, a flip: both targets DISAGREE" test "$(grep -c '^  DISAGREE   .*1450 B$' "$V")" -eq 2
check "--twice, a flip: why" test "$(grep -c '^    met in one run, NOT MET in the other$' "$V")" -eq 2
check "--twice, a flip: each run's verdict" grep -qE '^    run 1: met [0-9.]+ \[' "$V"
check "--twice, a flip: the count" grep -q '^0 of 2 targets measured in both runs agree; a target is NOT MET' "$V"
check "--twice: each run's command says so" grep -q '^run: .* --twice (run 2 of 2) ' "$TMP/v/flip.2.txt"
standin 1000000000000 1000000000000 1000000000 1000000000 1000000 1000000 1000 1000 1 1
vperf agree -r 5 --twice
check "--twice, alike: exit 0 ($VST: $(tail -n 1 "$TMP/v.agree.err"))" test "$VST" -eq 0
check "--twice, alike: both targets agree" test "$(grep -c '^  agree      .*1450 B$' "$V")" -eq 2
check "--twice, alike: unresolved in both runs" test "$(grep -c '^    run [12]: unresolved ' "$V")" -eq 4
check "--twice, alike: the 64 B targets n/a" test "$(grep -c '^  n/a        .*64 B$' "$V")" -eq 2
check "--twice, alike: the count" grep -q '^2 of 2 targets measured in both runs agree$' "$V"
check "--twice, alike: the stricter reading counted" grep -q '^  2 of those 2 with each run.s median inside the other.s interval' "$V"
# Both runs met, but at ratios 1000 times apart (the stand-in at 1000/s, then at 1/s): no flip,
# yet the intervals do not overlap, so they disagree (exit 1).
standin 1000 1000 1000 1000 1000 1000 1000 1000 1000 1000 1 1 1 1 1 1 1 1 1 1
vperf apart -r 5 --twice
check "--twice, apart: exit 1 ($VST: $(tail -n 1 "$TMP/v.apart.err"))" test "$VST" -eq 1
check "--twice, apart: met in both runs" test "$(grep -c '^    run [12]: met ' "$V")" -eq 4
check "--twice, apart: both targets DISAGREE" test "$(grep -c '^  DISAGREE   .*1450 B$' "$V")" -eq 2
check "--twice, apart: why" test "$(grep -c '^    the intervals do not overlap$' "$V")" -eq 2
check "--twice, apart: the count" grep -q '^0 of 2 targets measured in both runs agree$' "$V"
unset STANDIN
IPERF3=$TMP/nonexistent sh scripts/perf --peer-only -o "$TMP/po/q.txt" >/dev/null 2>"$TMP/po4.err"
st=$?
check "perf --peer-only without an iperf3: exit 4 ($st)" test $st -eq 4
check "perf --peer-only without an iperf3: says so" grep -q 'no .*iperf3' "$TMP/po4.err"
check "perf --peer-only without an iperf3: no table" test ! -e "$TMP/po/q.txt"
sh scripts/perf --peer-only --xdp-only >/dev/null 2>&1
check "perf --peer-only --xdp-only: bad usage, exit 2" test $? -eq 2
sh scripts/perf -s "64 64" >/dev/null 2>&1
check "perf -s '64 64': a size twice, bad usage, exit 2" test $? -eq 2
for args in "-r 0" "-r 101" "-t 0" "-s 31" "-R 10" "-B 100" "-g 1" "-x" "extra" "--xdp-only=1" \
	"--peer-only=1" "--noise 0" "--noise 101" "--retry 21" "--retry x" "--budget -1" "--budget 86401" \
	"--twice=1"; do
	# shellcheck disable=SC2086
	sh scripts/perf $args >/dev/null 2>&1
	check "perf $args: bad usage, exit 2" test $? -eq 2
done

done_tests
