/* speedup.h: per-workload speedups from the round-0 baseline to the final
 * version, and their geometric means per dispatch and overall (seeds,
 * Phase 3 step 2, T-6: the Final Summary's multi-dispatch block).
 *
 * Per key (dispatch, workload):
 *   baseline   the first valid record of round 0 (v2: phase "baseline"
 *              preferred) -- see stats_baseline.
 *   final      chosen in this order:
 *              1. final_candidate given: that candidate's most recent valid
 *                 record of the key (latest round, last line);
 *              2. otherwise v2 records of phase "final": the last valid one
 *                 of the key (keys without one have no final);
 *              3. otherwise the candidate the records show adopted last:
 *                 the parent_id of a record of the latest round whose parent
 *                 has a valid record in an earlier round (a round builds on
 *                 the version adopted before it; the later line wins a tie),
 *                 as in 1;
 *              4. otherwise no answer: -1 with errno ESRCH (the caller asks
 *                 for --final). Never the smallest duration over all
 *                 candidates: a geometric mean of per-key minima from
 *                 different kernels is a result no single kernel achieves
 *                 and can never show a regression.
 *              Keys the final candidate never measured have no final
 *              (no silent fallback to another candidate).
 *   final_us   the final figure (stats/final.h): the median of the final
 *              candidate's runs of the key (its valid records outside round
 *              0: the rounds that measured it and its final confirmation
 *              runs), never its latest or best record alone; for phase
 *              "final" finals, the runs of the final record's candidate.
 *   speedup    baseline / final_us; change = (final_us - baseline) / baseline.
 *   regression speedup < 1 (shown, never hidden).
 * Geometric means are exp(mean(log speedup)) over the keys that have both
 * a baseline and a final; the geometric-mean latency change is
 * 1 / geomean_speedup - 1 (the geomean of final/baseline, minus 1).
 * Invalid records (l0_pass false) never count.
 */
#ifndef TLPERF_SPEEDUP_H
#define TLPERF_SPEEDUP_H

#include <stddef.h>

#include "stats/reckeys.h"
#include "model/records.h"

enum stats_final_source {
	STATS_FINAL_NONE = 0,   /* no final for the key */
	STATS_FINAL_NAMED,      /* the named final candidate's record */
	STATS_FINAL_PHASE,      /* a v2 phase "final" record */
	STATS_FINAL_BEST,       /* unused since the final is one candidate's (JSON name kept) */
	STATS_FINAL_ADOPTED     /* the candidate the records show adopted last */
};

/* "none", "named", "final", "best", "adopted". */
const char *stats_final_source_name(enum stats_final_source s);

struct stats_speedup_key {
	size_t key;                     /* index into ks.v */
	const char *dispatch;           /* borrowed */
	const char *workload;           /* borrowed */
	const struct record *baseline;  /* NULL when the key has no valid round-0 record */
	const struct record *final;     /* the final candidate's latest record, NULL when none */
	enum stats_final_source source; /* how final was chosen */
	double final_us;                /* the final figure (median of nruns runs), NAN none */
	size_t nruns;                   /* runs behind final_us */
	double speedup;                 /* baseline / final, NAN when either is missing */
	double change;                  /* (final - baseline) / baseline, NAN likewise */
	int regression;                 /* speedup < 1 */
};

struct stats_speedup_group {
	const char *dispatch;           /* borrowed */
	size_t first;                   /* index of the dispatch's first key */
	size_t nkeys;                   /* keys of the dispatch */
	size_t nused;                   /* of which with a speedup */
	size_t nregressions;
	double geomean_speedup;         /* NAN when nused == 0 */
	double geomean_change;          /* 1 / geomean_speedup - 1 */
};

/* What one key keeps while records stream past (copies: ids only, the
 * other strings of a kept record are NULL). */
struct stats_speedup_kept {
	struct record base, best, phase, named;
	unsigned char has_base, has_best, has_phase, has_named;
	double *runs;                   /* the final candidate's runs (durations, file
					   order); malloc'd */
	size_t nruns, capruns;
};

