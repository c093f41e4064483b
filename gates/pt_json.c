/* pt_json.c: PT-JSON, every bench JSON parses and its aggregates agree
 * with its own rows (0.5%): a mean is the arithmetic mean of the rows'
 * speedups, anything labelled geometric mean is the geometric one, counts
 * match, sums and means of a row field match that field. */
#include "gates/pt_rules.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define RULE "PT-JSON"
#define TOL 0.005
#define MAX_TIMES 32 /* time keys of one role paired per row */

enum agg { AGG_NONE, AGG_COUNT, AGG_VALID, AGG_MEAN, AGG_GEO, AGG_SUM };

static int has(const char *s, const char *w)
{
	return strstr(s, w) != NULL;
}

/* A row count of t: 1 with *a set (AGG_COUNT, or AGG_VALID / AGG_NONE
 * for a count of valid rows with / without a speedup column), else 0. */
static int classify_count(const char *k, const struct ptjson_table *t, enum agg *a)
{
	char nkey[160];
	static const char *const counts[] = { "n_cases", "num_cases", "n_rows", "case_count", "count",
					      "n", "total_cases", "cases_count", NULL };
	*a = AGG_COUNT;
	for (size_t i = 0; counts[i]; i++)
		if (strcmp(k, counts[i]) == 0)
			return 1;
	snprintf(nkey, sizeof(nkey), "n_%s", t->name);
	if (strcmp(k, nkey) == 0)
		return 1;
	snprintf(nkey, sizeof(nkey), "num_%s", t->name);
	if (strcmp(k, nkey) == 0)
		return 1;
	if (strcmp(k, "n_valid") == 0 || strcmp(k, "valid_cases") == 0 || strcmp(k, "n_ok") == 0) {
		*a = t->speedup ? AGG_VALID : AGG_NONE;
		return 1;
	}
	return 0;
}

/* An aggregate of t's speedup column: 1 with *a set (AGG_GEO, AGG_MEAN,
 * or AGG_NONE for another speedup key), else 0. */
static int classify_speedup(const char *k, const struct ptjson_table *t, enum agg *a)
{
	int geo = has(k, "geo") || has(k, "gmean");
	if (has(k, "speedup") && t->speedup && strcmp(k, t->speedup) != 0) {
		if (geo)
			*a = AGG_GEO;
		else if (has(k, "avg") || has(k, "mean") || has(k, "average"))
			*a = AGG_MEAN;
		else
			*a = AGG_NONE;
		return 1;
	}
	if (geo && t->speedup) {
		*a = AGG_GEO;
		return 1;
	}
	return 0;
}

/* avg_<field>, mean_<field>, sum_<field>, total_<field> and suffix forms */
static const struct {
	const char *w;
	enum agg a;
	int prefix;
} affix[] = { { "avg_", AGG_MEAN, 1 },   { "mean_", AGG_MEAN, 1 }, { "average_", AGG_MEAN, 1 },
	      { "sum_", AGG_SUM, 1 },    { "total_", AGG_SUM, 1 }, { "_avg", AGG_MEAN, 0 },
	      { "_mean", AGG_MEAN, 0 },  { "_sum", AGG_SUM, 0 },   { "_total", AGG_SUM, 0 } };

/* The field name k holds beside affix i (*rl bytes), NULL when k does not
 * carry that affix. */
static const char *affix_rest(const char *k, size_t i, size_t *rl)
{
	size_t wl = strlen(affix[i].w), kl = strlen(k);
	if (kl <= wl)
		return NULL;
	*rl = kl - wl;
	if (affix[i].prefix && strncmp(k, affix[i].w, wl) == 0)
		return k + wl;
	if (!affix[i].prefix && strcmp(k + kl - wl, affix[i].w) == 0)
		return k;
	return NULL;
}

/* An aggregate of a numeric row field: its kind, *field the field as the
 * first row names it; AGG_NONE when k is none. */
static enum agg classify_affix(const char *k, const struct ptjson_members *row0, const char **field)
{
	for (size_t i = 0; i < sizeof(affix) / sizeof(affix[0]); i++) {
		size_t rl = 0;
		const char *rest = affix_rest(k, i, &rl);
		if (!rest)
			continue;
		/* the first member of that name, as a lookup would find it */
		const cJSON *m = ptjson_members_get(row0, rest, rl);
		if (m && cJSON_IsNumber(m)) {
			*field = m->string;
			return affix[i].a;
		}
	}
	return AGG_NONE;
}

/* Classifies an aggregate key; *field gets the row key it aggregates
 * (NULL for the speedup column). */
