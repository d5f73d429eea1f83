# scripts/suite --bidir, in short real runs (-t 0.5 -r 1 -W 0 -m mmsg): both directions at once
# on loopback, on --wire (root, ip netns) and across two namespaces standing for two hosts
# (SUCK_CMD, BLAST_CMD, --bidir-addr): a row per direction (fwd, rev) in runs.tsv, each with
# sent == valid + lost and its own run id, blast's and suck's alike; summary.tsv per variant and
# direction; table.md's "Both at once" (its sum fwd + rev) and a section per direction; the
# reverse suck bound where it should be, on blast's end (its command in env.txt, its address in
# runs.tsv); no suck or blast left, nor after a SIGTERM mid-run (exit 143, nothing written); no
# namespace left; compare's refusal; the refusals of the modes it does not combine with (exit 2,
# nothing run or written). Nothing is asserted on speeds. Traffic: lo and the namespaces made
# here or by --wire.
. tests/lib.sh

# rows_ok RUNS VARIANT...: a row per variant and direction, in order; per row the run adds up
# (suck's sent == valid + lost), blast's run id is its suck's, suck stopped on the fin; every
# row's run id its own
rows_ok() {
	ro_f=$1
	shift
	ro_want=$(for v in "$@"; do printf '%s fwd 1;%s rev 1;' "$v" "$v"; done)
	ro_got=$(awk -F'\t' 'NR > 1 { printf "%s %s %s;", $1, $2, $3 }' "$ro_f")
	[ "$ro_got" = "$ro_want" ] || { echo "rows: $ro_got, not $ro_want"; return 1; }
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{
			if (!($c["suck_sent"] > 0) || $c["suck_sent"] != $c["suck_valid"] + $c["suck_lost"]) { bad = 1; print "row " NR ": sent " $c["suck_sent"] " != valid " $c["suck_valid"] " + lost " $c["suck_lost"] }
			if ($c["suck_run_id"] != $c["blast_run_id"]) { bad = 1; print "row " NR ": run ids " $c["suck_run_id"] " " $c["blast_run_id"] }
			if (seen[$c["suck_run_id"]]++) { bad = 1; print "row " NR ": run id " $c["suck_run_id"] " twice" }
			if ($c["suck_stop"] != "fin" || $c["suck_keyed"] != 1) { bad = 1; print "row " NR ": stop " $c["suck_stop"] ", keyed " $c["suck_keyed"] }
		}
		END { exit bad }' "$ro_f"
}
# addr_of RUNS DIR: suck's address (without the port) in the row of direction DIR
addr_of() { awk -F'\t' -v d="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $2 == d { a = $c["suck_addr"]; sub(/:[0-9]+$/, "", a); print a; exit }' "$1"; }
# both_ok TABLE VARIANT: "Both at once" has VARIANT's row, its sum within 1 of fwd + rev (each
# rounded), its losses numbers
both_ok() {
	sed -n '/^## Both at once$/,/^## fwd/p' "$1" | awk -F'|' -v v="$2" '{ x = $2; gsub(/ /, "", x) }
		x == v { f = $3 + 0; r = $4 + 0; s = $5 + 0; found = 1
			ok = f > 0 && r > 0 && (s - f - r) <= 1 && (f + r - s) <= 1 && $6 ~ /^ *[0-9.]+/ && $7 ~ /^ *[0-9.]+/ }
		END { if (!found || !ok) print "both at once: " (found ? "does not add up" : "no row " v); exit !(found && ok) }'
}
# common DIR WHAT FWD_ADDR REV_ADDR: the checks of a finished suite --bidir -m mmsg
common() {
	check "$2: runs.tsv has the columns" has_cols "$1/runs.tsv" variant direction run received_pct suck_sent suck_valid suck_lost
	check "$2: a row per direction, each adds up, its own run id" rows_ok "$1/runs.tsv" mmsg
	check "$2: summary.tsv per variant and direction" sh -c "head -n 1 '$1/summary.tsv' | grep -q '^variant	direction	figure	runs	median' &&
		grep -q '^mmsg	rev	suck_pps	1	' '$1/summary.tsv'"
	check "$2: table.md's Both at once adds up" both_ok "$1/table.md" mmsg
	check "$2: table.md has a section per direction" sh -c "grep -q '^## fwd: blast .*-> suck at $3' '$1/table.md' && grep -q '^## rev: blast .*-> suck at $4' '$1/table.md'"
	check "$2: the fwd suck at $3, the rev suck at $4" test "$(addr_of "$1/runs.tsv" fwd) $(addr_of "$1/runs.tsv" rev)" = "$3 $4"
	check "$2: env.txt says bidir and the reverse address" sh -c "grep -qx 'bidir: 1' '$1/env.txt' && grep -qx 'bidir_addr: $4' '$1/env.txt' && grep -q '^bidir_pinning: ' '$1/env.txt'"
	check "$2: no suck or blast of the runs left" none_left "$1"
}
GP=1
command -v gnuplot >/dev/null 2>&1 || { GP=0; skip "no gnuplot: the plots of a --bidir result not checked (apt-get install gnuplot-nox)"; }

# --- loopback: two pairs on this host --------------------------------------------------------
D=$TMP/lo
sh scripts/suite -t 0.5 -r 1 -W 0 -m mmsg --bidir -o "$D" >"$TMP/lo.out" 2>"$TMP/lo.err"
st=$?
check "loopback: suite exits 0 ($(tail -n 2 "$TMP/lo.err" | tr '\n' ' '))" test $st = 0
common "$D" loopback 127.0.0.1 127.0.0.1
check "loopback: two sucks and two blasts, each its own run id" test \
	"$(grep -c '^cmd: .*/suck -a 127.0.0.1 ' "$D/env.txt") $(grep -c '^cmd: .*/blast -a 127.0.0.1 ' "$D/env.txt") $(sed -n 's/^cmd: .*\/suck .* --run-id \([0-9]*\) .*/\1/p' "$D/env.txt" | sort -u | wc -l | tr -d ' ')" = "2 2 2"
if [ $GP = 1 ]; then
	check "loopback: the datagrams plot draws mmsg-fwd and mmsg-rev" sh -c \
		"head -c 8 '$D/datagrams.png' | grep -q PNG && grep -q 'mmsg-fwd' '$D/datagrams.svg' && grep -q 'mmsg-rev' '$D/datagrams.svg'"
	check "loopback: the timeline plot" sh -c "head -c 8 '$D/timeline.png' | grep -q PNG"
fi
sh scripts/compare "$D" "$D" >/dev/null 2>"$TMP/cmp.err"
check "compare refuses a --bidir result (exit 2, said)" sh -c "test $? = 2 && grep -q 'suite --bidir' '$TMP/cmp.err'"

# --- SIGTERM while both pairs run: exit 143, nothing written, the four tools ended -----------
cat >"$TMP/wrap" <<EOF
#!/bin/sh
case " \$* " in *" --check "*) ;; *" -p "*) echo \$\$ >>"$TMP/\$(basename "\$1").pids" ;; esac
exec "\$@"
EOF
SUCK_CMD="sh $TMP/wrap" BLAST_CMD="sh $TMP/wrap" GNUPLOT=/nonexistent/gnuplot \
	sh scripts/suite -t 20 -r 1 -W 0 -m mmsg --bidir --bidir-addr 127.0.0.1 -o "$TMP/term" >/dev/null 2>"$TMP/term.err" &
