/* gate_perf_tuning.c: reads a first-generation perf_tuning/ folder and runs the PT-*
 * rules over it (gate_perf_tuning.h, gates/pt_rules.h). All file I/O of those rules
 * happens here. */
#include "run/gate_perf_tuning.h"
#include "stats/stats.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/tree.h"
#include "run/gate_config.h"
#include "io/optlog.h"
#include "gates/pt_rules.h"
#include "io/ptlog.h"
#include "io/ptjson.h"
#include "util/path.h"

/* A log or JSON larger than this is not a tuning artifact: it is reported,
 * never read into memory. */
#define PTUNE_MAX_FILE (64L * 1024 * 1024)

static int ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && strcmp(s + a - b, suf) == 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void folder_release(struct pt_folder *f)
{
	for (size_t i = 0; i < f->njson; i++) {
		free(f->json[i].name);
		free(f->json[i].shown);
		ptjson_release(&f->json[i].j);
	}
	free(f->json);
	for (size_t i = 0; i < f->nlogs; i++) {
		free(f->logs[i].shown);
		ptlog_release(&f->logs[i].log);
	}
	free(f->logs);
	if (f->has_perf)
		ptperf_release(&f->perf);
	free(f->perf_shown);
	if (f->has_report)
		ptlog_text_release(&f->report);
	free(f->report_shown);
	free(f->shown);
	memset(f, 0, sizeof(*f));
}

/* Reports a file the folder holds but that could not be read, and why. */
static int unreadable(struct gate_findings *fs, const char *rule, const char *shown, enum tree_status ts,
		      off_t cap)
{
	if (ts == TREE_TOO_LARGE)
		return gate_add(fs, rule, GATE_ERROR, shown, 0, "file larger than %ld MiB (the cap on such a file), not read",
				(long)(cap / (1024 * 1024)));
	if (ts == TREE_UNREADABLE)
		return gate_add(fs, rule, GATE_ERROR, shown, 0, "cannot read: %s", strerror(errno));
	return gate_add(fs, rule, GATE_ERROR, shown, 0, "not read: it %s", tree_status_text(ts));
}

/* The noise threshold the folder states, in percent; 3 when none. */
static double find_noise(const struct pt_folder *f)
{
	for (size_t i = 0; i < f->njson; i++) {
		const cJSON *v = f->json[i].j.root ?
			cJSON_GetObjectItemCaseSensitive(f->json[i].j.root, "noise_threshold_pct") : NULL;
		if (cJSON_IsNumber(v) && v->valuedouble > 0 && v->valuedouble < 100)
			return v->valuedouble;
	}
	const struct ptlog_text *texts[64];
	size_t nt = 0;
	for (size_t i = 0; i < f->nlogs && nt < 60; i++)
		texts[nt++] = &f->logs[i].log.text;
	if (f->has_perf)
		texts[nt++] = &f->perf.text;
	if (f->has_report)
		texts[nt++] = &f->report;
	for (size_t t = 0; t < nt; t++) {
		for (size_t l = 0; l < texts[t]->nlines; l++) {
			double best = ptlog_noise_pct(texts[t]->lines[l]);
			if (!isnan(best))
				return best;
		}
	}
	return OPTLOG_NOISE_DEFAULT_PCT;
}

/* The names of the files (not directories, not dot files) in rel of
 * tree t, sorted, into *names (malloc'd, *n of them). Returns 0, -1 when
 * the directory cannot be read (errno) or memory runs out. */