static enum agg classify(const char *k, const struct ptjson_table *t,
			 const struct ptjson_members *row0, const char **field)
{
	enum agg a;
	*field = NULL;
	if (classify_count(k, t, &a) || classify_speedup(k, t, &a))
		return a;
	return classify_affix(k, row0, field);
}

/* One table's aggregates being checked against its rows. */
struct agg_check {
	const struct pt_jsonfile *jf;
	const struct ptjson_table *t;
	double mean, geo;  /* of the rows' finite positive speedups */
	size_t nvalid;     /* how many there are */
	struct gate_findings *fs;
};

/* AGG_COUNT / AGG_VALID: v against the number of rows / of valid rows. */
static int check_count(const struct agg_check *c, const cJSON *m, enum agg a, long line)
{
	double v = m->valuedouble;
	if (a == AGG_COUNT && v != (double)c->t->n)
		return gate_add(c->fs, RULE, GATE_ERROR, c->jf->shown, line,
				"\"%s\" is %g but \"%s\" holds %zu rows", m->string, v, c->t->name, c->t->n);
	if (a == AGG_VALID && v != (double)c->nvalid)
		return gate_add(c->fs, RULE, GATE_ERROR, c->jf->shown, line,
				"\"%s\" is %g but %zu rows of \"%s\" have a finite \"%s\" > 0",
				m->string, v, c->nvalid, c->t->name, c->t->speedup);
	return 0;
}

/* A mean of the speedup column: the arithmetic mean of the valid rows. */
static int check_speedup_mean(const struct agg_check *c, const cJSON *m, long line)
{
	double v = m->valuedouble;
	if (!c->nvalid || pt_close(v, c->mean, TOL))
		return 0;
	if (pt_close(v, c->geo, TOL))
		return gate_add(c->fs, RULE, GATE_ERROR, c->jf->shown, line,
				"\"%s\" %.6g is the geometric mean of the %zu rows' \"%s\", not their arithmetic mean %.6g",
				m->string, v, c->nvalid, c->t->speedup, c->mean);
	return gate_add(c->fs, RULE, GATE_ERROR, c->jf->shown, line,
			"\"%s\" %.6g is not the mean of the %zu rows' \"%s\" (%.6g, %+.2f%%)",
			m->string, v, c->nvalid, c->t->speedup, c->mean, prose_pct(c->mean, v));
}

/* A sum or mean of a row field: over the rows where the field is finite. */
static int check_field_agg(const struct agg_check *c, const cJSON *m, enum agg a, const char *field,
			   long line)
{
	double v = m->valuedouble;
	double sum = 0;
	size_t k = 0;
	for (const cJSON *row = ptjson_row(c->t, 0); row; row = row->next) {
		double x = ptjson_num(row, field);
		if (isfinite(x)) {
			sum += x;
			k++;
		}
	}
	if (!k)
		return 0;
	double want = a == AGG_SUM ? sum : sum / (double)k;
	if (pt_close(v, want, TOL))
		return 0;
	return gate_add(c->fs, RULE, GATE_ERROR, c->jf->shown, line,
			"\"%s\" %.6g is not the %s of the rows' \"%s\" (%.6g over %zu rows, %+.2f%%)",
			m->string, v, a == AGG_SUM ? "sum" : "mean", field, want, k, prose_pct(want, v));
}

/* A geometric mean of the speedup column. */
static int check_geo(const struct agg_check *c, const cJSON *m, long line)
{
	double v = m->valuedouble;
	if (!c->nvalid || pt_close(v, c->geo, TOL))
		return 0;
	if (pt_close(v, c->mean, TOL))
		return gate_add(c->fs, RULE, GATE_ERROR, c->jf->shown, line,
				"\"%s\" %.6g is labelled a geometric mean but is the arithmetic mean of the %zu rows' \"%s\" (geometric mean %.6g)",
				m->string, v, c->nvalid, c->t->speedup, c->geo);
	return gate_add(c->fs, RULE, GATE_ERROR, c->jf->shown, line,
			"\"%s\" %.6g is not the geometric mean of the %zu rows' \"%s\" (%.6g, %+.2f%%)",
			m->string, v, c->nvalid, c->t->speedup, c->geo, prose_pct(c->geo, v));
}

