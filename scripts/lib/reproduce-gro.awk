# reproduce-gro.awk: reproduce.tsv of gro-2018 in, reproduce.md out (or with -v dat=1 the ratios
# for the plot); after stats.awk and reproduce-2018.awk. Variables: time, runs (as run), machine,
# cpu (the pinning), notes (the runs' notes file), wire (1: the runs crossed the veth pair of
# --wire, dest then their address). Every number in the text comes from reproduce.tsv.
END {
	B = "before"
	A = "after"
	if (dest == "")
		dest = "127.0.0.1"
	rows[1] = B
	rows[2] = A
	pm_b = pubv(B, "mb_s"); pm_a = pubv(A, "mb_s")
	pc_b = pubv(B, "calls_s"); pc_a = pubv(A, "calls_s")
	# The message gives MB/s (2^20 bytes) and calls/s: bytes per call follow from the two.
	for (j = 1; j <= 2; j++)
		pbc[rows[j]] = pubv(rows[j], "calls_s") > 0 ? pubv(rows[j], "mb_s") * 1048576 / pubv(rows[j], "calls_s") : ""
	iM = addratio("MB/s, after / before", "MB/s after/before", pm_b > 0 ? pm_a / pm_b : "", A, B, "mb_s")
	iC = addratio("calls/s, before / after (fewer receive calls)", "calls/s before/after", pc_a > 0 ? pc_b / pc_a : "", B, A, "calls_s")
	iB = addratio("bytes per call, after / before (published: derived)", "bytes/call after/before", pbc[B] > 0 ? pbc[A] / pbc[B] : "", A, B, "bytes_per_call")
	if (dat) {
		ratio_dat()
		exit
	}

	print "# The 2018 UDP GRO measurement again: one receive call per datagram against UDP_GRO"
	print ""
	print "Published: Linux commit e20cf8d3f1f7 \"udp: implement GRO for plain UDP sockets\" (Paolo Abeni, 2018), \"Initial benchmark numbers\":" \
		" udp rx MB/s and receive calls/s before the patch and with UDP_GRO on the socket; the message states no setup beyond them (sender, sizes, machine)" \
		" (results/published/udp-gro-2018.tsv)." \
		" Here: blast -s 1472 -g 42 -b 1 (GSO messages of 42 datagrams, as fast as it can) to " dest \
		(wire ? " across a veth pair between two network namespaces (--wire: the messages cut into datagrams before the link, GRO on the receiving device, its NAPI in a kernel thread on suck's CPU)" : "") " for " time " s into suck -m mmsg -b 1 (before: one datagram per receive call)" \
		" and into suck -m gro -b 1 (after: UDP_GRO, one buffer per call, the same recvmmsg of one message), work none, " runs " run(s) each in rounds; " cpu "; " machine "." \
		" MB/s is 2^20 bytes per second over suck's receive window, as udpgso_bench_rx prints it; calls/s are suck's receive system calls (calls) over the same window."
	print ""
	print "## before and after: 2018 beside here"
	print ""
	print "| | MB/s (2018) | calls/s (2018) | bytes per call (2018, derived) | MB/s (here) | calls/s (here) | bytes per call (here) | datagrams per call (here) | received % of sent (here) |"
	print "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	for (j = 1; j <= 2; j++) {
		r = rows[j]
		print "| " r " | " f0(pubv(r, "mb_s")) " | " f0(pubv(r, "calls_s")) " | " f0(pbc[r]) \
			" | " med("here", r, "mb_s", "%.0f") " | " med("here", r, "calls_s", "%.0f") " | " med("here", r, "bytes_per_call", "%.0f") \
			" | " med("here", r, "datagrams_per_call", "%.2f") " | " med("here", r, "received_pct", "%.2f") " |"
	}
	middle_sections()
	print "| row | run | receiver | s | sent | received | received % | dropped | MB/s | calls | idle calls | calls/s | datagrams per call | suck CPU s per GB |"
	print "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	for (j = 1; j <= 2; j++) {
		r = rows[j]
		for (i = 1; i <= n["here", r]; i++) {
			how = val["here", r, i, "how"]
			sub(/ <- .*/, "", how)
			print "| " r " | " val["here", r, i, "run"] " | " how " | " val["here", r, i, "duration_s"] " | " val["here", r, i, "sent"] \
				" | " val["here", r, i, "received"] " | " val["here", r, i, "received_pct"] " | " val["here", r, i, "dropped"] " | " val["here", r, i, "mb_s"] \
				" | " val["here", r, i, "calls"] " | " val["here", r, i, "idle_calls"] " | " val["here", r, i, "calls_s"] " | " val["here", r, i, "datagrams_per_call"] \
				" | " val["here", r, i, "cpu_s_per_gb"] " |"
		}
	}

	print ""
	print "## What the comparison shows"
	print ""
	p = sprintf("Published: with UDP_GRO the receiver took %sx the bytes per second (%s against %s MB/s) in %sx fewer receive calls (%s against %s calls/s), that is about %.0f against %.0f bytes per call. ",
		fx(rpub[iM]), pm_a, pm_b, fx(rpub[iC]), pc_a, pc_b, pbc[A], pbc[B])
	if (st("here", B, "mb_s") && st("here", A, "mb_s")) {
		st("here", B, "mb_s"); hb = M
		st("here", A, "mb_s"); ha = M
		st("here", B, "calls_s"); cb = M
		st("here", A, "calls_s"); ca = M
		st("here", A, "datagrams_per_call"); da = M
		p = p sprintf("Here (medians) suck -m gro -b 1 took %.0f against %.0f MB/s for suck -m mmsg -b 1, in %.0f against %.0f calls/s, %.2f datagrams per call. ",
			ha, hb, ca, cb, da)
		p = p rsentence(iM, "Bytes per second, after over before:")
		p = p rsentence(iC, "Receive calls saved, calls/s before over after:")
		p = p rtied(iB, iM, iC)
		# Did the receivers keep up? A receiver that took everything blast sent was measured at
		# blast's rate, not its own.
		for (j = 1; j <= 2; j++) {
			st("here", rows[j], "received_pct")
			rp[j] = M; rlo_[j] = LO; rhi_[j] = HI
		}
		p = p sprintf("suck received %.1f %% (before) and %.1f %% (after) of what blast sent (medians). ", rp[1], rp[2])
		if (rlo_[1] + 0 < 95 && rlo_[2] + 0 < 95)
			p = p "Neither kept up with blast, so each row measures what that receiver could take, as a receiver of a flood is measured. "
		else if (rlo_[1] + 0 >= 95 && rlo_[2] + 0 >= 95)
			p = p "Both kept up with blast (95 % or more in every run): both rows are blast's rate, not the receivers' limits, and the ratios say little about GRO. "
		else if (rlo_[2] + 0 >= 95)
			p = p "With UDP_GRO suck kept up with blast (95 % or more in every run): the after row is blast's rate, not suck's limit, so the gain here is at least this large. "
		else
			p = p "Without UDP_GRO suck kept up with blast (95 % or more in every run) and with it did not: the before row is blast's rate, not suck's limit. "
	} else
		p = p "Here one of the two rows has no run to compare: see the notes. "
	if (!wire)
		p = p "On 127.0.0.1 no device coalesces datagrams: blast's GSO messages reach the socket whole, and without UDP_GRO the kernel splits each into its 42 datagrams before they are queued. With a network card the GRO engine builds such buffers from datagrams on the wire, at a cost this run does not have; the commit message does not say whether its receiver had one."
	else {
		p = p "On the wire the datagrams cross the link one by one and the receiving device's GRO builds the buffers, as a network card's would: "
		if (st("here", B, "rx_kernel_s_per_gb") && st("here", A, "rx_kernel_s_per_gb")) {
			st("here", B, "rx_kernel_s_per_gb"); kb = M
			st("here", A, "rx_kernel_s_per_gb"); ka = M
			st("here", B, "cpu_s_per_gb"); ub = M
			st("here", A, "cpu_s_per_gb"); ua = M
			p = p sprintf("that kernel work (the NAPI thread) took %.4f s per GB before and %.4f after, beside suck's own %.4f and %.4f, so the whole receive path %.4f against %.4f s per GB (medians; per GB received, and the kernel also did the work of every datagram the full socket dropped).", kb, ka, ub, ua, kb + ub, ka + ua)
		} else
			p = p "its cost was not measured (no NAPI thread was found: see env.txt's wire_refused)."
	}
	print p
	notes_list()
}
