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
#define COLOR_UP "#2e7d32"
#define COLOR_DOWN "#ef6c00"
#define COLOR_FAIL "#c62828"
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

int svg_write_ab(FILE *f, const struct svg_ab *p)
{
	const int W = 820, H = 460;
	const double L = 70, R = 540, T = 60, B = 360; /* main panel */
	const double PL = 690, PR = 800;             /* estimate panel */
	int *sa = NULL, *sb = NULL;
	char b1[32], b2[32], b3[32], buf[160];
	if (!p || p->npairs == 0 || !p->a || !p->b) {
		errno = EINVAL;
		return -1;
	}
	size_t n = p->npairs;
	sa = malloc(n * sizeof(*sa));
	sb = malloc(n * sizeof(*sb));
	if (!sa || !sb) {
		free(sa);
		free(sb);
		errno = ENOMEM;
		return -1;
	}
	if (p->a_state)
		memcpy(sa, p->a_state, n * sizeof(*sa));
	else
		svg_split_states(p->a, n, sa);
	if (p->b_state)
		memcpy(sb, p->b_state, n * sizeof(*sb));
	else
		svg_split_states(p->b, n, sb);

	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		if (usable(p->a[i]))
			lo = fmin(lo, p->a[i]), hi = fmax(hi, p->a[i]);
		if (usable(p->b[i]))
			lo = fmin(lo, p->b[i]), hi = fmax(hi, p->b[i]);
	}
	if (usable(p->a_median))
		lo = fmin(lo, p->a_median), hi = fmax(hi, p->a_median);
	if (usable(p->b_median))
		lo = fmin(lo, p->b_median), hi = fmax(hi, p->b_median);
	if (!isfinite(lo))
		lo = 1, hi = 2;
	if (hi - lo < 0.02 * hi)
		lo -= 0.01 * hi, hi += 0.01 * hi;
	double pad = 0.08 * (hi - lo);
	lo -= pad, hi += pad;
