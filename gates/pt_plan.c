/* pt_plan.c: PT-PLAN, the plan of an optimization log: every Part A
 * candidate carries a verdict and a reason; [ORDER-PLAN] exists, names
 * Part A items (not ones found 不适用) and its dependencies point at
 * items planned earlier; a [KERNEL-REUSE-PRECHECK] with unknown or false
 * dimensions does not plan direct reuse. */
#include "gates/pt_rules.h"

#include <stdio.h>
#include <string.h>

#define RULE "PT-PLAN"

static const struct ptlog_item *part_a(const struct ptlog *log, int num)
{
	for (size_t i = 0; i < log->nitems; i++)
		if (log->items[i].num == num)
			return &log->items[i];
	return NULL;
}

static int check_reuse(const struct pt_logfile *lf, struct gate_findings *fs)
{
	const struct ptlog *log = &lf->log;
	for (size_t i = 0; i < log->nev; i++) {
		const struct ptlog_event *ev = &log->ev[i];
		if (ev->tag != PTLOG_KRP)
			continue;
		size_t ul = 0, pl = 0;
		long uline = 0, pline = 0;
		const char *u = ptlog_event_field(log, ev, "unknown_or_false", &ul, &uline);
		const char *p = ptlog_event_field(log, ev, "plan", &pl, &pline);
		if (!u || !p) {
			if (gate_add(fs, RULE, GATE_WARNING, lf->shown, ev->line,
				     "[KERNEL-REUSE-PRECHECK] has no %s field: reuse plan not checked",
				     !u ? "unknown_or_false" : "plan"))
				return -1;
			continue;
		}
		if (pt_is_na(u, ul))
			continue;
		static const char *const direct[] = { "direct-reuse", "direct reuse", "direct_reuse", NULL };
		if (prose_contains_any(p, pl, direct)) {
			if (gate_add(fs, RULE, GATE_ERROR, lf->shown, pline,
				     "[KERNEL-REUSE-PRECHECK] lists unknown or false dimensions (line %ld: %.*s) but plans direct reuse",
				     uline, (int)(ul > 80 ? 80 : ul), u))
				return -1;
			continue;
		}
		/* the ORDER-PLAN must not say direct reuse either */
		for (size_t k = 0; k < log->nplan; k++) {
			const char *line = log->text.lines[log->plan[k].line - 1];
			if (prose_contains_any(line, (size_t)-1, direct) &&
			    gate_add(fs, RULE, GATE_ERROR, lf->shown, log->plan[k].line,
				     "[ORDER-PLAN] plans direct reuse although [KERNEL-REUSE-PRECHECK] (line %ld) lists unknown or false dimensions",
				     ev->line))
				return -1;
		}
	}
	return 0;
}

/* Every Part A item has a verdict and a reason; *numbered gets how many
 * are [#N] items (not scan entries). 0, -1 on allocation failure. */
static int check_items(const struct pt_logfile *lf, size_t *numbered, struct gate_findings *fs)
{
	const struct ptlog *log = &lf->log;
	*numbered = 0;
	for (size_t i = 0; i < log->nitems; i++) {
		const struct ptlog_item *it = &log->items[i];
		char name[32];
		if (it->scan)
			snprintf(name, sizeof(name), "scan entry");
		else {
			(*numbered)++;
			snprintf(name, sizeof(name), "[#%d]", it->num);
		}
		if (it->verdict == PTLOG_V_NONE) {
			if (gate_add(fs, RULE, GATE_ERROR, lf->shown, it->line,
				     "Part A item %s has no verdict (适用/不适用/部分适用 or HIT/N/A/PARTIAL)", name))
				return -1;
		} else if (!it->has_reason) {
			if (gate_add(fs, RULE, GATE_ERROR, lf->shown, it->line,
				     "Part A item %s gives a verdict without a reason", name))
				return -1;
		}
	}
	return 0;
}

