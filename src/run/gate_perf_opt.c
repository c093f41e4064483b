/* gate_perf_opt.c: load one perf_opt directory and run the gate 4 rules
 * (gate_perf_opt.h). */
#include "run/gate_perf_opt.h"
#include "io/lineio.h"
#include "io/optlog.h"
#include "io/mdread.h"
#include "io/records.h"
#include "io/tree.h"
#include "run/git.h"
#include "run/gate_history.h"
#include "gates/rules.h"
#include "gates/s4_util.h"
#include "util/sha256.h"
#include "util/utf8.h"
#include "util/path.h"
#include "io/inventory.h"
#include "io/abjournal.h"

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
#include <time.h>
#include <unistd.h>

extern char **environ;

#define MAX_RECORDS 500000      /* valid records kept per directory */
#define MAX_PROBLEMS 200        /* schema findings kept per file */
#define MAX_JSON (16u << 20)    /* workload_inventory.json */
#define MAX_FEEDBACK (4u << 20) /* perf_feedback.md */
#define MAX_MISSING 64
#define MAX_AB 64                /* A/B work directories read per directory */
#define MAX_AB_JOURNAL (16u << 20) /* one runs.jsonl */
#define MAX_AB_SUMMARY (1u << 20)  /* one tlab JSON summary */
#define MAX_REFUSED 64
#define MAX_ARTIFACT (64 * 1024 * 1024)   /* one artifact hashed */
#define HASH_BUDGET (256ull * 1024 * 1024) /* all artifacts of a directory */
#define MAX_ARTIFACTS 64                    /* distinct files hashed per directory */

void gatecheck_result_init(struct gatecheck_result *res)
{
	memset(res, 0, sizeof(*res));
	s4_recon_init(&res->recon);
}

void gatecheck_result_release(struct gatecheck_result *res)
{
	s4_recon_release(&res->recon);
	gate_config_suppressions_release(&res->sup);
	gatecheck_result_init(res);
}

/* Paths the gate refused to read, for TLGATE-PATH (s4_rule_layout). */
struct refusals {
	struct s4_refused v[MAX_REFUSED];
	char *what[MAX_REFUSED];
	size_t n;
	size_t more;              /* beyond MAX_REFUSED, counted only */
};

static void refusals_release(struct refusals *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->what[i]);
	memset(r, 0, sizeof(*r));
}

/* Notes a refusal (s is not TREE_OK nor TREE_MISSING). Returns 0, -1 when
 * out of memory. */
static int refuse(struct refusals *r, const char *file, long line, const char *what,
		  enum tree_status s)
{
	if (r->n == MAX_REFUSED) {
		r->more++;
		return 0;
	}
	if (!(r->what[r->n] = strdup(what)))
		return -1;
	r->v[r->n].file = file;
	r->v[r->n].line = line;
	r->v[r->n].what = r->what[r->n];
	r->v[r->n].why = tree_status_text(s);
	r->n++;
	return 0;
}

static enum s4_file_state state_of(enum tree_status s)
{
	return s == TREE_OK ? S4_FILE_OK : s == TREE_MISSING ? S4_FILE_MISSING : S4_FILE_UNREADABLE;
}

/* Reads a whole (small) file of the directory through the tree; *state
 * tells what happened. Returns malloc'd NUL-terminated text or NULL. */
