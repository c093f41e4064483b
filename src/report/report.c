/* report.c: gate findings in every output format (report.h).
 *
 * Every format is written so that hostile bytes in a finding (a message
 * quoting a line of a pull request: invalid UTF-8, control characters,
 * markup) cannot break the document: JSON strings are built by cJSON from
 * sanitised UTF-8, XML and Markdown are escaped here, workflow commands use
 * GitHub's percent escapes.
 */
#include "report/report.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gates/rules.h"

static const char *const format_names[] = {
	[REPORT_TEXT] = "text",	      [REPORT_JSON] = "json",	  [REPORT_SARIF] = "sarif",
	[REPORT_GITHUB] = "github",   [REPORT_JUNIT] = "junit",	  [REPORT_MARKDOWN] = "markdown",
	[REPORT_GITLAB] = "gitlab",
};
#define NFORMATS (sizeof(format_names) / sizeof(format_names[0]))

int report_format_parse(const char *name, enum report_format *out)
{
	for (size_t i = 0; i < NFORMATS; i++)
		if (strcmp(name, format_names[i]) == 0) {
			*out = (enum report_format)i;
			return 0;
		}
	return -1;
}

const char *report_format_name(enum report_format fmt)
{
	return (size_t)fmt < NFORMATS ? format_names[fmt] : "unknown";
}

/* ---- UTF-8 sanitising ---------------------------------------------- */

/* Length of the valid UTF-8 sequence at s[i] (its code point in *cp), or 0
 * when the byte there does not start one. */
static size_t u8_seq(const unsigned char *s, size_t n, size_t i, unsigned *cp)
{
	unsigned c = s[i];
	size_t need;
	unsigned min, v;
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xC2 && c <= 0xDF)
		need = 1, min = 0x80, v = c & 0x1F;
	else if (c >= 0xE0 && c <= 0xEF)
		need = 2, min = 0x800, v = c & 0x0F;
	else if (c >= 0xF0 && c <= 0xF4)
		need = 3, min = 0x10000, v = c & 0x07;
	else
		return 0;
	for (size_t k = 1; k <= need; k++) {
		if (i + k >= n || (s[i + k] & 0xC0) != 0x80)
			return 0;
		v = (v << 6) | (s[i + k] & 0x3F);
	}
	if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
		return 0;
	*cp = v;
	return need + 1;
}

enum san_mode {
	SAN_UTF8, /* invalid sequences become U+FFFD */
	SAN_XML,  /* and characters XML 1.0 forbids too */
	SAN_TEXT  /* invalid bytes and control characters become \xNN */
};

static int xml_forbidden(unsigned cp)
{
	return (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') || cp == 0xFFFE ||
	       cp == 0xFFFF;
}

/* Returns a malloc'd sanitised copy of s (NULL s gives ""), NULL on
 * allocation failure. */
static char *sanitize(const char *str, enum san_mode mode)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	size_t n = strlen((const char *)s);
	if (n > (SIZE_MAX - 1) / 4)
		return NULL;
	char *out = malloc(4 * n + 1); /* every byte grows to at most 4 */
	if (!out)
		return NULL;
	size_t o = 0;
	for (size_t i = 0; i < n;) {
		unsigned cp = 0;
		size_t len = u8_seq(s, n, i, &cp);
		int bad = len == 0 || (mode == SAN_XML && xml_forbidden(cp)) ||
			  (mode == SAN_TEXT && (cp < 0x20 || cp == 0x7F) && cp != '\t');
		if (!bad) {
			memcpy(out + o, s + i, len);
			o += len;
			i += len;
			continue;
		}
		if (mode == SAN_TEXT) {
			static const char hex[] = "0123456789abcdef";
			out[o++] = '\\';
			out[o++] = 'x';
			out[o++] = hex[s[i] >> 4];
			out[o++] = hex[s[i] & 15];
		} else {
			memcpy(out + o, "\xEF\xBF\xBD", 3);
			o += 3;
		}
		i += len ? len : 1;
	}
	out[o] = '\0';
	return out;
}

/* ---- paths ------------------------------------------------------------ */

/* Lexically normalises an absolute path in place: "//", "/./", "/x/../". */
static void normalize_abs(char *p)
{
	char *w = p; /* write cursor; p[0] == '/' */
	const char *r = p;
	while (*r) {
		while (*r == '/')
			r++;
		const char *seg = r;
		while (*r && *r != '/')
			r++;
		size_t len = (size_t)(r - seg);
		if (len == 0 || (len == 1 && seg[0] == '.'))
			continue;
		if (len == 2 && seg[0] == '.' && seg[1] == '.') {
			while (w > p && *--w != '/')
				;
			continue;
		}
		*w++ = '/';
		memmove(w, seg, len);
		w += len;
	}
	if (w == p)
		*w++ = '/';
	*w = '\0';
}

