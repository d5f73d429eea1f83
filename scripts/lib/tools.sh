# scripts/lib/tools.sh: blast and suck as the commands see them. Sourced after base.sh, never
# run. Here: where the tools are (tool_bins), the variants suck offers, the words a command may
# pass on to a tool, every option checked by the tools themselves before the first run
# (check_blast, check_suck), run ids and run keys, the hosts each tool runs on and pinning (host_pins, with
# hostinfo.sh), and the lines of env.txt that name all of that (env_tools).

# tool_bins: the tools' commands and binaries. SUCK_CMD and BLAST_CMD prefix each tool's command
# ("ssh host-b", "ip netns exec ns-b"); SUCK_BIN and BLAST_BIN are the binaries there (BIN=bin).
tool_bins() {
	SUCK_CMD=${SUCK_CMD:-}
	BLAST_CMD=${BLAST_CMD:-}
	tb_bin_set=${BIN:+1}
	BIN=$(abspath "${BIN:-$ROOT/bin}")
	SUCK_BIN=${SUCK_BIN:-$BIN/suck}
	BLAST_BIN=${BLAST_BIN:-$BIN/blast}
	# Not built in this checkout but installed (make install): the tools on PATH, said in env.txt.
	if [ -z "$tb_bin_set" ] && [ -z "$SUCK_CMD$BLAST_CMD" ] && [ ! -x "$SUCK_BIN" ] && [ ! -x "$BLAST_BIN" ] &&
		command -v suck >/dev/null 2>&1 && command -v blast >/dev/null 2>&1; then
		SUCK_BIN=$(command -v suck)
		BLAST_BIN=$(command -v blast)
	fi
	if [ -z "$SUCK_CMD" ] && [ ! -x "$SUCK_BIN" ]; then die "no $SUCK_BIN: run make first"; fi
	if [ -z "$BLAST_CMD" ] && [ ! -x "$BLAST_BIN" ]; then die "no $BLAST_BIN: run make first"; fi
	return 0
}

# variants_offered: every variant suck offers, in its order, from `suck -m list` (a name, a tab
# and what it does, a line each); empty when suck cannot say.
variants_offered() {
	$SUCK_CMD "$SUCK_BIN" -m list 2>/dev/null | awk -F'\t' '
		NF >= 2 && $1 ~ /^[a-z][a-z0-9_]*$/ { printf "%s%s", sep, $1; sep = " " }
		END { if (sep) print "" }' || true
}

# variants_check "VARIANTS": each one suck offers (when its help can be read), so that a
# misspelt name is bad usage at once rather than a failure halfway through.
variants_check() {
	[ -n "$(printf '%s' "$1" | tr -d ' \t')" ] || usage_error "-m: no variant given"
	vc_known=$(variants_offered)
	for vc in $1; do
		case $vc in
		*[!a-z0-9_]*) usage_error "-m: '$vc' is not a variant name; accepted: ${vc_known:-see suck -m list}" ;;
		esac
		[ -z "$vc_known" ] || case " $vc_known " in
			*" $vc "*) ;;
			*) usage_error "-m: suck has no variant '$vc'; accepted: $vc_known" ;;
			esac
	done
	! vc=$(twice "$1") || usage_error "-m: '$vc' named twice; name each variant once"
}
# variants_pick: VARIANTS as -m gave them (MSET set: each one checked), else every variant suck
# offers (copy buffer mmsg when it cannot say); NVARIANTS, how many.
variants_pick() {
	if [ -n "${MSET:-}" ]; then variants_check "$VARIANTS"; else VARIANTS=$(variants_offered); fi
	[ -n "$VARIANTS" ] || VARIANTS="copy buffer mmsg"
	# shellcheck disable=SC2086,SC2034 # the names, one word each; NVARIANTS is the caller's
	NVARIANTS=$(set -- $VARIANTS && echo $#)
}

# words_check OPTION "WORDS" LETTERS LONGS: none of WORDS is an option the script gives the tool
# itself (short ones by their letter, LETTERS like "apo"; long ones by name or a prefix of it, as
# getopt_long takes them): -B "-p 5" would send elsewhere, -B "-o json" lose the report.
words_check() {
	for wc_w in $2; do
		case $wc_w in
		--?*)
			wc_n=${wc_w#--}
			wc_n=${wc_n%%=*}
			for wc_l in $4; do
				case $wc_l in "$wc_n"*) usage_error "$1 '$2': '$wc_w' is not accepted here: $PROG gives the tool that option itself (-h and -V would end it at once)" ;; esac
			done ;;
		-?*)
			wc_c=${wc_w#-}
			wc_c=${wc_c%"${wc_c#?}"}
			case $3 in *"$wc_c"*) usage_error "$1 '$2': '$wc_w' is not accepted here: $PROG gives the tool that option itself (-h and -V would end it at once)" ;; esac ;;
		esac
	done
}

