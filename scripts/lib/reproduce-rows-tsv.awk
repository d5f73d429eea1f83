# reproduce-rows-tsv.awk: the runs of a rows experiment (lib/rows) in, reproduce.tsv out: the
# published rows (source: the year) and one row per run here (source here), in the columns of the
# experiment (results/README.md lists them), then each run's noise (attempt, noise_*_pct, noisy:
# ROW-RUN.noise.tsv beside its reports, lib/noise.sh; "-" without one, empty on a published row). Run as
#   awk -f stats.awk -v experiment=EXP -v pub=PUB -v pubsrc=YEAR -v columns="COL ..." \
#       -f reproduce-rows-tsv.awk LIST
# LIST: a line per run, "row, run, blast's report, the receiver's report" (tab-separated), in
# order, the receiver's "-" when it has none (the bare sink); PUB the published tsv (read first;
# given again as a file it is skipped). A report is a tool's tsv: a header line and one row, read
# by column name into rep[file, column].
# gso-2018: blast's figures (the bare sink has no report); gro-2018: suck's. MB/s is 2^20 bytes
#   per second, as udpgso_bench_tx and udpgso_bench_rx print it (bytes >> 20); msg/s counts
#   udpgso_bench_tx's 61824-byte messages (42 x 1472) whatever the send call; GB is 10^9 bytes.
#   Only the published rows with reproduced "yes" are kept.
# sendmmsg-2011: a send row (send-N) is blast -b N -g 1 into a fixed suck, measured by blast's
#   datagrams per second (pps = sender_pps); a receive row (recv-N) is suck -m mmsg -b N behind a
#   fixed blast, measured by suck's (pps = receiver_pps, over its receive window); a sink row
#   (sink-N, reproduce --sink) as a send row, its "receiver's report" the sink's check (the
#   device's drops: dropped; received empty, nothing receives).
# cloudflare-2015: every row is suck's datagrams per second, in millions (mpps); a published row
#   has the middle of its range in mpps and the range in mpps_lo and mpps_hi.
# lua-2014: a row per run, 2014's and here's, in the columns both have (the rows are suck's
#   variants; 2014's immutable strings count as copy, its buffer userdata as buffer): sent is
#   blast's, received, dropped and CPU suck's, memory_k its heap_kib (2014: Lua's heap).
# zerocopy: every row is blast's (pps, MB/s, CPU, the zc_ counts); a control row's receiver is
#   suck (received, and received_pps: over blast's send window), a sink row's the sink's check; a published row has its copy and zero-copy
#   figures (pub_copy, pub_zc, in pub_unit) and their ratio (pub_ratio), its source in how.
# skb-defer: every row is suck's (pps: received over its receive window); setting off or on, from
#   the row's name (off-S, on-S), skb_defer_max the value written around the run (0, or defer_on:
#   the one found at the start); a published row has its on/off ratio as a range (pub_lo, pub_hi)
#   and its setup and source in how.
BEGIN {
	FS = OFS = "\t"
	MSG = 61824
	# the columns and the source year: the rows file's #set TSV_COLUMNS and #set PUBSRC
	ncol = split(columns, col, " ")
	if (ncol < 3 || pubsrc == "") {
		print "reproduce-rows-tsv: columns and pubsrc must be given (the rows file's #set TSV_COLUMNS and PUBSRC)" > "/dev/stderr"
		bad = 1
		exit 1
	}
	# every experiment's runs here carry their noise (lib/noise.sh noise_run: ROW-RUN.noise.tsv)
	nnoise = split("attempt noise_pre_pct noise_post_pct noise_other_pct noise_steal_pct noisy", noisecol, " ")
	for (i = 1; i <= nnoise; i++)
		col[++ncol] = noisecol[i]
	if (experiment == "lua-2014") {
		lua["immutable-string"] = "copy"
		lua["buffer-userdata"] = "buffer"
	}
	# PUB: its comment lines, a header, the rows
	while ((getline line < pub) > 0) {
		if (line ~ /^#/ || line == "")
			continue
		n = split(line, f, "\t")
		if (!ph) {
			for (i = 1; i <= n; i++)
				pc[f[i]] = i
			ph = 1
			continue
		}
		if (pubsrc == "2018" && ("reproduced" in pc) && f[pc["reproduced"]] != "yes")
			continue
		np++
		for (k in pc)
			pb[np, k] = f[pc[k]]
	}
	close(pub)
}
# LIST (PUB again: skipped)
FILENAME == pub { next }
{
	nrun++
	lrow[nrun] = $1
	lrun[nrun] = $2
	lb[nrun] = $3
	ls[nrun] = $4
}

# load(file): a report into rep[file, column], got[file] when it has its row
function load(file,    line, h, row, nh, i) {
	if (file == "-" || (getline line < file) <= 0)
		return
	nh = split(line, h, "\t")
	if ((getline line < file) > 0) {
		split(line, row, "\t")
		for (i = 1; i <= nh; i++)
			rep[file, h[i]] = row[i]
		got[file] = 1
	}
	close(file)
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
		if (pubsrc == "2018") {
			# every published column but row and reproduced, as it is
			v["row"] = pb[p, "row"]
			for (k in pc)
				if (k != "row" && k != "reproduced")
					v[k] = pb[p, k]
			if (experiment == "gso-2018")
				v["duration_s"] = 4 # udpgso_bench_tx -l 4
		} else if (experiment == "lua-2014") {
			v["variant"] = lua[pb[p, "strategy"]]
			strat[v["variant"]] = v["strategy_2014"] = pb[p, "strategy"]
			v["receiver"] = pb[p, "receiver"]
			v["run"] = pb[p, "run"]
			v["duration_s"] = 10 # as published
			v["sent"] = pb[p, "sent"]
			v["received"] = pb[p, "received"]
			v["received_pct"] = pct(pb[p, "received"], pb[p, "sent"])
			v["memory_k"] = pb[p, "memory_k"]
		} else if (experiment == "zerocopy") {
			v["row"] = pb[p, "row"]
			v["table"] = substr(pb[p, "row"], 1, 4) == "sink" ? "sink" : "control"
			v["family"] = pb[p, "row"] ~ /-6$/ ? "ipv6" : "ipv4"
			v["size"] = pb[p, "size"]
			v["pub_copy"] = pb[p, "copy"]
			v["pub_zc"] = pb[p, "zerocopy"]
			v["pub_unit"] = pb[p, "unit"]
			v["pub_ratio"] = pb[p, "ratio"]
			v["how"] = pb[p, "source"]
		} else if (experiment == "skb-defer") {
			v["row"] = pb[p, "row"]
			v["run"] = "-"
			v["pub_lo"] = pb[p, "ratio_lo"]
			v["pub_hi"] = pb[p, "ratio_hi"]
			v["how"] = pb[p, "setup"] " (" pb[p, "source"] ")"
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
		load(b)
		load(s)
		if (!got[b] || (s != "-" && !got[s]) || (experiment == "gro-2018" && s == "-"))
			continue
		split("", v)
		v["source"] = "here"
		nz = lrow[k] "-" lrun[k] ".noise.tsv"
		load(nz)
		for (i = 1; i <= nnoise; i++)
			v[noisecol[i]] = got[nz] ? rep[nz, noisecol[i]] : "-"
		v["row"] = lrow[k]
		v["run"] = lrun[k]
		v["sent"] = rep[s, "sent"]
		v["received"] = rep[s, "received"]
		v["received_pct"] = pct(rep[s, "received"], rep[s, "sent"])
		v["dropped"] = rep[s, "dropped"]
		v["rx_kernel_ns_per_pkt"] = kernel(s)
		send = " -b " rep[b, "batch"] " -g " rep[b, "gso"]
		if (experiment == "gso-2018") {
			# blast's figures: the bare sink has no report
			v["row"] = lrow[k] == "gso" ? "udp gso" : lrow[k]
			v["how"] = "blast -s " rep[b, "size"] send
			d = v["duration_s"] = rep[b, "duration_s"]
			v["sent"] = rep[b, "sent"]
			v["bytes"] = rep[b, "bytes"]
			v["calls"] = rep[b, "calls"]
			v["mb_s"] = rate(rep[b, "bytes"] / 1048576, d, "%.1f")
			v["msg_s"] = rate(rep[b, "bytes"] / MSG, d, "%.0f")
			v["calls_s"] = rate(rep[b, "calls"], d, "%.0f")
			v["bytes_per_call"] = rate(rep[b, "bytes"], rep[b, "calls"], "%.1f")
			cpu = rep[b, "user_s"] + rep[b, "sys_s"]
			v["cpu_s"] = sprintf("%.3f", cpu)
			v["cpu_pct"] = rate(100 * cpu, d, "%.1f")
			v["cpu_s_per_gb"] = rate(cpu, rep[b, "bytes"] / 1e9, "%.4f")
			v["errors"] = rep[b, "errors"]
		} else if (experiment == "gro-2018") {
			v["how"] = "suck -m " rep[s, "variant"] " -b " rep[s, "batch"] " <- blast -s " rep[b, "size"] " -g " rep[b, "gso"] " -b " rep[b, "batch"]
			d = v["duration_s"] = rep[s, "duration_s"]
			v["bytes"] = rep[s, "bytes"]
			v["calls"] = rep[s, "calls"]
			v["idle_calls"] = rep[s, "idle_calls"]
			v["mb_s"] = rate(rep[s, "bytes"] / 1048576, d, "%.1f")
			v["calls_s"] = rate(rep[s, "calls"], d, "%.0f")
			v["bytes_per_call"] = rate(rep[s, "bytes"], rep[s, "calls"], "%.1f")
			v["datagrams_per_call"] = rate(rep[s, "received"], rep[s, "calls"], "%.2f")
			cpu = rep[s, "user_s"] + rep[s, "sys_s"]
			v["cpu_s"] = sprintf("%.3f", cpu)
			v["cpu_s_per_gb"] = rate(cpu, rep[s, "bytes"] / 1e9, "%.4f")
			# the NAPI thread's CPU (suck --rx-dev, --wire); "-" elsewhere: left empty
			if (rep[s, "rx_kernel_s"] != "" && rep[s, "rx_kernel_s"] != "-") {
				v["rx_kernel_s"] = rep[s, "rx_kernel_s"]
				v["rx_kernel_s_per_gb"] = rate(rep[s, "rx_kernel_s"], rep[s, "bytes"] / 1e9, "%.4f")
			}
		} else if (experiment == "lua-2014") {
			v["variant"] = lrow[k]
			v["strategy_2014"] = (lrow[k] in strat) ? strat[lrow[k]] : "-"
			v["receiver"] = "suck -m " rep[s, "variant"]
			v["duration_s"] = rep[b, "duration_s"]
			v["sent"] = rep[b, "sent"]
			v["received_pct"] = pct(rep[s, "received"], rep[b, "sent"])
			v["memory_k"] = rep[s, "heap_kib"]
			v["cpu_ns_per_pkt"] = rep[s, "cpu_ns_per_pkt"]
		} else if (experiment == "zerocopy") {
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
		} else if (experiment == "skb-defer") {
			v["setting"] = substr(lrow[k], 1, index(lrow[k], "-") - 1)
			v["size"] = rep[b, "size"]
			v["skb_defer_max"] = v["setting"] == "off" ? 0 : (defer_on == "" ? "-" : defer_on)
			v["how"] = "suck -m " rep[s, "variant"] " -w " rep[s, "work"] " <- blast -s " rep[b, "size"] send
			v["duration_s"] = rep[s, "duration_s"]
			v["pps"] = rep[s, "pps"]
			v["cpu_ns_per_pkt"] = rep[s, "cpu_ns_per_pkt"]
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
