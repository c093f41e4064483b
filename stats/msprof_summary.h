/* msprof_summary.h: statistics over an msprof capture (model/msprof.h):
 * the median, MAD, extremes and mean of the launch durations, and the
 * medians over launches of the per-launch metrics. Pure; no I/O.
 */
#ifndef TLPERF_STATS_MSPROF_SUMMARY_H
#define TLPERF_STATS_MSPROF_SUMMARY_H

#include <stddef.h>

#include "model/msprof.h"

/* Summary over launches; fields are NAN when no launch had the value. */
struct msprof_summary {
	size_t launches;              /* launches with a duration */
	double median_us, mad_us, min_us, max_us, mean_us;
	double aic_time_us;           /* median over launches of the per-launch means */
	double aiv_time_us;
	double main_mem_read_bw_gbs;
	double main_mem_write_bw_gbs;
	double max_ratio;             /* median over launches of the busiest pipe's ratio */
	char max_ratio_name[64];      /* that pipe's column in the last launch, "" if none */
};

/* Fills *s from c. Returns 0, or -1 when c has no duration. */
int msprof_summarize(const struct msprof_capture *c, struct msprof_summary *s);

#endif
