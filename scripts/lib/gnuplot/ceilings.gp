# ceilings.gp: the sending ladder of scripts/reproduce ceilings: per rung, the frames a second the
# XDP drop counted from one sending CPU (the median over the runs, whiskers: least and most). Set
# besides style.gp's: nothing. Columns: rung, median Mfps, least, most.
nseries = 1
load dir.'/style.gp'
set title "The sending ladder: frames a second from one CPU into XDP_DROP\n".subtitle
set xlabel 'rung (how it sends)'
set ylabel 'Mfps (median, whiskers: least..most over the runs)'
set yrange [0:*]
set xtics rotate by -30
plot datafile using 2:3:4:xtic(1) title 'here' lt 1, \
	'' using (xbar($0, 0)):4:($2 == $2 ? sprintf('%.3g', $2) : '') with labels font ',9' offset 0, 0.7 notitle
