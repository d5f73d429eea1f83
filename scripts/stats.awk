# stats.awk: functions for the other awk programs (awk -f stats.awk -f prog.awk).
# Numbers keep the precision the tools printed: a median of an odd count is one of the values as
# written; the mean of two middle values gets one decimal more than they have.

function isnum(s) { return s ~ /^-?([0-9]+|[0-9]*\.[0-9]+)([eE][-+]?[0-9]+)?$/ }

function decimals(s) { return index(s, ".") ? length(s) - index(s, ".") : 0 }

# trim(s): a number without trailing zeros after the decimal point.
function trim(s) {
	if (index(s, ".") && s !~ /[eE]/) {
		sub(/0+$/, "", s)
		sub(/\.$/, "", s)
	}
	return s
}

# sortnum(a, n): sorts a[1..n] by numeric value (insertion sort: a handful of runs).
function sortnum(a, n,    i, j, t) {
	for (i = 2; i <= n; i++) {
		t = a[i]
		for (j = i - 1; j >= 1 && a[j] + 0 > t + 0; j--)
			a[j + 1] = a[j]
		a[j + 1] = t
	}
}

# median(a, n): of a[1..n], already sorted; "" when n is 0.
function median(a, n,    x, y, d) {
	if (n < 1)
		return ""
	if (n % 2)
		return a[(n + 1) / 2]
	x = a[n / 2]
	y = a[n / 2 + 1]
	d = decimals(x) > decimals(y) ? decimals(x) : decimals(y)
	return trim(sprintf("%." (d + 1) "f", (x + y) / 2))
}

# ratio(b, a): b/a with 3 decimals, "n/a" when it is not defined.
function ratio(b, a) {
	if (!isnum(a) || !isnum(b) || a + 0 == 0)
		return "n/a"
	return sprintf("%.3f", b / a)
}

# pct(part, whole): 100 * part / whole, with enough decimals for small shares.
function pct(part, whole,    p) {
	if (!isnum(part) || !isnum(whole) || whole + 0 == 0)
		return ""
	p = 100 * part / whole
	if (p < 0.1)
		return trim(sprintf("%.4f", p))
	if (p < 10)
		return trim(sprintf("%.3f", p))
	return trim(sprintf("%.2f", p))
}
