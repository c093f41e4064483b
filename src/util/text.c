/* text.c: see text.h. */
#include "util/text.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

#if defined(__SSE2__)
/* Bits of the bytes of v equal to the byte broadcast in c. */
static unsigned eq_bits(__m128i v, __m128i c)
{
	return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, c));
}

/* Bits of the 16 bytes at p that match the needle byte c (folded): OR-ing
 * 0x20 into a byte matches both cases of a letter, so `or` is 0x20 for a
 * letter and 0 for any other byte. */
static unsigned ci_bits(const unsigned char *p, unsigned char c)
{
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
	char or = (c >= 'a' && c <= 'z') ? 0x20 : 0;
	return eq_bits(_mm_or_si128(v, _mm_set1_epi8(or)), _mm_set1_epi8((char)c));
}

/* The first of the places p in mask (bit i: place at + i) where the
 * needle n matches whole. */
static const unsigned char *first_match(const unsigned char *h, size_t at, unsigned mask, const unsigned char *n)
{
	for (; mask; mask &= mask - 1) {
		size_t p = at + (size_t)__builtin_ctz(mask);
		if (matches_at(h + p + 1, n + 1))
			return h + p;
	}
	return NULL;
}

/* text_find_ci in h for a needle n of nl >= 2 bytes at the places 0 ..
 * last (last >= 15), 16 at a time: where its first and last bytes both
 * match, it is checked whole. The last block ends at last, its places
 * already looked at masked off. */
static const unsigned char *find_ci_blocks(const unsigned char *h, size_t last, const unsigned char *n, size_t nl)
{
	unsigned char first = fold(n[0]), end = fold(n[nl - 1]);
	const unsigned char *m;
	size_t i = 0;
	for (; i + 15 <= last; i += 16)
		if ((m = first_match(h, i, ci_bits(h + i, first) & ci_bits(h + i + nl - 1, end), n)) != NULL)
			return m;
	if (i > last)
		return NULL;
	size_t at = last - 15;
	unsigned mask = ci_bits(h + at, first) & ci_bits(h + at + nl - 1, end);
	return first_match(h, at, mask & (0xFFFFu << (i - at)), n);
}
#endif

const char *text_find_ci(const char *hay, const char *needle)
{
	const unsigned char *n = (const unsigned char *)needle;
	unsigned char c0 = fold(n[0]);
	if (!c0)
		return hay;
#if defined(__SSE2__)
	if (n[1]) { /* a text with 16 places or more: 16 at a time */
		size_t hl = strlen(hay), nl = strlen(needle);
		if (hl < nl)
			return NULL;
		if (hl - nl >= 15)
			return (const char *)find_ci_blocks((const unsigned char *)hay, hl - nl, n, nl);
	}
#endif
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

/* 'A'..'Z' in has[1] (bits 1..26); 'a'..'z' are the same bits 32 higher. */
#define UPPER_BITS 0x07FFFFFEull

void text_bytes_of(struct text_bytes *tb, const char *hay)
{
	unsigned long long has[4] = { 0, 0, 0, 0 };
	for (const unsigned char *h = (const unsigned char *)hay; *h; h++)
		has[*h >> 6] |= 1ull << (*h & 63);
	/* a letter in either case counts in both: a needle's bytes are then
	 * looked up as they are, no folding */
	has[1] |= (has[1] & UPPER_BITS) << 32 | (has[1] >> 32 & UPPER_BITS);
	memcpy(tb->has, has, sizeof(has));
}

/* text_may_hold for a tb that is not NULL. */
static int holds(const struct text_bytes *tb, const char *needle)
{
	for (const unsigned char *n = (const unsigned char *)needle; *n; n++)
		if (!((tb->has[*n >> 6] >> (*n & 63)) & 1))
			return 0;
	return 1;
}

int text_may_hold(const struct text_bytes *tb, const char *needle)
{
	return !tb || holds(tb, needle);
}

const char *text_find_ci_tb(const char *hay, const struct text_bytes *tb, const char *needle)
{
	return !tb || holds(tb, needle) ? text_find_ci(hay, needle) : NULL;
}

int text_find_any_ci(const char *hay, const struct text_bytes *tb, const char *const *needles)
{
	struct text_bytes own;
	if (!tb) {
		text_bytes_of(&own, hay);
		tb = &own;
	}
	for (int i = 0; needles[i]; i++)
		if (holds(tb, needles[i]) && text_find_ci(hay, needles[i]))
			return i;
	return -1;
}

#if defined(__SSE2__)
/* text_scan for n >= 16: 16 bytes at a time, the last block loaded so
 * that it ends at n (overlapping the one before; the bytes seen twice are
 * masked off). */
static void scan_sse2(struct text_scan *ts, const char *s, size_t n, char a, char b)
{
	__m128i va = _mm_set1_epi8(a), vb = _mm_set1_epi8(b);
	unsigned in_a = 0, in_b = 0;
	for (size_t off = 0; off < n; off += 16) {
		size_t at = n - off >= 16 ? off : n - 16;
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + at));
		unsigned valid = (0xFFFFu << (off - at)) & 0xFFFFu;
		unsigned z = eq_bits(v, _mm_setzero_si128()) & valid;
		if (z)
			valid &= (z & -z) - 1; /* the bytes before the NUL */
		unsigned h = (unsigned)_mm_movemask_epi8(v) & valid;
		if (h && ts->high == (size_t)-1)
			ts->high = at + (size_t)__builtin_ctz(h);
		in_a |= eq_bits(v, va) & valid;
		in_b |= eq_bits(v, vb) & valid;
		if (z) {
			ts->len = at + (size_t)__builtin_ctz(z);
			break;
		}
	}
	ts->marks = (in_a ? TEXT_MARK_A : 0u) | (in_b ? TEXT_MARK_B : 0u);
}
#endif

void text_scan(struct text_scan *ts, const char *s, size_t n, char a, char b)
{
	ts->len = n;
	ts->high = (size_t)-1;
	ts->marks = 0;
#if defined(__SSE2__)
	if (n >= 16)
		scan_sse2(ts, s, n, a, b);
	else
#endif
		for (size_t k = 0; k < n; k++) {
			unsigned char c = (unsigned char)s[k];
			if (!c) {
				ts->len = k;
				break;
			}
			if (c >= 0x80 && ts->high == (size_t)-1)
				ts->high = k;
			ts->marks |= (c == (unsigned char)a ? TEXT_MARK_A : 0u) | (c == (unsigned char)b ? TEXT_MARK_B : 0u);
		}
	if (ts->high == (size_t)-1)
		ts->high = ts->len;
}
