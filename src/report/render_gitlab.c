/* render_gitlab.c: findings as GitLab Code Quality JSON with stable fingerprints. */
#include "report/render_common.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gates/rules.h"

/* error -> blocker (it blocks the merge), warning -> minor (major under
 * --warnings-as-errors), note -> info. */
static const char *gitlab_severity(enum gate_severity s, int warnings_as_errors)
{
	if (s == GATE_ERROR)
		return "blocker";
	if (s == GATE_WARNING)
		return warnings_as_errors ? "major" : "minor";
	return "info";
}

int report_render_gitlab(FILE *f, const struct gate_findings *fs, const struct report_ctx *ctx)
{
	int oom = 0;
	char **rel = report_rel_paths(fs, ctx);
	unsigned long *occ = rel ? report_occurrences(fs, rel) : NULL;
	cJSON *doc = cJSON_CreateArray();
	if (!rel || !occ || !doc) {
		report_free_paths(rel, fs->n);
		free(occ);
		cJSON_Delete(doc);
		return report_emit_json(f, NULL, 1);
	}
	for (size_t i = 0; i < fs->n; i++) {
		const struct gate_finding *g = &fs->v[i];
		if (g->severity == GATE_OFF)
			continue;
		char fp[33], *desc;
		report_fingerprint(g->rule, rel[i], g->message, occ[i], fp);
		cJSON *o = report_json_new_in(doc, &oom), *loc, *lines;
		if (!o)
			break;
		/* Code Quality has no suppression field: an info entry that
		 * says where and why */
		char *by = g->sup_file ? report_suppressed_by(g, ctx) : NULL;
		size_t dn = strlen(g->rule) + strlen(g->message) + (by ? strlen(by) + 32 : 0) + 4;
		desc = (!g->sup_file || by) ? malloc(dn) : NULL;
		if (!desc) {
			free(by);
			oom = 1;
			break;
		}
		if (by)
			snprintf(desc, dn, "[%s] %s (%s, %s)", g->rule, g->message, gate_severity_name(g->severity), by);
		else
			snprintf(desc, dn, "[%s] %s", g->rule, g->message);
		free(by);
		report_json_str(o, "description", desc, &oom);
		free(desc);
		report_json_str(o, "check_name", g->rule, &oom);
		report_json_str(o, "fingerprint", fp, &oom);
		report_json_str(o, "severity", g->sup_file ? "info" : gitlab_severity(g->severity, ctx->warnings_as_errors),
				&oom);
		loc = report_json_obj(o, "location", &oom);
		if (loc) {
			report_json_str(loc, "path", rel[i], &oom);
			lines = report_json_obj(loc, "lines", &oom);
			if (lines) /* GitLab needs a line; the whole file points at 1 */
				report_json_num(lines, "begin", g->line > 0 ? (double)g->line : 1.0, &oom);
		}
	}
	report_free_paths(rel, fs->n);
	free(occ);
	return report_emit_json(f, doc, oom);
}
