/* io/records.h: reading perf_records.jsonl into struct records.
 * The structs they fill are in model/records.h. */
#ifndef TLPERF_IO_RECORDS_H
#define TLPERF_IO_RECORDS_H

#include <stddef.h>

#include "model/records.h"

/* Parses and validates one line (without its newline) into *out.
 * Returns 0 when the line is a valid record of either contract; -1 when
 * not, with a message in err (always NUL-terminated). Blank lines are the
 * caller's business. On success *out owns malloc'd strings: release with
 * record_release. */
int record_parse(const char *text, size_t len, long line, struct record *out,
		 char *err, size_t errlen);

/* Reads path line by line in bounded memory (lines over 1 MiB are a
 * problem, not a crash). Valid lines go to *rs, every invalid line to
 * *ps (ps may be NULL to ignore them). Blank lines are skipped; a file
 * with no non-blank line yields no records and no problem.
 * Returns 0, or -1 when the file cannot be opened or read (errno set). */
int records_load(const char *path, struct records *rs, struct records_problems *ps);

/* Same, from a memory buffer (used by tests and fuzzers). */
int records_load_buffer(const char *buf, size_t len, struct records *rs,
			struct records_problems *ps);

/* 1 when s is an ISO 8601 date-time: YYYY-MM-DD[T ]hh:mm[:ss[.frac]][Z|+hh:mm|-hh:mm],
 * or a date alone. */
int records_is_iso8601(const char *s);

#endif
