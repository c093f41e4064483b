/* cmd_sim.c: `tlperf sim`, the A/B protocols run in-process on seeded
 * synthetic runs (stats/synth.h), so their error rates and costs can be
 * measured and compared in the same run.
 *
 * Every trial draws the runs of pair i, arm X from its own generator,
 * seeded from (seed, scenario, trial, i, X) and not from the effect, so the
 * protocols see the same states and noise (only the order within a pair,
 * which the protocol chooses, changes drift and second-run penalties) and
 * neighbouring effects are compared on common random numbers.
 */
#include "cli/cli.h"
#include "stats/stats.h"
#include "cli/options.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/ab.h"
#include "stats/abseq.h"
#include "stats/abseq_v1.h"
#include "stats/simgrid.h"
#include "stats/synth.h"
#include "report/table.h"

enum { O_MINP = 256, O_MAXP, O_MING, O_NOISE, O_CI, O_CK, O_GP, O_GRID, O_FAM, O_CELLS,
       O_PG, O_PS };
static const char *const sim_protocols[] = { "fast", "seq", "seq-v1", "ref", "both", "all", NULL };
static const char *const sim_grids[] = { "calibration", "evaluation", NULL };

static const struct cli_option sim_options[] = {
	{ 'p', 0, "protocol", "P", "fast (tlab's default, the rule for the runs users\n"
				   "have), seq (the bound over every two-state shift),\n"
				   "seq-v1 (the rule seq replaced, for comparison), ref (3\n"
				   "fixed pairs, ab_test.py's rule), both (seq and ref, the\n"
				   "default) or all",
	  sim_protocols },
	{ 's', 0, "scenario", "S", "quiet, bimodal4, bimodal8, drift, outliers, stateshift,\n"
				   "steady1, steady2 (one state, runs of 1.4% and 2% CV)\n"
				   "or all (default)" },
	{ 'e', 0, "effect", "E", "B's true gain: 0.05 or 5% = B 5% faster, -4% = 4% slower;\n"
				 "all (default) = 0,1,2,3,5,8% and -4%" },
	{ 't', 0, "trials", "N", "trials per scenario and effect (default 2000)" },
	{ 'S', 0, "seed", "S", "seed (default 1); the same seed gives the same output" },
	{ 'j', 0, "json", NULL, "one JSON object instead of the table" },
	{ O_MINP, 0, "min-pairs", "N", "seq: first look after N pairs (default 3; seq-v1: 4)" },
	{ O_MAXP, 0, "max-pairs", "N", "seq: budget of pairs (default 16; seq at most 24,\n"
				     "seq-v1 at most 128)" },
	{ O_MING, 0, "min-gain", "F", "seq: smallest gain worth adopting (default 0.01)" },
	{ O_NOISE, 0, "noise", "F", "tie margin, seq and ref (default 0.03, each rule's own)" },
	{ O_PS, 0, "spend-power", "K", "seq's calibrated constant: look n spends alpha in\n"
				     "proportion to n^K (re-calibration only; default 2)" },
	{ O_CI, 0, "crit-inf", "Z", "seq-v1's calibrated constant (re-calibration only)" },
	{ O_CK, 0, "crit-k", "K", "seq-v1's calibrated constant (re-calibration only)" },
	{ O_GP, 0, "guard-p", "P", "seq-v1's calibrated constant (re-calibration only)" },
	{ O_PG, 0, "prior-gap", "G", "seq-v1: log gap assumed for a state no run has shown\n"
				   "(default 0.0953 = 10%)" },
	{ O_GRID, 0, "grid", "G", "seq or seq-v1 alone, over a scenario grid instead of the named\n"
				"scenarios: cells over the state gap G, P(slow) of A and\n"
				"B, outlier runs near and far from the slow cluster, linear\n"
				"and random-walk drift and a jittering gap, B's MEAN equal\n"
				"to A's (null), 4% slower, or 3/5/8% faster. `calibration`\n"
				"is the grid the constants were tuned on, `evaluation` the\n"
				"one reported (other cells). Prints the worst cell of every\n"
				"target with its 95% Wilson interval", sim_grids },
	{ O_FAM, 0, "family", "F", "with --grid: only null, slower, gain5_g4, gain5_g8,\n"
				 "gain3_g4, pairs8, identical, slower2, steady0, steady5,\n"
				 "steady3, steady_m3 or noisy" },
	{ O_CELLS, 0, "cells", NULL, "with --grid: also print every cell (the JSON always has them)" },
	CLI_OPT_END
};

const struct cli_spec cmd_sim_spec = {
	"sim",
	"tlperf sim [--protocol fast|seq|seq-v1|ref|both|all] [--scenario NAME|all] [--effect E|all]\n"
	"                  [--trials N] [--seed S] [--json]\n"
	"                  [--min-pairs N] [--max-pairs N] [--min-gain F] [--noise F]\n"
	"                  [--spend-power K] [--crit-inf Z] [--crit-k K] [--guard-p P]\n"
	"                  [--prior-gap G]\n"
	"       tlperf sim --grid calibration|evaluation [--protocol fast|seq|seq-v1]\n"
	"                  [--family F] [--cells]\n"
	"                  [--trials N] [--seed S] [--json] [seq settings]",
	"Runs the A/B protocols on identical seeded synthetic runs (15 launches per\n"
	"run, the run median as the run's value) and prints, per scenario and true\n"
	"effect, how often each verdict came out and how many pairs it took.\n",
	sim_options,
	"The targets of the decision-quality issue are checked for the seq rows\n"
	"that were simulated and printed under the table (PASS/FAIL).\n"
	"Exit: 0 when the simulation ran, 2 on a usage error.\n",
	0, NULL,
};

#define SIM_LAUNCHES 15
#define SIM_MEAN_US 10.0
#define REF_PAIRS 3

static const double all_effects[] = { 0.0, 0.01, 0.02, 0.03, 0.05, 0.08, -0.04 };
#define N_ALL_EFFECTS (sizeof(all_effects) / sizeof(all_effects[0]))

enum { PROTO_SEQ = 1, PROTO_REF = 2, PROTO_V1 = 4, PROTO_FAST = 8 };

