# scripts/lib/ladder.sh: reproduce cloudflare-2018, the drop ladder of "How to drop 10 million
# packets per second" (Marek Majkowski, Cloudflare blog, July 2018). Sourced by scripts/reproduce
# after its options (base.sh, tools.sh, result.sh, pair.sh and wire.sh before it), never run;
# ladder_table runs the experiment into OUT and exits.
#
# One flood and one receiving CPU, the flood dropped at each point of the stack in turn, a row
# each: the wire of lib/wire.sh (blast in one namespace, the veth's other end in another, its
# NAPI in a kernel thread pinned to CPU 0, blast on CPU 1), blast -s 32 -b 1 -g 64 (its
# smallest datagrams in GSO messages of 64, cut in software before the link, which the wire
# makes so: the receiver sees single datagrams) to port LADDER_PORT, and:
#   xdp               XDP_DROP on the receiving veth, native mode (bin/ladder xdp)
#   tc                cls_bpf direct-action TC_ACT_SHOT on its clsact ingress (bin/ladder tc)
#   nft-raw           nftables: drop in a prerouting chain at raw priority (before conntrack;
#                     conntrack on in the namespace, a ct rule at mangle priority)
#   nft-input-ct      nftables: drop in an input filter chain, conntrack on (every datagram
#                     makes a conntrack entry that the drop throws away)
#   nft-input-notrack the same, with "notrack" in a raw prerouting chain
#   nft-input         the same with no conntrack in the namespace (no rule asks for it)
#   sockfilter        a socket with the classic BPF filter "ret #0" (bin/ladder filter)
#   unread            a bound socket nobody reads: its buffer full, the rest dropped there
#   app-mmsg          suck -m mmsg -b 1024 on CPU 0 receives them all (and drops them)
#   app-buffer        suck -m buffer: the same, one recvfrom a datagram
# Each run counts the datagrams that reached its point (the BPF map, the nft counter, the
# socket's drops by SO_MEMINFO, suck's received) over blast's send window, and the NAPI thread's
# CPU time (/proc/PID/schedstat, before and after: ladder_cpu). Each run, its drop point's setup
# and teardown with it, lies between two calibrations of lib/noise.sh on CPUs 0 and 1 (never
# inside blast's window or the NAPI count), and a noisy run is measured again (ladder_rounds).
# Everything is made inside the receiving namespace, which the wire's cleanup deletes on every
# exit (SIGINT and SIGTERM too): its tables, qdiscs and programs go with it; each row also takes
# its own down before the next.
# Exit 4 (as --wire): not root, no nft or tc, no veth, fewer than two CPUs, native XDP refused.
#
# Pitfalls: blast sends one flow (one source address and port), the post's flood had random
# sources; an entry made for a datagram dropped at input is never confirmed, so with conntrack on
# each datagram makes a new one all the same (the conntrack chain's counter shows it). Without
# schedstat the CPU time is in clock ticks (10 ms at 100 Hz), coarse in short runs (-t 0.3).

LADDER_ROWS="xdp tc nft-raw nft-input-ct nft-input-notrack nft-input sockfilter unread app-mmsg app-buffer"
LADDER_PORT=4321
LADDER_PID= # the running drop point (bin/ladder) or suck
LADDER_TX=  # the running blast
LADDER_NS=  # what this run made in the namespace, for the row's own cleanup: nft, tc
LADDER_SIZE=32
LADDER_BATCH=1024 # suck's (app-mmsg)
# blast's GSO messages: the fastest way blast sends into one CPU here. Tried 2026-12-06 on this
# 2-CPU VM, 1 s each, into the XDP drop: -b 1 -g 64 1.93-1.96 Mpps, -b 8 -g 64 1.70-1.76,
# sendmmsg -b 1024 -g 1 0.24-0.28, -b 1 -g 1 0.22-0.23; -g 128 refused (the kernel's 64).
LADDER_GSO=64

