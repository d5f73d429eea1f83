# reproduce-ceilings.awk: reproduce.tsv of ceilings (lib/ceilings.sh) in, reproduce.md out; with
# -v dat=1 the plot's data instead (rung, median Mfps, least, most; NaN where it has no run).
# Run after stats.awk. Variables: time, runs, machine, notes (the runs' notes file), noise
# (lib/noise.sh's sentence on the runs' noise), size, gso (its GSO segments), dest, rows (the rungs in order), drop (a
# cloudflare-2018 reproduce.tsv, or empty) and dropname (its name to print): the drop ladder's
# xdp rung beside the top rung. Every number in the text comes from reproduce.tsv; the top rung is
# the one with the highest median frames/s, and every fraction is of its figure.
BEGIN { FS = "\t" }
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{
	r = $c["row"]
	k[r]++
	f[r, k[r]] = $c["mfps"]
	sf[r, k[r]] = $c["duration_s"] > 0 ? sprintf("%.4f", $c["sent"] / $c["duration_s"] / 1e6) : 0
	if ($c["sender_ns_per_frame"] != "-") s[r, ++ks[r]] = $c["sender_ns_per_frame"]
	if ($c["napi_ns_per_frame"] != "-") n[r, ++kn[r]] = $c["napi_ns_per_frame"]
	cpct[r] += $c["counted_pct"]
	if ($c["duration_s"] > 0) busy[r] += 100 * $c["napi_cpu_s"] / $c["duration_s"]
	how[r] = $c["how"]
	line[++nl] = $0
}
# med(a, r, m): the median of a[r, 1..m]; lo, hi: its least and most
function med(a, r, m,    i, v) {
	if (!m) { lo = hi = ""; return "" }
	for (i = 1; i <= m; i++) v[i] = a[r, i]
	sortnum(v, m)
	lo = v[1]; hi = v[m]
	return median(v, m)
}
function frac(x, t) { return x != "" && t > 0 ? sprintf("%.2f", x / t) : "-" }
function f3(x) { return x == "" ? "-" : sprintf("%.3f", x) }
function f0(x) { return x == "" ? "-" : sprintf("%.0f", x) }
END {
	nrow = split(rows, R, " ")
	what["sendto"] = "blast -b 1 -g 1: one sendto a datagram"
	what["sendmmsg"] = "blast -b 32 -g 1: sendmmsg of 32"
	what["gso"] = "blast -b 1 -g " gso ": UDP GSO, cut in software before the link"
	what["packet"] = "blast --via packet: PF_PACKET TX ring, qdisc bypassed"
	what["xdp"] = "blast --via xdp: AF_XDP TX ring"
	what["trafgen"] = "netsniff-ng trafgen: PF_PACKET TX ring, qdisc bypassed"
	top = 0
	for (j = 1; j <= nrow; j++) {
		r = R[j]
		M[r] = med(f, r, k[r]); L[r] = lo; H[r] = hi
		SF[r] = med(sf, r, k[r])
		S[r] = med(s, r, ks[r])
		N[r] = med(n, r, kn[r])
		if (k[r] && M[r] > top) { top = M[r]; topname = r }
	}
	if (dat) {
		for (j = 1; j <= nrow; j++) {
			r = R[j]
			printf "%s\t%s\t%s\t%s\n", r, k[r] ? M[r] : "NaN", k[r] ? L[r] : "NaN", k[r] ? H[r] : "NaN"
		}
		exit
	}
	print "# The sending ladder: this machine's ceilings on one sending CPU"
	print ""
	print "No published table: the ceilings of this machine, beside the drop ladder (reproduce cloudflare-2018)." \
		" Each rung sends " size "-byte UDP payloads (" size + 42 "-byte Ethernet frames) as fast as it can from one CPU (CPU 1) to " dest \
		" across a veth pair between two network namespaces; on the receiving veth XDP_DROP in native mode, the cheapest drop there is," \
		" counts them in its NAPI thread pinned to CPU 0. " time " s per run, " runs " run(s) of each rung in rounds; " machine "." \
		" Mfps is the frames counted at the drop over the sender's send window (median, least..most), sent Mfps the sender's own count over it; sender ns is its CPU time per frame" \
		" (blast's cpu_ns_per_pkt; trafgen's user + sys over its frames); NAPI ns the receiving NAPI thread's CPU time per frame counted;" \
		" each also as a fraction of the top rung's; NAPI busy % its CPU time over the window."
	print ""
	print "| rung | how it sends | Mfps (median) | least..most | of the top rung | sent Mfps (median) | % of sent counted | sender ns per frame | of the top's | NAPI ns per frame | of the top's | NAPI busy % |"
	print "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	for (j = 1; j <= nrow; j++) {
		r = R[j]
		if (!k[r]) {
			print "| " r " | " what[r] " | - | - | - | - | - | - | - | - | - | - |"
			continue
		}
		print "| " r " | " what[r] " | " f3(M[r]) " | " sprintf("%.3f..%.3f", L[r], H[r]) " | " frac(M[r], top) " | " f3(SF[r]) " | " sprintf("%.1f", cpct[r] / k[r]) \
			" | " f0(S[r]) " | " frac(S[r], S[topname]) " | " f0(N[r]) " | " frac(N[r], N[topname]) " | " sprintf("%.0f", busy[r] / k[r]) " |"
	}
	print ""
	print "## What the numbers say"
	print ""
	if (!top) {
		print "No rung has a run."
	} else {
		t = sprintf("The top rung is %s at %.3f Mfps", topname, top)
		if (S[topname] != "") t = t sprintf(", %.0f ns of the sender's CPU per frame", S[topname])
		t = t ". "
		b = ""
		for (j = 1; j <= nrow; j++) {
			r = R[j]
			if (!k[r] || r == topname) continue
			b = b (b == "" ? "" : "; ") sprintf("%s %.3f Mfps, %.2f of it (%.0f %% below)", r, M[r], M[r] / top, 100 * (1 - M[r] / top))
			if (S[r] != "" && S[topname] > 0) b = b sprintf(", %.0f ns of the sender's CPU per frame (%.2f x the top's)", S[r], S[r] / S[topname])
		}
		if (b != "") t = t "Below it: " b ". "
		short = ""
		for (j = 1; j <= nrow; j++)
			if (k[R[j]] && cpct[R[j]] / k[R[j]] < 99) short = short (short == "" ? "" : ", ") R[j] sprintf(" %.1f %%", cpct[R[j]] / k[R[j]])
		if (short != "") {
			t = t "The drop counted less than 99 % of what was sent at " short ": the rest was dropped by the sending veth (its tx_dropped) with the receiving veth's ring full, so the rate counted is below the sender's own (sent Mfps)"
			idle = ""
			for (j = 1; j <= nrow; j++)
				if (k[R[j]] && cpct[R[j]] / k[R[j]] < 99 && busy[R[j]] / k[R[j]] < 90) idle = idle (idle == "" ? "" : ", ") R[j] sprintf(" %.0f %%", busy[R[j]] / k[R[j]])
			if (idle != "")
				t = t "; the NAPI thread was busy less than 90 % of the window at " idle ": there the ring filled between its polls, not because the receiving CPU was busy the whole window"
			t = t "."
		} else
			t = t "The drop counted 99 % or more of what was sent at every rung: each rate is the sender's."
		if (drop != "" && size == 32) { # the drop ladder's frame: another size is not beside it
			dk = 0
			while ((getline dl < drop) > 0) {
				split(dl, dv, "\t")
				if (dv[1] == "source") { for (i = 1; i in dv; i++) dc[dv[i]] = i; continue }
				if (dv[dc["source"]] == "here" && dv[dc["row"]] == "xdp" && dv[dc["mpps"]] != "-") dm[++dk] = dv[dc["mpps"]]
			}
			close(drop)
			if (dk) {
				sortnum(dm, dk)
				dmed = median(dm, dk)
				# its xdp rung is blast -g 64 into the same drop: a run of another day, not a third ceiling
				t = t sprintf(" Beside the drop ladder (%s): its xdp rung, blast -g 64 into the same XDP drop, counted %.3f Mpps (median of %d run(s)); the top rung here is %.2f of that.", dropname, dmed, dk, dmed > 0 ? top / dmed : 0)
			}
		}
		print t
	}
	print ""
	print "## The runs"
	print ""
	print "| rung | run | sent by | s | sent | fins | counted | % | veth tx_dropped | Mfps | NAPI CPU s | NAPI ns per frame | sender ns per frame |"
	print "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	for (j = 1; j <= nl; j++) {
		split(line[j], v, "\t")
		print "| " v[c["row"]] " | " v[c["run"]] " | " v[c["how"]] " | " v[c["duration_s"]] " | " v[c["sent"]] " | " v[c["fins"]] " | " v[c["counted"]] \
			" | " v[c["counted_pct"]] " | " v[c["veth_tx_dropped"]] " | " v[c["mfps"]] " | " v[c["napi_cpu_s"]] " | " v[c["napi_ns_per_frame"]] " | " v[c["sender_ns_per_frame"]] " |"
	}
	if (noise != "") {
		print ""
		print "Noise (reproduce.tsv's noise_* columns): " noise
	}
	if (notes != "") {
		nn = 0
		while ((getline t < notes) > 0) {
			if (!nn++) { print ""; print "## Notes"; print "" }
			print "- " t
		}
	}
}
