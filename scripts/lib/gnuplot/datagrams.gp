# datagrams.gp: datagrams blast sent and suck received in a run, per variant (median bars,
# min/max error bars). Columns: variant, then median, min, max of blast_sent and suck_received.
nseries = 2
load dir.'/style.gp'
set title "Datagrams sent and received per run, by receive variant\n".subtitle
set xlabel 'receive variant (suck -m)'
set ylabel 'datagrams per run (count; bars: median, whiskers: min..max)'
set yrange [0:*]
set format y '%.0s%c'
set offsets 0, 0, graph 0.08, 0
plot datafile using 2:3:4:xtic(1) title 'sent by blast' lt 1, \
	'' using 5:6:7 title 'received by suck' lt 2, \
	'' using (xbar($0, 0)):4:(eng($2)) with labels font ',9' offset 0, 0.7 notitle, \
	'' using (xbar($0, 1)):7:($2 > 0 ? sprintf("%s\n%.3g %%", eng($5), 100 * $5 / $2) : eng($5)) with labels font ',9' offset 0, 1.3 notitle
