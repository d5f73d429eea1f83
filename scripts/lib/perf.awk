# perf.awk: the table of scripts/perf, its targets' verdicts, and the agreement of two runs,
# from its figures (perf.tsv: a header line naming the columns, then a line per figure: size,
# name, figure, round, value, and of the measurement it came from: row, attempt, leg, used,
# noisy, calib_pre_pct, calib_post_pct, other_pct, steal_pct, secs; a file of the five first
# columns only, as perf wrote before it measured noise, is read as one attempt per round).
#   awk -F'\t' [-v mode=table|unresolved|twice] -v sizes=... -v rounds=... -v secs=... -v rate=...
#       -v batch=... -v rcvbuf=... -v segsfile=FILE -v missing="iperf3 ..." [-v xdponly=1]
#       [-v peeronly=1] -v noiselimit=PCT -v retry=K -v budget=SECS -v budgetleft=spent|rounds
#       -v cpus="0 1" -v calibms=MS -v calib=1 -v statusfile=FILE -f stats.awk -f perf.awk FIGURES
# mode table (the default): the table, its targets and the noise of the run; statusfile gets 1
# when a target is not met, else 0. mode unresolved: a line "SIZE ROW" per row of an unresolved
# target (not xdp's), for --budget. mode twice: two FIGURES, the same measurement run twice
# (file1, file2 name them): per target both verdicts and whether they agree; statusfile gets 1
# when they disagree on one or one is not met, else 0.
# xdponly: only the xdp pair's section and targets (scripts/perf --xdp-only).
# peeronly: only the rows and targets against iperf3 (scripts/perf --peer-only).
# segsfile has a line "SIZE SEGS" per size (SEGS: datagrams per GSO message at that size).
# A round's figure is the used attempt's (the last made), the mean of its legs when the row ran
# A B B A. A figure is shown as median [min max] over the rounds (stats.awk's sortnum and
# median). A ratio of two figures of one measurement (a pair at once, or a tool and its peer
# A B B A) is taken per round, and its median [min max] shown; a few findings set figures of
# different measurements side by side by the ratio of their medians [lowest highest per-round
# ratio], and say so. A target is judged on the interval of the median of its per-round ratios
# (stats.awk median_ci, order statistics: 95 %, or min..max at the level that has with fewer
# than 6 rounds): met when all of it is on the target's side, NOT MET when none of it is,
# unresolved when it holds the target or its level is below MIN_LEVEL (90 %: fewer than 5
# rounds; one round is a point, at 0 %). Every function here begins with pf_: stats.awk, loaded
# beside, has names of its own (ratio, median, ...).

# pf_spread(a, n): "median min max" of the values in a[1..n], or "" when n is 0
function pf_spread(a, n) {
	if (n == 0)
		return ""
	sortnum(a, n)
	return median(a, n) " " a[1] " " a[n]
}
function pf_figure(sz, name, f,    r, n, a) {
	n = 0
	for (r = 1; r <= maxr[S]; r++)
		if ((S, sz, name, f, r) in v)
			a[++n] = v[S, sz, name, f, r]
	return pf_spread(a, n)
}
# pf_value: one round's figure; name may be "best:X:Y", the larger of X and Y that round
function pf_value(sz, name, f, r,    p, x, y) {
	if (name !~ /^best:/)
		return ((S, sz, name, f, r) in v) ? v[S, sz, name, f, r] : ""
	split(name, p, ":")
	x = pf_value(sz, p[2], f, r)
	y = pf_value(sz, p[3], f, r)
	if (x == "")
		return y
	if (y == "" || x + 0 > y + 0)
		return x
	return y
}
# pf_ratios(sz, num, den, f, a): num/den round by round into a[1..n], sorted; n. RN_NOISY: how
# many of those rounds kept a noisy measurement of num's row.
function pf_ratios(sz, num, den, f, a,    r, n, x, y) {
	n = 0
	RN_NOISY = 0
	for (r = 1; r <= maxr[S]; r++) {
		x = pf_value(sz, num, f, r)
		y = pf_value(sz, den, f, r)
		if (x != "" && y != "" && y + 0 > 0) {
			a[++n] = x / y
			if ((S, sz, rowof[S, sz, num], r) in keptnoisy)
				RN_NOISY++
		}
	}
	sortnum(a, n)
	return n
}
# pf_ratio: of num/den, round by round: "median min max"
function pf_ratio(sz, num, den, f,    n, a) {
	n = pf_ratios(sz, num, den, f, a)
	return pf_spread(a, n)
}
# pf_mratio: of tools measured apart, each with its own noise, by their medians:
# "median(num) / median(den) lowest highest" of the per-round ratios. den "best:X:Y" is the
# better median of X and Y (taking the better of two noisy figures per round would favour the
# denominator).
function pf_mratio(sz, num, den, f,    a, b, p, x, y) {
	split(pf_figure(sz, num, f), a, " ")
	if (den ~ /^best:/) {
		split(den, p, ":")
		split(pf_figure(sz, p[2], f), x, " ")
		split(pf_figure(sz, p[3], f), y, " ")
		b[1] = (x[1] == "" || (y[1] != "" && y[1] + 0 > x[1] + 0)) ? y[1] : x[1]
	} else {
		split(pf_figure(sz, den, f), b, " ")
	}
	if (a[1] == "" || b[1] == "" || b[1] + 0 <= 0)
		return ""
	split(pf_ratio(sz, num, den, f), p, " ")
	return (a[1] / b[1]) " " p[2] " " p[3]
}

