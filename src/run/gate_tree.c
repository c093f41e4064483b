/* gate_tree.c: roots, discovery and configuration of the gate (gate_tree.h). */
#include "run/gate_tree.h"

#include "gates/rules.h"
#include "run/git.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CONFIG_MAX (1 << 20)
#define GIT_LIST_MAX (256u << 20)

static const char *const kinds[] = { "perf_opt", "perf_tuning", NULL };
static const char *const skipped[] = { ".git", "node_modules", NULL };

void gate_set_init(struct gate_set *s)
{
	memset(s, 0, sizeof(*s));
	gate_findings_init(&s->tree_findings);
}

static void root_release(struct gate_root *r)
{
	tree_close(&r->tree);
	if (r->has_repo)
		tree_close(&r->repo);
	free(r->shown);
	free(r->top);
	free(r->in_repo);
	free(r->only);
}

void gate_set_release(struct gate_set *s)
{
	for (size_t i = 0; i < s->nroots; i++)
		root_release(&s->roots[i]);
	free(s->roots);
	for (size_t i = 0; i < s->ndirs; i++) {
		free(s->dirs[i].rel);
		free(s->dirs[i].shown);
	}
	free(s->dirs);
	free(s->revlist);
	free(s->revlist_key);
	free(s->revlist_top);
	gate_findings_release(&s->tree_findings);
	gate_set_init(s);
}

/* The last component of p (trailing slashes ignored), as [*b, *b + n). */
static void last_component(const char *p, const char **b, size_t *n)
{
	size_t e = strlen(p);
	while (e > 1 && p[e - 1] == '/')
		e--;
	size_t s = e;
	while (s > 0 && p[s - 1] != '/')
		s--;
	*b = p + s;
	*n = e - s;
}

static int kind_of(const char *name, size_t n)
{
	for (int k = 0; kinds[k]; k++)
		if (strlen(kinds[k]) == n && strncmp(name, kinds[k], n) == 0)
			return k;
	return -1;
}

/* 0 when operand is a directory we can read; -1 with err otherwise. */
static int readable_dir(const char *operand, char *err, size_t errlen)
{
	struct stat st;
	if (stat(operand, &st) != 0) {
		snprintf(err, errlen, "cannot read '%s': %s", operand, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "'%s' is not a directory", operand);
		return -1;
	}
	if (access(operand, R_OK | X_OK) != 0) {
		snprintf(err, errlen, "cannot read '%s': %s", operand, strerror(errno));
		return -1;
	}
	return 0;
}

/* 1 when the directory real[0..n) holds a regular file itself: a perf
 * directory does (opt_log.md, perf_log.md...); a folder of folders that
 * happens to be named perf_tuning/ does not. */
static int holds_file(const char *real, size_t n)
{
	char *dir = strndup(real, n);
	DIR *d = dir ? opendir(dir) : NULL;
	struct dirent *e;
	struct stat st;
	int found = 0;
	while (d && !found && (e = readdir(d)) != NULL)
		found = e->d_name[0] != '.' && fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			S_ISREG(st.st_mode);
	if (d)
		closedir(d);
	free(dir);
	return found;
}

/* The nearest perf directory that real (a real path) is or lies in, below
 * the repository top holding it (never the top itself or above: a clone
 * inside a folder named perf_tuning/ stays a tree); one it lies in must
 * hold a file of its own. The length of its path in real, 0 when there is
 * none. */
static size_t perf_ancestor(const char *real)
{
	char *top = tree_repo_top(real);
	size_t floor = top ? strlen(top) : 0, e = strlen(real), end = e;
	free(top);
	while (e > floor) {
		size_t s = e;
		while (s > 0 && real[s - 1] != '/')
			s--;
		if (s <= floor)
			break;
		if (kind_of(real + s, e - s) >= 0 && (e == end || holds_file(real, e)))
			return e;
		e = s - 1;
	}
	return 0;
}

