# rtt.gp: round trips per receive variant (the suite's --rtt: blast --rtt to suck --echo), log
# scale: the medians over the runs of blast's RTT p50, p90, p99 and p99.9, its send call to the
# reply's arrival. Set by scripts/plot besides style.gp's: datafile, one row per variant:
# variant, then median, min, max of rtt_p50_us, rtt_p90_us, rtt_p99_us and rtt_p999_us.
nseries = 4
load dir.'/style.gp'
set title "Round trip, blast's request to suck's reply, by receive variant (--rtt)\n".subtitle
set xlabel 'receive variant (suck -m, --echo)'
set ylabel 'microseconds (log; bars: median of the runs, whiskers: min..max)'
set logscale y
set yrange [*:*]
set format y '%g'
plot datafile using 2:3:4:xtic(1) title 'p50' lt 1, \
	'' using 5:6:7 title 'p90' lt 2, \
	'' using 8:9:10 title 'p99' lt 3, \
	'' using 11:12:13 title 'p99.9' lt 4
