/* recargs.h: what the records-statistics commands (plateau, speedup, table,
 * winner) share on the command line: the --json / --strict / --help
 * options, the one RECORDS operand, loading it with the documented handling
 * of bad input, and the JSON and Markdown output helpers.
 *
 * Bad input policy (README "tlperf plateau, speedup, table, winner"):
 *   - a RECORDS path that cannot be read: "tlperf: error: cannot read
 *     records 'PATH': <strerror>", exit 2;
 *   - a line holding a carriage return before its end (CR-only line
 *     endings: the file is not JSONL): "tlperf: error: cannot read records
 *     'PATH': line N: carriage return inside a line ...", exit 2;
 *   - an invalid line (not JSON, schema violation, over 1 MiB): reported as
 *     "PATH:LINE: warning: <problem> (line skipped)" on stderr and left
 *     out of every statistic; with --strict the same lines are errors and
 *     the command exits 1 without printing a result;
 *   - a file without any valid record (empty, blank lines, only invalid
 *     lines): "tlperf: error: 'PATH' is empty: no record" (or "holds no
 *     valid record (N invalid line(s))"), exit 2, nothing printed.
 */
#ifndef TLPERF_RECARGS_H
#define TLPERF_RECARGS_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "cli/options.h"
#include "model/records.h"
#include "util/escape.h"
#include "util/strpool.h"

/* The rows of --json and --strict, for a command's option table (keys 'j'
 * and 's', taken by recargs_option()). */
#define RECARGS_JSON_OPTION(help) { 'j', 0, "json", NULL, help }
#define RECARGS_STRICT_OPTION                                                       \
	{ 's', 0, "strict", NULL,                                                     \
	  "refuse RECORDS with invalid lines (exit 1) instead of\n" \
	  "skipping them with a warning" }

struct recargs {
	const char *name;  /* the subcommand, for usage messages */
	int json;          /* --json */
	int strict;        /* --strict */
	const char *path;  /* RECORDS, the one operand */
};

/* Takes key 'j' (--json) or 's' (--strict) into *a. Returns 1 when it was
 * one of them, 0 otherwise. */
int recargs_option(struct recargs *a, int key);

/* Receives each valid record of a stream (ids interned in the pool given,
 * other strings valid during the call). Returns 0, -1 when memory ran out. */
typedef int (*recargs_sink)(void *ctx, const struct record *r);

/* Streams path through add() under the policy above, in memory bounded by
 * the longest line (plus what add keeps and the interned ids). *contract
 * receives the majority contract of the valid records. Returns CLI_OK,
 * CLI_FAIL (strict and invalid lines) or CLI_USAGE (unreadable, CR line
 * endings, no valid record, out of memory). */
int recargs_stream(const char *path, int strict, struct strpool *ids, recargs_sink add, void *ctx,
		   enum records_contract *contract);
/* recargs_stream() of the one operand (else a usage error); sets a->path. */
int recargs_stream_operand(struct recargs *a, const struct cli_parser *p, struct strpool *ids,
			   recargs_sink add, void *ctx, enum records_contract *contract);

/* For the commands of one round N (table, winner): streams the operand
 * through a stats_round_digest and leaves in *rs (initialised here) only
 * what the round's analysis reads (stats/reckeys.h): memory bounded by the
 * keys and round N. Returns what recargs_stream returns. */
int recargs_load_round(struct recargs *a, const struct cli_parser *p, long round,
		       const char *incumbent_id, struct records *rs);

/* A JSON number, or null when v is NaN or infinite. */
cJSON *recargs_num_or_null(double v);

/* Adds "dispatch" and "workload" members, in that order, to object o. */
void recargs_json_key(cJSON *o, const char *dispatch, const char *workload);

/* Prints root (cJSON_Print layout) and a newline on stdout and deletes
 * root. Returns CLI_OK, or CLI_USAGE with "out of memory" reported. */
int recargs_print_json(cJSON *root);

/* Writes 100 * frac as "%+.1f%", or "—" when frac is not finite. */
void recargs_md_pct(FILE *f, double frac);

/* Writes a key as DISPATCH SEP WORKLOAD, both as Markdown cells (sep is
 * written as is). */
void recargs_md_key(FILE *f, const char *dispatch, const char *sep, const char *workload);

/* "v1", "v2" or "unknown". */
const char *recargs_contract_name(enum records_contract c);

#endif
