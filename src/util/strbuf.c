/* strbuf.c: growable string (strbuf.h). */
#include "util/strbuf.h"
#include "util/escape.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int reserve(struct stats_sb *b, size_t extra)
{
	if (b->oom)
		return -1;
	if (b->n + extra + 1 <= b->cap)
		return 0;
	size_t cap = b->cap ? b->cap : 128;
	while (cap < b->n + extra + 1) {
		if (cap > ((size_t)-1) / 2) {
			b->oom = 1;
			return -1;
		}
		cap *= 2;
	}
	char *t = realloc(b->s, cap);
	if (!t) {
		b->oom = 1;
		return -1;
	}
	b->s = t;
	b->cap = cap;
	return 0;
}

void stats_sb_add(struct stats_sb *b, const char *p, size_t len)
{
	if (reserve(b, len) != 0)
		return;
	memcpy(b->s + b->n, p, len);
	b->n += len;
	b->s[b->n] = '\0';
}

void stats_sb_str(struct stats_sb *b, const char *p)
{
	stats_sb_add(b, p, strlen(p));
}

void stats_sb_printf(struct stats_sb *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || reserve(b, (size_t)n) != 0)
		return;
	va_start(ap, fmt);
	vsnprintf(b->s + b->n, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->n += (size_t)n;
}

void stats_sb_md_cell(struct stats_sb *b, const char *p)
{
	for (; *p; p++) {
		const char *r = escape_md_cell_byte((unsigned char)*p, MD_CELL_PLAIN);
		if (r)
			stats_sb_str(b, r);
		else
			stats_sb_add(b, p, 1);
	}
}

void stats_sb_shell_quoted(struct stats_sb *b, const char *p)
{
	stats_sb_add(b, "'", 1);
	for (; *p; p++) {
		if (*p == '\'')
			stats_sb_str(b, "'\\''");
		else
			stats_sb_add(b, p, 1);
	}
	stats_sb_add(b, "'", 1);
}

char *stats_sb_take(struct stats_sb *b)
{
	char *s = NULL;
	if (!b->oom)
		s = b->s ? b->s : calloc(1, 1);
	else
		free(b->s);
	memset(b, 0, sizeof(*b));
	return s;
}
