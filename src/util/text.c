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

#if defined(__SSE2__)
/* Bits of the bytes of v equal to the byte broadcast in c. */
static unsigned eq_bits(__m128i v, __m128i c)
{
	return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, c));
}

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