static char *slurp(const struct tree *t, const char *dir, const char *name, size_t max,
		   size_t *len, enum s4_file_state *state, enum tree_status *ts)
{
	char *buf = NULL;
	*ts = tree_read(t, dir, name, (off_t)max, &buf, len);
	*state = state_of(*ts);
	if (*ts != TREE_OK)
		return NULL;
	*state = S4_FILE_EMPTY;
	for (size_t i = 0; i < *len; i++)
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

/* Streams perf_records.jsonl from f (closed here) into ld (io/records.h);
 * ids and time stamps are interned in the set's pool. */
static int load_records(FILE *f, struct loaded *ld)
{
	struct records_reader rd;
	struct record r;
	enum records_next k;
	int any = 0, crlf = 0;
	long extra = 0;
	records_reader_stream(&rd, f, &ld->recs.pool);
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

/* The directory a path a record names is relative to: "perf_opt/x" is
 * relative to the operator directory (the parent), other relative paths to
 * perf_opt itself. Returns a malloc'd base for tree_resolve. */
static char *record_base(const char *rel, const char *p)
{
	if (strncmp(p, "perf_opt/", 9) == 0)
		return tree_join(rel, "..");
	return strdup(rel);
}

struct sha_entry {
	dev_t dev;
	ino_t ino;
	char hex[65];
};

struct sha_cache {
	const struct tree *tree;
	const char *rel;
	struct sha_entry v[MAX_ARTIFACTS];
	int n;
	unsigned long long hashed;  /* bytes hashed so far */
};

static int artifact_sha(const char *artifact, char hex[65], const char **why, void *ctx)
{
	struct sha_cache *c = ctx;
	char *base = record_base(c->rel, artifact);
	int fd = -1;
	struct stat st;
	enum tree_status s = base ? tree_resolve(c->tree, base, artifact, TREE_WANT_FILE, MAX_ARTIFACT, &fd, &st)
				  : TREE_UNREADABLE;
	free(base);
	if (s != TREE_OK) {
		*why = s == TREE_TOO_LARGE ? "is larger than 64 MiB (not read)" : tree_status_text(s);
		return -1;
	}
	for (int i = 0; i < c->n; i++)
		if (c->v[i].dev == st.st_dev && c->v[i].ino == st.st_ino) {
			close(fd);
			memcpy(hex, c->v[i].hex, 65);
			return 0;
		}
	if (c->n == MAX_ARTIFACTS || c->hashed + (unsigned long long)st.st_size > HASH_BUDGET) {
		close(fd);
		*why = "was not hashed: the directory's final records name more than 64 files or 256 MiB";
		return -1;
	}
	struct sha256 h;
	unsigned char buf[65536], dig[32];
	ssize_t r;
	sha256_init(&h);
	while ((r = read(fd, buf, sizeof(buf))) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 || c->hashed + (unsigned long long)r > HASH_BUDGET) {
			close(fd);
			*why = r < 0 ? "cannot be read" : "grew while it was hashed (not read)";
			return -1;
		}
		c->hashed += (unsigned long long)r;
		sha256_update(&h, buf, (size_t)r);
	}
	close(fd);
	sha256_final(&h, dig);
	sha256_hex(dig, hex);
	c->v[c->n].dev = st.st_dev;
	c->v[c->n].ino = st.st_ino;
	memcpy(c->v[c->n].hex, hex, 65);
	c->n++;
	return 0;
}

static int path_exists(const char *rel, void *ctx)
{
	const struct tree *t = ctx;
	return tree_resolve(t, "", rel, TREE_WANT_ANY, 0, NULL, NULL) == TREE_OK;
}

/* ---- --base: git show REF:path, compared as a byte prefix ---- */

/* The directory's path relative to the repository top, malloc'd, or NULL
 * when the tree is not inside top. */
static char *repo_relative(const struct tree *t, const char *top, const char *rel)
{
	size_t tl = strlen(top);
	const char *in;
	if (strcmp(t->root, top) == 0)
		in = "";
	else if (strncmp(t->root, top, tl) == 0 && (t->root[tl] == '/' || tl == 1))
		in = t->root + (tl == 1 ? 1 : tl + 1);
	else
		return NULL;
	return tree_join(*in ? in : NULL, rel);
}

/* What --base found for one records file, owned here. */
struct history {
	char *base_path;          /* s4_append.base_path, malloc'd */
	struct gate_blame blame;
	struct s4_line_commits lines;
};

/* Among the base files named (NUL-separated, len bytes), the first that
 * cur extends; else the first of them, with the first line cur changes.
 * Returns 0, -1 on error. */
static int extends_one(const char *top, const char *ref, const char *names, size_t len, FILE *cur,
		       struct s4_append *a, struct history *h)
{
	for (size_t i = 0; i < len;) {
		const char *p = names + i;
		i += strlen(p) + 1;
		int prefix;
		long first;
		int r = gate_hist_prefix(top, ref, p, cur, &prefix, &first);
		if (r < 0)
			return -1;
		if (r > 0 || (a->checked && !prefix)) /* gone, or not the first mismatch */
			continue;
		free(h->base_path);
		if (!(h->base_path = strdup(p)))
			return -1;
		a->checked = 1;
		a->prefix = prefix;
		a->first_changed = first;
		a->base_path = h->base_path;
		a->how = "shares lines with";
		if (prefix)
			break;
	}
	return 0;
}

/* --base: the records file compared with its base, which is the same path
 * at REF, else the file git's rename or copy detection matched it with,
 * else a records file of REF sharing one of its lines; then who committed
 * each line (git blame, into h). Nothing is found when git fails: no
 * finding. Returns 1 when h holds the blame, 0 when not, -1 when out of
 * memory. */
static int check_append(const struct tree *t, const char *rel, const struct gatecheck_opts *o,
			struct s4_append *a, struct history *h)
{
	char err[256];
	memset(a, 0, sizeof(*a));
	a->ref = o->base_ref;
	if (!git_path() && git_locate(getenv("PATH"), err, sizeof(err)) != 0)
		return 0;
	char *top = o->repo_top ? strdup(o->repo_top) : tree_repo_top(t->root);
	char *drel = top ? repo_relative(t, top, rel) : NULL;
	char *file = drel ? tree_join(drel, "perf_records.jsonl") : NULL;
	char *names = NULL;
	size_t nlen = 0;
	FILE *cur = NULL;
	int rc = 0, copied;
	if (!file || tree_fopen(t, rel, "perf_records.jsonl", 0, &cur) != TREE_OK)
		goto out;
	const char *from = o->moves ? gate_moves_from(o->moves, file, &copied) : NULL;
	int r = gate_hist_prefix(top, o->base_ref, from ? from : file, cur, &a->prefix, &a->first_changed);
	if (r < 0) {
		rc = errno == ENOMEM ? -1 : 0;
		goto out;
	}
	if (r == 0) {
		a->checked = 1;
		if (from) {
			if (!(h->base_path = strdup(from))) {
				rc = -1;
				goto out;
			}
			a->base_path = h->base_path;
			a->how = copied ? "copied from" : "renamed from";
		}
	} else if (gate_hist_sharing(top, o->base_ref, cur, &names, &nlen) == 0) {
		rc = extends_one(top, o->base_ref, names, nlen, cur, a, h);
	}
	if (rc == 0 && gate_blame_load(&h->blame, top, file) == 0) {
		gate_blame_view(&h->blame, &h->lines);
		rc = 1;
	}
out:
	if (cur)
		fclose(cur);
	free(names);
	free(top);
	free(drel);
	free(file);
	return rc;
}

/* ---- the directory ---- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* gatecheck_dir without a tree: one rooted at the directory's parent. */
static int gatecheck_dir_path(const char *path, const char *shown, const struct gatecheck_opts *opts,
			      struct gate_findings *fs, struct gatecheck_result *res)
{
	struct gatecheck_opts o;
	struct tree t;
	char *real = realpath(path, NULL);
	if (!real)
		return -1;
	char *slash = strrchr(real, '/');
	char *name = strdup(slash[1] ? slash + 1 : ".");
	if (slash == real)
		slash[1] = '\0';
	else
		*slash = '\0';
	int rc = -1;
	if (name && tree_open(&t, real) == 0) {
		if (opts)
			o = *opts;
		else
			memset(&o, 0, sizeof(o));
		o.tree = &t;
		o.rel = name;
		rc = gatecheck_dir(path, shown, &o, fs, res);
		tree_close(&t);
	} else if (!name) {
		errno = ENOMEM;
	}
	free(name);
	free(real);
	return rc;
}

/* Names of the regular files at the top of the directory, sorted. */
static int list_top(int dfd, char ***top, size_t *ntop)
{
	size_t cap = 0;
	DIR *d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return -1;
	}
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		struct stat st;
		if (de->d_name[0] == '.' || fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !S_ISREG(st.st_mode))
			continue;
		if (*ntop == cap) {
			size_t c = cap ? cap * 2 : 16;
			char **v = realloc(*top, c * sizeof(*v));
			if (!v)
				goto oom;
			*top = v;
			cap = c;
		}
		if (!((*top)[*ntop] = strdup(de->d_name)))
			goto oom;
		(*ntop)++;
	}
	closedir(d);
	if (*ntop > 1) /* qsort(NULL, 0) is undefined */
		qsort(*top, *ntop, sizeof(**top), cmp_str);
	return 0;
