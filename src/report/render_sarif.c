/* render_sarif.c: findings as SARIF 2.1.0: one rule object per rule id, repo-relative artifact URIs. */
#include "report/render_common.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gates/rules.h"
#include "report/rules_doc.h"

static const char *sarif_level(enum gate_severity s)
{
	return s == GATE_ERROR ? "error" : s == GATE_WARNING ? "warning" : "note";
}

/* Percent-encodes a path for a URI reference (RFC 3986: unreserved and
 * '/' stay). Absolute paths become file:// URIs. Malloc'd. */
static char *path_uri(const char *path)
{
	const unsigned char *p = (const unsigned char *)path;
	size_t n = strlen(path);
	if (n > (SIZE_MAX - 16) / 3)
		return NULL;
	char *out = malloc(3 * n + 16);
	if (!out)
		return NULL;
	size_t o = 0;
	if (path[0] == '/') {
		memcpy(out, "file://", 7);
		o = 7;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned c = p[i];
		if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		    c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
			out[o++] = (char)c;
		} else {
			static const char hex[] = "0123456789ABCDEF";
			out[o++] = '%';
			out[o++] = hex[c >> 4];
			out[o++] = hex[c & 15];
		}
	}
	out[o] = '\0';
	return out;
}

/* The rule ids of the run: the registry in order, then ids only the
 * findings use (e.g. S4-PERF-FEEDBACK-SECTIONS), in order of appearance.
 * Returns the count; *ids is malloc'd (pointers borrowed). */
static size_t sarif_rule_ids(const struct gate_findings *fs, const char ***ids)
{
	const char **v = malloc((gate_nrules + fs->n + 1) * sizeof(*v));
	size_t n = 0;
	if (!v)
		return (size_t)-1;
	for (size_t i = 0; i < gate_nrules; i++)
		v[n++] = gate_rules[i].id;
	for (size_t i = 0; i < fs->n; i++) {
		if (fs->v[i].severity == GATE_OFF)
			continue;
		size_t k = 0;
		while (k < n && strcmp(v[k], fs->v[i].rule) != 0)
			k++;
		if (k == n)
			v[n++] = fs->v[i].rule;
	}
	*ids = v;
	return n;
}

/* help.text of a rule: why it exists, what triggers it, how to fix it
 * (the `tlperf explain` fields). Malloc'd; NULL when out of memory. */
static char *help_text(const struct gate_rule_info *r)
{
	size_t n = strlen(r->purpose) + strlen(r->trigger) + strlen(r->fix) + 64;
	char *s = malloc(n);
	if (s)
		snprintf(s, n, "%s\n\nTriggered by: %s\n\nFix: %s", r->purpose, r->trigger, r->fix);
	return s;
}

/* Appends the rule object of ID to RULES; -1 when it could not be made
 * (*OOM is set by the helpers that failed). */
static int sarif_rule(cJSON *rules, const char *id, int *oom)
{
	const struct gate_rule_info *info = gate_rule_find(id);
	cJSON *r = report_json_new_in(rules, oom), *sd, *dc;
	if (!r)
		return -1;
	report_json_str(r, "id", id, oom);
	sd = report_json_obj(r, "shortDescription", oom);
	if (sd)
		report_json_str(sd, "text", info ? info->summary : id, oom);
	if (info) {
		char uri[1280];
		if (report_rule_help_uri(info->id, uri, sizeof(uri)) == 0)
			report_json_str(r, "helpUri", uri, oom);
		cJSON *help = report_json_obj(r, "help", oom);
		char *text = help_text(info);
		if (help && text)
			report_json_str(help, "text", text, oom);
		else
			*oom = 1;
		free(text);
	}
	dc = report_json_obj(r, "defaultConfiguration", oom);
	if (dc)
		report_json_str(dc, "level", sarif_level(info ? info->default_severity : GATE_ERROR),
			oom);
	return 0;
}

/* Adds to LOC (a location object) the physical location REL, LINE; -1
 * when out of memory (*OOM set). */
static int sarif_physical(cJSON *loc, const char *rel, long line, int *oom)
{
	cJSON *phys = loc ? report_json_obj(loc, "physicalLocation", oom) : NULL;
	cJSON *art = phys ? report_json_obj(phys, "artifactLocation", oom) : NULL;
	char *uri = art ? path_uri(rel) : NULL;
	if (!uri) {
		*oom = 1;
		return -1;
	}
	report_json_str(art, "uri", uri, oom);
	if (uri[0] != 'f' || strncmp(uri, "file://", 7) != 0)
		report_json_str(art, "uriBaseId", "%SRCROOT%", oom);
	free(uri);
	/* a finding about a whole file points at its first line: code
	 * scanning UIs want a region */
	cJSON *region = report_json_obj(phys, "region", oom);
	if (region)
		report_json_num(region, "startLine", line > 0 ? (double)line : 1, oom);
	return 0;
}

/* Adds to result R the location of a finding at REL, LINE; -1 when out of
 * memory (*OOM set). */
static int sarif_location(cJSON *r, const char *rel, long line, int *oom)
{
	cJSON *locs = cJSON_AddArrayToObject(r, "locations");
	cJSON *loc = locs ? report_json_new_in(locs, oom) : NULL;
	if (!loc) {
		*oom = 1;
		return -1;
	}
	return sarif_physical(loc, rel, line, oom);
}

