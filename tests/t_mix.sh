# Size mixes (blast -s SIZE:WEIGHT,..., imix, MIN-MAX) on real loopback sockets: every variant
# that runs here, IPv4 and IPv6, counts each size class exactly in datagrams and bytes, believes
# the fins (their bytes the sum of the sizes sent) and checks them exactly; bad specs are refused
# with exit 2 and a message; a fin whose bytes cannot be true is not believed, and one whose bytes
# are believable but not what arrived is reported as a mismatch.
. tests/lib.sh

# mix_run NAME FAM VARIANT BLAST_ARGS...: suck -m VARIANT on FAM, then blast BLAST_ARGS paced so
# that nothing is lost; leaves $TMP/NAME.out (suck, tsv) and $TMP/NAME.blast. 1: no run (the
# variant is not offered here: a skip).
mix_run() {
	mr_n=$1 mr_fam=$2 mr_v=$3
	shift 3
	if ! start_suck "$mr_n" -a "$mr_fam" -m "$mr_v" -o tsv -R 8M --idle 10 -t 30; then
		if grep -q "exit 4\|not offer\|no io_uring\|UDP_GRO" "$TMP/$mr_n.err" 2>/dev/null; then
			skip "$mr_n: $(head -n 1 "$TMP/$mr_n.err")"
		else
			fail "$mr_n: suck did not start"
		fi
		return 1
	fi
	"$BIN/blast" -a "$mr_fam" -p "$PORT" -o tsv "$@" >"$TMP/$mr_n.blast" 2>"$TMP/$mr_n.berr"
	check "$mr_n: blast exits 0 ($(cat "$TMP/$mr_n.berr"))" test $? -eq 0
	check "$mr_n: suck ends on the fins within 10 s" wait_pid "$SUCK_PID" 10
}

# classes FILE: the six classes' datagrams and bytes, as "n/bytes" words.
classes() {
	for c in 0_64 65_256 257_576 577_1024 1025_1500 1501_up; do
		printf '%s/%s ' "$(field "$1" "dgrams_$c")" "$(field "$1" "bytes_$c")"
	done
}

# exact NAME WANT_CLASSES SENT BYTES MIN MAX: the run NAME counted exactly that.
exact() {
	S=$TMP/$1.out B=$TMP/$1.blast
	check "$1: stop fin ($(field "$S" stop))" test "$(field "$S" stop)" = fin
	check "$1: classes $(classes "$S")" test "$(classes "$S")" = "$2"
	check "$1: sent $(field "$S" sent) valid $(field "$S" valid) lost $(field "$S" lost)" \
		test "$(field "$S" sent)/$(field "$S" valid)/$(field "$S" lost)/$(field "$S" sent_estimated)" = "$3/$3/0/0"
	check "$1: received $(field "$S" received) bytes $(field "$S" bytes) bytes_sent $(field "$S" bytes_sent)" \
		test "$(field "$S" received)/$(field "$S" bytes)/$(field "$S" bytes_sent)" = "$3/$4/$4"
	check "$1: bytes_check exact ($(field "$S" bytes_check))" test "$(field "$S" bytes_check)" = exact
	check "$1: size mix $5..$6 ($(field "$S" size) $(field "$S" size_min) $(field "$S" size_max))" \
		test "$(field "$S" size)/$(field "$S" size_min)/$(field "$S" size_max)" = "mix/$5/$6"
	check "$1: blast says $3 datagrams, $4 bytes, size mix" \
		test "$(field "$B" sent)/$(field "$B" bytes)/$(field "$B" size)/$(field "$B" gso)" = "$3/$4/mix/1"
}

# 64:7,576:4,1500:1 has a cycle of 12: 2400 datagrams are 200 cycles, each size exactly its
# weight x 200 times: 1400 x 64, 800 x 576, 200 x 1500 bytes.
want="1400/89600 0/0 800/460800 0/0 200/300000 0/0 "
for v in copy buffer mmsg gro uring epoll pool; do
	for fam in 127.0.0.1 ::1; do
		n=$v-$(echo "$fam" | tr -d ':.')
		mix_run "$n" "$fam" "$v" -s 64:7,576:4,1500:1 -n 2400 -r 40k || continue
		exact "$n" "$want" 2400 850400 64 1500
	done
done

