# index.awk: one result directory as one HTML page (scripts/index writes DIR/index.html with
# it). Reads, in order, files named on the command line, each after a marker argument that says
# what it is: "md=FILE" (markdown, the subset the scripts write: headings, paragraphs, pipe
# tables, lists), "tsv=FILE" (a table with a header line), "env=FILE" (env.txt: the machine and
# the commands), "svg=NAME" (a plot beside the page), "sub=NAME" (a result directory inside this
# one). The page has no script and no outside resource, and reads well in a text browser.
# Every link and image it writes is a path inside the result, made by href(): names come from
# what the directory holds, and a result carries over what a user put in it, so a file named
# "javascript:alert(1).svg" must not become a link that runs script. Files are named relative to
# the page, never by the path the page was written at (a staging directory, renamed after).
function esc(s) {
	gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); gsub(/"/, "\\&quot;", s)
	return s
}
# href(s): a link to s, a path inside the result: "./" and s with every byte but letters,
# digits and "-._~/" percent-encoded. "./" makes it relative whatever s is: no name can be read
# as a scheme ("javascript:", "data:"), nor "#" or "?" end it early.
function href(s,    out, i, c) {
	out = "./"
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		out = out (c ~ /[A-Za-z0-9._~\/-]/ ? c : sprintf("%%%02X", ORD[c]))
	}
	return out
}
# `code` and **strong** inside a line of markdown, after escaping
function inline(s,    out, i) {
	s = esc(s)
	out = ""
	while ((i = index(s, "`")) > 0) {
		rest = substr(s, i + 1)
		j = index(rest, "`")
		if (!j) break
		out = out substr(s, 1, i - 1) "<code>" substr(rest, 1, j - 1) "</code>"
		s = substr(rest, j + 1)
	}
	s = out s
	while (match(s, /\*\*[^*]+\*\*/))
		s = substr(s, 1, RSTART - 1) "<strong>" substr(s, RSTART + 2, RLENGTH - 4) "</strong>" substr(s, RSTART + RLENGTH)
	return s
}
function close_blocks() {
	if (in_p) { print "</p>"; in_p = 0 }
	if (in_ul) { print "</ul>"; in_ul = 0 }
	if (in_table) { print "</tbody></table>"; in_table = 0 }
	if (in_pre) { print "</pre>"; in_pre = 0 }
}
function cells(line, tag,    n, a, i, s) {
	sub(/^[ \t]*\|/, "", line); sub(/\|[ \t]*$/, "", line)
	n = split(line, a, "|")
	s = "<tr>"
	for (i = 1; i <= n; i++) {
		gsub(/^[ \t]+|[ \t]+$/, "", a[i])
		s = s "<" tag ">" inline(a[i]) "</" tag ">"
	}
	return s "</tr>"
}
function md_line(line) {
	if (in_pre) {
		if (line ~ /^```/) { print "</pre>"; in_pre = 0 } else print esc(line)
		return
	}
	if (line ~ /^```/) { close_blocks(); print "<pre>"; in_pre = 1; return }
	if (line ~ /^[ \t]*$/) { close_blocks(); return }
	if (line ~ /^#+ /) {
		close_blocks()
		lvl = index(line, " ") - 1
		lvl = lvl + 1 > 6 ? 6 : lvl + 1  # the page's own title is the h1
		print "<h" lvl ">" inline(substr(line, index(line, " ") + 1)) "</h" lvl ">"
		return
	}
	if (line ~ /^[ \t]*\|/) {
		if (!in_table) {
			close_blocks()
			print "<table>"
			print "<thead>" cells(line, "th") "</thead><tbody>"
			in_table = 1
			return
		}
		if (line ~ /^[ \t]*\|[ \t:|-]+\|[ \t]*$/) return  # the alignment row
		print cells(line, "td")
		return
	}
	if (line ~ /^[-*] /) {
		if (!in_ul) { close_blocks(); print "<ul>"; in_ul = 1 }
		print "<li>" inline(substr(line, 3)) "</li>"
		return
	}
	if (in_table || in_ul) close_blocks()
	if (!in_p) { print "<p>"; in_p = 1 }
	print inline(line)
}
BEGIN {
	for (i = 1; i < 256; i++)
		ORD[sprintf("%c", i)] = i
	print "<!DOCTYPE html>"
	print "<html lang=\"en\">"
	print "<head>"
	print "<meta charset=\"utf-8\" />"
	print "<title>" esc(title) "</title>"
	print "<style>"
	print "body { font-family: sans-serif; max-width: 80em; margin: 1em auto; padding: 0 1em; }"
	print "table { border-collapse: collapse; margin: 0.5em 0; }"
	print "th, td { border: 1px solid #bbb; padding: 0.2em 0.5em; text-align: right; }"
	print "th:first-child, td:first-child { text-align: left; }"
	print "pre { background: #f4f4f4; padding: 0.5em; overflow-x: auto; }"
	print "img { max-width: 100%; }"
	print "</style>"
	print "</head>"
	print "<body>"
	print "<h1>" esc(title) "</h1>"
	for (i = 1; i < ARGC; i++) {
		split(ARGV[i], kv, "=")
		kind = kv[1]
		name = substr(ARGV[i], length(kind) + 2)
		ARGV[i] = ""
		if (kind == "svg") {
			if (!plots++) print "<h2>Plots</h2>"
			base = name; sub(/\.svg$/, "", base)
			print "<div class=\"plot\"><img src=\"" href(name) "\" alt=\"plot: " esc(base) "\" />"
			print "<p>" esc(base) " (<a href=\"" href(name) "\">" esc(name) "</a>" \
				(has_png[base] ? ", <a href=\"" href(base ".png") "\">png</a>" : "") ")</p></div>"
			continue
		}
		if (kind == "png") { has_png[name] = 1; continue }
		if (kind == "sub") {
			if (!subs++) print "<h2>Results inside this one</h2><ul>"
			print "<li><a href=\"" href(name "/index.html") "\">" esc(name) "</a></li>"
			continue
		}
		if (subs && !subs_closed) { print "</ul>"; subs_closed = 1 }
		file = name
		if (kind == "md") {
			while ((getline line < file) > 0)
				md_line(line)
			close_blocks()
		} else if (kind == "tsv") {
			base = file; sub(/.*\//, "", base)
			print "<h2>" esc(base) "</h2>"
			print "<table>"
			n = 0
			while ((getline line < file) > 0) {
				if (line ~ /^#/) continue
				gsub(/\|/, "\\|", line)
				gsub(/\t/, "|", line)
				print (n++ ? cells(line, "td") : "<thead>" cells(line, "th") "</thead><tbody>")
			}
			print "</tbody></table>"
			print "<p>Data: <a href=\"" href(base) "\">" esc(base) "</a></p>"
		} else if (kind == "env") {
			print "<h2>Machine and commands</h2>"
			print "<table><tbody>"
			cmds = ""
			while ((getline line < file) > 0) {
				k = line; sub(/:.*/, "", k)
				v = substr(line, length(k) + 3)
				if (k == "cmd") cmds = cmds esc(v) "\n"
				else print "<tr><th>" esc(k) "</th><td>" esc(v) "</td></tr>"
			}
			print "</tbody></table>"
			if (cmds != "") print "<h3>Commands, in order</h3>\n<pre>" cmds "</pre>"
		}
		close(file)
	}
	if (subs && !subs_closed) print "</ul>"
	print "</body>"
	print "</html>"
}
