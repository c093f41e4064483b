/* svg.c: the A/B run plot and the speedup bars (svg.h).
 *
 * Hand-written SVG: a fixed layout in user units, presentation attributes
 * rather than a <style> block (so several plots inlined in one HTML page
 * never share rules), one <title> per mark for hover tooltips.
 */
#include "report/svg.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/report.h"

#define FONT                                                                     \
	"font-family=\"Helvetica, Arial, 'Noto Sans CJK SC', 'PingFang SC', "         \
	"'Microsoft YaHei', sans-serif\""
#define COLOR_A "#1f77b4"
#define COLOR_B "#ff7f0e"
#define COLOR_UP SVG_COLOR_UP
#define COLOR_DOWN SVG_COLOR_DOWN
#define COLOR_FAIL SVG_COLOR_FAIL
#define COLOR_GRID "#e0e0e0"
#define COLOR_AXIS "#555555"

static int usable(double v)
{
	return isfinite(v) && v > 0;
}

/* "%.4g" without exponent surprises for the magnitudes we plot. */
static const char *num(char *buf, size_t n, double v)
{
	if (fabs(v) >= 1e5 || (fabs(v) < 1e-3 && v != 0))
		snprintf(buf, n, "%.3g", v);
	else
		snprintf(buf, n, "%.4g", v);
	return buf;
}

/* A relative change as a signed percentage, at most 2 decimals: "+2.76%". */
static const char *pct(char *buf, size_t n, double frac)
{
	snprintf(buf, n, "%+.2f", 100 * frac);
	size_t len = strlen(buf);
	while (len > 0 && buf[len - 1] == '0')
		buf[--len] = '\0';
	if (len > 0 && buf[len - 1] == '.')
		buf[--len] = '\0';
	if (strcmp(buf, "+0") == 0 || strcmp(buf, "-0") == 0)
		snprintf(buf, n, "0");
	snprintf(buf + strlen(buf), n - strlen(buf), "%%");
	return buf;
}

static void text(FILE *f, double x, double y, const char *anchor, const char *extra,
		 const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s%s>", x, y, anchor,
		extra ? " " : "", extra ? extra : "");
	report_xml_escape(f, s, 0);
	fputs("</text>\n", f);
}

static void open_svg(FILE *f, int w, int h, const char *title)
{
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		   "viewBox=\"0 0 %d %d\" " FONT " font-size=\"12\" role=\"img\">\n",
		w, h, w, h);
	fputs("<title>", f);
	report_xml_escape(f, title ? title : "", 0);
	fputs("</title>\n", f);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", w, h);
	text(f, w / 2.0, 24, "middle", "font-size=\"15\" font-weight=\"bold\"", title ? title : "");
}

