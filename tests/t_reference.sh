# The committed reference runs and what the README and docs/ say of them: results/ holds what is
# read (at most 400 files; no raw/ or index.html in a reference folder, no file loose at the top of
# results/reference/, no PNG no doc embeds), every results/ path the docs name exists, and every
# figure they quote from results/reference/ is the figure of the file it comes from, as rounded
# to the digits quoted. A figure is checked where the doc says it: the quote (white space as one
# space) must still be in the doc, so a reworded or re-measured doc fails here until this test
# says the same; a doc table is read row by row. Figures the docs give with no committed table
# (by-hand measurements, runs not kept) are not checked here.
# shellcheck disable=SC2046 # the helpers print figures as words: split on purpose
. tests/lib.sh
R=results/reference

# ---- helpers ----

# flat FILE: FILE on one line, every run of white space one space (a quote may span a line break).
flat() { tr '\n\t' '  ' <"$1" | tr -s ' '; }
# says DOC TEXT: DOC says TEXT (flat).
says() { flat "$1" | grep -qF -- "$2"; }

# nums_cmp QUOTE VALUES: empty when the numbers of QUOTE, left to right, are VALUES (space-separated)
# as rounded to the digits quoted; else what differs. A VALUE "-" skips its number; a number may
# end in k or M (10^3, 10^6), as the tables print counts. Tolerance: half a unit of the last digit.
nums_cmp() {
	awk -v q="$1" -v vals="$2" '
	function mult(s) { return s ~ /k$/ ? 1e3 : s ~ /M$/ ? 1e6 : 1 }
	function num(s) { m = mult(s); sub(/[kM]$/, "", s); return s * m }
	function decs(s) { sub(/[kM]$/, "", s); i = index(s, "."); return i ? length(s) - i : 0 }
	BEGIN {
		n = split(vals, v, " ")
		s = q; k = 0; out = ""
		while (match(s, /[0-9]+(\.[0-9]+)?[kM]?/)) {
			t = substr(s, RSTART, RLENGTH)
			s = substr(s, RSTART + RLENGTH)
			if (++k > n) continue
			if (v[k] == "-") continue
			if (v[k] !~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?[kM]?$/) { out = out t " has no figure (" v[k] "); "; continue }
			want = num(t); have = num(v[k])
			tol = 0.5 * 10 ^ -decs(t) * mult(t) * 1.000001 + 1e-9
			d = have - want; if (d < 0) d = -d
			if (d > tol) out = out t " is " v[k] " in the table; "
		}
		if (k != n) out = out k " numbers quoted, " n " figures to check; "
		printf "%s", out
	}'
}

# fig DOC QUOTE VALUE...: DOC says QUOTE, whose numbers are the VALUEs (nums_cmp).
fig() {
	fg_doc=$1 fg_q=$2
	shift 2
	if ! says "$fg_doc" "$fg_q"; then
		fail "$fg_doc no longer says \"$fg_q\" (change the doc and this test together)"
		return
	fi
	fg_r=$(nums_cmp "$fg_q" "$*")
	if [ -z "$fg_r" ]; then ok; else fail "$fg_doc \"$fg_q\": $fg_r"; fi
}

# drow DOC MARKER KEY: the row whose first cell is KEY of the first table after the first line
# of DOC that holds MARKER.
drow() {
	awk -v m="$2" -v k="$3" '!s && index($0, m) { s = 1; next }
		s && /^\|/ { t = 1; l = $0; sub(/^\| */, "", l); split(l, c, / *\| */)
			if (c[1] == k) { print; exit } next }
		t { exit }' "$1"
}

# frow DOC MARKER KEY VALUE...: the numbers of that row, its first cell left out, are the VALUEs.
frow() {
	fr_doc=$1 fr_m=$2 fr_k=$3
	shift 3
	fr_row=$(drow "$fr_doc" "$fr_m" "$fr_k")
	if [ -z "$fr_row" ]; then
		fail "$fr_doc: no row \"$fr_k\" in the table after \"$fr_m\""
		return
	fi
	fr_r=$(nums_cmp "$(printf '%s\n' "$fr_row" | sed 's/^|[^|]*|//')" "$*")
	if [ -z "$fr_r" ]; then ok; else fail "$fr_doc, row \"$fr_k\" after \"$fr_m\": $fr_r"; fi
}

# mdcell FILE N KEY I: cell I (1: KEY's own) of the row KEY of the N-th markdown table of FILE.
mdcell() {
	awk -v n="$2" -v k="$3" -v i="$4" '/^\|/ { if (!in_t) { in_t = 1; t++ }
			if (t != n) next
			l = $0; sub(/^\| */, "", l); sub(/ *\|$/, "", l); split(l, c, / *\| */)
			if (c[1] == k) { print c[i]; exit } next }
		{ in_t = 0 }' "$1"
}
# md FILE N KEY I: that cell's first word (the median of "median (min..max)").
md() { mdcell "$@" | awk '{ print $1 }'; }
# mdr FILE N KEY I: "MIN MAX" of that cell's "(min..max)" or "lo..hi (90 %)".
mdr() {
	mdcell "$@" | awk '{ s = $0; if (match(s, /\([^()]*\.\.[^()]*\)/)) s = substr(s, RSTART + 1, RLENGTH - 2)
		else sub(/ *\(.*/, "", s)
		split(s, a, /\.\./); print a[1], a[2] }'
}

# tsv FILE COL [KEY=VALUE...]: COL of every row of a tsv file (header line) whose KEYs have those VALUEs.
tsv() {
	ts_f=$1 ts_c=$2
	shift 2
	awk -F'\t' -v c="$ts_c" -v conds="$*" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i
			n = split(conds, cd, " "); next }
		/^#/ || !NF { next }
		{ for (j = 1; j <= n; j++) { split(cd[j], kv, "="); gsub(/_/, " ", kv[2]); if ($h[kv[1]] != kv[2]) next }
		  print $h[c] }' "$ts_f"
}

# pline FILE SIZE LABEL: the numbers after LABEL on its line in make perf's SIZE-byte section.
pline() {
	awk -v sz="$2" -v lab="$3" '$0 ~ "^" sz "-byte datagrams" { s = 1; next }
		s && /^([0-9]+-byte datagrams|targets)/ { exit }
		s && (i = index($0, lab)) { r = substr($0, i + length(lab)); gsub(/[][]/, " ", r)
			n = split(r, w, " "); o = ""
			for (j = 1; j <= n; j++) if (w[j] ~ /^[0-9.]+$/) o = o (o == "" ? "" : " ") w[j]
			print o; exit }' "$1"
}
# p1 FILE SIZE LABEL: the first of them (the median).
p1() { pline "$1" "$2" "$3" | cut -d' ' -f 1; }
# tline FILE LABEL: the first number after LABEL on the first line holding it (make perf's targets).
tline() {
	awk -v lab="$2" '(i = index($0, lab)) { r = substr($0, i + length(lab)); split(r, w, " "); print w[1]; exit }' "$1"
}

