/* strpool.h: an arena of strings and an intern table over it.
 *
 * strpool_dup() copies bytes into the arena (NUL added); strpool_intern()
 * does the same once per distinct text, so equal texts get the same pointer
 * and can be compared by address. Every pointer handed out stays valid and
 * unchanged until strpool_release(); nothing is freed one by one. Memory:
 * the bytes stored plus a hash table of two slots per interned string; no
 * allocation per string (the arena grows in chunks of 64 KiB or more).
 * Every chunk ends with STRPOOL_PAD spare bytes, so 16 bytes can be read
 * from the start of any string in it (16-byte compares, util/scan16.h).
 * Pure: no I/O.
 */
#ifndef TLPERF_STRPOOL_H
#define TLPERF_STRPOOL_H

#include <stddef.h>
#include <stdint.h>

#define STRPOOL_PAD 16u

struct strpool_chunk;

struct strpool_slot {
	uint64_t hash;          /* strpool_hash of the text */
	const char *s;          /* the interned copy, NULL = empty slot */
	size_t len;
};

struct strpool {
	struct strpool_chunk *chunks; /* arena, newest first */
	char *cur;              /* next free byte of the newest chunk */
	size_t left;            /* bytes free there */
	size_t bytes;           /* bytes allocated for the arena */
	struct strpool_slot *slot; /* intern table, nslot a power of two */
	size_t nslot, n;        /* slots, interned strings */
};

void strpool_init(struct strpool *p);
void strpool_release(struct strpool *p);

/* n bytes aligned for any scalar, or NULL when memory ran out. */
void *strpool_alloc(struct strpool *p, size_t n);
/* A NUL-terminated copy of s[0..n) (s may hold no NUL), or NULL. */
const char *strpool_dup(struct strpool *p, const char *s, size_t n);
/* The one copy of s[0..n) in this pool (made on first use), or NULL when
 * memory ran out. */
const char *strpool_intern(struct strpool *p, const char *s, size_t n);
/* The interned copy of s[0..n) when this pool has one, else NULL (a
 * lookup, never inserts). */
const char *strpool_find(const struct strpool *p, const char *s, size_t n);

/* The hash the table uses (64-bit, 8 bytes at a time). */
uint64_t strpool_hash(const char *s, size_t n);

#endif
