# compare.awk: two runs.tsv in (A, then B), the before/after table out: per variant and figure
# the medians of A and B, the ratio B/A and every run's value. Variables: figs (names or "all"),
# fmt (md or tsv), dira and dirb (for the heading).
BEGIN { FS = OFS = "\t" }
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
		if ($i != "" && !isnum($i))
			text[col[side, i]] = 1
	}
}
# values(s, v, f): the runs of one side, "," between them, into VALS; sorted copy into S[1..n]
function values(s, v, f,    r, k) {
	VALS = ""
	k = 0
	for (r = 1; r <= nr[s, v]; r++)
		if (((s, v, f, r) in x) && x[s, v, f, r] != "") {
			VALS = VALS (k ? "," : "") x[s, v, f, r]
			S[++k] = x[s, v, f, r]
		}
	sortnum(S, k)
	return k
}
# addrow(...): a row of the markdown table, printed padded by printtable()
function addrow(c1, c2, c3, c4, c5, c6, c7,    i) {
	cell[++nrow, 1] = c1; cell[nrow, 2] = c2; cell[nrow, 3] = c3; cell[nrow, 4] = c4
	cell[nrow, 5] = c5; cell[nrow, 6] = c6; cell[nrow, 7] = c7
	for (i = 1; i <= 7; i++)
		if (length(cell[nrow, i]) > w[i])
			w[i] = length(cell[nrow, i])
}
function printtable(    r, i, line, right) {
	split("0 0 1 1 1 0 0", right, " ")
	for (r = 1; r <= nrow; r++) {
		line = "|"
		for (i = 1; i <= 7; i++)
			line = line " " sprintf("%" (right[i] ? "" : "-") w[i] "s", cell[r, i]) " |"
		print line
		if (r == 1) {
			line = "|"
			for (i = 1; i <= 7; i++)
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
			if (f == "variant" || f == "run" || f ~ /_run_id$|_digest$/ || (f in text))
				continue
			fig[++nfig] = f
		}
	} else
		nfig = split(figs, fig, " ")
	if (fmt == "tsv")
		print "variant", "figure", "a_runs", "a_median", "b_runs", "b_median", "ratio", "a_values", "b_values"
	else {
		print "A: " dira
		print "B: " dirb
		print ""
		addrow("variant", "figure", "A median", "B median", "B/A", "A runs", "B runs")
	}
	for (k = 1; k <= nv; k++) {
		v = vorder[k]
		for (j = 1; j <= nfig; j++) {
			f = fig[j]
			na = values("a", v, f); ma = na ? median(S, na) : "-"; va = na ? VALS : "-"
			nb = values("b", v, f); mb = nb ? median(S, nb) : "-"; vb = nb ? VALS : "-"
			if (!na && !nb)
				continue
			rt = (na && nb) ? ratio(mb, ma) : "-"
			if (fmt == "tsv")
				print v, f, na, ma, nb, mb, rt, va, vb
			else
				addrow(v, f, ma, mb, rt, va, vb)
		}
	}
	if (fmt == "md")
		printtable()
}
