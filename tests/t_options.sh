# Bad command lines: exit 2 and a message that names the option; good ones are accepted.
. tests/lib.sh

bad() { # tool expected-text args...: exits 2 and says expected-text on stderr
	tool=$1 want=$2; shift 2
	"$BIN/$tool" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
	st=$?
	if [ $st -ne 2 ]; then fail "$tool $*: exit $st, want 2"; return; fi
	if ! grep -q -- "$want" "$TMP/err"; then fail "$tool $*: message lacks '$want': $(cat "$TMP/err")"; return; fi
	if [ -s "$TMP/out" ]; then fail "$tool $*: wrote to stdout on a usage error"; return; fi
	ok
}

bad blast "-s '20'" -s 20
bad blast "out of range 4096..1073741824" --sndbuf 1k
bad blast "--via packet with --sndbuf" --via packet --sndbuf 1M -a 198.18.0.2
bad blast "32..65507" -s 70000
bad blast "-s '1450x'" -s 1450x
bad blast "-s '-5'" -s -5
bad blast "65527" -a ::1 -s 65530
bad blast "-t 'abc'" -t abc
bad blast "-t '1e3'" -t 1e3
bad blast "-t '-1'" -t -1
bad blast "-t '5h'" -t 5h
bad blast "-t 0 needs -n" -t 0
bad blast "-n '0'" -n 0
bad blast "-n '10q'" -n 10q
bad blast "-p '0'" -p 0
bad blast "-p '65536'" -p 65536
bad blast "-p '22 '" -p "22 "
bad blast "-r '1.5'" -r 1.5
bad blast "-b '0'" -b 0
bad blast "-b '2000'" -b 2000
# -g's range is the kernel's (gso_max_segs: 128 since Linux 6.9, 64 before): beyond either,
# out of range; 65 is out of range only where the kernel takes 64.
bad blast "-g '129'" -g 129
if "$BIN/blast" --check -p 9 -s 32 -g 65 >/dev/null 2>&1; then
	bad blast "-g 65 with -s 1450: a GSO message is at most" -g 65
else
	bad blast "-g '65'" -g 65
fi
bad blast "a GSO message is at most" -g 64 -s 1450
bad blast "-j '0'" -j 0
bad blast "-j '65'" -j 65
bad blast "less than -j" -j 4 -n 3
bad blast "--run-id '0'" --run-id 0
bad blast "--run-id '4294967296'" --run-id 4294967296
bad blast "--payload 'ones'" --payload ones
bad blast "-o 'xml'" -o xml
bad blast "-i '0'" -i 0
bad blast "--cpu '999'" --cpu 999
bad blast "unknown option '--frobnicate'" --frobnicate
bad blast "needs a value" -s
bad blast "unexpected argument 'extra'" extra
bad blast "-a 'no.such.host.invalid'" -a no.such.host.invalid

bad suck "-p '65536'" -p 65536
bad suck "-m 'ring'" -m ring
bad suck "accepted: $(variants | paste -s -d , - | sed 's/,/, /g') (try" -m ring
bad suck "-w 'histo'" -w histo
bad suck "-w 'histogram:0'" -w histogram:0
bad suck "-b applies to -m mmsg" -m buffer -b 8
bad suck "-b '0'" -m mmsg -b 0
bad suck "-b '4096'" -m mmsg -b 4096
bad suck "--retain applies to -m copy" -m mmsg --retain 10
bad suck "--retain '200000'" -m copy --retain 200000
bad suck "-s '0'" -s 0
bad suck "-s '70000'" -s 70000
bad suck "-R '1'" -R 1
bad suck "-R '2G'" -R 2G
bad suck "-j '0'" -j 0
bad suck "-j '65'" -j 65
bad suck "--idle 'soon'" --idle soon
bad suck "-t '-1'" -t -1
bad suck "-o 'csv'" -o csv
bad suck "unknown option '-x'" -x
bad suck "-a '300.1.1.1'" -a 300.1.1.1

# Good command lines parse (suck -t ends at once; -h and -V exit 0 on stdout).
for tool in blast suck; do
	check "$tool -h exits 0 and prints usage" sh -c "'$BIN/$tool' -h | grep -q '^usage: $tool'"
	check "$tool -V prints the version" sh -c "'$BIN/$tool' -V | grep -q '^$tool [0-9a-g]'"
