# compare.awk: two runs.tsv in (A, then B), the before/after table out: per variant and figure
# the medians of A and B, the ratio B/A, whether the change is beyond the noise, and every
# run's value. Variables: figs (names or "all"), fmt (md or tsv), dira and dirb (for the
# heading), alpha (the significance level, 0.05 when not given).
#
# Beyond the noise: the two-sided Mann-Whitney U test of A's runs against B's (stats.awk's
# mw_test: exact for small samples, ties at their midranks); the change is printed when p <=
# alpha, "~" in its place when not. The interval is the Hodges-Lehmann one of the ratio B/A
# (stats.awk's ratio_ci): it goes with the test, needs no random numbers and is exact for a
# handful of runs, where a bootstrap of the medians is not. When a side has too few runs for any
# p to reach alpha (3 against 3: the smallest p is 0.1), a note says so and how many would do.
#
# A cell that is not a number ("-" for a figure the run did not measure, as suck's lat_* without
# --latency, nan, inf, an empty cell, a column the other side lacks) is no sample: it is never
# read as 0. A figure with no number on one side of a variant both sides ran is "not
# comparable", named in a note, never a change; one with some such cells says how many runs
# it used (a_runs, b_runs, and a note). Variable named: 1 when -f named the figures, which are
# then listed even with no number on either side (with "all", or by default, such a figure is left out).
BEGIN {
	FS = OFS = "\t"
	if (alpha == "")
		alpha = 0.05
	named = named && figs != "all"
}
FNR == 1 {
	side = (NR == 1) ? "a" : "b"
	for (i = 1; i <= NF; i++) {
		col[side, i] = $i
		if (!(($i) in colseen)) {
			colseen[$i] = 1
			colorder[++ncols] = $i
		}
		if ($i == "variant")
			vc[side] = i
		hascol[side, $i] = 1
	}
	nf[side] = NF
	next
}
{
	v = $vc[side]
	if (!(v in vseen)) {
		vseen[v] = 1
		vorder[++nv] = v
	}
	r = ++nr[side, v]
	for (i = 1; i <= nf[side]; i++) {
		x[side, v, col[side, i], r] = $i
		if (!isnum($i) && !unmeasured($i))
			text[col[side, i]] = 1
	}
}
# unmeasured(s): a cell that says the figure has no value in that run: empty, "-", nan, inf
function unmeasured(s) { return s == "" || s == "-" || tolower(s) ~ /^[-+]?(nan|inf|infinity)$/ }
# values(s, v, f, S): the runs of one side whose cell is a number, "," between them, into VALS;
# sorted into S[1..n]. The other cells, as they read, into SKIPPED ("empty" for an empty one).
function values(s, v, f, S,    r, k, c, seen) {
	VALS = SKIPPED = ""
	k = 0
	for (r = 1; r <= nr[s, v]; r++) {
		c = ((s, v, f, r) in x) ? x[s, v, f, r] : ""
		if (isnum(c)) {
			VALS = VALS (k ? "," : "") c
			S[++k] = c
			continue
		}
		if (c == "")
			c = "empty"
		if (!(c in seen)) {
			seen[c] = 1
			SKIPPED = SKIPPED (SKIPPED == "" ? "" : ", ") c
		}
	}
	sortnum(S, k)
	return k
}
# missing(s, v, f, n, skipped): the note on side s of variant v when some of its runs (all but n)
# have no number for f; nothing when it ran no run of v.
function missing(s, v, f, n, skipped,    side, all) {
	side = s == "a" ? "A" : "B"
	all = nr[s, v] + 0
	if (n == all)
		return
	if (!hascol[s, f])
		addnote("not comparable: " f " of " v ": " side " has no column " f)
	else if (!n)
		addnote("not comparable: " f " of " v ": no number in " side "'s " all " run(s) (their cells: " skipped ")")
	else
		addnote(f " of " v ": " side " used " n " of its " all " runs (the others' cells: " skipped ")")
}
function addnote(msg) { notes[++nnotes] = msg }
# change(ma, mb, p): the change of the median in %, "~" when p > alpha (not beyond the noise),
# "higher" or "lower" when A's median is 0, "-" when there is no test.
function change(ma, mb, p) {
	if (p == "")
		return "-"
	if (p > alpha)
		return "~"
	if (ma + 0 == 0)
		return mb + 0 > 0 ? "higher" : mb + 0 < 0 ? "lower" : (MW_U > NA * NB / 2 ? "higher" : "lower")
	return sprintf("%+.1f%%", 100 * (mb / ma - 1))
}
function dash(s) { return s == "" ? "-" : s }
# fewnote(na, nb, v, f): remembers that na runs against nb cannot reach alpha
function fewnote(na, nb, v, f,    k) {
	k = na " runs against " nb
	if (!(k in few)) {
		fewkey[++nfew] = k
		few[k] = ""
		fewmin[k] = mw_minp(na, nb)
	}
	if (!((k, v) in fewv)) {
		fewv[k, v] = 1
		few[k] = few[k] (few[k] == "" ? "" : ", ") v
	}
}
# addrow(...): a row of the markdown table, printed padded by printtable()
function addrow(c1, c2, c3, c4, c5, c6, c7, c8, c9, c10,    i) {
	cell[++nrow, 1] = c1; cell[nrow, 2] = c2; cell[nrow, 3] = c3; cell[nrow, 4] = c4
	cell[nrow, 5] = c5; cell[nrow, 6] = c6; cell[nrow, 7] = c7; cell[nrow, 8] = c8
	cell[nrow, 9] = c9; cell[nrow, 10] = c10
	for (i = 1; i <= NCOL; i++)
		if (length(cell[nrow, i]) > w[i])
			w[i] = length(cell[nrow, i])
}
function printtable(    r, i, line, right) {
	split("0 0 1 1 1 1 1 1 0 0", right, " ")
	for (r = 1; r <= nrow; r++) {
		line = "|"
		for (i = 1; i <= NCOL; i++)
			line = line " " sprintf("%" (right[i] ? "" : "-") w[i] "s", cell[r, i]) " |"
		print line
		if (r == 1) {
			line = "|"
			for (i = 1; i <= NCOL; i++)
				line = line (right[i] ? "-" : ":") sprintf("%" w[i] "s", "") (right[i] ? ":" : "-") "|"
			gsub(/ /, "-", line)
			print line
		}
	}
}
END {
	if (figs == "all") {
		nfig = 0
		for (i = 1; i <= ncols; i++) {
			f = colorder[i]
			# the runs' noise (lib/noise.sh) is the machine's, not a figure of the variant
			if (f == "variant" || f == "run" || f ~ /_run_id$|_digest$/ || (f in text) ||
			    f == "attempt" || f == "noisy" || f ~ /^noise_/)
				continue
			fig[++nfig] = f
		}
	} else
		nfig = split(figs, fig, " ")
	NCOL = 10
	lvl = trim(sprintf("%.1f", 100 * (1 - alpha)))
	if (fmt == "tsv")
		print "variant", "figure", "a_runs", "a_median", "b_runs", "b_median", "ratio", "a_values", "b_values", \
			"change", "p", "min_p", "ratio_hl", "ratio_lo", "ratio_hi", "ratio_ci_pct"
	else {
		print "A: " dira
		print "B: " dirb
		print ""
		addrow("variant", "figure", "A median", "B median", "B/A", "change", "B/A " lvl "% interval", "p", "A runs", "B runs")
	}
	for (k = 1; k <= nv; k++) {
		v = vorder[k]
		for (j = 1; j <= nfig; j++) {
			f = fig[j]
			split("", A); split("", B)
			NA = na = values("a", v, f, A); ma = na ? median(A, na) : "-"; va = na ? VALS : "-"; sa = SKIPPED
			NB = nb = values("b", v, f, B); mb = nb ? median(B, nb) : "-"; vb = nb ? VALS : "-"; sb = SKIPPED
			if (!na && !nb && !named)
				continue
			missing("a", v, f, na, sa)
			missing("b", v, f, nb, sb)
			rt = (na && nb) ? ratio(mb, ma) : "-"
			p = mw_test(A, na, B, nb)
			minp = (na && nb) ? fmtp(mw_minp(na, nb)) : ""
			if (p != "" && mw_minp(na, nb) > alpha)
				fewnote(na, nb, v, f)
			# a variant both sides ran, without a number on one of them: no change to speak of
			ch = (nr["a", v] && nr["b", v] && (!na || !nb)) ? "not comparable" : change(ma, mb, p)
			if (!ratio_ci(A, na, B, nb, alpha))
				ci = "-"
			else
				ci = CI_LO ".." CI_HI (CI_PCT + 0 < lvl - 1e-9 ? " (" CI_PCT "%)" : "")
			if (fmt == "tsv")
				print v, f, na, ma, nb, mb, rt, va, vb, ch, dash(fmtp(p)), dash(minp), dash(CI_EST), dash(CI_LO), dash(CI_HI), dash(CI_PCT)
			else
				addrow(v, f, ma, mb, rt, ch, ci, p == "" ? "-" : fmtp(p), va, vb)
		}
	}
	if (fmt == "md") {
		printtable()
		print ""
		print "change: of the median, when the runs of A and B differ beyond the noise: p <= " alpha " in a two-sided" \
			" Mann-Whitney U test of A's runs against B's (exact; tied values share their rank); ~: not beyond it;" \
			" not comparable: one side has no number for it (a note below says why)."
		print "interval: of B/A, around the Hodges-Lehmann estimate (the median of the ratios of every B run to every" \
			" A run), at least " lvl " % sure, or as sure as the percentage in parentheses when the runs are too few for " lvl " %."
	}
	# too few runs: the test cannot reach alpha however the runs fall
	for (i = 1; i <= nfew; i++) {
		kk = fewkey[i]
		msg = "too few runs: with " kk " the smallest p the test can give is " fmtp(fewmin[kk]) ", above " alpha \
			", so no change can be called (" few[kk] "); " mw_needed(alpha) " runs on each side at least would do."
		if (fmt == "md")
			print "Note: " msg
		else
			print "compare: " msg > "/dev/stderr"
	}
	# cells that are not numbers: what was left out, and what could not be compared
	for (i = 1; i <= nnotes; i++)
		if (fmt == "md")
			print "Note: " notes[i] "."
		else
			print "compare: " notes[i] > "/dev/stderr"
}
