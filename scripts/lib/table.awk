# table.awk: summary.tsv in, the two markdown tables of table.md out (padded so they also read
# well in a terminal). A cell is "median (min..max)" over the runs, or just the median when all
# runs agree; "-" when no run reported the figure. Counts are shortened (834.6k, 1.21M): the
# exact numbers are in summary.tsv; KiB stay exact. A third table with suck --latency's delays,
# one of the receive path when the runs measured the kernel's part (suck --rx-dev: --wire), and
# one of the round trips when blast measured them (blast --rtt: the suite's --rtt).
# Then which differences between the variants are beyond the noise, from the runs themselves
# (runs.tsv beside summary.tsv, or the file given as -v runsfile=FILE): for received/s, suck CPU
# per datagram and, where measured, the whole receive path's per datagram, transactions/s and
# the RTT's p50, the variants ordered
# by median and each tested against the next with the two-sided Mann-Whitney U test of stats.awk
# (p <= alpha, 0.05 when not given), and a note when the runs are too few for any p to reach alpha.
# With -v part=loss, only "Where the loss went" (suck --drops, the suite's --drops): per variant
# the lost datagrams by the kernel's drop reason (every suck_drop_* figure but the fins, those
# with a count in some run), queue dropped and unexplained, then blast's qdisc and device drops
# where some run had any; nothing when no run counted drops.
# With -v ceiling=FILE (suite --ceiling: ceiling.tsv) and -v ceilcmd=CMD (its blast), the receive
# path's table ends with "of ceiling", runs.tsv's of_ceiling (each run's received/s over its
# round's ceiling) as median (least..most) with two decimals, and a sentence under it says what
# the ceiling was: its dropped/s over the rounds and the command.
BEGIN {
	FS = OFS = "\t"
	if (alpha == "")
		alpha = 0.05
	# the figures the commentary ranks: column:heading:which way is better (the receive path's
	# total only where it was measured: a run on loopback reports "-", no number to rank)
	ncfig = split("suck_pps:received/s:high|suck_cpu_ns_per_pkt:suck CPU ns/datagram:low|" \
		"suck_rx_total_ns_per_pkt:receive path ns/datagram (suck + kernel):low|" \
		"blast_tps:transactions/s:high|blast_rtt_p50_us:RTT p50:low", cfig, "|")
	ntab = 2
	spec[1] = "runs:runs|blast_sent:sent by blast|suck_received:received by suck|received_pct:received % (per run)|suck_dropped:dropped (rcvbuf full)|suck_elsewhere:lost elsewhere|suck_pps:received/s"
	spec[2] = "suck_cpu_ns_per_pkt:suck CPU ns/datagram|suck_user_s:suck user s|suck_sys_s:suck sys s|blast_cpu_ns_per_pkt:blast CPU ns/datagram|suck_rss_kib:suck rss KiB|suck_heap_kib:suck heap KiB"
	# with suck --latency (the suite's --latency), a third table: the one-way delay and its parts
	# on the wire (suck --rx-dev), the receive path: suck's CPU, the NAPI thread's, their sum
	specw = "suck_cpu_ns_per_pkt:suck CPU ns/datagram|suck_rx_kernel_ns_per_pkt:kernel rx ns/datagram|suck_rx_total_ns_per_pkt:total rx ns/datagram|suck_rx_napi_s:NAPI thread s|suck_rx_softirq_s:softirq s|suck_segs_per_buf:datagrams/buffer"
	spec[3] = "suck_lat_p50_us:delay p50 us|suck_lat_p99_us:p99 us|suck_lat_p999_us:p99.9 us|suck_lat_max_us:max us|suck_stack_p50_us:stack p50 us|suck_queue_p50_us:queue p50 us|suck_queue_p99_us:queue p99 us"
	# with blast --rtt (the suite's --rtt): the round trips, blast's send call to suck's reply
	specr = "blast_tps:transactions/s|blast_rtt_p50_us:RTT p50 us|blast_rtt_p90_us:p90 us|blast_rtt_p99_us:p99 us|blast_rtt_p999_us:p99.9 us|blast_rtt_max_us:max us|blast_rtt_mean_us:mean us|blast_rtt_lost:unanswered"
}