done
check "suck takes units" "$BIN/suck" -p 0 -t 10ms -R 256k -s 2k -w checksum:2 -o json -i 1s --idle 0.5m
check "suck takes long options" "$BIN/suck" --port 0 --time 10ms --variant mmsg --batch 1k --threads 2
check "blast takes units" "$BIN/blast" -p 9 -n 1 -s 1k -r 1M -t 1m -o tsv

# Batch defaults: 32 datagrams per recvmmsg for mmsg, 8 buffers (up to 64 KiB each) for gro;
# -b overrides both.
batch_of() { "$BIN/suck" -p 0 -t 10ms -o tsv "$@" 2>/dev/null | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "batch") c = i } NR == 2 { print $c }'; }
check "suck -m mmsg: batch 32 ($(batch_of -m mmsg))" test "$(batch_of -m mmsg)" = 32
check "suck -m gro: batch 8 ($(batch_of -m gro))" test "$(batch_of -m gro)" = 8
check "suck -m gro -b 32: batch 32" test "$(batch_of -m gro -b 32)" = 32
check "suck -m buffer: batch 1 (one call a datagram)" test "$(batch_of -m buffer)" = 1

# suck -m list: every variant, name TAB description, for scripts (and the tests, through
# variants): the variants -h describes, each one a -m that suck takes.
"$BIN/suck" -m list >"$TMP/list" 2>&1
check "suck -m list exits 0" test $? = 0
check "suck -m list: a name, a tab and what it does on every line" \
	sh -c "! grep -qv '^[a-z][a-z0-9]*	[^	][^	]*\$' '$TMP/list'"
check "suck -m list: at least the five variants ($(wc -l <"$TMP/list"))" test "$(wc -l <"$TMP/list")" -ge 5
"$BIN/suck" -h >"$TMP/help"
check "suck -h describes as many variants as -m list" \
	test "$(grep -c '^                         [a-z]' "$TMP/help")" = "$(wc -l <"$TMP/list")"
for v in $(variants); do
	check "suck -h describes $v" grep -q "^                         $v  *[^ ]" "$TMP/help"
	"$BIN/suck" --check -m "$v" >/dev/null 2>&1
	st=$?
	check "suck takes -m $v (exit $st: 0, or 4 where the kernel lacks it)" test $st = 0 -o $st = 4
done

# What stdout did not take is a failure: -h, -V, -m list and --check into a
# full stdout exit 1 and say so, as a report does; the scripts read -m list this way.
if [ -w /dev/full ]; then
	full() { # description args...: tool args >/dev/full exits 1 and names the write
		fd=$1; shift
		"$@" >/dev/full 2>"$TMP/full.err" </dev/null
		st=$?
		check "$fd >/dev/full: exit $st, want 1" test $st = 1
		check "$fd >/dev/full: says so: $(cat "$TMP/full.err")" grep -q 'No space left on device' "$TMP/full.err"
	}
	for tool in blast suck; do
		full "$tool -h" "$BIN/$tool" -h
		full "$tool -V" "$BIN/$tool" -V
	done
	full "blast --check" "$BIN/blast" --check -p 9
	full "suck --check" "$BIN/suck" --check -p 0
	full "suck -m list" "$BIN/suck" -m list
else
	skip "no /dev/full"
fi

# --sndbuf: the socket's send buffer as the kernel granted it (root: past wmem_max), the
# default's when not given; a stream sent through it all the same
"$BIN/blast" -p 9 -n 100 --sndbuf 4M -o tsv >"$TMP/sb.tsv" 2>/dev/null
"$BIN/blast" -p 9 -n 100 -o tsv >"$TMP/sb0.tsv" 2>/dev/null
sb=$(field "$TMP/sb.tsv" sndbuf) sb0=$(field "$TMP/sb0.tsv" sndbuf)
if [ "$(id -u)" = 0 ]; then
	check "--sndbuf 4M as root: granted 4M ($sb)" test "$sb" = 4194304
else
	check "--sndbuf 4M: granted a number ($sb)" test "$sb" -gt 0
fi
check "no --sndbuf: the default's, a number ($sb0)" test "$sb0" -gt 0
check "--sndbuf: sent 100 ($(field "$TMP/sb.tsv" sent))" test "$(field "$TMP/sb.tsv" sent)" = 100

done_tests