oom:
	closedir(d);
	errno = ENOMEM;
	return -1;
}

/* Everything one directory's check reads and owns, released by
 * dir_release. */
struct dir_check {
	const struct tree *T;
	const char *rel, *shown;
	struct gatecheck_result *R;
	struct optlog lg;
	struct loaded ld;
	struct s4_input in;
	struct sha_cache sc;
	struct s4_map seen;          /* msprof_raw_path values already looked up */
	struct refusals ref;
	struct tree repo;
	int repo_open;
	char **top;                  /* names at the directory's top */
	size_t ntop;
	struct s4_missing_path missing[MAX_MISSING];
	char *missing_str[MAX_MISSING];
	size_t nmiss;
	char *s_log, *s_rec, *s_inv, *s_fb; /* shown paths of the files */
	char *inv_text, *fb_text;
	struct inventory inv;
	struct history hist;         /* --base */
	struct abjournals ab;        /* the A/B journals of ab_* directories */
	char optlog_why[96];          /* opt_log.md is not text: why */
};

static void dir_init(struct dir_check *c, const struct tree *T, const char *rel,
		     const char *shown, struct gatecheck_result *R)
{
	memset(c, 0, sizeof(*c));
	c->T = T;
	c->rel = rel;
	c->shown = shown;
	c->R = R;
	optlog_init(&c->lg);
	inventory_init(&c->inv);
	gate_blame_init(&c->hist.blame);
	records_init(&c->ld.recs);
	records_problems_init(&c->ld.probs);
	s4_map_init(&c->seen);
	abjournals_init(&c->ab);
}