/* A "nice" tick step (1, 2 or 5 times a power of ten) for about k ticks. */
static double nice_step(double range, int k)
{
	if (!(range > 0))
		return 1;
	double raw = range / k, p = pow(10, floor(log10(raw))), m = raw / p;
	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

/* ---- states ------------------------------------------------------------ */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void svg_split_states(const double *x, size_t n, int *out)
{
	double *s = malloc((n ? n : 1) * sizeof(*s));
	size_t m = 0;
	double cut = INFINITY, best = 0;
	for (size_t i = 0; i < n; i++)
		if (s && usable(x[i]))
			s[m++] = x[i];
	if (m >= 2) {
		qsort(s, m, sizeof(*s), cmp_double);
		for (size_t i = 0; i + 1 < m; i++) {
			double gap = s[i + 1] / s[i] - 1;
			if (gap > best) {
				best = gap;
				cut = s[i];
			}
		}
	}
	free(s);
	for (size_t i = 0; i < n; i++) {
		if (!usable(x[i]) || !(best > 0.03))
			out[i] = SVG_STATE_ONE;
		else
			out[i] = x[i] <= cut ? SVG_STATE_FAST : SVG_STATE_SLOW;
	}
}

static const char *state_name(int s)
{
	switch (s) {
	case SVG_STATE_FAST: return "fast";
	case SVG_STATE_SLOW: return "slow";
	case SVG_STATE_OUTLIER: return "outlier";
	default: return "one";
	}
}

/* ---- A/B plot ----------------------------------------------------------- */

/* One run marker: A a circle, B a square; fast/one filled, slow hollow,
 * outlier a cross. */
static void marker(FILE *f, char arm, int state, double x, double y, size_t pair, double v,
		   int legend)
{
	const char *col = arm == 'a' ? COLOR_A : COLOR_B;
	const char *fill = state == SVG_STATE_SLOW ? "#ffffff" : col;
	char cls[64], b1[32];
	snprintf(cls, sizeof(cls), "%s arm-%c state-%s", legend ? "legend-mark" : "run", arm,
		 state_name(state));
	if (state == SVG_STATE_OUTLIER)
		fprintf(f, "<path class=\"%s\" d=\"M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f\" "
			   "stroke=\"%s\" stroke-width=\"2\" fill=\"none\">",
			cls, x - 4, y - 4, x + 4, y + 4, x - 4, y + 4, x + 4, y - 4, col);
	else if (arm == 'a')
		fprintf(f, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"%s\" "
			   "stroke=\"%s\" stroke-width=\"1.8\">", cls, x, y, fill, col);
	else
		fprintf(f, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\" "
			   "fill=\"%s\" stroke=\"%s\" stroke-width=\"1.8\">", cls, x - 4, y - 4, fill,
			col);
	if (!legend)
		fprintf(f, "<title>%c run %zu: %s us (%s)</title>", arm == 'a' ? 'A' : 'B', pair + 1,
			num(b1, sizeof(b1), v), state_name(state));
	fputs(state == SVG_STATE_OUTLIER ? "</path>\n" : arm == 'a' ? "</circle>\n" : "</rect>\n",
	      f);
}

static void legend_item(FILE *f, double *x, double y, char arm, int state, const char *label)
{
	marker(f, arm, state, *x, y - 4, 0, 0, 1);
	text(f, *x + 9, y, "start", NULL, label);
	*x += 28 + 7.0 * (double)strlen(label);
}

/* The A/B chart's frame: the main panel (run medians per pair), the
 * estimate panel (B vs A), and the value range each one shows. */
struct ab_frame {
	double L, R, T, B;  /* main panel */
	double PL, PR;      /* estimate panel */
	double lo, hi;      /* us shown in the main panel */
	double elo, ehi;    /* relative change shown in the estimate panel */
	double noise;       /* the tie band (0: none) */
	size_t n;           /* pairs */
	const int *sa, *sb; /* states per pair */
};

static double ab_ym(const struct ab_frame *g, double v)
{
	return g->B - (v - g->lo) / (g->hi - g->lo) * (g->B - g->T);
}

static double ab_ye(const struct ab_frame *g, double v)
{
	return g->B - (v - g->elo) / (g->ehi - g->elo) * (g->B - g->T);
}

static void widen(double *lo, double *hi, double v)
{
	if (usable(v))
		*lo = fmin(*lo, v), *hi = fmax(*hi, v);
}

/* The us range over every run median and both merged medians, padded. */
static void ab_value_range(const struct svg_ab *p, struct ab_frame *g)
{
	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < g->n; i++) {
		widen(&lo, &hi, p->a[i]);
		widen(&lo, &hi, p->b[i]);
	}
	widen(&lo, &hi, p->a_median);
	widen(&lo, &hi, p->b_median);
	if (!isfinite(lo))
		lo = 1, hi = 2;
	if (hi - lo < 0.02 * hi)
		lo -= 0.01 * hi, hi += 0.01 * hi;
	double pad = 0.08 * (hi - lo);
	g->lo = lo - pad, g->hi = hi + pad;
}

