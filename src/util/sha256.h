/* sha256.h: SHA-256 (FIPS 180-4), streaming, for artifact fingerprints.
 * Pure; hashing a file is io/sha256_file.h. */
#ifndef TLPERF_SHA256_H
#define TLPERF_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct sha256 {
	uint32_t h[8];        /* chaining state */
	uint64_t bytes;       /* message length so far */
	unsigned char buf[64];/* partial block */
	size_t nbuf;          /* bytes in buf */
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t n);
/* Writes the 32-byte digest; s must be re-initialised before reuse. */
void sha256_final(struct sha256 *s, unsigned char out[32]);
/* Writes 64 lowercase hex digits and a NUL into hex[65]. */
void sha256_hex(const unsigned char digest[32], char hex[65]);

#endif
