# ladder-tsv.awk: the runs of reproduce cloudflare-2018 (lib/ladder.sh) in, reproduce.tsv out: the
# published rows (source 2018, their figure or -) and one row per run here (source here). Run as
#   awk -v pub=PUB -f ladder-tsv.awk LIST
# LIST: a line per run, tab-separated: row, run, how it was counted, blast's send window (s),
# blast's sent, the datagrams counted at the row's point, the NAPI threads' CPU seconds, how many
# threads, then its noise (lib/ladder.sh ladder_rounds: attempt, noise_pre_pct, noise_post_pct,
# noise_other_pct, noise_steal_pct, noisy; "-" when a line has none). Columns out: source row
# run how duration_s sent counted counted_pct mpps napi_cpu_s napi_ns_per_pkt and those six,
# empty on a published row (mpps: counted over the send window, in millions a second;
# napi_ns_per_pkt: the NAPI thread's CPU time over the datagrams counted, - when nothing was
# counted).
BEGIN {
	FS = OFS = "\t"
	print "source", "row", "run", "how", "duration_s", "sent", "counted", "counted_pct", "mpps", "napi_cpu_s", "napi_ns_per_pkt",
		"attempt", "noise_pre_pct", "noise_post_pct", "noise_other_pct", "noise_steal_pct", "noisy"
	while ((getline line < pub) > 0) {
		if (line ~ /^#/ || line == "")
			continue
		n = split(line, f, "\t")
		if (!hd) {
			for (i = 1; i <= n; i++)
				pc[f[i]] = i
			hd = 1
			continue
		}
		print "2018", f[pc["row"]], "-", f[pc["point"]], "-", "-", "-", "-", f[pc["mpps"]], "-", "-", "", "", "", "", "", ""
	}
	close(pub)
}
NF >= 7 {
	d = $4 + 0
	pct = $5 > 0 ? sprintf("%.2f", 100 * $6 / $5) : "-"
	mpps = d > 0 ? sprintf("%.4f", $6 / d / 1e6) : "-"
	ns = $6 > 0 ? sprintf("%.0f", $7 * 1e9 / $6) : "-"
	z = ""
	for (i = 9; i <= 14; i++)
		z = z OFS (i <= NF ? $i : "-")
	print "here", $1, $2, $3, $4, $5, $6, pct, mpps, $7, ns z
}
