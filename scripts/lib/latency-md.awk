# latency-md.awk: sweep rate --latency's rate.tsv in, latency.md out: per variant the one-way
# delay at the lowest and the highest offered rate, and a paragraph computed from the numbers:
# which variant waits least at low load and at high load, and from which offered rate the queue
# part (the wait in the socket and in suck's batch) is more than half of the delay.
BEGIN { FS = "\t" }
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
function n(x) { return x == "NaN" || x == "" ? -1 : x + 0 }
{
	v = $c["variant"]
	if (!(v in rows)) order[++nv] = v
	k = ++rows[v]
	off[v, k] = n($c["offered_pps"]); p50[v, k] = n($c["lat_p50_us"]); p99[v, k] = n($c["lat_p99_us"])
	st[v, k] = n($c["stack_p50_us"]); q[v, k] = n($c["queue_p50_us"]); loss[v, k] = n($c["loss_pct"])
}
function lowest(v,    k, b) { b = 0; for (k = 1; k <= rows[v]; k++) if (p50[v, k] >= 0 && (!b || off[v, k] < off[v, b])) b = k; return b }
function highest(v,    k, b) { b = 0; for (k = 1; k <= rows[v]; k++) if (p50[v, k] >= 0 && (!b || off[v, k] > off[v, b])) b = k; return b }
# the lowest offered rate at which the queue part is over half the delay
function queue_from(v,    k, b) { b = 0; for (k = 1; k <= rows[v]; k++) if (q[v, k] >= 0 && q[v, k] > p50[v, k] / 2 && (!b || off[v, k] < off[v, b])) b = k; return b }
function r(x) { return x >= 1e6 ? sprintf("%.2fM", x / 1e6) : x >= 1e3 ? sprintf("%.0fk", x / 1e3) : sprintf("%d", x) }
END {
	print "# One-way delay against offered rate (suck --latency)"
	print ""
	print "Per variant: the delay from blast's send time to the work (p50 and p99), and its parts at the"
	print "p50 (stack: to the kernel's receive stamp; queue: from it to the work), at the lowest and the"
	print "highest offered rate of the sweep; every trial is in rate.tsv and the rate_latency plot."
	print ""
	print "| variant | offered/s (low) | p50 us | p99 us | stack p50 us | queue p50 us | offered/s (high) | p50 us | p99 us | queue p50 us | loss % (high) |"
	print "|:--|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"
	for (j = 1; j <= nv; j++) {
		v = order[j]; a = lowest(v); b = highest(v)
		if (!a) continue
		printf "| %s | %s | %.1f | %.1f | %.1f | %.1f | %s | %.1f | %.1f | %.1f | %.3g |\n", v, r(off[v, a]), p50[v, a], p99[v, a], st[v, a], q[v, a], r(off[v, b]), p50[v, b], p99[v, b], q[v, b], loss[v, b]
		if (!bl || p50[v, a] < p50[bl, lowest(bl)]) bl = v
		if (!bh || p50[v, b] < p50[bh, highest(bh)]) bh = v
		if (!wh || p50[v, b] > p50[wh, highest(wh)]) wh = v
	}
	if (!bl) { print ""; print "No trial measured the delay (suck --latency)."; exit }
	print ""
	printf "At the lowest load, %s waits least (p50 %.1f us at %s/s offered); ", bl, p50[bl, lowest(bl)], r(off[bl, lowest(bl)])
	printf "at the highest, %s (p50 %.1f us at %s/s) and %s most (%.1f us at %s/s). ", bh, p50[bh, highest(bh)], r(off[bh, highest(bh)]), wh, p50[wh, highest(wh)], r(off[wh, highest(wh)])
	s = ""
	for (j = 1; j <= nv; j++) {
		v = order[j]; k = queue_from(v)
		s = s (s ? "; " : "") v (k ? " from " r(off[v, k]) "/s" : " at no rate of the sweep")
	}
	print "The queue part is more than half of the p50 delay: " s "."
}
