# scripts/lib/noise.sh: how noisy the machine was around one measurement of scripts/perf.
# Sourced after base.sh, never run.
#
# Three figures per measurement, on the CPUs it uses (NOISE_CPUS):
#   calibration  `bare calib`: the same memcpy loop on each of those CPUs at once, about 20 ms,
#                just before the measurement and just after it. Its wall time against the run's
#                best (the fastest of every calibration so far, per CPU, the first few taken
#                before the first measurement) says how much of the CPU a process of ours got
#                then: a process beside it, or a hypervisor's steal, makes it slower. NOISE_PRE
#                and NOISE_POST, in % above the best, the slowest CPU's.
#   other        the CPU time of those CPUs that the measurement's own processes did not use:
#                /proc/stat's busy time of those CPUs over the measurement (user, nice, system,
#                irq, softirq), less what the processes reaped in it used (the shell's `times`:
#                the kernel's utime and stime of every child waited for, grandchildren under
#                timeout(1) too; and the kernel threads NOISE_OWN names, the wire's NAPI
#                threads), in % of those CPUs' time then. NOISE_OTHER.
#   steal        /proc/stat's steal time of those CPUs over the measurement, in %. NOISE_STEAL.
# A measurement is noisy (NOISY=1) when a calibration is more than NOISE_LIMIT % slower than
# the best, or other is above 2 x NOISE_LIMIT % of the CPUs' time (a quiet machine has a few
# %: its daemons, ticks counted on one side and not the other), or steal above NOISE_LIMIT %.
#
# Pitfalls: /proc/stat and `times` count in clock ticks (10 ms), so over a short measurement the
# other figure is good to a few %; a child the shell reaps during the measurement that was not
# part of it (nothing in perf: its tools are all waited for in the measurement) would count as
# the measurement's own. softirq time is busy time: on a kernel without IRQ_TIME_ACCOUNTING the
# softirq work done in a task's context (loopback's receive path, in the sender) is in that
# task's time too; what ksoftirqd takes over from them counts as other. The best is the run's
# so far: a measurement judged clean against it stays so when a later calibration is faster
# (the table says what was decided, then).

NOISE_LIMIT=10 # %
NOISE_MS=20    # the calibration's length, sized once per run
NOISE_ON=0     # 1 once noise_init has sized the calibration

# noise_init CPUS DIR: the calibration sized on the CPUs CPUS ("0 1") to NOISE_MS at their
# best (the most loops of two tries, on any of them), its log in DIR/calib, and the run's first
# best (three calibrations). NOISE_ON 0, and a note, when `bare calib` cannot run there: then
# only other and steal can find a measurement noisy.
noise_init() {
	NOISE_CPUS=$1
	NOISE_DIR=$2
	NOISE_LIST=$(printf '%s\n' "$1" | tr ' ' ',')
	NOISE_HZ=$(getconf CLK_TCK 2>/dev/null || echo 100)
	: >"$NOISE_DIR/calib"
	: >"$NOISE_DIR/size"
	NOISE_ON=0
	for _ in 1 2; do
		if ! "$BARE" calib -t "$(awk -v m="$NOISE_MS" 'BEGIN { printf "%.3f", m / 1000 }')" --cpus "$NOISE_LIST" >>"$NOISE_DIR/size" 2>"$NOISE_DIR/size.err"; then
			note "noise: bare calib failed ($(head -n 1 "$NOISE_DIR/size.err")): no calibration"
			return 0
		fi
	done
	NOISE_LOOPS=$(awk -F'\t' '$2 ~ /^[0-9]+$/ && $2 + 0 > n { n = $2 + 0 } END { print n + 0 }' "$NOISE_DIR/size")
	[ "$NOISE_LOOPS" -gt 0 ] || { note "noise: bare calib did no work: no calibration"; return 0; }
	NOISE_ON=1
	for _ in 1 2 3; do noise_calib base; done
}