function pf_cell(s, fmt,    p) {
	if (fmt == "")
		return sprintf("%-28s", "")
	if (s == "")
		return sprintf("%-28s", "-")
	split(s, p, " ")
	return sprintf("%-28s", sprintf(fmt " [" fmt " " fmt "]", p[1], p[2], p[3]))
}
function pf_row(label, pps, cpu, fmt1, fmt2,    line) {
	line = sprintf("  %-44s %s %s", label, pf_cell(pps, fmt1), pf_cell(cpu, fmt2))
	sub(/ +$/, "", line)
	print line
}
function pf_head(what, c1, c2,    line) {
	line = sprintf("  %-44s %-28s %s", "", c1, c2)
	sub(/ +$/, "", line)
	print what
	print line
}
function pf_fig(sz, name, label) {
	pf_row(label, pf_figure(sz, name, "pps"), pf_figure(sz, name, "cpu"), "%.0f", "%.1f")
}
function pf_rat(sz, num, den, label) {
	pf_row(label, pf_ratio(sz, num, den, "pps"), pf_ratio(sz, num, den, "cpu"), "%.3f", "%.3f")
}
function pf_cpufig(sz, name, label) {
	if ((sz, name) in lossy)
		label = sprintf("%-30s lossy %d/%d", label, lossy[sz, name], maxr[S])
	pf_row(label, "", pf_figure(sz, name, "cpu"), "", "%.1f")
}
function pf_cpurat(sz, num, den, label) { pf_row(label, "", pf_ratio(sz, num, den, "cpu"), "", "%.3f") }
# pf_pair: two receivers measured at the same time (NAME.A and NAME.B), and their ratio A/B
function pf_pair(sz, name, a, b, lead, label_a, label_b, label_ratio) {
	pf_cpufig(sz, name "." a, sprintf("%-11s", lead) label_a)
	pf_cpufig(sz, name "." b, "             " label_b)
	pf_cpurat(sz, name "." a, name "." b, "             ratio " label_ratio)
}
# pf_ppscpu: a tool's rate (figure f) and its CPU per datagram (figure c)
function pf_ppscpu(sz, name, f, c, label) {
	pf_row(label, pf_figure(sz, name, f), pf_figure(sz, name, c), "%.0f", "%.1f")
}
function pf_ppsrat(sz, num, den, f, label) { pf_row(label, pf_mratio(sz, num, den, f), "", "%.3f", "") }

