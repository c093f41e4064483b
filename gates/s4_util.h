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
/* Slot of key, inserted with value init when absent (*created set to 1).
 * NULL on allocation failure. */
long *s4_map_put(struct s4_map *m, const char *key, long init, int *created);

/* Joins up to three strings with '\x1f' into a malloc'd key (b, c may be NULL). */
char *s4_key3(const char *a, const char *b, const char *c);

#endif
