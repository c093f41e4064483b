/* io/ptjson.h: parsing a perf_tuning/ results JSON file into struct ptjson.
 * The structs they fill are in model/ptjson.h. */
#ifndef TLPERF_IO_PTJSON_H
#define TLPERF_IO_PTJSON_H

#include <stddef.h>

#include "model/ptjson.h"

/* Parses len bytes of data (need not be NUL-terminated). Infinity and
 * -Infinity become +-1e999 (strtod gives +-HUGE_VAL), NaN becomes null.
 * Returns 0 when parsed, 1 when the text is not JSON (root NULL, err_line
 * set), -1 on allocation failure. Release with ptjson_release. */
int ptjson_parse(struct ptjson *j, const char *data, size_t len);

#endif
