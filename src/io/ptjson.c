/* ptjson.c: bench JSON files of perf_tuning/ folders (ptjson.h). */
#include "io/ptjson.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rewrites the non-standard number tokens Python writes, outside strings.
 * Newlines are kept, so line numbers of the rewritten text are those of
 * the file. */
static char *rewrite_tokens(const char *s, size_t n, size_t *outlen)
{
	/* "-Infinity" (9 bytes) -> "-1e999" (6): never grows except NaN ->
	 * null (3 -> 4); worst case 4/3 of the input. */
	char *o = malloc(n + n / 3 + 2);
	if (!o)
		return NULL;
	size_t k = 0;
	int in_str = 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (in_str) {
			o[k++] = c;
			if (c == '\\' && i + 1 < n)
				o[k++] = s[++i];
			else if (c == '"')
				in_str = 0;
			continue;
		}
		if (c == '"') {
			in_str = 1;
			o[k++] = c;
			continue;
		}
		int prev_word = i > 0 && (s[i - 1] == '_' || (s[i - 1] >= 'A' && s[i - 1] <= 'Z') ||
					  (s[i - 1] >= 'a' && s[i - 1] <= 'z') ||
					  (s[i - 1] >= '0' && s[i - 1] <= '9'));
		if (!prev_word && c == '-' && n - i >= 9 && memcmp(s + i, "-Infinity", 9) == 0) {
			memcpy(o + k, "-1e999", 6);
			k += 6;
			i += 8;
		} else if (!prev_word && n - i >= 8 && memcmp(s + i, "Infinity", 8) == 0) {
			memcpy(o + k, "1e999", 5);
			k += 5;
			i += 7;
		} else if (!prev_word && n - i >= 3 && memcmp(s + i, "NaN", 3) == 0) {
			memcpy(o + k, "null", 4);
			k += 4;
			i += 2;
		} else {
			o[k++] = c;
		}
	}
	o[k] = '\0';
	*outlen = k;
	return o;
}

static long line_of(const char *text, size_t off)
{
	long line = 1;
	for (size_t i = 0; i < off && text[i]; i++)
		if (text[i] == '\n')
			line++;
	return line;
}

