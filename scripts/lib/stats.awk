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

# ---- Is a difference real? The rank test, its interval, and the interval of a median ----
# Run-to-run drift on these machines is 10-20 %, not normal and not the same for every variant,
# and a result has a handful of runs: so distribution-free statistics on ranks and order
# statistics, exact for small samples, no resampling (awk's rand() differs from one awk to the
# next, so a "fixed seed" bootstrap would not give the same numbers in mawk and gawk; and the
# bootstrap of a median of 3 or 5 runs takes only a few values). Everything here is deterministic.

# MW_EXACT_MAX: runs in all (both sides) up to which the rank test counts its distribution exactly
BEGIN { if (MW_EXACT_MAX == "") MW_EXACT_MAX = 40 }

# sortidx(v, n, ix): ix[1..n] = the indices of v[1..n] in increasing numeric order (heapsort:
# the pairwise ratios of two results are many more than a handful).
function sortidx(v, n, ix,    i, t, end) {
	for (i = 1; i <= n; i++)
		ix[i] = i
	for (i = int(n / 2); i >= 1; i--)
		heapdown(v, ix, i, n)
	for (end = n; end > 1; end--) {
		t = ix[1]; ix[1] = ix[end]; ix[end] = t
		heapdown(v, ix, 1, end - 1)
	}
}
function heapdown(v, ix, i, n,    c, t) {
	while (2 * i <= n) {
		c = 2 * i
		if (c < n && v[ix[c + 1]] + 0 > v[ix[c]] + 0)
			c++
		if (v[ix[i]] + 0 >= v[ix[c]] + 0)
			return
		t = ix[i]; ix[i] = ix[c]; ix[c] = t
		i = c
	}
}

# choose(n, k): the binomial coefficient, as a float.
function choose(n, k,    i, c) {
	if (k < 0 || k > n)
		return 0
	if (k > n - k)
		k = n - k
	c = 1
	for (i = 1; i <= k; i++)
		c = c * (n - k + i) / i # C(n - k + i, i): a whole number at every step
	return c
}

# erfc(x): the complementary error function (Numerical Recipes' erfcc, relative error < 1.2e-7).
function erfc(x,    z, t, r) {
	z = x < 0 ? -x : x
	t = 1 / (1 + 0.5 * z)
	r = t * exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + \
		t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + \
		t * (-0.82215223 + t * 0.17087277)))))))))
	return x >= 0 ? r : 2 - r
}
# zquant(p): the z with P(Z > z) = p for a standard normal Z, 0 < p < 1 (bisection on erfc).
function zquant(p,    lo, hi, mid, i) {
	lo = -40; hi = 40
	for (i = 0; i < 200; i++) {
		mid = (lo + hi) / 2
		if (erfc(mid / sqrt(2)) / 2 > p) lo = mid; else hi = mid
	}
	return (lo + hi) / 2
}

# sumdist(r, n, m, CNT): how many of the C(n, m) ways to pick m of the n scores r[1..n]
# (integers) give each sum: CNT[s]; sets DIST_LO and DIST_HI, the smallest and largest sum.
# Counted by dynamic programming over the scores, n * m * (range of sums) steps.
function sumdist(r, n, m, CNT,    c, lo, hi, i, j, s, top) {
	split("", CNT)
	c[0, 0] = 1; lo[0] = hi[0] = 0
	for (i = 1; i <= n; i++) {
		top = i < m ? i : m
		for (j = top; j >= 1; j--) {
			if (!((j - 1) in lo))
				continue
			for (s = hi[j - 1]; s >= lo[j - 1]; s--)
				if (((j - 1, s) in c) && c[j - 1, s] > 0)
					c[j, s + r[i]] += c[j - 1, s]
			if (!(j in lo) || lo[j - 1] + r[i] < lo[j]) lo[j] = lo[j - 1] + r[i]
			if (!(j in hi) || hi[j - 1] + r[i] > hi[j]) hi[j] = hi[j - 1] + r[i]
		}
	}
	DIST_LO = lo[m]; DIST_HI = hi[m]
	for (s = DIST_LO; s <= DIST_HI; s++)
		if ((m, s) in c)
			CNT[s] = c[m, s]
}

