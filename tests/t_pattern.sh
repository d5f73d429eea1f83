# blast --pattern and suck --gaps on loopback. Under every pattern the accounting is exact
# (suck's sent is blast's, sent == valid + lost with nothing lost, received adds up, and suck
# --gaps has a gap for every valid datagram but each flow's first), and suck's measured mean gap
# is within 5 % of blast's achieved one (flows over its pps: a stall of blast's, which skips what
# fell due meanwhile, lengthens both). The fidelity figures against known schedules, Poisson:
# at 20k/s, 40000 datagrams, blast's drawn cv 0.95..1.05 and mean gap within 5 % of 1/rate (the
# schedule, the same every run: a fixed seed), suck's measured mean within 5 % of 1/rate when
# blast kept the rate (rate_pct 97 or more), its cv at least 0.7 and its 99th percentile at
# least 3 means (an exponential's: 1 and ln 100 = 4.6). The measured shape is checked at 2k/s:
# cv 0.7..1.5, median 0.5..0.9 of the mean (ln 2), 99th percentile 3..10 means (a busy CI run's
# stalls put it at 7.9 once; the median tells Poisson from bursts, the floor from even). Not at
# 20k/s: there a wake a few us late sends what fell due meanwhile in one call (cv 1.1..1.2 on an
# idle machine), and a busy machine's stalls, a scheduler's slice of a few ms each, add
# (stall x rate)^2 / gaps to the cv's square apiece: 0.25 at 20k/s for 5 ms, 0.0025 at 2k/s
# (measured on this 2-CPU machine under load: cv 1.7..2.2 at 20k/s, 1.05 at 2k/s). A stall above
# 20 ms (blast's gap_max_us) moves even 2k/s's cv: up to three tries, then a visible SKIP.
# burst:N shows as a median arrival gap near 0 and a 99th percentile near the bursts' period, in
# every variant that receives here. Bad specs exit 2 naming the spec. suck has a 4 MiB buffer,
# and the rates are far below what loopback carries.
. tests/lib.sh

# within V LO HI: LO <= V <= HI, decimals
within() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v != "" && v != "-" && v + 0 >= lo && v + 0 <= hi) }'; }

# Bad specs, and patterns with options they do not go with: exit 2, the spec named.
for sp in poisson:x burst:0 burst burst:x frames:0:1:1 frames:30:0:0 frames:30:100 frames:30:1:1:1 odd; do
	"$BIN/blast" --check -r 1k --pattern "$sp" >"$TMP/bad.out" 2>"$TMP/bad.err"
	st=$?
	check "--pattern $sp: exit 2 ($st)" test $st -eq 2
	check "--pattern $sp: named on stderr" grep -q -- "--pattern '$sp'" "$TMP/bad.err"
	check "--pattern $sp: nothing on stdout" test ! -s "$TMP/bad.out"
done
for args in "--pattern poisson" "--pattern burst:4" "--pattern frames:30:1000:0 -r 10" \
	"--pattern frames:30:1000:0 -s 64:1,128:1" "--pattern poisson -r 1k --rtt"; do
	# shellcheck disable=SC2086 # the arguments are words
	"$BIN/blast" --check $args >/dev/null 2>"$TMP/bad.err"
	st=$?
	check "blast $args: exit 2 ($st): $(cat "$TMP/bad.err")" test $st -eq 2
done
"$BIN/suck" --check -p 0 -m mmsg -j 2 --one-socket --gaps >/dev/null 2>"$TMP/bad.err"
check "suck --one-socket --gaps: exit 2" test $? -eq 2