#define YM(v) (B - ((v) - lo) / (hi - lo) * (B - T))

	open_svg(f, W, H, p->title);
	/* y grid and ticks */
	double st = nice_step(hi - lo, 6);
	for (double t = ceil(lo / st) * st; t <= hi + 1e-9 * st; t += st) {
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", L,
			YM(t), R, YM(t), COLOR_GRID);
		text(f, L - 6, YM(t) + 4, "end", NULL, num(b1, sizeof(b1), t));
	}
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
		   "stroke=\"%s\"/>\n", L, T, R - L, B - T, COLOR_AXIS);
	text(f, 18, (T + B) / 2, "middle", "transform=\"rotate(-90 18 210)\"", "run median (us)");
	text(f, (L + R) / 2, B + 32, "middle", NULL, "pair (run order: A then B)");

	double slot = (R - L) / (double)n, dx = fmin(slot * 0.22, 8);
	size_t every = n <= 20 ? 1 : (n + 19) / 20;
	for (size_t i = 0; i < n; i++) {
		double xc = L + (i + 0.5) * slot;
		if (i % every == 0 || i + 1 == n) {
			snprintf(buf, sizeof(buf), "%zu", i + 1);
			text(f, xc, B + 16, "middle", NULL, buf);
		}
	}
	/* merged medians */
	if (usable(p->a_median)) {
		fprintf(f, "<line class=\"median-a\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			   "stroke=\"%s\" stroke-dasharray=\"6 4\"/>\n",
			L, YM(p->a_median), R, YM(p->a_median), COLOR_A);
		snprintf(buf, sizeof(buf), "A median %s", num(b1, sizeof(b1), p->a_median));
		text(f, R + 4, YM(p->a_median) + 4, "start", "fill=\"" COLOR_A "\" font-size=\"11\"",
		     buf);
	}
	if (usable(p->b_median)) {
		fprintf(f, "<line class=\"median-b\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			   "stroke=\"%s\" stroke-dasharray=\"2 3\"/>\n",
			L, YM(p->b_median), R, YM(p->b_median), COLOR_B);
		snprintf(buf, sizeof(buf), "B median %s", num(b1, sizeof(b1), p->b_median));
		double y = YM(p->b_median) + 4;
		if (usable(p->a_median) && fabs(YM(p->a_median) - YM(p->b_median)) < 12)
			y += YM(p->b_median) > YM(p->a_median) ? 8 : -8; /* keep labels apart */
		text(f, R + 4, y, "start", "fill=\"" COLOR_B "\" font-size=\"11\"", buf);
	}
	/* pairs joined, then the marks on top */
	for (size_t i = 0; i < n; i++) {
		if (!usable(p->a[i]) || !usable(p->b[i]))
			continue;
		double xc = L + (i + 0.5) * slot;
		fprintf(f, "<line class=\"pair\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			   "stroke=\"#9e9e9e\" stroke-width=\"1.2\"/>\n",
			xc - dx, YM(p->a[i]), xc + dx, YM(p->b[i]));
	}
	for (size_t i = 0; i < n; i++) {
		double xc = L + (i + 0.5) * slot;
		if (usable(p->a[i]))
			marker(f, 'a', sa[i], xc - dx, YM(p->a[i]), i, p->a[i], 0);
		if (usable(p->b[i]))
			marker(f, 'b', sb[i], xc + dx, YM(p->b[i]), i, p->b[i], 0);
	}

	/* legend: per arm, the states present */
	int seen[2][4] = { { 0 } }; /* [arm][one, fast, slow, outlier] */
	for (size_t i = 0; i < n; i++) {
		if (usable(p->a[i]))
			seen[0][(sa[i] >= -1 && sa[i] <= 2) ? sa[i] + 1 : 0] = 1;
		if (usable(p->b[i]))
			seen[1][(sb[i] >= -1 && sb[i] <= 2) ? sb[i] + 1 : 0] = 1;
	}
	fputs("<g class=\"legend\">\n", f);
	double lx = L, ly = B + 62;
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
	text(f, L, B + 84, "start", "font-size=\"11\" fill=\"#555555\"",
	     split ? "filled = fast state, hollow = slow state (each arm's run medians split at "
		     "their largest gap over 3%, unless classified by the caller)"
		   : "one state per arm: no gap over 3% between run medians");

	/* estimate panel: relative change of B vs A, in % */
	int has_est = isfinite(p->estimate), has_ci = isfinite(p->lo) && isfinite(p->hi);
	double noise = isfinite(p->noise) && p->noise > 0 ? p->noise : 0;
	double elo = -noise, ehi = noise;
	if (has_est)
		elo = fmin(elo, p->estimate), ehi = fmax(ehi, p->estimate);
	if (has_ci)
		elo = fmin(elo, p->lo), ehi = fmax(ehi, p->hi);
	elo = fmin(elo, 0), ehi = fmax(ehi, 0);
	if (ehi - elo < 0.02)
		elo -= 0.01, ehi += 0.01;
	pad = 0.1 * (ehi - elo);
	elo -= pad, ehi += pad;