function short(s,    x) {
	if (!isnum(s))
		return s
	x = s + 0
	if (x >= 1e9 || x <= -1e9)
		return trim(sprintf("%.2f", x / 1e9)) "G"
	if (x >= 1e6 || x <= -1e6)
		return trim(sprintf("%.2f", x / 1e6)) "M"
	if (x >= 1e4 || x <= -1e4)
		return trim(sprintf("%.1f", x / 1e3)) "k"
	return s
}

# pct1(s): a percentage with one decimal (34.975 -> 35.0), as the datagrams plot labels it
function pct1(s) { return isnum(s) ? sprintf("%.1f", s) : s }

function cellof(v, f,    k) {
	if (!((v, f) in med))
		return "-"
	if (f == "of_ceiling") {
		if (lo[v, f] == hi[v, f])
			return sprintf("%.2f", med[v, f])
		return sprintf("%.2f (%.2f..%.2f)", med[v, f], lo[v, f], hi[v, f])
	}
	# A percentage is each run's own (received_pct: received / sent of that run), and its median
	# is that of the runs' percentages, not the ratio of the medians beside it: one decimal.
	if (f ~ /_pct$/) {
		if (lo[v, f] == hi[v, f])
			return pct1(med[v, f])
		return pct1(med[v, f]) " (" pct1(lo[v, f]) ".." pct1(hi[v, f]) ")"
	}
	k = f !~ /_kib$/ # KiB stay exact: "65.6k KiB" would read wrong
	if (lo[v, f] == hi[v, f])
		return k ? short(med[v, f]) : med[v, f]
	if (!k)
		return med[v, f] " (" lo[v, f] ".." hi[v, f] ")"
	return short(med[v, f]) " (" short(lo[v, f]) ".." short(hi[v, f]) ")"
}

function pad(s, w) { return sprintf("%-" w "s", s) }

function table(t,    ncol, i, k, parts, f, head, w, line, sep, cells) {
	ncol = split(spec[t], parts, "|")
	f[0] = "variant"
	head[0] = "variant"
	for (i = 1; i <= ncol; i++) {
		split(parts[i], kv, ":")
		f[i] = kv[1]
		head[i] = kv[2]
	}
	for (i = 0; i <= ncol; i++)
		w[i] = length(head[i])
	for (k = 1; k <= nv; k++) {
		cells[k, 0] = order[k]
		for (i = 1; i <= ncol; i++)
			cells[k, i] = f[i] == "runs" ? runs[order[k]] : cellof(order[k], f[i])
		for (i = 0; i <= ncol; i++)
			if (length(cells[k, i]) > w[i])
				w[i] = length(cells[k, i])
	}
	line = "|"
	sep = "|"
	for (i = 0; i <= ncol; i++) {
		line = line " " pad(head[i], w[i]) " |"
		sep = sep (i ? "-" : ":") sprintf("%" w[i] "s", "") (i ? ":" : "-") "|"
	}
	gsub(/ /, "-", sep)
	print line
	print sep
	for (k = 1; k <= nv; k++) {
		line = "|"
		for (i = 0; i <= ncol; i++)
			line = line " " (i ? sprintf("%" w[i] "s", cells[k, i]) : pad(cells[k, i], w[i])) " |"
		print line
	}
}

NR == 1 { next }
{
	v = $1
	if ($2 ~ /^suck_drop_/ && $2 != "suck_drop_fins" && !($2 in isreason)) {
		isreason[$2] = 1
		reason[++nreason] = $2
	}
	if ($2 in isreason && $6 > 0)
		seenreason[$2] = 1
	if (($2 == "blast_qdisc_drops" || $2 == "blast_tx_dev_dropped") && $6 > 0)
		seensender[$2] = 1
	if (!(v in runs)) {
		order[++nv] = v
		runs[v] = 0
	}
	if ($3 > runs[v])
		runs[v] = $3
	med[v, $2] = $4
	lo[v, $2] = $5
	hi[v, $2] = $6
}
# readruns(file): the runs of the commentary's figures, R[v, f, 1..RN[v, f]]; 0 when unreadable.
function readruns(file,    line, hdr, c, n, i, q, fl, kv, f, v) {
	if (file == "" || (getline line < file) <= 0)
		return 0
	n = split(line, hdr, "\t")
	for (i = 1; i <= n; i++)
		c[hdr[i]] = i
	if (!("variant" in c)) {
		close(file)
		return 0
	}
	while ((getline line < file) > 0) {
		split(line, fl, "\t")
		v = fl[c["variant"]]
		for (q = 1; q <= ncfig; q++) {
			split(cfig[q], kv, ":")
			f = kv[1]
			if ((f in c) && isnum(fl[c[f]]))
				R[v, f, ++RN[v, f]] = fl[c[f]]
		}
	}
	close(file)
	return 1
}

