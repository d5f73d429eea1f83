# fanin.gp: fan-in (suite --senders N): each sender's share of the datagrams suck received of
# all of them, per receive variant, one bar per sender; a fair receiver gives each 100/N %.
# Set by scripts/plot besides style.gp's: datafile, one row per variant: variant, then median,
# min, max of each sender's share_pct; nseries the senders.
load dir.'/style.gp'
set title "Fan-in: each sender's share of what suck received, by receive variant\n".subtitle
set xlabel 'receive variant (suck -m, --senders)'
set ylabel '% of the datagrams received (bars: median of the runs, whiskers: min..max)'
set yrange [0:*]
plot for [i=1:nseries] datafile using (column(3*i-1)):(column(3*i)):(column(3*i+1)):xtic(1) title sprintf('sender %d', i)
