/* strbuf.h: a growable NUL-terminated string for code that builds text to
 * hand back (Markdown tables, the loop's log sections, shell commands).
 * Pure: no I/O.
 * Appends never fail loudly: the first allocation failure sets .oom and
 * later appends do nothing, so a caller checks once at the end. */
#ifndef TLPERF_UTIL_STRBUF_H
#define TLPERF_UTIL_STRBUF_H

#include <stddef.h>

#include "util/escape.h"

struct strbuf {
	char *s;        /* malloc'd text, NULL until the first append */
	size_t n;       /* length without the NUL */
	size_t cap;     /* allocated bytes */
	int oom;        /* an allocation failed; s holds what fitted before */
};

void strbuf_add(struct strbuf *b, const char *p, size_t len);
void strbuf_str(struct strbuf *b, const char *p);
void strbuf_printf(struct strbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* p as one Markdown table cell: '|' as "\|", backslash doubled, control
 * characters (newlines included) as spaces. */
void strbuf_md_cell(struct strbuf *b, const char *p);
/* The same with either escaping strength of util/escape.h. */
void strbuf_md_cell_as(struct strbuf *b, const char *p, enum md_cell_mode mode);
/* p single-quoted for a POSIX shell (' becomes '\''). */
void strbuf_shell_quoted(struct strbuf *b, const char *p);
/* Returns the text (caller frees) and empties b; NULL when an allocation
 * failed (b is then freed too). An empty buffer yields "". */
char *strbuf_take(struct strbuf *b);

#endif