static int folder_names(const struct tree *t, const char *rel, char ***names, size_t *n)
{
	int dfd;
	enum tree_status dts = tree_resolve(t, rel, ".", TREE_WANT_DIR | TREE_NOFOLLOW, 0, &dfd, NULL);
	DIR *d = dts == TREE_OK ? fdopendir(dfd) : NULL;
	*names = NULL;
	*n = 0;
	if (!d) {
		if (dts == TREE_OK)
			close(dfd);
		else if (dts != TREE_UNREADABLE)
			errno = dts == TREE_MISSING ? ENOENT : ENOTDIR;
		return -1;
	}
	size_t cap = 0;
	struct dirent *de;
	int rc = 0;
	while (rc == 0 && (de = readdir(d))) {
		struct stat lst;
		if (de->d_name[0] == '.' ||
		    (fstatat(dirfd(d), de->d_name, &lst, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(lst.st_mode)))
			continue;
		if (*n == cap) {
			size_t c = cap ? cap * 2 : 32;
			char **p = realloc(*names, c * sizeof(*p));
			if (!p) {
				rc = -1;
				break;
			}
			*names = p;
			cap = c;
		}
		if (!((*names)[*n] = strdup(de->d_name)))
			rc = -1;
		else
			(*n)++;
	}
	closedir(d);
	if (rc == 0 && *n > 1) /* qsort(NULL, 0) is undefined */
		qsort(*names, *n, sizeof(**names), cmp_str);
	return rc;
}

enum pt_kind { PT_OTHER, PT_JSON_FILE, PT_LOG_FILE, PT_PERF_FILE, PT_REPORT_FILE };

/* What a file of the folder is, by its name. */
static enum pt_kind file_kind(const char *nm)
{
	if (ends_with(nm, ".json"))
		return PT_JSON_FILE;
	if (strcmp(nm, "optimization_log.md") == 0 ||
	    (strncmp(nm, "optimization_log_", 17) == 0 && ends_with(nm, ".md")))
		return PT_LOG_FILE;
	if (strcmp(nm, "perf_log.md") == 0)
		return PT_PERF_FILE;
	if (strcmp(nm, "final_report.md") == 0 || strcmp(nm, "perf_report.md") == 0)
		return PT_REPORT_FILE;
	return PT_OTHER;
}

/* One file's text parsed into the folder as its kind; the folder owns sh
 * (the shown path) from here on, and data is freed. Returns 0, -1 when
 * memory runs out. */
static int folder_add(struct pt_folder *f, enum pt_kind kind, const char *nm, char *sh,
		      char *data, size_t len)
{
	int pr = -1;
	if (kind == PT_JSON_FILE) {
		struct pt_jsonfile *p = realloc(f->json, (f->njson + 1) * sizeof(*p));
		if (p) {
			f->json = p;
			struct pt_jsonfile *jf = &f->json[f->njson++];
			memset(jf, 0, sizeof(*jf));
			jf->name = strdup(nm);
			jf->shown = sh;
			jf->empty = len == 0;
			pr = jf->name ? ptjson_parse(&jf->j, data, len) : -1;
			pr = pr < 0 ? -1 : 0;
		} else {
			free(sh);
		}
	} else if (kind == PT_LOG_FILE) {
		struct pt_logfile *p = realloc(f->logs, (f->nlogs + 1) * sizeof(*p));
		if (p) {
			f->logs = p;
			struct pt_logfile *lf = &f->logs[f->nlogs++];
			lf->shown = sh;
			pr = ptlog_parse(&lf->log, data, len);
		} else {
			free(sh);
		}
	} else if (kind == PT_PERF_FILE) {
		f->perf_shown = sh;
		pr = ptperf_parse(&f->perf, data, len);
		f->has_perf = pr == 0;
	} else {
		f->report_shown = sh;
		pr = ptlog_text_split(&f->report, data, len);
		f->has_report = pr == 0;
	}
	free(data);
	return pr ? -1 : 0;
}

/* The path shown for a report beside the folder (sigmoid's sits next to
 * perf_tuning/, not inside it). */
static void shown_beside(const char *shown, const char *name, char *out, size_t n)
{
	size_t sl = strlen(shown);
	if (sl > 12 && strcmp(shown + sl - 12, "/perf_tuning") == 0)
		snprintf(out, n, "%.*s/%s", (int)(sl - 12), shown, name);
	else if (strcmp(shown, "perf_tuning") == 0)
		snprintf(out, n, "%s", name);
	else
		snprintf(out, n, "%s/../%s", shown, name);
}

/* A report beside the folder when it has none inside, read only when it
 * lies in the checked tree. Returns 0, -1 when memory runs out. */
static int folder_report_beside(const struct tree *t, const char *rel, struct pt_folder *f,
				struct gate_findings *fs)
{
	static const char *const rep[] = { "final_report.md", "perf_report.md" };
	char *parent = tree_join(rel, "..");
	int rc = 0;
	if (!parent)
		return -1;
	for (size_t k = 0; k < 2 && !f->has_report && rc == 0; k++) {
		char *data = NULL, shown_up[4096];
		size_t len = 0;
		enum tree_status ts = tree_read(t, parent, rep[k], PTUNE_MAX_FILE, &data, &len);
		/* absent, or above the checked tree: not this folder's */
		if (ts == TREE_MISSING || ts == TREE_OUTSIDE || ts == TREE_NOT_REGULAR)
			continue;
		shown_beside(f->shown, rep[k], shown_up, sizeof(shown_up));
		if (ts != TREE_OK) {
			rc = unreadable(fs, "PT-REPORT", shown_up, ts, PTUNE_MAX_FILE) ? -1 : 0;
			break;
		}
		char *sh = strdup(shown_up);
		rc = sh ? folder_add(f, PT_REPORT_FILE, rep[k], sh, data, len) : (free(data), -1);
	}
	free(parent);
	return rc;
}

/* Loads the folder rel of tree t. Findings for files that cannot be read
 * go to fs. Returns 0, -1 when the directory cannot be read or memory runs
 * out. */
static int folder_load(const struct tree *t, const char *rel, const char *shown, struct pt_folder *f,
		       struct gate_findings *fs)
{
	static const char *const rule[] = { "", "PT-JSON", "PT-PLAN", "PT-ITERATION", "PT-REPORT" };
	char **names = NULL;
	size_t n = 0;
	int rc = -1;
	memset(f, 0, sizeof(*f));
	if (!(f->shown = strdup(shown)))
		return -1;
	if (folder_names(t, rel, &names, &n) != 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		enum pt_kind kind = file_kind(names[i]);
		if (kind == PT_OTHER || (kind == PT_REPORT_FILE && f->has_report))
			continue;
		char *sh = path_join(shown, names[i]), *data = NULL;
		size_t len = 0;
		off_t fcap = kind == PT_JSON_FILE ? (off_t)PTJSON_MAX_BYTES : (off_t)PTUNE_MAX_FILE;
		if (!sh)
			goto out;
		enum tree_status ts = tree_read(t, rel, names[i], fcap, &data, &len);
		if (ts != TREE_OK) { /* TREE_MISSING: gone since it was listed */
			int e = ts != TREE_MISSING && unreadable(fs, rule[kind], sh, ts, fcap);
			free(sh);
			if (e)
				goto out;
			continue;
		}
		if (folder_add(f, kind, names[i], sh, data, len) != 0)
			goto out;
	}
	if (!f->has_report && folder_report_beside(t, rel, f, fs) != 0)
		goto out;
	f->noise_pct = find_noise(f);
	rc = 0;
out:
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (rc)
		folder_release(f);
	return rc;
}

/* A tree rooted at path's parent, *rel its last component (malloc'd). */
static int tree_of(const char *path, struct tree *t, char **rel)
{
	char *real = realpath(path, NULL);
	if (!real)
		return -1;
	char *slash = strrchr(real, '/');
	*rel = strdup(slash[1] ? slash + 1 : ".");
	if (slash == real)
		slash[1] = '\0';
	else
		*slash = '\0';
	int rc = *rel ? tree_open(t, real) : -1;
	if (rc) {
		free(*rel);
		*rel = NULL;
	}
	free(real);
	return rc;
}

int ptune_check_dir(const char *path, const char *shown, struct gate_findings *fs)
{
	struct tree t;
	char *rel;
	if (tree_of(path, &t, &rel) != 0)
		return -1;
	int rc = ptune_check_dir_in(&t, rel, shown, fs);
	int e = errno;
	tree_close(&t);
	free(rel);
	errno = e;
	return rc;
}

int ptune_check_dir_in(const struct tree *t, const char *rel, const char *shown, struct gate_findings *fs)
{
	struct pt_folder f;
	if (folder_load(t, rel, shown, &f, fs))
		return -1;
	int (*const rules[])(const struct pt_folder *, struct gate_findings *) = {
		pt_rule_json,   pt_rule_plan, pt_rule_sequence, pt_rule_precision, pt_rule_result,
		pt_rule_iteration, pt_rule_stop, pt_rule_db,  pt_rule_report,
	};
	int rc = 0;
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]) && rc == 0; i++)
		rc = rules[i](&f, fs);
	folder_release(&f);
	if (rc)
		errno = ENOMEM;
	return rc;
}

