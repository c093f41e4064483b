/* tlab_result.h: what a tlab verdict says, read back from the JSON object
 * tlab prints (schema tlperf/tlab/v1, docs/tlab.md "Which fields to read"):
 * the one reader of that output, so the loop and any other caller read the
 * decision the same way. */
#ifndef TLPERF_TLAB_RESULT_H
#define TLPERF_TLAB_RESULT_H

#include <stddef.h>

struct tlab_result {
	char verdict[32];   /* B_better, A_better, tie or inconclusive */
	char protocol[16];  /* "fast", "seq" or "ref" (tlab_protocol) */
	double gain;        /* B's gain, > 0 when B is faster (tlab's "gain") */
	double gain_lo;     /* seq: the gain's interval; NAN under ref */
	double gain_hi;
	double p;           /* ref: the sign test p (unrounded); NAN under seq,
			     * whose decision is the gain's interval */
	double a_us, b_us;  /* merged medians (unrounded) */
	long pairs;         /* pairs measured */
};

/* Reads the tlab JSON object in path into *r. Returns 0 when it holds a
 * verdict and B's gain; -1 when the file is missing, is not JSON, or is an
 * error object ({"error": ...}) or lacks either (err then says why, when
 * err is not NULL). */
int tlab_result_read(const char *path, struct tlab_result *r, char *err, size_t errlen);

/* tlab's JSON summary in path as the seeds want it pasted beside a
 * decision: the object tlab printed without "runs" (the runs stay in the
 * work directory's runs.jsonl), indented. Returns malloc'd text (no final
 * newline), caller frees; NULL when path holds no verdict or out of memory. */
char *tlab_result_summary(const char *path);

#endif
