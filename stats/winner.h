/* winner.h: choosing a round's winner (seeds, Phase 2 steps 9-11: best
 * Task Duration among valid branches, no regression beyond noise on a
 * required dispatch, interleaved A/B for gains under 5% on small kernels,
 * ties settled by load balance / resources / simplicity).
 *
 * Vocabulary (durations in us, lower is better):
 *   required keys  the keys the decision is about. Given as text (see
 *                  stats_key_matches: "WORKLOAD" or "DISPATCH/WORKLOAD");
 *                  when none is given: every key that has an incumbent AND
 *                  was measured in round N by some candidate.
 *   incumbent      per key, the valid record with the smallest duration in
 *                  rounds < N (any candidate: the per-key current best, as
 *                  the real logs' tables show it). With opts.incumbent_id,
 *                  that candidate's most recent valid record before N
 *                  instead (the driver knows which version it adopted).
 *                  Required keys without an incumbent are not compared.
 *   candidate      a candidate_id with records in round N (every phase but
 *                  v2 "baseline"). Its measurement of a key is its smallest
 *                  valid duration for the key in round N.
 *   complete       the candidate has a valid measurement on every required
 *                  key that has an incumbent. Only complete candidates
 *                  compete (an L0 failure or a missing workload means the
 *                  non-regression check cannot be made).
 *   change         (candidate - incumbent) / incumbent per key; < 0 faster.
 *   gain           geometric mean over the compared keys of
 *                  incumbent / candidate (through logarithms), minus 1.
 *   small key      a key whose incumbent duration is under opts.small_us
 *                  (kernels whose runs flip between two states +-3-5%).
 *   regression     change > noise on a key, except on a small key where
 *                  change < ab_threshold: that is within the bimodal
 *                  run-state noise of small kernels (+-3-5%) and goes to
 *                  A/B instead ("soft" regression).
 *
 * Decision, in this order:
 *   none      no complete candidate (or no required key has an incumbent).
 *   The winner W is the complete candidate without regression that has
 *   the largest gain (ties: the earlier in the file). When there is none
 *   with gain > 0, look at the complete candidate with the largest gain:
 *   defer     it regresses on some key and improves another beyond noise
 *             (mixed: keep the current best, consider a per-shape dispatch
 *             table); regressing keys are named.
 *   rollback  otherwise (regressions without compensating gain, or no
 *             gain at all): the current best stays; regressing keys named.
 *   With W:
 *   needs_ab  W gains beyond noise but under ab_threshold on some key
 *             (the "gain under the threshold anywhere", read per
 *             key: a single measurement cannot tell 4% from run-state
 *             noise); or W has a soft regression on a small key; or W gains
 *             beyond noise nowhere (then every key it is faster on). A
 *             clear gain on one key is not diluted by flat keys: +18% on one
 *             workload and +-1% on three others is adopted, not A/B'd.
 *             The keys to arbitrate have needs_ab set; see
 *             stats_winner_ab_command for each key's tlab command.
 *   tie       another candidate without regression has a gain within noise
 *             of W's: |(1+gain_W)/(1+gain_c) - 1| <= noise. The seeds settle
 *             ties by load balance, resource use and code simplicity; the
 *             records hold none of that, so the engineer decides.
 *   adopt     W becomes the new current best.
 * Invalid records (l0_pass false) never count.
 */
#ifndef TLPERF_WINNER_H
#define TLPERF_WINNER_H

#include <stddef.h>

#include "stats/reckeys.h"
#include "model/records.h"

/* A round's winner may not regress a required workload by more than this
 * (the non-regression check, as the seeds' noise threshold: 3%). */
#define STATS_WINNER_NOISE 0.03
#define STATS_WINNER_NOISE_TEXT "0.03"
#define STATS_WINNER_AB_THRESHOLD 0.05
#define STATS_WINNER_SMALL_US 20.0
/* Candidates x required keys of one round compared at most (each cell is
 * one struct stats_winner_key): a real round has tens of each; a file with
 * tens of thousands of both is refused rather than exhausting memory. */
#define STATS_WINNER_MAX_CELLS 4000000UL

enum stats_winner_decision {
	STATS_WINNER_NONE = 0,
	STATS_WINNER_ADOPT,
	STATS_WINNER_ROLLBACK,
	STATS_WINNER_DEFER,
	STATS_WINNER_NEEDS_AB,
	STATS_WINNER_TIE
};

/* "none", "adopt", "rollback", "defer", "needs_ab", "tie". */
const char *stats_winner_decision_name(enum stats_winner_decision d);

struct stats_winner_opts {
	double noise;                   /* fraction, default 0.03 */
	double ab_threshold;            /* fraction, default 0.05 */
	double small_us;                /* us, default 20 */
	const char *const *required;    /* key texts, may be NULL when nrequired == 0 */
	size_t nrequired;
	const char *incumbent_id;       /* NULL: per-key best before the round */
};

/* Fills the defaults above (no required keys, no incumbent id). */
void stats_winner_opts_init(struct stats_winner_opts *o);

