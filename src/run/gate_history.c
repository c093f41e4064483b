/* gate_history.c: the records files' history from git (gate_history.h). */
#include "run/gate_history.h"

#include "run/git.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GIT_LIST_MAX (256u << 20)
#define SHARED_LINE_MAX 4096      /* longer lines are not looked for */
#define RECORDS_SPEC "*perf_opt/perf_records.jsonl"

static const char records_tail[] = "perf_opt/perf_records.jsonl";

int gate_is_records_path(const char *p, size_t n)
{
	size_t tl = sizeof(records_tail) - 1;
	if (n < tl || memcmp(p + n - tl, records_tail, tl) != 0)
		return 0;
	return n == tl || p[n - tl - 1] == '/';
}

void gate_moves_init(struct gate_moves *m)
{
	memset(m, 0, sizeof(*m));
}

void gate_moves_release(struct gate_moves *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->v[i].path);
		free(m->v[i].from);
	}
	free(m->v);
	for (size_t i = 0; i < m->ngone; i++)
		free(m->gone[i]);
	free(m->gone);
	gate_moves_init(m);
}

static int add_move(struct gate_moves *m, const char *from, const char *path, int copied)
{
	if (m->n == m->cap) {
		size_t c = m->cap ? 2 * m->cap : 8;
		struct gate_move *v = realloc(m->v, c * sizeof(*v));
		if (!v)
			return -1;
		m->v = v;
		m->cap = c;
	}
	struct gate_move *g = &m->v[m->n];
	g->path = strdup(path);
	g->from = strdup(from);
	g->copied = copied;
	if (!g->path || !g->from) {
		free(g->path);
		free(g->from);
		return -1;
	}
	m->n++;
	return 0;
}

static int add_gone(struct gate_moves *m, const char *path)
{
	if (m->ngone == m->capgone) {
		size_t c = m->capgone ? 2 * m->capgone : 8;
		char **v = realloc(m->gone, c * sizeof(*v));
		if (!v)
			return -1;
		m->gone = v;
		m->capgone = c;
	}
	if (!(m->gone[m->ngone] = strdup(path)))
		return -1;
	m->ngone++;
	return 0;
}

static int is_records(const char *p)
{
	return gate_is_records_path(p, strlen(p));
}

/* One entry of `--name-status -z`: status, then one path (two for R and C). */
static int take_entry(struct gate_moves *m, const char *status, const char *a, const char *b)
{
	char s = status[0];
	if (s == 'D')
		return is_records(a) ? add_gone(m, a) : 0;
	if (s != 'R' && s != 'C')
		return 0;
	if (is_records(b))
		return add_move(m, a, b, s == 'C');
	/* renamed to a name the gate does not read as records: gone */
	return s == 'R' && is_records(a) ? add_gone(m, a) : 0;
}

int gate_moves_load(struct gate_moves *m, const char *top, const char *rev)
{
	char *out = NULL;
	size_t len = 0;
	char *argv[] = { "git", "-C", (char *)top, "diff", "-M", "-C", "-z", "--name-status",
			 "--no-ext-diff", (char *)rev, "--", NULL };
	int g = git_capture(argv, GIT_LIST_MAX, &out, &len);
	if (g != 0) {
		free(out);
		if (g > 0)
			errno = EINVAL;
		return -1;
	}
	int rc = 0;
	for (size_t i = 0; i < len && rc == 0;) {
		const char *status = out + i;
		i += strnlen(status, len - i) + 1;
		if (i >= len)
			break;
		const char *a = out + i, *b = NULL;
		i += strnlen(a, len - i) + 1;
		if (status[0] == 'R' || status[0] == 'C') {
			if (i >= len)
				break;
			b = out + i;
			i += strnlen(b, len - i) + 1;
		}
		rc = take_entry(m, status, a, b);
	}
	free(out);
	if (rc)
		errno = ENOMEM;
	return rc;
}

const char *gate_moves_from(const struct gate_moves *m, const char *path, int *copied)
{
	for (size_t i = 0; i < m->n; i++)
		if (strcmp(m->v[i].path, path) == 0) {
			*copied = m->v[i].copied;
			return m->v[i].from;
		}
	return NULL;
}

/* "rev:path", malloc'd. */
static char *rev_path(const char *rev, const char *path)
{
	size_t n = strlen(rev) + strlen(path) + 2;
	char *s = malloc(n);
	if (s)
		snprintf(s, n, "%s:%s", rev, path);
	return s;
}

/* Starts `git show rev:path` in top: *f reads the file's bytes, *pid is
 * git (git_wait it after closing *f). 0, -1 on error (errno). */
