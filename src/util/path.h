/* path.h: the path helpers every layer shares (pure string work, no
 * system calls). */
#ifndef TLPERF_UTIL_PATH_H
#define TLPERF_UTIL_PATH_H

#include <stddef.h>

/* The last component of p, ignoring trailing slashes: a pointer into p,
 * its length (without the trailing slashes) in *len when len is not NULL.
 * "a/b" and "a/b//" give "b" (length 1); "/" gives "/" (length 1); "" gives
 * "" (length 0). The pointed-to text may run on into the trailing slashes:
 * use *len, or path_base_is, when p may end in '/'. */
const char *path_base(const char *p, size_t *len);

/* 1 when the last component of p (as path_base) is exactly name. */
int path_base_is(const char *p, const char *name);

/* a "/" b, without doubling a slash a already ends with; a "" gives b.
 * Returns malloc'd, caller frees; NULL on allocation failure. */
char *path_join(const char *a, const char *b);

#endif
