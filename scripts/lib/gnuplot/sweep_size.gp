# sweep_size.gp: the size sweep (scripts/sweep size), one line per receive variant, log-log: the
# sizes span 64 B to 64 KB and the rates two or three decades.
# Set by scripts/sweep besides style.gp's: variants (space-separated, one data block each, in order),
# figure: 'pps' (datagrams per second) or 'mbps' (Mbit/s).
# Columns per block, sorted by size: size, delivered_pps, delivered_mbps, offered_pps, loss_pct.
nseries = words(variants)
load dir.'/style.gp'
set linetype 5 lc rgb '#c0504d'
set linetype 6 lc rgb '#808080'
set style data linespoints
set xtics nomirror scale 1
set grid xtics ytics lc rgb '#d0d0d0'
set key inside bottom left vertical box opaque Left reverse
set logscale x 2
set logscale y
set xlabel 'datagram size (bytes, blast -s; log scale, K = 1024)'
set xtics ('64' 64, '128' 128, '256' 256, '512' 512, '1K' 1024, '4K' 4096, '8K' 8192, '16K' 16384, '32K' 32768, '64K' 65536)
set format y '%.0s%c'
set offsets graph 0.03, graph 0.03, 0, 0
if (figure eq 'mbps') {
	set key inside top left
	set title "Throughput delivered against datagram size, by receive variant\n".subtitle
	set ylabel 'delivered: Mbit/s of valid datagrams at suck (log scale)'
	plot for [i = 1:nseries] datafile index (i - 1) using 1:3 title word(variants, i) lt i pt 7 ps 0.8 lw 2
} else {
	set title "Datagrams delivered against datagram size, by receive variant\n".subtitle
	set ylabel 'delivered: valid datagrams per second at suck (log scale)'
	plot for [i = 1:nseries] datafile index (i - 1) using 1:2 title word(variants, i) lt i pt 7 ps 0.8 lw 2
}