# --check rows: the pattern, a burst's call, frames' rate; suck's gaps.
"$BIN/blast" --check -r 1k --pattern burst:100 -o tsv >"$TMP/c.tsv"
check "--check: pattern burst:100" test "$(field "$TMP/c.tsv" pattern)" = burst:100
check "--check: a burst of 100 in one call (batch $(field "$TMP/c.tsv" batch))" test "$(field "$TMP/c.tsv" batch)" = 100
"$BIN/blast" --check -r 1k -b 8 --pattern burst:100 -o tsv >"$TMP/c.tsv"
check "--check: -b 8 kept" test "$(field "$TMP/c.tsv" batch)" = 8
"$BIN/blast" --check -s 1000 --pattern frames:200:8000:2000 -o tsv >"$TMP/c.tsv"
check "--check: frames set the rate, 200 x 8.5 ($(field "$TMP/c.tsv" rate))" within "$(field "$TMP/c.tsv" rate)" 1650 1750
"$BIN/blast" --check -o tsv >"$TMP/c.tsv"
check "--check: even by default" test "$(field "$TMP/c.tsv" pattern)" = even
"$BIN/suck" --check -p 0 --gaps -o tsv >"$TMP/c.tsv" 2>/dev/null
check "suck --check: gaps 1" test "$(field "$TMP/c.tsv" gaps)" = 1

# pair NAME "SUCK ARGS" BLAST ARGS...: blast into a fresh suck --gaps, for at most 20 s unless
# the arguments say less; B and S the reports.
pair() {
	p_n=$1 p_s=$2
	shift 2
	B=$TMP/$p_n.blast S=$TMP/$p_n.out
	# shellcheck disable=SC2086 # the suck arguments are words
	if ! start_suck "$p_n" -w none -R 4M -o tsv -t 60 --gaps $p_s; then
		fail "$p_n: suck did not start"
		return 1
	fi
	"$BIN/blast" -p "$PORT" -t 20 "$@" -o tsv >"$B" 2>"$TMP/$p_n.berr"
	check "$p_n: blast exits 0" test $? -eq 0
	check "$p_n: suck ends on the fins" wait_pid "$SUCK_PID" 30
	check "$p_n: stop fin" test "$(field "$S" stop)" = fin
}

# achieved NAME: suck's measured mean gap within 5 % of blast's achieved one (flows / its pps).
achieved() {
	a_want=$(awk -v f="$(field "$B" flows)" -v p="$(field "$B" pps)" 'BEGIN { print (p > 0 ? f * 1e6 / p : 0) }')
	check "$1: suck's mean gap $(field "$S" arrival_gap_mean_us) us within 5 % of blast's achieved $a_want us" \
		within "$(field "$S" arrival_gap_mean_us)" "$(awk -v w="$a_want" 'BEGIN { print w * 0.95 }')" \
		"$(awk -v w="$a_want" 'BEGIN { print w * 1.05 }')"
}

# exact NAME: every datagram counted; one gap per valid datagram but each flow's first.
exact() {
	e_sent=$(field "$B" sent) e_valid=$(field "$S" valid)
	check "$1: suck's sent $(field "$S" sent) is blast's $e_sent" test "$(field "$S" sent)" = "$e_sent"
	check "$1: sent == valid + lost" test "$e_sent" -eq $((e_valid + $(field "$S" lost)))
	check "$1: nothing lost ($(field "$S" lost))" test "$(field "$S" lost)" -eq 0
	check "$1: received == valid + dup + late + foreign + truncated" test "$(field "$S" received)" -eq \
		$((e_valid + $(field "$S" dup) + $(field "$S" late) + $(field "$S" foreign) + $(field "$S" truncated)))
	check "$1: arrival_gap_samples $(field "$S" arrival_gap_samples) == valid - flows" \
		test "$(field "$S" arrival_gap_samples)" -eq $((e_valid - $(field "$S" flows)))
	check "$1: blast's pattern $(field "$B" pattern)" test "$(field "$B" pattern)" = "$2"
}

# ratio A B: A / B
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { print (b > 0 ? a / b : 0) }'; }