# ---- targets ----
# pf_tdef: one target: its group (shown under one heading), size, row (the measurement that
# has both figures), numerator, denominator, figure, op (">=" or "<="), limit, label.
function pf_tdef(grp, sz, row, num, den, f, op, lim, label) {
	nt++
	T_GRP[nt] = grp; T_SZ[nt] = sz; T_ROW[nt] = row; T_NUM[nt] = num; T_DEN[nt] = den
	T_F[nt] = f; T_OP[nt] = op; T_LIM[nt] = lim; T_LABEL[nt] = label
}
function pf_targets_define(    n, i, sz) {
	n = split("1450 64", sz, " ")
	pf_tdef("a", 1450, "send.sendto", "send.sendto.blast", "send.sendto.bare", "pps", ">=", "0.97",
		"blast -b 1 pps >= 0.97 x bare sendto loop")
	pf_tdef("a", 1450, "recv.buffer", "recv.buffer.suck", "recv.buffer.bare", "cpu", "<=", "1.05",
		"suck -m buffer cpu/datagram <= 1.05 x bare recvfrom")
	pf_tdef("a", 1450, "recv.mmsg", "recv.mmsg.suck", "recv.mmsg.bare", "cpu", "<=", "1.05",
		"suck -m mmsg cpu/datagram <= 1.05 x bare recvmmsg")
	for (i = 1; i <= n; i++)
		pf_tdef("b", sz[i], "recv.uring", "recv.uring.suck", "recv.uring.bare", "cpu", "<=", "1.05",
			"suck uring <= 1.05 x bare io_uring (CPU per datagram), " sz[i] " B")
	for (i = 1; i <= n; i++)
		pf_tdef("b", sz[i], "recv.epoll", "recv.epoll.suck", "recv.epoll.bare", "cpu", "<=", "1.05",
			"suck epoll <= 1.05 x bare epoll (CPU per datagram), " sz[i] " B")
	for (i = 1; i <= n; i++)
		pf_tdef("b", sz[i], "recv.pool", "recv.pool.suck", "recv.pool.bare", "cpu", "<=", "1.05",
			"suck pool <= 1.05 x bare pool (CPU per datagram), " sz[i] " B")
	for (i = 1; i <= n; i++)
		pf_tdef("b", sz[i], "recv.latency", "recv.latency.on", "recv.latency.off", "cpu", "<=", "1.10",
			"suck mmsg --latency <= 1.10 x without (CPU per datagram), " sz[i] " B")
	for (i = 1; i <= n; i++)
		pf_tdef("b", sz[i], "recv.mmsg", "recv.mmsg.suck", "recv.mmsg.bare", "cpu", "<=", "1.05",
			"suck mmsg counting loss runs <= 1.05 x bare (CPU per datagram), " sz[i] " B")
	for (i = 1; i <= n; i++)
		pf_tdef("b", sz[i], "send.pattern", "send.pattern.poisson", "send.pattern.even", "cpu", "<=", "1.10",
			"blast --pattern poisson <= 1.10 x even pacing (CPU per datagram, " prate "/s), " sz[i] " B")
	for (i = 1; i <= n; i++)
		pf_tdef("x", sz[i], "xdp", "xdp.suck", "xdp.bare", "cpu", "<=", "1.05",
			"suck xdp <= 1.05 x bare xdp (CPU per datagram, veth), " sz[i] " B")
	# The peer: blast's default shape into suck -m gro against iperf3's client into its own
	# server, A B B A in every round.
	for (i = 1; i <= n; i++)
		pf_tdef("p", sz[i], "peer.gro", "grosent", "iperf3", "pps", ">=", sz[i] == 64 ? "1.25" : "1.10",
			"blast default sent pps >= " (sz[i] == 64 ? "1.25" : "1.10") " x iperf3 client, " sz[i] " B")
	for (i = 1; i <= n; i++)
		pf_tdef("p", sz[i], "peer.gro", "pps.gro", "iperf3rcvd", "pps", ">=", "1.05",
			"suck -m gro received pps >= 1.05 x iperf3 server, " sz[i] " B")
}
# pf_shown(t): target t belongs to this run's sections
function pf_shown(t) {
	if (xdponly)
		return T_GRP[t] == "x"
	if (peeronly)
		return T_GRP[t] == "p"
	return 1
}
# pf_judge(t): target t in set S: J_V (met, NOT MET, unresolved, n/a), J_MED, J_LO, J_HI,
# J_PCT (the interval's level, %), J_N (rounds), J_NOISY (of them, rounds kept noisy).
function pf_judge(t,    a, n, met, notmet) {
	J_V = "n/a"; J_MED = J_LO = J_HI = J_PCT = ""; J_N = J_NOISY = 0
	n = pf_ratios(T_SZ[t], T_NUM[t], T_DEN[t], T_F[t], a)
	if (n == 0)
		return
	J_N = n
	J_NOISY = RN_NOISY
	J_MED = median(a, n)
	median_ci(a, n, 0.05)
	J_LO = MCI_LO; J_HI = MCI_HI; J_PCT = MCI_PCT
	if (T_OP[t] == ">=") {
		met = J_LO + 0 >= T_LIM[t] + 0
		notmet = J_HI + 0 < T_LIM[t] + 0
	} else {
		met = J_HI + 0 <= T_LIM[t] + 0
		notmet = J_LO + 0 > T_LIM[t] + 0
	}
	J_V = met ? "met" : notmet ? "NOT MET" : "unresolved"
	# Too few rounds for the interval to mean much (4 rounds: 87.5 %): no verdict yet.
	if (J_PCT + 0 < MIN_LEVEL)
		J_V = "unresolved"
}
# pf_interval: "median [lo hi] at PCT %, N rounds (K noisy)" of the last pf_judge
function pf_interval() {
	return sprintf("%.3f [%.3f %.3f] at %s %%, %d round%s%s", J_MED, J_LO, J_HI, J_PCT, J_N,
		J_N == 1 ? "" : "s", J_NOISY ? ", " J_NOISY " noisy" : "")
}
# pf_target(t): one line, the verdict on target t
function pf_target(t) {
	pf_judge(t)
	verdicts[J_V]++
	if (J_V == "unresolved")
		unresolved[T_ROW[t]] = 1
	if (J_V == "n/a") {
		printf "  %-9s %-64s %s\n", "n/a", T_LABEL[t], "not measured"
		return
	}
	printf "  %-9s %-64s %s  (needs %s %s)\n", J_V, T_LABEL[t], pf_interval(), T_OP[t], T_LIM[t]
}
function pf_group(g,    t) {
	for (t = 1; t <= nt; t++)
		if (T_GRP[t] == g && pf_shown(t))
			pf_target(t)
}
function pf_targets(    t, s, line) {
	if (!xdponly && !peeronly) {
		printf "targets (1450-byte datagrams; the interval of the per-round ratios of pairs run at once)\n"
		if (!(1450 in segs))
			printf "  not measured: run with -s 1450\n"
		else
			pf_group("a")
	}
	if (!peeronly) {
		printf "targets at 1450 and 64 bytes (the interval of the per-round ratios of pairs run at once)\n"
		if (!xdponly)
			pf_group("b")
		pf_group("x")
	}
	if (!xdponly) {
		printf "targets against %s at 1450 and 64 bytes (the interval of the per-round ratios, A B B A)\n", peer
		pf_group("p")
	}
	line = "verdicts:"
	line = line sprintf(" %d met, %d NOT MET, %d unresolved, %d not measured", verdicts["met"],
		verdicts["NOT MET"], verdicts["unresolved"], verdicts["n/a"])
	print line
	printf "  interval: of the median of the per-round ratios, by order statistics (95 %%; with fewer than\n"
	printf "  6 rounds min..max, at the level it has); met: all of it on the target's side; NOT MET: none\n"
	printf "  of it; unresolved: it holds the target, or it is below %d %% (fewer than 5 rounds)\n", MIN_LEVEL
	if (verdicts["unresolved"]) {
		if (budget + 0 == 0)
			printf "  unresolved: no --budget was given to measure its rows in more rounds\n"
		else if (budgetleft == "rounds")
			printf "  unresolved: %d rounds reached (the most) within --budget %s s\n", maxr[S], budget
		else if (budgetleft == "spent")
			printf "  unresolved: --budget %s s spent on more rounds (%d rounds in all)\n", budget, maxr[S]
		if (budget + 0 > 0 && ("xdp" in unresolved))
			printf "  unresolved: the xdp pair takes no more rounds (its veth pairs are gone by then)\n"
	}
	if (statusfile != "")
		print (verdicts["NOT MET"] ? 1 : 0) > statusfile
}

