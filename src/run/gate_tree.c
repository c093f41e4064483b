/* gate_tree.c: roots and discovery of the gate (gate_tree.h). */
#include "run/gate_tree.h"

#include "gates/rules.h"
#include "io/records.h"
#include "run/gate_history.h"
#include "run/git.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
	if (r->moves) {
		gate_moves_release(r->moves);
		free(r->moves);
	}
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

/* The first file of a perf directory that root r holds itself, and in
 * *ptune its kind; NULL when none. */
static const char *root_perf_file(const struct gate_set *s, size_t r, int *ptune)
{
	static const struct {
		const char *name;
		int ptune;
	} files[] = {
		{ "opt_log.md", 0 },         { "perf_records.jsonl", 0 }, { "perf_log.md", 1 },
		{ "optimization_log.md", 1 }, { "perf_report.md", 1 },     { "final_report.md", 1 },
	};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		int fd = -1;
		if (tree_resolve(&s->roots[r].tree, "", files[i].name, TREE_WANT_ANY | TREE_NOFOLLOW, 0, &fd,
				 NULL) == TREE_OK) {
			*ptune = files[i].ptune;
			return files[i].name;
		}
	}
	return NULL;
}

void gate_root_empty_reason(const struct gate_set *s, size_t r, const char *cmd, char *buf, size_t n)
{
	int pt = 0;
	const char *file = root_perf_file(s, r, &pt);
	const char *kind = pt ? "perf_tuning" : "perf_opt";
	if (file)
		snprintf(buf, n,
			 "it holds %s itself, but only a folder named %s/ is checked (the operator "
			 "directory's, where the logs' paths point from); put the files there: "
			 "mkdir -p op && cp -R '%s' op/%s && %s op",
			 file, kind, s->roots[r].shown, kind, cmd);
	else
		snprintf(buf, n, "no perf_opt/ or perf_tuning/ directory in it (--allow-empty accepts that)");
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

/* ---- PR mode: directories whose records name a changed artifact ---- */

/* p with "." and ".." components resolved, malloc'd; NULL when it climbs
 * above its start or is absolute. */
static char *normal_path(const char *p)
{
	if (*p == '/')
		return NULL;
	size_t n = strlen(p), k = 0;
	char *o = malloc(n + 1);
	if (!o)
		return NULL;
	for (size_t i = 0; i <= n;) {
		size_t e = i;
		while (p[e] && p[e] != '/')
			e++;
		size_t cl = e - i;
		if (cl == 2 && p[i] == '.' && p[i + 1] == '.') {
			if (k == 0) {
				free(o);
				return NULL;
			}
			while (k > 0 && o[k - 1] != '/')
				k--;
			if (k > 0)
				k--;
		} else if (cl > 0 && !(cl == 1 && p[i] == '.')) {
			if (k > 0)
				o[k++] = '/';
			memcpy(o + k, p + i, cl);
			k += cl;
		}
		i = e + 1;
	}
	o[k] = '\0';
	return o;
}

static int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* 1 when path (normalised) is among the sorted changed paths. */
static int is_changed(const char *path, const char *const *v, size_t n)
{
	char *norm = normal_path(path);
	int hit = norm && *norm && bsearch(&norm, v, n, sizeof(*v), cmp_strp) != NULL;
	free(norm);
	return hit;
}

/* 1 when a record of dir (the repository path dir_repo) names a changed
 * file as its artifact: relative to the operator directory for
 * "perf_opt/...", to perf_opt/ for other relative paths (as the gate reads
 * it), or as a repository path. -1 when out of memory. */
static int names_changed(const struct tree *t, const char *rel, const char *dir_repo,
			 const char *const *v, size_t n)
{
	FILE *f;
	if (tree_fopen(t, rel, "perf_records.jsonl", 0, &f) != TREE_OK)
		return 0;
	struct strpool ids;
	struct records_reader rd;
	struct record r;
	enum records_next k;
	int hit = 0;
	strpool_init(&ids);
	records_reader_stream(&rd, f, &ids);
	while (!hit && (k = records_reader_next(&rd, &r)) != RECORDS_NEXT_EOF && k != RECORDS_NEXT_ERROR) {
		if (k != RECORDS_NEXT_RECORD || !r.artifact_path || !*r.artifact_path)
			continue;
		const char *a = r.artifact_path;
		int up = strncmp(a, "perf_opt/", 9) == 0;
		char *base = up ? tree_join(dir_repo, "..") : strdup(dir_repo);
		char *j = base ? tree_join(*base ? base : NULL, a) : NULL;
		hit = !j ? -1 : is_changed(j, v, n) || is_changed(a, v, n);
		free(base);
		free(j);
	}
	records_reader_close(&rd);
	strpool_release(&ids);
	return hit;
}

/* 1 when root r already checks directory rel. */
static int has_dir(const struct gate_set *s, size_t r, const char *rel)
{
	for (size_t i = 0; i < s->ndirs; i++)
		if (s->dirs[i].root == r && strcmp(s->dirs[i].rel, rel) == 0)
			return 1;
	return 0;
}

/* Adds the perf_opt directories of root r (not yet added) whose records
 * name one of the sorted changed paths v as their artifact. 0, -1 when out
 * of memory. */
static int add_artifact_dirs(struct gate_set *s, size_t r, const char *const *v, size_t n)
{
	static const char *const perf_opt[] = { "perf_opt", NULL };
	const struct gate_root *gr = &s->roots[r];
	struct tree_hits h = { 0 };
	int rc = 0;
	if (tree_find(&gr->tree, "", perf_opt, skipped, &h) != 0) {
		tree_hits_release(&h);
		return errno == ENOMEM ? -1 : 0;
	}
	for (size_t i = 0; i < h.n && rc == 0; i++) {
		const char *rel = h.v[i].rel;
		if (h.v[i].kind != TREE_HIT_DIR || (gr->only && strcmp(rel, gr->only) != 0) ||
		    has_dir(s, r, rel))
			continue;
		char *repo = tree_join(*gr->in_repo ? gr->in_repo : NULL, rel);
		int hit = repo ? names_changed(&gr->tree, rel, repo, v, n) : -1;
		free(repo);
		if (hit < 0)
			rc = -1;
		else if (hit)
			rc = add_named(s, r, rel, 0);
	}
	tree_hits_release(&h);
	return rc;
}

/* 1 when the path names a file the gate reads itself (never an artifact). */
static int gate_file(const char *p)
{
	static const char *const own[] = { "opt_log.md", "perf_records.jsonl", "workload_inventory.json",
					   "perf_feedback.md", ".tlgate.json", NULL };
	const char *b = strrchr(p, '/');
	b = b ? b + 1 : p;
	for (int i = 0; own[i]; i++)
		if (strcmp(b, own[i]) == 0)
			return 1;
	return 0;
}

/* The changed paths (NUL-separated, len bytes) sorted into *v (pointers
 * into changed, malloc'd array); *outside is 1 when one may be a record's
 * artifact: it lies in no perf directory, or is not a file the gate reads
 * itself. 0, -1 when out of memory. */
static int changed_sorted(const char *changed, size_t len, const char ***v, size_t *n, int *outside)
{
	size_t cap = 0;
	*v = NULL;
	*n = 0;
	*outside = 0;
	for (size_t i = 0; i < len;) {
		const char *name = changed + i;
		i += strnlen(name, len - i) + 1;
		int k;
		if (!perf_prefix(name, &k) || !gate_file(name))
			*outside = 1;
		if (*n == cap) {
			cap = cap ? 2 * cap : 64;
			const char **nv = realloc(*v, cap * sizeof(*nv));
			if (!nv)
				return -1;
			*v = nv;
		}
		(*v)[(*n)++] = name;
	}
	if (*n > 1)
		qsort(*v, *n, sizeof(**v), cmp_strp);
	return 0;
}

/* Adds the perf directories holding one of the changed paths (NUL-
 * separated, len bytes) to each root inside a repository (only roots in
 * top's when top is not NULL). 0, or -1 when out of memory. */
static int from_changed(struct gate_set *s, const char *top, const char *changed, size_t len)
{
	char **v = NULL;
	const char **all = NULL;
	size_t n = 0, nall;
	int rc = -1, outside;
	if (changed_perf_dirs(changed, len, &v, &n) != 0)
		goto out;
	if (changed_sorted(changed, len, &all, &nall, &outside) != 0)
		goto out;
	for (size_t r = 0; r < s->nroots; r++) {
		const struct gate_root *gr = &s->roots[r];
		if (!gr->in_repo || (top && strcmp(gr->top, top) != 0))
			continue;
		if (add_changed_in_root(s, r, v, n) != 0)
			goto out;
		/* a changed file may be a record's artifact */
		if (outside && add_artifact_dirs(s, r, all, nall) != 0)
			goto out;
	}
	rc = 0;
out:
	for (size_t j = 0; j < n; j++)
		free(v[j]);
	free(v);
	free(all);
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

/* 1 when the working tree still holds gone's lines: a records file now
 * (found by gone's first line) of which the base file is a byte prefix;
 * *holder (malloc'd, may stay NULL) names one that holds its first line
 * without extending it. -1 on error. */
static int still_held(const struct gate_root *r, const char *base, const char *gone, char **holder)
{
	char *first = NULL, *names = NULL;
	size_t nlen = 0;
	int held = 0;
	*holder = NULL;
	if (gate_hist_first_line(r->top, base, gone, &first) != 0)
		return -1;
	if (!first)
		return 1; /* an empty file lost nothing */
	if (gate_hist_holding_now(r->top, first, &names, &nlen) != 0) {
		free(first);
		return -1;
	}
	for (size_t i = 0; i < nlen && !held;) {
		const char *p = names + i;
		i += strlen(p) + 1;
		FILE *f;
		int prefix;
		long line;
		if (!r->has_repo || tree_fopen(&r->repo, "", p, 0, &f) != TREE_OK)
			continue;
		int g = gate_hist_prefix(r->top, base, gone, f, &prefix, &line);
		fclose(f);
		held = g == 0 && prefix;
		if (!held && !*holder)
			*holder = strdup(p);
	}
	free(first);
	free(names);
	return held;
}

/* A records file of the base gone from root r (gone is a repository
 * path): an S4-PERF-RECORDS-APPEND error at its line 1 (every line from
 * there is gone) unless its lines live on. */
static int check_gone(struct gate_set *s, size_t r, const char *base, const char *gone)
{
	const struct gate_root *gr = &s->roots[r];
	size_t il = strlen(gr->in_repo);
	const char *rel = gone;
	if (il) {
		if (strncmp(gone, gr->in_repo, il) != 0 || gone[il] != '/')
			return 0;
		rel = gone + il + 1;
	}
	if (gr->only && (strncmp(rel, gr->only, strlen(gr->only)) != 0 || rel[strlen(gr->only)] != '/'))
		return 0;
	char *holder = NULL;
	int held = still_held(gr, base, gone, &holder);
	if (held != 0) {
		free(holder);
		return 0; /* lives on, or git could not tell: no finding */
	}
	char *shown = shown_of(gr, rel);
	int rc = -1;
	if (shown && holder)
		rc = gate_add(&s->tree_findings, "S4-PERF-RECORDS-APPEND", GATE_ERROR, shown, 1,
			      "perf_records.jsonl is append-only, but this file of %s is gone, and %s, which holds its first record, does not keep all its lines",
			      base, holder);
	else if (shown)
		rc = gate_add(&s->tree_findings, "S4-PERF-RECORDS-APPEND", GATE_ERROR, shown, 1,
			      "perf_records.jsonl is append-only, but this file of %s was deleted (and no records file now continues it)",
			      base);
	free(shown);
	free(holder);
	return rc;
}

int gate_set_history(struct gate_set *s, const char *base, char *err, size_t errlen)
{
	for (size_t r = 0; r < s->nroots; r++) {
		struct gate_root *gr = &s->roots[r];
		if (!gr->top)
			continue;
		if (!(gr->moves = malloc(sizeof(*gr->moves)))) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		gate_moves_init(gr->moves);
		if (gate_moves_load(gr->moves, gr->top, base) != 0) {
			snprintf(err, errlen, "git cannot compare '%s' with the working tree of '%s'%s", base,
				 gr->top, errno == ENOMEM ? " (out of memory)" : "");
			return -1;
		}
		for (size_t i = 0; i < gr->moves->ngone; i++)
			if (check_gone(s, r, base, gr->moves->gone[i]) != 0) {
				snprintf(err, errlen, "out of memory");
				return -1;
			}
	}
	return 0;
}
