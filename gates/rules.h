/* rules.h: the registry of gate rule ids, their default severities, a
 * one-line summary and the explanation `tlperf explain RULE` prints (used by
 * --config, SARIF rule objects and docs/rules.md, which is generated from
 * this table: `make docs`). Rule ids are stable: downstream tools match on
 * them.
 *
 * A new rule fills EVERY field (tests/test_rules.c fails otherwise), then
 * `make docs` regenerates docs/rules.md (tests/cli/test_explain.sh fails
 * while it is stale). */
#ifndef TLPERF_RULES_H
#define TLPERF_RULES_H

#include <stddef.h>

#include "model/finding.h"

struct gate_rule_info {
	const char *id;                      /* e.g. "S4-PERF-RECORDS-RECON" */
	enum gate_severity default_severity; /* without --strict */
	enum gate_severity strict_severity;  /* with --strict */
	const char *summary;                 /* one line, for SARIF and docs */
	const char *purpose;                 /* why the rule exists: what it protects */
	const char *trigger;                 /* what exactly makes it fire */
	const char *fix;                     /* how to make the finding go away honestly */
	const char *example;                 /* a short failing input and its finding */
};

extern const struct gate_rule_info gate_rules[];
extern const size_t gate_nrules;

/* Looks a rule up by id; NULL when unknown. */
const struct gate_rule_info *gate_rule_find(const char *id);

#endif
