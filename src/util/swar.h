/* swar.h: eight bytes at a time in a 64-bit word (SIMD within a
 * register), for the scanners of perf_records.jsonl and opt_log.md.
 *
 * The masks below flag a byte by setting its high bit. The lowest flagged
 * byte is always exact (a borrow only runs towards higher bytes); bytes
 * above it may be flagged falsely, so a caller only ever uses the first
 * one, and only on a little-endian machine (SWAR_LITTLE), where the lowest
 * byte of the word is the first in memory. Elsewhere callers take their
 * byte-at-a-time path.
 */
#ifndef TLPERF_UTIL_SWAR_H
#define TLPERF_UTIL_SWAR_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define SWAR_ONES 0x0101010101010101ull
#define SWAR_HIGH 0x8080808080808080ull

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SWAR_LITTLE 1
#else
#define SWAR_LITTLE 0
#endif

/* The eight bytes at p (any alignment). */
static inline uint64_t swar_load(const char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

/* Bytes of v equal to 0. */
static inline uint64_t swar_zero(uint64_t v)
{
	return (v - SWAR_ONES) & ~v & SWAR_HIGH;
}

/* Bytes of v equal to c. */
static inline uint64_t swar_eq(uint64_t v, unsigned char c)
{
	return swar_zero(v ^ (c * SWAR_ONES));
}

/* Bytes of v below c (c <= 0x80): control characters for c = 0x20. */
static inline uint64_t swar_below(uint64_t v, unsigned char c)
{
	return (v - c * SWAR_ONES) & ~v & SWAR_HIGH;
}

/* Index (0..7) of the first flagged byte of a non-zero mask. */
static inline size_t swar_first(uint64_t m)
{
	return (size_t)__builtin_ctzll(m) / 8;
}

#endif
