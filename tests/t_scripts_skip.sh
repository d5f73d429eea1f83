# A kernel without UDP GRO and without UDP GSO, simulated: SUCK_BIN and BLAST_BIN are stand-ins
# that do what the tools do there (scripts/lib/pair.sh judges their exit 4 as a skip). The fake suck
# exits 4 on -m gro, as suck does where setsockopt UDP_GRO fails; the fake blast exits 4 on -g,
# in a run and in the scripts' --check before the first run, as blast does where setsockopt
# UDP_SEGMENT fails (the scripts take a check's 4 as no bad usage: the runs skip). The fake
# suck also exits 4 on -m uring in a run, but after its listening line, as bare recv --uring
# does where io_uring_setup fails after the bind: blast then sends to a closed port (and ends
# well), and the skip is known only when suck ends. Anything else runs the real tool, but for -h:
# the scripts learn the variants from suck -m list.
# suite, ndr and sweep must skip, with a note, not count failures: a variant skipped beside
# others leaves exit 0 and the others' results; when blast's options need what is missing, every
# run is skipped at the first (not one failure per run), nothing is written and the exit is 4.
. tests/lib.sh
export BIN

mkdir "$TMP/fake"
REAL=$(cd "$BIN" && pwd)
cat >"$TMP/fake/suck" <<EOF
#!/bin/sh
echo "\$*" >>"$TMP/suck.runs"
echo \$\$ >>"$TMP/pids"
case " \$* " in
*" -h "*) echo "suck: no help here: the scripts ask suck -m list" >&2; exit 2 ;;
*" -m gro "*)
	echo "suck: -m gro: this kernel does not offer it: setsockopt UDP_GRO: Protocol not available" >&2
	exit 4 ;;
*" -m uring "*" --idle 5 "*)
	echo "suck: listening on 127.0.0.1:9" >&2
	echo "suck: -m uring: this kernel does not offer it: io_uring_setup: Function not implemented" >&2
	exit 4 ;;
esac
exec "$REAL/suck" "\$@"
EOF
cat >"$TMP/fake/blast" <<EOF
#!/bin/sh
echo \$\$ >>"$TMP/pids"
case " \$* " in
*" -g "*)
	echo "\$*" >>"$TMP/blast.runs"
	echo "blast: setsockopt UDP_SEGMENT: Protocol not available (this kernel has no UDP GSO)" >&2
	exit 4 ;;
*) echo "\$*" >>"$TMP/blast.runs" ;;
esac
exec "$REAL/blast" "\$@"
EOF
chmod +x "$TMP/fake/suck" "$TMP/fake/blast"
export SUCK_BIN="$TMP/fake/suck" BLAST_BIN="$TMP/fake/blast" GNUPLOT=/nonexistent/gnuplot

# no_tools_left: no suck or blast this test started still runs (the fakes exec the tools: their
# pids are the tools').
no_tools_left() {
	for p in $(cat "$TMP/pids" 2>/dev/null); do ! kill -0 "$p" 2>/dev/null || return 1; done
}
# runs WHAT: how many real runs (a suck with --idle 5, a blast with -p) the fakes saw.
runs() {
	case $1 in
	suck) grep -c -- '--idle 5' "$TMP/suck.runs" 2>/dev/null || true ;;
	blast) grep -c -- ' -p ' "$TMP/blast.runs" 2>/dev/null || true ;;
	esac
}
fresh() { rm -f "$TMP/suck.runs" "$TMP/blast.runs"; }

# --- the variants come from suck -m list (the fake suck gives no -h)
sh scripts/sweep size -m "buffer nosuch" -o "$TMP/bad" >/dev/null 2>"$TMP/bad.err"
check "variants: a misspelt one is bad usage (got $?)" test $? -eq 2
check "variants: the message lists suck -m list's" \
	grep -q "^sweep: -m: suck has no variant 'nosuch'; accepted: $(variants | tr '\n' ' ' | sed 's/ $//')\$" "$TMP/bad.err"

# --- no GRO: gro is skipped with a note, buffer runs, exit 0
fresh
sh scripts/suite -t 0.3 -r 1 -W 0 -m "gro buffer" -o "$TMP/suite" >"$TMP/suite.out" 2>"$TMP/suite.err"
check "suite, no GRO: exit 0 (got $?)" test $? -eq 0
check "suite, no GRO: says gro is skipped, with suck's message" \
	grep -q '^suite: gro: skipped, not supported here (suck exit 4: suck: -m gro: this kernel does not offer it' "$TMP/suite.err"
check "suite, no GRO: the note in table.md" grep -q '^- gro: skipped, not supported here' "$TMP/suite/table.md"
check "suite, no GRO: buffer's run kept" test "$(col "$TMP/suite/runs.tsv" variant | tr '\n' ' ')" = "buffer "
check "suite, no GRO: nothing counted as failed" sh -c "! grep -q 'failed' '$TMP/suite.err'"

