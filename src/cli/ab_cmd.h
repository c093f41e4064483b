/* ab_cmd.h: what `tlab` (cli/cmd_ab.c) shares with its output
 * (cli/ab_output.c): the options, the session's runs, the decision, and
 * the three ways a session ends on stdout or in a file. Internal to the
 * tlab command. */
#ifndef TLPERF_AB_CMD_H
#define TLPERF_AB_CMD_H

#include <stddef.h>
#include <stdint.h>

#include "io/ab_source.h"
#include "run/tlab_run.h"
#include "stats/ab.h"
#include "stats/ab_ci.h"
#include "stats/abseq.h"

enum ab_protocol {
	AB_PROTOCOL_REF = 0,  /* the reference rule over a fixed number of pairs */
	AB_PROTOCOL_SEQ = 1   /* sequential (stats/abseq.h) */
};

struct ab_opts {
	struct abrun_config run;   /* what one run needs */
	enum ab_protocol protocol;
	const char *protocol_name;
	long pairs;                /* pairs to run (ref: exactly this many) */
	double noise;              /* ref's tie margin (AB_REF_NOISE unless --noise) */
	int noise_given;           /* --noise on the command line: seq's margin too */
	double ci_level;           /* requested CI coverage */
	int resume;
	int accept_lost;           /* --accept-lost-runs: resume over damaged journal lines */
	struct abseq_params seq;   /* seq: abseq_params_default, then the options given */
	uint64_t seed;             /* seq: order draws */
	int seed_given;
	int pairs_given;           /* --pairs on the command line */
	struct absource source;    /* --source (owned) */
	const char *source_arg;    /* --source as given ("msprof" by default), for the journal */
	const char *plot;          /* --plot FILE.svg, NULL for none */
};

/* The runs of the session: recorded ones first (when resuming), then new. */
struct ab_session {
	struct abrun_run *v;
	size_t n, cap;
	size_t resumed;      /* how many came from runs.jsonl */
	size_t lost;         /* damaged lines of runs.jsonl: runs whose record is lost */
	long first_lost;     /* the line of the first of them, 0 if none */
	double *a, *b;       /* run medians by pair index (pair - 1); NAN = missing */
	int *b_first;        /* by pair index: 1 when B ran first (from the runs' order) */
};

struct ab_decision {
	int done;                   /* stop measuring: the verdict stands */
	enum ab_verdict verdict;
	struct ab_ref_result ref;   /* the reference rule's figures */
	struct stats_ci ci;         /* interval of the paired relative change */
	int have_ci;
	struct abseq_result seq;    /* seq: the protocol's figures */
	int state_a[ABSEQ_MAX_PAIRS], state_b[ABSEQ_MAX_PAIRS]; /* seq: each run's state */
};

/* The verdict as one JSON object on stdout (docs/tlab.md "Output"; schema
 * docs/schemas/tlab.v1.json): under ref the drop-in fields of ab_test.py
 * and ours; under seq the same data fields, seq's decision, and the
 * reference rule's decision for comparison in "ref". */
void ab_cmd_print_verdict(const struct ab_opts *o, const struct ab_session *s, size_t npairs,
			  const struct ab_decision *d);

/* {"error": msg, ...} on stdout (scripts read stdout) and msg on stderr;
 * log names the failed run's log (NULL: none); s may be NULL. */
void ab_cmd_print_error_json(const struct ab_opts *o, const struct ab_session *s, const char *msg,
			     const char *log);

/* --plot: the runs, the estimate with its interval, the verdict in the
 * title (report/svg.h). Returns 0, or -1 with errno set. */
int ab_cmd_write_plot(const struct ab_opts *o, const struct ab_session *s, size_t npairs,
		      const struct ab_decision *d);

#endif
