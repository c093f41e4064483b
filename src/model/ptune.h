/* ptune.h: what is read from a first-generation perf_tuning/ folder for
 * `tlperf speedup` and `tlperf audit`: the per-case speedups of its latest
 * bench JSON (the one holding the latest perf_log iteration's candidate
 * figures, else the last by name: baseline < iterN < roundR_dirX <
 * roundR_final). Filled by ptune_speedups (run/gate_perf_tuning.h), which
 * also releases it. Plain structs; no I/O. */
#ifndef TLPERF_MODEL_PTUNE_H
#define TLPERF_MODEL_PTUNE_H

#include <stddef.h>

struct ptune_case {
	char *label;              /* "case 3", a member name, or "#3"; malloc'd */
	double speedup;           /* as the JSON states it (may be inf or NAN) */
};

struct ptune_speedups {
	char *json;               /* file name of the JSON read, malloc'd */
	char *key;                /* the row key read ("speedup"), malloc'd */
	struct ptune_case *v;     /* in file order, malloc'd */
	size_t n;
	size_t nvalid;            /* rows with a finite speedup > 0 */
	double mean;              /* arithmetic mean over the valid rows, NAN when none */
	double geomean;           /* geometric mean over the valid rows, NAN when none */
	double stated_mean;       /* the file's own mean/avg speedup aggregate, NAN when absent */
};

/* Frees what s owns; s is empty afterwards (the means NAN). */
void ptune_speedups_release(struct ptune_speedups *s);

#endif
