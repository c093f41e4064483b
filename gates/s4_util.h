/* s4_util.h: a small string-keyed hash map shared by the gate 4 rules. */
#ifndef TLPERF_S4_UTIL_H
#define TLPERF_S4_UTIL_H

#include <stddef.h>

struct s4_map {
	char **keys;   /* malloc'd keys, NULL for empty slots */
	long *vals;    /* value per slot */
	size_t cap, n; /* slots, used */
};

void s4_map_init(struct s4_map *m);
void s4_map_release(struct s4_map *m);
/* Slot of key, or NULL when absent. */
long *s4_map_get(const struct s4_map *m, const char *key);
/* Slot of the key key[0..n) (not NUL-terminated), or NULL when absent. */
long *s4_map_getn(const struct s4_map *m, const char *key, size_t n);
/* Slot of key, inserted with value init when absent (*created set to 1).
 * NULL on allocation failure. */
long *s4_map_put(struct s4_map *m, const char *key, long init, int *created);

/* A map keyed by up to three ids and a number, compared by address: the
 * ids of one struct records are interned (model/records.h), so equal text
 * is the same pointer and no key is copied, joined or compared byte by
 * byte. Unused key parts are NULL / 0. */
struct s4_idkey {
	const void *a, *b, *c;
	long d;
};

/* One slot: key, value and whether it is used side by side, so a probe
 * touches one cache line, not three arrays. */
struct s4_idslot {
	struct s4_idkey key;
	long val;
	int full;               /* 1 when the slot holds a key */
};

/* Maps hold no state outside themselves: gates/ stays pure and reentrant. */
struct s4_idmap {
	struct s4_idslot *slots;
	size_t cap, n;          /* slots (a power of two), used */
	unsigned shift;         /* 64 - log2(cap): a hash's top bits pick the slot */
};

void s4_idmap_init(struct s4_idmap *m);
/* Frees m's slots and empties it. */
void s4_idmap_release(struct s4_idmap *m);
/* Room for n keys without growing; 0, or -1 on allocation failure. */
int s4_idmap_reserve(struct s4_idmap *m, size_t n);
/* Slot of the key, or NULL when absent. */
long *s4_idmap_get(const struct s4_idmap *m, const void *a, const void *b, const void *c, long d);
/* Slot of the key, inserted with value init when absent (*created set to
 * 1; created may be NULL). NULL on allocation failure. */
long *s4_idmap_put(struct s4_idmap *m, const void *a, const void *b, const void *c, long d,
		   long init, int *created);

/* The value in slot i (0 <= i < m->cap), NULL when the slot is empty: for
 * visiting every entry. */
long *s4_idmap_at(const struct s4_idmap *m, size_t i);

/* Joins up to three strings with '\x1f' into a malloc'd key (b, c may be NULL). */
char *s4_key3(const char *a, const char *b, const char *c);

#endif