/* Absolute form of path (relative ones against the current directory),
 * its directory resolved by realpath() when that exists. Malloc'd. */
static char *absolute(const char *path, int whole)
{
	char *abs = NULL, *res = NULL;
	if (path[0] == '/') {
		abs = strdup(path);
	} else {
		char cwd[PATH_MAX];
		if (!getcwd(cwd, sizeof(cwd)))
			return strdup(path);
		size_t n = strlen(cwd) + strlen(path) + 2;
		abs = malloc(n);
		if (abs)
			snprintf(abs, n, "%s/%s", cwd, path);
	}
	if (!abs)
		return NULL;
	normalize_abs(abs);
	if (whole) {
		res = realpath(abs, NULL);
		if (res) {
			free(abs);
			return res;
		}
		return abs;
	}
	char *slash = strrchr(abs, '/');
	if (slash && slash != abs && slash[1]) {
		*slash = '\0';
		char *dir = realpath(abs, NULL);
		*slash = '/';
		if (dir) {
			size_t n = strlen(dir) + strlen(slash) + 1;
			res = malloc(n);
			if (res)
				snprintf(res, n, "%s%s", strcmp(dir, "/") == 0 ? "" : dir, slash);
			free(dir);
			if (res) {
				free(abs);
				return res;
			}
		}
	}
	return abs;
}

char *report_relpath(const char *repo_root, const char *file)
{
	if (!file)
		file = "";
	if (!repo_root || !*repo_root || !*file)
		return strdup(file);
	char *root = absolute(repo_root, 1);
	char *abs = absolute(file, 0);
	char *out = NULL;
	if (root && abs) {
		size_t rn = strlen(root);
		if (strcmp(root, "/") == 0)
			out = strdup(abs[1] ? abs + 1 : ".");
		else if (strcmp(abs, root) == 0)
			out = strdup(".");
		else if (strncmp(abs, root, rn) == 0 && abs[rn] == '/')
			out = strdup(abs + rn + 1);
		else
			out = strdup(file);
	}
	free(root);
	free(abs);
	return out;
}

/* ---- fingerprints ------------------------------------------------------ */

