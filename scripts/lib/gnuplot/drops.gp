# drops.gp: where the lost datagrams went (suite --drops: suck --drops), per variant: a stacked
# bar of the medians over the runs of each part, the kernel's drops by reason (each reason some
# run saw), pool's queue drops, unexplained (a part below 0, copies dropped, is drawn as 0), and
# a dark mark at the median of lost. The medians of the parts need not add up to lost's: each
# run's do (runs.tsv). Set by scripts/plot besides style.gp's: datafile, one row per variant:
# variant, then median, min, max of lost and of each part; nseries the parts, names their
# titles (words).
load dir.'/style.gp'
set title "Where the lost datagrams went, by receive variant (suck --drops)\n".subtitle
set xlabel 'receive variant (suck -m)'
set ylabel 'datagrams lost per run (median of the runs)'
# Ticks in one unit, as many decimals as they need (1.5M, not a second 2M).
stats datafile using 2 nooutput
top = STATS_max
if (top >= 1e6) { unit = 1e6; set format y '%gM' } else { if (top >= 1e3) { unit = 1e3; set format y '%gk' } else { unit = 1; set format y '%g' } }
set style histogram rowstacked
set boxwidth 0.55
set key width 2 # the reasons' long names stay inside the box
set yrange [0:*]
set linetype 5 lc rgb '#c04040'
set linetype 6 lc rgb '#40a0a0'
set linetype 7 lc rgb '#a0a040'
set linetype 8 lc rgb '#808080'
set linetype 9 lc rgb '#d080c0'
set linetype 10 lc rgb '#603010'
set linetype 11 lc rgb '#bbbbbb'
pos(x) = x > 0 ? x : 0
plot for [i=1:nseries] datafile using (pos(column(3*i+2)) / unit):xtic(1) title word(names, i) lt i, \
	'' using ($0 - 0.36):($2 / unit):(0.72):(0) with vectors nohead lc rgb '#1d4f8f' lw 3 title 'lost (median)'
