# scripts/suite --drops (the suite's part; suck --drops itself is t_drops): the refusals that
# need no root (exit 2: --senders, -m xdp); as root, short real runs (-t 0.5 -r 1 -W 0, heavy
# per-datagram work so that the receive buffer overflows) on loopback and with --wire: every
# ledger column in runs.tsv, lost == queue_dropped + drops_attributed + unexplained and
# drops_attributed the sum of the reasons on every row (whatever was lost, zeros included:
# nothing is asserted on how much), the figures in summary.tsv, "Where the loss went" in
# table.md with a row per variant, the stacked plot of the lost datagrams listed on index.html;
# as an unprivileged user exit 4 with suck's message and nothing written; nothing left behind
# (no suck of the runs, which holds the BPF program, and with --wire no namespace). Every
# suite is bounded by timeout; traffic on lo and the namespaces --wire makes.
. tests/lib.sh

# ledger FILE: every data row adds up
ledger() {
	awk -F'\t' 'function n(x) { return x ~ /^-?[0-9]+$/ }
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{
		r = 0
		for (k in c)
			if (k ~ /^suck_drop_/ && k != "suck_drop_fins" && k != "suck_drop_detail")
				r += $c[k]
		if (!(n($c["suck_lost"]) && n($c["suck_queue_dropped"]) && n($c["suck_drops_attributed"]) &&
			n($c["suck_unexplained"]) && $c["suck_drops"] == 1 &&
			$c["suck_lost"] == $c["suck_queue_dropped"] + $c["suck_drops_attributed"] + $c["suck_unexplained"] &&
			$c["suck_drops_attributed"] == r)) {
			bad = 1
			print "row " NR ": lost " $c["suck_lost"] ", queue_dropped " $c["suck_queue_dropped"] ", attributed " \
				$c["suck_drops_attributed"] " (reasons " r "), unexplained " $c["suck_unexplained"]
		}
	}
	END { exit bad || NR < 2 }' "$1"
}
# loss_rows FILE VARIANTS: table.md's "Where the loss went" has a row for each of VARIANTS
loss_rows() {
	lr_f=$1; shift
	for lr_v in "$@"; do
		sed -n '/^## Where the loss went$/,$p' "$lr_f" | grep -q "^| $lr_v " || { echo "no row $lr_v"; return 1; }
	done
}
# no_suck_of DIR: no process is a suck of DIR's runs (env.txt's commands; it would hold its BPF
# program)
no_suck_of() {
	ns_ids=$(sed -n 's/^cmd: .*\/suck .* --run-id \([0-9][0-9]*\) .*/\1/p' "$1/env.txt")
	[ -n "$ns_ids" ] || { echo "no suck's run id in $1/env.txt"; return 1; }
	for ns_id in $ns_ids; do
		for ns_p in /proc/[0-9]*; do
			tr '\0' ' ' <"$ns_p/cmdline" 2>/dev/null | grep -q -- "suck .*--run-id $ns_id " &&
				{ echo "suck of run $ns_id still running: $ns_p"; return 1; }
		done
	done
	return 0
}
# common DIR WHAT VARIANTS...: the checks of a finished suite --drops
common() {
	cd_d=$1 cd_w=$2
	shift 2
	check "$cd_w: runs.tsv has the ledger's columns" has_cols "$cd_d/runs.tsv" suck_lost suck_queue_dropped \
		suck_drops suck_drops_attributed suck_unexplained suck_drop_socket_rcvbuff suck_drop_other suck_drop_fins \
		suck_drop_detail suck_udp_rcvbuf_errors
	check "$cd_w: a row per variant" test "$(col "$cd_d/runs.tsv" variant | tr '\n' ' ')" = "$* "
	check "$cd_w: lost == queue_dropped + drops_attributed + unexplained, attributed == the reasons' sum" \
		ledger "$cd_d/runs.tsv"
	for cd_v in "$@"; do
		check "$cd_w: summary.tsv has $cd_v's suck_drops_attributed and suck_unexplained" sh -c \
			"awk -F'\t' -v v='$cd_v' '\$1 == v && (\$2 == \"suck_drops_attributed\" || \$2 == \"suck_unexplained\")' '$cd_d/summary.tsv' | grep -c . | grep -qx 2"
	done
	check "$cd_w: table.md has 'Where the loss went'" grep -qx '## Where the loss went' "$cd_d/table.md"
	check "$cd_w: with a row per variant" loss_rows "$cd_d/table.md" "$@"
	check "$cd_w: env.txt says drops: 1" grep -qx 'drops: 1' "$cd_d/env.txt"
	check "$cd_w: every suck ran with --drops" sh -c "grep '^cmd: .*/suck ' '$cd_d/env.txt' | grep -v -- ' --drops' | grep -q . && exit 1 || exit 0"
	check "$cd_w: no suck of the runs left" no_suck_of "$cd_d"
	if [ "$GP" = 1 ]; then
		check "$cd_w: the drops plot drawn and on index.html" sh -c \
			"head -c 8 '$cd_d/drops.png' | grep -q PNG && grep -q '</svg>' '$cd_d/drops.svg' && grep -q 'drops.svg' '$cd_d/index.html'"
	fi
}
GP=1
command -v gnuplot >/dev/null 2>&1 || { GP=0; skip "no gnuplot: the drops plot not checked (apt-get install gnuplot-nox)"; }