/* A candidate's runs of one key (stats/final.h), durations in file order. */
struct stats_speedup_runs {
	double *v;                      /* malloc'd */
	size_t n, cap;
};

struct stats_speedup {
	struct stats_keyset ks;         /* owned */
	struct stats_speedup_kept *kept; /* owned, one per key: what keys[] point into */
	struct stats_speedup_key *keys; /* one per key, order of first appearance */
	size_t nkeys;
	struct stats_speedup_group *groups; /* one per dispatch, order of first appearance */
	size_t ngroups;
	size_t nused;                   /* keys with a speedup */
	size_t nregressions;
	double geomean_speedup;         /* over every key with a speedup; NAN when none */
	double geomean_change;          /* 1 / geomean_speedup - 1 */
	const char *final_candidate;    /* borrowed: the inferred final (hint or adopted),
					   else NULL */
	int hint;                       /* final_hint: 0 none, 1 named a candidate exactly
					   (or by file stem), 2 by a prefix, -1 matched none */
};

/* A candidate seen while streaming without a final candidate: what the
 * lineage needs, and its latest valid record per key (ids only). */
struct stats_speedup_cand {
	const char *id;                 /* interned id of the records */
	long min_valid_round;           /* LONG_MAX when no valid record */
	long max_child_round;           /* latest round of a record naming it parent, -1 none */
	size_t child_seq;               /* order of that record, for ties */
	size_t *keys;                   /* key indexes of rec[] */
	struct record *rec;             /* its latest valid record of each */
	struct stats_speedup_runs *runs; /* its runs of each */
	size_t n, cap;
};

/* Streaming: begin, add every record in file order (valid or not), then
 * finish. Memory grows with the number of keys, and with 8 bytes per run
 * (valid record outside round 0) of the final candidate; without a final
 * candidate with candidates x keys and 8 bytes per valid record (the
 * lineage keeps each candidate's latest record and runs per key until the
 * final one is known). The
 * strings of the records added (their interned ids) are borrowed: keep
 * their pool alive while *out is used. add returns 0, -1 when memory ran
 * out (then abort). finish empties a and returns what compute returns. */
struct stats_speedup_acc {
	struct stats_keyset ks;
	struct stats_speedup_kept *kept;
	size_t cap;
	const char *final_candidate;
	struct stats_speedup_cand *cands; /* only when final_candidate is NULL */
	size_t ncands, capc, seq;
	struct stats_keyset cand_ids;   /* cands by id (as keys (id, "")), in the same order */
	int any_phase;                  /* a valid v2 phase "final" record was seen */
	const char *final_hint;         /* set after begin (final_candidate NULL): a name
					   from an opt_log's Final Summary, resolved at
					   finish against the candidates seen: equal, equal
					   to its file stem, else the longest candidate id
					   that prefixes it before a character other than a
					   letter or digit ("v2" for "v2_c-reorder"); the
					   records' rules when none matches */
};
void stats_speedup_begin(struct stats_speedup_acc *a, const char *final_candidate);
int stats_speedup_add(struct stats_speedup_acc *a, const struct record *r);
int stats_speedup_finish(struct stats_speedup_acc *a, struct stats_speedup *out);
void stats_speedup_abort(struct stats_speedup_acc *a);

/* The candidate the records of rs show adopted last (rule 3 above), NULL
 * when none. Borrowed from rs. */
const char *stats_last_adopted(const struct records *rs);

/* Computes the speedups of rs (the same streaming steps over rs).
 * final_candidate may be NULL.
 * Returns 0; -1 with errno ENOENT when final_candidate names no candidate
 * with a valid record in rs, ESRCH when final_candidate is NULL and the
 * final cannot be told (rule 4), ENOMEM on allocation failure (then *out is
 * empty and safe to release). *out owns its arrays (stats_speedup_release)
 * and borrows the ids of rs: keep rs alive. The records keys[] point to
 * are copies in kept[]: ids only (artifact_path, timestamp... are NULL). */
int stats_speedup_compute(const struct records *rs, const char *final_candidate,
			  struct stats_speedup *out);
void stats_speedup_release(struct stats_speedup *s);

#endif
