/* decimal.c: strict decimal numbers (see decimal.h). */
#include "util/decimal.h"

#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

static size_t digits(const char *s, size_t i, size_t n)
{
	size_t j = i;
	while (j < n && s[j] >= '0' && s[j] <= '9')
		j++;
	return j - i;
}

static const double pow10_exact[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7,
				      1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15 };

int decimal_fast(const char *ib, const char *ie, const char *fb, const char *fe, double *out)
{
	size_t nd = (size_t)(ie - ib) + (size_t)(fe - fb);
	if (nd > 15)
		return -1;
	uint64_t m = 0;
	for (const char *q = ib; q < ie; q++)
		m = m * 10 + (uint64_t)(*q - '0');
	for (const char *q = fb; q < fe; q++)
		m = m * 10 + (uint64_t)(*q - '0');
	*out = (double)m / pow10_exact[fe - fb];
	return 0;
}

/* Past the ASCII digits at s. */
static const char *skip_digits(const char *s)
{
	while (*s >= '0' && *s <= '9')
		s++;
	return s;
}

/* Past an exponent at p (`e` or `E`, an optional sign, at least one
 * digit); p itself when there is none. */
static const char *skip_exponent(const char *p)
{
	const char *x = p;
	if (*x != 'e' && *x != 'E')
		return p;
	x++;
	if (*x == '+' || *x == '-')
		x++;
	if (!(*x >= '0' && *x <= '9'))
		return p;
	return skip_digits(x);
}

size_t decimal_scan(const char *s, double *out)
{
	const char *ib = s, *ie = skip_digits(s), *fb = NULL, *fe = NULL, *p = ie;
	if (*p == '.') {
		fb = p + 1;
		fe = skip_digits(fb);
		p = fe;
	}
	if (ie == ib && (!fb || fe == fb))
		return 0;
	p = skip_exponent(p);
	if (p == (fe ? fe : ie) && decimal_fast(ib, ie, fb ? fb : ie, fe ? fe : ie, out) == 0)
		return (size_t)(p - s);
	double v;
	if (decimal_parse(s, (size_t)(p - s), &v) != 0)
		return 0;
	*out = v;
	return (size_t)(p - s);
}

const char *decimal_format_shortest(char *buf, size_t n, double v)
{
	/* plain decimals, as logs write them (40, not 4e+01) */
	if (fabs(v) < 1e15 && (v == 0 || fabs(v) >= 1e-6))
		for (int d = 0; d <= 17; d++) {
			snprintf(buf, n, "%.*f", d, v);
			if (strtod(buf, NULL) == v)
				return buf;
		}
	snprintf(buf, n, "%.17g", v);
	return buf;
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

size_t decimal_scan_marked(const char *s, double *out)
{
	const char *p = s;
	while (*p == '*' || *p == '`')
		p++;
	if (!((*p >= '0' && *p <= '9') || (*p == '.' && p[1] >= '0' && p[1] <= '9')))
		return 0;
	double v;
	size_t n = decimal_scan(p, &v);
	if (!n)
		return 0;
	*out = v;
	return (size_t)(p + n - s);
}
