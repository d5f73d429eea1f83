# scripts/suite --rtt and --group (the suite's part), in short real runs (-t 0.3 -r 1
# -W 0): round trips on loopback (replies larger than the requests: suck --echo-max) with the
# RTT columns in runs.tsv and summary.tsv holding numbers that make sense, the RTT table in
# table.md agreeing with summary.tsv, the rtt plot drawn and listed on index.html; by default
# only the variants that can echo; a multicast group on loopback joined for real (out through
# lo, TTL 1), every datagram received and none lost at a gentle rate (200-byte datagrams at
# 400/s); the refusals (exit 2, nothing run or written); with --wire (root, ip netns) the
# round trips and an IPv6 group over the veth, nothing left behind. Traffic: lo (the group's
# TTL 1, a group of 239.255.0.0/16 picked at random so that two runs of this test at once do
# not share one) and the namespaces --wire makes.
. tests/lib.sh
# --retry 0 where commands are counted: a noisy run measured again would add its own.

# every_row FILE AWK-CONDITION: the condition holds on every data row (columns by name: c["x"];
# n(x): x is a decimal number)
every_row() {
	awk -F'\t' "function n(x) { return x ~ /^[0-9]+(\\.[0-9]+)?\$/ }
	NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } !($2) { bad = 1; print \"row \" NR \": \" \$0 } END { exit bad || NR < 2 }" "$1"
}
# rtt_rows FILE: blast's round trips in every row add up and are ordered
rtt_rows() {
	every_row "$1" 'n($c["blast_rtt_p50_us"]) && n($c["blast_rtt_max_us"]) && n($c["blast_rtt_mean_us"]) &&
		$c["blast_rtt_p50_us"] + 0 > 0 && $c["blast_rtt_p50_us"] <= $c["blast_rtt_p90_us"] + 0 &&
		$c["blast_rtt_p90_us"] <= $c["blast_rtt_p99_us"] + 0 && $c["blast_rtt_p99_us"] <= $c["blast_rtt_p999_us"] + 0 &&
		$c["blast_rtt_p999_us"] <= $c["blast_rtt_max_us"] + 0 && $c["blast_rtt_mean_us"] <= $c["blast_rtt_max_us"] + 0 &&
		$c["blast_transactions"] > 0 && $c["blast_tps"] > 0 &&
		$c["blast_sent"] == $c["blast_transactions"] + $c["blast_rtt_lost"] &&
		$c["suck_echoed"] == $c["suck_valid"] && $c["suck_valid"] == $c["blast_sent"] && $c["blast_rtt"] == 1'
}
# summed FILE VARIANT FIGURE: FIGURE's median for VARIANT in a summary.tsv
summed() { awk -F'\t' -v v="$2" -v f="$3" '$1 == v && $2 == f { print $4 }' "$1"; }
# cell FILE VARIANT HEADING: the cell under HEADING in VARIANT's row of the table.md table that
# has that heading
cell() {
	awk -F'|' -v v="$2" -v h="$3" '
		/^\|/ { for (i = 2; i < NF; i++) { x = $i; gsub(/^ +| +$/, "", x); t[i] = x } }
		/^\| variant / { k = 0; for (i = 2; i < NF; i++) if (t[i] == h) k = i; next }
		k && t[2] == v { print t[k]; exit }' "$1"
}
plots_ok() { # DIR NAME: NAME.png is a PNG, NAME.svg a whole SVG, index.html shows it
	head -c 8 "$1/$2.png" | grep -q PNG && grep -q '<svg' "$1/$2.svg" && grep -q '</svg>' "$1/$2.svg" &&
		grep -q "$2.svg" "$1/index.html"
}
GP=1
command -v gnuplot >/dev/null 2>&1 || { GP=0; skip "no gnuplot: the rtt plot not checked (apt-get install gnuplot-nox)"; }

# --- round trips on loopback, 4 requests in flight, two variants, replies larger than the
# requests (suck --echo-max) ---------------------------------------------------------------
D=$TMP/rtt
sh scripts/suite -t 0.3 -r 1 -W 0 --retry 0 -m "copy mmsg" --rtt --outstanding 4 -B "--reply-size 2000" -o "$D" \
	>"$TMP/rtt.out" 2>"$TMP/rtt.err"
