/* optlog_view.c: `tlperf read` views of the optlog model (optlog_view.h). */
#include "report/optlog_view.h"

#include <math.h>

#include "util/escape.h"


static const char *note_name(enum optlog_note_kind k)
{
	return k == OPTLOG_NOTE_HIDDEN ? "hidden" : k == OPTLOG_NOTE_CODE ? "code" : k == OPTLOG_NOTE_PROSE ? "prose" : "ambiguous";
}

/* A number, or null for NAN (JSON has no NaN). */
static void add_num(cJSON *o, const char *k, double v)
{
	if (isnan(v))
		cJSON_AddNullToObject(o, k);
	else
		cJSON_AddNumberToObject(o, k, v);
}

static void add_str(cJSON *o, const char *k, const char *v)
{
	if (v)
		cJSON_AddStringToObject(o, k, v);
	else
		cJSON_AddNullToObject(o, k);
}

static cJSON *rounds_json(const struct optlog *lg)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; a && i < lg->n_rounds; i++) {
		const struct optlog_round *r = &lg->rounds[i];
		if (r->run_label)
			continue;
		cJSON *o = cJSON_CreateObject();
		cJSON_AddItemToArray(a, o);
		cJSON_AddNumberToObject(o, "line", (double)r->line);
		add_num(o, "round", r->round >= 0 ? (double)r->round : NAN);
		cJSON_AddNumberToObject(o, "run", (double)r->run);
		cJSON_AddBoolToObject(o, "confirmation", r->confirm);
		cJSON_AddBoolToObject(o, "remeasure", r->remeasure);
	}
	return a;
}

static cJSON *tables_json(const struct optlog *lg)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; a && i < lg->n_tables; i++) {
		const struct optlog_table *t = &lg->tables[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddItemToArray(a, o);
		cJSON_AddNumberToObject(o, "line", (double)t->line);
		add_num(o, "round", t->round >= 0 ? (double)t->round : NAN);
		cJSON_AddNumberToObject(o, "run", (double)t->run);
		add_num(o, "caption_line", t->caption_line ? (double)t->caption_line : NAN);
		cJSON_AddBoolToObject(o, "duration", t->has_duration || t->cap_duration);
		cJSON_AddBoolToObject(o, "incumbent", t->has_incumbent);
		cJSON_AddNumberToObject(o, "rows", (double)t->rows);
		cJSON_AddBoolToObject(o, "confirmation", t->confirm);
	}
	return a;
}

static cJSON *claims_json(const struct optlog *lg)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; a && i < lg->n_claims; i++) {
		const struct optlog_claim *c = &lg->claims[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddItemToArray(a, o);
		cJSON_AddStringToObject(o, "kind", "final_latency");
		cJSON_AddNumberToObject(o, "line", (double)c->line);
		add_str(o, "workload", c->workload);
		add_num(o, "value_us", c->final_us);
		add_num(o, "baseline_us", c->baseline_us);
		cJSON_AddBoolToObject(o, "soft", c->soft);
	}
	for (size_t i = 0; a && i < lg->n_ratios; i++) {
		const struct optlog_ratio *r = &lg->ratios[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddItemToArray(a, o);
		cJSON_AddStringToObject(o, "kind", r->kind == OPTLOG_RATIO_SPEEDUP ? "speedup" : "percent");
		cJSON_AddNumberToObject(o, "line", (double)r->line);
		add_str(o, "workload", r->workload);
		cJSON_AddNumberToObject(o, "value", r->value);
		add_num(o, "range_to", r->hi);
		cJSON_AddBoolToObject(o, "prose", r->prose);
	}
	for (size_t i = 0; a && i < lg->n_geomeans; i++) {
		const struct optlog_number *g = &lg->geomeans[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddItemToArray(a, o);
		cJSON_AddStringToObject(o, "kind", "geomean_speedup");
		cJSON_AddNumberToObject(o, "line", (double)g->line);
		cJSON_AddNullToObject(o, "workload");
		cJSON_AddNumberToObject(o, "value", g->value);
		add_num(o, "scope", g->scope >= 0 ? (double)g->scope : NAN);
	}
	return a;
}

static cJSON *notes_json(const struct optlog *lg)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; a && i < lg->n_notes; i++) {
		const struct optlog_note *n = &lg->notes[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddItemToArray(a, o);
		cJSON_AddNumberToObject(o, "line", (double)n->line);
		cJSON_AddStringToObject(o, "kind", note_name(n->kind));
		cJSON_AddStringToObject(o, "why", n->why);
		cJSON_AddStringToObject(o, "text", n->quote);
	}
	return a;
}

static cJSON *summary_json(const struct optlog *lg)
{
	cJSON *o = cJSON_CreateObject();
	if (!o)
		return NULL;
	add_num(o, "line", lg->summary_line ? (double)lg->summary_line : NAN);
	cJSON *sup = cJSON_AddArrayToObject(o, "superseded");
	for (size_t i = 0; sup && i < lg->n_superseded; i++)
		cJSON_AddItemToArray(sup, cJSON_CreateNumber((double)lg->superseded[i]));
	add_str(o, "best", lg->best);
	add_num(o, "best_line", lg->best ? (double)lg->best_line : NAN);
	add_str(o, "stop_reason", optlog_stop_name(lg->stop));
	cJSON_AddBoolToObject(o, "nothing_adopted", lg->nothing_adopted);
	cJSON_AddItemToObject(o, "claims", claims_json(lg));
	return o;
}

static cJSON *suppressions_json(const struct optlog *lg)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; a && i < lg->n_suppressions; i++) {
		const struct optlog_suppression *s = &lg->suppressions[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddItemToArray(a, o);
		cJSON_AddNumberToObject(o, "line", (double)s->line);
		add_str(o, "rule", s->rule);
		add_str(o, "reason", s->reason);
	}
	return a;
}

