/* pt_report.c: PT-REPORT, the report's headline numbers reconcile (1%)
 * with the latest JSON and perf_log iteration:
 *   - a mean / geometric-mean speedup it claims is that of the latest JSON
 *     (a claim matching an older JSON is a stale report);
 *   - an AVG / SUM row of a per-case table is the mean / sum of the rows
 *     above it and of the JSON those rows come from;
 *   - totals and means of times reconcile with the JSON they summarise
 *     (pt_check_totals, gates/pt_total.c);
 *   - a stale figure restated further on is one finding naming each line;
 *   - the latest iteration the report quotes (by its candidate figure) is
 *     not older than the last adopted perf_log iteration (stale report). */
#include "gates/pt_rules.h"
#include "util/text.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RULE "PT-REPORT"
#define TOL 0.01

static int decimals_match(const struct prose_num *n, const char *line, double v)
{
	/* a printed figure matches when it is v rounded to the digits shown */
	int d = 0;
	const char *dot = memchr(line + n->pos, '.', n->end - n->pos);
	if (dot)
		for (const char *p = dot + 1; p < line + n->end && isdigit((unsigned char)*p); p++)
			d++;
	double half = 0.5 * pow(10.0, -d);
	return fabs(fabs(n->v) - fabs(v)) <= half * 1.0001 + 1e-12 || pt_close(n->v, v, 0.001);
}

/* First line of the report quoting v, a candidate figure of the log: the
 * same figure printed with at least 3 significant digits (0.243 in a
 * per-case table is no quote of 0.2429), 0 when none. */
static long quoted(const struct ptlog_text *r, double v)
{
	for (size_t l = 0; l < r->nlines; l++) {
		struct prose_num nums[64];
		size_t n = prose_numbers(r->lines[l], nums, 64);
		for (size_t k = 0; k < n; k++)
			if (nums[k].decimal && nums[k].unit != PROSE_PCT &&
			    pt_sig_digits(r->lines[l], &nums[k]) >= 3 && pt_close(nums[k].v, v, 0.0002))
				return (long)l + 1;
	}
	return 0;
}

static int iter_adopted(const struct ptperf_iter *it)
{
	for (size_t k = 0; k < it->nm; k++)
		if (it->m[k].adopted.value && pt_adopted(it->m[k].adopted.value) == 1)
			return 1;
	return 0;
}

static double iter_figure(const struct ptperf_iter *it)
{
	for (size_t k = 0; k < it->nm; k++) {
		struct pt_eval e;
		pt_eval_meas(&it->m[k], &e);
		for (size_t p = 0; p < e.npairs; p++)
			if (isfinite(e.cand_raw[p]) && e.cand_raw[p] != 0)
				return e.cand_raw[p];
	}
	return NAN;
}

struct staleness {
	long report_iter;   /* latest iteration quoted, -1 none */
	long quote_line;    /* where the report quotes it */
	long adopted_iter;  /* last adopted iteration with a figure, -1 none */
	int any_figure;
};

static void find_staleness(const struct pt_folder *f, struct staleness *s)
{
	s->report_iter = s->adopted_iter = -1;
	s->quote_line = 0;
	s->any_figure = 0;
	if (!f->has_perf)
		return;
	for (size_t i = 0; i < f->perf.nit; i++) {
		const struct ptperf_iter *it = &f->perf.it[i];
		int found = 0, has = 0;
		for (size_t k = 0; k < it->nm && !found; k++) {
			struct pt_eval e;
			pt_eval_meas(&it->m[k], &e);
			for (size_t p = 0; p < e.npairs && !found; p++) {
				if (!isfinite(e.cand_raw[p]) || e.cand_raw[p] == 0)
					continue;
				has = 1;
				long l = quoted(&f->report, e.cand_raw[p]);
				if (l) {
					found = 1;
					s->report_iter = (long)i;
					s->quote_line = l;
				}
			}
		}
		if (has) {
			s->any_figure = 1;
			if (iter_adopted(it))
				s->adopted_iter = (long)i;
		}
	}
}

static const struct ptjson_table *speedup_table(const struct pt_jsonfile *jf, struct ptjson_table *buf, size_t max)
{
	size_t n = ptjson_tables(&jf->j, buf, max);
	for (size_t i = 0; i < n; i++)
		if (buf[i].speedup)
			return &buf[i];
	return NULL;
}

