/* abseq.c: the sequential A/B protocol: its settings, and the seq rule
 * (see abseq.h, and docs/tlab.md "How seq decides" for its derivation);
 * seq-v1, kept for comparison, is in abseq_v1.c. */
#include "stats/abseq.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <string.h>

#include "stats/abseq_v1.h"
#include "stats/hl.h"
#include "stats/twostate.h"

/* The error budget the looks spend: 2.5%, the decision-quality target.
 * The theorems take BAR_SHARE of it (2.0%: the Gaussian looks are scaled
 * to it, the two-state bars held to it look by look), which is the bound
 * tlab reports (abseq_false_adoption_bound); the rest is the margin for
 * what lies between the models, where the target is measured (abseq.h). */
#define ALPHA 0.025
/* How the error is spent over the looks: look n (of min_pairs..max_pairs)
 * gets alpha n^SPEND_POWER / sum_k k^SPEND_POWER, so late looks, where a
 * noisy kernel can first decide, get most of it, and a clean effect still
 * decides early because its t is large. Chosen on `tlperf sim --grid
 * calibration` only (1, 2 and 3 compared for the first version of the
 * rule, 2 and 4 for these bars: docs/tlab.md "Its constants"); it moves
 * power and pairs, never the guarantee (the levels are scaled to it). */
#define SPEND_POWER 2.0
/* The largest gap between the fast and the slow state of one kernel that
 * the two-state bar assumes: 11% (log 0.104), the widest gap of either grid and of
 * the decision-quality issue's range (3-11%). */
#define GAP_MAX 0.105
/* The steady gain the region of each look is chosen for (twostate.h):
 * 5% (log 0.0513) with runs of 2% CV (sd of a pair's log-ratio 2% sqrt 2),
 * the steady kernel of the decision-quality targets. They choose among
 * regions that all keep the error bound: they move power, never it. */
#define DESIGN_GAIN 0.051293294387550536 /* -log(0.95) */
#define DESIGN_SD 0.028284271247461901   /* 0.02 sqrt(2) */
/* Futility looks at an estimate this many standard errors better than the
 * one seen, so a session stops early only when even a lucky continuation
 * could not reach a verdict within the budget. */
#define FUTILITY_SE 2.0
/* fast's family (abseq.h): at equal state frequencies gaps up to GAP_MAX,
 * as seq; a state-frequency shift |pB - pA| up to FAST_SHIFT_MAX with a
 * gap up to FAST_GAP_SHIFT (8%, log 1.08): the run states the issue's
 * error target names. */
#define FAST_GAP_SHIFT 0.076961041136128394 /* log(1.08) */
#define FAST_SHIFT_MAX 0.3
/* fast's tie: the interval of the mean at this one-sided level each side
 * inside +-noise (not spent over the looks: a tie adopts nothing), and the
 * estimate within FAST_TIE_CENTRE of the margin (a gain the size of the
 * margin sits on it, and the interval alone would call it a tie at half
 * the looks). Chosen on the calibration grid's steady kernels (runs of
 * 1.7% CV): 0.20 and 0.4 end B = A in 4.15 pairs (0.10 and 0.5, the first
 * choice: 4.56) with a 3% gain adopted in 81.7% (82.0%) and a 3% loss
 * found in 86.3% (84.7%); docs/tlab.md "The frontier" shows the rest. */
#define FAST_TIE_LEVEL 0.20
#define FAST_TIE_CENTRE 0.4
/* fast's loss (A_better): the interval below 0 at this one-sided level at
 * each look. Keeping A adopts nothing, so it is not spent over the looks;
 * a B that is not slower is called A_better in at most ~2% of sessions
 * (steady kernels of the calibration grid). */
#define FAST_LOSS_LEVEL 0.005
/* fast stops as futile when even an estimate one standard error more
 * decisive could not reach a verdict in the budget (seq: two): noisy
 * kernels stop within 8 pairs instead of running to the budget. */
#define FAST_FUTILITY_SE 1.0
/* fast spends its error by these weights over looks 3..16 (1 beyond):
 * most at pairs 4-8, where a steady gain can first be seen (Student's
 * quantile with 2 degrees of freedom at pair 3 needs a t no steady
 * kernel reaches, so look 3 gets only a token share). Chosen on the
 * Gaussian model alone for the steady kernels of the targets (runs of
 * 1.4-2% CV, 5% and 3% gains): docs/tlab.md "How fast decides". */
