# sizes-md.awk: a size mix's table for table.md, from summary.tsv: per variant, the median share of
# the datagrams suck received in each size class (suck_dgrams_*) and the median mean size received
# (suck_bytes / suck_received) beside the mix's mean (blast_mix_mean). Classes no variant received are left out. Variants in the order
# they first appear.
BEGIN {
	FS = "\t"
	n = split("0_64 65_256 257_576 577_1024 1025_1500 1501_up", cls, " ")
	split("0–64 65–256 257–576 577–1024 1025–1500 1501+", label, " ")
}
NR == 1 { next }
{
	if (!($1 in seen)) { seen[$1] = 1; order[++nv] = $1 }
	med[$1, $2] = $4
}
END {
	for (c = 1; c <= n; c++)
		for (v = 1; v <= nv; v++)
			if (med[order[v], "suck_dgrams_" cls[c]] + 0 > 0) used[c] = 1
	head = "| variant |"
	rule = "|:--------|"
	for (c = 1; c <= n; c++)
		if (used[c]) { head = head " " label[c] " B |"; rule = rule "-----:|" }
	print head " mean size received, B | mix's mean, B |"
	print rule "-----:|-----:|"
	for (v = 1; v <= nv; v++) {
		x = order[v]
		total = med[x, "suck_received"] + 0
		line = "| " x " |"
		for (c = 1; c <= n; c++)
			if (used[c])
				line = line sprintf(" %s |", total > 0 ? sprintf("%.1f %%", 100 * med[x, "suck_dgrams_" cls[c]] / total) : "-")
		line = line sprintf(" %s |", total > 0 ? sprintf("%.1f", med[x, "suck_bytes"] / total) : "-")
		line = line sprintf(" %s |", (x, "blast_mix_mean") in med ? med[x, "blast_mix_mean"] : "-")
		print line
	}
}
