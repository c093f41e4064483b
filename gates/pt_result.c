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

static const char *const PREC[] = { "\xE7\xB2\xBE\xE5\xBA\xA6", "precision", NULL };
static const char *const PERF[] = { "\xE6\x80\xA7\xE8\x83\xBD" /* 性能 */, "performance", "perf", "latency",
				    "\xE8\x80\x97\xE6\x97\xB6" /* 耗时 */, "time", NULL };
static const char *const CMP[] = { "\xE5\xAF\xB9\xE6\xAF\x94" /* 对比 */, "comparison", "compare", "vs",
				   "improvement", "\xE6\x8F\x90\xE5\x8D\x87" /* 提升 */, NULL };

static const char *field(const struct ptlog *log, const struct ptlog_event *ev,
			 const char *const *keys, size_t *len, long *line)
{
	for (size_t i = 0; keys[i]; i++) {
		const char *v = ptlog_event_field(log, ev, keys[i], len, line);
		if (v)
			return v;
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

/* "a → b (x%)" triples of a line. */
static size_t triples(const char *line, long lineno, struct change *out, size_t max)
{
	struct ptlog_num nums[64];
	size_t n = ptlog_numbers(line, nums, 64), k = 0;
	for (size_t i = 0; i + 2 < n && k < max; i++) {
		if (nums[i].unit == PTLOG_PCT || nums[i + 1].unit == PTLOG_PCT || nums[i + 2].unit != PTLOG_PCT)
			continue;
		if (!only_arrow(line, nums[i].end, nums[i + 1].pos) ||
		    !opens_paren(line, nums[i + 1].end, nums[i + 2].pos) || nums[i].v == 0)
			continue;
		out[k].a = nums[i].v;
		out[k].b = nums[i + 1].v;
		out[k].stated = nums[i + 2].v;
		out[k].line = lineno;
		k++;
		i += 2;
	}
	return k;
}

/* The comparison's own percentages: signed, not thresholds ("< 3% 噪声阈值").
 * Stores at most max, returns how many. */
static size_t cmp_pcts(const char *v, size_t len, double *out, size_t max)
{
	char buf[512];
	size_t k = 0;
	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, v, len);
	buf[len] = '\0';
	struct ptlog_num nums[16];
	size_t n = ptlog_numbers(buf, nums, 16);
	for (size_t i = 0; i < n && k < max; i++) {
		if (nums[i].unit != PTLOG_PCT)
			continue;
		size_t p = nums[i].pos;
		while (p > 0 && buf[p - 1] == ' ')
			p--;
		if (p > 0 && (buf[p - 1] == '<' || buf[p - 1] == '>' || buf[p - 1] == '~'))
			continue;
		if (p >= 3 && (strncmp(buf + p - 3, "\xE2\x89\xA4", 3) == 0 || strncmp(buf + p - 3, "\xE2\x89\xA5", 3) == 0))
			continue;
		static const char *const thr[] = { "\xE9\x98\x88\xE5\x80\xBC", "threshold", "\xE5\x99\xAA\xE5\xA3\xB0", "noise", NULL };
		if (ptlog_contains_any(buf + nums[i].end, strlen(buf + nums[i].end) > 16 ? 16 : strlen(buf + nums[i].end), thr))
			continue;
		if (!nums[i].sign)
			continue;
		out[k++] = nums[i].v;
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
	double c = ptlog_pct(a, b);
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
	struct ptlog_num nums[32];
	size_t n = ptlog_numbers(buf, nums, 32), k = 0;
	for (size_t i = 0; i < n && k < max; i++)
		if (nums[i].unit != PTLOG_PCT && nums[i].decimal && nums[i].v > 0)
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
	return ptlog_contains_any(v, len, refs);
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

static int check_result(const struct pt_folder *f, const struct pt_logfile *lf, size_t idx,
			size_t count, struct gate_findings *fs)
{
	const struct ptlog *log = &lf->log;
	/* one RESULT written over several [RESULT-#N] lines reads as one */
	struct ptlog_event grp = log->ev[idx];
	grp.end = log->ev[idx + count - 1].end;
	const struct ptlog_event *ev = &grp;
	char name[32];
	if (ev->num > 0 && ev->sub)
		snprintf(name, sizeof(name), "[RESULT-#%d%c]", ev->num, ev->sub);
	else if (ev->num > 0)
		snprintf(name, sizeof(name), "[RESULT-#%d]", ev->num);
	else
		snprintf(name, sizeof(name), "[RESULT]");
	size_t plen = 0, flen = 0, clen = 0;
	long pline = 0, fline = 0, cline = 0;
	const char *prec = field(log, ev, PREC, &plen, &pline);
	const char *perf = field(log, ev, PERF, &flen, &fline);
	const char *cmp = field(log, ev, CMP, &clen, &cline);
	/* "- 性能 (bench):" with the figures in sub-bullets below */
	if (perf && flen == 0 && fline < ev->end) {
		const char *nx = log->text.lines[fline];
		if (nx[0] == ' ' || nx[0] == '\t') {
			while (*nx == ' ' || *nx == '\t' || *nx == '-' || *nx == '*')
				nx++;
			flen = strlen(perf = nx);
		}
	}
	const char *missing[3];
	size_t nm = 0;
	if (!prec || pt_is_na(prec, plen))
		missing[nm++] = "precision (精度)";
	if (!perf || pt_is_na(perf, flen))
		missing[nm++] = "performance (性能)";
	if (!cmp || pt_is_na(cmp, clen))
		missing[nm++] = "comparison (对比)";
	if (nm) {
		char list[160] = "";
		for (size_t i = 0; i < nm; i++) {
			strncat(list, i ? ", " : "", sizeof(list) - strlen(list) - 1);
			strncat(list, missing[i], sizeof(list) - strlen(list) - 1);
		}
		if (gate_add(fs, RULE, GATE_ERROR, lf->shown, ev->line, "%s states no %s", name, list))
			return -1;
	}
	struct change ch[32];
	size_t n = 0;
	for (long l = ev->line; l <= ev->end && n < 32; l++)
		n += triples(log->text.lines[l - 1], l, ch + n, 32 - n);
	for (size_t i = 0; i < n; i++) {
		double c = ptlog_pct(ch[i].a, ch[i].b);
		if (!change_agrees(ch[i].a, ch[i].b, ch[i].stated) &&
		    gate_add(fs, RULE, GATE_ERROR, lf->shown, ch[i].line,
			     "%s quotes %g → %g as %+g%%, but the change is %+.1f%% (a speed-up of %+.1f%%)", name,
			     ch[i].a, ch[i].b, ch[i].stated, c, ch[i].b != 0 ? (ch[i].a / ch[i].b - 1) * 100 : 0))
			return -1;
	}
	double pcts[8];
	size_t np = cmp ? cmp_pcts(cmp, clen, pcts, 8) : 0;
	if (np == 0)
		return 0; /* qualitative comparison: nothing to reconcile */
	double s = pcts[0];
	/* any stated percentage equal to a percentage the RESULT quotes
	 * elsewhere (two figures on a line: small shapes -13.0%, overall -4.4%) */
	for (long l = ev->line; l <= ev->end; l++) {
		if (l == cline)
			continue;
		struct ptlog_num nums[32];
		size_t k = ptlog_numbers(log->text.lines[l - 1], nums, 32), npl = 0;
		for (size_t i = 0; i < k; i++)
			npl += nums[i].unit == PTLOG_PCT && nums[i].sign;
		if (npl < 2)
			continue; /* only a line of several labelled figures */
		for (size_t i = 0; i < k; i++)
			for (size_t j = 0; j < np; j++)
				if (nums[i].unit == PTLOG_PCT && fabs(nums[i].v - pcts[j]) <= 0.05)
					return 0;
	}
	if (n) {
		for (size_t i = 0; i < n; i++)
			for (size_t j = 0; j < np; j++)
				if (change_agrees(ch[i].a, ch[i].b, pcts[j]))
					return 0;
	}
	/* the figures this RESULT reports, and the bases it may be compared with */
	double mine[MAXF], bases[MAXF];
	size_t nmine = field_numbers(perf, perf ? flen : 0, mine, MAXF), nb = 0;
	nb += field_numbers(cmp, clen, bases + nb, MAXF - nb);
	size_t ncmp = nb; /* figures the comparison itself quotes */
	int named = named_iteration(cmp, clen);
	if (named >= 0)
		nb += iteration_figures(f, lf, named, bases + nb, MAXF - nb);
	/* the previous RESULT, rolled back or not */
	for (size_t j = idx; j-- > 0 && nb < MAXF;) {
		const struct ptlog_event *pe = &log->ev[j];
		if (pe->tag != PTLOG_RESULT)
			continue;
		size_t l2;
		const char *pv = field(log, pe, PERF, &l2, NULL);
		if (!pv)
			continue;
		nb += field_numbers(pv, l2, bases + nb, MAXF - nb);
		break;
	}
	for (size_t a = 0; a < nmine; a++)
		for (size_t b = 0; b < nb; b++)
			for (size_t j = 0; j < np; j++)
				if (bases[b] != mine[a] && change_within(bases[b], mine[a], pcts[j], SEARCH_PP))
					return 0;
	if (n && !names_reference(cmp, clen))
		return gate_add(fs, RULE, GATE_ERROR, lf->shown, cline,
				"%s compares %+g%%, which matches none of the changes it quotes (first: %g → %g, %+.1f%%)",
				name, s, ch[0].a, ch[0].b, ptlog_pct(ch[0].a, ch[0].b)) ? -1 : 0;
	/* the comparison quotes what it compares with, the RESULT its own
	 * figure: both stated, the percentage follows from them */
	if (ncmp && nmine && !n && np == 1)
		return gate_add(fs, RULE, GATE_ERROR, lf->shown, cline,
				"%s compares %+g%%, but its performance %g against the figure its comparison quotes (%g) is %+.1f%%",
				name, s, mine[0], bases[0], ptlog_pct(bases[0], mine[0])) ? -1 : 0;
	/* the perf_log iteration that names this item */
	if (f->has_perf && ev->num > 0) {
		char tag[16];
		snprintf(tag, sizeof(tag), "#%d", ev->num);
		for (size_t i = 0; i < f->perf.nit; i++) {
			const struct ptperf_iter *it = &f->perf.it[i];
			if (!it->optimization.value || !strstr(it->optimization.value, tag))
				continue;
			for (size_t k = 0; k < it->nm; k++) {
				struct pt_eval e;
				pt_eval_meas(&it->m[k], &e);
				for (size_t p = 0; p < e.npairs; p++)
					for (size_t j = 0; j < np; j++) {
						if (isfinite(e.stated[p]) && fabs(e.stated[p] - pcts[j]) <= PP)
							return 0;
						if (isfinite(e.base[p]) && isfinite(e.cand[p]) && e.base[p] != 0 &&
						    change_agrees(e.base[p], e.cand[p], pcts[j]))
							return 0;
					}
			}
			if (names_reference(cmp, clen))
				return gate_add(fs, RULE, GATE_WARNING, lf->shown, cline,
						"%s compares %+g%% against a reference it names ('%.*s'), which matches no figure found: assumed right, not verified",
						name, s, (int)(clen > 120 ? 120 : clen), cmp) ? -1 : 0;
			return gate_add(fs, RULE, GATE_ERROR, lf->shown, cline,
					"%s compares %+g%%, which matches no figure of '%s' (%s line %ld)", name, s,
					it->title, f->perf_shown, it->line) ? -1 : 0;
		}
	}
	/* one-line form: "性能: 12.3 us | 对比: -5%" against the previous RESULT */
	double x;
	int kind;
	if (perf && perf_figure(perf, flen, &x, &kind) && !names_reference(cmp, clen)) {
		for (size_t j = idx; j-- > 0;) {
			const struct ptlog_event *pe = &log->ev[j];
			if (pe->tag != PTLOG_RESULT)
				continue;
			size_t l2;
			const char *pv = field(log, pe, PERF, &l2, NULL);
			double y;
			int k2;
			if (!pv || !perf_figure(pv, l2, &y, &k2) || k2 != kind || y == 0)
				continue;
			double c = ptlog_pct(y, x);
			return gate_add(fs, RULE, GATE_ERROR, lf->shown, cline,
					"%s compares %+g%%, but its performance %g against the previous RESULT's %g (line %ld) is %+.1f%%",
					name, s, x, y, pe->line, c) ? -1 : 0;
		}
	}
	return gate_add(fs, RULE, GATE_WARNING, lf->shown, cline,
			"%s compares %+g%% (line: '%.*s') but no before/after figures, earlier RESULT or perf_log iteration it quotes gives it: assumed right, not verified",
			name, s, (int)(clen > 120 ? 120 : clen), cmp) ? -1 : 0;
}

int pt_rule_result(const struct pt_folder *f, struct gate_findings *fs)
{
	for (size_t i = 0; i < f->nlogs; i++) {
		const struct pt_logfile *lf = &f->logs[i];
		for (size_t k = 0; k < lf->log.nev; k++) {
			const struct ptlog_event *e = &lf->log.ev[k];
			if (e->tag != PTLOG_RESULT)
				continue;
			/* consecutive lines of the same [RESULT-#N] */
			size_t g = 1;
			while (k + g < lf->log.nev && lf->log.ev[k + g].tag == PTLOG_RESULT &&
			       lf->log.ev[k + g].num == e->num && e->num > 0 &&
			       lf->log.ev[k + g].sub == e->sub &&
			       lf->log.ev[k + g].line <= lf->log.ev[k + g - 1].end + 1)
				g++;
			if (check_result(f, lf, k, g, fs))
				return -1;
			k += g - 1;
		}
	}
	return 0;
}