static int scan_text(const struct ptlog_text *t, const char *file, struct gate_config_suppressions *sups)
{
	struct optlog tmp;
	optlog_init(&tmp);
	int rc = 0;
	for (size_t l = 0; l < t->nlines && rc == 0; l++)
		if (strstr(t->lines[l], "tlgate-disable"))
			rc = optlog_scan_suppressions(t->lines[l], strlen(t->lines[l]), (long)l + 1, &tmp);
	for (size_t i = 0; i < tmp.n_suppressions && rc == 0; i++)
		rc = gate_config_add_suppression(sups, file, &tmp.suppressions[i]);
	optlog_release(&tmp);
	return rc;
}

int ptune_suppressions(const char *path, const char *shown, struct gate_config_suppressions *sups)
{
	struct tree t;
	char *rel;
	if (tree_of(path, &t, &rel) != 0)
		return -1;
	int rc = ptune_suppressions_in(&t, rel, shown, sups);
	int e = errno;
	tree_close(&t);
	free(rel);
	errno = e;
	return rc;
}

int ptune_suppressions_in(const struct tree *t, const char *rel, const char *shown,
			  struct gate_config_suppressions *sups)
{
	struct gate_findings ignored;
	gate_findings_init(&ignored);
	struct pt_folder f;
	int rc = folder_load(t, rel, shown, &f, &ignored);
	gate_findings_release(&ignored);
	if (rc)
		return -1;
	for (size_t i = 0; i < f.nlogs && rc == 0; i++)
		rc = scan_text(&f.logs[i].log.text, f.logs[i].shown, sups);
	if (rc == 0 && f.has_perf)
		rc = scan_text(&f.perf.text, f.perf_shown, sups);
	if (rc == 0 && f.has_report)
		rc = scan_text(&f.report, f.report_shown, sups);
	folder_release(&f);
	if (rc)
		errno = ENOMEM;
	return rc;
}