# tool_msg: a tool's message (stdin) without its name and the "(try TOOL -h)" hint, on one line.
tool_msg() { sed -e 's/^[a-z]*: //' -e 's/ (try [a-z]* -h)$//' | tr '\n' ' ' | sed 's/ *$//'; }

# tool_check suck|blast WORDS...: the tool asked whether a run with WORDS would start (its
# --check: every option and the checks between them, the address resolved, one throwaway socket
# set up as a run's, suck's variant with it; nothing sent or received, suck on a free port).
# Its status is a run's: 0 it would start, 2 bad usage, 4 a feature this kernel lacks, 1 another
# failure (a socket). TRY_MSG: what it said, on one line, to pass on; never read for meaning.
# It is given a run key as a run is (run_key, on its standard input), so a tool that cannot
# take one is refused before the first run too.
tool_check() {
	tc_st=0
	# shellcheck disable=SC2086 # the prefix and the pinning are split into words on purpose
	case $1 in
	suck) shift; set -- $SUCK_CMD "$SUCK_BIN" --check -p 0 -o tsv --run-id 1 --key-file - ${SUCK_PIN:-} "$@" ;;
	blast) shift; set -- $BLAST_CMD "$BLAST_BIN" --check -o tsv --run-id 1 --key-file - ${BLAST_PIN:-} "$@" ;;
	esac
	run_key
	TRY_MSG=$(printf '%s\n' "$RUN_KEY" | "$@" 2>&1 >/dev/null) || tc_st=$?
	TRY_MSG=$(printf '%s\n' "$TRY_MSG" | tool_msg)
	return "$tc_st"
}
# tool_takes suck|blast WORDS...: tool_check passes, or says 4: a feature this kernel lacks is
# no bad usage, the runs that need it are skipped (pair.sh).
tool_takes() {
	tt_st=0
	tool_check "$@" || tt_st=$?
	[ "$tt_st" = 0 ] || [ "$tt_st" = 4 ]
}

# check_suck VARIANT OPTION VALUE WORDS...: suck takes what a run of VARIANT gives it (ADDR, WORK,
# and WORDS, from the script's OPTION VALUE). A refusal is bad usage naming the option whose words suck
# refused (asked again with fewer of them to find which). CS_ST: 0, or 4 when suck said this host
# cannot run VARIANT (TRY_MSG why), so that a caller can leave it out before the first run.
check_suck() {
	cs_v=$1 cs_o=$2 cs_val=$3
	shift 3
	CS_ST=0
	tool_check suck -a "$ADDR" -w "$WORK" -m "$cs_v" "$@" || CS_ST=$?
	case $CS_ST in 0 | 4) return 0 ;; esac
	cs_why=$TRY_MSG
	tool_takes suck || die "suck refuses what every run gives it: $TRY_MSG"
	tool_takes suck -a "$ADDR" || usage_error "-a '$ADDR': suck refuses it: $TRY_MSG"
	tool_takes suck -a "$ADDR" -w "$WORK" || usage_error "-w '$WORK': suck refuses it: $TRY_MSG"
	tool_takes suck -a "$ADDR" -w "$WORK" -m "$cs_v" || usage_error "-m '$cs_v': suck refuses it: $TRY_MSG"
	usage_error "$cs_o '$cs_val': suck refuses it with -m $cs_v: $cs_why"
}