static int claim_kind(const char *line)
{
	const char *const *geo = prose_geomean_words;
	static const char *const mean[] = { "\xE5\xB9\xB3\xE5\x9D\x87\xE5\x8A\xA0\xE9\x80\x9F\xE6\xAF\x94" /* 平均加速比 */,
					    "avg_speedup", "mean_speedup", "average speedup", "mean speedup",
					    "avg speedup", NULL };
	static const char *const skip[] = { "\xE7\x90\x86\xE8\xAE\xBA" /* 理论 */, "theoretical", NULL };
	if (prose_contains_any(line, (size_t)-1, skip))
		return 0;
	if (prose_contains_any(line, (size_t)-1, geo))
		return 2;
	if (prose_contains_any(line, (size_t)-1, mean))
		return 1;
	return 0;
}

static const char *label_end(const char *line)
{
	static const char *const labels[] = { "\xE5\x87\xA0\xE4\xBD\x95\xE5\xB9\xB3\xE5\x9D\x87", "geomean",
					      "geo_mean", "geometric mean", "gmean",
					      "\xE5\xB9\xB3\xE5\x9D\x87\xE5\x8A\xA0\xE9\x80\x9F\xE6\xAF\x94",
					      "avg_speedup", "mean_speedup", "average speedup", "mean speedup",
					      "avg speedup", NULL };
	for (size_t i = 0; labels[i]; i++) {
		const char *p = text_find_ci(line, labels[i]);
		if (p)
			return p + strlen(labels[i]);
	}
	return line;
}

/* The latest results a report's speedup claims are checked against. */
struct latest {
	const struct pt_folder *f;
	long lj;                       /* latest JSON, -1 none */
	struct ptjson_table tb[16];
	const struct ptjson_table *table; /* its per-case speedup table, NULL none */
	double lmean, lgeo;            /* arithmetic and geometric means of its speedups */
	size_t lvalid;
};

/* The figures a claim line states after its label, as the claims they
 * make, into v (at most max); returns how many (0 when none). Figures
 * joined by an arrow (`0.37 → 0.39`, `from 0.37 to 0.39`), or the cells
 * of a table row (`| mean_speedup | 0.3733x | 0.3916x |`), are a start
 * and a result: the last is the one claimed. Other figures on the line
 * are claims of their own, such as a subset's figure and the overall one
 * (`1.8x on the large shapes, 1.4x overall`, `(large: 1.8x) / overall
 * 1.4x`): the line is right when one of them is. */

/* 1 when the figure at s[a..b) is a target, not a result: `≥ 0.6x`,
 * `目标 0.6`, `(target: 0.6x)`, `0.6x 目标未达`. */
static int is_target(const char *s, size_t a, size_t b)
{
	static const char *const words[] = { "\xE7\x9B\xAE\xE6\xA0\x87" /* 目标 */, "target", "goal",
					     "\xE2\x89\xA5" /* ≥ */, ">=", ">", NULL };
	size_t e = a;
	while (e > 0 && strchr(" *:=", s[e - 1]))
		e--;
	if (e >= 3 && strncmp(s + e - 3, "\xEF\xBC\x9A", 3) == 0) /* ： */
		e -= 3;
	while (e > 0 && s[e - 1] == ' ')
		e--;
	for (size_t i = 0; words[i]; i++) {
		size_t wl = strlen(words[i]);
		if (e >= wl && text_find_ci(s + e - wl, words[i]) == s + e - wl)
			return 1;
	}
	while (s[b] == ' ' || s[b] == '*')
		b++;
	return text_find_ci(s + b, words[0]) == s + b || text_find_ci(s + b, "target") == s + b;
}

/* 1 when the figure nums[q] is a time (`20.0 us`), or the start of an
 * arrow to one (`24.0 → 20.0 us`): not a speedup. */
static int is_time_figure(const char *s, const struct prose_num *nums, size_t n, size_t q)
{
	if (pt_us_per(nums[q].unit) > 0)
		return 1;
	return q + 1 < n && pt_us_per(nums[q + 1].unit) > 0 && pt_arrow_between(s, nums[q].end, nums[q + 1].pos);
}