static void dir_release(struct dir_check *c)
{
	for (size_t i = 0; i < c->ntop; i++)
		free(c->top[i]);
	free(c->top);
	for (size_t i = 0; i < c->nmiss; i++)
		free(c->missing_str[i]);
	refusals_release(&c->ref);
	if (c->repo_open)
		tree_close(&c->repo);
	s4_map_release(&c->seen);
	optlog_release(&c->lg);
	records_release(&c->ld.recs);
	records_problems_release(&c->ld.probs);
	inventory_release(&c->inv);
	gate_blame_release(&c->hist.blame);
	free(c->hist.base_path);
	abjournals_release(&c->ab);
	free(c->inv_text);
	free(c->fb_text);
	free(c->s_log);
	free(c->s_rec);
	free(c->s_inv);
	free(c->s_fb);
}

/* The shown paths of the four files, and the input's names for them. */
static int dir_names(struct dir_check *c)
{
	c->s_log = path_join(c->shown, "opt_log.md");
	c->s_rec = path_join(c->shown, "perf_records.jsonl");
	c->s_inv = path_join(c->shown, "workload_inventory.json");
	c->s_fb = path_join(c->shown, "perf_feedback.md");
	if (!c->s_log || !c->s_rec || !c->s_inv || !c->s_fb)
		return -1;
	c->in.dir = c->shown;
	c->in.optlog_file = c->s_log;
	c->in.records_file = c->s_rec;
	c->in.inventory_file = c->s_inv;
	c->in.feedback_file = c->s_fb;
	c->in.log = &c->lg;
	return 0;
}

/* opt_log.md, streamed. Returns 0, -1 when memory ran out. */
static int dir_optlog(struct dir_check *c)
{
	FILE *f;
	enum tree_status ts = tree_fopen(c->T, c->rel, "opt_log.md", 0, &f);
	size_t nul_at;
	c->in.optlog_state = state_of(ts);
	if (ts == TREE_OK && lineio_not_text(f, &nul_at)) {
		/* one finding for a binary file, not one per pseudo-line */
		fclose(f);
		snprintf(c->optlog_why, sizeof(c->optlog_why), "not a text file (a NUL byte at byte %zu)",
			 nul_at + 1);
		c->in.optlog_state = S4_FILE_UNREADABLE;
		c->in.optlog_error = c->optlog_why;
	} else if (ts == TREE_OK) {
		if (optlog_load_stream(f, &c->lg) != 0) {
			if (errno == ENOMEM)
				return -1;
			c->in.optlog_state = S4_FILE_UNREADABLE;
		} else {
			c->in.optlog_state = c->lg.blank ? S4_FILE_EMPTY : S4_FILE_OK;
		}
	} else if (ts != TREE_MISSING && refuse(&c->ref, c->s_log, 0, "opt_log.md", ts)) {
		return -1;
	}
	c->R->bytes += c->lg.bytes;
	return 0;
}

