/* records.c: perf_records.jsonl reader and schema validation (records.h). */
#include "io/records.h"
#include "io/lineio.h"
#include "util/utf8.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

void record_release(struct record *r)
{
	if (!r)
		return;
	free(r->candidate_id);
	free(r->parent_id);
	free(r->dispatch);
	free(r->workload);
	free(r->phase);
	free(r->artifact_path);
	free(r->artifact_sha256);
	free(r->msprof_raw_path);
	free(r->timestamp);
	memset(r, 0, sizeof(*r));
}

int record_copy(struct record *dst, const struct record *src)
{
	*dst = *src;
	dst->candidate_id = dup_or_null(src->candidate_id);
	dst->parent_id = dup_or_null(src->parent_id);
	dst->dispatch = dup_or_null(src->dispatch);
	dst->workload = dup_or_null(src->workload);
	dst->phase = dup_or_null(src->phase);
	dst->artifact_path = dup_or_null(src->artifact_path);
	dst->artifact_sha256 = dup_or_null(src->artifact_sha256);
	dst->msprof_raw_path = dup_or_null(src->msprof_raw_path);
	dst->timestamp = dup_or_null(src->timestamp);
	if ((src->candidate_id && !dst->candidate_id) || (src->parent_id && !dst->parent_id) ||
	    (src->dispatch && !dst->dispatch) || (src->workload && !dst->workload) ||
	    (src->phase && !dst->phase) || (src->artifact_path && !dst->artifact_path) ||
	    (src->artifact_sha256 && !dst->artifact_sha256) ||
	    (src->msprof_raw_path && !dst->msprof_raw_path) ||
	    (src->timestamp && !dst->timestamp)) {
		record_release(dst);
		return -1;
	}
	return 0;
}

int record_valid(const struct record *r)
{
	return r->l0_pass && r->duration_us > 0.0 && isfinite(r->duration_us);
}

int record_same_key(const struct record *a, const struct record *b)
{
	return strcmp(a->dispatch, b->dispatch) == 0 && strcmp(a->workload, b->workload) == 0;
}

