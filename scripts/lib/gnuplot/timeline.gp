# timeline.gp: datagrams per second over each run, sent by blast and received by suck, one panel
# per variant, every measured run a line: a stall, a warm-up or a collapse halfway shows here,
# where the table shows only medians. Set by scripts/plot: term, out, datafile (timeline.awk's
# table: variant, run, tool, t_s, pps), subtitle, variants (their names, space-separated).
nv = words(variants)
if (term eq 'svg') {
	eval sprintf("set terminal svg size 1000,%d dynamic noenhanced font 'sans,12' background '#ffffff'", 180 + 170 * nv)
} else {
	eval sprintf("set terminal %s size 1000,%d noenhanced font 'sans,10' background '#ffffff'", term, 180 + 170 * nv)
}
set output out
set datafile separator '\t'
set grid lc rgb '#d0d0d0'
set key top right horizontal
set format y '%.1s%c'
set yrange [0:*]
set border 3
set xtics nomirror
set ytics nomirror
set linetype 1 lc rgb '#4a7ab8' lw 1.5
set linetype 2 lc rgb '#e08a2c' lw 1.5
set multiplot layout nv, 1 title "Datagrams per second over each run (blast and suck -i)\n".subtitle
do for [i = 1:nv] {
	v = word(variants, i)
	set title 'suck -m '.v offset 0, -0.5
	set ylabel 'datagrams/s'
	if (i == nv) { set xlabel 'seconds since the tool started (suck starts first and waits for blast)' } else { unset xlabel }
	plot datafile using (strcol(1) eq v && strcol(3) eq 'blast' ? $4 : NaN):5 with lines lt 1 title (i == 1 ? 'sent by blast' : ''), \
		'' using (strcol(1) eq v && strcol(3) eq 'suck' ? $4 : NaN):5 with lines lt 2 title (i == 1 ? 'received by suck' : '')
}
unset multiplot
