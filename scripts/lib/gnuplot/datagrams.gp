# datagrams.gp: what suck received of what blast sent in a run, per variant. One question: how
# much got through? Received is a bar, sent a dark blue mark above it, on a log scale, so that a
# variant whose blast sends ten times as much (gro: GSO into UDP_GRO) leaves the others
# readable; the share received, the same figure as table.md's "received % (per run)" (the median
# of the runs' own received / sent), is written under each variant's name, clear of the bars and
# whiskers. Columns: variant, then median, min, max of blast_sent, suck_received and
# received_pct.
nseries = 1
load dir.'/style.gp'
set title "How much of what blast sent suck received, per run, by receive variant\n".subtitle
set xlabel "receive variant (suck -m); under it the share received: the median of the runs' own received / sent" offset 0, -0.6
set ylabel 'datagrams per run (log scale)'
set logscale y
set format y '%.0s%c'
set boxwidth 0.55
set bmargin 5
# The range by hand: autoscale would round out to whole decades (a decade of nothing above), and
# a bar starts at the bottom of the range, so it starts a decade below the smallest whisker.
# (a run that received nothing has no place on a log scale: the sent count stands in for it)
stats datafile using ($6 > 0 ? $6 : $3 > 0 ? $3 : 1) nooutput
ylo = 10 ** floor(log10(STATS_min))
stats datafile using 4 nooutput
set yrange [ylo:STATS_max * 1.6]
set xrange [-0.6:STATS_records - 0.4]
# ticks at 1, 2 and 5 of each decade, so that a range of less than two decades has a few
set ytics 10
do for [e = 0:12] { do for [m in '2 5'] { set ytics add (gprintf('%.0s%c', m * 10.0 ** e) m * 10.0 ** e) } }
set xtics nomirror scale 0
set key outside top center horizontal
pctlabel(v, p) = p == p ? sprintf("%s\n%.1f %%", v, p) : v
plot datafile using 0:5:xtic(pctlabel(strcol(1), $8)) with boxes lt 2 title 'received by suck (median; whiskers: min..max of the runs)', \
	'' using 0:6:(0):($7 - $6) with vectors nohead lc rgb '#000000' lw 1.2 notitle, \
	'' using ($0 - 0.08):6:(0.16):(0) with vectors nohead lc rgb '#000000' lw 1.2 notitle, \
	'' using ($0 - 0.08):7:(0.16):(0) with vectors nohead lc rgb '#000000' lw 1.2 notitle, \
	'' using ($0 - 0.36):2:(0.72):(0) with vectors nohead lc rgb '#1d4f8f' lw 3 title 'sent by blast (median; thin line: min..max)', \
	'' using 0:3:(0):($4 - $3) with vectors nohead lc rgb '#1d4f8f' lw 1 notitle
