/* recargs.h: what the records-statistics commands (plateau, speedup, table,
 * winner) share on the command line: loading RECORDS with the documented
 * handling of bad input, and small output helpers.
 *
 * Bad input policy (README "tlperf plateau, speedup, table, winner"):
 *   - a RECORDS path that cannot be read: "tlperf: error: cannot read
 *     records 'PATH': <strerror>", exit 2;
 *   - an invalid line (not JSON, schema violation, over 1 MiB): reported as
 *     "PATH:LINE: warning: <problem> (line skipped)" on stderr and left
 *     out of every statistic; with --strict the same lines are errors and
 *     the command exits 1 without printing a result.
 */
#ifndef TLPERF_RECARGS_H
#define TLPERF_RECARGS_H

#include <stdio.h>

#include "records.h"

/* Loads path into *rs (initialised here) under the policy above. Returns
 * CLI_OK, CLI_FAIL (strict and invalid lines) or CLI_USAGE (unreadable;
 * also on allocation failure). *rs must be released by the caller in
 * every case. */
int recargs_load(const char *path, int strict, struct records *rs);

/* Writes s as one Markdown table cell: '|' escaped, control characters
 * and newlines as spaces, backslashes doubled. */
void recargs_md_cell(FILE *f, const char *s);

/* "v1", "v2" or "unknown". */
const char *recargs_contract_name(enum records_contract c);

#endif