/* How the perf directory dir (a real path) is shown from the current
 * directory: relative when the current directory holds it ("op/perf_opt")
 * or lies in it ("../perf_opt"), else dir itself. malloc'd, NULL when out
 * of memory. */
static char *shown_from_cwd(const char *dir)
{
	char *cwd = realpath(".", NULL);
	size_t cl = cwd ? strlen(cwd) : 0;
	const char *b;
	size_t n, depth = 0;
	last_component(dir, &b, &n);
	size_t pl = (size_t)(b - dir); /* dir's parent, with its slash */
	char *out = NULL;
	if (cwd && cl > 1 && strncmp(dir, cwd, cl) == 0 && dir[cl] == '/') {
		out = strdup(dir + cl + 1);
	} else if (cwd && pl > 0 && strncmp(cwd, dir, pl) == 0) {
		for (const char *p = cwd + pl - 1; *p; p++)
			depth += *p == '/';
		if (!(out = malloc(3 * depth + n + 1))) {
			free(cwd);
			return NULL;
		}
		for (size_t i = 0; i < depth; i++)
			memcpy(out + 3 * i, "../", 3);
		memcpy(out + 3 * depth, b, n);
		out[3 * depth + n] = '\0';
	} else {
		out = strdup(dir);
	}
	free(cwd);
	return out;
}

/* The root, its perf directory and how it is shown for an operand that is
 * not named perf_opt/ or perf_tuning/ but is one or lies in one ("." in
 * perf_opt/, op/perf_opt/kernels): the operator directory above it becomes
 * the root, as if the perf directory had been named. Reads nothing but the
 * names of the directories up to the repository top. 0: not in one; 1:
 * *rootpath, r->only and r->shown set; -1 out of memory. */
static int root_in_perf_dir(struct gate_root *r, const char *operand, char **rootpath)
{
	char *real = realpath(operand, NULL);
	size_t e = real ? perf_ancestor(real) : 0;
	int rc = 0;
	if (e > 0) {
		real[e] = '\0';
		const char *b;
		size_t n;
		last_component(real, &b, &n);
		r->only = strndup(b, n);
		r->shown = shown_from_cwd(real);
		*rootpath = b - real > 1 ? strndup(real, (size_t)(b - real - 1)) : strdup("/");
		rc = r->only && r->shown && *rootpath ? 1 : -1;
	}
	free(real);
	return rc;
}

/* Opens the tree of root r for operand (a perf dir named itself, or one
 * operand is or lies in, makes its parent the root and r->only its name).
 * 0; -1 with err, r's strings freed. */
static int root_open(struct gate_root *r, const char *operand, char *err, size_t errlen)
{
	const char *b;
	size_t n;
	last_component(operand, &b, &n);
	int named = kind_of(b, n) >= 0;
	char *rootpath = NULL;
	int inside = named ? 0 : root_in_perf_dir(r, operand, &rootpath);
	if (inside) {
		named = 1;
	} else if (named) {
		r->only = strndup(b, n);
		rootpath = b == operand ? strdup(".") : strndup(operand, (size_t)(b - operand));
	} else {
		rootpath = strdup(operand);
	}
	if (!inside)
		r->shown = strdup(operand);
	int rc = 0;
	if (inside < 0 || !rootpath || !r->shown || (named && !r->only)) {
		snprintf(err, errlen, "out of memory");
		rc = -1;
	} else if (tree_open(&r->tree, rootpath) != 0) {
		snprintf(err, errlen, "cannot read '%s': %s", operand, strerror(errno));
		rc = -1;
	}
	free(rootpath);
	if (rc) {
		free(r->shown);
		free(r->only);
	}
	return rc;
}

/* The repository holding root r, if any: its top, r's path in it and the
 * top's tree. 0, or -1 when out of memory. */
static int root_repo(struct gate_root *r)
{
	r->top = tree_repo_top(r->tree.root);
	if (!r->top)
		return 0;
	size_t tl = strlen(r->top);
	const char *in = strcmp(r->tree.root, r->top) == 0 ? "" :
			 tl == 1 ? r->tree.root + 1 : r->tree.root + tl + 1;
	if (!(r->in_repo = strdup(in)))
		return -1;
	if (tree_open(&r->repo, r->top) == 0)
		r->has_repo = 1;
	return 0;
}

