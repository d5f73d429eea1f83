# scripts/lib/hostinfo.sh: what a result depends on about one host, as "key: value" lines.
# The suite feeds this file to `$SUCK_CMD sh` and `$BLAST_CMD sh` on standard input, so it runs
# wherever the tool runs (this machine, another network namespace, or over ssh) and needs no copy
# on the other side. POSIX sh; a value that cannot be read is "unknown".
model=$(awk -F': *' '/^(model name|Model|cpu model|Processor)[ \t]*:/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)
echo "hostname: $(uname -n 2>/dev/null || echo unknown)"
echo "kernel: $(uname -srm 2>/dev/null || echo unknown)"
echo "cpu_model: ${model:-$(uname -m 2>/dev/null || echo unknown)}"
echo "cpu_count: $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo unknown)"
for k in rmem_default rmem_max; do
	echo "net.core.$k: $(cat /proc/sys/net/core/$k 2>/dev/null || echo unknown)"
done
