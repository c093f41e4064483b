/* rules.h: the registry of gate rule ids, their default severities and a
 * one-line summary (used by --config, SARIF rule objects and docs).
 * Rule ids are stable: downstream tools match on them. */
#ifndef TLPERF_RULES_H
#define TLPERF_RULES_H

#include <stddef.h>

#include "model/finding.h"

struct gate_rule_info {
	const char *id;                      /* e.g. "S4-PERF-RECORDS-RECON" */
	enum gate_severity default_severity; /* without --strict */
	enum gate_severity strict_severity;  /* with --strict */
	const char *summary;                 /* one line, for SARIF and docs */
};

extern const struct gate_rule_info gate_rules[];
extern const size_t gate_nrules;

/* Looks a rule up by id; NULL when unknown. */
const struct gate_rule_info *gate_rule_find(const char *id);

#endif
