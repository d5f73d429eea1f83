# reproduce-lua.awk: reproduce.tsv of lua-2014 in, reproduce.md out: per strategy the 2014 table
# beside this run, then one paragraph on what the comparison shows, every claim computed from the
# numbers; after stats.awk and reproduce-2018.awk (which reads reproduce.tsv into val[source,
# variant, i, column] and gives st, rvals and notes_list). Variables: time, runs (the protocol
# as run), machine (where it ran), notes (the runs' notes file), alpha (0.05).
# Whether one receiver did better than another is decided by the rank test of stats.awk (two-sided
# Mann-Whitney U of their runs, p <= alpha), as scripts/compare and the suite's table.md decide it:
# with too few runs for any p to reach alpha (3 against 3: 0.1 at best) no winner is named.
BEGIN {
	if (alpha == "")
		alpha = 0.05
	nv = split("copy buffer mmsg", order, " ")
	title["copy"] = "A new copy per datagram: suck -m copy (malloc + memcpy, freed after the work); in 2014: Lua immutable strings, suck.lua"
	title["buffer"] = "One reusable buffer: suck -m buffer (work in place); in 2014: a buffer userdata, suckb.lua"
	title["mmsg"] = "Batches: suck -m mmsg (recvmmsg); no 2014 counterpart"
	KEPTUP = 95 # a receiver that processed this share or more kept up with the sender
}

function cell(s, v, i, f) { return (i <= n[s, v] && val[s, v, i, f] != "") ? val[s, v, i, f] : "-" }
# fl(x): a ratio of 2014 against here, to two significant digits or more (1.6, 105)
function fl(x) { return sprintf(x >= 10 ? "%.0f" : x >= 1 ? "%.1f" : "%.2f", x) }

# table(v): the 2014 shape (sent by blast, received by the receiver, memory in K) plus
# received/sent, 2014's columns first when there are any, one row per run and a median row.
function table(v,    cols, ncol, srcs, q, i, m, line, s, figs) {
	split("sent received memory_k received_pct", figs, " ")
	if (n["2014", v]) {
		srcs = "2014 here"
		line = "| run | Packets sent by blast.c (2014) | Packets received by " recv2014[v] " (2014) | Memory used in K by " recv2014[v] " (2014) | received/sent % (2014)"
	} else {
		srcs = "here"
		line = "| run"
	}
	line = line " | Packets sent by blast (here) | Packets received by suck -m " v " (here) | Memory used in K by suck (here) | received/sent % (here) |"
	print line
	ncol = split(srcs, cols, " ")
	line = "|---:|"
	for (q = 1; q <= 4 * ncol; q++)
		line = line "---:|"
	print line
	m = n["2014", v] > n["here", v] ? n["2014", v] : n["here", v]
	for (i = 1; i <= m; i++) {
		line = "| " i
		for (s = 1; s <= ncol; s++)
			for (q = 1; q <= 4; q++)
				line = line " | " cell(cols[s], v, i, figs[q])
		print line " |"
	}
	line = "| median"
	for (s = 1; s <= ncol; s++)
		for (q = 1; q <= 4; q++)
			line = line " | " (st(cols[s], v, figs[q]) ? M : "-")
	print line " |"
}

