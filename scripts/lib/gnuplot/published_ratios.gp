# published_ratios.gp: the ratios that carry across machines, as published (one bar) and here
# (the estimate over the runs, whiskers: its interval), for scripts/reproduce gso-2018, gro-2018,
# sendmmsg-2011, cloudflare-2015, zerocopy and skb-defer (drawn as published_vs_here). Set besides
# style.gp's: what (the experiment's title), pubsrc (the published year, 2018 unless set), ymax
# (the scale's top, 200 unless set). Columns: ratio, the published ratio three times, or its
# middle, low and high when published as a range (skb-defer's 1.20..1.30; NaN: none published),
# here's estimate, low and high (NaN where a ratio was not measured). Log scale: the 2018 ratios run
# from about 1.4 to 42, sendmmsg's from 1 to 1.3; 1 is no effect.
nseries = 2
load dir.'/style.gp'
set title what.": the ratios, published and here\n".subtitle
set xlabel 'ratio (each written so that > 1 is the published gain)'
set ylabel 'ratio (log scale; here: estimate, whiskers: interval over the runs)'
set logscale y
if (!exists('pubsrc')) pubsrc = '2018'
if (!exists('ymax')) ymax = 200
set yrange [0.5:ymax]
set ytics ('0.5' 0.5, '1' 1, '2' 2, '5' 5, '10' 10, '20' 20, '50' 50, '100' 100)
set arrow from graph 0, first 1 to graph 1, first 1 nohead lc rgb '#808080' dt 2
plot datafile using 2:3:4:xtic(1) title pubsrc.' (published)' lt 2, \
	'' using 5:6:7 title 'here' lt 1, \
	'' using (xbar($0, 0)):4:(sprintf('%.3g', $2)) with labels font ',9' offset 0, 0.7 notitle, \
	'' using (xbar($0, 1)):7:($5 == $5 ? sprintf('%.3g', $5) : '') with labels font ',9' offset 0, 0.7 notitle
