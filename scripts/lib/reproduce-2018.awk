# reproduce-2018.awk: what reproduce-gso.awk and reproduce-gro.awk share. Run as
#   awk -f stats.awk -f reproduce-2018.awk -f reproduce-gso.awk reproduce.tsv
# It reads reproduce.tsv (reproduce-rows-tsv.awk's) into val[source, row, i, column] (lua-2014's
# rows are named by variant); the program after it names the ratios that carry across machines
# (addratio) and prints reproduce.md, or with -v dat=1 the data of published_ratios.gp: per ratio
# a label, the published value three times (a bar without whiskers), then here's estimate, low
# and high (NaN when not measured). reproduce-lua.awk uses only the reading and the helpers.
#
# A ratio here is the median of the ratios of every run of one row to every run of the other
# (addratio): the rows' runs go in rounds, and this does not depend on how the rounds paired
# them. Every ratio is written the way the published one is a gain (> 1 where the mechanism
# helps), so "holds" means the interval lies above 1. The published rows' source is pubsrc
# (-v pubsrc=2011: sendmmsg-2011's; 2018 unless given).
BEGIN {
	FS = OFS = "\t"
	SAME = 0.05 # within 5 % of the published ratio: "as large as published" whatever the spread
	if (pubsrc == "")
		pubsrc = "2018"
}
NR == 1 {
	for (i = 1; i <= NF; i++)
		c[$i] = i
	next
}
{
	s = $c["source"]
	r = ("row" in c) ? $c["row"] : $c["variant"]
	k = ++n[s, r]
	for (f in c)
		val[s, r, k, f] = $c[f]
}

# rvals(s, r, f, a): the numeric values of column f of source s, row r into a[1..]; their count.
function rvals(s, r, f, a,    i, k) {
	split("", a)
	k = 0
	for (i = 1; i <= n[s, r]; i++)
		if (isnum(val[s, r, i, f]))
			a[++k] = val[s, r, i, f]
	return k
}
# st(s, r, f): median, min and max of a column into M, LO, HI (as written); the count.
function st(s, r, f,    a, k) {
	M = LO = HI = ""
	k = rvals(s, r, f, a)
	if (!k)
		return 0
	sortnum(a, k)
	M = median(a, k)
	LO = a[1]
	HI = a[k]
	return k
}
# med(s, r, f, fmt): the median for a table cell, in printf format fmt, "-" when there is none.
function med(s, r, f, fmt) { return st(s, r, f) ? sprintf(fmt, M) : "-" }
# pubv(r, f): the published value of row r.
function pubv(r, f) { return n[pubsrc, r] ? val[pubsrc, r, 1, f] : "" }
# fx(x): a ratio for people: 2.44, 17.2, 131
function fx(x) {
	x += 0
	return sprintf(x >= 100 ? "%.0f" : x >= 10 ? "%.1f" : "%.2f", x)
}
# f0(x): a figure rounded to a whole number, "-" when there is none.
function f0(x) { return isnum(x) ? sprintf("%.0f", x) : "-" }

