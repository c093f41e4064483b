/* render_common.h: shared by the findings renderers in src/report/
 * (render_<format>.c), one file per output format, and by report.c, which
 * picks the renderer. Not for use outside src/report/. */
#ifndef TLPERF_REPORT_RENDER_COMMON_H
#define TLPERF_REPORT_RENDER_COMMON_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "report/report.h"

enum report_san {
	REPORT_SAN_UTF8, /* invalid sequences become U+FFFD */
	REPORT_SAN_XML,  /* and characters XML 1.0 forbids too */
	REPORT_SAN_TEXT  /* invalid bytes and control characters become \xNN */
};

/* Returns a malloc'd sanitised copy of s (NULL s gives ""), NULL on
 * allocation failure. */
char *report_sanitize(const char *str, enum report_san mode);

struct report_counts {
	size_t errors, warnings, notes;  /* findings that count */
	size_t suppressed;               /* findings an inline suppression silenced */
};

/* Counts the findings of each severity (GATE_OFF not counted; suppressed
 * ones apart). */
struct report_counts report_count_findings(const struct gate_findings *fs);
/* 1 when the finding fails the run under ctx (an error, or a warning with
 * warnings_as_errors, that no suppression silenced). */
int report_failing(const struct gate_finding *f, const struct report_ctx *ctx);
/* For a suppressed finding: "suppressed by FILE:LINE (REASON)", FILE
 * relative to ctx->repo_root, not escaped (each renderer escapes it as it
 * does messages). Malloc'd; NULL when out of memory. */
char *report_suppressed_by(const struct gate_finding *g, const struct report_ctx *ctx);
/* one when n == 1, else many. */
const char *report_plural(size_t n, const char *one, const char *many);
/* Writes a cJSON document and a newline and frees it; -1 (errno ENOMEM)
 * when doc is NULL or oom is set, -1 on a write error, else 0. */
int report_emit_json(FILE *f, cJSON *doc, int oom);
/* cJSON builders: a sanitised string, a number, an object member, a new
 * object appended to an array. Each sets *oom and returns NULL on failure. */
cJSON *report_json_str(cJSON *obj, const char *key, const char *val, int *oom);
cJSON *report_json_num(cJSON *obj, const char *key, double v, int *oom);
cJSON *report_json_obj(cJSON *obj, const char *key, int *oom);
cJSON *report_json_new_in(cJSON *array, int *oom);
/* Repo-relative paths for every finding, in order (report_relpath); free
 * with report_free_paths(v, fs->n). NULL on allocation failure. */
char **report_rel_paths(const struct gate_findings *fs, const struct report_ctx *ctx);
void report_free_paths(char **v, size_t n);
/* Indices of the findings that are not GATE_OFF, ordered by rule, path,
 * message (when by_msg) and index; *n gets their count. Malloc'd, NULL on
 * allocation failure. Not reentrant (qsort without a context). */
size_t *report_sorted_findings(const struct gate_findings *fs, char **rel, int by_msg, size_t *n);
/* occ[i]: how many findings before i (in report order) share its rule,
 * path and message. Malloc'd (fs->n entries), NULL on allocation failure. */
unsigned long *report_occurrences(const struct gate_findings *fs, char **rel);

/* One renderer per format (render_<format>.c). Each writes every finding
 * that is not GATE_OFF and returns 0, or -1 on a write or allocation error
 * (errno set). */
int report_render_text(FILE *f, const struct gate_findings *fs, const struct report_ctx *ctx);
int report_render_json(FILE *f, const struct gate_findings *fs, const struct report_ctx *ctx);
int report_render_sarif(FILE *f, const struct gate_findings *fs, const struct report_ctx *ctx);
int report_render_github(FILE *f, const struct gate_findings *fs, const struct report_ctx *ctx);
int report_render_junit(FILE *f, const struct gate_findings *fs, const struct report_ctx *ctx);
int report_render_markdown(FILE *f, const struct gate_findings *fs, const struct report_ctx *ctx);
int report_render_gitlab(FILE *f, const struct gate_findings *fs, const struct report_ctx *ctx);

#endif
