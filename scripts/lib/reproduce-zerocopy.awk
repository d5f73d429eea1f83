# reproduce-zerocopy.awk: reproduce.tsv of zerocopy in, reproduce.md out (or with -v dat=1 the
# ratios for the plot); after stats.awk and reproduce-2018.awk (-v pubsrc=2021-2024). Variables:
# time, runs (as run), machine, cpu (the pinning), notes (the runs' notes file), wire (1: across
# the veth pair of --wire, dest then its IPv4 address, mtu its MTU), size (the control's datagram size). Rows:
# copy-4, zc-4, copy-6, zc-6 (blast -g 1 -b 1 without and with --zerocopy into suck on this host,
# IPv4 and IPv6: the negative control) and, when the send-only sink was measured, sink-copy-S and
# sink-zc-S by size S (the positive case). Every ratio is blast's datagrams per second, written as
# a gain the way reproduce-2018.awk wants it: copy over zero copy in the control (where the
# published zero copy lost), zero copy over copy into the sink. Every number in the text comes
# from reproduce.tsv.

# total(r, f): column f of row r here, added over the runs.
function total(r, f,    a, k, i, t) {
	k = rvals("here", r, f, a)
	for (i = 1; i <= k; i++)
		t += a[i]
	return t + 0
}
# copied(r): "all N" when every completion of row r's runs was copied, "none of N" when none
# was, else "C of N".
function copied(r,    c, m) {
	c = total(r, "zc_copied")
	m = total(r, "zc_completions")
	return c == m ? "all " m : c == 0 ? "none of " m : c " of " m
}
function pair(r1, r2, f, fmt) { return med("here", r1, f, fmt) " / " med("here", r2, f, fmt) }
END {
	if (dest == "")
		dest = "127.0.0.1"
	path = wire ? "across the veth pair of --wire (MTU " mtu "), between two network namespaces of this host" : "on this host's loopback"
	fam["4"] = "IPv4"
	fam["6"] = "IPv6"
	for (q = 4; q <= 6; q += 2) {
		pr = pubv("zc-" q, "pub_ratio")
		ic[q] = addratio("datagrams/s, copy / zero copy, " fam[q] " (" (wire ? "the wire" : "loopback") "; published: over veth)", "copy/zc " fam[q],
			isnum(pr) && pr > 0 ? sprintf("%.3f", 1 / pr) : "", "copy-" q, "zc-" q, "pps")
	}
	# what reached suck: a sender that skips the copy may only have moved it to the receive end
	for (q = 4; q <= 6; q += 2)
		id[q] = addratio("datagrams/s received by suck, copy / zero copy, " fam[q] " (no published counterpart)", "rx copy/zc " fam[q], "",
			"copy-" q, "zc-" q, "received_pps")
	# the sink's sizes, in the order measured
	ns = 0
	split("600 1200 4000 8000 16000 32000 65435", S, " ")
	for (j = 1; j <= 7; j++)
		if (n["here", "sink-zc-" S[j]] || n["here", "sink-copy-" S[j]]) {
			sz[++ns] = S[j]
			is[ns] = addratio("datagrams/s into the sink, zero copy / copy, " S[j] " B", "sink " S[j] " B", pubv("sink-zc-" S[j], "pub_ratio"),
				"sink-zc-" S[j], "sink-copy-" S[j], "pps")
		}
	if (dat) {
		ratio_dat()
		exit
	}

	print "# UDP MSG_ZEROCOPY again: a negative control and a positive case"
	print ""
	print "Published (results/published/zerocopy.tsv): the negative control, the kernel's netdev CI in July 2024 (selftest msg_zerocopy.sh: the msg_zerocopy tool" \
		" over a veth pair between two network namespaces, UDP datagrams of about 64 KB, one a send call): " pubv("zc-4", "pub_copy") " datagrams copied against " \
		pubv("zc-4", "pub_zc") " with MSG_ZEROCOPY over IPv4, " pubv("zc-6", "pub_copy") " against " pubv("zc-6", "pub_zc") " over IPv6, every completion" \
		" \"copied\": the kernel copies what it delivers on the host. The positive case, Pavel Begunkov's io_uring zero-copy series into a dummy device" \
		" (nothing receives): 65435-byte datagrams at " pubv("sink-zc-65435", "pub_copy") " MB/s copied against " pubv("sink-zc-65435", "pub_zc") \
		" with MSG_ZEROCOPY (RFC, November 2021), and by size (v5, July 2022, io_uring's send against its zero-copy send) 600 B at " \
		pubv("sink-zc-600", "pub_copy") " against " pubv("sink-zc-600", "pub_zc") " requests/s, 1200 B +14 %, 4000 B +25 %, 8000 B +84 %; the kernel's" \
		" documentation puts the break-even at writes of about 10 KB." \
		" Here: blast -s " size " -g 1 -b 1 (one datagram a send call, as msg_zerocopy sends) without and with --zerocopy to " dest " and its IPv6 twin, " path "," \
		" into suck -m mmsg -b 64 -s 65535, work none; " (ns ? "into the send-only sink (a veth without carrier in a namespace of its own, MTU 65535, every datagram dropped at its qdisc)" \
		" blast -s S -g 1 -b 1 for S = " sz[1] " .. " sz[ns] " B; " : "") "for " time " s, " runs " run(s) of each row in rounds; " cpu "; " machine "." \
		" Every figure is blast's: datagrams per second and MB/s over its send window, its CPU per datagram."
	print ""
	print "## The negative control: zero copy to a receiver on this host"
	print ""
	print "| family | copy (2024) | zero copy (2024) | zero copy / copy (2024) | blast pkts/s copy (here) | blast pkts/s zero copy (here) | zero copy / copy (here) | completions copied by the kernel (here) | suck received % of sent, copy / zero copy (here) | blast CPU ns per datagram, copy / zero copy (here) |"
	print "|---|---:|---:|---:|---:|---:|---:|---|---:|---:|"
	for (q = 4; q <= 6; q += 2)
		print "| " fam[q] " | " pubv("zc-" q, "pub_copy") " | " pubv("zc-" q, "pub_zc") " | " pubv("zc-" q, "pub_ratio") " | " med("here", "copy-" q, "pps", "%.0f") \
			" | " med("here", "zc-" q, "pps", "%.0f") " | " (rest[ic[q]] == "" ? "-" : fx(1 / rest[ic[q]])) " | " copied("zc-" q) \
			" | " pair("copy-" q, "zc-" q, "received_pct", "%.2f") " | " pair("copy-" q, "zc-" q, "cpu_ns_per_pkt", "%.0f") " |"
	print ""
	print "## The positive case: into the send-only sink, by size"
	print ""
	if (!ns)
		print "Not measured in this run: the sweep into the send-only sink needs --sink (root; scripts/reproduce zerocopy --sink)."
	else {
		print "| bytes | zero copy / copy (published) | blast pkts/s copy (here) | blast pkts/s zero copy (here) | MB/s copy (here) | MB/s zero copy (here) | zero copy / copy (here) | interval over the runs (here) | completions copied by the kernel (here) | blast CPU ns per datagram, copy / zero copy (here) |"
		print "|---:|---:|---:|---:|---:|---:|---:|---|---|---:|"
		for (j = 1; j <= ns; j++) {
			s = sz[j]
			pp = pubv("sink-zc-" s, "pub_ratio")
			print "| " s " | " (isnum(pp) ? fx(pp) : "-") " | " med("here", "sink-copy-" s, "pps", "%.0f") " | " med("here", "sink-zc-" s, "pps", "%.0f") \
				" | " med("here", "sink-copy-" s, "mbytes_s", "%.0f") " | " med("here", "sink-zc-" s, "mbytes_s", "%.0f") " | " (rest[is[j]] == "" ? "-" : fx(rest[is[j]])) \
				" | " rinterval(is[j]) " | " copied("sink-zc-" s) " | " pair("sink-copy-" s, "sink-zc-" s, "cpu_ns_per_pkt", "%.0f") " |"
		}
	}
	middle_sections()
	print "| row | run | how | s | sent | pkts/s | MB/s | blast CPU ns per datagram | suck received % | zc sends | completions | copied | ENOBUFS |"
	print "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	nr_all = split("copy-4 zc-4 copy-6 zc-6", RR, " ")
	for (j = 1; j <= ns; j++) {
		RR[++nr_all] = "sink-copy-" sz[j]
		RR[++nr_all] = "sink-zc-" sz[j]
	}
	for (j = 1; j <= nr_all; j++) {
		r = RR[j]
		for (i = 1; i <= n["here", r]; i++)
			print "| " r " | " val["here", r, i, "run"] " | " val["here", r, i, "how"] " | " val["here", r, i, "duration_s"] " | " val["here", r, i, "sent"] \
				" | " val["here", r, i, "pps"] " | " val["here", r, i, "mbytes_s"] " | " val["here", r, i, "cpu_ns_per_pkt"] \
				" | " (val["here", r, i, "received_pct"] == "" ? "-" : val["here", r, i, "received_pct"]) " | " val["here", r, i, "zc_sends"] \
				" | " val["here", r, i, "zc_completions"] " | " val["here", r, i, "zc_copied"] " | " val["here", r, i, "zc_enobufs"] " |"
	}

	print ""
	print "## What the comparison shows"
	print ""
	p = ""
	for (q = 4; q <= 6; q += 2) {
		if (!st("here", "zc-" q, "pps") || !st("here", "copy-" q, "pps")) {
			p = p fam[q] " " path ": not measured (see the notes). "
			continue
		}
		p = p sprintf("%s %s: blast sent %.0f datagrams per second copied and %.0f with --zerocopy (medians), zero copy %sx the copy against %sx in the netdev CI. ",
			fam[q], path, med("here", "copy-" q, "pps", "%.0f"), med("here", "zc-" q, "pps", "%.0f"), fx(1 / rest[ic[q]]), pubv("zc-" q, "pub_ratio"))
		p = p rsentence(ic[q], "Copy over zero copy, " fam[q] ":")
		if (st("here", "zc-" q, "received_pct") && st("here", "copy-" q, "received_pct")) {
			p = p sprintf("suck received %s %% of what blast sent copied and %s %% with zero copy (medians), %.0f and %.0f datagrams per second; ",
				med("here", "copy-" q, "received_pct", "%.1f"), med("here", "zc-" q, "received_pct", "%.1f"),
				med("here", "copy-" q, "received_pps", "%.0f"), med("here", "zc-" q, "received_pps", "%.0f"))
			p = p rnopub(id[q], "received, copy over zero copy:", "so zero copy delivered less", "so zero copy delivered more")
			if (med("here", "zc-" q, "received_pct", "%.1f") + 10 < med("here", "copy-" q, "received_pct", "%.1f") + 0)
				p = p "The sender's gain is no gain of the pair: the kernel copies a zero-copy datagram where it delivers it, on the CPU that receives (" \
					(wire ? "the veth's NAPI thread, CPU 0, suck's" : "here the sender's own, inside its send call") "), so the copy moved from the sender to the receive end rather than going away, and the receive end took less. "
		}
	}
	# the kernel's word on each completion: every one copied, as published
	zc = zm = 0
	for (q = 4; q <= 6; q += 2) {
		zc += total("zc-" q, "zc_copied")
		zm += total("zc-" q, "zc_completions")
	}
	if (zm > 0)
		p = p (zc == zm ? sprintf("The kernel marked every one of the %d completions of the control's zero-copy runs copied (SO_EE_CODE_ZEROCOPY_COPIED), as the netdev CI found: a datagram delivered on this host is copied at delivery, so zero copy adds the pinning and the completions to the copy it did not avoid. ", zm) \
			: sprintf("The kernel marked %d of the %d completions of the control's zero-copy runs copied (SO_EE_CODE_ZEROCOPY_COPIED); the netdev CI found all of them copied. ", zc, zm))
	if (ns) {
		# the crossover: the smallest size from which on every ratio holds (its interval above 1)
		cross = ""
		for (j = ns; j >= 1; j--) {
			if (rholds(is[j]) != "yes")
				break
			cross = sz[j]
		}
		p = p sprintf("Into the send-only sink, zero copy over copy: %s. ", sweep())
		if (cross == sz[1])
			p = p "Zero copy sent more datagrams per second at every size measured, down to " sz[1] " B. "
		else if (cross != "")
			p = p "From " cross " B on zero copy sent more datagrams per second at every size measured (each ratio's interval above 1); below it, not (the kernel's documentation: about 10 KB). "
		else
			p = p "At no size up to " sz[ns] " B did zero copy send more datagrams per second beyond the spread of the runs. "
		for (j = 1; j <= ns; j++)
			if (sz[j] == 65435)
				p = p rsentence(is[j], "At 65435 B, zero copy over copy:")
		sc = sm = 0
		for (j = 1; j <= ns; j++) {
			sc += total("sink-zc-" sz[j], "zc_copied")
			sm += total("sink-zc-" sz[j], "zc_completions")
		}
		p = p sprintf("Of the %d completions into the sink %d were marked copied: %s. ", sm, sc,
			sc == 0 ? "the kernel sent from blast's pages every time, so the sink measures zero copy itself" : "the kernel copied some after all, and those runs measure less than zero copy")
		p = p "Begunkov's figures are not like for like: his 2022 sizes were io_uring's send against its zero-copy send, one request per datagram," \
			" his 2021 ratio the msg_zerocopy tool's, both into a dummy device, which frees each packet in its driver; the sink drops it at the qdisc, before the driver," \
			" and blast makes one sendmsg system call a datagram here, whose fixed cost at small sizes io_uring's batching avoided. "
	} else
		p = p "The positive case needs the send-only sink: scripts/reproduce zerocopy --sink (root). "
	print p
	notes_list()
}
# sweep(): "600 B 0.81x, 1200 B 0.85x, ..." over the sink's sizes.
function sweep(    j, t) {
	for (j = 1; j <= ns; j++)
		t = t (j > 1 ? ", " : "") sz[j] " B " (rest[is[j]] == "" ? "-" : fx(rest[is[j]]) "x")
	return t
}
