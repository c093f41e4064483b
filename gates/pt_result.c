/* pt_result.c: PT-RESULT, each [RESULT] states precision, performance and
 * a comparison; every "a → b (x%)" it quotes is right within 1 percentage
 * point, and its comparison agrees with the figures it quotes, or with
 * the previous RESULT's performance (one-line form), or with the perf_log
 * iteration of the same item. */
#include "gates/pt_rules.h"
#include "util/text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RULE "PT-RESULT"
#define PP 1.0

static const char *const PREC[] = { "\xE7\xB2\xBE\xE5\xBA\xA6" /* 精度 */, "precision", "accuracy", "correctness",
				    "\xE6\xAD\xA3\xE7\xA1\xAE\xE6\x80\xA7" /* 正确性 */,
				    "\xE5\x87\x86\xE7\xA1\xAE\xE6\x80\xA7" /* 准确性 */, NULL };
static const char *const PERF[] = { "\xE6\x80\xA7\xE8\x83\xBD" /* 性能 */, "performance", "perf", "latency",
				    "\xE8\x80\x97\xE6\x97\xB6" /* 耗时 */, "time", NULL };
static const char *const CMP[] = { "\xE5\xAF\xB9\xE6\xAF\x94" /* 对比 */, "comparison", "compare", "vs",
				   "improvement", "\xE6\x8F\x90\xE5\x8D\x87" /* 提升 */, NULL };

/* The bytes of a clause separator at p (`;`, `；`), 0 none. */
static size_t clause_sep(const char *p)
{
	return *p == ';' ? 1 : strncmp(p, "\xEF\xBC\x9B", 3) == 0 ? 3 : 0;
}

/* A field written as a clause of a line (`precision: pass; performance:
 * 0.21 -> 0.22 ms`): after a clause separator, clipped at the next. */
static const char *clause_field(const char *t, const char *key, size_t *len)
{
	for (const char *p = t; *p; p++) {
		size_t n = clause_sep(p);
		if (!n)
			continue;
		const char *v = prose_field(p + n, key, len);
		if (!v)
			continue;
		for (size_t i = 0; i < *len; i++)
			if (clause_sep(v + i)) {
				*len = i;
				break;
			}
		return v;
	}
	return NULL;
}

/* A field written as a row of a two-column table under the RESULT
 * (`| 精度 | pass |`): the first cell is the key, the rest the value. */
static const char *row_field(const char *t, const char *key, size_t *len)
{
	if (t[0] != '|')
		return NULL;
	const char *c = t + 1;
	while (*c == ' ' || *c == '*')
		c++;
	const char *bar = strchr(c, '|');
	if (!bar || !prose_key_match(c, key))
		return NULL;
	/* the whole first cell is the key (and emphasis, a parenthetical) */
	const char *k = c + strlen(key);
	while (k < bar && (*k == ' ' || *k == '*'))
		k++;
	if (k < bar && *k != '(' && strncmp(k, "\xEF\xBC\x88", 3) != 0)
		return NULL;
	const char *v = bar + 1;
	size_t l = strlen(v);
	while (l && (v[l - 1] == ' ' || v[l - 1] == '|' || v[l - 1] == '\t'))
		l--;
	while (l && (*v == ' ' || *v == '*')) {
		v++;
		l--;
	}
	*len = l;
	return l ? v : NULL;
}

static const char *field(const struct ptlog *log, const struct ptlog_event *ev,
			 const char *const *keys, size_t *len, long *line)
{
	for (size_t i = 0; keys[i]; i++) {
		const char *v = ptlog_event_field(log, ev, keys[i], len, line);
		if (v)
			return v;
	}
	/* the other ways a RESULT states its fields: clauses of one line, rows
	 * of a key | value table */
	for (long l = ev->line; l <= ev->end && l <= (long)log->text.nlines; l++) {
		const char *t = log->text.lines[l - 1];
		for (size_t i = 0; keys[i]; i++) {
			const char *v = clause_field(t, keys[i], len);
			if (!v)
				v = row_field(t, keys[i], len);
			if (v) {
				if (line)
					*line = l;
				return v;
			}
		}
	}
	return NULL;
}

