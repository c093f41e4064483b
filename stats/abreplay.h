/* abreplay.h: a tlab verdict recomputed from the runs of its journal
 * (model/abjournal.h), with the protocol and settings the session used:
 * what tlab decided over the same pairs, with the same rule (stats/ab.h
 * for ref, stats/abseq.h for seq and seq-v1). Pure. */
#ifndef TLPERF_ABREPLAY_H
#define TLPERF_ABREPLAY_H

#include <stddef.h>

#include "model/abjournal.h"
#include "stats/ab.h"

enum ab_replay_protocol {
	AB_REPLAY_REF = 0,  /* ab_test.py's rule over the pairs (tlab --protocol ref) */
	AB_REPLAY_SEQ = 1,  /* tlab's sequential rule (--protocol seq) */
	AB_REPLAY_SEQ_V1 = 2, /* the rule seq replaced (--protocol seq-v1, and seq before it) */
	AB_REPLAY_FAST = 3  /* tlab's rule for the runs users have (--protocol fast) */
};

struct ab_replay_opts {
	enum ab_replay_protocol protocol;
	double noise;       /* tie margin (noise_threshold), 0.03 when <= 0 */
	size_t min_pairs;   /* seq; 0: default */
	size_t max_pairs;   /* seq; 0: default */
	double min_gain;    /* seq; < 0: default */
};

/* tlab's name of protocol p: "ref", "seq", "seq-v1", "fast". */
const char *stats_ab_replay_protocol_name(enum ab_replay_protocol p);

/* The protocol tlab calls NAME (one of the names above), or -1. */
int stats_ab_replay_protocol_parse(const char *name);

/* Defaults: ref, noise 0.03, seq's defaults. */
void stats_ab_replay_opts_init(struct ab_replay_opts *o);

struct ab_replay {
	size_t npairs;          /* complete pairs 1..npairs used (A and B both recorded) */
	enum ab_verdict verdict;
	double gain;            /* B's gain (> 0 faster): ref (medA - medB) / medA, seq its estimate */
};

/* Recomputes the verdict over pairs 1..N of runs[0..n) (the first run of
 * each (pair, arm) counts, as tlab's resume does; N the last pair before
 * the first incomplete one). seq reads each pair's order from the runs.
 * Returns 0, or -1 when there is no complete pair, a pair count beyond
 * seq's max_pairs, or the settings are invalid. */
int stats_ab_replay(const struct abjournal_run *runs, size_t n, const struct ab_replay_opts *o,
		    struct ab_replay *out);

#endif
