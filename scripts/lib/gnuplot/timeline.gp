# timeline.gp: datagrams per second over the runs, sent by blast and received by suck: did the
# rate hold from start to end? One panel per variant, in the tables' order, all on one time
# axis; in each, a band per tool from the slowest to the fastest run at each interval and its
# median as a line (one line per run is a tangle at six runs), so that a stall, a warm-up or a
# collapse halfway shows, where the table shows only medians. Every panel's rates are in one
# unit (M with one decimal, or k): never "1.0M" beside "800.0k". The legend sits above the
# panels, out of the data. Set by scripts/plot: term, out, datafile (timeline.awk's data sets:
# the i-th variant's blast is index 2(i-1), its suck 2(i-1)+1; columns variant, tool, k, t_s,
# median, min, max, runs), subtitle, variants (their names, space-separated, in that order).
nv = words(variants)
H = 210 + 150 * nv
if (term eq 'svg') {
	eval sprintf("set terminal svg size 1000,%d dynamic noenhanced font 'sans,12' background '#ffffff'", H)
} else {
	eval sprintf("set terminal %s size 1000,%d noenhanced font 'sans,10' background '#ffffff'", term, H)
}
set output out
set datafile separator '\t'
set datafile missing 'NaN'

# One time axis and one unit for every panel, from all the data.
stats datafile using 4 nooutput
tmax = STATS_max
stats datafile using 7 nooutput
top = STATS_max
if (top >= 1e6) { unit = 1e6; set format y '%.1fM' } else { if (top >= 1e3) { unit = 1e3; set format y '%.0fk' } else { unit = 1; set format y '%.0f' } }
# a step of 1, 2 or 5 times a power of ten giving about four ticks up to m, never finer than the
# one decimal of M (or the whole k) that every label has
tickstep(m) = m <= 0 ? 1 : (m / 4 / 10 ** floor(log10(m / 4)) <= 1 ? 1 : m / 4 / 10 ** floor(log10(m / 4)) <= 2 ? 2 : \
	m / 4 / 10 ** floor(log10(m / 4)) <= 5 ? 5 : 10) * 10 ** floor(log10(m / 4))
minstep = unit == 1e6 ? 0.1 : 1

set grid lc rgb '#d0d0d0'
set border 3
set xtics nomirror
set ytics nomirror
set xrange [0:tmax]
set style fill transparent solid 0.25 noborder
set linetype 1 lc rgb '#4a7ab8' lw 2
set linetype 2 lc rgb '#e08a2c' lw 2
# The panels' places, in pixels turned into fractions of the page: the title and the legend
# above, the time axis's label below, room for each panel's name between.
set multiplot layout nv, 1 title "Datagrams per second over the runs (blast and suck -i)\n".subtitle \
	margins 0.09, 0.97, 60.0 / H, 1 - 125.0 / H spacing 0, 36.0 / H
do for [i = 1:nv] {
	v = word(variants, i)
	set title 'suck -m '.v offset 0, -0.6
	set ylabel 'datagrams/s'
	if (i == nv) {
		set format x '%g'
		set xlabel 'seconds since the tool started (suck starts first and waits for blast)'
	} else {
		set format x ''
		unset xlabel
	}
	if (i == 1) {
		set key at screen 0.5, screen 1 - 50.0 / H center top horizontal maxrows 1 samplen 2.5 width -2
	} else {
		unset key
	}
	# this panel's range: its fastest run, in the figure's unit (stats skips points outside the
	# range set, so the last panel's is unset first)
	set yrange [*:*]
	stats datafile index 2 * (i - 1):2 * (i - 1) + 1 using ($7 / unit) nooutput
	step = tickstep(STATS_max) < minstep ? minstep : tickstep(STATS_max)
	set yrange [0:(STATS_max > 0 ? ceil(STATS_max * 1.05 / step) * step : step)]
	set ytics 0, step
	plot datafile index 2 * (i - 1) using 4:($5 / unit) with lines lt 1 title 'sent by blast: median', \
		'' index 2 * (i - 1) using 4:($6 / unit):($7 / unit) with filledcurves lt 1 title 'min..max of the runs', \
		'' index 2 * (i - 1) + 1 using 4:($5 / unit) with lines lt 2 title 'received by suck: median', \
		'' index 2 * (i - 1) + 1 using 4:($6 / unit):($7 / unit) with filledcurves lt 2 title 'min..max of the runs'
}
unset multiplot
