# style.gp: what every plot of the suite shares. Loaded by the other *.gp after scripts/plot set:
#   term     'pngcairo', 'png' or 'svg'     out       the output file
#   datafile the data, one row per category: label, then median, min and max of each series
#   subtitle the run's size and machine     nseries   how many series (bars per category)
# Text is not "enhanced": figure names carry underscores that would become subscripts.
if (term eq 'svg') {
	set terminal svg size 1000,600 dynamic noenhanced font 'sans,13' background '#ffffff'
} else {
	eval 'set terminal '.term.' size 1000,600 noenhanced font "sans,11" background "#ffffff"'
}
set output out
set datafile separator '\t'
set datafile missing 'NaN'
set style data histogram
set style histogram errorbars gap 2 lw 1.5
set style fill solid 0.85 border -1
set boxwidth 1
set grid ytics lc rgb '#d0d0d0'
set key outside top center horizontal box
set xtics nomirror scale 0
set ytics nomirror
set border 3
set linetype 1 lc rgb '#4a7ab8'
set linetype 2 lc rgb '#e08a2c'
set linetype 3 lc rgb '#5aa05a'
set linetype 4 lc rgb '#9a5ab0'
# x of series j (0-based) in row r of a clustered histogram: rows at 0, 1, ...; bars 1/(n+gap) wide
xbar(r, j) = r + (j - (nseries - 1) / 2.0) / (nseries + 2.0)
# 834567 -> 835k, 1234567 -> 1.23M: three digits for the labels above the bars
eng(x) = x != x ? '' : abs(x) >= 1e9 ? sprintf('%.3gG', x / 1e9) : abs(x) >= 1e6 ? sprintf('%.3gM', x / 1e6) : abs(x) >= 1e3 ? sprintf('%.3gk', x / 1e3) : sprintf('%.3g', x)
