/* report.h: gate findings in every output format CI understands.
 *
 * Formats: text (GNU style "path:line: error: [RULE] message"), json,
 * sarif (2.1.0, one rule object per rule id, repo-relative paths), github
 * (workflow commands, escaped), junit (XML), markdown (summary table for a
 * CI job summary), gitlab (Code Quality JSON with stable fingerprints).
 */
#ifndef TLPERF_REPORT_H
#define TLPERF_REPORT_H

#include <stdio.h>

#include "model/finding.h"

struct report_ctx;

/* One output format: its name (--format NAME) and its renderer (one
 * render_<name>.c each), which writes the findings of severity other than
 * GATE_OFF and returns 0, -1 on failure. */
struct report_format {
	const char *name;
	int (*render)(FILE *f, const struct gate_findings *fs, const struct report_ctx *ctx);
};

/* Every format, the default (text) first, ended by { NULL, NULL }: adding
 * a format is a new render_<name>.c and one line in this list (report.c),
 * and its name in report_format_names (a test checks the two agree). */
extern const struct report_format report_formats[];

/* The --format help; the usage lists the names after it ("one of: ...",
 * from report_format_names), so it does not repeat them. */
#define REPORT_FORMAT_HELP "how findings are written (default: text)"

struct report_ctx {
	const char *tool_name;     /* "tlgate" */
	const char *tool_version;  /* TLPERF_VERSION */
	const char *repo_root;     /* file paths are made relative to it when under it; may be NULL */
	size_t dirs_checked;       /* directories the gate looked at (summaries) */
	int warnings_as_errors;    /* counts warnings as failures in summaries */
	double elapsed_s;          /* text: the summary line's time; < 0 leaves it out */
	int statistics;            /* text: counts per rule instead of one line per finding */
	int summary;               /* text: end with the one summary line */
};

/* The format named name, or NULL when there is none. */
const struct report_format *report_format_named(const char *name);

/* Every format's name, in enum order, NULL-terminated (an option's
 * choices: cli/options.h). */
extern const char *const report_format_names[];

/* Writes all findings to f in the format. Findings of severity GATE_OFF are
 * skipped. Returns 0, or -1 on a write error (errno set). */
int report_write(FILE *f, const struct report_format *fmt, const struct gate_findings *fs,
		 const struct report_ctx *ctx);

/* file relative to repo_root when it lies under it (the directory part is
 * resolved with realpath() when it exists, so symlinked temp dirs and
 * "./x" forms compare equal; a relative file is taken relative to the
 * current directory), else file unchanged. repo_root NULL or "" returns
 * file unchanged. Returns malloc'd, caller frees; NULL on allocation
 * failure. */
char *report_relpath(const char *repo_root, const char *file);

/* The GitLab Code Quality fingerprint: 32 lowercase hex digits (two
 * FNV-1a 64-bit hashes, not cryptographic) of rule, the repo-relative
 * file, the message and occurrence (0 for the first finding with these
 * three, 1 for the next identical one...). Line numbers are left out on
 * purpose so a finding keeps its fingerprint when unrelated lines move;
 * a message that itself quotes a line number changes with it. Writes
 * out[0..32], NUL-terminated. */
void report_fingerprint(const char *rule, const char *file, const char *message,
			unsigned long occurrence, char out[33]);

/* Writes s to f escaped for XML 1.0 character data (attr == 0) or a
 * double-quoted attribute value (attr != 0; tab, CR and LF become
 * character references). Invalid UTF-8 and characters XML 1.0 forbids
 * (C0 controls other than tab/CR/LF, U+FFFE, U+FFFF) become U+FFFD, so the
 * output is always well-formed. Returns 0, or -1 on a write error. */
int report_xml_escape(FILE *f, const char *s, int attr);

#endif