/* The relative-change range: the tie band, the estimate and its interval, 0. */
static void ab_change_range(const struct svg_ab *p, struct ab_frame *g)
{
	g->noise = isfinite(p->noise) && p->noise > 0 ? p->noise : 0;
	double elo = -g->noise, ehi = g->noise;
	if (isfinite(p->estimate))
		elo = fmin(elo, p->estimate), ehi = fmax(ehi, p->estimate);
	if (isfinite(p->lo) && isfinite(p->hi))
		elo = fmin(elo, p->lo), ehi = fmax(ehi, p->hi);
	elo = fmin(elo, 0), ehi = fmax(ehi, 0);
	if (ehi - elo < 0.02)
		elo -= 0.01, ehi += 0.01;
	double pad = 0.1 * (ehi - elo);
	g->elo = elo - pad, g->ehi = ehi + pad;
}

/* Grid, ticks, frame and axis titles of the main panel. */
static void ab_axes(FILE *f, const struct ab_frame *g)
{
	char b1[32], buf[32];
	double st = nice_step(g->hi - g->lo, 6);
	for (double t = ceil(g->lo / st) * st; t <= g->hi + 1e-9 * st; t += st) {
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", g->L,
			ab_ym(g, t), g->R, ab_ym(g, t), COLOR_GRID);
		text(f, g->L - 6, ab_ym(g, t) + 4, "end", NULL, num(b1, sizeof(b1), t));
	}
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
		   "stroke=\"%s\"/>\n", g->L, g->T, g->R - g->L, g->B - g->T, COLOR_AXIS);
	text(f, 18, (g->T + g->B) / 2, "middle", "transform=\"rotate(-90 18 210)\"", "run median (us)");
	text(f, (g->L + g->R) / 2, g->B + 32, "middle", NULL, "pair (run order: A then B)");
	double slot = (g->R - g->L) / (double)g->n;
	size_t every = g->n <= 20 ? 1 : (g->n + 19) / 20;
	for (size_t i = 0; i < g->n; i++) {
		if (i % every == 0 || i + 1 == g->n) {
			snprintf(buf, sizeof(buf), "%zu", i + 1);
			text(f, g->L + (i + 0.5) * slot, g->B + 16, "middle", NULL, buf);
		}
	}
}

/* The merged medians as dashed lines, labelled (labels kept apart). */
static void ab_medians(FILE *f, const struct svg_ab *p, const struct ab_frame *g)
{
	char b1[32], buf[160];
	if (usable(p->a_median)) {
		fprintf(f, "<line class=\"median-a\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			   "stroke=\"%s\" stroke-dasharray=\"6 4\"/>\n",
			g->L, ab_ym(g, p->a_median), g->R, ab_ym(g, p->a_median), COLOR_A);
		snprintf(buf, sizeof(buf), "A median %s", num(b1, sizeof(b1), p->a_median));
		text(f, g->R + 4, ab_ym(g, p->a_median) + 4, "start",
		     "fill=\"" COLOR_A "\" font-size=\"11\"", buf);
	}
	if (usable(p->b_median)) {
		double yb = ab_ym(g, p->b_median);
		fprintf(f, "<line class=\"median-b\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			   "stroke=\"%s\" stroke-dasharray=\"2 3\"/>\n",
			g->L, yb, g->R, yb, COLOR_B);
		snprintf(buf, sizeof(buf), "B median %s", num(b1, sizeof(b1), p->b_median));
		double y = yb + 4;
		if (usable(p->a_median) && fabs(ab_ym(g, p->a_median) - yb) < 12)
			y += yb > ab_ym(g, p->a_median) ? 8 : -8; /* keep labels apart */
		text(f, g->R + 4, y, "start", "fill=\"" COLOR_B "\" font-size=\"11\"", buf);
	}
}

