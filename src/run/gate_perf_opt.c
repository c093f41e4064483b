/* gatecheck.c: load one perf_opt directory and run the gate 4 rules
 * (gatecheck.h). */
#include "run/gate_perf_opt.h"
#include "io/lineio.h"
#include "io/optlog.h"
#include "io/records.h"
#include "gates/rules.h"
#include "gates/s4_util.h"
#include "util/sha256.h"
#include "util/utf8.h"
#include "io/records.h"
#include "util/path.h"
#include "io/inventory.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define MAX_RECORDS 500000      /* valid records kept per directory */
#define MAX_PROBLEMS 200        /* schema findings kept per file */
#define MAX_JSON (16u << 20)    /* workload_inventory.json */
#define MAX_FEEDBACK (4u << 20) /* perf_feedback.md */
#define MAX_MISSING 64

void gatecheck_result_init(struct gatecheck_result *res)
{
	memset(res, 0, sizeof(*res));
	s4_recon_init(&res->recon);
}

void gatecheck_result_release(struct gatecheck_result *res)
{
	s4_recon_release(&res->recon);
	for (size_t i = 0; i < res->n_sup; i++) {
		free(res->sup[i].file);
		free(res->sup[i].rule);
		free(res->sup[i].reason);
	}
	free(res->sup);
	gatecheck_result_init(res);
}

/* Reads a whole (small) file; *state tells what happened. Returns malloc'd
 * NUL-terminated text or NULL. */