static uint64_t fnv1a(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

void report_fingerprint(const char *rule, const char *file, const char *message,
			unsigned long occurrence, char out[33])
{
	/* Fields are NUL-separated so ("ab","c") and ("a","bc") differ. */
	const char *parts[3] = { rule ? rule : "", file ? file : "", message ? message : "" };
	uint64_t h1 = 0xcbf29ce484222325ULL, h2 = 0x84222325cbf29ce4ULL;
	for (int i = 0; i < 3; i++) {
		size_t n = strlen(parts[i]) + 1;
		h1 = fnv1a(h1, parts[i], n);
		h2 = fnv1a(h2 ^ 0x5bd1e995u, parts[i], n);
	}
	unsigned char occ[8];
	for (int i = 0; i < 8; i++)
		occ[i] = (unsigned char)((unsigned long long)occurrence >> (8 * i));
	h1 = fnv1a(h1, occ, sizeof(occ));
	h2 = fnv1a(h2, occ, sizeof(occ));
	snprintf(out, 33, "%016llx%016llx", (unsigned long long)h1, (unsigned long long)h2);
}

/* ---- shared helpers ---------------------------------------------------- */

struct counts {
	size_t errors, warnings, notes;
};

static struct counts count_findings(const struct gate_findings *fs)
{
	struct counts c = { 0, 0, 0 };
	for (size_t i = 0; i < fs->n; i++) {
		switch (fs->v[i].severity) {
		case GATE_ERROR: c.errors++; break;
		case GATE_WARNING: c.warnings++; break;
		case GATE_NOTE: c.notes++; break;
		default: break;
		}
	}
	return c;
}

/* Does the finding fail the run under ctx? */
static int failing(const struct gate_finding *f, const struct report_ctx *ctx)
{
	return f->severity == GATE_ERROR || (f->severity == GATE_WARNING && ctx->warnings_as_errors);
}

static const char *plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* Writes a cJSON document and a newline; frees it. */
static int emit_json(FILE *f, cJSON *doc, int oom)
{
	if (!doc || oom) {
		cJSON_Delete(doc);
		errno = ENOMEM;
		return -1;
	}
	char *s = cJSON_Print(doc);
	cJSON_Delete(doc);
	if (!s) {
		errno = ENOMEM;
		return -1;
	}
	int rc = fputs(s, f) < 0 || fputc('\n', f) == EOF ? -1 : 0;
	free(s);
	return rc;
}

/* Adds a sanitised string member; sets *oom on failure. */
static cJSON *add_str(cJSON *obj, const char *key, const char *val, int *oom)
{
	char *s = sanitize(val, SAN_UTF8);
	cJSON *item = s ? cJSON_AddStringToObject(obj, key, s) : NULL;
	free(s);
	if (!item)
		*oom = 1;
	return item;
}

static cJSON *add_num(cJSON *obj, const char *key, double v, int *oom)
{
	cJSON *item = cJSON_AddNumberToObject(obj, key, v);
	if (!item)
		*oom = 1;
	return item;
}

static cJSON *add_obj(cJSON *obj, const char *key, int *oom)
{
	cJSON *item = cJSON_AddObjectToObject(obj, key);
	if (!item)
		*oom = 1;
	return item;
}

static cJSON *new_obj_in(cJSON *array, int *oom)
{
	cJSON *o = cJSON_CreateObject();
	if (!o || !cJSON_AddItemToArray(array, o)) {
		cJSON_Delete(o);
		*oom = 1;
		return NULL;
	}
	return o;
}

/* Relative paths for every finding, in order; NULL on allocation failure. */
static char **rel_paths(const struct gate_findings *fs, const struct report_ctx *ctx)
{
	char **v = calloc(fs->n ? fs->n : 1, sizeof(*v));
	if (!v)
		return NULL;
	for (size_t i = 0; i < fs->n; i++) {
		v[i] = report_relpath(ctx->repo_root, fs->v[i].file);
		if (!v[i]) {
			for (size_t k = 0; k < i; k++)
				free(v[k]);
			free(v);
			return NULL;
		}
	}
	return v;
}

static void free_paths(char **v, size_t n)
{
	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Orders findings by (rule, path, message when by_msg, index) without a
 * context argument to qsort: the comparator reads these. */
static const struct gate_findings *sort_fs;
static char **sort_rel;
static int sort_by_msg;

static int cmp_finding(const void *x, const void *y)
{
	size_t i = *(const size_t *)x, k = *(const size_t *)y;
	int c = strcmp(sort_fs->v[i].rule, sort_fs->v[k].rule);
	if (!c)
		c = strcmp(sort_rel[i], sort_rel[k]);
	if (!c && sort_by_msg)
		c = strcmp(sort_fs->v[i].message, sort_fs->v[k].message);
	return c ? c : (i > k) - (i < k);
}

/* Indices of the findings that are not GATE_OFF, sorted as above; *n gets
 * their count. Malloc'd, NULL on allocation failure. */
static size_t *sorted_findings(const struct gate_findings *fs, char **rel, int by_msg, size_t *n)
{
	size_t *ix = malloc((fs->n ? fs->n : 1) * sizeof(*ix)), m = 0;
	if (!ix)
		return NULL;
	for (size_t i = 0; i < fs->n; i++)
		if (fs->v[i].severity != GATE_OFF)
			ix[m++] = i;
	sort_fs = fs;
	sort_rel = rel;
	sort_by_msg = by_msg;
	if (m > 1)
		qsort(ix, m, sizeof(*ix), cmp_finding);
	*n = m;
	return ix;
}

/* occ[i]: how many findings before i (in report order) share its rule,
 * path and message: the fingerprint's rank. O(n log n). Malloc'd. */
static unsigned long *occurrences(const struct gate_findings *fs, char **rel)
{
	size_t m;
	size_t *ix = sorted_findings(fs, rel, 1, &m);
	unsigned long *occ = calloc(fs->n ? fs->n : 1, sizeof(*occ));
	if (!ix || !occ) {
		free(ix);
		free(occ);
		return NULL;
	}
	for (size_t j = 1; j < m; j++) {
		size_t a = ix[j - 1], b = ix[j];
		if (strcmp(fs->v[a].rule, fs->v[b].rule) == 0 && strcmp(rel[a], rel[b]) == 0 &&
		    strcmp(fs->v[a].message, fs->v[b].message) == 0)
			occ[b] = occ[a] + 1;
	}
	free(ix);
	return occ;
}

/* ---- text ----------------------------------------------------------------- */

static int write_text(FILE *f, const struct gate_findings *fs)
{
	for (size_t i = 0; i < fs->n; i++) {
		const struct gate_finding *g = &fs->v[i];
		if (g->severity == GATE_OFF)
			continue;
		char *file = sanitize(g->file, SAN_TEXT), *msg = sanitize(g->message, SAN_TEXT);
		char *rule = sanitize(g->rule, SAN_TEXT);
		if (!file || !msg || !rule) {
			free(file), free(msg), free(rule);
			errno = ENOMEM;
			return -1;
		}
		if (g->line > 0)
			fprintf(f, "%s:%ld: %s: [%s] %s\n", file, g->line,
				gate_severity_name(g->severity), rule, msg);
		else
			fprintf(f, "%s: %s: [%s] %s\n", file, gate_severity_name(g->severity), rule,
				msg);
		free(file), free(msg), free(rule);
	}
	return 0;
}

/* ---- json ----------------------------------------------------------------- */

static int write_json(FILE *f, const struct gate_findings *fs, const struct report_ctx *ctx)
{
	int oom = 0;
	struct counts c = count_findings(fs);
	cJSON *doc = cJSON_CreateObject(), *arr = NULL, *cnt;
	if (!doc)
		return emit_json(f, NULL, 1);
	add_str(doc, "tool", ctx->tool_name ? ctx->tool_name : "tlgate", &oom);
	add_str(doc, "version", ctx->tool_version ? ctx->tool_version : "", &oom);
	arr = cJSON_AddArrayToObject(doc, "findings");
	if (!arr)
		oom = 1;
	for (size_t i = 0; arr && i < fs->n; i++) {
		const struct gate_finding *g = &fs->v[i];
		if (g->severity == GATE_OFF)
			continue;
		cJSON *o = new_obj_in(arr, &oom);
		if (!o)
			break;
		add_str(o, "rule", g->rule, &oom);
		add_str(o, "severity", gate_severity_name(g->severity), &oom);
		add_str(o, "file", g->file, &oom);
		add_num(o, "line", (double)g->line, &oom);
		add_str(o, "message", g->message, &oom);
	}
	cnt = add_obj(doc, "counts", &oom);
	if (cnt) {
		add_num(cnt, "error", (double)c.errors, &oom);
		add_num(cnt, "warning", (double)c.warnings, &oom);
		add_num(cnt, "note", (double)c.notes, &oom);
	}
	add_num(doc, "dirs_checked", (double)ctx->dirs_checked, &oom);
	size_t nfail = c.errors + (ctx->warnings_as_errors ? c.warnings : 0);
	if (!cJSON_AddBoolToObject(doc, "passed", nfail == 0))
		oom = 1;
	return emit_json(f, doc, oom);
}

/* ---- sarif ---------------------------------------------------------------- */

static const char *sarif_level(enum gate_severity s)
{
	return s == GATE_ERROR ? "error" : s == GATE_WARNING ? "warning" : "note";
}

/* Percent-encodes a path for a URI reference (RFC 3986: unreserved and
 * '/' stay). Absolute paths become file:// URIs. Malloc'd. */
static char *path_uri(const char *path)
{
	const unsigned char *p = (const unsigned char *)path;
	size_t n = strlen(path);
	if (n > (SIZE_MAX - 16) / 3)
		return NULL;
	char *out = malloc(3 * n + 16);
	if (!out)
		return NULL;
	size_t o = 0;
	if (path[0] == '/') {
		memcpy(out, "file://", 7);
		o = 7;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned c = p[i];
		if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		    c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
			out[o++] = (char)c;
		} else {
			static const char hex[] = "0123456789ABCDEF";
			out[o++] = '%';
			out[o++] = hex[c >> 4];
			out[o++] = hex[c & 15];
		}
	}
	out[o] = '\0';
	return out;
}

/* The rule ids of the run: the registry in order, then ids only the
 * findings use (e.g. S4-PERF-FEEDBACK-SECTIONS), in order of appearance.
 * Returns the count; *ids is malloc'd (pointers borrowed). */
static size_t sarif_rule_ids(const struct gate_findings *fs, const char ***ids)
{
	const char **v = malloc((gate_nrules + fs->n + 1) * sizeof(*v));
	size_t n = 0;
	if (!v)
		return (size_t)-1;
	for (size_t i = 0; i < gate_nrules; i++)
		v[n++] = gate_rules[i].id;
	for (size_t i = 0; i < fs->n; i++) {
		if (fs->v[i].severity == GATE_OFF)
			continue;
		size_t k = 0;
		while (k < n && strcmp(v[k], fs->v[i].rule) != 0)
			k++;
		if (k == n)
			v[n++] = fs->v[i].rule;
	}
	*ids = v;
	return n;
}

static int write_sarif(FILE *f, const struct gate_findings *fs, const struct report_ctx *ctx)
{
	int oom = 0;
	const char **ids = NULL;
	char **rel = NULL;
	unsigned long *occ = NULL;
	size_t nids = sarif_rule_ids(fs, &ids);
	if (nids == (size_t)-1)
		return emit_json(f, NULL, 1);
	rel = rel_paths(fs, ctx);
	occ = rel ? occurrences(fs, rel) : NULL;
	cJSON *doc = cJSON_CreateObject(), *runs, *run, *tool, *driver, *rules, *results;
	if (!doc || !rel || !occ) {
		oom = 1;
		goto out;
	}
	add_str(doc, "$schema", "https://json.schemastore.org/sarif-2.1.0.json", &oom);
	add_str(doc, "version", "2.1.0", &oom);
	runs = cJSON_AddArrayToObject(doc, "runs");
	run = runs ? new_obj_in(runs, &oom) : NULL;
	tool = run ? add_obj(run, "tool", &oom) : NULL;
	driver = tool ? add_obj(tool, "driver", &oom) : NULL;
	if (!driver) {
		oom = 1;
		goto out;
	}
	add_str(driver, "name", ctx->tool_name ? ctx->tool_name : "tlgate", &oom);
	add_str(driver, "version", ctx->tool_version ? ctx->tool_version : "0", &oom);
	rules = cJSON_AddArrayToObject(driver, "rules");
	for (size_t i = 0; rules && i < nids; i++) {
		const struct gate_rule_info *info = gate_rule_find(ids[i]);
		cJSON *r = new_obj_in(rules, &oom), *sd, *dc;
		if (!r)
			break;
		add_str(r, "id", ids[i], &oom);
		sd = add_obj(r, "shortDescription", &oom);
		if (sd)
			add_str(sd, "text", info ? info->summary : ids[i], &oom);
		dc = add_obj(r, "defaultConfiguration", &oom);
		if (dc)
			add_str(dc, "level", sarif_level(info ? info->default_severity : GATE_ERROR),
				&oom);
	}
	results = cJSON_AddArrayToObject(run, "results");
	if (!rules || !results)
		oom = 1;
	for (size_t i = 0; results && i < fs->n; i++) {
		const struct gate_finding *g = &fs->v[i];
		if (g->severity == GATE_OFF)
			continue;
		size_t idx = 0;
		while (idx < nids && strcmp(ids[idx], g->rule) != 0)
			idx++;
		cJSON *r = new_obj_in(results, &oom), *m, *locs, *loc, *phys, *art, *pf;
		if (!r)
			break;
		add_str(r, "ruleId", g->rule, &oom);
		add_num(r, "ruleIndex", (double)idx, &oom);
		add_str(r, "level", sarif_level(g->severity), &oom);
		m = add_obj(r, "message", &oom);
		if (m)
			add_str(m, "text", g->message, &oom);
		locs = cJSON_AddArrayToObject(r, "locations");
		loc = locs ? new_obj_in(locs, &oom) : NULL;
		phys = loc ? add_obj(loc, "physicalLocation", &oom) : NULL;
		art = phys ? add_obj(phys, "artifactLocation", &oom) : NULL;
		if (!art) {
			oom = 1;
			break;
		}
		char *uri = path_uri(rel[i]);
		if (!uri) {
			oom = 1;
			break;
		}
		add_str(art, "uri", uri, &oom);
		if (uri[0] != 'f' || strncmp(uri, "file://", 7) != 0)
			add_str(art, "uriBaseId", "%SRCROOT%", &oom);
		free(uri);
		if (g->line > 0) {
			cJSON *region = add_obj(phys, "region", &oom);
			if (region)
				add_num(region, "startLine", (double)g->line, &oom);
		}
		char fp[33];
		report_fingerprint(g->rule, rel[i], g->message, occ[i], fp);
		pf = add_obj(r, "partialFingerprints", &oom);
		if (pf)
			add_str(pf, "tlgateFingerprint/v1", fp, &oom);
	}
out:
	free(ids);
	free(occ);
	free_paths(rel, fs->n);
	return emit_json(f, doc, oom);
}

/* ---- github --------------------------------------------------------------- */

/* Workflow-command escaping: data escapes %, CR, LF; property values also
 * ':' and ','. */
static void gh_escape(FILE *f, const char *s, int property)
{
	for (; *s; s++) {
		switch (*s) {
		case '%': fputs("%25", f); break;
		case '\r': fputs("%0D", f); break;
		case '\n': fputs("%0A", f); break;
		case ':':
			if (property)
				fputs("%3A", f);
			else
				fputc(':', f);
			break;
		case ',':
			if (property)
				fputs("%2C", f);
			else
				fputc(',', f);
			break;
		default: fputc(*s, f);
		}
	}
}

static int write_github(FILE *f, const struct gate_findings *fs, const struct report_ctx *ctx)
{
	for (size_t i = 0; i < fs->n; i++) {
		const struct gate_finding *g = &fs->v[i];
		if (g->severity == GATE_OFF)
			continue;
		char *rel = report_relpath(ctx->repo_root, g->file);
		char *file = rel ? sanitize(rel, SAN_XML) : NULL;
		char *msg = sanitize(g->message, SAN_XML), *rule = sanitize(g->rule, SAN_XML);
		free(rel);
		if (!file || !msg || !rule) {
			free(file), free(msg), free(rule);
			errno = ENOMEM;
			return -1;
		}
		const char *cmd = g->severity == GATE_ERROR ? "error"
				  : g->severity == GATE_WARNING ? "warning" : "notice";
		fprintf(f, "::%s file=", cmd);
		gh_escape(f, file, 1);
		if (g->line > 0)
			fprintf(f, ",line=%ld", g->line);
		fputs(",title=", f);
		gh_escape(f, rule, 1);
		fputs("::", f);
		gh_escape(f, msg, 0);
		fputc('\n', f);
		free(file), free(msg), free(rule);
	}
	return 0;
}

/* ---- junit ---------------------------------------------------------------- */

int report_xml_escape(FILE *f, const char *str, int attr)
{
	char *s = sanitize(str, SAN_XML);
	if (!s) {
		errno = ENOMEM;
		return -1;
	}
	for (const char *p = s; *p; p++) {
		switch (*p) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs(attr ? "&quot;" : "\"", f); break;
		case '\'': fputs(attr ? "&apos;" : "'", f); break;
		case '\t': fputs(attr ? "&#9;" : "\t", f); break;
		case '\n': fputs(attr ? "&#10;" : "\n", f); break;
		case '\r': fputs("&#13;", f); break; /* a raw CR would be normalised away */
		default: fputc(*p, f);
		}
	}
	free(s);
	return ferror(f) ? -1 : 0;
}

