/* gate_config.c: .tlgate.json, the configuration in force per directory
 * and inline suppressions (gate_config.h). */
#include "run/gate_config.h"
#include "stats/winner.h"

#include "gates/rules.h"
#include "io/tree.h"
#include "model/optlog.h"
#include "run/gate_tree.h"
#include "run/git.h"
#include "util/path.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CONFIG_MAX (1 << 20)          /* a .tlgate.json */
#define REV_LIST_MAX (256u << 20)     /* git ls-tree -r of the base revision */

/* ---- rule ids ---- */

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
		return strncmp(r, "S4-", 3) == 0 || strncmp(r, "PT-", 3) == 0 || strncmp(r, "TLGATE-", 7) == 0;
	return gate_rule_find(r) != NULL || strncmp(r, "PT-", 3) == 0;
}

/* 1 when some entry of v [0, n) matches rule. */
static int any_matches(char *const *v, size_t n, const char *rule)
{
	for (size_t i = 0; i < n; i++)
		if (rule_matches(v[i], rule))
			return 1;
	return 0;
}

/* ---- the configuration ---- */

void gate_config_init(struct gate_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
}

void gate_config_release(struct gate_config *cfg)
{
	for (size_t i = 0; i < cfg->n; i++)
		free(cfg->rule[i]);
	for (size_t i = 0; i < cfg->n_inline_ok; i++)
		free(cfg->inline_ok[i]);
	free(cfg->rule);
	free(cfg->sev);
	free(cfg->inline_ok);
	free(cfg->path);
	int strict = cfg->strict;
	gate_config_init(cfg);
	cfg->strict = strict;
}

static const char KEYS_HINT[] =
	"(the file holds {\"rules\": {\"RULE\": \"error\"|\"warning\"|\"note\"|\"off\"}, "
	"\"inline_suppressible\": [\"RULE\", ...]})";

/* {"rules": {...}, "inline_suppressible": [...]} holds nothing else; the
 * flat form (no "rules") holds only rule ids beside "inline_suppressible".
 * Anything else is a key the gate does not know: name it, rather than
 * complain about its value. 0, or -1 with err. */
static int config_keys(const cJSON *root, int flat, const char *name, char *err, size_t errlen)
{
	const cJSON *key;
	cJSON_ArrayForEach(key, root)
	{
		if (strcmp(key->string, "inline_suppressible") == 0 || strcmp(key->string, "ab_threshold") == 0 ||
		    (!flat && strcmp(key->string, "rules") == 0))
			continue;
		if (!flat || (!cJSON_IsString(key) && !known_rule(key->string))) {
			snprintf(err, errlen, "'%s': unknown key '%.80s' %s", name, key->string, KEYS_HINT);
			return -1;
		}
	}
	return 0;
}

/* Appends a copy of s to the string vector *v (*n entries). 0, -1 when
 * out of memory. */
static int push_str(char ***v, size_t *n, const char *s)
{
	char **nv = realloc(*v, (*n + 1) * sizeof(*nv));
	if (!nv)
		return -1;
	*v = nv;
	if (!(nv[*n] = strdup(s)))
		return -1;
	(*n)++;
	return 0;
}

/* Adds the rule entry it ("RULE": "severity") to cfg, checked first. 0,
 * or -1 with err. */
