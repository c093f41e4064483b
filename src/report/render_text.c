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
	size_t n;
};

static int by_count(const void *a, const void *b)
{
	const struct rule_count *x = a, *y = b;
	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
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
		while (k < n && !(v[k].severity == g->severity && strcmp(v[k].rule, g->rule) == 0))
			k++;
		if (k == n)
			v[n++] = (struct rule_count){ g->rule, g->severity, 0 };
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
	if (ctx->warnings_as_errors && w > 0)
		fputs(" (warnings count as errors)", f);
	if (ctx->elapsed_s >= 0)
		fprintf(f, " in %.2f s", ctx->elapsed_s);
	fputc('\n', f);
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
	for (size_t i = 0; i < fs->n; i++) {
		const struct gate_finding *g = &fs->v[i];
		if (g->severity == GATE_OFF)
			continue;
		char *file = report_sanitize(g->file, REPORT_SAN_TEXT), *msg = report_sanitize(g->message, REPORT_SAN_TEXT);
		char *rule = report_sanitize(g->rule, REPORT_SAN_TEXT);
		if (!file || !msg || !rule) {
			free(file), free(msg), free(rule);
			errno = ENOMEM;
			return -1;
		}
		/* the severity word coloured on a terminal (term.h decides) */
		const char *on = term_sgr(f, g->severity == GATE_ERROR ? TERM_ERROR
					  : g->severity == GATE_WARNING ? TERM_WARNING : TERM_NOTE);
		const char *off = *on ? term_sgr(f, TERM_RESET) : "";
		if (g->line > 0)
			fprintf(f, "%s:%ld: %s%s%s: [%s] %s\n", file, g->line, on,
				gate_severity_name(g->severity), off, rule, msg);
		else
			fprintf(f, "%s: %s%s%s: [%s] %s\n", file, on, gate_severity_name(g->severity), off,
				rule, msg);
		free(file), free(msg), free(rule);
	}
	if (ctx->summary)
		write_summary(f, fs, ctx);
	return 0;
}
