# Marking: blast --tos/--dscp, --ttl and --priority set before the first
# datagram, and suck --marks reading what arrived, on every variant, IPv4 and IPv6 (a
# v4-mapped destination and a dual-stack receiver too); marks_changed counts exactly the
# datagrams marked otherwise than the first (bin/inject marks: 3 in 10); without --marks the
# keys are '-'; the options are strict.
. tests/lib.sh

# summary FILE: the marking keys of a tsv report, for messages
summary() { echo "tos $(field "$1" tos) ttl $(field "$1" ttl) changed $(field "$1" marks_changed) valid $(field "$1" valid)"; }

for addr in 127.0.0.1 ::1; do
	for v in $(variants); do
		n=marks-$v-$addr
		start_suck "$n" -a "$addr" -m "$v" --marks -R 4M -o tsv -t 30 || { skip "$n: $(cat "$TMP/$n.err")"; continue; }
		"$BIN/blast" -a "$addr" -p "$PORT" --dscp 46 --ttl 7 --priority 3 -s 300 -n 400 -r 4000 \
			-o tsv >"$TMP/$n.blast" 2>"$TMP/$n.berr"
		check "$n: blast exit 0 ($(cat "$TMP/$n.berr"))" test $? = 0
		check "$n: suck ends" wait_pid "$SUCK_PID" 20
		S=$TMP/$n.out
		check "$n: stop fin" test "$(field "$S" stop)" = fin
		check "$n: valid $(field "$S" valid) > 0" test "$(field "$S" valid)" -gt 0
		check "$n: the first datagram marked: tos 184 ($(summary "$S"))" test "$(field "$S" tos)" = 184
		check "$n: ttl 7 ($(summary "$S"))" test "$(field "$S" ttl)" = 7
		check "$n: none marked otherwise ($(summary "$S"))" test "$(field "$S" marks_changed)" = 0
		check "$n: marks 1" test "$(field "$S" marks)" = 1
		B=$TMP/$n.blast
		check "$n: blast reports tos 184 ttl 7 priority 3" \
			test "$(field "$B" tos) $(field "$B" ttl) $(field "$B" priority)" = "184 7 3"
	done
done

# The kernel's defaults when blast sets nothing: TOS 0, the host's default TTL / hop limit.
ttl4=$(cat /proc/sys/net/ipv4/ip_default_ttl)
ttl6=$(cat /proc/sys/net/ipv6/conf/lo/hop_limit 2>/dev/null || echo 64)
for addr in 127.0.0.1 ::1; do
	n=default-$addr
	start_suck "$n" -a "$addr" --marks -R 4M -o tsv -t 30 || fail "$n: suck did not start"
	"$BIN/blast" -a "$addr" -p "$PORT" -n 100 -r 2000 -o tsv >"$TMP/$n.blast" 2>/dev/null
	wait_pid "$SUCK_PID" 20
	case $addr in *:*) want=$ttl6 ;; *) want=$ttl4 ;; esac
	check "$n: tos 0, ttl $want ($(summary "$TMP/$n.out"))" \
		test "$(field "$TMP/$n.out" tos) $(field "$TMP/$n.out" ttl)" = "0 $want"
	check "$n: blast reports the defaults as -" \
		test "$(field "$TMP/$n.blast" tos) $(field "$TMP/$n.blast" ttl) $(field "$TMP/$n.blast" priority)" = "- - -"
done

# A v4-mapped destination leaves as IPv4: the IPv4 options must be set. A dual-stack receiver
# (bound to ::) reads an IPv4 datagram's marking from IPv4's control messages.
n=mapped
start_suck "$n" --marks -R 4M -o tsv -t 30 || fail "$n: suck did not start"
"$BIN/blast" -a ::ffff:127.0.0.1 -p "$PORT" --tos 40 --ttl 9 -n 100 -r 2000 -o tsv >/dev/null 2>&1
wait_pid "$SUCK_PID" 20
check "$n: tos 40 ttl 9 ($(summary "$TMP/$n.out"))" test "$(field "$TMP/$n.out" tos) $(field "$TMP/$n.out" ttl)" = "40 9"
n=dual
if start_suck "$n" -a :: --marks -R 4M -o tsv -t 30; then
	"$BIN/blast" -a 127.0.0.1 -p "$PORT" --tos 5 --ttl 200 -n 100 -r 2000 -o tsv >/dev/null 2>&1
	wait_pid "$SUCK_PID" 20
	check "$n: tos 5 (ECN bits kept) ttl 200 ($(summary "$TMP/$n.out"))" \
		test "$(field "$TMP/$n.out" tos) $(field "$TMP/$n.out" ttl)" = "5 200"
else
	skip "$n: no dual-stack socket here"
fi