static int config_rule(struct gate_config *cfg, const cJSON *it, const char *name, char *err,
		       size_t errlen)
{
	enum gate_severity sev;
	if (!cJSON_IsString(it) || gate_severity_parse(it->valuestring, &sev) != 0) {
		snprintf(err, errlen, "'%s': rule '%.80s' must be \"error\", \"warning\", \"note\" or \"off\"",
			 name, it->string);
		return -1;
	}
	if (!known_rule(it->string) && strcmp(it->string, "TLGATE-SUPPRESSION") != 0) {
		snprintf(err, errlen, "'%s': unknown rule '%.80s'", name, it->string);
		return -1;
	}
	enum gate_severity *sv = realloc(cfg->sev, (cfg->n + 1) * sizeof(*sv));
	if (sv)
		cfg->sev = sv;
	if (!sv || push_str(&cfg->rule, &cfg->n, it->string) != 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	cfg->sev[cfg->n - 1] = sev;
	return 0;
}

/* "inline_suppressible": an array of rule ids or S4-/PT- prefixes ending
 * in '*'. The gate's own TLGATE-* rules are never suppressible. 0, or -1
 * with err. */
static int config_inline(struct gate_config *cfg, const cJSON *arr, const char *name, char *err,
			 size_t errlen)
{
	const cJSON *it;
	if (!cJSON_IsArray(arr)) {
		snprintf(err, errlen, "'%s': \"inline_suppressible\" must be an array of rule ids", name);
		return -1;
	}
	cJSON_ArrayForEach(it, arr)
	{
		if (!cJSON_IsString(it)) {
			snprintf(err, errlen, "'%s': \"inline_suppressible\" must be an array of rule ids", name);
			return -1;
		}
		const char *r = it->valuestring;
		if (strncmp(r, "TLGATE-", 7) == 0) {
			snprintf(err, errlen, "'%s': '%.80s' in \"inline_suppressible\": the gate's own rules (TLGATE-*) cannot be suppressed inline",
				 name, r);
			return -1;
		}
		if (!known_rule(r)) {
			snprintf(err, errlen, "'%s': unknown rule '%.80s' in \"inline_suppressible\"", name, r);
			return -1;
		}
		if (push_str(&cfg->inline_ok, &cfg->n_inline_ok, r) != 0) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	return 0;
}

int gate_config_parse(const char *text, size_t len, const char *name, struct gate_config *cfg,
		      char *err, size_t errlen)
{
	cJSON *root = cJSON_ParseWithLength(text, len);
	int rc = -1;
	if (!cJSON_IsObject(root)) {
		snprintf(err, errlen, "'%s' is not a JSON object", name);
		goto out;
	}
	const cJSON *rules = cJSON_GetObjectItemCaseSensitive(root, "rules");
	const cJSON *inl = cJSON_GetObjectItemCaseSensitive(root, "inline_suppressible");
	int flat = !rules;
	if (flat)
		rules = root;
	if (config_keys(root, flat, name, err, errlen) != 0)
		goto out;
	if (!cJSON_IsObject(rules)) {
		snprintf(err, errlen, "'%s': \"rules\" must be an object", name);
		goto out;
	}
	const cJSON *it;
	const cJSON *abt = cJSON_GetObjectItemCaseSensitive(root, "ab_threshold");
	cJSON_ArrayForEach(it, rules)
	{
		if (it == inl || it == abt)
			continue;
		if (config_rule(cfg, it, name, err, errlen) != 0)
			goto out;
	}
	if (inl && config_inline(cfg, inl, name, err, errlen) != 0)
		goto out;
	if (abt && (!cJSON_IsNumber(abt) || !(abt->valuedouble > 0 && abt->valuedouble < 0.5))) {
		snprintf(err, errlen, "'%s': \"ab_threshold\" must be a fraction above 0 and below 0.5 (0.05 is 5%%)", name);
		goto out;
	}
	if (abt)
		cfg->ab_threshold = abt->valuedouble;
	free(cfg->path);
	cfg->path = strdup(name);
	rc = 0;
out:
	cJSON_Delete(root);
	return rc;
}

int gate_config_load(const char *path, struct gate_config *cfg, char *err, size_t errlen)
{
	/* a configuration file the user names: any regular file of at most
	 * 1 MiB, symbolic links followed (it is not part of the checked tree) */
	struct stat st;
	FILE *f = NULL;
	char *text = NULL;
	size_t len = 0;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > CONFIG_MAX ||
	    !(f = fdopen(fd, "rb"))) {
		if (fd >= 0 && !f)
			close(fd);
		snprintf(err, errlen, "cannot read '%s': %s", path,
			 fd < 0 ? strerror(errno) : !S_ISREG(st.st_mode) ? "not a regular file" : "larger than 1 MiB");
		return -1;
	}
	text = malloc((size_t)st.st_size + 1);
	len = text ? fread(text, 1, (size_t)st.st_size, f) : 0;
	int bad = !text || ferror(f);
	fclose(f);
	if (bad) {
		free(text);
		snprintf(err, errlen, "cannot read '%s'", path);
		return -1;
	}
	text[len] = '\0';
	int rc = gate_config_parse(text, len, path, cfg, err, errlen);
	free(text);
	return rc;
}

char *gate_config_find(const char *dir, const char *stop)
{
	char *buf = realpath(dir, NULL);
	char *top = stop ? realpath(stop, NULL) : tree_repo_top(dir);
	char *found = NULL;
	if (!buf)
		goto out;
	/* without a repository, only dir itself */
	size_t tl = top ? strlen(top) : strlen(buf);
	if (strncmp(buf, top ? top : buf, tl) != 0)
		goto out;
	for (;;) {
		char *c = path_join(buf, ".tlgate.json");
		struct stat st;
		if (c && lstat(c, &st) == 0 && S_ISREG(st.st_mode)) {
			found = c;
			break;
		}
		free(c);
		char *slash = strrchr(buf, '/');
		if (strlen(buf) <= tl || !slash)
			break;
		if (slash == buf)
			slash[1] = '\0';
		else
			*slash = '\0';
		if (strlen(buf) < tl)
			break;
	}
out:
	free(buf);
	free(top);
	return found;
}

enum gate_severity gate_config_severity(const struct gate_config *cfg, const char *rule,
					enum gate_severity dflt, int *matched)
{
	if (matched)
		*matched = 0;
	for (size_t c = cfg->n; c-- > 0;) {
		if (!rule_matches(cfg->rule[c], rule))
			continue;
		if (matched)
			*matched = 1;
		return cfg->sev[c] == GATE_OFF || dflt != GATE_NOTE ? cfg->sev[c] : dflt;
	}
	return dflt;
}

void gate_config_apply(const struct gate_config *cfg, struct gate_findings *fs)
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
			gate_finding_release(f);
			continue;
		}
		fs->v[k++] = *f;
	}
	fs->n = k;
}