struct cell {
	int proto;            /* PROTO_SEQ, PROTO_V1 or PROTO_REF */
	const char *scenario;
	double effect;        /* B's gain within a state */
	double true_gain;     /* 1 - E[B]/E[A] over states and outliers */
	long count[4];        /* per enum ab_verdict */
	long reasons[ABSEQ_NREASONS]; /* seq, seq-v1: per enum abseq_reason */
	double pairs_sum;
	long pairs_max;
};

/* The median of one synthetic run of arm X (0 = A, 1 = B) in pair i. */
static double sim_run(const struct synth_arm *arm, uint64_t base, size_t pair, int x,
		      int is_second)
{
	struct stats_rng r;
	double l[SIM_LAUNCHES];
	stats_rng_seed(&r, simgrid_mix(simgrid_mix(base, pair), (uint64_t)x));
	long run_index = (long)(2 * pair) + is_second;
	synth_run(arm, &r, run_index, is_second, l, SIM_LAUNCHES);
	return simgrid_median_run(l);
}

/* Expected duration of an arm over states and outliers (drift and the
 * second-run penalty hit both arms alike). */
static double arm_mean(const struct synth_arm *a)
{
	double state = a->mean_us * (1.0 + a->half_gap * (2.0 * a->p_slow - 1.0));
	return state * (1.0 + a->outlier_p * 0.5 * (a->outlier_lo + a->outlier_hi));
}

/* The settings protocol PROTO (PROTO_SEQ or PROTO_V1) runs with: the
 * options given (sp), under its rule. */
static struct abseq_params rule_params(const struct abseq_params *sp, int proto, int minp_given)
{
	struct abseq_params p = *sp;
	abseq_params_set_rule(&p, proto == PROTO_V1     ? ABSEQ_RULE_V1
				  : proto == PROTO_FAST ? ABSEQ_RULE_FAST
							: ABSEQ_RULE_SEQ,
			      minp_given);
	return p;
}

static void run_cell(struct cell *c, long trials, uint64_t seed, size_t scen_idx,
		     const struct abseq_params *sp, int minp_given, double noise)
{
	struct synth_arm A, B;
	struct abseq_params rp = rule_params(sp, c->proto, minp_given);
	sp = &rp;
	synth_scenario(c->scenario, c->effect, SIM_MEAN_US, &A, &B);
	c->true_gain = 1.0 - arm_mean(&B) / arm_mean(&A);
	for (long t = 0; t < trials; t++) {
		uint64_t base = simgrid_mix(simgrid_mix(seed, scen_idx + 1), (uint64_t)t);
		double a[ABSEQ_MAX_PAIRS], b[ABSEQ_MAX_PAIRS];
		int bf[ABSEQ_MAX_PAIRS];
		long used;
		enum ab_verdict v;
		if (c->proto == PROTO_REF) {
			struct ab_ref_result rr;
			for (size_t i = 0; i < REF_PAIRS; i++) {
				int b_first = (i % 2) == 1; /* pair 1 A-B, pair 2 B-A, ... */
				a[i] = sim_run(&A, base, i, 0, b_first);
				b[i] = sim_run(&B, base, i, 1, !b_first);
			}
			if (stats_ab_ref(a, b, REF_PAIRS, noise, &rr) != 0)
				rr.verdict = AB_INCONCLUSIVE;
			v = rr.verdict;
			used = REF_PAIRS;
		} else {
			struct stats_rng order;
			struct abseq_result res;
			stats_rng_seed(&order, simgrid_mix(base, 0x6f72646572ULL));
			res.reason = ABSEQ_CONTINUE;
			res.verdict = AB_INCONCLUSIVE;
			size_t i = 0;
			while (i < sp->max_pairs) {
				bf[i] = (int)(stats_rng_next(&order) >> 63);
				a[i] = sim_run(&A, base, i, 0, bf[i]);
				b[i] = sim_run(&B, base, i, 1, !bf[i]);
				i++;
				if (i < sp->min_pairs)
					continue;
				if (abseq_decide(a, b, bf, i, sp, NULL, NULL, &res) != 0) {
					res.reason = ABSEQ_BUDGET;
					res.verdict = AB_INCONCLUSIVE;
					break;
				}
				if (res.reason != ABSEQ_CONTINUE)
					break;
			}
			v = res.verdict;
			used = (long)i;
			c->reasons[res.reason]++;
		}
		c->count[v]++;
		c->pairs_sum += (double)used;
		if (used > c->pairs_max)
			c->pairs_max = used;
	}
}

static int parse_effect(const char *s, double *out)
{
	size_t len = strlen(s);
	char buf[64];
	int pct = len > 0 && s[len - 1] == '%';
	if (len == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len + 1);
	if (pct)
		buf[len - 1] = '\0';
	if (cli_parse_double("--effect", buf, out) != 0)
		return -1;
	if (pct)
		*out /= 100.0;
	if (!(*out > -0.5 && *out < 0.5)) {
		cli_error("--effect must be between -50%% and 50%%, got '%s'", s);
		return -1;
	}
	return 0;
}

static const char *proto_name(int p)
{
	return p == PROTO_SEQ ? "seq" : p == PROTO_V1 ? "seq-v1" : p == PROTO_FAST ? "fast" : "ref";
}

/* ---- targets of the decision-quality issue (the rows of one sequential rule) ---- */

struct target {
	char name[96];
	double value, limit;
	int at_most; /* 1: value <= limit passes */
	int pass;
};

static const struct cell *find_cell(const struct cell *cells, size_t nc, int proto,
				    const char *scen, double effect)
{
	for (size_t i = 0; i < nc; i++)
		if (cells[i].proto == proto && strcmp(cells[i].scenario, scen) == 0 &&
		    fabs(cells[i].effect - effect) < 1e-9)
			return &cells[i];
	return NULL;
}

static size_t add_target(struct target *t, size_t n, double value, double limit, int at_most,
			 const char *fmt, const char *scen, double pct)
{
	snprintf(t[n].name, sizeof(t[n].name), fmt, scen, pct);
	t[n].value = value;
	t[n].limit = limit;
	t[n].at_most = at_most;
	t[n].pass = at_most ? value <= limit + 1e-12 : value >= limit - 1e-12;
	return n + 1;
}