int ptjson_parse(struct ptjson *j, const char *data, size_t len)
{
	memset(j, 0, sizeof(*j));
	j->text = rewrite_tokens(data, len, &j->len);
	if (!j->text)
		return -1;
	const char *end = NULL;
	j->root = cJSON_ParseWithLengthOpts(j->text, j->len, &end, 0);
	if (!j->root) {
		size_t off = end && end >= j->text ? (size_t)(end - j->text) : 0;
		if (!end) {
			const char *e = cJSON_GetErrorPtr();
			off = e && e >= j->text && e <= j->text + j->len ? (size_t)(e - j->text) : 0;
		}
		j->err_line = line_of(j->text, off);
		return 1;
	}
	/* trailing garbage after the value is a parse error too */
	if (end) {
		const char *p = end;
		while (p < j->text + j->len && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
			p++;
		if (p < j->text + j->len) {
			cJSON_Delete(j->root);
			j->root = NULL;
			j->err_line = line_of(j->text, (size_t)(p - j->text));
			return 1;
		}
	}
	return 0;
}

void ptjson_release(struct ptjson *j)
{
	cJSON_Delete(j->root);
	free(j->text);
	memset(j, 0, sizeof(*j));
}

long ptjson_key_line(const struct ptjson *j, const char *key, size_t from)
{
	char pat[256];
	int n = snprintf(pat, sizeof(pat), "\"%s\"", key);
	if (n < 0 || (size_t)n >= sizeof(pat) || !j->text || from >= j->len)
		return 0;
	const char *p = strstr(j->text + from, pat);
	return p ? line_of(j->text, (size_t)(p - j->text)) : 0;
}

long ptjson_key_line_nth(const struct ptjson *j, const char *key, size_t n)
{
	char pat[256];
	int k = snprintf(pat, sizeof(pat), "\"%s\"", key);
	if (k < 0 || (size_t)k >= sizeof(pat) || !j->text)
		return 0;
	const char *p = j->text;
	for (size_t i = 0;; i++) {
		p = strstr(p, pat);
		if (!p)
			return 0;
		if (i == n)
			return line_of(j->text, (size_t)(p - j->text));
		p += k;
	}
}

static int has_number_member(const cJSON *o)
{
	const cJSON *m;
	cJSON_ArrayForEach(m, o)
		if (cJSON_IsNumber(m))
			return 1;
	return 0;
}

static int is_table(const cJSON *v)
{
	if (!(cJSON_IsArray(v) || cJSON_IsObject(v)) || !v->child)
		return 0;
	const cJSON *r;
	cJSON_ArrayForEach(r, v)
		if (!cJSON_IsObject(r) || !has_number_member(r))
			return 0;
	return 1;
}

/* The row key holding the speedup: "speedup" itself, else the only key
 * of the first row containing "speedup". */
static const char *speedup_key(const cJSON *rows)
{
	const cJSON *row = rows->child, *m;
	const char *found = NULL;
	int count = 0;
	cJSON_ArrayForEach(m, row) {
		if (!m->string || !cJSON_IsNumber(m))
			continue;
		if (strcmp(m->string, "speedup") == 0)
			return m->string;
		if (strstr(m->string, "speedup")) {
			found = m->string;
			count++;
		}
	}
	return count == 1 ? found : NULL;
}

static void walk(const cJSON *owner, struct ptjson_table *out, size_t max, size_t *n)
{
	const cJSON *m;
	cJSON_ArrayForEach(m, owner) {
		if (*n >= max)
			return;
		if (cJSON_IsObject(owner) && m->string && is_table(m)) {
			struct ptjson_table *t = &out[(*n)++];
			t->owner = owner;
			t->rows = m;
			t->name = m->string;
			t->speedup = speedup_key(m);
			t->n = (size_t)cJSON_GetArraySize(m);
			continue;
		}
		if (cJSON_IsObject(m) || cJSON_IsArray(m))
			walk(m, out, max, n);
	}
}

size_t ptjson_tables(const struct ptjson *j, struct ptjson_table *out, size_t max)
{
	size_t n = 0;
	if (j->root && (cJSON_IsObject(j->root) || cJSON_IsArray(j->root)))
		walk(j->root, out, max, &n);
	return n;
}

const cJSON *ptjson_row(const struct ptjson_table *t, size_t i)
{
	return i < t->n ? cJSON_GetArrayItem(t->rows, (int)i) : NULL;
}

double ptjson_num(const cJSON *row, const char *key)
{
	const cJSON *v = row && key ? cJSON_GetObjectItemCaseSensitive(row, key) : NULL;
	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

void ptjson_row_label(const struct ptjson_table *t, size_t i, char *buf, size_t len)
{
	const cJSON *row = ptjson_row(t, i);
	static const char *const idkeys[] = { "case_id", "case", "id", "name", "label" };
	if (row && row->string) {
		snprintf(buf, len, "%s", row->string);
		return;
	}
	for (size_t k = 0; row && k < sizeof(idkeys) / sizeof(idkeys[0]); k++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, idkeys[k]);
		if (cJSON_IsNumber(v)) {
			snprintf(buf, len, "case %g", v->valuedouble);
			return;
		}
		if (cJSON_IsString(v) && v->valuestring) {
			snprintf(buf, len, "%s", v->valuestring);
			return;
		}
	}
	snprintf(buf, len, "#%zu", i + 1);
}

void ptjson_speedup_means(const struct ptjson_table *t, double *mean, double *geomean,
			  size_t *nvalid)
{
	double sum = 0, lsum = 0;
	size_t n = 0;
	for (size_t i = 0; t->speedup && i < t->n; i++) {
		double s = ptjson_num(ptjson_row(t, i), t->speedup);
		if (!isfinite(s) || s <= 0)
			continue;
		sum += s;
		lsum += log(s);
		n++;
	}
	*nvalid = n;
	*mean = n ? sum / (double)n : NAN;
	*geomean = n ? exp(lsum / (double)n) : NAN;
}
