# trial.awk: one trial's columns from blast's and suck's tsv reports (each a header line and a row).
#   awk -v asked=RATE -v size=BYTES -f trial.awk BLAST_TSV SUCK_TSV [NOISE_TSV]   a header line, then the row
#   awk -v header=1 -f trial.awk                                                   the header line only
# NOISE_TSV: the trial's noise (lib/noise.sh noise_run: attempt, noise_*_pct, noisy), "-" without it.
# Loss is counted against blast's sent: that is suck's sent when the fin arrives, and still true
# when it does not (suck's sent is then estimated from the sequence numbers and misses a lost
# tail). delivered is suck's valid over blast's sending time, so with no loss it equals offered.
# A figure a report lacks is NaN, never 0: a missing number must not read as a good one. The
# kernel's receive work (suck --rx-dev, on the wire) is "-" elsewhere, NaN here.
BEGIN {
	FS = OFS = "\t"
	ncol = split("asked_pps offered_pps delivered_pps delivered_mbps loss_pct sent valid lost " \
		"dropped elsewhere received suck_pps rate_pct gap_p50_us gap_p99_us gap_max_us " \
		"blast_errors suck_stop sent_estimated blast_duration_s suck_cpu_ns_per_pkt " \
		"lat_p50_us lat_p99_us stack_p50_us queue_p50_us rx_kernel_ns_per_pkt rx_total_ns_per_pkt " \
		"drops_attributed unexplained drop_detail sender_drops " \
		"attempt noise_pre_pct noise_post_pct noise_other_pct noise_steal_pct noisy", col, " ")
	line = col[1]
	for (i = 2; i <= ncol; i++) line = line OFS col[i]
	print line
	if (header) exit
}
FNR == 1 { nf++; for (i = 1; i <= NF; i++) name[nf, i] = $i; next }
FNR == 2 { for (i = 1; i <= NF; i++) v[nf, name[nf, i]] = $i }
function get(side, key) { return ((side, key) in v) ? v[side, key] : "NaN" }
function num(x) { return x == "NaN" || x == "" ? "NaN" : x + 0 }
END {
	if (header) exit
	sent = num(get(1, "sent"))
	valid = num(get(2, "valid"))
	dur = num(get(1, "duration_s"))
	lost = (sent == "NaN" || valid == "NaN") ? "NaN" : sent - valid
	dropped = num(get(2, "dropped"))
	if (dropped != "NaN" && lost != "NaN" && dropped > lost) dropped = lost
	out["asked_pps"] = sprintf("%d", asked)
	out["offered_pps"] = f0(num(get(1, "pps")))
	out["delivered_pps"] = (dur != "NaN" && dur > 0 && valid != "NaN") ? sprintf("%.0f", valid / dur) : "NaN"
	out["delivered_mbps"] = (dur != "NaN" && dur > 0 && valid != "NaN") ? sprintf("%.1f", valid * size * 8 / dur / 1e6) : "NaN"
	out["loss_pct"] = (lost != "NaN" && sent > 0) ? sprintf("%.4g", 100 * lost / sent) : "NaN"
	out["sent"] = f0(sent)
	out["valid"] = f0(valid)
	out["lost"] = f0(lost)
	out["dropped"] = f0(dropped)
	out["elsewhere"] = (lost != "NaN" && dropped != "NaN") ? sprintf("%.0f", lost - dropped) : "NaN"
	out["received"] = f0(num(get(2, "received")))
	out["suck_pps"] = f0(num(get(2, "pps")))
	out["rate_pct"] = get(1, "rate_pct")
	out["gap_p50_us"] = get(1, "gap_p50_us")
	out["gap_p99_us"] = get(1, "gap_p99_us")
	out["gap_max_us"] = get(1, "gap_max_us")
	out["blast_errors"] = get(1, "errors")
	out["suck_stop"] = get(2, "stop")
	out["sent_estimated"] = get(2, "sent_estimated")
	out["blast_duration_s"] = get(1, "duration_s")
	out["suck_cpu_ns_per_pkt"] = get(2, "cpu_ns_per_pkt")
	# suck --latency's delays; "-" (not measured) is NaN here
	out["lat_p50_us"] = num(get(2, "lat_p50_us") == "-" ? "NaN" : get(2, "lat_p50_us"))
	out["lat_p99_us"] = num(get(2, "lat_p99_us") == "-" ? "NaN" : get(2, "lat_p99_us"))
	out["stack_p50_us"] = num(get(2, "stack_p50_us") == "-" ? "NaN" : get(2, "stack_p50_us"))
	out["queue_p50_us"] = num(get(2, "queue_p50_us") == "-" ? "NaN" : get(2, "queue_p50_us"))
	out["rx_kernel_ns_per_pkt"] = num(get(2, "rx_kernel_ns_per_pkt") == "-" ? "NaN" : get(2, "rx_kernel_ns_per_pkt"))
	out["rx_total_ns_per_pkt"] = num(get(2, "rx_total_ns_per_pkt") == "-" ? "NaN" : get(2, "rx_total_ns_per_pkt"))
	# suck --drops' ledger (NaN and "-" without it), and what blast's host dropped after its
	# send calls said yes (its qdiscs' and device's drops, any traffic's)
	out["drops_attributed"] = num(get(2, "drops_attributed") == "-" ? "NaN" : get(2, "drops_attributed"))
	out["unexplained"] = num(get(2, "unexplained") == "-" ? "NaN" : get(2, "unexplained"))
	out["drop_detail"] = get(2, "drop_detail") == "NaN" ? "-" : get(2, "drop_detail")
	q = num(get(1, "qdisc_drops") == "-" ? "NaN" : get(1, "qdisc_drops"))
	d = num(get(1, "tx_dev_dropped") == "-" ? "NaN" : get(1, "tx_dev_dropped"))
	out["sender_drops"] = q == "NaN" || d == "NaN" ? "NaN" : q + d
	for (i = 1; i <= ncol; i++)
		if (col[i] == "attempt" || col[i] ~ /^nois/)
			out[col[i]] = ((3, col[i]) in v) ? v[3, col[i]] : "-"
	line = out[col[1]]
	for (i = 2; i <= ncol; i++) line = line OFS out[col[i]]
	print line
}
function f0(x) { return x == "NaN" ? x : sprintf("%.0f", x) }
