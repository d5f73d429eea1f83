# sweep_latency.gp: one-way delay against offered rate (scripts/sweep rate --latency), one colour
# per receive variant, p50 solid and p99 dashed, log scale: where a strategy's queue starts to
# build, its delay leaves the floor. Set by scripts/sweep besides style.gp's: variants (one data
# block each, in order). Columns per block, sorted by offered: offered_pps, lat_p50_us,
# lat_p99_us, queue_p50_us, asked_pps (0: unthrottled).
nseries = words(variants)
load dir.'/style.gp'
set linetype 5 lc rgb '#c0504d'
set linetype 6 lc rgb '#808080'
set style data linespoints
set xtics nomirror scale 1
set grid xtics ytics lc rgb '#d0d0d0'
set key inside top left vertical box opaque Left reverse
set title "One-way delay against offered rate, by receive variant (suck --latency)\n".subtitle
set xlabel 'offered: datagrams per second blast achieved (blast -r)'
set xrange [0:*]
set format x '%.0s%c'
set ylabel 'microseconds, send time to the work (log)'
set logscale y
set yrange [*:*]
set format y '%g'
plot for [i = 1:nseries] datafile index (i - 1) using 1:2 title word(variants, i).' p50' lt i pt 7 ps 0.8 lw 2, \
	for [i = 1:nseries] datafile index (i - 1) using 1:3 title word(variants, i).' p99' lt i dt 2 pt 6 ps 0.8 lw 1.5