#define YE(v) (B - ((v) - elo) / (ehi - elo) * (B - T))
	double cx = PL + 40;
	text(f, (PL + PR) / 2 + 10, T - 10, "middle", "font-weight=\"bold\"", "B vs A");
	if (noise > 0) {
		fprintf(f, "<rect class=\"tie-band\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			   "height=\"%.1f\" fill=\"#eeeeee\"/>\n",
			PL + 10, YE(noise), PR - PL - 10, YE(-noise) - YE(noise));
		snprintf(buf, sizeof(buf), "tie \xC2\xB1%s%%", num(b1, sizeof(b1), 100 * noise));
		text(f, PR - 2, YE(-noise) - 4, "end", "font-size=\"10\" fill=\"#777777\"", buf);
	}
	st = nice_step(100 * (ehi - elo), 5);
	for (double t = ceil(100 * elo / st) * st; t <= 100 * ehi + 1e-9 * st; t += st) {
		double tv = fabs(t) < 1e-9 * st ? 0 : t;
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
			PL + 6, YE(tv / 100), PL + 10, YE(tv / 100), COLOR_AXIS);
		snprintf(buf, sizeof(buf), "%s%s%%", tv > 0 ? "+" : "", num(b1, sizeof(b1), tv));
		text(f, PL + 3, YE(tv / 100) + 4, "end", "font-size=\"11\"", buf);
	}
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
		PL + 10, T, PL + 10, B, COLOR_AXIS);
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
		   "stroke-dasharray=\"3 3\"/>\n", PL + 10, YE(0), PR, YE(0), COLOR_AXIS);
	if (has_ci) {
		fprintf(f, "<path class=\"interval\" d=\"M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f"
			   "M%.1f %.1fL%.1f %.1f\" stroke=\"#333333\" stroke-width=\"2\" fill=\"none\">",
			cx, YE(p->lo), cx, YE(p->hi), cx - 8, YE(p->lo), cx + 8, YE(p->lo), cx - 8,
			YE(p->hi), cx + 8, YE(p->hi));
		fprintf(f, "<title>interval %s to %s</title></path>\n", pct(b1, sizeof(b1), p->lo),
			pct(b2, sizeof(b2), p->hi));
	}
	if (has_est) {
		double y = YE(p->estimate);
		fprintf(f, "<path class=\"estimate\" d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" "
			   "fill=\"#333333\"><title>estimate %s</title></path>\n",
			cx, y - 6, cx + 6, y, cx, y + 6, cx - 6, y, pct(b1, sizeof(b1), p->estimate));
		text(f, cx + 12, y + 4, "start", "font-weight=\"bold\"",
		     pct(b1, sizeof(b1), p->estimate));
	}
	text(f, (PL + PR) / 2 + 10, B + 16, "middle", "font-size=\"11\"", "+ = B faster");
	if (has_ci) {
		if (isfinite(p->ci_level))
			snprintf(buf, sizeof(buf), "%s%% interval", num(b3, sizeof(b3), 100 * p->ci_level));
		else
			snprintf(buf, sizeof(buf), "interval");
		text(f, (PL + PR) / 2 + 10, B + 30, "middle", "font-size=\"11\"", buf);
		snprintf(buf, sizeof(buf), "%s to %s", pct(b1, sizeof(b1), p->lo),
			 pct(b2, sizeof(b2), p->hi));
		text(f, (PL + PR) / 2 + 10, B + 44, "middle", "font-size=\"11\"", buf);
	}
	fputs("</svg>\n", f);
#undef YM
#undef YE
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