/* Per-key status of one candidate. */
enum stats_winner_keystate {
	STATS_WK_MISSING = 0,   /* no valid measurement of the candidate */
	STATS_WK_NO_INCUMBENT,  /* measured, but nothing to compare with */
	STATS_WK_GAIN,          /* faster by more than noise */
	STATS_WK_SAME,          /* within noise either way */
	STATS_WK_SOFT_REGRESSION, /* small key, noise < change < ab_threshold */
	STATS_WK_REGRESSION     /* slower by more than noise (hard) */
};

/* "missing", "no_incumbent", "gain", "same", "soft_regression", "regression". */
const char *stats_winner_keystate_name(enum stats_winner_keystate s);

struct stats_winner_key {
	size_t key;                     /* index into ks.v */
	const struct record *incumbent; /* NULL when none */
	const struct record *candidate; /* NULL when missing */
	double change;                  /* (cand - inc) / inc, NAN when not both */
	enum stats_winner_keystate state;
	int needs_ab;                   /* this key must be arbitrated by tlab */
};

struct stats_winner_candidate {
	const char *candidate_id;       /* borrowed from the records */
	struct stats_winner_key *keys;  /* one per required key, order of w.required */
	int complete;                   /* every compared key measured validly */
	size_t ncompared;               /* keys with incumbent and measurement */
	double gain;                    /* geomean(inc/cand) - 1, NAN when ncompared == 0 */
	size_t nregressions;            /* hard regressions */
	size_t nsoft;                   /* soft regressions */
	size_t ngains;                  /* keys faster beyond noise */
};

struct stats_winner {
	long round;                     /* N */
	struct stats_keyset ks;         /* owned */
	size_t *required;               /* key indexes, owned */
	size_t nrequired;
	unsigned char *shared_workload; /* per required key: 1 when another required
					 * key has the same workload under another
					 * dispatch (name it DISPATCH/WORKLOAD), owned */
	struct stats_winner_candidate *cands; /* order of first appearance in round N */
	size_t ncands;
	enum stats_winner_decision decision;
	size_t chosen;                  /* index into cands: W for adopt/needs_ab/tie,
					 * the candidate judged for defer/rollback,
					 * STATS_NOKEY for none */
	size_t *tied;                   /* cands indexes tied with W (W excluded), owned */
	size_t ntied;
	char reason[512];               /* one line, English, no trailing period */
	char label[1024];               /* scratch of stats_winner_key_label */
};

/* Decides round `round` (>= 1) of rs. Returns 0 with *w filled (also for
 * decision none); -1 with a message in err when the arguments are wrong:
 * round < 1, noise/ab_threshold/small_us negative or not finite, a
 * required key text matching no key of rs (a typo must not silently
 * narrow the check), or an incumbent_id without a valid record before the
 * round; errno E2BIG when the round has more than STATS_WINNER_MAX_CELLS
 * candidate x required-key pairs; errno ENOMEM with "out of memory" on allocation
 * failure. *w owns its arrays (stats_winner_release) and borrows strings
 * and records from rs: keep rs alive. On failure *w is empty. */
int stats_winner_choose(const struct records *rs, long round, const struct stats_winner_opts *o,
			struct stats_winner *w, char *err, size_t errlen);
void stats_winner_release(struct stats_winner *w);

/* Sets needs_ab on the keys of candidate c (an index into w->cands) as it
 * is set for the winner W (see needs_ab above), whoever w chose: for
 * checking, after the fact, a candidate that was adopted. Returns how many
 * keys need A/B (0 for a bad index). */
size_t stats_winner_mark_ab(const struct stats_winner_opts *o, struct stats_winner *w, size_t c);

/* The tlab command that arbitrates key kidx (an index into w->required)
 * between the incumbent and candidate c (an index into w->cands):
 *   tlab --a-cmd '<A>' --b-cmd '<B>' --workdir perf_opt/ab_r<N>_<ID>
 * A and B come from bench_template with placeholders replaced:
 *   {impl}      candidate id (A: the incumbent's, B: c's)
 *   {candidate} same as {impl}
 *   {dispatch}  the key's dispatch (dispatch_path / kernel_id)
 *   {workload}  the key's workload
 *   {artifact}  the record's artifact_path (v2), else the candidate id
 *   {round}     the record's round
 * When bench_template is NULL, A and B are placeholders to replace by
 * hand: "<bench command: IMPL on DISPATCH/WORKLOAD>". Both are single-quoted
 * for a POSIX shell (a ' inside becomes '\''). When workdir_suffix is set
 * (several keys of one candidate to arbitrate) the workdir becomes
 * perf_opt/ab_r<N>_<ID>/<suffix>; stats_winner_key_label gives a suffix
 * that is unique among the required keys. Characters of ID outside [A-Za-z0-9._-]
 * become '_' in the workdir. Returns a malloc'd string (caller frees), or
 * NULL on allocation failure or a bad index. */
/* A short unique name of required key kidx: its workload, or
 * "DISPATCH/WORKLOAD" when another required key shares the workload.
 * Returns a pointer into w (valid until stats_winner_release) -- the
 * dispatch form is kept in a private buffer of the struct, so copy it before
 * the next call. NULL for a bad index. */
const char *stats_winner_key_label(struct stats_winner *w, size_t kidx);

char *stats_winner_ab_command(const struct stats_winner *w, size_t c, size_t kidx,
			      const char *bench_template, const char *workdir_suffix);

#endif
