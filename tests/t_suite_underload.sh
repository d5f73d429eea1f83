# scripts/suite --under-load, in short real runs (-t 0.5 -r 1 -W 0): on loopback, mmsg and
# buffer, a row per variant and phase (alone, loaded) in runs.tsv whose probe figures are
# numbers that add up (sent == answered + lost, p50 <= p90 <= p99 <= max, every request that
# arrived answered) and whose flood is suck's foreign; summary.tsv per variant and phase;
# table.md's "Latency under load" with a row per variant, by the loaded p99, its cells
# summary.tsv's; the underload plot on index.html (skipped, said, without gnuplot); no suck or
# blast of the runs left, nor after a SIGTERM mid-flood (exit 143, nothing written); by default
# only the variants that can reply; the refusals (exit 2, nothing run or written); compare's
# refusal; with --wire (root, ip netns) the same over the veth and no namespace left. Nothing is asserted on speeds or on loaded against alone. Traffic: lo and the
# namespaces --wire makes.
. tests/lib.sh
# --retry 0 where commands are counted: a noisy run measured again (lib/noise.sh) adds its own.

# every_row FILE AWK-CONDITION: the condition holds on every data row (columns by name: c["x"];
# n(x): x is a decimal number)
every_row() {
	awk -F'\t' "function n(x) { return x ~ /^[0-9]+(\\.[0-9]+)?\$/ }
	NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } !($2) { bad = 1; print \"row \" NR \": \" \$0 } END { exit bad || NR < 2 }" "$1"
}
# probe_rows FILE: the probe's figures are numbers, ordered, and add up; suck answered every
# request that reached it; the flood is suck's foreign, in the loaded rows only
probe_rows() {
	# shellcheck disable=SC2016 # awk's $, not the shell's
	every_row "$1" 'n($c["blast_rtt_p50_us"]) && n($c["blast_rtt_p90_us"]) && n($c["blast_rtt_p99_us"]) &&
		n($c["blast_rtt_max_us"]) && n($c["blast_rtt_lost"]) && $c["blast_rtt_p50_us"] + 0 > 0 &&
		$c["blast_rtt_p50_us"] <= $c["blast_rtt_p90_us"] + 0 && $c["blast_rtt_p90_us"] <= $c["blast_rtt_p99_us"] + 0 &&
		$c["blast_rtt_p99_us"] <= $c["blast_rtt_max_us"] + 0 && $c["blast_rtt"] == 1 && $c["blast_outstanding"] == 32 && $c["blast_rate"] == 1000 &&
		$c["blast_size"] == 64 && $c["blast_sent"] == $c["blast_transactions"] + $c["blast_rtt_lost"] &&
		$c["suck_valid"] <= $c["blast_sent"] + 0 && $c["suck_echoed"] + $c["suck_echo_errors"] == $c["suck_valid"] &&
		$c["blast_transactions"] <= $c["suck_echoed"] + 0 && $c["suck_stop"] == "fin" &&
		n($c["rtt_lost_pct"]) && ($c["blast_rtt_lost"] == 0) == ($c["rtt_lost_pct"] == 0) &&
		($c["phase"] == "alone" && $c["suck_foreign"] == 0 && $c["flood_received"] == "-" && $c["rtt_p99_ratio"] == "-" &&
			$c["flood_sent"] == "" ||
		$c["phase"] == "loaded" && n($c["flood_sent"]) && $c["flood_sent"] > 0 && $c["flood_received"] == $c["suck_foreign"] &&
			$c["flood_received"] > 0 && $c["flood_received"] <= $c["flood_sent"] + $c["flood_fins"] &&
			n($c["flood_received_pps"]) && n($c["rtt_p99_ratio"]))'
}
# ratio_ok FILE: each loaded row's rtt_p99_ratio is its p99 over its round's alone p99
ratio_ok() {
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["phase"] == "alone" { a[$1, $c["run"]] = $c["blast_rtt_p99_us"]; next }
		{ n++; want = sprintf("%.2f", $c["blast_rtt_p99_us"] / a[$1, $c["run"]]); if (want != $c["rtt_p99_ratio"]) { bad = 1; print $1 ": " $c["rtt_p99_ratio"] " != " want } }
		END { exit bad || !n }' "$1"
}
# summed FILE VARIANT PHASE FIGURE: FIGURE's median for VARIANT and PHASE in a summary.tsv
summed() { awk -F'\t' -v v="$2" -v p="$3" -v f="$4" '$1 == v && $2 == p && $3 == f { print $5 }' "$1"; }
# ul_rows FILE: the variants of "Latency under load", in the table's order, and whether their
# loaded p99s (5th cell) rise
ul_rows() {
	sed -n '/^## Latency under load$/,/^$/!{/^| variant /,/^$/p}' "$1" | awk -F'|' 'NR > 2 && NF > 2 {
		v = $2; gsub(/ /, "", v); p = $6 + 0; printf "%s ", v; if (NR > 3 && p < last) printf "UNSORTED "; last = p }'
}
# cell FILE VARIANT N: the N-th cell of VARIANT's row in "Latency under load"
cell() { sed -n '/^## Latency under load$/,$p' "$1" | awk -F'|' -v v="$2" -v k="$3" '{ x = $2; gsub(/ /, "", x) } x == v { y = $(k + 1); gsub(/ /, "", y); print y; exit }'; }
# common DIR WHAT VARIANTS...: the checks of a finished suite --under-load
common() {
	cm_d=$1 cm_w=$2
	shift 2
	check "$cm_w: runs.tsv has the columns" has_cols "$cm_d/runs.tsv" variant phase run blast_rtt_p50_us \
		blast_rtt_p90_us blast_rtt_p99_us blast_rtt_max_us blast_rtt_lost blast_transactions suck_foreign \
		flood_sent flood_received flood_received_pps rtt_p99_ratio rtt_lost_pct
	cm_want=$(for v in "$@"; do printf '%s alone 1;%s loaded 1;' "$v" "$v"; done)
	check "$cm_w: a row per variant and phase ($cm_want)" test \
		"$(awk -F'\t' 'NR > 1 { printf "%s %s %s;", $1, $2, $3 }' "$cm_d/runs.tsv")" = "$cm_want"
	check "$cm_w: the probe's figures are numbers and add up, the flood is suck's foreign" probe_rows "$cm_d/runs.tsv"
	check "$cm_w: rtt_p99_ratio is loaded p99 / alone p99" ratio_ok "$cm_d/runs.tsv"
	check "$cm_w: summary.tsv per variant and phase" sh -c "head -n 1 '$cm_d/summary.tsv' | grep -q '^variant	phase	figure	runs	median'"
	check "$cm_w: table.md has 'Latency under load'" grep -qx '## Latency under load' "$cm_d/table.md"
	cm_rows=$(ul_rows "$cm_d/table.md")
	check "$cm_w: a row per variant, by the loaded p99 ($cm_rows)" sh -c \
		"[ \"\$(echo '$cm_rows' | tr ' ' '\n' | grep . | sort | tr '\n' ' ')\" = \"\$(printf '%s\n' $* | sort | tr '\n' ' ')\" ] && ! echo '$cm_rows' | grep -q UNSORTED"
	for v in "$@"; do
		for cm_c in 2:alone:blast_rtt_p50_us 4:alone:blast_rtt_p99_us 5:loaded:blast_rtt_p99_us; do
			cm_k=${cm_c%%:*} cm_f=${cm_c##*:} cm_p=${cm_c#*:}
			cm_p=${cm_p%%:*}
			check "$cm_w: table.md's $cm_p $cm_f of $v is summary.tsv's" test "$(cell "$cm_d/table.md" "$v" "$cm_k")" = \
				"$(summed "$cm_d/summary.tsv" "$v" "$cm_p" "$cm_f")"
		done
	done
	check "$cm_w: env.txt says under_load: 1" grep -qx 'under_load: 1' "$cm_d/env.txt"
	check "$cm_w: every suck --echo" sh -c "! grep '^cmd: .*/suck ' '$cm_d/env.txt' | grep -v -- ' --echo' | grep -q ."
	check "$cm_w: a probe per run, a flood per loaded run" test \
		"$(grep -c '^cmd: .*/blast .* -s 64 .*--rtt -r 1000 --outstanding 32' "$cm_d/env.txt") $(grep -c '^cmd: .*/blast .* --fin-time 100ms' "$cm_d/env.txt")" = \
		"$(($(printf '%s\n' "$cm_want" | tr ';' '\n' | grep -c .))) $(printf '%s\n' "$cm_want" | tr ';' '\n' | grep -c loaded)"
	check "$cm_w: no suck or blast of the runs left" none_left "$cm_d"
}
GP=1
command -v gnuplot >/dev/null 2>&1 || { GP=0; skip "no gnuplot: the underload plot not checked (apt-get install gnuplot-nox)"; }

# --- loopback, two variants ------------------------------------------------------------------
D=$TMP/ul
sh scripts/suite -t 0.5 -r 1 -W 0 --retry 0 -m "mmsg buffer" --under-load -o "$D" >"$TMP/ul.out" 2>"$TMP/ul.err"
st=$?
check "loopback: suite exits 0 ($(tail -n 2 "$TMP/ul.err" | tr '\n' ' '))" test $st = 0
common "$D" loopback mmsg buffer
if [ $GP = 1 ]; then
	check "loopback: the underload plot (PNG, SVG, on index.html)" sh -c \
		"head -c 8 '$D/underload.png' | grep -q PNG && grep -q '</svg>' '$D/underload.svg' && grep -q 'underload.svg' '$D/index.html'"
	check "loopback: the underload_timeline plot (PNG, SVG, on index.html)" sh -c \
		"head -c 8 '$D/underload_timeline.png' | grep -q PNG && grep -q '</svg>' '$D/underload_timeline.svg' && grep -q 'underload_timeline.svg' '$D/index.html'"
	check "loopback: no other plot (their summaries are per variant)" test ! -e "$D/datagrams.png"
fi
sh scripts/compare "$D" "$D" >/dev/null 2>"$TMP/cmp.err"
check "compare refuses an --under-load result (exit 2, said)" sh -c "test $? = 2 && grep -q 'suite --under-load' '$TMP/cmp.err'"

# --- SIGTERM while the flood and the probe run (a warm-up is loaded): exit 143, nothing written,
# suck, the probe and the flood ended with the suite
cat >"$TMP/wrap" <<EOF
#!/bin/sh
tool=\$1; shift
case " \$* " in *" --fin-time 100ms "*) tool=flood ;; esac
case " \$* " in *" -p "*) echo \$\$ >>"$TMP/\$tool.pids" ;; esac
exec "\$@"
EOF
SUCK_CMD="sh $TMP/wrap suck" BLAST_CMD="sh $TMP/wrap blast" GNUPLOT=/nonexistent/gnuplot \
	sh scripts/suite -t 20 -r 1 -W 1 -m mmsg --under-load -o "$TMP/term" >/dev/null 2>"$TMP/term.err" &