static size_t check_targets(const struct cell *cells, size_t nc, int proto, long trials,
			    size_t max_pairs, struct target *t)
{
	size_t n = 0;
	long worst = 0;
	int any = 0;
	for (size_t i = 0; i < nc; i++) {
		const struct cell *c = &cells[i];
		if (c->proto != proto)
			continue;
		double bb = (double)c->count[AB_B_BETTER] / (double)trials;
		if (c->true_gain <= 1e-12)
			n = add_target(t, n, bb, 0.025, 1,
				       "false adoption, %s, effect %+.0f%% (B not faster)",
				       c->scenario, c->effect * 100);
		if (fabs(c->effect + 0.04) < 1e-9)
			n = add_target(t, n, bb, 0.005, 1, "B_better, %s, B %.0f%% slower", c->scenario,
				       4.0);
		if (fabs(c->effect - 0.08) < 1e-9)
			n = add_target(t, n, c->pairs_sum / (double)trials, 6.0, 1,
				       "mean pairs, %s, gain %.0f%%", c->scenario, 8.0);
		if (fabs(c->effect) < 1e-9)
			n = add_target(t, n, c->pairs_sum / (double)trials, 12.0, 1,
				       "mean pairs, %s, gain %.0f%%", c->scenario, 0.0);
		if (c->pairs_max > worst)
			worst = c->pairs_max;
		any = 1;
	}
	if (any)
		n = add_target(t, n, (double)worst, (double)max_pairs, 1,
			       "max pairs over all %s rows", proto_name(proto), 0.0);
	static const char *const five95[] = { "quiet", "bimodal4", "drift", "outliers" };
	for (size_t k = 0; k < 4; k++) {
		const struct cell *c = find_cell(cells, nc, proto, five95[k], 0.05);
		if (c)
			n = add_target(t, n, (double)c->count[AB_B_BETTER] / (double)trials, 0.95, 0,
				       "adoption, %s, gain %.0f%%", c->scenario, 5.0);
	}
	const struct cell *c = find_cell(cells, nc, proto, "bimodal8", 0.05);
	if (c)
		n = add_target(t, n, (double)c->count[AB_B_BETTER] / (double)trials, 0.85, 0,
			       "adoption, %s, gain %.0f%%", c->scenario, 5.0);
	c = find_cell(cells, nc, proto, "bimodal4", 0.03);
	if (c)
		n = add_target(t, n, (double)c->count[AB_B_BETTER] / (double)trials, 0.80, 0,
			       "adoption, %s, gain %.0f%%", c->scenario, 3.0);
	return n;
}

/* seq's settings as one JSON object (both rules' fields). */
static void print_params_json(const struct abseq_params *sp)
{
	printf("{\"min_pairs\":%zu,\"max_pairs\":%zu,\"min_gain\":%.6g,\"noise\":%.6g,"
	       "\"alpha\":%.6g,\"spend_power\":%.6g,\"gap_max\":%.6g,\"crit_inf\":%.6g,"
	       "\"crit_k\":%.6g,\"guard_p\":%.6g,\"prior_gap\":%.6g,\"outlier_gap\":%.6g}",
	       sp->min_pairs, sp->max_pairs, sp->min_gain, sp->noise, sp->alpha, sp->spend_power,
	       sp->gap_max, sp->crit_inf, sp->crit_k, sp->guard_p, sp->prior_gap, sp->outlier_gap);
}


static const struct table_col sim_cols[] = {
	{ "protocol", TABLE_LEFT }, { "scenario", TABLE_LEFT }, { "B gain within state", TABLE_LEFT },
	{ "B gain on average", TABLE_LEFT }, { "B_better", TABLE_LEFT }, { "tie", TABLE_LEFT },
	{ "A_better", TABLE_LEFT }, { "inconclusive", TABLE_LEFT }, { "mean pairs", TABLE_LEFT },
	{ "max pairs", TABLE_LEFT },
};

/* The verdict shares of counts over T trials, four cells. */
static void verdict_cells(struct table *t, const long *count, double T)
{
	table_cell(t, "%.2f%%", 100.0 * (double)count[AB_B_BETTER] / T);
	table_cell(t, "%.2f%%", 100.0 * (double)count[AB_TIE] / T);
	table_cell(t, "%.2f%%", 100.0 * (double)count[AB_A_BETTER] / T);
	table_cell(t, "%.2f%%", 100.0 * (double)count[AB_INCONCLUSIVE] / T);
}

/* Returns 0, -1 when out of memory. */
static int print_table(const struct cell *cells, size_t nc, long trials)
{
	struct table t;
	table_init(&t, NULL, sim_cols, sizeof(sim_cols) / sizeof(sim_cols[0]));
	for (size_t i = 0; i < nc; i++) {
		const struct cell *c = &cells[i];
		double T = (double)trials;
		table_cell(&t, "%s", proto_name(c->proto));
		table_cell(&t, "%s", c->scenario);
		table_cell(&t, "%+.0f%%", c->effect * 100);
		table_cell(&t, "%+.1f%%%s", c->true_gain * 100,
			   c->true_gain <= 1e-12 ? " (not faster)" : "");
		verdict_cells(&t, c->count, T);
		table_cell(&t, "%.2f", c->pairs_sum / T);
		table_cell(&t, "%ld", c->pairs_max);
	}
	return report_table_put_markdown(stdout, &t);
}

static const struct table_col target_cols[] = {
	{ "target", TABLE_LEFT }, { "measured", TABLE_LEFT }, { "limit", TABLE_LEFT }, { "", TABLE_LEFT },
};

/* The targets of the rows of protocol PROTO (the first one simulated).
 * Returns 0, -1 when out of memory. */
static int print_targets(const struct target *tg, size_t nt, const char *proto)
{
	size_t fails = 0;
	struct table t;
	if (nt == 0)
		return 0;
	table_init(&t, NULL, target_cols, sizeof(target_cols) / sizeof(target_cols[0]));
	for (size_t i = 0; i < nt; i++) {
		int ratio = strstr(tg[i].name, "pairs") == NULL;
		table_cell(&t, "%s", tg[i].name);
		if (ratio) {
			table_cell(&t, "%.2f%%", 100 * tg[i].value);
			table_cell(&t, "%s %.1f%%", tg[i].at_most ? "<=" : ">=", 100 * tg[i].limit);
		} else {
			table_cell(&t, "%.2f", tg[i].value);
			table_cell(&t, "%s %.0f", tg[i].at_most ? "<=" : ">=", tg[i].limit);
		}
		table_cell(&t, "%s", tg[i].pass ? "PASS" : "FAIL");
		fails += !tg[i].pass;
	}
	printf("\nTargets (%s rows):\n\n", proto);
	if (report_table_put_markdown(stdout, &t) != 0)
		return -1;
	printf("\n%zu of %zu targets met.\n", nt - fails, nt);
	return 0;
}

