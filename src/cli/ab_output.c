/* ab_output.c: how a `tlab` session ends (see ab_cmd.h): the verdict
 * JSON, the error JSON, the plot. */
#include "cli/ab_cmd.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "report/svg.h"
#include "run/tlab_seq.h"
#include "stats/ab_refout.h"
#include "io/cli_msg.h"

static cJSON *num_array(const double *v, size_t n)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; a && i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
	return a;
}

static cJSON *run_json(const struct abrun_run *r)
{
	char arm[2] = { r->arm, '\0' };
	cJSON *o = cJSON_CreateObject();
	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "arm", arm);
	cJSON_AddNumberToObject(o, "pair", (double)r->pair);
	cJSON_AddNumberToObject(o, "order", r->order);
	cJSON_AddNumberToObject(o, "launches", (double)r->launches);
	cJSON_AddNumberToObject(o, "median_us", r->median_us);
	if (isfinite(r->mad_us))
		cJSON_AddNumberToObject(o, "mad_us", r->mad_us);
	cJSON_AddStringToObject(o, "log", r->log ? r->log : "");
	cJSON_AddStringToObject(o, "profile", r->profile ? r->profile : "");
	return o;
}

static void print_json(cJSON *o)
{
	char *text = cJSON_Print(o);
	if (text) {
		fputs(text, stdout);
		fputc('\n', stdout);
		free(text);
	} else {
		cli_error("out of memory");
	}
}

/* The "protocol" field: ab_test.py's own label under ref (a drop-in), the
 * protocol's name under seq. */
static const char *protocol_label(const struct ab_opts *o)
{
	return o->protocol == AB_PROTOCOL_REF ? AB_REF_PROTOCOL_LABEL : o->protocol_name;
}

/* The reference tool's fields of J: same names, same meaning, same
 * rounding (stats/ab_refout.h); RDIFFS the rounded pair differences.
 * Under seq the reference rule's own decision figures (sign_test_p,
 * direction_consistent) are left to the "ref" object (add_ref_decision), so
 * every top-level field that says whether B is better is seq's. */
static void add_ref_fields(cJSON *j, const struct ab_opts *o, const struct ab_session *s,
			   size_t npairs, const struct ab_decision *d, const struct ab_ref_out *ro,
			   const double *rdiffs)
{
	cJSON_AddStringToObject(j, "protocol", protocol_label(o));
	cJSON_AddNumberToObject(j, "pairs", (double)npairs);
	cJSON_AddNumberToObject(j, "launch_count", (double)o->run.launch_count);
	cJSON_AddItemToObject(j, "a_medians_us", num_array(s->a, npairs));
	cJSON_AddItemToObject(j, "b_medians_us", num_array(s->b, npairs));
	cJSON_AddNumberToObject(j, "a_merged_median_us", ro->a_merged_median_us);
	cJSON_AddNumberToObject(j, "b_merged_median_us", ro->b_merged_median_us);
	cJSON_AddNumberToObject(j, "b_rel_change", ro->b_rel_change);
	cJSON_AddItemToObject(j, "pair_diffs_us", num_array(rdiffs, npairs));
	if (o->protocol == AB_PROTOCOL_REF) { /* under seq they sit in "ref" */
		cJSON_AddNumberToObject(j, "sign_test_p", ro->sign_test_p);
		cJSON_AddBoolToObject(j, "direction_consistent", d->ref.direction_consistent);
	}
	cJSON_AddNumberToObject(j, "noise_threshold", o->noise);
	cJSON_AddStringToObject(j, "verdict", ab_verdict_name(d->verdict));
}

/* "exact": the reference's fields unrounded, same names and signs; DIFFS
 * the pair differences B - A; sign_test_p only when ref (the protocol is
 * the reference's). */
static void add_exact(cJSON *j, const struct ab_decision *d, const struct ab_ref_out *ro,
		      const double *diffs, size_t npairs, int ref)
{
	cJSON *ex = cJSON_AddObjectToObject(j, "exact");
	if (!ex)
		return;
	cJSON_AddNumberToObject(ex, "a_merged_median_us", d->ref.a_merged_median_us);
	cJSON_AddNumberToObject(ex, "b_merged_median_us", d->ref.b_merged_median_us);
	cJSON_AddNumberToObject(ex, "b_rel_change", ro->b_rel_change_exact);
	cJSON_AddItemToObject(ex, "pair_diffs_us", num_array(diffs, npairs));
	if (ref)
		cJSON_AddNumberToObject(ex, "sign_test_p", d->ref.sign_test_p);
}

