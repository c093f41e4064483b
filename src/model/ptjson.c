/* ptjson.c: the accessors of a parsed perf_tuning/ bench JSON file
 * (model/ptjson.h): lines of keys, member indexes, tables and rows, the
 * values index. Parsing is io/ptjson.c. */
#include "model/ptjson.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long ptjson_line_at(const struct ptjson *j, size_t off)
{
	/* lines before off = newlines at offsets < off */
	size_t lo = 0, hi = j->nnl;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (j->nl[mid] < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (long)lo + 1;
}

/* FNV-1a */
static size_t hash_bytes(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ull;
	}
	return (size_t)h;
}

static size_t pow2_at_least(size_t n)
{
	size_t c = 16;
	while (c < n)
		c *= 2;
	return c;
}

int ptjson_keys_alloc(struct ptjson *j, size_t nkeys)
{
	j->keycap = pow2_at_least(nkeys + 1); /* load <= 1/2 */
	j->keys = calloc(j->keycap, sizeof(*j->keys));
	if (!j->keys) {
		j->keycap = 0;
		return -1;
	}
	return 0;
}

void ptjson_keys_add(struct ptjson *j, size_t off, size_t klen)
{
	const char *t = j->text;
	size_t h = hash_bytes(t + off, klen) & (j->keycap - 1);
	for (;;) {
		struct ptjson_keypos *k = &j->keys[h];
		if (k->off == 0) {
			k->off = off;
			k->len = klen;
			return;
		}
		if (k->len == klen && memcmp(t + k->off, t + off, klen) == 0)
			return; /* the first one stays */
		h = (h + 1) & (j->keycap - 1);
	}
}

int ptjson_members_build(struct ptjson_members *m, const cJSON *obj)
{
	size_t n = 0;
	const cJSON *c;
	memset(m, 0, sizeof(*m));
	if (!cJSON_IsObject(obj))
		return 0;
	for (c = obj->child; c; c = c->next)
		n++;
	m->cap = pow2_at_least(2 * n + 1);
	m->slot = calloc(m->cap, sizeof(*m->slot));
	if (!m->slot) {
		m->cap = 0;
		return -1;
	}
	for (c = obj->child; c; c = c->next) {
		if (!c->string)
			continue;
		size_t len = strlen(c->string);
		size_t h = hash_bytes(c->string, len) & (m->cap - 1);
		while (m->slot[h] && strcmp(m->slot[h]->string, c->string) != 0)
			h = (h + 1) & (m->cap - 1);
		if (!m->slot[h])
			m->slot[h] = c;
	}
	return 0;
}

const cJSON *ptjson_members_get(const struct ptjson_members *m, const char *name, size_t len)
{
	if (!m->cap)
		return NULL;
	size_t h = hash_bytes(name, len) & (m->cap - 1);
	for (; m->slot[h]; h = (h + 1) & (m->cap - 1))
		if (strncmp(m->slot[h]->string, name, len) == 0 && m->slot[h]->string[len] == '\0')
			return m->slot[h];
	return NULL;
}

void ptjson_members_release(struct ptjson_members *m)
{
	free(m->slot);
	memset(m, 0, sizeof(*m));
}

/* Whether a sorted v[0..n) holds x within rel (|a-b| <= rel*max(|a|,|b|) + 1e-12). */
static int sorted_has(const double *v, size_t n, double x, double rel)
{
	if (!isfinite(x) || n == 0)
		return 0;
	double lo_v = x - (rel * fabs(x) / (1 - rel) + 1e-12) * 1.000001 - 1e-12;
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] < lo_v)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < n; i++) {
		double m = fabs(v[i]) > fabs(x) ? fabs(v[i]) : fabs(x);
		if (fabs(v[i] - x) <= rel * m + 1e-12)
			return 1;
		if (v[i] > x)
			return 0; /* above x, the gap only grows */
	}
	return 0;
}

int ptjson_has_value(const struct ptjson *j, double v, double rel)
{
	if (sorted_has(j->aggs, j->naggs, v, rel))
		return 2;
	return sorted_has(j->cells, j->ncells, v, rel) ? 1 : 0;
}

void ptjson_release(struct ptjson *j)
{
	cJSON_Delete(j->root);
	free(j->text);
	free(j->nl);
	free(j->keys);
	ptjson_members_release(&j->root_members);
	free(j->aggs);
	free(j->cells);
	memset(j, 0, sizeof(*j));
}

long ptjson_key_line(const struct ptjson *j, const char *key, size_t from)
{
	size_t kl = strlen(key);
	if (!j->text)
		return 0;
	if (from > 0) {
		size_t pos = from;
		return ptjson_key_line_next(j, key, &pos);
	}
	if (!j->keycap)
		return 0;
	size_t h = hash_bytes(key, kl) & (j->keycap - 1);
	for (;; h = (h + 1) & (j->keycap - 1)) {
		const struct ptjson_keypos *k = &j->keys[h];
		if (k->off == 0)
			return 0;
		if (k->len == kl && memcmp(j->text + k->off, key, kl) == 0)
			return ptjson_line_at(j, k->off - 1);
	}
}

long ptjson_key_line_next(const struct ptjson *j, const char *key, size_t *pos)
{
	char pat[256];
	int n = snprintf(pat, sizeof(pat), "\"%s\"", key);
	if (n < 0 || (size_t)n >= sizeof(pat) || !j->text || *pos >= j->len) {
		*pos = j->len;
		return 0;
	}
	/* memchr + memcmp rather than strstr: a strstr of the remainder may
	 * measure all of it first (sanitizers do), which made consecutive calls
	 * quadratic */
	const char *p = j->text + *pos, *end = j->text + j->len;
	while ((p = memchr(p, '"', (size_t)(end - p))) != NULL) {
		if ((size_t)(end - p) >= (size_t)n && memcmp(p, pat, (size_t)n) == 0)
			break;
		p++;
	}
	if (!p) {
		*pos = j->len;
		return 0;
	}
	*pos = (size_t)(p - j->text) + (size_t)n;
	return ptjson_line_at(j, (size_t)(p - j->text));
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

/* 1 when every row of the table v holds a table of its own: v is a list
 * of groups (CANN-Bench's "operators": [{..., "cases": [...]}]) whose rows
 * are the nested ones, not v's. */
static int rows_hold_tables(const cJSON *v)
{
	const cJSON *r, *m;
	cJSON_ArrayForEach(r, v) {
		int inner = 0;
		cJSON_ArrayForEach(m, r)
			if (m->string && cJSON_IsArray(m) && is_table(m)) {
				inner = 1;
				break;
			}
		if (!inner)
			return 0;
	}
	return 1;
}

static void walk(const cJSON *owner, struct ptjson_table *out, size_t max, size_t *n)
{
	const cJSON *m;
	cJSON_ArrayForEach(m, owner) {
		if (*n >= max)
			return;
		if (cJSON_IsObject(owner) && m->string && is_table(m) && !rows_hold_tables(m)) {
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

void ptjson_row_label(const cJSON *row, size_t i, char *buf, size_t len)
{
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
	const cJSON *row = t->speedup ? ptjson_row(t, 0) : NULL;
	for (; row; row = row->next) {
		double s = ptjson_num(row, t->speedup);
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