/* Checks one aggregate member m of kind a; 0, -1 on allocation failure. */
static int check_agg(const struct agg_check *c, const cJSON *m, enum agg a, const char *field)
{
	long line = ptjson_key_line(&c->jf->j, m->string, 0);
	switch (a) {
	case AGG_COUNT:
	case AGG_VALID:
		return check_count(c, m, a, line);
	case AGG_MEAN:
	case AGG_SUM:
		return field ? check_field_agg(c, m, a, field, line) : check_speedup_mean(c, m, line);
	case AGG_GEO:
		return check_geo(c, m, line);
	default:
		return 0;
	}
}

static int check_table(const struct pt_jsonfile *jf, const struct ptjson_table *t,
		       const cJSON *aggs, struct gate_findings *fs)
{
	struct agg_check c = { .jf = jf, .t = t, .fs = fs };
	struct ptjson_members row0;
	int rc = 0;
	ptjson_speedup_means(t, &c.mean, &c.geo, &c.nvalid);
	if (ptjson_members_build(&row0, ptjson_row(t, 0)) != 0)
		return -1;
	const cJSON *m;
	cJSON_ArrayForEach(m, aggs) {
		if (!m->string || !cJSON_IsNumber(m))
			continue;
		const char *field;
		enum agg a = classify(m->string, t, &row0, &field);
		if (a != AGG_NONE && (rc = check_agg(&c, m, a, field)) != 0)
			break;
	}
	ptjson_members_release(&row0);
	return rc ? -1 : 0;
}

/* Role of a time key: 1 reference (torch, baseline), 2 ours (tilelang,
 * kernel, candidate), 0 neither or not a time. */
static int time_role(const char *k)
{
	size_t n = strlen(k);
	int unit = (n > 3 && (strcmp(k + n - 3, "_us") == 0 || strcmp(k + n - 3, "_ms") == 0 ||
			      strcmp(k + n - 3, "_ns") == 0)) ||
		   (n > 2 && strcmp(k + n - 2, "_s") == 0);
	if (!unit)
		return 0;
	static const char *const ref[] = { "baseline", "torch", "pt_", "ref", "cann", "native", NULL };
	static const char *const ours[] = { "ours", "tl_", "tilelang", "kernel", "cand", NULL };
	for (size_t i = 0; ref[i]; i++)
		if (strncmp(k, ref[i], strlen(ref[i])) == 0)
			return 1;
	for (size_t i = 0; ours[i]; i++)
		if (strncmp(k, ours[i], strlen(ours[i])) == 0)
			return 2;
	return 0;
}

static const char *unit_of(const char *k)
{
	return strrchr(k, '_');
}

/* 1 when member b is a number under a time key of role (time_role). */
static int is_time(const cJSON *b, int role)
{
	return b->string && cJSON_IsNumber(b) && time_role(b->string) == role;
}

/* What a row's times say about its speedup sp. */
struct row_times {
	int pairs;       /* reference/own pairs in one unit */
	int ok;          /* 1 when some pair's ratio (either way) is sp */
	double ref, own; /* the first pair */
};

/* Pairs the reference time a with the row's own times in its unit (the
 * first MAX_TIMES of them). */
static void pair_times(const cJSON *row, const cJSON *a, double sp, struct row_times *rt)
{
	const cJSON *b;
	int nb = 0;
	cJSON_ArrayForEach(b, row) {
		if (!is_time(b, 2))
			continue;
		if (++nb > MAX_TIMES)
			break;
		if (strcmp(unit_of(a->string), unit_of(b->string)) != 0 || b->valuedouble <= 0 ||
		    a->valuedouble <= 0)
			continue;
		if (!rt->pairs) {
			rt->ref = a->valuedouble;
			rt->own = b->valuedouble;
		}
		rt->pairs++;
		if (pt_close(sp, a->valuedouble / b->valuedouble, TOL) ||
		    pt_close(sp, b->valuedouble / a->valuedouble, TOL))
			rt->ok = 1;
	}
}

/* A row's speedup is its reference time over its own (or the inverse,
 * for a file defining it the other way), for some pair of times in the
 * same unit. */