spid=$!
PIDS="$PIDS $spid"
i=0
while { [ ! -s "$TMP/flood.pids" ] || [ ! -s "$TMP/blast.pids" ]; } && [ $i -lt 1000 ]; do
	i=$((i + 1))
	sleep 0.01
done
check "SIGTERM: the flood and the probe started" sh -c "test -s '$TMP/flood.pids' && test -s '$TMP/blast.pids'"
kill -TERM "$spid"
if wait_pid "$spid" 10; then
	wait "$spid"
	st=$?
else
	st=hung
fi
check "SIGTERM: exit 143 (got $st)" test "$st" = 143
check "SIGTERM: says nothing was written" grep -qF "interrupted by SIGTERM; nothing written to $TMP/term" "$TMP/term.err"
alive=$(cat "$TMP/suck.pids" "$TMP/blast.pids" "$TMP/flood.pids" 2>/dev/null |
	while read -r p; do kill -0 "$p" 2>/dev/null && printf ' %s' "$p"; done)
check "SIGTERM: suck, the probe and the flood ended with the suite ($alive)" test -z "$alive"
check "SIGTERM: no result, no partial file" sh -c "test ! -e '$TMP/term' && test -z \"\$(find '$TMP' -name '*.tmp' | head -n 1)\""

# --- by default (no -m) only the variants that can reply: a suck whose list offers buffer and gro
mkdir "$TMP/fake"
cat >"$TMP/fake/suck" <<EOF
#!/bin/sh
[ "\$*" = "-m list" ] && { "$(cd "$BIN" && pwd)/suck" -m list | grep -E '^(buffer|gro)	'; exit; }
exec "$(cd "$BIN" && pwd)/suck" "\$@"
EOF
chmod +x "$TMP/fake/suck"
SUCK_BIN=$TMP/fake/suck sh scripts/suite -t 0.3 -r 1 -W 0 -P --under-load -o "$TMP/def" >/dev/null 2>"$TMP/def.err"
check "every variant: exit 0 ($(tail -n 1 "$TMP/def.err"))" test $? = 0
check "every variant: buffer ran, alone and loaded; gro left out" test \
	"$(awk -F'\t' 'NR > 1 { printf "%s %s;", $1, $2 }' "$TMP/def/runs.tsv")" = "buffer alone;buffer loaded;"
