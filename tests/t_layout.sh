# The layout block of DESIGN.md tells the truth: every folder and file it names exists (a path
# that .gitignore lists, such as bin/, is build output and exempt), every top-level folder of
# the tree and every C source of blast/, suck/, common/ and perf/ is named in it, and the
# checker itself finds a made-up name and a missing one.
. tests/lib.sh

# layout_block DESIGN: the lines between the first ``` after "## Layout" and the next ```.
layout_block() {
	awk '/^## Layout/ { sec = 1; next } sec && /^```/ { if (in_b) exit; in_b = 1; next }
		in_b { print }' "$1"
}

# layout_paths DESIGN: "FOLDER<TAB>NAME" for every path-like word of the block, FOLDER the
# first word of the line it is on or of the last line that started a folder.
layout_paths() {
	layout_block "$1" | awk '
		/^[^ ]/ { dir = $1; print dir "\t" dir; $1 = "" }
		{ gsub(/[(),;:`]/, " ")
		  for (i = 1; i <= NF; i++)
			if ($i ~ /^[A-Za-z0-9_][A-Za-z0-9_.-]*(\/[A-Za-z0-9_.-]*)*$/ &&
			    ($i ~ /\/$/ || $i ~ /\.(c|h|sh|awk|gp|md|1|tsv)$/))
				print dir "\t" $i }'
}

# ignored PATH: .gitignore names PATH (as /PATH or /PATH/).
ignored() {
	p=${1%/}
	grep -qxF -e "/$p" -e "/$p/" .gitignore
}

# check_layout DESIGN: prints "missing: PATH" for every named path that is not in the tree and
# "unnamed: PATH" for a folder or C source the block leaves out; status 1 if it printed.
check_layout() {
	: >"$TMP/layout.out"
	layout_paths "$1" >"$TMP/paths"
	[ -s "$TMP/paths" ] || echo "no paths in the layout block of $1" >>"$TMP/layout.out"
	while IFS="$(printf '\t')" read -r dir name; do
		# a name with a slash inside is from the top of the tree when it exists there
		case $name in
		"$dir") p=$name ;;
		*/?*) if [ -e "${name%/}" ]; then p=$name; else p=$dir$name; fi ;;
		*) p=$dir$name ;;
		esac
		if [ -e "${p%/}" ] || ignored "$p"; then continue; fi
		# a bare name may sit in a folder below the line's folder (fuzz_rx.c, corpus/)
		case $name in
		*/?*) ;;
		*/) [ -n "$(find "$dir" -type d -name "${name%/}" 2>/dev/null | head -n 1)" ] && continue ;;
		*) [ -n "$(find "$dir" -name "$name" 2>/dev/null | head -n 1)" ] && continue ;;
		esac
		echo "missing: $p" >>"$TMP/layout.out"
	done <"$TMP/paths"
	# every top-level folder of the tree, and every C file of the programs, is named; a module's
	# header goes with its .c ("a .c and a .h each")
	awk -F'\t' '{ print $2; print $1 $2; if ($2 ~ /\.c$/) { h = $1 $2; sub(/c$/, "h", h); print h } }' \
		"$TMP/paths" | LC_ALL=C sort -u >"$TMP/named"
	git ls-files | sed -n 's#^\([^./][^/]*\)/.*#\1/#p' | LC_ALL=C sort -u >"$TMP/tops"
	while read -r t; do
		grep -qxF "$t" "$TMP/named" || echo "unnamed: $t" >>"$TMP/layout.out"
	done <"$TMP/tops"
	for f in $(git ls-files 'blast/*.[ch]' 'suck/*.[ch]' 'common/*.[ch]' 'perf/*.[ch]') $EXTRA_FILES; do
		grep -qxF "$f" "$TMP/named" || echo "unnamed: $f" >>"$TMP/layout.out"
	done
	cat "$TMP/layout.out"
	[ ! -s "$TMP/layout.out" ]
}

EXTRA_FILES=""
if check_layout DESIGN.md >"$TMP/real"; then ok; else
	while read -r line; do fail "DESIGN.md layout: $line"; done <"$TMP/real"
fi
check "the layout names at least 30 paths" test "$(wc -l <"$TMP/paths")" -ge 30

# The checker must see a file that is not there and a file that the block leaves out.
sed 's#progress.c (-i lines)#progress.c (-i lines), gaps.c (gaps)#' DESIGN.md >"$TMP/bad.md"
check_layout "$TMP/bad.md" >"$TMP/bad.out"
check "a named file that does not exist is found" grep -qx 'missing: blast/gaps.c' "$TMP/bad.out"
sed 's#rate.c (pacing),#(pacing),#' DESIGN.md >"$TMP/bad2.md"
check_layout "$TMP/bad2.md" >"$TMP/bad2.out"
check "a C file the layout leaves out is found" grep -qx 'unnamed: blast/rate.c' "$TMP/bad2.out"
grep -v '^docs/' DESIGN.md | grep -v '^           the README links' >"$TMP/bad3.md"
check_layout "$TMP/bad3.md" >"$TMP/bad3.out"
check "a top-level folder the layout leaves out is found" grep -qx 'unnamed: docs/' "$TMP/bad3.out"

# The README points at the one layout block instead of keeping its own.
check "the README links DESIGN.md's layout" grep -q 'DESIGN.md#layout' README.md
check "the README has no layout block of its own" sh -c '! grep -q "^## Layout" README.md'

done_tests