static int digits(const char *s, int n)
{
	for (int i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

int records_is_iso8601(const char *s)
{
	/* YYYY-MM-DD */
	if (!digits(s, 4) || s[4] != '-' || !digits(s + 5, 2) || s[7] != '-' || !digits(s + 8, 2))
		return 0;
	int mon = (s[5] - '0') * 10 + (s[6] - '0');
	int day = (s[8] - '0') * 10 + (s[9] - '0');
	if (mon < 1 || mon > 12 || day < 1 || day > 31)
		return 0;
	s += 10;
	if (*s == '\0')
		return 1;
	if (*s != 'T' && *s != ' ')
		return 0;
	s++;
	if (!digits(s, 2) || s[2] != ':' || !digits(s + 3, 2))
		return 0;
	if ((s[0] - '0') * 10 + (s[1] - '0') > 23 || (s[3] - '0') * 10 + (s[4] - '0') > 59)
		return 0;
	s += 5;
	if (*s == ':') {
		if (!digits(s + 1, 2) || (s[1] - '0') * 10 + (s[2] - '0') > 60)
			return 0;
		s += 3;
		if (*s == '.' || *s == ',') {
			s++;
			if (!isdigit((unsigned char)*s))
				return 0;
			while (isdigit((unsigned char)*s))
				s++;
		}
	}
	if (*s == '\0' || (s[0] == 'Z' && s[1] == '\0'))
		return 1;
	if ((*s == '+' || *s == '-') && digits(s + 1, 2)) {
		s += 3;
		if (*s == ':')
			s++;
		if (*s == '\0')
			return 1;
		return digits(s, 2) && s[2] == '\0';
	}
	return 0;
}

/* cJSON_GetObjectItemCaseSensitive, comparing the first byte before
 * strcmp: most keys differ there, and the lookups were the reader's
 * largest cost after the line reader. */
static const cJSON *field(const cJSON *o, const char *k)
{
	for (const cJSON *it = o->child; it; it = it->next)
		if (it->string && it->string[0] == k[0] && strcmp(it->string, k) == 0)
			return it;
	return NULL;
}

/* Field lookup helpers: each writes a message and returns -1 on a problem. */
static int get_string(const cJSON *o, const char *k, int required, int nullable,
		      char **out, char *err, size_t errlen)
{
	const cJSON *it = field(o, k);
	*out = NULL;
	if (!it) {
		if (required) {
			snprintf(err, errlen, "missing required field '%s'", k);
			return -1;
		}
		return 0;
	}
	if (cJSON_IsNull(it)) {
		if (nullable)
			return 0;
		snprintf(err, errlen, "field '%s' must be a string, got null", k);
		return -1;
	}
	if (!cJSON_IsString(it) || !it->valuestring) {
		snprintf(err, errlen, "field '%s' must be a string%s", k, nullable ? " or null" : "");
		return -1;
	}
	*out = strdup(it->valuestring);
	if (!*out) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

static double optional_number(const cJSON *o, const char *k)
{
	const cJSON *it = field(o, k);
	if (it && cJSON_IsNumber(it) && isfinite(it->valuedouble))
		return it->valuedouble;
	return NAN;
}

/* Duplicate keys make a record ambiguous: readers disagree on which wins. */
static const char *duplicate_key(const cJSON *o)
{
	for (const cJSON *a = o->child; a; a = a->next)
		for (const cJSON *b = a->next; b; b = b->next)
			/* first byte first: keys rarely share it, strcmp is the cost */
			if (a->string && b->string && a->string[0] == b->string[0] &&
			    strcmp(a->string, b->string) == 0)
				return a->string;
	return NULL;
}

int record_parse(const char *text, size_t len, long line, struct record *out,
		 char *err, size_t errlen)
{
	cJSON *o = NULL;
	int rc = -1;
	memset(out, 0, sizeof(*out));
	out->line = line;
	out->aicore_util = NAN;
	out->mem_bw_gbps = NAN;

	if (memchr(text, '\0', len)) {
		snprintf(err, errlen, "line contains a NUL byte");
		return -1;
	}
	size_t bad = utf8_invalid_at(text, len);
	if (bad != (size_t)-1) {
		snprintf(err, errlen, "invalid UTF-8 at byte %zu", bad + 1);
		return -1;
	}
	o = cJSON_ParseWithLength(text, len);
	if (!o) {
		snprintf(err, errlen, "not valid JSON");
		goto out;
	}
	if (!cJSON_IsObject(o)) {
		snprintf(err, errlen, "not a JSON object");
		goto out;
	}
	const char *dup = duplicate_key(o);
	if (dup) {
		snprintf(err, errlen, "duplicate key '%s'", dup);
		goto out;
	}
	int v2 = cJSON_HasObjectItem(o, "kernel_id") || cJSON_HasObjectItem(o, "workload_id") ||
		 cJSON_HasObjectItem(o, "phase");
	out->contract = v2 ? RECORDS_V2 : RECORDS_V1;

	const cJSON *round = field(o, "round");
	if (!round) {
		snprintf(err, errlen, "missing required field 'round'");
		goto out;
	}
	if (!cJSON_IsNumber(round) || !isfinite(round->valuedouble) ||
	    round->valuedouble != floor(round->valuedouble) || round->valuedouble < 0 ||
	    round->valuedouble > 1e9) {
		snprintf(err, errlen, "field 'round' must be an integer >= 0");
		goto out;
	}
	out->round = (long)round->valuedouble;

	if (get_string(o, "candidate_id", 1, 0, &out->candidate_id, err, errlen) ||
	    get_string(o, "parent_id", v2, 1, &out->parent_id, err, errlen) ||
	    get_string(o, v2 ? "kernel_id" : "dispatch_path", 1, 0, &out->dispatch, err, errlen) ||
	    get_string(o, v2 ? "workload_id" : "workload", 1, 0, &out->workload, err, errlen))
		goto out;
	if (v2) {
		if (get_string(o, "phase", 1, 0, &out->phase, err, errlen) ||
		    get_string(o, "artifact_path", 1, 0, &out->artifact_path, err, errlen) ||
		    get_string(o, "artifact_sha256", 1, 0, &out->artifact_sha256, err, errlen))
			goto out;
		if (strcmp(out->phase, "baseline") && strcmp(out->phase, "candidate") &&
		    strcmp(out->phase, "merged") && strcmp(out->phase, "final")) {
			snprintf(err, errlen,
				 "field 'phase' must be baseline, candidate, merged or final, got '%.40s'",
				 out->phase);
			goto out;
		}
	} else if (get_string(o, "artifact_path", 0, 1, &out->artifact_path, err, errlen)) {
		goto out; /* optional in v1 (the loop driver writes it) */
	}
	if (get_string(o, "msprof_raw_path", v2, 1, &out->msprof_raw_path, err, errlen))
		goto out;

	const cJSON *d = field(o, "duration_us");
	if (!d) {
		snprintf(err, errlen, "missing required field 'duration_us'");
		goto out;
	}
	if (!cJSON_IsNumber(d)) {
		snprintf(err, errlen, "field 'duration_us' must be a number");
		goto out;
	}
	if (!isfinite(d->valuedouble) || !(d->valuedouble > 0.0)) {
		snprintf(err, errlen, "field 'duration_us' must be a finite number > 0, got %g",
			 d->valuedouble);
		goto out;
	}
	out->duration_us = d->valuedouble;

	const cJSON *l0 = field(o, "l0_pass");
	if (!l0) {
		snprintf(err, errlen, "missing required field 'l0_pass'");
		goto out;
	}
	if (!cJSON_IsBool(l0)) {
		snprintf(err, errlen, "field 'l0_pass' must be a boolean");
		goto out;
	}
	out->l0_pass = cJSON_IsTrue(l0) ? 1 : 0;

	if (get_string(o, "timestamp", 1, 0, &out->timestamp, err, errlen))
		goto out;
	if (!records_is_iso8601(out->timestamp)) {
		snprintf(err, errlen, "field 'timestamp' is not ISO 8601: '%.40s'", out->timestamp);
		goto out;
	}
	out->not_measured = cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(o, "measured"));
	out->aicore_util = optional_number(o, "aicore_util");
	out->mem_bw_gbps = optional_number(o, "mem_bw_gbps");
	rc = 0;
out:
	cJSON_Delete(o);
	if (rc != 0)
		record_release(out);
	return rc;
}

void records_init(struct records *rs)
{
	memset(rs, 0, sizeof(*rs));
}

void records_release(struct records *rs)
{
	for (size_t i = 0; i < rs->n; i++)
		record_release(&rs->v[i]);
	free(rs->v);
	memset(rs, 0, sizeof(*rs));
}

int records_push(struct records *rs, const struct record *r)
{
	if (rs->n == rs->cap) {
		size_t cap = rs->cap ? rs->cap * 2 : 16;
		struct record *v = realloc(rs->v, cap * sizeof(*v));
		if (!v)
			return -1;
		rs->v = v;
		rs->cap = cap;
	}
	if (record_copy(&rs->v[rs->n], r) != 0)
		return -1;
	rs->n++;
	return 0;
}

void records_problems_init(struct records_problems *ps)
{
	memset(ps, 0, sizeof(*ps));
}

void records_problems_release(struct records_problems *ps)
{
	for (size_t i = 0; i < ps->n; i++)
		free(ps->v[i].message);
	free(ps->v);
	memset(ps, 0, sizeof(*ps));
}

int records_problems_add(struct records_problems *ps, long line, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (ps->n == ps->cap) {
		size_t cap = ps->cap ? ps->cap * 2 : 8;
		struct records_problem *v = realloc(ps->v, cap * sizeof(*v));
		if (!v)
			return -1;
		ps->v = v;
		ps->cap = cap;
	}
	ps->v[ps->n].line = line;
	ps->v[ps->n].message = strdup(buf);
	if (!ps->v[ps->n].message)
		return -1;
	ps->n++;
	return 0;
}

static int is_blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isspace((unsigned char)s[i]))
			return 0;
	return 1;
}

