/* ptune.h: gate checks for first-generation perf_tuning/ folders
 * (optimization_log.md, perf_log.md, bench JSON, reports).
 * Owned by the perf_tuning issue; called by cmd_gate for every perf_tuning/
 * directory it finds. */
#ifndef TLPERF_PTUNE_H
#define TLPERF_PTUNE_H

#include "model/finding.h"
#include "model/ptune.h"

/* Checks the perf_tuning directory at path. Findings name files as
 * "<shown>/<file>" (shown is the path as the user should see it) and carry
 * each rule's default severity (PT-* rule ids); cmd_gate applies
 * configuration and suppressions afterwards. Returns 0, or -1 when the
 * directory itself cannot be read (errno set). */
int ptune_check_dir(const char *path, const char *shown, struct gate_findings *fs);

struct tree;

/* The same for the folder rel of the checked tree t (io/tree.h): every file
 * is read through it (a link out of the tree, a device or FIFO, a bench
 * JSON above PTJSON_MAX_BYTES is an error finding saying why, never read). The
 * path-taking functions use a tree rooted at the folder's parent. */
int ptune_check_dir_in(const struct tree *t, const char *rel, const char *shown, struct gate_findings *fs);

struct gatecheck_result;

/* Collects the inline suppressions (`<!-- tlgate-disable RULE -- reason -->`)
 * of the folder's Markdown files (optimization logs, perf_log.md, the
 * report) into res->sup, so cmd_gate applies them with
 * gatecheck_apply_suppressions as for perf_opt/. Returns 0, -1 when the
 * directory cannot be read or memory runs out (errno set). */
int ptune_suppressions(const char *path, const char *shown, struct gatecheck_result *res);
int ptune_suppressions_in(const struct tree *t, const char *rel, const char *shown,
			  struct gatecheck_result *res);

/* Per-case speedups of a perf_tuning folder, read from its latest bench
 * JSON (the one holding the latest perf_log iteration's candidate figures,
 * else the last by name: baseline < iterN < roundR_dirX < roundR_final),
 * so `tlperf speedup` and `tlperf audit` can read first-generation folders. */
/* Reads the speedups of the perf_tuning folder at path (or of path's
 * perf_tuning/ subfolder when it has one). Returns 0; 1 when the folder
 * has no bench JSON with per-case speedups (err says why); -1 when it
 * cannot be read (errno set, err says which path). err may be NULL.
 * Release with ptune_speedups_release (also after an error). */
int ptune_speedups(const char *path, struct ptune_speedups *out, char *err, size_t errlen);
/* The folder rel of t (not its perf_tuning/ subfolder), shown as shown. */
int ptune_speedups_in(const struct tree *t, const char *rel, const char *shown,
		      struct ptune_speedups *out, char *err, size_t errlen);

#endif