# Poisson at 20k/s: the schedule's figures, the measured mean.
if pair poisson "" -s 64 -r 20k -n 40000 --pattern poisson; then
	exact poisson poisson
	achieved poisson
	cv=$(field "$B" pattern_gap_cv) mean=$(field "$B" pattern_gap_mean_us)
	check "poisson: blast's drawn cv $cv in 0.95..1.05" within "$cv" 0.95 1.05
	check "poisson: blast's drawn mean gap $mean us in 47.5..52.5" within "$mean" 47.5 52.5
	mean=$(field "$S" arrival_gap_mean_us) cv=$(field "$S" arrival_gap_cv) p99=$(field "$S" arrival_gap_p99_us)
	echo "poisson 20k/s: blast cv $(field "$B" pattern_gap_cv) mean $(field "$B" pattern_gap_mean_us) us," \
		"rate_pct $(field "$B" rate_pct), largest call gap $(field "$B" gap_max_us) us; suck cv $cv mean $mean us" \
		"p50 $(field "$S" arrival_gap_p50_us) p99 $p99 max $(field "$S" arrival_gap_max_us)"
	if within "$(field "$B" rate_pct)" 97 200; then
		check "poisson: suck's measured mean gap $mean us in 47.5..52.5" within "$mean" 47.5 52.5
	else
		skip "poisson: the mean against 1/rate: blast kept $(field "$B" rate_pct) % of the rate (a busy machine)"
	fi
	check "poisson: suck's measured cv $cv at least 0.7" within "$cv" 0.7 1e9
	check "poisson: suck's p99 $p99 us at least 3 means" within "$(ratio "$p99" "$mean")" 3 1e9
fi

# Poisson at 2k/s: the measured shape.
for try in 1 2 3; do
	n=poisson-2k-$try
	pair "$n" "" -s 64 -r 2k -n 4000 --pattern poisson || break
	exact "$n" poisson
	achieved "$n"
	mean=$(field "$S" arrival_gap_mean_us) cv=$(field "$S" arrival_gap_cv)
	p50=$(field "$S" arrival_gap_p50_us) p99=$(field "$S" arrival_gap_p99_us)
	echo "$n: blast cv $(field "$B" pattern_gap_cv) mean $(field "$B" pattern_gap_mean_us) us," \
		"largest call gap $(field "$B" gap_max_us) us; suck cv $cv mean $mean us p50 $p50 p99 $p99"
	if within "$(field "$B" gap_max_us)" 0 20000; then
		# suck's own stalls bend the shape too: a try that misses it is made again, the
		# last one counts.
		if [ $try -lt 3 ] && ! { within "$cv" 0.7 1.5 && within "$(ratio "$p50" "$mean")" 0.5 0.9 &&
			within "$(ratio "$p99" "$mean")" 3 10; }; then
			echo "$n: the shape missed (a busy machine?): trying again"
			continue
		fi
		check "$n: suck's measured cv $cv in 0.7..1.5" within "$cv" 0.7 1.5
		check "$n: suck's median $p50 us 0.5..0.9 of the mean" within "$(ratio "$p50" "$mean")" 0.5 0.9
		check "$n: suck's p99 $p99 us 3..10 means" within "$(ratio "$p99" "$mean")" 3 10
		break
	fi
	[ $try -eq 3 ] && skip "poisson 2k/s: the measured shape: a stall of blast's above 20 ms in each of 3 tries (a busy machine)"
done

# Several flows: each its own Poisson process at rate / flows; gaps per flow.
if pair poisson-j3 "-m mmsg -j 2" -s 200 -r 15k -n 15000 -j 3 --pattern poisson; then
	exact poisson-j3 poisson
	check "poisson -j 3: blast's drawn cv $(field "$B" pattern_gap_cv)" within "$(field "$B" pattern_gap_cv)" 0.95 1.05
	achieved poisson-j3
fi

# burst:16 at 20k/s: a burst every 800 us, one call each.
if pair burst "" -s 64 -r 20k -n 16000 --pattern burst:16; then
	exact burst burst:16
	check "burst: blast's drawn cv $(field "$B" pattern_gap_cv), sqrt 15" within "$(field "$B" pattern_gap_cv)" 3.8 3.95
	check "burst: blast's mean gap $(field "$B" pattern_gap_mean_us) us" within "$(field "$B" pattern_gap_mean_us)" 47.5 52.5
	check "burst: a call a burst ($(field "$B" calls) calls)" within "$(field "$B" calls)" 500 1000
	check "burst: suck's p50 $(field "$S" arrival_gap_p50_us) us near 0" within "$(field "$S" arrival_gap_p50_us)" 0 80
	check "burst: suck's p99 $(field "$S" arrival_gap_p99_us) us near the period" within "$(field "$S" arrival_gap_p99_us)" 400 2000
	achieved burst
