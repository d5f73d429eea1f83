# cpu.gp: CPU time (user + system) per datagram, per variant: suck's per datagram received and
# blast's per datagram sent. Columns: variant, then median, min, max of suck_cpu_ns_per_pkt and
# blast_cpu_ns_per_pkt.
nseries = 2
load dir.'/style.gp'
set title "CPU time per datagram, by receive variant\n".subtitle
set xlabel 'receive variant (suck -m)'
set ylabel 'CPU ns per datagram (user + system; bars: median, whiskers: min..max)'
set yrange [0:*]
set offsets 0, 0, graph 0.08, 0
plot datafile using 2:3:4:xtic(1) title 'suck, per datagram received' lt 1, \
	'' using 5:6:7 title 'blast, per datagram sent' lt 2, \
	'' using (xbar($0, 0)):4:(sprintf('%.0f', $2)) with labels font ',9' offset 0, 0.7 notitle, \
	'' using (xbar($0, 1)):7:(sprintf('%.0f', $5)) with labels font ',9' offset 0, 0.7 notitle
