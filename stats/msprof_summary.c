/* msprof_summary.c: statistics over an msprof capture (msprof_summary.h). */
#include "stats/msprof_summary.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"

/* Median over launches of one per-launch field, skipping NAN. */
static double median_of(const struct msprof_capture *c, size_t off, double *buf)
{
	size_t k = 0;
	for (size_t i = 0; i < c->n; i++) {
		double v;
		memcpy(&v, (const char *)&c->v[i] + off, sizeof(v));
		if (!isnan(v))
			buf[k++] = v;
	}
	return k ? stats_median(buf, k) : NAN;
}

int msprof_summarize(const struct msprof_capture *c, struct msprof_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->median_us = s->mad_us = s->min_us = s->max_us = s->mean_us = NAN;
	s->aic_time_us = s->aiv_time_us = NAN;
	s->main_mem_read_bw_gbs = s->main_mem_write_bw_gbs = s->max_ratio = NAN;
	size_t n = 0;
	double *d = msprof_durations(c, &n);
	if (!d)
		return -1;
	double *buf = malloc(c->n * sizeof(*buf));
	if (!buf) {
		free(d);
		return -1;
	}
	s->launches = n;
	s->median_us = stats_median(d, n);
	s->mad_us = stats_mad(d, n);
	s->min_us = stats_min(d, n);
	s->max_us = stats_max(d, n);
	s->mean_us = stats_mean(d, n);
	s->aic_time_us = median_of(c, offsetof(struct msprof_launch, aic_time_us), buf);
	s->aiv_time_us = median_of(c, offsetof(struct msprof_launch, aiv_time_us), buf);
	s->main_mem_read_bw_gbs = median_of(c, offsetof(struct msprof_launch, main_mem_read_bw_gbs), buf);
	s->main_mem_write_bw_gbs =
		median_of(c, offsetof(struct msprof_launch, main_mem_write_bw_gbs), buf);
	/* The busiest pipe of each launch: its largest mean ratio. */
	size_t k = 0;
	for (size_t i = 0; i < c->n; i++) {
		const struct msprof_launch *l = &c->v[i];
		double best = NAN;
		const char *name = NULL;
		for (size_t j = 0; j < l->nratios; j++)
			if (!isnan(l->ratios[j].mean) && (isnan(best) || l->ratios[j].mean > best)) {
				best = l->ratios[j].mean;
				name = l->ratios[j].name;
			}
		if (!isnan(best)) {
			buf[k++] = best;
			snprintf(s->max_ratio_name, sizeof(s->max_ratio_name), "%s", name);
		}
	}
	if (k)
		s->max_ratio = stats_median(buf, k);
	free(buf);
	free(d);
	return 0;
}
