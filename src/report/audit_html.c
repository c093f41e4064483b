/* audit_html.c: `tlperf audit --format html` (report/audit.h): one
 * self-contained page: the totals as cards, the speedup chart (svg.h), a
 * legend of every colour, the main table and the Stage Result table. Text
 * is XML-escaped (report_xml_escape); numbers are written as they are. */
#include "report/audit.h"
#include "report/report.h"
#include "report/svg.h"

#include <math.h>
#include <stdlib.h>

static void h(FILE *f, const char *s)
{
	report_xml_escape(f, s, 0);
}

/* Colours of the page beyond the chart's (svg.h); each has a legend entry. */
#define ROW_FAIL_BG "#fdecea"

static const char html_css[] =
	"body{font-family:Helvetica,Arial,'Noto Sans CJK SC','PingFang SC','Microsoft YaHei',"
	"sans-serif;margin:24px;color:#222;}\n"
	"h1{font-size:22px;margin:0 0 8px}\n"
	".totals{display:flex;gap:12px;margin:12px 0 20px;flex-wrap:wrap}\n"
	".card{border:1px solid #ddd;border-radius:6px;padding:8px 14px;min-width:120px}\n"
	".card b{display:block;font-size:22px}\n"
	".card.bad b{color:" SVG_COLOR_FAIL "}\n"
	"tr.bad td{color:" SVG_COLOR_FAIL "}\n"
	"table{border-collapse:collapse;font-size:13px;margin-top:16px}\n"
	"th,td{border:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top;white-space:nowrap}\n"
	"th{background:#f5f5f5}\n"
	"td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
	"tr.fail td{background:" ROW_FAIL_BG ";color:" SVG_COLOR_FAIL "}\n"
	"caption{text-align:left;font-weight:bold;padding:4px 0}\n"
	".legend{list-style:none;padding:0;margin:4px 0 0;font-size:12px;display:flex;gap:16px;flex-wrap:wrap}\n"
	".legend .sw{display:inline-block;width:14px;height:10px;margin-right:5px;vertical-align:middle}\n"
	".legend .sw.line{height:0;border-top:2px dashed}\n"
	"tr.fail td.status{font-weight:bold}\n"
	".note{color:#666;font-size:12px}\n";

/* One entry per colour the page uses (chart and table), each swatch
 * carrying its colour in data-color so a check can match them. */
static void write_legend(FILE *f)
{
	static const struct {
		const char *color, *cls, *text;
	} e[] = {
		{ SVG_COLOR_UP, "", "bar: speedup &#8805; 1&#215; (faster than the baseline)" },
		{ SVG_COLOR_DOWN, "", "bar: speedup &lt; 1&#215; (slower than the baseline)" },
		{ SVG_COLOR_FAIL, "", "red (bar, name, row text, count): a claim that does not reconcile" },
		{ SVG_COLOR_GEOMEAN, " line", "dashed line: overall geometric mean" },
		{ ROW_FAIL_BG, "", "table row: the claim does not reconcile (or the folder fails the gate)" },
	};
	fputs("<ul class=\"legend\" aria-label=\"legend\">\n", f);
	for (size_t i = 0; i < sizeof(e) / sizeof(e[0]); i++)
		fprintf(f, "<li><span class=\"sw%s\" data-color=\"%s\" style=\"%s:%s\"></span>%s</li>\n",
			e[i].cls, e[i].color, *e[i].cls ? "border-color" : "background", e[i].color,
			e[i].text);
	fputs("</ul>\n", f);
}


/* The totals as cards. */
static void html_totals(FILE *f, const struct audit *a)
{
	char b[64];
	fputs("<div class=\"totals\">\n", f);
	fprintf(f, "<div class=\"card\"><b>%zu</b>operators checked</div>\n", a->n);
	fprintf(f, "<div class=\"card\"><b>%zu</b>reconciled</div>\n", a->reconciled);
	fprintf(f, "<div class=\"card%s\"><b>%zu</b>unreconcilable</div>\n",
		a->unreconcilable ? " bad" : "", a->unreconcilable);
	if (a->without_claims)
		fprintf(f, "<div class=\"card\"><b>%zu</b>without claims</div>\n", a->without_claims);
	fprintf(f, "<div class=\"card\"><b>%s</b>overall geomean speedup (%zu workloads)</div>\n",
		isfinite(a->geomean) ? report_audit_num(b, 64, a->geomean, "%.3f&#215;") : "n/a",
		a->nspeedups);
	fputs("</div>\n", f);
}

/* The chart: one bar per operator (its geomean), failing ones red.
 * Returns 0, -1 when out of memory or the chart failed. */
