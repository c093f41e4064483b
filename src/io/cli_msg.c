/* cli_msg.c: the one message helper family (see cli_msg.h). */
#include "io/cli_msg.h"
#include "util/escape.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char *cli_prog = "tlperf";

static int msg_color, msg_quiet;

void cli_msg_configure(int color, int quiet)
{
	msg_color = color;
	msg_quiet = quiet;
}

/* Messages quote inputs (paths, ids, kernel names): control characters in
 * them are escaped (util/escape.h), newlines kept; the colour codes are
 * ours, added around the level only. */
static void vmsg(const char *level, const char *suffix, const char *fmt, va_list ap)
{
	/* bold red error, bold yellow warning, bold cyan note (as gcc does) */
	const char *sgr = level[0] == 'e' ? "\033[1;31m" : level[0] == 'w' ? "\033[1;33m" : "\033[1;36m";
	char small[1024], *text = small;
	va_list copy;
	va_copy(copy, ap);
	int n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n >= (int)sizeof(small) && (text = malloc((size_t)n + 1)) != NULL)
		vsnprintf(text, (size_t)n + 1, fmt, copy);
	va_end(copy);
	fflush(stdout);
	if (msg_color)
		fprintf(stderr, "%s: %s%s\033[0m: ", cli_prog, sgr, level);
	else
		fprintf(stderr, "%s: %s: ", cli_prog, level);
	if (n < 0 || !text)
		fputs("(message could not be formatted)", stderr);
	else if (escape_put_text(stderr, text, ESCAPE_KEEP_NEWLINE) != 0)
		fputs("(out of memory)", stderr);
	if (suffix)
		fputs(suffix, stderr);
	fputc('\n', stderr);
	if (text != small)
		free(text);
}

/* The text of the last error message (for a JSON error object). */
static char last_error[1024];

const char *cli_last_error(void)
{
	return last_error;
}

void cli_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	va_start(ap, fmt);
	vmsg("error", NULL, fmt, ap);
	va_end(ap);
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg("warning", NULL, fmt, ap);
	va_end(ap);
}

void cli_note(const char *fmt, ...)
{
	va_list ap;
	if (msg_quiet)
		return;
	va_start(ap, fmt);
	vmsg("note", NULL, fmt, ap);
	va_end(ap);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	char see[160];
	va_list ap;
	if (strcmp(cli_prog, "tlperf") == 0)
		snprintf(see, sizeof(see), " (see 'tlperf %s%s--help')", cmd, *cmd ? " " : "");
	else
		snprintf(see, sizeof(see), " (see '%s --help')", cli_prog);
	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	va_start(ap, fmt);
	vmsg("error", see, fmt, ap);
	va_end(ap);
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
