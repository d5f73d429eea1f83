# fanin-md.awk: table.md's fan-in table (suite --senders N), from summary.tsv: per variant,
# Jain's fairness index over the senders and each sender's share of the datagrams suck received
# of them, with the part of its own it got through; each cell median (min..max) of the runs.
# -v n=N: the senders.
BEGIN { FS = "\t" }
NR > 1 {
	if (!($1 in seen)) { seen[$1] = 1; order[++nv] = $1 }
	cell[$1, $2] = $4 " (" $5 ".." $6 ")"
}
function get(v, f) { return (v, f) in cell ? cell[v, f] : "-" }
END {
	print ""
	print "Fan-in: " n " senders at once. Share: a sender's part of the valid datagrams suck received" \
		" of all of them; through: of its own sent. Jain's index (sum x)^2 / (n sum x^2) over the" \
		" senders' valid: 1 all alike, 1/" n " one sender got everything."
	print ""
	line = "| variant | Jain's index"
	sep = "|---|---"
	for (i = 1; i <= n; i++) {
		line = line " | sender " i ": share % | through %"
		sep = sep "|---|---"
	}
	print line " |"
	print sep "|"
	for (k = 1; k <= nv; k++) {
		v = order[k]
		line = "| " v " | " get(v, "suck_jain")
		for (i = 1; i <= n; i++)
			line = line " | " get(v, "suck_sender" i "_share_pct") " | " get(v, "suck_sender" i "_through_pct")
		print line " |"
	}
}
