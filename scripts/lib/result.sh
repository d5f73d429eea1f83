# scripts/lib/result.sh: result directories. Sourced after base.sh, never run; pair.sh, whose
# pairs write into them, needs it too (disk_check), and the traps here end the pairs running
# (pair_stop).
#
# A result appears whole or not at all, and an earlier one in its place stays whole until the
# new one is complete. Everything is written to a staging directory beside OUT, STAGE
# (.NAME.PID.tmp), then swapped in with two renames: the old result aside as BACKUP
# (.NAME.PID.old), STAGE to OUT. Whatever stops the script, result_abort looks at what is on disk
# and puts back the old result, or completes the new one, and says which. STAGE is also the
# run's claim on OUT (result_claim): a second run into the same OUT stops before its first run,
# and what a run killed by SIGKILL left (its STAGE, its BACKUP) the next one settles.
# What the scripts did not write is never deleted: -o of a non-empty directory that is no result
# of theirs (its env.txt names none) is refused; from an earlier result, entries result_own does
# not name (a user's notes, raw/x, a subdirectory) are carried over into the new one.
OUT=
OLD=0
RESERVED=0
DEFAULT_OUT=0
LATEST=0 # 1: results/latest points to a new default-named result (suite, reproduce)
STAGE=
BACKUP=
WORKDIR=
RESULT_PHASE= # staging, installing, installed
FAIL_WHY=
RESULT_CLEANUP=stop_children # the function that ends the script's children
CHILD_PID= # a child besides the pairs' tools (the plots, a suite), ended by stop_children
stop_children() {
	[ -z "${PAIR_PIDS:-}" ] || pair_stop # none yet, or pair.sh not even sourced (an early signal)
	stop_child "$CHILD_PID"
	CHILD_PID=
}

# result_own NAME [raw]: a name the scripts write in a result directory (with raw: in its raw/).
# Every file a script writes into a result must be named here.
result_own() {
	case ${2:-}:$1 in
	raw:*.suck.tsv | raw:*.suck.err | raw:*.blast.tsv | raw:*.blast.err | raw:*.noise.tsv) return 0 ;;
	raw:*) return 1 ;;
	:env.txt | :runs.tsv | :summary.tsv | :table.md | :ceiling.tsv | :reproduce.tsv | :reproduce.md | :ndr.tsv | \
		:trials.tsv | :rate.tsv | :rate_summary.tsv | :size.tsv | :index.html | :.index.html.* | \
		:.*.tmp | :.*.tmp.png | :.*.tmp.svg) return 0 ;;
	:*.png | :*.svg)
		case ${1%.*} in
		datagrams | cpu | memory | published_vs_here | ceilings | ndr | rate | rate_loss | size_pps | size_mbps | \
			latency | rtt | timeline | rate_latency) return 0 ;;
		esac ;;
	esac
	return 1
}

# result_is DIR: DIR is a result of these scripts (its env.txt names the script that wrote it).
result_is() {
	[ -f "$1/env.txt" ] && grep -Eq '^(suite|ndr|sweep|reproduce): scripts/' "$1/env.txt"
}

# result_carry FROM TO: the entries of FROM, and of FROM/raw, that result_own does not name move
# to the same place in TO, each by one rename.
result_carry() {
	set +f
	for rc_f in "$1"/* "$1"/.[!.]* "$1"/..?*; do
		[ -e "$rc_f" ] || [ -L "$rc_f" ] || continue
		rc_n=${rc_f##*/}
		if [ "$rc_n" = raw ] && [ -d "$rc_f" ]; then
			for rc_r in "$rc_f"/* "$rc_f"/.[!.]* "$rc_f"/..?*; do
				[ -e "$rc_r" ] || [ -L "$rc_r" ] || continue
				result_own "${rc_r##*/}" raw && continue
				mkdir -p "$2/raw"
				mv -T "$rc_r" "$2/raw/${rc_r##*/}"
			done
		elif ! result_own "$rc_n"; then
			mv -T "$rc_f" "$2/$rc_n"
		fi
	done
	set -f
}

