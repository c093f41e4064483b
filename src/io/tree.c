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
	t->memo_fd = -1;
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
	if (t->memo_fd >= 0)
		close(t->memo_fd);
	free(t->root);
	free(t->memo_base);
	memset(t, 0, sizeof(*t));
	t->rootfd = -1;
	t->memo_fd = -1;
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

/* One tree_resolve walk: what is left of the path and where it stands. */
struct rwalk {
	const struct tree *t;
	char *rest;           /* the path still to walk (malloc'd) */
	size_t pos;           /* next byte of rest */
	int cur;              /* the directory reached, -1 once handed out */
	size_t depth;         /* directories below the root */
	int links;            /* symbolic links followed */
	int want;
	off_t max;
	int *fd;
	struct stat *st;
	enum tree_status rc;  /* the outcome, once walk_done */
};

/* Ends the walk with rc; returns 1 (done). */
static int walk_done(struct rwalk *w, enum tree_status rc)
{
	w->rc = rc;
	return 1;
}

/* The directory reached is the final component: returns 1 (done). */
static int walk_here(struct rwalk *w)
{
	return walk_done(w, finish_here(&w->cur, w->want, w->fd, w->st));
}

/* A ".." component: up to the parent, refused at the root. Returns 1
 * when the walk is done (w->rc), 0 to go on. */