/* An [ORDER-PLAN] that lists items, and Part A items to check them with. */
static int check_plan_present(const struct pt_logfile *lf, size_t numbered, struct gate_findings *fs)
{
	const struct ptlog *log = &lf->log;
	if (log->nplan == 0) {
		if (gate_add(fs, RULE, GATE_ERROR, lf->shown, log->plan_line, "[ORDER-PLAN] lists no [#N] item"))
			return -1;
	}
	if (!numbered && log->nplan) {
		if (gate_add(fs, RULE, GATE_WARNING, lf->shown, log->plan_line,
			     log->nitems ? "Part A is an anti-pattern scan without [#N] items: cannot check that [ORDER-PLAN] names Part A items"
					 : "no Part A [#N] items before [ORDER-PLAN]: cannot check that the plan names Part A items"))
			return -1;
	}
	return 0;
}

/* Plan entry pl names an applicable Part A item. */
static int check_plan_item(const struct pt_logfile *lf, const struct ptlog_plan *pl, struct gate_findings *fs)
{
	const struct ptlog_item *it = part_a(&lf->log, pl->num);
	if (!it)
		return gate_add(fs, RULE, GATE_ERROR, lf->shown, pl->line,
				"[ORDER-PLAN] plans [#%d], which is not an item of Part A", pl->num);
	if (it->verdict == PTLOG_V_NOT)
		return gate_add(fs, RULE, GATE_ERROR, lf->shown, pl->line,
				"[ORDER-PLAN] plans [#%d], which Part A found not applicable (line %ld)",
				pl->num, it->line);
	return 0;
}

/* Dependency d of plan entry k is another entry planned before it. */
static int check_dep(const struct pt_logfile *lf, size_t k, size_t d, struct gate_findings *fs)
{
	const struct ptlog *log = &lf->log;
	const struct ptlog_plan *pl = &log->plan[k];
	size_t pos = 0;
	while (pos < log->nplan && log->plan[pos].num != pl->deps[d])
		pos++;
	if (pl->deps[d] == pl->num)
		return gate_add(fs, RULE, GATE_ERROR, lf->shown, pl->line,
				"[ORDER-PLAN] makes [#%d] depend on itself", pl->num);
	if (pos == log->nplan)
		return gate_add(fs, RULE, GATE_ERROR, lf->shown, pl->line,
				"[ORDER-PLAN] makes [#%d] depend on [#%d], which the plan does not list",
				pl->num, pl->deps[d]);
	if (pos > k)
		return gate_add(fs, RULE, GATE_ERROR, lf->shown, pl->line,
				"[ORDER-PLAN] makes [#%d] depend on [#%d], which is planned later (line %ld)",
				pl->num, pl->deps[d], log->plan[pos].line);
	return 0;
}

static int check_log(const struct pt_logfile *lf, struct gate_findings *fs)
{
	const struct ptlog *log = &lf->log;
	size_t numbered;
	if (check_items(lf, &numbered, fs))
		return -1;
	if (!log->plan_line) {
		if (gate_add(fs, RULE, GATE_ERROR, lf->shown, 0, "no [ORDER-PLAN]: the implementation order is not planned"))
			return -1;
		return check_reuse(lf, fs);
	}
	if (check_plan_present(lf, numbered, fs))
		return -1;
	for (size_t k = 0; k < log->nplan; k++) {
		if (numbered && check_plan_item(lf, &log->plan[k], fs))
			return -1;
		for (size_t d = 0; d < log->plan[k].ndeps; d++)
			if (check_dep(lf, k, d, fs))
				return -1;
	}
	return check_reuse(lf, fs);
}

int pt_rule_plan(const struct pt_folder *f, struct gate_findings *fs)
{
	if (f->nlogs == 0)
		return gate_add(fs, RULE, GATE_WARNING, f->shown, 0,
				"no optimization_log.md: Part A and [ORDER-PLAN] not checked");
	for (size_t i = 0; i < f->nlogs; i++)
		if (check_log(&f->logs[i], fs))
			return -1;
	return 0;
}