/* workload_inventory.json: read whole, refused with the reason when it is
 * not clean UTF-8 JSON. Returns 0, -1 when memory ran out. */
static int dir_inventory(struct dir_check *c)
{
	size_t len;
	enum tree_status ts;
	struct s4_input *in = &c->in;
	c->inv_text = slurp(c->T, c->rel, "workload_inventory.json", MAX_JSON, &len,
			    &in->inventory_state, &ts);
	if (ts != TREE_OK && ts != TREE_MISSING &&
	    refuse(&c->ref, c->s_inv, 0, "workload_inventory.json", ts))
		return -1;
	c->R->bytes += len;
	if (!c->inv_text || in->inventory_state != S4_FILE_OK)
		return 0;
	const char *t = c->inv_text, *why = NULL;
	int prc = 0;
	if (lineio_has_bom(t, len))
		why = "it starts with a UTF-8 byte order mark";
	else if (memchr(t, '\0', len))
		why = "it contains a NUL byte";
	else if (utf8_invalid_at(t, len) != (size_t)-1)
		why = "it is not valid UTF-8";
	else if ((prc = inventory_parse(t, len, &c->inv)) < 0)
		return -1;
	else if (prc > 0)
		why = "it is not valid JSON";
	if (why) {
		in->inventory_state = S4_FILE_UNREADABLE;
		in->inventory_error = why;
	} else {
		in->inventory = &c->inv;
	}
	return 0;
}

/* perf_records.jsonl, streamed, and the directory's contract. */
static int dir_records(struct dir_check *c)
{
	FILE *f;
	struct s4_input *in = &c->in;
	enum tree_status ts = tree_fopen(c->T, c->rel, "perf_records.jsonl", 0, &f);
	if (ts == TREE_OK) {
		if (load_records(f, &c->ld) != 0)
			return -1;
	} else {
		c->ld.state = state_of(ts);
		if (ts != TREE_MISSING && refuse(&c->ref, c->s_rec, 0, "perf_records.jsonl", ts))
			return -1;
	}
	c->R->bytes += c->ld.bytes;
	in->records_state = c->ld.state;
	in->recs = &c->ld.recs;
	in->rprobs = &c->ld.probs;
	in->records_dropped = c->ld.dropped;
	/* the contract the log declares is held too: a v2 Final table, or a
	 * workload_inventory.json it cites (model/optlog.h) */
	int log_v2 = in->optlog_state == S4_FILE_OK && (in->log->final_table_line || in->log->cite_inventory_line);
	in->contract = in->inventory_state != S4_FILE_MISSING || log_v2 ? RECORDS_V2
		       : c->ld.recs.contract == RECORDS_V2 ? RECORDS_V2 : RECORDS_V1;
	c->R->contract = in->contract;
	c->R->records = c->ld.recs.n;
	return 0;
}

/* One msprof_raw_path: refused when it leads out of the tree, noted when
 * it is missing inside it. Returns 0, -1 when memory ran out. */
static int dir_profile(struct dir_check *c, const struct record *r)
{
	const char *p = r->msprof_raw_path;
	char *base = record_base(c->rel, p);
	if (!base)
		return -1;
	enum tree_status ts = tree_resolve(c->T, base, p, TREE_WANT_ANY, 0, NULL, NULL);
	free(base);
	if (ts == TREE_OK)
		return 0;
	if (ts != TREE_MISSING) {
		char what[96];
		snprintf(what, sizeof(what), "msprof_raw_path '%.60s%s'", p, strlen(p) > 60 ? "..." : "");
		return refuse(&c->ref, c->s_rec, r->line, what, ts);
	}
	if (c->nmiss >= MAX_MISSING)
		return 0;
	if (!(c->missing_str[c->nmiss] = strdup(p)))
		return -1;
	c->missing[c->nmiss].line = r->line;
	c->missing[c->nmiss].path = c->missing_str[c->nmiss];
	c->nmiss++;
	return 0;
}