check "every variant: the note says gro was left out, and why" \
	grep -q '^- --under-load: gro left out: suck refuses --echo with them (.*gro cannot reply)' "$TMP/def/table.md"

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
bad "--under-load and --rtt" -m mmsg --under-load --rtt
bad "--under-load and --group" -m mmsg --under-load --group 239.255.1.1
bad "--under-load and --senders" -m mmsg --under-load --senders 2
bad "--under-load and --latency" -m mmsg --under-load --latency
bad "--under-load and --drops" -m mmsg --under-load --drops
bad "--outstanding: only with --rtt" -m mmsg --under-load --outstanding 2
bad "-m 'mmsg gro': --under-load needs suck --echo, which it refuses with -m gro" -m "mmsg gro" --under-load
bad "-B '--rtt-timeout 1s': '--rtt-timeout' is not accepted here" -m mmsg --under-load -B "--rtt-timeout 1s"

# --- on the wire (root, ip netns) ----------------------------------------------------------------
if [ "$(id -u)" != 0 ] || ! command -v ip >/dev/null 2>&1 || ! ip netns list >/dev/null 2>&1; then
	skip "--wire: needs root and ip netns"
else
	D=$TMP/wul
	GNUPLOT=/nonexistent/gnuplot sh scripts/suite --wire -t 0.3 -r 1 -W 0 --retry 0 -m mmsg --under-load -o "$D" >/dev/null 2>"$TMP/wul.err"
	st=$?
	if [ $st = 4 ]; then
		skip "--wire cannot be built here: $(tail -n 1 "$TMP/wul.err")"
	else
		check "wire: exit 0 ($(tail -n 2 "$TMP/wul.err" | tr '\n' ' '))" test $st = 0
		common "$D" wire mmsg
		# shellcheck disable=SC2016 # awk's $
		check "wire: suck on the receive end" every_row "$D/runs.tsv" 'index($c["suck_addr"], "198.18.0.2") == 1'
		ns=$(sed -n 's/^wire: veth between network namespaces \([^ ]*\) (blast) and \([^ ]*\) (suck).*/\1 \2/p' "$D/env.txt")
		ns_re=$(printf '%s\n' "$ns" | tr ' ' '|')
		check "wire: its namespaces named ($ns) and gone" sh -c "[ -n '$ns' ] && ! ip netns list | grep -Eqw '$ns_re'"
	fi
fi

done_tests
