# Bad options of every script (suite, ndr, sweep, reproduce, perf, compare, plot, index): exit 2
# with a message naming the option, before the first run (suck and blast are only asked, with
# --check, whether a run would start, never run with them), nothing on stdout, nothing written; a number too large
# for sh is refused like any other bad number, never with the shell's "Illegal number".
. tests/lib.sh
export BIN

# Wrappers in the place of SUCK_CMD and BLAST_CMD log every real run (suck with --idle 5, blast
# with -p): checking options runs neither so.
cat >"$TMP/wrap" <<EOF
#!/bin/sh
case " \$* " in *" --idle 5 "* | *"/blast "*" -p "*) echo "\$*" >>"$TMP/runs.log" ;; esac
exec "\$@"
EOF
export SUCK_CMD="sh $TMP/wrap" BLAST_CMD="sh $TMP/wrap"
HUGE=99999999999999999999

# bad SCRIPT SAYS ARGS...: SCRIPT ARGS exits 2, its message has SAYS, nothing ran or was written
bad() {
	b_s=$1 b_says=$2
	shift 2
	rm -f "$TMP/runs.log"
	b_st=0
	sh "scripts/$b_s" "$@" >"$TMP/bad.out" 2>"$TMP/bad.err" || b_st=$?
	b_d="$b_s $*"
	check "$b_d: exit 2 (got $b_st: $(head -n 1 "$TMP/bad.err"))" test "$b_st" -eq 2
	check "$b_d: says \"$b_says\"" grep -qF -- "$b_says" "$TMP/bad.err"
	check "$b_d: no shell error" sh -c "! grep -Eq 'Illegal number|arithmetic|I/O error' '$TMP/bad.err'"
	check "$b_d: nothing on stdout" test ! -s "$TMP/bad.out"
	check "$b_d: no run" test ! -e "$TMP/runs.log"
	check "$b_d: no run started" sh -c "! grep -q '\[1/' '$TMP/bad.err'"
	check "$b_d: nothing written" test -z "$(ls -A "$TMP/out" 2>/dev/null)"
}
O="-o $TMP/out/r"

S="-t 0.2 -r 1 -W 0 -P $O"
bad suite "-m: suck has no variant 'bogus'" $S -m bogus
bad suite "-m: no variant given" $S -m ''
bad suite "-w 'bogus': suck refuses it" $S -m buffer -w bogus
bad suite "-s '10': blast refuses it" $S -m buffer -s 10
bad suite "-s '$HUGE'" $S -m buffer -s $HUGE
bad suite "-B '--bogus': blast refuses it" $S -m buffer -B --bogus
bad suite "-B '-g 64': blast refuses it: -g 64 with -s 1450" $S -m buffer -B "-g 64"
bad suite "-B '-o json': '-o' is not accepted here" $S -m buffer -B "-o json"
bad suite "-B '--run-id 5': '--run-id' is not accepted here" $S -m buffer -B "--run-id 5"
bad suite "-a 'nowhere.invalid': blast refuses it" $S -m buffer -a nowhere.invalid
bad suite "-a '192.0.2.1': suck refuses it" $S -m buffer -a 192.0.2.1
bad suite "-r '$HUGE'" $O -m buffer -r $HUGE
bad suite "-W '$HUGE'" $O -m buffer -W $HUGE
bad suite "-t '1000000000'" $O -m buffer -t 1000000000

N="-t 0.2 -P $O"
bad ndr "--max-trials '$HUGE'" $N -m buffer --max-trials $HUGE
bad ndr "-s '$HUGE'" $N -m buffer -s $HUGE
bad ndr "-w 'bogus': suck refuses it" $N -m buffer -w bogus
bad ndr "-S '--bogus': suck refuses it" $N -m buffer -S --bogus
bad ndr "-S '-b 4': suck refuses it with -m buffer" $N -m "mmsg buffer" -S "-b 4"
bad ndr "-S '-m copy': '-m' is not accepted here" $N -m buffer -S "-m copy"
bad ndr "-B '-x': blast refuses it" $N -m buffer -B -x
bad ndr "-a 'nowhere.invalid'" $N -m buffer -a nowhere.invalid
bad ndr "-m: no variant given" $N -m ''
bad ndr "--loss '1e400'" $N -m buffer --loss 1e400