/* Each pair joined by a line, then the marks on top. */
static void ab_pairs(FILE *f, const struct svg_ab *p, const struct ab_frame *g)
{
	double slot = (g->R - g->L) / (double)g->n, dx = fmin(slot * 0.22, 8);
	for (size_t i = 0; i < g->n; i++) {
		if (!usable(p->a[i]) || !usable(p->b[i]))
			continue;
		double xc = g->L + (i + 0.5) * slot;
		fprintf(f, "<line class=\"pair\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			   "stroke=\"#9e9e9e\" stroke-width=\"1.2\"/>\n",
			xc - dx, ab_ym(g, p->a[i]), xc + dx, ab_ym(g, p->b[i]));
	}
	for (size_t i = 0; i < g->n; i++) {
		double xc = g->L + (i + 0.5) * slot;
		if (usable(p->a[i]))
			marker(f, 'a', g->sa[i], xc - dx, ab_ym(g, p->a[i]), i, p->a[i], 0);
		if (usable(p->b[i]))
			marker(f, 'b', g->sb[i], xc + dx, ab_ym(g, p->b[i]), i, p->b[i], 0);
	}
}

static int state_slot(int s)
{
	return s >= -1 && s <= 2 ? s + 1 : 0; /* one, fast, slow, outlier */
}

/* Legend: per arm, the states present, and what filled/hollow mean. */
static void ab_legend(FILE *f, const struct svg_ab *p, const struct ab_frame *g)
{
	int seen[2][4] = { { 0 } }; /* [arm][one, fast, slow, outlier] */
	for (size_t i = 0; i < g->n; i++) {
		if (usable(p->a[i]))
			seen[0][state_slot(g->sa[i])] = 1;
		if (usable(p->b[i]))
			seen[1][state_slot(g->sb[i])] = 1;
	}
	fputs("<g class=\"legend\">\n", f);
	double lx = g->L, ly = g->B + 62;
	static const char *const lab[2][4] = { { "A", "A fast", "A slow", "A outlier" },
					       { "B", "B fast", "B slow", "B outlier" } };
	int split = 0;
	for (int arm = 0; arm < 2; arm++)
		for (int k = 0; k < 4; k++)
			if (seen[arm][k]) {
				legend_item(f, &lx, ly, arm ? 'b' : 'a', k - 1, lab[arm][k]);
				split |= k == 2;
			}
	fputs("</g>\n", f);
	text(f, g->L, g->B + 84, "start", "font-size=\"11\" fill=\"#555555\"",
	     split ? "filled = fast state, hollow = slow state (each arm's run medians split at "
		     "their largest gap over 3%, unless classified by the caller)"
		   : "one state per arm: no gap over 3% between run medians");
}

/* The estimate panel's frame: title, tie band, ticks, axis and zero line. */
static void ab_estimate_axes(FILE *f, const struct ab_frame *g)
{
	char b1[32], buf[160];
	double PL = g->PL, PR = g->PR;
	text(f, (PL + PR) / 2 + 10, g->T - 10, "middle", "font-weight=\"bold\"", "B vs A");
	if (g->noise > 0) {
		fprintf(f, "<rect class=\"tie-band\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			   "height=\"%.1f\" fill=\"#eeeeee\"/>\n",
			PL + 10, ab_ye(g, g->noise), PR - PL - 10, ab_ye(g, -g->noise) - ab_ye(g, g->noise));
		snprintf(buf, sizeof(buf), "tie \xC2\xB1%s%%", num(b1, sizeof(b1), 100 * g->noise));
		text(f, PR - 2, ab_ye(g, -g->noise) - 4, "end", "font-size=\"10\" fill=\"#777777\"", buf);
	}
	double st = nice_step(100 * (g->ehi - g->elo), 5);
	for (double t = ceil(100 * g->elo / st) * st; t <= 100 * g->ehi + 1e-9 * st; t += st) {
		double tv = fabs(t) < 1e-9 * st ? 0 : t;
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
			PL + 6, ab_ye(g, tv / 100), PL + 10, ab_ye(g, tv / 100), COLOR_AXIS);
		snprintf(buf, sizeof(buf), "%s%s%%", tv > 0 ? "+" : "", num(b1, sizeof(b1), tv));
		text(f, PL + 3, ab_ye(g, tv / 100) + 4, "end", "font-size=\"11\"", buf);
	}
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
		PL + 10, g->T, PL + 10, g->B, COLOR_AXIS);
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
		   "stroke-dasharray=\"3 3\"/>\n", PL + 10, ab_ye(g, 0), PR, ab_ye(g, 0), COLOR_AXIS);
}

