/* plateau.h: per-round improvement over the incumbent, and plateau
 * detection (seeds, Phase 2 termination: "3 rounds in a row without any
 * valid branch improving by more than the noise threshold (3%)").
 *
 * Definitions (all durations are Task Duration in us, lower is better):
 *   rounds      the distinct round numbers >= 1 present in the records,
 *               ascending. v2 records of phase "final" are not experiment
 *               branches: they are left out (a round holding only final
 *               records is not a round here). Gaps in the numbering are
 *               not invented as rounds.
 *   incumbent   for key k before round r: the smallest valid duration of k
 *               over ALL records of rounds < r (any candidate, any phase).
 *   best        for key k in round r: the smallest valid duration of k
 *               among the round's records.
 *   gain        (incumbent - best) / incumbent, for keys having both.
 *   improvement the largest gain across the round's keys (may be <= 0;
 *               NAN when no key of the round has both an incumbent and a
 *               valid measurement).
 *   improved    improvement > noise (strictly; 3.0% at noise 0.03 is not
 *               an improvement, 3.1% is; computed as gain > noise + 1e-12
 *               so that floating-point rounding of an exact tie never
 *               counts as a gain) AND the round passes the winner rule's
 *               non-regression check (stats/winner.h with the same noise):
 *               some complete candidate without a regression beyond noise
 *               on any key gains beyond noise on one. A round where one key
 *               gains while another regresses (winner: defer or rollback)
 *               is not an improvement.
 *   blocked     the round has no valid record at all (every branch failed
 *               L0 or none was measured). Blocked rounds are not improved.
 *   consecutive_no_improvement  trailing rounds (from the last one back)
 *               that are not improved.
 *   last_improvement  the last improved round, or -1 when none.
 *   plateau     consecutive_no_improvement >= window.
 * Valid = l0_pass true (record_valid). Invalid records never count.
 */
#ifndef TLPERF_PLATEAU_H
#define TLPERF_PLATEAU_H

#include <stddef.h>

#include "stats/reckeys.h"
#include "stats/stats.h"
#include "model/records.h"

/* A round is flat when it gains no more than this over the best so far
 * (the seeds' "improving by more than the noise threshold (3%)"). */
#define STATS_PLATEAU_NOISE 0.03
#define STATS_PLATEAU_NOISE_TEXT "0.03"
#define STATS_PLATEAU_WINDOW 3

/* One key measured in one round. */
struct stats_plateau_key {
	size_t key;                 /* index into ks.v */
	double incumbent_us;        /* NAN when the key had no valid record before */
	const char *incumbent_id;   /* candidate holding it, NULL when none */
	double best_us;             /* NAN when no valid record of the key in the round */
	const char *best_id;        /* candidate holding it, NULL when none */
	double gain;                /* (incumbent - best) / incumbent, NAN when not both */
};

struct stats_plateau_round {
	long round;                 /* round number, >= 1 */
	size_t nrecords;            /* records of the round (phase final excluded) */
	size_t nvalid;              /* of which valid */
	int blocked;                /* 1 when nvalid == 0 */
	double improvement;         /* max gain across keys, NAN when none comparable */
	size_t improvement_key;     /* key index of that gain, STATS_NOKEY when none */
	int improved;               /* improvement > noise and a non-regressing winner */
	const char *winner_id;      /* the winner rule's candidate (borrowed), NULL when
				     * the round has none without regression */
	int winner_decision;        /* enum stats_winner_decision of the round */
	struct stats_plateau_key *keys; /* keys with a record in the round, in
					 * order of first appearance in the file */
	size_t nkeys;
};

struct stats_plateau {
	struct stats_keyset ks;     /* keys of the records (owned) */
	struct stats_plateau_round *rounds; /* ascending round number */
	size_t nrounds;
	double noise;               /* threshold used */
	long window;                /* window used */
	long consecutive_no_improvement;
	long last_improvement;      /* round number, -1 when no round improved */
	int plateau;                /* consecutive_no_improvement >= window */
};

/* Streaming: begin, add every record (valid or not) in file order, then
 * finish. Memory grows with the (round, key) cells and the (round, key,
 * candidate) branches the non-regression check needs;
 * record ids are borrowed (keep their pool alive while *out is used). add
 * returns 0 or -1 when memory ran out (then abort). finish empties a and
 * returns what stats_plateau_compute returns. */
struct stats_plateau_cell;
struct stats_plateau_branch;
struct stats_plateau_acc {
	struct stats_keyset ks;
	struct stats_plateau_cell *cells; /* one per (round, key) */
	size_t n, cap;
	size_t *slot;               /* hash of cells: index + 1, 0 empty */
	size_t nslot;
	/* one per (round >= 1, key, candidate): what the winner rule's
	 * non-regression check needs (so these grow with the records) */
	struct stats_plateau_branch *br;
	size_t nbr, capbr;
	size_t *bslot;              /* hash of br: index + 1, 0 empty */
	size_t nbslot;
};
void stats_plateau_begin(struct stats_plateau_acc *a);
int stats_plateau_add(struct stats_plateau_acc *a, const struct record *r);
int stats_plateau_finish(struct stats_plateau_acc *a, double noise, long window,
			 struct stats_plateau *out);
void stats_plateau_abort(struct stats_plateau_acc *a);

/* Computes the plateau analysis of rs (the streaming steps over rs) with threshold noise (a fraction,
 * 0.03 = 3%, must be >= 0 and finite) and window (>= 1). rs may be empty
 * (no rounds, no plateau).
 * Returns 0; -1 with errno EINVAL for a bad noise/window, ENOMEM on
 * allocation failure. On success *out owns its memory (release with
 * stats_plateau_release) and borrows strings from rs: keep rs alive. On
 * failure *out is empty and safe to release. */
int stats_plateau_compute(const struct records *rs, double noise, long window,
			  struct stats_plateau *out);
void stats_plateau_release(struct stats_plateau *p);

#endif