bad sweep "--steps '$HUGE'" rate -t 0.2 -P $O -m buffer --steps $HUGE
bad sweep "-s '$HUGE'" rate -t 0.2 -P $O -m buffer -s $HUGE
bad sweep "--sizes '$HUGE'" size -t 0.2 -P $O -m buffer --sizes "64 $HUGE"
bad sweep "--sizes '65520': blast refuses it" size -t 0.2 -P $O -m buffer --sizes "64 65520"
bad sweep "-w 'bogus': suck refuses it" size -t 0.2 -P $O -m buffer -w bogus
bad sweep "-B '-p 9': '-p' is not accepted here" size -t 0.2 -P $O -m buffer -B "-p 9"

bad reproduce "-r '$HUGE'" -t 0.2 $O -r $HUGE
bad reproduce "-t '$HUGE'" $O -t $HUGE
echo file >"$TMP/file"
bad reproduce "-o '$TMP/file': exists and is not a directory" -t 0.2 -r 1 -o "$TMP/file"

for a in "-r $HUGE" "-R $HUGE" "-B $HUGE" "-g $HUGE" "-s $HUGE" "-t 1e9"; do
	# shellcheck disable=SC2086
	bad perf "${a% *} '" $a -o "$TMP/out/perf.txt"
done
mkdir -p "$TMP/dir.txt"
bad perf "-o '$TMP/dir.txt': $TMP/dir.txt is a directory" -o "$TMP/dir.txt"
rmdir "$TMP/dir.txt"

# A time blast refuses (a run needs 1 ms at least; -t 0 only with -n) is bad usage before the
# first run, found by blast --check, not a failure once the runs have started.
bad suite "-t '0.0001': blast refuses it: -t '0.0001'" -r 1 -W 0 -P $O -m buffer -t 0.0001
bad suite "-B '-t 0': blast refuses it: -t 0 needs -n" $S -m buffer -B "-t 0"
bad ndr "-t '0.0001': blast refuses it" -P $O -m buffer -t 0.0001
bad sweep "-t '0.0001': blast refuses it" rate -P $O -m buffer -t 0.0001
bad sweep "-t '0.0001': blast refuses it" size -P $O -m buffer -t 0.0001
bad ndr "-B '-t 0': blast refuses it: -t 0 needs -n" $N -m buffer -B "-t 0"
bad sweep "-B '-t 0': blast refuses it: -t 0 needs -n" rate -t 0.2 -P $O -m buffer -B "-t 0"
bad sweep "-B '-t 0': blast refuses it: -t 0 needs -n" size -t 0.2 -P $O -m buffer -B "-t 0"
# reproduce's 2018 experiments run here only, without the wrappers: "no run started" holds.
W_SUCK=$SUCK_CMD W_BLAST=$BLAST_CMD
unset SUCK_CMD BLAST_CMD
for e in all lua-2014 gso-2018 gro-2018; do
	bad reproduce "-t '0.0001': blast refuses it" $e -r 1 $O -t 0.0001
	bad reproduce "-o: no directory given" -t 0.2 -r 1 -o '' $e
	bad reproduce "-t: no time given" $e -r 1 $O -t ''
done
export SUCK_CMD="$W_SUCK" BLAST_CMD="$W_BLAST"

# A variant, size or rate named twice would run twice, count its runs twice and overwrite the
# first copy's raw/ files: refused in every script that takes the list.
bad suite "-m: 'buffer' named twice" $S -r 2 -m "buffer buffer"
bad suite "-m: 'copy' named twice" $S -m "copy buffer copy"
bad ndr "-m: 'buffer' named twice" $N -m "buffer buffer"
bad ndr "-s: '1450' named twice" $N -m buffer -s "1450 256 01450"
bad sweep "-m: 'buffer' named twice" rate -t 0.2 -P $O -m "buffer buffer"
bad sweep "-m: 'buffer' named twice" size -t 0.2 -P $O -m "buffer buffer"
bad sweep "--sizes: '64' named twice" size -t 0.2 -P $O -m buffer --sizes "64 128 64"
bad sweep "--rates: '1000' datagrams/s named twice" rate -t 0.2 -P $O -m buffer --rates "1k 1000"