static const double FAST_WEIGHT[ABSEQ_MAX_PAIRS_DEFAULT + 1] = {
	[3] = 0.1, [4] = 2, [5] = 3, [6] = 3, [7] = 2, [8] = 2, [9] = 1, [10] = 1,
	[11] = 1, [12] = 1, [13] = 1, [14] = 1, [15] = 1, [16] = 1
};

static double look_weight(size_t n, const struct abseq_params *p)
{
	if (p->rule != ABSEQ_RULE_FAST)
		return pow((double)n, p->spend_power);
	return n <= ABSEQ_MAX_PAIRS_DEFAULT ? FAST_WEIGHT[n] : 1.0;
}
/* pairs_needed is searched up to this many pairs (beyond: "more than"). */
#define NEEDED_HORIZON 1024

/* seq's defaults and seq-v1's; seq-v1's run classification (state_gap,
 * outlier_gap) also serves seq's report, so its fields are always filled. */
void abseq_params_default(struct abseq_params *p, int rule)
{
	memset(p, 0, sizeof(*p));
	p->rule = rule;
	p->min_pairs = rule == ABSEQ_RULE_V1 ? ABSEQ_V1_MIN_PAIRS : ABSEQ_MIN_PAIRS;
	p->max_pairs = ABSEQ_MAX_PAIRS_DEFAULT;
	p->min_gain = ABSEQ_MIN_GAIN;
	p->noise = ABSEQ_TIE_MARGIN;
	p->alpha = ALPHA;
	p->gap_max = GAP_MAX;
	p->spend_power = SPEND_POWER;
	abseq_v1_defaults(p);
	p->signflip = 0;
}

void abseq_params_set_rule(struct abseq_params *p, int rule, int min_pairs_given)
{
	struct abseq_params d;
	abseq_params_default(&d, rule);
	p->rule = rule;
	if (!min_pairs_given)
		p->min_pairs = d.min_pairs;
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
	else if (p->rule != ABSEQ_RULE_SEQ && p->rule != ABSEQ_RULE_FAST)
		w = "unknown rule";
	else if (p->max_pairs > TWOSTATE_MAX_N)
		w = "seq: max-pairs must be at most 24";
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
		sum += look_weight(k, p);
	return p->alpha * look_weight(n, p) / sum;
}

/* The level of Student's quantile at look n. The studentized mean is
 * pivotal: with Gaussian log-ratios of mean 0 the chance that some look's
 * T reaches its quantile is one number for every sd, so the levels can be
 * scaled to a chosen total instead of bounding the total by their sum.
 * For the default schedule (looks 3..16, spending power 2, alpha 0.025) a
 * scale of 0.052 / 0.025 gives 1.97% (2,000,000 simulated sessions,
 * standard error 0.01%; test_abseq checks it): the Gaussian model's share
 * of alpha, like BAR_SHARE for the two-state one. Any other schedule scales
 * them by BAR_SHARE, so their sum bounds that chance by 2.0% too. */
#define GAUSS_SCALE (0.052 / 0.025)
/* What each model's theorem holds the error to, as a share of alpha: 2.0%
 * for the two-state bars (and, through GAUSS_SCALE, for Gaussian
 * log-ratios), leaving 0.5% for what lies between the two models (noise
 * within states, outlier runs, drift), which no theorem covers: with 1.0
 * the calibration grid's worst null cells (G 11%, outlier runs near the
 * slow state, random-walk drift) adopted in 2.5-3.0% of sessions, with 0.8
 * in 1.7-2.2% (docs/tlab.md). */
#define BAR_SHARE 0.8
/* The second rectangle of each bar asks this much more of the studentized
 * mean than Student's quantile: with 0 the calibration grid's cells with
 * outlier runs near the slow state (a third state the bars do not model)
 * adopted in 2.7% of sessions, with 0.5 in 2.2% (docs/tlab.md). */
#define SECOND_T 0.5

