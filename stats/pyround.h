/* pyround.h: Python's round(x, ndigits) for floats, bit for bit.
 *
 * The reference ab_test.py rounds its JSON fields with Python's round():
 * the EXACT binary value of the double is rounded to ndigits decimals,
 * ties to even (a tie can only happen when that exact value ends in a 5 at
 * the cut, e.g. 0.125 or 2.5; 2.675 is really 2.67499999... and goes down),
 * and the decimal result is read back as the nearest double. tlab's
 * `--protocol ref` output must carry the same numbers. Pure.
 */
#ifndef TLPERF_PYROUND_H
#define TLPERF_PYROUND_H

/* round(x, ndigits) as CPython computes it for a float, for ndigits in
 * 0..17. NaN and infinities come back unchanged, a zero keeps its sign
 * (round(-0.00001, 4) is -0.0). ndigits outside 0..17 returns x unchanged
 * (the reference uses 3 and 4). */
double stats_pyround(double x, int ndigits);

#endif
