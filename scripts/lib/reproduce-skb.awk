# reproduce-skb.awk: reproduce.tsv of skb-defer in, reproduce.md out (or with -v dat=1 the ratios
# for published_ratios.gp); after stats.awk and reproduce-2018.awk, whose reading and helpers it
# uses. Variables: time, runs, machine, cpu (the pinning), notes (the runs' notes file), wire (1:
# across the veth pair, dest its address), batch (blast -b), rounds (abba, the rows file's ORDER, or empty). Every number
# in the text comes from reproduce.tsv.
#
# The measure is the ratio on/off of suck's received datagrams per second, taken round by round:
# the two runs of a size in one round ran one after the other (A B B A over the rounds), so a
# drift of the machine falls on both. Its median over the rounds and the interval of that median
# by order statistics (stats.awk median_ci, 95 %; min..max at the level it has with 5 rounds or
# fewer), the reading of scripts/perf's targets: met when the whole interval lies at or above the
# published gain's low end (the commit's 1.20), not met when all of it lies below, unresolved
# when it holds 1.20 or its level is below 90 % (fewer than 5 rounds).
BEGIN { MIN_LEVEL = 90 }
NR > 1 && $c["source"] == "here" {
	rw = $c["row"]
	sz = substr(rw, index(rw, "-") + 1)
	if (!(sz in seen)) {
		seen[sz] = 1
		sizes[++nsz] = sz
	}
	if ($c["run"] + 0 > maxrun)
		maxrun = $c["run"] + 0
	rp[$c["setting"], sz, $c["run"]] = $c["pps"]
	if ($c["noisy"] == 1)
		rnoisy[sz, $c["run"]] = 1
}

# fk(x): received/s for people: 512.3k, 1.523M
function fk(x) {
	if (!isnum(x))
		return "-"
	x += 0
	return x >= 1e6 ? sprintf("%.3fM", x / 1e6) : sprintf("%.1fk", x / 1e3)
}
# mlh(s, r, f, fmt): "median (least..most)" of a column, each in fmt; "-" when not measured.
function mlh(s, r, f, fmt) {
	if (!st(s, r, f))
		return "-"
	if (fmt == "k")
		return fk(M) " (" fk(LO) ".." fk(HI) ")"
	return sprintf(fmt, M) " (" sprintf(fmt, LO) ".." sprintf(fmt, HI) ")"
}
# judge(sz): the rounds of size sz with both settings measured, their on/off ratios in
# q[1..J_N] (sorted) and qr[round]; J_MED, J_MIN, J_MAX, J_LO, J_HI, J_PCT, J_NOISY, J_V.
function judge(sz,    i, a) {
	split("", q)
	split("", qr)
	J_N = J_NOISY = 0
	J_MED = J_MIN = J_MAX = J_LO = J_HI = J_PCT = ""
	J_V = "not measured"
	for (i = 1; i <= maxrun; i++)
		if ((("off", sz, i) in rp) && (("on", sz, i) in rp) && isnum(rp["off", sz, i]) && isnum(rp["on", sz, i]) && rp["off", sz, i] > 0) {
			qr[i] = sprintf("%.3f", rp["on", sz, i] / rp["off", sz, i])
			q[++J_N] = qr[i]
			if ((sz, i) in rnoisy)
				J_NOISY++
		}
	if (!J_N)
		return
	sortnum(q, J_N)
	J_MED = median(q, J_N)
	if (decimals(J_MED) < 3) # the mean of two equal middle ratios, trimmed
		J_MED = sprintf("%.3f", J_MED)
	J_MIN = q[1]
	J_MAX = q[J_N]
	median_ci(q, J_N, 0.05)
	J_LO = MCI_LO
	J_HI = MCI_HI
	J_PCT = MCI_PCT
	if (J_PCT + 0 < MIN_LEVEL)
		J_V = "unresolved"
	else if (J_LO + 0 >= PUB_LO + 0)
		J_V = "met"
	else if (J_HI + 0 < PUB_LO + 0)
		J_V = "not met"
	else
		J_V = "unresolved"
}
# first(i): which setting ran first in round i
function first(i) { return (rounds == "abba" && i % 2 == 0) ? "on" : "off" }