ladder_skip() {
	echo "$PROG: $EXP $*: not supported here (exit 4)" >&2
	exit 4
}

# ladder_stop: the command's cleanup before the namespaces go (WIRE_NEXT): the drop point and
# blast ended (a namespace outlives `ip netns del` while a process is in it).
ladder_stop() {
	stop_child "$LADDER_TX"
	stop_child "$LADDER_PID"
	LADDER_TX='' LADDER_PID=''
	stop_children
}

# ladder_napi: the pids of the receiving device's NAPI threads ("napi/DEV-ID", the name cut at
# 15 characters: "napi/DEV", lib/wire.sh), and ladder_cpu PIDS: their CPU time in ns, from
# /proc/PID/schedstat (its first field, as suck --rx-dev reads it), or utime + stime of
# /proc/PID/stat in clock ticks where there is no schedstat.
ladder_napi() { napi_pids "$RX_DEV"; }
ladder_cpu() {
	lt_t=0
	for lt_p in $1; do
		lt_s=$(awk '{ print $1; exit }' "/proc/$lt_p/schedstat" 2>/dev/null) ||
			lt_s=$(awk -v hz="$LADDER_HZ" '{ sub(/^.*\) /, ""); printf "%.0f", ($12 + $13) * 1e9 / hz }' "/proc/$lt_p/stat" 2>/dev/null) || lt_s=0
		lt_t=$((lt_t + ${lt_s:-0}))
	done
	echo "$lt_t"
}

# ladder_nft ROW: the row's nftables table (ip bs_ladder) in the receiving namespace.
ladder_nft() {
	ln_ct='chain conntrack { type filter hook prerouting priority mangle; ct state new counter; }'
	ln_drop="udp dport $LADDER_PORT counter drop;"
	case $1 in
	nft-raw) ln_body="$ln_ct
chain rung { type filter hook prerouting priority raw; $ln_drop }" ;;
	nft-input-ct) ln_body="$ln_ct
chain rung { type filter hook input priority filter; $ln_drop }" ;;
	nft-input-notrack) ln_body="$ln_ct
chain untrack { type filter hook prerouting priority raw; udp dport $LADDER_PORT notrack; }
chain rung { type filter hook input priority filter; $ln_drop }" ;;
	nft-input) ln_body="chain rung { type filter hook input priority filter; $ln_drop }" ;;
	esac
	LADDER_NS=nft
	printf 'table ip bs_ladder {\n%s\n}\n' "$ln_body" | $SUCK_CMD nft -f - 2>"$WORKDIR/nft.err" || {
		note "$1: skipped, nft refused its table (a kernel without nf_tables' conntrack or notrack?): $(head -n 1 "$WORKDIR/nft.err")"
		return 4
	}
}
# ladder_undo: the row's own table or qdisc removed (the namespace's deletion would too).
ladder_undo() {
	case $LADDER_NS in
	nft) $SUCK_CMD nft delete table ip bs_ladder 2>/dev/null || true ;;
	tc) $SUCK_CMD tc qdisc del dev "$RX_DEV" clsact 2>/dev/null || true ;;
	esac
	LADDER_NS=
}

# ladder_hold ROW RUN KIND WHERE: bin/ladder KIND WHERE holds its drop point (LADDER_PID), its
# output into WORKDIR/ROW-RUN.ladder, its diagnostics raw/ROW-RUN.suck.err; once it says ready,
# status 0; else a note and 4 (this kernel lacks the point: the row is skipped) or 1 (failed).
# ladder_release OUT: the point ended (SIGTERM) and reaped, LADDER_N its count ("dropped N" of OUT).
ladder_hold() {
	lh_err=$STAGE/raw/$1-$2.suck.err lh_out=$WORKDIR/$1-$2.ladder
	: >"$lh_out"
	# shellcheck disable=SC2086 # SUCK_CMD: words
	$SUCK_CMD "$LADDER_BIN" "$3" "$4" "$LADDER_PORT" "$LIMIT" >"$lh_out" 2>"$lh_err" &
	LADDER_PID=$!
	await_line "$LADDER_PID" "$lh_out" '^ready$' 10 && return 0
	wait "$LADDER_PID" 2>/dev/null; lh_st=$?
	LADDER_PID=
	if [ "$lh_st" = 4 ]; then
		note "$1: skipped, not supported here: $(head -n 1 "$lh_err")"
		return 4
	fi
	note "$1 run $2: bin/ladder $3 did not start (exit $lh_st): $(head -n 1 "$lh_err")"
	return 1
}
ladder_release() {
	kill -TERM "$LADDER_PID" 2>/dev/null || true
	wait "$LADDER_PID" 2>/dev/null || true
	LADDER_PID=
	LADDER_N=$(sed -n 's/^dropped //p' "$1")
}

