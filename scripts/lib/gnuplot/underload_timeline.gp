# underload_timeline.gp: suite --under-load over the runs, one panel per variant, flent's view:
# what suck read per second beside the flood (left axis), and the probe's mean round trip in each
# quarter second alone (dashed) and beside the flood (solid) on the right, log scale (blast
# --rtt -i's rtt_mean_us; an interval with no reply has no point). Medians of the rounds at each
# quarter second, bands min..max.
# Set by scripts/plot: term, out, subtitle, variants (names, in the tables' order), datafile
# (timeline.awk's data sets for VARIANT-alone and VARIANT-loaded: the i-th variant's alone suck
# is index 4(i-1)+1, loaded suck 4(i-1)+3) and rttfile (timeline.awk -v fig=rtt_mean_us of the
# probe's rows, each with its empty suck set: alone index 4(i-1), loaded 4(i-1)+2); columns variant, tool, k, t_s, median,
# min, max, runs.
nv = words(variants)
H = 210 + 170 * nv
if (term eq 'svg') {
	eval sprintf("set terminal svg size 1000,%d dynamic noenhanced font 'sans,12' background '#ffffff'", H)
} else {
	eval sprintf("set terminal %s size 1000,%d noenhanced font 'sans,10' background '#ffffff'", term, H)
}
set output out
set datafile separator '\t'
set datafile missing 'NaN'
stats datafile using 4 nooutput
tmax = STATS_max
# a step of 1, 2 or 5 times a power of ten giving about four ticks up to m (timeline.gp's)
tickstep(m) = m <= 0 ? 1 : (m / 4 / 10 ** floor(log10(m / 4)) <= 1 ? 1 : m / 4 / 10 ** floor(log10(m / 4)) <= 2 ? 2 : \
	m / 4 / 10 ** floor(log10(m / 4)) <= 5 ? 5 : 10) * 10 ** floor(log10(m / 4))
set grid lc rgb '#d0d0d0'
set border 11
set xtics nomirror
set ytics nomirror
set y2tics
set logscale y2
set format y2 '%g'
set xrange [0:tmax]
set style fill transparent solid 0.25 noborder
set linetype 1 lc rgb '#4a7ab8' lw 2
set linetype 2 lc rgb '#e08a2c' lw 2
set linetype 3 lc rgb '#e08a2c' lw 2 dt 2
set multiplot layout nv, 1 title "Under load over the runs (suck and blast -i)\n".subtitle \
	margins 0.10, 0.90, 60.0 / H, 1 - 125.0 / H spacing 0, 36.0 / H
do for [i = 1:nv] {
	v = word(variants, i)
	set title 'suck -m '.v.' --echo' offset 0, -0.6
	set ylabel 'read by suck, datagrams/s'
	set y2label 'probe round trip, us (log)'
	if (i == nv) {
		set format x '%g'
		set xlabel 'seconds since the tool started'
	} else {
		set format x ''
		unset xlabel
	}
	if (i == 1) {
		set key at screen 0.5, screen 1 - 50.0 / H center top horizontal maxrows 1 samplen 2.5 width -2
	} else {
		unset key
	}
	set yrange [*:*]
	stats datafile index 4 * (i - 1) + 3 using 7 nooutput
	step = tickstep(STATS_max)
	set yrange [0:(STATS_max > 0 ? ceil(STATS_max * 1.05 / step) * step : step)]
	set ytics 0, step
	set y2range [*:*]
	set format y '%.0s%c'
	plot datafile index 4 * (i - 1) + 3 using 4:6:7 with filledcurves lt 1 notitle, \
		'' index 4 * (i - 1) + 3 using 4:5 with lines lt 1 title 'read by suck beside the flood', \
		rttfile index 4 * (i - 1) + 2 using 4:6:7 axes x1y2 with filledcurves lt 2 notitle, \
		rttfile index 4 * (i - 1) + 2 using 4:5 axes x1y2 with lines lt 2 title 'probe round trip beside the flood', \
		rttfile index 4 * (i - 1) using 4:5 axes x1y2 with lines lt 3 title 'probe round trip alone'
}
unset multiplot