# addratio(label, short, pub, rn, rd, f): ratio nr: column f of row rn over row rd, here, beside
# the published ratio pub; label for the table, short for the plot's axis. Here's estimate is the median of the ratios of every run of rn to every
# run of rd (Hodges-Lehmann); its interval runs from the smallest of those ratios to the largest,
# which covers the true ratio with probability 1 - 2 / C(na + nb, na) whatever the runs'
# distribution (3 runs against 3: 90 %; one run each: no interval). Sets rlab, rpub, rest, rlo,
# rhi, rpct (the interval's level, %) and rruns (runs on the side with fewer).
function addratio(label, short, pub, rn, rd, f,    a, b, na, nb, d, nd, i, j, lv) {
	nr++
	rlab[nr] = label
	rshort[nr] = short
	rpub[nr] = pub
	na = rvals("here", rd, f, a)
	nb = rvals("here", rn, f, b)
	rruns[nr] = na < nb ? na : nb
	rest[nr] = rlo[nr] = rhi[nr] = rpct[nr] = ""
	nd = 0
	for (i = 1; i <= na; i++)
		for (j = 1; j <= nb; j++)
			if (a[i] + 0 > 0)
				d[++nd] = b[j] / a[i]
	if (!nd)
		return nr
	sortnum(d, nd)
	rest[nr] = sprintf("%.3f", nd % 2 ? d[(nd + 1) / 2] : (d[nd / 2] + d[nd / 2 + 1]) / 2)
	rlo[nr] = sprintf("%.3f", d[1])
	rhi[nr] = sprintf("%.3f", d[nd])
	# 1 / C(na + nb, na), one factor at a time
	lv = 1
	for (i = 1; i <= na; i++)
		lv = lv * i / (nb + i)
	lv = 1 - 2 * lv
	rpct[nr] = lv > 0 ? trim(sprintf("%.1f", 100 * lv)) : 0
	return nr
}
# rinterval(i): "2.90..3.20 (90 % interval)", or why there is none.
function rinterval(i) {
	if (rest[i] == "")
		return "-"
	if (rpct[i] + 0 == 0)
		return "none: one run each"
	return fx(rlo[i]) ".." fx(rhi[i]) " (" rpct[i] " %)"
}
# rholds(i): whether ratio i shows the published effect here: "yes", "no" (reversed), "unclear"
# (the interval takes in 1), "-" (not measured); with one run each, by the estimate alone.
function rholds(i) {
	if (rest[i] == "")
		return "-"
	if (rpct[i] + 0 == 0)
		return rest[i] + 0 > 1 ? "yes" : "no"
	if (rlo[i] + 0 > 1)
		return "yes"
	if (rhi[i] + 0 < 1)
		return "no"
	return "unclear"
}
# rsize(i): how large here against published: "as large as published", "larger than published"
# (the published ratio below the interval, or the estimate above it by more than SAME when
# there is no interval), "smaller than published".
function rsize(i,    q) {
	if (rest[i] == "" || !isnum(rpub[i]) || rpub[i] + 0 <= 0)
		return ""
	q = rest[i] / rpub[i]
	if (q >= 1 - SAME && q <= 1 + SAME)
		return "as large as published"
	if (rpct[i] + 0 > 0 && rlo[i] + 0 <= rpub[i] + 0 && rpub[i] + 0 <= rhi[i] + 0)
		return "as large as published (within the spread of the runs)"
	return q > 1 ? "larger than published" : "smaller than published"
}
# rverdict(i): one phrase for the ratio table's last column.
function rverdict(i,    h, z) {
	h = rholds(i)
	if (h == "-")
		return "not measured here"
	z = rsize(i)
	if (h == "yes")
		return "yes" (rpct[i] + 0 == 0 ? " (one run each)" : "") (z != "" ? "; " z : "")
	if (h == "no")
		return "no: reversed here" (rpct[i] + 0 == 0 ? " (one run each)" : "")
	return "unclear: the interval takes in 1"
}
# rsentence(i, what): "<what> Nx here (published Px): the effect holds, larger than published."
function rsentence(i, what,    h, s) {
	h = rholds(i)
	if (h == "-")
		return what ": not measured here. "
	s = what " " fx(rest[i]) "x here against " fx(rpub[i]) "x published"
	if (rpct[i] + 0 > 0)
		s = s " (" rpct[i] " % interval over the runs " fx(rlo[i]) ".." fx(rhi[i]) ")"
	else
		s = s " (one run each: no interval)"
	if (h == "yes")
		return s ": the effect holds, " rsize(i) ". "
	if (h == "no")
		return s ": reversed here. "
	return s ": not beyond the spread of the runs, so this run cannot say whether it holds. "
}
# rnopub(i, what, up, down): "<what> Nx here (interval), <up>." for ratio i that has no published
# counterpart: up above 1, down below, or not beyond the spread of the runs.
function rnopub(i, what, up, down) {
	if (rest[i] == "")
		return what " not measured here. "
	return what " " fx(rest[i]) "x" (rpct[i] + 0 > 0 ? " (" rpct[i] " % interval over the runs " fx(rlo[i]) ".." fx(rhi[i]) ")" : " (one run each: no interval)") \
		(rholds(i) == "yes" ? ", " up : rholds(i) == "no" ? ", " down : ", not beyond the spread of the runs") ". "
}
# rtied(iB, iM, iC): the calls saved follow from the bytes per call and the bytes per second
# gained (calls/s ratio = bytes per call ratio / bytes per second ratio): one sentence saying so.
function rtied(iB, iM, iC) {
	if (rest[iB] == "" || rest[iM] == "" || rest[iC] == "" || !isnum(rpub[iB]) || !isnum(rpub[iM]) || rpub[iM] + 0 == 0 || rest[iM] + 0 == 0)
		return ""
	return sprintf("The calls saved follow from the other two: %sx the bytes per call over %sx the bytes per second is %sx fewer calls (published: %sx over %sx, %sx), so a gain in bytes per second larger than published leaves fewer calls saved than published, and the other way round. ",
		fx(rest[iB]), fx(rest[iM]), fx(rest[iB] / rest[iM]), fx(rpub[iB]), fx(rpub[iM]), fx(rpub[iB] / rpub[iM]))
}
function ratio_table(    i) {
	print "| ratio | published (" pubsrc ") | here | here: interval over the runs | the published effect here? |"
	print "|---|---:|---:|---|---|"
	for (i = 1; i <= nr; i++)
		print "| " rlab[i] " | " (isnum(rpub[i]) ? fx(rpub[i]) : "-") " | " (rest[i] == "" ? "-" : fx(rest[i])) " | " rinterval(i) " | " rverdict(i) " |"
}
function ratio_dat(    i, p) {
	for (i = 1; i <= nr; i++) {
		p = isnum(rpub[i]) ? rpub[i] : "NaN" # a ratio nobody published
		print rshort[i], p, p, p, (rest[i] == "" ? "NaN" : rest[i]), (rest[i] == "" ? "NaN" : rlo[i]), (rest[i] == "" ? "NaN" : rhi[i])
	}
}
# notes_list(): the notes of the runs (failed or skipped ones), as in the suite's table.md.
function notes_list(    line, k) {
	k = 0
	while (notes != "" && (getline line < notes) > 0) {
		if (!k++) {
			print ""
			print "Notes:"
		}
		print "- " line
	}
}

# Between an experiment's own table and its list of runs, the same for both: where the medians
# come from, and the ratios that carry across machines (ratio_table).
function middle_sections() {
	print ""
	print "Here: medians of the runs (every run below)."
	print ""
	print "## The ratios that carry across machines"
	print ""
	ratio_table()
	print ""
	print "## Every run here"
	print ""
}
