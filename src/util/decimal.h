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

/* The value of a plain decimal with no exponent whose integer digits are
 * [ib, ie) and fraction digits [fb, fe) (either range may be empty), when
 * it has at most 15 digits in all: the same double strtod() gives (an
 * exact integer divided by an exact power of ten, one correctly rounded
 * division). Returns 0, or -1 when the number does not qualify (the
 * caller then asks strtod). */
int decimal_fast(const char *ib, const char *ie, const char *fb, const char *fe, double *out);

/* Reads an unsigned decimal at the start of s (NUL-terminated):
 * digits [. digits?] or . digits, then an exponent [eE][+-]?digits only
 * when digits follow it. No sign, no hexadecimal, no inf/nan. Returns the
 * bytes read and the value in *out (as strtod would give it), or 0 when s
 * does not start with such a number or it is out of range. */
size_t decimal_scan(const char *s, double *out);

/* As decimal_scan, after optional Markdown marks ('*', '`') before the
 * number (`**3.12**`): returns the bytes read, marks included, 0 when no
 * number follows them. (Was optlog_read_number: the gate rules read
 * numbers in prose with it, and they sit below the readers.) */
size_t decimal_scan_marked(const char *s, double *out);

/* Writes v into buf[0..n) as a plain decimal with the fewest decimals
 * that read back as the same double: a figure read from "80.508" prints
 * as 80.508, never rounded to 80.51 nor padded with binary noise (%.17g
 * for magnitudes a log does not write: >= 1e15 or < 1e-6). Returns buf. */
const char *decimal_format_shortest(char *buf, size_t n, double v);

#endif
