/* ab_ci.c: order-statistic confidence interval of the paired change. */
#include "stats/ab_ci.h"

#include <math.h>
#include <stdlib.h>

#include "stats/ab.h"
#include "stats/stats.h"

/* Coverage of [x_(k), x_(n+1-k)] for the median: 1 - 2 P(X <= k-1), which
 * is one minus the sign test's p for k-1 (k-1 < n/2, so never capped). */
static double coverage(size_t n, size_t k)
{
	return 1.0 - stats_sign_test_p(n, k - 1);
}

int stats_median_ci(const double *x, size_t n, double conf, struct stats_ci *out)
{
	if (n == 0 || !x || !out || !(conf > 0.0 && conf < 1.0))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return -1;
	double *s = malloc(n * sizeof(*s));
	if (!s)
		return -1;
	stats_sorted_copy(x, n, s);

	/* k = 1 is [min, max]; grow k while the coverage stays >= conf. */
	size_t k = 1;
	while (k + 1 <= (n + 1) / 2 && coverage(n, k + 1) >= conf)
		k++;
	out->lo = s[k - 1];
	out->hi = s[n - k];
	out->k = k;
	out->level = coverage(n, k);
	out->requested = conf;
	out->estimate = stats_median(s, n);
	free(s);
	return 0;
}

int stats_ab_rel_ci(const double *a, const double *b, size_t npairs, double conf,
		    struct stats_ci *out)
{
	if (npairs == 0 || !a || !b)
		return -1;
	double *r = malloc(npairs * sizeof(*r));
	if (!r)
		return -1;
	int rc = 0;
	for (size_t i = 0; i < npairs && rc == 0; i++) {
		if (!isfinite(a[i]) || !isfinite(b[i]) || a[i] <= 0.0 || b[i] <= 0.0)
			rc = -1;
		else
			r[i] = (a[i] - b[i]) / a[i];
	}
	if (rc == 0)
		rc = stats_median_ci(r, npairs, conf, out);
	free(r);
	return rc;
}
