/* svg.h: plain SVG plots written by the project (no plotting dependency).
 *
 * Two plots: the runs of an A/B comparison (tlab --plot) and horizontal
 * speedup bars on a log scale (tlperf speedup --plot, the audit report).
 * The output is one <svg> element without an XML declaration, so the same
 * text is a valid standalone .svg file and can be inlined in HTML. Text is
 * XML-escaped (report_xml_escape), numbers are written in the C locale.
 *
 * Every mark carries a class the tests (and CSS) can select on:
 *   A/B plot: "run arm-a state-fast" (one per run; arms a|b, states
 *             fast|slow|outlier|one), "pair" (the line joining pair i),
 *             "estimate", "interval", "tie-band", "median-a", "median-b";
 *             legend markers are "legend-mark ...", never "run".
 *   bars:     "bar" (one per drawable value, plus " failing"), "geomean".
 */
#ifndef TLPERF_SVG_H
#define TLPERF_SVG_H

/* Colours of the speedup bars, named so that a page showing a chart can
 * give each one a legend entry. */
#define SVG_COLOR_UP "#2e7d32"      /* bar: speedup >= 1 */
#define SVG_COLOR_DOWN "#ef6c00"    /* bar: speedup < 1 */
#define SVG_COLOR_FAIL "#c62828"    /* bar and label: claim does not reconcile */
#define SVG_COLOR_GEOMEAN "#6a1b9a" /* dashed line: overall geometric mean */

#include <stddef.h>
#include <stdio.h>

enum svg_state {
	SVG_STATE_ONE = -1,    /* no fast/slow split seen */
	SVG_STATE_FAST = 0,
	SVG_STATE_SLOW = 1,
	SVG_STATE_OUTLIER = 2
};

struct svg_ab {
	const char *title;           /* shown on top; put the verdict in it */
	const double *a, *b;         /* run medians in us; pair i ran a[i] then b[i] */
	size_t npairs;
	const int *a_state, *b_state; /* enum svg_state per run; NULL: split here (svg_split_states) */
	double a_median, b_median;   /* merged medians drawn as lines; NaN omits */
	double estimate, lo, hi;     /* relative change (a-b)/a, > 0 when B is faster; NaN omits */
	double ci_level;             /* achieved coverage for the label (0.95); NaN omits */
	double noise;                /* tie margin drawn as a band around 0; 0 or NaN omits */
};

/* Writes the A/B run plot: run medians of A and B in run order, each pair
 * joined, the state shown by fill (fast filled, slow hollow, outlier a
 * cross) and the arm by colour and shape (A blue circles, B orange
 * squares); on the right the estimate with its interval against 0 and the
 * tie band. Runs whose median is not finite and > 0 are left out (no mark).
 * Returns 0, -1 on a write error (errno set) or when p->npairs == 0
 * (errno EINVAL). */
int svg_write_ab(FILE *f, const struct svg_ab *p);

/* Display heuristic, not statistics: splits runs x[0..n-1] into a fast and
 * a slow state at the largest gap between sorted values when that gap is
 * over 3% of the value below it (else all SVG_STATE_ONE). Writes out[i].
 * Non-finite values get SVG_STATE_ONE. */
void svg_split_states(const double *x, size_t n, int *out);

struct svg_bars {
	const char *title;           /* shown on top */
	const char *axis_label;      /* under the axis, e.g. "speedup (baseline / final)" */
	const char *const *labels;   /* one per bar (NULL entries print as "?") */
	const double *values;        /* ratios drawn from 1 on a log scale */
	const int *failing;          /* per bar: non-zero draws it red; NULL none */
	size_t n;
	double geomean;              /* a dashed vertical line with its value; NaN omits */
	int sort_desc;               /* 1: bars sorted by value, largest first */
};

/* Writes horizontal bars on a log scale, 1.0 marked, values > 1 green to
 * the right, < 1 orange to the left, failing ones red, each labelled with
 * its value. Values not finite and > 0 get a row saying "n/a" and no bar.
 * Returns 0, or -1 on a write or allocation error (errno set). n == 0
 * writes an empty chart that says so. */
int svg_write_bars(FILE *f, const struct svg_bars *p);

/* Write the plot to the file path: into a temporary file beside it, renamed
 * over path only when complete (a failed write never leaves half a plot).
 * Return 0, or -1 with errno set (the temporary file is removed). */
int svg_save_ab(const char *path, const struct svg_ab *p);
int svg_save_bars(const char *path, const struct svg_bars *p);

#endif