int gate_set_add_root(struct gate_set *s, const char *operand, char *err, size_t errlen)
{
	if (readable_dir(operand, err, errlen) != 0)
		return -1;
	struct gate_root *v = realloc(s->roots, (s->nroots + 1) * sizeof(*v));
	if (!v) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	s->roots = v;
	struct gate_root *r = &s->roots[s->nroots];
	memset(r, 0, sizeof(*r));
	r->tree.rootfd = -1;
	if (root_open(r, operand, err, errlen) != 0)
		return -1;
	s->nroots++;
	if (root_repo(r) != 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

long gate_set_empty_root(const struct gate_set *s)
{
	if (s->tree_findings.n > 0)
		return -1;
	for (size_t r = 0; r < s->nroots; r++) {
		size_t i = 0;
		while (i < s->ndirs && s->dirs[i].root != r)
			i++;
		if (i == s->ndirs)
			return (long)r;
	}
	return -1;
}

/* How rel of root r is shown. */
static char *shown_of(const struct gate_root *r, const char *rel)
{
	if (r->only && strcmp(rel, r->only) == 0)
		return strdup(r->shown);
	if (r->only) {
		/* shown is the perf dir: its parent is the root */
		const char *b;
		size_t n;
		last_component(r->shown, &b, &n);
		if (b == r->shown)
			return strdup(rel);
		char *parent = strndup(r->shown, (size_t)(b - r->shown));
		char *j = parent ? tree_join(parent, rel) : NULL;
		free(parent);
		return j;
	}
	return tree_join(r->shown, rel);
}

static int add_dir(struct gate_set *s, size_t root, const char *rel, int ptune)
{
	if (s->ndirs == s->cap) {
		size_t c = s->cap ? 2 * s->cap : 16;
		struct gate_dir *v = realloc(s->dirs, c * sizeof(*v));
		if (!v)
			return -1;
		s->dirs = v;
		s->cap = c;
	}
	struct gate_dir *d = &s->dirs[s->ndirs];
	d->root = root;
	d->ptune = ptune;
	d->rel = strdup(rel);
	d->shown = shown_of(&s->roots[root], rel);
	if (!d->rel || !d->shown) {
		free(d->rel);
		free(d->shown);
		return -1;
	}
	s->ndirs++;
	return 0;
}

static int tree_finding(struct gate_set *s, size_t root, const char *rel, const char *what)
{
	char *shown = shown_of(&s->roots[root], rel);
	if (!shown)
		return -1;
	int rc = gate_add(&s->tree_findings, "TLGATE-TREE", GATE_ERROR, shown, 0, "%s", what);
	free(shown);
	return rc;
}

/* A directory named by the operand or the changed-files list: checked
 * when it is a real directory, a finding when it is a link. */
static int add_named(struct gate_set *s, size_t root, const char *rel, int ptune)
{
	int fd;
	enum tree_status st = tree_resolve(&s->roots[root].tree, rel, ".", TREE_WANT_DIR | TREE_NOFOLLOW, 0,
					   &fd, NULL);
	if (st == TREE_OK) {
		close(fd);
		return add_dir(s, root, rel, ptune);
	}
	if (st == TREE_MISSING)
		return 0; /* nothing there to check */
	char msg[200];
	if (st == TREE_SYMLINK)
		snprintf(msg, sizeof(msg), "%s/ is a symbolic link, or lies under one: tlgate never follows "
			 "links, so it is not checked (commit the directory itself)", kinds[ptune]);
	else
		snprintf(msg, sizeof(msg), "%s/ %s: it is not checked", kinds[ptune], tree_status_text(st));
	return tree_finding(s, root, rel, msg);
}

static int walk_root(struct gate_set *s, size_t root)
{
	struct tree_hits h = { 0 };
	if (tree_find(&s->roots[root].tree, "", kinds, skipped, &h) != 0) {
		tree_hits_release(&h);
		return -1;
	}
	int rc = 0;
	for (size_t i = 0; i < h.n && rc == 0; i++) {
		const struct tree_hit *x = &h.v[i];
		char msg[300];
		if (x->kind == TREE_HIT_DIR) {
			rc = add_dir(s, root, x->rel, x->which);
		} else if (x->kind == TREE_HIT_SYMLINK) {
			snprintf(msg, sizeof(msg), "%s/ is a symbolic link: tlgate never follows links, so it is "
				 "not checked (commit the directory itself)", kinds[x->which]);
			rc = tree_finding(s, root, x->rel, msg);
		} else {
			snprintf(msg, sizeof(msg), "directory cannot be read (%s): perf_opt/ and perf_tuning/ "
				 "directories under it are not checked", strerror(x->err));
			rc = tree_finding(s, root, x->rel, msg);
		}
	}
	tree_hits_release(&h);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The perf dir a changed path lies in (or is: a link blob), as the length
 * of its prefix, with *kind; 0 when none. */
static size_t perf_prefix(const char *p, int *kind)
{
	size_t i = 0;
	for (;;) {
		size_t e = i;
		while (p[e] && p[e] != '/')
			e++;
		int k = kind_of(p + i, e - i);
		if (k >= 0) {
			*kind = k;
			return e;
		}
		if (!p[e])
			return 0;
		i = e + 1;
	}
}

/* The perf directories that the changed paths (NUL-separated, len bytes)
 * lie in, sorted, into *v (malloc'd strings, *n of them; the caller frees
 * both, also on failure). 0, or -1 when out of memory. */
static int changed_perf_dirs(const char *changed, size_t len, char ***v, size_t *n)
{
	size_t cap = 0;
	for (size_t i = 0; i < len;) {
		const char *name = changed + i;
		size_t nl = strnlen(name, len - i);
		i += nl + 1;
		int k;
		size_t pl = perf_prefix(name, &k);
		if (!pl)
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			char **nv = realloc(*v, cap * sizeof(*nv));
			if (!nv)
				return -1;
			*v = nv;
		}
		if (!((*v)[*n] = strndup(name, pl)))
			return -1;
		(*n)++;
	}
	if (*n > 1)
		qsort(*v, *n, sizeof(**v), cmp_str);
	return 0;
}

/* Adds the directories of root r among the sorted repository paths v
 * (duplicates once). 0, or -1 when out of memory. */
static int add_changed_in_root(struct gate_set *s, size_t r, char *const *v, size_t n)
{
	const struct gate_root *gr = &s->roots[r];
	size_t il = strlen(gr->in_repo);
	for (size_t j = 0; j < n; j++) {
		if (j > 0 && strcmp(v[j], v[j - 1]) == 0)
			continue;
		const char *rel;
		if (il == 0)
			rel = v[j];
		else if (strncmp(v[j], gr->in_repo, il) == 0 && v[j][il] == '/')
			rel = v[j] + il + 1;
		else
			continue;
		if (gr->only && strcmp(rel, gr->only) != 0)
			continue;
		const char *b;
		size_t bl;
		last_component(rel, &b, &bl);
		if (add_named(s, r, rel, kind_of(b, bl)) != 0)
			return -1;
	}
	return 0;
}

/* Adds the perf directories holding one of the changed paths (NUL-
 * separated, len bytes) to each root inside a repository (only roots in
 * top's when top is not NULL). 0, or -1 when out of memory. */
static int from_changed(struct gate_set *s, const char *top, const char *changed, size_t len)
{
	char **v = NULL;
	size_t n = 0;
	int rc = -1;
	if (changed_perf_dirs(changed, len, &v, &n) != 0)
		goto out;
	for (size_t r = 0; r < s->nroots; r++) {
		const struct gate_root *gr = &s->roots[r];
		if (!gr->in_repo || (top && strcmp(gr->top, top) != 0))
			continue;
		if (add_changed_in_root(s, r, v, n) != 0)
			goto out;
	}
	rc = 0;
out:
	for (size_t j = 0; j < n; j++)
		free(v[j]);
	free(v);
	return rc;
}

int gate_set_discover(struct gate_set *s, const char *changed, size_t changed_len)
{
	if (changed)
		return from_changed(s, NULL, changed, changed_len);
	for (size_t r = 0; r < s->nroots; r++) {
		const struct gate_root *gr = &s->roots[r];
		int rc = gr->only ? add_named(s, r, gr->only, strcmp(gr->only, "perf_tuning") == 0)
				  : walk_root(s, r);
		if (rc)
			return -1;
	}
	return 0;
}

int gate_set_discover_changed(struct gate_set *s, const char *top, const char *changed,
			      size_t changed_len)
{
	return from_changed(s, top, changed, changed_len);
}

int gate_changed_files(const char *top, const char *ref, char **out, size_t *len)
{
	size_t rl = strlen(ref);
	char *range = malloc(rl + 8);
	if (!range)
		return -1;
	snprintf(range, rl + 8, "%s...HEAD", ref);
	char *argv[] = { "git", "-C", (char *)top, "diff", "--name-only", "-z", "--diff-filter=d", range, "--", NULL };
	int g = git_capture(argv, GIT_LIST_MAX, out, len);
	if (g != 0) {
		free(*out);
		snprintf(range, rl + 8, "%s..HEAD", ref);
		g = git_capture(argv, GIT_LIST_MAX, out, len);
	}
	free(range);
	if (g < 0)
		return errno == ENOENT ? 1 : -1;
	if (g != 0) {
		free(*out);
		*out = NULL;
		return 1;
	}
	return 0;
}

char *gate_dir_in_repo(const struct gate_set *s, const struct gate_dir *d)
{
	const struct gate_root *r = &s->roots[d->root];
	if (!r->in_repo)
		return NULL;
	return tree_join(*r->in_repo ? r->in_repo : NULL, d->rel);
}

/* Drops the last component of a relative path in place; 0 when it was
 * already empty. */
static int up_one(char *p)
{
	if (!*p)
		return 0;
	char *slash = strrchr(p, '/');
	if (slash)
		*slash = '\0';
	else
		*p = '\0';
	return 1;
}

/* The length of the prefix of dir (a relative path without "..", from
 * gate_dir_in_repo or a walk) whose directory holds the deepest
 * .tlgate.json of t on the way down, or -1 when none does. One pass down
 * the path: O(depth), whatever the depth. */
static long deepest_config(const struct tree *t, const char *dir)
{
	int cur = openat(t->rootfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	long found = -1;
	size_t i = 0;
	struct stat st;
	while (cur >= 0) {
		if (fstatat(cur, ".tlgate.json", &st, AT_SYMLINK_NOFOLLOW) == 0)
			found = (long)i;
		while (dir[i] == '/')
			i++;
		if (!dir[i])
			break;
		size_t e = i;
		while (dir[e] && dir[e] != '/')
			e++;
		char name[256];
		if (e - i >= sizeof(name))
			break;
		memcpy(name, dir + i, e - i);
		name[e - i] = '\0';
		int next = openat(cur, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(cur);
		cur = next;
		i = e;
	}
	if (cur >= 0)
		close(cur);
	return found;
}

int gate_config_in_tree(const struct gate_set *s, const struct gate_dir *d,
			struct gatecheck_config *cfg, char **name, char *err, size_t errlen)
{
	const struct gate_root *r = &s->roots[d->root];
	const struct tree *t = r->has_repo ? &r->repo : &r->tree;
	char *dir = r->has_repo ? gate_dir_in_repo(s, d) : strdup(d->rel);
	*name = NULL;
	if (!dir) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	long at = deepest_config(t, dir);
	if (at < 0) {
		free(dir);
		return 0;
	}
	while (at > 0 && dir[at - 1] == '/')
		at--;
	dir[at] = '\0';
	char *text = NULL;
	size_t len = 0;
	int rc = 0;
	enum tree_status st = tree_read(t, dir, ".tlgate.json", CONFIG_MAX, &text, &len);
	char *rel = tree_join(*dir ? dir : NULL, ".tlgate.json");
	*name = rel ? tree_join(t->root, rel) : NULL;
	free(rel);
	if (!*name) {
		snprintf(err, errlen, "out of memory");
		rc = -1;
	} else if (st != TREE_OK) {
		snprintf(err, errlen, "cannot read config '%s': it %s", *name,
			 st == TREE_TOO_LARGE ? "is larger than 1 MiB" : tree_status_text(st));
		rc = -1;
	} else {
		rc = gatecheck_config_parse(text, len, *name, cfg, err, errlen);
	}
	free(text);
	free(dir);
	return rc;
}

/* Keeps the .tlgate.json paths of the NUL-separated list (llen bytes) at
 * its front; returns their length. */
static size_t keep_configs(char *list, size_t llen)
{
	size_t k = 0;
	for (size_t i = 0; i < llen;) {
		const char *p = list + i;
		size_t pl = strnlen(p, llen - i);
		i += pl + 1;
		if ((pl == 12 && strcmp(p, ".tlgate.json") == 0) ||
		    (pl > 13 && strcmp(p + pl - 13, "/.tlgate.json") == 0)) {
			memmove(list + k, p, pl + 1);
			k += pl + 1;
		}
	}
	return k;
}

/* Every .tlgate.json of revision rev in top's repository, listed once per
 * repository and revision into s's cache (the lookup is then in memory,
 * for any depth). 0; -1 with err. */
static int revlist_load(struct gate_set *s, const char *top, const char *rev, char *err,
			size_t errlen)
{
	if (s->revlist_key && strcmp(s->revlist_top, top) == 0 && strcmp(s->revlist_key, rev) == 0)
		return 0;
	char *list = NULL;
	size_t llen = 0;
	char *argv[] = { "git", "-C", (char *)top, "ls-tree", "-r", "-z", "--name-only", (char *)rev, NULL };
	if (git_capture(argv, GIT_LIST_MAX, &list, &llen) != 0) {
		free(list);
		snprintf(err, errlen, "git cannot list the files of revision '%s'", rev);
		return -1;
	}
	free(s->revlist);
	free(s->revlist_key);
	free(s->revlist_top);
	s->revlist = list;
	s->revlist_len = keep_configs(list, llen);
	s->revlist_key = strdup(rev);
	s->revlist_top = strdup(top);
	if (!s->revlist_key || !s->revlist_top) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

/* The cached configuration file of dir (a repository path) itself, NULL
 * when it has none. */
static const char *revlist_at(const struct gate_set *s, const char *dir)
{
	size_t dl = strlen(dir);
	for (size_t i = 0; i < s->revlist_len;) {
		const char *p = s->revlist + i;
		size_t pl = strlen(p);
		i += pl + 1;
		if (pl == dl + (dl ? 13 : 12) && strncmp(p, dir, dl) == 0 &&
		    strcmp(p + dl, dl ? "/.tlgate.json" : ".tlgate.json") == 0)
			return p;
	}
	return NULL;
}

int gate_config_find_at_rev(struct gate_set *s, const struct gate_dir *d, const char *rev,
			    char **path, char *err, size_t errlen)
{
	const struct gate_root *r = &s->roots[d->root];
	char *dir = gate_dir_in_repo(s, d);
	*path = NULL;
	if (!dir) {
		snprintf(err, errlen, "'%s' is not in a git repository: the base revision's configuration cannot be read",
			 d->shown);
		return -1;
	}
	if (revlist_load(s, r->top, rev, err, errlen) != 0) {
		free(dir);
		return -1;
	}
	const char *found = NULL;
	do
		found = revlist_at(s, dir);
	while (!found && up_one(dir));
	free(dir);
	if (found && !(*path = strdup(found))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

int gate_config_load_at_rev(const struct gate_set *s, const struct gate_dir *d, const char *rev,
			    const char *path, struct gatecheck_config *cfg, char **name,
			    char *err, size_t errlen)
{
	const struct gate_root *r = &s->roots[d->root];
	size_t sl = strlen(rev) + strlen(path) + 2;
	char *text = NULL;
	size_t tlen = 0;
	*name = malloc(sl);
	if (!*name) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	snprintf(*name, sl, "%s:%s", rev, path);
	char *show[] = { "git", "-C", r->top, "show", *name, NULL };
	if (git_capture(show, CONFIG_MAX, &text, &tlen) != 0) {
		free(text);
		snprintf(err, errlen, "cannot read config '%s' (larger than 1 MiB, or git failed)", *name);
		return -1;
	}
	int rc = gatecheck_config_parse(text, tlen, *name, cfg, err, errlen);
	free(text);
	return rc;
}

static int weaker_how(const struct gatecheck_config *base, const char *base_name,
		      const struct gatecheck_config *pr, const char *file, const char *id,
		      enum gate_severity dflt, struct gate_findings *fs, const char *how);

static int weaker(const struct gatecheck_config *base, const char *base_name,
		  const struct gatecheck_config *pr, const char *file, const char *id,
		  enum gate_severity dflt, struct gate_findings *fs)
{
	return weaker_how(base, base_name, pr, file, id, dflt, fs, "sets");
}

static int weaker_how(const struct gatecheck_config *base, const char *base_name,
		      const struct gatecheck_config *pr, const char *file, const char *id,
		      enum gate_severity dflt, struct gate_findings *fs, const char *how)
{
	int in_base;
	enum gate_severity b = gatecheck_config_severity(base, id, dflt, &in_base);
	enum gate_severity p = gatecheck_config_severity(pr, id, dflt, NULL);
	if (p >= b)
		return 0;
	return gate_add(fs, "TLGATE-CONFIG", GATE_ERROR, file, 0,
			"%s %s to %s, weaker than %s (%s): a pull request cannot weaken the gate; the base "
			"revision's configuration is applied instead",
			how, id, gate_severity_name(p), gate_severity_name(b),
			in_base && base_name ? base_name : "its default");
}

int gate_config_removed(const struct gatecheck_config *base, const char *base_name,
			const char *file, struct gate_findings *fs)
{
	struct gatecheck_config none;
	gatecheck_config_init(&none);
	for (size_t i = 0; i < base->n; i++) {
		const char *id = base->rule[i];
		size_t n = strlen(id);
		const struct gate_rule_info *ri = gate_rule_find(id);
		if (n > 0 && id[n - 1] == '*')
			continue;
		if (weaker_how(base, base_name, &none, file, id, ri ? ri->default_severity : GATE_ERROR, fs,
			       "removing it sets"))
			return -1;
	}
	return 0;
}

int gate_config_weakened(const struct gatecheck_config *base, const char *base_name,
			 const struct gatecheck_config *pr, const char *file,
			 struct gate_findings *fs)
{
	for (size_t i = 0; i < gate_nrules; i++)
		if (weaker(base, base_name, pr, file, gate_rules[i].id, gate_rules[i].default_severity, fs))
			return -1;
	/* ids the table covers by family (S4-PERF-FEEDBACK-REF...) */
	for (size_t i = 0; i < pr->n; i++) {
		const char *id = pr->rule[i];
		size_t n = strlen(id);
		if ((n > 0 && id[n - 1] == '*'))
			continue;
		int listed = 0;
		for (size_t k = 0; k < gate_nrules && !listed; k++)
			listed = strcmp(gate_rules[k].id, id) == 0;
		const struct gate_rule_info *ri = gate_rule_find(id);
		if (!listed && weaker(base, base_name, pr, file, id, ri ? ri->default_severity : GATE_ERROR, fs))
			return -1;
	}
	return 0;
}
