# runs.awk: joins the reports of the measured runs into runs.tsv.
# Input: lines "variant TAB run TAB blast-report TAB suck-report [TAB ...] [TAB noise-report]", each report a
# tsv file of a header line and one row. Output: variant, run, received_pct, then blast's columns
# prefixed blast_ and suck's prefixed suck_, in the order the tools print them, then the noise
# report's as they are (lib/noise.sh noise_run: attempt, noise_*_pct, noisy; "-" without one). Columns are matched by
# name, so a column that only some runs report is still kept (empty where a run lacks it).
# With -v phased=1 (suite --under-load): lines "variant TAB phase TAB run TAB probe-report TAB
# suck-report TAB flood-report" ("-": none, the alone phase); output variant, phase, run,
# received_pct (the probe's: suck's received less its foreign, over blast's sent), blast_*,
# suck_*, flood_* (the flood's blast), then flood_received (suck's foreign: the flood's
# datagrams it read), flood_received_pps (over suck's duration_s) and rtt_p99_ratio (the loaded
# row's blast_rtt_p99_us over that of the alone row of its variant and run), "-" in alone rows;
# and rtt_lost_pct, the probe's requests unanswered, 100 x blast_rtt_lost / blast_sent; a
# seventh field, the noise report (noise() below: a field named *.noise.tsv), as in the others.
# With -v ceiling=FILE (suite --ceiling: its ceiling.tsv, a row per round), of_ceiling after
# received_pct: the run's suck_pps over the dropped_pps of its round's ceiling, "-" when that
# round has none.
BEGIN {
	FS = OFS = "\t"
	if (ceiling != "")
		readceiling(ceiling)
}
# readceiling(file): ceil[run] = dropped_pps of each row of a ceiling.tsv
function readceiling(file,    line, h, n, i, c, r, f) {
	if ((getline line < file) <= 0) {
		print "runs: no ceiling in " file > "/dev/stderr"
		bad = 1
		exit 1
	}
	n = split(line, h, "\t")
	for (i = 1; i <= n; i++) {
		if (h[i] == "run") r = i
		if (h[i] == "dropped_pps") c = i
	}
	while ((getline line < file) > 0) {
		split(line, f, "\t")
		if (r && c && f[c] > 0)
			ceil[f[r]] = f[c]
	}
	close(file)
}

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

phased {
	nrun++
	variant[nrun] = $1
	phase[nrun] = $2
	label[nrun] = $3
	readreport($4, "blast", nrun)
	readreport($5, "suck", nrun)
	if ($6 != "-")
		readreport($6, "flood", nrun)
	noise(nrun)
	if ($2 == "alone")
		alone[$1, $3] = nrun
	next
}
{
	nrun++
	variant[nrun] = $1
	label[nrun] = $2
	readreport($3, "blast", nrun)
	readreport($4, "suck", nrun)
	noise(nrun)
}
# noise(r): the run's noise report, a field after the reports named *.noise.tsv (not every list
# has one: suite --bidir's fifth field is the direction)
function noise(r,    i) {
	for (i = NF; i >= 5; i--)
		if ($i ~ /\.noise\.tsv$/) {
			readreport($i, "noise", r)
			return
		}
}
# num(x): x when it is a number, else "" (a figure the tool did not measure: "-")
function num(x) { return x ~ /^[0-9]+(\.[0-9]+)?$/ ? x : "" }

END {
	if (bad || !nrun)
		exit 1
	line = "variant" OFS (phased ? "phase" OFS : "") "run" OFS "received_pct" (ceiling != "" ? OFS "of_ceiling" : "")
	for (i = 1; i <= ncols["blast"]; i++)
		line = line OFS "blast_" cols["blast", i]
	for (i = 1; i <= ncols["suck"]; i++)
		line = line OFS "suck_" cols["suck", i]
	for (i = 1; i <= ncols["flood"]; i++)
		line = line OFS "flood_" cols["flood", i]
	if (phased)
		line = line OFS "flood_received" OFS "flood_received_pps" OFS "rtt_p99_ratio" OFS "rtt_lost_pct"
	nn = split("attempt noise_pre_pct noise_post_pct noise_other_pct noise_steal_pct noisy", ncol, " ")
	for (i = 1; i <= nn; i++)
		line = line OFS ncol[i]
	print line
	for (r = 1; r <= nrun; r++) {
		own = val[r, "suck", "received"] - (phased ? val[r, "suck", "foreign"] : 0)
		line = variant[r] OFS (phased ? phase[r] OFS : "") label[r] OFS pct(own, val[r, "blast", "sent"])
		if (ceiling != "") {
			p = num(val[r, "suck", "pps"])
			line = line OFS ((label[r] in ceil) && p != "" ? sprintf("%.4f", p / ceil[label[r]]) : "-")
		}
		for (i = 1; i <= ncols["blast"]; i++)
			line = line OFS val[r, "blast", cols["blast", i]]
		for (i = 1; i <= ncols["suck"]; i++)
			line = line OFS val[r, "suck", cols["suck", i]]
		for (i = 1; i <= ncols["flood"]; i++)
			line = line OFS val[r, "flood", cols["flood", i]]
		if (phased) {
			fr = frp = p99r = "-"
			a = alone[variant[r], label[r]]
			if (phase[r] != "alone") {
				fr = val[r, "suck", "foreign"] + 0
				d = num(val[r, "suck", "duration_s"])
				if (d > 0)
					frp = sprintf("%.0f", fr / d)
				p = num(val[r, "blast", "rtt_p99_us"])
				q = a ? num(val[a, "blast", "rtt_p99_us"]) : ""
				if (p != "" && q > 0)
					p99r = sprintf("%.2f", p / q)
			}
			lp = pct(val[r, "blast", "rtt_lost"], val[r, "blast", "sent"])
			line = line OFS fr OFS frp OFS p99r OFS (lp == "" ? "-" : lp)
		}
		for (i = 1; i <= nn; i++)
			line = line OFS (((r, "noise", ncol[i]) in val) ? val[r, "noise", ncol[i]] : "-")
		print line
	}
}