spid=$!
PIDS="$PIDS $spid"
i=0
while [ "$(cat "$TMP/blast.pids" 2>/dev/null | wc -l)" -lt 2 ] && [ $i -lt 1000 ]; do
	i=$((i + 1))
	sleep 0.01
done
check "SIGTERM: both sucks and both blasts started" test "$(cat "$TMP/suck.pids" "$TMP/blast.pids" 2>/dev/null | wc -l)" = 4
kill -TERM "$spid"
if wait_pid "$spid" 10; then
	wait "$spid"
	st=$?
else
	st=hung
fi
check "SIGTERM: exit 143 (got $st)" test "$st" = 143
check "SIGTERM: says nothing was written" grep -qF "interrupted by SIGTERM; nothing written to $TMP/term" "$TMP/term.err"
alive=$(cat "$TMP/suck.pids" "$TMP/blast.pids" 2>/dev/null | while read -r p; do kill -0 "$p" 2>/dev/null && printf ' %s' "$p"; done)
check "SIGTERM: the four tools ended with the suite ($alive)" test -z "$alive"
check "SIGTERM: no result, no partial file" sh -c "test ! -e '$TMP/term' && test -z \"\$(find '$TMP' -name '*.tmp' | head -n 1)\""

# --- bad usage: exit 2, the message, nothing run or written ------------------------------------
bad() { # SAYS ARGS...
	b_says=$1
	shift
	b_st=0
	sh scripts/suite -t 0.3 -r 1 -W 0 -P -o "$TMP/bad" "$@" >"$TMP/bad.out" 2>"$TMP/bad.err" || b_st=$?
	check "$*: exit 2 (got $b_st: $(head -n 1 "$TMP/bad.err"))" test $b_st = 2
	check "$*: says \"$b_says\"" grep -qF -- "$b_says" "$TMP/bad.err"
	check "$*: no run, nothing written" sh -c "! grep -q '\[1/' '$TMP/bad.err' && test ! -e '$TMP/bad'"
}
bad "--bidir and --senders" -m mmsg --bidir --senders 2
bad "--bidir and --under-load" -m mmsg --bidir --under-load
bad "--bidir and --rtt" -m mmsg --bidir --rtt
bad "--bidir and --group" -m mmsg --bidir --group 239.255.1.1
bad "--bidir and --drops" -m mmsg --bidir --drops
bad "--bidir and --rx-dev" -m mmsg --bidir --rx-dev lo
bad "--bidir-addr: only with --bidir" -m mmsg --bidir-addr 127.0.0.1
bad "--bidir-addr: no address given" -m mmsg --bidir --bidir-addr ''
SUCK_CMD="env" bad "--bidir-addr ADDR is needed" -m mmsg --bidir
unset SUCK_CMD # a shell that keeps an assignment before a function (bash) would keep it
bad "the reverse suck (-m mmsg on blast's end, at 192.0.2.1) refuses its options" -m mmsg --bidir --bidir-addr 192.0.2.1

