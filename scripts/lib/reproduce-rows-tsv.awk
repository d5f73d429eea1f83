# reproduce-rows-tsv.awk: the runs of sendmmsg-2011, cloudflare-2015 or zerocopy in, reproduce.tsv out:
# the published rows (source 2011 or 2015) and one row per run here (source here), in the columns
# of the experiment (results/README.md lists them). Run as
#   awk -f stats.awk -v experiment=EXP -v list=LIST -v pub=PUB -f reproduce-rows-tsv.awk LIST PUB REPORT...
# LIST: a line per run, "row, run, blast's report, suck's report" (tab-separated), in order; PUB
# the published tsv; then every report LIST names (a tool's tsv: a header line and one row,
# read by column name into rep[file, column]).
# sendmmsg-2011: a send row (send-N) is blast -b N -g 1 into a fixed suck, measured by blast's
#   datagrams per second (pps = sender_pps); a receive row (recv-N) is suck -m mmsg -b N behind a
#   fixed blast, measured by suck's (pps = receiver_pps, over its receive window); a sink row
#   (sink-N, reproduce --sink) as a send row, its "receiver's report" the sink's check (the
#   device's drops: dropped; received empty, nothing receives).
# cloudflare-2015: every row is suck's datagrams per second, in millions (mpps); a published row
#   has the middle of its range in mpps and the range in mpps_lo and mpps_hi.
# zerocopy: every row is blast's (pps, MB/s, CPU, the zc_ counts); a control row's receiver is
#   suck (received, and received_pps: over blast's send window), a sink row's the sink's check; a published row has its copy and zero-copy
#   figures (pub_copy, pub_zc, in pub_unit) and their ratio (pub_ratio), its source in how.
BEGIN {
	FS = OFS = "\t"
	if (experiment == "sendmmsg-2011") {
		ncol = split("source row table batch run how duration_s sent received received_pct dropped pps sender_pps receiver_pps calls datagrams_per_call cpu_ns_per_pkt rx_kernel_ns_per_pkt raw_pps", col, " ")
		pubsrc = "2011"
	} else if (experiment == "cloudflare-2015") {
		ncol = split("source row run how duration_s sent received received_pct dropped mpps cpu_ns_per_pkt rx_kernel_ns_per_pkt threads thread_received_min thread_received_max mpps_lo mpps_hi", col, " ")
		pubsrc = "2015"
	} else if (experiment == "zerocopy") {
		ncol = split("source row table family size run how duration_s sent received received_pct pps received_pps mbytes_s cpu_ns_per_pkt zc_sends zc_completions zc_copied zc_enobufs dropped pub_copy pub_zc pub_unit pub_ratio", col, " ")
		pubsrc = "2021-2024"
	} else {
		print "reproduce-rows-tsv: experiment must be sendmmsg-2011, cloudflare-2015 or zerocopy" > "/dev/stderr"
		bad = 1
		exit 1
	}
}
# LIST
FILENAME == list {
	nrun++
	lrow[nrun] = $1
	lrun[nrun] = $2
	lb[nrun] = $3
	ls[nrun] = $4
	next
}
# PUB: its comment lines, a header, the rows
FILENAME == pub {
	if (/^#/ || $0 == "")
		next
	if (!ph) {
		for (i = 1; i <= NF; i++)
			pc[$i] = i
		ph = 1
		next
	}
	np++
	for (k in pc)
		pb[np, k] = $pc[k]
	next
}
# a report: its header, then its row
FNR == 1 {
	for (i = 1; i <= NF; i++)
		h[i] = $i
	nh = NF
	next
}
FNR == 2 {
	for (i = 1; i <= nh; i++)
		rep[FILENAME, h[i]] = $i
	got[FILENAME] = 1
}

function emit(    i, line) {
	line = v[col[1]]
	for (i = 2; i <= ncol; i++)
		line = line OFS ((col[i] in v) ? v[col[i]] : "")
	print line
}
function rate(x, d, fmt) { return d + 0 > 0 ? sprintf(fmt, x / d) : "" }
# the kernel's receive work per datagram (suck --rx-dev, --wire); "-" elsewhere: left empty
function kernel(s) { return (rep[s, "rx_kernel_ns_per_pkt"] == "-" ? "" : rep[s, "rx_kernel_ns_per_pkt"]) }

END {
	if (bad)
		exit 1
	line = col[1]
	for (i = 2; i <= ncol; i++)
		line = line OFS col[i]
	print line
	for (p = 1; p <= np; p++) {
		split("", v)
		v["source"] = pubsrc
		v["run"] = 1
		v["how"] = "-"
		if (experiment == "zerocopy") {
			v["row"] = pb[p, "row"]
			v["table"] = substr(pb[p, "row"], 1, 4) == "sink" ? "sink" : "control"
			v["family"] = pb[p, "row"] ~ /-6$/ ? "ipv6" : "ipv4"
			v["size"] = pb[p, "size"]
			v["pub_copy"] = pb[p, "copy"]
			v["pub_zc"] = pb[p, "zerocopy"]
			v["pub_unit"] = pb[p, "unit"]
			v["pub_ratio"] = pb[p, "ratio"]
			v["how"] = pb[p, "source"]
		} else if (experiment == "sendmmsg-2011") {
			v["row"] = "send-" pb[p, "batch"]
			v["table"] = "send"
			v["batch"] = pb[p, "batch"]
			v["pps"] = v["sender_pps"] = pb[p, "udp_pps"]
			v["raw_pps"] = pb[p, "raw_pps"]
		} else {
			v["row"] = pb[p, "row"]
			v["mpps_lo"] = pb[p, "mpps_lo"]
			v["mpps_hi"] = pb[p, "mpps_hi"]
			v["mpps"] = sprintf("%.4f", (pb[p, "mpps_lo"] + pb[p, "mpps_hi"]) / 2)
			v["threads"] = pb[p, "threads"]
		}
		emit()
	}
	for (k = 1; k <= nrun; k++) {
		b = lb[k]
		s = ls[k]
		if (!got[b] || !got[s])
			continue
		split("", v)
		v["source"] = "here"
		v["row"] = lrow[k]
		v["run"] = lrun[k]
		v["sent"] = rep[s, "sent"]
		v["received"] = rep[s, "received"]
		v["received_pct"] = pct(rep[s, "received"], rep[s, "sent"])
		v["dropped"] = rep[s, "dropped"]
		v["rx_kernel_ns_per_pkt"] = kernel(s)
		send = " -b " rep[b, "batch"] " -g " rep[b, "gso"]
		if (experiment == "zerocopy") {
			# blast's figures in every row: the sender is what is measured
			v["table"] = substr(lrow[k], 1, 4) == "sink" ? "sink" : "control"
			v["family"] = lrow[k] ~ /-6$/ ? "ipv6" : "ipv4"
			v["size"] = rep[b, "size"]
			v["duration_s"] = rep[b, "duration_s"]
			v["sent"] = rep[b, "sent"]
			v["pps"] = rep[b, "pps"]
			v["mbytes_s"] = rate(rep[b, "bytes"] / 1e6, rep[b, "duration_s"], "%.1f")
			v["cpu_ns_per_pkt"] = rep[b, "cpu_ns_per_pkt"]
			v["zc_sends"] = rep[b, "zc_sends"]
			v["zc_completions"] = rep[b, "zc_completions"]
			v["zc_copied"] = rep[b, "zc_copied"]
			v["zc_enobufs"] = rep[b, "zc_enobufs"]
			send = send (rep[b, "zerocopy"] == 1 ? " --zerocopy" : "")
			if (v["table"] == "sink") {
				v["received"] = v["received_pct"] = ""
				v["how"] = "blast -s " rep[b, "size"] send " -> the send-only sink (" rep[s, "device"] " dropped " rep[s, "dropped"] " = sent + " rep[s, "fins"] " fins)"
			} else {
				v["received_pct"] = pct(rep[s, "received"], rep[b, "sent"])
				v["received_pps"] = rate(rep[s, "received"], rep[b, "duration_s"], "%.0f")
				v["how"] = "blast -s " rep[b, "size"] send " -> suck -m " rep[s, "variant"] " -b " rep[s, "batch"] " at " rep[s, "addr"]
			}
		} else if (experiment == "sendmmsg-2011") {
			v["table"] = substr(lrow[k], 1, 4) # send, recv (sink: the send-only sink's rows)
			v["batch"] = substr(lrow[k], 6)
			v["sender_pps"] = rep[b, "pps"]
			v["receiver_pps"] = rep[s, "pps"]
			if (v["table"] == "sink") {
				v["received"] = v["received_pct"] = v["receiver_pps"] = ""
				v["how"] = "blast -s " rep[b, "size"] send " -> the send-only sink (" rep[s, "device"] " dropped " rep[s, "dropped"] " = sent + " rep[s, "fins"] " fins)"
			}
			if (v["table"] != "recv") {
				if (v["table"] == "send")
					v["how"] = "blast -s " rep[b, "size"] send " -> suck -m " rep[s, "variant"] " -b " rep[s, "batch"]
				v["duration_s"] = rep[b, "duration_s"]
				v["sent"] = rep[b, "sent"]
				v["pps"] = v["sender_pps"]
				v["calls"] = rep[b, "calls"]
				v["datagrams_per_call"] = rate(rep[b, "sent"], rep[b, "calls"], "%.2f")
				v["cpu_ns_per_pkt"] = rep[b, "cpu_ns_per_pkt"]
			} else {
				v["how"] = "suck -m " rep[s, "variant"] " -b " rep[s, "batch"] " <- blast -s " rep[b, "size"] send
				v["duration_s"] = rep[s, "duration_s"]
				v["pps"] = v["receiver_pps"]
				v["calls"] = rep[s, "calls"]
				v["datagrams_per_call"] = rate(rep[s, "received"], rep[s, "calls"], "%.2f")
				v["cpu_ns_per_pkt"] = rep[s, "cpu_ns_per_pkt"]
			}
		} else {
			v["how"] = "suck -m " rep[s, "variant"] " -b " rep[s, "batch"] " -j " rep[s, "threads"] \
				(rep[s, "one_socket"] == 1 ? " --one-socket" : "") " <- blast -s " rep[b, "size"] " -j " rep[b, "flows"] send
			v["duration_s"] = rep[s, "duration_s"]
			v["mpps"] = sprintf("%.4f", rep[s, "pps"] / 1e6)
			v["cpu_ns_per_pkt"] = rep[s, "cpu_ns_per_pkt"]
			v["threads"] = rep[s, "threads"]
			v["thread_received_min"] = rep[s, "thread_received_min"]
			v["thread_received_max"] = rep[s, "thread_received_max"]
		}
		emit()
	}
}