# judge(s, b, a, f): the rank test of b's runs of figure f against a's (source s). Returns "sig"
# (p <= alpha), "noise" (p > alpha), "few" (p > alpha, and these run counts cannot give less
# than alpha: too few runs to call any difference) or "" (a side has no run). Sets JTEST, "p =
# ..." (the name of the test the first time), JFEW, why the runs are too few (in full the first
# time for those counts), and JCI, the interval of b/a ("" when not defined).
function judge(s, b, a, f,    A, B, na, nb, p) {
	nb = rvals(s, b, f, B)
	na = rvals(s, a, f, A)
	JTEST = JFEW = JCI = ""
	if (!na || !nb)
		return ""
	p = mw_test(B, nb, A, na)
	JTEST = "p = " fmtp(p) (named++ ? "" : " in a two-sided Mann-Whitney U test of the runs")
	if (ratio_ci(A, na, B, nb, alpha))
		JCI = CI_LO ".." CI_HI " (" CI_PCT " % interval)"
	if (p <= alpha)
		return "sig"
	if (mw_minp(na, nb) > alpha) {
		if (!((na, nb) in fewsaid)) {
			fewsaid[na, nb] = 1
			JFEW = nb " run" (nb > 1 ? "s" : "") " against " na " cannot give a p below " fmtp(mw_minp(na, nb)) \
				", so the test cannot call a difference at " alpha " (that needs " mw_needed(alpha) " runs each)"
		} else
			JFEW = "again too few runs to call it"
		return "few"
	}
	return "noise"
}

# versus(f, b, a, what, unit, better): a sentence comparing figure f of variants b and a here:
# their medians and ranges, the ratio, and whether the rank test calls the difference.
# better: "high" or "low".
function versus(f, b, a, what, unit, better,    nb, na, mb, lb, hb, ma, la, ha, r, s, j) {
	nb = st("here", b, f); mb = M; lb = LO; hb = HI
	na = st("here", a, f); ma = M; la = LO; ha = HI
	if (!nb || !na || ma + 0 == 0)
		return ""
	r = mb / ma
	s = sprintf("%s: %s %s%s (%s) against %s %s%s (%s), %.3fx", what, b, mb, unit, lb == hb ? "one value" : lb ".." hb,
		a, ma, unit, la == ha ? "one value" : la ".." ha, r)
	j = judge("here", b, a, f)
	if (j == "few")
		return s ", " JTEST ": " JFEW ". "
	if (j == "noise")
		return s ", " JTEST ": within the noise of the runs, no difference this experiment can see. "
	if (r == 1)
		return s ", " JTEST ": the runs differ beyond the noise, the medians do not. "
	s = s (JCI != "" ? ", " JCI : "") ", " JTEST ": beyond the noise of the runs, "
	if ((r > 1) == (better == "high"))
		return s b " did better. "
	return s a " did better. "
}