/* Records naming profiles that do not exist, or that lead out of the
 * tree: checked inside it only, so the answer never tells what exists
 * outside. Each path is looked up once. */
static int dir_profiles(struct dir_check *c)
{
	const char *prev = NULL; /* the path of the record before: looked up already */
	for (size_t i = 0; i < c->ld.recs.n; i++) {
		const struct record *r = &c->ld.recs.v[i];
		int created;
		if (!r->msprof_raw_path || !*r->msprof_raw_path ||
		    (prev && strcmp(prev, r->msprof_raw_path) == 0))
			continue;
		prev = r->msprof_raw_path;
		if (!s4_map_put(&c->seen, r->msprof_raw_path, 0, &created))
			return -1;
		if (created && dir_profile(c, r) != 0)
			return -1;
	}
	c->in.top_files = (const char *const *)c->top;
	c->in.n_top_files = c->ntop;
	c->in.missing_paths = c->missing;
	c->in.n_missing_paths = c->nmiss;
	return 0;
}

/* ---- A/B work directories (model/abjournal.h) ---- */

/* The subdirectories of sub (under the checked directory) whose names
 * start with prefix, sorted, symbolic links left out. 0 (a missing or
 * unreadable directory lists nothing), -1 on allocation failure. */
static int list_dirs(struct dir_check *c, const char *sub, const char *prefix, char ***out, size_t *n)
{
	int dfd;
	size_t cap = 0, pl = strlen(prefix);
	*out = NULL;
	*n = 0;
	if (tree_resolve(c->T, c->rel, sub, TREE_WANT_DIR | TREE_NOFOLLOW, 0, &dfd, NULL) != TREE_OK)
		return 0;
	DIR *d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return 0;
	}
	struct dirent *de;
	int rc = 0;
	while (rc == 0 && (de = readdir(d)) != NULL) {
		struct stat st;
		if (de->d_name[0] == '.' || strncmp(de->d_name, prefix, pl) != 0 ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode))
			continue;
		if (*n == cap) {
			size_t nc = cap ? cap * 2 : 8;
			char **v = realloc(*out, nc * sizeof(*v));
			if (!v) {
				rc = -1;
				break;
			}
			*out = v;
			cap = nc;
		}
		if (!((*out)[*n] = strdup(de->d_name)))
			rc = -1;
		else
			(*n)++;
	}
	closedir(d);
	if (rc == 0 && *n > 1)
		qsort(*out, *n, sizeof(**out), cmp_str);
	return rc;
}