# imix over 3 flows, -n 3600: each flow 1200 datagrams, 100 cycles of 7 x 32, 4 x 524, 1 x 1472.
if mix_run imix 127.0.0.1 mmsg -s imix -j 3 -n 3600 -r 40k; then
	exact imix "2100/67200 0/0 1200/628800 0/0 300/441600 0/0 " 3600 1137600 32 1472
	check "imix: 3 flows" test "$(field "$TMP/imix.out" flows)" = 3
fi
# MIN-MAX: each size of 100..199 once a cycle; 10 cycles.
if mix_run uniform ::1 buffer -s 100-199 -n 1000 -r 40k; then
	exact uniform "0/0 1000/149500 0/0 0/0 0/0 0/0 " 1000 149500 100 199
fi

# Under a run key the fins' tag covers the mix's size word: believed, exact. And a forged mix fin
# (no key, so its tag is wrong) arriving first does not end the run or set its size.
export BS_RUN_KEY=0123456789abcdef0123456789abcdef
RUN=777100
start_suck keyed -m mmsg -o tsv -R 8M --run-id $RUN --idle 10 -t 30 || fail "keyed: suck did not start"
env -u BS_RUN_KEY "$BIN/inject" fin "$PORT" $RUN 100 0 10 1 1500 5000
"$BIN/blast" -p "$PORT" --run-id $RUN -s 64:7,576:4,1500:1 -n 1200 -r 40k -o tsv >"$TMP/keyed.blast" 2>"$TMP/keyed.berr"
check "keyed: suck ends on the fins" wait_pid "$SUCK_PID" 10
S=$TMP/keyed.out
check "keyed: the forgery counted ($(field "$S" forged_fins) $(field "$S" foreign))" \
	test "$(field "$S" forged_fins)/$(field "$S" foreign)" = 1/1
check "keyed: blast's fins believed ($(field "$S" stop) $(field "$S" sent) $(field "$S" size))" \
	test "$(field "$S" stop)/$(field "$S" sent)/$(field "$S" valid)/$(field "$S" size)/$(field "$S" bytes_sent)" = fin/1200/1200/mix/425200
# the forgery (70 bytes) is received and foreign, in its class: the bytes cannot be checked exactly
check "keyed: classes $(classes "$S")" test "$(classes "$S")" = "700/44800 1/70 400/230400 0/0 100/150000 0/0 "
check "keyed: no exact check with a foreign datagram ($(field "$S" bytes_check))" test "$(field "$S" bytes_check)" = -
unset BS_RUN_KEY

# suck --serve: the classes and the size are each run's own (one size, then a mix).
start_suck serve -m mmsg -o tsv -R 8M --serve --runs 2 -t 30 || fail "serve: suck did not start"
"$BIN/inject" run "$PORT" 777200 200 100
while [ "$(awk 'END { print NR }' "$TMP/serve.out")" -lt 2 ] && kill -0 "$SUCK_PID" 2>/dev/null; do sleep 0.01; done
"$BIN/blast" -p "$PORT" -s 1400-1599 -n 400 -r 40k -o tsv >/dev/null 2>&1
check "serve: suck ends after 2 runs" wait_pid "$SUCK_PID" 10
S=$TMP/serve.out
check "serve: sizes per run ($(col "$S" size | tr '\n' ' '))" test "$(col "$S" size | tr '\n' ' ')" = "200 mix "
check "serve: 65-256 per run ($(col "$S" dgrams_65_256 | tr '\n' ' '))" test "$(col "$S" dgrams_65_256 | tr '\n' ' ')" = "100 0 "
# 1400..1599 twice: 1400..1500 (101 sizes) and 1501..1599 (99) each twice
check "serve: 1025-1500 per run ($(col "$S" dgrams_1025_1500 | tr '\n' ' '))" test "$(col "$S" dgrams_1025_1500 | tr '\n' ' ')" = "0 202 "
check "serve: 1501 up per run ($(col "$S" bytes_1501_up | tr '\n' ' '))" test "$(col "$S" bytes_1501_up | tr '\n' ' ')" = "0 306900 "
check "serve: both exact ($(col "$S" bytes_check | tr '\n' ' '))" test "$(col "$S" bytes_check | tr '\n' ' ')" = "exact exact "

