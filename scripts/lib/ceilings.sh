# scripts/lib/ceilings.sh: reproduce ceilings, the sending ladder: how fast this machine sends on
# one CPU, a rung per way of sending, beside cloudflare-2018's drop ladder (lib/ladder.sh, sourced
# before this file: the wire, the NAPI thread's CPU, the drop point, the rounds and the writers
# are its). Sourced by scripts/reproduce after its options, never run; ceilings_table exits.
#
# The wire of lib/wire.sh, the receiving veth's NAPI thread pinned to CPU 0 and, for every rung,
# the cheapest drop there is on it: XDP_DROP in native mode (bin/ladder xdp), so the receiver is
# not the limit; one sender pinned to CPU 1, as fast as it can, 32-byte UDP payloads (74-byte
# Ethernet frames: the drop ladder's size, so the two ladders' top rungs compare) to CEIL_PORT:
#   sendto    blast -b 1 -g 1: one sendto a datagram
#   sendmmsg  blast -b 32 -g 1: sendmmsg of 32 (blast's default batch)
#   gso       blast -b 1 -g 64: GSO messages of 64 cut in software before the link (the wire's
#             blast end has no UDP segmentation offload)
#   packet    blast --via packet: blast's frames through a PF_PACKET TX ring (PACKET_QDISC_BYPASS)
#   xdp       blast --via xdp: the same frames through an AF_XDP socket's TX ring
#   trafgen   netsniff-ng's trafgen, when installed: the same frame (Ethernet to the receiving
#             veth's MAC, IPv4, UDP to CEIL_PORT, 32 bytes of zeros) on the same veth, its
#             sending fork on the same CPU (its config's cpu(N) and -P N+1: trafgen pins fork i
#             to CPU i, over any taskset), -n and timeout -s INT bounding it
# Each run: the frames the XDP map counted over the sender's send window (blast's duration_s,
# trafgen's own "N sec, M usec on CPUn"), the sender's CPU per frame (blast's cpu_ns_per_pkt;
# trafgen's user + sys from the shell's `times` before and after it, in clock ticks), and the
# NAPI thread's CPU per frame (ladder_cpu), and the veths' drop counters (ceilings_dropped): what
# was sent and not counted, the sending veth dropped with the receiving one's ring full; and its
# noise, a noisy run measured again, as cloudflare-2018's (lib/ladder.sh ladder_rounds).
# Exit 4 as cloudflare-2018: not root, no veth, fewer than two CPUs, native XDP refused; a rung
# blast refuses here (exit 4: no AF_XDP, say) is skipped with a note, and trafgen's without it.
#
# Pitfalls: the receiving veth's ring full (the NAPI thread behind, or between its polls), the
# sending veth drops: counted < sent there, the sender's rate is the higher figure. The
# trafgen process tree is timeout -> trafgen -> its forks: timeout sends its signal to the whole
# group, so ladder_stop's SIGTERM to timeout ends them all.

CEIL_ROWS="sendto sendmmsg gso packet xdp trafgen"
CEIL_SIZE=${SIZE_SET:-32} # reproduce -s
# sendmmsg's batch: blast's default. Tried 2026-12-06 on this 2-CPU VM, shared with other jobs,
# 1 s x 4 runs each in rounds: -b 1024 counted 0.08-0.18 Mfps at 1695-2141 ns a frame of blast's
# CPU, -b 32 0.05-0.16 at 1983-2198: within the noise, 1024 no faster.
CEIL_BATCH=32
CEIL_GSO=$((65507 / CEIL_SIZE)) # segments a GSO message: as many as fit in 64 KiB, at most 64
[ "$CEIL_GSO" -le 64 ] || CEIL_GSO=64

# ceilings_args ROW: blast's arguments of ROW
ceilings_args() {
	case $1 in
	sendto) echo "-b 1 -g 1" ;;
	sendmmsg) echo "-b $CEIL_BATCH -g 1" ;;
	gso) echo "-b 1 -g $CEIL_GSO" ;;
	packet | xdp) echo "--via $1 --dev $WIRE_DEV_TX --dst-mac $WIRE_MAC_RX" ;;
	esac
}

