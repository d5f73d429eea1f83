# reproduce-2018-tsv.awk: the runs of gso-2018 or gro-2018 in, reproduce.tsv out: the published
# rows (source 2018) and one row per run here (source here), in the columns both have
# (results/README.md lists them). Variables: experiment (gso-2018 or gro-2018), pub (the published tsv).
# Input lines: row, run, blast's report, suck's report ("-" for none): reports are a tsv header
# and one row, columns matched by name.
# MB/s is 2^20 bytes per second, as udpgso_bench_tx and udpgso_bench_rx print it (bytes >> 20);
# msg/s counts udpgso_bench_tx's 61824-byte messages (42 x 1472) whatever the send call; GB is
# 10^9 bytes.
BEGIN {
	FS = OFS = "\t"
	MSG = 61824
	if (experiment == "gso-2018") {
		ncol = split("source row run how duration_s sent bytes calls mb_s msg_s calls_s bytes_per_call cpu_s cpu_pct cpu_s_per_gb errors cycles", col, " ")
		name["udp"] = "udp"
		name["gso"] = "udp gso"
	} else if (experiment == "gro-2018") {
		ncol = split("source row run how duration_s sent received received_pct dropped bytes calls idle_calls mb_s calls_s bytes_per_call datagrams_per_call cpu_s cpu_s_per_gb rx_kernel_s rx_kernel_s_per_gb", col, " ")
	} else {
		print "reproduce-2018-tsv: experiment must be gso-2018 or gro-2018" > "/dev/stderr"
		bad = 1
		exit 1
	}
	line = col[1]
	for (i = 2; i <= ncol; i++)
		line = line OFS col[i]
	print line
	hdr = 0
	while ((getline line < pub) > 0) {
		if (line ~ /^#/ || line == "")
			continue
		n = split(line, f, "\t")
		if (!hdr) {
			for (i = 1; i <= n; i++)
				pc[f[i]] = i
			hdr = 1
			continue
		}
		if (("reproduced" in pc) && f[pc["reproduced"]] != "yes")
			continue
		split("", v)
		v["source"] = "2018"
		v["row"] = f[pc["row"]]
		v["run"] = 1
		v["how"] = "-"
		for (k in pc)
			if (k != "row" && k != "reproduced")
				v[k] = f[pc[k]]
		if (experiment == "gso-2018")
			v["duration_s"] = 4 # udpgso_bench_tx -l 4
		emit()
	}
	close(pub)
}

function emit(    i, line) {
	line = v[col[1]]
	for (i = 2; i <= ncol; i++)
		line = line OFS ((col[i] in v) ? v[col[i]] : "")
	print line
}

# report(file, r): a tool's tsv report into r[column]; 0 when there is none.
function report(file, r,    line, h, row, nh, i) {
	split("", r)
	if (file == "-" || (getline line < file) <= 0)
		return 0
	nh = split(line, h, "\t")
	if ((getline line < file) <= 0) {
		close(file)
		return 0
	}
	close(file)
	split(line, row, "\t")
	for (i = 1; i <= nh; i++)
		r[h[i]] = row[i]
	return 1
}

function rate(x, d, fmt) { return d + 0 > 0 ? sprintf(fmt, x / d) : "" }

{
	split("", v)
	v["source"] = "here"
	v["run"] = $2
	report($3, b)
	if (experiment == "gso-2018") {
		v["row"] = ($1 in name) ? name[$1] : $1
		if (!("bytes" in b))
			next
		v["how"] = "blast -s " b["size"] " -b " b["batch"] " -g " b["gso"]
		d = v["duration_s"] = b["duration_s"]
		v["sent"] = b["sent"]
		v["bytes"] = b["bytes"]
		v["calls"] = b["calls"]
		v["mb_s"] = rate(b["bytes"] / 1048576, d, "%.1f")
		v["msg_s"] = rate(b["bytes"] / MSG, d, "%.0f")
		v["calls_s"] = rate(b["calls"], d, "%.0f")
		v["bytes_per_call"] = rate(b["bytes"], b["calls"], "%.1f")
		cpu = b["user_s"] + b["sys_s"]
		v["cpu_s"] = sprintf("%.3f", cpu)
		v["cpu_pct"] = rate(100 * cpu, d, "%.1f")
		v["cpu_s_per_gb"] = rate(cpu, b["bytes"] / 1e9, "%.4f")
		v["errors"] = b["errors"]
	} else {
		v["row"] = $1
		report($4, s)
		if (!("bytes" in s))
			next
		v["how"] = "suck -m " s["variant"] " -b " s["batch"] " <- blast -s " b["size"] " -g " b["gso"] " -b " b["batch"]
		d = v["duration_s"] = s["duration_s"]
		v["sent"] = s["sent"]
		v["received"] = s["received"]
		v["received_pct"] = pct(s["received"], s["sent"])
		v["dropped"] = s["dropped"]
		v["bytes"] = s["bytes"]
		v["calls"] = s["calls"]
		v["idle_calls"] = s["idle_calls"]
		v["mb_s"] = rate(s["bytes"] / 1048576, d, "%.1f")
		v["calls_s"] = rate(s["calls"], d, "%.0f")
		v["bytes_per_call"] = rate(s["bytes"], s["calls"], "%.1f")
		v["datagrams_per_call"] = rate(s["received"], s["calls"], "%.2f")
		cpu = s["user_s"] + s["sys_s"]
		v["cpu_s"] = sprintf("%.3f", cpu)
		v["cpu_s_per_gb"] = rate(cpu, s["bytes"] / 1e9, "%.4f")
		# the NAPI thread's CPU (suck --rx-dev, --wire); "-" elsewhere: left empty
		if (s["rx_kernel_s"] != "" && s["rx_kernel_s"] != "-") {
			v["rx_kernel_s"] = s["rx_kernel_s"]
			v["rx_kernel_s_per_gb"] = rate(s["rx_kernel_s"], s["bytes"] / 1e9, "%.4f")
		}
	}
	emit()
}