# result_remove DIR: removes what result_own names from DIR and DIR/raw, then the directories
# if nothing else is left in them; status 1 when something is.
result_remove() {
	set +f
	for rr_f in "$1"/* "$1"/.[!.]* "$1"/..?* "$1"/raw/* "$1"/raw/.[!.]* "$1"/raw/..?*; do
		[ -f "$rr_f" ] || [ -L "$rr_f" ] || continue
		case $rr_f in "$1"/raw/*) rr_k=raw ;; *) rr_k= ;; esac
		! result_own "${rr_f##*/}" $rr_k || rm -f "$rr_f"
	done
	set -f
	[ ! -d "$1/raw" ] || rmdir "$1/raw" 2>/dev/null || true
	rmdir "$1" 2>/dev/null
}

# out_path OPT PATH: PATH, where OPT writes, is a path the scripts can write and keep; else bad
# usage (exit 2), before anything runs. They cannot keep a tab or a newline in one: env.txt, the
# lists of a run's reports and the tables are lines of tab-separated fields, so the runs would all
# go and then no report be found in its list; nor another control character (printed raw in
# messages and tables) or a backslash (echo and awk -v read it as an escape: env.txt would record
# another path). Sets OUT_PATH to PATH, "./" before a leading "-" (which dirname, mkdir and the
# other tools would take for an option).
out_path() {
	case $2 in
	*"$(printf '\t')"*) op_what='a tab' ;;
	*'
'*) op_what='a newline' ;;
	*[[:cntrl:]]*) op_what='a control character' ;;
	*\\*) op_what='a backslash' ;;
	-*) OUT_PATH=./$2 && return 0 ;;
	*) OUT_PATH=$2 && return 0 ;;
	esac
	usage_error "$1 '$(printf '%s' "$2" | tr '[:cntrl:]' '?')': $op_what in the path, which the scripts cannot keep: they write paths into line-based, tab-separated records (env.txt, the lists of reports, the tables) and print them with echo, where it would split a line or a field or be read as an escape; accepted: a path without tabs, newlines, other control characters or backslashes"
}