st=$?
check "rtt: suite exits 0 ($(tail -n 2 "$TMP/rtt.err" | tr '\n' ' '))" test $st = 0
check "rtt: runs.tsv has blast's round-trip columns" has_cols "$D/runs.tsv" blast_rtt blast_outstanding \
	blast_transactions blast_rtt_lost blast_tps blast_rtt_p50_us blast_rtt_p90_us blast_rtt_p99_us \
	blast_rtt_p999_us blast_rtt_max_us blast_rtt_mean_us suck_echo suck_echoed
check "rtt: a row per variant" test "$(col "$D/runs.tsv" variant | tr '\n' ' ')" = "copy mmsg "
check "rtt: p50 <= p90 <= p99 <= p99.9 <= max, transactions > 0, sent == transactions + lost, every request echoed" \
	rtt_rows "$D/runs.tsv"
check "rtt: 4 outstanding, suck echoed" every_row "$D/runs.tsv" '$c["blast_outstanding"] == 4 && $c["suck_echo"] == 1'
check "rtt: -B --reply-size 2000 gives suck --echo-max 2000: no reply cut short" every_row "$D/runs.tsv" \
	'$c["blast_reply_size"] == 2000 && $c["suck_echo_max"] == 2000 && $c["blast_rtt_short"] == 0 && $c["suck_echo_clipped"] == 0'
for v in copy mmsg; do
	for f in blast_rtt_p50_us blast_rtt_p99_us blast_tps; do
		check "rtt: summary.tsv has $f of $v, the run's" test "$(summed "$D/summary.tsv" $v $f)" = \
			"$(awk -F'\t' -v v=$v -v f=$f 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $1 == v { print $c[f] }' "$D/runs.tsv")"
	done
	# the table's cell is summary.tsv's median (below 10^4 µs it is printed as it is)
	p50=$(summed "$D/summary.tsv" $v blast_rtt_p50_us)
	check "rtt: table.md's RTT p50 of $v is summary.tsv's ($p50)" test "$(cell "$D/table.md" $v "RTT p50 us")" = "$p50"
	check "rtt: table.md's unanswered of $v is 0" test "$(cell "$D/table.md" $v unanswered)" = 0
done
check "rtt: table.md says the round trips" grep -q '^Round trips: blast --rtt, 4 request(s) in flight' "$D/table.md"
check "rtt: table.md ranks transactions/s" grep -q '^- transactions/s: ' "$D/table.md"
check "rtt: env.txt says rtt 1, outstanding 4" sh -c "grep -qx 'rtt: 1' '$D/env.txt' && grep -qx 'outstanding: 4' '$D/env.txt'"
check "rtt: every suck --echo, every blast --rtt --outstanding 4" test \
	"$(grep -c '^cmd: .*/suck .* --echo' "$D/env.txt") $(grep -c '^cmd: .*/blast .* --rtt --outstanding 4' "$D/env.txt")" = "2 2"
[ $GP = 0 ] || check "rtt: the rtt plot (PNG, SVG, on index.html)" plots_ok "$D" rtt

# A figure one run did not measure ("-": blast's RTT when no request was answered) is summed
# over the runs that did, not dropped for every variant.
printf 'variant\trun\tblast_rtt_p50_us\tsuck_tos\nv\t1\t5.5\t-\nv\t2\t-\t-\nw\t1\t7\t-\n' >"$TMP/dash.tsv"
check "summary: '-' is no value: v's p50 over its one run, w's too, tos nowhere" test \
	"$(awk -f scripts/lib/stats.awk -f scripts/lib/summary.awk "$TMP/dash.tsv" | awk -F'\t' 'NR > 1 { printf "%s %s %s %s;", $1, $2, $3, $4 }')" = \
	"v blast_rtt_p50_us 1 5.5;w blast_rtt_p50_us 1 7;"

# By default (no -m) only the variants that can echo: a suck whose list offers buffer and gro.
mkdir "$TMP/fake"
cat >"$TMP/fake/suck" <<EOF
#!/bin/sh
[ "\$*" = "-m list" ] && { "$(cd "$BIN" && pwd)/suck" -m list | grep -E '^(buffer|gro)	'; exit; }
exec "$(cd "$BIN" && pwd)/suck" "\$@"
EOF
chmod +x "$TMP/fake/suck"
SUCK_BIN=$TMP/fake/suck GNUPLOT=/nonexistent/gnuplot sh scripts/suite -t 0.3 -r 1 -W 0 --rtt -o "$TMP/def" \
	>/dev/null 2>"$TMP/def.err"
