/* hl.c: Hodges-Lehmann estimate and exact sign-flip test (see hl.h). */
#include "stats/hl.h"

#include <math.h>
#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* k-th smallest (0-based) of w[0..m-1], reordering w so that w[0..k-1]
 * are <= w[k] (quickselect, Lomuto partition, middle pivot). */
static double select_kth(double *w, size_t m, size_t k)
{
	size_t lo = 0, hi = m - 1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2, store = lo;
		double pivot = w[mid], t;
		w[mid] = w[hi];
		w[hi] = pivot;
		for (size_t i = lo; i < hi; i++) {
			if (w[i] < pivot) {
				t = w[i];
				w[i] = w[store];
				w[store] = t;
				store++;
			}
		}
		w[hi] = w[store];
		w[store] = pivot;
		if (k == store)
			return w[k];
		if (k < store)
			hi = store - 1;
		else
			lo = store + 1;
	}
	return w[k];
}

double stats_hl_estimate(const double *d, size_t n)
{
	double stackbuf[2080]; /* n <= 64 needs no allocation */
	double *w = stackbuf;
	size_t m = n * (n + 1) / 2, k = 0;
	double r;

	if (n == 0)
		return NAN;
	for (size_t i = 0; i < n; i++)
		if (!isfinite(d[i]))
			return NAN;
	if (m > sizeof(stackbuf) / sizeof(stackbuf[0])) {
		w = malloc(m * sizeof(*w));
		if (!w)
			return NAN;
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = i; j < n; j++)
			w[k++] = 0.5 * (d[i] + d[j]);
	if (m % 2)
		r = select_kth(w, m, m / 2);
	else {
		double hi = select_kth(w, m, m / 2);
		/* after selection everything below m/2 is <= hi: take their max */
		double lo = w[0];
		for (size_t i = 1; i < m / 2; i++)
			if (w[i] > lo)
				lo = w[i];
		r = 0.5 * (lo + hi);
	}
	if (w != stackbuf)
		free(w);
	return r;
}

/* All 2^m signed sums of v[0..m-1] into out (ascending when sorted=1). */
static void subset_sums(const double *v, size_t m, double *out)
{
	size_t len = 1;
	out[0] = 0.0;
	for (size_t i = 0; i < m; i++) {
		for (size_t j = 0; j < len; j++) {
			out[len + j] = out[j] - v[i];
			out[j] += v[i];
		}
		len *= 2;
	}
}

double stats_signflip_p(const double *d, size_t n)
{
	double obs = 0.0, scale = 0.0, *left = NULL, *right = NULL, p = NAN;
	double absd[40];
	size_t nl, nr, L, R, count = 0;

	if (n == 0 || n > 40)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(d[i]))
			return NAN;
		obs += d[i];
		absd[i] = fabs(d[i]);
		scale += absd[i];
	}
	nl = n / 2;
	nr = n - nl;
	L = (size_t)1 << nl;
	R = (size_t)1 << nr;
	left = malloc(L * sizeof(*left));
	right = malloc(R * sizeof(*right));
	if (!left || !right)
		goto out;
	subset_sums(absd, nl, left);
	subset_sums(absd + nl, nr, right);
	qsort(right, R, sizeof(*right), cmp_double);
	/* count pairs with left + right >= obs - tol */
	double tol = 1e-12 * (scale > 0 ? scale : 1.0);
	for (size_t i = 0; i < L; i++) {
		double need = obs - tol - left[i];
		size_t lo = 0, hi = R; /* first index with right >= need */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (right[mid] < need)
				lo = mid + 1;
			else
				hi = mid;
		}
		count += R - lo;
	}
	p = (double)count / ((double)L * (double)R);
out:
	free(left);
	free(right);
	return p;
}
