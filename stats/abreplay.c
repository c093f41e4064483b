/* abreplay.c: a tlab verdict recomputed from its runs (abreplay.h). */
#include "stats/abreplay.h"
#include "stats/abseq.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void stats_ab_replay_opts_init(struct ab_replay_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->protocol = AB_REPLAY_REF;
	o->noise = 0.03;
	o->min_gain = -1;
}

const char *stats_ab_replay_protocol_name(enum ab_replay_protocol p)
{
	return p == AB_REPLAY_SEQ ? "seq" : p == AB_REPLAY_SEQ_V1 ? "seq-v1" : p == AB_REPLAY_FAST ? "fast" : "ref";
}

int stats_ab_replay_protocol_parse(const char *name)
{
	static const enum ab_replay_protocol all[] = { AB_REPLAY_REF, AB_REPLAY_SEQ, AB_REPLAY_SEQ_V1,
							 AB_REPLAY_FAST };
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (strcmp(name, stats_ab_replay_protocol_name(all[i])) == 0)
			return (int)all[i];
	return -1;
}

/* The complete pairs 1..N of runs into a, b, b_first (cap entries);
 * returns N. */
static size_t pairs_of(const struct abjournal_run *runs, size_t n, double *a, double *b, int *b_first,
		       size_t cap)
{
	for (size_t i = 0; i < cap; i++) {
		a[i] = b[i] = NAN;
		b_first[i] = 0;
	}
	for (size_t i = 0; i < n; i++) {
		const struct abjournal_run *r = &runs[i];
		if (r->pair < 1 || (size_t)r->pair > cap)
			continue;
		double *slot = r->arm == 'A' ? &a[r->pair - 1] : &b[r->pair - 1];
		if (!isnan(*slot))
			continue; /* recorded twice: the first one counts */
		*slot = r->median_us;
		if (r->order == 1)
			b_first[r->pair - 1] = r->arm == 'B';
	}
	size_t k = 0;
	while (k < cap && !isnan(a[k]) && !isnan(b[k]))
		k++;
	return k;
}

int stats_ab_replay(const struct abjournal_run *runs, size_t n, const struct ab_replay_opts *o,
		    struct ab_replay *out)
{
	size_t cap = 0;
	int rc = -1;
	memset(out, 0, sizeof(*out));
	out->verdict = AB_INCONCLUSIVE;
	out->gain = NAN;
	for (size_t i = 0; i < n; i++)
		if (runs[i].pair > 0 && (size_t)runs[i].pair > cap && runs[i].pair <= 100000)
			cap = (size_t)runs[i].pair;
	double *a = malloc((cap + 1) * sizeof(*a)), *b = malloc((cap + 1) * sizeof(*b));
	int *bf = malloc((cap + 1) * sizeof(*bf));
	if (!a || !b || !bf)
		goto out;
	size_t np = pairs_of(runs, n, a, b, bf, cap);
	double noise = o->noise > 0 ? o->noise : 0.03;
	out->npairs = np;
	if (np == 0)
		goto out;
	if (o->protocol == AB_REPLAY_REF) {
		struct ab_ref_result r;
		if (stats_ab_ref(a, b, np, noise, &r) != 0)
			goto out;
		out->verdict = r.verdict;
		out->gain = r.b_rel_change;
	} else {
		struct abseq_params p;
		struct abseq_result r;
		abseq_params_default(&p, o->protocol == AB_REPLAY_SEQ_V1 ? ABSEQ_RULE_V1
					 : o->protocol == AB_REPLAY_FAST ? ABSEQ_RULE_FAST
									  : ABSEQ_RULE_SEQ);
		p.noise = noise;
		if (o->min_pairs)
			p.min_pairs = o->min_pairs;
		if (o->max_pairs)
			p.max_pairs = o->max_pairs;
		if (o->min_gain >= 0)
			p.min_gain = o->min_gain;
		if (np > p.max_pairs || abseq_decide(a, b, bf, np, &p, NULL, NULL, &r) != 0)
			goto out;
		out->verdict = r.reason == ABSEQ_CONTINUE ? AB_INCONCLUSIVE : r.verdict;
		out->gain = r.gain;
	}
	rc = 0;
out:
	free(a);
	free(b);
	free(bf);
	return rc;
}
