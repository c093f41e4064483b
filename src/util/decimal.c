/* decimal.c: strict decimal numbers (see decimal.h). */
#include "util/decimal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static size_t digits(const char *s, size_t i, size_t n)
{
	size_t j = i;
	while (j < n && s[j] >= '0' && s[j] <= '9')
		j++;
	return j - i;
}

int decimal_parse(const char *s, size_t n, double *out)
{
	size_t i = 0;
	if (n == 0 || n > 400)
		return -1;
	if (s[i] == '+' || s[i] == '-')
		i++;
	size_t whole = digits(s, i, n);
	i += whole;
	size_t frac = 0;
	if (i < n && s[i] == '.') {
		i++;
		frac = digits(s, i, n);
		i += frac;
	}
	if (whole + frac == 0)
		return -1;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		size_t ex = digits(s, i, n);
		if (ex == 0)
			return -1;
		i += ex;
	}
	if (i != n)
		return -1; /* anything else, an embedded NUL included */
	char buf[401];
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	char *end = NULL;
	double v = strtod(buf, &end);
	if (end != buf + n || errno == ERANGE || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}
