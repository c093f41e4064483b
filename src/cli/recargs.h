/* recargs.h: what the records-statistics commands (plateau, speedup, table,
 * winner) share on the command line: the --json / --strict / --help
 * options, the one RECORDS operand, loading it with the documented handling
 * of bad input, and the JSON and Markdown output helpers.
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

#include <getopt.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "model/records.h"

/* The options every records command takes; ends a struct option table. */
#define RECARGS_OPTIONS                                  \
	{ "json", no_argument, NULL, 'j' },              \
	{ "strict", no_argument, NULL, 's' },            \
	{ "help", no_argument, NULL, 'h' },              \
	{ NULL, 0, NULL, 0 }

/* RECARGS_CONTINUE: recargs_option() took the option, parsing goes on. */
enum { RECARGS_CONTINUE = -1 };

struct recargs {
	const char *name;  /* the subcommand, for usage messages */
	const char *usage; /* printed by --help */
	int json;          /* --json */
	int strict;        /* --strict */
	const char *path;  /* RECORDS, set by recargs_load_operand() */
};

/* Handles what getopt_long(argc, argv, ":", ...) returned as ch when the
 * command itself does not know it: --json, --strict, --help (prints the
 * usage on stdout), a missing value and an unknown option (usage errors
 * naming argv[optind - 1]). Returns RECARGS_CONTINUE, or the exit code the
 * command returns at once (CLI_OK after --help, CLI_USAGE). */
int recargs_option(struct recargs *a, int ch, char **argv);

/* After the options: requires exactly one operand (else a usage error,
 * CLI_USAGE), sets a->path to it and loads it like recargs_load(). Returns
 * what recargs_load() returns; *rs is initialised here in every case and
 * must be released by the caller. */
int recargs_load_operand(struct recargs *a, int argc, char **argv, struct records *rs);

/* Loads path into *rs (initialised here) under the policy above. Returns
 * CLI_OK, CLI_FAIL (strict and invalid lines) or CLI_USAGE (unreadable;
 * also on allocation failure). *rs must be released by the caller in
 * every case. */
int recargs_load(const char *path, int strict, struct records *rs);

/* A JSON number, or null when v is NaN or infinite. */
cJSON *recargs_num_or_null(double v);

/* Adds "dispatch" and "workload" members, in that order, to object o. */
void recargs_json_key(cJSON *o, const char *dispatch, const char *workload);

/* Prints root (cJSON_Print layout) and a newline on stdout and deletes
 * root. Returns CLI_OK, or CLI_USAGE with "out of memory" reported. */
int recargs_print_json(cJSON *root);

/* Writes 100 * frac as "%+.1f%", or "—" when frac is not finite. */
void recargs_md_pct(FILE *f, double frac);

/* Writes s as one Markdown table cell: '|' escaped, control characters
 * and newlines as spaces, backslashes doubled. */
void recargs_md_cell(FILE *f, const char *s);

/* Writes a key as DISPATCH SEP WORKLOAD, both as Markdown cells (sep is
 * written as is). */
void recargs_md_key(FILE *f, const char *dispatch, const char *sep, const char *workload);

/* "v1", "v2" or "unknown". */
const char *recargs_contract_name(enum records_contract c);

#endif