static void print_json(const struct cell *cells, size_t nc, long trials, uint64_t seed,
		       const struct abseq_params *sp, const struct target *t, size_t nt)
{
	printf("{\"schema\":\"tlperf/sim/v1\",\"trials\":%ld,\"seed\":%llu,\"launches_per_run\":%d,", trials,
	       (unsigned long long)seed, SIM_LAUNCHES);
	printf("\"seq_params\":");
	print_params_json(sp);
	printf(",");
	printf("\"cells\":[");
	for (size_t i = 0; i < nc; i++) {
		const struct cell *c = &cells[i];
		double T = (double)trials;
		printf("%s{\"protocol\":\"%s\",\"scenario\":\"%s\",\"effect\":%.6g,"
		       "\"true_gain\":%.6g,\"b_better\":%.6g,\"tie\":%.6g,\"a_better\":%.6g,"
		       "\"inconclusive\":%.6g,\"mean_pairs\":%.6g,\"max_pairs\":%ld",
		       i ? "," : "", proto_name(c->proto), c->scenario, c->effect, c->true_gain,
		       (double)c->count[AB_B_BETTER] / T, (double)c->count[AB_TIE] / T,
		       (double)c->count[AB_A_BETTER] / T, (double)c->count[AB_INCONCLUSIVE] / T,
		       c->pairs_sum / T, c->pairs_max);
		if (c->proto != PROTO_REF) {
			printf(",\"stop_reasons\":{");
			for (int r = 1; r < ABSEQ_NREASONS; r++)
				printf("%s\"%s\":%.6g", r > 1 ? "," : "",
				       abseq_reason_name((enum abseq_reason)r),
				       (double)c->reasons[r] / T);
			printf("}");
		}
		printf("}");
	}
	printf("],\"targets\":[");
	for (size_t i = 0; i < nt; i++)
		printf("%s{\"target\":\"%s\",\"value\":%.6g,\"limit\":%.6g,\"at_most\":%s,\"pass\":%s}",
		       i ? "," : "", t[i].name, t[i].value, t[i].limit, t[i].at_most ? "true" : "false",
		       t[i].pass ? "true" : "false");
	printf("]}\n");
}

/* ---- --grid: the scenario grids of stats/simgrid.h ---- */

/* Which cells of a family a target judges. */
enum grid_subset {
	SUB_ALL = 0,
	SUB_EQUAL,       /* pA = pB: B identical to A */
	SUB_SHIFT_NEAR,  /* pA != pB, G <= 8%, |pA - pB| <= 0.3 */
	SUB_SHIFT_FAR    /* pA != pB beyond that (reported, no limit) */
};

/* What a target measures. */
enum grid_measure { M_B_BETTER = 0, M_PAIRS, M_A_BETTER, M_BY8 };

struct grid_target {
	int family;
	int subset;    /* enum grid_subset */
	const char *what;
	double limit;
	int at_most;   /* 1: the figure must stay at or under limit */
	int measure;   /* enum grid_measure */
};

/* Issue 27's targets, then issue 36's (the runs users have). */
static const struct grid_target grid_targets[] = {
	{ SIMGRID_NULL, SUB_EQUAL, "false adoption, B identical to A, two states (pA = pB)", 0.025, 1, M_B_BETTER },
	{ SIMGRID_IDENT, SUB_ALL, "false adoption, B identical to A, other noise shapes", 0.025, 1, M_B_BETTER },
	{ SIMGRID_NULL, SUB_SHIFT_NEAR, "false adoption, equal means, G <= 8%, |pA - pB| <= 0.3", 0.025, 1, M_B_BETTER },
	{ SIMGRID_NULL, SUB_SHIFT_FAR, "false adoption, equal means, G 10-11% or |pA - pB| > 0.3 (reported)", 1.0, 1, M_B_BETTER },
	{ SIMGRID_SLOWER2, SUB_ALL, "adoption of a B 2% slower", 0.025, 1, M_B_BETTER },
	{ SIMGRID_SLOWER, SUB_ALL, "adoption of a B 4% slower on average", 0.005, 1, M_B_BETTER },
	{ SIMGRID_GAIN5_G4, SUB_ALL, "adoption of a 5% mean gain, G = 4%", 0.85, 0, M_B_BETTER },
	{ SIMGRID_GAIN5_G8, SUB_ALL, "adoption of a 5% mean gain, G = 8%", 0.85, 0, M_B_BETTER },
	{ SIMGRID_GAIN3_G4, SUB_ALL, "adoption of a 3% mean gain, G = 4%", 0.80, 0, M_B_BETTER },
	{ SIMGRID_PAIRS8, SUB_ALL, "mean pairs, 8% mean gain", 6.0, 1, M_PAIRS },
	{ SIMGRID_STEADY0, SUB_ALL, "mean pairs, steady kernel, B = A", 5.0, 1, M_PAIRS },
	{ SIMGRID_STEADY5, SUB_ALL, "mean pairs, steady kernel, 5% gain", 6.0, 1, M_PAIRS },
	{ SIMGRID_STEADY3, SUB_ALL, "adoption of a 3% gain, steady kernel", 0.80, 0, M_B_BETTER },
	{ SIMGRID_STEADYM3, SUB_ALL, "A_better for a B 3% slower, steady kernel", 0.80, 0, M_A_BETTER },
	{ SIMGRID_NOISY, SUB_ALL, "stopped within 8 pairs, noisy kernel, B = A", 0.95, 0, M_BY8 },
};
#define N_GRID_TARGETS (sizeof(grid_targets) / sizeof(grid_targets[0]))

static long grid_count(const struct grid_target *t, const struct simgrid_result *r)
{
	return t->measure == M_A_BETTER ? r->count[AB_A_BETTER]
	       : t->measure == M_BY8    ? r->by8
					: r->count[AB_B_BETTER];
}

static double grid_value(const struct grid_target *t, const struct simgrid_result *r)
{
	if (t->measure == M_PAIRS)
		return r->pairs_sum / (double)r->trials;
	return (double)grid_count(t, r) / (double)r->trials;
}

