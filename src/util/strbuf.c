/* strbuf.c: growable string (strbuf.h). */
#include "util/strbuf.h"
#include "util/escape.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int reserve(struct strbuf *b, size_t extra)
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

void strbuf_add(struct strbuf *b, const char *p, size_t len)
{
	if (reserve(b, len) != 0)
		return;
	memcpy(b->s + b->n, p, len);
	b->n += len;
	b->s[b->n] = '\0';
}

void strbuf_str(struct strbuf *b, const char *p)
{
	strbuf_add(b, p, strlen(p));
}

void strbuf_printf(struct strbuf *b, const char *fmt, ...)
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

void strbuf_md_cell(struct strbuf *b, const char *p)
{
	strbuf_md_cell_as(b, p, MD_CELL_PLAIN);
}

void strbuf_md_cell_as(struct strbuf *b, const char *p, enum md_cell_mode mode)
{
	for (; *p; p++) {
		const char *r = escape_md_cell_byte((unsigned char)*p, mode);
		if (r)
			strbuf_str(b, r);
		else
			strbuf_add(b, p, 1);
	}
}

void strbuf_shell_quoted(struct strbuf *b, const char *p)
{
	strbuf_add(b, "'", 1);
	for (; *p; p++) {
		if (*p == '\'')
			strbuf_str(b, "'\\''");
		else
			strbuf_add(b, p, 1);
	}
	strbuf_add(b, "'", 1);
}

char *strbuf_take(struct strbuf *b)
{
	char *s = NULL;
	if (!b->oom)
		s = b->s ? b->s : calloc(1, 1);
	else
		free(b->s);
	memset(b, 0, sizeof(*b));
	return s;
}