END {
	for (j = 1; j <= nv; j++)
		if (n["2014", order[j]])
			recv2014[order[j]] = val["2014", order[j], 1, "receiver"]
	print "# The 2014 experiment again: immutable strings vs buffers, in C"
	print ""
	print "Protocol of the 2014 lua-l post (Sean Conner, August 2014): blast sends 1450-byte datagrams for " time " s, one sendto() each (blast -b 1);" \
		" the receiver counts every byte value of every datagram (suck -w histogram); " runs " run(s) per receiver." \
		" 2014: Lua 5.1 receivers on a 2.6 GHz dual-core 32-bit Pentium, 10 s, 3 runs (results/published/lua-net-speed-2014.tsv)." \
		" Here: " machine ". \"Memory used in K\" here is suck's heap_kib (heap in use at the end), the analog of Lua's collectgarbage('count')."
	for (j = 1; j <= nv; j++) {
		v = order[j]
		if (!n["2014", v] && !n["here", v])
			continue
		print ""
		print "## " title[v]
		print ""
		table(v)
	}

	print ""
	print "## What the comparison shows"
	print ""
	p = ""
	have2014 = st("2014", "copy", "received_pct") && st("2014", "buffer", "received_pct")
	if (have2014) {
		st("2014", "copy", "received_pct"); pc = M
		st("2014", "buffer", "received_pct"); pb = M
		p = p sprintf("In 2014 the Lua receivers processed %s %% (immutable strings) and %s %% (buffer userdata) of the datagrams blast sent (medians); the buffer's share was %.2fx the strings'", pc, pb, pb / pc)
		verdict = judge("2014", "buffer", "copy", "received_pct")
		if (verdict == "sig")
			p = p (pb < pc ? ", lower, against the thesis that a reusable buffer is faster (" : ", higher, as the thesis expected (") JTEST "). "
		else if (verdict == "few")
			p = p (pb < pc ? ", lower by the medians, against the thesis that a reusable buffer is faster; " : ", higher by the medians, as the thesis expected; ") \
				"but " JTEST ", and " JFEW ". "
		else
			p = p (pb < pc ? ", lower by the medians, against the thesis that a reusable buffer is faster, " : ", higher by the medians, as the thesis expected, ") \
				"but within the noise of the runs (" JTEST "). "
	}
	sep = "Here suck processed "
	all = 0
	keptup = 1
	for (j = 1; j <= nv; j++) {
		v = order[j]
		if (!st("here", v, "received_pct"))
			continue
		hm[v] = M
		p = p sep M " % (" v ")"
		sep = ", "
		all++
		if (LO + 0 < KEPTUP)
			keptup = 0
	}
	if (all) {
		p = p " of what blast sent"
		if (have2014 && ("copy" in hm) && pc > 0)
			p = p sprintf("; the copy's share is %sx its 2014 counterpart's", fl(hm["copy"] / pc))
		p = p ". "
	}
	if (all && keptup) {
		p = p "Every receiver kept up with blast (at least " KEPTUP " % in every run), so here the share cannot rank them and the CPU each spent per datagram does. "
		p = p versus("cpu_ns_per_pkt", "buffer", "copy", "CPU per datagram", " ns", "low")
		p = p versus("cpu_ns_per_pkt", "mmsg", "buffer", "CPU per datagram", " ns", "low")
	} else if (all) {
		p = p versus("received_pct", "buffer", "copy", "Share processed", " %", "high")
		p = p versus("received_pct", "mmsg", "buffer", "Share processed", " %", "high")
	}
	# rates: sent and processed per second, 2014 against here
	if (have2014 && st("here", "copy", "duration_s") && M + 0 > 0) {
		dh = M
		st("2014", "copy", "sent"); s14 = M / 10
		st("2014", "copy", "received"); r14 = M / 10
		st("here", "copy", "sent"); sh = M / dh
		st("here", "copy", "received"); rh = M / dh
		p = p sprintf("blast sent %.0f datagrams/s here against %.0f/s in 2014 (%sx); the copy receiver processed %.0f/s against %.0f/s (%sx). ", sh, s14, fl(sh / s14), rh, r14, fl(rh / r14))
	}
	# where the rest went
	tl = td = 0
	for (j = 1; j <= nv; j++) {
		v = order[j]
		for (i = 1; i <= n["here", v]; i++) {
			tl += val["here", v, i, "sent"] - val["here", v, i, "received"]
			td += val["here", v, i, "dropped"]
		}
	}
	if (tl > 0)
		p = p sprintf("Of the %d datagrams suck did not process in all runs, %.1f %% overflowed its receive buffer (the kernel's drop counter of the socket). ", tl, 100 * td / tl)
	else if (all)
		p = p "suck processed every datagram blast sent. "
	# memory
	if (st("2014", "copy", "memory_k")) {
		mlo = LO; mhi = HI
		if (st("2014", "buffer", "memory_k")) {
			if (LO + 0 < mlo + 0) mlo = LO
			if (HI + 0 > mhi + 0) mhi = HI
		}
		p = p sprintf("Memory: Lua held %s..%s K of heap at the end in 2014", mlo, mhi)
		sep = "; here suck's heap at the end was "
		for (j = 1; j <= nv; j++)
			if (st("here", order[j], "memory_k")) {
				p = p sep (LO == HI ? M : LO ".." HI) " KiB (" order[j] ")"
				sep = ", "
			}
		p = p ". "
	}
	if (time + 0 != 10)
		p = p "These runs took " time " s, not 10 s: compare the shares and rates, not the counts."
	sub(/ $/, "", p)
	print p
	notes_list()
}