static int in_subset(const struct grid_target *t, const struct simgrid_cell *c)
{
	int equal = fabs(c->pa - c->pb) < 1e-9;
	int near = c->gap <= 0.08 + 1e-9 && fabs(c->pa - c->pb) <= 0.3 + 1e-9;
	switch (t->subset) {
	case SUB_EQUAL: return equal;
	case SUB_SHIFT_NEAR: return !equal && near;
	case SUB_SHIFT_FAR: return !equal && !near;
	}
	return 1;
}

static void cell_label(const struct simgrid_cell *c, char *buf, size_t len)
{
	snprintf(buf, len, "G %.0f%%, pA %.2f, pB %.2f, %s", 100 * c->gap, c->pa, c->pb,
		 c->variant->name);
}

static const struct table_col grid_cell_cols[] = {
	{ "family", TABLE_LEFT }, { "G", TABLE_RIGHT }, { "pA", TABLE_RIGHT }, { "pB", TABLE_RIGHT },
	{ "variant", TABLE_LEFT }, { "B mean gain", TABLE_RIGHT }, { "B_better", TABLE_RIGHT },
	{ "tie", TABLE_RIGHT }, { "A_better", TABLE_RIGHT }, { "inconclusive", TABLE_RIGHT },
	{ "mean pairs", TABLE_RIGHT }, { "max pairs", TABLE_RIGHT },
};

/* Returns 0, -1 when out of memory. */
static int print_grid_cells(const struct simgrid_cell *cells, const struct simgrid_result *res,
			    size_t nc)
{
	struct table t;
	table_init(&t, NULL, grid_cell_cols, sizeof(grid_cell_cols) / sizeof(grid_cell_cols[0]));
	for (size_t i = 0; i < nc; i++) {
		const struct simgrid_cell *c = &cells[i];
		const struct simgrid_result *r = &res[i];
		double T = (double)r->trials;
		table_cell(&t, "%s", simgrid_family_name(c->family));
		table_cell(&t, "%.0f%%", 100 * c->gap);
		table_cell(&t, "%.2f", c->pa);
		table_cell(&t, "%.2f", c->pb);
		table_cell(&t, "%s", c->variant->name);
		table_cell(&t, "%+.0f%%", 100 * c->gain);
		verdict_cells(&t, r->count, T);
		table_cell(&t, "%.2f", r->pairs_sum / T);
		table_cell(&t, "%ld", r->pairs_max);
	}
	putchar('\n');
	return report_table_put_markdown(stdout, &t);
}

/* The worst cell of one grid target, and how many cells it has and fail. */
struct grid_worst {
	size_t worst;  /* index into the run's cells; SIZE_MAX: no cell of the family */
	size_t ncells; /* cells of the target's family */
	size_t over;   /* of them, beyond the limit */
};

/* One --grid run: its settings, the selected cells and their results. */
struct grid_run {
	int grid;
	long trials;
	uint64_t seed;
	const struct abseq_params *sp;
	struct simgrid_cell *all, *cells; /* every cell of the grid; the selected ones */
	struct simgrid_result *res;       /* one per selected cell */
	size_t nc;
	struct grid_worst w[N_GRID_TARGETS];
	int present, fails;               /* targets with cells; of them, failing */
};

/* Allocates the grid's cells and results, keeps the cells of family (all
 * when < 0) and simulates them. Returns 0, or -1 out of memory. */
static int grid_simulate(struct grid_run *g, int family)
{
	size_t total = simgrid_cells(g->grid, NULL, 0);
	g->all = calloc(total, sizeof(*g->all));
	g->cells = calloc(total, sizeof(*g->cells));
	g->res = calloc(total, sizeof(*g->res));
	if (!g->all || !g->cells || !g->res)
		return -1;
	simgrid_cells(g->grid, g->all, total);
	for (size_t i = 0; i < total; i++)
		if (family < 0 || g->all[i].family == family)
			g->cells[g->nc++] = g->all[i];
	for (size_t i = 0; i < g->nc; i++)
		simgrid_run_cell(&g->cells[i], g->trials, g->seed, g->sp, &g->res[i]);
	return 0;
}

/* The worst cell of target t over the run's cells, into g->w[t]. */
static void grid_find_worst(struct grid_run *g, size_t t)
{
	const struct grid_target *gt = &grid_targets[t];
	struct grid_worst *w = &g->w[t];
	w->worst = SIZE_MAX;
	w->ncells = w->over = 0;
	for (size_t i = 0; i < g->nc; i++) {
		if (g->cells[i].family != gt->family || !in_subset(gt, &g->cells[i]))
			continue;
		double v = grid_value(gt, &g->res[i]);
		w->ncells++;
		if (gt->at_most ? v > gt->limit + 1e-12 : v < gt->limit - 1e-12)
			w->over++;
		if (w->worst == SIZE_MAX ||
		    (gt->at_most ? v > grid_value(gt, &g->res[w->worst])
				 : v < grid_value(gt, &g->res[w->worst])))
			w->worst = i;
	}
}

/* Every target's worst cell, and how many targets have cells and fail. */
static void grid_judge(struct grid_run *g)
{
	g->present = g->fails = 0;
	for (size_t t = 0; t < N_GRID_TARGETS; t++) {
		grid_find_worst(g, t);
		if (g->w[t].worst != SIZE_MAX) {
			g->present++;
			g->fails += g->w[t].over > 0;
		}
	}
}

/* The JSON object of target t (which has cells), after a comma unless first. */
static void print_grid_target_json(const struct grid_run *g, size_t t, int first)
{
	const struct grid_target *gt = &grid_targets[t];
	const struct grid_worst *w = &g->w[t];
	const struct simgrid_result *r = &g->res[w->worst];
	char label[128];
	double lo = NAN, hi = NAN;
	if (gt->measure != M_PAIRS)
		simgrid_wilson95(grid_count(gt, r), r->trials, &lo, &hi);
	cell_label(&g->cells[w->worst], label, sizeof(label));
	printf("%s{\"family\":\"%s\",\"target\":\"%s\",\"cells\":%zu,\"worst_cell\":\"%s\","
	       "\"value\":%.6g,",
	       first ? "" : ",", simgrid_family_name(gt->family), gt->what, w->ncells, label,
	       grid_value(gt, r));
	if (gt->measure == M_PAIRS)
		printf("\"wilson95\":null,");
	else
		printf("\"wilson95\":[%.6g,%.6g],", lo, hi);
	printf("\"limit\":%.6g,\"at_most\":%s,\"cells_failing\":%zu,\"pass\":%s}", gt->limit,
	       gt->at_most ? "true" : "false", w->over, w->over ? "false" : "true");
}

