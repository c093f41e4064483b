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

#include "finding.h"

enum report_format {
	REPORT_TEXT, REPORT_JSON, REPORT_SARIF, REPORT_GITHUB, REPORT_JUNIT,
	REPORT_MARKDOWN, REPORT_GITLAB
};

struct report_ctx {
	const char *tool_name;     /* "tlgate" */
	const char *tool_version;  /* TLPERF_VERSION */
	const char *repo_root;     /* file paths are made relative to it when under it; may be NULL */
	size_t dirs_checked;       /* directories the gate looked at (summaries) */
	int warnings_as_errors;    /* counts warnings as failures in summaries */
};

/* Parses a format name; returns 0, or -1 when unknown. */
int report_format_parse(const char *name, enum report_format *out);

/* Writes all findings to f in the format. Findings of severity GATE_OFF are
 * skipped. Returns 0, or -1 on a write error (errno set). */
int report_write(FILE *f, enum report_format fmt, const struct gate_findings *fs,
		 const struct report_ctx *ctx);

#endif
