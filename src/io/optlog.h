/* io/optlog.h: parsing opt_log.md (and suppression comments) into struct optlog.
 * The structs they fill are in model/optlog.h. */
#ifndef TLPERF_IO_OPTLOG_H
#define TLPERF_IO_OPTLOG_H

#include <stddef.h>
#include <stdio.h>

#include "model/optlog.h"

/* Parses the file at path into *lg (initialised by the caller), read whole
 * (up to 32 MiB; the rest is a problem) and rendered (model/optlog.h). Returns 0,
 * or -1 when the file cannot be opened or read (errno set; *lg keeps what
 * was read and must still be released). */
int optlog_load(const char *path, struct optlog *lg);
/* The same from an open stream, which is closed here (also on error). */
int optlog_load_stream(FILE *f, struct optlog *lg);

/* Same from a memory buffer (tests, fuzzers). Returns 0, -1 on allocation
 * failure. */
int optlog_load_buffer(const char *buf, size_t len, struct optlog *lg);

/* Scans text[0..len) (NUL not required) for suppressions only (used for
 * perf_feedback.md). Appends to
 * lg->suppressions. Returns 0, -1 on allocation failure. */
int optlog_scan_suppressions(const char *text, size_t len, long line, struct optlog *lg);

#endif