/* The JSON object of selected cell i, after a comma unless the first. */
static void print_grid_cell_json(const struct grid_run *g, size_t i)
{
	const struct simgrid_cell *c = &g->cells[i];
	const struct simgrid_result *r = &g->res[i];
	double T = (double)r->trials;
	printf("%s{\"family\":\"%s\",\"gap\":%.6g,\"pa\":%.6g,\"pb\":%.6g,\"variant\":\"%s\","
	       "\"gain\":%.6g,\"b_better\":%.6g,\"tie\":%.6g,\"a_better\":%.6g,"
	       "\"inconclusive\":%.6g,\"mean_pairs\":%.6g,\"max_pairs\":%ld}",
	       i ? "," : "", simgrid_family_name(c->family), c->gap, c->pa, c->pb,
	       c->variant->name, c->gain, (double)r->count[AB_B_BETTER] / T,
	       (double)r->count[AB_TIE] / T, (double)r->count[AB_A_BETTER] / T,
	       (double)r->count[AB_INCONCLUSIVE] / T, r->pairs_sum / T, r->pairs_max);
}

/* The whole --grid run as one JSON object: settings, targets, cells. */
static void print_grid_json(const struct grid_run *g)
{
	const struct abseq_params *sp = g->sp;
	printf("{\"schema\":\"tlperf/sim/v1\",\"grid\":\"%s\",\"trials\":%ld,\"seed\":%llu,\"launches_per_run\":%d,",
	       simgrid_grid_name(g->grid), g->trials, (unsigned long long)g->seed, SIM_LAUNCHES);
	printf("\"protocol\":\"%s\",\"seq_params\":",
	       sp->rule == ABSEQ_RULE_V1 ? "seq-v1" : sp->rule == ABSEQ_RULE_FAST ? "fast" : "seq");
	print_params_json(sp);
	printf(",");
	printf("\"targets\":[");
	int first = 1;
	for (size_t t = 0; t < N_GRID_TARGETS; t++) {
		if (g->w[t].worst == SIZE_MAX)
			continue;
		print_grid_target_json(g, t, first);
		first = 0;
	}
	printf("],\"cells\":[");
	for (size_t i = 0; i < g->nc; i++)
		print_grid_cell_json(g, i);
	printf("]}\n");
}

/* The table row of target t (which has cells). */
static void grid_target_row(const struct grid_run *g, size_t t, struct table *tb)
{
	const struct grid_target *gt = &grid_targets[t];
	const struct grid_worst *w = &g->w[t];
	const struct simgrid_result *r = &g->res[w->worst];
	char label[128];
	cell_label(&g->cells[w->worst], label, sizeof(label));
	table_cell(tb, "%s", gt->what);
	table_cell(tb, "%zu", w->ncells);
	table_cell(tb, "%s", label);
	if (gt->measure == M_PAIRS) {
		table_cell(tb, "%.2f", grid_value(gt, r));
		table_cell(tb, "%s", "");
		table_cell(tb, "%s %.0f", gt->at_most ? "<=" : ">=", gt->limit);
	} else {
		double lo, hi;
		simgrid_wilson95(grid_count(gt, r), r->trials, &lo, &hi);
		table_cell(tb, "%.2f%%", 100 * grid_value(gt, r));
		table_cell(tb, "%.2f%%..%.2f%%", 100 * lo, 100 * hi);
		table_cell(tb, "%s %.1f%%", gt->at_most ? "<=" : ">=", 100 * gt->limit);
	}
	table_cell(tb, "%zu", w->over);
	table_cell(tb, "%s", w->over ? "FAIL" : "PASS");
}

static const struct table_col grid_target_cols[] = {
	{ "target", TABLE_LEFT }, { "cells", TABLE_RIGHT }, { "worst cell", TABLE_LEFT },
	{ "measured", TABLE_RIGHT }, { "95% Wilson", TABLE_LEFT }, { "limit", TABLE_LEFT },
	{ "cells failing", TABLE_RIGHT }, { "", TABLE_LEFT },
};

/* The --grid run as text: settings, the target table, the verdict line and,
 * with all_cells, every cell. Returns 0, -1 when out of memory. */
static int print_grid_markdown(const struct grid_run *g, int all_cells)
{
	const struct abseq_params *sp = g->sp;
	struct table t;
	printf("%s grid: %zu cells, %ld trials per cell, seed %llu, %d launches per run; ",
	       simgrid_grid_name(g->grid), g->nc, g->trials, (unsigned long long)g->seed,
	       SIM_LAUNCHES);
	if (sp->rule == ABSEQ_RULE_V1)
		printf("seq-v1: pairs %zu..%zu, critical z %g + %g/n, prior gap %g, outlier gap %g\n\n",
		       sp->min_pairs, sp->max_pairs, sp->crit_inf, sp->crit_k, sp->prior_gap,
		       sp->outlier_gap);
	else if (sp->rule == ABSEQ_RULE_FAST)
		printf("fast: pairs %zu..%zu, alpha %g, gap max %g\n\n", sp->min_pairs,
		       sp->max_pairs, sp->alpha, sp->gap_max);
	else
		printf("seq: pairs %zu..%zu, alpha %g, spend power %g, gap max %g\n\n", sp->min_pairs,
		       sp->max_pairs, sp->alpha, sp->spend_power, sp->gap_max);
	table_init(&t, NULL, grid_target_cols, sizeof(grid_target_cols) / sizeof(grid_target_cols[0]));
	for (size_t i = 0; i < N_GRID_TARGETS; i++)
		if (g->w[i].worst != SIZE_MAX)
			grid_target_row(g, i, &t);
	if (report_table_put_markdown(stdout, &t) != 0)
		return -1;
	printf("\n%d of %d targets met in every cell.\n", g->present - g->fails, g->present);
	if (all_cells)
		return print_grid_cells(g->cells, g->res, g->nc);
	return 0;
}