static void free_names(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* The summary kept with journal j (WORKDIR.json beside it, or
 * WORKDIR/summary.json): the first that can be read. 0, -1 on allocation
 * failure. */
static int ab_summary(struct dir_check *c, struct abjournal *j)
{
	size_t bl = strlen(j->rel) + 6;
	char *beside = malloc(bl), *inside = path_join(j->rel, "summary.json");
	int rc = beside && inside ? 0 : -1;
	if (beside)
		snprintf(beside, bl, "%s.json", j->rel);
	const char *names[] = { beside, inside };
	for (size_t k = 0; rc == 0 && k < 2 && !j->summary; k++) {
		size_t len;
		char *buf = NULL;
		if (tree_read(c->T, c->rel, names[k], MAX_AB_SUMMARY, &buf, &len) != TREE_OK)
			continue;
		j->summary = buf;
		if (!(j->summary_file = path_join(c->shown, names[k])))
			rc = -1;
		c->R->bytes += len;
	}
	free(beside);
	free(inside);
	return rc;
}

/* The journal of work directory top[/sub], when it holds runs.jsonl.
 * 0, -1 on allocation failure. */
static int ab_journal(struct dir_check *c, const char *top, const char *sub)
{
	char *rel = sub ? path_join(top, sub) : strdup(top);
	char *path = rel ? path_join(rel, "runs.jsonl") : NULL, *buf = NULL;
	size_t len = 0;
	int rc = path ? 0 : -1;
	enum tree_status ts = path ? tree_read(c->T, c->rel, path, MAX_AB_JOURNAL, &buf, &len) : TREE_MISSING;
	if (rc == 0 && ts != TREE_OK && ts != TREE_MISSING) {
		char *shown = path_join(c->shown, path);
		rc = !shown || refuse(&c->ref, shown, 0, "runs.jsonl", ts) ? -1 : 0;
		free(shown);
	}
	if (rc != 0 || ts != TREE_OK)
		goto out;
	if (c->ab.n == MAX_AB) {
		c->ab.more++;
		goto out;
	}
	if (c->ab.n == c->ab.cap) {
		size_t cap = c->ab.cap ? c->ab.cap * 2 : 4;
		struct abjournal *v = realloc(c->ab.v, cap * sizeof(*v));
		if (!v) {
			rc = -1;
			goto out;
		}
		c->ab.v = v;
		c->ab.cap = cap;
	}
	struct abjournal *j = &c->ab.v[c->ab.n++];
	memset(j, 0, sizeof(*j));
	j->rel = rel;
	rel = NULL;
	j->round = abjournal_round_of(top);
	c->R->bytes += len;
	if (!(j->file = path_join(c->shown, path)) || (sub && !(j->workload = strdup(sub))) ||
	    abjournal_parse(buf, len, j) != 0 || ab_summary(c, j) != 0)
		rc = -1;
out:
	free(rel);
	free(path);
	free(buf);
	return rc;
}

/* Every ab_* directory of perf_opt/ and its per-workload subdirectories
 * holding a runs.jsonl. 0, -1 on allocation failure. */
static int dir_ab(struct dir_check *c)
{
	char **tops;
	size_t ntops;
	int rc = list_dirs(c, ".", "ab_", &tops, &ntops);
	for (size_t i = 0; rc == 0 && i < ntops; i++) {
		char **subs = NULL;
		size_t nsubs = 0;
		rc = ab_journal(c, tops[i], NULL);
		if (rc == 0)
			rc = list_dirs(c, tops[i], "", &subs, &nsubs);
		for (size_t k = 0; rc == 0 && k < nsubs; k++)
			rc = ab_journal(c, tops[i], subs[k]);
		free_names(subs, nsubs);
	}
	free_names(tops, ntops);
	c->in.ab = &c->ab;
	return rc;
}

/* perf_feedback.md, and where the paths it cites are looked up (the
 * repository, else the checked tree). */
static int dir_feedback(struct dir_check *c, const struct gatecheck_opts *opts)
{
	size_t len;
	enum tree_status ts;
	struct s4_input *in = &c->in;
	c->fb_text = slurp(c->T, c->rel, "perf_feedback.md", MAX_FEEDBACK, &len,
			   &in->feedback_state, &ts);
	if (ts != TREE_OK && ts != TREE_MISSING &&
	    refuse(&c->ref, c->s_fb, 0, "perf_feedback.md", ts))
		return -1;
	c->R->bytes += len;
	if (c->fb_text) {
		/* read as the page shows it (the gate's own directives kept) */
		size_t rlen;
		char *shown = mdread_text(c->fb_text, len, &rlen);
		if (!shown)
			return -1;
		free(c->fb_text);
		c->fb_text = shown;
		len = rlen;
	}
	in->feedback = c->fb_text;
	in->feedback_len = len;
	in->path_exists = path_exists;
	in->path_ctx = (void *)c->T;
	if (!c->fb_text)
		return 0;
	char *rt = opts->repo_root ? strdup(opts->repo_root) : tree_repo_top(c->T->root);
	if (rt && tree_open(&c->repo, rt) == 0) {
		c->repo_open = 1;
		in->path_ctx = &c->repo;
	}
	free(rt);
	return 0;
}

/* The S4 rules over the input, and the caller's extra rules (alone when
 * opts->extra_only: the S4 findings are then computed for the recon and
 * dropped). */
static int dir_rules(struct dir_check *c, const struct gatecheck_opts *opts,
		     struct gate_findings *fs)
{
	struct s4_input *in = &c->in;
	struct gatecheck_result *R = c->R;
	c->sc.tree = c->T;
	c->sc.rel = c->rel;
	in->artifact_sha256 = artifact_sha;
	in->artifact_ctx = &c->sc;
	in->now = (long long)time(NULL);
	if (opts->base_ref) {
		int h = check_append(c->T, c->rel, opts, &in->append, &c->hist);
		if (h < 0)
			return -1;
		if (h > 0)
			in->commits = &c->hist.lines;
	}
	in->ab_threshold = opts->ab_threshold;
	in->refused = c->ref.v;
	in->n_refused = c->ref.n;
	in->n_refused_more = c->ref.more;
	if (opts->extra && opts->extra_only) {
		struct gate_findings scratch;
		gate_findings_init(&scratch);
		int er = s4_run_all(in, &scratch, &R->recon);
		gate_findings_release(&scratch);
		return er != 0 || opts->extra(in, &R->recon, fs, opts->extra_ctx) != 0 ? -1 : 0;
	}
	if (s4_run_all(in, fs, &R->recon) != 0)
		return -1;
	if (opts->extra && opts->extra(in, &R->recon, fs, opts->extra_ctx) != 0)
		return -1;
	/* after every rule: without records, the rows the audit shows are the
	 * log's claims against its own figures */
	return s4_recon_from_log(in, &R->recon);
}

/* Suppression comments of opt_log.md and perf_feedback.md, recorded. */
static int dir_suppressions(struct dir_check *c)
{
	for (size_t i = 0; i < c->lg.n_suppressions; i++)
		if (gate_config_add_suppression(&c->R->sup, c->s_log, &c->lg.suppressions[i]))
			return -1;
	if (!c->fb_text)
		return 0;
	struct optlog tmp;
	optlog_init(&tmp);
	const char *p = c->fb_text;
	long line = 1;
	int bad = 0;
	while (*p && !bad) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char *one = strndup(p, n);
		bad = !one || (strstr(one, "tlgate-disable") && optlog_scan_suppressions(one, n, line, &tmp));
		free(one);
		p += n + (nl ? 1 : 0);
		line++;
	}
	for (size_t i = 0; i < tmp.n_suppressions && !bad; i++)
		bad = gate_config_add_suppression(&c->R->sup, c->s_fb, &tmp.suppressions[i]);
	optlog_release(&tmp);
	return bad ? -1 : 0;
}