static int show_open(const char *top, const char *rev, const char *path, FILE **f, pid_t *pid)
{
	char *spec = rev_path(rev, path);
	int fd;
	if (!spec)
		return -1;
	char *argv[] = { "git", "-C", (char *)top, "show", spec, NULL };
	int rc = git_spawn(argv, &fd, pid);
	free(spec);
	if (rc != 0)
		return -1;
	if (!(*f = fdopen(fd, "rb"))) {
		close(fd);
		git_wait(*pid);
		return -1;
	}
	return 0;
}

int gate_hist_prefix(const char *top, const char *rev, const char *path, FILE *cur, int *prefix,
		     long *first_changed)
{
	FILE *old;
	pid_t pid;
	*prefix = 0;
	*first_changed = 0;
	if (show_open(top, rev, path, &old, &pid) != 0)
		return -1;
	rewind(cur);
	long line = 1;
	int differ = 0, co;
	while ((co = getc(old)) != EOF) {
		if (getc(cur) != co) {
			differ = 1;
			break;
		}
		if (co == '\n')
			line++;
	}
	/* drain, so git never blocks on a full pipe */
	while (differ && getc(old) != EOF)
		;
	fclose(old);
	if (git_wait(pid) != 0)
		return 1;
	*prefix = !differ;
	*first_changed = line;
	return 0;
}

/* The records files among git grep's NUL-separated names (each after
 * strip bytes), kept at the front of out; returns their length. */
static size_t keep_records(char *out, size_t len, size_t strip)
{
	size_t k = 0;
	for (size_t i = 0; i < len;) {
		char *p = out + i;
		size_t pl = strnlen(p, len - i);
		i += pl + 1;
		if (pl <= strip || !gate_is_records_path(p + strip, pl - strip))
			continue;
		memmove(out + k, p + strip, pl - strip);
		out[k + pl - strip] = '\0';
		k += pl - strip + 1;
	}
	return k;
}

/* Runs git grep -l for the whole lines pats (np of them) in rev (NULL: the
 * working tree); names into *out. 0, -1 on error. */
static int grep_lines(const char *top, const char *rev, char **pats, size_t np, char **out,
		      size_t *len)
{
	size_t na = 11 + 2 * np, k = 0;
	char **argv = malloc(na * sizeof(*argv));
	*out = NULL;
	*len = 0;
	if (!argv)
		return -1;
	argv[k++] = "git";
	argv[k++] = "-C";
	argv[k++] = (char *)top;
	argv[k++] = "grep";
	argv[k++] = "-l";
	argv[k++] = "-z";
	argv[k++] = "-F"; /* git grep has no -x: a whole JSON line inside another is
			     not one that happens; the byte-prefix check decides */
	for (size_t i = 0; i < np; i++) {
		argv[k++] = "-e";
		argv[k++] = pats[i];
	}
	if (rev)
		argv[k++] = (char *)rev;
	argv[k++] = "--";
	argv[k++] = RECORDS_SPEC;
	argv[k] = NULL;
	int g = git_capture(argv, GIT_LIST_MAX, out, len);
	free(argv);
	if (g == 1) { /* nothing found */
		*len = 0;
		return 0;
	}
	if (g != 0) {
		free(*out);
		*out = NULL;
		*len = 0;
		if (g > 0)
			errno = EINVAL;
		return -1;
	}
	*len = keep_records(*out, *len, rev ? strlen(rev) + 1 : 0);
	return 0;
}

/* A line read by getline without its line ending; 1 when it is worth
 * looking for (a JSON object line of sensible length). */
static int pattern_line(char *s, ssize_t n)
{
	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = '\0';
	size_t i = 0;
	while (s[i] == ' ' || s[i] == '\t')
		i++;
	return n > 0 && n < SHARED_LINE_MAX && s[i] == '{' && memchr(s, '\0', (size_t)n) == NULL;
}

int gate_hist_sharing(const char *top, const char *rev, FILE *cur, char **out, size_t *len)
{
	char *pats[GATE_HIST_SHARED_LINES];
	size_t np = 0;
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;
	int rc = -1;
	*out = NULL;
	*len = 0;
	rewind(cur);
	while (np < GATE_HIST_SHARED_LINES && (n = getline(&buf, &cap, cur)) >= 0) {
		if (!pattern_line(buf, n))
			continue;
		if (!(pats[np] = strdup(buf)))
			goto out;
		np++;
	}
	rc = np ? grep_lines(top, rev, pats, np, out, len) : 0;
out:
	for (size_t i = 0; i < np; i++)
		free(pats[i]);
	free(buf);
	return rc;
}

int gate_hist_holding_now(const char *top, const char *line, char **out, size_t *len)
{
	char *pat = (char *)line;
	return grep_lines(top, NULL, &pat, 1, out, len);
}