# mw_test(a, na, b, nb): the two-sided Mann-Whitney U (Wilcoxon rank-sum) test of a[1..na]
# against b[1..nb]: its p-value, "" when a side has no value. Tied values share their midrank;
# up to MW_EXACT_MAX values in all the p-value is exact: the permutation distribution of the
# smaller side's rank sum over the observed midranks (all C(na+nb, na) ways the pooled values
# could have fallen to the two sides, ties included), p = 2 * the smaller tail, at most 1 (as
# R's wilcox.test does without ties). Above, the normal approximation with the tie correction
# of the variance and a continuity correction. Sets MW_U (B's U: the pairs (a, b) with b > a,
# plus half the tied pairs; na * nb / 2 when the sides do not differ), MW_EXACT (1 or 0) and
# MW_TIES (1 when some values are tied).
function mw_test(a, na, b, nb,    n, v, g, ix, r2, i, j, k, m, w2, side, cnt, tot, lower, upper, s, tsum, t, mu, vr, z, p) {
	MW_U = ""; MW_EXACT = 0; MW_TIES = 0
	if (na < 1 || nb < 1)
		return ""
	n = 0
	for (i = 1; i <= na; i++) { v[++n] = a[i]; g[n] = 1 }
	for (i = 1; i <= nb; i++) { v[++n] = b[i]; g[n] = 2 }
	MW_U = 0
	for (i = 1; i <= na; i++)
		for (j = 1; j <= nb; j++)
			MW_U += (b[j] + 0 > a[i] + 0) ? 1 : (b[j] + 0 == a[i] + 0) ? 0.5 : 0
	sortidx(v, n, ix)
	# doubled midranks: the values in sorted positions i..j share rank (i + j) / 2
	tsum = 0
	for (i = 1; i <= n; i = j + 1) {
		for (j = i; j < n && v[ix[j + 1]] + 0 == v[ix[i]] + 0; j++)
			;
		for (k = i; k <= j; k++)
			r2[ix[k]] = i + j
		t = j - i + 1
		if (t > 1) {
			MW_TIES = 1
			tsum += t * t * t - t
		}
	}
	side = na <= nb ? 1 : 2 # the smaller side's rank sum, the fewer steps
	m = side == 1 ? na : nb
	w2 = 0
	for (i = 1; i <= n; i++)
		if (g[i] == side)
			w2 += r2[i]
	if (tsum == n * n * n - n) {
		MW_EXACT = 1
		return 1 # every value the same: every split alike
	}
	if (n <= MW_EXACT_MAX) {
		MW_EXACT = 1
		tot = lower = upper = 0
		if (MW_TIES) {
			sumdist(r2, n, m, cnt)
			for (s = DIST_LO; s <= DIST_HI; s++)
				if (s in cnt) {
					tot += cnt[s]
					if (s <= w2) lower += cnt[s]
					if (s >= w2) upper += cnt[s]
				}
		} else {
			rankdist(n, m) # no ties: the ranks 1..n, counted once for each n and m
			for (s = RD_LO[n, m]; s <= RD_HI[n, m]; s++)
				if ((n, m, s) in RD) {
					tot += RD[n, m, s]
					if (s <= w2) lower += RD[n, m, s]
					if (s >= w2) upper += RD[n, m, s]
				}
		}
		p = 2 * (lower < upper ? lower : upper) / tot
		return p > 1 ? 1 : p
	}
	mu = m * (n + 1) / 2
	vr = na * nb / 12 * ((n + 1) - tsum / (n * (n - 1)))
	if (vr <= 0)
		return 1
	z = ((w2 / 2 > mu ? w2 / 2 - mu : mu - w2 / 2) - 0.5) / sqrt(vr)
	if (z < 0)
		z = 0
	p = erfc(z / sqrt(2))
	return p > 1 ? 1 : p
}

# mw_minp(na, nb): the smallest two-sided p-value the test can give na runs against nb
# (all of one side above all of the other, no ties): 2 / C(na + nb, na), at most 1.
function mw_minp(na, nb,    p) {
	if (na < 1 || nb < 1)
		return 1
	p = 2 / choose(na + nb, na)
	return p > 1 ? 1 : p
}
# mw_needed(alpha): the fewest runs per side (n against n) whose smallest p-value is <= alpha.
function mw_needed(alpha,    n) {
	for (n = 1; n < 1000 && mw_minp(n, n) > alpha; n++)
		;
	return n
}

# rankdist(n, m): RD[n, m, s], how many of the C(n, m) ways to pick m of the untied ranks 1..n
# give the doubled rank sum s (RD_LO[n, m]..RD_HI[n, m]); counted once for each n and m, since
# every figure of a comparison has the same numbers of runs.
function rankdist(n, m,    r, i, cnt, s) {
	if ((n, m) in RD_LO)
		return
	for (i = 1; i <= n; i++)
		r[i] = 2 * i
	sumdist(r, n, m, cnt)
	RD_LO[n, m] = DIST_LO
	RD_HI[n, m] = DIST_HI
	for (s = DIST_LO; s <= DIST_HI; s++)
		if (s in cnt)
			RD[n, m, s] = cnt[s]
}