# ---- noise ----
# pf_noise: per size, what the calibrations and the rest of the machine said, and what was done
function pf_noise(    i, n, sz, s, k, m, o, line, extra) {
	if (!anynoise)
		return
	printf "noise, around each measurement on CPUs %s: ", cpus
	if (calib)
		printf "calibration (bare calib, about %s ms of memcpy on each at once)\nbefore and after, in %% slower than the run's best; ", calibms
	else
		printf "no calibration (bare calib failed: see the notes);\n"
	printf "other: the CPU time the rest of the machine took on them\nduring it, steal the hypervisor's, in %% of their time. "
	printf "Noisy: a calibration more than %s %% slower, other above\n%s %% or steal above %s %%; made again at most %s time%s per row and size\n",
		noiselimit, 2 * noiselimit, noiselimit, retry, retry == 1 ? "" : "s"
	n = split(sizes, sz, " ")
	for (i = 1; i <= n; i++) {
		s = sz[i]
		if (!nm[s])
			continue
		line = sprintf("  %s B: %d measurement%s, %d noisy", s, nm[s], nm[s] == 1 ? "" : "s", nnoisy[s] + 0)
		if (nnoisy[s])
			line = line sprintf(": %d made again, %d kept (no retries left%s)", nredone[s] + 0, nkept[s] + 0,
				nkept[s] ? ": " keptlist[s] : "")
		print line
		m = pf_nmed(s, "other")
		printf "    other median %s %%, max %s %%; steal max %s %%; calibration max %s %% slower\n",
			m, pf_nmax(s, "other"), pf_nmax(s, "steal"), pf_nmax(s, "calib")
		extra = ""
		for (k in rowmax)
			if (index(k, s SUBSEP) == 1 && rowmax[k] > rounds) {
				split(k, o, SUBSEP)
				extra = extra (extra == "" ? "" : ", ") o[2] " to round " rowmax[k]
			}
		if (extra != "")
			printf "    more rounds for unresolved targets (--budget): %s\n", extra
	}
	printf "\n"
}
function pf_nmed(s, what,    a, n, j) {
	n = nval[s, what]
	if (!n)
		return "-"
	for (j = 1; j <= n; j++)
		a[j] = nv[s, what, j]
	sortnum(a, n)
	return median(a, n)
}
function pf_nmax(s, what,    n, j, m) {
	n = nval[s, what]
	if (!n)
		return "-"
	m = nv[s, what, 1]
	for (j = 2; j <= n; j++)
		if (nv[s, what, j] + 0 > m + 0)
			m = nv[s, what, j]
	return m
}
function pf_nadd(s, what, x) {
	if (x == "" || x == "-")
		return
	nv[s, what, ++nval[s, what]] = x
}

