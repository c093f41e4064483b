/* strbuf.h: a growable NUL-terminated string for the stats functions that
 * hand text back (tlab commands, Markdown tables). Pure: no I/O.
 * Appends never fail loudly: the first allocation failure sets .oom and
 * later appends do nothing, so a caller checks once at the end. */
#ifndef TLPERF_STRBUF_H
#define TLPERF_STRBUF_H

#include <stddef.h>

struct stats_sb {
	char *s;        /* malloc'd text, NULL until the first append */
	size_t n;       /* length without the NUL */
	size_t cap;     /* allocated bytes */
	int oom;        /* an allocation failed; s holds what fitted before */
};

void stats_sb_add(struct stats_sb *b, const char *p, size_t len);
void stats_sb_str(struct stats_sb *b, const char *p);
void stats_sb_printf(struct stats_sb *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* p as one Markdown table cell: '|' as "\|", backslash doubled, control
 * characters (newlines included) as spaces. */
void stats_sb_md_cell(struct stats_sb *b, const char *p);
/* p single-quoted for a POSIX shell (' becomes '\''). */
void stats_sb_shell_quoted(struct stats_sb *b, const char *p);
/* Returns the text (caller frees) and empties b; NULL when an allocation
 * failed (b is then freed too). An empty buffer yields "". */
char *stats_sb_take(struct stats_sb *b);

#endif
