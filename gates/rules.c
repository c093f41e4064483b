/* rules.c: the rule registry (rules.h). Add a row per new rule id. */
#include "gates/rules.h"

#include <string.h>

const struct gate_rule_info gate_rules[] = {
	{ "PT-DB", GATE_ERROR, GATE_ERROR, "perf_tuning: a double-buffer change has its own [DB-ANALYSIS] (Q1-Q3) before it" },
	{ "PT-ITERATION", GATE_ERROR, GATE_ERROR, "perf_tuning: perf_log improvements match their times; adopted ones improve or say why" },
	{ "PT-JSON", GATE_ERROR, GATE_ERROR, "perf_tuning: bench JSON parses and its aggregates match its rows" },
	{ "PT-PLAN", GATE_ERROR, GATE_ERROR, "perf_tuning: Part A verdicts, [ORDER-PLAN] items and dependencies, reuse precheck" },
	{ "PT-PRECISION", GATE_ERROR, GATE_ERROR, "perf_tuning: no performance change while precision fails" },
	{ "PT-REPORT", GATE_ERROR, GATE_ERROR, "perf_tuning: the report's numbers match the latest JSON and iteration (not stale)" },
	{ "PT-RESULT", GATE_ERROR, GATE_ERROR, "perf_tuning: each [RESULT] states precision, performance and a matching comparison" },
	{ "PT-SEQUENCE", GATE_ERROR, GATE_ERROR, "perf_tuning: ORDER-CHECK, IMPL, SELF-CHECK, RESULT in order, plan order and prerequisites kept" },
	{ "PT-STOP", GATE_WARNING, GATE_ERROR, "perf_tuning: 3 attempts without improvement stop the log or say why it goes on" },
	{ "S4-LAYOUT", GATE_WARNING, GATE_ERROR, "perf_opt/ holds files that belong in logs/, or a record names a missing profile" },
	{ "S4-OPTLOG", GATE_ERROR, GATE_ERROR, "opt_log.md exists, is not empty and has a Skill Retrospective" },
	{ "S4-OPTLOG-COMPTABLE", GATE_ERROR, GATE_ERROR, "every candidate round has a 'candidate vs current best' table" },
	{ "S4-PERF-FEEDBACK", GATE_ERROR, GATE_ERROR, "perf_feedback.md follows the [DESIGN_LIMIT] schema" },
	{ "S4-PERF-RECORDS", GATE_ERROR, GATE_ERROR, "perf_records.jsonl exists and is not empty" },
	{ "S4-PERF-RECORDS-APPEND", GATE_ERROR, GATE_ERROR, "perf_records.jsonl only grew since the base revision" },
	{ "S4-PERF-RECORDS-COVERAGE", GATE_ERROR, GATE_ERROR, "records cover every tune workload, and only those (v2)" },
	{ "S4-PERF-RECORDS-ORDER", GATE_ERROR, GATE_ERROR, "round 0 baseline first, rounds never go back, parents exist" },
	{ "S4-PERF-RECORDS-RECON", GATE_ERROR, GATE_ERROR, "the claimed final result is the winner's recorded measurement" },
	{ "S4-PERF-RECORDS-SCHEMA", GATE_ERROR, GATE_ERROR, "every record line is a valid object of its contract" },
	{ "S4-SPEEDUP", GATE_ERROR, GATE_ERROR, "a claimed geometric-mean speedup matches the records" },
	{ "S4-STOP-REASON", GATE_WARNING, GATE_ERROR, "a claimed stop reason (plateau, budget) agrees with the records" },
	{ "S4-WORKLOAD-INVENTORY", GATE_ERROR, GATE_ERROR, "workload_inventory.json is present and consistent (v2)" },
	{ "TLGATE-SUPPRESSION", GATE_WARNING, GATE_WARNING, "an inline suppression is malformed or unused" },
};
const size_t gate_nrules = sizeof(gate_rules) / sizeof(gate_rules[0]);

const struct gate_rule_info *gate_rule_find(const char *id)
{
	for (size_t i = 0; i < gate_nrules; i++)
		if (strcmp(gate_rules[i].id, id) == 0)
			return &gate_rules[i];
	/* S4-PERF-FEEDBACK-* share the family's entry */
	if (strncmp(id, "S4-PERF-FEEDBACK-", 17) == 0)
		return gate_rule_find("S4-PERF-FEEDBACK");
	return NULL;
}