# result_check: OUT, from -o, can take a result: it does not exist (its parent is made now), is
# an empty directory, or an earlier result of these scripts (OLD=1); its path, and its real path,
# pass out_path. Anything else cannot work and is bad usage, before the first run. Without -o,
# the default directory's path is checked (results/runs of this tree).
result_check() {
	OLD=0
	if [ -z "$OUT" ]; then
		out_path "the default result directory" "$ROOT/results/runs"
		return 0
	fi
	out_path -o "$OUT"
	OUT=$OUT_PATH
	if [ -L "$OUT" ] && [ ! -d "$OUT" ]; then usage_error "-o '$OUT': a symbolic link to no directory"; fi
	# The real path: a symbolic link's directory is the one replaced, ".." and "." are names.
	if [ -d "$OUT" ]; then
		OUT=$(cd -P "$OUT" && pwd)
	elif [ ! -e "$OUT" ]; then
		mkdir -p "$(dirname "$OUT")" 2>/dev/null || usage_error "-o '$OUT': cannot make $(dirname "$OUT")"
		OUT=$(cd -P "$(dirname "$OUT")" && pwd)/$(basename "$OUT")
		OUT=/${OUT#"${OUT%%[!/]*}"}
	fi
	out_path -o "$OUT"
	[ "$OUT" != / ] || usage_error "-o '/': accepted: a directory for the result"
	result_state
}
# result_state: what OUT holds now, for result_check and again once this run has its claim on it
# (result_claim): a new directory, an empty one or an earlier result (OLD=1); else bad usage.
result_state() {
	OLD=0
	if [ -e "$OUT" ] && [ ! -d "$OUT" ]; then
		usage_error "-o '$OUT': exists and is not a directory; accepted: a new directory, an empty one or an earlier result"
	fi
	if [ -d "$OUT" ] && [ -n "$(ls -A "$OUT" 2>&1)" ]; then
		result_is "$OUT" || usage_error "-o '$OUT': not empty and no result of these scripts (no env.txt of one): refusing to write over what it holds; accepted: a new directory, an empty one or an earlier result"
		[ ! -e "$OUT/raw" ] || [ -d "$OUT/raw" ] || usage_error "-o '$OUT': its raw is not a directory"
		OLD=1
	fi
}

# The claims on OUT. A run writing OUT has its staging directory (.NAME.PID.tmp) beside it from
# result_begin on, and while it swaps the old result aside, BACKUP (.NAME.PID.old): these are its
# claim, whose name says whose it is. result_claim makes this run's by mkdir, then looks for
# others: one of a running process means two runs into one directory, where the last to finish
# would replace the other's result without a word, so this one stops, before its first run (exit
# 2, the message naming the other's pid). Two started at the same moment may both see the other
# and both stop; never both go on. One of a process that is gone (killed by SIGKILL, which no
# trap sees) is reaped: settled as result_abort would have (result_reap), then OUT is looked at
# again (result_state: that may have put an earlier result back).

# result_claims DIR NAME: the claims on DIR/NAME, "PID PATH" a line, the set-aside ones (.old)
# first; this run's own staging directory is not one.
result_claims() {
	set +f
	for rs_e in "$1/.$2".*.old "$1/.$2".*.tmp; do
		[ -d "$rs_e" ] && [ ! -L "$rs_e" ] || continue
		rs_p=${rs_e#"$1/.$2".}
		rs_p=${rs_p%.*}
		is_uint "$rs_p" || continue
		[ "$rs_e" != "$STAGE" ] || continue
		printf '%s %s\n' "$rs_p" "$rs_e"
	done
	set -f
}

# result_claim: this run's claim on OUT, its staging directory STAGE made; exit 2 when another
# run's is there; the claims of gone runs reaped (above).
result_claim() {
	mkdir "$STAGE" || die "cannot make the staging directory $STAGE"
	rc_list=$(result_claims "$(dirname "$OUT")" "$(basename "$OUT")")
	rc_live=
	for rc_p in $(printf '%s\n' "$rc_list" | awk '{ print $1 }'); do
		[ -n "$rc_live" ] || ! pid_alive "$rc_p" || rc_live=$rc_p
	done
	if [ -n "$rc_live" ]; then
		rmdir "$STAGE"
		RESULT_PHASE= OLD=0
		FAIL_WHY="-o '$OUT': another run (pid $rc_live) is writing it: two runs into one directory would keep only the last one's result; wait for that run to end, or name another directory"
		exit 2
	fi
	printf '%s\n' "$rc_list" | while read -r rc_p rc_e; do
		[ -z "$rc_p" ] || result_reap "$OUT" "$rc_e" "$rc_p"
	done
	[ "$DEFAULT_OUT" = 0 ] || result_reap_runs
	result_state
}

# result_reap OUT CLAIM PID: CLAIM, left beside OUT by run PID, which is gone, settled as
# result_abort would have: a set-aside earlier result (.old) goes back to OUT when OUT is not
# there (the run was killed between its two renames), else what the scripts wrote in it is
# removed; a staging directory (.tmp) gives back what it carried over from OUT, and what the
# scripts wrote in it is removed. What they did not write is never removed: a directory still
# holding it is left there, and said. Each step on its own, in a subshell: two runs reaping the
# same claim at once (results/runs) only see one step fail.
result_reap() {
	(
		set +e
		rp_out=$1 rp_e=$2 rp_what="a run that is gone (pid $3)"
		# A staging directory can be a result's OUT in turn (reproduce lua-2014 ran the suite
		# into its own): that one's claims first.
		result_claims "$(dirname "$rp_e")" "$(basename "$rp_e")" | while read -r rp_p rp_c; do
			pid_alive "$rp_p" || result_reap "$rp_e" "$rp_c" "$rp_p"
		done
		case $rp_e in
		*.old)
			if [ ! -e "$rp_out" ] && [ ! -L "$rp_out" ] && mv -T "$rp_e" "$rp_out" 2>/dev/null; then
				echo "$PROG: put the earlier result back in $rp_out from $rp_e, set aside by $rp_what" >&2
			elif result_remove "$rp_e"; then
				echo "$PROG: removed $rp_e, an earlier result set aside by $rp_what" >&2
			elif [ -d "$rp_e" ]; then
				echo "$PROG: $rp_e, set aside by $rp_what, holds files the scripts did not write: left there" >&2
			fi ;;
		*)
			rm -rf "$rp_e/.work"
			[ ! -d "$rp_out" ] || result_carry "$rp_e" "$rp_out" 2>/dev/null
			if result_remove "$rp_e"; then
				echo "$PROG: removed $rp_e, the staging directory of $rp_what" >&2
			elif [ -d "$rp_e" ]; then
				echo "$PROG: $rp_e, the staging directory of $rp_what, holds files the scripts did not write: left there" >&2
			fi ;;
		esac
	)
}

