/* ptjson.c: parsing bench JSON files of perf_tuning/ folders (io/ptjson.h):
 * the token rewrite, the text index, cJSON; the accessors are model/ptjson.c. */
#include "io/ptjson.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Python's non-standard number tokens and the JSON text standing in. */
static const struct {
	const char *tok, *rep;
	size_t len, rlen;
} PY_TOKENS[] = { { "-Infinity", "-1e999", 9, 6 }, { "Infinity", "1e999", 8, 5 },
		  { "NaN", "null", 3, 4 } };

static int is_word_byte(char c)
{
	return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* The PY_TOKENS entry starting at s[i] (s has n bytes; none right after a
 * word byte), or -1. */
static int py_token_at(const char *s, size_t n, size_t i)
{
	if (i > 0 && is_word_byte(s[i - 1]))
		return -1;
	for (int t = 0; t < (int)(sizeof(PY_TOKENS) / sizeof(PY_TOKENS[0])); t++)
		if (n - i >= PY_TOKENS[t].len && memcmp(s + i, PY_TOKENS[t].tok, PY_TOKENS[t].len) == 0)
			return t;
	return -1;
}

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
		in_str = c == '"';
		int t = py_token_at(s, n, i);
		if (t < 0) {
			o[k++] = c;
			continue;
		}
		memcpy(o + k, PY_TOKENS[t].rep, PY_TOKENS[t].rlen);
		k += PY_TOKENS[t].rlen;
		i += PY_TOKENS[t].len - 1;
	}
	o[k] = '\0';
	*outlen = k;
	return o;
}

/* From the opening quote at i, the index of the closing quote (j->len
 * when unterminated); records the newlines inside. */
static size_t string_end(struct ptjson *j, size_t i)
{
	const char *t = j->text;
	i++;
	while (i < j->len && t[i] != '"') {
		if (t[i] == '\\' && i + 1 < j->len)
			i++;
		if (t[i] == '\n')
			j->nl[j->nnl++] = i;
		i++;
	}
	return i;
}

/* Whether the string closing at i is an object key: the next byte after
 * blanks is ':'. */
static int is_key_end(const struct ptjson *j, size_t i)
{
	const char *t = j->text;
	size_t q = i + 1;
	while (q < j->len && (t[q] == ' ' || t[q] == '\t' || t[q] == '\r' || t[q] == '\n'))
		q++;
	return q < j->len && t[q] == ':';
}

/* One pass over the text: newline offsets and the first position of every
 * object key (a string followed by ':'). */
static int index_text(struct ptjson *j)
{
	size_t nnl = 0, nstr = 0;
	for (size_t i = 0; i < j->len; i++) {
		nnl += j->text[i] == '\n';
		nstr += j->text[i] == '"';
	}
	j->nl = malloc((nnl ? nnl : 1) * sizeof(*j->nl));
	if (!j->nl || ptjson_keys_alloc(j, nstr) != 0)
		return -1;
	for (size_t i = 0; i < j->len; i++) {
		if (j->text[i] == '\n') {
			j->nl[j->nnl++] = i;
			continue;
		}
		if (j->text[i] != '"')
			continue;
		size_t b = i;
		i = string_end(j, i);
		if (i >= j->len)
			break;
		if (is_key_end(j, i))
			ptjson_keys_add(j, b + 1, i - b - 1);
	}
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static int push_num(double **v, size_t *n, size_t *cap, double x)
{
	if (!isfinite(x))
		return 0;
	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 64;
		double *p = realloc(*v, c * sizeof(*p));
		if (!p)
			return -1;
		*v = p;
		*cap = c;
	}
	(*v)[(*n)++] = x;
	return 0;
}

/* Sorted values of the owners and rows of the first 16 tables, for
 * ptjson_has_value. */
static int index_values(struct ptjson *j)
{
	struct ptjson_table t[16];
	size_t nt = ptjson_tables(j, t, 16), ca = 0, cc = 0;
	for (size_t i = 0; i < nt; i++) {
		const cJSON *m, *r;
		cJSON_ArrayForEach(m, t[i].owner)
			if (cJSON_IsNumber(m) && push_num(&j->aggs, &j->naggs, &ca, m->valuedouble))
				return -1;
		cJSON_ArrayForEach(r, t[i].rows)
			cJSON_ArrayForEach(m, r)
				if (cJSON_IsNumber(m) && push_num(&j->cells, &j->ncells, &cc, m->valuedouble))
					return -1;
	}
	if (j->naggs > 1)
		qsort(j->aggs, j->naggs, sizeof(double), cmp_double);
	if (j->ncells > 1)
		qsort(j->cells, j->ncells, sizeof(double), cmp_double);
	return 0;
}

int ptjson_parse(struct ptjson *j, const char *data, size_t len)
{
	memset(j, 0, sizeof(*j));
	j->text = rewrite_tokens(data, len, &j->len);
	if (!j->text || index_text(j) != 0) {
		ptjson_release(j);
		return -1;
	}
	const char *end = NULL;
	j->root = cJSON_ParseWithLengthOpts(j->text, j->len, &end, 0);
	if (!j->root) {
		size_t off = end && end >= j->text ? (size_t)(end - j->text) : 0;
		if (!end) {
			const char *e = cJSON_GetErrorPtr();
			off = e && e >= j->text && e <= j->text + j->len ? (size_t)(e - j->text) : 0;
		}
		j->err_line = ptjson_line_at(j, off);
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
			j->err_line = ptjson_line_at(j, (size_t)(p - j->text));
			return 1;
		}
	}
	if (ptjson_members_build(&j->root_members, j->root) != 0 || index_values(j) != 0) {
		ptjson_release(j);
		return -1;
	}
	return 0;
}