/* Handles one line; shared by the file and buffer readers. */
static int take_line(const char *text, size_t len, long line, int truncated,
		     struct records *rs, struct records_problems *ps)
{
	char err[256];
	struct record r;
	if (line == 1 && lineio_has_bom(text, len)) {
		text += 3;
		len -= 3;
	}
	if (truncated) {
		if (ps && records_problems_add(ps, line, "line longer than %u bytes",
					       (unsigned)LINEIO_DEFAULT_LIMIT) != 0)
			return -1;
		return 0;
	}
	if (is_blank(text, len))
		return 0;
	if (record_parse(text, len, line, &r, err, sizeof(err)) != 0) {
		if (ps && records_problems_add(ps, line, "%s", err) != 0)
			return -1;
		return 0;
	}
	int rc = records_push(rs, &r);
	record_release(&r);
	return rc;
}

static void settle_contract(struct records *rs)
{
	size_t v1 = 0, v2 = 0;
	for (size_t i = 0; i < rs->n; i++) {
		if (rs->v[i].contract == RECORDS_V2)
			v2++;
		else
			v1++;
	}
	rs->contract = (v1 + v2 == 0) ? RECORDS_UNKNOWN : (v2 > v1 ? RECORDS_V2 : RECORDS_V1);
}

int records_load(const char *path, struct records *rs, struct records_problems *ps)
{
	struct lineio l;
	int rc;
	if (lineio_open(&l, path, LINEIO_DEFAULT_LIMIT) != 0)
		return -1;
	while ((rc = lineio_next(&l)) == 1) {
		if (take_line(l.buf, l.len, l.lineno, l.truncated, rs, ps) != 0) {
			rc = -1;
			errno = ENOMEM;
			break;
		}
	}
	int saved = errno;
	lineio_close(&l);
	settle_contract(rs);
	errno = saved;
	return rc < 0 ? -1 : 0;
}

int records_load_buffer(const char *buf, size_t len, struct records *rs,
			struct records_problems *ps)
{
	long line = 0;
	size_t i = 0;
	while (i < len) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - buf) : len;
		size_t n = end - i;
		line++;
		if (n > 0 && buf[i + n - 1] == '\r')
			n--;
		if (take_line(buf + i, n, line, n > LINEIO_DEFAULT_LIMIT, rs, ps) != 0)
			return -1;
		i = end + 1;
	}
	settle_contract(rs);
	return 0;
}
