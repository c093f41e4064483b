/* escape.h: the one escaper for text that came from inputs (file names,
 * candidate ids, log lines, kernel names) on its way to a terminal, a log
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
#ifndef TLPERF_ESCAPE_H
#define TLPERF_ESCAPE_H

#include <stdio.h>

#define ESCAPE_KEEP_NEWLINE 1

/* A malloc'd escaped copy of s (NULL s gives ""); flags: 0 or
 * ESCAPE_KEEP_NEWLINE. NULL on allocation failure. */
char *report_escape_text(const char *s, int flags);

/* Writes s escaped to f. Returns 0, -1 on allocation failure. */
int report_put_escaped(FILE *f, const char *s, int flags);

/* 1 when s holds nothing report_escape_text would change. */
int report_text_is_safe(const char *s, int flags);

#endif