/* The suppressions array of result R for a finding an inline suppression
 * silenced: kind inSource, its reason as the justification, the directive
 * as the location (SARIF 2.1.0, 3.27.23 and 3.35). -1 when out of memory. */
static int sarif_suppression(cJSON *r, const struct gate_finding *g, const struct report_ctx *ctx,
			     int *oom)
{
	cJSON *arr = cJSON_AddArrayToObject(r, "suppressions");
	cJSON *s = arr ? report_json_new_in(arr, oom) : NULL;
	char *rel = s ? report_relpath(ctx->repo_root, g->sup_file) : NULL;
	if (!rel) {
		*oom = 1;
		return -1;
	}
	report_json_str(s, "kind", "inSource", oom);
	report_json_str(s, "status", "accepted", oom);
	report_json_str(s, "justification", g->sup_reason, oom);
	cJSON *loc = report_json_obj(s, "location", oom);
	int rc = loc ? sarif_physical(loc, rel, g->sup_line, oom) : -1;
	free(rel);
	return rc;
}

/* Appends the result of finding G (rule index IDX, repo-relative path
 * REL, OCC-th occurrence) to RESULTS; -1 when it could not be made. */
static int sarif_result(cJSON *results, const struct gate_finding *g, size_t idx,
			const char *rel, unsigned long occ, const struct report_ctx *ctx, int *oom)
{
	cJSON *r = report_json_new_in(results, oom), *m, *pf;
	if (!r)
		return -1;
	report_json_str(r, "ruleId", g->rule, oom);
	report_json_num(r, "ruleIndex", (double)idx, oom);
	report_json_str(r, "level", sarif_level(g->severity), oom);
	m = report_json_obj(r, "message", oom);
	if (m)
		report_json_str(m, "text", g->message, oom);
	if (sarif_location(r, rel, g->line, oom) != 0)
		return -1;
	char fp[33];
	report_fingerprint(g->rule, rel, g->message, occ, fp);
	pf = report_json_obj(r, "partialFingerprints", oom);
	if (pf)
		report_json_str(pf, "tlgateFingerprint/v1", fp, oom);
	if (g->sup_file)
		return sarif_suppression(r, g, ctx, oom);
	return 0;
}

/* The tool.driver object of RUN with its name, version and rules IDS
 * [0, nids); NULL (*OOM set) when the driver could not be made. */
static cJSON *sarif_driver(cJSON *run, const struct report_ctx *ctx, const char **ids,
			   size_t nids, int *oom)
{
	cJSON *tool = run ? report_json_obj(run, "tool", oom) : NULL;
	cJSON *driver = tool ? report_json_obj(tool, "driver", oom) : NULL;
	if (!driver) {
		*oom = 1;
		return NULL;
	}
	report_json_str(driver, "name", ctx->tool_name ? ctx->tool_name : "tlgate", oom);
	report_json_str(driver, "version", ctx->tool_version ? ctx->tool_version : "0", oom);
	const char *docs = report_docs_url();
	if (docs) { /* no link rather than one that cannot be followed */
		char uri[1280];
		snprintf(uri, sizeof(uri), "%s/README.md", docs);
		report_json_str(driver, "informationUri", uri, oom);
	}
	cJSON *rules = cJSON_AddArrayToObject(driver, "rules");
	for (size_t i = 0; rules && i < nids; i++)
		if (sarif_rule(rules, ids[i], oom) != 0)
			break;
	if (!rules)
		*oom = 1;
	return driver;
}

int report_render_sarif(FILE *f, const struct gate_findings *fs, const struct report_ctx *ctx)
{
	int oom = 0;
	const char **ids = NULL;
	char **rel = NULL;
	unsigned long *occ = NULL;
	size_t nids = sarif_rule_ids(fs, &ids);
	if (nids == (size_t)-1)
		return report_emit_json(f, NULL, 1);
	rel = report_rel_paths(fs, ctx);
	occ = rel ? report_occurrences(fs, rel) : NULL;
	cJSON *doc = cJSON_CreateObject(), *runs, *run, *results;
	if (!doc || !rel || !occ) {
		oom = 1;
		goto out;
	}
	report_json_str(doc, "$schema", "https://json.schemastore.org/sarif-2.1.0.json", &oom);
	report_json_str(doc, "version", "2.1.0", &oom);
	runs = cJSON_AddArrayToObject(doc, "runs");
	run = runs ? report_json_new_in(runs, &oom) : NULL;
	if (!sarif_driver(run, ctx, ids, nids, &oom))
		goto out;
	results = cJSON_AddArrayToObject(run, "results");
	if (!results)
		oom = 1;
	for (size_t i = 0; results && i < fs->n; i++) {
		const struct gate_finding *g = &fs->v[i];
		if (g->severity == GATE_OFF)
			continue;
		size_t idx = 0;
		while (idx < nids && strcmp(ids[idx], g->rule) != 0)
			idx++;
		if (sarif_result(results, g, idx, rel[i], occ[i], ctx, &oom) != 0)
			break;
	}
out:
	free(ids);
	free(occ);
	report_free_paths(rel, fs->n);
	return report_emit_json(f, doc, oom);
}
