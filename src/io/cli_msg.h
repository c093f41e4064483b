/* cli_msg.h: the one message family and the exit codes, for every layer
 * that talks to the person running a command (the commands themselves, the
 * loop driver, the tlab session).
 *
 * Exit codes are one enum for the whole suite (documented in README.md):
 *   0  ok (a verdict was printed, no gate errors)
 *   1  findings, or a measurement that failed
 *   2  usage or environment error (bad flag, unreadable path, no msprof)
 * A child killed by signal N is reported as 128+N.
 */
#ifndef TLPERF_IO_CLI_MSG_H
#define TLPERF_IO_CLI_MSG_H

#include <stdarg.h>
#include <stdio.h>

enum cli_exit {
	CLI_OK = 0,       /* success */
	CLI_FAIL = 1,     /* findings, failed measurement, unreconciled claim */
	CLI_USAGE = 2,    /* usage or environment error */
	CLI_SIGNAL = 128  /* + signal number */
};

/* The program name used in messages ("tlperf", "tlab", "tlgate"). */
extern const char *cli_prog;

/* Messages on stderr: "<prog>: error: <text>\n". Lowercase, the subject in
 * quotes, strerror(errno) last. Never exit. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The text of the last cli_error (or cli_usage_error) message, without
 * prefix or newline; "" when none. Static storage, overwritten by the next. */
const char *cli_last_error(void);
/* cli_error for a usage problem, on the same one line ending
 * " (see 'tlperf CMD --help')" (" (see 'tlgate --help')" under an alias);
 * returns CLI_USAGE so callers can `return cli_usage_error(...)`. cmd may
 * be "loop init" or "" (the overview). */
int cli_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* How messages look: color != 0 colours the level word (the command line
 * decides, see report/term.h); quiet != 0 drops notes. Default: neither. */
void cli_msg_configure(int color, int quiet);

/* Flush stdout and report a write error (full disk must not look like
 * success). Returns rc unchanged when stdout is fine, else CLI_USAGE. */
int cli_finish_stdout(int rc);

#endif