static size_t claim_figures(const char *line, double *v, size_t max)
{
	const char *from = label_end(line);
	struct prose_num nums[16];
	size_t n = prose_numbers(from, nums, 16), k = 0;
	int row = strchr(line, '|') != NULL;
	long prev = -1;
	for (size_t q = 0; q < n; q++) {
		if (!nums[q].decimal || nums[q].unit == PROSE_PCT || is_target(from, nums[q].pos, nums[q].end) ||
		    is_time_figure(from, nums, n, q))
			continue;
		if (prev >= 0 && k && (row || pt_arrow_between(from, nums[prev].end, nums[q].pos)))
			v[k - 1] = nums[q].v; /* the result of a start -> result */
		else if (k < max)
			v[k++] = nums[q].v;
		prev = (long)q;
	}
	return k;
}

/* The name of the older JSON whose mean of this kind is closest to v
 * within TOL, NULL when none. */
static const char *older_match(const struct latest *lt, int kind, double v)
{
	const struct pt_folder *f = lt->f;
	const char *older = NULL;
	double olddiff = INFINITY;
	for (size_t j = 0; j < f->njson; j++) {
		struct ptjson_table ob[16];
		const struct ptjson_table *ot = (long)j != lt->lj && f->json[j].j.root ?
			speedup_table(&f->json[j], ob, 16) : NULL;
		if (!ot)
			continue;
		double m, g;
		size_t nv;
		ptjson_speedup_means(ot, &m, &g, &nv);
		double x = kind == 2 ? g : m;
		if (pt_close(v, x, TOL) && fabs(v - x) < olddiff) {
			older = f->json[j].name;
			olddiff = fabs(v - x);
		}
	}
	return older;
}

/* When the report quotes an iteration older than the last adopted one,
 * the clause saying so into tail and 1 into *stale_reported; else "". */
static void stale_tail(const struct pt_folder *f, const struct staleness *st, char *tail, size_t len,
		       int *stale_reported)
{
	tail[0] = '\0';
	if (st->adopted_iter < 0 || st->report_iter < 0 || st->report_iter >= st->adopted_iter)
		return;
	const struct ptperf_iter *ri = &f->perf.it[st->report_iter];
	const struct ptperf_iter *ai = &f->perf.it[st->adopted_iter];
	const struct ptperf_iter *last = &f->perf.it[f->perf.nit - 1];
	snprintf(tail, len, "; it reports '%s' while %s goes on to '%s' (line %ld, adopted)%s%s%s",
		 ri->title, f->perf_shown, ai->title, ai->line, last != ai ? " and '" : "",
		 last != ai ? last->title : "", last != ai ? "'" : "");
	*stale_reported = 1;
}

/* The stale figure a report states, once: the first line stating it gets
 * the finding, a later line restating the same figure of the same older
 * file (a recommendation repeating the headline) is named in it. */
struct stale_seen {
	double v;           /* the figure, NAN before the first */
	const char *older;  /* the older JSON it matches */
	size_t idx;         /* its finding in fs, (size_t)-1 when dropped */
	long again[8];      /* lines restating it */
	size_t nagain;
};

/* Checks the speedup claim of report line l (kind 2 geometric, 1 mean):
 * right when one of the claims the line makes is the latest results';
 * 0, -1 on allocation failure. */