static int walk_up(struct rwalk *w, int last)
{
	if (w->depth == 0)
		return walk_done(w, TREE_OUTSIDE);
	/* every directory on the way was opened with O_NOFOLLOW, so its
	 * physical parent is the logical one */
	int up = openat(w->cur, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (up < 0)
		return walk_done(w, errno_status(errno));
	close(w->cur);
	w->cur = up;
	w->depth--;
	return last ? walk_here(w) : 0;
}

/* The component name in w->cur is a symbolic link: unless refused, its
 * target replaces it at the head of the rest (an absolute target restarts
 * at the root). Returns 1 when the walk is done (w->rc), 0 to go on. */
static int walk_link(struct rwalk *w, const char *name)
{
	char target[PATH_MAX + 1];
	if (w->want & TREE_NOFOLLOW)
		return walk_done(w, TREE_SYMLINK);
	if (++w->links > TREE_MAX_LINKS)
		return walk_done(w, TREE_LOOP);
	ssize_t tl = readlinkat(w->cur, name, target, sizeof(target) - 1);
	if (tl <= 0 || (size_t)tl >= sizeof(target) - 1)
		return walk_done(w, tl == 0 ? TREE_MISSING : errno_status(tl < 0 ? errno : ENAMETOOLONG));
	target[tl] = '\0';
	const char *walk = target;
	if (target[0] == '/') {
		walk = below_root(w->t, target);
		if (!walk)
			return walk_done(w, TREE_OUTSIDE);
		int r = openat(w->t->rootfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (r < 0)
			return walk_done(w, errno_status(errno));
		close(w->cur);
		w->cur = r;
		w->depth = 0;
	}
	if (set_rest(&w->rest, walk, strlen(walk), w->rest + w->pos) != 0) {
		errno = ENOMEM;
		return walk_done(w, TREE_UNREADABLE);
	}
	w->pos = 0;
	return 0;
}

/* Walks the component rest[b..b+n) (last: nothing follows it). Returns 1
 * when the walk is done (w->rc), 0 to go on. */
static int walk_component(struct rwalk *w, size_t b, size_t n, int last)
{
	char name[NAME_MAX + 1];
	const char *c = w->rest + b;
	if (n == 1 && c[0] == '.')
		return last ? walk_here(w) : 0;
	if (n == 2 && c[0] == '.' && c[1] == '.')
		return walk_up(w, last);
	if (n > NAME_MAX)
		return walk_done(w, TREE_MISSING);
	memcpy(name, c, n);
	name[n] = '\0';
	struct stat sb;
	if (fstatat(w->cur, name, &sb, AT_SYMLINK_NOFOLLOW) != 0)
		return walk_done(w, errno_status(errno));
	if (S_ISLNK(sb.st_mode))
		return walk_link(w, name);
	if (last)
		return walk_done(w, finish(w->cur, name, &sb, w->want, w->max, w->fd, w->st));
	if (!S_ISDIR(sb.st_mode))
		return walk_done(w, TREE_MISSING);
	int next = openat(w->cur, name, DIR_FLAGS);
	if (next < 0)
		return walk_done(w, errno_status(errno));
	close(w->cur);
	w->cur = next;
	w->depth++;
	return 0;
}

/* Walks the next component of the rest. Returns 1 when the walk is done
 * (w->rc), 0 to go on. */
static int walk_next(struct rwalk *w)
{
	const char *r = w->rest;
	while (r[w->pos] == '/')
		w->pos++;
	if (!r[w->pos])
		return walk_here(w);
	size_t b = w->pos, e = w->pos;
	while (r[e] && r[e] != '/')
		e++;
	w->pos = e;
	while (r[w->pos] == '/')
		w->pos++;
	return walk_component(w, b, e - b, r[w->pos] == '\0');
}

static enum tree_status resolve_walk(const struct tree *t, const char *base, const char *path,
				     int want, off_t max, int *fd, struct stat *st);

/* A descriptor of the directory base when the walk reaches it with no
 * symbolic link on the way, kept in t's memo (the last one asked for);
 * -1 otherwise. */
static int memo_dir(const struct tree *t, const char *base)
{
	struct tree *m = (struct tree *)t; /* the memo is a cache, not the tree's value */
	if (m->memo_base && strcmp(m->memo_base, base) == 0)
		return m->memo_fd;
	int fd;
	if (resolve_walk(t, NULL, base, TREE_WANT_DIR | TREE_NOFOLLOW, 0, &fd, NULL) != TREE_OK)
		return -1;
	char *b = strdup(base);
	if (!b) {
		close(fd);
		return -1;
	}
	if (m->memo_fd >= 0)
		close(m->memo_fd);
	free(m->memo_base);
	m->memo_base = b;
	m->memo_fd = fd;
	return fd;
}

/* The path as one plain component (not "", ".", ".." and no '/'). */
static int plain_name(const char *path)
{
	size_t n = strcspn(path, "/");
	return n > 0 && n <= NAME_MAX && path[n] == '\0' && strcmp(path, ".") != 0 &&
	       strcmp(path, "..") != 0;
}

/* tree_resolve for a plain name in the directory dir (no symbolic link
 * before it): 1 with *rc when answered, 0 when the name is a link and the
 * whole walk must answer (its links budget and ".." rules). */
static int resolve_in(int dir, const char *name, int want, off_t max, int *fd, struct stat *st,
		      enum tree_status *rc)
{
	struct stat sb;
	if (fstatat(dir, name, &sb, AT_SYMLINK_NOFOLLOW) != 0) {
		*rc = errno_status(errno);
		return 1;
	}
	if (S_ISLNK(sb.st_mode))
		return 0;
	*rc = finish(dir, name, &sb, want, max, fd, st);
	return 1;
}

enum tree_status tree_resolve(const struct tree *t, const char *base, const char *path,
			      int want, off_t max, int *fd, struct stat *st)
{
	int dummy;
	enum tree_status rc;
	if (!fd)
		fd = &dummy;
	*fd = -1;
	if (base && *base && plain_name(path)) {
		int dir = memo_dir(t, base);
		if (dir >= 0 && resolve_in(dir, path, want, max, fd, st, &rc))
			return rc;
	}
	return resolve_walk(t, base, path, want, max, fd, st);
}

/* The whole walk (see tree_resolve). */
static enum tree_status resolve_walk(const struct tree *t, const char *base, const char *path,
				     int want, off_t max, int *fd, struct stat *st)
{
	int dummy;
	if (!fd)
		fd = &dummy;
	*fd = -1;
	struct rwalk w = { .t = t, .cur = -1, .want = want, .max = max, .fd = fd, .st = st,
			   .rc = TREE_UNREADABLE };
	if (path[0] == '/') {
		const char *below = below_root(t, path);
		if (!below)
			return TREE_OUTSIDE;
		w.rest = strdup(below);
	} else {
		w.rest = tree_join(base && *base ? base : NULL, path);
	}
	if (!w.rest || (w.cur = openat(t->rootfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		free(w.rest);
		errno = w.rest ? errno : ENOMEM;
		return TREE_UNREADABLE;
	}
	while (!walk_next(&w))
		;
	int e = errno;
	if (w.cur >= 0)
		close(w.cur);
	free(w.rest);
	errno = e;
	return w.rc;
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

/* One tree_find walk: the stack of open levels and the current path. */
struct find {
	struct level *stk;
	size_t depth, cap;
	char *path;        /* relative path of the entry in hand (malloc'd) */
	size_t pcap;
	const char *const *names, *const *skip;
	struct tree_hits *out;
};

/* Pushes the directory d (whose path is f->path) as a new level; d is
 * closed on failure. An unreadable directory is a hit, not an error.
 * Returns 0, or -1 when out of memory. */
static int find_descend(struct find *f, int d)
{
	if (f->depth == f->cap) {
		size_t c = f->cap ? 2 * f->cap : 16;
		struct level *v = realloc(f->stk, c * sizeof(*v));
		if (!v) {
			close(d);
			return -1;
		}
		f->stk = v;
		f->cap = c;
	}
	struct level *nx = &f->stk[f->depth];
	memset(nx, 0, sizeof(*nx));
	if (read_level(d, nx) != 0) {
		int e = errno;
		close(d);
		free_names(nx->names, nx->n);
		memset(nx, 0, sizeof(*nx));
		errno = e;
		return e == ENOMEM ? -1 : add_hit(f->out, f->path, 0, TREE_HIT_UNREADABLE, e);
	}
	nx->plen = strlen(f->path);
	f->depth++;
	/* bounded descriptors at any depth */
	if (f->depth > TREE_WALK_FDS && f->stk[f->depth - 1 - TREE_WALK_FDS].fd >= 0) {
		close(f->stk[f->depth - 1 - TREE_WALK_FDS].fd);
		f->stk[f->depth - 1 - TREE_WALK_FDS].fd = -1;
	}
	return 0;
}

/* Leaves the finished top level, reopening its parent when that
 * descriptor was let go. Returns 0, or -1 (errno ESTALE) when the tree
 * moved under the walk. */
static int find_pop(struct find *f)
{
	struct level *lv = &f->stk[f->depth - 1];
	if (f->depth > 1 && f->stk[f->depth - 2].fd < 0) {
		struct level *up = &f->stk[f->depth - 2];
		struct stat st;
		int pfd = openat(lv->fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (pfd < 0 || fstat(pfd, &st) != 0 || st.st_dev != up->dev || st.st_ino != up->ino) {
			if (pfd >= 0)
				close(pfd);
			errno = ESTALE;
			return -1;
		}
		up->fd = pfd;
	}
	close(lv->fd);
	free_names(lv->names, lv->n);
	memset(lv, 0, sizeof(*lv));
	f->depth--;
	return 0;
}

/* The next entry of the top level: a wanted name is a hit (never
 * entered), other directories are entered unless skipped. Returns 0, or
 * -1 when out of memory. */
static int find_entry(struct find *f)
{
	struct level *lv = &f->stk[f->depth - 1];
	const char *nm = lv->names[lv->i++];
	struct stat st;
	if (fstatat(lv->fd, nm, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return 0; /* gone since it was listed */
	int which = in_list(f->names, nm);
	if (!S_ISLNK(st.st_mode) && !S_ISDIR(st.st_mode))
		return 0;
	if (path_push(&f->path, &f->pcap, lv->plen, nm) != 0)
		return -1;
	if (S_ISLNK(st.st_mode))
		return which >= 0 ? add_hit(f->out, f->path, which, TREE_HIT_SYMLINK, 0) : 0;
	if (which >= 0)
		return add_hit(f->out, f->path, which, TREE_HIT_DIR, 0);
	if (in_list(f->skip, nm) >= 0)
		return 0;
	int d = openat(lv->fd, nm, DIR_FLAGS);
	if (d < 0)
		return add_hit(f->out, f->path, 0, TREE_HIT_UNREADABLE, errno);
	return find_descend(f, d);
}

int tree_find(const struct tree *t, const char *base, const char *const *names,
	      const char *const *skip, struct tree_hits *out)
{
	struct find f = { .names = names, .skip = skip, .out = out };
	int rc = -1, fd;
	if (tree_resolve(t, base, ".", TREE_WANT_DIR | TREE_NOFOLLOW, 0, &fd, NULL) != TREE_OK)
		return add_hit(out, base ? base : "", 0, TREE_HIT_UNREADABLE, errno ? errno : ENOTDIR);
	if (path_push(&f.path, &f.pcap, 0, base ? base : "") != 0) {
		close(fd);
		return -1;
	}
	rc = find_descend(&f, fd);
	while (rc == 0 && f.depth > 0) {
		struct level *lv = &f.stk[f.depth - 1];
		rc = lv->i == lv->n ? find_pop(&f) : find_entry(&f);
	}
	int e = errno;
	for (size_t i = 0; i < f.depth; i++) {
		if (f.stk[i].fd >= 0)
			close(f.stk[i].fd);
		free_names(f.stk[i].names, f.stk[i].n);
	}
	free(f.stk);
	free(f.path);
	errno = e;
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