static int only_arrow(const char *s, size_t a, size_t b)
{
	int arrow = 0;
	for (size_t i = a; i < b;) {
		if (s[i] == ' ') {
			i++;
		} else if (strncmp(s + i, "\xE2\x86\x92", 3) == 0 || strncmp(s + i, "\xE2\x87\x92", 3) == 0) {
			arrow = 1;
			i += 3;
		} else if (strncmp(s + i, "->", 2) == 0 || strncmp(s + i, "=>", 2) == 0) {
			arrow = 1;
			i += 2;
		} else {
			return 0;
		}
	}
	return arrow;
}

static int opens_paren(const char *s, size_t a, size_t b)
{
	if (b - a > 8)
		return 0;
	for (size_t i = a; i < b; i++)
		if (s[i] == '(' || (s[i] == '\xEF' && i + 2 < b + 3 && strncmp(s + i, "\xEF\xBC\x88", 3) == 0))
			return 1;
	return 0;
}

struct change {
	double a, b, stated;
	long line;
};

/* Appends the change a → b stated as x% at out[k]; returns k + 1. */
static size_t put_change(struct change *out, size_t k, double a, double b, double x, long line)
{
	out[k].a = a;
	out[k].b = b;
	out[k].stated = x;
	out[k].line = line;
	return k + 1;
}

/* "a → b (x%)" triples of a line. */
static size_t triples(const char *line, long lineno, struct change *out, size_t max)
{
	struct prose_num nums[64];
	size_t n = prose_numbers(line, nums, 64), k = 0;
	for (size_t i = 0; i + 2 < n && k < max; i++) {
		if (nums[i].unit == PROSE_PCT || nums[i + 1].unit == PROSE_PCT || nums[i + 2].unit != PROSE_PCT)
			continue;
		if (!only_arrow(line, nums[i].end, nums[i + 1].pos) ||
		    !opens_paren(line, nums[i + 1].end, nums[i + 2].pos) || nums[i].v == 0)
			continue;
		k = put_change(out, k, nums[i].v, nums[i + 1].v, nums[i + 2].v, lineno);
		i += 2;
	}
	return k;
}

/* The same in a table row: cells before | after | change% side by side
 * (`| 1 | 0.747 | 0.724 | -3.1% | 14.6 | 15.1 | +3.2% |`). */
static size_t table_triples(const char *line, long lineno, struct change *out, size_t max)
{
	struct prose_num v[24];
	int ok[24];
	size_t nc = 0, k = 0;
	for (const char *p = strchr(line, '|'); p && p[1] && nc < 24;) {
		const char *e = strchr(p + 1, '|');
		if (!e)
			break;
		char cell[128];
		size_t l = (size_t)(e - p - 1) < sizeof(cell) - 1 ? (size_t)(e - p - 1) : sizeof(cell) - 1;
		memcpy(cell, p + 1, l);
		cell[l] = '\0';
		struct prose_num n[2];
		ok[nc] = prose_numbers(cell, n, 2) == 1;
		v[nc] = n[0];
		nc++;
		p = e;
	}
	for (size_t i = 0; i + 2 < nc && k < max; i++) {
		if (!ok[i] || !ok[i + 1] || !ok[i + 2] || v[i].unit == PROSE_PCT || v[i + 1].unit == PROSE_PCT ||
		    v[i + 2].unit != PROSE_PCT || !v[i].decimal || v[i].v == 0)
			continue;
		k = put_change(out, k, v[i].v, v[i + 1].v, v[i + 2].v, lineno);
		i += 2;
	}
	return k;
}

/* A stated change agrees with a -> b: as the change of the quantity
 * ((b - a) / a, within 1 point), or, for a time that fell, as a speed-up
 * (a / b - 1: 177.48 -> 23.6 written +650%, within 1 point or 1%). */
static int change_within(double a, double b, double stated, double tol)
{
	if (a == 0)
		return 0;
	double c = prose_pct(a, b);
	if (fabs(c - stated) <= tol)
		return 1;
	if (b > 0 && a > 0) {
		double sp = (a / b - 1) * 100;
		if (fabs(sp - stated) <= tol || fabs(sp - stated) <= tol / 100 * fabs(sp))
			return 1;
	}
	return 0;
}

static int change_agrees(double a, double b, double stated)
{
	return change_within(a, b, stated, PP);
}