# An empty value is no value, never the default: sweep --rates '' swept the 11
# default rates, reproduce -o '' wrote where no -o does.
bad sweep "--rates: no rate given" rate -t 0.2 -P $O -m buffer --rates ''
bad sweep "--sizes: no size given" size -t 0.2 -P $O -m buffer --sizes ''
bad sweep "--steps: no number of steps given" rate -t 0.2 -P $O -m buffer --steps ''
bad sweep "-o: no directory given" size -t 0.2 -P -m buffer -o ''
bad ndr "-o: no directory given" -t 0.2 -P -m buffer -o ''
bad suite "-o: no directory given" -t 0.2 -r 1 -W 0 -P -m buffer -o ''
bad reproduce "-r: no number of runs given" lua-2014 -t 0.2 $O -r ''
bad reproduce "--noise: no per cent given" lua-2014 -t 0.2 -r 1 -o "$TMP/out/r" --noise ''
bad reproduce "--noise '0': per cent, 1..100" lua-2014 -t 0.2 -r 1 -o "$TMP/out/r" --noise 0
# a noisy run is measured again only in the two ladders: the published tables keep every run
bad reproduce "--retry: only for cloudflare-2018 and ceilings" lua-2014 -t 0.2 -r 1 -o "$TMP/out/r" --retry 1
bad reproduce "--retry: only for cloudflare-2018 and ceilings" all -t 0.2 -r 1 -o "$TMP/out/r" --retry 0
bad reproduce "'': no such experiment" '' -t 0.2 -r 1 $O
bad reproduce "'': no such experiment" -t 0.2 -r 1 $O ''

# An output path the scripts cannot keep (a tab or a newline splits env.txt's lines, the lists of
# reports and the tables' fields; a backslash is an escape to echo and awk -v): refused before the
# first run, in every command that writes one (lib/result.sh out_path). A tab once ran every run
# and then failed, exit 1, "runs: no report in".
TAB=$(printf '\t')
NL='
'
bad suite "-o '$TMP/out/a?b': a tab in the path" $S -m buffer -o "$TMP/out/a${TAB}b"
bad suite "-o '$TMP/out/a?b': a newline in the path" $S -m buffer -o "$TMP/out/a${NL}b"
bad suite "-o '$TMP/out/a\\b': a backslash in the path" $S -m buffer -o "$TMP/out/a\\b"
bad ndr "-o '$TMP/out/n?d': a tab in the path" -t 0.2 -P -m buffer -o "$TMP/out/n${TAB}d"
bad sweep "-o '$TMP/out/s?w': a newline in the path" rate -t 0.2 -P -m buffer --steps 2 -o "$TMP/out/s${NL}w"
bad sweep "-o '$TMP/out/s?w': a tab in the path" size -t 0.2 -P -m buffer --sizes 64 -o "$TMP/out/s${TAB}w"
bad reproduce "-o '$TMP/out/l?r': a tab in the path" lua-2014 -t 0.2 -r 1 -o "$TMP/out/l${TAB}r"
bad perf "-o '$TMP/out/p?f.txt': a tab in the path" -r 1 -t 0.2 -o "$TMP/out/p${TAB}f.txt"
bad profile "-o '$TMP/out/p?f.txt': a newline in the path" -t 0.5 -o "$TMP/out/p${NL}f.txt"
# The real path counts: -o through a symbolic link to a directory whose name has a tab.
mkdir "$TMP/t${TAB}d"
ln -s "$TMP/t${TAB}d" "$TMP/lnk"
bad suite "-o '$TMP/t?d/r': a tab in the path" $S -m buffer -o "$TMP/lnk/r"
check "-o through a link to a tab: nothing written there" test -z "$(ls -A "$TMP/t${TAB}d")"
# A leading '-' is a name, not an option to dirname or mkdir: the result is written.
mkdir "$TMP/cwd"
ABS_BIN=$(cd "$BIN" && pwd)
(cd "$TMP/cwd" && BIN=$ABS_BIN sh "$OLDPWD/scripts/suite" -t 0.2 -r 1 -W 0 -P -m buffer -o -r >/dev/null 2>"$TMP/dash.err")
check "-o -r: the result written (status $?: $(head -n 1 "$TMP/dash.err"))" test -s "$TMP/cwd/-r/runs.tsv"
W_SUCK=$SUCK_CMD W_BLAST=$BLAST_CMD
unset SUCK_CMD BLAST_CMD
bad reproduce "-o '$TMP/out/a?l': a tab in the path" all -t 0.2 -r 1 -o "$TMP/out/a${TAB}l"
export SUCK_CMD="$W_SUCK" BLAST_CMD="$W_BLAST"
rm -rf "$TMP/out" # where a path not refused wrote: the checks below start from nothing

# compare and plot on two made-up results
for d in a b; do
	mkdir -p "$TMP/$d"
	printf 'variant\trun\tsuck_received\ncopy\t1\t100\n' >"$TMP/$d/runs.tsv"
