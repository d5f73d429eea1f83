# jain.awk: Jain's fairness index (R. Jain, D. Chiu, W. Hawe, "A Quantitative Measure of Fairness
# and Discrimination for Resource Allocation in Shared Computer Systems", DEC TR-301, 1984):
# (sum x)^2 / (n sum x^2) over n shares x, 1 when all are alike, 1/n when one has everything.
# A library for fanin.awk (suite --senders), tested on its own in tests/t_fanin.sh.

# jain(x, n): the index of x[1..n] (each >= 0); "-" when every x is 0 (nothing to share).
function jain(x, n,    i, s, q) {
	for (i = 1; i <= n; i++) {
		s += x[i]
		q += x[i] * x[i]
	}
	return q > 0 ? s * s / (n * q) : "-"
}