# --- on the wire, and two hosts (root, ip netns) ------------------------------------------------
if [ "$(id -u)" != 0 ] || ! command -v ip >/dev/null 2>&1 || ! ip netns list >/dev/null 2>&1; then
	skip "--wire and two hosts: need root and ip netns"
	done_tests
	exit
fi
bad "--bidir-addr and --wire" -m mmsg --wire --bidir --bidir-addr 198.18.0.1
D=$TMP/wire
GNUPLOT=/nonexistent/gnuplot sh scripts/suite --wire -t 0.5 -r 1 -W 0 -m mmsg --bidir -o "$D" >/dev/null 2>"$TMP/wire.err"
st=$?
if [ $st = 4 ]; then
	skip "--wire cannot be built here: $(tail -n 1 "$TMP/wire.err")"
else
	check "wire: exit 0 ($(tail -n 2 "$TMP/wire.err" | tr '\n' ' '))" test $st = 0
	common "$D" wire 198.18.0.2 198.18.0.1
	ns=$(sed -n 's/^wire: veth between network namespaces \([^ ]*\) (blast) and \([^ ]*\) (suck).*/\1 \2/p' "$D/env.txt")
	ns_tx=${ns%% *} ns_rx=${ns##* }
	check "wire: the rev suck in blast's namespace, the rev blast in suck's" sh -c \
		"grep -q '^cmd: ip netns exec $ns_tx .*/suck -a 198.18.0.1 .* --rx-dev bs[0-9]*s\$' '$D/env.txt' &&
		grep -q '^cmd: ip netns exec $ns_rx .*/blast -a 198.18.0.1 ' '$D/env.txt'"
	check "wire: blast's end set up for the reverse (GRO, its NAPI thread)" sh -c \
		"grep '^wire_set: ' '$D/env.txt' | grep -q 'bs[0-9]*s rx-gro on' && grep '^wire_set: ' '$D/env.txt' | grep -q 'bs[0-9]*s threaded NAPI (--bidir)'"
	check "wire: its namespaces named ($ns) and gone" sh -c "[ -n '$ns_tx' ] && ! ip netns list | grep -Eqw '$ns_tx|$ns_rx'"
fi

# two hosts: two namespaces joined by a veth, as t_twohost
NSA=bs-bda-$$ NSB=bs-bdb-$$
trap 'ip netns del "$NSA" 2>/dev/null; ip netns del "$NSB" 2>/dev/null; for p in $PIDS; do kill "$p" 2>/dev/null; done; rm -rf "$TMP"' EXIT
if ! { ip netns add "$NSA" && ip netns add "$NSB" &&
	ip link add "bda$$" netns "$NSA" type veth peer name "bdb$$" netns "$NSB" &&
	ip -n "$NSA" addr add 198.19.78.1/24 dev "bda$$" && ip -n "$NSB" addr add 198.19.78.2/24 dev "bdb$$" &&
	ip -n "$NSA" link set "bda$$" up && ip -n "$NSB" link set "bdb$$" up; } 2>"$TMP/ip.err"; then
	skip "two hosts: cannot make network namespaces here: $(head -n 1 "$TMP/ip.err")"
else
	D=$TMP/two
	SUCK_CMD="ip netns exec $NSB" BLAST_CMD="ip netns exec $NSA" GNUPLOT=/nonexistent/gnuplot \
		sh scripts/suite -t 0.5 -r 1 -W 0 -m mmsg -a 198.19.78.2 --bidir --bidir-addr 198.19.78.1 -o "$D" >/dev/null 2>"$TMP/two.err"
	st=$?
	check "two hosts: exit 0 ($(tail -n 2 "$TMP/two.err" | tr '\n' ' '))" test $st = 0
	common "$D" "two hosts" 198.19.78.2 198.19.78.1
	check "two hosts: the rev suck through BLAST_CMD, the rev blast through SUCK_CMD" sh -c \
		"grep -q '^cmd: ip netns exec $NSA .*/suck -a 198.19.78.1 ' '$D/env.txt' && grep -q '^cmd: ip netns exec $NSB .*/blast -a 198.19.78.1 ' '$D/env.txt'"
	check "two hosts: env.txt names the reverse prefixes" sh -c \
		"grep -qx 'bidir_suck_cmd: ip netns exec $NSA' '$D/env.txt' && grep -qx 'bidir_blast_cmd: ip netns exec $NSB' '$D/env.txt'"
fi

done_tests
