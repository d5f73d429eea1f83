# reproduce-cloudflare.awk: reproduce.tsv of cloudflare-2015 in, reproduce.md out (or with -v dat=1
# the ratios for the plot); after stats.awk and reproduce-2018.awk (-v pubsrc=2015). Variables:
# time, runs (as run), machine, notes (the runs' notes file), wire (1: across the veth pair of
# --wire, dest then their address), size, batch (suck's -b and blast's). Rows: unpinned, pinned
# (suck on CPU 0), sender-cpu (suck on CPU 1, blast's), each behind blast -j 1 on CPU 1; pinned2,
# one-socket, reuseport, behind blast -j 2 (two flows, threads from CPU 1). Every number in the
# text comes from reproduce.tsv.
function mean(s, r, f,    a, k, i, t) {
	k = rvals(s, r, f, a)
	for (i = 1; i <= k; i++)
		t += a[i]
	return k ? t / k : ""
}
# spread(r): max over min of row r's runs here, "" with fewer than two
function spread(r) { return st("here", r, "mpps") > 1 && LO + 0 > 0 ? HI / LO : "" }
END {
	if (dest == "")
		dest = "127.0.0.1"
	nrow = split("unpinned pinned sender-cpu pinned2 one-socket reuseport", R, " ")
	what["unpinned"] = "one thread, not pinned; blast -j 1"
	what["pinned"] = "one thread on CPU 0; blast -j 1"
	what["sender-cpu"] = "one thread on CPU 1, blast's; blast -j 1"
	what["pinned2"] = "one thread on CPU 0; blast -j 2"
	what["one-socket"] = "-j 2 --one-socket: two threads on one socket (CPUs 0, 1); blast -j 2"
	what["reuseport"] = "-j 2: two SO_REUSEPORT sockets, a thread each (CPUs 0, 1); blast -j 2"
	pub["unpinned"] = pubv("unpinned", "mpps"); pub["pinned"] = pubv("pinned", "mpps")
	pub["one-socket"] = pubv("one-socket", "mpps"); pub["reuseport"] = pubv("reuseport", "mpps")
	iP = addratio("Mpps, pinned / unpinned (published: the middles of the ranges)", "pinned/unpinned",
		pub["unpinned"] > 0 ? pub["pinned"] / pub["unpinned"] : "", "pinned", "unpinned", "mpps")
	# where the kernel's receive work runs: in blast's send call on 127.0.0.1 (CPU 1), in the
	# veth's NAPI thread, pinned to CPU 0, on the wire
	if (wire)
		iK = addratio("Mpps, suck on the CPU of the kernel's receive work (the NAPI thread's, 0) / on the other (1, blast's)", "rx CPU/other",
			"", "pinned", "sender-cpu", "mpps")
	else
		iK = addratio("Mpps, suck on the CPU of the kernel's receive work (1: blast's send call) / on the other (0)", "rx CPU/other",
			"", "sender-cpu", "pinned", "mpps")
	iO = addratio("Mpps, one socket read by two threads / one thread (published: two threads against one pinned)", "one-socket/one",
		pub["pinned"] > 0 ? pub["one-socket"] / pub["pinned"] : "", "one-socket", "pinned2", "mpps")
	iR = addratio("Mpps, two SO_REUSEPORT sockets / one socket read by two threads (published: four processes, not like for like)", "reuseport/one-socket",
		"", "reuseport", "one-socket", "mpps")
	if (dat) {
		ratio_dat()
		exit
	}

	path = wire ? " across a veth pair between two network namespaces (--wire: the receiving NAPI in a kernel thread pinned to CPU 0, counted)" : ""
	print "# Cloudflare's million packets per second (2015) again, on two CPUs"
	print ""
	print "Published: Marek Majkowski, \"How to receive a million packets per second\", Cloudflare blog, June 2015: two hosts of 24 CPUs (two six-core Xeons," \
		" hyper-threaded), a multi-queue 10G NIC, 32-byte UDP payloads, sendmmsg and recvmmsg of 1024 messages (majek/dump's udpsender and udpreceiver);" \
		" the receiver's millions of packets per second, as ranges over runs (results/published/cloudflare-2015.tsv)." \
		" Here: one machine, blast -s " size " -b " batch " -g 1 (sendmmsg of " batch " datagrams, as fast as it can) to " dest path " for " time " s," \
		" into suck -m mmsg -b " batch " -s " size " (recvmmsg of up to " batch "), work none; blast's flow threads pinned from CPU 1" \
		" (with -j 2 the second on CPU 0); " runs " run(s) of each row in rounds; " machine "." \
		" Mpps is suck's datagrams per second over its receive window; mean, and the least and most, over the runs."
	print ""
	print "## The receiver's rows: 2015 beside here"
	print ""
	print "| row | receiver here | Mpps (2015) | Mpps mean (here) | least..most (here) | most / least (here) | received % of sent (here) | suck CPU ns per datagram (here) | one thread's share, least..most (here) |"
	print "|---|---|---:|---:|---:|---:|---:|---:|---:|"
	for (j = 1; j <= nrow; j++) {
		r = R[j]
		pr = n[pubsrc, r] ? (pubv(r, "mpps_lo") == pubv(r, "mpps_hi") ? "~" pubv(r, "mpps_lo") : pubv(r, "mpps_lo") "-" pubv(r, "mpps_hi")) : "-"
		if (r == "reuseport" && pr != "-")
			pr = pr " (4 processes)"
		mm = mean("here", r, "mpps")
		rng = st("here", r, "mpps") ? sprintf("%.3f..%.3f", LO, HI) : "-"
		sp = spread(r)
		sh = "-"
		if (st("here", r, "thread_received_min") && val["here", r, 1, "threads"] > 1) {
			lo = mean("here", r, "thread_received_min"); hi = mean("here", r, "thread_received_max")
			sh = lo + hi > 0 ? sprintf("%.0f..%.0f %%", 100 * lo / (lo + hi), 100 * hi / (lo + hi)) : "-"
		}
		print "| " r " | " what[r] " | " pr " | " (mm == "" ? "-" : sprintf("%.3f", mm)) " | " rng " | " (sp == "" ? "-" : sprintf("%.2f", sp)) \
			" | " med("here", r, "received_pct", "%.2f") " | " med("here", r, "cpu_ns_per_pkt", "%.0f") " | " sh " |"
	}
	middle_sections()
	print "| row | run | how | s | sent | received | received % | dropped | Mpps | suck CPU ns per datagram | kernel rx ns per datagram | threads' received, least / most |"
	print "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	for (j = 1; j <= nrow; j++) {
		r = R[j]
		for (i = 1; i <= n["here", r]; i++)
			print "| " r " | " val["here", r, i, "run"] " | " val["here", r, i, "how"] " | " val["here", r, i, "duration_s"] " | " val["here", r, i, "sent"] \
				" | " val["here", r, i, "received"] " | " val["here", r, i, "received_pct"] " | " val["here", r, i, "dropped"] " | " val["here", r, i, "mpps"] \
				" | " val["here", r, i, "cpu_ns_per_pkt"] " | " (val["here", r, i, "rx_kernel_ns_per_pkt"] == "" ? "-" : val["here", r, i, "rx_kernel_ns_per_pkt"]) \
				" | " val["here", r, i, "thread_received_min"] " / " val["here", r, i, "thread_received_max"] " |"
	}

	print ""
	print "## What the comparison shows"
	print ""
	pu = pubv("unpinned", "mpps_lo") "-" pubv("unpinned", "mpps_hi")
	p = sprintf("Published: one receiver thread took %s Mpps unpinned (the most %sx the least) and about %s pinned; two threads on one socket %s-%s Mpps, which the post puts down to lock contention on the socket; four SO_REUSEPORT processes %s-%s, %sx the two threads. ",
		pu, fx(pubv("unpinned", "mpps_hi") / pubv("unpinned", "mpps_lo")), pubv("pinned", "mpps_lo"), pubv("one-socket", "mpps_lo"), pubv("one-socket", "mpps_hi"),
		pubv("reuseport", "mpps_lo"), pubv("reuseport", "mpps_hi"), fx(pub["reuseport"] / pub["one-socket"]))
	if (st("here", "unpinned", "mpps") && st("here", "pinned", "mpps")) {
		p = p sprintf("Here one thread took %.3f Mpps unpinned and %.3f pinned on CPU 0 (means). ", mean("here", "unpinned", "mpps"), mean("here", "pinned", "mpps"))
		p = p rsentence(iP, "Pinned over unpinned:")
		su = spread("unpinned"); sq = spread("pinned")
		if (su != "" && sq != "")
			p = p sprintf("The runs unpinned spread over %sx (most over least), pinned %sx: %s. ", fx(su), fx(sq),
				su > sq * 1.05 ? "pinning steadied the rate, as published" : su * 1.05 < sq ? "pinning did not steady the rate here" : "the spreads are alike here")
	} else
		p = p "Here the one-thread rows have no runs to compare: see the notes. "
	p = p rnopub(iK, wire ? "suck on the NAPI thread's CPU over suck on blast's:" : "suck on blast's CPU, where the receive path runs inside blast's send call, over suck on the other:", "above 1", "below 1")
	p = p rsentence(iO, "One socket read by two threads over one thread, both behind two flows:")
	p = p rnopub(iR, "Two SO_REUSEPORT sockets over one socket read by two threads:", "above 1", "below 1")
	if (st("here", "one-socket", "thread_received_min") && mean("here", "one-socket", "thread_received_max") > 0)
		p = p sprintf("On the one socket the busier thread took %.0f %% of the datagrams (mean over the runs), the kernel handing each receive call whatever was queued. ",
			100 * mean("here", "one-socket", "thread_received_max") / (mean("here", "one-socket", "thread_received_min") + mean("here", "one-socket", "thread_received_max")))
	# A receiver that took everything blast sent was measured at blast's rate, not its own.
	kept = ""
	for (j = 1; j <= nrow; j++)
		if (st("here", R[j], "received_pct") && LO + 0 >= 95)
			kept = kept (kept == "" ? "" : ", ") R[j]
	if (kept != "")
		p = p "In " kept " suck took 95 % or more of what blast sent in every run: there the figure is blast's rate, not suck's limit, and a ratio with it says less about the receiver. "
	p = p "Multi-queue RSS does not survive on two CPUs: the post's four processes gained because the NIC spread the flows over 11 receive queues, each with its softirq on a CPU of its own, so the kernel's receive path itself ran in parallel; " \
		(wire ? "the veth pair here has one receive queue and one NAPI thread, pinned to CPU 0, " : "on 127.0.0.1 there is no receive queue (the receive path runs inside each sender's send call) ") \
		"and two CPUs hold the sender, the kernel's receive work and suck alike, so a SO_REUSEPORT gain here is the receiver's own work in parallel, not the receive path's."
	print p
	notes_list()
}