int ptune_speedups(const char *path, struct ptune_speedups *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	out->mean = out->geomean = out->stated_mean = NAN;
	struct stat st;
	char *sub = tree_join(path, "perf_tuning");
	const char *dir = sub && stat(sub, &st) == 0 && S_ISDIR(st.st_mode) ? sub : path;
	struct tree t;
	char *rel = NULL;
	int rc;
	if (tree_of(dir, &t, &rel) != 0) {
		int e = errno;
		if (err)
			snprintf(err, errlen, "cannot read '%s': %s", dir, strerror(e));
		free(sub);
		errno = e;
		return -1;
	}
	rc = ptune_speedups_in(&t, rel, dir, out, err, errlen);
	tree_close(&t);
	free(rel);
	free(sub);
	return rc;
}

/* The per-case labels and speedups of table tab into out (out->v
 * allocated, out->n counting those filled). 0, or -1 with errno ENOMEM. */
static int speedup_rows(const struct ptjson_table *tab, struct ptune_speedups *out)
{
	out->v = calloc(tab->n ? tab->n : 1, sizeof(*out->v));
	if (!out->v) {
		errno = ENOMEM;
		return -1;
	}
	const cJSON *row = ptjson_row(tab, 0);
	for (size_t i = 0; i < tab->n && row; i++, row = row->next) {
		char label[128];
		ptjson_row_label(row, i, label, sizeof(label));
		out->v[i].label = strdup(label);
		if (!out->v[i].label) {
			errno = ENOMEM;
			return -1;
		}
		out->v[i].speedup = ptjson_num(row, tab->speedup);
		out->n++;
	}
	return 0;
}

/* The mean speedup the bench JSON states beside the table (a number whose
 * key names an average speedup, not a geometric one), NAN when none. */
static double stated_mean(const struct ptjson_table *tab)
{
	const cJSON *m;
	cJSON_ArrayForEach(m, tab->owner) {
		if (!cJSON_IsNumber(m) || !m->string || !strstr(m->string, "speedup") || strstr(m->string, "geo"))
			continue;
		if (strstr(m->string, "avg") || strstr(m->string, "mean") || strstr(m->string, "average"))
			return m->valuedouble;
	}
	return NAN;
}

/* The first table with a speedup column in the latest bench JSON of f
 * (its index into *j, -1 when there is none), NULL when there is none;
 * t holds the tables (16). */
static const struct ptjson_table *speedup_table(struct pt_folder *f, long *j,
						struct ptjson_table *t)
{
	long iter;
	*j = pt_latest_json(f, &iter);
	size_t nt = *j >= 0 ? ptjson_tables(&f->json[*j].j, t, 16) : 0;
	for (size_t i = 0; i < nt; i++)
		if (t[i].speedup)
			return &t[i];
	return NULL;
}

int ptune_speedups_in(const struct tree *tr, const char *rel, const char *shown,
		      struct ptune_speedups *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	out->mean = out->geomean = out->stated_mean = NAN;
	const char *dir = shown;
	struct gate_findings ignored;
	gate_findings_init(&ignored);
	struct pt_folder f;
	if (folder_load(tr, rel, shown, &f, &ignored)) {
		int e = errno;
		gate_findings_release(&ignored);
		if (err)
			snprintf(err, errlen, "cannot read '%s': %s", dir, strerror(e));
		errno = e;
		return -1;
	}
	gate_findings_release(&ignored);
	long j;
	int rc = 1;
	struct ptjson_table t[16];
	const struct ptjson_table *tab = speedup_table(&f, &j, t);
	if (!tab) {
		if (err)
			snprintf(err, errlen, j >= 0 ? "'%s/%s' has no per-case speedups" : "'%s' holds no bench JSON with per-case rows",
				 dir, j >= 0 ? f.json[j].name : "");
		goto out;
	}
	out->json = strdup(f.json[j].name);
	out->key = strdup(tab->speedup);
	if (!out->json || !out->key) {
		rc = -1;
		errno = ENOMEM;
		goto out;
	}
	if (speedup_rows(tab, out) != 0) {
		rc = -1;
		goto out;
	}
	ptjson_speedup_means(tab, &out->mean, &out->geomean, &out->nvalid);
	out->stated_mean = stated_mean(tab);
	rc = 0;
out:
	folder_release(&f);
	return rc;
}