END {
	if (dest == "")
		dest = "127.0.0.1"
	PUB_LO = pubv("commit", "pub_lo")
	PUB_HI = pubv("commit", "pub_hi")
	LKP = pubv("lkp", "pub_lo")
	if (!isnum(PUB_LO)) # the published table lost its row: the commit's range as the message gives it
		PUB_LO = 1.20
	if (dat) {
		for (k = 1; k <= nsz; k++) {
			judge(sizes[k])
			print "on/off " sizes[k] " B", (PUB_LO + PUB_HI) / 2, PUB_LO, PUB_HI, \
				(J_N ? J_MED : "NaN"), (J_N ? J_LO : "NaN"), (J_N ? J_HI : "NaN")
		}
		exit
	}

	print "# The 2025 UDP deferred skb free again: net.core.skb_defer_max off against on"
	print ""
	print "Published: Linux commit 6471658dc66c \"udp: use skb_attempt_defer_free()\" (Eric Dumazet, net-next, September 2025; in Linux 6.18):" \
		" a received UDP skb is freed back on the CPU that allocated it instead of by the reader; by its message that raised the maximum receive throughput" \
		" by " sprintf("%.0f", 100 * (PUB_LO - 1)) " % to " sprintf("%.0f", 100 * (PUB_HI - 1)) " %, depending on the number of softirq (BH) producers;" \
		" the kernel test robot measured netperf UDP_STREAM at " fx(LKP) "x on a 192-thread, two-socket machine (results/published/skb-defer-2025.tsv)." \
		" Here: blast -b " batch " -g 1 (sendmmsg, every datagram a message and an skb of its own) flooding to " dest \
		(wire ? " across a veth pair between two network namespaces (--wire: the receiving NAPI in a kernel thread on suck's CPU)" : "") \
		" into a fresh suck -m mmsg -w none, for " time " s a run, net.core.skb_defer_max 0 (off) and the value found at the start (on)," \
		" " runs " round(s), " (rounds == "abba" ? "A B B A (off first in odd rounds, on first in even ones)" : "off then on in every round") "; " cpu "; " machine "." \
		" The figure is suck's received datagrams per second over its receive window; the result, on/off round by round."
	print ""
	print "## on/off: here beside the published gain"
	print ""
	print "| size, bytes | rounds | off: received/s (least..most) | on: received/s (least..most) | on/off: median | least..most | interval of the median | published (commit) | verdict |"
	print "|---|---:|---:|---:|---:|---|---|---|---|"
	for (k = 1; k <= nsz; k++) {
		s = sizes[k]
		judge(s)
		print "| " s " | " J_N (J_NOISY ? " (" J_NOISY " noisy)" : "") " | " mlh("here", "off-" s, "pps", "k") " | " mlh("here", "on-" s, "pps", "k") \
			" | " (J_N ? J_MED : "-") " | " (J_N ? J_MIN ".." J_MAX : "-") " | " (J_N ? J_LO ".." J_HI " (" J_PCT " %)" : "-") \
			" | " PUB_LO ".." PUB_HI " | " J_V " |"
	}
	print ""
	print "Met: the whole interval at or above " PUB_LO " (the low end of the commit's gain); not met: all of it below; unresolved: it holds " PUB_LO ", or its level is below " MIN_LEVEL " % (fewer than 5 rounds)."
	print ""
	print "## Every round"
	print ""
	print "| size, bytes | round | first | off: received/s | on: received/s | on/off |"
	print "|---|---:|---|---:|---:|---:|"
	for (k = 1; k <= nsz; k++) {
		s = sizes[k]
		judge(s)
		for (i = 1; i <= maxrun; i++)
			if ((("off", s, i) in rp) || (("on", s, i) in rp))
				print "| " s " | " i " | " first(i) " | " ((("off", s, i) in rp) ? fk(rp["off", s, i]) : "-") \
					" | " ((("on", s, i) in rp) ? fk(rp["on", s, i]) : "-") " | " ((i in qr) ? qr[i] : "-") " |"
	}
	print ""
	print "## Every run here"
	print ""
	print "| row | run | skb_defer_max | s | sent | received | received % | dropped | received/s | suck CPU ns/datagram | kernel rx ns/datagram | noisy |"
	print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	for (k = 1; k <= nsz; k++)
		for (j = 1; j <= 2; j++) {
			r = (j == 1 ? "off-" : "on-") sizes[k]
			for (i = 1; i <= n["here", r]; i++)
				print "| " r " | " val["here", r, i, "run"] " | " val["here", r, i, "skb_defer_max"] " | " val["here", r, i, "duration_s"] \
					" | " val["here", r, i, "sent"] " | " val["here", r, i, "received"] " | " val["here", r, i, "received_pct"] \
					" | " val["here", r, i, "dropped"] " | " val["here", r, i, "pps"] " | " val["here", r, i, "cpu_ns_per_pkt"] \
					" | " (val["here", r, i, "rx_kernel_ns_per_pkt"] == "" ? "-" : val["here", r, i, "rx_kernel_ns_per_pkt"]) \
					" | " val["here", r, i, "noisy"] " |"
		}

	print ""
	print "## What the comparison shows"
	print ""
	p = ""
	for (k = 1; k <= nsz; k++) {
		s = sizes[k]
		judge(s)
		if (!J_N) {
			p = p "At " s " bytes no round has both settings measured: see the notes. "
			continue
		}
		st("here", "off-" s, "pps"); po = M
		st("here", "on-" s, "pps"); pn = M
		p = p sprintf("At %s bytes suck received %s datagrams/s with the deferral off and %s with it on (medians); on/off was %s over %d round(s) (least %s, most %s; %s %% interval of the median %s..%s): ",
			s, fk(po), fk(pn), J_MED, J_N, J_MIN, J_MAX, J_PCT, J_LO, J_HI)
		if (J_V == "met")
			p = p "the published gain is met" (J_LO + 0 > PUB_HI + 0 ? ", and more than the commit's " PUB_HI : "") ". "
		else if (J_V == "not met")
			p = p (J_HI + 0 < 1 ? "the deferral cost throughput here, the opposite of the published gain. " : \
				J_LO + 0 > 1 ? "a gain, but smaller than the published " PUB_LO ", so not met. " : "not met: the whole interval lies below " PUB_LO ". ")
		else if (J_PCT + 0 < MIN_LEVEL)
			p = p "too few rounds for a verdict (the interval's level is " J_PCT " %; 5 rounds give 93.8 %). "
		else
			p = p "unresolved, the interval holds " PUB_LO ". "
		co = st("here", "off-" s, "cpu_ns_per_pkt") ? M : ""
		if (co != "" && st("here", "on-" s, "cpu_ns_per_pkt"))
			p = p sprintf("suck's own CPU per datagram was %.0f ns off and %.0f ns on. ", co, M)
		ko = wire && st("here", "off-" s, "rx_kernel_ns_per_pkt") ? M : ""
		if (ko != "" && st("here", "on-" s, "rx_kernel_ns_per_pkt"))
			p = p sprintf("The receiving NAPI thread's CPU per datagram: %.0f ns off, %.0f ns on. ", ko, M)
		st("here", "off-" s, "received_pct"); lo_off = LO
		st("here", "on-" s, "received_pct"); lo_on = LO
		if (lo_off + 0 >= 95 && lo_on + 0 >= 95)
			p = p "suck took 95 % or more of what blast sent in every run of both settings: these rows are blast's rate, not the receiver's limit, and the ratio says little of the deferral. "
	}
	p = p "Read it with the setup in mind: the commit's " PUB_LO "-" PUB_HI " is for several softirq producers feeding one receiving thread, and two CPUs with one producer is the smallest case it describes; here the freed skbs go back to blast's CPU, " \
		(wire ? "which only sends (the receiving NAPI runs on suck's CPU), " : "which also runs loopback's whole receive path in its send calls, ") \
		"so moving the free off suck's CPU loads the sender's. The robot's " fx(LKP) "x came from 192 hardware threads on two sockets, against 2 CPUs here."
	print p
	notes_list()
}