static int check_claim(const struct latest *lt, size_t l, int kind, const struct staleness *st,
		       int *stale_reported, struct stale_seen *seen, struct gate_findings *fs)
{
	const struct pt_folder *f = lt->f;
	double vs[8];
	size_t nv = claim_figures(f->report.lines[l], vs, 8);
	if (!nv)
		return 0;
	const char *what = kind == 2 ? "geometric-mean speedup" : "average speedup";
	size_t pick = nv - 1; /* the figure a finding names: the last (overall) one */
	double v = vs[pick];
	char others[160];
	if (!lt->table)
		return gate_add(fs, RULE, GATE_WARNING, f->report_shown, (long)l + 1,
				"claims a%s %s %g but no bench JSON with per-case speedups to check it against",
				kind == 2 ? "" : "n", what, v) ? -1 : 0;
	double want = kind == 2 ? lt->lgeo : lt->lmean;
	const char *latest = f->json[lt->lj].name;
	for (size_t i = 0; i < nv; i++)
		if (pt_close(vs[i], want, TOL))
			return 0;
	for (size_t i = 0; kind == 2 && i < nv; i++)
		if (pt_close(vs[i], lt->lmean, TOL))
			return gate_add(fs, RULE, GATE_ERROR, f->report_shown, (long)l + 1,
					"claims a geometric-mean speedup %g, but that is the arithmetic mean of %s's %zu speedups (geometric mean %.4g)%s",
					vs[i], latest, lt->lvalid, lt->lgeo,
					pt_other_figures(vs, nv, i, 0, others, sizeof(others))) ? -1 : 0;
	/* does it match an older file? the closest one */
	const char *older = NULL;
	for (size_t i = nv; i-- > 0 && !older;)
		if ((older = older_match(lt, kind, vs[i])) != NULL)
			pick = i;
	v = vs[pick];
	if (older && seen->older && strcmp(older, seen->older) == 0 && v == seen->v) {
		if (seen->nagain < sizeof(seen->again) / sizeof(seen->again[0]))
			seen->again[seen->nagain++] = (long)l + 1;
		return 0; /* the same stale figure restated: one finding */
	}
	pt_other_figures(vs, nv, pick, 0, others, sizeof(others));
	char tail[600];
	stale_tail(f, st, tail, sizeof(tail), stale_reported);
	size_t before = fs->n;
	int rc = older ?
		gate_add(fs, RULE, GATE_ERROR, f->report_shown, (long)l + 1,
			 "stale report: %s %g matches %s, not the latest results %s (%.4g over %zu cases)%s%s",
			 what, v, older, latest, want, lt->lvalid, others, tail) :
		gate_add(fs, RULE, GATE_ERROR, f->report_shown, (long)l + 1,
			 "%s %g does not match the latest results %s (%.4g over %zu cases, %+.1f%%)%s%s", what, v,
			 latest, want, lt->lvalid, prose_pct(want, v), others, tail);
	if (older && !seen->older) {
		seen->older = older;
		seen->v = v;
		seen->idx = fs->n > before ? fs->n - 1 : (size_t)-1;
	}
	return rc ? -1 : 0;
}

/* Names the lines restating the stale figure in its one finding; 0, -1
 * on allocation failure. */
static int name_restated(const struct stale_seen *seen, struct gate_findings *fs)
{
	if (!seen->nagain || seen->idx == (size_t)-1 || seen->idx >= fs->n)
		return 0;
	char lines[120] = "";
	size_t n = 0;
	for (size_t i = 0; i < seen->nagain; i++)
		n += (size_t)snprintf(lines + n, sizeof(lines) - n, "%s%ld",
				      i == 0 ? "" : i + 1 == seen->nagain ? " and " : ", ", seen->again[i]);
	struct gate_finding *g = &fs->v[seen->idx];
	size_t ml = strlen(g->message);
	char *m = realloc(g->message, ml + sizeof(lines) + 64);
	if (!m)
		return -1;
	snprintf(m + ml, sizeof(lines) + 64, " (restated at line%s %s: the same stale figure, one finding)",
		 seen->nagain > 1 ? "s" : "", lines);
	g->message = m;
	return 0;
}

static int check_claims(const struct pt_folder *f, long lj, const struct staleness *st,
			int *stale_reported, struct gate_findings *fs)
{
	const struct ptlog_text *r = &f->report;
	struct latest lt = { .f = f, .lj = lj, .lmean = NAN, .lgeo = NAN };
	lt.table = lj >= 0 ? speedup_table(&f->json[lj], lt.tb, 16) : NULL;
	if (lt.table)
		ptjson_speedup_means(lt.table, &lt.lmean, &lt.lgeo, &lt.lvalid);
	struct stale_seen seen = { .v = NAN, .idx = (size_t)-1 };
	long rb_section = 0; /* inside a section whose heading says rolled back */
	for (size_t l = 0; l < r->nlines; l++) {
		if (r->lines[l][0] == '#') {
			rb_section = pt_rolled_back_text(r->lines[l]);
			continue;
		}
		/* a rolled-back attempt's figures are a record, not a claim */
		if (rb_section || pt_rolled_back_text(r->lines[l]))
			continue;
		int kind = claim_kind(r->lines[l]);
		if (kind && check_claim(&lt, l, kind, st, stale_reported, &seen, fs))
			return -1;
	}
	return name_restated(&seen, fs);
}

/* ---- per-case tables ---------------------------------------------- */

static int cell_num(const char *c, double *v)
{
	struct prose_num n[2];
	if (prose_numbers(c, n, 2) != 1)
		return 0;
	*v = n[0].v;
	return 1;
}