# ---- the sections of the table, for size s ----
function pf_send(s, g) {
	pf_head("send, into a socket nobody reads: blast and its bare twin at the same time on one CPU,\n" \
		"each getting about half of it", "pps", "cpu ns/datagram")
	pf_fig(s, "send.sendto.blast", "sendto     blast -b 1")
	pf_fig(s, "send.sendto.bare", "           bare send -b 1")
	pf_rat(s, "send.sendto.blast", "send.sendto.bare", "           ratio blast/bare")
	pf_fig(s, "send.mmsg.blast", "sendmmsg   blast -b " batch)
	pf_fig(s, "send.mmsg.bare", "           bare send -b " batch)
	pf_rat(s, "send.mmsg.blast", "send.mmsg.bare", "           ratio blast/bare")
	if (g > 1) {
		pf_fig(s, "send.gso.blast", "GSO        blast -g " g)
		pf_fig(s, "send.gso.bare", "           bare send -g " g)
		pf_rat(s, "send.gso.blast", "send.gso.bare", "           ratio blast/bare")
	}
	pf_fig(s, "send.pattern.poisson", "paced      blast -r " prate " --pattern poisson")
	pf_fig(s, "send.pattern.even", "           blast -r " prate " (even)")
	pf_rat(s, "send.pattern.poisson", "send.pattern.even", "           ratio poisson/even")
}
function pf_receive(s,    buf) {
	buf = "SO_RCVBUF " (rcvbuf ? rcvbuf : "default")
	pf_head("receive, -w none: suck and its bare twin at the same time on one CPU, each fed " rate \
		"/s,\n" buf (lost[s] ? ": LOSS in " lost[s] " runs, see notes" : ", no loss"), "", "cpu ns/datagram")
	pf_pair(s, "recv.buffer", "suck", "bare", "recvfrom", "suck -m buffer", "bare recv", "buffer/bare")
	pf_pair(s, "recv.copy", "suck", "bare", "", "suck -m copy", "bare recv", "copy/bare")
	pf_pair(s, "recv.mmsg", "suck", "bare", "recvmmsg", "suck -m mmsg", "bare recv -b " batch, "mmsg/bare")
	pf_pair(s, "recv.gro", "suck", "bare", "", "suck -m gro", "bare recv -b " batch, "gro/bare")
	pf_pair(s, "recv.uring", "suck", "bare", "io_uring", "suck -m uring", "bare recv --uring", "uring/bare")
	pf_pair(s, "recv.epoll", "suck", "bare", "epoll", "suck -m epoll", "bare recv --epoll", "epoll/bare")
	pf_pair(s, "recv.pool", "suck", "bare", "pool", "suck -m pool", "bare recv --pool 1 -b " batch, "pool/bare")
	pf_pair(s, "recv.latency", "on", "off", "latency", "suck -m mmsg --latency", "suck -m mmsg", "latency/without")
	pf_pair(s, "recv.jitter", "on", "off", "jitter", "suck -m mmsg --jitter", "suck -m mmsg", "jitter/without")
	printf "  loss runs are counted in every suck above (always on): the ratios to bare include them;\n"
	printf "  jitter/without is a finding, not a target: what --jitter costs when asked for (the kernel's\n"
	printf "  receive stamp, a control message per datagram); off, its code is behind one test per datagram\n"
	printf "\n"
	pf_head("finding, not a target: what answering costs, suck -m mmsg --echo answering blast --rtt\n" \
		"(" batch " in flight; its rate in pps) beside suck -m mmsg fed " rate "/s, at the same time on one CPU", \
		"pps", "cpu ns/datagram")
	pf_row("echo       suck -m mmsg --echo" (((s, "echo.on") in lossy) ? sprintf(" lossy %d/%d", lossy[s, "echo.on"], maxr[S]) : ""),
		pf_figure(s, "echo.on", "pps"), pf_figure(s, "echo.on", "cpu"), "%.0f", "%.1f")
	pf_cpufig(s, "echo.off", "             suck -m mmsg")
	pf_cpurat(s, "echo.on", "echo.off", "             ratio echo/without")
	printf "  without --echo the code is the recvmmsg row above, held to its bare twin\n"
	printf "\n"
	pf_head("finding, not a target: what io_uring costs against recvmmsg, both bare loops at the same\n" \
		"time on one CPU, each fed " rate "/s, " buf, "", "cpu ns/datagram")
	pf_cpufig(s, "bare.uring", "io_uring   bare recv --uring")
	pf_cpufig(s, "bare.mmsg", "recvmmsg   bare recv -b " batch)
	pf_cpurat(s, "bare.uring", "bare.mmsg", "           ratio io_uring/recvmmsg")
	printf "\n"
	pf_head("finding, not a target: what the pool's hand-off (one per batch) costs against recvmmsg,\n" \
		"both suck, at the same time on one CPU, each fed " rate "/s, " buf, "", "cpu ns/datagram")
	pf_cpufig(s, "handoff.pool", "pool       suck -m pool --workers 1")
	pf_cpufig(s, "handoff.mmsg", "recvmmsg   suck -m mmsg -b " batch)
	pf_cpurat(s, "handoff.pool", "handoff.mmsg", "           ratio pool/mmsg")
}
# pf_xdp: suck -m xdp and bare recv --xdp, each on a veth pair of its own
function pf_xdp(s) {
	if (!xdpany[S])
		return
	pf_head("xdp, on two veth pairs between two namespaces (one per receiver): suck -m xdp and its bare\n" \
		"twin at the same time on one CPU with both NAPI threads, each fed " rate "/s by its own blast", \
		"", "cpu ns/datagram")
	pf_pair(s, "xdp", "suck", "bare", "af_xdp", "suck -m xdp", "bare recv --xdp", "xdp/bare")
	printf "\n"
}
function pf_pps(s, g) {
	pf_head("pps, as fast as possible; SO_RCVBUF " (rcvbuf ? rcvbuf : "default") " (suck); sockperf and iperf3 into their own\n" \
		"servers, each alternating with blast in every round (A B B A: blast, the peer, the peer, blast;\n" \
		"a round's figure is the mean of its two legs); ratios per round, but where said", "pps", "cpu ns/datagram")
	pf_ppscpu(s, "pps.blast", "sent", "scpu", "blast (default) into suck -m buffer (sent)")
	pf_ppscpu(s, "pps.blast", "pps", "cpu", "           suck -m buffer (received)")
	pf_ppscpu(s, "sockperf", "pps", "cpu", "sockperf throughput -m " s " (sent)")
	pf_ppscpu(s, "sockperf", "rcvd", "rcpu", "           its server (received)")
	pf_rat(s, "blastsent", "sockperf", "ratio blast sent/sockperf sent")
	pf_ppsrat(s, "blastsent", "best:iperf3:sockperf", "pps", "ratio blast/best of iperf3, sockperf")
	if (g > 1) {
		pf_ppscpu(s, "pps.gso", "pps", "cpu", "blast -g " g " alone into a sink")
		pf_ppsrat(s, "gsosent", "iperf3", "pps", "ratio blast -g " g "/iperf3")
	}
	pf_gro(s)
	printf "  the two ratios of medians compare tools measured apart, not A B B A\n"
	if (missing != "")
		printf "  missing:%s; install: apt-get install iperf3 sockperf\n", missing
}
# pf_gro: blast's default into suck -m gro, and both against iperf3 (the peer that matters),
# each side's CPU per datagram beside its rate
function pf_gro(s) {
	pf_ppscpu(s, "pps.gro", "sent", "scpu", "blast (default) into suck -m gro (sent)")
	pf_ppscpu(s, "pps.gro", "pps", "cpu", "           suck -m gro (received)")
	pf_ppscpu(s, "iperf3", "pps", "cpu", "iperf3 -u -b 0 -l " s " (sent)")
	pf_ppscpu(s, "iperf3", "rcvd", "rcpu", "           its server (received)")
	pf_rat(s, "grosent", "iperf3", "ratio blast sent/iperf3 sent")
	pf_rat(s, "pps.gro", "iperf3rcvd", "ratio suck gro received/iperf3 server received")
}
# pf_peer: --peer-only's rows: blast into suck -m gro and iperf3, A B B A, in every round
function pf_peer(s) {
	pf_head("pps, as fast as possible, blast and iperf3 alternating in every round (A B B A: blast, iperf3,\n" \
		"iperf3, blast; a round's figure is the mean of its two legs); SO_RCVBUF " (rcvbuf ? rcvbuf : "default") \
		" (suck),\niperf3 into its own server; ratios per round, but where said", "pps", "cpu ns/datagram")
	pf_gro(s)
	# A finding, not a target: suck --spin never sleeps, so the sender pays no wakeup of it.
	pf_ppscpu(s, "pps.grospin", "sent", "scpu", "blast (default) into suck -m gro --spin (sent)")
	pf_ppscpu(s, "pps.grospin", "pps", "cpu", "           suck -m gro --spin (received)")
	pf_ppsrat(s, "grospinsent", "iperf3", "pps", "ratio blast sent (suck --spin)/iperf3 sent")
	pf_ppsrat(s, "pps.grospin", "iperf3rcvd", "pps", "ratio suck gro --spin received/iperf3 server received")
	printf "  --spin is a finding, not a target: a receiver that never blocks costs its whole CPU;\n"
	printf "  its two ratios are of the medians, measured apart from iperf3\n"
}

