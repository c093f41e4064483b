/* reckeys.h: the keys of a records set and the per-key incumbent, shared by
 * the records statistics (plateau, speedup, cmptable, winner).
 *
 * A key is (dispatch, workload): dispatch_path/workload in v1,
 * kernel_id/workload_id in v2 (struct record already maps both contracts
 * onto .dispatch and .workload). Pure: no I/O.
 *
 * Pointers handed out (key strings, records) point into the struct records
 * the set was built from: keep that alive and unchanged while using them.
 */
#ifndef TLPERF_RECKEYS_H
#define TLPERF_RECKEYS_H

#include <stddef.h>

#include "model/records.h"

/* "No such index", returned by lookups. */
#define STATS_NOKEY ((size_t)-1)

struct stats_key {
	const char *dispatch;   /* borrowed from the records */
	const char *workload;   /* borrowed from the records */
};

struct stats_keyset {
	struct stats_key *v;    /* distinct keys, in order of first appearance */
	size_t n;               /* number of keys */
	size_t cap;             /* allocated keys */
	size_t *of;             /* of[i]: key index of record i (rs->v[i]); NULL
				 * for a set grown with stats_keyset_add */
	size_t nrec;            /* records the set was built from (0 when grown) */
	size_t *slot;           /* private hash table: key index + 1, 0 = empty */
	size_t nslot;           /* power of two, twice cap */
};

/* Builds the key set of rs (every record, valid or not). Lookups are O(1)
 * on average, so large files stay linear. Returns 0, or -1 on allocation
 * failure (ks is then empty and safe to release). */
int stats_keyset_build(const struct records *rs, struct stats_keyset *ks);
void stats_keyset_release(struct stats_keyset *ks);
/* Grows a set one key at a time (start from a zeroed struct): the index
 * of (dispatch, workload), added when new, or STATS_NOKEY when memory ran
 * out. The strings are borrowed (interned ids: keep their pool alive). */
size_t stats_keyset_add(struct stats_keyset *ks, const char *dispatch, const char *workload);

/* Index of key (dispatch, workload), or STATS_NOKEY. */
size_t stats_keyset_find(const struct stats_keyset *ks, const char *dispatch,
			 const char *workload);

/* 1 when the user's key text names key k: either the workload alone
 * ("w1") or dispatch "/" workload ("t_kernel::main/w1"). The text is
 * compared whole, so slashes inside either part are harmless. */
int stats_key_matches(const struct stats_key *k, const char *text);

/* For every key, the valid record (l0_pass true) with the smallest duration
 * among records of round < before; ties go to the earlier line. When
 * only_candidate is not NULL, only that candidate's records count (then
 * the LAST valid record of the latest such round wins: the incumbent's most
 * recent measurement). best[] must hold ks->n pointers; keys without such a
 * record get NULL. */
void stats_best_before(const struct records *rs, const struct stats_keyset *ks, long before,
		       const char *only_candidate, const struct record **best);

/* The round-0 baseline of every key: the first valid record of round 0
 * (v2: phase "baseline" preferred when present). base[] holds ks->n
 * pointers; NULL when the key has none. */
void stats_baseline(const struct records *rs, const struct stats_keyset *ks,
		    const struct record **base);

/* 1 for a v2 record of phase "final" (the closing re-measurement, which is
 * not an experiment branch). */
int stats_record_is_final(const struct record *r);

/* Streaming digest of a records file for the commands of one round N
 * (table, winner): it keeps the records of round N and, per key, the first
 * record, the smallest valid duration before N and (with incumbent_id)
 * that candidate's latest valid record before N; finish hands them over
 * in file order as a struct records on which stats_cmptable_build and
 * stats_winner_choose for round N give what they give on the whole file.
 * Memory: the keys and round N, never the other records. add returns 0,
 * -1 when memory ran out; release frees what finish did not take. */
struct stats_digest_slot;
struct stats_round_digest {
	long round;
	const char *incumbent_id;   /* borrowed, may be NULL */
	struct stats_keyset ks;     /* keys so far (borrows the added ids) */
	struct stats_digest_slot *slot; /* one per key */
	size_t cap;
	struct records keep;        /* the records of round N (copies) */
};
void stats_digest_begin(struct stats_round_digest *d, long round, const char *incumbent_id);
int stats_digest_add(struct stats_round_digest *d, const struct record *r);
/* Moves the kept records into *out (initialised here; release it with
 * records_release). Returns 0, -1 when memory ran out. */
int stats_digest_finish(struct stats_round_digest *d, struct records *out);
void stats_digest_release(struct stats_round_digest *d);

/* Relative change of d against the reference ref: (d - ref) / ref.
 * Negative is faster. NAN when either is not a positive finite number. */
double stats_rel_change(double d, double ref);

#endif