/* Every check of the directory, in order; nonzero at the first that
 * fails (errno set, or 0 for out of memory). */
static int dir_steps(struct dir_check *c, const struct gatecheck_opts *opts,
		     struct gate_findings *fs)
{
	return dir_names(c) || dir_optlog(c) || dir_inventory(c) || dir_records(c) ||
	       dir_profiles(c) || dir_ab(c) || dir_feedback(c, opts) || dir_rules(c, opts, fs) ||
	       dir_suppressions(c);
}

int gatecheck_dir(const char *path, const char *shown, const struct gatecheck_opts *opts,
		  struct gate_findings *fs, struct gatecheck_result *res)
{
	if (!opts || !opts->tree)
		return gatecheck_dir_path(path, shown, opts, fs, res);
	struct gatecheck_result local;
	struct dir_check c;
	int rc = -1, dfd;
	if (!res)
		gatecheck_result_init(&local);
	dir_init(&c, opts->tree, opts->rel ? opts->rel : "", shown, res ? res : &local);
	enum tree_status ts = tree_resolve(c.T, c.rel, ".", TREE_WANT_DIR | TREE_NOFOLLOW, 0, &dfd, NULL);
	if (ts != TREE_OK) {
		if (ts != TREE_UNREADABLE)
			errno = ts == TREE_MISSING ? ENOENT : ts == TREE_SYMLINK ? ELOOP : ENOTDIR;
		goto out;
	}
	errno = 0;
	if (list_top(dfd, &c.top, &c.ntop) != 0)
		goto out;
	if (dir_steps(&c, opts, fs) != 0) {
		if (!errno)
			errno = ENOMEM;
		goto out;
	}
	rc = 0;
out:
	dir_release(&c);
	if (!res)
		gatecheck_result_release(&local);
	return rc;
}