static cJSON *problems_json(const struct optlog *lg)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; a && i < lg->n_problems; i++) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddItemToArray(a, o);
		cJSON_AddNumberToObject(o, "line", (double)lg->problems[i].line);
		cJSON_AddStringToObject(o, "message", lg->problems[i].message);
	}
	return a;
}

cJSON *report_optlog_json(const char *file, const struct optlog *lg)
{
	cJSON *o = cJSON_CreateObject();
	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "schema", "tlperf/read/v1");
	cJSON_AddStringToObject(o, "file", file);
	cJSON_AddNumberToObject(o, "lines", (double)lg->lines);
	cJSON_AddNumberToObject(o, "runs", (double)lg->runs);
	cJSON_AddNumberToObject(o, "target_run", (double)lg->target_run);
	cJSON_AddItemToObject(o, "rounds", rounds_json(lg));
	cJSON_AddItemToObject(o, "tables", tables_json(lg));
	cJSON_AddItemToObject(o, "summary", summary_json(lg));
	cJSON_AddItemToObject(o, "suppressions", suppressions_json(lg));
	cJSON_AddItemToObject(o, "passed_over", notes_json(lg));
	cJSON_AddItemToObject(o, "problems", problems_json(lg));
	return o;
}

static void text_rounds(FILE *f, const char *file, const struct optlog *lg)
{
	for (size_t i = 0; i < lg->n_rounds; i++) {
		const struct optlog_round *r = &lg->rounds[i];
		if (r->run_label)
			continue;
		fprintf(f, "%s:%ld: round ", file, r->line);
		if (r->round >= 0)
			fprintf(f, "%ld", r->round);
		else
			fputs("(none)", f);
		fprintf(f, " (run %ld)%s%s\n", r->run + 1, r->confirm ? ", final confirmation" : "",
			r->remeasure ? ", re-measures" : "");
	}
	for (size_t i = 0; i < lg->n_tables; i++) {
		const struct optlog_table *t = &lg->tables[i];
		fprintf(f, "%s:%ld: table of round ", file, t->line);
		if (t->round >= 0)
			fprintf(f, "%ld", t->round);
		else
			fputs("(none)", f);
		fprintf(f, " (run %ld): %ld row%s%s%s", t->run + 1, t->rows, t->rows == 1 ? "" : "s",
			t->has_duration || t->cap_duration ? ", durations" : "",
			t->has_incumbent ? ", current best shown" : "");
		if (t->caption_line)
			fprintf(f, ", caption on line %ld", t->caption_line);
		fputc('\n', f);
	}
}