double abseq_false_adoption_bound(const struct abseq_params *p)
{
	/* the Gaussian looks are scaled to it (GAUSS_SCALE, FAST_GAUSS_SCALE,
	 * else BAR_SHARE by the sum) and the two-state bars held to it;
	 * divided, so that the default prints as 0.02 (0.8 * 0.025 is
	 * 0.020000000000000004 in binary) */
	return p->rule == ABSEQ_RULE_V1 ? NAN : p->alpha / (1.0 / BAR_SHARE);
}

static int default_schedule(const struct abseq_params *p)
{
	return p->rule == ABSEQ_RULE_SEQ && p->min_pairs == ABSEQ_MIN_PAIRS && p->max_pairs == ABSEQ_MAX_PAIRS_DEFAULT &&
	       p->spend_power == SPEND_POWER && p->alpha == ALPHA;
}

/* fast's default schedule (looks 3..16, FAST_WEIGHT, alpha 0.025): the
 * scale that makes the Gaussian looks together cross with chance 2.0%
 * (simulated as GAUSS_SCALE is; test_abseq checks it). */
#define FAST_GAUSS_SCALE 1.85

static int fast_default_schedule(const struct abseq_params *p)
{
	return p->rule == ABSEQ_RULE_FAST && p->min_pairs == ABSEQ_MIN_PAIRS &&
	       p->max_pairs == ABSEQ_MAX_PAIRS_DEFAULT && p->alpha == ALPHA;
}

double abseq_look_level(size_t n, const struct abseq_params *p)
{
	double scale = default_schedule(p)        ? GAUSS_SCALE
		       : fast_default_schedule(p) ? FAST_GAUSS_SCALE
						  : BAR_SHARE;
	return abseq_look_alpha(n, p) * scale;
}

/* What the looks of one schedule need, kept per thread for the settings
 * last asked about (a session, or a simulation, asks for the same looks
 * again and again): Student's quantile of each look, computed when first
 * asked for, and the two-state bars of every look (stats/twostate.h),
 * computed at the first look that needs them. */
struct schedule_memo {
	int rule;
	double alpha, gap_max, spend_power;
	size_t min_pairs, max_pairs;
	double t[ABSEQ_MAX_PAIRS + 1]; /* 0: not computed */
	int bars;                      /* 0 not computed, 1 computed, 2 failed */
	struct twostate_bar bar[TWOSTATE_MAX_N + 1];
};

static struct schedule_memo *memo_for(const struct abseq_params *p)
{
	static _Thread_local struct schedule_memo memo;
	if (memo.rule != p->rule || memo.alpha != p->alpha || memo.gap_max != p->gap_max ||
	    memo.spend_power != p->spend_power || memo.min_pairs != p->min_pairs ||
	    memo.max_pairs != p->max_pairs) {
		memset(&memo, 0, sizeof(memo));
		memo.rule = p->rule;
		memo.alpha = p->alpha;
		memo.gap_max = p->gap_max;
		memo.spend_power = p->spend_power;
		memo.min_pairs = p->min_pairs;
		memo.max_pairs = p->max_pairs;
	}
	return &memo;
}

/* Student's t quantile of the look. */
double abseq_look_t(size_t n, const struct abseq_params *p)
{
	double a = abseq_look_level(n, p);
	if (n < 2 || !(a > 0))
		return INFINITY;
	struct schedule_memo *m = memo_for(p);
	if (m->t[n] == 0)
		m->t[n] = gsl_cdf_tdist_Qinv(a, (double)n - 1.0);
	return m->t[n];
}

int abseq_compute_bars(const struct abseq_params *p, struct twostate_bar *bar)
{
	double spent[TWOSTATE_MAX_N + 1] = { 0 }, tf[TWOSTATE_MAX_N + 1] = { 0 }, sum = 0;
	for (size_t n = p->min_pairs; n <= p->max_pairs; n++) {
		sum += abseq_look_alpha(n, p);
		spent[n] = fmin(sum, p->alpha) * BAR_SHARE;
		tf[n] = abseq_look_t(n, p);
	}
	struct twostate_family f;
	twostate_family_wide(&f, p->gap_max);
	if (p->rule == ABSEQ_RULE_FAST) {
		f.gap_shift = fmin(FAST_GAP_SHIFT, p->gap_max);
		f.shift_max = FAST_SHIFT_MAX;
	}
	return twostate_bars_in(p->min_pairs, p->max_pairs, &f, spent, tf, SECOND_T, DESIGN_GAIN,
				DESIGN_SD, bar);
}