# ladder_row ROW RUN: one run of ROW; its line (ladder_rounds) into WORKDIR/run, or a note and
# status 1 (failed) or 4 (this kernel lacks the row's drop point: the row is skipped, the others
# run).
ladder_row() {
	lr_f=$STAGE/raw/$1-$2
	lr_out=$WORKDIR/$1-$2.ladder # ladder_hold's
	lr_how=
	case $1 in
	xdp | tc | sockfilter | unread)
		case $1 in
		xdp) set -- "$1" "$2" xdp "$RX_DEV" ;;
		tc) $SUCK_CMD tc qdisc add dev "$RX_DEV" clsact 2>/dev/null || { note "tc: skipped, no clsact qdisc on $RX_DEV (a kernel without sch_clsact?)"; return 4; }
			LADDER_NS=tc
			set -- "$1" "$2" tc "$RX_DEV" ;;
		sockfilter) set -- "$1" "$2" filter "$ADDR" ;;
		unread) set -- "$1" "$2" unread "$ADDR" ;;
		esac
		ladder_hold "$@" || { lr_st=$?; ladder_undo; return "$lr_st"; } ;;
	nft-*) ladder_nft "$1" || { ladder_undo; return 4; } ;;
	app-*)
		lr_b=
		[ "$1" != app-mmsg ] || lr_b="-b $LADDER_BATCH"
		# shellcheck disable=SC2086 # SUCK_CMD, SUCK_PIN, lr_b: words
		$SUCK_CMD "$SUCK_BIN" -m "${1#app-}" $lr_b -s "$LADDER_SIZE" -a "$ADDR" -p "$LADDER_PORT" -o tsv \
			--idle "$IDLE" -t "$LIMIT" $SUCK_PIN >"$lr_f.suck.tsv" 2>"$lr_f.suck.err" &
		LADDER_PID=$!
		await_line "$LADDER_PID" "$lr_f.suck.err" 'listening on .*:[0-9][0-9]*$' 10 || {
			wait "$LADDER_PID" 2>/dev/null || true
			LADDER_PID=
			note "$1 run $2: suck did not start: $(head -n 1 "$lr_f.suck.err")"
			return 1
		} ;;
	esac
	lr_napi=$(ladder_napi)
	lr_t0=$(ladder_cpu "$lr_napi")
	# bounded twice: -t TIME and a count no flood on this machine reaches in it
	# shellcheck disable=SC2086 # BLAST_CMD, BLAST_PIN: words
	$BLAST_CMD "$BLAST_BIN" -a "$ADDR" -p "$LADDER_PORT" -s "$LADDER_SIZE" -b 1 -g "$LADDER_GSO" -t "$TIME" \
		-n "$LADDER_CAP" --fin-time 0.1 -o tsv $BLAST_PIN >"$lr_f.blast.tsv" 2>"$lr_f.blast.err" &
	LADDER_TX=$!
	lr_bst=0
	wait "$LADDER_TX" || lr_bst=$?
	LADDER_TX=
	lr_t1=$(ladder_cpu "$lr_napi")
	lr_n=
	case $1 in
	nft-*)
		lr_n=$($SUCK_CMD nft list chain ip bs_ladder rung 2>/dev/null | sed -n 's/.* counter packets \([0-9]*\) .*/\1/p' | head -n 1)
		lr_how="nft counter in the rung chain"
		if [ "$1" != nft-input ]; then
			lr_ct=$($SUCK_CMD nft list chain ip bs_ladder conntrack 2>/dev/null | sed -n 's/.* counter packets \([0-9]*\) .*/\1/p' | head -n 1)
			lr_how="$lr_how; conntrack saw ${lr_ct:-?} new"
		fi ;;
	app-*)
		wait "$LADDER_PID" || note "$1 run $2: suck ended with a failure (see raw/$1-$2.suck.err)"
		LADDER_PID=
		lr_n=$(tsv_field "$lr_f.suck.tsv" received)
		lr_how="suck's received" ;;
	*)
		ladder_release "$lr_out"
		lr_n=$LADDER_N
		case $1 in
		xdp | tc) lr_how="BPF map of the program" ;;
		*) lr_how="the socket's drops (SO_MEMINFO); queued $(sed -n 's/^queued //p' "$lr_out") bytes" ;;
		esac ;;
	esac
	ladder_undo
	lr_s=$(tsv_field "$lr_f.blast.tsv" sent) lr_d=$(tsv_field "$lr_f.blast.tsv" duration_s)
	if [ "$lr_bst" -ne 0 ] || [ -z "$lr_s" ] || [ -z "$lr_n" ] || [ -z "$lr_d" ]; then
		note "$1 run $2: FAILED: blast exit $lr_bst, sent ${lr_s:-?}, counted ${lr_n:-?} (see raw/$1-$2.*.err): the run is left out"
		return 1
	fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$lr_how" "$lr_d" "$lr_s" "$lr_n" \
		"$(awk -v a="$lr_t0" -v b="$lr_t1" 'BEGIN { printf "%.6f", (b - a) / 1e9 }')" \
		"$(echo "$lr_napi" | wc -w)" >"$WORKDIR/run"
}

