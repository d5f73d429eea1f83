# published.awk: reproduce.tsv in, the data of published_vs_here.gp out: per variant (in the
# order of this run), a label, then median, min and max of received_pct for 2014 and for here
# (NaN where a variant has no 2014 counterpart).
BEGIN { FS = OFS = "\t" }
NR == 1 {
	for (i = 1; i <= NF; i++)
		c[$i] = i
	next
}
{
	v = $c["variant"]
	s = $c["source"]
	if (s == "here" && !(v in seen)) {
		seen[v] = 1
		order[++nv] = v
	}
	if (s == "2014")
		strat[v] = $c["strategy_2014"]
	n[s, v]++
	val[s, v, n[s, v]] = $c["received_pct"]
}
function stat(s, v,    i, k, a) {
	k = n[s, v] + 0
	if (k == 0)
		return "NaN" OFS "NaN" OFS "NaN"
	for (i = 1; i <= k; i++)
		a[i] = val[s, v, i]
	sortnum(a, k)
	return median(a, k) OFS a[1] OFS a[k]
}
END {
	for (j = 1; j <= nv; j++) {
		v = order[j]
		label = (v in strat) ? v " / 2014 " strat[v] : v " (no 2014 counterpart)"
		print label, stat("2014", v), stat("here", v)
	}
}