check "rtt, every variant: exit 0" test $? = 0
check "rtt, every variant: buffer ran, gro left out" test "$(col "$TMP/def/runs.tsv" variant | tr '\n' ' ')" = "buffer "
check "rtt, every variant: the note says gro was left out, and why" \
	grep -q '^- --rtt: gro left out: suck refuses --echo with them (.*gro cannot reply)' "$TMP/def/table.md"

# --- bad usage: exit 2, the message, nothing run or written --------------------------------
bad() { # SAYS ARGS...
	b_says=$1
	shift
	b_st=0
	sh scripts/suite -t 0.3 -r 1 -W 0 -P -o "$TMP/bad" "$@" >"$TMP/bad.out" 2>"$TMP/bad.err" || b_st=$?
	check "$*: exit 2 (got $b_st: $(head -n 1 "$TMP/bad.err"))" test $b_st = 2
	check "$*: says \"$b_says\"" grep -qF -- "$b_says" "$TMP/bad.err"
	check "$*: no run, nothing written" sh -c "! grep -q '\[1/' '$TMP/bad.err' && test ! -e '$TMP/bad'"
}
bad "-m 'copy gro': --rtt needs suck --echo, which it refuses with -m gro" -m "copy gro" --rtt
bad "--outstanding: only with --rtt" -m copy --outstanding 4
bad "--outstanding '0': accepted: 1..4096" -m copy --rtt --outstanding 0
bad "--outstanding '99999999999999999999': accepted: 1..4096" -m copy --rtt --outstanding 99999999999999999999
bad "-B '--rtt': '--rtt' is not accepted here" -m copy -B --rtt
bad "--group '239.1.2.3': not administratively scoped" -m copy --group 239.1.2.3
bad "--group 'ff0e::1': not scoped narrowly enough" -m copy --group ff0e::1
bad "--group '198.18.0.1': not a multicast group" -m copy --group 198.18.0.1
bad "--group 'ff05::1::2': not an IPv4 or IPv6 address" -m copy --group ff05::1::2
bad "--group '239.255.1.256': not an IPv4 address" -m copy --group 239.255.1.256
bad "--rtt and --group: blast sends no round trips to a group" -m copy --rtt --group 239.255.1.1
bad "-a and --group" -m copy -a 127.0.0.1 --group 239.255.1.1
bad "-B '--mc-if eth0': '--mc-if' is not accepted here" -m copy --group 239.255.1.1 -B "--mc-if eth0"
bad "-B '--ttl 5': '--ttl' is not accepted here" -m copy --group 239.255.1.1 -B "--ttl 5"
bad "--group and --rx-dev" -m copy --group 239.255.1.1 --rx-dev lo
SUCK_CMD=env bad "--group: a group's datagrams stay on this machine" -m copy --group 239.255.1.1

# An IPv6 group on loopback: Linux routes none over lo (blast cannot connect): exit 4, said.
if ! "$BIN/blast" --check -a ff05::26:1 --mc-if lo >/dev/null 2>&1; then
	sh scripts/suite -t 0.3 -r 1 -W 0 -P -m copy --group ff05::26:1 -o "$TMP/v6lo" >/dev/null 2>"$TMP/v6lo.err"
	check "IPv6 group on lo: exit 4 ($(head -n 1 "$TMP/v6lo.err"))" test $? = 4
	check "IPv6 group on lo: says why" grep -q "^suite: --group 'ff05::26:1': blast cannot send to it over lo: .*not supported here (exit 4)" "$TMP/v6lo.err"
	check "IPv6 group on lo: nothing written" test ! -e "$TMP/v6lo"
else
	skip "this lo routes IPv6 multicast: the exit 4 without it not checked"
fi

# --- a multicast group on loopback, joined for real -----------------------------------------
G=239.255.$(($$ % 256)).$((($$ / 256) % 254 + 1))
D=$TMP/group
# 200-byte datagrams at 400/s for 0.3 s: 120, fewer than suck's default receive buffer holds
# (212992 bytes of socket buffers), so a loaded machine that keeps suck off its CPU the whole
# run loses none (at 2000/s one was lost once, on the wire, under a loaded CI run)
sh scripts/suite -t 0.3 -r 1 -W 0 --retry 0 -P -m "buffer mmsg" -s 200 --group "$G" -B "-r 400" -o "$D" >/dev/null 2>"$TMP/group.err"
st=$?
check "group $G: suite exits 0 ($(tail -n 2 "$TMP/group.err" | tr '\n' ' '))" test $st = 0
check "group: a row per variant" test "$(col "$D/runs.tsv" variant | tr '\n' ' ')" = "buffer mmsg "
counts() { # RUNS.TSV: what the messages show of each row
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ printf "%s: sent %s received %s valid %s lost %s dropped %s foreign %s stop %s; ", $1, $c["blast_sent"],
			$c["suck_received"], $c["suck_valid"], $c["suck_lost"], $c["suck_dropped"], $c["suck_foreign"], $c["suck_stop"] }' "$1"
}
check "group: every datagram received, valid, none lost or foreign, on the fin ($(counts "$D/runs.tsv"))" every_row "$D/runs.tsv" \
	'$c["suck_received"] > 0 && $c["suck_received"] == $c["blast_sent"] && $c["suck_valid"] == $c["blast_sent"] &&
	$c["suck_lost"] == 0 && $c["suck_foreign"] == 0 && $c["suck_stop"] == "fin"'