ladder_table() {
	tool_bins
	PUB=$ROOT/results/published/cloudflare-2018.tsv
	[ -f "$PUB" ] || die "no $PUB: the published table is part of the tree"
	result_check
	command -v nft >/dev/null 2>&1 || ladder_skip "needs nftables' nft, which is not installed (apt-get install nftables)"
	command -v tc >/dev/null 2>&1 || ladder_skip "needs iproute2's tc, which is not installed"
	ladder_wire
	echo "$PROG: $EXP: $(echo $LADDER_ROWS | wc -w) rows, $RUNS run(s) of $TIME s each, in rounds; NAPI thread and suck on CPU ${SUCK_PIN#--cpu }, blast ${BLAST_PIN:-unpinned}; writing $OUT" >&2
	ladder_rounds ladder_row $LADDER_ROWS
	ladder_finish ladder_env ladder_tsv ladder_md
}

# ---- What every ladder on the wire shares (cloudflare-2018, lib/ceilings.sh's ceilings), after
# tool_bins and result_check: ladder_wire builds the wire and the staging; ladder_rounds runs the
# rows in rounds; ladder_finish writes, plots, installs and exits; ladder_env_head is env.txt's top.

# ladder_xdp_try: bin/ladder's XDP drop put on RX_DEV in native mode and taken off at once (a
# hold of 0 s); status 0, else 1 with bin/ladder's exit in LADDER_ST (4: refused here) and its
# message in LADDER_ERR.
ladder_xdp_try() {
	LADDER_ST=0
	# shellcheck disable=SC2086 # SUCK_CMD: words
	LADDER_ERR=$($SUCK_CMD "$LADDER_BIN" xdp "$RX_DEV" "$LADDER_PORT" 0 2>&1 >/dev/null) || LADDER_ST=$?
	[ "$LADDER_ST" = 0 ]
}