int svg_write_bars(FILE *f, const struct svg_bars *p)
{
	const int W = 800, ROW = 24, TOP = 60;
	const size_t MAXCP = 40;
	size_t n = p->n, *ord = malloc((n ? n : 1) * sizeof(*ord));
	char b1[32], buf[256];
	if (!ord) {
		errno = ENOMEM;
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		ord[i] = i;
	if (p->sort_desc && n > 1) {
		sort_vals = p->values;
		qsort(ord, n, sizeof(*ord), cmp_desc);
	}
	double lw = 60;
	for (size_t i = 0; i < n; i++) {
		size_t cut;
		int tr;
		const char *s = p->labels && p->labels[i] ? p->labels[i] : "?";
		lw = fmax(lw, text_width(s, MAXCP, &cut, &tr) + (tr ? 12 : 0));
	}
	lw = fmin(lw, 320);
	double L = lw + 20, R = W - 90;
	int H = TOP + (int)(n ? n : 1) * ROW + 70;

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
	llo -= lpad, lhi += lpad;
#define XS(v) (L + (log(v) - llo) / (lhi - llo) * (R - L))

	open_svg(f, W, H, p->title);
	double yb = TOP + (double)(n ? n : 1) * ROW; /* axis line */
	/* ticks: 1-2-5 decades, or finer linear steps on a short range */
	double ticks[64];
	size_t nt = 0;
	for (int e = (int)floor(llo / log(10)) - 1; e <= (int)ceil(lhi / log(10)) && nt < 60; e++)
		for (int m = 0; m < 3; m++) {
			double t = (m == 0 ? 1 : m == 1 ? 2 : 5) * pow(10, e);
			if (log(t) >= llo && log(t) <= lhi && nt < 60)
				ticks[nt++] = t;
		}
	if (nt < 3) {
		nt = 0;
		double lo = exp(llo), hi = exp(lhi), st = nice_step(hi - lo, 5);
		for (double t = ceil(lo / st) * st; t <= hi && nt < 60; t += st)
			ticks[nt++] = t;
	}
	for (size_t i = 0; i < nt; i++) {
		double x = XS(ticks[i]);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", x,
			TOP - 6, x, yb, COLOR_GRID);
		snprintf(buf, sizeof(buf), "%s\xC3\x97", num(b1, sizeof(b1), ticks[i]));
		text(f, x, yb + 16, "middle", "font-size=\"11\"", buf);
	}
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", L, yb,
		R, yb, COLOR_AXIS);
	fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333333\" "
		   "stroke-width=\"1.5\"/>\n", XS(1.0), TOP - 6, XS(1.0), yb);
	text(f, (L + R) / 2, yb + 36, "middle", NULL,
	     p->axis_label ? p->axis_label : "speedup (log scale)");

	if (n == 0)
		text(f, (L + R) / 2, TOP + 16, "middle", "fill=\"#777777\"", "no data");
	for (size_t r = 0; r < n; r++) {
		size_t i = ord[r];
		double v = p->values[i], y = TOP + (double)r * ROW;
		int fail = p->failing && p->failing[i];
		const char *lab = p->labels && p->labels[i] ? p->labels[i] : "?";
		size_t cut;
		int tr;
		text_width(lab, MAXCP, &cut, &tr);
		char *shown = malloc(cut + 4);
		if (!shown) {
			free(ord);
			errno = ENOMEM;
			return -1;
		}
		memcpy(shown, lab, cut);
		memcpy(shown + cut, tr ? "\xE2\x80\xA6" : "", tr ? 4 : 1); /* ellipsis */
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\"%s><title>", L - 8,
			y + ROW / 2.0 + 4, fail ? " fill=\"" COLOR_FAIL "\" font-weight=\"bold\"" : "");
		report_xml_escape(f, lab, 0);
		fputs("</title>", f);
		report_xml_escape(f, shown, 0);
		fputs("</text>\n", f);
		free(shown);
		if (!usable(v)) {
			text(f, XS(1.0) + 6, y + ROW / 2.0 + 4, "start", "fill=\"#777777\"", "n/a");
			continue;
		}
		double x0 = fmin(XS(1.0), XS(v)), x1 = fmax(XS(1.0), XS(v));
		if (x1 - x0 < 1)
			x1 = x0 + 1; /* a speedup of exactly 1 stays visible */
		const char *col = fail ? COLOR_FAIL : v >= 1 ? COLOR_UP : COLOR_DOWN;
		fprintf(f, "<rect class=\"bar%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" "
			   "fill=\"%s\"><title>",
			fail ? " failing" : "", x0, y + 4, x1 - x0, ROW - 8, col);
		report_xml_escape(f, lab, 0);
		fprintf(f, ": %s\xC3\x97%s</title></rect>\n", num(b1, sizeof(b1), v),
			fail ? " (does not reconcile)" : "");
		snprintf(buf, sizeof(buf), "%s\xC3\x97", num(b1, sizeof(b1), v));
		text(f, x1 + 5, y + ROW / 2.0 + 4, "start", fail ? "fill=\"" COLOR_FAIL "\"" : NULL,
		     buf);
	}
	if (usable(p->geomean)) {
		double x = XS(p->geomean);
		fprintf(f, "<line class=\"geomean\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" "
			   "stroke=\"#6a1b9a\" stroke-width=\"2\" stroke-dasharray=\"6 4\">"
			   "<title>geometric mean %s\xC3\x97</title></line>\n",
			x, TOP - 6, x, yb, num(b1, sizeof(b1), p->geomean));
		snprintf(buf, sizeof(buf), "geomean %s\xC3\x97", num(b1, sizeof(b1), p->geomean));
		text(f, x, TOP - 10, "middle", "fill=\"#6a1b9a\" font-weight=\"bold\"", buf);
	}
	fputs("</svg>\n", f);
#undef XS
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
