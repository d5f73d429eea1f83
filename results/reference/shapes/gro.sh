#!/bin/sh
# suck -m gro at 1450 B behind blast's default: -b and -R, 4 alternating rounds; from the top of the tree.
# Columns: round, suck options, blast sent pps, suck received pps, suck cpu ns per datagram.
cd "$(dirname "$0")/../../.." || exit 1
col() { awk -F'\t' -v k="$1" 'NR==1{for(i=1;i<=NF;i++) if($i==k) c=i; next} {print $c}' "$2"; }
for r in 1 2 3 4; do for cfg in "-b 8 -R 4M" "-b 16 -R 4M" "-b 8 -R 32M" "-b 4 -R 4M"; do
 bin/suck -p 0 -m gro -w none $cfg --cpu 1 -t 8 -o tsv > /tmp/g.s 2>/tmp/g.e & sp=$!; i=0
 while ! grep -q listening /tmp/g.e 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
 p=$(sed -n 's/.*listening on 127.0.0.1:\([0-9]*\).*/\1/p' /tmp/g.e)
 bin/blast -p "$p" -s 1450 -t 2 --cpu 0 -o tsv > /tmp/g.b 2>/dev/null; wait $sp
 echo "$r	$cfg	$(col pps /tmp/g.b)	$(col pps /tmp/g.s)	$(col cpu_ns_per_pkt /tmp/g.s)"
done; done