int gate_hist_first_line(const char *top, const char *rev, const char *path, char **line)
{
	FILE *f;
	pid_t pid;
	*line = NULL;
	if (show_open(top, rev, path, &f, &pid) != 0)
		return -1;
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;
	while ((n = getline(&buf, &cap, f)) >= 0)
		if (pattern_line(buf, n)) {
			*line = buf;
			buf = NULL;
			break;
		}
	while (getc(f) != EOF) /* drain */
		;
	fclose(f);
	free(buf);
	if (git_wait(pid) != 0) {
		free(*line);
		*line = NULL;
		return -1;
	}
	return 0;
}

/* ---- git blame ---- */

void gate_blame_init(struct gate_blame *b)
{
	memset(b, 0, sizeof(*b));
}

void gate_blame_release(struct gate_blame *b)
{
	free(b->of_line);
	free(b->v);
	free(b->full);
	gate_blame_init(b);
}

/* The index of commit sha (40 hex), added when new; -1 out of memory. */
static int commit_index(struct gate_blame *b, const char *sha)
{
	for (size_t i = b->n; i-- > 0;)
		if (memcmp(b->full[i], sha, 40) == 0)
			return (int)i;
	if (b->n == b->cap) {
		size_t c = b->cap ? 2 * b->cap : 16;
		struct s4_commit *v = realloc(b->v, c * sizeof(*v));
		if (!v)
			return -1;
		b->v = v;
		char (*f)[41] = realloc(b->full, c * sizeof(*f));
		if (!f)
			return -1;
		b->full = f;
		b->cap = c;
	}
	memcpy(b->full[b->n], sha, 40);
	b->full[b->n][40] = '\0';
	memcpy(b->v[b->n].sha, sha, 12);
	b->v[b->n].sha[12] = '\0';
	b->v[b->n].time = 0;
	return (int)b->n++;
}

static int set_line(struct gate_blame *b, long line, int idx)
{
	if (line < 1 || line > 100000000L)
		return 0;
	if (line >= b->cap_lines) {
		long c = b->cap_lines ? b->cap_lines : 1024;
		while (c <= line)
			c *= 2;
		int *v = realloc(b->of_line, (size_t)c * sizeof(*v));
		if (!v)
			return -1;
		for (long i = b->cap_lines; i < c; i++)
			v[i] = -1;
		b->of_line = v;
		b->cap_lines = c;
	}
	b->of_line[line] = idx;
	if (line > b->n_lines)
		b->n_lines = line;
	return 0;
}

/* 1 when s starts with 40 hex digits and a space. */
static int header_line(const char *s)
{
	for (int i = 0; i < 40; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return s[40] == ' ';
}

/* One line of porcelain output; *cur is the commit of the current entry. */
static int blame_line(struct gate_blame *b, const char *s, int *cur)
{
	if (s[0] == '\t')
		return 0;
	if (header_line(s)) {
		long orig, final;
		if (sscanf(s + 41, "%ld %ld", &orig, &final) != 2)
			return 0;
		static const char zeros[] = "0000000000000000000000000000000000000000";
		*cur = memcmp(s, zeros, 40) == 0 ? -1 : commit_index(b, s);
		if (*cur == -1 && memcmp(s, zeros, 40) != 0)
			return -1;
		return set_line(b, final, *cur);
	}
	if (*cur >= 0 && strncmp(s, "committer-time ", 15) == 0)
		b->v[*cur].time = strtoll(s + 15, NULL, 10);
	return 0;
}

int gate_blame_load(struct gate_blame *b, const char *top, const char *path)
{
	int fd;
	pid_t pid;
	char *argv[] = { "git", "-C", (char *)top, "blame", "--porcelain", "--", (char *)path, NULL };
	if (git_spawn(argv, &fd, &pid) != 0)
		return -1;
	FILE *f = fdopen(fd, "rb");
	if (!f) {
		close(fd);
		git_wait(pid);
		return -1;
	}
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;
	int cur = -1, rc = 0;
	while ((n = getline(&buf, &cap, f)) >= 0) {
		if (n > 0 && buf[n - 1] == '\n')
			buf[n - 1] = '\0';
		if (rc == 0 && blame_line(b, buf, &cur) != 0)
			rc = -1; /* keep draining */
	}
	free(buf);
	fclose(f);
	int st = git_wait(pid);
	if (rc) {
		errno = ENOMEM;
		return -1;
	}
	return st == 0 ? 0 : 1;
}

void gate_blame_view(const struct gate_blame *b, struct s4_line_commits *out)
{
	out->of_line = b->of_line;
	out->n_lines = b->n_lines;
	out->v = b->v;
	out->n = b->n;
}