/* 1 mean row, 2 sum row, 0 data. */
static int agg_row(const char *first)
{
	static const char *const mean[] = { "avg", "mean", "average", "\xE5\xB9\xB3\xE5\x9D\x87", "\xE5\x9D\x87\xE5\x80\xBC", NULL };
	static const char *const sum[] = { "sum", "total", "\xE5\x90\x88\xE8\xAE\xA1", "\xE6\x80\xBB\xE8\xAE\xA1", NULL };
	if (prose_contains_any(first, (size_t)-1, mean))
		return 1;
	if (prose_contains_any(first, (size_t)-1, sum))
		return 2;
	return 0;
}

/* A per-case table of the report (header line hl, rows to end) and the
 * JSON table its rows come from. */
struct ctable {
	const struct pt_folder *f;
	size_t hl, end;
	char head[PT_TABLE_COLS][96];
	size_t nc;
	long bestj;                 /* the JSON file, -1 none */
	struct ptjson_table bestt;
	int col_of[PT_TABLE_COLS];        /* 1 when column c is a key of the JSON's rows */
	double tsum[PT_TABLE_COLS], jsum[PT_TABLE_COLS]; /* sums of the plain rows, of the JSON rows */
	size_t tn[PT_TABLE_COLS], jn[PT_TABLE_COLS];
};

/* How many cells of the table's plain rows print, to their digits, the
 * JSON rows from row on, in order. */
static size_t table_hits(const struct ctable *t, const cJSON *row)
{
	const struct ptlog_text *r = &t->f->report;
	size_t hits = 0;
	for (size_t l = t->hl + 2; l < t->end && row; l++) {
		char cl[PT_TABLE_COLS][96];
		size_t n = pt_table_cells(r->lines[l], cl, PT_TABLE_COLS);
		if (n && agg_row(cl[0]))
			continue;
		const cJSON *cur = row;
		row = row->next;
		for (size_t c = 0; c < n && c < t->nc; c++) {
			double v, x = ptjson_num(cur, t->head[c]);
			struct prose_num num[2];
			if (isfinite(x) && prose_numbers(cl[c], num, 2) == 1 &&
			    decimals_match(&num[0], cl[c], x) && cell_num(cl[c], &v))
				hits++;
		}
	}
	return hits;
}

/* The JSON table whose row keys name at least two columns and whose rows
 * match best into t->bestj, t->bestt (t->bestj -1 when none). */
static void best_json_table(struct ctable *t)
{
	const struct pt_folder *f = t->f;
	size_t best_hits = 0;
	t->bestj = -1;
	for (size_t j = 0; j < f->njson; j++) {
		struct ptjson_table tb[16];
		size_t nt = f->json[j].j.root ? ptjson_tables(&f->json[j].j, tb, 16) : 0;
		for (size_t k = 0; k < nt; k++) {
			const cJSON *row0 = ptjson_row(&tb[k], 0);
			size_t named = 0;
			for (size_t c = 0; c < t->nc; c++)
				if (isfinite(ptjson_num(row0, t->head[c])))
					named++;
			if (named < 2)
				continue;
			size_t hits = table_hits(t, row0);
			if (hits > best_hits) {
				best_hits = hits;
				t->bestj = (long)j;
				t->bestt = tb[k];
			}
		}
	}
}

/* Per column: sum and count of the table's plain rows and of the JSON's
 * rows, once (each aggregate row compares with them). */
static void column_sums(struct ctable *t)
{
	const struct ptlog_text *r = &t->f->report;
	for (size_t c = 0; c < t->nc; c++) {
		t->col_of[c] = isfinite(ptjson_num(ptjson_row(&t->bestt, 0), t->head[c]));
		t->tsum[c] = t->jsum[c] = 0;
		t->tn[c] = t->jn[c] = 0;
	}
	for (size_t q = t->hl + 2; q < t->end; q++) {
		char dc[PT_TABLE_COLS][96];
		size_t m = pt_table_cells(r->lines[q], dc, PT_TABLE_COLS);
		double x;
		if (!m || agg_row(dc[0]))
			continue;
		for (size_t c = 1; c < m && c < t->nc; c++)
			if (t->col_of[c] && cell_num(dc[c], &x)) {
				t->tsum[c] += x;
				t->tn[c]++;
			}
	}
	for (const cJSON *row = ptjson_row(&t->bestt, 0); row; row = row->next)
		for (size_t c = 1; c < t->nc; c++) {
			double x = t->col_of[c] ? ptjson_num(row, t->head[c]) : NAN;
			if (isfinite(x)) {
				t->jsum[c] += x;
				t->jn[c]++;
			}
		}
}