/* The estimate (a diamond) and its interval (an I bar), with captions. */
static void ab_estimate(FILE *f, const struct svg_ab *p, const struct ab_frame *g)
{
	char b1[32], b2[32], b3[32], buf[160];
	int has_ci = isfinite(p->lo) && isfinite(p->hi);
	double cx = g->PL + 40, mid = (g->PL + g->PR) / 2 + 10;
	if (has_ci) {
		double ylo = ab_ye(g, p->lo), yhi = ab_ye(g, p->hi);
		fprintf(f, "<path class=\"interval\" d=\"M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f"
			   "M%.1f %.1fL%.1f %.1f\" stroke=\"#333333\" stroke-width=\"2\" fill=\"none\">",
			cx, ylo, cx, yhi, cx - 8, ylo, cx + 8, ylo, cx - 8, yhi, cx + 8, yhi);
		fprintf(f, "<title>interval %s to %s</title></path>\n", pct(b1, sizeof(b1), p->lo),
			pct(b2, sizeof(b2), p->hi));
	}
	if (isfinite(p->estimate)) {
		double y = ab_ye(g, p->estimate);
		fprintf(f, "<path class=\"estimate\" d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" "
			   "fill=\"#333333\"><title>estimate %s</title></path>\n",
			cx, y - 6, cx + 6, y, cx, y + 6, cx - 6, y, pct(b1, sizeof(b1), p->estimate));
		text(f, cx + 12, y + 4, "start", "font-weight=\"bold\"",
		     pct(b1, sizeof(b1), p->estimate));
	}
	text(f, mid, g->B + 16, "middle", "font-size=\"11\"", "+ = B faster");
	if (!has_ci)
		return;
	if (isfinite(p->ci_level))
		snprintf(buf, sizeof(buf), "%s%% interval", num(b3, sizeof(b3), 100 * p->ci_level));
	else
		snprintf(buf, sizeof(buf), "interval");
	text(f, mid, g->B + 30, "middle", "font-size=\"11\"", buf);
	snprintf(buf, sizeof(buf), "%s to %s", pct(b1, sizeof(b1), p->lo), pct(b2, sizeof(b2), p->hi));
	text(f, mid, g->B + 44, "middle", "font-size=\"11\"", buf);
}

/* The caller's states per pair, or the split svg_split_states finds. */
static int *arm_states(const double *v, const int *given, size_t n)
{
	int *s = malloc(n * sizeof(*s));
	if (!s)
		return NULL;
	if (given)
		memcpy(s, given, n * sizeof(*s));
	else
		svg_split_states(v, n, s);
	return s;
}

