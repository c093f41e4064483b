/* ab_source.h: where tlab reads a run's launch durations from
 * (`--source msprof|stdout|csv:GLOB:COLUMN`).
 *
 *   msprof            msprof op wraps the bench; Task Duration(us) of its
 *                     OPPROF tree (src/msprof.h). The default.
 *   stdout            the bench itself prints one duration per launch in
 *                     microseconds: one number per line (blank lines and
 *                     lines starting with '#' are skipped), or one JSON
 *                     array of numbers. Anything else is an error naming
 *                     the file and line. Chatter belongs on stderr.
 *   csv:GLOB:COLUMN   the bench (or a profiler around it, e.g. an Nsight
 *                     Systems export) writes CSV files; after the run every
 *                     file matching GLOB (relative GLOBs are taken inside
 *                     the run's output directory, exported to the bench as
 *                     $TLAB_OUTPUT) is read with csvtab and the column whose
 *                     header is COLUMN gives one duration per row, in
 *                     microseconds; missing cells (NA, empty) are skipped.
 *                     The column name may contain ':' (only the first ':'
 *                     after GLOB splits).
 */
#ifndef TLPERF_AB_SOURCE_H
#define TLPERF_AB_SOURCE_H

#include <stddef.h>

enum absource_kind {
	ABSOURCE_MSPROF = 0,  /* msprof op around the bench (default) */
	ABSOURCE_STDOUT = 1,  /* durations printed by the bench */
	ABSOURCE_CSV = 2      /* a column of CSV files the run wrote */
};

struct absource {
	enum absource_kind kind;
	char *glob;    /* ABSOURCE_CSV: file pattern (malloc'd) */
	char *column;  /* ABSOURCE_CSV: header name (malloc'd) */
};

/* Parses a --source value into *s (which it initialises). Returns 0, or -1
 * with a message in err (unknown source, empty GLOB or COLUMN, no memory). */
int absource_parse(const char *spec, struct absource *s, char *err, size_t errlen);

/* Frees what *s owns; safe on a parsed or zeroed struct. */
void absource_release(struct absource *s);

/* "msprof", "stdout" or "csv". */
const char *absource_name(const struct absource *s);

/* Durations from a bench's captured stdout text[0..len-1] (named `name` in
 * messages): one number per line or a JSON array. Values must be finite and
 * > 0. Returns 0 with *out (malloc'd, caller frees) and *n >= 1, or -1 with
 * a message naming name and line (no numbers at all is an error too). */
int absource_parse_durations(const char *text, size_t len, const char *name, double **out,
			     size_t *n, char *err, size_t errlen);

/* Reads the file path (at most 64 MiB) and parses it as above. */
int absource_read_stdout(const char *path, double **out, size_t *n, char *err, size_t errlen);

/* Reads every file matching glob (inside dir when glob is relative) and
 * collects column `column`, files in sorted name order. Returns 0 with
 * *out (malloc'd) and *n >= 1, or -1 with a message (no file matched,
 * a file without the column, unreadable CSV, a bad number: file and line). */
int absource_read_csv(const char *dir, const char *glob, const char *column, double **out,
		      size_t *n, char *err, size_t errlen);

/* Before a run of a non-profiler source: creates the run's directory
 * run_dir (its parent must exist; an existing one is reused), writes
 * "run_dir/stdout.txt" (where the stdout source captures the bench's
 * stdout) into outfile, and exports TLAB_OUTPUT=run_dir,
 * TLAB_LAUNCH_COUNT, TLAB_WARM_UP, TLAB_ARM and TLAB_PAIR into our
 * environment, which the bench inherits. Returns 0, or -1 with a message. */
int absource_prepare_run(const char *run_dir, char arm, long pair, long launch_count,
			 long warm_up, char *outfile, size_t outlen, char *err, size_t errlen);

#endif