# One size: the classes and the fins' check hold for it too, and blast still uses GSO.
if mix_run one 127.0.0.1 mmsg -s 1450 -n 100 -r 40k; then
	S=$TMP/one.out
	check "one: classes $(classes "$S")" test "$(classes "$S")" = "0/0 0/0 0/0 0/0 100/145000 0/0 "
	check "one: size 1450 exact" test "$(field "$S" size)/$(field "$S" size_min)/$(field "$S" bytes_check)" = 1450/1450/exact
fi

# gro: a coalesced buffer (blast's GSO messages, whole on loopback) has one segment size, and
# each segment is counted in its class.
if mix_run gro-gso 127.0.0.1 gro -s 1000 -g 8 -b 1 -n 800 -r 40k; then
	S=$TMP/gro-gso.out
	check "gro-gso: classes $(classes "$S")" test "$(classes "$S")" = "0/0 0/0 0/0 800/800000 0/0 0/0 "
	check "gro-gso: coalesced ($(field "$S" segs_per_buf) per buffer), exact" \
		awk -v s="$(field "$S" segs_per_buf)" -v c="$(field "$S" bytes_check)" 'BEGIN { exit !(s > 1 && c == "exact") }'
fi

# Sizes limits as for -s N: IPv6 allows up to 65527, IPv4 65507.
"$BIN/blast" -a ::1 -s 100:1,65527:1 --check -o tsv >"$TMP/v6.chk" 2>&1
check "a mix up to 65527 on IPv6 ($(tail -n 1 "$TMP/v6.chk"))" test "$(field "$TMP/v6.chk" mix)" = 100:1,65527:1
check "blast --check with a mix: no GSO" test "$(field "$TMP/v6.chk" gso)/$(field "$TMP/v6.chk" size)" = 1/mix

# Bad specs: exit 2, the message names -s and what is wrong.
bad() { # WHAT WORD ARGS...: blast ARGS exits 2 with WORD in its message
	bd_what=$1 bd_word=$2
	shift 2
	"$BIN/blast" --check "$@" >/dev/null 2>"$TMP/bad.err"
	bd_st=$?
	check "$bd_what: exit 2 ($bd_st: $(cat "$TMP/bad.err"))" test $bd_st -eq 2
	check "$bd_what: the message says $bd_word" grep -q -- "$bd_word" "$TMP/bad.err"
}
bad "weight 0" "weight '0'" -s 64:0,576:1
bad "size too small" "size '31'" -s 31:1,576:1
bad "size too large for IPv4" "size '65508'" -s 64:1,65508:1
bad "size too large for IPv6" "size '65528'" -a ::1 -s 64:1,65528:1
bad "MIN > MAX" "MIN < MAX" -s 200-100
bad "MIN == MAX" "MIN < MAX" -s 100-100
bad "MIN too small" "MIN '8'" -s 8-100
bad "garbage weight" "weight 'x'" -s 64:x,576:1
bad "garbage size" "size 'abc'" -s abc:1,64:1
bad "no weight" "not SIZE:WEIGHT" -s 64,576:1
bad "empty part" "not SIZE:WEIGHT" -s 64:7,,576:1
bad "one size" "two sizes" -s 64:1
bad "a size twice" "twice" -s 64:1,64:2
bad "weights over the cycle" "add up" -s 64:65536,576:1
bad "-g with a mix" "one segment size" -s 64:1,576:1 -g 8
bad "--rtt with a mix" "round trip" -s 64:1,576:1 --rtt

# Fins of a mix that cannot be true are not believed: bytes outside sent x min..max.
RUN=777001
start_suck forged -m mmsg -o tsv --run-id $RUN -t 1.5 || fail "forged: suck did not start"
"$BIN/inject" fin "$PORT" $RUN 100 0 10 1 1500 15001 # more than 10 x 1500
"$BIN/inject" fin "$PORT" $RUN 100 0 10 1 1500 999   # less than 10 x 100
"$BIN/inject" fin "$PORT" $RUN 100 0 10 1 100 1000  # min == max: no mix
wait_pid "$SUCK_PID" 10
S=$TMP/forged.out
check "forged: no fin believed, suck waits for -t ($(field "$S" stop) $(field "$S" fins))" \
	test "$(field "$S" stop)/$(field "$S" fins)/$(field "$S" size)" = "time/0/-"