/* Figures found by search (a RESULT's own numbers against the bases it
 * may mean) must agree closely: a percentage as written, to its rounding. */
#define SEARCH_PP 0.15

/* Every number of a field (a RESULT may give two runs and their mean). */
static size_t field_numbers(const char *v, size_t len, double *out, size_t max)
{
	char buf[1024];
	if (!v)
		return 0;
	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, v, len);
	buf[len] = '\0';
	struct prose_num nums[32];
	size_t n = prose_numbers(buf, nums, 32), k = 0;
	for (size_t i = 0; i < n && k < max; i++)
		if (nums[i].unit != PROSE_PCT && nums[i].decimal && nums[i].v > 0)
			out[k++] = nums[i].v;
	/* means of pairs: "run1 0.3981, run2 0.4015" */
	size_t m = k;
	for (size_t i = 0; i + 1 < m && k < max; i++)
		out[k++] = (out[i] + out[i + 1]) / 2;
	return k;
}

/* The comparison names a reference ("vs iter2", "相对 ... 均值", "against
 * the mean of two runs"): the text after the percentage says what it is
 * measured against. */
static int names_reference(const char *v, size_t len)
{
	static const char *const refs[] = { "vs", "versus", "against", "relative", "compared",
					    "\xE7\x9B\xB8\xE5\xAF\xB9" /* 相对 */, "\xE5\xAF\xB9\xE6\xAF\x94" /* 对比 */,
					    "\xE5\x9D\x87\xE5\x80\xBC" /* 均值 */, "mean", "average", "avg",
					    "iter", "\xE8\xBF\xAD\xE4\xBB\xA3" /* 迭代 */, NULL };
	return prose_contains_any(v, len, refs);
}

/* The iteration a comparison names ("vs iter2", "vs #2", "vs RESULT-#2"),
 * -1 when none. */
static int named_iteration(const char *v, size_t len)
{
	char buf[512];
	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, v, len);
	buf[len] = '\0';
	static const char *const keys[] = { "iter", "#", "Iteration ", "\xE8\xBF\xAD\xE4\xBB\xA3" /* 迭代 */, NULL };
	for (size_t i = 0; keys[i]; i++) {
		const char *p = text_find_ci(buf, keys[i]);
		if (!p)
			continue;
		p += strlen(keys[i]);
		while (*p == ' ')
			p++;
		if (*p >= '0' && *p <= '9')
			return (int)strtol(p, NULL, 10);
	}
	return -1;
}

static int perf_figure(const char *v, size_t len, double *x, int *kind)
{
	return pt_figure(v, len, x, kind);
}

#define MAXF 48

/* The figures an iteration or RESULT-#n reports (its performance, the
 * perf_log iteration n's candidate figures). */
static size_t iteration_figures(const struct pt_folder *f, const struct pt_logfile *lf, int n,
				double *out, size_t max)
{
	size_t k = 0;
	const struct ptlog *log = &lf->log;
	for (size_t i = 0; i < log->nev && k < max; i++) {
		const struct ptlog_event *e = &log->ev[i];
		if (e->tag != PTLOG_RESULT || e->num != n)
			continue;
		size_t l;
		const char *pv = field(log, e, PERF, &l, NULL);
		k += field_numbers(pv, pv ? l : 0, out + k, max - k);
	}
	if (f->has_perf && n >= 1 && (size_t)n <= f->perf.nit) {
		const struct ptperf_iter *it = &f->perf.it[n - 1];
		for (size_t m = 0; m < it->nm && k < max; m++) {
			struct pt_eval e;
			pt_eval_meas(&it->m[m], &e);
			for (size_t p = 0; p < e.npairs && k < max; p++)
				if (isfinite(e.cand_raw[p]) && e.cand_raw[p] > 0)
					out[k++] = e.cand_raw[p];
		}
	}
	return k;
}

/* Returned by a reconciling step that did not settle the comparison. */
#define NEXT 1

/* One RESULT under check: its fields, the changes it quotes, the
 * percentages its comparison states and the figures it reports. */
