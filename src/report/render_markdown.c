/* render_markdown.c: findings as a Markdown summary table for a CI job summary, cells escaped. */
#include "report/render_common.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gates/rules.h"
#include "report/table.h"
#include "util/escape.h"

/* A GFM table cell from text nobody vetted: invalid UTF-8 and characters
 * XML forbids replaced first, then the strict cell escaping. */
static void md_cell(FILE *f, const char *str)
{
	char *s = report_sanitize(str, REPORT_SAN_XML);
	if (s)
		escape_md_cell(f, s, MD_CELL_STRICT);
	free(s);
}

static const struct table_col cols[] = {
	{ "Severity", TABLE_LEFT }, { "Rule", TABLE_LEFT }, { "Location", TABLE_LEFT },
	{ "Message", TABLE_LEFT },
};

int report_render_markdown(FILE *f, const struct gate_findings *fs, const struct report_ctx *ctx)
{
	struct report_counts c = report_count_findings(fs);
	const char *tool = ctx->tool_name ? ctx->tool_name : "tlgate";
	size_t nfail = c.errors + (ctx->warnings_as_errors ? c.warnings : 0);
	fputs("### ", f);
	md_cell(f, tool);
	fprintf(f, ": %s\n\n", nfail ? "failed" : "passed");
	fprintf(f, "%zu %s, %zu %s, %zu %s in %zu perf_opt %s checked",
		c.errors, report_plural(c.errors, "error", "errors"), c.warnings,
		report_plural(c.warnings, "warning", "warnings"), c.notes, report_plural(c.notes, "note", "notes"),
		ctx->dirs_checked, report_plural(ctx->dirs_checked, "directory", "directories"));
	if (c.suppressed)
		fprintf(f, "; %zu %s suppressed inline (listed below)", c.suppressed,
			report_plural(c.suppressed, "finding", "findings"));
	if (ctx->warnings_as_errors)
		fputs(" (warnings count as errors)", f);
	fputs(".\n", f);
	if (c.errors + c.warnings + c.notes + c.suppressed == 0)
		return 0;
	char **rel = report_rel_paths(fs, ctx);
	if (!rel) {
		errno = ENOMEM;
		return -1;
	}
	struct table t;
	table_init(&t, NULL, cols, sizeof(cols) / sizeof(cols[0]));
	t.md = MD_CELL_STRICT;
	for (size_t i = 0; i < fs->n; i++) {
		const struct gate_finding *g = &fs->v[i];
		if (g->severity == GATE_OFF)
			continue;
		char *by = g->sup_file ? report_suppressed_by(g, ctx) : NULL;
		if (g->sup_file && !by) {
			table_release(&t);
			report_free_paths(rel, fs->n);
			errno = ENOMEM;
			return -1;
		}
		char *rule = report_sanitize(g->rule, REPORT_SAN_XML);
		char *loc = report_sanitize(rel[i], REPORT_SAN_XML);
		char *msg = report_sanitize(g->message, REPORT_SAN_XML);
		char *why = by ? report_sanitize(by, REPORT_SAN_XML) : NULL;
		table_cell(&t, by ? "suppressed %s" : "%s", gate_severity_name(g->severity));
		table_cell(&t, "%s", rule ? rule : "");
		if (g->line > 0)
			table_cell(&t, "%s:%ld", loc ? loc : "", g->line);
		else
			table_cell(&t, "%s", loc ? loc : "");
		if (by)
			table_cell(&t, "%s (%s)", msg ? msg : "", why ? why : "");
		else
			table_cell(&t, "%s", msg ? msg : "");
		free(rule);
		free(loc);
		free(msg);
		free(why);
		free(by);
	}
	fputc('\n', f);
	int rc = report_table_put_markdown(f, &t);
	report_free_paths(rel, fs->n);
	if (rc != 0)
		errno = ENOMEM;
	return rc;
}
