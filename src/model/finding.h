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

/* Counts findings of exactly severity sev. */
size_t gate_count(const struct gate_findings *fs, enum gate_severity sev);

/* "error", "warning", "note", "off". */
const char *gate_severity_name(enum gate_severity sev);
/* Parses the same words; returns -1 when unknown. */
int gate_severity_parse(const char *s, enum gate_severity *out);

#endif
