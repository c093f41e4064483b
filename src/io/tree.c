/* tree.c: confined reads and the directory walker (tree.h). */
#include "io/tree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef O_NOCTTY
#define O_NOCTTY 0
#endif

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

int tree_open(struct tree *t, const char *root)
{
	memset(t, 0, sizeof(*t));
	t->rootfd = -1;
	char *real = realpath(root, NULL);
	if (!real)
		return -1;
	int fd = open(real, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		free(real);
		errno = e;
		return -1;
	}
	t->rootfd = fd;
	t->root = real;
	t->rootlen = strlen(real);
	return 0;
}

void tree_close(struct tree *t)
{
	if (t->rootfd >= 0)
		close(t->rootfd);
	free(t->root);
	memset(t, 0, sizeof(*t));
	t->rootfd = -1;
}

const char *tree_status_text(enum tree_status s)
{
	switch (s) {
	case TREE_OK: return "is readable";
	case TREE_MISSING: return "does not exist";
	case TREE_OUTSIDE: return "leads outside the checked tree (not read)";
	case TREE_SYMLINK: return "is a symbolic link (not followed)";
	case TREE_NOT_REGULAR: return "is not a regular file (not read)";
	case TREE_NOT_DIR: return "is not a directory";
	case TREE_TOO_LARGE: return "is larger than the size cap (not read)";
	case TREE_LOOP: return "has too many levels of symbolic links";
	case TREE_UNREADABLE: return "cannot be read";
	}
	return "cannot be read";
}

char *tree_join(const char *a, const char *b)
{
	size_t la = a ? strlen(a) : 0, lb = strlen(b);
	while (la > 0 && a[la - 1] == '/')
		la--;
	char *p = malloc(la + lb + 2);
	if (!p)
		return NULL;
	if (la) {
		memcpy(p, a, la);
		p[la++] = '/';
	}
	memcpy(p + la, b, lb + 1);
	return p;
}

/* The part of an absolute path below the root ("" for the root itself),
 * or NULL when it is not under the root. Lexical: ".." in the rest is
 * walked (and refused above the root) by the caller. */
static const char *below_root(const struct tree *t, const char *abs)
{
	if (t->rootlen == 1) /* the root is "/" */
		return abs + 1;
	if (strncmp(abs, t->root, t->rootlen) != 0)
		return NULL;
	if (abs[t->rootlen] == '\0')
		return abs + t->rootlen;
	return abs[t->rootlen] == '/' ? abs + t->rootlen + 1 : NULL;
}

/* rest = a + "/" + b (b may be empty); replaces *rest. */
static int set_rest(char **rest, const char *a, size_t la, const char *b)
{
	size_t lb = strlen(b);
	char *n = malloc(la + lb + 2);
	if (!n)
		return -1;
	memcpy(n, a, la);
	n[la] = '/';
	memcpy(n + la + 1, b, lb + 1);
	free(*rest);
	*rest = n;
	return 0;
}

static enum tree_status errno_status(int e)
{
	if (e == ENOENT || e == ENOTDIR || e == ENAMETOOLONG)
		return TREE_MISSING;
	if (e == ELOOP)
		return TREE_SYMLINK;
	errno = e;
	return TREE_UNREADABLE;
}

