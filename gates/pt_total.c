/* pt_total.c: totals and means of times that a perf_tuning/ log states,
 * reconciled with the JSON they summarise (pt_check_totals, pt_rules.h).
 *
 * Which JSON a figure summarises is known when the text cites it, or when
 * another figure of the same state (the same line of prose, the same
 * column of the same table) is an aggregate of exactly that JSON; then a
 * total the JSON contradicts is an error. Otherwise the report's figures
 * are compared with the latest results, and a mismatch only warns. */
#include "gates/pt_rules.h"
#include "util/text.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* 1 when s[a..b) (clipped to s) holds one of words. */
static int window_has(const char *s, long a, long b, const char *const *words)
{
	long n = (long)strlen(s);
	a = a < 0 ? 0 : a;
	b = b > n ? n : b;
	char w[64];
	if (b <= a || b - a >= (long)sizeof(w))
		return 0;
	memcpy(w, s + a, (size_t)(b - a));
	w[b - a] = '\0';
	return prose_contains_any(w, (size_t)-1, words);
}

/* One of words in s, an ASCII one as a word of prose (not torch.sum,
 * reduce_sum or avg_speedup); with speed, only an occurrence that names
 * no speedup (`total speedup`, `平均加速比`, `speedups 之和` are not a
 * total or a mean of times: a speed word ends just before it or starts
 * just after it). */
