/* stats.c: descriptive statistics (see stats.h for the contracts). */
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int stats_sorted_copy(const double *x, size_t n, double *out)
{
	for (size_t i = 0; i < n; i++)
		if (isnan(x[i]))
			return -1;
	if (n == 0) /* memcpy/qsort on NULL are undefined even for 0 bytes */
		return 0;
	memcpy(out, x, n * sizeof(*x));
	qsort(out, n, sizeof(*out), cmp_double);
	return 0;
}

/* Sorted copy on the heap; NULL when n == 0, a NaN is present or no memory. */
static double *sorted_dup(const double *x, size_t n)
{
	if (n == 0)
		return NULL;
	double *s = malloc(n * sizeof(*s));
	if (!s)
		return NULL;
	if (stats_sorted_copy(x, n, s) != 0) {
		free(s);
		return NULL;
	}
	return s;
}

static double sorted_quantile(const double *s, size_t n, double p)
{
	double h = (double)(n - 1) * p;
	size_t lo = (size_t)floor(h);
	if (lo >= n - 1)
		return s[n - 1];
	return s[lo] + (h - (double)lo) * (s[lo + 1] - s[lo]);
}

double stats_quantile(const double *x, size_t n, double p)
{
	if (!(p >= 0.0 && p <= 1.0))
		return NAN;
	double *s = sorted_dup(x, n);
	if (!s)
		return NAN;
	double q = sorted_quantile(s, n, p);
	free(s);
	return q;
}

double stats_median(const double *x, size_t n)
{
	double *s = sorted_dup(x, n);
	if (!s)
		return NAN;
	double m = (n % 2) ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
	free(s);
	return m;
}

double stats_mad(const double *x, size_t n)
{
	double med = stats_median(x, n);
	if (isnan(med))
		return NAN;
	double *d = malloc(n * sizeof(*d));
	if (!d)
		return NAN;
	for (size_t i = 0; i < n; i++)
		d[i] = fabs(x[i] - med);
	double m = stats_median(d, n);
	free(d);
	return m;
}

double stats_mean(const double *x, size_t n)
{
	if (n == 0)
		return NAN;
	double s = 0.0;
	for (size_t i = 0; i < n; i++)
		s += x[i];
	return s / (double)n;
}

double stats_min(const double *x, size_t n)
{
	if (n == 0)
		return NAN;
	double m = x[0];
	for (size_t i = 0; i < n; i++) {
		if (isnan(x[i]))
			return NAN;
		if (x[i] < m)
			m = x[i];
	}
	return m;
}

double stats_max(const double *x, size_t n)
{
	if (n == 0)
		return NAN;
	double m = x[0];
	for (size_t i = 0; i < n; i++) {
		if (isnan(x[i]))
			return NAN;
		if (x[i] > m)
			m = x[i];
	}
	return m;
}

void stats_geomean_init(struct stats_geomean_acc *g)
{
	g->logsum = 0.0;
	g->n = 0;
	g->bad = 0;
}

void stats_geomean_add(struct stats_geomean_acc *g, double x)
{
	if (!(x > 0.0) || !isfinite(x))
		g->bad = 1;
	else
		g->logsum += log(x);
	g->n++;
}

double stats_geomean_value(const struct stats_geomean_acc *g)
{
	return g->n == 0 || g->bad ? NAN : exp(g->logsum / (double)g->n);
}

double stats_geomean(const double *x, size_t n)
{
	struct stats_geomean_acc g;
	stats_geomean_init(&g);
	for (size_t i = 0; i < n; i++)
		stats_geomean_add(&g, x[i]);
	return stats_geomean_value(&g);
}
