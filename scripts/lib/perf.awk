# perf.awk: the table of scripts/perf, from its figures (a tab-separated line each: size, name,
# figure, round, value).
#   awk -F'\t' -v sizes=... -v rounds=... -v secs=... -v rate=... -v batch=... -v rcvbuf=...
#       -v segsfile=FILE -v missing="iperf3 ..." [-v xdponly=1] -f stats.awk -f perf.awk FIGURES
# xdponly: only the xdp pair's section and targets (scripts/perf --xdp-only).
# peeronly: only the rows and targets against iperf3 (scripts/perf --peer-only).
# segsfile has a line "SIZE SEGS" per size (SEGS: datagrams per GSO message at that size).
# A figure is shown as median [min max] over the rounds (stats.awk's sortnum and median). A ratio
# of two figures measured at the same time is taken per round, and its median [min max] shown;
# of two tools run one after the other, it is the ratio of their medians [lowest highest
# per-round ratio]. The targets of the issues are marked met or not by the median. Every function
# here begins with pf_: stats.awk, loaded beside, has names of its own (ratio, median, ...).

# pf_spread(a, n): "median min max" of the values in a[1..n], or "" when n is 0
function pf_spread(a, n) {
	if (n == 0)
		return ""
	sortnum(a, n)
	return median(a, n) " " a[1] " " a[n]
}
function pf_figure(sz, name, f,    r, n, a) {
	n = 0
	for (r = 1; r <= rounds; r++)
		if ((sz, name, f, r) in v)
			a[++n] = v[sz, name, f, r]
	return pf_spread(a, n)
}
# pf_value: one round's figure; name may be "best:X:Y", the larger of X and Y that round
function pf_value(sz, name, f, r,    p, x, y) {
	if (name !~ /^best:/)
		return ((sz, name, f, r) in v) ? v[sz, name, f, r] : ""
	split(name, p, ":")
	x = pf_value(sz, p[2], f, r)
	y = pf_value(sz, p[3], f, r)
	if (x == "")
		return y
	if (y == "" || x + 0 > y + 0)
		return x
	return y
}
# pf_ratio: of num/den, round by round
function pf_ratio(sz, num, den, f,    r, n, a, x, y) {
	n = 0
	for (r = 1; r <= rounds; r++) {
		x = pf_value(sz, num, f, r)
		y = pf_value(sz, den, f, r)
		if (x != "" && y != "" && y + 0 > 0)
			a[++n] = x / y
	}
	return pf_spread(a, n)
}
# pf_mratio: of tools run one after the other, each with its own noise, by their medians:
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
		label = sprintf("%-30s lossy %d/%d", label, lossy[sz, name], rounds)
	pf_row(label, "", pf_figure(sz, name, "cpu"), "", "%.1f")
}
function pf_cpurat(sz, num, den, label) { pf_row(label, "", pf_ratio(sz, num, den, "cpu"), "", "%.3f") }
# pf_pair: two receivers measured at the same time (NAME.A and NAME.B), and their ratio A/B
function pf_pair(sz, name, a, b, lead, label_a, label_b, label_ratio) {
	pf_cpufig(sz, name "." a, sprintf("%-11s", lead) label_a)
	pf_cpufig(sz, name "." b, "             " label_b)
	pf_cpurat(sz, name "." a, name "." b, "             ratio " label_ratio)
}
function pf_ppsfig(sz, name, f, label) { pf_row(label, pf_figure(sz, name, f), "", "%.0f", "") }
function pf_ppsrat(sz, num, den, f, label) { pf_row(label, pf_mratio(sz, num, den, f), "", "%.3f", "") }

# pf_target LABEL STAT OP LIMIT: one line, met or not met, with the measured median
function pf_target(label, s, op, lim,    p, m, ok) {
	if (s == "") {
		printf "  %-9s %-64s %s\n", "n/a", label, "not measured"
		return
	}
	split(s, p, " ")
	m = p[1]
	ok = op == ">=" ? m >= lim : m <= lim
	printf "  %-9s %-64s %7.3f  (needs %s %s)\n", ok ? "met" : "NOT MET", label, m, op, lim
}