static int check_rows(const struct pt_jsonfile *jf, const struct ptjson_table *t,
		      struct gate_findings *fs)
{
	if (!t->speedup)
		return 0;
	size_t pos = 0;
	size_t r = 0;
	for (const cJSON *row = ptjson_row(t, 0); row; row = row->next, r++) {
		const cJSON *a;
		double sp = ptjson_num(row, t->speedup);
		/* rows hold the key once each, in order */
		long line = ptjson_key_line_next(&jf->j, t->speedup, &pos);
		if (!isfinite(sp) || sp <= 0)
			continue;
		struct row_times rt = { 0, 0, NAN, NAN };
		int na = 0;
		/* a real row has a handful of times: the first MAX_TIMES of each
		 * role are paired, so a row of 100,000 keys stays linear */
		cJSON_ArrayForEach(a, row) {
			if (!is_time(a, 1))
				continue;
			if (++na > MAX_TIMES)
				break;
			pair_times(row, a, sp, &rt);
		}
		if (!rt.pairs || rt.ok)
			continue;
		char label[64];
		ptjson_row_label(row, r, label, sizeof(label));
		if (gate_add(fs, RULE, GATE_ERROR, jf->shown, line,
			     "%s: \"%s\" %.6g does not match its times (%.6g / %.6g = %.6g)", label, t->speedup, sp,
			     rt.ref, rt.own, rt.ref / rt.own))
			return -1;
	}
	return 0;
}

static const struct pt_jsonfile *find_file(const struct pt_folder *f, const char *name)
{
	const char *base = strrchr(name, '/');
	base = base ? base + 1 : name;
	for (size_t i = 0; i < f->njson; i++)
		if (strcmp(f->json[i].name, base) == 0)
			return &f->json[i];
	return NULL;
}

/* {"avg_speedup": 0.2429, "source": "round2_dir2.json"}: a figure quoted
 * from another file must be that file's figure. */
static int check_sources(const struct pt_folder *f, const struct pt_jsonfile *jf, const cJSON *o,
			 struct gate_findings *fs)
{
	if (!cJSON_IsObject(o) && !cJSON_IsArray(o))
		return 0;
	const cJSON *src = cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, "source") : NULL;
	if (cJSON_IsString(src) && src->valuestring && strstr(src->valuestring, ".json")) {
		const struct pt_jsonfile *ref = find_file(f, src->valuestring);
		const cJSON *m;
		if (ref && ref->j.root && ref != jf) {
			cJSON_ArrayForEach(m, o) {
				if (!m->string || !cJSON_IsNumber(m))
					continue;
				const cJSON *r = ptjson_members_get(&ref->j.root_members, m->string, strlen(m->string));
				if (!cJSON_IsNumber(r) || pt_close(m->valuedouble, r->valuedouble, TOL))
					continue;
				if (gate_add(fs, RULE, GATE_ERROR, jf->shown, ptjson_key_line(&jf->j, "source", 0),
					     "\"%s\" %.6g quoted from %s differs from its \"%s\" %.6g",
					     m->string, m->valuedouble, ref->name, m->string, r->valuedouble))
					return -1;
			}
		}
	}
	const cJSON *c;
	cJSON_ArrayForEach(c, o)
		if (check_sources(f, jf, c, fs))
			return -1;
	return 0;
}

int pt_rule_json(const struct pt_folder *f, struct gate_findings *fs)
{
	if (f->njson == 0)
		return gate_add(fs, RULE, GATE_WARNING, f->shown, 0,
				"no bench JSON (baseline*.json, iterN.json, ...) in the folder: nothing to reconcile the logs with");
	for (size_t i = 0; i < f->njson; i++) {
		const struct pt_jsonfile *jf = &f->json[i];
		if (jf->empty) {
			if (gate_add(fs, RULE, GATE_ERROR, jf->shown, 0, "empty file"))
				return -1;
			continue;
		}
		if (!jf->j.root) {
			if (gate_add(fs, RULE, GATE_ERROR, jf->shown, jf->j.err_line,
				     "not valid JSON (Infinity, -Infinity and NaN are accepted)"))
				return -1;
			continue;
		}
		struct ptjson_table t[32];
		size_t nt = ptjson_tables(&jf->j, t, 32);
		for (size_t k = 0; k < nt; k++) {
			/* aggregates beside the rows, or in a summary object there */
			int speedup_tables = 0;
			for (size_t q = 0; q < nt; q++)
				if (t[q].owner == t[k].owner && t[q].speedup)
					speedup_tables++;
			if (t[k].speedup && speedup_tables > 1)
				continue; /* which table a mean belongs to is not said */
			if (check_rows(jf, &t[k], fs) || check_table(jf, &t[k], t[k].owner, fs))
				return -1;
			static const char *const subs[] = { "summary", "aggregate", "aggregates", "stats", "overall", NULL };
			for (size_t s = 0; subs[s]; s++) {
				const cJSON *o = cJSON_GetObjectItemCaseSensitive(t[k].owner, subs[s]);
				if (cJSON_IsObject(o) && o != t[k].rows && check_table(jf, &t[k], o, fs))
					return -1;
			}
		}
		if (check_sources(f, jf, jf->j.root, fs))
			return -1;
	}
	return 0;
}
