# ndr.gp: the zero-loss rate per receive variant, one bar per datagram size (scripts/ndr).
# Set by scripts/ndr besides style.gp's: sizes (space-separated), losslimit (the loss allowed, %).
# Columns: variant, then 5 per size: rate, rate again (whisker bottom), the lowest rate that lost
# (whisker top: the bracket the search left), confirmed (1/0), delivered when blast is unthrottled.
nseries = words(sizes)
load dir.'/style.gp'
set linetype 5 lc rgb '#c0504d'
set linetype 6 lc rgb '#808080'
c(j, k) = 1 + (j - 1) * 5 + k
what = (losslimit + 0 == 0) ? 'without losing a datagram' : 'losing at most '.losslimit.' %'
set title 'Zero-loss rate: the highest rate suck takes '.what.", by receive variant\n".subtitle
set xlabel 'receive variant (suck -m)'
set ylabel "datagrams per second offered by blast\n(bars: the rate that held; whiskers: to the lowest that lost)"
set yrange [0:*]
set format y '%.0s%c'
set offsets 0, 0, graph 0.1, 0
plot for [j = 1:nseries] datafile using c(j, 1):c(j, 2):c(j, 3):xtic(1) title word(sizes, j).'-byte datagrams' lt j, \
	for [j = 1:nseries] '' using (xbar($0, j - 1)):(column(c(j, 5))) with points pt 2 ps 1.4 lc rgb '#303030' \
		title (j == 1 ? 'delivered with blast unthrottled (losing)' : ''), \
	for [j = 1:nseries] '' using (xbar($0, j - 1)):(column(c(j, 3))):(eng(column(c(j, 1))).(column(c(j, 4)) > 0 ? '' : ' unconfirmed')) \
		with labels font ',9' offset 0, 0.8 notitle