# check_blast SIZE SIZE_OPTION OPTION VALUE WORDS...: blast takes what a run gives it (ADDR, TIME,
# SIZE, BLAST_ADDR_ARGS, BLAST_MORE, and WORDS, from the script's OPTION VALUE); a refusal is bad
# usage naming the option at fault (asked again with fewer of them to find which).
# BLAST_ADDR_ARGS: the words that go with ADDR (suite --group's --mc-if and --ttl; ADDR_OPT the
# option that gave ADDR, -a unless set); BLAST_MORE: the script's own words for blast besides
# (suite --rtt's), BLAST_MORE_OPT the option they come from. pair_trial gives both to every blast.
check_blast() {
	cb_s=$1 cb_so=$2 cb_o=$3 cb_val=$4
	shift 4
	# shellcheck disable=SC2086 # the words of the script's own options, split on purpose
	tool_takes blast -a "$ADDR" -t "$TIME" -s "$cb_s" ${BLAST_ADDR_ARGS:-} ${BLAST_MORE:-} "$@" && return 0
	cb_why=$TRY_MSG
	tool_takes blast || die "blast refuses what every run gives it: $TRY_MSG"
	tool_takes blast -t "$TIME" || usage_error "-t '$TIME': blast refuses it: $TRY_MSG"
	# shellcheck disable=SC2086
	tool_takes blast -t "$TIME" -a "$ADDR" ${BLAST_ADDR_ARGS:-} || usage_error "${ADDR_OPT:--a} '$ADDR': blast refuses it: $TRY_MSG"
	# shellcheck disable=SC2086
	tool_takes blast -t "$TIME" -a "$ADDR" -s "$cb_s" ${BLAST_ADDR_ARGS:-} || usage_error "$cb_so '$cb_s': blast refuses it: $TRY_MSG"
	# shellcheck disable=SC2086
	[ -z "${BLAST_MORE:-}" ] || tool_takes blast -t "$TIME" -a "$ADDR" -s "$cb_s" ${BLAST_ADDR_ARGS:-} $BLAST_MORE ||
		usage_error "$BLAST_MORE_OPT: blast refuses it: $TRY_MSG"
	usage_error "$cb_o '$cb_val': blast refuses it: $cb_why"
}

# variants_able WORDS...: VARIANTS parted by whether suck takes WORDS with them, for an
# option only some variants have (suite --rtt's --echo, --group's --join): VA_UNABLE, those
# suck refuses WORDS with (--check exit 2, -a ADDR and -w WORK given) although it takes the
# variant alone (exit 0, or 4: not offered here either way), VA_ABLE the others, in order;
# VA_WHY what suck said of the first unable one.
variants_able() {
	VA_ABLE='' VA_UNABLE='' VA_WHY=''
	for va in $VARIANTS; do
		va_st=0
		tool_check suck -a "$ADDR" -w "$WORK" -m "$va" "$@" || va_st=$?
		if [ "$va_st" = 2 ]; then
			va_msg=$TRY_MSG
			if tool_takes suck -m "$va"; then
				VA_UNABLE="$VA_UNABLE${VA_UNABLE:+ }$va"
				[ -n "$VA_WHY" ] || VA_WHY=$va_msg
				continue
			fi
		fi
		VA_ABLE="$VA_ABLE${VA_ABLE:+ }$va"
	done
}

