# reproduce-sendmmsg.awk: reproduce.tsv of sendmmsg-2011 in, reproduce.md out (or with -v dat=1
# the ratios for the plot); after stats.awk and reproduce-2018.awk (-v pubsrc=2011). Variables:
# time, runs (as run), machine, cpu (the pinning), notes (the runs' notes file), wire (1: across
# the veth pair of --wire, dest then their address), size (the datagram size), rxbatch (the
# fixed receiver's -b), sender (the fixed sender's blast words). Rows: send-N (blast -b N -g 1
# into a fixed suck: blast's datagrams per second), recv-N (suck -m mmsg -b N behind a fixed
# blast: suck's), and sink-N when a send-only sink was measured (blast's, as send-N). Every
# number in the text comes from reproduce.tsv.
function gain(x) { return isnum(x) ? sprintf("%+.0f %%", 100 * (x - 1)) : "-" }
# smallest(t, half): the index of the smallest batch whose ratio to batch 1 in table t
# (published: "pub") reaches half, half the gain at the largest batch; 0 when none does.
function smallest(t, half,    j, x) {
	for (j = 2; j <= nb; j++) {
		x = t == "pub" ? pr[j] : rest[ri[t, j]]
		if (isnum(x) && x - 1 >= half)
			return j
	}
	return 0
}
END {
	nb = split("1 2 4 8 16 32 64", B, " ")
	if (dest == "")
		dest = "127.0.0.1"
	for (j = 1; j <= nb; j++) {
		pu[j] = pubv("send-" B[j], "pps")
		pw[j] = pubv("send-" B[j], "raw_pps")
	}
	for (j = 2; j <= nb; j++) {
		pr[j] = pu[1] > 0 ? pu[j] / pu[1] : ""
		ri["send", j] = addratio("pkts/s, sendmmsg batch " B[j] " / batch 1", "send " B[j] "/1", pr[j], "send-" B[j], "send-1", "pps")
	}
	sink = n["here", "sink-1"] > 0
	for (j = 2; sink && j <= nb; j++)
		ri["sink", j] = addratio("pkts/s into the sink, sendmmsg batch " B[j] " / batch 1", "sink " B[j] "/1", pr[j], "sink-" B[j], "sink-1", "pps")
	for (j = 2; j <= nb; j++)
		ri["recv", j] = addratio("pkts/s, recvmmsg batch " B[j] " / batch 1 (no published counterpart)", "recv " B[j] "/1", "", "recv-" B[j], "recv-1", "pps")
	if (dat) {
		ratio_dat()
		exit
	}

	path = wire ? " across a veth pair between two network namespaces (--wire: the receiving NAPI in a kernel thread, counted)" : ""
	print "# The 2011 sendmmsg measurement again: datagrams per second by batch"
	print ""
	print "Published: Linux commit 228e548e6020 \"net: Add sendmmsg socket system call\" (Anton Blanchard, May 2011):" \
		" sendmmsg_test.c on a ppc64 box with a 10 Gbit network card, 64-byte UDP datagrams (and raw Ethernet packets), datagrams sent per second by batch," \
		" the messages per sendmmsg call; the NIC took the packets away, so it measured the sender (results/published/sendmmsg-2011.tsv)." \
		" Here: blast -s " size " -b N -g 1 (N messages of one datagram a sendmmsg call, no GSO; -b 1 is one sendto a call) to " dest path \
		" for " time " s into suck -m mmsg -b " rxbatch " -s " size ", work none (the same receiver for every N); and the mirror, suck -m mmsg -b N" \
		" (recvmmsg of up to N, MSG_WAITFORONE; -b 1 one datagram a call) behind one sender, blast -s " size " " sender " (as fast as it can);" \
		" " runs " run(s) of each in rounds; " cpu "; " machine "."
	print ""
	print "## Sending: 2011 beside here"
	print ""
	print "| batch | UDP pkts/s (2011) | vs batch 1 (2011) | raw pkts/s (2011) | raw vs batch 1 (2011) | blast pkts/s (here) | vs batch 1 (here) | suck received pkts/s (here) | received % of sent (here) | blast CPU ns per datagram (here) |"
	print "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	for (j = 1; j <= nb; j++) {
		r = "send-" B[j]
		print "| " B[j] " | " f0(pu[j]) " | " (j == 1 ? "" : gain(pr[j])) " | " f0(pw[j]) " | " (j == 1 || !(pw[1] > 0) ? "" : gain(pw[j] / pw[1])) \
			" | " med("here", r, "pps", "%.0f") " | " (j == 1 ? "" : gain(rest[ri["send", j]])) " | " med("here", r, "receiver_pps", "%.0f") \
			" | " med("here", r, "received_pct", "%.2f") " | " med("here", r, "cpu_ns_per_pkt", "%.0f") " |"
	}
	if (sink) {
		print ""
		print "## Sending into the send-only sink (no receiver on the host, as the commit measured)"
		print ""
		print "| batch | UDP pkts/s (2011) | vs batch 1 (2011) | blast pkts/s into the sink (here) | vs batch 1 (here) | blast CPU ns per datagram (here) |"
		print "|---:|---:|---:|---:|---:|---:|"
		for (j = 1; j <= nb; j++) {
			r = "sink-" B[j]
			print "| " B[j] " | " f0(pu[j]) " | " (j == 1 ? "" : gain(pr[j])) " | " med("here", r, "pps", "%.0f") " | " (j == 1 ? "" : gain(rest[ri["sink", j]])) \
				" | " med("here", r, "cpu_ns_per_pkt", "%.0f") " |"
		}
	}
	print ""
	print "## Receiving, the mirror (here only: the commit measured no receiver)"
	print ""
	print "| recvmmsg batch | suck pkts/s (here) | vs batch 1 (here) | datagrams per call (here) | received % of sent (here) | suck CPU ns per datagram (here) | kernel rx ns per datagram (here) |"
	print "|---:|---:|---:|---:|---:|---:|---:|"
	for (j = 1; j <= nb; j++) {
		r = "recv-" B[j]
		print "| " B[j] " | " med("here", r, "pps", "%.0f") " | " (j == 1 ? "" : gain(rest[ri["recv", j]])) " | " med("here", r, "datagrams_per_call", "%.2f") \
			" | " med("here", r, "received_pct", "%.2f") " | " med("here", r, "cpu_ns_per_pkt", "%.0f") " | " med("here", r, "rx_kernel_ns_per_pkt", "%.0f") " |"
	}
	middle_sections()
	print "| row | run | how | s | sent | received | received % | dropped | pkts/s | calls | datagrams per call | CPU ns per datagram |"
	print "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	split("send sink recv", T, " ")
	for (t = 1; t <= 3; t++)
		for (j = 1; j <= nb; j++) {
			r = T[t] "-" B[j]
			for (i = 1; i <= n["here", r]; i++)
				print "| " r " | " val["here", r, i, "run"] " | " val["here", r, i, "how"] " | " val["here", r, i, "duration_s"] " | " val["here", r, i, "sent"] \
					" | " val["here", r, i, "received"] " | " val["here", r, i, "received_pct"] " | " val["here", r, i, "dropped"] " | " val["here", r, i, "pps"] \
					" | " val["here", r, i, "calls"] " | " val["here", r, i, "datagrams_per_call"] " | " val["here", r, i, "cpu_ns_per_pkt"] " |"
		}

	print ""
	print "## What the comparison shows"
	print ""
	top = ri["send", nb]
	p = sprintf("Published: with sendmmsg of %d messages the sender sent %sx the datagrams per second of one message a call (%s against %s), %s for UDP (%s on a raw socket, %s against %s); ",
		B[nb], fx(pr[nb]), pu[nb], pu[1], gain(pr[nb]), gain(pw[nb] / pw[1]), pw[nb], pw[1])
	ph = smallest("pub", (pr[nb] - 1) / 2)
	p = p sprintf("half of that gain came by batch %s (%s). ", B[ph], gain(pr[ph]))
	if (st("here", "send-1", "pps") && st("here", "send-" B[nb], "pps")) {
		st("here", "send-1", "pps"); h1 = M
		st("here", "send-" B[nb], "pps"); hn = M
		p = p sprintf("Here (medians) blast sent %.0f datagrams per second at batch %d against %.0f at batch 1. ", hn, B[nb], h1)
		p = p rsentence(top, "Datagrams per second, batch " B[nb] " over batch 1:")
		if (rest[top] != "" && rest[top] > 1) {
			hh = smallest("send", (rest[top] - 1) / 2)
			if (hh)
				p = p sprintf("Half of the gain here came by batch %s (%s). ", B[hh], gain(rest[ri["send", hh]]))
		}
		st("here", "send-" B[nb], "received_pct"); rp = M
		if (wire)
			p = p sprintf("On the wire blast's send call ends at the veth, whose receiving end's NAPI thread does the receive path on its own CPU: the ratio is the sender's and its device's, as the commit's was; suck received %.1f %% of what blast sent at batch %d (median). ", rp, B[nb])
		else
			p = p sprintf("On 127.0.0.1 the receive path runs inside blast's send call (each datagram is queued to suck's socket there, or dropped when the socket is full), so the ratio includes a receive path per datagram that batching does not shorten, which the commit's NIC took off the sender; suck received %.1f %% of what blast sent at batch %d (median). ", rp, B[nb])
	} else
		p = p "Here the send rows have no run to compare: see the notes. "
	if (sink) {
		p = p "Into the send-only sink (no receiver on the host, the commit's own case: a veth without carrier whose qdisc drops every datagram, so the send path runs whole but for the driver and the wire): "
		if (st("here", "sink-1", "pps") && st("here", "sink-" B[nb], "pps")) {
			st("here", "sink-1", "pps"); k1 = M
			st("here", "sink-" B[nb], "pps"); kn = M
			p = p sprintf("blast sent %.0f datagrams per second at batch %d against %.0f at batch 1 (medians; the commit's box %s and %s). ", kn, B[nb], k1, pu[nb], pu[1])
			if (st("here", "send-1", "pps") && st("here", "send-" B[nb], "pps")) {
				st("here", "send-1", "pps"); h1 = M
				st("here", "send-" B[nb], "pps"); hn = M
				p = p sprintf("Without the receive path on the sender's CPU it sent %.2fx the datagrams per second of the send rows at batch 1 and %.2fx at batch %d. ", k1 / h1, kn / hn, B[nb])
			}
		}
		p = p rsentence(ri["sink", nb], "Into the send-only sink, batch " B[nb] " over batch 1:")
		ks = kd = kr = 0
		for (j = 1; j <= nb; j++)
			for (i = 1; i <= n["here", "sink-" B[j]]; i++) {
				kr++
				ks += val["here", "sink-" B[j], i, "sent"]
				kd += val["here", "sink-" B[j], i, "dropped"]
			}
		p = p sprintf("In each of the %d sink runs the device's tx_dropped rose by exactly blast's sent plus its fins (%.0f dropped for %.0f datagrams and %.0f fins in all; a run that did not match would be a failed run, in the notes): every datagram went down the send path and none left the device. ", kr, kd, ks, kd - ks)
	} else
		p = p "Into a send-only sink (no receiver on the host, the commit's own case): not measured in this run (scripts/reproduce sendmmsg-2011 --sink measures it, as root). "
	p = p "The raw socket column is not made here: blast has no AF_PACKET sender. "
	itop = ri["recv", nb]
	p = p rnopub(itop, "The mirror, suck's datagrams per second with recvmmsg of " B[nb] " over one datagram a call:", "a gain", "a loss")
	if (st("here", "recv-1", "received_pct") && st("here", "recv-" B[nb], "received_pct")) {
		st("here", "recv-1", "received_pct"); q1 = LO
		st("here", "recv-" B[nb], "received_pct"); qn = LO
		if (qn + 0 >= 95)
			p = p sprintf("At batch %d suck took %s %% or more of what the sender sent in every run: that row is the sender's rate, not suck's limit, so the receive gain here is at least this large. ", B[nb], qn)
		else if (q1 + 0 < 95)
			p = p "Neither end of the mirror kept up with the sender, so each receive row is what that receiver could take. "
	}
	print p
	notes_list()
}
