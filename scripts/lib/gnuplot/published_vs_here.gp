# published_vs_here.gp: the share of sent datagrams the receiver processed, 2014 (Lua receivers, as
# published) against this run, per strategy. Log scale: the 2014 shares are below 1 %.
# Columns: strategy, then median, min, max of received/sent % for 2014 and for here (NaN where a
# strategy has no 2014 counterpart).
nseries = 2
load dir.'/style.gp'
set title "Datagrams processed per datagram sent: 2014 (published) and here\n".subtitle
set xlabel 'receive strategy (2014 receiver / suck variant)'
set ylabel 'received / sent (%, log scale; bars: median, whiskers: min..max)'
set logscale y
set yrange [0.1:200]
set ytics ('0.1' 0.1, '0.3' 0.3, '1' 1, '3' 3, '10' 10, '30' 30, '100' 100)
plot datafile using 2:3:4:xtic(1) title '2014, Lua 5.1, 2.6 GHz Pentium (published)' lt 2, \
	'' using 5:6:7 title 'here: suck' lt 1, \
	'' using (xbar($0, 0)):4:($2 == $2 ? sprintf('%.2g %%', $2) : '') with labels font ',9' offset 0, 0.7 notitle, \
	'' using (xbar($0, 1)):7:(sprintf('%.3g %%', $5)) with labels font ',9' offset 0, 0.7 notitle
