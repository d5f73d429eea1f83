# scripts/lib/devinfo.sh: the device suck receives on, as "rx_dev..." lines of env.txt. Fed to
# `$SUCK_CMD sh` on standard input, as hostinfo.sh is, after a line setting DEV (the device, or
# empty), ADDR (suck's -a: the device that holds it, when DEV is empty) and NETDEV (bin/netdev's
# path on that host, for the features; ethtool -k when it is missing). So it runs where suck runs:
# the wire's namespace, or another host over ssh, and needs no copy there. Only reads: no root.
# POSIX sh; what cannot be read is "unknown", or the line is left out.
if [ -z "$DEV" ] && command -v ip >/dev/null 2>&1; then
	DEV=$(ip -o addr show 2>/dev/null | awk -v a="$ADDR" '{ split($4, p, "/"); if (p[1] == a) { print $2; exit } }')
fi
if [ -z "$DEV" ] || [ ! -d "/sys/class/net/$DEV" ]; then
	echo "rx_dev: unknown (no device here holds $ADDR${DEV:+, and none is named $DEV})"
	exit 0
fi
d=/sys/class/net/$DEV
echo "rx_dev: $DEV"
# The driver: a physical device's is its bus driver; a virtual one's (veth) is ip's link kind.
drv=
if [ -e "$d/device/driver" ]; then
	drv=$(basename "$(readlink "$d/device/driver")")
elif command -v ip >/dev/null 2>&1; then
	# shellcheck disable=SC1003 # a backslash is the field separator of ip -o
	drv=$(ip -d -o link show dev "$DEV" 2>/dev/null | awk -F'\\' '{ split($3, w, " "); if (w[1] != "" && w[1] !~ /^(addrgenmode|numtxqueues)$/) print w[1] }')
fi
echo "rx_dev.driver: ${drv:-unknown}"
echo "rx_dev.mtu: $(cat "$d/mtu" 2>/dev/null || echo unknown)"
nrx=0
ntx=0
for q in "$d"/queues/rx-* "$d"/queues/tx-*; do
	case $q in */rx-[0-9]*) nrx=$((nrx + 1)) ;; */tx-[0-9]*) ntx=$((ntx + 1)) ;; esac
done
echo "rx_dev.queues: rx $nrx, tx $ntx"
for q in "$d"/queues/rx-*; do
	[ -r "$q/rps_cpus" ] || continue
	r=$(tr -d ',0\n' <"$q/rps_cpus" 2>/dev/null)
	[ -z "$r" ] || echo "rx_dev.rps.${q##*/}: $(cat "$q/rps_cpus")"
done
echo "rx_dev.threaded: $(cat "$d/threaded" 2>/dev/null || echo unknown)"
# The NAPI kernel threads "napi/DEV-ID" (a task's name holds 15 characters: compare what is
# there) and the CPUs each may run on.
want=$(printf '%.15s' "napi/$DEV-")
n=0
for p in /proc/[0-9]*; do
	c=$(cat "$p/comm" 2>/dev/null) || continue
	case $c in
	"$want"*)
		n=$((n + 1))
		echo "rx_dev.napi: ${p#/proc/} $c cpus $(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$p/status" 2>/dev/null)" ;;
	esac
done
[ "$n" -gt 0 ] || echo "rx_dev.napi: none (no threaded NAPI: the device's poll runs in softirq, charged to whatever it interrupts)"
# Interrupts named after the device (a NIC's queues; a veth has none) and their CPUs.
awk -v dev="$DEV" '$1 ~ /^[0-9]+:$/ && index($NF, dev) { sub(":", "", $1); print $1, $NF }' /proc/interrupts 2>/dev/null |
	while read -r irq name; do
		echo "rx_dev.irq.$irq: $name cpus $(cat "/proc/irq/$irq/smp_affinity_list" 2>/dev/null || echo unknown)"
	done
# The features, by the kernel's names (netdev), else as ethtool names them.
if [ -x "$NETDEV" ] && f=$("$NETDEV" features "$DEV" 2>/dev/null); then
	printf '%s\n' "$f" | sed 's/^\([^ ]*\) /rx_dev.feature.\1: /'
elif command -v ethtool >/dev/null 2>&1 && f=$(ethtool -k "$DEV" 2>/dev/null); then
	printf '%s\n' "$f" | sed -n 's/^[[:space:]]*\([a-z0-9_-]*\): \(.*\)$/rx_dev.feature.\1: \2/p'
else
	echo "rx_dev.feature: unknown (neither $NETDEV nor ethtool here)"
fi
