#!/bin/sh
# Pool against one socket per thread (seed 002), 3 alternating rounds; from the top of the tree.
cd "$(dirname "$0")/../../.." || exit 1
for r in 1 2 3; do
for w in histogram histogram:20; do
for shape in "mmsg" "mmsg -j 2" "pool --workers 1"; do
	bin/suck -p 0 -m $shape -w $w -R 4M -o tsv -t 20 >/tmp/ps.out 2>/tmp/ps.err &
	sp=$!
	i=0; while ! grep -q listening /tmp/ps.err && [ $i -lt 300 ]; do sleep 0.01; i=$((i+1)); done
	P=$(sed -n 's/.*:\([0-9]*\)$/\1/p' /tmp/ps.err | head -1)
	bin/blast -p $P -t 2 -j 2 -o tsv >/dev/null 2>&1
	wait $sp
	awk -F'\t' -v s="$shape" -v w=$w -v r=$r 'NR==1{for(i=1;i<=NF;i++)h[$i]=i} NR==2{printf "%s\t%s\t%s\t%s\t%s\t%s\n", w, s, r, $h["pps"], $h["cpu_ns_per_pkt"], $h["lost"]}' /tmp/ps.out
done; done; done
