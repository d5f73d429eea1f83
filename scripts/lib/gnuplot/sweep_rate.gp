# sweep_rate.gp: the offered-rate sweep (scripts/sweep rate), one line per receive variant.
# Set by scripts/sweep besides style.gp's: variants (space-separated, one data block each, in order),
# figure: 'delivered' (delivered against offered, with the no-loss diagonal) or 'loss' (loss %).
# Columns per block, sorted by offered: offered_pps, delivered_pps, loss_pct, asked_pps (0: unthrottled).
nseries = words(variants)
load dir.'/style.gp'
set linetype 5 lc rgb '#c0504d'
set linetype 6 lc rgb '#808080'
set style data linespoints
set xtics nomirror scale 1
set grid xtics ytics lc rgb '#d0d0d0'
set key inside top left vertical box opaque Left reverse
set xlabel 'offered: datagrams per second blast achieved (blast -r; squares: blast unthrottled)'
set xrange [0:*]
set format x '%.0s%c'
set yrange [0:*]
if (figure eq 'loss') {
	set title "Loss against offered rate, by receive variant\n".subtitle
	set ylabel 'lost: % of the datagrams sent (lost / sent)'
	set format y '%g'
	plot for [i = 1:nseries] datafile index (i - 1) using 1:3 title word(variants, i) lt i pt 7 ps 0.8 lw 2, \
		for [i = 1:nseries] datafile index (i - 1) using 1:($4 == 0 ? $3 : NaN) with points lt i pt 4 ps 1.8 notitle
} else {
	set title "Delivered against offered rate, by receive variant\n".subtitle
	set ylabel 'delivered: valid datagrams per second at suck'
	set format y '%.0s%c'
	plot x title 'delivered = offered (nothing lost)' with lines dt 2 lw 1 lc rgb '#909090', \
		for [i = 1:nseries] datafile index (i - 1) using 1:2 title word(variants, i) lt i pt 7 ps 0.8 lw 2, \
		for [i = 1:nseries] datafile index (i - 1) using 1:($4 == 0 ? $2 : NaN) with points lt i pt 4 ps 1.8 notitle
}
