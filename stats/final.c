/* final.c: the final figure of a kernel on one workload (final.h). */
#include "stats/final.h"
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>

static int usable(double x)
{
	return isfinite(x) && x > 0;
}

static double rel(double a, double b)
{
	return fabs(a - b) / b;
}

int stats_final_figure(const double *runs, size_t n, double noise, struct stats_final *out)
{
	out->figure = out->last = out->nearest = NAN;
	out->drift = 0;
	out->n = n;
	out->settled = 0;
	for (size_t i = 0; i < n; i++)
		if (!usable(runs[i]))
			return -1;
	if (n == 0)
		return -1;
	out->figure = stats_median(runs, n);
	if (isnan(out->figure))
		return -1;
	out->last = runs[n - 1];
	out->settled = n == 1;
	for (size_t i = 0; i + 1 < n; i++) {
		if (isnan(out->nearest) || fabs(runs[i] - out->last) < fabs(out->nearest - out->last))
			out->nearest = runs[i];
		if (rel(out->last, runs[i]) <= noise)
			out->settled = 1;
	}
	if (n > 1)
		out->drift = (out->last - out->nearest) / out->nearest;
	return 0;
}

enum stats_final_claim stats_final_claim(const double *runs, const unsigned char *confirm, size_t n,
					 double claimed, double tol, double noise, size_t *hit)
{
	struct stats_final f;
	size_t none = (size_t)-1, one = none, nconf = 0, conf_at = none;
	if (hit)
		*hit = none;
	if (!usable(claimed) || stats_final_figure(runs, n, noise, &f) != 0)
		return STATS_CLAIM_NONE;
	if (rel(claimed, f.figure) <= tol)
		return STATS_CLAIM_FIGURE;
	double *cr = malloc(n * sizeof(*cr));
	for (size_t i = 0; i < n; i++) {
		if (confirm && confirm[i]) {
			if (cr)
				cr[nconf] = runs[i];
			nconf++;
			conf_at = i;
		}
		if (one == none && rel(claimed, runs[i]) <= tol)
			one = i;
	}
	double cmed = cr && nconf ? stats_median(cr, nconf) : NAN;
	free(cr);
	if (nconf && rel(claimed, cmed) <= tol && claimed >= f.figure * (1 - tol))
		return STATS_CLAIM_CAUTIOUS;
	if (one == none)
		return STATS_CLAIM_NONE;
	if (hit)
		*hit = one;
	if (nconf == 1 && rel(claimed, runs[conf_at]) <= tol && rel(claimed, f.figure) <= noise) {
		if (hit)
			*hit = conf_at;
		return STATS_CLAIM_CONFIRM;
	}
	return STATS_CLAIM_PICKED;
}
