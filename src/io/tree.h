/* tree.h: reading a directory tree that may be hostile (a pull request's
 * checkout), and nothing outside it.
 *
 * A struct tree holds a descriptor of its root. Every path the gate reads
 * (the files of a perf_opt/ or perf_tuning/ directory, a record's
 * artifact_path and msprof_raw_path, a configuration file) goes through
 * tree_resolve(), which walks it one component at a time with openat():
 *   - ".." never climbs above the root;
 *   - a symbolic link is followed only while it stays beneath the root
 *     (its target is expanded as text and walked the same way, at most
 *     TREE_MAX_LINKS links per path); an absolute path (or link target)
 *     must lie under the root's real path;
 *   - every directory is opened with O_NOFOLLOW, so a link swapped in
 *     during the walk is refused, never followed;
 *   - a file is opened only when it is a regular file (never a device, a
 *     FIFO or a socket: /dev/zero would never end, a FIFO would block) and
 *     no larger than the caller's cap.
 * No PATH_MAX limit anywhere: paths of any length and depth work, since no
 * whole path is ever handed to the kernel.
 *
 * tree_find() is the one directory walker (tlgate, tlperf audit): it reads
 * every directory through a descriptor (openat/fdopendir), never follows a
 * symbolic link, keeps at most TREE_WALK_FDS descriptors open at any depth
 * and reports, in name order, each directory carrying one of the wanted
 * names, each symbolic link carrying one, and each directory it could not
 * read.
 */
#ifndef TLPERF_TREE_H
#define TLPERF_TREE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

#define TREE_MAX_LINKS 40
#define TREE_WALK_FDS 32

struct tree {
	int rootfd;          /* O_DIRECTORY descriptor of the root, -1 when closed */
	char *root;          /* the root's real path, malloc'd */
	size_t rootlen;
	/* a cache, not part of the tree's value: the last base directory
	 * tree_resolve() walked to without meeting a symbolic link, and a
	 * descriptor of it (-1: none), so that the files of one directory are
	 * found without walking its path again for each */
	char *memo_base;
	int memo_fd;
};

enum tree_status {
	TREE_OK = 0,
	TREE_MISSING,        /* no such file or directory */
	TREE_OUTSIDE,        /* the path, or a symbolic link on it, leads out of the tree */
	TREE_SYMLINK,        /* a symbolic link where none is allowed (TREE_NOFOLLOW) */
	TREE_NOT_REGULAR,    /* a device, FIFO, socket or directory where a file is wanted */
	TREE_NOT_DIR,        /* not a directory where one is wanted */
	TREE_TOO_LARGE,      /* a regular file above the cap */
	TREE_LOOP,           /* more than TREE_MAX_LINKS symbolic links */
	TREE_UNREADABLE      /* permission or I/O error (errno set) */
};

enum tree_want {
	TREE_WANT_ANY = 0,   /* anything that exists (no descriptor returned) */
	TREE_WANT_FILE = 1,  /* a regular file, opened read-only */
	TREE_WANT_DIR = 2,   /* a directory, opened */
	TREE_NOFOLLOW = 8    /* or'ed in: any symbolic link on the way is TREE_SYMLINK */
};

/* Opens the tree rooted at the directory root. Returns 0, -1 (errno). */
int tree_open(struct tree *t, const char *root);
void tree_close(struct tree *t);

/* Why a path was refused, for findings: "leads outside the checked tree",
 * "is not a regular file", ... */
const char *tree_status_text(enum tree_status s);

/* Resolves path beneath the root as described above: relative to the
 * directory base (itself relative to the root; NULL or "" for the root),
 * or absolute. want is a tree_want, max the largest file accepted
 * (TREE_WANT_FILE; 0 for no cap). On TREE_OK, *fd is the open descriptor
 * (close it; -1 for TREE_WANT_ANY) and *st (may be NULL) its stat.
 * A path of one plain component under a base that is a directory reached
 * with no symbolic link is looked up from a kept descriptor of the base
 * (the same answer, without the walk); a name that is itself a symbolic
 * link takes the whole walk. */
enum tree_status tree_resolve(const struct tree *t, const char *base, const char *path,
			      int want, off_t max, int *fd, struct stat *st);

/* Opens a regular file as a stdio stream (see tree_resolve). */
enum tree_status tree_fopen(const struct tree *t, const char *base, const char *path,
			    off_t max, FILE **f);

/* Reads a whole regular file of at most max bytes into a malloc'd,
 * NUL-terminated *data (*len bytes). */
enum tree_status tree_read(const struct tree *t, const char *base, const char *path,
			   off_t max, char **data, size_t *len);

/* Joins a relative path and a name ("" + "x" is "x"); malloc'd or NULL. */
char *tree_join(const char *a, const char *b);

/* What tree_find reports. */
enum tree_hit_kind {
	TREE_HIT_DIR,        /* a directory with a wanted name (not descended into) */
	TREE_HIT_SYMLINK,    /* a symbolic link with a wanted name (not followed) */
	TREE_HIT_UNREADABLE  /* a directory that could not be read (err) */
};

struct tree_hit {
	char *rel;           /* path relative to the root, malloc'd */
	int which;           /* index in names (DIR, SYMLINK) */
	enum tree_hit_kind kind;
	int err;             /* errno for TREE_HIT_UNREADABLE */
};

struct tree_hits {
	struct tree_hit *v;
	size_t n, cap;
};

void tree_hits_release(struct tree_hits *h);

/* Walks the tree below base (relative to the root; "" for the root) and
 * appends a hit for every entry named names[i] (NULL-terminated list),
 * in name order, depth first. Directories named in skip (NULL-terminated,
 * may be NULL) are not entered. Returns 0, -1 when out of memory or the
 * tree changed under the walk (errno set). */
int tree_find(const struct tree *t, const char *base, const char *const *names,
	      const char *const *skip, struct tree_hits *out);

/* The real path of the nearest directory holding ".git", starting at dir
 * and going up, malloc'd; NULL when there is none. Reads nothing but
 * directory entries; runs no git. */
char *tree_repo_top(const char *dir);

#endif