# med: the median of the numbers on stdin, one a line.
med() { LC_ALL=C sort -n | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
# calc EXPR: awk's value of EXPR.
calc() { awk "BEGIN { print $1 }"; }
# rng: "MIN MAX" of the numbers on stdin.
rng() { LC_ALL=C sort -n | awk 'NR == 1 { lo = $1 } { hi = $1 } END { print lo, hi }'; }
# word N TEXT...: the N-th word.
word() { wd_n=$1; shift; eval "echo \"\${$wd_n}\""; }

# The comparison itself must catch a wrong figure, a wrong rounding and a count that differs.
check "nums_cmp: equal as rounded" test -z "$(nums_cmp "1.22 [1.08 1.26] and 424.3k, 2.02M" "1.218 1.079 1.258 424312 2019870")"
check "nums_cmp: a figure one unit off is found" test -n "$(nums_cmp "1.23" "1.218")"
check "nums_cmp: k and M scale" test -n "$(nums_cmp "424.3k" "425000")"
check "nums_cmp: a missing figure is found" test -n "$(nums_cmp "1.22 and 2.56" "1.218")"
check "nums_cmp: '-' skips" test -z "$(nums_cmp "target 1.25: 2.56" "- 2.558")"

# ---- what results/ holds ----

n=$(git ls-files results | wc -l)
check "results/ holds at most 400 tracked files (it holds $n)" test "$n" -le 400
git ls-files "$R" >"$TMP/ref"
check "no committed reference folder holds raw/: $(grep '/raw/' "$TMP/ref" | head -n 3 | tr '\n' ' ')" \
	sh -c "! grep -q '/raw/' '$TMP/ref'"
check "no committed reference folder holds index.html: $(grep 'index\.html$' "$TMP/ref" | head -n 3 | tr '\n' ' ')" \
	sh -c "! grep -q 'index\.html$' '$TMP/ref'"
check "nothing loose at the top of $R/: $(awk -F/ 'NF == 3' "$TMP/ref" | head -n 3 | tr '\n' ' ')" \
	test -z "$(awk -F/ 'NF == 3' "$TMP/ref")"
# A plot is kept once, as SVG; a PNG only where a doc embeds it.
for p in $(grep '\.png$' "$TMP/ref"); do
	check "$p: a doc embeds it" grep -qF "${p#results/}" README.md docs/*.md
done
for p in $(grep '\.svg$' "$TMP/ref"); do
	check "$p: one plot, not two" test ! -e "${p%.svg}.png"
done
# Every results/ path the docs, man pages, scripts and tests name exists (a user's own runs and
# make perf's and make profile's default output aside).
git grep -h -o -E 'results/[A-Za-z0-9_.{},/-]*[A-Za-z0-9_}/]' -- README.md DESIGN.md 'docs/*.md' man scripts tests \
	':!tests/t_reference.sh' | sort -u >"$TMP/paths"
while read -r p; do
	case $p in results/runs* | results/latest* | results/perf/* | results/profile/* | results/reproduce-*) continue ;; esac
	case $p in
	*'{'*) # a.{txt,tsv}: each
		pre=${p%%\{*} rest=${p#*\{} alts=${rest%%\}*} post=${rest#*\}}
		for a in $(printf '%s' "$alts" | tr ',' ' '); do
			check "named in the docs: $pre$a$post exists" test -e "$pre$a$post"
		done ;;
	*) check "named in the docs: $p exists" test -e "$p" ;;
	esac
done <"$TMP/paths"
check "the docs name results/reference/ paths" grep -q '^results/reference/.' "$TMP/paths"
# results/README.md lists every reference folder, and only folders there are.
awk '/^## Reference runs/ { s = 1; next } s && /^## / { exit } s && /^\| `/ { split($0, c, "|"); print c[2] }' results/README.md |
	grep -o '`[^`]*/`' | tr -d '`' | sort -u >"$TMP/listed"
awk -F/ 'NF > 3 { print $3 "/" }' "$TMP/ref" | sort -u >"$TMP/folders"
check "results/README.md lists the reference folders" test -s "$TMP/listed"
while read -r d; do
	check "results/README.md lists $R/$d" grep -qxF "$d" "$TMP/listed"
done <"$TMP/folders"
while read -r d; do
	check "results/README.md's $d is a reference folder" grep -qxF "$d" "$TMP/folders"
done <"$TMP/listed"

# ---- README.md ----

# The front door's one table: three rows of the wire run (wire/table.md), each median with its
# range over the runs, and the spread of the totals over every variant.
W=$R/wire/table.md
for v in mmsg gro xdp; do
	frow README.md "What it found here" $v "$(md $W 2 $v 2)" $(mdr $W 2 $v 2) "$(md $W 3 $v 3)" $(mdr $W 3 $v 3) \
		"$(md $W 3 $v 4)" $(mdr $W 3 $v 4) "$(md $W 1 $v 8)" $(mdr $W 1 $v 8)
done
tot=$(for v in copy buffer mmsg gro uring epoll pool xdp; do md $W 3 $v 4; done | rng)
# the variants of the least and the most median total, and the ratio of their runs' extremes
lo_v=$(for v in copy buffer mmsg gro uring epoll pool xdp; do echo "$(md $W 3 $v 4) $v"; done | LC_ALL=C sort -n | head -n 1 | cut -d' ' -f 2)
hi_v=$(for v in copy buffer mmsg gro uring epoll pool xdp; do echo "$(md $W 3 $v 4) $v"; done | LC_ALL=C sort -n | tail -n 1 | cut -d' ' -f 2)
set -- $(mdr $W 3 "$lo_v" 4) $(mdr $W 3 "$hi_v" 4)
fig README.md "medians differ by up to 2.9× in CPU per datagram (1.9..3.7 run against run)" \
	"$(calc "$(word 2 $tot) / $(word 1 $tot)")" "$(calc "$3 / $2")" "$(calc "$4 / $1")"
fig README.md "medians of 4" "$(md $W 1 copy 2)"

# ---- docs/findings.md ----

# The zero-copy sink at 64 KB (zerocopy/reproduce.md's ratios).
Z=$R/zerocopy/reproduce.md
fig docs/findings.md "send-only sink, 1.22× the copy (90 % interval 1.20..1.29;" \
	"$(md $Z 3 "datagrams/s into the sink, zero copy / copy, 65435 B" 3)" - \
	$(mdr $Z 3 "datagrams/s into the sink, zero copy / copy, 65435 B" 4)

# Fan-in: Jain's index and each sender's share, median (least..most) of the runs (fanin/runs.tsv),
# and the same medians in table.md's third table.
F=$R/fanin/table.md FR=$R/fanin/runs.tsv
# fmr VARIANT COL: "MEDIAN MIN MAX" of COL over the variant's runs.
fmr() { echo "$(tsv $FR "$2" variant="$1" | med)" $(tsv $FR "$2" variant="$1" | rng); }
for v in copy buffer mmsg gro uring epoll pool; do
	frow docs/findings.md "variant fair:" $v $(fmr $v suck_jain) $(fmr $v suck_sender1_share_pct) \
		$(fmr $v suck_sender2_share_pct) $(fmr $v suck_sender3_share_pct) $(fmr $v suck_sender4_share_pct)
	check "fanin: table.md's Jain index of $v is runs.tsv's median" \
		test -z "$(nums_cmp "$(md $F 3 $v 2)" "$(tsv $FR suck_jain variant=$v | med)")"
done
fig docs/findings.md "so suck was flooded and took 11–44 % of what was sent" \
	$(for v in copy buffer mmsg gro uring epoll pool; do md $F 1 $v 5; done | rng)
fig docs/findings.md "(medians (least..most) of 4 runs of 2 s, every run in \`runs.tsv\`;" "$(md $F 1 copy 2)" -

# Loopback and the wire, side by side (loopback/ and wire/table.md).
L=$R/loopback/table.md W=$R/wire/table.md
# each figure a median with its range over the runs
mr() { echo "$(md "$@")" $(mdr "$@"); }
for v in copy buffer mmsg gro uring epoll pool; do
	frow docs/findings.md "Loopback and the wire, side by side" $v $(mr $L 2 $v 2) $(mr $W 2 $v 2) \
		$(mr $W 3 $v 3) $(mr $W 3 $v 4) $(mr $W 1 $v 8)
done
frow docs/findings.md "Loopback and the wire, side by side" xdp - $(mr $W 2 xdp 2) $(mr $W 3 xdp 3) \
	$(mr $W 3 xdp 4) $(mr $W 1 xdp 8)
check "loopback/: xdp was skipped (exit 4), as the README's table says" grep -q '^note: xdp: skipped.*exit 4' $R/loopback/env.txt
fig docs/findings.md "(medians of 4 runs with their range; the loopback" "$(md $L 1 copy 2)"
lo_cpu=$(for v in copy buffer mmsg gro uring epoll pool; do md $L 2 $v 2; done | rng)
fig docs/findings.md "tells the variants apart by little (1490 to 2035 ns" $lo_cpu
check "loopback/: no difference beyond the noise in that run" sh -c "! grep -E '^- (received/s|suck CPU)' $L | grep -q '[<>]'"
mm_s=$(md $W 2 mmsg 2) mm_k=$(md $W 3 mmsg 3) bu_s=$(md $W 2 buffer 2) bu_k=$(md $W 3 buffer 3)
fig docs/findings.md "1.5× suck's own CPU for mmsg (2704 against 1809 ns) and for buffer (2773 against 1893)" \
	"$(calc "$mm_k / $mm_s")" "$mm_k" "$mm_s" "$bu_k" "$bu_s"
check "README: buffer's kernel work is 1.5x its own too" test "$(calc "int($bu_k / $bu_s * 10 + 0.5)")" = 15
gr_k=$(md $W 3 gro 3) gr_t=$(md $W 3 gro 4) xd_t=$(md $W 3 xdp 4)
fig docs/findings.md "its kernel work per datagram is 0.63× mmsg's (1700 against 2704 ns, 29.8 datagrams per buffer)" \
	"$(calc "$gr_k / $mm_k")" "$gr_k" "$mm_k" "$(md $W 3 gro 7)"
# table.md's rank test of the receive path: gro < mmsg (0.719x, ..., p = 0.0286)
rp=$(sed -n 's/.*< gro (\([0-9.]*\)x, [0-9.]*\.\.[0-9.]*, p = [0-9.]*) < mmsg (\([0-9.]*\)x, \([0-9.]*\)\.\.\([0-9.]*\), p = \([0-9.]*\)).*/\2 \3 \4 \5/p' $W)
fig docs/findings.md "its total 0.72× (0.56..0.84, p = 0.029 in table.md's rank test)" $rp
fig docs/findings.md "xdp has the lowest total (2151 ns, 0.82× pool's (0.68..0.99) and 0.66× gro's)" "$xd_t" \
	$(sed -n 's/.*receive path.*: xdp < pool (\([0-9.]*\)x, \([0-9.]*\)\.\.\([0-9.]*\),.*/\1 \2 \3/p' $W) "$(calc "$xd_t / $gr_t")"
check "wire/: xdp's total is the lowest" test "$(for v in copy buffer mmsg gro uring epoll pool xdp; do echo "$(md $W 3 $v 4) $v"; done | LC_ALL=C sort -n | head -n 1 | cut -d' ' -f 2)" = xdp
fig docs/findings.md "pool's kernel figure (218 ns)" "$(md $W 3 pool 3)"
fig docs/findings.md "(its NAPI thread ran 0.12 s against 0.74–0.90 s for the others)" "$(md $W 3 pool 5)" \
	$(for v in copy buffer mmsg gro uring epoll xdp; do md $W 3 $v 5; done | rng)

# The ceilings (ceilings/ and cloudflare-2018/reproduce.md's first tables; the CPU figures' range
# over the runs from each reproduce.tsv: the sender's median, the NAPI thread's mean).
CE=$R/ceilings/reproduce.md CF=$R/cloudflare-2018/reproduce.md
CET=$R/ceilings/reproduce.tsv CFT=$R/cloudflare-2018/reproduce.tsv
# mean: the mean of the numbers on stdin, one a line.
mean() { awk '{ s += $1 } END { print s / NR }'; }
for v in sendto sendmmsg gso packet xdp; do
	frow docs/findings.md "| sending rung |" $v "$(md $CE 1 $v 3)" $(mdr $CE 1 $v 4) \
		"$(tsv $CET sender_ns_per_frame row=$v | med)" $(tsv $CET sender_ns_per_frame row=$v | rng)
	check "ceilings: reproduce.md's sender ns of $v is the runs' median" \
		test -z "$(nums_cmp "$(md $CE 1 $v 8)" "$(tsv $CET sender_ns_per_frame row=$v | med)")"
done
for v in xdp tc nft-raw nft-input-ct nft-input-notrack nft-input sockfilter unread app-mmsg app-buffer; do
	frow docs/findings.md "| dropped at |" $v "$(md $CF 1 $v 4)" $(mdr $CF 1 $v 5) \
		"$(tsv $CFT napi_ns_per_pkt source=here row=$v | mean)" $(tsv $CFT napi_ns_per_pkt source=here row=$v | rng)
done
# cfr A B: A's Mpps over B's, round by round (reproduce.tsv's runs).
cfr() { awk -F'\t' -v a="$1" -v b="$2" '$1 == "here" && $2 == a { x[$3] = $9 } $1 == "here" && $2 == b { y[$3] = $9 }
	END { for (r in x) print x[r] / y[r] }' $CFT; }
fig docs/findings.md "with recvmmsg gets 0.13 of it (0.12..0.16 round by round); conntrack costs the input drop the most (0.59 of its rate, 0.58..0.60)" \
	"$(md $CF 1 app-mmsg 6)" $(cfr app-mmsg xdp | rng) "$(calc "$(md $CF 1 nft-input-ct 4) / $(md $CF 1 nft-input 4)")" \
	$(cfr nft-input-ct nft-input | rng)
PUBCF=results/published/cloudflare-2018.tsv
pubcf() { awk -F'\t' -v r="$1" '$1 == r { print $3 }' $PUBCF; }
fig docs/findings.md "dropped 10 Mpps at XDP, 4.0 times the 2.506 here, and 1.8 at tc ingress, 0.18 of its XDP rate" \
	"$(pubcf xdp)" "$(calc "$(pubcf xdp) / $(md $CF 1 xdp 4)")" "$(md $CF 1 xdp 4)" "$(pubcf tc)" "$(calc "$(pubcf tc) / $(pubcf xdp)")"
fig docs/findings.md "where here tc keeps up with XDP (1.00 of it)" "$(md $CF 1 tc 6)"
fig docs/findings.md "into 64 datagrams" "$(sed -n 's/.*blast -s 32 -b 1 -g \([0-9]*\).*/\1/p' $R/cloudflare-2018/env.txt | head -n 1)"

# The deferred skb free (skb-defer/ and skb-defer-wire/: reproduce.md's first table, the runs'
# received %, CPU and noise from reproduce.tsv).
SD=$R/skb-defer SW=$R/skb-defer-wire
for pth in loopback:$SD wire:$SW; do
	f=${pth#*:}/reproduce.md
	for s in 1450 64; do
		frow docs/findings.md "| path, size |" "${pth%%:*}, $s B" "$(md "$f" 1 "$s" 5)" $(mdr "$f" 1 "$s" 6) "$(md "$f" 1 "$s" 3)" "$(md "$f" 1 "$s" 4)"
		check "${pth%%:*}, $s B: $(mdcell "$f" 1 "$s" 9), as docs/findings.md says" test "$(mdcell "$f" 1 "$s" 9)" = "not met"
		check "${pth%%:*}, $s B: 5 rounds, the interval min..max at 93.8 %" \
			test "$(mdcell "$f" 1 "$s" 7)" = "$(mdcell "$f" 1 "$s" 6) (93.8 %)"
	done
	check "${pth%%:*}: build bd86123, 5 rounds of 4 s, on at 64, as docs/findings.md says" \
		test "$(grep -h -e '^git_describe:' -e '^runs:' -e '^time_s:' -e '^skb_defer_max:' "${pth#*:}/env.txt" | tr '\n' ' ')" = \
		"time_s: 4 runs: 5 skb_defer_max: off 0, on 64 (the value found at the start; written before each run, restored after it and on every exit) git_describe: bd86123 "
done
fig docs/findings.md "stops at 1.199, one round's ratio" "$(mdr $SW/reproduce.md 1 1450 6 | cut -d' ' -f 2)"
fig docs/findings.md "suck took 98.8 % or more of what blast sent in every run" "$(tsv $SD/reproduce.tsv received_pct source=here | rng | cut -d' ' -f 1)"
fig docs/findings.md "(suck received as little as 81.2 % of what was sent)" "$(tsv $SW/reproduce.tsv received_pct source=here | rng | cut -d' ' -f 1)"
sd_c0=$(tsv $SW/reproduce.tsv cpu_ns_per_pkt row=off-1450 | med) sd_c1=$(tsv $SW/reproduce.tsv cpu_ns_per_pkt row=on-1450 | med)
fig docs/findings.md "1450 B went from 985 to 972 ns and the NAPI thread's from 1876 to 1854 ns, about 1 %" - "$sd_c0" "$sd_c1" \
	"$(tsv $SW/reproduce.tsv rx_kernel_ns_per_pkt row=off-1450 | med)" "$(tsv $SW/reproduce.tsv rx_kernel_ns_per_pkt row=on-1450 | med)" \
	"$(calc "100 * (1 - $sd_c1 / $sd_c0)")"
fig docs/findings.md "(31–32 % of the two CPUs in every run)" $(tsv $SW/reproduce.tsv noise_other_pct source=here | rng)
check "skb-defer-wire/: every run marked noisy, as docs/findings.md says" test "$(tsv $SW/reproduce.tsv noisy source=here | sort -u)" = 1

# Pool against one socket per thread (pool-vs-reuseport/runs.tsv; medians of 3 rounds, a round
# that received nothing left out).
P=$R/pool-vs-reuseport/runs.tsv
pvals() { tsv $P "$3" work="$1" suck="$2" | awk '$1 > 0'; }
pmed() { pvals "$@" | med; }
# pmr WORK SUCK: "MEDIAN MIN MAX" of its pps.
pmr() { echo "$(pmed "$1" "$2" pps)" $(pvals "$1" "$2" pps | rng); }
# prr WORK A B FIG: A's FIG over B's, round by round (rounds where either received nothing left out).
prr() { awk -F'\t' -v w="$1" -v a="$2" -v b="$3" -v f="$4" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
	$1 == w && $h["pps"] > 0 && $2 == a { x[$3] = $h[f] } $1 == w && $h["pps"] > 0 && $2 == b { y[$3] = $h[f] }
	END { for (r in x) if (r in y) print x[r] / y[r] }' $P; }
m_pps=$(pmed histogram mmsg pps) j_pps=$(pmed histogram mmsg_-j_2 pps) p_pps=$(pmed histogram pool_--workers_1 pps)
fig docs/findings.md "One socket per thread (\`-m mmsg -j 2\`) received 305k/s (283k..338k) against one mmsg socket's 239k/s (224k..243k): 1.28× (1.26..1.39)" \
	- $(pmr histogram mmsg_-j_2) $(pmr histogram mmsg) "$(calc "$j_pps / $m_pps")" $(prr histogram "mmsg -j 2" mmsg pps | rng)
fig docs/findings.md "A pool with one worker received 223k/s (127k..247k), 0.93× (0.57..1.02), at 1.22× mmsg's CPU per datagram (1.19..1.80)" \
	$(pmr histogram pool_--workers_1) "$(calc "$p_pps / $m_pps")" $(prr histogram "pool --workers 1" mmsg pps | rng) \
	"$(calc "$(pmed histogram pool_--workers_1 cpu_ns_per_pkt) / $(pmed histogram mmsg cpu_ns_per_pkt)")" \
	$(prr histogram "pool --workers 1" mmsg cpu_ns_per_pkt | rng)
fig docs/findings.md "With 20 times the work none was clearly ahead: mmsg 31.8k (25.8k..32.3k), \`-j 2\` 30.1k (23.5k..36.7k; one round received nothing and is left out), the pool 26.3k/s (25.5k..42.0k)" \
	- $(pmr histogram:20 mmsg) - $(pmr histogram:20 mmsg_-j_2) $(pmr histogram:20 pool_--workers_1)
check "pool-vs-reuseport: one round of -j 2 at histogram:20 received nothing" \
	test "$(tsv $P pps work=histogram:20 suck=mmsg_-j_2 | grep -cx 0)" = 1

# Against iperf3 3.21+ --gsro: make perf of 5 December (perf/perf-2026-12-05.txt).
P5=$R/perf/perf-2026-12-05.txt
frow docs/findings.md "results/reference/perf/perf-2026-12-05.txt" "blast sent / iperf3 client sent (target ≥ 1.25, ≥ 1.10)" \
	$(pline $P5 64 "ratio blast sent/iperf3 sent") $(pline $P5 1450 "ratio blast sent/iperf3 sent")
frow docs/findings.md "results/reference/perf/perf-2026-12-05.txt" "suck gro received / iperf3 server received (target ≥ 1.05)" \
	$(pline $P5 64 "ratio suck gro received/") $(pline $P5 1450 "ratio suck gro received/")
check "perf-2026-12-05: 5 rounds of 2 s, as the README says" grep -q '^1450-byte datagrams on 127.0.0.1: median \[min max\] of 5 rounds of 2 s' $P5
check "perf-2026-12-05: build c549368, as the README says" grep -q '^build: blast/suck c549368' $P5
fig docs/findings.md "into a gro that slept at once blast sent 0.89× iperf3 [0.89 0.90]" \
	"$(p1 $R/perf-peer/perf-peer-spin-2026-12-04.txt 1450 "ratio blast sent/iperf3 sent")" - \
	$(pline $R/perf-peer/perf-peer-spin-2026-12-04.txt 1450 "ratio blast sent/iperf3 sent" | cut -d' ' -f 2-3)
fig docs/findings.md "run gave 1.09 sent [1.08 1.17] and 1.09 received [1.08 1.16]" \
	$(pline $R/perf-peer/perf-peer-2026-12-05.txt 1450 "ratio blast sent/iperf3 sent") \
	$(pline $R/perf-peer/perf-peer-2026-12-05.txt 1450 "ratio suck gro received/")

# The call shapes (shapes/runs.tsv: blast's sent Mpps, median (least..most) of the rounds; a run
# suck received nothing of left out).
S=$R/shapes/runs.tsv
svals() { tsv $S blast_pps size="$1" shape="$2" | awk -v z="$(tsv $S suck_pps size="$1" shape="$2" | tr '\n' ' ')" \
	'BEGIN { split(z, r, " ") } r[NR] > 0 { print $1 / 1e6 }'; }
smr() { echo "$(svals "$@" | med)" $(svals "$@" | rng); }
shape_row() { # SIZE SEGS DEFAULT_MESSAGES then the shapes of the row's columns ("" for an empty cell)
	sr_s=$1 sr_g=$2 sr_b=$3
	shift 3
	sr_d=$(svals "$sr_s" default | rng)
	sr_v="$sr_g $sr_b $(smr "$sr_s" default)"
	for sr in "$@"; do
		[ -n "$sr" ] || continue
		sr_v="$sr_v $(smr "$sr_s" "$(echo "$sr" | tr ' ' _)")"
		# "no shape's least is above the default's most"
		check "shapes/runs.tsv: at $sr_s B the least of $sr is not above the default's most" test "$(svals "$sr_s" "$(echo "$sr" | tr ' ' _)" |
			rng | awk -v d="$sr_d" '{ split(d, e, " "); print ($1 <= e[2]) }')" = 1
	done
	check "shapes/runs.tsv: at $sr_s B the default is $sr_g × $sr_b" \
		test "$(tsv $S segs size="$sr_s" shape=default | sort -u) $(tsv $S batch size="$sr_s" shape=default | sort -u)" = "$sr_g $sr_b"
	frow docs/findings.md "The call shapes measured" "$sr_s" $sr_v
}
shape_row 64 128 8 "-g 128 -b 1" "-g 128 -b 4" "-g 128 -b 16"
shape_row 256 128 2 "-g 128 -b 1" "-g 128 -b 4" "-g 128 -b 8"
shape_row 512 127 1 "-g 127 -b 2" "-g 127 -b 4"
shape_row 1450 45 1 "-g 45 -b 2" "-g 45 -b 4" "-g 45 -b 8"
shape_row 8972 7 1 "-g 7 -b 2" "-g 7 -b 4" "-g 7 -b 8"
check "docs/findings.md says no shape's least is above the default's most" \
	says docs/findings.md "No shape beats the default beyond the round-to-round noise (no shape's least is above the default's most)"
fig docs/findings.md "At 64 B blast sends 128-segment messages, 8 in a call." - "$(tsv $S segs size=64 shape=default | sort -u)" "$(tsv $S batch size=64 shape=default | sort -u)"

# Where the CPU goes (profile/profile-2026-12-03.tsv, rounded to whole per cent).
PR=$R/profile/profile-2026-12-03.tsv
pcls() { for ts in "blast 64" "suck 64" "blast 1450" "suck 1450"; do tsv $PR "$1" tool="${ts% *}" size="${ts#* }"; done; }
frow docs/findings.md "results/reference/profile/profile-2026-12-03.txt" "the kernel's copy of the payload" $(pcls copy_pct)
frow docs/findings.md "results/reference/profile/profile-2026-12-03.txt" "per call (system call, message header)" $(pcls call_pct)
frow docs/findings.md "results/reference/profile/profile-2026-12-03.txt" "per datagram and segment in the stack" $(pcls stack_pct)
frow docs/findings.md "results/reference/profile/profile-2026-12-03.txt" "the tool's own code and libc" $(pcls user_pct)
frow docs/findings.md "results/reference/profile/profile-2026-12-03.txt" "waiting, waking, interrupts off" $(pcls wait_pct)
fig docs/findings.md "blast's own code is 2 % of its CPU" "$(tsv $PR user_pct tool=blast size=1450)"
# The copy-bound rate, and make perf's rates of 3 December against it (docs/performance.md says which).
P3=$R/perf/perf-2026-12-03.txt
cb1450=$(tsv $PR copy_bound_pps tool=blast size=1450) cb64=$(tsv $PR copy_bound_pps tool=blast size=64)
b1450=$(pline $P3 1450 "blast (default) into suck -m gro (sent)" | cut -d' ' -f 1)
b64=$(pline $P3 64 "blast (default) into suck -m gro (sent)" | cut -d' ' -f 1)
# ofcb SIZE COPYBOUND: blast's least and most sent pps of make perf's rounds over the copy-bound rate.
ofcb() { pline $P3 "$1" "blast (default) into suck -m gro (sent)" | awk -v c="$2" '{ print $2 / c, $3 / c }'; }
fig docs/findings.md "(\`bare copy\`, one run of 1 s in that profile) moves 23.4 GB/s in 1450-byte pieces. Both tools run at about 0.22× that copy-bound rate at 1450 bytes and 0.24× at 64 (blast's rounds in \`make perf\` of 3 December: 0.19..0.22 and 0.20..0.26)" \
	- "$(tsv $PR bare_copy_gbs tool=blast size=1450)" - "$(calc "$b1450 / $cb1450")" - "$(calc "$b64 / $cb64")" - - \
	$(ofcb 1450 "$cb1450") $(ofcb 64 "$cb64")
check "profile: bare copy ran one run of 1 s" grep -qF "bare copy -s \"\$SIZE\" -t 1 " scripts/profile

# ---- docs/reference.md ----
D=docs/reference.md

# make bench: the loopback run (loopback/table.md).
for v in copy buffer mmsg gro uring epoll pool; do
	frow $D "medians (min..max) from \`results/reference/loopback/table.md\`" $v $(mr $L 1 $v 3) $(mr $L 1 $v 4) \
		$(mr $L 1 $v 5) $(mr $L 1 $v 8) $(mr $L 2 $v 2) "$(md $L 2 $v 7)"
	check "loopback/: $v's heap is the same in every run" \
		test "$(tsv $R/loopback/runs.tsv suck_heap_kib variant=$v | sort -u)" = "$(md $L 2 $v 7)"
done
fig $D "byte-histogram work, 4 runs of 2 s after a warm-up" "$(grep '^runs:' $R/loopback/env.txt | cut -d' ' -f 2)" "$(grep '^time_s:' $R/loopback/env.txt | cut -d' ' -f 2)"
fig $D "(copy's received/s went from 141.7k to 482.9k over its four runs)" $(mdr $L 1 copy 8)
fig $D "(a median of 0.16 s, 0.10..0.24, against medians of 0.54–1.04 s)" "$(md $L 2 gro 4)" $(mdr $L 2 gro 4) \
	$(for v in copy buffer mmsg uring epoll pool; do md $L 2 $v 4; done | rng)
check "loopback/: no variant lost datagrams elsewhere" test "$(for v in copy buffer mmsg gro uring epoll pool; do md $L 1 $v 7; done | sort -u)" = 0

# make latency (latency/latency.md).
LA=$R/latency/latency.md
for v in copy buffer mmsg gro uring; do
	frow $D "from \`results/reference/latency/latency.md\`" $v $(for i in 2 3 4 5 6 7 8 9 11; do md $LA 1 $v $i; done)
done
fig $D "at the lowest load uring waits least (p50 45.1 µs at 44k/s offered); at the highest, gro (311.3 µs at 352k/s) and copy most (819.2 µs at 353k/s)" \
	- "$(md $LA 1 uring 3)" "$(md $LA 1 uring 2)" "$(md $LA 1 gro 8)" "$(md $LA 1 gro 7)" "$(md $LA 1 copy 8)" "$(md $LA 1 copy 7)"
fig $D "with this work a datagram spends 11–14 µs in the stack" $(for v in copy buffer mmsg gro uring; do md $LA 1 $v 5; done | rng)
for v in copy buffer mmsg gro uring; do
	check "latency.md: the queue part is more than half of $v's p50 at the lowest rate" \
		test "$(calc "($(md $LA 1 $v 6) > $(md $LA 1 $v 3) / 2)")" = 1
done

# One datagram per message (sendmmsg/table.md).
SM=$R/sendmmsg/table.md
for v in copy buffer mmsg gro uring; do
	frow $D "One datagram per message" $v $(mr $SM 1 $v 3) $(mr $SM 1 $v 4) $(mr $SM 1 $v 5) $(mr $SM 1 $v 8) $(mr $SM 2 $v 2)
done
fig $D "no GSO; medians (min..max) of 3 runs of 5 s from" "$(md $SM 1 copy 2)" "$(sed -n 's/^\([0-9]*\) s per run;.*/\1/p' $SM)"
fig $D "and the variants take 80–92 % of what it sends" $(for v in copy buffer mmsg gro uring; do md $SM 1 $v 5; done | rng)
check "sendmmsg/: blast -b 32" grep -qx 'blast_args: -b 32' $R/sendmmsg/env.txt

# The 2014 table again (lua-2014/reproduce.md).
LU=$R/lua-2014/reproduce.md
LT=$R/lua-2014/reproduce.tsv
lu_med() { md $LU "$1" median "$2"; } # table N, cell I of its median row
# lur VARIANT COL: least and most of COL over this machine's runs of VARIANT (reproduce.tsv).
lur() { tsv $LT "$2" source=here variant="$1" | rng; }
fig $D "in 2014 the Lua receivers processed 0.837 % (immutable strings) and 0.572 % (buffer userdata) of what blast sent, as published; here suck processed 99.4 % (copy; 98.41..99.6), 99.41 % (buffer; 99.41..99.48) and 98.98 % (mmsg; 96.48..99.52)" \
	- "$(lu_med 1 5)" "$(lu_med 2 5)" "$(lu_med 1 9)" $(lur copy received_pct) "$(lu_med 2 9)" $(lur buffer received_pct) \
	"$(lu_med 3 5)" $(lur mmsg received_pct)
# the copy receiver's blast rates, sent over the run's time
lu_pps() { awk -F'\t' -v s="$1" '$1 == s && $2 == "copy" { print $7 / $6 }' $LT; }
fig $D "Into the copy receiver blast sent 293k datagrams/s (273k..299k) against 144k/s in 2014" \
	$(sed -n 's/.*blast sent \([0-9]*\) datagrams\/s here against [0-9]*\/s in 2014.*/\1/p' $LU) $(lu_pps here | rng) \
	"$(lu_pps 2014 | med)" -
check "lua-2014: reproduce.md's blast rate is the copy runs' median" \
	test -z "$(nums_cmp "$(sed -n 's/.*blast sent \([0-9]*\) datagrams\/s here against.*/\1/p' $LU)" "$(lu_pps here | med)")"
fig $D "buffer 2541 ns (2420..2663) against copy 2575 ns (2322..2602), 0.987×; mmsg 2463 ns (2463..2586) against buffer, 0.969×" \
	"$(tsv $LT cpu_ns_per_pkt source=here variant=buffer | med)" $(lur buffer cpu_ns_per_pkt) \
	"$(tsv $LT cpu_ns_per_pkt source=here variant=copy | med)" $(lur copy cpu_ns_per_pkt) \
	$(sed -n 's/.*CPU per datagram: buffer [0-9.]* ns ([^)]*) against copy [0-9.]* ns ([^)]*), \([0-9.]*\)x.*/\1/p' $LU) \
	"$(tsv $LT cpu_ns_per_pkt source=here variant=mmsg | med)" $(lur mmsg cpu_ns_per_pkt) \
	$(sed -n 's/.*CPU per datagram: mmsg [0-9.]* ns ([^)]*) against buffer [0-9.]* ns ([^)]*), \([0-9.]*\)x.*/\1/p' $LU)
fig $D "(a rank test of so few runs gives p = 0.1 at best)" "$(sed -n 's/.*3 runs against 3 cannot give a p below \([0-9.]*\).*/\1/p' $LU)"
fig $D "\"Memory used in K\", the same in every run: 66 (copy), 66 (buffer), 2097 (mmsg) against 54..91 in 2014" \
	"$(lu_med 1 8)" "$(lu_med 2 8)" "$(lu_med 3 4)" $(sed -n 's/.*Lua held \([0-9]*\)\.\.\([0-9]*\) K of heap.*/\1 \2/p' $LU) -
for v in copy buffer mmsg; do
	check "lua-2014: $v's memory is the same in every run" test "$(tsv $LT memory_k source=here variant=$v | sort -u | wc -l)" = 1
done

# The 2018 tables again (gso-2018/ and gro-2018/reproduce.md: their ratio tables).
GS=$R/gso-2018/reproduce.md GR=$R/gro-2018/reproduce.md
rat() { echo "$(md "$1" "$2" "$3" 2) $(md "$1" "$2" "$3" 3) $(mdr "$1" "$2" "$3" 4)"; } # published here lo hi
frow $D "The 2018 UDP GSO and GRO tables again" "GSO: MB/s, udp gso / udp (blast \`-g 42\` against \`-b 1\`, one CPU, into a socket nobody reads)" \
	$(rat $GS 2 "MB/s, udp gso / udp")
frow $D "The 2018 UDP GSO and GRO tables again" "GSO: send calls saved, udp / udp gso" $(rat $GS 2 "calls/s, udp / udp gso (fewer send calls)")
frow $D "The 2018 UDP GSO and GRO tables again" "GSO: bytes per call, udp gso / udp" \
	$(rat $GS 2 "bytes per call, udp gso / udp" | cut -d' ' -f 1-2)
frow $D "The 2018 UDP GSO and GRO tables again" "GSO: CPU per byte, udp / udp gso (published: equal cycles)" \
	$(rat $GS 2 "CPU per byte, udp / udp gso (published: cycles over MB/s)")
frow $D "The 2018 UDP GSO and GRO tables again" "GRO: MB/s, after / before (suck \`-m gro -b 1\` against \`-m mmsg -b 1\`)" \
	$(rat $GR 2 "MB/s, after / before")
frow $D "The 2018 UDP GSO and GRO tables again" "GRO: receive calls saved, before / after" \
	$(rat $GR 2 "calls/s, before / after (fewer receive calls)")
# gmr FILE ROW: "MEDIAN MIN MAX" of MB/s over this machine's runs of ROW (reproduce.tsv).
gmr() { gm_f=${1%.md}.tsv; echo "$(tsv "$gm_f" mb_s source=here row="$2" | med)" $(tsv "$gm_f" mb_s source=here row="$2" | rng); }
fig $D "GSO moved 3036 (2902..3272) against 465 MB/s (458..492) on one saturated core (blast 99.7–99.8 % busy in every run), GRO let suck take 4646 (4266..4727) against 1425 MB/s (1373..1434; medians, least..most of the runs)" \
	$(gmr $GS udp_gso) $(gmr $GS udp) \
	$(sed -n 's/.*blast kept its CPU \([0-9.]*\)\.\.\([0-9.]*\) % busy in every run.*/\1 \2/p' $GS) \
	$(gmr $GR after) $(gmr $GR before)
check "gso-2018: reproduce.md's udp gso MB/s is the runs' median" test -z "$(nums_cmp "$(md $GS 1 "udp gso" 7)" "$(gmr $GS udp_gso | cut -d' ' -f 1)")"
check "gro-2018: reproduce.md's MB/s are the runs' medians" \
	test -z "$(nums_cmp "$(sed -n 's/.*took \([0-9]*\) against \([0-9]*\) MB\/s for suck -m mmsg.*/\1 \2/p' $GR)" "$(gmr $GR after | cut -d' ' -f 1) $(gmr $GR before | cut -d' ' -f 1)")"

# sendmmsg-2011 and cloudflare-2015, loopback and the wire.
S1=$R/sendmmsg-2011/reproduce.md S1W=$R/sendmmsg-2011-wire/reproduce.md
C1=$R/cloudflare-2015/reproduce.md C1W=$R/cloudflare-2015-wire/reproduce.md
rat3() { echo "$(md "$1" "$2" "$3" 3) $(mdr "$1" "$2" "$3" 4)"; } # here lo hi
frow $D "The 2011 sendmmsg table and Cloudflare" "sendmmsg: pkts/s, batch 64 / batch 1 (blast \`-b N -g 1\`, 64 B)" \
	"$(md $S1 3 "pkts/s, sendmmsg batch 64 / batch 1" 2)" $(rat3 $S1 3 "pkts/s, sendmmsg batch 64 / batch 1") \
	$(rat3 $S1W 3 "pkts/s, sendmmsg batch 64 / batch 1")
frow $D "The 2011 sendmmsg table and Cloudflare" "sendmmsg: pkts/s, batch 4 / batch 1" \
	"$(md $S1 3 "pkts/s, sendmmsg batch 4 / batch 1" 2)" $(rat3 $S1 3 "pkts/s, sendmmsg batch 4 / batch 1") \
	$(rat3 $S1W 3 "pkts/s, sendmmsg batch 4 / batch 1")
c_pin="Mpps, pinned / unpinned (published: the middles of the ranges)"
c_one="Mpps, one socket read by two threads / one thread (published: two threads against one pinned)"
frow $D "The 2011 sendmmsg table and Cloudflare" "Cloudflare: Mpps, pinned / unpinned" \
	"$(md $C1 2 "$c_pin" 2)" $(rat3 $C1 2 "$c_pin") $(rat3 $C1W 2 "$c_pin")
frow $D "The 2011 sendmmsg table and Cloudflare" "Cloudflare: Mpps, one socket read by two threads / one thread" \
	"$(md $C1 2 "$c_one" 2)" $(rat3 $C1 2 "$c_one") $(rat3 $C1W 2 "$c_one")
frow $D "The 2011 sendmmsg table and Cloudflare" "Cloudflare: Mpps, suck on the CPU of the kernel's receive work / on the other" \
	$(rat3 $C1 2 "Mpps, suck on the CPU of the kernel's receive work (1: blast's send call) / on the other (0)") \
	$(rat3 $C1W 2 "Mpps, suck on the CPU of the kernel's receive work (the NAPI thread's, 0) / on the other (1, blast's)")
fig $D "which gave the post's four SO_REUSEPORT processes their 2.4×" \
	"$(sed -n 's/.*four SO_REUSEPORT processes [0-9.]*-[0-9.]*, \([0-9.]*\)x the two threads.*/\1/p' $C1)"
check "cloudflare-2015, sendmmsg-2011 (and -wire): build 7cff18f, as docs/reference.md says" \
	test "$(grep -h '^git_describe:' $R/sendmmsg-2011/env.txt $R/sendmmsg-2011-wire/env.txt $R/cloudflare-2015/env.txt $R/cloudflare-2015-wire/env.txt | sort -u)" = "git_describe: 7cff18f"

# The sink rows (sendmmsg-2011-sink/reproduce.md).
SK=$R/sendmmsg-2011-sink/reproduce.md
sk_r="pkts/s into the sink, sendmmsg batch 64 / batch 1"
sk_into=$(sed -n 's/.*blast sent \([0-9]*\) datagrams per second at batch 64 against \([0-9]*\) at batch 1 (medians; the commit.*/\1 \2/p' $SK)
# skr FILE ROW: least and most pps of ROW's runs (FILE's reproduce.tsv); skq: sink-1 over send-1, run by run.
skr() { tsv "${1%.md}.tsv" pps source=here row="$2" | rng; }
skq() { awk -F'\t' '$1 == "here" && $2 == "sink-1" { a[$5] = $12 } $1 == "here" && $2 == "send-1" { b[$5] = $12 }
	END { for (r in a) print a[r] / b[r] }' ${SK%.md}.tsv; }
fig $D "into the sink blast sent 469k datagrams/s at batch 1 (300k..478k) and 2.02M at batch 64 (1.15M..2.03M), 4.24× (90 % interval 2.41..6.76; published 1.20×). At batch 1 that is 2.9× the loopback send rows' rate (2.3..3.0 run by run)" \
	"$(word 2 $sk_into)" - $(skr $SK sink-1) "$(word 1 $sk_into)" - $(skr $SK sink-64) "$(md $SK 4 "$sk_r" 3)" - $(mdr $SK 4 "$sk_r" 4) \
	"$(md $SK 4 "$sk_r" 2)" - "$(sed -n 's/.*it sent \([0-9.]*\)x the datagrams per second of the send rows at batch 1.*/\1/p' $SK)" \
	$(skq | rng)
fig $D "21 sink runs the device's drop counter rose by exactly blast's sent plus its fins (46725520 in all)" \
	$(sed -n 's/.*In each of the \([0-9]*\) sink runs .*(\([0-9]*\) dropped for.*/\1 \2/p' $SK)
fig $D "The same run's loopback rows put batch 64 over batch 1 at 3.48× (90 % interval 2.23..4.39), where the earlier run above has 1.26×: its batch-1 rate was 159k (131k..163k) against 239k (225k..245k)" \
	- - "$(md $SK 4 "pkts/s, sendmmsg batch 64 / batch 1" 3)" - $(mdr $SK 4 "pkts/s, sendmmsg batch 64 / batch 1" 4) \
	"$(md $S1 3 "pkts/s, sendmmsg batch 64 / batch 1" 3)" - \
	$(sed -n 's/.*Here (medians) blast sent [0-9]* datagrams per second at batch 64 against \([0-9]*\) at batch 1.*/\1/p' $SK) $(skr $SK send-1) \
	$(sed -n 's/.*Here (medians) blast sent [0-9]* datagrams per second at batch 64 against \([0-9]*\) at batch 1.*/\1/p' $S1) $(skr $S1 send-1)
fig $D "(batch 64: 554k (363k..576k) against 287k (285k..309k))" - \
	$(sed -n 's/.*Here (medians) blast sent \([0-9]*\) datagrams per second at batch 64 against [0-9]* at batch 1.*/\1/p' $SK) $(skr $SK send-64) \
	$(sed -n 's/.*Here (medians) blast sent \([0-9]*\) datagrams per second at batch 64 against [0-9]* at batch 1.*/\1/p' $S1) $(skr $S1 send-64)

# UDP MSG_ZEROCOPY (zerocopy/ and zerocopy-wire/reproduce.md): zero copy over copy, the inverse of
# their copy-over-zero-copy ratios and intervals.
ZW=$R/zerocopy-wire/reproduce.md
# inv FILE N RATIO FAMILY: zero copy / copy as the control's table gives it, and 1/hi, 1/lo of RATIO's interval
inv() { iv_d=$(md "$1" 1 "$4" 7); set -- $(mdr "$1" "$2" "$3" 4); echo "$iv_d $(calc "1 / $2") $(calc "1 / $1")"; }
z4="datagrams/s, copy / zero copy, IPv4 (loopback; published: over veth)" z6="datagrams/s, copy / zero copy, IPv6 (loopback; published: over veth)"
w4="datagrams/s, copy / zero copy, IPv4 (the wire; published: over veth)" w6="datagrams/s, copy / zero copy, IPv6 (the wire; published: over veth)"
frow $D "UDP MSG_ZEROCOPY: the negative control" "65000 B into suck, IPv4 (netdev CI 2024: over veth)" \
	"$(md $Z 1 IPv4 4)" $(inv $Z 3 "$z4" IPv4) $(inv $ZW 2 "$w4" IPv4)
frow $D "UDP MSG_ZEROCOPY: the negative control" "65000 B into suck, IPv6" "$(md $Z 1 IPv6 4)" $(inv $Z 3 "$z6" IPv6) $(inv $ZW 2 "$w6" IPv6)
zr4="datagrams/s received by suck, copy / zero copy, IPv4 (no published counterpart)"
# invr FILE N: 1/median, 1/hi, 1/lo of that ratio's row
invr() { set -- "$(md "$1" "$2" "$zr4" 3)" $(mdr "$1" "$2" "$zr4" 4); echo "$(calc "1 / $1") $(calc "1 / $3") $(calc "1 / $2")"; }
frow $D "UDP MSG_ZEROCOPY: the negative control" "what suck received, IPv4" $(invr $Z 3) $(invr $ZW 2)
check "zerocopy/ and -wire: 65000-byte datagrams, one a send call" grep -q 'blast -s 65000 -g 1 -b 1' $Z $ZW
zs="datagrams/s into the sink, zero copy / copy"
frow $D "into the send-only sink" "zero copy / copy, published (Begunkov 2021, 2022)" \
	"$(md $Z 3 "$zs, 600 B" 2)" "$(md $Z 3 "$zs, 1200 B" 2)" "$(md $Z 3 "$zs, 4000 B" 2)" "$(md $Z 3 "$zs, 8000 B" 2)" \
	"$(md $Z 3 "$zs, 65435 B" 2)"
frow $D "into the send-only sink" "zero copy / copy, here" $(for sz in 600 1200 4000 8000 16000 32000 65435; do rat3 $Z 3 "$zs, $sz B"; done)
for s in 600 1200 4000; do
	check "zerocopy/: at $s B the interval lies below 1" test "$(calc "($(mdr $Z 3 "$zs, $s B" 4 | cut -d' ' -f 2) < 1)")" = 1
done
for s in 8000 16000 32000; do
	check "zerocopy/: at $s B the interval takes in 1" \
		test "$(mdr $Z 3 "$zs, $s B" 4 | awk '{ print ($1 <= 1 && $2 >= 1) }')" = 1
done
fig $D "and the kernel marked every one of the 630721 completions copied" \
	"$(sed -n 's/.*The kernel marked every one of the \([0-9]*\) completions of the control.*/\1/p' $Z)"
zw4=$(awk '/^IPv4 across/ { split($0, p, "suck received "); print p[2] }' $ZW |
	sed -n 's/^\([0-9.]*\) % of what blast sent copied and \([0-9.]*\) % with zero copy (medians).*/\2 \1/p')
zwr() { tsv ${ZW%.md}.tsv received_pct source=here row="$1" | rng; }
fig $D "but suck received 0.5 % of it (0.17..0.77) against 78 % copied (75..78) over IPv4" \
	"${zw4% *}" $(zwr zc-4) "${zw4#* }" $(zwr copy-4) -
fig $D "Into the sink nothing was copied (0 of 13938246 completions)" \
	$(sed -n 's/.*Of the \([0-9]*\) completions into the sink \([0-9]*\) were marked copied.*/\2 \1/p' $Z)
fig $D "zero copy paid off only at 64 KB (1.22×, against Begunkov's 2.59×); it lost from 600 to 4000 B (0.79×–0.81×" \
	- "$(md $Z 3 "$zs, 65435 B" 3)" "$(md $Z 3 "$zs, 65435 B" 2)" - - \
	$(for s in 600 1200 4000; do md $Z 3 "$zs, $s B" 3; done | rng)

# Zero-loss rates (ndr/ndr.tsv).
N=$R/ndr/ndr.tsv
for v in copy buffer mmsg gro uring; do
	if [ "$(tsv $N confirmed variant=$v)" = yes ]; then
		frow $D "Zero-loss rates" $v "$(tsv $N rate_pps variant=$v)" "$(tsv $N unthrottled_delivered_pps variant=$v)"
	else
		frow $D "Zero-loss rates" $v "$(tsv $N rate_pps variant=$v)" "$(tsv $N loss_pct variant=$v)" "$(tsv $N unthrottled_delivered_pps variant=$v)"
	fi
done
check "docs/reference.md says each zero-loss rate is one search's (each rate is one figure)" \
	says $D "one search per variant, so each rate is one figure, its every trial in \`trials.tsv\`"
fig $D "(\`rate_pct\` 99.77–100.04 %, gap p99 156–201 µs)" $(tsv $N rate_pct | rng) - $(tsv $N gap_p99_us | rng)
check "docs/reference.md: the rates are a ninth to a thirteenth of the flooded ones" \
	says $D "The rates are a ninth to a thirteenth of what each variant takes when flooded"
nd_r=$(for v in copy buffer mmsg gro uring; do calc "$(tsv $N unthrottled_delivered_pps variant=$v) / $(tsv $N rate_pps variant=$v)"; done | rng)
check "ndr: flooded over zero-loss runs from about 9 to about 13 ($nd_r)" \
	test "$(echo "$nd_r" | awk '{ print (int($1 + 0.5) == 9 && int($2 + 0.5) == 13) }')" = 1

# ---- docs/performance.md ----
D=docs/performance.md

# The committed run of 5 December: its targets (perf/perf-2026-12-05.txt, targets lines), each
# with the per-round min and max of its ratio line.
tg() { tline $P5 "$1"; }
# rr SIZE LABEL: min and max of the first ratio on LABEL's line in the SIZE-byte section.
rr() { pline $P5 "$1" "$2" | cut -d' ' -f 2-3; }
# trow ROW LABEL1450 RATIO1450 [LABEL64 RATIO64]: the targets table's ROW.
trow() {
	if [ $# -gt 3 ]; then
		frow $D "its targets:" "$1" "$(tg "$2")" $(rr 1450 "$3") "$(tg "$4")" $(rr 64 "$5")
	else
		frow $D "its targets:" "$1" "$(tg "$2")" $(rr 1450 "$3")
	fi
}
trow "blast \`-b 1\` pps vs a bare \`sendto\` loop (≥ 0.97)" "blast -b 1 pps >= 0.97 x bare sendto loop" "ratio blast/bare"
trow "suck \`-m buffer\` CPU per datagram vs a bare \`recvfrom\` loop (≤ 1.05)" "suck -m buffer cpu/datagram <= 1.05 x bare recvfrom" "ratio buffer/bare"
trow "suck \`-m mmsg\` CPU per datagram vs a bare \`recvmmsg\` loop (≤ 1.05)" \
	"counting off <= 1.05 x bare (CPU per datagram), 1450 B" "ratio mmsg/bare" "counting off <= 1.05 x bare (CPU per datagram), 64 B" "ratio mmsg/bare"
check "perf-2026-12-05: the mmsg target's 1450 B figure is the recvmmsg pair's" \
	test "$(tg "suck -m mmsg cpu/datagram <= 1.05 x bare recvmmsg")" = "$(tg "counting off <= 1.05 x bare (CPU per datagram), 1450 B")"
for t in "uring:suck \`-m uring\` CPU per datagram vs the bare io_uring loop (≤ 1.05):suck uring <= 1.05 x bare io_uring" \
	"epoll:suck \`-m epoll\` vs bare epoll (≤ 1.05):suck epoll <= 1.05 x bare epoll" \
	"pool:suck \`-m pool\` vs bare pool (≤ 1.05):suck pool <= 1.05 x bare pool"; do
	v=${t%%:*} row=${t#*:} lab=${row##*:} row=${row%:*}
	trow "$row" "$lab (CPU per datagram), 1450 B" "ratio $v/bare" "$lab (CPU per datagram), 64 B" "ratio $v/bare"
done
trow "suck \`-m mmsg --latency\` CPU per datagram vs suck \`-m mmsg\` (≤ 1.10)" \
	"suck mmsg --latency <= 1.10 x without (CPU per datagram), 1450 B" "ratio latency/without" \
	"suck mmsg --latency <= 1.10 x without (CPU per datagram), 64 B" "ratio latency/without"
trow "suck \`-m xdp\` vs bare xdp on veth (≤ 1.05)" \
	"suck xdp <= 1.05 x bare xdp (CPU per datagram, veth), 1450 B" "ratio xdp/bare" \
	"suck xdp <= 1.05 x bare xdp (CPU per datagram, veth), 64 B" "ratio xdp/bare"
trow "blast default sent pps vs iperf3 3.21+ \`--gsro\` client (≥ 1.10, ≥ 1.25)" \
	"blast default sent pps >= 1.10 x iperf3 client, 1450 B" "ratio blast sent/iperf3 sent" \
	"blast default sent pps >= 1.25 x iperf3 client, 64 B" "ratio blast sent/iperf3 sent"
trow "suck \`-m gro\` received pps vs iperf3 3.21+ \`--gsro\` server (≥ 1.05)" \
	"suck -m gro received pps >= 1.05 x iperf3 server, 1450 B" "ratio suck gro received/" \
	"suck -m gro received pps >= 1.05 x iperf3 server, 64 B" "ratio suck gro received/"
check "perf-2026-12-05: xdp's target not met, every other met" \
	test "$(grep -c '^  NOT MET' $P5) $(grep '^  NOT MET' $P5 | grep -c 'suck xdp')" = "2 2"
fig $D "suck \`-m gro\` beside bare recvmmsg (no target) is 1.010 [0.986 1.019] and 1.051 [1.027 1.071]" \
	$(pline $P5 1450 "ratio gro/bare") $(pline $P5 64 "ratio gro/bare")
fig $D "Of the other receivers, copy costs 1.036× [1.002 1.049] (1450 B) and 1.022× [1.016 1.045] (64 B)" \
	$(pline $P5 1450 "ratio copy/bare") - $(pline $P5 64 "ratio copy/bare") -
# the send pairs' CPU ratios (the second figure of each ratio line): medians and rounds
spr() { for sz in 1450 64; do awk -v sz="$sz" '$0 ~ "^" sz "-byte datagrams" { s = 1; next } s && /^[0-9]+-byte datagrams/ { exit }
	s && /ratio blast\/bare/ { gsub(/[][]/, " "); print $6, $7, $8 }' $P5; done; }
fig $D "(\`sendto\`, \`sendmmsg\` and GSO, both sizes: medians 1.008–1.017, rounds 1.002–1.028)" \
	$(spr | cut -d' ' -f 1 | rng) $(spr | tr ' ' '\n' | rng)
check "perf-2026-12-05: every send pair's median within 2 % of CPU per datagram" test "$(spr | cut -d' ' -f 1 | rng | awk '{ print ($2 < 1.02) }')" = 1
fig $D "**1.082×** [1.057 1.103] the CPU per datagram at 1450 bytes and **1.101×** [1.010 1.112] at 64 bytes" \
	$(pline $P5 1450 "ratio io_uring/recvmmsg") - $(pline $P5 64 "ratio io_uring/recvmmsg") -
fig $D "it received 5.25 M [5.02 5.68] of the 5.31 M [5.08 5.79] datagrams/s blast sent at 1450 bytes" \
	$(pline $P5 1450 "suck -m gro (received)" | awk '{ print $1 / 1e6, $2 / 1e6, $3 / 1e6 }') \
	$(pline $P5 1450 "blast (default) into suck -m gro (sent)" | awk '{ print $1 / 1e6, $2 / 1e6, $3 / 1e6 }') -
fig $D "the same calls cost 953 ns per datagram [897 1288] at 1450 B" \
	$(pline $P5 1450 "blast -b 32" | cut -d' ' -f 4-6) -
fig $D "1.579× [1.307 1.786] the CPU per datagram at 1450 B and 1.678× [1.532 1.745] at 64 B" \
	$(pline $P5 1450 "ratio pool/mmsg") - $(pline $P5 64 "ratio pool/mmsg") -

# 3 December (perf/perf-2026-12-03.txt): the table against iperf3 3.21+ --gsro.
M3="\`results/reference/perf/perf-2026-12-03.txt\`"
p3() { pline $P3 "$1" "$2" | cut -d' ' -f 1; }
# m3 SIZE LABEL: that line's median, min and max in millions.
m3() { pline $P3 "$1" "$2" | awk '{ print $1 / 1e6, $2 / 1e6, $3 / 1e6 }'; }
frow $D "$M3" "blast default, sent pps" $(m3 64 "blast (default) into suck -m gro (sent)") $(m3 1450 "blast (default) into suck -m gro (sent)")
frow $D "$M3" "iperf3 --gsro client, sent pps" $(m3 64 "iperf3 -u -b 0 -l 64 (sent)") $(m3 1450 "iperf3 -u -b 0 -l 1450 (sent)")
frow $D "$M3" "ratio blast / iperf3 sent (target ≥ 1.25 / ≥ 1.10)" $(pline $P3 64 "ratio blast sent/iperf3 sent") \
	$(pline $P3 1450 "ratio blast sent/iperf3 sent") "$(p3 1450 "ratio blast sent/iperf3 sent")"
frow $D "$M3" "suck -m gro, received pps" $(m3 64 "suck -m gro (received)") $(m3 1450 "suck -m gro (received)")
frow $D "$M3" "iperf3 --gsro server, received pps" $(m3 64 "its server (received)") $(m3 1450 "its server (received)")
frow $D "$M3" "ratio suck / iperf3 received (target ≥ 1.05)" $(pline $P3 64 "ratio suck gro received/") \
	$(pline $P3 1450 "ratio suck gro received/")
fig $D "the sent ratio's median is 1.096 against the target of 1.10" "$(p3 1450 "ratio blast sent/iperf3 sent")" -
fig $D "(iperf3's own rate at 1450 B moved between 1.07 M and 3.28 M from round to round in this run)" \
	- - $(m3 1450 "iperf3 -u -b 0 -l 1450 (sent)" | cut -d' ' -f 2-3)
fig $D "in \`make perf\` it received 3.44 of blast's 3.48 M datagrams/s" \
	"$(p3 1450 "suck -m gro (received)" | awk '{ print $1 / 1e6 }')" "$(p3 1450 "blast (default) into suck -m gro (sent)" | awk '{ print $1 / 1e6 }')"

# 4 December (perf/perf-2026-12-04.txt and perf-peer/perf-peer-2026-12-04.txt).
P4=$R/perf/perf-2026-12-04.txt PP4=$R/perf-peer/perf-peer-2026-12-04.txt
sent="ratio blast sent/iperf3 sent" rcvd="ratio suck gro received/"
fig $D "the full \`make perf\` (5 rounds) gave blast/iperf3 sent 1.77 [1.53 2.47] at 64 B and 1.17 [0.67 3.35] at 1450 B, suck gro/iperf3 server received 1.76 [1.53 2.52] and 0.98 [0.63 2.93]" \
	- - $(pline $P4 64 "$sent") - $(pline $P4 1450 "$sent") - - $(pline $P4 64 "$rcvd") $(pline $P4 1450 "$rcvd")
fig $D "(only the rows against iperf3, alternating, so that more rounds fit in a quiet window) gave 1.69 [0.83 2.73] and 1.69 [0.83 2.71] at 64 B, 0.98 [0.44 1.80] and 0.98 [0.44 1.83] at 1450 B" \
	- $(pline $PP4 64 "$sent") $(pline $PP4 64 "$rcvd") - $(pline $PP4 1450 "$sent") $(pline $PP4 1450 "$rcvd") -
fig $D "From round to round at 1450 B, iperf3 ranged from 1.33 M to 5.82 M datagrams/s and blast from 1.16 M to 3.97 M" \
	- - $(pline $PP4 1450 "iperf3 -u -b 0 -l 1450 (sent)" | awk '{ print $2 / 1e6, $3 / 1e6 }') \
	$(pline $PP4 1450 "blast (default) into suck -m gro (sent)" | awk '{ print $2 / 1e6, $3 / 1e6 }')
fig $D "The reference run of 2026-12-04 gave 1.054 [1.036 1.065] at 1450 bytes and 1.041 [1.035 1.050] at 64" \
	- - - $(pline $P4 1450 "ratio jitter/without") - $(pline $P4 64 "ratio jitter/without") -
fig $D "recvmmsg pair (loss runs on, jitter and echo off, against bare recvmmsg) at both sizes, 1.025 [1.021 1.031] and 1.010 [1.003 1.013] in that run" \
	$(pline $P4 1450 "ratio mmsg/bare") $(pline $P4 64 "ratio mmsg/bare")
check "perf-2026-12-04: the recvmmsg target is the mmsg/bare ratio's median" \
	test "$(tline $P4 "counting off <= 1.05 x bare (CPU per datagram), 1450 B") $(tline $P4 "counting off <= 1.05 x bare (CPU per datagram), 64 B")" = \
	"$(p1 $P4 1450 "ratio mmsg/bare") $(p1 $P4 64 "ratio mmsg/bare")"

# The quiet runs: --spin (perf-peer-spin-2026-12-04.txt) and poll, then sleep (perf-peer-poll-2026-12-04.txt).
PS=$R/perf-peer/perf-peer-spin-2026-12-04.txt PL=$R/perf-peer/perf-peer-poll-2026-12-04.txt
fig $D "at 1450 B iperf3's client is ahead of blast into a blocking suck gro, 0.89 [0.89 0.90] sent and 0.90 [0.89 0.91] received" \
	- - $(pline $PS 1450 "$sent") $(pline $PS 1450 "$rcvd")
fig $D "with the noise gone the spread of a ratio is ±1 %" "$(pline $PS 1450 "$sent" | awk '{ print ($3 - $2) / 2 / $1 * 100 }')"
fig $D "also runs blast into \`suck -m gro --spin\` (never blocks): 1.18 [1.18 1.19] sent and 1.19 [1.18 1.19] received against iperf3" \
	$(pline $PS 1450 "ratio blast sent (suck --spin)/iperf3 sent") $(pline $PS 1450 "ratio suck gro --spin received/") -
set -- $(pline $PL 1450 "$sent") $(pline $PL 1450 "$rcvd")
fig $D "at 1450 B blast default 1.172 of iperf3's client sent (per round 1.155–1.183), suck gro 1.178 of its server received (1.157–1.190); \`--spin\` beside it 1.180 (1.158–1.185) and 1.187 (1.168–1.192); at 64 B 3.08 (3.03–3.17) and 3.08 (3.04–3.17)" \
	- "$1" - "$2" "$3" "$4" "$5" "$6" \
	$(pline $PL 1450 "ratio blast sent (suck --spin)/iperf3 sent") $(pline $PL 1450 "ratio suck gro --spin received/") - \
	$(pline $PL 64 "$sent") $(pline $PL 64 "$rcvd")
# 5 December: the --peer-only run of that day (perf-peer-2026-12-05.txt).
fig $D "polls before every sleep) a \`--peer-only -r 5 -t 2\` run gave 1.09 [1.08 1.17] sent and 1.09 [1.08 1.16] received" \
	- - $(pline $R/perf-peer/perf-peer-2026-12-05.txt 1450 "$sent") $(pline $R/perf-peer/perf-peer-2026-12-05.txt 1450 "$rcvd")

# Where the limit is (profile/profile-2026-12-03.tsv, one decimal).
for c in "copy: the kernel's copy of the payload:copy_pct" "call: per system call and message header:call_pct" \
	"stack: the kernel's work per message and segment:stack_pct" "user: the tool's own code and libc:user_pct" \
	"wait: sleeping, waking, interrupts off:wait_pct"; do
	frow $D "results/reference/profile/profile-2026-12-03.{txt,tsv}" "${c%:*}" $(pcls "${c##*:}")
done
fig $D "(load average 0.24 at the start;" "$(sed -n 's/.*, load \([0-9.]*\) .*/\1/p' $R/profile/profile-2026-12-03.txt)"
fig $D "23.4 GB/s in 1450-byte pieces and 8.6 GB/s in 64-byte pieces, so 16.1 M and 134.7 M datagrams/s" \
	"$(tsv $PR bare_copy_gbs tool=blast size=1450)" - "$(tsv $PR bare_copy_gbs tool=blast size=64)" - \
	"$(calc "$cb1450 / 1e6")" "$(calc "$cb64 / 1e6")"
s1450=$(p3 1450 "suck -m gro (received)") s64=$(p3 64 "suck -m gro (received)")
fig $D "blast's 3.48 M and suck's 3.44 M datagrams/s at 1450 B are 0.22× the copy-bound rate, and at 64 B (32.9 M, 32.8 M) 0.24×" \
	"$(calc "$b1450 / 1e6")" "$(calc "$s1450 / 1e6")" - "$(calc "$b1450 / $cb1450")" - "$(calc "$b64 / 1e6")" "$(calc "$s64 / 1e6")" \
	"$(calc "$b64 / $cb64")"
check "profile: 0.24x at 64 B holds for suck too" test "$(calc "int($s64 / $cb64 * 100 + 0.5)")" = 24
fig $D "the kernel's own copy ran at 15.3 GB/s in blast (into freshly allocated socket-buffer pages) and 21.3 GB/s in suck" \
	"$(tsv $PR kernel_copy_gbs tool=blast size=1450)" "$(tsv $PR kernel_copy_gbs tool=suck size=1450)"
fig $D "blast's own code is 2–3 % of its CPU at either size" $(tsv $PR user_pct tool=blast | rng)
fig $D "At 1450 B the copy is the largest part (46 %), then the stack (38 %)" \
	- "$(tsv $PR copy_pct tool=blast size=1450)" "$(tsv $PR stack_pct tool=blast size=1450)"
fig $D "at 64 B its own code is 56 %" - "$(tsv $PR user_pct tool=suck size=64)"
fig $D "at 1450 B the copy is 45 %, its own code 15 %" - "$(tsv $PR copy_pct tool=suck size=1450)" "$(tsv $PR user_pct tool=suck size=1450)"

# perf --twice on this VM: the committed comparison is what perf.awk makes of the two committed
# runs' figures today, and docs/performance.md quotes its counts.
TW=$R/perf/twice-2026-12-06
(cd "$R/perf" && awk -F'\t' -v mode=twice -v sizes="1450 64" -v xdponly=0 -v peeronly=0 -v prate=50000 \
	-v file1="$TW.1.txt" -v file2="$TW.2.txt" -v statusfile=/dev/null \
	-f ../../../scripts/lib/stats.awk -f ../../../scripts/lib/perf.awk twice-2026-12-06.1.tsv twice-2026-12-06.2.tsv) >"$TMP/twice"
check "perf --twice: the committed comparison is remade from the committed figures" cmp -s "$TMP/twice" "$TW.txt"
tw_all=$(sed -n 's/^\([0-9]*\) of \([0-9]*\) targets measured in both runs agree.*/\1 \2/p' "$TW.txt")
tw_in=$(sed -n 's/^  \([0-9]*\) of those .*/\1/p' "$TW.txt")
fig docs/performance.md "running): 21 of 21 targets agree, 20 met and 1 unresolved in each run, 15 of 21 with each median" \
	$tw_all "$(grep -c '^    run 1: met ' "$TW.txt")" "$(grep -c '^    run 1: unresolved ' "$TW.txt")" "$tw_in" "${tw_all#* }"
check "perf --twice: 20 met and 1 unresolved in run 2 too" test "$(grep -c '^    run 2: met ' "$TW.txt") $(grep -c '^    run 2: unresolved ' "$TW.txt")" = "20 1"

done_tests
