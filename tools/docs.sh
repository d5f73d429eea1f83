#!/bin/sh
# tools/docs.sh [BIN [ROOT]]: the generated parts of the docs made again from the tools' option
# tables (blast/options.h, suck/options.h), through their maintainer's flag --options-doc:
# docs/manual.md's option tables, between "<!-- options TOOL -->" and "<!-- end options TOOL -->",
# and the OPTIONS lists of man/TOOL.1, between '.\" options' and '.\" end options'. The prose
# around them is written by hand. BIN: the built tools (bin); ROOT: the tree to write (.), which
# tests/t_docs.sh points at a copy. `make docs` runs it.
set -eu
BIN=${1:-bin}
ROOT=${2:-.}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

# splice FILE BEGIN END: the lines between the marker lines BEGIN and END of FILE become $tmp's,
# FILE.new renamed into place once whole; each marker must be there once, BEGIN before END.
# (The markers go through the environment: awk -v would take the backslash of '.\"' as an
# escape.)
splice() {
	B=$2 E=$3 C=$tmp awk 'BEGIN { b = ENVIRON["B"]; e = ENVIRON["E"]; c = ENVIRON["C"] }
		$0 == e { if (!skip) bad = 1; skip = 0; ne++ }
		!skip { print }
		$0 == b { while ((getline l < c) > 0) print l; close(c); skip = 1; nb++ }
		END { if (nb != 1 || ne != 1 || skip || bad) exit 3 }' "$1" >"$1.new" || {
		rm -f "$1.new"
		echo "docs.sh: $1: want one '$2' line, then one '$3'" >&2
		exit 1
	}
	mv "$1.new" "$1"
}

for tool in blast suck; do
	"$BIN/$tool" --options-doc md >"$tmp"
	splice "$ROOT/docs/manual.md" "<!-- options $tool -->" "<!-- end options $tool -->"
	"$BIN/$tool" --options-doc man >"$tmp"
	splice "$ROOT/man/$tool.1" '.\" options' '.\" end options'
done