static int html_chart(FILE *f, const struct audit *a)
{
	const char **labels = malloc((a->n ? a->n : 1) * sizeof(*labels));
	double *vals = malloc((a->n ? a->n : 1) * sizeof(*vals));
	int *failing = malloc((a->n ? a->n : 1) * sizeof(*failing));
	int rc = -1;
	if (labels && vals && failing) {
		for (size_t i = 0; i < a->n; i++) {
			labels[i] = a->v[i].name;
			vals[i] = a->v[i].geomean;
			failing[i] = audit_op_failing(&a->v[i]);
		}
		struct svg_bars bars = { "speedup per operator (geometric mean over its workloads)",
					 "speedup = baseline_us / winner_us (log scale); red: claim does not reconcile",
					 labels, vals, failing, a->n, a->geomean, 1 };
		rc = svg_write_bars(f, &bars);
	}
	free(labels);
	free(vals);
	free(failing);
	return rc != 0 ? -1 : 0;
}

/* One table row of R: numbers right-aligned as they are, text escaped. */
static void html_row(void *ctx, const struct audit_op *op, const struct report_audit_row *r)
{
	static const unsigned numeric = 1u << AUDIT_COL_BASELINE | 1u << AUDIT_COL_CLAIMED |
					1u << AUDIT_COL_WINNER_US | 1u << AUDIT_COL_DEVIATION |
					1u << AUDIT_COL_SPEEDUP | 1u << AUDIT_COL_GEOMEAN;
	FILE *f = ctx;
	(void)op;
	fprintf(f, "<tr%s>", r->fail ? " class=\"fail\"" : "");
	for (int i = 0; i < AUDIT_NCOLS; i++) {
		if (numeric >> i & 1u) {
			fprintf(f, "<td class=\"n\">%s</td>", r->cell[i]);
			continue;
		}
		fputs(i == AUDIT_COL_STATUS ? "<td class=\"status\">" : "<td>", f);
		h(f, r->cell[i]);
		fputs("</td>", f);
	}
	fputs("</tr>\n", f);
}

/* One row of the Stage Result table, marked bad unless its status is ok. */
static void html_claim(void *ctx, const char *const *cell, int ok)
{
	FILE *f = ctx;
	fputs(ok ? "<tr>" : "<tr class=\"bad\">", f);
	for (size_t k = 0; k < AUDIT_NCLAIM_COLS; k++) {
		fputs("<td>", f);
		h(f, cell[k]);
		fputs("</td>", f);
	}
	fputs("</tr>\n", f);
}

/* The second table: each Stage Result claim next to the records. */
static void html_stage_results(FILE *f, const struct audit *a)
{
	fputs("<h2>Stage Result claims</h2>\n<table>\n<caption>Stage Result fields against the "
	      "records</caption>\n<thead><tr><th scope=\"col\">operator</th>"
	      "<th scope=\"col\">line</th><th scope=\"col\">field</th>"
	      "<th scope=\"col\">workload</th><th scope=\"col\">claimed</th>"
	      "<th scope=\"col\">records</th><th scope=\"col\">status</th>"
	      "</tr></thead>\n<tbody>\n", f);
	report_audit_stage_rows(a, html_claim, NULL, f);
	fputs("</tbody>\n</table>\n", f);
}

int report_audit_html(FILE *f, const struct audit *a, const char *version)
{
	static const struct report_audit_style html = { NULL, "%+.2f%%", "%.3f&#215;", 1 };
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<title>tlperf audit</title>\n<style>\n", f);
	fputs(html_css, f);
	fputs("</style>\n</head>\n<body>\n<h1>tlperf audit: claimed vs recorded final latencies</h1>\n",
	      f);
	html_totals(f, a);
	if (html_chart(f, a) != 0)
		return -1;
	write_legend(f);
	fputs("<table>\n<caption>Claimed vs recorded final latency: one row per operator and "
	      "workload</caption>\n<thead><tr><th scope=\"col\">operator</th>"
	      "<th scope=\"col\">contract</th><th scope=\"col\">workload</th>"
	      "<th scope=\"col\">baseline_us<br>(record)</th><th scope=\"col\">claimed_us<br>(log)</th>"
	      "<th scope=\"col\">winner</th><th scope=\"col\">winner_us<br>(record)</th>"
	      "<th scope=\"col\">deviation</th><th scope=\"col\">speedup</th>"
	      "<th scope=\"col\">operator geomean</th><th scope=\"col\">stop reason</th>"
	      "<th scope=\"col\">reconciled</th><th scope=\"col\">gate</th>"
	      "<th scope=\"col\">evidence</th>"
	      "</tr></thead>\n<tbody>\n", f);
	report_audit_rows(a, &html, html_row, f);
	fputs("</tbody>\n</table>\n", f);
	if (audit_any_stage_result(a))
		html_stage_results(f, a);
	fprintf(f, "<p class=\"note\">A claim reconciles when it is within 1%% of the winner's recorded "
		"measurement (gate rule S4-PERF-RECORDS-RECON); without records, it is checked against "
		"the log's own figures (the evidence column). Generated by tlperf audit "
		"%s; this file needs no network access.</p>\n</body>\n</html>\n", version);
	return 0;
}