int gate_config_inline_ok(const struct gate_config *cfg, const char *rule)
{
	return strncmp(rule, "TLGATE-", 7) != 0 && any_matches(cfg->inline_ok, cfg->n_inline_ok, rule);
}

/* ---- inline suppressions ---- */

void gate_config_suppressions_init(struct gate_config_suppressions *s)
{
	memset(s, 0, sizeof(*s));
}

void gate_config_suppressions_release(struct gate_config_suppressions *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->v[i].file);
		free(s->v[i].rule);
		free(s->v[i].reason);
	}
	free(s->v);
	gate_config_suppressions_init(s);
}

int gate_config_add_suppression(struct gate_config_suppressions *sups, const char *file,
				const struct optlog_suppression *s)
{
	if (sups->n == sups->cap) {
		size_t cap = sups->cap ? sups->cap * 2 : 8;
		struct gate_config_suppression *v = realloc(sups->v, cap * sizeof(*v));
		if (!v)
			return -1;
		sups->v = v;
		sups->cap = cap;
	}
	struct gate_config_suppression *g = &sups->v[sups->n];
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
	sups->n++;
	return 0;
}

/* The suppression that silences f under cfg, marking each one that names
 * f used (allowed) or denied (not allowed); NULL when none applies. */
static const struct gate_config_suppression *silencer(const struct gate_config *cfg,
						      const struct gate_finding *f,
						      struct gate_config_suppressions *sups)
{
	const struct gate_config_suppression *by = NULL;
	if (strncmp(f->rule, "TLGATE-", 7) == 0)
		return NULL;
	int ok = gate_config_inline_ok(cfg, f->rule);
	for (size_t s = 0; s < sups->n; s++) {
		struct gate_config_suppression *g = &sups->v[s];
		if (!g->rule || !g->reason || !rule_matches(g->rule, f->rule))
			continue;
		if (!ok) {
			g->denied = 1;
			continue;
		}
		g->used = 1;
		if (!by)
			by = g;
	}
	return by;
}

