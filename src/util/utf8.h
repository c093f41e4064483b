/* utf8.h: UTF-8 validation for inputs read from pull requests. */
#ifndef TLPERF_UTF8_H
#define TLPERF_UTF8_H

#include <stddef.h>

/* Offset of the first byte of s[0..n) that is not valid UTF-8 (overlong
 * forms, surrogates and code points above U+10FFFF are invalid), or
 * (size_t)-1 when all of it is valid. */
size_t utf8_invalid_at(const char *s, size_t n);

/* The length (1 to 4) of the valid UTF-8 sequence at s, n >= 1 bytes
 * being there, with its code point in *cp; 0 when the bytes there are not
 * one (a bad or missing byte, an overlong form, a surrogate, a code point
 * above U+10FFFF; *cp is then meaningless). */
size_t utf8_decode(const unsigned char *s, size_t n, unsigned *cp);

/* A malloc'd copy of s with every byte that is not valid UTF-8 replaced
 * by U+FFFD (for writers that pass bytes through, as cJSON does); NULL on
 * allocation failure. */
char *utf8_sanitized(const char *s);

/* The offset of the first bidirectional embedding, override or isolate
 * control (U+202A-U+202E, U+2066-U+2069) in s[0..n), its code point in
 * *cp; (size_t)-1 when there is none. Such a control makes a rendered
 * page show characters (digits) in another order than the text holds. */
size_t utf8_bidi_control_at(const char *s, size_t n, unsigned *cp);

#endif
