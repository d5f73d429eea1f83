# latency.gp: one-way delay per receive variant (suck --latency), log scale: the medians over
# the runs of p50, p99 and p99.9, and of the queue part's p50 (time waiting in the socket and in
# suck's batch). Set by scripts/plot besides style.gp's: datafile, one row per variant: variant,
# then median, min, max of lat_p50_us, lat_p99_us, lat_p999_us and queue_p50_us.
nseries = 4
load dir.'/style.gp'
set title "One-way delay, send time to the work, by receive variant (suck --latency)\n".subtitle
set xlabel 'receive variant (suck -m)'
set ylabel 'microseconds (log; bars: median of the runs, whiskers: min..max)'
set logscale y
set yrange [*:*]
set format y '%g'
plot datafile using 2:3:4:xtic(1) title 'p50' lt 1, \
	'' using 5:6:7 title 'p99' lt 2, \
	'' using 8:9:10 title 'p99.9' lt 3, \
	'' using 11:12:13 title 'queue part, p50' lt 4