# ceilings_row ROW RUN: one run of ROW into its drop point; its line (ladder_rounds) into
# WORKDIR/run, or a note and status 1 (failed) or 4 (the rung cannot run here: skipped).
ceilings_row() {
	cr_f=$STAGE/raw/$1-$2
	ladder_hold "$1" "$2" xdp "$RX_DEV" || return
	cr_napi=$(ladder_napi)
	cr_v0=$(ceilings_dropped)
	cr_t0=$(ladder_cpu "$cr_napi")
	cr_st=0
	if [ "$1" = trafgen ]; then
		times >"$WORKDIR/times0"
		# shellcheck disable=SC2086 # BLAST_CMD: words
		$BLAST_CMD timeout -s INT -k 2 "$TIME" trafgen -o "$WIRE_DEV_TX" -i "$WORKDIR/trafgen.cfg" -n "$LADDER_CAP" \
			-P "$((CEIL_CPU + 1))" --no-sock-mem --notouch-irq >"$cr_f.blast.err" 2>&1 &
		LADDER_TX=$!
		wait "$LADDER_TX" || cr_st=$?
		times >"$WORKDIR/times1"
		LADDER_TX=
		[ "$cr_st" != 124 ] || cr_st=0 # timeout's: the time bound, not a failure
		# its summary's lines start with a carriage return
		cr_s=$(tr -d '\r' <"$cr_f.blast.err" | sed -n 's/^ *\([0-9][0-9]*\) packets outgoing.*/\1/p' | head -n 1)
		cr_d=$(tr -d '\r' <"$cr_f.blast.err" | sed -n "s/^ *\([0-9]*\) sec, \([0-9]*\) usec on CPU$CEIL_CPU .*/\1 \2/p" |
			awk '{ printf "%.6f", $1 + $2 / 1e6; exit }')
		cr_n=0
		cr_c=$(cat "$WORKDIR/times0" "$WORKDIR/times1" | awk -v n="${cr_s:-0}" '
			function s(t) { sub(/s$/, "", t); split(t, a, "m"); return a[1] * 60 + a[2] }
			NR == 2 { c0 = s($1) + s($2) } NR == 4 { c1 = s($1) + s($2) }
			END { if (n > 0) printf "%.1f", (c1 - c0) * 1e9 / n; else print "-" }')
		cr_how="trafgen -P $((CEIL_CPU + 1)) cpu($CEIL_CPU) -n $LADDER_CAP, timeout $TIME s"
	else
		# bounded twice: -t TIME and a count no sender on this machine reaches in it
		# shellcheck disable=SC2046,SC2086 # BLAST_CMD, BLAST_PIN, the row's arguments: words
		$BLAST_CMD "$BLAST_BIN" -a "$ADDR" -p "$LADDER_PORT" -s "$CEIL_SIZE" $(ceilings_args "$1") -t "$TIME" \
			-n "$LADDER_CAP" --fin-time 0.1 -o tsv $BLAST_PIN >"$cr_f.blast.tsv" 2>"$cr_f.blast.err" &
		LADDER_TX=$!
		wait "$LADDER_TX" || cr_st=$?
		LADDER_TX=
		cr_s=$(tsv_field "$cr_f.blast.tsv" sent) cr_d=$(tsv_field "$cr_f.blast.tsv" duration_s)
		cr_n=$(tsv_field "$cr_f.blast.tsv" fins) cr_c=$(tsv_field "$cr_f.blast.tsv" cpu_ns_per_pkt)
		cr_how="blast $(ceilings_args "$1" | sed "s/ --dev .*//")"
	fi
	cr_t1=$(ladder_cpu "$cr_napi")
	ladder_release "$WORKDIR/$1-$2.ladder"
	cr_v1=$(ceilings_dropped)
	if [ "$1" = trafgen ] && grep -q '^Flushing TX_RING failed: Resource temporarily unavailable' "$cr_f.blast.err"; then
		note "trafgen: skipped, it ended at the veth's backpressure after $LADDER_N frames counted: \"Flushing TX_RING failed: Resource temporarily unavailable\" (its socket's send buffer full of frames waiting in the receiving veth's ring: trafgen ends on EAGAIN, and raises net.core.wmem_default only outside a network namespace)"
		return 4
	fi
	if [ "$cr_st" = 4 ]; then
		note "$1: skipped, blast refuses it here: $(grep -v '^$' "$cr_f.blast.err" | tail -n 1)"
		rm -f "$cr_f.blast.tsv"
		return 4
	fi
	if [ "$cr_st" -ne 0 ] || [ -z "$cr_s" ] || [ -z "$LADDER_N" ] || [ -z "$cr_d" ]; then
		note "$1 run $2: FAILED: the sender's exit $cr_st, sent ${cr_s:-?}, counted ${LADDER_N:-?} (see raw/$1-$2.*.err): the run is left out"
		return 1
	fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$cr_how" "$cr_d" "$cr_s" "${cr_n:-0}" "$LADDER_N" \
		"$(awk -v a="$cr_t0" -v b="$cr_t1" 'BEGIN { printf "%.6f", (b - a) / 1e9 }')" \
		"$(echo "$cr_napi" | wc -w)" "${cr_c:--}" "$(awk -v a="$cr_v0" -v b="$cr_v1" 'BEGIN { split(a, x, " "); split(b, y, " "); printf "%d %d", y[1] - x[1], y[2] - x[2] }')" >"$WORKDIR/run"
}
# ceilings_dropped: the sending veth's tx_dropped and the receiving veth's rx_dropped, each read
# in its namespace
ceilings_dropped() {
	# shellcheck disable=SC2086 # BLAST_CMD, SUCK_CMD: words
	echo "$($BLAST_CMD cat "/sys/class/net/$WIRE_DEV_TX/statistics/tx_dropped" 2>/dev/null || echo 0) $($SUCK_CMD cat "/sys/class/net/$RX_DEV/statistics/rx_dropped" 2>/dev/null || echo 0)"
}

ceilings_table() {
	tool_bins
	# shellcheck disable=SC2034 # ladder_env_head's: no published table
	PUB="no published table: the ceilings of this machine"
	result_check
	ladder_wire
	CEIL_CPU=${BLAST_PIN#--cpu }
	CEIL_LIST=$CEIL_ROWS
	if command -v trafgen >/dev/null 2>&1; then
		printf 'cpu(%s): { eth(da=%s, sa=%s), ipv4(saddr=%s, daddr=%s), udp(sport=%s, dport=%s), fill(0x00, %s) }\n' \
			"$CEIL_CPU" "$WIRE_MAC_RX" "$WIRE_MAC_TX" "$WIRE_ADDR_TX" "$ADDR" "$((LADDER_PORT - 1))" "$LADDER_PORT" \
			"$CEIL_SIZE" >"$WORKDIR/trafgen.cfg"
	else
		CEIL_LIST=${CEIL_ROWS% trafgen}
		note "trafgen: skipped, netsniff-ng's trafgen is not installed (apt-get install netsniff-ng)"
	fi
	set -- $CEIL_LIST
	echo "$PROG: $EXP: $# rows, $RUNS run(s) of $TIME s each, in rounds; NAPI thread and XDP drop on CPU ${SUCK_PIN#--cpu }, the sender on CPU $CEIL_CPU; writing $OUT" >&2
	ladder_rounds ceilings_row $CEIL_LIST
	ceilings_drop
	ladder_finish ceilings_env ceilings_tsv ceilings_md
}

# ceilings_drop: the last drop ladder's reproduce.tsv, to set beside the top rung: a reference
# run's (a folder of results/reference whose env.txt says cloudflare-2018), else the newest under
# results/runs; none: empty.
ceilings_drop() {
	CEIL_DROP=
	set +f
	for cd_d in "$ROOT"/results/reference/*/ "$ROOT"/results/runs/reproduce-*/cloudflare-2018/; do
		[ -f "$cd_d/reproduce.tsv" ] && [ "$(env_value "$cd_d/env.txt" experiment)" = cloudflare-2018 ] || continue
		CEIL_DROP=${cd_d%/}/reproduce.tsv
		case $cd_d in "$ROOT"/results/reference/*) break ;; esac
	done
	set -f
}

ceilings_env() {
	ladder_env_head "$CEIL_SIZE"
	echo "rows: $CEIL_LIST"
	echo "drop_ladder: ${CEIL_DROP:-none (no cloudflare-2018 result to set beside)}"
	ce_a=
	for ce_r in $CEIL_ROWS; do
		[ "$ce_r" = trafgen ] || ce_a="$ce_a; $ce_r: $(ceilings_args "$ce_r")"
	done
	echo "sender: blast -s $CEIL_SIZE -t $TIME -n $LADDER_CAP --fin-time 0.1 $BLAST_PIN to $ADDR:$LADDER_PORT, and by rung$ce_a"
	echo "trafgen: $(cat "$WORKDIR/trafgen.cfg" 2>/dev/null || echo "not installed"), -P $((CEIL_CPU + 1)) -n $LADDER_CAP, timeout -s INT $TIME s"
	echo "receiver: XDP_DROP (bin/ladder xdp) on $RX_DEV, its NAPI thread on CPU ${SUCK_PIN#--cpu }"
	echo "clock_ticks_per_s: $LADDER_HZ"
	echo "addr: $ADDR"
	wire_env
	env_tools
	! command -v trafgen >/dev/null 2>&1 || echo "trafgen_version: $(trafgen -v 2>&1 | head -n 1)"
}
ceilings_tsv() {
	awk -F'\t' -v OFS='\t' 'BEGIN { print "row", "run", "how", "duration_s", "sent", "fins", "counted", "counted_pct", "mfps", "napi_cpu_s", "napi_ns_per_frame", "sender_ns_per_frame", "veth_tx_dropped", "veth_rx_dropped",
			"attempt", "noise_pre_pct", "noise_post_pct", "noise_other_pct", "noise_steal_pct", "noisy" }
		NF >= 10 {
			pct = $5 > 0 ? sprintf("%.2f", 100 * $7 / $5) : "-"
			mfps = $4 > 0 ? sprintf("%.4f", $7 / $4 / 1e6) : "-"
			ns = $7 > 0 ? sprintf("%.0f", $8 * 1e9 / $7) : "-"
			split($11, v, " ")
			print $1, $2, $3, $4, $5, $6, $7, pct, mfps, $8, ns, $10, v[1] + 0, v[2] + 0, $12, $13, $14, $15, $16, $17
		}' "$WORKDIR/list"
}
ceilings_md() {
	awk -f "$LIB/stats.awk" -v time="$TIME" -v runs="$RUNS" -v machine="$MACHINE" -v notes="$WORKDIR/notes" -v noise="$NOISE_SAID" \
		-v size="$CEIL_SIZE" -v gso="$CEIL_GSO" -v dest="$ADDR" -v rows="$CEIL_ROWS" -v drop="$CEIL_DROP" -v dropname="${CEIL_DROP#"$ROOT"/}" -f "$LIB/reproduce-ceilings.awk" "$STAGE/reproduce.tsv"
}
