/* suggest.c: closest candidate by edit distance (suggest.h). */
#include "util/suggest.h"

#include <string.h>

#define SUGGEST_MAX_LEN 64 /* longer words are not typos of our names */

static int fold(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

size_t suggest_distance(const char *a, const char *b, size_t cap)
{
	size_t n = strlen(a), m = strlen(b);
	if (n > SUGGEST_MAX_LEN || m > SUGGEST_MAX_LEN)
		return cap + 1;
	/* three rows of the optimal-string-alignment table */
	size_t r0[SUGGEST_MAX_LEN + 1], r1[SUGGEST_MAX_LEN + 1], r2[SUGGEST_MAX_LEN + 1];
	size_t *pp = r0, *p = r1, *c = r2;
	for (size_t j = 0; j <= m; j++)
		p[j] = j;
	for (size_t i = 1; i <= n; i++) {
		c[0] = i;
		for (size_t j = 1; j <= m; j++) {
			size_t cost = fold((unsigned char)a[i - 1]) != fold((unsigned char)b[j - 1]);
			size_t v = p[j - 1] + cost;
			if (p[j] + 1 < v)
				v = p[j] + 1;
			if (c[j - 1] + 1 < v)
				v = c[j - 1] + 1;
			if (i > 1 && j > 1 && fold((unsigned char)a[i - 1]) == fold((unsigned char)b[j - 2]) &&
			    fold((unsigned char)a[i - 2]) == fold((unsigned char)b[j - 1]) && pp[j - 2] + 1 < v)
				v = pp[j - 2] + 1;
			c[j] = v;
		}
		size_t *t = pp;
		pp = p;
		p = c;
		c = t;
	}
	return p[m] > cap ? cap + 1 : p[m];
}

void suggest_init(struct suggest *s, const char *word)
{
	s->word = word;
	s->best = NULL;
	s->dist = (size_t)-1;
}

/* The distance within which a word is taken for a typo. */
static size_t typo_cap(const char *word)
{
	return strlen(word) <= 5 ? 1 : 2;
}

void suggest_offer(struct suggest *s, const char *cand)
{
	size_t wl = strlen(s->word);
	if (!cand || strcmp(cand, s->word) == 0)
		return;
	size_t d = suggest_distance(s->word, cand, typo_cap(s->word));
	if (d > 1 && wl >= 3 && strncmp(cand, s->word, wl) == 0)
		d = 1;
	if (d < s->dist) {
		s->dist = d;
		s->best = cand;
	}
}

const char *suggest_best(const struct suggest *s)
{
	return s->best && s->dist <= typo_cap(s->word) ? s->best : NULL;
}
