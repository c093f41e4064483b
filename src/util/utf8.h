/* utf8.h: UTF-8 validation for inputs read from pull requests. */
#ifndef TLPERF_UTF8_H
#define TLPERF_UTF8_H

#include <stddef.h>

/* Offset of the first byte of s[0..n) that is not valid UTF-8 (overlong
 * forms, surrogates and code points above U+10FFFF are invalid), or
 * (size_t)-1 when all of it is valid. */
size_t utf8_invalid_at(const char *s, size_t n);

#endif
