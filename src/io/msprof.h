/* msprof.h: reading what the Ascend profiler writes.
 *
 * Two kinds of input, both found under one directory:
 *  - `msprof op --output=DIR`: DIR/OPPROF_<ts>_<16 letters>/ holding one of
 *    three layouts: flat (one launch captured: OpBasicInfo.csv and
 *    <Metric>.csv at the root), per launch (<kernel>/<n>/OpBasicInfo_<ts>.csv)
 *    or per device (device<N>/<kernel>/<n>/...). One OpBasicInfo data row is
 *    one launch; the metric CSVs next to it describe the same launch, one
 *    row per core or sub-core. Launch directories sort numerically.
 *  - application-level `msprof`: PROF_x/mindstudio_profiler_output/
 *    op_summary_<ts>.csv (or PROF_x/device_<id>/summary/op_summary_<...>.csv
 *    when no merged file exists): one row per launch of every operator.
 *
 * The reader takes per-launch Task Duration(us) and, when the metric CSVs
 * are there, per-launch summaries of AICore utilisation and main-memory
 * bandwidth averaged over block rows. Used by `tlperf msprof`, `tlab` and
 * the loop driver.
 */
#ifndef TLPERF_MSPROF_H
#define TLPERF_MSPROF_H

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

enum msprof_rc {
	MSPROF_OK = 0,      /* at least one matching launch with a duration */
	MSPROF_NODATA = 1,  /* readable, but no matching launch with a duration */
	MSPROF_EIO = 2,     /* a directory or file could not be read */
	MSPROF_EFORMAT = 3  /* a file is there but malformed (no Task Duration(us) column...) */
};

/* Reads every OPPROF_x tree (depth <= 4 below it, dump/ skipped) and
 * op_summary file found in dir. dir may be the --output directory, one
 * OPPROF_x or PROF_x directory, or a directory above PROF_x. kernel_pat
 * (NULL = everything) filters launches by msprof_kernel_match on the
 * kernel directory name or the Op Name. *c must be initialised.
 * Returns an msprof_rc. On anything but MSPROF_OK, err holds one line
 * naming the directory (or file and line) and what was looked for; *c may
 * hold the partial result and must still be released. */
int msprof_read(const char *dir, const char *kernel_pat, struct msprof_capture *c,
		char *err, size_t errlen);

/* Reads one CSV file on its own, deciding by its header what it is:
 * OpBasicInfo (Op Name + Task Duration(us), no Task ID: one launch per
 * row), op_summary (Task ID/Task Start Time columns: one launch per row,
 * filtered by kernel_pat on Op Name), or a metric CSV (block_id / aic_time
 * columns: appended as one launch with duration NAN and the metric
 * summaries filled in, so it can be inspected). Same return codes and
 * error reporting as msprof_read. */
int msprof_read_file(const char *path, const char *kernel_pat, struct msprof_capture *c,
		     char *err, size_t errlen);

/* msprof's --kernel-name rule: alternatives separated by '|', each
 * matched as a prefix of name, '*' matching any run of characters.
 * "main" matches "main_kernel_mix_aic"; "add|abs" matches "abs_x";
 * "*mix*" matches "main_kernel_mix_aic". NULL or "" matches everything.
 * Returns 1 or 0. */
int msprof_kernel_match(const char *pattern, const char *name);

/* The finite durations of c, in launch order, into a malloc'd array
 * (caller frees) of *n values. Returns NULL with *n = 0 when there are
 * none (or on allocation failure). */
double *msprof_durations(const struct msprof_capture *c, size_t *n);

/* Summary over launches; fields are NAN when no launch had the value. */
struct msprof_summary {
	size_t launches;              /* launches with a duration */
	double median_us, mad_us, min_us, max_us, mean_us;
	double aic_time_us;           /* median over launches of the per-launch means */
	double aiv_time_us;
	double main_mem_read_bw_gbs;
	double main_mem_write_bw_gbs;
	double max_ratio;             /* median over launches of the busiest pipe's ratio */
	char max_ratio_name[64];      /* that pipe's column in the last launch, "" if none */
};

/* Fills *s from c. Returns 0, or -1 when c has no duration. */
int msprof_summarize(const struct msprof_capture *c, struct msprof_summary *s);

#endif