# ... and one within them is (sent 10, none arrived: the bytes cannot be checked exactly).
RUN=777002
start_suck inrange -m mmsg -o tsv --run-id $RUN -t 20 || fail "inrange: suck did not start"
"$BIN/inject" fin "$PORT" $RUN 100 0 10 1 1500 5000
wait_pid "$SUCK_PID" 10
S=$TMP/inrange.out
check "inrange: the fin is believed ($(field "$S" stop) sent $(field "$S" sent))" \
	test "$(field "$S" stop)/$(field "$S" sent)/$(field "$S" lost)/$(field "$S" bytes_sent)" = fin/10/10/5000
check "inrange: lost, so no exact check ($(field "$S" bytes_check))" test "$(field "$S" bytes_check)" = -
# A whole run whose fin's bytes are believable but not what arrived, though all of it arrived:
# a mismatch, said on stderr.
for c in exact:10000 mismatch:10001; do
	RUN=$((RUN + 1)) k=${c%%:*} b=${c#*:}
	start_suck "run-$k" -m mmsg -o tsv --run-id $RUN -R 4M -t 20 || fail "run-$k: suck did not start"
	"$BIN/inject" run "$PORT" $RUN 100 100 1500 "$b"
	wait_pid "$SUCK_PID" 10
	S=$TMP/run-$k.out
	check "run-$k: bytes_check $k ($(field "$S" bytes_check) bytes $(field "$S" bytes) sent $(field "$S" bytes_sent))" \
		test "$(field "$S" bytes_check)/$(field "$S" stop)/$(field "$S" valid)" = "$k/fin/100"
done
check "run-mismatch: suck warns" grep -q "bytes_check mismatch" "$TMP/run-mismatch.err"
check "run-exact: no warning" test ! -s "$TMP/run-exact.err" -o "$(grep -c mismatch "$TMP/run-exact.err")" = 0

# The suite takes a mix and passes it through: its table says so, blast sent it; a sweep or an
# NDR search, one size a trial, refuses one (exit 2, saying where mixes go).
D=$TMP/suite
sh scripts/suite -t 0.2 -r 1 -W 0 -P -m mmsg -s imix -o "$D" >"$TMP/suite.out" 2>"$TMP/suite.err"
st=$?
check "suite -s imix exits 0 ($st: $(tail -n 2 "$TMP/suite.err"))" test $st -eq 0
check "suite: table.md names the mix" grep -q "datagrams of the size mix imix" "$D/table.md"
check "suite: env.txt keeps it" grep -q "^size_bytes: imix$" "$D/env.txt"
check "suite: table.md has the size classes" grep -q "^Size mix imix: the share" "$D/table.md"
# imix is 7, 4 and 1 in 12: 58.3 %, 33.3 % and 8.3 % of what was sent (a run cut by -t ends
# within a cycle, and an unpaced run may lose some, not evenly over the sizes: about those)
check "suite: imix's classes in their shares" \
	awk -F' *[|] *' '$2 == "mmsg" && $3 ~ /^5[5-9]\.[0-9] %$/ && $4 ~ /^3[1-5]\.[0-9] %$/ && $5 ~ /^[6-9]\.[0-9] %$/ { ok = 1 } END { exit !ok }' "$D/table.md"
check "suite: blast sent the mix" grep -q "	mix	imix	316.0	" "$D"/raw/mmsg-*.blast.tsv
sh scripts/suite -t 0.2 -r 1 -W 0 -P -m mmsg -s 64:0,576:1 -o "$TMP/suite2" >/dev/null 2>"$TMP/suite2.err"
check "suite: a bad mix is exit 2 ($?)" grep -q "weight '0'" "$TMP/suite2.err"
sh scripts/sweep size -m mmsg --sizes "64 64:1,576:1" -o "$TMP/sweep" >/dev/null 2>"$TMP/sweep.err"
st=$?
check "sweep size: a mix is exit 2 ($st)" test $st -eq 2
check "sweep size: says mixes are the suite's" grep -q "size mix is for scripts/suite" "$TMP/sweep.err"
sh scripts/ndr -m mmsg -s imix -o "$TMP/ndr" >/dev/null 2>"$TMP/ndr.err"
st=$?
check "ndr: a mix is exit 2 ($st)" test $st -eq 2

done_tests
