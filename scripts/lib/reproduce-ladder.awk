# reproduce-ladder.awk: reproduce.tsv of cloudflare-2018 (lib/ladder-tsv.awk) in, reproduce.md out;
# with -v dat=1 the plot's data instead (row, the published Mpps three times, here's mean, least
# and most; NaN where there is none). Variables: time, runs, machine, notes (the runs' notes
# file), noise (lib/noise.sh's sentence on the runs' noise), size, batch (suck's), gso (blast's),
# dest. Every number in the text comes from
# reproduce.tsv; the top rung is xdp (the earliest point), or the fastest row when xdp has no run.
BEGIN { FS = "\t" }
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
$c["source"] == "2018" { pub[$c["row"]] = $c["mpps"]; point[$c["row"]] = $c["how"]; next }
$c["source"] == "here" {
	r = $c["row"]
	if (!(r in k))
		order[++nr] = r
	k[r]++
	m = $c["mpps"] + 0
	sum[r] += m
	if (k[r] == 1 || m < lo[r]) lo[r] = m
	if (k[r] == 1 || m > hi[r]) hi[r] = m
	if ($c["napi_ns_per_pkt"] != "-") { nsum[r] += $c["napi_ns_per_pkt"]; nk[r]++ }
	psum[r] += $c["counted_pct"]
	if ($c["duration_s"] > 0) bsum[r] += 100 * $c["napi_cpu_s"] / $c["duration_s"]
	how[r] = $c["how"]
	line[++nl] = $0
}
function mean(r) { return k[r] ? sum[r] / k[r] : "" }
function ns(r) { return nk[r] ? nsum[r] / nk[r] : "" }
function f3(x) { return x == "" ? "-" : sprintf("%.3f", x) }
function f0(x) { return x == "" ? "-" : sprintf("%.0f", x) }
function frac(r) { return top > 0 && k[r] ? mean(r) / top : "" }
# busy(r): the NAPI thread's CPU time as a share of the send window, %, mean over the runs
function busy(r) { return k[r] ? bsum[r] / k[r] : "" }
END {
	nlad = split("xdp tc nft-raw nft-input-ct nft-input-notrack nft-input sockfilter unread app-mmsg app-buffer", L, " ")
	what["xdp"] = "XDP_DROP, native mode on the receiving veth"
	what["tc"] = "tc clsact ingress, cls_bpf direct-action TC_ACT_SHOT"
	what["nft-raw"] = "nftables prerouting chain at raw priority (before conntrack)"
	what["nft-input-ct"] = "nftables input filter chain, conntrack on"
	what["nft-input-notrack"] = "nftables input filter chain, notrack in raw prerouting"
	what["nft-input"] = "nftables input filter chain, no conntrack"
	what["sockfilter"] = "socket filter \"ret #0\" (SO_ATTACH_FILTER)"
	what["unread"] = "bound socket nobody reads (buffer full)"
	what["app-mmsg"] = "suck -m mmsg -b " batch " receives them all"
	what["app-buffer"] = "suck -m buffer: one recvfrom a datagram"
	top = k["xdp"] ? mean("xdp") : 0
	topname = "xdp"
	if (!top)
		for (j = 1; j <= nr; j++)
			if (mean(order[j]) > top) { top = mean(order[j]); topname = order[j] }
	if (dat) {
		for (j = 1; j <= nlad; j++) {
			r = L[j]
			p = (r in pub) && pub[r] != "-" ? pub[r] : "NaN"
			printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r, p, p, p, k[r] ? mean(r) : "NaN", k[r] ? lo[r] : "NaN", k[r] ? hi[r] : "NaN"
		}
		exit
	}
	npub = 0
	pubrows = ""
	for (j = 1; j <= nlad; j++)
		if ((L[j] in pub) && pub[L[j]] != "-") { npub++; pubrows = pubrows (pubrows == "" ? "" : ", ") L[j] " " pub[L[j]] " Mpps" }
	print "# Cloudflare's drop ladder (2018) again, on one receiving CPU"
	print ""
	print "Published: Marek Majkowski, \"How to drop 10 million packets per second\", Cloudflare blog, July 2018: about 14 Mpps of tiny UDP packets," \
		" random sources, steered onto one receive queue and one CPU, dropped at each layer in turn (results/published/cloudflare-2018.tsv;" \
		" " (npub ? "figures read: " pubrows "; the others were not available offline: -" : "its figures were not available offline: the published column is -") ")." \
		" Here: blast -s " size " -b 1 -g " gso " (GSO messages of " gso " datagrams cut before the link: the fastest blast sends; as fast as it can, pinned to CPU 1) to " dest \
		" across a veth pair between two network namespaces, the receiving veth's NAPI in a kernel thread pinned to CPU 0: the one receiving CPU;" \
		" " time " s per run, " runs " run(s) of each row in rounds; " machine "." \
		" Mpps is the datagrams counted at the row's point over blast's send window; NAPI ns is the NAPI thread's CPU time (/proc/PID/schedstat) over them."
	print ""
	print "| row | drop point | Mpps (2018) | Mpps mean (here) | least..most | of the top rung | % of sent counted | NAPI ns per datagram | NAPI busy % | counted by |"
	print "|---|---|---:|---:|---:|---:|---:|---:|---:|---|"
	for (j = 1; j <= nlad; j++) {
		r = L[j]
		fr = frac(r)
		print "| " r " | " what[r] " | " ((r in pub) ? pub[r] : "-") " | " f3(mean(r)) " | " (k[r] ? sprintf("%.3f..%.3f", lo[r], hi[r]) : "-") \
			" | " (fr == "" ? "-" : sprintf("%.2f", fr)) " | " (k[r] ? sprintf("%.1f", psum[r] / k[r]) : "-")  " | " f0(ns(r)) " | " f0(busy(r)) " | " (k[r] ? how[r] : "no run") " |"
	}
	print ""
	print "## What the numbers say"
	print ""
	# the rule: each step down the ladder against the one above; conntrack's cost; the sender's bound
	s = ""
	if (top > 0 && k["app-mmsg"])
		s = s sprintf("The application (app-mmsg) took %.3f Mpps, %.2f of the top rung (%s, %.3f Mpps). ", mean("app-mmsg"), frac("app-mmsg"), topname, top)
	down = up = ""
	prev = ""
	for (j = 1; j <= nlad; j++) {
		r = L[j]
		if (!k[r])
			continue
		if (prev != "") {
			if (mean(r) < mean(prev)) down = down (down == "" ? "" : ", ") prev " > " r
			else up = up (up == "" ? "" : ", ") prev " <= " r
		}
		prev = r
	}
	if (down != "" || up != "")
		s = s "Down the ladder, a later point dropped fewer here at " (down == "" ? "no step" : down) "; as many or more at " (up == "" ? "no step" : up) ". "
	if (k["nft-input-ct"] && k["nft-input"] && mean("nft-input") > 0) {
		s = s sprintf("Conntrack on took the input drop to %.2f of its rate without conntrack", mean("nft-input-ct") / mean("nft-input"))
		if (ns("nft-input-ct") != "" && ns("nft-input") != "")
			s = s sprintf(" (%+.0f ns of the NAPI thread per datagram)", ns("nft-input-ct") - ns("nft-input"))
		if (k["nft-input-notrack"])
			s = s sprintf("; notrack in raw prerouting gave %.2f", mean("nft-input-notrack") / mean("nft-input"))
		s = s ". "
	}
	# beside the post: each published row as a fraction of the post's XDP_DROP, against here's
	if (top > 0 && topname == "xdp" && ("xdp" in pub) && pub["xdp"] + 0 > 0) {
		t = ""
		for (j = 2; j <= nlad; j++)
			if ((L[j] in pub) && pub[L[j]] != "-" && k[L[j]])
				t = t (t == "" ? "" : "; ") sprintf("%s %.2f of it there, %.2f here", L[j], pub[L[j]] / pub["xdp"], frac(L[j]))
		s = s sprintf("The post's XDP_DROP took %s Mpps on one CPU, %.1f times the %.3f here", pub["xdp"], pub["xdp"] / top, top)
		s = s (t == "" ? ". " : "; against that top rung, " t ". ")
	}
	# a rung measures the receiving CPU only where its NAPI thread was busy the whole window
	idle = ""
	for (j = 1; j <= nlad; j++)
		if (k[L[j]] && busy(L[j]) < 90)
			idle = idle (idle == "" ? "" : ", ") L[j] sprintf(" %.0f %%", busy(L[j]))
	if (idle != "")
		s = s "The NAPI thread was busy less than 90 % of the send window at " idle ": there the receiving CPU had time to spare, and the rate is a floor of what that point can drop, set by something else (the sender, or other work on the CPU). "
	else if (nr)
		s = s "The NAPI thread was busy 90 % or more of the send window in every row: each rate is what its point takes on one CPU. "
	print (s == "" ? "No row has a run." : s)
	print ""
	print "## Not re-made here"
	print ""
	print "- Several receive queues (RSS) and hardware flow steering (ethtool -N onto one queue): a veth has one receive queue and no steering; here one queue and one CPU hold by construction."
	print "- The post's random source addresses and ports: blast sends one flow. With the drop at input conntrack makes an entry per datagram either way (an entry dropped before it is confirmed is thrown away), but conntrack's table is not filled as with random sources."
	print "- A NIC's line rate (14 Mpps on 10 Gb/s), which keeps the receiving CPU busy however slow the rung: the flood here is blast on the other CPU, and a datagram waiting in the veth's ring stays charged to blast's socket buffer (the veth keeps the sender's socket on the packet), so a slow rung slows blast more than it fills the ring. The NAPI busy % column says how much of the window the receiving CPU worked; below 100 the rate is a floor."
	print "- XDP in a NIC's driver: veth's native XDP runs in its NAPI poll, after the sender's veth transmit, without a DMA ring or page recycling."
	print ""
	print "## The runs"
	print ""
	print "| row | run | counted by | s | sent | counted | % | Mpps | NAPI CPU s | NAPI ns per datagram |"
	print "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|"
	for (j = 1; j <= nl; j++) {
		split(line[j], f, "\t")
		print "| " f[c["row"]] " | " f[c["run"]] " | " f[c["how"]] " | " f[c["duration_s"]] " | " f[c["sent"]] " | " f[c["counted"]] " | " f[c["counted_pct"]] " | " f[c["mpps"]] " | " f[c["napi_cpu_s"]] " | " f[c["napi_ns_per_pkt"]] " |"
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