struct rcheck {
	const struct pt_folder *f;
	const struct pt_logfile *lf;
	const struct ptlog *log;
	size_t idx;
	struct gate_findings *fs;
	struct ptlog_event ev; /* the RESULT, grouped over its lines */
	char name[32];
	const char *prec, *perf, *cmp;
	size_t plen, flen, clen;
	long pline, fline, cline;
	struct change ch[32];
	size_t n;
	double pcts[8], s;
	size_t np;
	char others[128];      /* " (nor its other figure ...)" for several pcts */
	double mine[MAXF], bases[MAXF];
	size_t nmine, ncmp;
	double pa[8], pb[8];   /* `X (baseline Y)` in its performance: Y → X */
	size_t npair;
	char perfbuf[2048];    /* a performance stated by the table under its bullet */
};

/* The RESULT's name as findings quote it ("[RESULT-#3a]") into r->name. */
static void result_name(struct rcheck *r)
{
	const struct ptlog_event *ev = &r->ev;
	if (ev->num > 0 && ev->sub)
		snprintf(r->name, sizeof(r->name), "[RESULT-#%d%c]", ev->num, ev->sub);
	else if (ev->num > 0)
		snprintf(r->name, sizeof(r->name), "[RESULT-#%d]", ev->num);
	else
		snprintf(r->name, sizeof(r->name), "[RESULT]");
}

static int blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return *s == '\0';
}

/* A performance field with an empty value ("- 性能 (cann-bench, run
 * ...):") states what follows it: the sub-bullet below it, or the table
 * after it (blank lines between), whose rows are joined into r->perfbuf. */
static void perf_below(struct rcheck *r)
{
	const struct ptlog *log = r->log;
	long l = r->fline + 1;
	while (l <= r->ev.end && blank(log->text.lines[l - 1]))
		l++;
	if (l > r->ev.end)
		return;
	const char *nx = log->text.lines[l - 1];
	if (l == r->fline + 1 && (nx[0] == ' ' || nx[0] == '\t')) {
		while (*nx == ' ' || *nx == '\t' || *nx == '-' || *nx == '*')
			nx++;
		r->flen = strlen(r->perf = nx);
		return;
	}
	size_t used = 0;
	for (; l <= r->ev.end && log->text.lines[l - 1][0] == '|'; l++) {
		int w = snprintf(r->perfbuf + used, sizeof(r->perfbuf) - used, "%s ", log->text.lines[l - 1]);
		if (w < 0 || (size_t)w >= sizeof(r->perfbuf) - used)
			break;
		used += (size_t)w;
	}
	if (used) {
		r->perf = r->perfbuf;
		r->flen = used;
	}
}

/* `X (baseline Y)`, `X (iter1 Y)`, `X（基线 Y）`: a figure followed by a
 * parenthetical naming what it is compared with and that one's figure, as
 * the change Y → X into r->pa, r->pb. */
static void perf_pairs(struct rcheck *r)
{
	char buf[1024];
	size_t len = r->flen < sizeof(buf) ? r->flen : sizeof(buf) - 1;
	memcpy(buf, r->perf, len);
	buf[len] = '\0';
	struct prose_num nums[32];
	size_t n = prose_numbers(buf, nums, 32);
	for (size_t i = 0; i + 1 < n && r->npair < 8; i++) {
		if (nums[i].unit == PROSE_PCT || nums[i + 1].unit == PROSE_PCT || nums[i + 1].v <= 0)
			continue;
		const char *a = buf + nums[i].end, *b = buf + nums[i + 1].pos;
		while (a < b && *a == ' ')
			a++;
		size_t open = *a == '(' ? 1 : strncmp(a, "\xEF\xBC\x88", 3) == 0 ? 3 : 0;
		if (!open || b - (a + open) > 24 || memchr(a + open, ')', (size_t)(b - a - open)))
			continue;
		/* the label names what the figure is compared with (not a run
		 * of the same measurement: "(run1 0.3981, run2 0.4015)") */
		static const char *const refs[] = { "baseline", "base", "\xE5\x9F\xBA\xE7\xBA\xBF" /* 基线 */,
						    "iter", "before", "prev", "vs", "was", "old", "round",
						    "\xE4\xBC\x98\xE5\x8C\x96\xE5\x89\x8D" /* 优化前 */,
						    "\xE5\x8E\x9F" /* 原 */, "\xE4\xB8\x8A\xE4\xB8\x80" /* 上一 */, NULL };
		if (!prose_contains_any(a + open, (size_t)(b - a - open), refs) ||
		    text_find_ci(a, "run") == a + open)
			continue;
		r->pa[r->npair] = nums[i + 1].v;
		r->pb[r->npair] = nums[i].v;
		r->npair++;
	}
}