# result_reap_runs: for a run without -o, the claims of gone runs in results/runs, where such
# runs write, and in the directories there (reproduce's, one per experiment), reaped; the
# directory a gone run had reserved in results/runs (result_begin), removed when empty.
result_reap_runs() {
	set +f
	for rr_d in "$ROOT/results/runs" "$ROOT/results/runs"/*/; do
		rr_d=${rr_d%/}
		[ -d "$rr_d" ] && [ ! -L "$rr_d" ] || continue
		for rr_e in "$rr_d"/.*.old "$rr_d"/.*.tmp; do
			[ -d "$rr_e" ] && [ ! -L "$rr_e" ] || continue
			rr_n=${rr_e##*/}
			rr_n=${rr_n#.}
			rr_n=${rr_n%.*}
			rr_p=${rr_n##*.}
			rr_n=${rr_n%.*}
			is_uint "$rr_p" && [ -n "$rr_n" ] && [ "$rr_e" != "$STAGE" ] || continue
			pid_alive "$rr_p" && continue
			result_reap "$rr_d/$rr_n" "$rr_e" "$rr_p"
			# The reserved name, not a staging directory holding a suite's (its own run's).
			case $rr_d:$rr_n in "$ROOT/results/runs":[!.]*) rmdir "$rr_d/$rr_n" 2>/dev/null || true ;; esac
		done
	done
	set -f
}

# fs_full DIR: the file system of DIR takes no more data (a 4 KiB file cannot be written there).
fs_full() {
	ff=$1/.space.$$.tmp
	if (printf '%4096s' '' >"$ff") 2>/dev/null; then
		rm -f "$ff"
		return 1
	fi
	rm -f "$ff"
	return 0
}
# disk_check: exits (die_full) when the disk the result is written to is full. Called where a
# write may have failed: sh says "I/O error" at best and a tool's message cannot be written.
disk_check() {
	if [ -d "$STAGE" ] && fs_full "$STAGE"; then die_full; fi
}
die_full() {
	FAIL_WHY="writing the result failed: the disk of $(dirname "$OUT") is full (No space left on device, ENOSPC)"
	exit 1
}

# result_begin PREFIX: the staging directory; without -o, a new name in results/runs, reserved
# by mkdir so that two scripts started in the same second do not take the same one (PREFIX-STAMP,
# else PREFIX-STAMP-2, ...). Call after result_traps.
result_begin() {
	if [ -z "$OUT" ]; then
		mkdir -p "$ROOT/results/runs" || die "cannot make $ROOT/results/runs"
		rb_base=$ROOT/results/runs/$1$(stamp)
		OUT=$rb_base
		rb_n=1
		while ! mkdir "$OUT" 2>/dev/null; do
			rb_n=$((rb_n + 1))
			[ $rb_n -le 100 ] || die "cannot make a directory $rb_base-N in $ROOT/results/runs"
			OUT=$rb_base-$rb_n
		done
		RESERVED=1
		DEFAULT_OUT=1
	fi
	STAGE=$(dirname "$OUT")/.$(basename "$OUT").$$.tmp
	BACKUP=$(dirname "$OUT")/.$(basename "$OUT").$$.old
	WORKDIR=$STAGE/.work
	RESULT_PHASE=staging
	result_claim
	disk_check
}

# result_stage PREFIX: before the first run: the traps, the staging directory (result_begin
# PREFIX) with its raw/, and the work directory with its cmds and notes; the pairs' reports are
# written to the work directory and kept in raw/ (pair.sh).
result_stage() {
	result_traps
	result_begin "$1"
	mkdir "$STAGE/raw" "$WORKDIR"
	: >"$WORKDIR/cmds"
	: >"$WORKDIR/notes"
	disk_check
	# shellcheck disable=SC2034 # pair.sh's
	PAIR_DIR=$WORKDIR PAIR_KEEP=$STAGE/raw
}

# nothing_kept FAILED MESSAGE: the end of a script none of whose runs finished. When none failed,
# each was skipped (a tool's exit 4: this kernel lacks what it needs, as the notes said): exit 4,
# as the tools do. Else MESSAGE, exit 1.
nothing_kept() {
	[ "$1" -eq 0 ] || die "$2"
	FAIL_WHY="every run was skipped: this kernel lacks what they need (see the notes above)"
	exit 4
}