int svg_write_ab(FILE *f, const struct svg_ab *p)
{
	if (!p || p->npairs == 0 || !p->a || !p->b) {
		errno = EINVAL;
		return -1;
	}
	struct ab_frame g = { .L = 70, .R = 540, .T = 60, .B = 360, .PL = 690, .PR = 800,
			      .n = p->npairs };
	int *sa = arm_states(p->a, p->a_state, g.n), *sb = arm_states(p->b, p->b_state, g.n);
	if (!sa || !sb) {
		free(sa);
		free(sb);
		errno = ENOMEM;
		return -1;
	}
	g.sa = sa, g.sb = sb;
	ab_value_range(p, &g);
	ab_change_range(p, &g);
	open_svg(f, 820, 460, p->title);
	ab_axes(f, &g);
	ab_medians(f, p, &g);
	ab_pairs(f, p, &g);
	ab_legend(f, p, &g);
	ab_estimate_axes(f, &g);
	ab_estimate(f, p, &g);
	fputs("</svg>\n", f);
	free(sa);
	free(sb);
	if (ferror(f)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}

/* ---- bars -------------------------------------------------------------- */

/* Display width in px of s at font-size 12 (wide glyphs for non-ASCII), and
 * the byte length of its first max_cp code points in *cut. */
static double text_width(const char *s, size_t max_cp, size_t *cut, int *truncated)
{
	double w = 0;
	size_t cp = 0, i = 0;
	*truncated = 0;
	for (; s[i]; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c & 0xC0) == 0x80)
			continue;
		if (cp == max_cp) {
			*truncated = 1;
			break;
		}
		cp++;
		w += c < 0x80 ? 7 : 12;
	}
	*cut = i;
	return w;
}

static const double *sort_vals; /* qsort has no context argument */

static int cmp_desc(const void *x, const void *y)
{
	size_t i = *(const size_t *)x, k = *(const size_t *)y;
	double a = sort_vals[i], b = sort_vals[k];
	int ua = usable(a), ub = usable(b);
	if (ua != ub)
		return ub - ua; /* n/a rows last */
	if (ua && a != b)
		return a < b ? 1 : -1;
	return (i > k) - (i < k); /* stable */
}

/* The bar chart's frame: a log scale from llo to lhi between L and R, one
 * row of ROW px per bar from TOP, the axis at yb. */
struct bars_frame {
	double L, R, yb, llo, lhi;
	int W, H, ROW, TOP;
	size_t maxcp; /* label code points shown before an ellipsis */
};

static double bars_x(const struct bars_frame *g, double v)
{
	return g->L + (log(v) - g->llo) / (g->lhi - g->llo) * (g->R - g->L);
}

/* Row order: as given, or by value, largest first (n/a rows last). */
static size_t *bars_order(const struct svg_bars *p)
{
	size_t n = p->n, *ord = malloc((n ? n : 1) * sizeof(*ord));
	if (!ord)
		return NULL;
	for (size_t i = 0; i < n; i++)
		ord[i] = i;
	if (p->sort_desc && n > 1) {
		sort_vals = p->values;
		qsort(ord, n, sizeof(*ord), cmp_desc);
	}
	return ord;
}

/* Width of the label column, the log range over values, geomean and 1. */
static void bars_layout(const struct svg_bars *p, struct bars_frame *g)
{
	size_t n = p->n;
	double lw = 60;
	for (size_t i = 0; i < n; i++) {
		size_t cut;
		int tr;
		const char *s = p->labels && p->labels[i] ? p->labels[i] : "?";
		lw = fmax(lw, text_width(s, g->maxcp, &cut, &tr) + (tr ? 12 : 0));
	}
	lw = fmin(lw, 320);
	g->L = lw + 20, g->R = g->W - 90;
	g->H = g->TOP + (int)(n ? n : 1) * g->ROW + 70;
	g->yb = g->TOP + (double)(n ? n : 1) * g->ROW;
	double vlo = 1, vhi = 1;
	for (size_t i = 0; i < n; i++)
		if (usable(p->values[i]))
			vlo = fmin(vlo, p->values[i]), vhi = fmax(vhi, p->values[i]);
	if (usable(p->geomean))
		vlo = fmin(vlo, p->geomean), vhi = fmax(vhi, p->geomean);
	double llo = log(vlo), lhi = log(vhi);
	if (lhi - llo < log(1.1)) {
		double mid = (llo + lhi) / 2;
		llo = mid - log(1.1) / 2, lhi = mid + log(1.1) / 2;
	}
	double lpad = 0.06 * (lhi - llo);
	g->llo = llo - lpad, g->lhi = lhi + lpad;
}

