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
 * Which configuration (.tlgate.json) applies to a directory is decided by
 * run/gate_config.h.
 */
#ifndef TLPERF_GATE_TREE_H
#define TLPERF_GATE_TREE_H

#include <stddef.h>

#include "io/tree.h"
#include "model/finding.h"

struct gate_root {
	struct tree tree;       /* the checked tree */
	char *shown;            /* how the root is shown: the operand, or its parent */
	char *top;              /* real path of the repository top holding it, NULL none */
	char *in_repo;          /* the root's path relative to top ("" at the top), NULL none */
	struct tree repo;       /* top's tree (configuration), when top */
	int has_repo;
	char *only;             /* the operand was this perf dir of the root, NULL: any */
	struct gate_moves *moves; /* --base: records files moved since the base
				   (gate_set_history), NULL before */
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

/* Why nothing is checked under root r, for the "nothing to check under
 * 'PATH': ..." error, written into buf: "no perf_opt/ or perf_tuning/
 * directory in it (--allow-empty accepts that)", or, when the root holds
 * a perf directory's files itself under another name (a downloaded
 * perf_tuning/ saved as "mish/"), the file it found and the commands that
 * check it, ending in cmd ("tlgate", "tlperf audit") run on "op". Looks
 * only at the root's own entries. */
void gate_root_empty_reason(const struct gate_set *s, size_t r, const char *cmd, char *buf, size_t n);

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

/* --base: for each root in a repository, the records files git matched
 * to another path at base (root->moves, for gatecheck_opts), and an
 * S4-PERF-RECORDS-APPEND finding (in tree_findings) for each records file
 * of base under the root that is gone, unless a records file now extends
 * it. Runs git (run/gate_history.h). Returns 0; -1 with err (git failed,
 * out of memory). */
int gate_set_history(struct gate_set *s, const char *base, char *err, size_t errlen);

/* The repository-relative path of directory d (malloc'd), NULL without a
 * repository. */
char *gate_dir_in_repo(const struct gate_set *s, const struct gate_dir *d);

#endif