/* Its precision, performance and comparison fields. A RESULT with no
 * comparison field whose performance states a signed change (`性能: -0.4%
 * mean speedup`) or `X (baseline Y)` compares in its performance. */
static void read_fields(struct rcheck *r)
{
	const struct ptlog *log = r->log;
	r->prec = field(log, &r->ev, PREC, &r->plen, &r->pline);
	r->perf = field(log, &r->ev, PERF, &r->flen, &r->fline);
	r->cmp = field(log, &r->ev, CMP, &r->clen, &r->cline);
	if (r->perf && r->flen == 0)
		perf_below(r);
	if (r->perf)
		perf_pairs(r);
	double pct[2];
	if (!r->cmp && r->perf && r->perf != r->perfbuf &&
	    (r->npair || pt_signed_pcts(r->perf, r->flen, pct, 2))) {
		r->cmp = r->perf;
		r->clen = r->flen;
		r->cline = r->fline;
	}
}

/* What may state a field the RESULT has no labelled line for: the first
 * line of the RESULT after its heading that says something of that kind
 * (0 none). Precision: a verdict or an error measure (pass, 通过,
 * max_abs, ...); performance: a time or a speed-up factor; comparison: a
 * percentage, or words that compare (vs, 噪声, 持平, no change). */
static long stated_anyway(const struct rcheck *r, int what)
{
	static const char *const prec[] = { "pass", "fail", "\xE9\x80\x9A\xE8\xBF\x87" /* 通过 */, "max_abs",
					    "allclose", "mere", "\xE8\xAF\xAF\xE5\xB7\xAE" /* 误差 */, "correct",
					    "\xE6\xAD\xA3\xE7\xA1\xAE" /* 正确 */, "\xE4\xB8\x80\xE8\x87\xB4" /* 一致 */,
					    NULL };
	static const char *const cmp[] = { "vs", "noise", "\xE5\x99\xAA\xE5\xA3\xB0" /* 噪声 */,
					   "\xE6\x8C\x81\xE5\xB9\xB3" /* 持平 */, "no change",
					   "\xE6\x97\xA0\xE5\x8F\x98\xE5\x8C\x96" /* 无变化 */, "unchanged", NULL };
	for (long l = r->ev.line + 1; l <= r->ev.end && l <= (long)r->log->text.nlines; l++) {
		const char *t = r->log->text.lines[l - 1];
		if (what == 0 && prose_contains_any(t, (size_t)-1, prec))
			return l;
		struct prose_num nums[16];
		size_t n = prose_numbers(t, nums, 16);
		for (size_t i = 0; i < n; i++) {
			enum prose_unit u = nums[i].unit;
			if (what == 1 && (u == PROSE_MS || u == PROSE_US || u == PROSE_NS || u == PROSE_S || u == PROSE_X))
				return l;
			if (what == 2 && u == PROSE_PCT)
				return l;
		}
		if (what == 2 && prose_contains_any(t, (size_t)-1, cmp))
			return l;
	}
	return 0;
}

/* The fields the RESULT does not state: an error listing them when
 * nothing in the RESULT could state one of them; a warning quoting the
 * line that may state each, and saying it was taken as stated, when every
 * one of them is written in words the gate does not read as that field
 * (`- Accuracy check — all PASS`). 0, -1 on allocation failure. */