# noise_calib KIND: one calibration, logged as KIND; NOISE_SLOW its slowest CPU in % above
# that CPU's best so far (this one included), "-" when it failed.
noise_calib() {
	NOISE_SLOW=-
	[ "$NOISE_ON" = 1 ] || return 0
	if [ -n "${NOISE_BOUNDED:-}" ]; then
		# noise_setup's: as many loops as fit in NOISE_BOUNDED s, logged as the wall time
		# NOISE_LOOPS would have taken at that pace: on a loaded machine a calibration takes
		# no longer (nor the CPUs from the others for longer)
		"$BARE" calib -t "$NOISE_BOUNDED" --cpus "$NOISE_LIST" >"$NOISE_DIR/one.t" 2>/dev/null || return 0
		awk -F'\t' -v OFS='\t' -v n="$NOISE_LOOPS" 'NR == 1 { print; next }
			{ $3 = sprintf("%.0f", $3 * n / ($2 > 0 ? $2 : 1)); $2 = n; print }' "$NOISE_DIR/one.t" >"$NOISE_DIR/one"
	else
		"$BARE" calib -n "$NOISE_LOOPS" --cpus "$NOISE_LIST" >"$NOISE_DIR/one" 2>/dev/null || return 0
	fi
	awk -F'\t' -v k="$1" 'NR > 1 { print k "\t" $1 "\t" $3 }' "$NOISE_DIR/one" >>"$NOISE_DIR/calib"
	NOISE_SLOW=$(awk -F'\t' 'FNR == NR { if (!($2 in b) || $3 + 0 < b[$2]) b[$2] = $3 + 0; next }
		FNR > 1 { s = 100 * ($3 / b[$1] - 1); if (m == "" || s > m) m = s }
		END { printf "%.1f\n", m }' "$NOISE_DIR/calib" "$NOISE_DIR/one")
}

# noise_kids FILE: the shell's `times` into FILE: its second line is the user and system time
# of every child it has waited for (theirs and their children's that they waited for). Never
# in a $(...): a subshell's `times` counts the subshell's children, not the shell's.
noise_kids() { times >"$1"; }
# noise_kids_ns A B: the CPU in ns of the children waited for between the `times` A and B.
noise_kids_ns() {
	awk 'FNR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, p, "m"); sub(/s$/, "", p[2]); t += p[1] * 60 + p[2] }
		s[++n] = t } END { printf "%.0f\n", (s[2] - s[1]) * 1e9 }' "$1" "$2"
}

# NOISE_OWN: empty, or a command of the caller's that prints the pids of kernel threads doing
# the measurement's own work (with --wire wire.sh's wire_napi, the receiving NAPI threads);
# their CPU time counts as the measurement's processes' (children, below), not as others'.
NOISE_OWN=

# noise_snap FILE: the CPUs' busy (user, nice, system, irq and softirq: on a kernel without
# IRQ_TIME_ACCOUNTING a task's time holds the softirq work done in its context), steal and
# all ticks from /proc/stat, and the shell's children's ticks from `times` (with NOISE_OWN's
# threads' CPU time: /proc/PID/schedstat, else utime + stime of /proc/PID/stat), as "busy
# steal total children". A thread that ends within the measurement takes its time with it.
noise_snap() {
	: >"$NOISE_DIR/own"
	[ -z "$NOISE_OWN" ] || "$NOISE_OWN" >"$NOISE_DIR/own"
	noise_kids "$NOISE_DIR/times"
	awk -v cpus=" $NOISE_CPUS " -v hz="$NOISE_HZ" -v ownf="$NOISE_DIR/own" '
		FNR == NR && $1 ~ /^cpu[0-9]/ && index(cpus, " " substr($1, 4) " ") {
			busy += $2 + $3 + $4 + $7 + $8
			steal += $9
			for (i = 2; i <= 9; i++) tot += $i
			next
		}
		FNR == NR { next }
		FNR == 2 { for (i = 1; i <= 2; i++) { split($i, p, "m"); sub(/s$/, "", p[2]); ch += p[1] * 60 + p[2] } }
		END {
			ch *= hz
			while ((getline l < ownf) > 0)
				for (n = split(l, q, " "); n > 0; n--) {
					f = "/proc/" q[n] "/schedstat"
					if ((getline t < f) > 0) { split(t, v, " "); ch += v[1] * hz / 1e9 }
					else {
						close(f)
						f = "/proc/" q[n] "/stat"
						if ((getline t < f) > 0) { sub(/^.*\) /, "", t); split(t, v, " "); ch += v[12] + v[13] }
					}
					close(f)
				}
			printf "%d %d %d %.0f\n", busy, steal, tot, ch
		}' /proc/stat "$NOISE_DIR/times" >"$1"
}

# noise_begin: the calibration before a measurement, and the counters at its start.
noise_begin() {
	noise_calib pre
	NOISE_PRE=$NOISE_SLOW
	noise_snap "$NOISE_DIR/snap0"
}

