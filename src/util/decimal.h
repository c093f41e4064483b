/* decimal.h: numbers as the profilers write them, and nothing else.
 *
 * strtod() also reads hexadecimal floats ("0x1p3" is 8, "0x10" is 16),
 * "inf", "infinity" and "nan", and stops at an embedded NUL, so a cell
 * "0x1p3" or "8.4\0999" would become a duration. The profilers write plain
 * decimals only (msprof: "%f", 6 decimals; op_summary: 3 decimals), so the
 * readers accept exactly
 *     [+-]? ( digits [. digits?] | . digits ) ( [eE] [+-]? digits )?
 * and refuse everything else. Pure.
 */
#ifndef TLPERF_DECIMAL_H
#define TLPERF_DECIMAL_H

#include <stddef.h>

/* Parses s[0..n) (no surrounding blanks; an embedded NUL is refused) as a
 * decimal number into *out. Returns 0, or -1 when s is not such a number
 * or is out of the range of a double (overflow or underflow). */
int decimal_parse(const char *s, size_t n, double *out);

#endif
