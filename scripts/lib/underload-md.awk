# underload-md.awk: table.md's "Latency under load" (suite --under-load) from summary.tsv, whose
# rows are per variant and phase (alone, loaded): per variant the probe's RTT p50 and p99 alone
# and beside the flood (medians over the rounds), the ratio of the loaded p99 to the alone p99
# (each round's, median (min..max) over the rounds: runs.awk's rtt_p99_ratio), the share of the
# requests lost in each phase (unanswered within the probe's --rtt-timeout, runs.awk's
# rtt_lost_pct) and the flood's received/s; the
# rows by the loaded p99, smallest first. Usage: awk -f underload-md.awk summary.tsv
BEGIN { FS = "\t" }
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{
	v = $c["variant"]
	if (!(v in seen)) { seen[v] = 1; order[++nv] = v }
	k = v SUBSEP $c["phase"] SUBSEP $c["figure"]
	med[k] = $c["median"]; lo[k] = $c["min"]; hi[k] = $c["max"]
}
function cell(v, ph, f,    k) { k = v SUBSEP ph SUBSEP f; return (k in med) ? med[k] : "-" }
function range(v, ph, f,    k) {
	k = v SUBSEP ph SUBSEP f
	if (!(k in med))
		return "-"
	return lo[k] == hi[k] ? med[k] : med[k] " (" lo[k] ".." hi[k] ")"
}
END {
	# by the loaded p99, smallest first; a variant without one last
	for (i = 1; i <= nv; i++) {
		key[i] = cell(order[i], "loaded", "blast_rtt_p99_us")
		if (key[i] == "-")
			key[i] = 1e300
	}
	for (i = 2; i <= nv; i++)
		for (j = i; j > 1 && key[j - 1] + 0 > key[j] + 0; j--) {
			t = key[j]; key[j] = key[j - 1]; key[j - 1] = t
			t = order[j]; order[j] = order[j - 1]; order[j - 1] = t
		}
	print "## Latency under load"
	print ""
	print "The probe's round trips alone and beside the flood, medians over the rounds in microseconds;" \
		" the ratio is each round's loaded p99 over its alone p99, median (min..max) over the rounds;" \
		" lost: the share of the probe's requests unanswered within its timeout; rows by the loaded p99."
	print ""
	print "| variant | p50 alone | p50 loaded | p99 alone | p99 loaded | p99 loaded / alone | lost % alone | lost % loaded | flood received/s |"
	print "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	for (i = 1; i <= nv; i++) {
		v = order[i]
		fr = cell(v, "loaded", "flood_received_pps")
		printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", v,
			cell(v, "alone", "blast_rtt_p50_us"), cell(v, "loaded", "blast_rtt_p50_us"),
			cell(v, "alone", "blast_rtt_p99_us"), cell(v, "loaded", "blast_rtt_p99_us"),
			range(v, "loaded", "rtt_p99_ratio"),
			cell(v, "alone", "rtt_lost_pct"), cell(v, "loaded", "rtt_lost_pct"),
			fr == "-" ? fr : sprintf("%.0f", fr)
	}
}