static int word_of(const char *s, const char *const *words, const char *const *speed)
{
	for (size_t i = 0; words[i]; i++) {
		size_t wl = strlen(words[i]);
		for (const char *p = s; (p = text_find_ci(p, words[i])) != NULL; p += wl) {
			if ((unsigned char)words[i][0] < 0x80) {
				if (p > s && (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.'))
					continue;
				if (isalnum((unsigned char)p[wl]) || p[wl] == '_' || p[wl] == '(' || p[wl] == '.')
					continue;
			}
			long at = (long)(p - s);
			if (speed && (window_has(s, at - 10, at, speed) || window_has(s, at + (long)wl, at + (long)wl + 12, speed)))
				continue;
			return 1;
		}
	}
	return 0;
}

static int has_word(const char *s, const char *const *words)
{
	return word_of(s, words, NULL);
}

/* 2 when line states a total of times, 1 a mean, 0 neither. */
static int total_kind(const char *line)
{
	static const char *const sum[] = { "total", "sum", "\xE5\x90\x88\xE8\xAE\xA1" /* 合计 */,
					   "\xE6\x80\xBB\xE8\xAE\xA1" /* 总计 */, "\xE6\x80\xBB\xE8\x80\x97\xE6\x97\xB6" /* 总耗时 */,
					   "\xE6\x80\xBB\xE6\x97\xB6\xE9\x97\xB4" /* 总时间 */, "\xE4\xB9\x8B\xE5\x92\x8C" /* 之和 */,
					   "\xE6\x80\xBB\xE5\x92\x8C" /* 总和 */, "\xE6\x80\xBB\xE6\x97\xB6\xE9\x95\xBF" /* 总时长 */,
					   "\xE6\x80\xBB\xE5\xBB\xB6\xE8\xBF\x9F" /* 总延迟 */, "\xE6\x80\xBB kernel" /* 总 kernel */,
					   "\xE6\x80\xBBkernel" /* 总kernel */, "\xCE\xA3" /* Σ */, "\xE2\x88\x91" /* ∑ */, NULL };
	static const char *const mean[] = { "mean", "average", "avg", "\xE5\xB9\xB3\xE5\x9D\x87" /* 平均 */,
					    "\xE5\x9D\x87\xE5\x80\xBC" /* 均值 */, NULL };
	static const char *const speed[] = { "speedup", "\xE5\x8A\xA0\xE9\x80\x9F" /* 加速 */, NULL };
	if (word_of(line, sum, speed))
		return 2;
	/* a mean beside a speedup anywhere on the line stays a speedup's */
	if (!has_word(line, speed) && has_word(line, mean))
		return 1;
	return 0;
}

/* Unit named in the text ("(ms)", " ms", "us"), as microseconds per unit;
 * 0 when none. */
static double unit_in(const char *s)
{
	static const struct { const char *w; double m; } u[] = {
		{ "(ms)", 1e3 }, { "\xEF\xBC\x88ms\xEF\xBC\x89", 1e3 }, { " ms", 1e3 }, { "_ms", 1e3 },
		{ "(us)", 1 }, { "\xEF\xBC\x88us\xEF\xBC\x89", 1 }, { " us", 1 }, { "_us", 1 }, { "\xC2\xB5s", 1 },
		{ "\xCE\xBCs", 1 } };
	for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++)
		if (text_find_ci(s, u[i].w))
			return u[i].m;
	return 0;
}

/* The JSON file s cites: its index in f when s names a file of the
 * folder (`ours_v2.json`, `custom/op/perf_tuning/ours_v2.json`), the first
 * such name in the text; else -1 with the first name of no file of the
 * folder in missing (a cited file that is not there), or -2 when s names
 * no JSON file. */
static long json_cited(const struct pt_folder *f, const char *s, char *missing, size_t mlen)
{
	long found = -2;
	for (const char *p = s; (p = strstr(p, ".json")) != NULL; p += 5) {
		if (isalnum((unsigned char)p[5]) || p[5] == '_')
			continue; /* .jsonl, .json_old */
		const char *a = p;
		while (a > s && (isalnum((unsigned char)a[-1]) || strchr("_-./", a[-1])))
			a--;
		const char *base = a;
		for (const char *q = a; q < p; q++)
			if (*q == '/')
				base = q + 1;
		size_t bl = (size_t)(p + 5 - base);
		if (bl == 5)
			continue; /* ".json" alone */
		for (size_t j = 0; j < f->njson; j++)
			if (strlen(f->json[j].name) == bl && strncmp(f->json[j].name, base, bl) == 0)
				return (long)j;
		if (found == -2) {
			snprintf(missing, mlen, "%.*s", (int)bl, base);
			found = -1;
		}
	}
	return found;
}

/* Time columns of the largest row table of a file: sums (kind 2) or means
 * (kind 1) in microseconds; the table's line in *tline (NULL: not wanted).
 * Returns the count (at most max). */
static size_t time_columns(const struct pt_jsonfile *jf, int kind, const char **names, double *agg,
			   size_t max, size_t *ncases, long *tline)
{
	struct ptjson_table tb[16];
	size_t nt = jf->j.root ? ptjson_tables(&jf->j, tb, 16) : 0, best = 0, k = 0;
	if (!nt)
		return 0;
	for (size_t t = 1; t < nt; t++)
		if (tb[t].n > tb[best].n)
			best = t;
	const cJSON *row0 = ptjson_row(&tb[best], 0), *m;
	*ncases = tb[best].n;
	if (tline) {
		*tline = tb[best].name ? ptjson_key_line(&jf->j, tb[best].name, 0) : 0;
		if (*tline <= 0)
			*tline = 1;
	}
	cJSON_ArrayForEach(m, row0) {
		if (!cJSON_IsNumber(m) || !m->string || k >= max)
			continue;
		double per = 0;
		const char *key = m->string;
		size_t kl = strlen(key);
		if (kl > 3 && (strcmp(key + kl - 3, "_us") == 0 || strstr(key, "_us_")))
			per = 1;
		else if (kl > 3 && (strcmp(key + kl - 3, "_ms") == 0 || strstr(key, "_ms_")))
			per = 1e3;
		if (!per)
			continue;
		double sum = 0;
		size_t n = 0;
		for (size_t r = 0; r < tb[best].n; r++) {
			double x = ptjson_num(ptjson_row(&tb[best], r), key);
			if (isfinite(x)) {
				sum += x * per;
				n++;
			}
		}
		if (!n)
			continue;
		names[k] = key;
		agg[k] = kind == 1 ? sum / (double)n : sum;
		k++;
	}
	return k;
}

/* One line stating a total or a mean of times, and what it is compared
 * with. */
struct total {
	const struct pt_folder *f;
	const struct ptlog_text *txt; /* the log the line is in */
	const char *shown, *rule;
	size_t l;              /* the line, 0-based */
	int kind;              /* 2 sum, 1 mean (total_kind) */
	double fig[2];         /* its figures, in us: one, or before -> after */
	double tol[2];         /* half a unit of each figure's last printed digit, in us */
	size_t pos[2];         /* where they are in the line */
	size_t nf;
	double lineunit;       /* unit named in the line, us per unit; 0 none */
	enum prose_unit shown_unit; /* unit of the last figure that carries one */
	long cj, use;          /* JSON the text cites (-1 none); JSON compared with */
	long jline;            /* line of the compared rows in that JSON */
	const char *names[24]; /* that JSON's time columns and their sums or means */
	double agg[24];
	size_t nc, ncases;
	int before_ok;         /* the 'before' figure is an older JSON's */
	size_t bx, by;         /* closest columns to fig[0], fig[1] */
	char older[160];       /* the older JSON's column closest to fig[0] ("x.json's ours_us") */
	double older_v;        /* its sum or mean in us, NAN none */
};

/* 1 when line is an AVG / SUM row of a table (the per-case table checks'). */
static int is_agg_table_row(const char *line)
{
	char c0[1][96];
	return strchr(line, '|') && pt_table_cells(line, c0, 1) && pt_agg_label(c0[0]) && strlen(c0[0]) < 12;
}

/* The time figures of t's line into t->fig (at most 3 counted, 2 kept):
 * a number with a time unit, or a decimal one when the line names a unit. */
static void total_figures(const char *line, struct total *t)
{
	struct prose_num nums[16];
	size_t n = prose_numbers(line, nums, 16);
	t->nf = 0;
	t->lineunit = unit_in(line);
	t->shown_unit = PROSE_NOUNIT;
	/* a line whose times carry their unit (`avg_speedup=0.4414 (total
	 * 7.31 ms)`) has no bare time: its bare decimals are something else */
	int timed = 0;
	for (size_t i = 0; i < n; i++)
		timed = timed || pt_us_per(nums[i].unit) > 0;
	for (size_t i = 0; i < n && t->nf < 3; i++) {
		if (nums[i].unit == PROSE_PCT || nums[i].unit == PROSE_X || nums[i].v <= 0)
			continue;
		double per = pt_us_per(nums[i].unit);
		/* a start joined by an arrow to a time takes its unit (8600 → 7270 us) */
		double next = i + 1 < n && pt_arrow_between(line, nums[i].end, nums[i + 1].pos) ?
				      pt_us_per(nums[i + 1].unit) : 0;
		if (!per && !next && (!nums[i].decimal || !t->lineunit || timed))
			continue;
		if (t->nf < 2) {
			double u = per ? per : next ? next : t->lineunit;
			int d = 0;
			const char *dot = memchr(line + nums[i].pos, '.', nums[i].end - nums[i].pos);
			for (const char *q = dot ? dot + 1 : line + nums[i].end; q < line + nums[i].end &&
			     isdigit((unsigned char)*q); q++)
				d++;
			t->fig[t->nf] = nums[i].v * u;
			t->tol[t->nf] = 0.5 * pow(10.0, -d) * u * (1 + 1e-9) + 1e-9;
			t->pos[t->nf] = nums[i].pos;
		}
		t->nf++;
		if (per)
			t->shown_unit = nums[i].unit;
	}
}

/* 1 when t's 'before' figure (of two) is the sum or mean of a time column
 * of a JSON other than the one compared with; the closest such column in
 * t->older (file and column) and t->older_v. */
static int before_in_older(struct total *t)
{
	const struct pt_folder *f = t->f;
	t->older_v = NAN;
	for (size_t j = 0; t->nf == 2 && j < f->njson; j++) {
		const char *on[24];
		double oa[24];
		size_t on_cases;
		if ((long)j == t->use)
			continue;
		size_t oc = time_columns(&f->json[j], t->kind, on, oa, 24, &on_cases, NULL);
		for (size_t x = 0; x < oc; x++) {
			if (isnan(t->older_v) || fabs(t->fig[0] - oa[x]) < fabs(t->fig[0] - t->older_v)) {
				t->older_v = oa[x];
				snprintf(t->older, sizeof(t->older), "%s's %s", f->json[j].name, on[x]);
			}
			if (fabs(t->fig[0] - oa[x]) <= t->tol[0])
				return 1;
		}
	}
	return 0;
}

/* The column of t's JSON whose sum or mean is closest to figure k, in
 * t->bx (k 0) or t->by (k 1); 1 when it is that figure to its printed
 * precision. */
static int closest_column(struct total *t, size_t k)
{
	size_t best = 0;
	for (size_t x = 1; x < t->nc; x++)
		if (fabs(t->fig[k] - t->agg[x]) < fabs(t->fig[k] - t->agg[best]))
			best = x;
	if (k == 0)
		t->bx = best;
	else
		t->by = best;
	return fabs(t->fig[k] - t->agg[best]) <= t->tol[k];
}

/* The unit figures of t are shown in: us per unit and its name. */
static double shown_per(const struct total *t, const char **un)
{
	double per = t->shown_unit != PROSE_NOUNIT ? pt_us_per(t->shown_unit) : (t->lineunit ? t->lineunit : 1);
	*un = per >= 1e3 ? "ms" : "us";
	return per;
}

/* The finding for a total that does not reconcile with the JSON it is
 * assumed or cited to summarise, to its printed precision (one figure, or
 * before -> after: the after figure is the JSON's, the before one its or
 * an older file's); 0 when it does, -1 on allocation failure. */
static int assumed_total(struct total *t, struct gate_findings *fs)
{
	const struct pt_folder *f = t->f;
	int ok_a = closest_column(t, 0);
	int ok_b = t->nf == 2 ? closest_column(t, 1) : 1;
	if (t->nf == 2 && t->before_ok)
		ok_a = 1;
	if (ok_a && ok_b)
		return 0;
	const char *un;
	double per = shown_per(t, &un);
	const char *what = t->kind == 2 ? "sum" : "mean";
	enum gate_severity sev = t->cj >= 0 ? GATE_ERROR : GATE_WARNING;
	char tail[260] = "", jname[300];
	if (t->cj < 0)
		snprintf(tail, sizeof(tail),
			 " ('%.120s' names no JSON and no figure beside it identifies one: assumed the latest results)",
			 t->txt->lines[t->l]);
	snprintf(jname, sizeof(jname), "%s:%ld", f->json[t->use].shown, t->jline);
	const double *fig = t->fig, *agg = t->agg;
	long line = (long)t->l + 1;
	size_t bx = t->bx, by = t->by;
	if (t->nf == 1)
		return gate_add(fs, t->rule, sev, t->shown, line,
				"%s %.4g %s does not reconcile with %s: the %s of its %zu cases' %s is %.4g %s (%+.1f%%)%s",
				t->kind == 2 ? "total" : "mean", fig[0] / per, un, jname, what, t->ncases,
				t->names[bx], agg[bx] / per, un, prose_pct(agg[bx], fig[0]), tail) ? -1 : 0;
	char before[300] = "";
	int use_older = isfinite(t->older_v) && fabs(fig[0] - t->older_v) < fabs(fig[0] - agg[bx]);
	if (!ok_a)
		snprintf(before, sizeof(before), "%s%.4g is no %s of a time column of it or of an older JSON (closest: %s%s, %.4g %s)",
			 ok_b ? "" : "; and ", fig[0] / per, what, use_older ? "" : "its ",
			 use_older ? t->older : t->names[bx], (use_older ? t->older_v : agg[bx]) / per, un);
	if (ok_b)
		return gate_add(fs, t->rule, sev, t->shown, line, "%s %.4g → %.4g %s against %s: %s%s",
				t->kind == 2 ? "totals" : "means", fig[0] / per, fig[1] / per, un, jname, before,
				tail) ? -1 : 0;
	return gate_add(fs, t->rule, sev, t->shown, line,
			"%s %.4g → %.4g %s: %.4g does not reconcile with %s, whose %zu cases' %s %s %s %.4g %s (%+.1f%%)%s%s",
			t->kind == 2 ? "totals" : "means", fig[0] / per, fig[1] / per, un, fig[1] / per, jname,
			t->ncases, t->names[by], what, t->kind == 2 ? "to" : "is", agg[by] / per, un,
			prose_pct(agg[by], fig[1]), before, tail) ? -1 : 0;
}

/* ---- which JSON a figure summarises --------------------------------- */

#define MAXID 8

/* The JSONs a figure of a total may summarise, and what says so. */
struct ident {
	long j[MAXID];         /* candidate JSONs */
	size_t nj;
	long line;             /* 1-based line of the identifying figure */
	double v;              /* that figure, as printed */
	char key[64];          /* what it is of j[0] ("mean_speedup") */
};

static void ident_add(struct ident *id, long j, const char *key)
{
	for (size_t i = 0; i < id->nj; i++)
		if (id->j[i] == j)
			return;
	if (id->nj < MAXID) {
		if (!id->nj)
			snprintf(id->key, sizeof(id->key), "%s", key);
		id->j[id->nj++] = j;
	}
}

/* The JSONs of which v (printed to half a unit, half) is an aggregate:
 * a number beside its per-case rows (mean_speedup, avg_speedup) or the
 * mean or geometric mean of their speedups. Returns how many. */
static size_t json_of_aggregate(const struct pt_folder *f, double v, double half, struct ident *id)
{
	id->nj = 0;
	for (size_t j = 0; j < f->njson; j++) {
		struct ptjson_table tb[16];
		size_t nt = f->json[j].j.root ? ptjson_tables(&f->json[j].j, tb, 16) : 0;
		for (size_t k = 0; k < nt; k++) {
			const cJSON *m;
			cJSON_ArrayForEach(m, tb[k].owner) {
				if (cJSON_IsNumber(m) && m->string && fabs(m->valuedouble - v) <= half)
					ident_add(id, (long)j, m->string);
			}
			double mean, geo;
			size_t nv;
			if (!tb[k].speedup)
				continue;
			ptjson_speedup_means(&tb[k], &mean, &geo, &nv);
			if (fabs(mean - v) <= half)
				ident_add(id, (long)j, "mean of its speedups");
			else if (fabs(geo - v) <= half)
				ident_add(id, (long)j, "geometric mean of its speedups");
		}
	}
	return id->nj;
}

/* The figures of s[a..b) (line l, 0-based) that are aggregates of some
 * JSON, in order, into out (at most max); figures starting at the
 * positions skip[0..nskip) (the total's own) are not read. Returns how
 * many. */
static size_t id_figures(const struct pt_folder *f, const char *s, size_t a, size_t b, long l,
			 const size_t *skip, size_t nskip, struct ident *out, size_t max)
{
	struct prose_num nums[16];
	char seg[512];
	size_t len = b - a < sizeof(seg) - 1 ? b - a : sizeof(seg) - 1, k = 0;
	memcpy(seg, s + a, len);
	seg[len] = '\0';
	size_t n = prose_numbers(seg, nums, 16);
	for (size_t i = 0; i < n && k < max; i++) {
		int own = 0;
		for (size_t x = 0; x < nskip; x++)
			if (skip[x] == a + nums[i].pos)
				own = 1;
		if (own || !nums[i].decimal || nums[i].v <= 0 || nums[i].unit == PROSE_PCT ||
		    pt_us_per(nums[i].unit) > 0 || pt_sig_digits(seg, &nums[i]) < 3)
			continue;
		int d = 0;
		const char *dot = memchr(seg + nums[i].pos, '.', nums[i].end - nums[i].pos);
		for (const char *q = dot + 1; q < seg + nums[i].end && isdigit((unsigned char)*q); q++)
			d++;
		if (!json_of_aggregate(f, nums[i].v, 0.5 * pow(10.0, -d) * (1 + 1e-9), &out[k]))
			continue;
		out[k].line = l + 1;
		out[k].v = nums[i].v;
		k++;
	}
	return k;
}

/* Narrows id (empty: not yet set) to the JSONs all of ids[0..n) name; 0
 * when they disagree (no JSON is all of theirs), else 1. */
static int narrow(const struct ident *ids, size_t n, struct ident *id)
{
	for (size_t i = 0; i < n; i++) {
		if (!id->nj) {
			*id = ids[i];
			continue;
		}
		struct ident both = *id;
		both.nj = 0;
		for (size_t x = 0; x < id->nj; x++)
			for (size_t y = 0; y < ids[i].nj; y++)
				if (id->j[x] == ids[i].j[y])
					both.j[both.nj++] = id->j[x];
		if (!both.nj)
			return 0;
		*id = both;
	}
	return 1;
}

/* Byte range of table cell c (0-based, as pt_table_cells counts) of a
 * row; 0 when the row has no such cell. */
static int cell_range(const char *line, size_t c, size_t *a, size_t *b)
{
	const char *p = strchr(line, '|');
	for (size_t i = 0; p && i < c; i++)
		p = strchr(p + 1, '|');
	const char *e = p ? strchr(p + 1, '|') : NULL;
	if (!e)
		return 0;
	*a = (size_t)(p + 1 - line);
	*b = (size_t)(e - line);
	return 1;
}

/* Cell index of byte pos of a table row. */
static size_t cell_at(const char *line, size_t pos)
{
	const char *p = strchr(line, '|');
	size_t c = 0;
	while (p && (p = strchr(p + 1, '|')) != NULL && (size_t)(p - line) < pos)
		c++;
	return c;
}

/* Which JSON each figure of t summarises, by the other figures of its
 * state: in a table row, the same column of the table's other rows; in
 * prose, the line's other figures (two of them, in order, for a before
 * -> after). 1 when every figure is identified. */
static int identify(struct total *t, struct ident *id)
{
	const struct ptlog_text *x = t->txt;
	const char *line = x->lines[t->l];
	memset(id, 0, 2 * sizeof(*id));
	if (!strchr(line, '|')) {
		struct ident ids[8];
		size_t n = id_figures(t->f, line, 0, strlen(line), (long)t->l, t->pos, t->nf, ids, 8);
		if (t->nf == 1)
			return narrow(ids, n, &id[0]) && id[0].nj;
		/* before -> after: exactly two identifying figures, in order */
		if (n != 2)
			return 0;
		id[0] = ids[0];
		id[1] = ids[1];
		return 1;
	}
	size_t top = t->l, end = t->l + 1;
	while (top > 0 && strchr(x->lines[top - 1], '|'))
		top--;
	while (end < x->nlines && strchr(x->lines[end], '|'))
		end++;
	for (size_t k = 0; k < t->nf; k++) {
		size_t c = cell_at(line, t->pos[k]);
		if (c == 0)
			return 0; /* a figure in the label cell */
		for (size_t r = top; r < end; r++) {
			size_t a, b;
			struct ident ids[8];
			if (r == t->l || !cell_range(x->lines[r], c, &a, &b))
				continue;
			size_t n = id_figures(t->f, x->lines[r], a, b, (long)r, NULL, 0, ids, 8);
			if (!narrow(ids, n, &id[k]))
				return 0;
		}
		if (!id[k].nj)
			return 0;
	}
	return 1;
}

/* The case count a line states (`(20 cases)`, `across 20 cases`,
 * `20-case`, `20 个 case`, `20 例`, `20 个用例`), 0 when none. */
static long stated_count(const char *line)
{
	static const char *const words[] = { "case", "shape", "workload", "\xE4\xB8\xAA" /* 个 */,
					     "\xE4\xBE\x8B" /* 例 */, "\xE7\x94\xA8\xE4\xBE\x8B" /* 用例 */, NULL };
	for (const char *p = line; *p; p++) {
		if (!isdigit((unsigned char)*p) || (p > line && (isalnum((unsigned char)p[-1]) || p[-1] == '.')))
			continue;
		const char *q = p;
		while (isdigit((unsigned char)*q))
			q++;
		if (*q == '.' || (isalpha((unsigned char)*q) && strncasecmp(q, "case", 4) != 0)) {
			p = q - 1; /* 0.5, 20x, fp16 */
			continue;
		}
		const char *w = q;
		while (*w == ' ' || *w == '-')
			w++;
		for (size_t i = 0; words[i]; i++)
			if (text_find_ci(w, words[i]) == w)
				return strtol(p, NULL, 10);
		p = q - 1;
	}
	return 0;
}

/* Index of the time column of names[0..n) the line names as a word, -1
 * when none. */
static long named_column(const char *line, const char *const *names, size_t n)
{
	for (size_t x = 0; x < n; x++) {
		const char *w[] = { names[x], NULL };
		if (has_word(line, w))
			return (long)x;
	}
	return -1;
}

/* What figure k of t against JSON j gives: 1 reconciles, 0 does not; the
 * column, its value, the case count and the rows' line into the out
 * parameters; *certain 1 when the line names that column or states the
 * JSON's case count. -1 when j has no time column the line could mean. */
static int against(struct total *t, size_t k, long j, const char **col, double *val, size_t *ncases,
		   long *jline, int *certain)
{
	const char *names[24];
	double agg[24];
	size_t nc = time_columns(&t->f->json[j], t->kind, names, agg, 24, ncases, jline);
	if (!nc)
		return -1;
	const char *line = t->txt->lines[t->l];
	long x = named_column(line, names, nc);
	long count = stated_count(line);
	*certain = x >= 0 || (count > 0 && (size_t)count == *ncases);
	if (x < 0)
		for (size_t y = 0, best = 0; y < nc; y++)
			if (fabs(t->fig[k] - agg[y]) < fabs(t->fig[k] - agg[best]) || y == 0)
				x = (long)(best = y);
	*col = names[x];
	*val = agg[x];
	return fabs(t->fig[k] - agg[x]) <= t->tol[k];
}

/* Checks a total whose every figure is identified (id[0..nf)): an error
 * naming both lines when a figure reconciles with none of its JSONs and
 * the line names the column or the case count, a warning when it names
 * neither. 0, -1 on allocation failure. */
static int identified_total(struct total *t, const struct ident *id, struct gate_findings *fs)
{
	const struct pt_folder *f = t->f;
	const char *un;
	double per = shown_per(t, &un);
	char body[1400] = "", why[600] = "";
	size_t bl = 0, wl = 0;
	int bad = 0, certain_all = 1;
	for (size_t k = 0; k < t->nf; k++) {
		const char *col = NULL;
		double val = NAN;
		size_t ncases = 0;
		long jline = 0, jbad = -1;
		int ok = 0, certain = 1;
		for (size_t i = 0; i < id[k].nj && !ok; i++) {
			const char *c;
			double v;
			size_t n;
			long jl;
			int cert;
			int r = against(t, k, id[k].j[i], &c, &v, &n, &jl, &cert);
			if (r < 0)
				return 0; /* no time column to check it against */
			if (r == 1)
				ok = 1;
			else if (jbad < 0) {
				jbad = id[k].j[i];
				col = c, val = v, ncases = n, jline = jl;
			}
			certain = certain && cert;
		}
		if (ok)
			continue;
		bad = 1;
		certain_all = certain_all && certain;
		bl += (size_t)snprintf(body + bl, sizeof(body) - bl,
				       "%s%.4g %s against %s:%ld, whose %zu cases' %s %s %.4g %s (%+.1f%%)%s",
				       bl ? "; " : "", t->fig[k] / per, un, f->json[jbad].shown, jline, ncases, col,
				       t->kind == 2 ? "sum to" : "average", val / per, un,
				       prose_pct(val, t->fig[k]), id[k].nj > 1 ? " (nor the other JSONs with that figure)" : "");
		if (bl >= sizeof(body))
			bl = sizeof(body) - 1;
	}
	if (!bad)
		return 0;
	for (size_t k = 0; k < t->nf; k++) {
		char where[32];
		if (id[k].line == (long)t->l + 1)
			snprintf(where, sizeof(where), "this line's");
		else
			snprintf(where, sizeof(where), "line %ld's", id[k].line);
		wl += (size_t)snprintf(why + wl, sizeof(why) - wl, "%s%s %g is %s's %s", wl ? ", " : "", where,
				       id[k].v, f->json[id[k].j[0]].name, id[k].key);
		if (wl >= sizeof(why))
			wl = sizeof(why) - 1;
	}
	const char *line = t->txt->lines[t->l];
	char fig[80];
	if (t->nf == 2)
		snprintf(fig, sizeof(fig), "%s %.4g → %.4g %s", t->kind == 2 ? "totals" : "means", t->fig[0] / per,
			 t->fig[1] / per, un);
	else
		snprintf(fig, sizeof(fig), "%s %.4g %s", t->kind == 2 ? "total" : "mean", t->fig[0] / per, un);
	if (certain_all)
		return gate_add(fs, t->rule, GATE_ERROR, t->shown, (long)t->l + 1,
				"%s contradicted by the JSON%s %s summarise%s: %s (%s)", fig, t->nf == 2 ? "s" : "",
				t->nf == 2 ? "they" : "it", t->nf == 2 ? "" : "s", body, why) ? -1 : 0;
	return gate_add(fs, t->rule, GATE_WARNING, t->shown, (long)t->l + 1,
			"%s: %s (%s; '%.120s' names no column and no case count: assumed the closest time column)", fig,
			body, why, line) ? -1 : 0;
}

/* A total of a log other than the report that no figure identifies: 1
 * when each of its figures is the sum of a time column of some JSON. */
static int sum_of_some_json(struct total *t, size_t k, char *closest, size_t clen, double *cv)
{
	const struct pt_folder *f = t->f;
	*cv = NAN;
	for (size_t j = 0; j < f->njson; j++) {
		const char *on[24];
		double oa[24];
		size_t n;
		size_t oc = time_columns(&f->json[j], t->kind, on, oa, 24, &n, NULL);
		for (size_t x = 0; x < oc; x++) {
			if (fabs(t->fig[k] - oa[x]) <= t->tol[k])
				return 1;
			if (isnan(*cv) || fabs(t->fig[k] - oa[x]) < fabs(t->fig[k] - *cv)) {
				*cv = oa[x];
				snprintf(closest, clen, "%s's %s", f->json[j].name, on[x]);
			}
		}
	}
	return 0;
}

/* 1 when line says it sums cases: it states a case count or names a
 * time column of a JSON of the folder. */
static int says_cases(const struct pt_folder *f, const char *line)
{
	int names = stated_count(line) > 0;
	for (size_t j = 0; j < f->njson && !names; j++) {
		const char *on[24];
		double oa[24];
		size_t n, oc = time_columns(&f->json[j], 2, on, oa, 24, &n, NULL);
		names = named_column(line, on, oc) >= 0;
	}
	return names;
}

/* A total of a log other than the report that no figure identifies is
 * read only when it says it sums cases: it states a case count or names
 * a time column of a JSON of the folder (`CANN native sum/sqrt` is no
 * total); then it warns when it is the sum of no time column of any JSON. */
static int unidentified_log_total(struct total *t, struct gate_findings *fs)
{
	if (!says_cases(t->f, t->txt->lines[t->l]))
		return 0;
	const char *un;
	double per = shown_per(t, &un);
	for (size_t k = 0; k < t->nf; k++) {
		char closest[160] = "";
		double cv;
		if (sum_of_some_json(t, k, closest, sizeof(closest), &cv) || isnan(cv))
			continue;
		return gate_add(fs, t->rule, GATE_WARNING, t->shown, (long)t->l + 1,
				"total %.4g %s is the sum of no time column of any JSON of the folder (closest: %s, %.4g %s); '%.120s' names no JSON and no figure beside it identifies one: not reconciled",
				t->fig[k] / per, un, closest, cv / per, un, t->txt->lines[t->l]) ? -1 : 0;
	}
	return 0;
}

/* Checks the total or mean line t->l of section starting at line section
 * against the JSON it cites or its figures identify (else, in the report,
 * the latest, lj); 0, -1 on allocation failure. */
static int check_total(struct total *t, long lj, long section, struct gate_findings *fs)
{
	const struct pt_folder *f = t->f;
	const struct ptlog_text *r = t->txt;
	const char *line = r->lines[t->l];
	int report = r == &f->report;
	total_figures(line, t);
	if (t->nf == 0 || t->nf > 2)
		return 0;
	/* the JSON it cites: on the line, else above it in its section */
	char missing[128] = "";
	t->cj = json_cited(f, line, missing, sizeof(missing));
	for (long q = (long)t->l - 1; report && t->cj == -2 && q >= section; q--)
		t->cj = json_cited(f, r->lines[q], missing, sizeof(missing));
	/* outside the report, a cited JSON is the one summed only when the
	 * line also names its column or case count (`host total 80us per
	 * call (ours_v2.json)` sums no cases) */
	if (!report && t->cj >= 0 && !says_cases(f, line))
		return 0;
	if (t->cj == -1)
		return gate_add(fs, t->rule, GATE_WARNING, t->shown, (long)t->l + 1,
				"'%.120s' cites %s, which is not in the folder: the %s is not reconciled", line,
				missing, t->kind == 2 ? "total" : "mean") ? -1 : 0;
	if (t->cj < 0) {
		t->cj = -1;
		struct ident id[2];
		if (identify(t, id))
			return identified_total(t, id, fs);
		if (!report)
			return unidentified_log_total(t, fs);
	}
	t->use = t->cj >= 0 ? t->cj : lj;
	if (t->use < 0)
		return 0;
	t->nc = time_columns(&f->json[t->use], t->kind, t->names, t->agg, 24, &t->ncases, &t->jline);
	if (!t->nc && t->cj >= 0)
		return gate_add(fs, t->rule, GATE_WARNING, t->shown, (long)t->l + 1,
				"'%.120s' cites %s, which has no per-case times (a key ending in _us or _ms): the %s is not reconciled",
				line, f->json[t->cj].shown, t->kind == 2 ? "total" : "mean") ? -1 : 0;
	if (!t->nc)
		return 0;
	/* a -> b: the state it started from may be an older file's */
	t->before_ok = before_in_older(t);
	return assumed_total(t, fs);
}

int pt_check_totals(const struct pt_folder *f, const struct ptlog_text *txt, const char *shown,
		    const char *rule, long lj, struct gate_findings *fs)
{
	long section = 0; /* first line of the current section */
	int fence = 0, report = txt == &f->report;
	for (size_t l = 0; l < txt->nlines; l++) {
		const char *line = txt->lines[l];
		if (strncmp(line, "```", 3) == 0)
			fence = !fence;
		if (fence)
			continue;
		if (line[0] == '#') {
			section = (long)l;
			continue;
		}
		struct total t = { .f = f, .txt = txt, .shown = shown, .rule = rule, .l = l,
				   .kind = total_kind(line) };
		if (!t.kind || (!report && t.kind != 2) || is_agg_table_row(line))
			continue; /* an AVG / SUM row: the per-case table checks */
		if (check_total(&t, lj, section, fs))
			return -1;
	}
	return 0;
}
