# reproduce-tsv.awk: runs.tsv of the 2014 protocol in (with -v pub=the published tsv), reproduce.tsv out:
# one row per run, 2014 and here, in the columns both have (results/README.md lists them).
BEGIN {
	FS = OFS = "\t"
	map["immutable-string"] = "copy"
	map["buffer-userdata"] = "buffer"
	print "source", "variant", "strategy_2014", "receiver", "run", "duration_s", "sent",
		"received", "received_pct", "memory_k", "dropped", "cpu_ns_per_pkt"
	while ((getline line < pub) > 0) {
		if (line ~ /^#/ || line == "")
			continue
		n = split(line, f, "\t")
		if (!hdr) {
			for (i = 1; i <= n; i++) pc[f[i]] = i
			hdr = 1
			continue
		}
		s = f[pc["strategy"]]
		v = (s in map) ? map[s] : s
		strat[v] = s
		print "2014", v, s, f[pc["receiver"]], f[pc["run"]], 10, f[pc["sent"]],
			f[pc["received"]], pct(f[pc["received"]], f[pc["sent"]]), f[pc["memory_k"]], "", ""
	}
}
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{
	v = $c["variant"]
	print "here", v, (v in strat) ? strat[v] : "-", "suck -m " v, $c["run"],
		$c["blast_duration_s"], $c["blast_sent"], $c["suck_received"],
		pct($c["suck_received"], $c["blast_sent"]), $c["suck_heap_kib"], $c["suck_dropped"],
		$c["suck_cpu_ns_per_pkt"]
}