# underload.gp: the probe's round trips alone and under load (suite --under-load), every receive
# variant in one figure: a CDF drawn through the percentiles blast reports (p50, p90, p99, p99.9,
# max), each the median over the rounds; dashed alone, solid beside the flood, a colour per
# variant. The y axis is -log10(1 - F), so that p50, p90, p99 and p99.9 are evenly apart (max
# above them). Set by scripts/plot besides style.gp's: datafile, gnuplot data sets 2(i-1) (alone)
# and 2(i-1)+1 (loaded) for the i-th variant, rows: x (microseconds), y; variants, their names.
load dir.'/style.gp'
set title "Probe round trip alone and beside a flood into the same socket (--under-load)\n".subtitle
set xlabel 'round trip, microseconds (log; medians over the rounds)'
set ylabel 'percentile of the requests answered'
set logscale x
set format x '%g'
set yrange [0:3.8]
set ytics ('p50' 0.30103, 'p90' 1, 'p99' 2, 'p99.9' 3, 'max' 3.5)
set grid xtics ytics lc rgb '#d0d0d0'
set key outside top center horizontal box
nv = words(variants)
plot for [i = 1:nv] datafile index 2 * (i - 1) using 1:2 with linespoints lt i dt 2 lw 2 pt 6 title word(variants, i).' alone', \
	for [i = 1:nv] datafile index 2 * (i - 1) + 1 using 1:2 with linespoints lt i dt 1 lw 2 pt 7 title word(variants, i).' loaded'