done
bad compare "-f: no figure 'bogus' in $TMP/a/runs.tsv or $TMP/b/runs.tsv" -f bogus "$TMP/a" "$TMP/b"
bad compare "-f: no figure given" -f '' "$TMP/a" "$TMP/b"
bad compare "-o 'html'" -o html "$TMP/a" "$TMP/b"
sh scripts/compare -o tsv -f suck_received "$TMP/a" "$TMP/b" >"$TMP/cmp.tsv"
check "compare -f of a column: exit 0" test $? -eq 0
check "compare -f of a column: its row" test "$(cut -f 2 "$TMP/cmp.tsv" | sed -n 2p)" = suck_received
bad plot "unknown option '-x'" -x "$TMP/a"
bad plot "one result directory expected" "$TMP/a" "$TMP/b"
# A directory to read that is missing, no directory or no result: bad usage naming it, exit 2, in
# compare, plot and index alike (compare and plot once exited 1 where index exited 2).
mkdir -p "$TMP/noresult"
for c in compare plot index; do
	a=
	[ "$c" != compare ] || a=$TMP/a # compare's first directory, a good one
	# shellcheck disable=SC2086 # a: one word or none
	bad "$c" "'$TMP/none': no such directory" $a "$TMP/none"
	# shellcheck disable=SC2086
	bad "$c" "'$TMP/file': not a directory" $a "$TMP/file"
	# shellcheck disable=SC2086
	bad "$c" "$TMP/noresult" $a "$TMP/noresult"
	check "$c $TMP/noresult: not a result directory" grep -q 'not a result directory' "$TMP/bad.err"
done
bad compare "'$TMP/none': no such directory" "$TMP/none" "$TMP/a"
# One that cannot be read, as a user who may not (root reads every directory).
if [ "$(id -u)" -ne 0 ]; then
	AS=
elif setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	AS="setpriv --reuid=65534 --regid=65534 --clear-groups"
else
	AS=none
fi
if [ "$AS" = none ]; then
	skip "no setpriv: a directory that cannot be read not checked"
else
	chmod 711 "$TMP"
	mkdir "$TMP/locked"
	cp "$TMP/a/runs.tsv" "$TMP/locked/"
	chmod 0 "$TMP/locked"
	for c in compare plot index; do
		a=
		[ "$c" != compare ] || a=$TMP/a
		st=0
		# shellcheck disable=SC2086 # AS: the words of setpriv, or none
		$AS sh "scripts/$c" $a "$TMP/locked" >/dev/null 2>"$TMP/locked.err" || st=$?
		check "$c of a directory that cannot be read: exit 2 (got $st: $(head -n 1 "$TMP/locked.err"))" test "$st" -eq 2
		check "$c of a directory that cannot be read: says so" grep -qF "'$TMP/locked': cannot be read" "$TMP/locked.err"
	done
	chmod 700 "$TMP/locked" "$TMP"
fi

# One option parser in every command (scripts/lib/base.sh opt_next): an unknown option, long or
# short, gets the same words and exit 2 from each, with the usage on stderr (a long option once
# said "Illegal option --"); -h and --help print the usage on stdout and exit 0.
for c in suite reproduce ndr "sweep rate" perf profile compare plot index; do
	s=${c%% *} m=
	[ "$s" = "$c" ] || m=${c#* }
	for o in --bogus --bogus=1 -x; do
		# shellcheck disable=SC2086 # the mode, when there is one
		bad "$s" "$s: unknown option '${o%%=*}'" $m "$o"
		check "$c $o: the usage on stderr" grep -q "^usage: .*scripts/$s" "$TMP/bad.err"
	done
	for o in -h --help; do
		# shellcheck disable=SC2086
		sh "scripts/$s" $m "$o" >"$TMP/help.out" 2>"$TMP/help.err"
		check "$c $o: exit 0" test $? -eq 0
		check "$c $o: the usage on stdout" grep -q "^usage: .*scripts/$s" "$TMP/help.out"
		check "$c $o: nothing on stderr" test ! -s "$TMP/help.err"
	done
done
bad suite "--latency: takes no value" $S -m buffer --latency=1
bad suite "-t: a value is needed" -t
bad compare "--alpha: a value is needed" --alpha
bad ndr "--max-trials: a value is needed" $N -m buffer --max-trials
bad compare "-a '2'" --alpha=2 "$TMP/a" "$TMP/b"

done_tests
