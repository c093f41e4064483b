/* text.h: case-insensitive search in text, the one implementation the
 * readers and rules share (opt_log.md, perf_tuning/ prose, gate rules).
 *
 * Case folding is ASCII only ('A'..'Z'); every other byte, UTF-8 included,
 * must match exactly, so Chinese needles work as they are.
 */
#ifndef TLPERF_UTIL_TEXT_H
#define TLPERF_UTIL_TEXT_H

#include <stddef.h>

/* The first place needle occurs in hay, ignoring ASCII case; NULL when it
 * does not ("" is found at hay). */
const char *text_find_ci(const char *hay, const char *needle);

/* Which bytes a text holds (an ASCII letter counting in both cases): a
 * needle with a byte the text lacks cannot occur in it, which rules most
 * needles out without a search. */
struct text_bytes {
	unsigned long long has[4]; /* bit c: byte c occurs (a letter: in either case) */
};

/* Notes the bytes of hay (one pass). */
void text_bytes_of(struct text_bytes *tb, const char *hay);

/* 0 when tb (not NULL) lacks a byte of needle (ASCII case folded): the
 * needle cannot occur in the text tb holds the bytes of, nor in a part of
 * it. 1 otherwise. */
int text_may_hold(const struct text_bytes *tb, const char *needle);

/* As text_find_ci, tb (NULL, or the bytes of a text that hay is part of)
 * ruling out at once a needle with a byte it lacks: a reader that noted a
 * line's bytes tests many phrases on the line or its parts for little. */
const char *text_find_ci_tb(const char *hay, const struct text_bytes *tb, const char *needle);

/* The index of the first of the NULL-terminated needles that hay contains
 * (as text_find_ci), or -1 when none does. tb holds hay's bytes
 * (text_bytes_of; those of a text hay is part of do as well), or is NULL
 * to have them noted here: a caller testing
 * one line against several lists notes its bytes once. Checking a line for
 * a dozen phrases costs about one scan, not a dozen. */
int text_find_any_ci(const char *hay, const struct text_bytes *tb, const char *const *needles);

/* One line's facts, noted in one pass over it (16 bytes at a time where
 * SSE2 is there), for a reader that would otherwise look for a NUL, a
 * non-ASCII byte and two marks with one search each. */
struct text_scan {
	size_t len;      /* bytes before the first NUL (n when there is none) */
	size_t high;     /* offset of the first byte >= 0x80 in s[0..len), len when none */
	unsigned marks;  /* TEXT_MARK_A / TEXT_MARK_B: mark a / b occurs in s[0..len) */
};
#define TEXT_MARK_A 1u
#define TEXT_MARK_B 2u

/* Scans s[0..n) (no NUL needed after it) for the facts above, the marks
 * being the bytes a and b (not NUL). */
void text_scan(struct text_scan *ts, const char *s, size_t n, char a, char b);

#endif
