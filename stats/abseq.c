/* abseq.c: the sequential A/B protocol: its settings, and the seq-v2 rule
 * (see abseq.h, and docs/tlab.md "seq-v2" for its derivation); the default
 * rule is in abseq_v1.c. */
#include "stats/abseq.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "stats/abseq_v1.h"
#include "stats/hl.h"

/* The error bound: for Gaussian log-ratios the chance that the interval
 * ever misses B's gain, so of ever adopting a B that is not faster (and of
 * ever calling a tie outside the margin), is at most 2.5%, the
 * decision-quality target (not a bound for skewed state mixtures: abseq.h). */
#define ALPHA 0.025
/* How the error is spent over the looks: look n (of min_pairs..max_pairs)
 * gets alpha n^SPEND_POWER / sum_k k^SPEND_POWER, so late looks, where a
 * noisy kernel can first decide, get most of it, and a clean effect still
 * decides early because its t is large. Chosen on `tlperf sim --grid
 * calibration` only (1, 2 and 3 compared, docs/tlab.md "Calibration"); it
 * moves power and pairs, never the guarantee (the weights sum to one). */
#define SPEND_POWER 2.0
/* The largest gap between the fast and the slow state of one kernel that
 * the guard assumes: 11% (log 0.104), the widest gap of either grid and of
 * the decision-quality issue's range (3-11%). */
#define GAP_MAX 0.105
/* Futility looks at an estimate this many standard errors better than the
 * one seen, so a session stops early only when even a lucky continuation
 * could not reach a verdict within the budget. */
#define FUTILITY_SE 2.0
/* pairs_needed is searched up to this many pairs (beyond: "more than"). */
#define NEEDED_HORIZON 1024

/* seq's defaults (the state-fitting rule) and seq-v2's; both rules' run
 * classification (state_gap, outlier_gap) also serves the report. */
void abseq_params_default(struct abseq_params *p)
{
	memset(p, 0, sizeof(*p));
	p->rule = ABSEQ_RULE_V1;
	p->min_pairs = ABSEQ_V1_MIN_PAIRS;
	p->max_pairs = ABSEQ_MAX_PAIRS_DEFAULT;
	p->min_gain = ABSEQ_MIN_GAIN;
	p->noise = ABSEQ_TIE_MARGIN;
	p->alpha = ALPHA;
	p->gap_max = GAP_MAX;
	p->spend_power = SPEND_POWER;
	abseq_v1_defaults(p);
	p->signflip = 0;
}

static const char *v1_check(const struct abseq_params *p)
{
	if (!(p->crit_inf > 0.0 && p->crit_k >= 0.0 && p->tie_z > 0.0))
		return "critical values must be positive";
	if (!(p->state_gap > 0.0 && p->outlier_gap > p->state_gap))
		return "state gaps must be positive, outlier gap above state gap";
	if (!(p->prior_gap > 0.0 && p->prior_gap < 1.0))
		return "prior gap must be in (0, 1)";
	if (!(p->guard_p >= 0.0 && p->guard_p < 1.0))
		return "guard p must be in [0, 1)";
	return NULL;
}

int abseq_params_check(const struct abseq_params *p, const char **why)
{
	const char *w = NULL;
	if (p->min_pairs < 3)
		w = "min-pairs must be at least 3";
	else if (p->max_pairs < p->min_pairs)
		w = "max-pairs must be at least min-pairs";
	else if (p->max_pairs > ABSEQ_MAX_PAIRS)
		w = "max-pairs must be at most 128";
	else if (!(p->noise > 0.0 && p->noise < 0.5))
		w = "noise must be in (0, 0.5)";
	else if (!(p->min_gain >= 0.0 && p->min_gain < p->noise))
		w = "min-gain must be in [0, noise)";
	else if (!(p->alpha > 0.0 && p->alpha < 0.5))
		w = "alpha must be in (0, 0.5)";
	else if (!(p->spend_power >= 0.0 && p->spend_power <= 8.0))
		w = "spend power must be in [0, 8]";
	else if (!(p->gap_max > 0.0 && p->gap_max < 1.0))
		w = "gap max must be in (0, 1)";
	else if (p->rule == ABSEQ_RULE_V1)
		w = v1_check(p);
	else if (p->rule != ABSEQ_RULE_V2)
		w = "unknown rule";
	if (why)
		*why = w;
	return w ? -1 : 0;
}

const char *abseq_state_name(int s)
{
	switch (s) {
	case ABSEQ_FAST: return "fast";
	case ABSEQ_SLOW: return "slow";
	case ABSEQ_OUTLIER: return "outlier";
	}
	return "?";
}

const char *abseq_reason_name(enum abseq_reason r)
{
	switch (r) {
	case ABSEQ_CONTINUE: return "continue";
	case ABSEQ_GAIN: return "gain";
	case ABSEQ_LOSS: return "loss";
	case ABSEQ_TIE: return "tie";
	case ABSEQ_TIE_WITHIN: return "tie_within_state";
	case ABSEQ_BUDGET: return "budget";
	case ABSEQ_FUTILE: return "futile";
	case ABSEQ_NREASONS: break;
	}
	return "?";
}