# --- anywhere: what --drops cannot go with
timeout 60 sh scripts/suite --drops --senders 2 -t 0.5 -o "$TMP/s" >/dev/null 2>"$TMP/s.err"
st=$?
check "--drops --senders: exit 2 ($st: $(cat "$TMP/s.err"))" sh -c "test $st = 2 && grep -q -- '--senders and --drops' '$TMP/s.err'"
timeout 60 sh scripts/suite --drops -m "mmsg xdp" -t 0.5 -o "$TMP/x" >/dev/null 2>"$TMP/x.err"
st=$?
check "--drops -m xdp: exit 2 ($st: $(cat "$TMP/x.err"))" sh -c "test $st = 2 && grep -q -- 'drops' '$TMP/x.err'"
check "refused: nothing written" test ! -e "$TMP/s" -a ! -e "$TMP/x"

if [ "$(id -u)" -ne 0 ]; then
	skip "not root: suite --drops needs root (suck --drops loads a BPF program)"
	done_tests
	exit
fi
"$BIN/suck" -p 0 --drops --check >/dev/null 2>"$TMP/chk.err"
st=$?
if [ $st = 4 ]; then
	skip "suck --drops is not offered here: $(cat "$TMP/chk.err")"
	done_tests
	exit
fi

# --- not root: exit 4 with suck's own message, nothing written
if command -v setpriv >/dev/null 2>&1; then
	mkdir "$TMP/nr" && chmod 777 "$TMP/nr" && chmod 755 "$TMP"
	timeout 60 setpriv --reuid 65534 --regid 65534 --clear-groups --inh-caps=-all \
		sh scripts/suite --drops -t 0.5 -r 1 -W 0 -m "buffer mmsg" -P -o "$TMP/nr/out" >/dev/null 2>"$TMP/nr.err"
	st=$?
	check "not root: exit 4 ($st: $(cat "$TMP/nr.err"))" test $st = 4
	check "not root: suck's message" grep -q -- '--drops: suck cannot count .*needs root.*(exit 4)' "$TMP/nr.err"
	check "not root: nothing written" test ! -e "$TMP/nr/out"
else
	skip "no setpriv: the unprivileged exit 4 not checked"
fi

# --- loopback: two variants, heavy work (the buffer overflows; how much is never asserted)
D=$TMP/lo
timeout 120 sh scripts/suite --drops -t 0.5 -r 1 -W 0 -m "buffer mmsg" -w histogram:500 -o "$D" \
	>"$TMP/lo.out" 2>"$TMP/lo.err"
st=$?
check "loopback: suite --drops exits 0 ($st: $(tail -n 2 "$TMP/lo.err" | tr '\n' ' '))" test $st = 0
common "$D" loopback buffer mmsg

# --- the wire: one variant over the veth, the namespaces gone after
if ! ip netns add "bs-sdrops-probe-$$" 2>/dev/null; then
	skip "cannot make network namespaces here: suite --wire --drops not checked"
	done_tests
	exit
fi
ip netns del "bs-sdrops-probe-$$"
D=$TMP/wire
timeout 120 sh scripts/suite --wire --drops -t 0.5 -r 1 -W 0 -m mmsg -w histogram:500 -o "$D" \
	>"$TMP/wire.out" 2>"$TMP/wire.err"
st=$?
if [ "$st" -eq 4 ] && grep -q -- '--wire .*: not supported here (exit 4)' "$TMP/wire.err"; then
	skip "$(grep -- '--wire' "$TMP/wire.err" | head -n 1)"
else
	check "wire: suite --wire --drops exits 0 ($st: $(tail -n 2 "$TMP/wire.err" | tr '\n' ' '))" test $st = 0
	common "$D" wire mmsg
	# shellcheck disable=SC2046 # the two names, words
	set -- $(sed -n 's/^wire: veth between network namespaces \([^ ]*\) (blast) and \([^ ]*\) (suck).*/\1 \2/p' "$D/env.txt")
	check "wire: env.txt names the two namespaces ($*)" test $# -eq 2
	for g in "$@"; do
		check "wire: namespace $g gone" sh -c "ip netns list | awk -v n='$g' '\$1 == n { f = 1 } END { exit f }'"
	done
fi
done_tests