# commentary(): one line per ranked figure: "a > b (ratio, interval, p) ~ c (p) ...".
function commentary(    q, kv, f, what, better, k, m, v, med, sv, ix, a, b, na, nb, i, line, p, ma, mb, ci, few, fewmin, sign) {
	print ""
	print "Beyond the noise? The variants best first by median (most received/s, least CPU" \
		(rtt ? "; most transactions/s, shortest RTT" : "") "), each against the next in a" \
		" two-sided Mann-Whitney U test of their runs: > or < when p <= " alpha " (with the ratio of the medians and its " \
		trim(sprintf("%.1f", 100 * (1 - alpha))) " % Hodges-Lehmann interval), ~ when not."
	print ""
	few = ""
	for (q = 1; q <= ncfig; q++) {
		split(cfig[q], kv, ":")
		f = kv[1]; what = kv[2]; better = kv[3]
		m = 0
		split("", med); split("", sv)
		for (k = 1; k <= nv; k++) {
			v = order[k]
			if (RN[v, f] > 0) {
				sv[++m] = v
				split("", a)
				for (i = 1; i <= RN[v, f]; i++)
					a[i] = R[v, f, i]
				sortnum(a, RN[v, f])
				med[m] = (better == "high" ? -1 : 1) * median(a, RN[v, f])
			}
		}
		if (m < 2)
			continue
		sortidx(med, m, ix) # best first; ties keep no particular order, which is fine: they are ~
		line = "- " what ": " sv[ix[1]]
		for (k = 2; k <= m; k++) {
			split("", a); split("", b)
			na = RN[sv[ix[k - 1]], f]; nb = RN[sv[ix[k]], f]
			for (i = 1; i <= na; i++) a[i] = R[sv[ix[k - 1]], f, i]
			for (i = 1; i <= nb; i++) b[i] = R[sv[ix[k]], f, i]
			p = mw_test(b, nb, a, na)
			if (mw_minp(na, nb) > alpha && !((na, nb) in fewseen)) {
				fewseen[na, nb] = 1
				few = few (few == "" ? "" : "; ") na " run" (na > 1 ? "s" : "") " against " nb " give p = " fmtp(mw_minp(na, nb)) " at the smallest"
			}
			sortnum(a, na); sortnum(b, nb)
			ma = median(a, na); mb = median(b, nb)
			sign = better == "high" ? ">" : "<"
			if (p > alpha) {
				line = line " ~ " sv[ix[k]] " (p = " fmtp(p) ")"
				continue
			}
			ci = ratio_ci(b, nb, a, na, alpha) ? ", " CI_LO ".." CI_HI : ""
			line = line " " sign " " sv[ix[k]] " (" (isnum(ratio(ma, mb)) ? ratio(ma, mb) "x" ci ", " : "") "p = " fmtp(p) ")"
		}
		print line
	}
	if (few != "")
		print "" RS "Too few runs to call a difference: " few ", above " alpha "; " mw_needed(alpha) \
			" runs per variant at least would do (scripts/suite -r " mw_needed(alpha) ")."
}

