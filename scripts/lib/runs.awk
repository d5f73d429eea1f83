# runs.awk: joins the reports of the measured runs into runs.tsv.
# Input: lines "variant TAB run TAB blast-report TAB suck-report", each report a tsv file of a
# header line and one row. Output: variant, run, received_pct, then blast's columns prefixed
# blast_ and suck's prefixed suck_, in the order the tools print them. Columns are matched by
# name, so a column that only some runs report is still kept (empty where a run lacks it).
BEGIN { FS = OFS = "\t" }

function readreport(file, side, r,    h, row, nh, nr, i, line) {
	if ((getline line < file) <= 0) {
		print "runs: no report in " file > "/dev/stderr"
		bad = 1
		exit 1
	}
	nh = split(line, h, "\t")
	if ((getline line < file) <= 0) {
		print "runs: no row in " file > "/dev/stderr"
		bad = 1
		exit 1
	}
	close(file)
	nr = split(line, row, "\t")
	if (nr != nh) {
		print "runs: " nh " columns but " nr " values in " file > "/dev/stderr"
		bad = 1
		exit 1
	}
	for (i = 1; i <= nh; i++) {
		if (!((side, h[i]) in known)) {
			known[side, h[i]] = 1
			cols[side, ++ncols[side]] = h[i]
		}
		val[r, side, h[i]] = row[i]
	}
}

{
	nrun++
	variant[nrun] = $1
	label[nrun] = $2
	readreport($3, "blast", nrun)
	readreport($4, "suck", nrun)
}

END {
	if (bad || !nrun)
		exit 1
	line = "variant" OFS "run" OFS "received_pct"
	for (i = 1; i <= ncols["blast"]; i++)
		line = line OFS "blast_" cols["blast", i]
	for (i = 1; i <= ncols["suck"]; i++)
		line = line OFS "suck_" cols["suck", i]
	print line
	for (r = 1; r <= nrun; r++) {
		line = variant[r] OFS label[r] OFS pct(val[r, "suck", "received"], val[r, "blast", "sent"])
		for (i = 1; i <= ncols["blast"]; i++)
			line = line OFS val[r, "blast", cols["blast", i]]
		for (i = 1; i <= ncols["suck"]; i++)
			line = line OFS val[r, "suck", cols["suck", i]]
		print line
	}
}
