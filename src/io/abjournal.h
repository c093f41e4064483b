/* abjournal.h: reads tlab's runs.jsonl journals (model/abjournal.h) for
 * the gate. The journal is tlab's (src/run/tlab_run.h documents how it is
 * written); this reader keeps what a verdict needs, line by line. */
#ifndef TLPERF_IO_ABJOURNAL_H
#define TLPERF_IO_ABJOURNAL_H

#include <stddef.h>

#include "model/abjournal.h"

/* The round an A/B directory's name gives: the first number after "ab_"
 * (ab_r3_c1, ab_round3, ab_3: 3); -1 when there is none or name does not
 * start with "ab_". */
long abjournal_round_of(const char *name);

struct cJSON;

/* The fields of one journal line that make it a run (arm "A"/"B", pair a
 * whole number >= 1, order 1 or 2, median_us > 0), checked in that order,
 * into *r (line untouched). Returns NULL, or a static reason naming the
 * first bad field ("\"pair\" must be a whole number >= 1"). tlab's own
 * journal loader (run/tlab_run.h) uses it too. */
const char *abjournal_run_of(const struct cJSON *o, struct abjournal_run *r);

/* Runs kept per journal (a session has at most a few hundred). */
#define ABJOURNAL_MAX_RUNS 10000

/* Appends the runs of a journal's text (len bytes, one JSON object per
 * line: "arm" "A"/"B", "pair" >= 1, "order" 1/2, "median_us" > 0) to j.
 * A line that is not JSON is counted in j->damaged (what a crash leaves);
 * the first line that is JSON but not such a run goes to j->bad_line and
 * j->bad, and so does the line after ABJOURNAL_MAX_RUNS runs (the rest is
 * not kept). Returns 0, -1 on allocation failure. */
int abjournal_parse(const char *text, size_t len, struct abjournal *j);

#endif