/* One testcase per (rule, file) pair with findings, in order of first
 * appearance, plus one passing testcase per registry rule that reported
 * nothing, so the suite lists every check that ran. A testcase fails when
 * one of its findings fails the run (errors, or warnings under
 * --warnings-as-errors); the first such finding is the failure message,
 * all of its findings are listed in the body. */
struct junit_group {
	size_t start, len;   /* slice of the sorted index array */
	size_t first_fail;   /* finding index, (size_t)-1 when none fails */
};

static const size_t *group_ix; /* for cmp_group: the sorted indices */

static int cmp_group(const void *x, const void *y)
{
	size_t a = group_ix[((const struct junit_group *)x)->start];
	size_t b = group_ix[((const struct junit_group *)y)->start];
	return (a > b) - (a < b);
}

static int write_junit(FILE *f, const struct gate_findings *fs, const struct report_ctx *ctx)
{
	char **rel = rel_paths(fs, ctx);
	const char *tool = ctx->tool_name ? ctx->tool_name : "tlgate";
	size_t m = 0, ng = 0, ncases, nfail = 0, nsilent = 0, *ix = NULL;
	struct junit_group *gr = NULL;
	char *silent = NULL; /* registry rules without findings */
	int rc = -1;
	if (rel)
		ix = sorted_findings(fs, rel, 0, &m);
	if (ix)
		gr = malloc((m ? m : 1) * sizeof(*gr));
	if (!gr) {
		errno = ENOMEM;
		goto out;
	}
	for (size_t j = 0; j < m; j++) {
		size_t i = ix[j];
		if (ng == 0 || strcmp(fs->v[ix[j - 1]].rule, fs->v[i].rule) != 0 ||
		    strcmp(rel[ix[j - 1]], rel[i]) != 0) {
			gr[ng].start = j;
			gr[ng].len = 0;
			gr[ng].first_fail = (size_t)-1;
			ng++;
		}
		struct junit_group *g = &gr[ng - 1];
		g->len++;
		if (g->first_fail == (size_t)-1 && failing(&fs->v[i], ctx))
			g->first_fail = i;
	}
	group_ix = ix;
	if (ng > 1)
		qsort(gr, ng, sizeof(*gr), cmp_group);
	silent = calloc(gate_nrules ? gate_nrules : 1, sizeof(*silent));
	if (!silent) {
		errno = ENOMEM;
		goto out;
	}
	for (size_t r = 0; r < gate_nrules; r++) {
		int seen = 0;
		for (size_t g = 0; g < ng && !seen; g++)
			seen = strcmp(fs->v[ix[gr[g].start]].rule, gate_rules[r].id) == 0;
		silent[r] = !seen;
		nsilent += !seen;
	}
	for (size_t g = 0; g < ng; g++)
		nfail += gr[g].first_fail != (size_t)-1;
	ncases = ng + nsilent;

	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"", f);
	report_xml_escape(f, tool, 1);
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\">\n", ncases, nfail);
	fputs("  <testsuite name=\"", f);
	report_xml_escape(f, tool, 1);
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\">\n", ncases,
		nfail);
	for (size_t g = 0; g < ng; g++) {
		size_t i0 = ix[gr[g].start], ff = gr[g].first_fail;
		const struct gate_finding *g0 = &fs->v[i0];
		fputs("    <testcase classname=\"", f);
		report_xml_escape(f, g0->rule, 1);
		fputs("\" name=\"", f);
		report_xml_escape(f, g0->rule, 1);
		fputc(' ', f);
		report_xml_escape(f, rel[i0], 1);
		fputs("\" file=\"", f);
		report_xml_escape(f, rel[i0], 1);
		fputs("\">\n", f);
		if (ff != (size_t)-1) {
			fputs("      <failure type=\"", f);
			report_xml_escape(f, g0->rule, 1);
			fputs("\" message=\"", f);
			report_xml_escape(f, fs->v[ff].message, 1);
			fputs("\">", f);
		} else {
			fputs("      <system-out>", f);
		}
		for (size_t j = gr[g].start; j < gr[g].start + gr[g].len; j++) {
			const struct gate_finding *h = &fs->v[ix[j]];
			report_xml_escape(f, rel[ix[j]], 0);
			if (h->line > 0)
				fprintf(f, ":%ld", h->line);
			fprintf(f, ": %s: ", gate_severity_name(h->severity));
			report_xml_escape(f, h->message, 0);
			fputc('\n', f);
		}
		fputs(ff != (size_t)-1 ? "</failure>\n" : "</system-out>\n", f);
		fputs("    </testcase>\n", f);
	}
	for (size_t r = 0; r < gate_nrules; r++) {
		if (!silent[r])
			continue;
		fputs("    <testcase classname=\"", f);
		report_xml_escape(f, gate_rules[r].id, 1);
		fputs("\" name=\"", f);
		report_xml_escape(f, gate_rules[r].id, 1);
		fputs("\"/>\n", f);
	}
	fputs("  </testsuite>\n</testsuites>\n", f);
	rc = 0;
