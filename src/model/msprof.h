/* msprof.h: what the msprof reader (io/msprof.h) finds: the layout of a
 * capture and its launches, each with its Task Duration(us) and the
 * per-launch means of the metric CSVs. Plain structs; no I/O.
 */
#ifndef TLPERF_MODEL_MSPROF_H
#define TLPERF_MODEL_MSPROF_H

#include <stddef.h>

enum msprof_layout {
	MSPROF_LAYOUT_NONE = 0,       /* nothing found */
	MSPROF_LAYOUT_FLAT = 1,       /* OPPROF_x/OpBasicInfo.csv */
	MSPROF_LAYOUT_PER_LAUNCH = 2, /* OPPROF_x/<kernel>/<n>/OpBasicInfo_<ts>.csv */
	MSPROF_LAYOUT_PER_DEVICE = 3, /* OPPROF_x/device<N>/<kernel>/<n>/... */
	MSPROF_LAYOUT_OP_SUMMARY = 4, /* PROF_x/mindstudio_profiler_output/op_summary_<ts>.csv */
	MSPROF_LAYOUT_MIXED = 5       /* several of the above under one directory */
};

/* "flat", "per-launch", "per-device", "op-summary", "mixed", "none". */
const char *msprof_layout_name(enum msprof_layout l);

/* Mean over block rows of one metric column; rows with NA are left out. */
struct msprof_metric {
	char *name;    /* header name, e.g. "aiv_vec_ratio" */
	double mean;   /* NAN when no row had a value */
	size_t rows;   /* rows that had a value */
};

struct msprof_launch {
	char *kernel;         /* kernel directory (<kernel>/<n>), else the Op Name */
	char *op_name;        /* Op Name cell; NULL when the column is absent */
	char *op_type;        /* Op Type / OP Type cell; NULL when absent */
	int device;           /* device<N> / Device Id / Device_id; -1 when unknown */
	long index;           /* launch index <n>; flat: 0; op_summary: per-name row count */
	double duration_us;   /* Task Duration(us); NAN when the cell is NA/N/A/empty */
	double block_dim;     /* Block Dim / Block Num; NAN when missing */
	char *source;         /* the file the duration came from */
	long line;            /* its line in that file */
	/* From the metric CSVs of this launch (msprof op only); NAN when absent.
	 * "Averaged over block rows": the mean over the rows that carry a value. */
	double aic_time_us;           /* aic_time(us), cube rows */
	double aiv_time_us;           /* aiv_time(us), vector rows */
	double main_mem_read_bw_gbs;  /* aic_/aiv_main_mem_read_bw(GB/s), Memory.csv */
	double main_mem_write_bw_gbs; /* aic_/aiv_main_mem_write_bw(GB/s), Memory.csv */
	struct msprof_metric *ratios; /* every *_ratio column of PipeUtilization (fractions) */
	size_t nratios;
};

struct msprof_capture {
	char *dir;                 /* the directory given to msprof_read */
	enum msprof_layout layout; /* what was found */
	size_t nroots;             /* OPPROF_x / PROF_x directories read */
	char **roots;              /* their paths, in the order read (nroots of them) */
	struct msprof_launch *v;   /* matching launches, in order: root by name, device,
				      kernel, launch index numerically; op_summary rows in file order */
	size_t n;
	size_t n_missing;          /* matching launches whose duration was NA */
	size_t n_filtered;         /* launches left out by the kernel pattern */
	size_t n_metric_problems;  /* metric CSVs that could not be read (metrics left NAN) */
	char *first_problem;       /* the first such problem, file and reason; NULL if none */
};

/* Zeroes c: an empty capture, ready for msprof_read. */
void msprof_capture_init(struct msprof_capture *c);
/* Frees everything the capture owns and re-initialises it. */
void msprof_capture_release(struct msprof_capture *c);

/* The finite durations of c, in launch order, into a malloc'd array
 * (caller frees) of *n values. Returns NULL with *n = 0 when there are
 * none (or on allocation failure). */
double *msprof_durations(const struct msprof_capture *c, size_t *n);

#endif
