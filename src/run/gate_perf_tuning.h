/* gate_perf_tuning.h: gate checks for first-generation perf_tuning/ folders
 * (optimization_log.md, perf_log.md, bench JSON, reports).
 * Called by `tlgate` and `tlperf audit` for every perf_tuning/ directory
 * they find. */
#ifndef TLPERF_GATE_PERF_TUNING_H
#define TLPERF_GATE_PERF_TUNING_H

#include "model/finding.h"
#include "model/ptune.h"

/* Checks the perf_tuning directory at path. Findings name files as
 * "<shown>/<file>" (shown is the path as the user should see it) and carry
 * each rule's default severity (PT-* rule ids); configuration and
 * suppressions are applied afterwards (run/gate_config.h). Returns 0, or -1 when the
 * directory itself cannot be read (errno set). */
int ptune_check_dir(const char *path, const char *shown, struct gate_findings *fs);

struct tree;

/* The same for the folder rel of the checked tree t (io/tree.h): every file
 * is read through it (a link out of the tree, a device or FIFO, a bench
 * JSON above PTJSON_MAX_BYTES is an error finding saying why, never read). The
 * path-taking functions use a tree rooted at the folder's parent. */
int ptune_check_dir_in(const struct tree *t, const char *rel, const char *shown, struct gate_findings *fs);

struct gate_config_suppressions;

/* Collects the inline suppressions (`<!-- tlgate-disable RULE -- reason -->`)
 * of the folder's Markdown files (optimization logs, perf_log.md, the
 * report) into sups, to be applied with gate_config_apply_suppressions
 * (run/gate_config.h) as for perf_opt/. Returns 0, -1 when the directory
 * cannot be read or memory runs out (errno set). */
int ptune_suppressions(const char *path, const char *shown, struct gate_config_suppressions *sups);
int ptune_suppressions_in(const struct tree *t, const char *rel, const char *shown,
			  struct gate_config_suppressions *sups);

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