# ucdf(na, nb, F): F[u] = P(U <= u), u = 0..na*nb, for the U statistic of na against nb
# untied values when the sides do not differ (U = the rank sum of the na less na(na+1)/2).
function ucdf(na, nb, F,    n, tot, c, u, s) {
	n = na + nb
	rankdist(n, na)
	tot = 0
	for (u = 0; u <= na * nb; u++) {
		s = 2 * (u + na * (na + 1) / 2)
		if ((n, na, s) in RD)
			tot += RD[n, na, s]
	}
	c = 0
	for (u = 0; u <= na * nb; u++) {
		s = 2 * (u + na * (na + 1) / 2)
		if ((n, na, s) in RD)
			c += RD[n, na, s]
		F[u] = c / tot
	}
}

# ratio_ci(a, na, b, nb, alpha): the Hodges-Lehmann estimate of the ratio B/A and its
# confidence interval, the one that goes with the rank test: the median and two order
# statistics of the na * nb ratios b/a (Hodges and Lehmann 1963; the interval is the set of
# ratios r for which the test would not tell b / r from a). Chosen over a bootstrap of the
# medians: it needs no random numbers, it is exact for small samples, and it agrees with the
# test (it excludes 1 when the test rejects, up to ties). The interval takes the k-th smallest
# and k-th largest ratio, k the largest with 2 P(U < k) <= alpha: its level is at least
# 1 - alpha. With too few runs for that (3 against 3: at most 90 %), the smallest and largest
# ratios, at the level they have. Sets CI_EST, CI_LO, CI_HI (3 decimals) and CI_PCT (the level
# in %, e.g. 96.8); returns 0 (and sets them "") when the ratio is not defined: a side without
# values, an A value <= 0 or a B value < 0.
function ratio_ci(a, na, b, nb, alpha,    d, n, i, j, ix, F, k, lvl, mu, sd, z) {
	CI_EST = CI_LO = CI_HI = CI_PCT = ""
	if (na < 1 || nb < 1)
		return 0
	for (i = 1; i <= na; i++)
		if (a[i] + 0 <= 0)
			return 0
	for (j = 1; j <= nb; j++)
		if (b[j] + 0 < 0)
			return 0
	n = 0
	for (i = 1; i <= na; i++)
		for (j = 1; j <= nb; j++)
			d[++n] = b[j] / a[i]
	sortidx(d, n, ix)
	CI_EST = sprintf("%.3f", n % 2 ? d[ix[(n + 1) / 2]] : (d[ix[n / 2]] + d[ix[n / 2 + 1]]) / 2)
	if (na + nb <= MW_EXACT_MAX) {
		ucdf(na, nb, F)
		k = 1
		while (k + 1 <= (n + 1) / 2 && 2 * F[k] <= alpha)
			k++
		lvl = 1 - 2 * F[k - 1]
	} else {
		mu = na * nb / 2
		sd = sqrt(na * nb * (na + nb + 1) / 12)
		z = zquant(alpha / 2)
		k = int(mu - z * sd + 0.5) # P(U <= k - 1) ~ alpha / 2, with a continuity correction
		if (k < 1)
			k = 1
		lvl = 1 - erfc((mu - k + 0.5) / sd / sqrt(2))
	}
	if (lvl < 0)
		lvl = 0
	CI_LO = sprintf("%.3f", d[ix[k]])
	CI_HI = sprintf("%.3f", d[ix[n + 1 - k]])
	CI_PCT = trim(sprintf("%.1f", 100 * lvl))
	return 1
}

# median_ci(a, n, alpha): a distribution-free confidence interval of the median of a[1..n],
# already sorted, by order statistics: [a[k], a[n + 1 - k]] covers the true median with
# probability 1 - 2 P(X < k), X binomial(n, 1/2), whatever the distribution; k the largest with
# that >= 1 - alpha. With too few values for that level (n <= 5 at 95 %), min..max at the
# level it has (5 runs: 93.8 %; 3 runs: 75 %). Sets MCI_LO, MCI_HI (values as written) and
# MCI_PCT (the level in %); "" when n is 0.
function median_ci(a, n, alpha,    k, lp, lpn, cum) {
	MCI_LO = MCI_HI = MCI_PCT = ""
	if (n < 1)
		return 0
	# cum = P(X <= k - 1), grown one k at a time, in logarithms (2^-n underflows past n = 1000)
	lp = -n * log(2)
	cum = exp(lp)
	k = 1
	if (2 * cum <= alpha)
		while (k + 1 <= (n + 1) / 2) {
			lpn = lp + log(n - k + 1) - log(k) # log P(X = k)
			if (2 * (cum + exp(lpn)) > alpha)
				break
			lp = lpn
			cum += exp(lpn)
			k++
		}
	MCI_LO = a[k]
	MCI_HI = a[n + 1 - k]
	MCI_PCT = trim(sprintf("%.1f", 100 * (1 - 2 * cum > 0 ? 1 - 2 * cum : 0)))
	return 1
}

# fmtp(p): a p-value in 3 significant digits ("0.00794", "0.1", "1").
function fmtp(p) { return p == "" ? "" : sprintf("%.3g", p) }