static int check_missing(struct rcheck *r)
{
	static const char *const names[] = { "precision (精度)", "performance (性能)", "comparison (对比)" };
	int miss[3] = { !r->prec || pt_is_na(r->prec, r->plen), !r->perf || pt_is_na(r->perf, r->flen),
			!r->cmp || pt_is_na(r->cmp, r->clen) };
	long at[3] = { 0, 0, 0 };
	size_t nm = 0, nat = 0;
	char list[160] = "";
	for (int i = 0; i < 3; i++) {
		if (!miss[i])
			continue;
		at[i] = stated_anyway(r, i);
		nat += at[i] != 0;
		strncat(list, nm++ ? ", " : "", sizeof(list) - strlen(list) - 1);
		strncat(list, names[i], sizeof(list) - strlen(list) - 1);
	}
	if (!nm)
		return 0;
	if (nat < nm)
		return gate_add(r->fs, RULE, GATE_ERROR, r->lf->shown, r->ev.line, "%s states no %s", r->name, list)
			       ? -1 : 0;
	char quoted[600] = "";
	size_t used = 0;
	for (int i = 0; i < 3 && used < sizeof(quoted); i++) {
		if (!miss[i])
			continue;
		int w = snprintf(quoted + used, sizeof(quoted) - used, "%s%s from line %ld ('%.100s')",
				 used ? "; " : "", names[i], at[i], prose_strip_lead(r->log->text.lines[at[i] - 1], NULL));
		if (w > 0)
			used += (size_t)w;
	}
	return gate_add(r->fs, RULE, GATE_WARNING, r->lf->shown, r->ev.line,
			"%s labels no %s as the template does; assumed stated: %s", r->name, list, quoted)
		       ? -1 : 0;
}

/* Collects the "a → b (x%)" triples of the RESULT's lines into r->ch and
 * reports each whose x is wrong; 0, -1 on allocation failure. */
static int check_triples(struct rcheck *r)
{
	struct change *ch = r->ch;
	for (long l = r->ev.line; l <= r->ev.end && r->n < 32; l++) {
		const char *t = r->log->text.lines[l - 1];
		/* a table row: before | after | change cells, or `a → b (x%)` in a cell */
		if (t[0] == '|')
			r->n += table_triples(t, l, ch + r->n, 32 - r->n);
		r->n += triples(t, l, ch + r->n, 32 - r->n);
	}
	for (size_t i = 0; i < r->n; i++) {
		double c = prose_pct(ch[i].a, ch[i].b);
		if (!change_agrees(ch[i].a, ch[i].b, ch[i].stated) &&
		    gate_add(r->fs, RULE, GATE_ERROR, r->lf->shown, ch[i].line,
			     "%s quotes %g → %g as %+g%%, but the change is %+.1f%% (a speed-up of %+.1f%%)", r->name,
			     ch[i].a, ch[i].b, ch[i].stated, c, ch[i].b != 0 ? (ch[i].a / ch[i].b - 1) * 100 : 0))
			return -1;
	}
	return 0;
}

/* 1 when a stated percentage equals one the RESULT quotes on another
 * line of several signed figures (small shapes -13.0%, overall -4.4%). */
static int quoted_elsewhere(const struct rcheck *r)
{
	for (long l = r->ev.line; l <= r->ev.end; l++) {
		if (l == r->cline)
			continue;
		struct prose_num nums[32];
		size_t k = prose_numbers(r->log->text.lines[l - 1], nums, 32), npl = 0;
		for (size_t i = 0; i < k; i++)
			npl += nums[i].unit == PROSE_PCT && nums[i].sign;
		if (npl < 2)
			continue; /* only a line of several labelled figures */
		for (size_t i = 0; i < k; i++)
			for (size_t j = 0; j < r->np; j++)
				if (nums[i].unit == PROSE_PCT && fabs(nums[i].v - r->pcts[j]) <= 0.05)
					return 1;
	}
	return 0;
}

/* 1 when a stated percentage is the change of a triple the RESULT quotes,
 * or of a `X (baseline Y)` of its performance. */
static int agrees_with_triples(const struct rcheck *r)
{
	for (size_t i = 0; i < r->n; i++)
		for (size_t j = 0; j < r->np; j++)
			if (change_agrees(r->ch[i].a, r->ch[i].b, r->pcts[j]))
				return 1;
	for (size_t i = 0; i < r->npair; i++)
		for (size_t j = 0; j < r->np; j++)
			if (change_agrees(r->pa[i], r->pb[i], r->pcts[j]))
				return 1;
	return 0;
}

/* Fills r->mine (the figures the RESULT reports) and r->bases (those its
 * comparison quotes, r->ncmp of them first, then the iteration it names,
 * then the previous RESULT's, rolled back or not); 1 when a stated
 * percentage is the change from a base to one of its own figures. */