static int run_grid(int grid, int family, int all_cells, int json, long trials, uint64_t seed,
		    const struct abseq_params *sp)
{
	struct grid_run g = { .grid = grid, .trials = trials, .seed = seed, .sp = sp };
	int rc;
	if (grid_simulate(&g, family) != 0) {
		cli_error("out of memory");
		rc = CLI_FAIL;
	} else {
		grid_judge(&g);
		if (json)
			print_grid_json(&g);
		if (!json && print_grid_markdown(&g, all_cells) != 0) {
			cli_error("out of memory");
			rc = CLI_FAIL;
		} else {
			rc = cli_finish_stdout(CLI_OK);
		}
	}
	free(g.all);
	free(g.cells);
	free(g.res);
	return rc;
}

/* Everything `tlperf sim` takes from its options. */
struct sim_opts {
	struct abseq_params sp;
	int protos;                  /* PROTO_SEQ | PROTO_REF | PROTO_V1 */
	int json, grid, family, all_cells; /* grid, family: -1 when not given */
	int proto_given, scen_given, minp_given;
	int noise_given;             /* --noise: ref's margin too (else AB_REF_NOISE) */
	const char *scenario;        /* a name of synth_scenario_names, or "all" */
	double effects[N_ALL_EFFECTS];
	size_t neffects;
	long trials, seed;
};

static void sim_opts_init(struct sim_opts *o)
{
	memset(o, 0, sizeof(*o));
	abseq_params_default(&o->sp, ABSEQ_RULE_SEQ);
	o->protos = PROTO_SEQ | PROTO_REF;
	o->grid = o->family = -1;
	o->scenario = "all";
	memcpy(o->effects, all_effects, sizeof(all_effects));
	o->neffects = N_ALL_EFFECTS;
	o->trials = 2000;
	o->seed = 1;
}

/* --protocol seq|seq-v1|ref|both|all. Returns 0 or the usage error's exit code. */
static int sim_protocol(struct sim_opts *o, const char *arg)
{
	if (strcmp(arg, "seq") == 0)
		o->protos = PROTO_SEQ;
	else if (strcmp(arg, "fast") == 0)
		o->protos = PROTO_FAST;
	else if (strcmp(arg, "seq-v1") == 0)
		o->protos = PROTO_V1;
	else if (strcmp(arg, "all") == 0)
		o->protos = PROTO_FAST | PROTO_SEQ | PROTO_V1 | PROTO_REF;
	else if (strcmp(arg, "ref") == 0)
		o->protos = PROTO_REF;
	else if (strcmp(arg, "both") == 0)
		o->protos = PROTO_SEQ | PROTO_REF;
	else /* a choice of the table: checked by the parser */
		return cli_usage_error("sim", "unknown protocol '%s'", arg);
	o->proto_given = 1;
	return 0;
}

/* --scenario NAME|all. Returns 0 or the usage error's exit code. */
static int sim_scenario(struct sim_opts *o, const char *arg)
{
	o->scenario = arg;
	o->scen_given = 1;
	if (strcmp(arg, "all") != 0) {
		struct synth_arm x, y;
		if (synth_scenario(arg, 0, 1, &x, &y) != 0) {
			const char *names[16];
			size_t n = 0;
			while (n + 2 < sizeof(names) / sizeof(names[0]) && synth_scenario_names[n]) {
				names[n] = synth_scenario_names[n];
				n++;
			}
			names[n++] = "all";
			names[n] = NULL;
			cli_choice("sim", "--scenario", arg, names);
			return CLI_USAGE;
		}
	}
	return 0;
}

/* --effect E|all. Returns 0 or the usage error's exit code. */
static int sim_effect(struct sim_opts *o, const char *arg)
{
	if (strcmp(arg, "all") == 0) {
		o->neffects = N_ALL_EFFECTS;
		memcpy(o->effects, all_effects, sizeof(all_effects));
		return 0;
	}
	if (parse_effect(arg, &o->effects[0]) != 0)
		return CLI_USAGE;
	o->neffects = 1;
	return 0;
}

/* A pair count of seq (--min-pairs, --max-pairs) into *out. Returns 0 or
 * CLI_USAGE after the message. */
static int sim_pairs(const char *name, const char *arg, size_t *out)
{
	long v;
	if (cli_parse_long(name, arg, 3, ABSEQ_MAX_PAIRS, &v) != 0)
		return CLI_USAGE;
	*out = (size_t)v;
	return 0;
}

/* One of seq's settings (--min-pairs ... --prior-gap). Returns 0 or
 * CLI_USAGE after the message. */
static int sim_seq_option(struct abseq_params *sp, int opt, const char *arg)
{
	switch (opt) {
	case O_MINP: return sim_pairs("--min-pairs", arg, &sp->min_pairs);
	case O_MAXP: return sim_pairs("--max-pairs", arg, &sp->max_pairs);
	case O_MING: return cli_parse_double("--min-gain", arg, &sp->min_gain) ? CLI_USAGE : 0;
	case O_NOISE: return cli_parse_double("--noise", arg, &sp->noise) ? CLI_USAGE : 0;
	case O_CI: return cli_parse_double("--crit-inf", arg, &sp->crit_inf) ? CLI_USAGE : 0;
	case O_CK: return cli_parse_double("--crit-k", arg, &sp->crit_k) ? CLI_USAGE : 0;
	case O_GP: return cli_parse_double("--guard-p", arg, &sp->guard_p) ? CLI_USAGE : 0;
	case O_PS: return cli_parse_double("--spend-power", arg, &sp->spend_power) ? CLI_USAGE : 0;
	default: return cli_parse_double("--prior-gap", arg, &sp->prior_gap) ? CLI_USAGE : 0;
	}
}

/* --grid G and --family F. Returns 0 or the usage error's exit code. */
static int sim_grid_option(struct sim_opts *o, int opt, const char *arg)
{
	if (opt == O_GRID) {
		o->grid = simgrid_grid_parse(arg);
		if (o->grid < 0)
			return cli_usage_error("sim", "unknown grid '%s' (calibration, evaluation)", arg);
		return 0;
	}
	o->family = -1;
	for (int f = 0; f < SIMGRID_NFAMILIES; f++)
		if (strcmp(arg, simgrid_family_name(f)) == 0)
			o->family = f;
	if (o->family < 0)
		return cli_usage_error("sim", "unknown family '%s'", arg);
	return 0;
}