static void text_summary(FILE *f, const char *file, const struct optlog *lg)
{
	if (!lg->summary_line) {
		fprintf(f, "%s: no Final Summary\n", file);
		return;
	}
	fprintf(f, "%s:%ld: Final Summary (the last one: claims are read here)\n", file, lg->summary_line);
	for (size_t i = 0; i < lg->n_superseded; i++)
		fprintf(f, "%s:%ld: Final Summary superseded by the one on line %ld\n", file, lg->superseded[i],
			lg->summary_line);
	if (lg->best) {
		fprintf(f, "%s:%ld: best: ", file, lg->best_line);
		escape_put_text(f, lg->best, 0);
		fputc('\n', f);
	}
	for (size_t i = 0; i < lg->n_claims; i++) {
		const struct optlog_claim *c = &lg->claims[i];
		fprintf(f, "%s:%ld: claim final_latency ", file, c->line);
		if (c->workload) {
			escape_put_text(f, c->workload, 0);
			fputc(' ', f);
		}
		fprintf(f, "%g us", c->final_us);
		if (!isnan(c->baseline_us))
			fprintf(f, " (baseline %g us)", c->baseline_us);
		fputs(c->soft ? " [only when the label is a recorded workload]\n" : "\n", f);
	}
	for (size_t i = 0; i < lg->n_ratios; i++) {
		const struct optlog_ratio *r = &lg->ratios[i];
		const char *u = r->kind == OPTLOG_RATIO_SPEEDUP ? "x" : "%";
		fprintf(f, "%s:%ld: claim %s ", file, r->line, r->kind == OPTLOG_RATIO_SPEEDUP ? "speedup" : "change");
		if (r->workload) {
			escape_put_text(f, r->workload, 0);
			fputc(' ', f);
		} else {
			fputs("overall ", f);
		}
		fprintf(f, "%g%s", r->value, u);
		if (!isnan(r->hi))
			fprintf(f, " to %g%s", r->hi, u);
		fputs(r->prose ? " [read from prose: a warning when the records do not support it]\n" : "\n", f);
	}
	for (size_t i = 0; i < lg->n_geomeans; i++) {
		fprintf(f, lg->geomeans[i].percent ? "%s:%ld: claim geomean change %g%%" : "%s:%ld: claim geomean speedup %gx",
			file, lg->geomeans[i].line, lg->geomeans[i].value);
		if (lg->geomeans[i].scope >= 0)
			fprintf(f, " over %ld workloads", lg->geomeans[i].scope);
		fputc('\n', f);
	}
	if (optlog_stop_name(lg->stop))
		fprintf(f, "%s:%ld: stop reason %s\n", file, lg->stop_line, optlog_stop_name(lg->stop));
	if (lg->figs_table_line)
		fprintf(f, "%s:%ld: the last table of baseline and final figures (%zu row%s, lines %ld-%ld)%s\n", file,
			lg->figs_table_line, lg->n_figs, lg->n_figs == 1 ? "" : "s", lg->figs[0].line,
			lg->figs[lg->n_figs - 1].line, lg->figs_claims ? ": the last summary's claims" : "");
	static const char *const cited[] = { "workload_inventory.json", "perf_feedback.md", "perf_records.jsonl" };
	const long at[] = { lg->cite_inventory_line, lg->cite_feedback_line, lg->cite_records_line };
	for (int i = 0; i < 3; i++)
		if (at[i])
			fprintf(f, "%s:%ld: cites %s (the folder must hold it)\n", file, at[i], cited[i]);
}

int report_optlog_text(FILE *f, const char *file, const struct optlog *lg)
{
	fprintf(f, "%s: %ld line%s, %ld run%s\n", file, lg->lines, lg->lines == 1 ? "" : "s", lg->runs,
		lg->runs == 1 ? "" : "s");
	text_rounds(f, file, lg);
	text_summary(f, file, lg);
	for (size_t i = 0; i < lg->n_suppressions; i++) {
		fprintf(f, "%s:%ld: suppression ", file, lg->suppressions[i].line);
		escape_put_text(f, lg->suppressions[i].rule ? lg->suppressions[i].rule : "(malformed)", 0);
		fputs(" -- ", f);
		escape_put_text(f, lg->suppressions[i].reason ? lg->suppressions[i].reason : "(no reason)", 0);
		fputc('\n', f);
	}
	for (size_t i = 0; i < lg->n_notes; i++) {
		const struct optlog_note *n = &lg->notes[i];
		fprintf(f, "%s:%ld: passed over (%s%s%s): ", file, n->line, note_name(n->kind),
			n->kind == OPTLOG_NOTE_HIDDEN ? ", " : "", n->kind == OPTLOG_NOTE_HIDDEN ? n->why : "");
		escape_put_text(f, n->quote, 0);
		fputc('\n', f);
	}
	for (size_t i = 0; i < lg->n_problems; i++)
		fprintf(f, "%s:%ld: problem: %s\n", file, lg->problems[i].line, lg->problems[i].message);
	return ferror(f) ? -1 : 0;
}
