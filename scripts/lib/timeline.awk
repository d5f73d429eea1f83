# timeline.awk: the interval rows (blast and suck -i with -o tsv) kept in a result's raw/ as
# VARIANT-RUN.blast.err and VARIANT-RUN.suck.err, as the timeline plot's bands: for each variant
# and tool, the k-th interval of every measured run put together,
#   variant  tool  k  t_s  pps_median  pps_min  pps_max  runs
# (t_s the median of the runs' times of that interval). One gnuplot data set (two blank lines
# after it) per variant and tool, blast's then suck's, the variants in the order of -v
# order="V1 V2 ..." (the tables' order; a variant not named there after them, in the order
# first seen), so that data set 2(i-1) is the i-th variant's blast and 2(i-1)+1 its suck; a tool
# without rows has one row of NaN, keeping the count, and a variant without any is left out.
# Warm-up runs are left out too. -v fig=KEY bands another figure of the rows than pps (blast
# --rtt's rtt_mean_us); a row without it ("-": no reply in that interval) adds nothing to its k.
# -v skip=NAME leaves out the runs named NAME-RUN that are no variant's (suite --ceiling's
# xdp-drop: a blast with no suck).
# Usage: awk -f timeline.awk -v order="..." [-v fig=KEY] [-v skip=NAME] RAW/*.err
BEGIN {
	nv = split(order, vorder, " ")
	for (i = 1; i <= nv; i++)
		vnum[vorder[i]] = i
}
FNR == 1 {
	name = FILENAME; sub(/.*\//, "", name)
	tool = name; sub(/\.err$/, "", tool); sub(/.*\./, "", tool)
	vr = name; sub(/\.(blast|suck)\.err$/, "", vr)
	variant = vr; sub(/-[^-]*$/, "", variant)
	run = vr; sub(/.*-/, "", run)
	ts = pps = k = 0
}
# the tsv header of the interval rows: where t_s and pps are
$0 ~ /^tool\t/ {
	n = split($0, h, "\t")
	for (i = 1; i <= n; i++) { if (h[i] == "t_s") ts = i; if (h[i] == (fig == "" ? "pps" : fig)) pps = i }
	next
}
ts && pps && $0 ~ /^(blast|suck)\t/ && run !~ /^warmup/ && run !~ /\.try[0-9]+$/ && variant != skip {
	split($0, f, "\t")
	if (!(variant in vnum))
		vnum[vorder[++nv] = variant] = nv
	k++
	if (k > kmax[variant, tool])
		kmax[variant, tool] = k
	if (f[pps] == "-")
		next
	key = variant SUBSEP tool SUBSEP k
	cnt[key]++
	T[key, cnt[key]] = f[ts]
	P[key, cnt[key]] = f[pps]
	if (k > kmax[variant, tool])
		kmax[variant, tool] = k
}
function sortn(a, n,    i, j, x) {
	for (i = 2; i <= n; i++) {
		x = a[i]
		for (j = i - 1; j >= 1 && a[j] > x; j--)
			a[j + 1] = a[j]
		a[j + 1] = x
	}
}
function med(a, n) { return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
END {
	for (v = 1; v <= nv; v++)
		for (w = 1; w <= 2 && (kmax[vorder[v], "blast"] || kmax[vorder[v], "suck"]); w++) {
			tool = w == 1 ? "blast" : "suck"
			if (!kmax[vorder[v], tool])
				printf "%s\t%s\t0\tNaN\tNaN\tNaN\tNaN\t0\n", vorder[v], tool
			for (k = 1; k <= kmax[vorder[v], tool]; k++) {
				key = vorder[v] SUBSEP tool SUBSEP k
				n = cnt[key]
				if (!n) {
					printf "%s\t%s\t%d\tNaN\tNaN\tNaN\tNaN\t0\n", vorder[v], tool, k
					continue
				}
				split("", a); split("", b)
				for (i = 1; i <= n; i++) { a[i] = T[key, i] + 0; b[i] = P[key, i] + 0 }
				sortn(a, n); sortn(b, n)
				printf "%s\t%s\t%d\t%.3f\t%.0f\t%.0f\t%.0f\t%d\n", vorder[v], tool, k, med(a, n), med(b, n), b[1], b[n], n
			}
			printf "\n\n"
		}
}
