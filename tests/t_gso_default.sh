# blast's default shape of send calls: GSO messages of as many datagrams as fit in 64 KiB when
# nothing asks otherwise; plain sendmmsg when -b, -r or a large -s does; and, where the route
# refuses GSO, a note and plain sendmmsg for the rest of the run with the accounting still
# exact. The refusal is made real in a network namespace whose loopback MTU is below the
# datagram size (GSO segments cannot be fragmented: EMSGSIZE), which needs root and iproute2.
. tests/lib.sh

# shape NAME "GSO BATCH" WHAT BLAST-ARGS...: blast into a fresh suck; checks the pair and that
# blast's report says it sent GSO messages of GSO datagrams, BATCH messages per call.
shape() {
	sh_n=$1 sh_want=$2 sh_what=$3
	shift 3
	if ! start_suck "$sh_n" -w none -o tsv; then
		fail "$sh_n: suck did not start"
		return
	fi
	"$BIN/blast" -p "$PORT" "$@" -o tsv >"$TMP/$sh_n.blast" 2>"$TMP/$sh_n.berr"
	check "$sh_n: blast exits 0" test $? -eq 0
	check "$sh_n: suck ends on the fin" wait_pid "$SUCK_PID" 15
	check "$sh_n: nothing refused on loopback" test ! -s "$TMP/$sh_n.berr"
	check "$sh_n: blast and suck agree on sent" \
		test "$(field "$TMP/$sh_n.blast" sent)" = "$(field "$TMP/$sh_n.out" sent)"
	sh_got="$(field "$TMP/$sh_n.blast" gso) $(field "$TMP/$sh_n.blast" batch)"
	check "$sh_n: $sh_what (gso batch: $sh_got)" test "$sh_got" = "$sh_want"
}

shape default "45 1" "GSO of 45 datagrams of 1450 bytes, one message per call" -t 0.2
# The kernel's segment limit, as blast found it: 128 since Linux 6.9, 64 before.
MAXSEGS=$("$BIN/blast" --check -o tsv | { read -r h; read -r r; echo "$h
$r" >"$TMP/check.tsv"; }; field "$TMP/check.tsv" gso_max_segs)
check "blast found the kernel's segment limit ($MAXSEGS)" test "$MAXSEGS" = 128 -o "$MAXSEGS" = 64
# -s 64: as many segments as the kernel takes, and as many such messages per sendmmsg as fit
# in 64 KiB (8 of 128 x 64 B, 16 of 64 x 64 B).
shape small "$MAXSEGS $((65536 / (MAXSEGS * 64)))" "-s 64: $MAXSEGS datagrams per GSO message, several a call" -t 0.2 -s 64
shape mid "$MAXSEGS $((65536 / (MAXSEGS * 256)))" "-s 256: $MAXSEGS datagrams per message" -t 0.2 -s 256
# -g above the kernel's limit is refused with the limit named.
"$BIN/blast" -p 9 -g $((MAXSEGS + 1)) -t 0.1 >/dev/null 2>"$TMP/g.err"
check "-g $((MAXSEGS + 1)): exit 2" test $? = 2
check "-g $((MAXSEGS + 1)): names the range 1..$MAXSEGS" grep -q "1\.\.$MAXSEGS" "$TMP/g.err"
shape paced "1 32" "-r: no GSO, sendmmsg of 32" -n 2000 -r 20000
shape batch "1 8" "-b 8: no GSO" -t 0.2 -b 8
shape big "1 32" "-s 40000: one fits in 64 KiB, no GSO" -t 0.2 -s 40000
shape plain "1 32" "-g 1: no GSO" -t 0.2 -g 1
shape chosen "10 1" "-g 10: one message of 10 per call" -t 0.2 -g 10

# The refusal: loopback MTU 1200 in a namespace of our own, 1450-byte datagrams.
NS=bs-gso-$$
if [ "$(id -u)" -ne 0 ]; then
	skip "not root: the GSO fallback test needs a network namespace"
elif ! command -v ip >/dev/null 2>&1; then
	skip "no ip: apt-get install -y iproute2"
elif ! { ip netns add "$NS" && ip -n "$NS" link set lo mtu 1200 up; } 2>"$TMP/ip.err"; then
	skip "cannot make a network namespace here: $(head -n 1 "$TMP/ip.err")"
	ip netns del "$NS" 2>/dev/null
else
	trap 'ip netns del "$NS" 2>/dev/null; for p in $PIDS; do kill "$p" 2>/dev/null; done; rm -rf "$TMP"' EXIT
	if start_listener refuse ip netns exec "$NS" "$BIN/suck" -p 0 -w none -R 4M -o tsv; then
		ip netns exec "$NS" "$BIN/blast" -p "$PORT" -n 20000 -o tsv >"$TMP/refuse.blast" 2>"$TMP/refuse.berr"
		check "refused: blast exits 0 ($(head -n 1 "$TMP/refuse.berr"))" test $? -eq 0
		check "refused: suck ends on the fin" wait_pid "$LISTENER_PID" 15
		check "refused: the note names the refusal" \
			grep -q '^blast: note: the route refused UDP GSO (EMSGSIZE); sending with sendmmsg -b 32$' "$TMP/refuse.berr"
		check "refused: said once" test "$(wc -l <"$TMP/refuse.berr")" -eq 1
		check "refused: the report says plain sendmmsg" \
			test "$(field "$TMP/refuse.blast" gso) $(field "$TMP/refuse.blast" batch)" = "1 32"
		check "refused: all 20000 sent, no send error" \
			test "$(field "$TMP/refuse.blast" sent) $(field "$TMP/refuse.blast" errors)" = "20000 0"
		S=$TMP/refuse.out
		check "refused: suck's sent is blast's" test "$(field "$S" sent)" = 20000
		check "refused: sent = valid + lost ($(field "$S" valid) + $(field "$S" lost))" \
			test $(($(field "$S" valid) + $(field "$S" lost))) -eq 20000
		check "refused: datagrams arrived, fragmented and put together again" test "$(field "$S" valid)" -gt 0
		check "refused: none foreign or truncated" test "$(field "$S" foreign) $(field "$S" truncated)" = "0 0"
	else
		fail "refused: suck did not start in the namespace"
	fi
fi

done_tests
