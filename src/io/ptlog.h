/* io/ptlog.h: parsing perf_tuning/ prose: optimization logs, perf_log.md, reports.
 * The structs they fill are in model/ptlog.h. */
#ifndef TLPERF_IO_PTLOG_H
#define TLPERF_IO_PTLOG_H

#include <stddef.h>

#include "model/ptlog.h"

/* Copies len bytes of data and splits them. Returns 0, -1 on allocation
 * failure. A NUL byte inside the text ends its line's visible content. */
int ptlog_text_split(struct ptlog_text *t, const char *data, size_t len);

/* Parses an optimization log. Returns 0, -1 on allocation failure (the
 * struct is then released). */
int ptlog_parse(struct ptlog *log, const char *data, size_t len);

int ptperf_parse(struct ptperf *p, const char *data, size_t len);

#endif
