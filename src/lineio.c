/* lineio.c: bounded line reader (see lineio.h). */
#include "lineio.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void lineio_init(struct lineio *l, FILE *f, size_t limit)
{
	memset(l, 0, sizeof(*l));
	l->f = f;
	l->limit = limit ? limit : LINEIO_DEFAULT_LIMIT;
}

int lineio_open(struct lineio *l, const char *path, size_t limit)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	lineio_init(l, f, limit);
	l->owned = 1;
	return 0;
}

static int grow(struct lineio *l, size_t need)
{
	if (need <= l->cap)
		return 0;
	size_t cap = l->cap ? l->cap : 256;
	while (cap < need)
		cap *= 2;
	char *b = realloc(l->buf, cap);
	if (!b)
		return -1;
	l->buf = b;
	l->cap = cap;
	return 0;
}

int lineio_next(struct lineio *l)
{
	int c, any = 0;
	l->len = 0;
	l->truncated = 0;
	l->had_cr = 0;
	if (grow(l, 256) != 0)
		return -1;
	while ((c = getc_unlocked(l->f)) != EOF) {
		any = 1;
		if (c == '\n')
			break;
		if (l->len >= l->limit) {
			l->truncated = 1;
			continue;
		}
		if (grow(l, l->len + 2) != 0)
			return -1;
		l->buf[l->len++] = (char)c;
	}
	if (c == EOF && ferror(l->f)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	if (!any)
		return 0;
	if (l->len > 0 && l->buf[l->len - 1] == '\r') {
		l->len--;
		l->had_cr = 1;
	}
	l->buf[l->len] = '\0';
	l->lineno++;
	return 1;
}

void lineio_close(struct lineio *l)
{
	if (l->owned && l->f)
		fclose(l->f);
	free(l->buf);
	memset(l, 0, sizeof(*l));
}

int lineio_has_bom(const char *s, size_t n)
{
	return n >= 3 && (unsigned char)s[0] == 0xEF && (unsigned char)s[1] == 0xBB &&
	       (unsigned char)s[2] == 0xBF;
}
