# ladder.gp: the drop ladder of scripts/reproduce cloudflare-2018 (drawn as published_vs_here):
# per rung, from the earliest drop point to the application, the Mpps published (one bar; NaN:
# not available) and here (the mean over the runs, whiskers: least and most). Set besides
# style.gp's: nothing. Columns: row, the published Mpps three times, here's mean, least, most.
nseries = 2
load dir.'/style.gp'
set title "Cloudflare's drop ladder (2018): Mpps dropped or received on one CPU\n".subtitle
set xlabel 'drop point (earliest first)'
set ylabel 'Mpps (here: mean, whiskers: least..most over the runs)'
set yrange [0:*]
set xtics rotate by -30
plot datafile using 2:3:4:xtic(1) title '2018 (published)' lt 2, \
	'' using 5:6:7 title 'here' lt 1, \
	'' using (xbar($0, 1)):7:($5 == $5 ? sprintf('%.3g', $5) : '') with labels font ',9' offset 0, 0.7 notitle
