/* tlab_seq.c: order draws and JSON fields of `tlab --protocol seq` (see tlab_seq.h). */
#include "run/tlab_seq.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "stats/synth.h"

int ab_seq_b_first(uint64_t seed, long pair)
{
	struct stats_rng r;
	stats_rng_seed(&r, seed ^ (0x9e3779b97f4a7c15ULL * (uint64_t)pair));
	return (int)(stats_rng_next(&r) >> 63);
}

uint64_t ab_seq_default_seed(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t s = (uint64_t)ts.tv_sec * 1000000007ULL ^ (uint64_t)ts.tv_nsec ^
		     ((uint64_t)getpid() << 32);
	return s % 1000000000ULL; /* short enough to retype */
}

static void add_num(cJSON *o, const char *name, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(o, name, v);
	else
		cJSON_AddNullToObject(o, name);
}

static void add_interval(cJSON *o, const char *name, double lo, double hi)
{
	cJSON *a = cJSON_AddArrayToObject(o, name);
	if (!a)
		return;
	cJSON_AddItemToArray(a, isfinite(lo) ? cJSON_CreateNumber(lo) : cJSON_CreateNull());
	cJSON_AddItemToArray(a, isfinite(hi) ? cJSON_CreateNumber(hi) : cJSON_CreateNull());
}

static void add_counts(cJSON *o, const char *name, unsigned fast, unsigned slow, unsigned outl)
{
	cJSON *c = cJSON_AddObjectToObject(o, name);
	if (!c)
		return;
	cJSON_AddNumberToObject(c, "fast", fast);
	cJSON_AddNumberToObject(c, "slow", slow);
	cJSON_AddNumberToObject(c, "outlier", outl);
}

void ab_seq_add_json(cJSON *j, const struct abseq_result *r, const struct abseq_params *p,
		     uint64_t seed)
{
	cJSON_AddStringToObject(j, "stop_reason", abseq_reason_name(r->reason));
	add_num(j, "gain", r->gain);
	add_interval(j, "gain_interval", r->gain_lo, r->gain_hi);
	add_num(j, "within_state_gain", r->within_gain);
	add_interval(j, "within_state_interval", r->within_lo, r->within_hi);
	add_num(j, "critical_z", r->crit);
	cJSON_AddNumberToObject(j, "pairs_in_estimate", (double)r->pairs_used);
	if (r->pairs_needed > 0) /* seq: the pairs a verdict takes at this noise */
		cJSON_AddNumberToObject(j, "pairs_needed", (double)r->pairs_needed);
	cJSON_AddNumberToObject(j, "min_pairs", (double)p->min_pairs);
	cJSON_AddNumberToObject(j, "max_pairs", (double)p->max_pairs);
	cJSON_AddNumberToObject(j, "min_gain", p->min_gain);
	if (p->rule != ABSEQ_RULE_V1) { /* beside "seq" the gate reads "alpha" as "seq's rule, not
					   seq-v1" */
		cJSON_AddNumberToObject(j, "alpha", p->alpha);
		cJSON_AddNumberToObject(j, "false_adoption_bound", abseq_false_adoption_bound(p));
	}
	char digits[32]; /* as they are: cJSON would print 15 significant ones */
	snprintf(digits, sizeof(digits), "%llu", (unsigned long long)seed);
	cJSON_AddRawToObject(j, "order_seed", digits);
	add_num(j, "signflip_p", r->signflip_p);
	cJSON *st = cJSON_AddObjectToObject(j, "states");
	if (!st)
		return;
	add_counts(st, "A", r->states.a_fast, r->states.a_slow, r->states.a_outlier);
	add_counts(st, "B", r->states.b_fast, r->states.b_slow, r->states.b_outlier);
	cJSON_AddNumberToObject(st, "gap_a", r->states.gap_a);
	cJSON_AddNumberToObject(st, "gap_b", r->states.gap_b);
	cJSON_AddNumberToObject(st, "drift_per_run", r->states.drift);
	cJSON_AddBoolToObject(st, "ambiguous", r->states.ambiguous);
	add_num(st, "fisher_p", r->fisher_p);
}

void ab_seq_add_run_states(cJSON *runs, const int *state_a, const int *state_b, size_t npairs)
{
	cJSON *it;
	cJSON_ArrayForEach(it, runs) {
		const cJSON *arm = cJSON_GetObjectItemCaseSensitive(it, "arm");
		const cJSON *pair = cJSON_GetObjectItemCaseSensitive(it, "pair");
		if (!cJSON_IsString(arm) || !cJSON_IsNumber(pair))
			continue;
		double pd = pair->valuedouble;
		if (!(pd >= 1 && pd <= (double)npairs))
			continue;
		size_t i = (size_t)pd - 1;
		int s = arm->valuestring[0] == 'A' ? state_a[i] : state_b[i];
		cJSON_AddStringToObject(it, "state", abseq_state_name(s));
	}
}