/* Checks the cells of aggregate row l (kind 1 mean, 2 sum) against the
 * rows above and the JSON's; 0, -1 on allocation failure. */
static int check_agg_row(const struct ctable *t, size_t l, char cl[][96], size_t n, int kind,
			 struct gate_findings *fs)
{
	const struct pt_folder *f = t->f;
	for (size_t c = 1; c < n && c < t->nc; c++) {
		double v;
		if (!t->col_of[c] || !cell_num(cl[c], &v))
			continue;
		if (!t->tn[c] || !t->jn[c])
			continue;
		double tw = kind == 1 ? t->tsum[c] / (double)t->tn[c] : t->tsum[c];
		double jw = kind == 1 ? t->jsum[c] / (double)t->jn[c] : t->jsum[c];
		if (pt_close(v, tw, TOL) && pt_close(v, jw, TOL))
			continue;
		if (gate_add(fs, RULE, GATE_ERROR, f->report_shown, (long)l + 1,
			     "%s row: %s %g is not the %s of the %zu rows above (%.4g) nor of %s (%.4g, %+.1f%%)",
			     cl[0], t->head[c], v, kind == 1 ? "mean" : "sum", t->tn[c], tw, f->json[t->bestj].name,
			     jw, prose_pct(jw, v)))
			return -1;
	}
	return 0;
}

static int check_table(const struct pt_folder *f, size_t hl, size_t end, struct gate_findings *fs)
{
	const struct ptlog_text *r = &f->report;
	struct ctable t;
	t.f = f;
	t.hl = hl;
	t.end = end;
	t.nc = pt_table_cells(r->lines[hl], t.head, PT_TABLE_COLS);
	best_json_table(&t);
	if (t.bestj < 0)
		return 0;
	column_sums(&t);
	/* the aggregate rows */
	for (size_t l = hl + 2; l < end; l++) {
		char cl[PT_TABLE_COLS][96];
		size_t n = pt_table_cells(r->lines[l], cl, PT_TABLE_COLS);
		int kind = n ? agg_row(cl[0]) : 0;
		if (kind && check_agg_row(&t, l, cl, n, kind, fs))
			return -1;
	}
	return 0;
}

/* Every table of the report: its aggregate rows (check_table) and its
 * before / after / change rows (pt_check_change_rows). */
static int check_tables(const struct pt_folder *f, struct gate_findings *fs)
{
	const struct ptlog_text *r = &f->report;
	size_t at = 0, hl, end;
	while (pt_next_table(r, &at, &hl, &end))
		if (check_table(f, hl, end, fs) || pt_check_change_rows(r, hl, end, f->report_shown, RULE, fs))
			return -1;
	return 0;
}

int pt_rule_report(const struct pt_folder *f, struct gate_findings *fs)
{
	if (!f->has_report)
		return gate_add(fs, RULE, GATE_WARNING, f->shown, 0,
				"no final_report.md or perf_report.md in the folder or beside it: nothing to reconcile");
	long li;
	long lj = pt_latest_json(f, &li);
	struct staleness st;
	find_staleness(f, &st);
	int stale_reported = 0;
	if (check_claims(f, lj, &st, &stale_reported, fs))
		return -1;
	if (check_tables(f, fs) || pt_check_totals(f, &f->report, f->report_shown, RULE, lj, fs))
		return -1;
	if (!f->has_perf)
		return 0;
	if (st.any_figure && st.report_iter < 0)
		return gate_add(fs, RULE, GATE_WARNING, f->report_shown, 0,
				"quotes no candidate figure of any %s iteration: cannot tell which iteration it reports",
				f->perf_shown);
	if (!stale_reported && st.report_iter >= 0 && st.report_iter < st.adopted_iter) {
		const struct ptperf_iter *ri = &f->perf.it[st.report_iter];
		const struct ptperf_iter *ai = &f->perf.it[st.adopted_iter];
		double fig = iter_figure(ai);
		return gate_add(fs, RULE, GATE_ERROR, f->report_shown, st.quote_line,
				"stale report: it quotes '%s' (line %ld of the report) but %s goes on to '%s' (line %ld, adopted, candidate %g), which the report does not mention",
				ri->title, st.quote_line, f->perf_shown, ai->title, ai->line, fig);
	}
	return 0;
}