/* "pair_gain_ci", when the decision has an interval. */
static void add_ci(cJSON *j, const struct ab_decision *d)
{
	if (!d->have_ci)
		return;
	cJSON *ci = cJSON_AddObjectToObject(j, "pair_gain_ci");
	if (!ci)
		return;
	cJSON_AddStringToObject(ci, "method",
				"order statistics of the per-pair (A-B)/A "
				"(sign-test inversion, distribution-free)");
	cJSON_AddNumberToObject(ci, "estimate", d->ci.estimate);
	cJSON_AddNumberToObject(ci, "lo", d->ci.lo);
	cJSON_AddNumberToObject(ci, "hi", d->ci.hi);
	cJSON_AddNumberToObject(ci, "level", d->ci.level);
	cJSON_AddNumberToObject(ci, "requested_level", d->ci.requested);
}

/* seq: "ref", what the reference rule decides on the same pairs, for
 * comparison only (the verdict is seq's): its verdict, significant,
 * sign_test_p (unrounded), direction_consistent and pair_gain_ci. */
static void add_ref_decision(cJSON *j, const struct ab_decision *d)
{
	cJSON *r = cJSON_AddObjectToObject(j, "ref");
	if (!r)
		return;
	cJSON_AddStringToObject(r, "verdict", ab_verdict_name(d->ref.verdict));
	cJSON_AddBoolToObject(r, "significant", d->ref.significant);
	cJSON_AddNumberToObject(r, "sign_test_p", d->ref.sign_test_p);
	cJSON_AddBoolToObject(r, "direction_consistent", d->ref.direction_consistent);
	add_ci(r, d);
}

/* The session fields of J and its runs, in the order they were measured
 * (by pair, then order within it); seq adds each run's state. */
static void add_session(cJSON *j, const struct ab_opts *o, const struct ab_session *s,
			size_t npairs, const struct ab_decision *d)
{
	cJSON_AddStringToObject(j, "source", absource_name(&o->source));
	cJSON_AddStringToObject(j, "kernel_name", o->run.kernel_name);
	cJSON_AddStringToObject(j, "workdir", o->run.workdir);
	cJSON_AddNumberToObject(j, "resumed_runs", (double)s->resumed);
	/* runs whose journal line was damaged (measured again) */
	cJSON_AddNumberToObject(j, "lost_runs", (double)s->lost);
	cJSON *runs = cJSON_AddArrayToObject(j, "runs");
	for (long p = 1; runs && p <= (long)npairs; p++)
		for (int ord = 1; ord <= 2; ord++)
			for (size_t i = 0; i < s->n; i++)
				if (s->v[i].pair == p && s->v[i].order == ord)
					cJSON_AddItemToArray(runs, run_json(&s->v[i]));
	if (runs && o->protocol == AB_PROTOCOL_SEQ)
		ab_seq_add_run_states(runs, d->state_a, d->state_b, npairs);
}

