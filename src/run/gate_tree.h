/* gate_tree.h: which directories the gate checks, in which tree, under
 * which configuration (`tlgate`, `tlperf audit`).
 *
 * Each PATH operand becomes a root: a struct tree (io/tree.h) at the
 * operand, or at the operator directory above it when the operand is a
 * perf_opt/ or perf_tuning/ directory or lies inside one ("." in
 * perf_opt/, op/perf_opt/kernels; records name "perf_opt/x" relative to
 * the operator directory). That one step up is the only place the root
 * differs from the operand: only that perf directory is checked, and the
 * search for it reads nothing but the directories between the operand and
 * its repository top (a perf_opt/ or perf_tuning/ at or above the top does
 * not count, nor one the operand lies in that holds no file of its own: a
 * folder of folders named perf_tuning/). Nothing outside a root is ever
 * opened.
 *
 * Directories come from the one walker (tree_find: any depth and path
 * length, symbolic links never followed, .git and node_modules not
 * entered) or, with a changed-files list (--changed-since), straight from
 * that list, so a directory the list names is checked wherever it is
 * (node_modules included). A perf_opt/ or perf_tuning/ that is a symbolic
 * link, or a directory that cannot be read, is a TLGATE-TREE error rather
 * than a silent skip.
 *
 * Configuration (.tlgate.json): in the working tree, the nearest one from
 * the directory up to the repository top (the nearest ancestor holding
 * .git; without one, the root) and never above it. In pull-request mode
 * the caller reads it from the base revision instead (gate_config_at_rev)
 * and gate_config_weakened() turns every rule the working tree's file
 * weakens into a TLGATE-CONFIG error.
 */
#ifndef TLPERF_GATE_TREE_H
#define TLPERF_GATE_TREE_H

#include <stddef.h>

#include "io/tree.h"
#include "model/finding.h"
#include "run/gate_perf_opt.h"

struct gate_root {
	struct tree tree;       /* the checked tree */
	char *shown;            /* how the root is shown: the operand, or its parent */
	char *top;              /* real path of the repository top holding it, NULL none */
	char *in_repo;          /* the root's path relative to top ("" at the top), NULL none */
	struct tree repo;       /* top's tree (configuration), when top */
	int has_repo;
	char *only;             /* the operand was this perf dir of the root, NULL: any */
};

struct gate_dir {
	size_t root;            /* index into the set's roots */
	char *rel;              /* path in the root's tree */
	char *shown;            /* as printed */
	int ptune;              /* 1: perf_tuning/, 0: perf_opt/ */
};

struct gate_set {
	struct gate_root *roots;
	size_t nroots;
	struct gate_dir *dirs;  /* in discovery order */
	size_t ndirs, cap;
	struct gate_findings tree_findings; /* TLGATE-TREE */
	char *revlist;          /* cache of gate_config_find_at_rev: the .tlgate.json */
	size_t revlist_len;     /* files of revlist_key in revlist_top, NUL-separated */
	char *revlist_key, *revlist_top;
};

void gate_set_init(struct gate_set *s);
void gate_set_release(struct gate_set *s);

/* Adds the root for operand (a directory). Returns 0; -1 with a message in
 * err when it cannot be read (exit 2). */
int gate_set_add_root(struct gate_set *s, const char *operand, char *err, size_t errlen);

/* After discovery: the index of the first root under which nothing is
 * checked (no directory and no TLGATE-TREE finding anywhere), -1 when
 * every root has something. */
long gate_set_empty_root(const struct gate_set *s);

/* Finds the directories of every root: by walking, or (changed != NULL)
 * from changed, the repository-relative paths git reports for the root's
 * repository (NUL-separated, changed_len bytes). Returns 0, -1 when out of
 * memory. */
int gate_set_discover(struct gate_set *s, const char *changed, size_t changed_len);

/* The same for the roots held by the repository at top only, from that
 * repository's changed files (several PATHs in several repositories:
 * one call per repository). */
int gate_set_discover_changed(struct gate_set *s, const char *top, const char *changed,
			      size_t changed_len);

/* The files changed in REF...HEAD (REF..HEAD without a merge base) of the
 * repository at top, NUL-separated, deletions left out: malloc'd into
 * *out. Runs git (run/git.h). Returns 0, 1 when git cannot answer (an
 * unknown REF), -1 on failure (errno). */
int gate_changed_files(const char *top, const char *ref, char **out, size_t *len);

/* The repository-relative path of directory d (malloc'd), NULL without a
 * repository. */
char *gate_dir_in_repo(const struct gate_set *s, const struct gate_dir *d);

/* Loads the working tree's configuration for d (nearest .tlgate.json, see
 * above) into cfg; *name gets its shown path (malloc'd) or NULL when there
 * is none (cfg left empty). Returns 0, -1 with err. */
int gate_config_in_tree(const struct gate_set *s, const struct gate_dir *d,
			struct gatecheck_config *cfg, char **name, char *err, size_t errlen);

/* The configuration of d as it is at git revision rev: the nearest
 * .tlgate.json in that revision from d up to the repository top. *path
 * gets its repository-relative path (malloc'd), NULL when there is none.
 * Runs git once per repository and revision (cached in s). Returns 0, -1
 * with err. */
int gate_config_find_at_rev(struct gate_set *s, const struct gate_dir *d, const char *rev,
			    char **path, char *err, size_t errlen);
/* Loads that file (git show REV:path, at most 1 MiB) into cfg; *name gets
 * "REV:path" (malloc'd). Returns 0, -1 with err. */
int gate_config_load_at_rev(const struct gate_set *s, const struct gate_dir *d, const char *rev,
			    const char *path, struct gatecheck_config *cfg, char **name,
			    char *err, size_t errlen);

/* Appends a TLGATE-CONFIG error at file for every rule whose severity
 * under pr is lower than under base (rule defaults where neither says).
 * Returns 0, -1 when out of memory. */
int gate_config_weakened(const struct gatecheck_config *base, const char *base_name,
			 const struct gatecheck_config *pr, const char *file,
			 struct gate_findings *fs);

/* The same when the working tree no longer holds the base revision's
 * file (base_name "REV:path", shown as file): every rule it made stricter
 * than its default. Returns 0, -1 when out of memory. */
int gate_config_removed(const struct gatecheck_config *base, const char *base_name,
			const char *file, struct gate_findings *fs);

#endif
