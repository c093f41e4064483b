/* gate_history.h: what tlgate asks git about the history of the records
 * files in pull-request mode (--base REV): where a records file came from
 * (git's rename and copy detection, else the records files of REV that
 * share one of its lines), which records files of REV are gone, whether a
 * base file's bytes are a prefix of a file now, and the commit that added
 * each line (git blame). git runs only through run/git.h.
 *
 * "Now" is the working tree (tracked files), as for the byte-prefix check.
 * A records file is a `perf_records.jsonl` directly in a `perf_opt/`
 * directory, at any depth.
 */
#ifndef TLPERF_GATE_HISTORY_H
#define TLPERF_GATE_HISTORY_H

#include <stddef.h>
#include <stdio.h>

#include "gates/s4.h"

/* At most this many lines of a new records file are looked for in the
 * base revision's records files (its first lines). */
#define GATE_HIST_SHARED_LINES 256

struct gate_move {
	char *path;             /* repository path now */
	char *from;             /* repository path at the base revision */
	int copied;             /* 1: a copy (from is still there), 0: a rename */
};

struct gate_moves {
	struct gate_move *v;    /* records files git matched to another base path */
	size_t n, cap;
	char **gone;            /* records files of the base revision no longer at
				   their path, nor renamed to a records file */
	size_t ngone, capgone;
};

void gate_moves_init(struct gate_moves *m);
void gate_moves_release(struct gate_moves *m);

/* 1 when the n bytes at p name a records file (`perf_opt/perf_records.jsonl`
 * at the end of the path). */
int gate_is_records_path(const char *p, size_t n);

/* Fills m from `git diff -M -C -z --name-status REV --` in the repository
 * at top. Returns 0, or -1 when git failed (errno set; ENOMEM when out of
 * memory). */
int gate_moves_load(struct gate_moves *m, const char *top, const char *rev);

/* The base path git matched records file path (a repository path) with,
 * and *copied; NULL when none. */
const char *gate_moves_from(const struct gate_moves *m, const char *path, int *copied);

/* Compares the file path at rev with cur (read from its start; not
 * closed): *prefix is 1 when the old bytes are a prefix of cur, else
 * *first_changed is the 1-based line of the first changed or removed line.
 * Returns 0, 1 when path does not exist at rev (or git failed), -1 on
 * error (errno). */
int gate_hist_prefix(const char *top, const char *rev, const char *path, FILE *cur, int *prefix,
		     long *first_changed);

/* The records files of rev that hold, as a whole line, one of the first
 * GATE_HIST_SHARED_LINES lines of cur (read from its start; not closed):
 * their repository paths, NUL-separated, into *out (malloc'd, *len bytes).
 * Returns 0 (none found: *len is 0), -1 on error (errno). */
int gate_hist_sharing(const char *top, const char *rev, FILE *cur, char **out, size_t *len);

/* The records files of the working tree holding line as
 * gate_hist_sharing lists them. Returns 0, -1 on error (errno). */
int gate_hist_holding_now(const char *top, const char *line, char **out, size_t *len);

/* The first non-blank line of the file path at rev, malloc'd, into *line
 * (NULL when the file is empty). Returns 0, -1 when git failed. */
int gate_hist_first_line(const char *top, const char *rev, const char *path, char **line);

/* Who added each line of a file now: git blame. */
struct gate_blame {
	int *of_line;           /* [line], lines 1..n_lines: index into v, -1 not committed */
	long n_lines, cap_lines;
	struct s4_commit *v;
	char (*full)[41];       /* full sha per commit, to find it again */
	size_t n, cap;
};

void gate_blame_init(struct gate_blame *b);
void gate_blame_release(struct gate_blame *b);

/* Runs `git blame --porcelain -- path` in top. Returns 0, 1 when git
 * cannot blame the file (untracked, not in a repository), -1 on error
 * (errno). */
int gate_blame_load(struct gate_blame *b, const char *top, const char *path);

/* The blame as the S4 rules read it (pointers into b). */
void gate_blame_view(const struct gate_blame *b, struct s4_line_commits *out);

#endif
