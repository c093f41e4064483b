/* abjournal.h: the A/B work directories of a perf_opt/ tree as the gate
 * reads them: each runs.jsonl that tlab (or `tlperf loop` through it)
 * wrote, its runs, and the JSON summary kept beside it. The reader is
 * io/abjournal.h; the verdict is recomputed by stats/abreplay.h; the rule
 * is gates/s4_ab.c (S4-AB). Plain structs, no I/O.
 *
 * Layouts read (WORKDIR is a directory of perf_opt/ named ab_*, the
 * seed's `perf_opt/ab_<round>`):
 *   perf_opt/ab_<round>/runs.jsonl          tlab --workdir perf_opt/ab_<round>
 *   perf_opt/ab_<round>.json or
 *   perf_opt/ab_<round>/summary.json        the JSON tlab printed (optional)
 *   perf_opt/ab_r<N>_<ID>/<wl>/runs.jsonl   `tlperf loop`: one workdir per workload
 *   perf_opt/ab_r<N>_<ID>/<wl>.json         ... and the JSON beside it
 * The round is the first number of the directory's name after `ab_`
 * (ab_r3_c1, ab_round3, ab_3: 3).
 */
#ifndef TLPERF_MODEL_ABJOURNAL_H
#define TLPERF_MODEL_ABJOURNAL_H

#include <stddef.h>

/* One finished run of a journal line. */
struct abjournal_run {
	long line;          /* line in runs.jsonl */
	char arm;           /* 'A' (incumbent) or 'B' (candidate) */
	long pair;          /* 1-based */
	int order;          /* 1 when the arm ran first in its pair, 2 second */
	double median_us;   /* the run's figure */
	char protocol[8];   /* the rule tlab ran under ("seq", "seq-v1", "ref"), "" when the
			       line does not say (tlab before it wrote one) */
};

struct abjournal {
	char *rel;          /* the work directory under perf_opt/ ("ab_r3_c1/wa"); malloc'd */
	char *file;         /* shown path of its runs.jsonl; malloc'd */
	long round;         /* the round its ab_* name gives, -1 none */
	char *workload;     /* the per-workload subdirectory's name (the loop's), NULL at the top */
	struct abjournal_run *v;
	size_t n, cap;
	size_t damaged;     /* lines that are not JSON (a write cut short), skipped as tlab does */
	long bad_line;      /* first line that is JSON but not a run, 0 none */
	char *bad;          /* why, malloc'd, NULL none */
	char *summary;      /* text of the JSON summary kept with it, malloc'd, NULL none */
	char *summary_file; /* its shown path, malloc'd, NULL none */
};

struct abjournals {
	struct abjournal *v;
	size_t n, cap;
	size_t more;        /* work directories beyond the cap, not read */
};

void abjournal_release(struct abjournal *j);
void abjournals_init(struct abjournals *js);
void abjournals_release(struct abjournals *js);

#endif