/* Ticks: 1-2-5 per decade, or finer linear steps on a short range. */
static size_t bars_ticks(const struct bars_frame *g, double *ticks, size_t max)
{
	size_t nt = 0;
	for (int e = (int)floor(g->llo / log(10)) - 1; e <= (int)ceil(g->lhi / log(10)) && nt < max; e++)
		for (int m = 0; m < 3; m++) {
			double t = (m == 0 ? 1 : m == 1 ? 2 : 5) * pow(10, e);
			if (log(t) >= g->llo && log(t) <= g->lhi && nt < max)
				ticks[nt++] = t;
		}
	if (nt >= 3)
		return nt;
	nt = 0;
	double lo = exp(g->llo), hi = exp(g->lhi), st = nice_step(hi - lo, 5);
	for (double t = ceil(lo / st) * st; t <= hi && nt < max; t += st)
		ticks[nt++] = t;
	return nt;
}

static void bars_axis(FILE *f, const struct svg_bars *p, const struct bars_frame *g)
{
	char b1[32], buf[256];
	double ticks[64];
	size_t nt = bars_ticks(g, ticks, 60);
	for (size_t i = 0; i < nt; i++) {
		double x = bars_x(g, ticks[i]);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", x,
			g->TOP - 6, x, g->yb, COLOR_GRID);
		snprintf(buf, sizeof(buf), "%s\xC3\x97", num(b1, sizeof(b1), ticks[i]));
		text(f, x, g->yb + 16, "middle", "font-size=\"11\"", buf);
	}
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", g->L,
		g->yb, g->R, g->yb, COLOR_AXIS);
	fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333333\" "
		   "stroke-width=\"1.5\"/>\n", bars_x(g, 1.0), g->TOP - 6, bars_x(g, 1.0), g->yb);
	text(f, (g->L + g->R) / 2, g->yb + 36, "middle", NULL,
	     p->axis_label ? p->axis_label : "speedup (log scale)");
}

/* A row's label, cut to maxcp code points with an ellipsis, the whole
 * label as its tooltip. Returns 0, -1 on allocation failure. */
static int bars_label(FILE *f, const char *lab, int fail, double y, const struct bars_frame *g)
{
	size_t cut;
	int tr;
	text_width(lab, g->maxcp, &cut, &tr);
	char *shown = malloc(cut + 4);
	if (!shown)
		return -1;
	memcpy(shown, lab, cut);
	memcpy(shown + cut, tr ? "\xE2\x80\xA6" : "", tr ? 4 : 1); /* ellipsis */
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\"%s><title>", g->L - 8,
		y + g->ROW / 2.0 + 4, fail ? " fill=\"" COLOR_FAIL "\" font-weight=\"bold\"" : "");
	report_xml_escape(f, lab, 0);
	fputs("</title>", f);
	report_xml_escape(f, shown, 0);
	fputs("</text>\n", f);
	free(shown);
	return 0;
}

/* One row's bar from 1 to v (green up, orange down, red failing) and its value. */
static void bars_bar(FILE *f, const char *lab, double v, int fail, double y,
		     const struct bars_frame *g)
{
	char b1[32], buf[256];
	if (!usable(v)) {
		text(f, bars_x(g, 1.0) + 6, y + g->ROW / 2.0 + 4, "start", "fill=\"#777777\"", "n/a");
		return;
	}
	double x0 = fmin(bars_x(g, 1.0), bars_x(g, v)), x1 = fmax(bars_x(g, 1.0), bars_x(g, v));
	if (x1 - x0 < 1)
		x1 = x0 + 1; /* a speedup of exactly 1 stays visible */
	const char *col = fail ? COLOR_FAIL : v >= 1 ? COLOR_UP : COLOR_DOWN;
	fprintf(f, "<rect class=\"bar%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" "
		   "fill=\"%s\"><title>",
		fail ? " failing" : "", x0, y + 4, x1 - x0, g->ROW - 8, col);
	report_xml_escape(f, lab, 0);
	fprintf(f, ": %s\xC3\x97%s</title></rect>\n", num(b1, sizeof(b1), v),
		fail ? " (does not reconcile)" : "");
	snprintf(buf, sizeof(buf), "%s\xC3\x97", num(b1, sizeof(b1), v));
	text(f, x1 + 5, y + g->ROW / 2.0 + 4, "start", fail ? "fill=\"" COLOR_FAIL "\"" : NULL, buf);
}