static int agrees_with_bases(struct rcheck *r)
{
	const struct ptlog *log = r->log;
	size_t nb = 0;
	r->nmine = field_numbers(r->perf, r->perf ? r->flen : 0, r->mine, MAXF);
	nb += field_numbers(r->cmp, r->clen, r->bases + nb, MAXF - nb);
	r->ncmp = nb;
	int named = named_iteration(r->cmp, r->clen);
	if (named >= 0)
		nb += iteration_figures(r->f, r->lf, named, r->bases + nb, MAXF - nb);
	for (size_t j = r->idx; j-- > 0 && nb < MAXF;) {
		const struct ptlog_event *pe = &log->ev[j];
		if (pe->tag != PTLOG_RESULT)
			continue;
		size_t l2;
		const char *pv = field(log, pe, PERF, &l2, NULL);
		if (!pv)
			continue;
		nb += field_numbers(pv, l2, r->bases + nb, MAXF - nb);
		break;
	}
	for (size_t a = 0; a < r->nmine; a++)
		for (size_t b = 0; b < nb; b++)
			for (size_t j = 0; j < r->np; j++)
				if (r->bases[b] != r->mine[a] && change_within(r->bases[b], r->mine[a], r->pcts[j], SEARCH_PP))
					return 1;
	return 0;
}

/* 1 when a stated percentage is one perf_log iteration it states, or the
 * change of one of its baseline/candidate pairs. */
static int agrees_with_iteration(const struct rcheck *r, const struct ptperf_iter *it)
{
	for (size_t k = 0; k < it->nm; k++) {
		struct pt_eval e;
		pt_eval_meas(&it->m[k], &e);
		for (size_t p = 0; p < e.npairs; p++)
			for (size_t j = 0; j < r->np; j++) {
				if (isfinite(e.stated[p]) && fabs(e.stated[p] - r->pcts[j]) <= PP)
					return 1;
				if (isfinite(e.base[p]) && isfinite(e.cand[p]) && e.base[p] != 0 &&
				    change_agrees(e.base[p], e.cand[p], r->pcts[j]))
					return 1;
			}
	}
	return 0;
}

/* Against the first perf_log iteration whose optimization names this item
 * ("#N"): 0 or -1 (allocation) when there is one, NEXT when none. */
static int check_item_iteration(const struct rcheck *r)
{
	if (!r->f->has_perf || r->ev.num <= 0)
		return NEXT;
	char tag[16];
	snprintf(tag, sizeof(tag), "#%d", r->ev.num);
	for (size_t i = 0; i < r->f->perf.nit; i++) {
		const struct ptperf_iter *it = &r->f->perf.it[i];
		if (!it->optimization.value || !strstr(it->optimization.value, tag))
			continue;
		if (agrees_with_iteration(r, it))
			return 0;
		if (names_reference(r->cmp, r->clen))
			return gate_add(r->fs, RULE, GATE_WARNING, r->lf->shown, r->cline,
					"%s compares %+g%% against a reference it names ('%.*s'), which matches no figure found: assumed right, not verified",
					r->name, r->s, (int)(r->clen > 120 ? 120 : r->clen), r->cmp) ? -1 : 0;
		return gate_add(r->fs, RULE, GATE_ERROR, r->lf->shown, r->cline,
				"%s compares %+g%%%s, which matches no figure of '%s' (%s line %ld)", r->name, r->s,
				r->others, it->title, r->f->perf_shown, it->line) ? -1 : 0;
	}
	return NEXT;
}

/* One-line form ("性能: 12.3 us | 对比: -5%") against the latest earlier
 * RESULT with a figure of the same kind: 0 or -1 when there is one, NEXT
 * when none. */
static int check_previous_result(const struct rcheck *r)
{
	double x;
	int kind;
	if (!r->perf || !perf_figure(r->perf, r->flen, &x, &kind) || names_reference(r->cmp, r->clen))
		return NEXT;
	for (size_t j = r->idx; j-- > 0;) {
		const struct ptlog_event *pe = &r->log->ev[j];
		if (pe->tag != PTLOG_RESULT)
			continue;
		size_t l2;
		const char *pv = field(r->log, pe, PERF, &l2, NULL);
		double y;
		int k2;
		if (!pv || !perf_figure(pv, l2, &y, &k2) || k2 != kind || y == 0)
			continue;
		double c = prose_pct(y, x);
		return gate_add(r->fs, RULE, GATE_ERROR, r->lf->shown, r->cline,
				"%s compares %+g%%%s, but its performance %g against the previous RESULT's %g (line %ld) is %+.1f%%",
				r->name, r->s, r->others, x, y, pe->line, c) ? -1 : 0;
	}
	return NEXT;
}

