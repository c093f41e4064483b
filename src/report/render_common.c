/* render_common.c: what every findings renderer shares (render_common.h):
 * sanitising hostile bytes, repo-relative paths, fingerprints, counting,
 * ordering, and cJSON building with allocation checks. */
#include "report/render_common.h"
#include "util/escape.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

static int xml_forbidden(unsigned cp)
{
	return (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') || cp == 0xFFFE ||
	       cp == 0xFFFF;
}

/* Returns a malloc'd sanitised copy of s (NULL s gives ""), NULL on
 * allocation failure. */
char *report_sanitize(const char *str, enum report_san mode)
{
	if (mode == REPORT_SAN_TEXT) /* the one text escaper: C0, DEL, C1, bad bytes */
		return escape_text(str, 0);
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
		int bad = len == 0 || (mode == REPORT_SAN_XML && xml_forbidden(cp)) ||
			  (mode == REPORT_SAN_TEXT && (cp < 0x20 || cp == 0x7F) && cp != '\t');
		if (!bad) {
			memcpy(out + o, s + i, len);
			o += len;
			i += len;
			continue;
		}
		if (mode == REPORT_SAN_TEXT) {
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

struct report_counts report_count_findings(const struct gate_findings *fs)
{
	struct report_counts c = { 0, 0, 0, 0 };
	for (size_t i = 0; i < fs->n; i++) {
		if (fs->v[i].sup_file && fs->v[i].severity != GATE_OFF) {
			c.suppressed++;
			continue;
		}
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
int report_failing(const struct gate_finding *f, const struct report_ctx *ctx)
{
	if (f->sup_file)
		return 0;
	return f->severity == GATE_ERROR || (f->severity == GATE_WARNING && ctx->warnings_as_errors);
}

char *report_suppressed_by(const struct gate_finding *g, const struct report_ctx *ctx)
{
	char *rel = report_relpath(ctx->repo_root, g->sup_file);
	const char *why = g->sup_reason ? g->sup_reason : "";
	size_t n = rel ? strlen(rel) + strlen(why) + 48 : 0;
	char *s = rel ? malloc(n) : NULL;
	if (s && g->sup_line > 0)
		snprintf(s, n, "suppressed by %s:%ld (%s)", rel, g->sup_line, why);
	else if (s)
		snprintf(s, n, "suppressed by %s (%s)", rel, why);
	free(rel);
	return s;
}

const char *report_plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* Writes a cJSON document and a newline; frees it. */
int report_emit_json(FILE *f, cJSON *doc, int oom)
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
cJSON *report_json_str(cJSON *obj, const char *key, const char *val, int *oom)
{
	char *s = report_sanitize(val, REPORT_SAN_UTF8);
	cJSON *item = s ? cJSON_AddStringToObject(obj, key, s) : NULL;
	free(s);
	if (!item)
		*oom = 1;
	return item;
}

cJSON *report_json_num(cJSON *obj, const char *key, double v, int *oom)
{
	cJSON *item = cJSON_AddNumberToObject(obj, key, v);
	if (!item)
		*oom = 1;
	return item;
}

cJSON *report_json_obj(cJSON *obj, const char *key, int *oom)
{
	cJSON *item = cJSON_AddObjectToObject(obj, key);
	if (!item)
		*oom = 1;
	return item;
}

cJSON *report_json_new_in(cJSON *array, int *oom)
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
char **report_rel_paths(const struct gate_findings *fs, const struct report_ctx *ctx)
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

void report_free_paths(char **v, size_t n)
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
size_t *report_sorted_findings(const struct gate_findings *fs, char **rel, int by_msg, size_t *n)
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
unsigned long *report_occurrences(const struct gate_findings *fs, char **rel)
{
	size_t m;
	size_t *ix = report_sorted_findings(fs, rel, 1, &m);
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

/* ---- XML escaping ---------------------------------------------------- */

int report_xml_escape(FILE *f, const char *str, int attr)
{
	char *s = report_sanitize(str, REPORT_SAN_XML);
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