fresh
sh scripts/ndr -m "gro buffer" -t 0.3 --resolution 25 -w histogram:20 -P -o "$TMP/ndr" >"$TMP/ndr.out" 2>"$TMP/ndr.err"
check "ndr, no GRO: exit 0 (got $?)" test $? -eq 0
check "ndr, no GRO: says gro is skipped" grep -q '^ndr: gro: skipped, not supported here (suck exit 4' "$TMP/ndr.err"
check "ndr, no GRO: the note in env.txt" grep -q '^note: gro: skipped, not supported here' "$TMP/ndr/env.txt"
check "ndr, no GRO: gro tried once" test "$(grep -c -- '-m gro .*--idle 5' "$TMP/suck.runs")" -eq 1
check "ndr, no GRO: a line for buffer only" test "$(cut -d ' ' -f 1 "$TMP/ndr.out" | tr '\n' ' ')" = "buffer "
check "ndr, no GRO: nothing counted as failed" sh -c "! grep -q 'failed' '$TMP/ndr.err'"

fresh
sh scripts/sweep rate -m "gro buffer" -t 0.3 --rates "5k 0" -P -o "$TMP/sweep" >"$TMP/sweep.out" 2>"$TMP/sweep.err"
check "sweep, no GRO: exit 0 (got $?)" test $? -eq 0
check "sweep, no GRO: says gro is skipped" grep -q '^sweep: gro: skipped, not supported here (suck exit 4' "$TMP/sweep.err"
check "sweep, no GRO: the note in env.txt" grep -q '^note: gro: skipped, not supported here' "$TMP/sweep/env.txt"
check "sweep, no GRO: gro tried once" test "$(grep -c -- '-m gro .*--idle 5' "$TMP/suck.runs")" -eq 1
check "sweep, no GRO: buffer's two trials kept" test "$(col "$TMP/sweep/rate.tsv" variant | tr '\n' ' ')" = "buffer buffer "
check "sweep, no GRO: nothing counted as failed" sh -c "! grep -q 'failed' '$TMP/sweep.err'"

# --- exit 4 after the listening line: a skip all the same
fresh
sh scripts/sweep size -m "uring buffer" --sizes 512 -t 0.2 -P -o "$TMP/late" >"$TMP/late.out" 2>"$TMP/late.err"
check "sweep, exit 4 after listening: exit 0 (got $?)" test $? -eq 0
check "sweep, exit 4 after listening: says uring is skipped" \
	grep -q '^sweep: uring: skipped, not supported here (suck exit 4: .*io_uring_setup: Function not implemented' "$TMP/late.err"
check "sweep, exit 4 after listening: buffer's trial kept" test "$(col "$TMP/late/size.tsv" variant | tr '\n' ' ')" = "buffer "
check "sweep, exit 4 after listening: nothing counted as failed" sh -c "! grep -q 'failed' '$TMP/late.err'"
fresh
sh scripts/ndr -m uring -t 0.2 -P -o "$TMP/late-ndr" >"$TMP/late-ndr.out" 2>"$TMP/late-ndr.err"
check "ndr, exit 4 after listening: exit 4 (got $?)" test $? -eq 4
check "ndr, exit 4 after listening: says uring is skipped" grep -q '^ndr: uring: skipped, not supported here (suck exit 4' "$TMP/late-ndr.err"
check "ndr, exit 4 after listening: tried once, not retried" test "$(runs suck)" -eq 1
check "ndr, exit 4 after listening: nothing written" test ! -e "$TMP/late-ndr"

# --- no GSO, and blast -g asked for: every run skipped at the first blast, exit 4, nothing written
# skipped_at_once SCRIPT DIR: SCRIPT's messages say so, one blast was run and one suck.
skipped_at_once() {
	check "$1, no GSO: says blast lacks it" \
		grep -q "^$1: [a-z]*: skipped, not supported here (blast exit 4: blast: setsockopt UDP_SEGMENT" "$TMP/$1-gso.err"
	check "$1, no GSO: says every run is skipped" grep -q "^$1: every run was skipped: this kernel lacks what they need" "$TMP/$1-gso.err"
	check "$1, no GSO: one blast run, not one per trial ($(runs blast))" test "$(runs blast)" -eq 1
	check "$1, no GSO: one suck run ($(runs suck))" test "$(runs suck)" -eq 1
	check "$1, no GSO: no failure counted" sh -c "! grep -Eq 'failed|trying it once more' '$TMP/$1-gso.err'"
	check "$1, no GSO: nothing written" test ! -e "$TMP/$1-gso"
	check "$1, no GSO: no suck or blast left running" no_tools_left
}
fresh
sh scripts/suite -t 0.3 -r 2 -W 1 -m "buffer mmsg" -B "-g 16" -o "$TMP/suite-gso" >"$TMP/suite-gso.out" 2>"$TMP/suite-gso.err"
check "suite, no GSO: exit 4 (got $?)" test $? -eq 4
skipped_at_once suite
fresh
sh scripts/ndr -m "buffer mmsg" -s "256 1450" -t 0.3 -B "-g 16" -o "$TMP/ndr-gso" >"$TMP/ndr-gso.out" 2>"$TMP/ndr-gso.err"
check "ndr, no GSO: exit 4 (got $?)" test $? -eq 4
skipped_at_once ndr
fresh
sh scripts/sweep size -m "buffer mmsg" --sizes "256 1450" -t 0.3 -B "-g 16" -o "$TMP/sweep-gso" >"$TMP/sweep-gso.out" 2>"$TMP/sweep-gso.err"
check "sweep, no GSO: exit 4 (got $?)" test $? -eq 4
skipped_at_once sweep

done_tests
