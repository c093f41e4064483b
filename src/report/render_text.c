/* render_text.c: findings as GNU-style text, one line per finding: "path:line: error: [RULE] message". */
#include "report/render_common.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gates/rules.h"
#include "report/term.h"

struct rule_count {
	const char *rule;
	enum gate_severity severity;
	int suppressed;           /* counted apart: silenced by inline suppressions */
	size_t n;
};

static int by_count(const void *a, const void *b)
{
	const struct rule_count *x = a, *y = b;
	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	if (x->suppressed != y->suppressed)
		return x->suppressed ? 1 : -1;
	if (x->severity != y->severity)
		return x->severity == GATE_ERROR ? -1 : 1;
	return strcmp(x->rule, y->rule);
}

/* --statistics: one line per (rule, severity), most frequent first. */
static int write_statistics(FILE *f, const struct gate_findings *fs)
{
	struct rule_count *v = calloc(fs->n ? fs->n : 1, sizeof(*v));
	size_t n = 0;
	if (!v) {
		errno = ENOMEM;
		return -1;
	}
	for (size_t i = 0; i < fs->n; i++) {
		const struct gate_finding *g = &fs->v[i];
		if (g->severity == GATE_OFF)
			continue;
		size_t k = 0;
		int sup = g->sup_file != NULL;
		while (k < n && !(v[k].severity == g->severity && v[k].suppressed == sup &&
				  strcmp(v[k].rule, g->rule) == 0))
			k++;
		if (k == n)
			v[n++] = (struct rule_count){ g->rule, g->severity, sup, 0 };
		v[k].n++;
	}
	qsort(v, n, sizeof(*v), by_count);
	int w = 0; /* the rule column fits the longest id */
	for (size_t k = 0; k < n; k++)
		if ((int)strlen(v[k].rule) > w)
			w = (int)strlen(v[k].rule);
	for (size_t k = 0; k < n; k++) {
		const struct gate_rule_info *ri = gate_rule_find(v[k].rule);
		char *rule = report_sanitize(v[k].rule, REPORT_SAN_TEXT);
		if (!rule) {
			free(v);
			errno = ENOMEM;
			return -1;
		}
		if (v[k].suppressed)
			fprintf(f, "%6zu  %-7s  %-*s  %s (%s, suppressed inline)\n", v[k].n, "-", w, rule,
				ri ? ri->summary : "", gate_severity_name(v[k].severity));
		else
			fprintf(f, "%6zu  %-7s  %-*s  %s\n", v[k].n, gate_severity_name(v[k].severity), w,
				rule, ri ? ri->summary : "");
		free(rule);
	}
	free(v);
	return 0;
}

/* "checked 3 directories: 2 errors, 1 warning (0.04 s)" */
static void write_summary(FILE *f, const struct gate_findings *fs, const struct report_ctx *ctx)
{
	size_t e = gate_count(fs, GATE_ERROR), w = gate_count(fs, GATE_WARNING);
	const char *reset = term_sgr(f, TERM_RESET);
	fprintf(f, "checked %zu director%s: %s%zu error%s%s, %s%zu warning%s%s", ctx->dirs_checked,
		ctx->dirs_checked == 1 ? "y" : "ies", term_sgr(f, e ? TERM_ERROR : TERM_GOOD), e,
		e == 1 ? "" : "s", reset, term_sgr(f, w ? TERM_WARNING : TERM_GOOD), w,
		w == 1 ? "" : "s", reset);
	size_t sup = gate_count_suppressed(fs);
	if (sup)
		fprintf(f, ", %zu suppressed inline", sup);
	if (ctx->warnings_as_errors && w > 0)
		fputs(" (warnings count as errors)", f);
	if (ctx->elapsed_s >= 0)
		fprintf(f, " in %.2f s", ctx->elapsed_s);
	fputc('\n', f);
}

/* One finding: "path:line: error: [RULE] message"; a suppressed one
 * "path:line: suppressed error: [RULE] message -- suppressed by
 * FILE:LINE (reason)", which no "error:" matcher takes for a failure. */
static int write_finding(FILE *f, const struct gate_finding *g, const struct report_ctx *ctx)
{
	char *file = report_sanitize(g->file, REPORT_SAN_TEXT), *msg = report_sanitize(g->message, REPORT_SAN_TEXT);
	char *rule = report_sanitize(g->rule, REPORT_SAN_TEXT);
	char *by = g->sup_file ? report_suppressed_by(g, ctx) : NULL;
	char *sby = by ? report_sanitize(by, REPORT_SAN_TEXT) : NULL;
	free(by);
	if (!file || !msg || !rule || (g->sup_file && !sby)) {
		free(file), free(msg), free(rule), free(sby);
		errno = ENOMEM;
		return -1;
	}
	/* the severity word coloured on a terminal (term.h decides) */
	const char *on = term_sgr(f, g->sup_file ? TERM_NOTE
				  : g->severity == GATE_ERROR ? TERM_ERROR
				  : g->severity == GATE_WARNING ? TERM_WARNING : TERM_NOTE);
	const char *off = *on ? term_sgr(f, TERM_RESET) : "";
	fputs(file, f);
	if (g->line > 0)
		fprintf(f, ":%ld", g->line);
	fprintf(f, ": %s%s%s%s: [%s] %s", on, g->sup_file ? "suppressed " : "",
		gate_severity_name(g->severity), off, rule, msg);
	if (sby)
		fprintf(f, " -- %s", sby);
	fputc('\n', f);
	free(file), free(msg), free(rule), free(sby);
	return 0;
}

int report_render_text(FILE *f, const struct gate_findings *fs, const struct report_ctx *ctx)
{
	if (ctx->statistics) {
		if (write_statistics(f, fs) != 0)
			return -1;
		if (ctx->summary)
			write_summary(f, fs, ctx);
		return 0;
	}
	for (size_t i = 0; i < fs->n; i++)
		if (fs->v[i].severity != GATE_OFF && write_finding(f, &fs->v[i], ctx) != 0)
			return -1;
	if (ctx->summary)
		write_summary(f, fs, ctx);
	return 0;
}
