/* render_json.c: the findings as one JSON document (docs/schemas/gate.v1.json). */
#include "report/render_common.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gates/rules.h"

/* The "suppression" member of finding object o: as SARIF's suppression
 * object, kind, where (relative to the repository) and why. */
static void json_suppression(cJSON *o, const struct gate_finding *g, const struct report_ctx *ctx,
			     int *oom)
{
	char *rel = report_relpath(ctx->repo_root, g->sup_file);
	cJSON *sup = rel ? report_json_obj(o, "suppression", oom) : NULL;
	if (sup) {
		report_json_str(sup, "kind", "inSource", oom);
		report_json_str(sup, "file", rel, oom);
		report_json_num(sup, "line", (double)g->sup_line, oom);
		report_json_str(sup, "justification", g->sup_reason, oom);
	} else {
		*oom = 1;
	}
	free(rel);
}

int report_render_json(FILE *f, const struct gate_findings *fs, const struct report_ctx *ctx)
{
	int oom = 0;
	struct report_counts c = report_count_findings(fs);
	cJSON *doc = cJSON_CreateObject(), *arr = NULL, *cnt;
	if (!doc)
		return report_emit_json(f, NULL, 1);
	report_json_str(doc, "schema", "tlperf/gate/v1", &oom);
	report_json_str(doc, "tool", ctx->tool_name ? ctx->tool_name : "tlgate", &oom);
	report_json_str(doc, "version", ctx->tool_version ? ctx->tool_version : "", &oom);
	arr = cJSON_AddArrayToObject(doc, "findings");
	if (!arr)
		oom = 1;
	for (size_t i = 0; arr && i < fs->n; i++) {
		const struct gate_finding *g = &fs->v[i];
		if (g->severity == GATE_OFF)
			continue;
		cJSON *o = report_json_new_in(arr, &oom);
		if (!o)
			break;
		report_json_str(o, "rule", g->rule, &oom);
		report_json_str(o, "severity", gate_severity_name(g->severity), &oom);
		report_json_str(o, "file", g->file, &oom);
		report_json_num(o, "line", (double)g->line, &oom);
		report_json_str(o, "message", g->message, &oom);
		if (g->sup_file)
			json_suppression(o, g, ctx, &oom);
	}
	cnt = report_json_obj(doc, "counts", &oom);
	if (cnt) {
		report_json_num(cnt, "error", (double)c.errors, &oom);
		report_json_num(cnt, "warning", (double)c.warnings, &oom);
		report_json_num(cnt, "note", (double)c.notes, &oom);
		report_json_num(cnt, "suppressed", (double)c.suppressed, &oom);
	}
	report_json_num(doc, "dirs_checked", (double)ctx->dirs_checked, &oom);
	size_t nfail = c.errors + (ctx->warnings_as_errors ? c.warnings : 0);
	if (!cJSON_AddBoolToObject(doc, "passed", nfail == 0))
		oom = 1;
	return report_emit_json(f, doc, oom);
}