# pf_send, pf_receive, pf_pps, pf_targets: the sections of the table, for size s.
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
	pf_row("echo       suck -m mmsg --echo" (((s, "echo.on") in lossy) ? sprintf(" lossy %d/%d", lossy[s, "echo.on"], rounds) : ""),
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
# pf_xdp: suck -m xdp and bare recv --xdp, each on a veth pair of its own (issue 28)
function pf_xdp(s) {
	if (!xdpany)
		return
	pf_head("xdp, on two veth pairs between two namespaces (one per receiver): suck -m xdp and its bare\n" \
		"twin at the same time on one CPU with both NAPI threads, each fed " rate "/s by its own blast", \
		"", "cpu ns/datagram")
	pf_pair(s, "xdp", "suck", "bare", "af_xdp", "suck -m xdp", "bare recv --xdp", "xdp/bare")
	printf "\n"
}
function pf_pps(s, g) {
	pf_head("pps, as fast as possible, one tool at a time; SO_RCVBUF " (rcvbuf ? rcvbuf : "default") \
		" (suck),\niperf3 and sockperf into their own servers; a ratio is of the medians [per-round min max]", "pps", "")
	pf_ppsfig(s, "pps.blast", "sent", "blast (default) into suck -m buffer (sent)")
	pf_ppsfig(s, "iperf3", "pps", "iperf3 -u -b 0 -l " s " (sent)")
	pf_ppsfig(s, "iperf3", "rcvd", "           its server (received)")
	pf_ppsfig(s, "sockperf", "pps", "sockperf throughput -m " s " (sent)")
	pf_ppsrat(s, "blastsent", "best:iperf3:sockperf", "pps", "ratio blast/best of iperf3, sockperf")
	if (g > 1) {
		pf_ppsfig(s, "pps.gso", "pps", "blast -g " g " alone into a sink")
		pf_ppsrat(s, "gsosent", "iperf3", "pps", "ratio blast -g " g "/iperf3")
		pf_gro(s)
	}
	if (missing != "")
		printf "  missing:%s; install: apt-get install iperf3 sockperf\n", missing
}
# pf_gro: blast's default into suck -m gro, and both against iperf3 (the peer of issue 23)
function pf_gro(s) {
	pf_ppsfig(s, "pps.gro", "sent", "blast (default) into suck -m gro (sent)")
	pf_ppsfig(s, "pps.gro", "pps", "           suck -m gro (received)")
	pf_ppsrat(s, "grosent", "iperf3", "pps", "ratio blast sent/iperf3 sent")
	pf_ppsrat(s, "pps.gro", "iperf3rcvd", "pps", "ratio suck gro received/iperf3 server received")
}
# pf_peer: --peer-only's rows: iperf3 alone, then blast into suck -m gro, in every round
function pf_peer(s) {
	pf_head("pps, as fast as possible, one tool at a time, alternating in every round; SO_RCVBUF " \
		(rcvbuf ? rcvbuf : "default") " (suck),\niperf3 into its own server; a ratio is of the medians [per-round min max]", "pps", "")
	pf_ppsfig(s, "iperf3", "pps", "iperf3 -u -b 0 -l " s " (sent)")
	pf_ppsfig(s, "iperf3", "rcvd", "           its server (received)")
	pf_gro(s)
	# A finding, not a target: suck --spin never sleeps, so the sender pays no wakeup of it.
	pf_ppsfig(s, "pps.grospin", "sent", "blast (default) into suck -m gro --spin (sent)")
	pf_ppsfig(s, "pps.grospin", "pps", "           suck -m gro --spin (received)")
	pf_ppsrat(s, "grospinsent", "iperf3", "pps", "ratio blast sent (suck --spin)/iperf3 sent")
	pf_ppsrat(s, "pps.grospin", "iperf3rcvd", "pps", "ratio suck gro --spin received/iperf3 server received")
	printf "  --spin is a finding, not a target: a receiver that never blocks costs its whole CPU\n"
}
function pf_xdp_targets(sz, n,    i) {
	for (i = 1; i <= n; i++)
		pf_target("suck xdp <= 1.05 x bare xdp (CPU per datagram, veth), " sz[i] " B",
			pf_ratio(sz[i], "xdp.suck", "xdp.bare", "cpu"), "<=", 1.05)
}
function pf_targets(    s, i, n, sz) {
	n = split("1450 64", sz, " ")
	if (xdponly) {
		printf "targets at 1450 and 64 bytes (pairs run at once: median of the per-round ratios)\n"
		pf_xdp_targets(sz, n)
		return
	}
	if (peeronly) {
		pf_peer_targets(sz, n)
		return
	}
	printf "targets (1450-byte datagrams; pairs run at once: median of the per-round ratios;\n"
	printf "tools run one after another: ratio of their medians)\n"
	s = 1450
	if (!(s in segs)) {
		printf "  not measured: run with -s 1450\n"
	} else {
		pf_target("blast -b 1 pps >= 0.97 x bare sendto loop", pf_ratio(s, "send.sendto.blast", "send.sendto.bare", "pps"), ">=", 0.97)
		pf_target("suck -m buffer cpu/datagram <= 1.05 x bare recvfrom", pf_ratio(s, "recv.buffer.suck", "recv.buffer.bare", "cpu"), "<=", 1.05)
		pf_target("suck -m mmsg cpu/datagram <= 1.05 x bare recvmmsg", pf_ratio(s, "recv.mmsg.suck", "recv.mmsg.bare", "cpu"), "<=", 1.05)
	}
	printf "targets at 1450 and 64 bytes (pairs run at once: median of the per-round ratios)\n"
	n = split("1450 64", sz, " ")
	for (i = 1; i <= n; i++)
		pf_target("suck uring <= 1.05 x bare io_uring (CPU per datagram), " sz[i] " B",
			pf_ratio(sz[i], "recv.uring.suck", "recv.uring.bare", "cpu"), "<=", 1.05)
	for (i = 1; i <= n; i++)
		pf_target("suck epoll <= 1.05 x bare epoll (CPU per datagram), " sz[i] " B",
			pf_ratio(sz[i], "recv.epoll.suck", "recv.epoll.bare", "cpu"), "<=", 1.05)
	for (i = 1; i <= n; i++)
		pf_target("suck pool <= 1.05 x bare pool (CPU per datagram), " sz[i] " B",
			pf_ratio(sz[i], "recv.pool.suck", "recv.pool.bare", "cpu"), "<=", 1.05)
	for (i = 1; i <= n; i++)
		pf_target("suck mmsg --latency <= 1.10 x without (CPU per datagram), " sz[i] " B",
			pf_ratio(sz[i], "recv.latency.on", "recv.latency.off", "cpu"), "<=", 1.10)
	for (i = 1; i <= n; i++)
		pf_target("suck mmsg, issue 26's counting off <= 1.05 x bare (CPU per datagram), " sz[i] " B",
			pf_ratio(sz[i], "recv.mmsg.suck", "recv.mmsg.bare", "cpu"), "<=", 1.05)
	pf_xdp_targets(sz, n)
	pf_peer_targets(sz, n)
}
function pf_peer_targets(sz, n,    i) {
	# The peer (issue 23): blast's default shape into suck -m gro against iperf3's client into
	# its own server, one after the other in every round: ratio of the medians.
	printf "targets against %s at 1450 and 64 bytes (one after the other: ratio of medians)\n", peer
	for (i = 1; i <= n; i++)
		pf_target("blast default sent pps >= " (sz[i] == 64 ? "1.25" : "1.10") " x iperf3 client, " sz[i] " B",
			pf_mratio(sz[i], "grosent", "iperf3", "pps"), ">=", sz[i] == 64 ? 1.25 : 1.10)
	for (i = 1; i <= n; i++)
		pf_target("suck -m gro received pps >= 1.05 x iperf3 server, " sz[i] " B",
			pf_mratio(sz[i], "pps.gro", "iperf3rcvd", "pps"), ">=", 1.05)
}

BEGIN {
	while ((getline line < segsfile) > 0) {
		split(line, p, " ")
		segs[p[1]] = p[2]
	}
}
{ v[$1, $2, $3, $4] = $5 }
$2 ~ /^xdp\./ { xdpany = 1 }
$3 == "lost" && $5 > 0 {
	lost[$1]++
	lossy[$1, $2]++
}
END {
	n = split(sizes, sz, " ")
	# Senders compared with iperf3 under one figure name: blast into suck, blast -g into the sink.
	for (i = 1; i <= n; i++)
		for (r = 1; r <= rounds; r++) {
			s = sz[i]
			if ((s, "pps.blast", "sent", r) in v)
				v[s, "blastsent", "pps", r] = v[s, "pps.blast", "sent", r]
			if ((s, "pps.gso", "pps", r) in v)
				v[s, "gsosent", "pps", r] = v[s, "pps.gso", "pps", r]
			if ((s, "pps.gro", "sent", r) in v)
				v[s, "grosent", "pps", r] = v[s, "pps.gro", "sent", r]
			if ((s, "pps.grospin", "sent", r) in v)
				v[s, "grospinsent", "pps", r] = v[s, "pps.grospin", "sent", r]
			if ((s, "iperf3", "rcvd", r) in v)
				v[s, "iperf3rcvd", "pps", r] = v[s, "iperf3", "rcvd", r]
		}
	for (i = 1; i <= n; i++) {
		s = sz[i]
		if (xdponly) {
			printf "%d-byte datagrams, the xdp pair only (--xdp-only): median [min max] of %d round%s of %s s\n\n",
				s, rounds, rounds == 1 ? "" : "s", secs
			if (!xdpany)
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
	pf_targets()
}
