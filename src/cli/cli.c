/* cli.c: the one message helper family and strict option parsing. */
#include "cli/cli.h"
#include "report/escape.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *cli_prog = "tlperf";

/* Messages quote inputs (paths, ids, kernel names): control characters in
 * them are escaped (report/escape.h), newlines kept. */
static void vmsg(const char *level, const char *fmt, va_list ap)
{
	char small[1024], *text = small;
	va_list copy;
	va_copy(copy, ap);
	int n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n >= (int)sizeof(small) && (text = malloc((size_t)n + 1)) != NULL)
		vsnprintf(text, (size_t)n + 1, fmt, copy);
	va_end(copy);
	fflush(stdout);
	fprintf(stderr, "%s: %s: ", cli_prog, level);
	if (n < 0 || !text || report_put_escaped(stderr, text, ESCAPE_KEEP_NEWLINE) != 0)
		fputs(n < 0 || !text ? "(message too long)" : text, stderr);
	fputc('\n', stderr);
	if (text != small)
		free(text);
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
	fprintf(stderr, "see '%s help %s'\n", "tlperf", cmd);
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

int cli_parse_double(const char *opt, const char *s, double *out)
{
	char *end = NULL;
	errno = 0;
	double v = strtod(s, &end);
	if (s[0] == '\0' || end == s || *end != '\0' || errno == ERANGE || !isfinite(v)) {
		cli_error("option '%s' wants a number, got '%s'", opt, s);
		return -1;
	}
	*out = v;
	return 0;
}

int cli_parse_long(const char *opt, const char *s, long min, long max, long *out)
{
	char *end = NULL;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (s[0] == '\0' || end == s || *end != '\0' || errno == ERANGE) {
		cli_error("option '%s' wants a whole number, got '%s'", opt, s);
		return -1;
	}
	if (v < min || v > max) {
		cli_error("option '%s' must be between %ld and %ld, got %ld", opt, min, max, v);
		return -1;
	}
	*out = v;
	return 0;
}
