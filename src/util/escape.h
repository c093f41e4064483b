/* escape.h: the one escaping module: Markdown table cells, and text from
 * inputs on its way to a terminal.
 *
 * Markdown cells: for every table tlperf writes.
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

/* Text from inputs (file names, candidate ids, log lines, kernel names) on its way to a terminal, a log
 * or a text file: text findings, GitHub annotations, audit Markdown and
 * CSV, `tlperf msprof` tables, the messages of src/cli.
 *
 * A pull request controls those inputs; raw ESC or BEL bytes from them
 * would drive the reader's terminal (clear it, set its title, hide a
 * line). Every byte that is not printable text becomes a visible escape:
 *   C0 controls (U+0000..U+001F) except tab, and except newline when the
 *   caller keeps lines, and DEL (U+007F)      -> \xNN
 *   C1 controls (U+0080..U+009F, e.g. the
 *   8-bit CSI U+009B)                          -> \u00NN
 *   bytes that are not valid UTF-8             -> \xNN
 * Everything else (printable ASCII, valid UTF-8 such as Chinese text) is
 * kept as it is. Formats with their own escaping (JSON via cJSON, XML and
 * HTML via report_xml_escape, which maps controls to U+FFFD) need no more.
 */
#define ESCAPE_KEEP_NEWLINE 1 /* '\n' kept */
#define ESCAPE_KEEP_CR 2      /* '\r' kept (for a caller that encodes it, as GitHub's %0D) */

/* A malloc'd escaped copy of s (NULL s gives ""); flags: 0 or
 * ESCAPE_KEEP_NEWLINE | ESCAPE_KEEP_CR. NULL on allocation failure. */
char *escape_text(const char *s, int flags);

/* Writes s escaped to f. Returns 0, -1 on allocation failure. */
int escape_put_text(FILE *f, const char *s, int flags);

/* 1 when s holds nothing escape_text would change. */
int escape_text_is_safe(const char *s, int flags);

/* CSV (RFC 4180): s (NULL: empty) with its control characters shown as
 * escape_text does, quoted when it holds a comma, a quote, CR or LF (a
 * quote doubled). Returns a malloc'd copy, NULL on allocation failure. */
char *escape_csv_field(const char *s);

#endif