# drops_able: for --drops, suck --drops in every run. suck's own check says whether it can
# attribute drops here (root, BTF, the tracepoint skb:kfree_skb): asked with the first variant
# this host runs without it, so that its exit 4 is --drops' and not the variant's; suck's
# message is passed on, exit 4. A variant that refuses it (xdp: no skb) is left out, said in
# DROPS_OUT (the note), or bad usage when -m names it. Sets VARIANTS, NVARIANTS, SUCK_ARGS.
drops_able() {
	DROPS_OUT=''
	# shellcheck disable=SC2086 # the words, split on purpose
	variants_able ${SUCK_ARGS:-} --drops
	if [ -n "$VA_UNABLE" ]; then
		[ -z "$MSET" ] || usage_error "-m '$VARIANTS': --drops is refused by suck with -m $VA_UNABLE: $VA_WHY"
		[ -n "$VA_ABLE" ] || usage_error "--drops: suck refuses it with every variant: $VA_WHY"
		DROPS_OUT="--drops: $VA_UNABLE left out: suck refuses --drops with them ($VA_WHY)"
		echo "$PROG: $DROPS_OUT" >&2
		VARIANTS=$VA_ABLE
	fi
	# shellcheck disable=SC2086,SC2034 # the names, one word each; the caller's
	NVARIANTS=$(set -- $VARIANTS && echo $#)
	for da_v in $VARIANTS; do
		# shellcheck disable=SC2086
		tool_check suck -a "$ADDR" -w "$WORK" -m "$da_v" ${SUCK_ARGS:-} || continue
		da_st=0
		# shellcheck disable=SC2086
		tool_check suck -a "$ADDR" -w "$WORK" -m "$da_v" ${SUCK_ARGS:-} --drops || da_st=$?
		[ "$da_st" != 4 ] || { echo "$PROG: --drops: suck cannot count the kernel's drops here: $TRY_MSG: not supported here (exit 4)" >&2; exit 4; }
		break
	done
	SUCK_ARGS="${SUCK_ARGS:-}${SUCK_ARGS:+ }--drops"
}

# run_id: a random run id, 1..4294967295, for one suck and blast pair: suck --run-id takes only
# that run's datagrams, so a late datagram of an earlier pair cannot count in this one.
run_id() {
	ri=0
	while [ "$ri" = 0 ]; do
		ri=$(od -An -N4 -tu4 /dev/urandom 2>/dev/null | tr -d ' \n') || ri=
		[ -n "$ri" ] || ri=$(awk 'BEGIN { srand(); printf "%d\n", 1 + rand() * 4294967294 }')
	done
	printf '%s\n' "$ri"
}

# run_key: RUN_KEY, a new random run key (16 bytes from /dev/urandom, 32 hex digits) for one
# suck and blast pair: suck then believes only the fins of that pair's blast (DESIGN.md, the run
# key). It is never put on a command line, which any user of the host can read (ps) with the
# run id and the port: pair.sh gives it to both tools on their standard input, which they read
# with --key-file -. One rule for every prefix: standard input crosses ssh, ip netns exec,
# sudo and timeout alike, where the environment does not cross ssh (and sudo drops it), and
# it leaves no file to remove. Nothing weaker stands in when /dev/urandom cannot be read.
run_key() {
	RUN_KEY=$(od -An -N16 -tx1 /dev/urandom 2>/dev/null | tr -d ' \n') || RUN_KEY=
	case $RUN_KEY in *[!0-9a-f]*) RUN_KEY= ;; esac
	[ ${#RUN_KEY} -eq 32 ] || die "cannot read 16 random bytes from /dev/urandom (od) for a run key"
}

# host_pins [SUCK_CPU BLAST_CPU]: SUCK_HOST and BLAST_HOST (lib/hostinfo.sh where each tool runs;
# BLAST_HOST empty when both run through the same prefix), and pinning: suck on CPU SUCK_CPU (0),
# blast on CPU BLAST_CPU (1), when the host each runs on has two CPUs or more (SUCK_PIN,
# BLAST_PIN: "--cpu N" or nothing; PINNING says which).
# shellcheck disable=SC2034 # PINNING is for the caller's env.txt
host_pins() {
	SUCK_HOST=$($SUCK_CMD sh <"$LIB/hostinfo.sh" 2>/dev/null) || true
	hp_sn=$(printf '%s\n' "$SUCK_HOST" | sed -n 's/^cpu_count: //p')
	BLAST_HOST=
	hp_bn=$hp_sn
	if [ "$BLAST_CMD" != "$SUCK_CMD" ]; then
		BLAST_HOST=$($BLAST_CMD sh <"$LIB/hostinfo.sh" 2>/dev/null) || true
		hp_bn=$(printf '%s\n' "$BLAST_HOST" | sed -n 's/^cpu_count: //p')
	fi
	SUCK_PIN=
	BLAST_PIN=
	PINNING="none (fewer than two CPUs)"
	if in_range "${hp_sn:-x}" 2 100000000 && in_range "${hp_bn:-x}" 2 100000000; then
		SUCK_PIN="--cpu ${1:-0}"
		BLAST_PIN="--cpu ${2:-1}"
		PINNING="suck $SUCK_PIN, blast $BLAST_PIN"
	fi
}
# host_env: the hosts' lines of env.txt.
host_env() {
	printf '%s\n' "$SUCK_HOST"
	[ -z "$BLAST_HOST" ] || printf '%s\n' "$BLAST_HOST" | sed 's/^/blast_host./'
}
# host_value KEY: KEY's value in suck's host's lines (hostinfo.sh).
host_value() { printf '%s\n' "$SUCK_HOST" | sed -n "s/^$1: //p"; }

# env_tools: the lines of env.txt every result ends with, after the script's own settings: the
# prefixes, pinning, the build, both hosts, the notes and every command run.
env_tools() {
	echo "suck_cmd: $SUCK_CMD"
	echo "blast_cmd: $BLAST_CMD"
	echo "pinning: $PINNING"
	echo "git_describe: $(git -C "$ROOT" describe --always --dirty --tags 2>/dev/null || echo unknown)"
	echo "suck_bin: $SUCK_BIN"
	echo "blast_bin: $BLAST_BIN"
	echo "suck_version: $($SUCK_CMD "$SUCK_BIN" -V 2>&1 | head -n 1)"
	echo "blast_version: $($BLAST_CMD "$BLAST_BIN" -V 2>&1 | head -n 1)"
	echo "compiler: $(${CC:-cc} --version 2>/dev/null | head -n 1 || echo unknown)"
	host_env
	sed 's/^/note: /' "$WORKDIR/notes"
	sed 's/^/cmd: /' "$WORKDIR/cmds"
}
