/* cli.c: strict option parsing shared by the commands. */
#include "cli/cli.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
	/* a whole number too large for a long is still a whole number: out of range */
	if (s[0] != '\0' && end != s && *end == '\0' && errno == ERANGE) {
		cli_error("option '%s' must be between %ld and %ld, got %s", opt, min, max, s);
		return -1;
	}
	if (s[0] == '\0' || end == s || *end != '\0') {
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
