# fanin.gp: fan-in (suite --senders N): did suck share itself fairly among the senders? Each
# sender's share of the datagrams suck received of all of them, per receive variant, one bar per
# sender, against a dashed line at the fair share, 100/N %; under each variant's name Jain's
# fairness index over the senders (1: all alike, 1/N: one sender got everything).
# Set by scripts/plot besides style.gp's: datafile, one row per variant: variant, then median,
# min, max of each sender's share_pct, then of jain; nseries the senders.
load dir.'/style.gp'
set title "Fan-in: each sender's share of what suck received, by receive variant\n".subtitle
set xlabel "receive variant (suck -m, --senders); under it Jain's fairness index (1: fair, 1/".nseries.": one sender got all)" offset 0, -0.6
set ylabel '% of what suck received (median; whiskers: min..max)'
set bmargin 5
set yrange [0:*]
fair = 100.0 / nseries
jcol = 3 * nseries + 2
jainlabel(v, j) = j == j ? sprintf("%s\nJain %.3f", v, j) : v
plot for [i=1:nseries] datafile using (column(3*i-1)):(column(3*i)):(column(3*i+1)):xtic(jainlabel(strcol(1), column(jcol))) title sprintf('sender %d', i), \
	fair with lines dt 2 lw 1.5 lc rgb '#333333' title sprintf('fair share: 100/%d = %.1f %%', nseries, fair)
