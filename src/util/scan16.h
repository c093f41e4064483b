/* scan16.h: sixteen bytes at a time, for the hot loops of the
 * perf_records.jsonl reader.
 *
 * With SSE2 (every x86-64) a block is compared in one register and the
 * result read as a 16-bit mask; elsewhere the same functions fall back to
 * util/swar.h's eight-byte words, or a byte at a time on a big-endian
 * machine. Every function gives the same answer on every path; the tests
 * (tests/test_scan16.c) check them against a byte-at-a-time reference at
 * every offset and length.
 */
#ifndef TLPERF_UTIL_SCAN16_H
#define TLPERF_UTIL_SCAN16_H

#include "util/swar.h"

#include <stddef.h>
#include <stdint.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* A byte that ends a plain run inside a JSON string: '"', '\\' or a
 * control character (below 0x20). */
static inline int scan16_string_stop(unsigned char c)
{
	return c == '"' || c == '\\' || c < 0x20;
}

#if defined(__SSE2__)
/* The 16 bytes at p as a mask, bit i set when byte i is a string stop. */
static inline unsigned scan16_stop_bits(const char *p)
{
	const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\');
	const __m128i ctl = _mm_set1_epi8(0x1F);
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
	/* c < 0x20 unsigned: min(c, 0x1F) == c */
	__m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, bslash)),
				 _mm_cmpeq_epi8(_mm_min_epu8(v, ctl), v));
	return (unsigned)_mm_movemask_epi8(m);
}
#endif

/* Index of the first byte at or after s that scan16_string_stop() flags,
 * in text that ends in a NUL (itself a stop) followed by at least 15 more
 * readable bytes (SCAN16_PAD): no length to check in the loop. */
#define SCAN16_PAD 16u
static inline size_t scan16_string_end_nul(const char *s)
{
	size_t i = 0;
#if defined(__SSE2__)
	for (;; i += 16) {
		unsigned bits = scan16_stop_bits(s + i);
		if (bits)
			return i + (size_t)__builtin_ctz(bits);
	}
#else
	while (!scan16_string_stop((unsigned char)s[i]))
		i++;
	return i;
#endif
}

/* Index of the first byte c in s[0..n), or n; reads whole 16-byte blocks,
 * so up to 15 bytes past s + n must be readable (a padded buffer). For
 * the short lines of a log an inline loop beats a call to memchr. */
static inline size_t scan16_find_padded(const char *s, size_t n, char c)
{
	size_t i = 0;
#if defined(__SSE2__)
	const __m128i vc = _mm_set1_epi8(c);
	for (; i < n; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
		unsigned bits = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, vc));
		if (bits) {
			i += (size_t)__builtin_ctz(bits);
			return i < n ? i : n;
		}
	}
	return n;
#else
	const char *p = memchr(s, c, n);
	return p ? (size_t)(p - s) : n;
#endif
}

/* 1 when the first n bytes (n <= 16) of s equal those of pat; 16 bytes of
 * s and pat must be readable. */
static inline int scan16_prefix_eq(const char *s, const char *pat, unsigned n)
{
#if defined(__SSE2__)
	__m128i a = _mm_loadu_si128((const __m128i *)(const void *)s);
	__m128i b = _mm_loadu_si128((const __m128i *)(const void *)pat);
	unsigned want = n >= 16 ? 0xFFFFu : (1u << n) - 1u;
	return ((unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(a, b)) & want) == want;
#else
	return memcmp(s, pat, n) == 0;
#endif
}

/* 1 when s[0..n) is ASCII with no NUL and no CR. */
static inline int scan16_plain_ascii(const char *s, size_t n)
{
	size_t i = 0;
#if defined(__SSE2__)
	const __m128i zero = _mm_setzero_si128(), cr = _mm_set1_epi8('\r');
	for (; i + 16 <= n; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
		__m128i m = _mm_or_si128(_mm_cmpeq_epi8(v, zero), _mm_cmpeq_epi8(v, cr));
		/* movemask takes each byte's high bit: a byte >= 0x80 sets it */
		if (_mm_movemask_epi8(_mm_or_si128(m, v)))
			return 0;
	}
#endif
	for (; i + 8 <= n; i += 8) {
		uint64_t v = swar_load(s + i);
		if ((v & SWAR_HIGH) | swar_zero(v) | swar_eq(v, '\r'))
			return 0;
	}
	for (; i < n; i++)
		if (s[i] == '\0' || s[i] == '\r' || (unsigned char)s[i] >= 0x80)
			return 0;
	return 1;
}

#endif