/* The TLGATE-SUPPRESSION(-DENIED) finding g deserves, if any. */
static int judge(const struct gate_config *cfg, const struct gate_config_suppression *g,
		 struct gate_findings *fs)
{
	if (!g->rule || !g->reason)
		return gate_add(fs, "TLGATE-SUPPRESSION", GATE_WARNING, g->file, g->line,
				"a suppression needs a rule id and a reason: <!-- tlgate-disable RULE -- reason -->");
	if (!known_rule(g->rule))
		return gate_add(fs, "TLGATE-SUPPRESSION", GATE_WARNING, g->file, g->line,
				"suppression of unknown rule '%s'", g->rule);
	size_t n = strlen(g->rule);
	int exact = n > 0 && g->rule[n - 1] != '*';
	if ((g->denied || (exact && !gate_config_inline_ok(cfg, g->rule))) && cfg->path)
		return gate_add(fs, "TLGATE-SUPPRESSION-DENIED", GATE_ERROR, g->file, g->line,
				"%s cannot be suppressed inline: the configuration in force (%s) does not list "
				"it in \"inline_suppressible\", so its findings stand (reason given: %s)",
				g->rule, cfg->path, g->reason);
	if (g->denied || (exact && !gate_config_inline_ok(cfg, g->rule)))
		return gate_add(fs, "TLGATE-SUPPRESSION-DENIED", GATE_ERROR, g->file, g->line,
				"%s cannot be suppressed inline: no .tlgate.json is in force and by default no "
				"rule is inline-suppressible, so its findings stand (reason given: %s)",
				g->rule, g->reason);
	if (!g->used)
		return gate_add(fs, "TLGATE-SUPPRESSION", GATE_WARNING, g->file, g->line,
				"unused suppression of %s (nothing to suppress)", g->rule);
	return 0;
}

int gate_config_apply_suppressions(const struct gate_config *cfg, struct gate_findings *fs,
				   struct gate_config_suppressions *sups)
{
	size_t n = fs->n; /* the judgements below are not themselves suppressed */
	for (size_t i = 0; i < n; i++) {
		struct gate_finding *f = &fs->v[i];
		const struct gate_config_suppression *by = silencer(cfg, f, sups);
		if (by && gate_finding_suppress(f, by->file, by->line, by->reason) != 0)
			return -1;
	}
	for (size_t s = 0; s < sups->n; s++)
		if (judge(cfg, &sups->v[s], fs) != 0)
			return -1;
	return 0;
}

/* ---- the working tree's file ---- */

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

int gate_config_in_tree(const struct gate_set *s, const struct gate_dir *d, struct gate_config *cfg,
			char **name, char *err, size_t errlen)
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
		rc = gate_config_parse(text, len, *name, cfg, err, errlen);
	}
	free(text);
	free(dir);
	return rc;
}

/* ---- the base revision's file ---- */

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
 * repository and revision into cs's cache (the lookup is then in memory,
 * for any depth). 0; -1 with err. */