# ---- two runs ----
function pf_twice(    t, v1, m1, l1, h1, s1, agree, why, out, nag, nall, nin, bad) {
	printf "perf --twice: the same measurement run twice, each target judged in each run\n"
	printf "  run 1: %s\n  run 2: %s\n", file1, file2
	printf "agree: no met in one run and NOT MET in the other, and the two intervals overlap\n"
	for (t = 1; t <= nt; t++) {
		if (!pf_shown(t))
			continue
		S = 1
		pf_judge(t)
		v1 = J_V; m1 = J_MED; l1 = J_LO; h1 = J_HI; s1 = (J_V == "n/a") ? "not measured" : J_V " " pf_interval()
		S = 2
		pf_judge(t)
		if (v1 == "NOT MET" || J_V == "NOT MET")
			bad = 1
		if (v1 == "n/a" || J_V == "n/a") {
			printf "  %-10s %s\n    run 1: %s\n    run 2: %s\n", "n/a", T_LABEL[t], s1,
				J_V == "n/a" ? "not measured" : J_V " " pf_interval()
			continue
		}
		nall++
		why = ""
		if ((v1 == "met" && J_V == "NOT MET") || (v1 == "NOT MET" && J_V == "met"))
			why = "met in one run, NOT MET in the other"
		else if (h1 + 0 < J_LO + 0 || J_HI + 0 < l1 + 0)
			why = "the intervals do not overlap"
		# The stricter reading, each median inside the other run's interval, is shown but not
		# required: two runs of one distribution meet it for 5 targets in 7 at 5 rounds each.
		out = ""
		if (m1 + 0 < J_LO + 0 || m1 + 0 > J_HI + 0)
			out = "run 1's median outside run 2's interval"
		else if (J_MED + 0 < l1 + 0 || J_MED + 0 > h1 + 0)
			out = "run 2's median outside run 1's interval"
		agree = why == ""
		nag += agree
		nin += agree && out == ""
		printf "  %-10s %s\n    run 1: %s\n    run 2: %s%s\n", agree ? "agree" : "DISAGREE", T_LABEL[t], s1,
			J_V " " pf_interval(), agree ? (out == "" ? "" : "\n    (" out ")") : "\n    " why
	}
	printf "%d of %d targets measured in both runs agree%s\n", nag, nall,
		bad ? "; a target is NOT MET in one run at least" : ""
	if (nag)
		printf "  %d of those %d with each run's median inside the other's interval (docs/performance.md: Reruns)\n", nin, nag
	if (statusfile != "")
		print ((nag < nall || bad) ? 1 : 0) > statusfile
}

