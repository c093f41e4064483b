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

/* Classifies an aggregate key; *field gets the row key it aggregates
 * (NULL for the speedup column). */
static enum agg classify(const char *k, const struct ptjson_table *t,
			 const struct ptjson_members *row0, const char **field)
{
	*field = NULL;
	char nkey[160];
	static const char *const counts[] = { "n_cases", "num_cases", "n_rows", "case_count", "count",
					      "n", "total_cases", "cases_count", NULL };
	for (size_t i = 0; counts[i]; i++)
		if (strcmp(k, counts[i]) == 0)
			return AGG_COUNT;
	snprintf(nkey, sizeof(nkey), "n_%s", t->name);
	if (strcmp(k, nkey) == 0)
		return AGG_COUNT;
	snprintf(nkey, sizeof(nkey), "num_%s", t->name);
	if (strcmp(k, nkey) == 0)
		return AGG_COUNT;
	if (strcmp(k, "n_valid") == 0 || strcmp(k, "valid_cases") == 0 || strcmp(k, "n_ok") == 0)
		return t->speedup ? AGG_VALID : AGG_NONE;
	if (has(k, "speedup") && t->speedup && strcmp(k, t->speedup) != 0) {
		if (has(k, "geo") || has(k, "gmean"))
			return AGG_GEO;
		if (has(k, "avg") || has(k, "mean") || has(k, "average"))
			return AGG_MEAN;
		return AGG_NONE;
	}
	if ((has(k, "geo") || has(k, "gmean")) && t->speedup)
		return AGG_GEO;
	/* avg_<field>, mean_<field>, sum_<field>, total_<field> and suffix forms */
	static const struct {
		const char *w;
		enum agg a;
		int prefix;
	} affix[] = { { "avg_", AGG_MEAN, 1 },   { "mean_", AGG_MEAN, 1 }, { "average_", AGG_MEAN, 1 },
		      { "sum_", AGG_SUM, 1 },    { "total_", AGG_SUM, 1 }, { "_avg", AGG_MEAN, 0 },
		      { "_mean", AGG_MEAN, 0 },  { "_sum", AGG_SUM, 0 },   { "_total", AGG_SUM, 0 } };
	for (size_t i = 0; i < sizeof(affix) / sizeof(affix[0]); i++) {
		size_t wl = strlen(affix[i].w), kl = strlen(k);
		if (kl <= wl)
			continue;
		const char *rest = NULL;
		size_t rl = 0;
		if (affix[i].prefix && strncmp(k, affix[i].w, wl) == 0) {
			rest = k + wl;
			rl = kl - wl;
		} else if (!affix[i].prefix && strcmp(k + kl - wl, affix[i].w) == 0) {
			rest = k;
			rl = kl - wl;
		}
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

static int check_table(const struct pt_jsonfile *jf, const struct ptjson_table *t,
		       const cJSON *aggs, struct gate_findings *fs)
{
	double mean, geo;
	size_t nvalid;
	struct ptjson_members row0;
	int rc = 0;
	ptjson_speedup_means(t, &mean, &geo, &nvalid);
	if (ptjson_members_build(&row0, ptjson_row(t, 0)) != 0)
		return -1;
	const cJSON *m;
	cJSON_ArrayForEach(m, aggs) {
		if (!m->string || !cJSON_IsNumber(m))
			continue;
		const char *field;
		enum agg a = classify(m->string, t, &row0, &field);
		if (a == AGG_NONE)
			continue;
		double v = m->valuedouble;
		long line = ptjson_key_line(&jf->j, m->string, 0);
		switch (a) {
		case AGG_COUNT:
			if (v != (double)t->n)
				rc = gate_add(fs, RULE, GATE_ERROR, jf->shown, line,
					      "\"%s\" is %g but \"%s\" holds %zu rows", m->string, v, t->name, t->n);
			break;
		case AGG_VALID:
			if (v != (double)nvalid)
				rc = gate_add(fs, RULE, GATE_ERROR, jf->shown, line,
					      "\"%s\" is %g but %zu rows of \"%s\" have a finite \"%s\" > 0",
					      m->string, v, nvalid, t->name, t->speedup);
			break;
		case AGG_MEAN:
		case AGG_SUM:
			if (!field) {
				if (!nvalid)
					break;
				if (!pt_close(v, mean, TOL)) {
					if (pt_close(v, geo, TOL))
						rc = gate_add(fs, RULE, GATE_ERROR, jf->shown, line,
							      "\"%s\" %.6g is the geometric mean of the %zu rows' \"%s\", not their arithmetic mean %.6g",
							      m->string, v, nvalid, t->speedup, mean);
					else
						rc = gate_add(fs, RULE, GATE_ERROR, jf->shown, line,
							      "\"%s\" %.6g is not the mean of the %zu rows' \"%s\" (%.6g, %+.2f%%)",
							      m->string, v, nvalid, t->speedup, mean, ptlog_pct(mean, v));
				}
			} else {
				double sum = 0;
				size_t k = 0;
				for (const cJSON *row = ptjson_row(t, 0); row; row = row->next) {
					double x = ptjson_num(row, field);
					if (isfinite(x)) {
						sum += x;
						k++;
					}
				}
				if (!k)
					break;
				double want = a == AGG_SUM ? sum : sum / (double)k;
				if (!pt_close(v, want, TOL))
					rc = gate_add(fs, RULE, GATE_ERROR, jf->shown, line,
						      "\"%s\" %.6g is not the %s of the rows' \"%s\" (%.6g over %zu rows, %+.2f%%)",
						      m->string, v, a == AGG_SUM ? "sum" : "mean", field, want, k,
						      ptlog_pct(want, v));
			}
			break;
		case AGG_GEO:
			if (!nvalid)
				break;
			if (!pt_close(v, geo, TOL)) {
				if (pt_close(v, mean, TOL))
					rc = gate_add(fs, RULE, GATE_ERROR, jf->shown, line,
						      "\"%s\" %.6g is labelled a geometric mean but is the arithmetic mean of the %zu rows' \"%s\" (geometric mean %.6g)",
						      m->string, v, nvalid, t->speedup, geo);
				else
					rc = gate_add(fs, RULE, GATE_ERROR, jf->shown, line,
						      "\"%s\" %.6g is not the geometric mean of the %zu rows' \"%s\" (%.6g, %+.2f%%)",
						      m->string, v, nvalid, t->speedup, geo, ptlog_pct(geo, v));
			}
			break;
		default:
			break;
		}
		if (rc)
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
		const cJSON *a, *b;
		double sp = ptjson_num(row, t->speedup);
		/* rows hold the key once each, in order */
		long line = ptjson_key_line_next(&jf->j, t->speedup, &pos);
		if (!isfinite(sp) || sp <= 0)
			continue;
		int pairs = 0, ok = 0, na = 0;
		double ref = NAN, own = NAN;
		/* a real row has a handful of times: the first MAX_TIMES of each
		 * role are paired, so a row of 100,000 keys stays linear */
		cJSON_ArrayForEach(a, row) {
			if (!a->string || !cJSON_IsNumber(a) || time_role(a->string) != 1)
				continue;
			if (++na > MAX_TIMES)
				break;
			int nb = 0;
			cJSON_ArrayForEach(b, row) {
				if (b->string && cJSON_IsNumber(b) && time_role(b->string) == 2 && ++nb > MAX_TIMES)
					break;
				if (!b->string || !cJSON_IsNumber(b) || time_role(b->string) != 2 ||
				    strcmp(unit_of(a->string), unit_of(b->string)) != 0 || b->valuedouble <= 0 ||
				    a->valuedouble <= 0)
					continue;
				if (!pairs) {
					ref = a->valuedouble;
					own = b->valuedouble;
				}
				pairs++;
				if (pt_close(sp, a->valuedouble / b->valuedouble, TOL) ||
				    pt_close(sp, b->valuedouble / a->valuedouble, TOL))
					ok = 1;
			}
		}
		if (!pairs || ok)
			continue;
		char label[64];
		ptjson_row_label(row, r, label, sizeof(label));
		if (gate_add(fs, RULE, GATE_ERROR, jf->shown, line,
			     "%s: \"%s\" %.6g does not match its times (%.6g / %.6g = %.6g)", label, t->speedup, sp,
			     ref, own, ref / own))
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
