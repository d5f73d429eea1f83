# timeline.awk: the interval rows (blast and suck -i with -o tsv) kept in a result's raw/ as
# VARIANT-RUN.blast.err and VARIANT-RUN.suck.err, as one table for the timeline plot:
#   variant  run  tool  t_s  pps
# sorted by variant, run and tool, a blank line after each run's rows (gnuplot breaks its line
# there). Warm-up runs are left out. Usage: awk -f timeline.awk RAW/*.err
FNR == 1 {
	name = FILENAME; sub(/.*\//, "", name)
	tool = name; sub(/\.err$/, "", tool); sub(/.*\./, "", tool)
	vr = name; sub(/\.(blast|suck)\.err$/, "", vr)
	variant = vr; sub(/-[^-]*$/, "", variant)
	run = vr; sub(/.*-/, "", run)
	ts = pps = 0
}
# the tsv header of the interval rows: where t_s and pps are
$0 ~ /^tool\t/ {
	n = split($0, h, "\t")
	for (i = 1; i <= n; i++) { if (h[i] == "t_s") ts = i; if (h[i] == "pps") pps = i }
	next
}
ts && pps && $0 ~ /^(blast|suck)\t/ && run !~ /^warmup/ {
	split($0, f, "\t")
	key = variant SUBSEP run SUBSEP tool
	if (!(key in rows)) { order[++nk] = key; vorder[variant] = vorder[variant] ? vorder[variant] : ++nv }
	rows[key] = rows[key] variant "\t" run "\t" tool "\t" f[ts] "\t" f[pps] "\n"
}
END {
	# variants in the order they were first seen, runs and tools in file order within each
	for (v = 1; v <= nv; v++)
		for (k = 1; k <= nk; k++) {
			split(order[k], p, SUBSEP)
			if (vorder[p[1]] == v) printf "%s\n", rows[order[k]]
		}
}
