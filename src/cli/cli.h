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

#include <stdio.h>

#define TLPERF_VERSION "0.1.0"

#include "util/cli_msg.h"

/* Strict number parsing for option values: the whole string must be a
 * number. Return 0 on success, -1 (and an error message naming opt) on
 * failure. */
int cli_parse_double(const char *opt, const char *s, double *out);
int cli_parse_long(const char *opt, const char *s, long min, long max, long *out);

/* Subcommands: one file each, src/cmd_<name>.c. */
typedef int (*cli_cmd_fn)(int argc, char **argv);
struct cli_command {
	const char *name;     /* subcommand word */
	cli_cmd_fn fn;        /* entry point, returns an exit code */
	const char *summary;  /* one line for `tlperf --help` */
	const char *usage;    /* full help text for `tlperf help CMD` */
};

/* Looks a subcommand up by name; NULL when unknown. */
const struct cli_command *cli_find_command(const char *name);

int cmd_ab(int argc, char **argv);
int cmd_audit(int argc, char **argv);
int cmd_gate(int argc, char **argv);
int cmd_loop(int argc, char **argv);
int cmd_msprof(int argc, char **argv);
int cmd_plateau(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_speedup(int argc, char **argv);
int cmd_table(int argc, char **argv);
int cmd_winner(int argc, char **argv);

extern const char cmd_ab_usage[];
extern const char cmd_audit_usage[];
extern const char cmd_gate_usage[];
extern const char cmd_loop_usage[];
extern const char cmd_msprof_usage[];
extern const char cmd_plateau_usage[];
extern const char cmd_sim_usage[];
extern const char cmd_speedup_usage[];
extern const char cmd_table_usage[];
extern const char cmd_winner_usage[];

#endif