/* The bars of the default schedule (looks 3..16, alpha 0.025, spending
 * power 2, GAP_MAX) as abseq_compute_bars makes them, which takes
 * seconds; test_abseq computes them again and compares. Printed by
 * scripts/analysis/print_bars.c. */
static const struct twostate_bar DEFAULT_BARS[ABSEQ_MAX_PAIRS_DEFAULT + 1] = {
#include "stats/abseq_bars.inc"
};
/* The same for fast's default schedule (looks 3..16, FAST_WEIGHT, its
 * family), which takes half a second to compute: tlab's default rule
 * would pay it at the first look of every session. */
static const struct twostate_bar FAST_DEFAULT_BARS[ABSEQ_MAX_PAIRS_DEFAULT + 1] = {
#include "stats/abseq_fast_bars.inc"
};

int abseq_look_bar(size_t n, const struct abseq_params *p, struct twostate_bar *bar)
{
	if (n < p->min_pairs || n > p->max_pairs || p->max_pairs > TWOSTATE_MAX_N)
		return -1;
	struct schedule_memo *m = memo_for(p);
	const struct twostate_bar *kept = p->gap_max != GAP_MAX    ? NULL
					  : default_schedule(p)      ? DEFAULT_BARS
					  : fast_default_schedule(p) ? FAST_DEFAULT_BARS
								     : NULL;
	if (m->bars == 0 && kept) {
		memcpy(m->bar, kept, sizeof(DEFAULT_BARS));
		m->bars = 1;
	} else if (m->bars == 0) {
		m->bars = abseq_compute_bars(p, m->bar) == 0 ? 1 : 2;
	}
	if (m->bars != 1)
		return -1;
	*bar = m->bar[n];
	return 0;
}


/* The multiplier of the tie interval at look n (N pairs of data). */
static double tie_t(size_t N, const struct abseq_params *p)
{
	if (p->rule != ABSEQ_RULE_FAST)
		return N <= p->max_pairs ? abseq_look_t(N, p)
					 : gsl_cdf_tdist_Qinv(abseq_look_alpha(p->max_pairs, p), (double)N - 1.0);
	return gsl_cdf_tdist_Qinv(FAST_TIE_LEVEL, (double)N - 1.0);
}


static double loss_t(size_t N, const struct abseq_params *p)
{
	if (p->rule != ABSEQ_RULE_FAST)
		return N <= p->max_pairs ? abseq_look_t(N, p)
					 : gsl_cdf_tdist_Qinv(abseq_look_alpha(p->max_pairs, p), (double)N - 1.0);
	return gsl_cdf_tdist_Qinv(FAST_LOSS_LEVEL, (double)N - 1.0);
}

/* fast's tie also wants the estimate nearer 0 than the margin: a gain (or
 * loss) the size of --noise sits on the margin, and an interval alone
 * would call it a tie at half the looks. */
static double tie_centre(const struct abseq_params *p)
{
	return -log1p(-p->noise) * FAST_TIE_CENTRE;
}

static double futility_se(const struct abseq_params *p)
{
	return p->rule == ABSEQ_RULE_FAST ? FAST_FUTILITY_SE : FUTILITY_SE;
}

/* ---- the decision ------------------------------------------------------ */

/* The sample of one look: mean and sd of the log-ratios. */
struct sample {
	size_t n, npos; /* pairs, and pairs in which B's run was faster */
	double mean, sd, se;
};

