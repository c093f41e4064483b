/* path.c: see path.h. */
#include "util/path.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *path_base(const char *p, size_t *len)
{
	size_t n = strlen(p);
	while (n > 1 && p[n - 1] == '/')
		n--;
	size_t start = n;
	while (start > 0 && p[start - 1] != '/')
		start--;
	if (start == n && n > 0) /* "/" alone */
		start = n - 1;
	if (len)
		*len = n - start;
	return p + start;
}

int path_base_is(const char *p, const char *name)
{
	size_t n;
	const char *b = path_base(p, &n);
	return strlen(name) == n && memcmp(b, name, n) == 0;
}

char *path_join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int sep = la > 0 && a[la - 1] != '/';
	char *s = malloc(la + (size_t)sep + lb + 1);
	if (!s)
		return NULL;
	memcpy(s, a, la);
	if (sep)
		s[la] = '/';
	memcpy(s + la + (size_t)sep, b, lb + 1);
	return s;
}