check "group: suck joined $G on lo" every_row "$D/runs.tsv" "\$c[\"suck_group\"] == \"$G\" && \$c[\"suck_mc_if\"] == \"lo\""
check "group: blast sent to it out through lo, TTL 1, loop on" every_row "$D/runs.tsv" \
	'$c["blast_group"] == 1 && $c["blast_mc_if"] == "lo" && $c["blast_ttl"] == 1 && $c["blast_mc_loop"] == 1'
check "group: env.txt says the group and its path" sh -c "grep -qx 'group: $G' '$D/env.txt' && grep -qx 'group_path: lo, TTL 1, loop on' '$D/env.txt'"
check "group: table.md says the group" grep -q "^Multicast: blast sends to group $G, which suck joins" "$D/table.md"
check "group: every suck joined, every blast sent to the group" test \
	"$(grep -c "^cmd: .*/suck -a $G .* --join $G --mc-if lo" "$D/env.txt") $(grep -c "^cmd: .*/blast -a $G .* --mc-if lo --ttl 1 --mc-loop" "$D/env.txt")" = "2 2"

# --- on the wire (root, ip netns): round trips, and an IPv6 group over the veth -------------
if [ "$(id -u)" != 0 ] || ! command -v ip >/dev/null 2>&1 || ! ip netns list >/dev/null 2>&1; then
	skip "--wire: needs root and ip netns"
else
	D=$TMP/wrtt
	GNUPLOT=/nonexistent/gnuplot sh scripts/suite --wire -t 0.3 -r 1 -W 0 -m mmsg --rtt -o "$D" >/dev/null 2>"$TMP/wrtt.err"
	st=$?
	if [ $st = 4 ]; then
		skip "--wire cannot be built here: $(tail -n 1 "$TMP/wrtt.err")"
	else
		check "wire rtt: exit 0 ($(tail -n 2 "$TMP/wrtt.err" | tr '\n' ' '))" test $st = 0
		check "wire rtt: round trips across the veth add up" rtt_rows "$D/runs.tsv"
		check "wire rtt: suck on the receive end" every_row "$D/runs.tsv" 'index($c["suck_addr"], "198.18.0.2") == 1'
		D=$TMP/wgroup
		GNUPLOT=/nonexistent/gnuplot sh scripts/suite --wire -t 0.3 -r 1 -W 0 -m mmsg --group ff05::26:1 -s 200 -B "-r 400" \
			-o "$D" >/dev/null 2>"$TMP/wgroup.err"
		check "wire group ff05::26:1: exit 0 ($(tail -n 2 "$TMP/wgroup.err" | tr '\n' ' '))" test $? = 0
		check "wire group: every datagram received, none lost, on the fin ($(counts "$D/runs.tsv"))" every_row "$D/runs.tsv" \
			'$c["suck_received"] > 0 && $c["suck_valid"] == $c["blast_sent"] && $c["suck_lost"] == 0 && $c["suck_stop"] == "fin"'
		check "wire group: over the veth, TTL 1" every_row "$D/runs.tsv" \
			'$c["suck_group"] == "ff05::26:1" && $c["blast_mc_if"] ~ /^bs[0-9]+s$/ && $c["suck_mc_if"] ~ /^bs[0-9]+r$/ && $c["blast_ttl"] == 1'
		for w in wrtt wgroup; do
			ns=$(sed -n 's/^wire: veth between network namespaces \([^ ]*\) (blast) and \([^ ]*\) (suck).*/\1 \2/p' "$TMP/$w/env.txt")
			check "wire $w: its namespaces named ($ns) and gone" sh -c "[ -n '$ns' ] && ! ip netns list | grep -Eqw '$(echo $ns | tr ' ' '|')'"
		done
	fi
fi

done_tests