/* The comparison stated by a RESULT, reconciled with what it may be
 * measured against, most specific first; 0, -1 on allocation failure. */
static int check_comparison(struct rcheck *r)
{
	r->np = r->cmp ? pt_signed_pcts(r->cmp, r->clen, r->pcts, 8) : 0;
	if (r->np == 0)
		return 0; /* qualitative comparison: nothing to reconcile */
	r->s = r->pcts[0];
	pt_other_figures(r->pcts, r->np, 0, 1, r->others, sizeof(r->others));
	if (quoted_elsewhere(r) || agrees_with_triples(r) || agrees_with_bases(r))
		return 0;
	if (r->n && !names_reference(r->cmp, r->clen))
		return gate_add(r->fs, RULE, GATE_ERROR, r->lf->shown, r->cline,
				"%s compares %+g%%%s, which matches none of the changes it quotes (first: %g → %g, %+.1f%%)",
				r->name, r->s, r->others, r->ch[0].a, r->ch[0].b, prose_pct(r->ch[0].a, r->ch[0].b)) ? -1 : 0;
	if (r->npair && r->np == 1)
		return gate_add(r->fs, RULE, GATE_ERROR, r->lf->shown, r->cline,
				"%s compares %+g%%, but its performance %g against the %g it names beside it (line %ld) is %+.1f%%",
				r->name, r->s, r->pb[0], r->pa[0], r->fline, prose_pct(r->pa[0], r->pb[0])) ? -1 : 0;
	/* the comparison quotes what it compares with, the RESULT its own
	 * figure: both stated, the percentage follows from them */
	if (r->ncmp && r->nmine && !r->n && r->np == 1)
		return gate_add(r->fs, RULE, GATE_ERROR, r->lf->shown, r->cline,
				"%s compares %+g%%, but its performance %g against the figure its comparison quotes (%g) is %+.1f%%",
				r->name, r->s, r->mine[0], r->bases[0], prose_pct(r->bases[0], r->mine[0])) ? -1 : 0;
	int rc = check_item_iteration(r);
	if (rc == NEXT)
		rc = check_previous_result(r);
	if (rc != NEXT)
		return rc;
	return gate_add(r->fs, RULE, GATE_WARNING, r->lf->shown, r->cline,
			"%s compares %+g%% (line: '%.*s') but no before/after figures, earlier RESULT or perf_log iteration it quotes gives it: assumed right, not verified",
			r->name, r->s, (int)(r->clen > 120 ? 120 : r->clen), r->cmp) ? -1 : 0;
}

static int check_result(const struct pt_folder *f, const struct pt_logfile *lf, size_t idx,
			struct gate_findings *fs)
{
	struct rcheck r;
	memset(&r, 0, sizeof(r));
	r.f = f;
	r.lf = lf;
	r.log = &lf->log;
	r.idx = idx;
	r.fs = fs;
	/* one RESULT written over several [RESULT-#N] lines is one event
	 * (io/ptlog.c) */
	r.ev = r.log->ev[idx];
	result_name(&r);
	read_fields(&r);
	if (check_missing(&r) || check_triples(&r))
		return -1;
	return check_comparison(&r);
}

int pt_rule_result(const struct pt_folder *f, struct gate_findings *fs)
{
	for (size_t i = 0; i < f->nlogs; i++) {
		const struct pt_logfile *lf = &f->logs[i];
		if (pt_check_agg_rows(&lf->log.text, lf->shown, RULE, fs))
			return -1;
		for (size_t k = 0; k < lf->log.nev; k++) {
			const struct ptlog_event *e = &lf->log.ev[k];
			if (e->tag == PTLOG_RESULT && check_result(f, lf, k, fs))
				return -1;
		}
	}
	return 0;
}