# noise_end: the counters at the end, the calibration after; NOISE_OTHER, NOISE_STEAL, NOISY.
noise_end() {
	noise_snap "$NOISE_DIR/snap1"
	noise_calib post
	NOISE_POST=$NOISE_SLOW
	# shellcheck disable=SC2046 # two words
	set -- $(awk 'NR == 1 { b = $1; s = $2; t = $3; c = $4 }
		NR == 2 { t = $3 - t; if (t <= 0) { print "- -"; exit }
			printf "%.1f %.1f\n", 100 * ($1 - b - ($4 - c)) / t, 100 * ($2 - s) / t }' \
		"$NOISE_DIR/snap0" "$NOISE_DIR/snap1")
	NOISE_OTHER=${1:--} NOISE_STEAL=${2:--}
	# shellcheck disable=SC2034 # for the caller
	NOISY=$(awk -v l="$NOISE_LIMIT" -v a="$NOISE_PRE" -v b="$NOISE_POST" -v o="$NOISE_OTHER" -v s="$NOISE_STEAL" \
		'BEGIN { n = 0; if (a != "-" && a > l) n = 1; if (b != "-" && b > l) n = 1
			if (o != "-" && o > 2 * l) n = 1; if (s != "-" && s > l) n = 1; print n }')
}

# ---- The runs of suite, ndr, sweep and reproduce (perf has its own loop: measure()).
# Each run (a trial of ndr and sweep) is a pair of lib/pair.sh between noise_begin and noise_end
# (noise_run); its noise goes beside its reports, as NAME.noise.tsv in raw/, and into
# WORKDIR/noise for noise_sentence. A noisy run is run again while it has retries left
# (NOISE_RETRY each, the command's --retry) and the command has too (NOISE_CAP in all): its
# files are renamed NAME.tryA.* (A its attempt), kept in raw/ but in no table, and the next
# attempt takes NAME. The run that counts is the last attempt, noisy or not, its attempt in
# its row. A run that failed or was skipped is not run again here.
NOISE_RETRY=1   # retries of a noisy run (--retry)
NOISE_CAP=0     # retries in all (noise_cap)
NOISE_RETRIED=0 # retries made so far

# noise_setup: after host_pins and result_stage: noise_init on the CPUs the pairs use (suck's and
# blast's pins; every CPU when they are not pinned), its files in WORKDIR. Without bin/bare,
# no calibration (a note): other and steal still judge a run.
noise_setup() {
	ns_cpus=
	if [ -n "${SUCK_PIN:-}" ] && [ -n "${BLAST_PIN:-}" ]; then
		ns_cpus="${SUCK_PIN#--cpu }"
		[ "${BLAST_PIN#--cpu }" = "$ns_cpus" ] || ns_cpus="$ns_cpus ${BLAST_PIN#--cpu }"
	else
		ns_cpus=$(awk '/^cpu[0-9]/ { printf "%s%s", s, substr($1, 4); s = " " } END { print "" }' /proc/stat)
	fi
	: >"$WORKDIR/noise"
	# on the wire the receiving NAPI threads work for the run
	[ -n "$NOISE_OWN" ] || [ "${WIRE:-0}" != 1 ] || NOISE_OWN=wire_napi
	BARE=${BARE:-$BIN/bare}
	if [ -x "$BARE" ]; then
		NOISE_BOUNDED=$(awk -v m="$NOISE_MS" 'BEGIN { printf "%.3f", m / 1000 }') # noise_calib
		noise_init "$ns_cpus" "$WORKDIR"
	else
		NOISE_CPUS=$ns_cpus NOISE_DIR=$WORKDIR NOISE_ON=0
		NOISE_HZ=$(getconf CLK_TCK 2>/dev/null || echo 100)
		note "noise: no $BARE (make bin/bare): no calibration; other processes' CPU and steal still judge each run"
	fi
}
# noise_cap RUNS: NOISE_CAP, the retries a command of RUNS runs may make: a quarter of them,
# at least 1 (0 with --retry 0), so that noise costs at most a quarter more time.
noise_cap() { NOISE_CAP=$((NOISE_RETRY > 0 ? ($1 + 3) / 4 : 0)); }

# noise_run KIND NAME CMD...: CMD (a pair whose reports are NAME.* in PAIR_KEEP) between
# noise_begin and noise_end, again while noisy as the top of this part says; KIND "run" is
# counted and may be retried, "once" counted and never retried (reports not named NAME.*: suite
# --bidir's), anything else (a warm-up) only measured. NOISE_ATTEMPT the
# attempt that counts. Status CMD's.
noise_run() {
	nr_kind=$1 nr_name=$2
	shift 2
	NOISE_ATTEMPT=1
	while :; do
		# The last run's calibration after it stands for this one's before when it ended less
		# than a second ago (the progress line between them): one calibration a run, not two.
		# Not for a retry: that calibration may be what found the last try noisy.
		read -r nr_t _ </proc/uptime
		nr_t=${nr_t%.*}${nr_t#*.} # centiseconds
		if [ "$NOISE_ON" = 1 ] && [ "$NOISE_ATTEMPT" = 1 ] && [ -n "${NOISE_LAST:-}" ] && [ $((nr_t - NOISE_LAST)) -le 100 ]; then
			NOISE_PRE=$NOISE_POST
			noise_snap "$NOISE_DIR/snap0"
		else
			noise_begin
		fi
		nr_st=0
		"$@" || nr_st=$?
		noise_end
		read -r NOISE_LAST _ </proc/uptime
		NOISE_LAST=${NOISE_LAST%.*}${NOISE_LAST#*.}
		nr_keep=${PAIR_KEEP:-$PAIR_DIR}
		printf 'attempt\tnoise_pre_pct\tnoise_post_pct\tnoise_other_pct\tnoise_steal_pct\tnoisy\n%s\t%s\t%s\t%s\t%s\t%s\n' \
			"$NOISE_ATTEMPT" "$NOISE_PRE" "$NOISE_POST" "$NOISE_OTHER" "$NOISE_STEAL" "$NOISY" >"$nr_keep/$nr_name.noise.tsv"
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$nr_kind" "$nr_name" "$NOISE_ATTEMPT" "$NOISY" \
			"$NOISE_PRE" "$NOISE_POST" "$NOISE_OTHER" "$NOISE_STEAL" "$nr_st" >>"$WORKDIR/noise"
		[ "$nr_st" = 0 ] && [ "$NOISY" = 1 ] && [ "$nr_kind" = run ] || return "$nr_st"
		[ "$NOISE_ATTEMPT" -le "$NOISE_RETRY" ] && [ "$NOISE_RETRIED" -lt "$NOISE_CAP" ] || return 0
		set +f # the scripts run with globbing off (base.sh)
		for nr_f in "$nr_keep/$nr_name".*; do
			case ${nr_f#"$nr_keep/$nr_name."} in try[0-9]*) continue ;; esac
			[ ! -e "$nr_f" ] || mv -f "$nr_f" "$nr_keep/$nr_name.try$NOISE_ATTEMPT.${nr_f#"$nr_keep/$nr_name."}"
		done
		set -f
		NOISE_RETRIED=$((NOISE_RETRIED + 1))
		NOISE_ATTEMPT=$((NOISE_ATTEMPT + 1))
		echo "$PROG: $nr_name was noisy (calibration $NOISE_PRE/$NOISE_POST % slow, other processes $NOISE_OTHER %, steal $NOISE_STEAL %): measuring it again (retry $NOISE_RETRIED of at most $NOISE_CAP)" >&2
	done
}

# noise_sentence WHAT: one sentence on the noise of the runs counted (WHAT: "runs", "trials"):
# how many were noisy at their first attempt, how noisy, what was done, how many remain.
noise_sentence() {
	awk -F'\t' -v what="$1" -v lim="$NOISE_LIMIT" -v calib="$NOISE_ON" -v retry="$NOISE_RETRY" -v cap="$NOISE_CAP" \
		-v none="${NOISE_NOT_AGAIN:-none was measured again (--retry 0)}" '
		function big(x, m) { return (x != "-" && (m == "" || x + 0 > m + 0)) ? x : m }
		($1 != "run" && $1 != "once") || $9 != 0 { next }
		{
			if (!($2 in last)) n++
			last[$2] = $4
			if ($3 == 1 && $4 == 1) { first++; once += $1 == "once"; c = big($5, c); c = big($6, c); o = big($7, o); s = big($8, s) }
			if ($3 > 1) again++
		}
		END {
			for (k in last) left += last[k]
			lims = "limit " lim " %: calibration " lim " % slower than the best, other processes " 2 * lim " % of the CPUs, steal " lim " %"
			if (!calib) lims = lims "; no calibration"
			if (!first) { printf "0 of %d %s were noisy (%s).\n", n, what, lims; exit }
			w = ""
			if (c != "") w = "calibration up to " c " % slow"
			if (o != "") w = w (w != "" ? ", " : "") "other processes up to " o " % of the CPUs"
			if (s != "" && s + 0 > 0) w = w (w != "" ? ", " : "") "steal up to " s " %"
			if (!retry || once == first) d = none
			else if (again + 0 >= first) d = "each was measured again"
			else d = (again + 0) " measured again (at most " cap (cap == 1 ? " retry" : " retries") " per command)"
			printf "%d of %d %s were noisy (%s; %s); %s; %d remain noisy.\n", first, n, what, w, lims, d, left
		}' "$WORKDIR/noise"
}
