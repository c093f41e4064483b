/* prose.h: scanning lines of prose written by people (the Markdown logs of
 * perf_tuning/ folders, opt_log.md): the numbers a line states and their
 * units, "key: value" fields, phrases. Pure functions over strings: the
 * readers (io/ptlog.c) and the rules (gates/pt_*.c) share them.
 */
#ifndef TLPERF_UTIL_PROSE_H
#define TLPERF_UTIL_PROSE_H

#include <stddef.h>

enum prose_unit { PROSE_NOUNIT = 0, PROSE_PCT, PROSE_MS, PROSE_US, PROSE_NS, PROSE_S, PROSE_X };

struct prose_num {
	double v;            /* the value, sign included */
	size_t pos, end;     /* byte range in the string, sign and unit included */
	int sign;            /* +1 or -1 when written with a sign, else 0 */
	int decimal;         /* 1 when written with a decimal point */
	enum prose_unit unit;
};

/* Finds the numbers of s that stand alone: digits inside identifiers
 * ("fp16", "l1_c12", "#3", "iter7", "1024x8192") are not numbers. A unit
 * directly after the number (%, ms, us, µs, ns, s, x, ×) is recorded.
 * Returns how many were found (at most max are stored). */
size_t prose_numbers(const char *s, struct prose_num *out, size_t max);

/* Percent change from a to b, (b - a) / a * 100. */
double prose_pct(double a, double b);

/* The words that name a geometric mean in a log, NULL-terminated, for
 * prose_contains_any and text_find_any_ci: 几何平均, 几何均值, geomean,
 * geo_mean, geo-mean, geo mean, geometric mean (or -mean, _mean), gmean. One list, so the
 * reader of opt_log.md and the rules of perf_tuning/ read the same claims. */
extern const char *const prose_geomean_words[];

/* 1 when s (of length n, or to its NUL when n is (size_t)-1) contains any
 * of the NULL-terminated needles, case-insensitively (util/text.h). */
int prose_contains_any(const char *s, size_t n, const char *const *needles);

/* Value of "key" in a line: after the key (case-insensitive ASCII, or
 * exact UTF-8), an optional parenthetical, then ':' or '：'. The value
 * runs to the end of the line or to a '|' that separates pipe fields.
 * Returns a pointer into line and its length in *len, NULL when the key
 * is not a field of this line. The key must start the line (after list
 * markers, bold, '#', a leading "[TAG]") or follow a '|'. */
const char *prose_field(const char *line, const char *key, size_t *len);

/* The pieces prose_field is made of, for readers that take lines apart
 * the same way. */

/* Skips list markers, heading marks, bold and blanks at the start of a
 * line; *level (may be NULL) gets the heading level (0 when not a heading). */
const char *prose_strip_lead(const char *s, int *level);

/* 1 when s starts with key: ASCII letters compared without case, other
 * bytes exactly. */
int prose_key_match(const char *s, const char *key);

/* After a key: optional blanks, an optional parenthetical, then ':' or
 * '：'. Returns where the value starts (blanks and '*' skipped), NULL when
 * no colon follows. */
const char *prose_after_key(const char *p);

/* 1 when the line t starts a clause of its own: a label (not a figure,
 * not opening with a bracket; `final_latency (us):` is one) ending in
 * ':' or '：' within 40 bytes,
 * marks and blanks skipped, that is not a correction (`corrected:`,
 * `更正`, `实际` ...). A paragraph's line after a soft break that does not
 * start one continues the line above as the page shows it (`final_latency:
 * 64 us` / `→ 32 us`); one that does is read alone, as `KEY: value` lines
 * written one under the other are. */
int prose_starts_clause(const char *t);

/* 1 when next, a paragraph's line after a soft break, plainly continues
 * prev (n bytes) rather than being an item of its own: prev ends in a
 * colon (a key waiting for its value), or next starts (marks and blanks
 * skipped) with a figure, an arrow (→ -> => ⟶ ⇒), an opening bracket, a
 * tilde, '/' or '=', or a time unit (`us → 32 us`). The narrower join the
 * line readers of first-generation logs use: their items (`[#2] ...`)
 * stand one per source line. */
int prose_continues(const char *prev, size_t n, const char *next);

#endif
