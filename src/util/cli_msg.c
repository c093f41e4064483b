/* cli_msg.c: the one message helper family (see cli_msg.h). */
#include "util/cli_msg.h"

#include <errno.h>
#include <string.h>

const char *cli_prog = "tlperf";

static int msg_color, msg_quiet;

void cli_msg_configure(int color, int quiet)
{
	msg_color = color;
	msg_quiet = quiet;
}

static void vmsg(const char *level, const char *fmt, va_list ap)
{
	/* bold red error, bold yellow warning, bold cyan note (as gcc does) */
	const char *sgr = level[0] == 'e' ? "\033[1;31m" : level[0] == 'w' ? "\033[1;33m" : "\033[1;36m";
	fflush(stdout);
	if (msg_color)
		fprintf(stderr, "%s: %s%s\033[0m: ", cli_prog, sgr, level);
	else
		fprintf(stderr, "%s: %s: ", cli_prog, level);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void cli_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg("error", fmt, ap);
	va_end(ap);
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg("warning", fmt, ap);
	va_end(ap);
}

void cli_note(const char *fmt, ...)
{
	va_list ap;
	if (msg_quiet)
		return;
	va_start(ap, fmt);
	vmsg("note", fmt, ap);
	va_end(ap);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg("error", fmt, ap);
	va_end(ap);
	if (strcmp(cli_prog, "tlperf") == 0)
		fprintf(stderr, "see 'tlperf %s --help'\n", cmd);
	else
		fprintf(stderr, "see '%s --help'\n", cli_prog);
	return CLI_USAGE;
}

int cli_finish_stdout(int rc)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		cli_error("cannot write standard output: %s", strerror(errno ? errno : EIO));
		return CLI_USAGE;
	}
	return rc;
}
