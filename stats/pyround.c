/* pyround.c: Python's float round() (see pyround.h). */
#include "stats/pyround.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* CPython rounds with _Py_dg_dtoa (mode 3): a correctly rounded decimal
 * string of the exact binary value, ties to even, then _Py_dg_strtod.
 * glibc's printf is exact as well and, in the default rounding mode,
 * sends ties to the even digit; strtod is correctly rounded. The unit
 * tests pin the tie cases, so a libc that differs fails them. */
double stats_pyround(double x, int ndigits)
{
	if (!isfinite(x) || ndigits < 0 || ndigits > 17)
		return x;
	/* DBL_MAX has 309 integer digits: sign, digits, point, 17 decimals */
	char buf[400];
	int n = snprintf(buf, sizeof(buf), "%.*f", ndigits, x);
	if (n < 0 || (size_t)n >= sizeof(buf))
		return x;
	return strtod(buf, NULL);
}