# result_install: the finished staging directory into place as OUT (WORKDIR removed first). A
# new or empty OUT is replaced by one rename; an earlier result has what it holds of the user's
# carried over, moves aside and is removed once the new one is in place.
result_install() {
	rm -rf "$WORKDIR"
	RESULT_PHASE=installing
	[ "$OLD" = 0 ] || result_carry "$OUT" "$STAGE"
	# The page for people (scripts/index), last: it links what is in the result, carried too.
	sh "$SCRIPTS/index" "$STAGE" || echo "$PROG: index.html not written; the result is complete" >&2
	[ "$OLD" = 0 ] || mv -T "$OUT" "$BACKUP"
	mv -T "$STAGE" "$OUT"
	result_finish
}
result_finish() {
	RESULT_PHASE=installed
	if [ -d "$BACKUP" ] && ! result_remove "$BACKUP"; then
		echo "$PROG: $BACKUP holds files the scripts did not write: left there" >&2
	fi
	if [ "$LATEST" = 1 ] && [ "$DEFAULT_OUT" = 1 ]; then
		ln -sfn "runs/$(basename "$OUT")" "$ROOT/results/latest"
	fi
}

# result_abort WHY: after a signal or a failure, OUT as it was or the new result complete, by
# what is on disk (each rename happened or did not); one line says WHY and which.
result_abort() {
	ra_what="nothing written${OUT:+ to $OUT}"
	[ "$OLD" != 1 ] || ra_what="kept the old result in $OUT"
	case $RESULT_PHASE in
	staging) rm -rf "$STAGE" ;;
	installing)
		if [ -d "$STAGE" ]; then
			# Not in place yet: the old result back, and what was carried over from it.
			if [ -d "$BACKUP" ] && [ ! -e "$OUT" ]; then mv -T "$BACKUP" "$OUT"; fi
			if [ "$OLD" = 1 ]; then
				result_carry "$STAGE" "$OUT"
				rm -rf "$STAGE/.work"
				result_remove "$STAGE" || echo "$PROG: $STAGE holds what could not be put back: left there" >&2
			else
				rm -rf "$STAGE"
			fi
		else
			RESULT_PHASE=installed
		fi ;;
	esac
	if [ "$RESULT_PHASE" = installed ]; then
		result_finish
		ra_what="the new result is complete in $OUT"
	elif [ "$RESERVED" = 1 ]; then
		rmdir "$OUT" 2>/dev/null || true
	fi
	echo "$PROG: $1; $ra_what" >&2
}

# result_traps: SIGINT and SIGTERM end the children (RESULT_CLEANUP), settle the result and exit
# 130 or 143; a failure (status not 0) before the result is in place does the same with its
# status (1 when the disk is full). A second signal meanwhile is ignored: the renames must finish.
# The signal traps are set when this file is sourced, too (below), before the checks that come
# before the first run (suck -m list, the hosts, --check: some 200 ms), so a ^C there says
# "nothing written" instead of ending the script without a word; result_traps adds the EXIT trap
# once there is a result to settle.
result_traps() {
	trap 'result_on_signal INT' INT
	trap 'result_on_signal TERM' TERM
	trap 'result_on_exit' EXIT
}
result_on_signal() {
	set +e
	trap '' INT TERM HUP QUIT
	trap - EXIT
	$RESULT_CLEANUP
	result_abort "interrupted by SIG$1"
	sig_exit "$1"
}
result_on_exit() {
	ro_st=$?
	set +e
	trap '' INT TERM HUP QUIT
	trap - EXIT
	$RESULT_CLEANUP
	if [ "$RESULT_PHASE" != installed ] && { [ "$ro_st" -ne 0 ] || [ -n "$RESULT_PHASE" ]; }; then
		if [ -z "$FAIL_WHY" ] && [ -d "$STAGE" ] && fs_full "$STAGE"; then
			FAIL_WHY="writing the result failed: the disk of $(dirname "$OUT") is full (No space left on device, ENOSPC)"
			ro_st=1
		fi
		result_abort "${FAIL_WHY:-stopped (status $ro_st)}"
	fi
	exit "$ro_st"
}
trap 'result_on_signal INT' INT
trap 'result_on_signal TERM' TERM
