# memory.gp: suck's memory per variant: peak resident set (ru_maxrss) and heap in use at the end
# (mallinfo2; the 2014 "Memory used in K"). Log scale: the heap is tens of KiB for one buffer,
# megabytes for a ring of them. Columns: variant, then median, min, max of suck_rss_kib and
# suck_heap_kib.
nseries = 2
load dir.'/style.gp'
set title "Memory held by suck, by receive variant\n".subtitle
set xlabel 'receive variant (suck -m)'
set ylabel 'KiB (log scale; bars: median, whiskers: min..max)'
set logscale y
set yrange [1:*]
set format y '%.0s%c'
set offsets 0, 0, graph 0.1, 0
plot datafile using 2:3:4:xtic(1) title 'peak resident set (rss_kib)' lt 3, \
	'' using 5:6:7 title 'heap in use at the end (heap_kib)' lt 4, \
	'' using (xbar($0, 0)):4:(eng($2)) with labels font ',9' offset 0, 0.7 notitle, \
	'' using (xbar($0, 1)):7:(eng($5)) with labels font ',9' offset 0, 0.7 notitle