# ladder_wire: the wire (WIRE_NEXT ladder_stop: the drop point and the sender ended first), the
# NAPI thread pinned to CPU 0 and the sender's pin (exit 4 below two CPUs), native XDP tried on the
# receiving veth (exit 4 refused: nothing is measured), RUNS, TIME, LIMIT, LADDER_CAP, the result
# staged, WORKDIR/list empty and the noise's calibration sized on CPUs 0 and 1 (lib/noise.sh
# noise_setup: the receiving NAPI thread's CPU time is the run's own, NOISE_OWN).
ladder_wire() {
	LADDER_BIN=${LADDER_BIN:-$(dirname "$SUCK_BIN")/ladder}
	[ -x "$LADDER_BIN" ] || die "no $LADDER_BIN: run make first (it holds the drop points)"
	wire_up
	# shellcheck disable=SC2034 # wire.sh's: run before the namespaces go
	WIRE_NEXT=ladder_stop # the drop point and blast ended first
	host_pins
	[ -n "$SUCK_PIN" ] || ladder_skip "needs two CPUs (one receives, one sends), and this host has $(host_value cpu_count)"
	wire_pin
	ladder_xdp_try || {
		[ "$LADDER_ST" = 4 ] && ladder_skip "needs native XDP on the veth: $LADDER_ERR"
		die "bin/ladder xdp failed: $LADDER_ERR"
	}
	LADDER_HZ=$(getconf CLK_TCK 2>/dev/null || echo 100)
	RUNS=${RUNS:-3}
	TIME=${TIME:-2}
	LIMIT=$(awk -v t="$TIME" 'BEGIN { printf "%d", t + 30 }')
	LADDER_CAP=$(awk -v t="$TIME" 'BEGIN { printf "%d", (t + 1) * 50000000 }')
	# shellcheck disable=SC2034 # result.sh's
	LATEST=1
	result_stage reproduce-
	: >"$WORKDIR/list"
	# shellcheck disable=SC2034 # lib/noise.sh's
	NOISE_OWN=ladder_napi
	noise_setup
}

# ladder_rounds FUNCTION ROW...: RUNS rounds, each FUNCTION ROW RUN for every ROW in turn (0 done,
# 4 the row skipped from then on, else failed: tried once more, as the suite's trials are, and
# FAILED counts what fails twice); START, the rounds' start. Each try between the calibrations of
# lib/noise.sh (noise_run: a noisy run measured again, at most --retry times and a quarter of the
# runs in all, the earlier try's raw/ROW-RUN.* renamed ROW-RUN.tryN.*). FUNCTION writes the run's
# line to WORKDIR/run; the last try's goes into WORKDIR/list with its noise: attempt, pre, post,
# other, steal, noisy.
ladder_rounds() {
	lo_fn=$1
	shift
	START=$(date +%s)
	TOTAL=$(($# * RUNS))
	noise_cap "$TOTAL"
	DONE=0 FAILED=0 SKIPPED=" "
	i=1
	while [ $i -le "$RUNS" ]; do
		for row in "$@"; do
			case $SKIPPED in *" $row "*) continue ;; esac
			echo "$PROG: [$((DONE + 1))/$TOTAL] $EXP $row, run $i of $RUNS, $(fmt_secs $(($(date +%s) - START))) elapsed" >&2
			st=0
			noise_run run "$row-$i" "$lo_fn" "$row" "$i" || st=$?
			if [ "$st" != 0 ] && [ "$st" != 4 ]; then
				echo "$PROG: $EXP $row, run $i failed; trying it once more" >&2
				st=0
				noise_run run "$row-$i" "$lo_fn" "$row" "$i" || st=$?
				[ "$st" != 0 ] || note "$row run $i: failed once (above), done when tried again"
			fi
			if [ "$st" = 0 ]; then
				IFS= read -r lo_line <"$WORKDIR/run"
				printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$lo_line" "$NOISE_ATTEMPT" "$NOISE_PRE" "$NOISE_POST" \
					"$NOISE_OTHER" "$NOISE_STEAL" "$NOISY" >>"$WORKDIR/list"
			fi
			DONE=$((DONE + 1))
			case $st in
			0) ;;
			4) TOTAL=$((TOTAL - (RUNS - i))); SKIPPED="$SKIPPED$row " ;;
			*) FAILED=$((FAILED + 1)) ;;
			esac
		done
		i=$((i + 1))
	done
	[ -s "$WORKDIR/list" ] || nothing_kept "$FAILED" "no run succeeded: nothing to keep"
}