static int revlist_load(struct gate_config_state *cs, const char *top, const char *rev, char *err,
			size_t errlen)
{
	if (cs->revlist_key && strcmp(cs->revlist_top, top) == 0 && strcmp(cs->revlist_key, rev) == 0)
		return 0;
	char *list = NULL;
	size_t llen = 0;
	char *argv[] = { "git", "-C", (char *)top, "ls-tree", "-r", "-z", "--name-only", (char *)rev, NULL };
	if (git_capture(argv, REV_LIST_MAX, &list, &llen) != 0) {
		free(list);
		snprintf(err, errlen, "git cannot list the files of revision '%s'", rev);
		return -1;
	}
	free(cs->revlist);
	free(cs->revlist_key);
	free(cs->revlist_top);
	cs->revlist = list;
	cs->revlist_len = keep_configs(list, llen);
	cs->revlist_key = strdup(rev);
	cs->revlist_top = strdup(top);
	if (!cs->revlist_key || !cs->revlist_top) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

/* The cached configuration file of dir (a repository path) itself, NULL
 * when it has none. */
static const char *revlist_at(const struct gate_config_state *cs, const char *dir)
{
	size_t dl = strlen(dir);
	for (size_t i = 0; i < cs->revlist_len;) {
		const char *p = cs->revlist + i;
		size_t pl = strlen(p);
		i += pl + 1;
		if (pl == dl + (dl ? 13 : 12) && strncmp(p, dir, dl) == 0 &&
		    strcmp(p + dl, dl ? "/.tlgate.json" : ".tlgate.json") == 0)
			return p;
	}
	return NULL;
}

/* The nearest .tlgate.json of d at revision cs->rev, from d up to the
 * repository top: *path gets its repository-relative path (malloc'd),
 * NULL when there is none. 0, -1 with err. */
static int find_at_rev(struct gate_config_state *cs, const struct gate_set *s,
		       const struct gate_dir *d, char **path, char *err, size_t errlen)
{
	const struct gate_root *r = &s->roots[d->root];
	char *dir = gate_dir_in_repo(s, d);
	*path = NULL;
	if (!dir) {
		snprintf(err, errlen, "'%s' is not in a git repository: the base revision's configuration cannot be read",
			 d->shown);
		return -1;
	}
	if (revlist_load(cs, r->top, cs->rev, err, errlen) != 0) {
		free(dir);
		return -1;
	}
	const char *found = NULL;
	do
		found = revlist_at(cs, dir);
	while (!found && up_one(dir));
	free(dir);
	if (found && !(*path = strdup(found))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

/* Loads path of revision rev (git show REV:path, at most 1 MiB) into cfg;
 * *name gets "REV:path" (malloc'd). 0, -1 with err. */
static int load_at_rev(const struct gate_root *r, const char *rev, const char *path,
		       struct gate_config *cfg, char **name, char *err, size_t errlen)
{
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
	int rc = gate_config_parse(text, tlen, *name, cfg, err, errlen);
	free(text);
	return rc;
}

/* ---- what a pull request's file may not do ---- */

static int weaker(const struct gate_config *base, const char *base_name, const struct gate_config *pr,
		  const char *file, const char *id, enum gate_severity dflt, struct gate_findings *fs,
		  const char *how)
{
	int in_base;
	enum gate_severity b = gate_config_severity(base, id, dflt, &in_base);
	enum gate_severity p = gate_config_severity(pr, id, dflt, NULL);
	if (p >= b)
		return 0;
	return gate_add(fs, "TLGATE-CONFIG", GATE_ERROR, file, 0,
			"%s %s to %s, weaker than %s (%s): a pull request cannot weaken the gate; the base "
			"revision's configuration is applied instead",
			how, id, gate_severity_name(p), gate_severity_name(b),
			in_base && base_name ? base_name : "its default");
}

int gate_config_removed(const struct gate_config *base, const char *base_name, const char *file,
			struct gate_findings *fs)
{
	struct gate_config none;
	gate_config_init(&none);
	for (size_t i = 0; i < base->n; i++) {
		const char *id = base->rule[i];
		size_t n = strlen(id);
		const struct gate_rule_info *ri = gate_rule_find(id);
		if (n > 0 && id[n - 1] == '*')
			continue;
		if (weaker(base, base_name, &none, file, id, ri ? ri->default_severity : GATE_ERROR, fs,
			   "removing it sets"))
			return -1;
	}
	return 0;
}

/* Entries of pr's "inline_suppressible" that base's does not cover: each
 * one would let the pull request switch a rule off. */
static int more_suppressible(const struct gate_config *base, const char *base_name,
			     const struct gate_config *pr, const char *file, struct gate_findings *fs)
{
	for (size_t i = 0; i < pr->n_inline_ok; i++) {
		const char *id = pr->inline_ok[i];
		if (any_matches(base->inline_ok, base->n_inline_ok, id))
			continue;
		if (gate_add(fs, "TLGATE-CONFIG", GATE_ERROR, file, 0,
			     "makes %s inline-suppressible, which %s does not: a pull request cannot let "
			     "itself switch a rule off; the base revision's configuration is applied instead",
			     id, base_name ? base_name : "the base revision (no .tlgate.json)"))
			return -1;
	}
	return 0;
}

int gate_config_weakened(const struct gate_config *base, const char *base_name,
			 const struct gate_config *pr, const char *file, struct gate_findings *fs)
{
	/* S4-AB's threshold: a lower one sends fewer small gains to A/B */
	double bt = base->ab_threshold > 0 ? base->ab_threshold : STATS_WINNER_AB_THRESHOLD;
	if (pr->ab_threshold > 0 && pr->ab_threshold < bt &&
	    gate_add(fs, "TLGATE-CONFIG", GATE_ERROR, file, 0,
		     "sets ab_threshold to %g, below %g (%s): a pull request cannot weaken the gate; the base "
		     "revision's configuration is applied instead",
		     pr->ab_threshold, bt, base->ab_threshold > 0 && base_name ? base_name : "its default"))
		return -1;
	for (size_t i = 0; i < gate_nrules; i++)
		if (weaker(base, base_name, pr, file, gate_rules[i].id, gate_rules[i].default_severity, fs,
			   "sets"))
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
		if (!listed && weaker(base, base_name, pr, file, id, ri ? ri->default_severity : GATE_ERROR, fs,
				      "sets"))
			return -1;
	}
	return more_suppressible(base, base_name, pr, file, fs);
}

/* ---- the configuration in force, directory by directory ---- */

void gate_config_state_init(struct gate_config_state *cs, const char *explicit_path,
			    const char *rev, int strict)
{
	memset(cs, 0, sizeof(*cs));
	cs->explicit_path = explicit_path;
	cs->rev = rev;
	cs->strict = strict;
	gate_config_init(&cs->cfg);
	cs->cfg.strict = strict;
}

void gate_config_state_release(struct gate_config_state *cs)
{
	gate_config_release(&cs->cfg);
	free(cs->loaded);
	for (size_t i = 0; i < cs->nreported; i++)
		free(cs->reported[i]);
	free(cs->reported);
	free(cs->revlist);
	free(cs->revlist_key);
	free(cs->revlist_top);
	memset(cs, 0, sizeof(*cs));
}

/* 1 when name is another configuration than the one cs holds, which is
 * then dropped; 0 when it is the same. */
static int cfg_switch(struct gate_config_state *cs, const char *name)
{
	if ((!name && !cs->loaded) || (name && cs->loaded && strcmp(name, cs->loaded) == 0))
		return 0;
	gate_config_release(&cs->cfg);
	cs->cfg.strict = cs->strict;
	free(cs->loaded);
	cs->loaded = NULL;
	return 1;
}

/* Takes *name into cs's list of compared files unless it is there:
 * 1 when it was new (*name then belongs to cs), 0 when seen, -1 when out
 * of memory. */
static int first_report(struct gate_config_state *cs, char **name)
{
	for (size_t i = 0; i < cs->nreported; i++)
		if (strcmp(cs->reported[i], *name) == 0)
			return 0;
	char **v = realloc(cs->reported, (cs->nreported + 1) * sizeof(*v));
	if (!v)
		return -1;
	cs->reported = v;
	cs->reported[cs->nreported++] = *name;
	*name = NULL;
	return 1;
}

/* In pull-request mode: the working tree's configuration of d, compared
 * with the base revision's (base, base_name): TLGATE-CONFIG errors into
 * out, once per file. 0, -1 when out of memory. */
static int check_weakening(struct gate_config_state *cs, const struct gate_set *set,
			   const struct gate_dir *d, const struct gate_config *base,
			   const char *base_name, struct gate_findings *out)
{
	struct gate_config pr;
	char err[512], *name = NULL;
	int rc = 0, first;
	gate_config_init(&pr);
	if (gate_config_in_tree(set, d, &pr, &name, err, sizeof(err)) != 0) {
		/* an unreadable or invalid PR configuration cannot apply anyway */
		rc = gate_add(out, "TLGATE-CONFIG", GATE_ERROR, name ? name : d->shown, 0,
			      "%s (the base revision's configuration is applied)", err);
	} else if (!name && base_name && base->n) {
		/* the pull request removed the base's file: its stricter rules
		 * would be gone after the merge */
		const char *colon = strchr(base_name, ':');
		const struct gate_root *r = &set->roots[d->root];
		name = colon && r->top ? tree_join(r->top, colon + 1) : NULL;
		if (name && (first = first_report(cs, &name)) != 0)
			rc = first < 0 ? -1 : gate_config_removed(base, base_name, cs->reported[cs->nreported - 1], out);
	} else if (name && (first = first_report(cs, &name)) != 0) {
		rc = first < 0 ? -1 : gate_config_weakened(base, base_name, &pr, cs->reported[cs->nreported - 1], out);
	}
	free(name);
	gate_config_release(&pr);
	return rc;
}

/* Pull-request mode: the base revision's configuration of d, checked
 * against the working tree's (TLGATE-CONFIG into out), becomes cs->cfg
 * unless --config names one. 0, -1 with err, -2 when out of memory. */
static int config_at_rev(struct gate_config_state *cs, const struct gate_set *set,
			 const struct gate_dir *d, struct gate_findings *out, char *err, size_t errlen)
{
	char *path = NULL, *name = NULL;
	/* the base revision's: the pull request's own never applies */
	struct gate_config base;
	gate_config_init(&base);
	if (find_at_rev(cs, set, d, &path, err, errlen) != 0)
		return -1;
	if (path && load_at_rev(&set->roots[d->root], cs->rev, path, &base, &name, err, errlen) != 0) {
		free(path);
		free(name);
		gate_config_release(&base);
		return -1;
	}
	int rc = check_weakening(cs, set, d, &base, name, out);
	if (rc == 0 && !cs->explicit_path && cfg_switch(cs, name)) {
		/* take base over */
		gate_config_release(&cs->cfg);
		cs->cfg = base;
		cs->cfg.strict = cs->strict;
		gate_config_init(&base);
		cs->loaded = name;
		name = NULL;
	}
	gate_config_release(&base);
	free(path);
	free(name);
	return rc ? -2 : 0;
}

/* The nearest configuration of d in the working tree becomes cs->cfg when
 * it is another one. 0, or -1 with err. */
static int config_in_tree(struct gate_config_state *cs, const struct gate_set *set,
			  const struct gate_dir *d, char *err, size_t errlen)
{
	char *name = NULL;
	struct gate_config tmp;
	gate_config_init(&tmp);
	if (gate_config_in_tree(set, d, &tmp, &name, err, errlen) != 0) {
		free(name);
		gate_config_release(&tmp);
		return -1;
	}
	if (cfg_switch(cs, name)) {
		cs->cfg = tmp;
		cs->cfg.strict = cs->strict;
		cs->loaded = name;
	} else {
		gate_config_release(&tmp);
		free(name);
	}
	return 0;
}

int gate_config_for(struct gate_config_state *cs, const struct gate_set *set,
		    const struct gate_dir *d, struct gate_findings *out, char *err, size_t errlen)
{
	if (cs->explicit_path) {
		if (!cs->have_explicit) {
			cfg_switch(cs, cs->explicit_path);
			if (gate_config_load(cs->explicit_path, &cs->cfg, err, errlen) != 0)
				return -1;
			cs->have_explicit = 1;
			if (!(cs->loaded = strdup(cs->explicit_path)))
				return -2;
		}
		if (!cs->rev)
			return 0;
	}
	if (cs->rev)
		return config_at_rev(cs, set, d, out, err, errlen);
	return config_in_tree(cs, set, d, err, errlen);
}
