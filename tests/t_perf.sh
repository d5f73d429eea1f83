# make perf's parts, quickly and without judging speed (the machine is busy while tests run):
# bin/bare's accounting and options, the sink that goes away after its sender, and one short
# round of scripts/perf with every row of its table and both of its files.
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

for args in "bogus" "send -p 0 -s 100 -t 1" "send -p 9 -s 100" "recv -p 0 -b 0" "recv -p 0 -n x" \
	"send -p 9 -s 5000 -t 1 -g 64" "sink -p 0 --idle 0" "recv -p 0 extra"; do
	# shellcheck disable=SC2086
	"$BIN/bare" $args >/dev/null 2>"$TMP/usage.err"
	check "bare $args: exit 2" test $? -eq 2
done

# One short round of scripts/perf into a temporary file: every row, both files.
mkdir "$TMP/scratch"
# In the background for its pid, which names its namespaces (bs-wire-PID-*): other tests and
# commands on the machine may have theirs at the same time.
TMPDIR=$TMP/scratch sh scripts/perf -r 1 -t 0.3 -s 1450 -o "$TMP/perf/latest.txt" \
	>"$TMP/perf.out" 2>"$TMP/perf.err" &
perf_pid=$!
wait "$perf_pid"
st=$?
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
# Three targets at 1450 bytes; suck uring against bare io_uring (issue 16), suck epoll and pool
# against their bare twins (issue 24) and suck --latency against the same variant without it
# (issue 12), each at 1450 and 64 bytes; blast and suck -m gro against iperf3 (issue 23) at 1450
# and 64 bytes: 64 is not measured here, so those say n/a.
check "perf: nineteen targets marked" test "$(grep -c -E '^  (met|NOT MET|n/a) ' "$T")" -eq 19
check "perf: the peer's targets name it" grep -q '^targets against .*iperf3' "$T"
for t in "blast default sent pps >= 1.25 x iperf3 client, 64 B" "suck -m gro received pps >= 1.05 x iperf3 server, 64 B"; do
	check "perf: peer target '$t' not measured at -s 1450" grep -qF "n/a       $t" "$T"
done
check "perf: row 'ratio suck gro received/iperf3 server received'" has "ratio suck gro received/iperf3 server received"
measured() { grep -F -- "$1" "$T" | grep -qE '^  (met|NOT MET) .* [0-9]+\.[0-9]{3}  \(needs <= [0-9.]+\)$'; }
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
# suck -m epoll and -m pool beside their bare twins (issue 24), each a target; and suck -m pool
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
# Issue 26's counting off (loss runs on, --jitter and --echo off: suck -m mmsg against bare
# recvmmsg), a target at 1450 and 64 bytes; suck --jitter beside suck without it and --echo
# answering blast --rtt beside suck fed at the rate, findings; loss runs said to be in every pair.
check "perf: target of issue 26's counting off at 1450 B measured" measured "suck mmsg, issue 26's counting off <= 1.05 x bare (CPU per datagram), 1450 B"
check "perf: target of issue 26's counting off at 64 B not measured at -s 1450" grep -qF "n/a       suck mmsg, issue 26's counting off <= 1.05 x bare (CPU per datagram), 64 B" "$T"
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
# suck -m xdp beside bare recv --xdp on two veth pairs (issue 28): as root where namespaces
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
BIN=$TMP/nonetdev sh scripts/perf -r 1 -t 0.3 -s 1450 --xdp-only -o "$TMP/xo/skip.txt" >"$TMP/xo.out" 2>"$TMP/xo.err"
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
check "perf: the command" has '^run: sh scripts/perf -r 1 -t 0.3 -s "1450" -R 100000 -B [0-9]* -g 64 '
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
IPERF3=$TMP/fake/iperf3 sh scripts/perf -r 1 -t 0.3 -s 1450 --peer-only -o "$TMP/po/p.txt" >/dev/null 2>"$TMP/po.err"
st=$?
check "perf --peer-only: exit 0 ($st: $(tail -n 1 "$TMP/po.err"))" test $st -eq 0
P=$TMP/po/p.txt
check "perf --peer-only: the stand-in's sent pps" grep -q '^  iperf3 -u -b 0 -l 1450 (sent) *1000 \[1000 1000\]' "$P"
check "perf --peer-only: its server's received pps" grep -q '^  *its server (received) *1000 \[1000 1000\]' "$P"
check "perf --peer-only: blast into suck -m gro, with a figure" grep -q '^  blast (default) into suck -m gro (sent) *[0-9][0-9]* \[' "$P"
check "perf --peer-only: blast into suck -m gro --spin, with a figure" grep -q '^  blast (default) into suck -m gro --spin (sent) *[0-9][0-9]* \[' "$P"
check "perf --peer-only: suck --spin against the stand-in's server" grep -q '^  ratio suck gro --spin received/iperf3 server received *[0-9.]* \[' "$P"
check "perf --peer-only: --spin said to be a finding" grep -q '^  --spin is a finding, not a target' "$P"
check "perf --peer-only: four peer targets, two measured" test "$(grep -c -E '^  (met|NOT MET) .*iperf3 (client|server), 1450 B' "$P")" -eq 2
check "perf --peer-only: no other section" sh -c "! grep -q -e '^send, into' -e '^receive, -w none' -e bare '$P'"
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
env -u IPERF3 PATH="$TMP/deb:$PATH" sh scripts/perf -r 1 -t 0.3 -s 1450 --peer-only -o "$TMP/po/d.txt" >/dev/null 2>"$TMP/pod.err"
st=$?
D=$TMP/po/d.txt
check "perf --peer-only, Debian's iperf3: exit 0 ($st: $(tail -n 1 "$TMP/pod.err"))" test $st -eq 0
check "perf --peer-only, Debian's iperf3: the peer's targets name it iperf3 3.12" \
	grep -q '^targets against iperf3 3\.12 at 1450' "$D"
check "perf --peer-only, Debian's iperf3: the build line too" grep -q '^build: .*; iperf3 3\.12; ' "$D"
check "perf --peer-only, Debian's iperf3: never 'iperf 3.12'" sh -c "! grep -q 'iperf 3' '$D'"
IPERF3=$TMP/nonexistent sh scripts/perf --peer-only -o "$TMP/po/q.txt" >/dev/null 2>"$TMP/po4.err"
st=$?
check "perf --peer-only without an iperf3: exit 4 ($st)" test $st -eq 4
check "perf --peer-only without an iperf3: says so" grep -q 'no .*iperf3' "$TMP/po4.err"
check "perf --peer-only without an iperf3: no table" test ! -e "$TMP/po/q.txt"
sh scripts/perf --peer-only --xdp-only >/dev/null 2>&1
check "perf --peer-only --xdp-only: bad usage, exit 2" test $? -eq 2
for args in "-r 0" "-t 0" "-s 31" "-R 10" "-B 100" "-g 1" "-x" "extra" "--xdp-only=1" "--peer-only=1"; do
	# shellcheck disable=SC2086
	sh scripts/perf $args >/dev/null 2>&1
	check "perf $args: bad usage, exit 2" test $? -eq 2
done

done_tests
