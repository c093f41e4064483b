/* escape.h: the one Markdown cell escaper, for every table tlperf writes.
 *
 * Two strengths, one rule per byte:
 *   MD_CELL_PLAIN   '|' and '\' escaped, control characters become a
 *                   space. For ids and names (candidate ids, workloads) in
 *                   tables that tlgate itself reads back: the text stays
 *                   the id, so a table tlperf writes passes its own gate.
 *   MD_CELL_STRICT  also Markdown punctuation that would format (` * _ [ ]
 *                   # ~) escaped with '\', and < > & as HTML entities: for
 *                   text quoted from input that nobody vetted (a finding's
 *                   message quoting a pull request).
 * Tab, CR and LF become a space in both.
 */
#ifndef TLPERF_UTIL_ESCAPE_H
#define TLPERF_UTIL_ESCAPE_H

#include <stdio.h>

enum md_cell_mode { MD_CELL_PLAIN, MD_CELL_STRICT };

/* What byte c becomes in a cell: the replacement text, or NULL when c is
 * written as it is. */
const char *escape_md_cell_byte(unsigned char c, enum md_cell_mode mode);

/* Writes s (NULL: nothing) to f escaped as a table cell. Write errors are
 * left for the caller's ferror(f). */
void escape_md_cell(FILE *f, const char *s, enum md_cell_mode mode);

#endif
