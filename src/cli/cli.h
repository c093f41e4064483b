/* cli.h: what every subcommand shares: exit codes, messages, the table.
 *
 * Exit codes are one enum for the whole suite (documented in README.md):
 *   0  ok (a verdict was printed, no gate errors)
 *   1  findings, or a measurement that failed
 *   2  usage or environment error (bad flag, unreadable path, no msprof)
 * A child killed by signal N is reported as 128+N.
 */
#ifndef TLPERF_CLI_H
#define TLPERF_CLI_H

#include <stddef.h>
#include <stdio.h>

#define TLPERF_VERSION "0.1.0"

#include "io/cli_msg.h"

/* Strict number parsing for option values: the whole string must be a
 * number. Return 0 on success, -1 (and an error message naming opt) on
 * failure. */
int cli_parse_double(const char *opt, const char *s, double *out);
int cli_parse_long(const char *opt, const char *s, long min, long max, long *out);

/* Subcommands: one file each, src/cli/cmd_<name>.c, each with an option
 * table and its usage in a struct cli_spec (cli/options.h). */
struct cli_spec;
typedef int (*cli_cmd_fn)(int argc, char **argv);
struct cli_command {
	const char *name;            /* subcommand word */
	cli_cmd_fn fn;               /* entry point, returns an exit code */
	const char *summary;         /* one line for `tlperf --help` */
	const struct cli_spec *spec; /* options and usage for `tlperf help CMD` */
};

/* The command table, sorted by name (main.c). */
extern const struct cli_command cli_commands[];
extern const size_t cli_ncommands;

/* Looks a subcommand up by name; NULL when unknown. */
const struct cli_command *cli_find_command(const char *name);

int cmd_ab(int argc, char **argv);
int cmd_audit(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_gate(int argc, char **argv);
int cmd_loop(int argc, char **argv);
int cmd_msprof(int argc, char **argv);
int cmd_plateau(int argc, char **argv);
int cmd_read(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_speedup(int argc, char **argv);
int cmd_table(int argc, char **argv);
int cmd_winner(int argc, char **argv);

extern const struct cli_spec cmd_ab_spec;
extern const struct cli_spec cmd_audit_spec;
extern const struct cli_spec cmd_explain_spec;
extern const struct cli_spec cmd_gate_spec;
extern const struct cli_spec cmd_loop_spec;
extern const struct cli_spec cmd_msprof_spec;
extern const struct cli_spec cmd_plateau_spec;
extern const struct cli_spec cmd_read_spec;
extern const struct cli_spec cmd_sim_spec;
extern const struct cli_spec cmd_speedup_spec;
extern const struct cli_spec cmd_table_spec;
extern const struct cli_spec cmd_winner_spec;

#endif
