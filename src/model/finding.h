/* finding.h: what a gate rule reports. Rules append findings; src/ prints.
 *
 * A finding names a rule id (e.g. "S4-PERF-RECORDS-RECON"), a severity, a
 * file (path as given to the gate, or repo-relative) and a 1-based line
 * (0 for the file as a whole), and a message (lowercase, no trailing
 * period).
 */
#ifndef TLPERF_FINDING_H
#define TLPERF_FINDING_H

#include <stddef.h>

enum gate_severity {
	GATE_OFF = 0,     /* rule disabled: findings are dropped */
	GATE_NOTE = 1,    /* informational, never fails */
	GATE_WARNING = 2, /* fails only with --warnings-as-errors */
	GATE_ERROR = 3    /* fails the gate */
};

struct gate_finding {
	char *rule;               /* rule id, malloc'd */
	enum gate_severity severity;
	char *file;               /* malloc'd path */
	long line;                /* 1-based, 0 when the whole file */
	char *message;            /* malloc'd */
	char *sup_file;           /* the inline suppression that silenced it
				     (malloc'd), NULL while the finding counts */
	long sup_line;            /* its line */
	char *sup_reason;         /* its reason, malloc'd */
};

struct gate_findings {
	struct gate_finding *v;   /* in the order rules reported them */
	size_t n, cap;
};

void gate_findings_init(struct gate_findings *fs);
void gate_findings_release(struct gate_findings *fs);

/* Appends a finding; message is printf-formatted. Returns 0, -1 on
 * allocation failure. */
int gate_add(struct gate_findings *fs, const char *rule, enum gate_severity sev,
	     const char *file, long line, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* Counts findings of exactly severity sev that no suppression silenced. */
size_t gate_count(const struct gate_findings *fs, enum gate_severity sev);
/* Counts the suppressed findings (of any severity but GATE_OFF). */
size_t gate_count_suppressed(const struct gate_findings *fs);

/* Marks f as silenced by the inline suppression at file:line with reason:
 * it stays in the list, for the reports, and counts no more. Returns 0,
 * -1 on allocation failure (f unchanged). */
int gate_finding_suppress(struct gate_finding *f, const char *file, long line, const char *reason);
/* Frees what one finding owns (for code that drops findings in place). */
void gate_finding_release(struct gate_finding *f);
/* Moves every finding of src (suppression marks included) to the end of
 * dst; src is left empty. Returns 0, -1 on allocation failure (src then
 * holds what was not moved). */
int gate_findings_move(struct gate_findings *dst, struct gate_findings *src);

/* "error", "warning", "note", "off". */
const char *gate_severity_name(enum gate_severity sev);
/* Parses the same words; returns -1 when unknown. */
int gate_severity_parse(const char *s, enum gate_severity *out);

#endif