static void sample_of(const double *d, size_t n, struct sample *s)
{
	double m = 0, ss = 0;
	s->npos = 0;
	for (size_t i = 0; i < n; i++) {
		m += d[i];
		s->npos += d[i] > 0;
	}
	m /= (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (d[i] - m) * (d[i] - m);
	s->n = n;
	s->mean = m;
	s->sd = sqrt(ss / (double)(n - 1));
	s->se = s->sd / sqrt((double)n);
}

/* Whether a look after N pairs could decide if the sd stayed `sd` and the
 * mean were c_gain (for a gain or loss, > 0) or c_tie (for a tie, >= 0).
 * Beyond the budget (only to say how many pairs a verdict would take)
 * the last look's level and region stand in for the look's own. */
static int reachable(size_t N, double sd, double c_gain, double c_tie, int loss,
		     const struct abseq_params *p)
{
	size_t at = N <= p->max_pairs ? N : p->max_pairs;
	double ts = N <= p->max_pairs
			    ? abseq_look_t(N, p)
			    : gsl_cdf_tdist_Qinv(abseq_look_alpha(at, p), (double)N - 1.0);
	struct twostate_bar bar;
	double rn = sqrt((double)N);
	double lgain = -log1p(-p->min_gain), margin = log1p(p->noise);
	if (!isfinite(ts))
		return 0;
	if (loss && c_gain >= lgain && c_gain * rn > loss_t(N, p) * sd)
		return 1; /* a loss needs the interval alone */
	if (!loss && c_gain >= lgain && abseq_look_bar(at, p, &bar) == 0 &&
	    twostate_clears(&bar, c_gain, sd > 0 ? c_gain * rn / sd : INFINITY))
		return 1;
	return c_tie + tie_t(N, p) * sd / rn < margin;
}

/* The fewest pairs (from n on) at which a verdict could be reached if the
 * sd stayed as seen and the estimate were FUTILITY_SE standard errors more
 * decisive; found by bisection beyond the budget (reachability only grows
 * with N there); 0 beyond NEEDED_HORIZON. */
static size_t pairs_needed(const struct sample *s, const struct abseq_params *p)
{
	double c_gain = fabs(s->mean) + futility_se(p) * s->se;
	double c_tie = fmax(fabs(s->mean) - futility_se(p) * s->se, 0.0);
	int loss = s->mean < 0;
	for (size_t N = s->n; N <= p->max_pairs; N++)
		if (reachable(N, s->sd, c_gain, c_tie, loss, p))
			return N;
	size_t lo = p->max_pairs, hi = NEEDED_HORIZON;
	if (!reachable(hi, s->sd, c_gain, c_tie, loss, p))
		return 0;
	while (hi - lo > 1) { /* reachable at hi, not at lo */
		size_t mid = lo + (hi - lo) / 2;
		if (reachable(mid, s->sd, c_gain, c_tie, loss, p))
			hi = mid;
		else
			lo = mid;
	}
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
	double tie_w = p->rule == ABSEQ_RULE_FAST ? tie_t(s->n, p) * s->se : hi - s->mean;
	double loss_w = p->rule == ABSEQ_RULE_FAST ? loss_t(s->n, p) * s->se : hi - s->mean;
	/* fast: B's runs faster in most pairs (the typical run), besides the mean */
	int typical = p->rule != ABSEQ_RULE_FAST || 2 * s->npos > s->n;
	double lgain = -log1p(-p->min_gain);
	double up = -log1p(-p->noise), down = -log1p(p->noise);
	struct twostate_bar bar;
	double z = s->se > 0 ? s->mean / s->se : s->mean > 0 ? INFINITY : -INFINITY;
	int region = abseq_look_bar(s->n, p, &bar) == 0;
	if (!(isfinite(s->mean) && isfinite(s->sd)))
		out->reason = s->n >= p->max_pairs ? ABSEQ_BUDGET : ABSEQ_CONTINUE;
	else if (region && typical && lo > 0 && s->mean >= lgain && twostate_clears(&bar, s->mean, z))
		out->reason = ABSEQ_GAIN;
	else if (s->mean + loss_w < 0 && s->mean <= -lgain)
		out->reason = ABSEQ_LOSS;
	else if (s->mean - tie_w > down && s->mean + tie_w < up &&
		 (p->rule != ABSEQ_RULE_FAST || fabs(s->mean) < tie_centre(p)))
		out->reason = ABSEQ_TIE;
	else if (s->n >= p->max_pairs)
		out->reason = ABSEQ_BUDGET;
	else if (out->pairs_needed == 0 || out->pairs_needed > p->max_pairs)
		out->reason = ABSEQ_FUTILE;
	if (out->reason == ABSEQ_GAIN || out->reason == ABSEQ_LOSS || out->reason == ABSEQ_TIE)
		out->pairs_needed = s->n;
	else if (out->reason == ABSEQ_BUDGET && out->pairs_needed <= s->n)
		out->pairs_needed = 0; /* the optimistic estimate was within reach, the one seen was
					  not: how many more it takes is unknown */
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