out:
	free(silent);
	free(gr);
	free(ix);
	free_paths(rel, fs->n);
	return rc;
}

/* ---- markdown ------------------------------------------------------------- */

/* Escapes text for a GFM table cell: pipes, Markdown punctuation that
 * would format, HTML; newlines become spaces. */
static void md_cell(FILE *f, const char *str)
{
	char *s = sanitize(str, SAN_XML);
	if (!s)
		return;
	for (const char *p = s; *p; p++) {
		switch (*p) {
		case '|': case '\\': case '`': case '*': case '_': case '[': case ']':
		case '#': case '~':
			fputc('\\', f);
			fputc(*p, f);
			break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '\n': case '\r': case '\t': fputc(' ', f); break;
		default: fputc(*p, f);
		}
	}
	free(s);
}

static int write_markdown(FILE *f, const struct gate_findings *fs, const struct report_ctx *ctx)
{
	struct counts c = count_findings(fs);
	const char *tool = ctx->tool_name ? ctx->tool_name : "tlgate";
	size_t nfail = c.errors + (ctx->warnings_as_errors ? c.warnings : 0);
	fputs("### ", f);
	md_cell(f, tool);
	fprintf(f, ": %s\n\n", nfail ? "failed" : "passed");
	fprintf(f, "%zu %s, %zu %s, %zu %s in %zu perf_opt %s checked",
		c.errors, plural(c.errors, "error", "errors"), c.warnings,
		plural(c.warnings, "warning", "warnings"), c.notes, plural(c.notes, "note", "notes"),
		ctx->dirs_checked, plural(ctx->dirs_checked, "directory", "directories"));
	if (ctx->warnings_as_errors)
		fputs(" (warnings count as errors)", f);
	fputs(".\n", f);
	if (c.errors + c.warnings + c.notes == 0)
		return 0;
	char **rel = rel_paths(fs, ctx);
	if (!rel) {
		errno = ENOMEM;
		return -1;
	}
	fputs("\n| Severity | Rule | Location | Message |\n|---|---|---|---|\n", f);
	for (size_t i = 0; i < fs->n; i++) {
		const struct gate_finding *g = &fs->v[i];
		if (g->severity == GATE_OFF)
			continue;
		fprintf(f, "| %s | ", gate_severity_name(g->severity));
		md_cell(f, g->rule);
		fputs(" | ", f);
		md_cell(f, rel[i]);
		if (g->line > 0)
			fprintf(f, ":%ld", g->line);
		fputs(" | ", f);
		md_cell(f, g->message);
		fputs(" |\n", f);
	}
	free_paths(rel, fs->n);
	return 0;
}