# ladder_finish ENV TSV MD: env.txt, reproduce.tsv and reproduce.md from those functions' output
# (NOISE_SAID, the noise's sentence, for them), the plot, the result installed; exits 0, or 1
# when a run failed.
ladder_finish() {
	NOISE_SAID=$(noise_sentence runs)
	echo "$PROG: noise (reproduce.tsv's noise_* columns): $NOISE_SAID" >&2
	write_atomic "$STAGE/env.txt" "$1"
	MACHINE=$(describe_machine "$STAGE")
	write_atomic "$STAGE/reproduce.tsv" "$2"
	write_atomic "$STAGE/reproduce.md" "$3"
	sh "$SCRIPTS/plot" "$STAGE" &
	CHILD_PID=$!
	wait "$CHILD_PID" || echo "$PROG: plotting failed; the tables are complete" >&2
	CHILD_PID=
	result_install
	echo
	cat "$OUT/reproduce.md"
	echo "$PROG: $EXP done in $(fmt_secs $(($(date +%s) - START))); results in $OUT" >&2
	[ "$FAILED" -eq 0 ] || { echo "$PROG: $FAILED run(s) failed; see the notes in reproduce.md" >&2; exit 1; }
	exit 0
}

# ladder_env_head SIZE: env.txt's first lines, the same in every ladder.
ladder_env_head() {
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "reproduce: $INVOCATION"
	echo "experiment: $EXP"
	echo "published: ${PUB#"$ROOT"/}"
	echo "time_s: $TIME"
	echo "runs: $RUNS"
	echo "size_bytes: $1"
	echo "work: none"
	echo "noise_limit_pct: $NOISE_LIMIT"
	echo "noise_cpus: $NOISE_CPUS"
	echo "retry: $NOISE_RETRY"
	echo "noise: $NOISE_SAID"
}

ladder_env() {
	ladder_env_head "$LADDER_SIZE"
	echo "rows: $LADDER_ROWS"
	echo "sender: blast -s $LADDER_SIZE -b 1 -g $LADDER_GSO -t $TIME -n $LADDER_CAP --fin-time 0.1 ${BLAST_PIN:-} to $ADDR:$LADDER_PORT"
	echo "receiver: the NAPI thread of $RX_DEV on CPU ${SUCK_PIN#--cpu }; app-mmsg: suck -m mmsg -b $LADDER_BATCH -s $LADDER_SIZE $SUCK_PIN; app-buffer: suck -m buffer -s $LADDER_SIZE $SUCK_PIN"
	echo "drop_points: bin/ladder (xdp, tc, filter, unread), nft table ip bs_ladder (nft-*), in the receiving namespace"
	echo "clock_ticks_per_s: $LADDER_HZ"
	echo "addr: $ADDR"
	wire_env
	env_tools
}
ladder_tsv() {
	awk -f "$LIB/ladder-tsv.awk" -v pub="$PUB" "$WORKDIR/list"
}
ladder_md() {
	awk -v time="$TIME" -v runs="$RUNS" -v machine="$MACHINE" -v notes="$WORKDIR/notes" -v noise="$NOISE_SAID" \
		-v size="$LADDER_SIZE" -v batch="$LADDER_BATCH" -v gso="$LADDER_GSO" -v dest="$ADDR" -f "$LIB/reproduce-ladder.awk" "$STAGE/reproduce.tsv"
}