fi

# frames: 200 a second of N(8000, 2000) bytes in datagrams of 1000: about 8.5 each.
if pair frames "" -s 1000 -t 1 --pattern frames:200:8000:2000; then
	exact frames frames:200:8000:2000
	rate=$(field "$B" rate)
	check "frames: rate $rate near 1700" within "$rate" 1650 1750
	check "frames: blast's mean gap $(field "$B" pattern_gap_mean_us) us near 1/rate" \
		within "$(field "$B" pattern_gap_mean_us)" "$(awk -v r="$rate" 'BEGIN { print 0.95e6 / r }')" \
		"$(awk -v r="$rate" 'BEGIN { print 1.05e6 / r }')"
	check "frames: suck's p50 $(field "$S" arrival_gap_p50_us) us near 0" within "$(field "$S" arrival_gap_p50_us)" 0 500
	check "frames: suck's p99 $(field "$S" arrival_gap_p99_us) us near 5 ms" within "$(field "$S" arrival_gap_p99_us)" 2500 10000
	achieved frames
fi

# even, and a size mix under Poisson: counted exactly.
if pair even "" -s 200 -r 10k -n 10000; then
	exact even even
	check "even: the schedule's cv 0" test "$(field "$B" pattern_gap_cv)" = 0.0000
	achieved even
fi
if pair mix "" -s imix -r 10k -n 10000 --pattern poisson; then
	exact mix poisson
fi

# Every variant that receives on loopback sees the bursts: p50 near 0, p99 near the period (1 ms:
# 0.5..5 ms; even spacing at this rate puts it at 0.125 ms). A stall of either tool's bends the
# gaps: a try that misses is made again, the third counts (gro at 3.28 ms in all three once).
for v in $(variants); do
	for try in 1 2 3; do
		n=burst-$v
		if ! start_suck "$n" -m "$v" -w none -R 4M -o tsv -t 60 --gaps; then
			skip "$n: $(cat "$TMP/$n.err")"
			break
		fi
		B=$TMP/$n.blast S=$TMP/$n.out
		"$BIN/blast" -p "$PORT" -s 200 -r 8k -n 4000 -t 20 --pattern burst:8 -o tsv >"$B" 2>/dev/null
		wait_pid "$SUCK_PID" 30
		p50=$(field "$S" arrival_gap_p50_us) p99=$(field "$S" arrival_gap_p99_us)
		if [ $try -lt 3 ] && ! { within "$p50" 0 100 && within "$p99" 500 5000; }; then
			echo "$n: p50 $p50 us, p99 $p99 us: missed the shape (a busy machine?): trying again"
			continue
		fi
		check "$n: suck ended" test "$(field "$S" stop)" = fin
		exact "$n" burst:8
		check "$n: p50 $p50 us near 0" within "$p50" 0 100
		check "$n: p99 $p99 us near 1 ms" within "$p99" 500 5000
		break
	done
done

# Off: the keys say '-' (json null), and the setting 0.
if start_suck off -o tsv -t 30; then
	"$BIN/blast" -p "$PORT" -n 100 -t 10 -r 10k -o tsv >/dev/null 2>&1
	wait_pid "$SUCK_PID" 20
	check "off: gaps 0" test "$(field "$TMP/off.out" gaps)" = 0
	for k in arrival_gap_samples arrival_gap_mean_us arrival_gap_cv arrival_gap_p50_us arrival_gap_p99_us arrival_gap_max_us; do
		check "off: $k -" test "$(field "$TMP/off.out" $k)" = -
	done
else
	fail "off: suck did not start"
fi
"$BIN/blast" -p 9 -n 10 -t 5 -o tsv >"$TMP/unpaced.tsv" 2>/dev/null
check "unpaced: pattern even, its figures -" test "$(field "$TMP/unpaced.tsv" pattern)/$(field "$TMP/unpaced.tsv" pattern_gap_cv)" = "even/-"

done_tests