/* One option of the table (its value in arg). Returns 0 or the exit code
 * to stop with. */
static int sim_option(struct sim_opts *o, int opt, const char *arg)
{
	switch (opt) {
	case 'p': return sim_protocol(o, arg);
	case 's': return sim_scenario(o, arg);
	case 'e': return sim_effect(o, arg);
	case 't': return cli_parse_long("--trials", arg, 1, 100000000, &o->trials) ? CLI_USAGE : 0;
	case 'S': return cli_parse_long("--seed", arg, 0, INT64_MAX, &o->seed) ? CLI_USAGE : 0;
	case 'j': o->json = 1; return 0;
	case O_MINP: o->minp_given = 1; return sim_seq_option(&o->sp, opt, arg);
	case O_NOISE: o->noise_given = 1; return sim_seq_option(&o->sp, opt, arg);
	case O_GRID:
	case O_FAM: return sim_grid_option(o, opt, arg);
	case O_CELLS: o->all_cells = 1; return 0;
	default: return sim_seq_option(&o->sp, opt, arg);
	}
}

/* The options that must go together or not at all, once all are read.
 * Returns 0 or the usage error's exit code. */
static int sim_check(const struct sim_opts *o)
{
	const char *why;
	static const int rules[] = { PROTO_SEQ, PROTO_V1, PROTO_FAST };
	for (size_t k = 0; k < 3; k++) { /* the settings under each rule simulated */
		struct abseq_params p = rule_params(&o->sp, rules[k], o->minp_given);
		if ((o->protos & rules[k]) && abseq_params_check(&p, &why) != 0)
			return cli_usage_error("sim", "%s", why);
	}
	if (o->grid < 0 && (o->family >= 0 || o->all_cells))
		return cli_usage_error("sim", "--family and --cells go with --grid");
	if (o->grid < 0)
		return 0;
	if (o->proto_given && o->protos != PROTO_V1 && o->protos != PROTO_SEQ &&
	    o->protos != PROTO_FAST)
		return cli_usage_error("sim", "--grid simulates --protocol fast, seq or seq-v1");
	if (o->scen_given || o->neffects != N_ALL_EFFECTS)
		return cli_usage_error("sim", "--grid replaces --scenario and --effect");
	return 0;
}

/* Simulates every selected protocol x scenario x effect into cells (room
 * for all of them); returns how many. */
static size_t sim_scenarios(const struct sim_opts *o, struct cell *cells, size_t nscen)
{
	size_t nc = 0;
	static const int order[] = { PROTO_FAST, PROTO_SEQ, PROTO_V1, PROTO_REF };
	for (size_t k = 0; k < 4; k++) {
		int p = order[k];
		if (!(o->protos & p))
			continue;
		for (size_t s = 0; s < nscen; s++) {
			if (strcmp(o->scenario, "all") != 0 &&
			    strcmp(o->scenario, synth_scenario_names[s]) != 0)
				continue;
			for (size_t e = 0; e < o->neffects; e++) {
				struct cell *c = &cells[nc++];
				c->proto = p;
				c->scenario = synth_scenario_names[s];
				c->effect = o->effects[e];
				run_cell(c, o->trials, (uint64_t)o->seed, s, &o->sp, o->minp_given,
					 o->noise_given ? o->sp.noise : AB_REF_NOISE);
			}
		}
	}
	return nc;
}

/* The named scenarios: simulated, checked against the targets, printed.
 * Returns the exit code. */
static int run_named(const struct sim_opts *o)
{
	/* the settings shown: seq's, or seq-v1's when it is the only sequential rule run */
	int shown = o->protos & PROTO_FAST ? PROTO_FAST : o->protos & PROTO_SEQ ? PROTO_SEQ : PROTO_V1;
	struct abseq_params shown_sp = rule_params(&o->sp, shown, o->minp_given);
	const struct abseq_params *sp = &shown_sp;
	size_t nscen = 0, nc, nt;
	int rc;
	for (size_t s = 0; synth_scenario_names[s]; s++)
		nscen++;
	struct cell *cells = calloc(4 * nscen * N_ALL_EFFECTS, sizeof(*cells));
	struct target *targets = calloc(4 * nscen * N_ALL_EFFECTS * 3 + 16, sizeof(*targets));
	if (!cells || !targets) {
		cli_error("out of memory");
		rc = CLI_FAIL;
		goto out;
	}
	nc = sim_scenarios(o, cells, nscen);
	nt = check_targets(cells, nc, shown, o->trials, sp->max_pairs, targets);
	if (o->json) {
		print_json(cells, nc, o->trials, (uint64_t)o->seed, sp, targets, nt);
	} else {
		printf("%ld trials per row, seed %ld, %d launches per run; %s: pairs %zu..%zu, "
		       "min-gain %g, noise %g\n\n",
		       o->trials, o->seed, SIM_LAUNCHES, proto_name(shown), sp->min_pairs, sp->max_pairs, sp->min_gain,
		       sp->noise);
		if (print_table(cells, nc, o->trials) != 0 || print_targets(targets, nt, proto_name(shown)) != 0) {
			cli_error("out of memory");
			rc = CLI_FAIL;
			goto out;
		}
	}
	rc = cli_finish_stdout(CLI_OK);
out:
	free(cells);
	free(targets);
	return rc;
}

int cmd_sim(int argc, char **argv)
{
	struct sim_opts o;
	struct cli_parser cp;
	int opt, rc;
	sim_opts_init(&o);
	cli_parser_init(&cp, &cmd_sim_spec, argc, argv);
	while ((opt = cli_parser_next(&cp)) > 0)
		if ((rc = sim_option(&o, opt, optarg)) != 0)
			return rc;
	if (opt == CLI_PARSE_STOP)
		return cp.rc;
	if (cli_parser_no_operands(&cp) != 0)
		return CLI_USAGE;
	if ((rc = sim_check(&o)) != 0)
		return rc;
	if (o.grid >= 0) { /* one rule: sim_check allows seq or seq-v1 alone */
		struct abseq_params gp = rule_params(&o.sp, o.protos == PROTO_V1 || o.protos == PROTO_FAST ? o.protos : PROTO_SEQ,
						     o.minp_given);
		return run_grid(o.grid, o.family, o.all_cells, o.json, o.trials, (uint64_t)o.seed, &gp);
	}
	return run_named(&o);
}
