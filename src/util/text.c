/* text.c: see text.h. */
#include "util/text.h"

#include <string.h>

static unsigned char fold(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') ? (unsigned char)(c + 32) : c;
}

/* 1 when needle matches at h (h may end first: then it does not). */
static int matches_at(const unsigned char *h, const unsigned char *n)
{
	for (; *n; h++, n++)
		if (!*h || fold(*h) != fold(*n))
			return 0;
	return 1;
}

const char *text_find_ci(const char *hay, const char *needle)
{
	const unsigned char *n = (const unsigned char *)needle;
	unsigned char c0 = fold(n[0]);
	if (!c0)
		return hay;
	if (c0 < 'a' || c0 > 'z') { /* no case to fold: strchr finds candidates fast */
		for (const char *h = strchr(hay, c0); h; h = strchr(h + 1, c0))
			if (matches_at((const unsigned char *)h + 1, n + 1))
				return h;
		return NULL;
	}
	for (const unsigned char *h = (const unsigned char *)hay; *h; h++)
		if ((*h | 0x20) == c0 && matches_at(h + 1, n + 1))
			return (const char *)h;
	return NULL;
}

void text_bytes_of(struct text_bytes *tb, const char *hay)
{
	tb->has[0] = tb->has[1] = tb->has[2] = tb->has[3] = 0;
	for (const unsigned char *h = (const unsigned char *)hay; *h; h++) {
		unsigned char c = fold(*h);
		tb->has[c >> 6] |= 1ull << (c & 63);
	}
}

int text_find_any_ci(const char *hay, const struct text_bytes *tb, const char *const *needles)
{
	struct text_bytes own;
	if (!tb) {
		text_bytes_of(&own, hay);
		tb = &own;
	}
	for (int i = 0; needles[i]; i++) {
		const unsigned char *n = (const unsigned char *)needles[i];
		int possible = 1;
		for (; *n && possible; n++) {
			unsigned char c = fold(*n);
			possible = (tb->has[c >> 6] >> (c & 63)) & 1;
		}
		if (possible && text_find_ci(hay, needles[i]))
			return i;
	}
	return -1;
}