void ab_cmd_print_verdict(const struct ab_opts *o, const struct ab_session *s, size_t npairs,
			  const struct ab_decision *d)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "schema", "tlperf/tlab/v1");
	size_t cnt = npairs ? npairs : 1;
	double *diffs = malloc(cnt * sizeof(*diffs));
	double *rdiffs = malloc(cnt * sizeof(*rdiffs));
	double *rels = malloc(cnt * sizeof(*rels));
	struct ab_ref_out ro;
	if (!j || !diffs || !rdiffs || !rels) {
		cli_error("out of memory");
		goto out;
	}
	for (size_t i = 0; i < npairs; i++) {
		diffs[i] = s->b[i] - s->a[i];
		rdiffs[i] = stats_ab_ref_pair_diff(s->a[i], s->b[i]);
		rels[i] = (s->a[i] - s->b[i]) / s->a[i];
	}
	stats_ab_ref_out(&d->ref, &ro);
	add_ref_fields(j, o, s, npairs, d, &ro, rdiffs);
	/* Ours. gain: > 0 when B is faster (seq adds its own below). */
	int ref = o->protocol == AB_PROTOCOL_REF;
	cJSON_AddStringToObject(j, "tlab_protocol", o->protocol_name);
	if (ref)
		cJSON_AddNumberToObject(j, "gain", d->ref.b_rel_change);
	add_exact(j, d, &ro, diffs, npairs, ref);
	/* significant: the verdict names a faster arm (the protocol's own) */
	cJSON_AddBoolToObject(j, "significant", ref ? d->ref.significant
						  : d->verdict == AB_B_BETTER ||
							    d->verdict == AB_A_BETTER);
	cJSON_AddItemToObject(j, "pair_rel_changes", num_array(rels, npairs));
	if (ref) {
		add_ci(j, d);
	} else {
		ab_seq_add_json(j, &d->seq, &o->seq, o->seed);
		add_ref_decision(j, d);
	}
	add_session(j, o, s, npairs, d);
	print_json(j);
out:
	cJSON_Delete(j);
	free(diffs);
	free(rdiffs);
	free(rels);
}

/* {"error": msg, ...} on stdout (scripts read stdout) and msg on stderr. */
void ab_cmd_print_error_json(const struct ab_opts *o, const struct ab_session *s, const char *msg,
			     const char *log)
{
	cli_error("%s", msg);
	cJSON *j = cJSON_CreateObject();
	if (!j)
		return;
	cJSON_AddStringToObject(j, "schema", "tlperf/tlab/v1");
	char journal[4200];
	snprintf(journal, sizeof(journal), "%s/runs.jsonl", o->run.workdir);
	cJSON_AddStringToObject(j, "error", msg);
	if (log)
		cJSON_AddStringToObject(j, "log", log);
	cJSON_AddStringToObject(j, "protocol", protocol_label(o));
	cJSON_AddStringToObject(j, "workdir", o->run.workdir);
	cJSON_AddStringToObject(j, "runs_file", journal);
	cJSON_AddNumberToObject(j, "runs_recorded", s ? (double)s->n : 0);
	print_json(j);
	cJSON_Delete(j);
}

/* --plot: the runs, the estimate with its interval, the verdict in the
 * title (src/svg.h). Returns 0, or -1 with errno set. */
int ab_cmd_write_plot(const struct ab_opts *o, const struct ab_session *s, size_t npairs,
		      const struct ab_decision *d)
{
	char title[160];
	snprintf(title, sizeof(title), "tlab: %s (B gain %+.2f%%, %zu pairs, sign test p = %.3g)",
		 ab_verdict_name(d->verdict), 100.0 * d->ref.b_rel_change, npairs,
		 d->ref.sign_test_p);
	struct svg_ab p = {
		.title = title, .a = s->a, .b = s->b, .npairs = npairs,
		.a_median = d->ref.a_merged_median_us, .b_median = d->ref.b_merged_median_us,
		.estimate = d->have_ci ? d->ci.estimate : d->ref.b_rel_change,
		.lo = d->have_ci ? d->ci.lo : NAN, .hi = d->have_ci ? d->ci.hi : NAN,
		.ci_level = d->have_ci ? d->ci.level : NAN, .noise = o->noise,
	};
	if (o->protocol == AB_PROTOCOL_SEQ) {
		/* seq's own figures: mean gain, its interval, the run states it found */
		snprintf(title, sizeof(title), "tlab: %s (B gain %+.2f%%, %zu pairs, stop: %s)",
			 ab_verdict_name(d->verdict), 100.0 * d->seq.gain, npairs,
			 abseq_reason_name(d->seq.reason));
		p.estimate = d->seq.gain;
		p.lo = d->seq.gain_lo;
		p.hi = d->seq.gain_hi;
		p.ci_level = NAN; /* sequential interval: no fixed coverage to print */
		p.a_state = d->state_a; /* enum abseq_state matches enum svg_state */
		p.b_state = d->state_b;
	}
	return svg_save_ab(o->plot, &p);
}