# Remarking on the path: bin/inject marks sends 3 datagrams in 10 with another TOS and TTL.
for v6 in "" 1; do
	addr=127.0.0.1
	[ -n "$v6" ] && addr=::1
	for v in buffer mmsg; do
		n=remark-$v-$addr
		start_suck "$n" -a "$addr" -m "$v" --marks -R 4M -o tsv --idle 5 -t 60 || fail "$n: suck did not start"
		INJECT_V6=$v6 "$BIN/inject" marks "$PORT" 4242 200 1000 >"$TMP/$n.inj"
		check "$n: suck ends" wait_pid "$SUCK_PID" 30
		S=$TMP/$n.out I=$TMP/$n.inj
		check "$n: valid $(field "$S" valid) == $(field "$I" valid)" test "$(field "$S" valid)" = "$(field "$I" valid)"
		check "$n: marks_changed exactly $(field "$I" marks_changed) ($(summary "$S"))" \
			test "$(field "$S" marks_changed)" = "$(field "$I" marks_changed)"
		check "$n: the first's marking ($(summary "$S"))" \
			test "$(field "$S" tos) $(field "$S" ttl)" = "$(field "$I" tos) $(field "$I" ttl)"
	done
done

# Without --marks: the keys are '-' (json null), and no control message is asked for.
n=off
start_suck "$n" -o tsv -t 30 || fail "$n: suck did not start"
"$BIN/blast" -p "$PORT" --tos 8 -n 50 -o tsv >/dev/null 2>&1
wait_pid "$SUCK_PID" 20
for k in tos ttl marks_changed; do
	check "off: $k is -" test "$(field "$TMP/$n.out" $k)" = "-"
done
check "off: marks 0" test "$(field "$TMP/$n.out" marks)" = 0
"$BIN/suck" -p 0 -t 10ms -o json >"$TMP/off.json" 2>/dev/null
check "off: json null" grep -q '"marks_changed":null' "$TMP/off.json"

# --check says the settings.
"$BIN/blast" --check --dscp 10 --ttl 3 -o tsv >"$TMP/bcheck" 2>&1
check "blast --check: tos 40 ttl 3" test "$(field "$TMP/bcheck" tos) $(field "$TMP/bcheck" ttl)" = "40 3"
"$BIN/suck" --check -p 0 --marks -o tsv >"$TMP/scheck" 2>&1
check "suck --check: marks 1" test "$(field "$TMP/scheck" marks)" = 1

# TOS, DSCP and priorities are written in hex as often as not (ping -Q 0x10, iperf3 -S 0x10):
# 0x hex gives the same --check row as the decimal.
for r in "--tos 0x10:--tos 16" "--tos 0XB8:--tos 184" "--dscp 0x2e:--dscp 46" "--priority 0x10:--priority 16"; do
	# shellcheck disable=SC2086 # an option and its value
	"$BIN/blast" --check ${r%%:*} -o tsv >"$TMP/hex.tsv" 2>"$TMP/hex.err"
	st=$?
	# shellcheck disable=SC2086
	"$BIN/blast" --check ${r#*:} -o tsv >"$TMP/dec.tsv" 2>&1
	check "blast --check ${r%%:*}: exit 0 ($st: $(cat "$TMP/hex.err"))" test "$st" = 0
	check "blast --check ${r%%:*}: the row of ${r#*:}" cmp -s "$TMP/hex.tsv" "$TMP/dec.tsv"
done

# Strict options: exit 2, the option and its range named.
bad() { # MESSAGE ARGS...: blast ARGS exits 2 and says MESSAGE
	m=$1; shift
	"$BIN/blast" --check "$@" >/dev/null 2>"$TMP/bad.err"
	st=$?
	check "blast $*: exit 2 ($st)" test "$st" = 2
	check "blast $*: says '$m' ($(cat "$TMP/bad.err"))" grep -qF -- "$m" "$TMP/bad.err"
}
bad "--tos '256': out of range 0..255" --tos 256
bad "--dscp '64': out of range 0..63" --dscp 64
bad "--ttl '0': out of range 1..255" --ttl 0
bad "--ttl '256': out of range 1..255" --ttl 256
bad "--priority '-1'" --priority -1
bad "--tos 'x'" --tos x
bad "--tos '0x100': out of range 0x0..0xff; accepted: 0..255" --tos 0x100
bad "--tos '0xzz': no hexadecimal digits after 0x" --tos 0xzz
bad "--tos '0x': no hexadecimal digits after 0x" --tos 0x
bad "--dscp '0x40': out of range 0x0..0x3f" --dscp 0x40
bad "--tos '0x1k'" --tos 0x1k
bad "--tos and --dscp" --tos 8 --dscp 2

done_tests