BEGIN {
	if (mode == "")
		mode = "table"
	MIN_LEVEL = 90 # %, of a target's interval before it may be met or not: 5 rounds at least
	while (segsfile != "" && (getline line < segsfile) > 0) {
		split(line, p, " ")
		segs[p[1]] = p[2]
	}
	pf_targets_define()
}
FNR == 1 {
	set = (mode == "twice" && FILENAME == ARGV[ARGC - 1] && ARGC > 2) ? 2 : 1
	split("", col)
	for (i = 1; i <= NF; i++)
		col[$i] = i
	next
}
{
	fsz = $col["size"]; name = $col["name"]; f = $col["figure"]; r = $col["round"] + 0; val = $col["value"]
	row = ("row" in col) ? $col["row"] : name
	att = ("attempt" in col) ? $col["attempt"] : 1
	used = ("used" in col) ? $col["used"] : 1
	if (!((set, fsz, name) in rowof))
		rowof[set, fsz, name] = row
	mk = set SUBSEP fsz SUBSEP row SUBSEP r SUBSEP att
	if (("noisy" in col) && !(mk in seen)) {
		seen[mk] = 1
		if (set == 1) {
			anynoise = 1
			nm[fsz]++
			if ($col["noisy"] == 1) {
				nnoisy[fsz]++
				if (used != 1)
					nredone[fsz]++
				else {
					nkept[fsz]++
					keptlist[fsz] = keptlist[fsz] (keptlist[fsz] == "" ? "" : ", ") row " round " r
				}
			}
			pf_nadd(fsz, "other", $col["other_pct"])
			pf_nadd(fsz, "steal", $col["steal_pct"])
			pf_nadd(fsz, "calib", $col["calib_pre_pct"])
			pf_nadd(fsz, "calib", $col["calib_post_pct"])
			if (r > rowmax[fsz, row])
				rowmax[fsz, row] = r
		}
		if ($col["noisy"] == 1 && used == 1)
			keptnoisy[set, fsz, row, r] = 1
	}
	if (used != 1 || !isnum(val))
		next
	k = set SUBSEP fsz SUBSEP name SUBSEP f SUBSEP r
	sum[k] += val
	if (++cnt[k] == 1)
		v[k] = val
	else
		v[k] = sum[k] / cnt[k]
	if (r > maxr[set])
		maxr[set] = r
	if (name ~ /^xdp\./)
		xdpany[set] = 1
	if (set == 1 && f == "lost" && val > 0) {
		lost[fsz]++
		lossy[fsz, name]++
	}
}
# pf_alias(set, to, from, f, g): v[to, f] is v[from, g] in every round and size of the set
function pf_alias(st, to, from, f, g,    i, n, sz, r) {
	n = split(sizes, sz, " ")
	for (i = 1; i <= n; i++)
		for (r = 1; r <= maxr[st]; r++)
			if ((st, sz[i], from, g, r) in v) {
				v[st, sz[i], to, f, r] = v[st, sz[i], from, g, r]
				rowof[st, sz[i], to] = rowof[st, sz[i], from]
			}
}
END {
	# One name for what is compared with the peers: blast's sending into suck, suck's receiving.
	for (st = 1; st <= 2; st++) {
		pf_alias(st, "blastsent", "pps.blast", "pps", "sent")
		pf_alias(st, "blastsent", "pps.blast", "cpu", "scpu")
		pf_alias(st, "gsosent", "pps.gso", "pps", "pps")
		pf_alias(st, "grosent", "pps.gro", "pps", "sent")
		pf_alias(st, "grosent", "pps.gro", "cpu", "scpu")
		pf_alias(st, "grospinsent", "pps.grospin", "pps", "sent")
		pf_alias(st, "iperf3rcvd", "iperf3", "pps", "rcvd")
		pf_alias(st, "iperf3rcvd", "iperf3", "cpu", "rcpu")
	}
	S = 1
	if (mode == "twice") {
		pf_twice()
		exit
	}
	if (mode == "unresolved") {
		for (t = 1; t <= nt; t++) {
			if (!pf_shown(t) || T_ROW[t] == "xdp")
				continue
			pf_judge(t)
			if (J_V == "unresolved" && !((T_SZ[t], T_ROW[t]) in said)) {
				said[T_SZ[t], T_ROW[t]] = 1
				print T_SZ[t], T_ROW[t]
			}
		}
		exit
	}
	n = split(sizes, sz, " ")
	for (i = 1; i <= n; i++) {
		s = sz[i]
		if (xdponly) {
			printf "%d-byte datagrams, the xdp pair only (--xdp-only): median [min max] of %d round%s of %s s\n\n",
				s, rounds, rounds == 1 ? "" : "s", secs
			if (!xdpany[S])
				printf "  not measured: see the notes\n\n"
			pf_xdp(s)
			continue
		}
		if (peeronly) {
			printf "%d-byte datagrams on 127.0.0.1, against iperf3 only (--peer-only): median [min max] of %d round%s of %s s\n\n",
				s, rounds, rounds == 1 ? "" : "s", secs
			pf_peer(s)
			printf "\n"
			continue
		}
		printf "%d-byte datagrams on 127.0.0.1: median [min max] of %d round%s of %s s\n\n", s,
			rounds, rounds == 1 ? "" : "s", secs
		pf_send(s, segs[s])
		printf "\n"
		pf_receive(s)
		printf "\n"
		pf_xdp(s)
		pf_pps(s, segs[s])
		printf "\n"
	}
	pf_noise()
	pf_targets()
}
