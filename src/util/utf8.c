/* utf8.c: strict UTF-8 validation (utf8.h). */
#include "util/utf8.h"

#include <stdlib.h>
#include <string.h>

#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

size_t utf8_decode(const unsigned char *s, size_t n, unsigned *cp)
{
	unsigned c = s[0];
	size_t need;
	unsigned min;
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xC2 && c <= 0xDF) {
		need = 1;
		min = 0x80;
	} else if (c >= 0xE0 && c <= 0xEF) {
		need = 2;
		min = 0x800;
	} else if (c >= 0xF0 && c <= 0xF4) {
		need = 3;
		min = 0x10000;
	} else {
		return 0;
	}
	*cp = c & (need == 1 ? 0x1F : need == 2 ? 0x0F : 0x07);
	for (size_t k = 1; k <= need; k++) {
		if (k >= n || (s[k] & 0xC0) != 0x80)
			return 0;
		*cp = (*cp << 6) | (s[k] & 0x3F);
	}
	if (*cp < min || *cp > 0x10FFFF || (*cp >= 0xD800 && *cp <= 0xDFFF))
		return 0;
	return need + 1;
}

/* The length (2 to 4) of the valid multi-byte sequence at s (n >= 1 bytes
 * there, s[0] >= 0x80), 0 when there is none: utf8_decode's verdict,
 * read from the lead byte and the second byte's range alone. */
static size_t multibyte_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	if (c < 0xC2 || c > 0xF4 || n < 2 || (s[1] & 0xC0) != 0x80)
		return 0;
	if (c < 0xE0)
		return 2;
	if (n < 3 || (s[2] & 0xC0) != 0x80)
		return 0;
	if (c < 0xF0) /* E0: overlong below A0; ED: surrogates from A0 */
		return (c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] > 0x9F) ? 0 : 3;
	if (n < 4 || (s[3] & 0xC0) != 0x80)
		return 0;
	/* F0: overlong below 90; F4: past U+10FFFF from 90 */
	return (c == 0xF0 && s[1] < 0x90) || (c == 0xF4 && s[1] > 0x8F) ? 0 : 4;
}

/* The first byte >= 0x80 in s[i..n), or n: 16 bytes at a time with SSE2
 * (the last block, overlapping those before, ending at n), else 8. */
static size_t ascii_end(const unsigned char *s, size_t i, size_t n)
{
#if defined(__SSE2__)
	for (; i + 16 <= n; i += 16) {
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(const void *)(s + i)));
		if (m)
			return i + (size_t)__builtin_ctz(m);
	}
	if (i < n && n >= 16) { /* bit j is byte n - 16 + j: those before i shifted out */
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(const void *)(s + n - 16)));
		m >>= i + 16 - n;
		return m ? i + (size_t)__builtin_ctz(m) : n;
	}
#endif
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, s + i, 8);
		if (w & UINT64_C(0x8080808080808080))
			break;
	}
	while (i < n && s[i] < 0x80)
		i++;
	return i;
}

size_t utf8_invalid_at(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	for (size_t i = ascii_end(s, 0, n); i < n; i = ascii_end(s, i, n)) {
		size_t l = multibyte_len(s + i, n - i);
		if (!l)
			return i;
		i += l;
	}
	return (size_t)-1;
}

char *utf8_sanitized(const char *s)
{
	size_t n = strlen(s), o = 0;
	char *out = malloc(3 * n + 1);
	if (!out)
		return NULL;
	for (size_t i = 0; i < n;) {
		size_t bad = utf8_invalid_at(s + i, n - i);
		size_t good = bad == (size_t)-1 ? n - i : bad;
		memcpy(out + o, s + i, good);
		o += good;
		i += good;
		if (i < n) {
			memcpy(out + o, "\xEF\xBF\xBD", 3);
			o += 3;
			i++;
		}
	}
	out[o] = '\0';
	return out;
}

size_t utf8_bidi_control_at(const char *s, size_t n, unsigned *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	for (const unsigned char *p = memchr(u, 0xE2, n); p && p + 2 < u + n;
	     p = memchr(p + 1, 0xE2, n - (size_t)(p + 1 - u)))
		if ((p[1] == 0x80 && p[2] >= 0xAA && p[2] <= 0xAE) || (p[1] == 0x81 && p[2] >= 0xA6 && p[2] <= 0xA9)) {
			*cp = 0x2000u + ((p[1] & 0x3Fu) << 6) + (p[2] & 0x3Fu);
			return (size_t)(p - u);
		}
	return (size_t)-1;
}