/* ---- the interval ------------------------------------------------------ */

double abseq_look_alpha(size_t n, const struct abseq_params *p)
{
	double sum = 0;
	if (n < p->min_pairs || n > p->max_pairs)
		return 0.0;
	for (size_t k = p->min_pairs; k <= p->max_pairs; k++)
		sum += pow((double)k, p->spend_power);
	return p->alpha * pow((double)n, p->spend_power) / sum;
}

/* Student's t quantile of the look: exact for Gaussian log-ratios. */
double abseq_look_t(size_t n, const struct abseq_params *p)
{
	double a = abseq_look_alpha(n, p);
	if (n < 2 || !(a > 0))
		return INFINITY;
	return gsl_cdf_tdist_Qinv(a, (double)n - 1.0);
}

/* Two states with log gap g <= G, each arm slow with its own probability,
 * B not faster (E d <= 0): every pair in the same (A state, B state) with
 * log-ratio c > 0 needs that cell's probability q, and q <= (1 -
 * c/(2G))^2 (maximised over both probabilities and the level difference,
 * docs/tlab.md); n such pairs: q^n. */
size_t abseq_guard_pairs(double c, double gap_max, double alpha)
{
	if (!(c > 0.0))
		return SIZE_MAX;
	if (c >= 2.0 * gap_max)
		return 0;
	double per = 2.0 * log1p(-c / (2.0 * gap_max));
	return (size_t)ceil(log(alpha) / per - 1e-9);
}

/* ---- the decision ------------------------------------------------------ */

/* The sample of one look: mean and sd of the log-ratios. */
struct sample {
	size_t n;
	double mean, sd, se;
	double min, max;  /* the smallest and the largest log-ratio */
};

