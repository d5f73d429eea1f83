# reproduce-gso.awk: reproduce.tsv of gso-2018 in, reproduce.md out (or with -v dat=1 the ratios
# for the plot); after stats.awk and reproduce-2018.awk. Variables: time, runs (as run), machine,
# cpu (the CPU blast, its receive path and the sink shared), notes (the runs' notes file).
# Every number in the text comes from reproduce.tsv.
END {
	U = "udp"
	G = "udp gso"
	pm_u = pubv(U, "mb_s"); pm_g = pubv(G, "mb_s")
	pc_u = pubv(U, "calls_s"); pc_g = pubv(G, "calls_s")
	pb_u = pubv(U, "bytes_per_call"); pb_g = pubv(G, "bytes_per_call")
	py_u = pubv(U, "cycles"); py_g = pubv(G, "cycles")
	iM = addratio("MB/s, udp gso / udp", "MB/s gso/udp", pm_u > 0 ? pm_g / pm_u : "", G, U, "mb_s")
	iC = addratio("calls/s, udp / udp gso (fewer send calls)", "calls/s udp/gso", pc_g > 0 ? pc_u / pc_g : "", U, G, "calls_s")
	iB = addratio("bytes per call, udp gso / udp", "bytes/call gso/udp", pb_u > 0 ? pb_g / pb_u : "", G, U, "bytes_per_call")
	# Published: cycles per byte, from the cycles over the run and its MB/s (same -l 4 for both);
	# here: blast's CPU seconds per GB.
	iP = addratio("CPU per byte, udp / udp gso (published: cycles over MB/s)", "CPU/byte udp/gso",
		(pm_u > 0 && pm_g > 0 && py_g > 0) ? (py_u / pm_u) / (py_g / pm_g) : "", U, G, "cpu_s_per_gb")
	if (dat) {
		ratio_dat()
		exit
	}

	print "# The 2018 UDP GSO measurement again: one datagram per send call against GSO"
	print ""
	print "Published: Linux commit bec1f6f69736 \"udp: generate gso with UDP_SEGMENT\" (Willem de Bruijn, 2018):" \
		" udpgso_bench_tx sending 1472-byte datagrams, one per sendto (udp) or 42 per GSO message (udp gso)," \
		" measured with perf stat -a on one core that ran both the benchmark and the network receive path, for 4 s" \
		" (results/published/udp-gso-2018.tsv)." \
		" Here: blast -s 1472 -b 1 -g 1 (udp) and blast -s 1472 -g 42 -b 1 (udp gso) to 127.0.0.1, for " time " s, " runs " run(s) each in rounds," \
		" blast, its receive path (on 127.0.0.1 it runs in blast's send call) and a socket nobody reads (bare sink) all on CPU " cpu "; " machine "." \
		" MB/s is 2^20 bytes per second and msg/s counts 61824-byte messages (42 x 1472) in both rows, as udpgso_bench_tx prints them;" \
		" CPU s per GB is blast's user + system time over the bytes it sent (10^9 bytes), the analog of the published equal cycles on one saturated core."
	print ""
	print "## udp and udp gso: 2018 beside here"
	print ""
	print "| | MB/s (2018) | msg/s (2018) | calls/s (2018) | bytes per call (2018) | cycles (2018) | MB/s (here) | msg/s (here) | calls/s (here) | bytes per call (here) | CPU s per GB (here) | CPU busy % (here) |"
	print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	rows[1] = U
	rows[2] = G
	for (j = 1; j <= 2; j++) {
		r = rows[j]
		print "| " r " | " f0(pubv(r, "mb_s")) " | " f0(pubv(r, "msg_s")) " | " f0(pubv(r, "calls_s")) " | " f0(pubv(r, "bytes_per_call")) " | " f0(pubv(r, "cycles")) \
			" | " med("here", r, "mb_s", "%.0f") " | " med("here", r, "msg_s", "%.0f") " | " med("here", r, "calls_s", "%.0f") " | " med("here", r, "bytes_per_call", "%.0f") \
			" | " med("here", r, "cpu_s_per_gb", "%.3f") " | " med("here", r, "cpu_pct", "%.0f") " |"
	}
	middle_sections()
	print "| row | run | sender | s | MB/s | msg/s | calls/s | bytes per call | CPU s | CPU busy % | CPU s per GB |"
	print "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	for (j = 1; j <= 2; j++) {
		r = rows[j]
		for (i = 1; i <= n["here", r]; i++)
			print "| " r " | " val["here", r, i, "run"] " | " val["here", r, i, "how"] " | " val["here", r, i, "duration_s"] " | " val["here", r, i, "mb_s"] \
				" | " val["here", r, i, "msg_s"] " | " val["here", r, i, "calls_s"] " | " trim(val["here", r, i, "bytes_per_call"]) " | " val["here", r, i, "cpu_s"] \
				" | " val["here", r, i, "cpu_pct"] " | " val["here", r, i, "cpu_s_per_gb"] " |"
	}

	print ""
	print "## What the comparison shows"
	print ""
	p = sprintf("Published, on one core: GSO moved %sx the bytes per second of one datagram per send call (%s against %s MB/s) in %sx fewer calls (%s against %s calls/s), for the same cycles (%s and %s over the run), so %sx fewer cycles per byte. ",
		fx(rpub[iM]), pm_g, pm_u, fx(rpub[iC]), pc_g, pc_u, py_g, py_u, fx(rpub[iP]))
	if (st("here", U, "mb_s") && st("here", G, "mb_s")) {
		st("here", U, "mb_s"); hu = M
		st("here", G, "mb_s"); hg = M
		st("here", U, "calls_s"); cu = M
		st("here", G, "calls_s"); cg = M
		st("here", U, "cpu_s_per_gb"); eu = M
		st("here", G, "cpu_s_per_gb"); eg = M
		p = p sprintf("Here (medians) GSO moved %.0f against %.0f MB/s in %.0f against %.0f calls/s, and blast spent %.3f against %.3f CPU s per GB. ",
			hg, hu, cg, cu, eg, eu)
		p = p rsentence(iM, "Bytes per second, GSO over one datagram per call:")
		p = p rsentence(iC, "Send calls saved, calls/s without GSO over with it:")
		p = p rsentence(iP, "CPU per byte, without GSO over with it:")
		p = p rtied(iB, iM, iC)
		# Was the one CPU saturated? Then MB/s stands for work per cycle, as in the commit.
		lo = 100; hi = 0; k = 0
		for (j = 1; j <= 2; j++)
			for (i = 1; i <= n["here", rows[j]]; i++)
				if (isnum(x = val["here", rows[j], i, "cpu_pct"])) {
					k++
					if (x + 0 < lo) lo = x + 0
					if (x + 0 > hi) hi = x + 0
				}
		if (k && lo >= 90)
			p = p sprintf("blast kept its CPU %s..%s %% busy in every run (user + system over its run time), so, as in the commit, the bytes per second are the work one saturated core did. ", lo, hi)
		else if (k)
			p = p sprintf("blast's CPU was %s..%s %% busy (user + system over its run time), not saturated in every run (the receive path's softirq time may be counted elsewhere, or blast waited): read CPU per byte rather than bytes per second. ", lo, hi)
	} else
		p = p "Here one of the two rows has no run to compare: see the notes. "
	if (st("here", U, "bytes_per_call") && (bu = trim(M)) + 0 > 0 && st("here", G, "bytes_per_call"))
		p = p sprintf("Bytes per call were %s and %s here, %g and %g datagrams of 1472 bytes; the commit message rounds them to %s and %s.",
			bu, trim(M), bu / 1472, trim(M) / 1472, pb_u, pb_g)
	sub(/ $/, "", p)
	print p
	notes_list()
}
