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
 * the loop driver. The capture it fills is model/msprof.h; its summary
 * (medians, MAD) is stats/msprof_summary.h.
 */
#ifndef TLPERF_IO_MSPROF_H
#define TLPERF_IO_MSPROF_H

#include <stddef.h>

#include "model/msprof.h"
#include "stats/msprof_summary.h"

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

#endif
