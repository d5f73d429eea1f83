# bidir-md.awk: table.md's "Both at once" (suite --bidir) from runs.tsv, whose rows are per
# variant, direction (fwd, rev) and round: per variant each direction's suck received/s (median
# over the rounds), their sum (each round's fwd + rev, median over the rounds) and each
# direction's loss, its suck's lost / sent of its own run in %, median (min..max) over the rounds.
# Usage: awk -f stats.awk -f bidir-md.awk runs.tsv
BEGIN { FS = "\t" }
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{
	v = $c["variant"]; d = $c["direction"]; r = $c["run"]
	if (!(v in seen)) { seen[v] = 1; order[++nv] = v }
	k = ++n[v, d]
	pps[v, d, k] = isnum($c["suck_pps"]) ? $c["suck_pps"] : ""
	loss[v, d, k] = isnum($c["suck_sent"]) && $c["suck_sent"] > 0 ? 100 * $c["suck_lost"] / $c["suck_sent"] : ""
	if (pps[v, d, k] != "") {
		sum[v, r] += pps[v, d, k]
		if (++both[v, r] == 2)
			s[v, "sum", ++n[v, "sum"]] = sum[v, r]
	}
}
# gather(arr, v, d): the numbers of arr for v and d into G[1..GN], sorted
function gather(arr, v, d,    i) {
	GN = 0
	split("", G)
	for (i = 1; i <= n[v, d]; i++)
		if (arr[v, d, i] != "")
			G[++GN] = arr[v, d, i]
	if (GN)
		sortnum(G, GN)
	return GN
}
function rate(arr, v, d) { return gather(arr, v, d) ? sprintf("%.0f", median(G, GN)) : "-" }
function span(arr, v, d) {
	if (!gather(arr, v, d))
		return "-"
	if (G[1] == G[GN])
		return sprintf("%.1f", G[1])
	return sprintf("%.1f (%.1f..%.1f)", median(G, GN), G[1], G[GN])
}
END {
	print "| variant | fwd received/s | rev received/s | sum received/s | fwd loss % | rev loss % |"
	print "|---|---:|---:|---:|---:|---:|"
	for (i = 1; i <= nv; i++) {
		v = order[i]
		printf "| %s | %s | %s | %s | %s | %s |\n", v, rate(pps, v, "fwd"), rate(pps, v, "rev"),
			rate(s, v, "sum"), span(loss, v, "fwd"), span(loss, v, "rev")
	}
}