/* The final component: cur holds it as name (stat sb). */
static enum tree_status finish(int cur, const char *name, const struct stat *sb, int want,
			       off_t max, int *fd, struct stat *st)
{
	int w = want & 3;
	if (w == TREE_WANT_ANY) {
		if (st)
			*st = *sb;
		return TREE_OK;
	}
	if (w == TREE_WANT_DIR) {
		if (!S_ISDIR(sb->st_mode))
			return TREE_NOT_DIR;
		int d = openat(cur, name, DIR_FLAGS);
		if (d < 0)
			return errno_status(errno);
		*fd = d;
		if (st)
			*st = *sb;
		return TREE_OK;
	}
	if (!S_ISREG(sb->st_mode))
		return TREE_NOT_REGULAR; /* never opened: a FIFO would block, a device never end */
	if (max > 0 && sb->st_size > max)
		return TREE_TOO_LARGE;
	int f = openat(cur, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (f < 0)
		return errno_status(errno);
	struct stat now;
	if (fstat(f, &now) != 0) {
		int e = errno;
		close(f);
		return errno_status(e);
	}
	if (!S_ISREG(now.st_mode) || (max > 0 && now.st_size > max)) {
		close(f);
		return S_ISREG(now.st_mode) ? TREE_TOO_LARGE : TREE_NOT_REGULAR; /* swapped under us */
	}
	int fl = fcntl(f, F_GETFL);
	if (fl >= 0)
		fcntl(f, F_SETFL, fl & ~O_NONBLOCK);
	*fd = f;
	if (st)
		*st = now;
	return TREE_OK;
}

/* The directory cur itself is the final component (a path like "" or "a/.."). */
static enum tree_status finish_here(int *cur, int want, int *fd, struct stat *st)
{
	struct stat sb;
	int w = want & 3;
	if (fstat(*cur, &sb) != 0)
		return errno_status(errno);
	if (st)
		*st = sb;
	if (w == TREE_WANT_FILE)
		return TREE_NOT_REGULAR;
	if (w == TREE_WANT_DIR) {
		*fd = *cur;
		*cur = -1;
	}
	return TREE_OK;
}

enum tree_status tree_resolve(const struct tree *t, const char *base, const char *path,
			      int want, off_t max, int *fd, struct stat *st)
{
	char name[NAME_MAX + 1];
	char *rest = NULL;
	enum tree_status rc = TREE_UNREADABLE;
	int cur = -1, links = 0, nofollow = want & TREE_NOFOLLOW;
	size_t depth = 0, pos = 0;
	int dummy;
	if (!fd)
		fd = &dummy;
	*fd = -1;
	if (path[0] == '/') {
		const char *below = below_root(t, path);
		if (!below)
			return TREE_OUTSIDE;
		rest = strdup(below);
	} else {
		rest = tree_join(base && *base ? base : NULL, path);
	}
	if (!rest || (cur = openat(t->rootfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		free(rest);
		errno = rest ? errno : ENOMEM;
		return TREE_UNREADABLE;
	}
	for (;;) {
		while (rest[pos] == '/')
			pos++;
		if (!rest[pos]) {
			rc = finish_here(&cur, want, fd, st);
			break;
		}
		size_t b = pos, e = pos;
		while (rest[e] && rest[e] != '/')
			e++;
		pos = e;
		while (rest[pos] == '/')
			pos++;
		int last = rest[pos] == '\0';
		size_t n = e - b;
		if (n == 1 && rest[b] == '.') {
			if (last) {
				rc = finish_here(&cur, want, fd, st);
				break;
			}
			continue;
		}
		if (n == 2 && rest[b] == '.' && rest[b + 1] == '.') {
			if (depth == 0) {
				rc = TREE_OUTSIDE;
				break;
			}
			/* every directory on the way was opened with O_NOFOLLOW, so
			 * its physical parent is the logical one */
			int up = openat(cur, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (up < 0) {
				rc = errno_status(errno);
				break;
			}
			close(cur);
			cur = up;
			depth--;
			if (last) {
				rc = finish_here(&cur, want, fd, st);
				break;
			}
			continue;
		}
		if (n > NAME_MAX) {
			rc = TREE_MISSING;
			break;
		}
		memcpy(name, rest + b, n);
		name[n] = '\0';
		struct stat sb;
		if (fstatat(cur, name, &sb, AT_SYMLINK_NOFOLLOW) != 0) {
			rc = errno_status(errno);
			break;
		}
		if (S_ISLNK(sb.st_mode)) {
			char target[PATH_MAX + 1];
			if (nofollow) {
				rc = TREE_SYMLINK;
				break;
			}
			if (++links > TREE_MAX_LINKS) {
				rc = TREE_LOOP;
				break;
			}
			ssize_t tl = readlinkat(cur, name, target, sizeof(target) - 1);
			if (tl <= 0 || (size_t)tl >= sizeof(target) - 1) {
				rc = tl == 0 ? TREE_MISSING : errno_status(tl < 0 ? errno : ENAMETOOLONG);
				break;
			}
			target[tl] = '\0';
			const char *walk = target;
			if (target[0] == '/') {
				walk = below_root(t, target);
				if (!walk) {
					rc = TREE_OUTSIDE;
					break;
				}
				int r = openat(t->rootfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
				if (r < 0) {
					rc = errno_status(errno);
					break;
				}
				close(cur);
				cur = r;
				depth = 0;
			}
			if (set_rest(&rest, walk, strlen(walk), rest + pos) != 0) {
				errno = ENOMEM;
				rc = TREE_UNREADABLE;
				break;
			}
			pos = 0;
			continue;
		}
		if (last) {
			rc = finish(cur, name, &sb, want, max, fd, st);
			break;
		}
		if (!S_ISDIR(sb.st_mode)) {
			rc = TREE_MISSING;
			break;
		}
		int next = openat(cur, name, DIR_FLAGS);
		if (next < 0) {
			rc = errno_status(errno);
			break;
		}
		close(cur);
		cur = next;
		depth++;
	}
	int e = errno;
	if (cur >= 0)
		close(cur);
	free(rest);
	errno = e;
	return rc;
}

enum tree_status tree_fopen(const struct tree *t, const char *base, const char *path,
			    off_t max, FILE **f)
{
	int fd;
	*f = NULL;
	enum tree_status s = tree_resolve(t, base, path, TREE_WANT_FILE, max, &fd, NULL);
	if (s != TREE_OK)
		return s;
	if (!(*f = fdopen(fd, "rb"))) {
		int e = errno;
		close(fd);
		errno = e;
		return TREE_UNREADABLE;
	}
	return TREE_OK;
}

enum tree_status tree_read(const struct tree *t, const char *base, const char *path,
			   off_t max, char **data, size_t *len)
{
	int fd;
	struct stat st;
	*data = NULL;
	*len = 0;
	enum tree_status s = tree_resolve(t, base, path, TREE_WANT_FILE, max, &fd, &st);
	if (s != TREE_OK)
		return s;
	/* the size may change under us: read to the end, within the cap */
	size_t cap = (size_t)st.st_size + 1, n = 0;
	char *buf = malloc(cap + 1);
	int e = 0;
	s = TREE_OK;
	while (buf) {
		if (max > 0 && (off_t)n > max) {
			s = TREE_TOO_LARGE;
			break;
		}
		if (n == cap) {
			char *nb = realloc(buf, 2 * cap + 1);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		ssize_t r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			e = errno;
			s = TREE_UNREADABLE;
			break;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (!buf) {
		errno = ENOMEM;
		return TREE_UNREADABLE;
	}
	if (s != TREE_OK) {
		free(buf);
		errno = e;
		return s;
	}
	buf[n] = '\0';
	*data = buf;
	*len = n;
	return TREE_OK;
}

/* ---- the walker ---- */

void tree_hits_release(struct tree_hits *h)
{
	for (size_t i = 0; i < h->n; i++)
		free(h->v[i].rel);
	free(h->v);
	memset(h, 0, sizeof(*h));
}

static int add_hit(struct tree_hits *h, const char *rel, int which, enum tree_hit_kind kind, int err)
{
	if (h->n == h->cap) {
		size_t c = h->cap ? 2 * h->cap : 16;
		struct tree_hit *v = realloc(h->v, c * sizeof(*v));
		if (!v)
			return -1;
		h->v = v;
		h->cap = c;
	}
	if (!(h->v[h->n].rel = strdup(rel)))
		return -1;
	h->v[h->n].which = which;
	h->v[h->n].kind = kind;
	h->v[h->n].err = err;
	h->n++;
	return 0;
}

struct level {
	int fd;              /* -1 once closed to save descriptors */
	dev_t dev;
	ino_t ino;
	char **names;        /* sorted entries */
	size_t n, i;
	size_t plen;         /* length of the path of this directory */
};

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_names(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Reads the entry names of the directory fd (left open) into lv. */
static int read_level(int fd, struct level *lv)
{
	struct stat st;
	int d = dup(fd);
	DIR *dir = d >= 0 ? fdopendir(d) : NULL;
	size_t cap = 0;
	if (!dir) {
		if (d >= 0)
			close(d);
		return -1;
	}
	rewinddir(dir);
	struct dirent *de;
	while ((de = readdir(dir)) != NULL) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (lv->n == cap) {
			cap = cap ? 2 * cap : 16;
			char **v = realloc(lv->names, cap * sizeof(*v));
			if (!v)
				goto oom;
			lv->names = v;
		}
		if (!(lv->names[lv->n] = strdup(de->d_name)))
			goto oom;
		lv->n++;
	}
	closedir(dir);
	if (lv->n > 1)
		qsort(lv->names, lv->n, sizeof(*lv->names), cmp_name);
	if (fstat(fd, &st) != 0)
		return -1;
	lv->fd = fd;
	lv->dev = st.st_dev;
	lv->ino = st.st_ino;
	return 0;
oom:
	closedir(dir);
	errno = ENOMEM;
	return -1;
}

static int in_list(const char *const *list, const char *name)
{
	for (size_t i = 0; list && list[i]; i++)
		if (strcmp(list[i], name) == 0)
			return (int)i;
	return -1;
}

/* path[0..plen) + "/" + name (no slash at the root) */
static int path_push(char **path, size_t *cap, size_t plen, const char *name)
{
	size_t nl = strlen(name), need = plen + nl + 2;
	if (need > *cap) {
		size_t c = *cap ? *cap : 256;
		while (c < need)
			c *= 2;
		char *p = realloc(*path, c);
		if (!p)
			return -1;
		*path = p;
		*cap = c;
	}
	size_t at = plen;
	if (plen)
		(*path)[at++] = '/';
	memcpy(*path + at, name, nl + 1);
	return 0;
}

int tree_find(const struct tree *t, const char *base, const char *const *names,
	      const char *const *skip, struct tree_hits *out)
{
	struct level *stk = NULL;
	size_t depth = 0, cap = 0, pcap = 0;
	char *path = NULL;
	int rc = -1, fd;
	if (tree_resolve(t, base, ".", TREE_WANT_DIR | TREE_NOFOLLOW, 0, &fd, NULL) != TREE_OK)
		return add_hit(out, base ? base : "", 0, TREE_HIT_UNREADABLE, errno ? errno : ENOTDIR);
	if (path_push(&path, &pcap, 0, base ? base : "") != 0) {
		close(fd);
		return -1;
	}
	stk = calloc(16, sizeof(*stk));
	if (!stk) {
		close(fd);
		goto out;
	}
	cap = 16;
	if (read_level(fd, &stk[0]) != 0) {
		int e = errno;
		close(fd);
		free_names(stk[0].names, stk[0].n);
		rc = e == ENOMEM ? -1 : add_hit(out, path, 0, TREE_HIT_UNREADABLE, e);
		free(stk);
		free(path);
		return rc;
	}
	stk[0].plen = strlen(path);
	depth = 1;
	while (depth > 0) {
		struct level *lv = &stk[depth - 1];
		if (lv->i == lv->n) {
			/* back up: reopen the parent when its descriptor was let go */
			if (depth > 1 && stk[depth - 2].fd < 0) {
				struct level *up = &stk[depth - 2];
				struct stat st;
				int pfd = openat(lv->fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
				if (pfd < 0 || fstat(pfd, &st) != 0 || st.st_dev != up->dev || st.st_ino != up->ino) {
					if (pfd >= 0)
						close(pfd);
					errno = ESTALE; /* the tree moved under the walk */
					goto out;
				}
				up->fd = pfd;
			}
			close(lv->fd);
			free_names(lv->names, lv->n);
			memset(lv, 0, sizeof(*lv));
			depth--;
			continue;
		}
		const char *nm = lv->names[lv->i++];
		struct stat st;
		if (fstatat(lv->fd, nm, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue; /* gone since it was listed */
		int which = in_list(names, nm);
		if (!S_ISLNK(st.st_mode) && !S_ISDIR(st.st_mode))
			continue;
		if (path_push(&path, &pcap, lv->plen, nm) != 0)
			goto out;
		if (S_ISLNK(st.st_mode)) {
			if (which >= 0 && add_hit(out, path, which, TREE_HIT_SYMLINK, 0) != 0)
				goto out;
			continue;
		}
		if (which >= 0) {
			if (add_hit(out, path, which, TREE_HIT_DIR, 0) != 0)
				goto out;
			continue;
		}
		if (in_list(skip, nm) >= 0)
			continue;
		int d = openat(lv->fd, nm, DIR_FLAGS);
		if (d < 0) {
			if (add_hit(out, path, 0, TREE_HIT_UNREADABLE, errno) != 0)
				goto out;
			continue;
		}
		if (depth == cap) {
			struct level *v = realloc(stk, 2 * cap * sizeof(*v));
			if (!v) {
				close(d);
				goto out;
			}
			stk = v;
			cap *= 2;
		}
		lv = NULL; /* stk may have moved */
		struct level *nx = &stk[depth];
		memset(nx, 0, sizeof(*nx));
		if (read_level(d, nx) != 0) {
			int e = errno;
			close(d);
			free_names(nx->names, nx->n);
			memset(nx, 0, sizeof(*nx));
			if (e == ENOMEM || add_hit(out, path, 0, TREE_HIT_UNREADABLE, e) != 0)
				goto out;
			continue;
		}
		nx->plen = strlen(path);
		depth++;
		/* bounded descriptors at any depth */
		if (depth > TREE_WALK_FDS && stk[depth - 1 - TREE_WALK_FDS].fd >= 0) {
			close(stk[depth - 1 - TREE_WALK_FDS].fd);
			stk[depth - 1 - TREE_WALK_FDS].fd = -1;
		}
	}
	rc = 0;
out:
	{
		int e = errno;
		for (size_t i = 0; i < depth; i++) {
			if (stk[i].fd >= 0)
				close(stk[i].fd);
			free_names(stk[i].names, stk[i].n);
		}
		free(stk);
		free(path);
		errno = e;
	}
	return rc;
}

char *tree_repo_top(const char *dir)
{
	char *buf = realpath(dir, NULL);
	if (!buf)
		return NULL;
	for (;;) {
		int fd = open(buf, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		struct stat st;
		int hit = fd >= 0 && fstatat(fd, ".git", &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			  (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode));
		if (fd >= 0)
			close(fd);
		if (hit)
			return buf;
		char *slash = strrchr(buf, '/');
		if (!slash || slash == buf) {
			free(buf);
			return NULL;
		}
		*slash = '\0';
	}
}