static void sample_of(const double *d, size_t n, struct sample *s)
{
	double m = 0, ss = 0;
	s->min = s->max = d[0];
	for (size_t i = 0; i < n; i++) {
		m += d[i];
		s->min = fmin(s->min, d[i]);
		s->max = fmax(s->max, d[i]);
	}
	m /= (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (d[i] - m) * (d[i] - m);
	s->n = n;
	s->mean = m;
	s->sd = sqrt(ss / (double)(n - 1));
	s->se = s->sd / sqrt((double)n);
}

/* Whether a look after N pairs with multiplier t and sd `sd` could
 * decide, if the mean were c_gain (for a gain or loss, > 0) or c_tie (for
 * a tie, >= 0). */
static int reachable(size_t N, double t, double sd, double c_gain, double c_tie,
		     const struct abseq_params *p)
{
	if (!isfinite(t))
		return 0;
	double w = t * sd / sqrt((double)N);
	double lgain = -log1p(-p->min_gain), margin = log1p(p->noise);
	if (c_gain >= lgain && w < c_gain && N >= abseq_guard_pairs(c_gain, p->gap_max, p->alpha))
		return 1;
	return c_tie + w < margin;
}

/* The fewest pairs (from n on) at which a verdict could be reached if the
 * sd stayed as seen and the estimate were FUTILITY_SE standard errors more
 * decisive. Within the budget each look's own multiplier; beyond it (only
 * to say how many pairs it would take) looks at the last look's level,
 * found by bisection (reachability only grows with N); 0 beyond
 * NEEDED_HORIZON. */
static size_t pairs_needed(const struct sample *s, const struct abseq_params *p)
{
	double c_gain = fabs(s->mean) + FUTILITY_SE * s->se;
	double c_tie = fmax(fabs(s->mean) - FUTILITY_SE * s->se, 0.0);
	for (size_t N = s->n; N <= p->max_pairs; N++)
		if (reachable(N, abseq_look_t(N, p), s->sd, c_gain, c_tie, p))
			return N;
	double a_last = abseq_look_alpha(p->max_pairs, p);
	size_t lo = p->max_pairs, hi = NEEDED_HORIZON;
#define LATE_T(N) gsl_cdf_tdist_Qinv(a_last, (double)(N) - 1.0)
	if (!reachable(hi, LATE_T(hi), s->sd, c_gain, c_tie, p))
		return 0;
	while (hi - lo > 1) { /* reachable at hi, not at lo */
		size_t mid = lo + (hi - lo) / 2;
		if (reachable(mid, LATE_T(mid), s->sd, c_gain, c_tie, p))
			hi = mid;
		else
			lo = mid;
	}
#undef LATE_T
	return hi;
}

static double to_gain(double l)
{
	return 1.0 - exp(-l);
}

/* The verdict of one look from the sample's interval [lo, hi]. */
static void verdict(const struct sample *s, double lo, double hi, const struct abseq_params *p,
		    struct abseq_result *out)
{
	double lgain = -log1p(-p->min_gain);
	double up = -log1p(-p->noise), down = -log1p(p->noise);
	int guard_gain = s->n >= abseq_guard_pairs(s->mean, p->gap_max, p->alpha);
	int guard_loss = s->n >= abseq_guard_pairs(-s->mean, p->gap_max, p->alpha);
	if (!(isfinite(s->mean) && isfinite(s->sd)))
		out->reason = s->n >= p->max_pairs ? ABSEQ_BUDGET : ABSEQ_CONTINUE;
	else if (lo > 0 && s->mean >= lgain && guard_gain)
		out->reason = ABSEQ_GAIN;
	else if (hi < 0 && s->mean <= -lgain && guard_loss)
		out->reason = ABSEQ_LOSS;
	else if (lo > down && hi < up)
		out->reason = ABSEQ_TIE;
	else if (s->n >= p->max_pairs)
		out->reason = ABSEQ_BUDGET;
	else if (out->pairs_needed == 0 || out->pairs_needed > p->max_pairs)
		out->reason = ABSEQ_FUTILE;
	if (out->reason == ABSEQ_GAIN || out->reason == ABSEQ_LOSS || out->reason == ABSEQ_TIE)
		out->pairs_needed = s->n;
	out->verdict = out->reason == ABSEQ_GAIN   ? AB_B_BETTER
		       : out->reason == ABSEQ_LOSS ? AB_A_BETTER
		       : out->reason == ABSEQ_TIE  ? AB_TIE
						   : AB_INCONCLUSIVE;
}

/* Log-ratios log a - log b; -1 when a value is not finite and > 0. */
static int log_ratios(const double *a, const double *b, size_t n, double *ya, double *yb,
		      double *d)
{
	for (size_t i = 0; i < n; i++) {
		if (!(isfinite(a[i]) && a[i] > 0 && isfinite(b[i]) && b[i] > 0))
			return -1;
		ya[i] = log(a[i]);
		yb[i] = log(b[i]);
		d[i] = ya[i] - yb[i];
	}
	return 0;
}

/* What the report shows besides the verdict: the sign-flip p and, when
 * state_a or state_b is given, the runs' states (neither enters seq's
 * decision). */
static int report_extras(const double *ya, const double *yb, const double *d, const int *b_first,
			 size_t n, const struct abseq_params *p, int *state_a, int *state_b,
			 struct abseq_result *out)
{
	int sa[ABSEQ_MAX_PAIRS], sb[ABSEQ_MAX_PAIRS];
	out->signflip_p = p->signflip ? stats_signflip_p(d, n) : NAN;
	if (!state_a && !state_b)
		return 0; /* nobody asked for states: the simulations */
	if (abseq_states(ya, yb, b_first, n, p->state_gap, p->outlier_gap, sa, sb, &out->states) != 0)
		return -1;
	if (state_a)
		memcpy(state_a, sa, n * sizeof(*sa));
	if (state_b)
		memcpy(state_b, sb, n * sizeof(*sb));
	return 0;
}

int abseq_decide(const double *a, const double *b, const int *b_first, size_t n,
		 const struct abseq_params *p, int *state_a, int *state_b,
		 struct abseq_result *out)
{
	double ya[ABSEQ_MAX_PAIRS], yb[ABSEQ_MAX_PAIRS], d[ABSEQ_MAX_PAIRS];
	struct sample s;

	if (n == 0 || abseq_params_check(p, NULL) != 0 || n > p->max_pairs)
		return -1;
	if (p->rule == ABSEQ_RULE_V1)
		return abseq_v1_decide(a, b, b_first, n, p, state_a, state_b, out);
	if (log_ratios(a, b, n, ya, yb, d) != 0)
		return -1;
	memset(out, 0, sizeof(*out));
	if (report_extras(ya, yb, d, b_first, n, p, state_a, state_b, out) != 0)
		return -1;
	out->pairs = out->pairs_used = n;
	out->reason = ABSEQ_CONTINUE;
	out->verdict = AB_INCONCLUSIVE;
	out->within_gain = out->within_lo = out->within_hi = NAN;
	out->within_log = out->within_se = out->fisher_p = NAN;
	out->gain = out->gain_lo = out->gain_hi = out->log_gain = out->log_se = out->crit = NAN;
	if (n < 2)
		return 0;
	sample_of(d, n, &s);
	double t = abseq_look_t(n, p);
	double w = isfinite(t) ? t * s.se : INFINITY; /* no look yet: no interval */
	double lo = s.mean - w, hi = s.mean + w;
	out->crit = t;
	out->log_gain = s.mean;
	out->log_se = s.se;
	out->gain = to_gain(s.mean);
	out->gain_lo = to_gain(lo);
	out->gain_hi = to_gain(hi);
	out->pairs_needed = pairs_needed(&s, p);
	if (n >= p->min_pairs)
		verdict(&s, lo, hi, p, out);
	return 0;
}