/* ---- gitlab --------------------------------------------------------------- */

/* error -> blocker (it blocks the merge), warning -> minor (major under
 * --warnings-as-errors), note -> info. */
static const char *gitlab_severity(enum gate_severity s, int warnings_as_errors)
{
	if (s == GATE_ERROR)
		return "blocker";
	if (s == GATE_WARNING)
		return warnings_as_errors ? "major" : "minor";
	return "info";
}

static int write_gitlab(FILE *f, const struct gate_findings *fs, const struct report_ctx *ctx)
{
	int oom = 0;
	char **rel = rel_paths(fs, ctx);
	unsigned long *occ = rel ? occurrences(fs, rel) : NULL;
	cJSON *doc = cJSON_CreateArray();
	if (!rel || !occ || !doc) {
		free_paths(rel, fs->n);
		free(occ);
		cJSON_Delete(doc);
		return emit_json(f, NULL, 1);
	}
	for (size_t i = 0; i < fs->n; i++) {
		const struct gate_finding *g = &fs->v[i];
		if (g->severity == GATE_OFF)
			continue;
		char fp[33], *desc;
		report_fingerprint(g->rule, rel[i], g->message, occ[i], fp);
		cJSON *o = new_obj_in(doc, &oom), *loc, *lines;
		if (!o)
			break;
		size_t dn = strlen(g->rule) + strlen(g->message) + 4;
		desc = malloc(dn);
		if (!desc) {
			oom = 1;
			break;
		}
		snprintf(desc, dn, "[%s] %s", g->rule, g->message);
		add_str(o, "description", desc, &oom);
		free(desc);
		add_str(o, "check_name", g->rule, &oom);
		add_str(o, "fingerprint", fp, &oom);
		add_str(o, "severity", gitlab_severity(g->severity, ctx->warnings_as_errors), &oom);
		loc = add_obj(o, "location", &oom);
		if (loc) {
			add_str(loc, "path", rel[i], &oom);
			lines = add_obj(loc, "lines", &oom);
			if (lines) /* GitLab needs a line; the whole file points at 1 */
				add_num(lines, "begin", g->line > 0 ? (double)g->line : 1.0, &oom);
		}
	}
	free_paths(rel, fs->n);
	free(occ);
	return emit_json(f, doc, oom);
}

/* ---- entry ---------------------------------------------------------------- */

int report_write(FILE *f, enum report_format fmt, const struct gate_findings *fs,
		 const struct report_ctx *ctx)
{
	static const struct report_ctx defaults = { "tlgate", "", NULL, 0, 0 };
	int rc;
	if (!ctx)
		ctx = &defaults;
	switch (fmt) {
	case REPORT_TEXT: rc = write_text(f, fs); break;
	case REPORT_JSON: rc = write_json(f, fs, ctx); break;
	case REPORT_SARIF: rc = write_sarif(f, fs, ctx); break;
	case REPORT_GITHUB: rc = write_github(f, fs, ctx); break;
	case REPORT_JUNIT: rc = write_junit(f, fs, ctx); break;
	case REPORT_MARKDOWN: rc = write_markdown(f, fs, ctx); break;
	case REPORT_GITLAB: rc = write_gitlab(f, fs, ctx); break;
	default: errno = EINVAL; return -1;
	}
	if (rc == 0 && ferror(f)) {
		if (!errno)
			errno = EIO;
		rc = -1;
	}
	return rc;
}
