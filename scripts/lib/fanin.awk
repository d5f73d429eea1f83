# fanin.awk: a fan-in trial's reports (suite --senders N; lib/fanin.sh) into the two files runs.awk
# joins. Input: suck's report (a header, a row per run, the total row: run_id total), then each
# sender's blast report (a header and one row), in the order of the senders. Output, with -v
# out=PREFIX: PREFIX.blast.tsv, the first sender's row with the counts every sender adds to
# (sent, bytes, pps, mbps, calls, fins, errors) summed over the senders, and a column senders;
# PREFIX.fanin.tsv, suck's total row and for each sender I: senderI_sent (its blast's sent),
# senderI_valid (suck's valid of its run: 0 when no datagram of it arrived), senderI_through_pct
# (valid / sent), senderI_share_pct (its part of every sender's valid), then jain: Jain's
# fairness index over the senders' valid, (sum x)^2 / (n sum x^2), 1/n (one sender got
# everything) .. 1 (all alike); "-" when nothing arrived. Status 1, said, when a report is not
# whole. Run with jain.awk before it (-f jain.awk -f fanin.awk).
BEGIN { FS = OFS = "\t"; split("sent bytes pps mbps calls fins errors", a, " "); for (i in a) add[a[i]] = 1 }

function bad(why) { print "fanin: " FILENAME ": " why > "/dev/stderr"; failed = 1; exit 1 }

FNR == 1 { file++; nh = split($0, h, "\t"); for (i = 1; i <= nh; i++) col[file, h[i]] = i; hdr[file] = $0; next }
NF != nh { bad(NF " values under " nh " columns") }
file == 1 {
	if ($col[1, "run_id"] == "total")
		total = $0
	else
		valid_of[$col[1, "run_id"]] = $col[1, "valid"]
	next
}
{
	n = file - 1
	if (n in row)
		bad("more than one row")
	row[n] = $0
	run[n] = $col[file, "run_id"]
	sent[n] = $col[file, "sent"]
}
END {
	if (failed)
		exit 1
	if (total == "" || n < 1 || n != senders + 0) {
		print "fanin: no total row in suck's report, or no blast report" > "/dev/stderr"
		exit 1
	}
	nb = split(hdr[2], bh, "\t")
	for (i = 1; i <= nb; i++) {
		if (bh[i] in add) {
			for (k = 1; k <= n; k++) {
				split(row[k], r, "\t")
				sum[i] += r[col[k + 1, bh[i]]]
			}
		}
	}
	split(row[1], r, "\t")
	line = ""
	for (i = 1; i <= nb; i++)
		line = line (i > 1 ? OFS : "") (bh[i] in add ? sum[i] : r[i])
	print hdr[2] OFS "senders" > (out ".blast.tsv")
	print line OFS n > (out ".blast.tsv")
	close(out ".blast.tsv")

	for (k = 1; k <= n; k++) {
		x[k] = (run[k] in valid_of) ? valid_of[run[k]] : 0
		all += x[k]
	}
	head = hdr[1]
	line = total
	for (k = 1; k <= n; k++) {
		head = head OFS "sender" k "_sent" OFS "sender" k "_valid" OFS "sender" k "_through_pct" OFS "sender" k "_share_pct"
		line = line OFS sent[k] OFS x[k] OFS (sent[k] > 0 ? sprintf("%.2f", 100 * x[k] / sent[k]) : "-") \
			OFS (all > 0 ? sprintf("%.2f", 100 * x[k] / all) : "-")
	}
	j = jain(x, n)
	print head OFS "jain" > (out ".fanin.tsv")
	print line OFS (j == "-" ? j : sprintf("%.4f", j)) > (out ".fanin.tsv")
	close(out ".fanin.tsv")
}
