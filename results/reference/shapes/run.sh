#!/bin/sh
# blast's call shapes: sent pps per shape into suck -m gro, 3 alternating rounds; from the top of the tree.
# Output: results/reference/shapes/runs.tsv (columns named in its first line).
cd "$(dirname "$0")/../../.." || exit 1
col() { awk -F'\t' -v k="$1" 'NR==1{for(i=1;i<=NF;i++) if($i==k) c=i; next} {print $c}' "$2"; }
port=21000
echo "round	size	shape	blast_pps	suck_pps	segs	batch	blast_cpu_ns"
for r in 1 2 3; do
 for size in 64 256 512 1450 8972; do
  case $size in
   64) shapes="default|-g 128 -b 1|-g 128 -b 4|-g 128 -b 16";;
   256) shapes="default|-g 128 -b 1|-g 128 -b 4|-g 128 -b 8";;
   512) shapes="default|-g 127 -b 2|-g 127 -b 4|-g 64 -b 4";;
   1450) shapes="default|-g 45 -b 2|-g 45 -b 4|-g 45 -b 8";;
   8972) shapes="default|-g 7 -b 2|-g 7 -b 4|-g 7 -b 8";;
  esac
  echo "$shapes" | tr '|' '\n' | while read -r sh; do
   port=$((port+1)); [ "$sh" = default ] && a= || a=$sh
   bin/suck -p 0 -m gro -w none -R 4M --cpu 1 -t 8 -o tsv > /tmp/sh.s 2>/tmp/sh.e &
   sp=$!; i=0
   while ! grep -q listening /tmp/sh.e 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
   p=$(sed -n 's/.*listening on 127.0.0.1:\([0-9]*\).*/\1/p' /tmp/sh.e)
   bin/blast -p "$p" -s $size -t 2 $a --cpu 0 -o tsv > /tmp/sh.b 2>/dev/null
   wait $sp
   echo "$r	$size	$sh	$(col pps /tmp/sh.b)	$(col pps /tmp/sh.s)	$(col gso /tmp/sh.b)	$(col batch /tmp/sh.b)	$(col cpu_ns_per_pkt /tmp/sh.b)"
  done
 done
done