static char *slurp(const char *path, size_t max, size_t *len, enum s4_file_state *state)
{
	struct stat st;
	*len = 0;
	if (stat(path, &st) != 0) {
		*state = errno == ENOENT ? S4_FILE_MISSING : S4_FILE_UNREADABLE;
		return NULL;
	}
	if (!S_ISREG(st.st_mode) || (size_t)st.st_size > max) {
		*state = S4_FILE_UNREADABLE;
		return NULL;
	}
	FILE *f = fopen(path, "rb");
	if (!f) {
		*state = S4_FILE_UNREADABLE;
		return NULL;
	}
	char *buf = malloc((size_t)st.st_size + 1);
	size_t n = buf ? fread(buf, 1, (size_t)st.st_size, f) : 0;
	int bad = !buf || ferror(f);
	fclose(f);
	if (bad) {
		free(buf);
		*state = S4_FILE_UNREADABLE;
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	*state = S4_FILE_EMPTY;
	for (size_t i = 0; i < n; i++)
		if (buf[i] != ' ' && buf[i] != '\t' && buf[i] != '\n' && buf[i] != '\r') {
			*state = S4_FILE_OK;
			break;
		}
	return buf;
}

/* ---- records, streamed ---- */

struct loaded {
	struct records recs;
	struct records_problems probs;
	long dropped;
	enum s4_file_state state;
	unsigned long long bytes;
};

/* Adds a schema problem for line (counted past MAX_PROBLEMS). */
static int add_problem(struct loaded *ld, long line, const char *msg, long *extra)
{
	if (ld->probs.n >= MAX_PROBLEMS) {
		(*extra)++;
		return 0;
	}
	return records_problems_add(&ld->probs, line, "%s", msg);
}

/* What the gate says about a line beyond the reader's verdict: a byte
 * order mark, the first CRLF ending. */
static int note_line(struct loaded *ld, const struct records_reader *rd, int *crlf, long *extra)
{
	if (rd->bom && add_problem(ld, rd->line, "file starts with a UTF-8 byte order mark", extra))
		return -1;
	if (rd->crlf && !*crlf) {
		*crlf = 1;
		if (add_problem(ld, rd->line, "CRLF line ending (JSONL lines end with LF)", extra))
			return -1;
	}
	return 0;
}

/* Streams perf_records.jsonl into ld (io/records.h); ids are interned in
 * the set's pool. */
static int load_records(const char *path, struct loaded *ld)
{
	struct records_reader rd;
	struct record r;
	enum records_next k;
	int any = 0, crlf = 0;
	long extra = 0;
	if (records_reader_open(&rd, path, &ld->recs.pool) != 0) {
		ld->state = errno == ENOENT ? S4_FILE_MISSING : S4_FILE_UNREADABLE;
		return 0;
	}
	ld->state = S4_FILE_OK;
	while ((k = records_reader_next(&rd, &r)) != RECORDS_NEXT_EOF) {
		if (k == RECORDS_NEXT_ERROR) {
			if (errno == ENOMEM)
				goto oom;
			ld->state = S4_FILE_UNREADABLE;
			break;
		}
		any |= k != RECORDS_NEXT_BLANK;
		if (note_line(ld, &rd, &crlf, &extra) != 0)
			goto oom;
		if (k == RECORDS_NEXT_PROBLEM && add_problem(ld, rd.line, rd.err, &extra) != 0)
			goto oom;
		if (k != RECORDS_NEXT_RECORD)
			continue;
		if (ld->recs.n >= MAX_RECORDS)
			ld->dropped++;
		else if (records_push_interned(&ld->recs, &r) != 0)
			goto oom;
	}
	ld->bytes = rd.bytes;
	records_reader_close(&rd);
	if (!any && ld->state == S4_FILE_OK)
		ld->state = S4_FILE_EMPTY;
	if (extra > 0)
		records_problems_add(&ld->probs, 0, "%ld more invalid lines not listed", extra);
	size_t v1 = 0, v2 = 0;
	for (size_t i = 0; i < ld->recs.n; i++)
		if (ld->recs.v[i].contract == RECORDS_V2)
			v2++;
		else
			v1++;
	ld->recs.contract = v1 + v2 == 0 ? RECORDS_UNKNOWN : v2 > v1 ? RECORDS_V2 : RECORDS_V1;
	return 0;
oom:
	records_reader_close(&rd);
	errno = ENOMEM;
	return -1;
}

/* ---- paths relative to the perf_opt directory ---- */

/* Resolves a path a record names: "perf_opt/x" is relative to the operator
 * directory (the parent), other relative paths to perf_opt itself. */
static char *resolve(const char *dir, const char *p)
{
	if (p[0] == '/')
		return strdup(p);
	if (strncmp(p, "perf_opt/", 9) == 0) {
		char *parent = path_join(dir, "..");
		char *r = parent ? path_join(parent, p) : NULL;
		free(parent);
		return r;
	}
	return path_join(dir, p);
}

struct sha_cache {
	const char *dir;
	char *path[8];
	char hex[8][65];
	int ok[8];
	int n;
};

static int artifact_sha(const char *artifact, char hex[65], void *ctx)
{
	struct sha_cache *c = ctx;
	for (int i = 0; i < c->n; i++)
		if (strcmp(c->path[i], artifact) == 0) {
			memcpy(hex, c->hex[i], 65);
			return c->ok[i] ? 0 : -1;
		}
	char *full = resolve(c->dir, artifact);
	int ok = full && sha256_file(full, hex) == 0;
	free(full);
	if (c->n < 8) {
		c->path[c->n] = strdup(artifact);
		if (c->path[c->n]) {
			memcpy(c->hex[c->n], ok ? hex : "", ok ? 65 : 1);
			c->ok[c->n] = ok;
			c->n++;
		}
	}
	return ok ? 0 : -1;
}

static char *find_repo_root(const char *dir)
{
	char buf[PATH_MAX];
	if (!realpath(dir, buf))
		return NULL;
	for (;;) {
		char *g = path_join(buf, ".git");
		struct stat st;
		int hit = g && stat(g, &st) == 0;
		free(g);
		if (hit)
			return strdup(buf);
		char *slash = strrchr(buf, '/');
		if (!slash || slash == buf)
			return NULL;
		*slash = '\0';
	}
}

static int path_exists(const char *rel, void *ctx)
{
	const char *root = ctx;
	if (strstr(rel, ".."))
		return 0;
	char *p = path_join(root, rel);
	int ok = p && access(p, F_OK) == 0;
	free(p);
	return ok;
}

/* ---- --base: git show REF:path, compared as a byte prefix ---- */

static int spawn_git(char *const argv[], int *outfd, pid_t *pid)
{
	int fds[2];
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	if (pipe(fds) != 0)
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&at);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	posix_spawn_file_actions_addclose(&fa, fds[1]);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
	posix_spawnattr_setpgroup(&at, 0);
	int rc = posix_spawnp(pid, "git", &fa, &at, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	close(fds[1]);
	if (rc != 0) {
		close(fds[0]);
		errno = rc;
		return -1;
	}
	*outfd = fds[0];
	return 0;
}

static int wait_child(pid_t pid)
{
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void check_append(const char *records, const char *ref, struct s4_append *a)
{
	memset(a, 0, sizeof(*a));
	a->ref = ref;
	/* the directory's real path: the file itself may be gone */
	char real[PATH_MAX], dirbuf[PATH_MAX];
	const char *slash = strrchr(records, '/');
	size_t dl = slash ? (size_t)(slash - records) : 0;
	if (dl >= sizeof(dirbuf))
		return;
	memcpy(dirbuf, records, dl);
	dirbuf[dl] = '\0';
	char rd[PATH_MAX];
	if (!realpath(dl ? dirbuf : ".", rd) ||
	    (size_t)snprintf(real, sizeof(real), "%s/perf_records.jsonl", rd) >= sizeof(real))
		return;
	char *root = find_repo_root(dl ? dirbuf : ".");
	if (!root)
		return;
	size_t rl = strlen(root);
	char *spec = malloc(strlen(ref) + strlen(real) + 2);
	if (!spec || strncmp(real, root, rl) != 0 || real[rl] != '/') {
		free(root);
		free(spec);
		return;
	}
	snprintf(spec, strlen(ref) + strlen(real) + 2, "%s:%s", ref, real + rl + 1);
	char *argv[] = { "git", "-C", root, "show", spec, NULL };
	int fd;
	pid_t pid;
	if (spawn_git(argv, &fd, &pid) != 0) {
		free(root);
		free(spec);
		return;
	}
	FILE *old = fdopen(fd, "rb");
	FILE *cur = fopen(records, "rb");
	long line = 1;
	int differ = 0, co, cn;
	if (old) {
		while ((co = getc(old)) != EOF) {
			cn = cur ? getc(cur) : EOF;
			if (cn != co) {
				differ = 1;
				break;
			}
			if (co == '\n')
				line++;
		}
		/* drain, so git never blocks on a full pipe */
		while (differ && getc(old) != EOF)
			;
	}
	if (old)
		fclose(old);
	else
		close(fd);
	if (cur)
		fclose(cur);
	int st = wait_child(pid);
	if (st == 0 && old) {
		a->checked = 1;
		a->prefix = !differ;
		a->first_changed = line;
	}
	free(root);
	free(spec);
}

/* ---- the directory ---- */

int gatecheck_add_suppression(struct gatecheck_result *res, const char *file,
			       const struct optlog_suppression *s)
{
	if (res->n_sup == res->cap_sup) {
		size_t cap = res->cap_sup ? res->cap_sup * 2 : 8;
		struct gatecheck_suppression *v = realloc(res->sup, cap * sizeof(*v));
		if (!v)
			return -1;
		res->sup = v;
		res->cap_sup = cap;
	}
	struct gatecheck_suppression *g = &res->sup[res->n_sup];
	memset(g, 0, sizeof(*g));
	g->file = strdup(file);
	g->line = s->line;
	g->rule = s->rule ? strdup(s->rule) : NULL;
	g->reason = s->reason ? strdup(s->reason) : NULL;
	if (!g->file || (s->rule && !g->rule) || (s->reason && !g->reason)) {
		free(g->file);
		free(g->rule);
		free(g->reason);
		return -1;
	}
	res->n_sup++;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int gatecheck_dir(const char *path, const char *shown, const struct gatecheck_opts *opts,
		  struct gate_findings *fs, struct gatecheck_result *res)
{
	struct gatecheck_result local;
	struct gatecheck_result *R = res ? res : &local;
	struct optlog lg;
	struct loaded ld;
	struct s4_input in;
	struct sha_cache sc;
	struct s4_map seen;
	char **top = NULL;
	size_t ntop = 0, captop = 0;
	struct s4_missing_path missing[MAX_MISSING];
	char *missing_str[MAX_MISSING];
	size_t nmiss = 0;
	char *f_log = NULL, *f_rec = NULL, *f_inv = NULL, *f_fb = NULL;
	char *s_log = NULL, *s_rec = NULL, *s_inv = NULL, *s_fb = NULL;
	char *inv_text = NULL, *fb_text = NULL, *root = NULL;
	struct inventory inv;
	int prc;
	int rc = -1;
	DIR *d = NULL;

	if (!res)
		gatecheck_result_init(&local);
	optlog_init(&lg);
	inventory_init(&inv);
	memset(&ld, 0, sizeof(ld));
	records_init(&ld.recs);
	records_problems_init(&ld.probs);
	memset(&in, 0, sizeof(in));
	memset(&sc, 0, sizeof(sc));
	s4_map_init(&seen);

	d = opendir(path);
	if (!d)
		goto out;
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		char *full = path_join(path, de->d_name);
		struct stat st;
		int reg = full && lstat(full, &st) == 0 && S_ISREG(st.st_mode);
		free(full);
		if (!reg)
			continue;
		if (ntop == captop) {
			size_t c = captop ? captop * 2 : 16;
			char **v = realloc(top, c * sizeof(*v));
			if (!v)
				goto oom;
			top = v;
			captop = c;
		}
		if (!(top[ntop] = strdup(de->d_name)))
			goto oom;
		ntop++;
	}
	closedir(d);
	d = NULL;
	if (ntop > 1) /* qsort(NULL, 0) is undefined */
		qsort(top, ntop, sizeof(*top), cmp_str);

	f_log = path_join(path, "opt_log.md");
	f_rec = path_join(path, "perf_records.jsonl");
	f_inv = path_join(path, "workload_inventory.json");
	f_fb = path_join(path, "perf_feedback.md");
	s_log = path_join(shown, "opt_log.md");
	s_rec = path_join(shown, "perf_records.jsonl");
	s_inv = path_join(shown, "workload_inventory.json");
	s_fb = path_join(shown, "perf_feedback.md");
	if (!f_log || !f_rec || !f_inv || !f_fb || !s_log || !s_rec || !s_inv || !s_fb)
		goto oom;

	in.dir = shown;
	in.optlog_file = s_log;
	in.records_file = s_rec;
	in.inventory_file = s_inv;
	in.feedback_file = s_fb;
	in.log = &lg;

	/* opt_log.md */
	struct stat st;
	if (stat(f_log, &st) != 0)
		in.optlog_state = errno == ENOENT ? S4_FILE_MISSING : S4_FILE_UNREADABLE;
	else if (!S_ISREG(st.st_mode))
		in.optlog_state = S4_FILE_UNREADABLE;
	else if (optlog_load(f_log, &lg) != 0)
		in.optlog_state = errno == ENOMEM ? (rc = -1, S4_FILE_UNREADABLE) : S4_FILE_UNREADABLE;
	else
		in.optlog_state = lg.blank ? S4_FILE_EMPTY : S4_FILE_OK;
	R->bytes += lg.bytes;

	/* workload_inventory.json */
	size_t len;
	inv_text = slurp(f_inv, MAX_JSON, &len, &in.inventory_state);
	R->bytes += len;
	if (inv_text && in.inventory_state == S4_FILE_OK) {
		const char *t = inv_text;
		if (lineio_has_bom(t, len)) {
			in.inventory_state = S4_FILE_UNREADABLE;
			in.inventory_error = "it starts with a UTF-8 byte order mark";
		} else if (memchr(t, '\0', len)) {
			in.inventory_state = S4_FILE_UNREADABLE;
			in.inventory_error = "it contains a NUL byte";
		} else if (utf8_invalid_at(t, len) != (size_t)-1) {
			in.inventory_state = S4_FILE_UNREADABLE;
			in.inventory_error = "it is not valid UTF-8";
		} else if ((prc = inventory_parse(t, len, &inv)) != 0) {
			if (prc < 0)
				rc = -1;
			in.inventory_state = S4_FILE_UNREADABLE;
			in.inventory_error = prc < 0 ? "out of memory" : "it is not valid JSON";
		} else {
			in.inventory = &inv;
		}
	}

	/* perf_records.jsonl, streamed */
	if (stat(f_rec, &st) == 0 && !S_ISREG(st.st_mode))
		ld.state = S4_FILE_UNREADABLE;
	else if (load_records(f_rec, &ld) != 0)
		goto oom;
	R->bytes += ld.bytes;
	in.records_state = ld.state;
	in.recs = &ld.recs;
	in.rprobs = &ld.probs;
	in.records_dropped = ld.dropped;
	in.contract = in.inventory_state != S4_FILE_MISSING ? RECORDS_V2
		      : ld.recs.contract == RECORDS_V2     ? RECORDS_V2 : RECORDS_V1;
	R->contract = in.contract;
	R->records = ld.recs.n;

	/* records naming profiles that do not exist */
	for (size_t i = 0; i < ld.recs.n; i++) {
		const char *p = ld.recs.v[i].msprof_raw_path;
		int created;
		if (!p || !*p)
			continue;
		if (!s4_map_put(&seen, p, 0, &created))
			goto oom;
		if (!created)
			continue;
		char *full = resolve(path, p);
		if (!full)
			goto oom;
		int ok = access(full, F_OK) == 0;
		free(full);
		if (!ok && nmiss < MAX_MISSING) {
			missing_str[nmiss] = strdup(p);
			if (!missing_str[nmiss])
				goto oom;
			missing[nmiss].line = ld.recs.v[i].line;
			missing[nmiss].path = missing_str[nmiss];
			nmiss++;
		}
	}
	in.top_files = (const char *const *)top;
	in.n_top_files = ntop;
	in.missing_paths = missing;
	in.n_missing_paths = nmiss;

	/* perf_feedback.md */
	fb_text = slurp(f_fb, MAX_FEEDBACK, &len, &in.feedback_state);
	R->bytes += len;
	in.feedback = fb_text;
	in.feedback_len = len;
	root = opts && opts->repo_root ? strdup(opts->repo_root) : find_repo_root(path);
	if (!root) {
		char cwd[PATH_MAX];
		root = strdup(getcwd(cwd, sizeof(cwd)) ? cwd : ".");
	}
	if (!root)
		goto oom;
	in.path_exists = path_exists;
	in.path_ctx = root;

	sc.dir = path;
	in.artifact_sha256 = artifact_sha;
	in.artifact_ctx = &sc;

	if (opts && opts->base_ref)
		check_append(f_rec, opts->base_ref, &in.append);

	if (opts && opts->extra && opts->extra_only) {
		struct gate_findings scratch;
		gate_findings_init(&scratch);
		int er = s4_run_all(&in, &scratch, &R->recon);
		gate_findings_release(&scratch);
		if (er != 0 || opts->extra(&in, &R->recon, fs, opts->extra_ctx) != 0)
			goto oom;
	} else {
		if (s4_run_all(&in, fs, &R->recon) != 0)
			goto oom;
		if (opts && opts->extra && opts->extra(&in, &R->recon, fs, opts->extra_ctx) != 0)
			goto oom;
	}

	/* suppressions: opt_log.md and perf_feedback.md */
	for (size_t i = 0; i < lg.n_suppressions; i++)
		if (gatecheck_add_suppression(R, s_log, &lg.suppressions[i]))
			goto oom;
	if (fb_text) {
		struct optlog tmp;
		optlog_init(&tmp);
		const char *p = fb_text;
		long line = 1;
		int bad = 0;
		while (*p && !bad) {
			const char *nl = strchr(p, '\n');
			size_t n = nl ? (size_t)(nl - p) : strlen(p);
			char *one = strndup(p, n);
			bad = !one || (strstr(one, "tlgate-disable") &&
				       optlog_scan_suppressions(one, n, line, &tmp));
			free(one);
			p += n + (nl ? 1 : 0);
			line++;
		}
		for (size_t i = 0; i < tmp.n_suppressions && !bad; i++)
			bad = gatecheck_add_suppression(R, s_fb, &tmp.suppressions[i]);
		optlog_release(&tmp);
		if (bad)
			goto oom;
	}
	rc = 0;
	goto out;
oom:
	if (!errno)
		errno = ENOMEM;
	rc = -1;
out:
	if (d)
		closedir(d);
	for (size_t i = 0; i < ntop; i++)
		free(top[i]);
	free(top);
	for (size_t i = 0; i < nmiss; i++)
		free(missing_str[i]);
	for (int i = 0; i < sc.n; i++)
		free(sc.path[i]);
	s4_map_release(&seen);
	optlog_release(&lg);
	records_release(&ld.recs);
	records_problems_release(&ld.probs);
	inventory_release(&inv);
	free(inv_text);
	free(fb_text);
	free(root);
	free(f_log); free(f_rec); free(f_inv); free(f_fb);
	free(s_log); free(s_rec); free(s_inv); free(s_fb);
	if (!res)
		gatecheck_result_release(&local);
	return rc;
}

/* ---- suppressions ---- */

static int rule_matches(const char *pattern, const char *rule)
{
	size_t n = strlen(pattern);
	if (n > 0 && pattern[n - 1] == '*')
		return strncmp(pattern, rule, n - 1) == 0;
	return strcmp(pattern, rule) == 0;
}

static int known_rule(const char *r)
{
	size_t n = strlen(r);
	if (n > 0 && r[n - 1] == '*')
		return strncmp(r, "S4-", 3) == 0 || strncmp(r, "PT-", 3) == 0;
	return gate_rule_find(r) != NULL || strncmp(r, "PT-", 3) == 0;
}

int gatecheck_apply_suppressions(struct gate_findings *fs, struct gatecheck_result *res)
{
	size_t k = 0;
	for (size_t i = 0; i < fs->n; i++) {
		struct gate_finding *f = &fs->v[i];
		int drop = 0;
		for (size_t s = 0; s < res->n_sup && !drop; s++) {
			struct gatecheck_suppression *g = &res->sup[s];
			if (g->rule && g->reason && strcmp(f->rule, "TLGATE-SUPPRESSION") != 0 &&
			    rule_matches(g->rule, f->rule)) {
				g->used = 1;
				drop = 1;
			}
		}
		if (drop) {
			free(f->rule);
			free(f->file);
			free(f->message);
			continue;
		}
		fs->v[k++] = *f;
	}
	fs->n = k;
	for (size_t s = 0; s < res->n_sup; s++) {
		struct gatecheck_suppression *g = &res->sup[s];
		int rc = 0;
		if (!g->rule || !g->reason)
			rc = gate_add(fs, "TLGATE-SUPPRESSION", GATE_WARNING, g->file, g->line,
				      "a suppression needs a rule id and a reason: <!-- tlgate-disable RULE -- reason -->");
		else if (!known_rule(g->rule))
			rc = gate_add(fs, "TLGATE-SUPPRESSION", GATE_WARNING, g->file, g->line,
				      "suppression of unknown rule '%s'", g->rule);
		else if (!g->used)
			rc = gate_add(fs, "TLGATE-SUPPRESSION", GATE_WARNING, g->file, g->line,
				      "unused suppression of %s (nothing to suppress)", g->rule);
		if (rc)
			return -1;
	}
	return 0;
}

/* ---- configuration ---- */

void gatecheck_config_init(struct gatecheck_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
}

void gatecheck_config_release(struct gatecheck_config *cfg)
{
	for (size_t i = 0; i < cfg->n; i++)
		free(cfg->rule[i]);
	free(cfg->rule);
	free(cfg->sev);
	free(cfg->path);
	int strict = cfg->strict;
	gatecheck_config_init(cfg);
	cfg->strict = strict;
}

int gatecheck_config_load(const char *path, struct gatecheck_config *cfg, char *err, size_t errlen)
{
	size_t len;
	enum s4_file_state st;
	char *text = slurp(path, 1u << 20, &len, &st);
	cJSON *root = NULL;
	int rc = -1;
	if (!text) {
		snprintf(err, errlen, "cannot read '%s'", path);
		return -1;
	}
	root = cJSON_ParseWithLength(text, len);
	if (!cJSON_IsObject(root)) {
		snprintf(err, errlen, "'%s' is not a JSON object", path);
		goto out;
	}
	const cJSON *rules = cJSON_GetObjectItemCaseSensitive(root, "rules");
	if (!rules)
		rules = root;
	/* {"rules": {...}} holds nothing else; the flat form holds only rule
	 * ids. Anything else is a key the gate does not know: name it, rather
	 * than complain about its value. */
	const cJSON *key;
	cJSON_ArrayForEach(key, root)
	{
		int is_rules = strcmp(key->string, "rules") == 0;
		if (rules != root ? !is_rules : !cJSON_IsString(key) && !known_rule(key->string)) {
			snprintf(err, errlen, "'%s': unknown key '%s' (the file holds {\"rules\": {\"RULE\": \"error\"|\"warning\"|\"note\"|\"off\"}})",
				 path, key->string);
			goto out;
		}
	}
	if (!cJSON_IsObject(rules)) {
		snprintf(err, errlen, "'%s': \"rules\" must be an object", path);
		goto out;
	}
	const cJSON *it;
	cJSON_ArrayForEach(it, rules)
	{
		enum gate_severity sev;
		if (!cJSON_IsString(it) || gate_severity_parse(it->valuestring, &sev) != 0) {
			snprintf(err, errlen, "'%s': rule '%s' must be \"error\", \"warning\", \"note\" or \"off\"",
				 path, it->string);
			goto out;
		}
		if (!known_rule(it->string) && strcmp(it->string, "TLGATE-SUPPRESSION") != 0) {
			snprintf(err, errlen, "'%s': unknown rule '%s'", path, it->string);
			goto out;
		}
		char **r = realloc(cfg->rule, (cfg->n + 1) * sizeof(*r));
		if (r)
			cfg->rule = r;
		enum gate_severity *s = realloc(cfg->sev, (cfg->n + 1) * sizeof(*s));
		if (s)
			cfg->sev = s;
		if (!r || !s || !(cfg->rule[cfg->n] = strdup(it->string))) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
		cfg->sev[cfg->n++] = sev;
	}
	free(cfg->path);
	cfg->path = strdup(path);
	rc = 0;
out:
	cJSON_Delete(root);
	free(text);
	return rc;
}

char *gatecheck_config_find(const char *dir)
{
	char buf[PATH_MAX];
	if (!realpath(dir, buf))
		return NULL;
	for (;;) {
		char *c = path_join(buf, ".tlgate.json");
		if (c && access(c, R_OK) == 0)
			return c;
		free(c);
		char *slash = strrchr(buf, '/');
		if (!slash)
			return NULL;
		if (slash == buf) {
			if (buf[1] == '\0')
				return NULL;
			buf[1] = '\0';
			continue;
		}
		*slash = '\0';
	}
}

void gatecheck_config_apply(const struct gatecheck_config *cfg, struct gate_findings *fs)
{
	size_t k = 0;
	for (size_t i = 0; i < fs->n; i++) {
		struct gate_finding *f = &fs->v[i];
		if (cfg->strict && f->severity == GATE_WARNING) {
			const struct gate_rule_info *ri = gate_rule_find(f->rule);
			if (ri && ri->strict_severity == GATE_ERROR && ri->default_severity == GATE_WARNING)
				f->severity = GATE_ERROR;
		}
		for (size_t c = cfg->n; c-- > 0;) {
			if (!rule_matches(cfg->rule[c], f->rule))
				continue;
			if (cfg->sev[c] == GATE_OFF || f->severity != GATE_NOTE)
				f->severity = cfg->sev[c];
			break;
		}
		if (f->severity == GATE_OFF) {
			free(f->rule);
			free(f->file);
			free(f->message);
			continue;
		}
		fs->v[k++] = *f;
	}
	fs->n = k;
}
