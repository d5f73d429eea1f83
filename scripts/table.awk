# table.awk: summary.tsv in, the two markdown tables of table.md out (padded so they also read
# well in a terminal). A cell is "median (min..max)" over the runs, or just the median when all
# runs agree; "-" when no run reported the figure. Counts are shortened (834.6k, 1.21M): the
# exact numbers are in summary.tsv; KiB stay exact.
BEGIN {
	FS = OFS = "\t"
	ntab = 2
	spec[1] = "runs:runs|blast_sent:sent by blast|suck_received:received by suck|received_pct:received %|suck_dropped:dropped (rcvbuf full)|suck_elsewhere:lost elsewhere|suck_pps:received/s"
	spec[2] = "suck_cpu_ns_per_pkt:suck CPU ns/datagram|suck_user_s:suck user s|suck_sys_s:suck sys s|blast_cpu_ns_per_pkt:blast CPU ns/datagram|suck_rss_kib:suck rss KiB|suck_heap_kib:suck heap KiB"
}

function short(s,    x) {
	if (!isnum(s))
		return s
	x = s + 0
	if (x >= 1e9 || x <= -1e9)
		return trim(sprintf("%.2f", x / 1e9)) "G"
	if (x >= 1e6 || x <= -1e6)
		return trim(sprintf("%.2f", x / 1e6)) "M"
	if (x >= 1e4 || x <= -1e4)
		return trim(sprintf("%.1f", x / 1e3)) "k"
	return s
}

function cellof(v, f,    k) {
	if (!((v, f) in med))
		return "-"
	k = f !~ /_kib$/ # KiB stay exact: "65.6k KiB" would read wrong
	if (lo[v, f] == hi[v, f])
		return k ? short(med[v, f]) : med[v, f]
	if (!k)
		return med[v, f] " (" lo[v, f] ".." hi[v, f] ")"
	return short(med[v, f]) " (" short(lo[v, f]) ".." short(hi[v, f]) ")"
}

function pad(s, w) { return sprintf("%-" w "s", s) }

function table(t,    ncol, i, k, parts, f, head, w, line, sep, cells) {
	ncol = split(spec[t], parts, "|")
	f[0] = "variant"
	head[0] = "variant"
	for (i = 1; i <= ncol; i++) {
		split(parts[i], kv, ":")
		f[i] = kv[1]
		head[i] = kv[2]
	}
	for (i = 0; i <= ncol; i++)
		w[i] = length(head[i])
	for (k = 1; k <= nv; k++) {
		cells[k, 0] = order[k]
		for (i = 1; i <= ncol; i++)
			cells[k, i] = f[i] == "runs" ? runs[order[k]] : cellof(order[k], f[i])
		for (i = 0; i <= ncol; i++)
			if (length(cells[k, i]) > w[i])
				w[i] = length(cells[k, i])
	}
	line = "|"
	sep = "|"
	for (i = 0; i <= ncol; i++) {
		line = line " " pad(head[i], w[i]) " |"
		sep = sep (i ? "-" : ":") sprintf("%" w[i] "s", "") (i ? ":" : "-") "|"
	}
	gsub(/ /, "-", sep)
	print line
	print sep
	for (k = 1; k <= nv; k++) {
		line = "|"
		for (i = 0; i <= ncol; i++)
			line = line " " (i ? sprintf("%" w[i] "s", cells[k, i]) : pad(cells[k, i], w[i])) " |"
		print line
	}
}

NR == 1 { next }
{
	v = $1
	if (!(v in runs)) {
		order[++nv] = v
		runs[v] = 0
	}
	if ($3 > runs[v])
		runs[v] = $3
	med[v, $2] = $4
	lo[v, $2] = $5
	hi[v, $2] = $6
}
END {
	for (t = 1; t <= ntab; t++) {
		if (t > 1)
			print ""
		table(t)
	}
}
