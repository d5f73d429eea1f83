# No circles between the parts of a program: no .c file of suck/ (or blast/, common/) uses a
# header whose part calls back into it. A part is NAME.c with NAME.h; it uses b.h when its .c or
# .h includes it; b calls back into a when code in b.c, or in an inline function of b.h, calls a
# function that a.c exports or a.h defines inline. Calls through a pointer (rx->hooks->take,
# v->run) are what breaks a circle, and are not counted. The checker parses the sources with
# awk (comments and strings left out, braces counted): no compiler needed. It must find a
# circle made up in a copy of the tree, of each kind.
. tests/lib.sh

# parts DIR...: for every .c and .h of DIR, its lines "inc PART HEADER", "def PART NAME
# static|extern" (a function defined at file scope) and "call PART NAME" (a name followed by
# "(" inside a body, not after -> or .); PART is the file's name without .c or .h.
parts() {
	for f in "$@"; do
		for s in "$f"/*.c "$f"/*.h; do [ -e "$s" ] && echo "$s"; done
	done | xargs awk '
	FNR == 1 { part = FILENAME; sub(/^.*\//, "", part); sub(/\.[ch]$/, "", part)
		   hdr = FILENAME ~ /\.h$/; depth = 0; pend = ""; incom = 0 }
	/^[ \t]*#[ \t]*include[ \t]*"/ { h = $0; sub(/^[^"]*"/, "", h); sub(/".*/, "", h)
		sub(/\.h$/, "", h); print "inc", part, h; next }
	/^[ \t]*#/ && !incom { cont = /\\$/; next }
	cont { cont = /\\$/; next }
	{
		# the code of the line: comments, strings and character constants left out
		s = $0; code = ""
		while (s != "") {
			if (incom) {
				i = index(s, "*/")
				if (!i) { s = ""; break }
				s = substr(s, i + 2); incom = 0; continue
			}
			if (!match(s, /\/\*|\/\/|"|'\''/)) { code = code s; break }
			code = code substr(s, 1, RSTART - 1)
			t = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH)
			if (t == "/*") { incom = 1; continue }
			if (t == "//") break
			# a string or character constant: to its closing quote, escapes skipped
			while (s != "") {
				c = substr(s, 1, 1)
				if (c == "\\") { s = substr(s, 3); continue }
				s = substr(s, 2)
				if (c == t) break
			}
			code = code " "
		}
		# at file scope a function definition: a line from column 0 with NAME( and then a
		# { before any ;
		if (depth == 0 && code ~ /^[A-Za-z_]/ && code ~ /[A-Za-z_][A-Za-z0-9_]*\(/) {
			rest = code; pend = ""
			while (match(rest, /[A-Za-z_][A-Za-z0-9_]*\(/)) {
				n = substr(rest, RSTART, RLENGTH - 1); rest = substr(rest, RSTART + RLENGTH)
				if (n != "__attribute__") { pend = n; break }
			}
			pstatic = code ~ /^static/ && !hdr
		}
		for (i = 1; i <= length(code); i++) {
			c = substr(code, i, 1)
			if (c == ";" && depth == 0)
				pend = ""
			else if (c == "{") {
				if (depth == 0 && pend != "") {
					print "def", part, pend, pstatic ? "static" : "extern"
					pend = ""
				}
				depth++
			} else if (c == "}")
				depth--
			else if (depth > 0 && c ~ /[A-Za-z_]/ && (i == 1 || substr(code, i - 1, 1) !~ /[A-Za-z0-9_]/)) {
				if (match(substr(code, i), /^[A-Za-z_][A-Za-z0-9_]*/)) {
					n = substr(code, i, RLENGTH); j = i + RLENGTH
					before = substr(code, 1, i - 1); sub(/[ \t]+$/, "", before)
					if (substr(code, j, 1) == "(" && before !~ /(->|\.)$/)
						print "call", part, n
					i = j - 1
				}
			}
		}
	}'
}

# circles DIR...: "A uses B.h; B calls back into A: NAMES" for every such pair of parts.
circles() {
	parts "$@" | awk '
	$1 == "inc" { inc[$2 SUBSEP $3] = 1; next }
	$1 == "def" { defs[$2 SUBSEP $3] = 1; if ($4 != "static") pub[$3] = $2; next }
	$1 == "call" { calls[$2 SUBSEP $3] = 1 }
	END {
		for (k in calls) {
			split(k, p, SUBSEP); b = p[1]; n = p[2]
			if ((b SUBSEP n) in defs || !(n in pub)) continue
			a = pub[n]
			if (a != b && (a SUBSEP b) in inc) back[a SUBSEP b] = back[a SUBSEP b] " " n
		}
		for (k in back) {
			split(k, p, SUBSEP)
			print p[1] " uses " p[2] ".h; " p[2] " calls back into " p[1] ":" back[k]
		}
	}' | LC_ALL=C sort
}

for d in suck blast common; do
	circles "$d" common >"$TMP/$d.out"
	if [ -s "$TMP/$d.out" ]; then
		while read -r line; do fail "$d/: $line"; done <"$TMP/$d.out"
	else
		ok
	fi
done
# what the checker sees: the functions of rx.c and the parts that include rx.h
parts suck >"$TMP/parts"
check "the checker finds rx.c's functions" grep -qx 'def rx rx_init extern' "$TMP/parts"
check "the checker finds rx.h's inline functions" grep -qx 'def rx rx_take_as extern' "$TMP/parts"
check "the checker finds a static function as static" grep -qx 'def rx clock_read static' "$TMP/parts"
check "the checker finds calls in a body" grep -qx 'call rx clock_read' "$TMP/parts"
check "the checker finds includes" grep -qx 'inc variant rx' "$TMP/parts"
check "no call through a pointer is counted" sh -c "! grep -qx 'call rx drops' '$TMP/parts'"

# The checker must see a circle: a part that calls back into one that includes its header,
# from its .c and from an inline function of its .h.
mkdir -p "$TMP/bad1/suck" "$TMP/bad2/suck" "$TMP/bad3/suck"
cp suck/*.[ch] "$TMP/bad1/suck/"
cp suck/*.[ch] "$TMP/bad2/suck/"
cp suck/*.[ch] "$TMP/bad3/suck/"
printf '\nunsigned rx_made_up(const struct fanin *f)\n{\n\treturn fanin_slots(f);\n}\n' >>"$TMP/bad1/suck/rx.c"
circles "$TMP/bad1/suck" >"$TMP/bad1.out"
check "a call from rx.c back into fanin.c is found" grep -qx 'fanin uses rx.h; rx calls back into fanin: fanin_slots' "$TMP/bad1.out"
sed 's/^#include "carry.h"$/#include "carry.h"\n#include "total.h"/' suck/carry.c >"$TMP/bad2/suck/carry.c"
printf '\nstatic inline void total_made_up(struct carry *c)\n{\n\tcarry_free(c);\n}\n' >>"$TMP/bad2/suck/total.h"
circles "$TMP/bad2/suck" >"$TMP/bad2.out"
check "a call from an inline function of total.h back into carry.c is found" \
	grep -qx 'carry uses total.h; total calls back into carry: carry_free' "$TMP/bad2.out"
printf '\nvoid serve_made_up(struct rx *rx)\n{\n\trx->hooks->check(rx, 0);\n\tcheck(rx, 0);\n}\n' >>"$TMP/bad3/suck/serve.c"
circles "$TMP/bad3/suck" >"$TMP/bad3.out"
check "a call through a pointer, or of a static function, is no circle" test ! -s "$TMP/bad3.out"

done_tests
