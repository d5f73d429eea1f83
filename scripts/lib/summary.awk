# summary.awk: runs.tsv in, summary.tsv out: for every variant (in the order of their first run)
# and every figure, the number of runs and the median, min and max, then a confidence interval
# of the median: median_lo..median_hi, by order statistics (stats.awk's median_ci: distribution
# free and exact, two runs' values as printed), at least 1 - alpha (0.05) sure, and how sure it
# is in % (median_ci_pct: with 5 runs or fewer it is min..max, 93.8 % sure for 5, 75 % for 3).
# A figure is a column whose values are all numbers; identifiers that happen to be numbers
# (run, run ids, digests) are not figures. An empty cell is a value the tool did not report, and
# so is "-" (the tools' word for a figure not measured, e.g. blast's rtt_p50_us when no request
# of a run was answered): the figure is summarized over the runs that have a number (runs).
# A runs.tsv with a phase column (suite --under-load) is summarized per variant and phase, and
# summary.tsv has a phase column after variant; one with a direction column (suite --bidir)
# per variant and direction alike.
BEGIN {
	FS = OFS = "\t"
	if (alpha == "")
		alpha = 0.05
	skip["run"] = skip["blast_run_id"] = skip["suck_run_id"] = skip["suck_digest"] = skip["flood_run_id"] = 1
	# the runs' noise (lib/noise.sh) says how far to trust them: not a figure of the variant
	skip["attempt"] = skip["noisy"] = skip["noise_pre_pct"] = skip["noise_post_pct"] = 1
	skip["noise_other_pct"] = skip["noise_steal_pct"] = 1
}
NR == 1 {
	for (i = 1; i <= NF; i++) {
		name[i] = $i
		if ($i == "variant")
			vcol = i
		if ($i == "phase" || $i == "direction")
			pcol = i
	}
	nf = NF
	if (!vcol) {
		print "summary: no variant column in " FILENAME > "/dev/stderr"
		exit 1
	}
	next
}
{
	v = pcol ? $vcol OFS $pcol : $vcol
	if (!(v in nruns)) {
		order[++nv] = v
		nruns[v] = 0
	}
	r = ++nruns[v]
	for (i = 1; i <= nf; i++) {
		if ($i == "-")
			$i = ""
		cell[v, i, r] = $i
		if ($i != "" && !isnum($i))
			text[i] = 1
		if ($i != "")
			seen[i] = 1
	}
}
END {
	if (!vcol)
		exit 1
	print "variant", (pcol ? name[pcol] OFS : "") "figure", "runs", "median", "min", "max", "median_lo", "median_hi", "median_ci_pct"
	for (k = 1; k <= nv; k++) {
		v = order[k]
		for (i = 1; i <= nf; i++) {
			if ((name[i] in skip) || (i in text) || !(i in seen))
				continue
			n = 0
			for (r = 1; r <= nruns[v]; r++)
				if (cell[v, i, r] != "")
					a[++n] = cell[v, i, r]
			if (n == 0)
				continue
			sortnum(a, n)
			median_ci(a, n, alpha)
			print v, name[i], n, median(a, n), a[1], a[n], MCI_LO, MCI_HI, MCI_PCT
		}
	}
}