# ceilnote(file): the sentence under the receive path's table on the ceiling of ceiling.tsv FILE.
function ceilnote(file,    line, h, n, i, c, q, f, a, m, nq, rate) {
	m = nq = 0
	if ((getline line < file) > 0) {
		n = split(line, h, "\t")
		for (i = 1; i <= n; i++) {
			if (h[i] == "dropped_pps")
				c = i
			if (h[i] == "noisy")
				q = i
		}
		while ((getline line < file) > 0) {
			split(line, f, "\t")
			if (c && isnum(f[c])) {
				a[++m] = f[c]
				nq += q && f[q] == 1
			}
		}
		close(file)
	}
	print ""
	if (!m) {
		print "Ceiling (--ceiling): no run into the XDP drop succeeded (see the notes), so no variant has a fraction of it."
		return
	}
	sortnum(a, m)
	rate = short(median(a, m)) (a[1] == a[m] ? "" : " (" short(a[1]) ".." short(a[m]) ")")
	print "Ceiling (--ceiling, ceiling.tsv): in each round the same blast, `" ceilcmd "`, into an XDP_DROP" \
		" on suck's end of the veth in place of suck (bin/ladder xdp, native mode, run by the NAPI thread" \
		" on suck's CPU) dropped " rate " datagrams/s, the median (least..most) of " m " round" (m > 1 ? "s" : "") \
		" over blast's send window, its fins left out; \"of ceiling\" is each run's received/s over its" \
		" round's ceiling, the median (least..most) of a variant's rounds." \
		(nq ? " " nq " of the " m " ceiling runs were noisy (ceiling.tsv's noisy; never measured again): their rounds' fractions are less sure." : "")
}

# loss(): the section "Where the loss went", when the runs counted the kernel's drops.
function loss(    k, i, r, d, name) {
	for (k = 1; k <= nv; k++)
		if ((order[k], "suck_drops_attributed") in med)
			d = 1
	if (!d)
		return
	spec[1] = "runs:runs|suck_lost:lost|suck_drops_attributed:kernel dropped"
	r = ""
	for (i = 1; i <= nreason; i++) {
		if (!(reason[i] in seenreason))
			continue
		name = toupper(substr(reason[i], 11))
		if (name == "OTHER")
			name = "other reasons"
		spec[1] = spec[1] "|" reason[i] ":" name
	}
	spec[1] = spec[1] "|suck_queue_dropped:queue dropped|suck_unexplained:unexplained"
	if ("blast_qdisc_drops" in seensender)
		spec[1] = spec[1] "|blast_qdisc_drops:sender's qdiscs"
	if ("blast_tx_dev_dropped" in seensender)
		spec[1] = spec[1] "|blast_tx_dev_dropped:sender's device"
	print ""
	print "## Where the loss went"
	print ""
	print "The datagrams each variant lost (sent - valid) by where they went, suck --drops: the kernel's drops" \
		" of the run's datagrams, by drop reason (a reason no run saw is left out), pool's queue drops, and" \
		" unexplained, lost where this host's kernel saw no drop. Every run's lost = kernel dropped + queue" \
		" dropped + unexplained; the medians here need not add up (each run's are in runs.tsv). Where" \
		" blast's host dropped some after its send calls said yes, its qdiscs' and its device's drops" \
		" (any traffic's) follow: part of unexplained when blast runs in another namespace or host."
	print ""
	table(1)
}

END {
	if (part == "loss") {
		loss()
		exit
	}
	for (k = 1; k <= nv; k++) {
		if ((order[k], "suck_lat_p50_us") in med)
			lat = 1
		if ((order[k], "suck_rx_kernel_ns_per_pkt") in med)
			wire = 1
		if ((order[k], "of_ceiling") in med)
			wire = ofceil = 1
		if ((order[k], "blast_rtt_p50_us") in med)
			rtt = 1
	}
	if (lat)
		ntab = 3
	if (ceiling != "") # the sentence goes under this table, even where no run had a ratio
		wire = 1
	if (ofceil)
		specw = specw "|of_ceiling:of ceiling"
	if (wire)
		spec[wtab = ++ntab] = specw
	if (rtt)
		spec[++ntab] = specr
	for (t = 1; t <= ntab; t++) {
		if (t > 1)
			print ""
		table(t)
		if (t == wtab && ceiling != "")
			ceilnote(ceiling)
	}
	if (runsfile == "" && FILENAME != "" && FILENAME != "-") {
		runsfile = FILENAME
		sub(/[^\/]*$/, "", runsfile)
		runsfile = runsfile "runs.tsv"
	}
	if (nv > 1 && readruns(runsfile))
		commentary()
}