static void bars_geomean(FILE *f, double gm, const struct bars_frame *g)
{
	char b1[32], buf[256];
	if (!usable(gm))
		return;
	double x = bars_x(g, gm);
	fprintf(f, "<line class=\"geomean\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" "
		   "stroke=\"" SVG_COLOR_GEOMEAN "\" stroke-width=\"2\" stroke-dasharray=\"6 4\">"
		   "<title>geometric mean %s\xC3\x97</title></line>\n",
		x, g->TOP - 6, x, g->yb, num(b1, sizeof(b1), gm));
	snprintf(buf, sizeof(buf), "geomean %s\xC3\x97", num(b1, sizeof(b1), gm));
	text(f, x, g->TOP - 10, "middle", "fill=\"" SVG_COLOR_GEOMEAN "\" font-weight=\"bold\"", buf);
}

int svg_write_bars(FILE *f, const struct svg_bars *p)
{
	struct bars_frame g = { .W = 800, .ROW = 24, .TOP = 60, .maxcp = 40 };
	size_t *ord = bars_order(p);
	if (!ord) {
		errno = ENOMEM;
		return -1;
	}
	bars_layout(p, &g);
	open_svg(f, g.W, g.H, p->title);
	bars_axis(f, p, &g);
	if (p->n == 0)
		text(f, (g.L + g.R) / 2, g.TOP + 16, "middle", "fill=\"#777777\"", "no data");
	for (size_t r = 0; r < p->n; r++) {
		size_t i = ord[r];
		double y = g.TOP + (double)r * g.ROW;
		int fail = p->failing && p->failing[i];
		const char *lab = p->labels && p->labels[i] ? p->labels[i] : "?";
		if (bars_label(f, lab, fail, y, &g) != 0) {
			free(ord);
			errno = ENOMEM;
			return -1;
		}
		bars_bar(f, lab, p->values[i], fail, y, &g);
	}
	bars_geomean(f, p->geomean, &g);
	fputs("</svg>\n", f);
	free(ord);
	if (ferror(f)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}

/* ---- files -------------------------------------------------------------- */

static int save(const char *path, int (*write)(FILE *, const void *), const void *p)
{
	size_t n = strlen(path) + 16;
	char *tmp = malloc(n);
	FILE *f = NULL;
	int fd = -1, err = 0;
	if (!tmp) {
		errno = ENOMEM;
		return -1;
	}
	snprintf(tmp, n, "%s.tmpXXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		err = errno;
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		free(tmp);
		errno = err;
		return -1;
	}
	errno = 0;
	if (write(f, p) != 0 || ferror(f))
		err = errno ? errno : EIO;
	if (fclose(f) != 0 && !err)
		err = errno ? errno : EIO;
	if (!err && (chmod(tmp, 0644) != 0 || rename(tmp, path) != 0))
		err = errno;
	if (err)
		unlink(tmp);
	free(tmp);
	errno = err;
	return err ? -1 : 0;
}

static int write_ab_v(FILE *f, const void *p)
{
	return svg_write_ab(f, p);
}

static int write_bars_v(FILE *f, const void *p)
{
	return svg_write_bars(f, p);
}

int svg_save_ab(const char *path, const struct svg_ab *p)
{
	return save(path, write_ab_v, p);
}

int svg_save_bars(const char *path, const struct svg_bars *p)
{
	return save(path, write_bars_v, p);
}
