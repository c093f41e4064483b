/* pt_result.c: PT-RESULT, each [RESULT] states precision, performance and
 * a comparison; every "a → b (x%)" it quotes is right within 1 percentage
 * point, and its comparison agrees with the figures it quotes, or with
 * the previous RESULT's performance (one-line form), or with the perf_log
 * iteration of the same item. */
#include "gates/pt_rules.h"

#include <math.h>
#include <stdio.h>
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

/* The comparison's own percentage: signed, not a threshold ("< 3% 噪声阈值"). */
static int cmp_pct(const char *v, size_t len, double *out)
{
	char buf[512];
	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, v, len);
	buf[len] = '\0';
	struct ptlog_num nums[16];
	size_t n = ptlog_numbers(buf, nums, 16);
	for (size_t i = 0; i < n; i++) {
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
		*out = nums[i].v;
		return 1;
	}
	return 0;
}

static int perf_figure(const char *v, size_t len, double *x, int *kind)
{
	return pt_figure(v, len, x, kind);
}

static int check_result(const struct pt_folder *f, const struct pt_logfile *lf, size_t idx,
			struct gate_findings *fs)
{
	const struct ptlog *log = &lf->log;
	const struct ptlog_event *ev = &log->ev[idx];
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
		if (fabs(c - ch[i].stated) > PP &&
		    gate_add(fs, RULE, GATE_ERROR, lf->shown, ch[i].line,
			     "%s quotes %g → %g as %+g%%, but the change is %+.1f%%", name, ch[i].a, ch[i].b,
			     ch[i].stated, c))
			return -1;
	}
	double s;
	if (!cmp || !cmp_pct(cmp, clen, &s))
		return 0; /* qualitative comparison: nothing to reconcile */
	if (n) {
		for (size_t i = 0; i < n; i++)
			if (fabs(ptlog_pct(ch[i].a, ch[i].b) - s) <= PP)
				return 0;
		return gate_add(fs, RULE, GATE_ERROR, lf->shown, cline,
				"%s compares %+g%%, which matches none of the changes it quotes (first: %g → %g, %+.1f%%)",
				name, s, ch[0].a, ch[0].b, ptlog_pct(ch[0].a, ch[0].b)) ? -1 : 0;
	}
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
				for (size_t p = 0; p < e.npairs; p++) {
					if (isfinite(e.stated[p]) && fabs(e.stated[p] - s) <= PP)
						return 0;
					if (isfinite(e.base[p]) && isfinite(e.cand[p]) && e.base[p] != 0 &&
					    fabs(ptlog_pct(e.base[p], e.cand[p]) - s) <= PP)
						return 0;
				}
			}
			return gate_add(fs, RULE, GATE_ERROR, lf->shown, cline,
					"%s compares %+g%%, which matches no figure of '%s' (%s line %ld)", name, s,
					it->title, f->perf_shown, it->line) ? -1 : 0;
		}
	}
	/* one-line form: "性能: 12.3 us | 对比: -5%" against the previous RESULT */
	double x;
	int kind;
	if (perf && perf_figure(perf, flen, &x, &kind)) {
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
			if (fabs(c - s) <= PP)
				return 0;
			return gate_add(fs, RULE, GATE_ERROR, lf->shown, cline,
					"%s compares %+g%%, but its performance %g against the previous RESULT's %g (line %ld) is %+.1f%%",
					name, s, x, y, pe->line, c) ? -1 : 0;
		}
	}
	return gate_add(fs, RULE, GATE_WARNING, lf->shown, cline,
			"%s compares %+g%% but quotes no before/after figures, and no earlier RESULT or perf_log iteration gives a baseline: not verified",
			name, s) ? -1 : 0;
}

int pt_rule_result(const struct pt_folder *f, struct gate_findings *fs)
{
	for (size_t i = 0; i < f->nlogs; i++) {
		const struct pt_logfile *lf = &f->logs[i];
		for (size_t k = 0; k < lf->log.nev; k++)
			if (lf->log.ev[k].tag == PTLOG_RESULT && check_result(f, lf, k, fs))
				return -1;
	}
	return 0;
}
