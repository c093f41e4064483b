/* pt_common.c: helpers the perf_tuning rules share (pt_rules.h). */
#include "gates/pt_rules.h"
#include "util/text.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int pt_close(double a, double b, double rel)
{
	if (!isfinite(a) || !isfinite(b))
		return 0;
	double m = fabs(b) > fabs(a) ? fabs(b) : fabs(a);
	return fabs(a - b) <= rel * m + 1e-12;
}

int pt_sig_digits(const char *line, const struct prose_num *n)
{
	int d = 0, lead = 1;
	for (size_t i = n->pos; i < n->end; i++) {
		if (!isdigit((unsigned char)line[i]))
			continue;
		if (lead && line[i] == '0')
			continue;
		lead = 0;
		d++;
	}
	return d;
}

double pt_us_per(enum prose_unit u)
{
	switch (u) {
	case PROSE_MS: return 1e3;
	case PROSE_US: return 1;
	case PROSE_NS: return 1e-3;
	case PROSE_S: return 1e6;
	default: return 0;
	}
}

int pt_is_na(const char *s, size_t len)
{
	while (len && (*s == ' ' || *s == '*' || *s == '`')) {
		s++;
		len--;
	}
	if (len == 0)
		return 1;
	static const char *const na[] = { "N/A", "n/a", "NA", "none", "None", "null", "-", "\xE2\x80\x94",
					   "\xE6\x97\xA0" /* 无 */, "TBD", NULL };
	for (size_t i = 0; na[i]; i++) {
		size_t l = strlen(na[i]);
		if (len < l || strncmp(s, na[i], l) != 0)
			continue;
		/* "N/A (first iter)" is N/A; "无变化" and "None of the attempts
		 * helped" are reasons */
		size_t k = l;
		while (k < len && s[k] == ' ')
			k++;
		if (k == len || s[k] == '(' || s[k] == ',' || s[k] == ';' || s[k] == '.' ||
		    (len - k >= 3 && (strncmp(s + k, "\xEF\xBC\x88", 3) == 0 || strncmp(s + k, "\xEF\xBC\x8C", 3) == 0)))
			return 1;
	}
	return 0;
}

int pt_adopted(const char *s)
{
	if (!s)
		return -1;
	while (*s == ' ' || *s == '*')
		s++;
	static const char *const yes[] = { "yes", "true", "adopted", "kept", "\xE6\x98\xAF" /* 是 */,
					   "\xE9\x87\x87\xE7\xBA\xB3" /* 采纳 */, "\xE2\x9C\x85", NULL };
	static const char *const no[] = { "no", "false", "rolled", "rollback", "reverted",
					  "\xE5\x90\xA6" /* 否 */, "\xE4\xB8\x8D" /* 不 */, "\xE5\x9B\x9E\xE6\xBB\x9A" /* 回滚 */,
					  "\xE2\x9D\x8C", NULL };
	for (size_t i = 0; no[i]; i++) {
		size_t l = strlen(no[i]);
		if (strncasecmp(s, no[i], l) == 0 && !isalpha((unsigned char)s[l]))
			return 0;
	}
	for (size_t i = 0; yes[i]; i++) {
		size_t l = strlen(yes[i]);
		if (strncasecmp(s, yes[i], l) == 0 && !isalpha((unsigned char)s[l]))
			return 1;
	}
	return -1;
}

static int unit_kind(enum prose_unit u)
{
	switch (u) {
	case PROSE_MS:
	case PROSE_US:
	case PROSE_NS:
	case PROSE_S:
		return -1;
	case PROSE_X:
		return 1;
	default:
		return 0;
	}
}

static int figure(const char *s, size_t len, double *v, int *kind, enum prose_unit *unit);

int pt_figure(const char *s, size_t len, double *v, int *kind)
{
	enum prose_unit u;
	return figure(s, len, v, kind, &u);
}

/* Times in microseconds, so "120 us" and "0.1 ms" compare. */
static double to_us(double v, enum prose_unit u)
{
	switch (u) {
	case PROSE_MS:
		return v * 1e3;
	case PROSE_NS:
		return v * 1e-3;
	case PROSE_S:
		return v * 1e6;
	default:
		return v;
	}
}

/* 1 when the number at buf[pos] follows an index word (case, 用例, No.,
 * iter, round, shape, 第, #). */
static int is_index(const char *buf, size_t pos)
{
	static const char *const words[] = { "case", "cases", "\xE7\x94\xA8\xE4\xBE\x8B" /* 用例 */, "no.", "iter",
					     "round", "shape", "\xE7\xAC\xAC" /* 第 */, "#", NULL };
	size_t p = pos;
	while (p > 0 && buf[p - 1] == ' ')
		p--;
	for (size_t i = 0; words[i]; i++) {
		size_t l = strlen(words[i]);
		if (p >= l && strncasecmp(buf + p - l, words[i], l) == 0)
			return 1;
	}
	return 0;
}

static int figure(const char *s, size_t len, double *v, int *kind, enum prose_unit *unit)
{
	char buf[1024];
	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	*kind = 0;
	*unit = PROSE_NOUNIT;
	if (pt_is_na(buf, len))
		return 0;
	struct prose_num nums[32];
	size_t n = prose_numbers(buf, nums, 32);
	if (!n)
		return 0;
	size_t pick = 0;
	/* `case 13`, `#3`, `第 2 个`: an index, not a figure */
	while (pick + 1 < n && is_index(buf, nums[pick].pos))
		pick++;
	/* "0.2431 (run1), 0.2385 (run2); avg=0.2408": the average is the figure */
	const char *avg = NULL;
	static const char *const labels[] = { "avg=", "avg =", "mean=", "mean =", "average=", NULL };
	for (size_t i = 0; labels[i] && !avg; i++)
		avg = text_find_ci(buf, labels[i]);
	if (avg) {
		for (size_t i = 0; i < n; i++)
			if (buf + nums[i].pos > avg) {
				pick = i;
				break;
			}
	}
	*v = nums[pick].v;
	*unit = nums[pick].unit;
	*kind = unit_kind(nums[pick].unit);
	if (text_find_ci(buf, "speedup") || text_find_ci(buf, "\xE5\x8A\xA0\xE9\x80\x9F\xE6\xAF\x94" /* 加速比 */))
		*kind = 1;
	return 1;
}

/* Splits a value at " / " outside parentheses. */
static size_t split_parts(const char *s, const char **start, size_t *len, size_t max)
{
	size_t n = 0;
	int depth = 0;
	const char *b = s;
	for (const char *p = s;; p++) {
		if (*p == '(' || strncmp(p, "\xEF\xBC\x88", 3) == 0)
			depth++;
		else if ((*p == ')' || strncmp(p, "\xEF\xBC\x89", 3) == 0) && depth > 0)
			depth--;
		if (*p == '\0' || (depth == 0 && strncmp(p, " / ", 3) == 0)) {
			if (n < max) {
				start[n] = b;
				len[n] = (size_t)(p - b);
				n++;
			}
			if (*p == '\0')
				break;
			b = p + 3;
			p += 2;
		}
	}
	return n;
}

static int pct_figure(const char *s, size_t len, double *v)
{
	char buf[1024];
	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (pt_is_na(buf, len))
		return 0;
	struct prose_num nums[32];
	size_t n = prose_numbers(buf, nums, 32);
	for (size_t i = 0; i < n; i++)
		if (nums[i].unit == PROSE_PCT) {
			*v = nums[i].v;
			return 1;
		}
	return 0;
}

size_t pt_signed_pcts(const char *v, size_t len, double *out, size_t max)
{
	char buf[512];
	size_t k = 0;
	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, v, len);
	buf[len] = '\0';
	struct prose_num nums[16];
	size_t n = prose_numbers(buf, nums, 16);
	for (size_t i = 0; i < n && k < max; i++) {
		if (nums[i].unit != PROSE_PCT)
			continue;
		size_t p = nums[i].pos;
		while (p > 0 && buf[p - 1] == ' ')
			p--;
		if (p > 0 && (buf[p - 1] == '<' || buf[p - 1] == '>' || buf[p - 1] == '~'))
			continue;
		if (p >= 3 && (strncmp(buf + p - 3, "\xE2\x89\xA4", 3) == 0 || strncmp(buf + p - 3, "\xE2\x89\xA5", 3) == 0))
			continue;
		static const char *const thr[] = { "\xE9\x98\x88\xE5\x80\xBC", "threshold", "\xE5\x99\xAA\xE5\xA3\xB0", "noise", NULL };
		if (prose_contains_any(buf + nums[i].end, strlen(buf + nums[i].end) > 16 ? 16 : strlen(buf + nums[i].end), thr))
			continue;
		if (!nums[i].sign)
			continue;
		out[k++] = nums[i].v;
	}
	return k;
}

/* One field's value split at " / " into its parts (none when unset). */
struct pt_parts {
	const char *s[PT_MAXPAIRS];
	size_t len[PT_MAXPAIRS];
	size_t n;
};

/* Fills p from value (NULL: no parts). */
static void split_field(const char *value, struct pt_parts *p)
{
	p->n = value ? split_parts(value, p->s, p->len, PT_MAXPAIRS) : 0;
}

/* Pair k's baseline and candidate figures: raw as written, in us when
 * both are times, NAN when missing or a time faces a speedup; its kind. */
static void eval_figures(const struct pt_parts *b, const struct pt_parts *c, size_t k, struct pt_eval *e)
{
	int kb = 0, kc = 0;
	enum prose_unit ub = PROSE_NOUNIT, uc = PROSE_NOUNIT;
	e->base[k] = e->cand[k] = NAN;
	if (k < b->n && !figure(b->s[k], b->len[k], &e->base[k], &kb, &ub))
		e->base[k] = NAN;
	if (k < c->n && !figure(c->s[k], c->len[k], &e->cand[k], &kc, &uc))
		e->cand[k] = NAN;
	e->base_raw[k] = e->base[k];
	e->cand_raw[k] = e->cand[k];
	if (kb < 0 && kc < 0) {
		e->base[k] = to_us(e->base[k], ub);
		e->cand[k] = to_us(e->cand[k], uc);
	} else if (kb && kc && kb != kc) {
		e->base[k] = e->cand[k] = NAN; /* a time against a speedup: no change to compute */
	}
	if (k >= c->n)
		e->cand_raw[k] = NAN;
	e->kind[k] = kb ? kb : kc;
}

/* Pair k's stated improvement: its own part, or the only part for the
 * first pair alone; NAN when none. */
static void eval_stated(const struct pt_parts *im, size_t k, struct pt_eval *e)
{
	e->stated[k] = NAN;
	size_t ik = im->n == 1 ? 0 : k;
	if (ik < im->n && !pct_figure(im->s[ik], im->len[ik], &e->stated[k]))
		e->stated[k] = NAN;
	if (im->n == 1 && k > 0)
		e->stated[k] = NAN; /* one improvement for several figures: it belongs to the first */
}

/* Marks an attempt when pair k has both figures and raises e->gain to
 * its change in the better direction. */
static void eval_gain(size_t k, struct pt_eval *e)
{
	if (!isfinite(e->base[k]) || !isfinite(e->cand[k]) || e->base[k] == 0)
		return;
	e->attempt = 1;
	double ch = prose_pct(e->base[k], e->cand[k]);
	double g = e->kind[k] < 0 ? -ch : e->kind[k] > 0 ? ch : NAN;
	if (isfinite(g) && (!isfinite(e->gain) || g > e->gain))
		e->gain = g;
}

/* Pair k's other stated percentages: the signed ones of s (len bytes)
 * that are not its stated figure. */
static void eval_alternatives(const char *s, size_t len, size_t k, struct pt_eval *e)
{
	double v[PT_MAXALT + 1];
	size_t n = s ? pt_signed_pcts(s, len, v, PT_MAXALT + 1) : 0;
	e->nalt[k] = 0;
	for (size_t i = 0; i < n && e->nalt[k] < PT_MAXALT; i++)
		if (!(isfinite(e->stated[k]) && v[i] == e->stated[k]))
			e->alt[k][e->nalt[k]++] = v[i];
}

const char *pt_other_figures(const double *v, size_t n, size_t pick, int pct, char *buf, size_t len)
{
	size_t used = 0, others = n - (pick < n);
	buf[0] = '\0';
	for (size_t i = 0; i < n && used + 32 < len; i++) {
		if (i == pick)
			continue;
		const char *lead = used ? ", " : others > 1 ? " (nor its other figures " : " (nor its other figure ";
		used += (size_t)(pct ? snprintf(buf + used, len - used, "%s%+g%%", lead, v[i])
				     : snprintf(buf + used, len - used, "%s%g", lead, v[i]));
	}
	if (used && used + 2 < len)
		snprintf(buf + used, len - used, ")");
	return buf;
}

int pt_arrow_between(const char *s, size_t a, size_t b)
{
	static const char *const arrows[] = { "\xE2\x86\x92" /* → */, "\xE2\x87\x92" /* ⇒ */, "->", "=>",
					      "\xE9\x99\x8D\xE8\x87\xB3" /* 降至 */,
					      "\xE6\x8F\x90\xE5\x8D\x87\xE8\x87\xB3" /* 提升至 */,
					      "\xE6\x8F\x90\xE5\x8D\x87\xE5\x88\xB0" /* 提升到 */,
					      "\xE8\x87\xB3" /* 至 */, "\xE5\x88\xB0" /* 到 */, "to ", NULL };
	int arrow = 0;
	for (size_t i = a; i < b;) {
		if (s[i] == ' ' || s[i] == '*' || s[i] == '`') {
			i++;
			continue;
		}
		size_t k = 0;
		while (arrows[k] && strncmp(s + i, arrows[k], strlen(arrows[k])) != 0)
			k++;
		if (!arrows[k])
			return 0;
		arrow = 1;
		i += strlen(arrows[k]);
	}
	return arrow;
}

void pt_eval_meas(const struct ptperf_meas *m, struct pt_eval *e)
{
	memset(e, 0, sizeof(*e));
	e->gain = NAN;
	struct pt_parts b, c, im;
	split_field(m->base.value, &b);
	split_field(m->cand.value, &c);
	split_field(m->impr.value, &im);
	size_t n = b.n > c.n ? b.n : c.n;
	if (im.n > n)
		n = im.n;
	/* pair figures only when the fields split alike; else the first of each */
	int aligned = (b.n == c.n) && (im.n == b.n || im.n <= 1);
	if (!aligned)
		n = 1;
	e->npairs = n;
	for (size_t k = 0; k < n; k++) {
		eval_figures(&b, &c, k, e);
		eval_stated(&im, k, e);
		eval_gain(k, e);
		/* one figure pair: every % of the field may be the one it means */
		if (n == 1)
			eval_alternatives(m->impr.value, m->impr.value ? strlen(m->impr.value) : 0, k, e);
		else if (k < im.n)
			eval_alternatives(im.s[k], im.len[k], k, e);
	}
}

int pt_convention(const struct pt_folder *f)
{
	if (!f->has_perf)
		return 1;
	for (size_t i = 0; i < f->perf.nit; i++) {
		const struct ptperf_iter *it = &f->perf.it[i];
		for (size_t k = 0; k < it->nm; k++) {
			struct pt_eval e;
			pt_eval_meas(&it->m[k], &e);
			for (size_t p = 0; p < e.npairs; p++) {
				if (!isfinite(e.stated[p]) || !isfinite(e.base[p]) || !isfinite(e.cand[p]) ||
				    e.base[p] == 0)
					continue;
				double ch = prose_pct(e.base[p], e.cand[p]);
				if (fabs(ch) < 1.0)
					continue; /* too small to tell a sign */
				if (fabs(e.stated[p] - ch) <= 1.0)
					return 1;
				if (fabs(e.stated[p] + ch) <= 1.0)
					return -1;
			}
		}
	}
	return 1;
}

/* Name order: baseline < iterN < roundR_dirX < roundR_final; -1 unknown. */
static long name_order(const char *name)
{
	char low[256];
	size_t n = 0;
	for (; name[n] && n + 1 < sizeof(low); n++)
		low[n] = (char)tolower((unsigned char)name[n]);
	low[n] = '\0';
	long round = -1, step = 0;
	const char *p;
	if ((p = strstr(low, "round")) && isdigit((unsigned char)p[5]))
		round = strtol(p + 5, NULL, 10);
	if ((p = strstr(low, "iter")) && isdigit((unsigned char)p[4])) {
		step = strtol(p + 4, NULL, 10);
		if (round < 0)
			round = 1;
	}
	if ((p = strstr(low, "dir")) && p[3]) {
		if (isdigit((unsigned char)p[3]))
			step = strtol(p + 3, NULL, 10);
		else if (isalpha((unsigned char)p[3]))
			step = p[3] - 'a' + 1;
	}
	if (strstr(low, "final"))
		step = 1000;
	if (round < 0)
		return strncmp(low, "baseline", 8) == 0 ? 0 : -1;
	return round * 10000 + step;
}

/* 2 when value matches an aggregate of a table owner, 1 a row value, 0 none. */
static int json_has_value(const struct ptjson *j, double v)
{
	return ptjson_has_value(j, v, 0.001);
}

/* The file's own time stamp (a top-level "timestamp", "time", "date",
 * "generated_at", "created_at", "run_at", "end_time" string) as its digits,
 * e.g. 2026-08-06T11:30Z -> 202608061130, padded to 14 digits so that stamps
 * with and without seconds compare; 0 when none. */
static unsigned long long json_stamp(const struct pt_jsonfile *jf)
{
	static const char *const keys[] = { "timestamp", "time", "date", "datetime", "generated_at",
					    "created_at", "run_at", "end_time", "finished_at", NULL };
	if (!jf->j.root || !cJSON_IsObject(jf->j.root))
		return 0;
	for (size_t i = 0; keys[i]; i++) {
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(jf->j.root, keys[i]);
		if (!cJSON_IsString(t) || !t->valuestring)
			continue;
		unsigned long long v = 0;
		int nd = 0;
		for (const char *p = t->valuestring; *p && nd < 14; p++)
			if (isdigit((unsigned char)*p)) {
				v = v * 10 + (unsigned long long)(*p - '0');
				nd++;
			}
		if (nd < 8)
			continue;
		while (nd++ < 14)
			v *= 10;
		return v;
	}
	return 0;
}

static int json_rolled_back(const struct pt_folder *f, size_t j);

/* By the files' own time stamps, when (nearly) all the result files carry
 * one: the newest that no rolled-back iteration claims is the latest,
 * whatever the names say; -1 otherwise. */
static long latest_by_stamp(const struct pt_folder *f)
{
	size_t rows = 0, stamped = 0;
	long best = -1;
	unsigned long long bs = 0;
	for (size_t j = 0; j < f->njson; j++) {
		struct ptjson_table t[4];
		if (!f->json[j].j.root || ptjson_tables(&f->json[j].j, t, 4) == 0)
			continue;
		rows++;
		unsigned long long st = json_stamp(&f->json[j]);
		if (!st)
			continue;
		stamped++;
		if (st > bs && !json_rolled_back(f, j)) {
			bs = st;
			best = (long)j;
		}
	}
	return stamped >= 2 && stamped * 2 > rows ? best : -1;
}

/* 1 when every measurement of it says it was rolled back: a rolled-back
 * iteration's results are not the folder's state. */
static int iter_rolled_back(const struct ptperf_iter *it)
{
	int rolled = it->nm > 0;
	for (size_t k = 0; k < it->nm; k++)
		if (!it->m[k].adopted.value || pt_adopted(it->m[k].adopted.value) != 0)
			rolled = 0;
	return rolled;
}

/* How well each JSON of a folder matches the figures an iteration states:
 * a figure held as an aggregate weighs 3, as a row value 1, summed over
 * the figures (so the file matching several beats one whose aggregate a
 * lone figure happens to equal); agg[j] says a figure was an aggregate. */
#define PT_PICK_MAX 64
struct pt_pick {
	int weight[PT_PICK_MAX];
	int agg[PT_PICK_MAX];
};

/* Offers every JSON of f holding the figure v to pick. */
static void pick_json_for(const struct pt_folder *f, double v, struct pt_pick *pick)
{
	for (size_t j = 0; j < f->njson && j < PT_PICK_MAX; j++) {
		if (!f->json[j].j.root)
			continue;
		int s = json_has_value(&f->json[j].j, v);
		pick->weight[j] += s == 2 ? 3 : s;
		pick->agg[j] |= s == 2;
	}
}

/* Offers the results of the arrows of an improvement value to pick:
 * `mean speedup 0.6737 → 0.7168 (+6.40%)` names the state the iteration
 * reached (0.7168) even when its candidate field quotes one case. */
static void pick_arrow_results(const struct pt_folder *f, const char *v, struct pt_pick *pick)
{
	struct prose_num nums[16];
	size_t n = v ? prose_numbers(v, nums, 16) : 0;
	for (size_t i = 1; i < n; i++)
		if (nums[i].unit != PROSE_PCT && nums[i].v != 0 &&
		    pt_arrow_between(v, nums[i - 1].end, nums[i].pos))
			pick_json_for(f, nums[i].v, pick);
}

/* The JSON matching the iteration's candidate figures (and the figures
 * its improvement reaches) best: the highest weight, then the candidate's
 * own file before a baseline file quoting it, then the later name; -1
 * when none holds any. *agg (NULL: not wanted) gets 1 when it holds one
 * of them as an aggregate. */
static long iter_json(const struct pt_folder *f, const struct ptperf_iter *it, int *agg)
{
	struct pt_pick pick;
	memset(&pick, 0, sizeof(pick));
	for (size_t k = 0; k < it->nm; k++) {
		struct pt_eval e;
		pt_eval_meas(&it->m[k], &e);
		for (size_t p = 0; p < e.npairs; p++)
			if (isfinite(e.cand_raw[p]) && e.cand_raw[p] != 0)
				pick_json_for(f, e.cand_raw[p], &pick);
		pick_arrow_results(f, it->m[k].impr.value, &pick);
	}
	long best = -1;
	for (size_t j = 0; j < f->njson && j < PT_PICK_MAX; j++) {
		if (!pick.weight[j])
			continue;
		if (best >= 0) {
			int w = pick.weight[j], bw = pick.weight[best];
			int nb = strncmp(f->json[j].name, "baseline", 8) != 0;
			int bnb = strncmp(f->json[best].name, "baseline", 8) != 0;
			if (w < bw || (w == bw && (nb < bnb || (nb == bnb && name_order(f->json[j].name) <=
								  name_order(f->json[best].name)))))
				continue;
		}
		best = (long)j;
	}
	if (agg)
		*agg = best >= 0 && pick.agg[best];
	return best;
}

/* 1 when JSON j holds, as an aggregate, the result of a perf_log
 * iteration that was rolled back: a record of an attempt, never the
 * folder's state, however new its time stamp or late its name. */
static int json_rolled_back(const struct pt_folder *f, size_t j)
{
	for (size_t i = 0; f->has_perf && i < f->perf.nit; i++) {
		int agg = 0;
		if (iter_rolled_back(&f->perf.it[i]) && iter_json(f, &f->perf.it[i], &agg) == (long)j && agg)
			return 1;
	}
	return 0;
}

/* The JSON of the latest perf_log iteration that has one and was not
 * rolled back (*iter gets it); -1 when none. An iteration without a JSON
 * leaves an earlier one's as the state. */
static long latest_by_perf(const struct pt_folder *f, long *iter)
{
	if (!f->has_perf)
		return -1;
	for (size_t ii = f->perf.nit; ii-- > 0;) {
		const struct ptperf_iter *it = &f->perf.it[ii];
		if (iter_rolled_back(it))
			continue;
		long best = iter_json(f, it, NULL);
		if (best >= 0) {
			*iter = (long)ii;
			return best;
		}
	}
	return -1;
}

/* The last JSON with rows by name order, then by name; -1 when none. */
static long latest_by_name(const struct pt_folder *f)
{
	long best = -1, bestkey = -2;
	for (size_t j = 0; j < f->njson; j++) {
		struct ptjson_table t[4];
		if (!f->json[j].j.root || ptjson_tables(&f->json[j].j, t, 4) == 0)
			continue;
		long key = name_order(f->json[j].name);
		if (json_rolled_back(f, j))
			continue;
		if (key > bestkey || (key == bestkey && best >= 0 &&
				      strcmp(f->json[j].name, f->json[best].name) > 0)) {
			bestkey = key;
			best = (long)j;
		}
	}
	return best;
}

long pt_latest_json(const struct pt_folder *f, long *iter)
{
	*iter = -1;
	long best = latest_by_stamp(f);
	
	if (best < 0)
		best = latest_by_perf(f, iter);
	if (best < 0)
		best = latest_by_name(f);
	return best;
}

int pt_rolled_back_text(const char *s)
{
	static const char *const words[] = { "\xE5\x9B\x9E\xE6\xBB\x9A" /* 回滚 */, "rolled back", "rolled-back",
					     "rollback", "reverted", "\xE6\x92\xA4\xE5\x9B\x9E" /* 撤回 */, NULL };
	return prose_contains_any(s, (size_t)-1, words);
}

size_t pt_table_cells(const char *line, char out[][96], size_t max)
{
	const char *p = strchr(line, '|');
	size_t n = 0;
	if (!p)
		return 0;
	p++;
	while (*p && n < max) {
		const char *e = strchr(p, '|');
		if (!e)
			break;
		const char *a = p, *b = e;
		while (a < b && (*a == ' ' || *a == '*' || *a == '`'))
			a++;
		while (b > a && (b[-1] == ' ' || b[-1] == '*' || b[-1] == '`'))
			b--;
		size_t l = (size_t)(b - a) < 95 ? (size_t)(b - a) : 95;
		memcpy(out[n], a, l);
		out[n][l] = '\0';
		n++;
		p = e + 1;
	}
	return n;
}

/* ---- aggregate rows of a log's tables ------------------------------- */

int pt_agg_label(const char *c)
{
	static const char *const geo[] = { "geomean", "geo mean", "geometric", "gmean",
					   "\xE5\x87\xA0\xE4\xBD\x95" /* 几何 */, NULL };
	static const char *const mean[] = { "mean", "avg", "average", "\xE5\xB9\xB3\xE5\x9D\x87" /* 平均 */,
					    "\xE5\x9D\x87\xE5\x80\xBC" /* 均值 */, NULL };
	static const char *const sum[] = { "sum", "total", "\xE5\x90\x88\xE8\xAE\xA1" /* 合计 */,
					   "\xE6\x80\xBB\xE8\xAE\xA1" /* 总计 */, NULL };
	if (strlen(c) > 40)
		return 0;
	if (prose_contains_any(c, (size_t)-1, geo))
		return 3;
	if (prose_contains_any(c, (size_t)-1, mean))
		return 1;
	if (prose_contains_any(c, (size_t)-1, sum))
		return 2;
	return 0;
}

/* The count an aggregate's label states (`all-17 mean`, `mean (17
 * pass)`, `20 cases 平均`), 0 when none. */
static long label_count(const char *c)
{
	for (const char *p = c; *p; p++) {
		if (!isdigit((unsigned char)*p))
			continue;
		const char *q = p;
		while (isdigit((unsigned char)*q))
			q++;
		/* "bf16", "fp32", "iter3" name things; "all-17", "(17 pass)" count */
		int before = p == c || strchr(" -(", p[-1]) || (unsigned char)p[-1] >= 0x80;
		int after = !*q || (!isalnum((unsigned char)*q) && *q != '.' && *q != '_');
		if (before && after && q - p < 7)
			return strtol(p, NULL, 10);
		p = q - 1;
	}
	return 0;
}

/* The one figure of a cell (not a percentage): 1 with *v, its unit and
 * half a unit of its last printed digit in *half. */
static int cell_figure(const char *c, double *v, enum prose_unit *u, double *half)
{
	struct prose_num n[2];
	if (prose_numbers(c, n, 2) != 1 || n[0].unit == PROSE_PCT)
		return 0;
	int d = 0;
	const char *dot = memchr(c + n[0].pos, '.', n[0].end - n[0].pos);
	for (const char *q = dot ? dot + 1 : c + n[0].end; q < c + n[0].end && isdigit((unsigned char)*q); q++)
		d++;
	*v = n[0].v;
	*u = n[0].unit;
	*half = 0.5 * pow(10.0, -d);
	return n[0].decimal;
}

/* Running sums of a column over a set of data rows. */
struct agg_acc {
	double sum, lsum, half;   /* sum, sum of logs, largest half-unit of a cell */
	size_t n, npos;           /* cells, positive cells */
	enum prose_unit unit;
	int mixed;                /* cells in more than one unit */
	long first;               /* line of the first row counted */
};

/* 1 when figures in units a and b can be aggregated together: the same
 * unit, or one of them bare (`20.0` under a kernel_us header, `22.0 us`). */
static int units_agree(enum prose_unit a, enum prose_unit b)
{
	return a == b || a == PROSE_NOUNIT || b == PROSE_NOUNIT;
}

static void acc_add(struct agg_acc *a, double v, enum prose_unit u, double half, long line)
{
	if (a->n && !units_agree(a->unit, u))
		a->mixed = 1;
	if (!a->n)
		a->first = line;
	if (u != PROSE_NOUNIT || !a->n)
		a->unit = u;
	a->sum += v;
	if (v > 0) {
		a->lsum += log(v);
		a->npos++;
	}
	if (half > a->half)
		a->half = half;
	a->n++;
}

/* The aggregate of kind over a, NAN when it cannot be formed. */
static double acc_value(const struct agg_acc *a, int kind)
{
	if (a->n < 2 || a->mixed)
		return NAN;
	if (kind == 3)
		return a->npos == a->n ? exp(a->lsum / (double)a->n) : NAN;
	return kind == 2 ? a->sum : a->sum / (double)a->n;
}

/* 1 when v (printed to half) is the aggregate w of rows printed to rhalf. */
static int agg_agrees(double v, double half, double w, double rhalf)
{
	return fabs(v - w) <= half + rhalf + 1e-9 || pt_close(v, w, 0.005);
}

/* Checks one table (header at line index hl, rows to end). */
static int agg_table(const struct ptlog_text *t, size_t hl, size_t end, const char *shown,
		     const char *rule, struct gate_findings *fs)
{
	char head[PT_TABLE_COLS][96];
	size_t nc = pt_table_cells(t->lines[hl], head, PT_TABLE_COLS);
	struct agg_acc since[PT_TABLE_COLS], all[PT_TABLE_COLS];
	memset(since, 0, sizeof(since));
	memset(all, 0, sizeof(all));
	static const char *const kinds[] = { "", "mean", "sum", "geometric mean" };
	for (size_t l = hl + 2; l < end; l++) {
		char cl[PT_TABLE_COLS][96];
		size_t n = pt_table_cells(t->lines[l], cl, PT_TABLE_COLS);
		int kind = n ? pt_agg_label(cl[0]) : 0;
		for (size_t c = 1; c < n && c < nc; c++) {
			double v, half;
			enum prose_unit u;
			if (!cell_figure(cl[c], &v, &u, &half))
				continue;
			if (!kind) {
				acc_add(&since[c], v, u, half, (long)l + 1);
				acc_add(&all[c], v, u, half, (long)l + 1);
				continue;
			}
			double ws = acc_value(&since[c], kind), wa = acc_value(&all[c], kind);
			/* `mean (17 pass)`, `all-17 mean`: over that many rows, which
			 * may not all be shown; a scope of another size is no match */
			long want_n = label_count(cl[0]);
			if (want_n > 0 && since[c].n != (size_t)want_n)
				ws = NAN;
			if (want_n > 0 && all[c].n != (size_t)want_n)
				wa = NAN;
			if (!units_agree(since[c].unit, u))
				ws = NAN;
			if (!units_agree(all[c].unit, u))
				wa = NAN;
			if (!isfinite(ws) && !isfinite(wa))
				continue; /* nothing of its kind above it */
			if ((isfinite(ws) && agg_agrees(v, half, ws, since[c].half)) ||
			    (isfinite(wa) && agg_agrees(v, half, wa, all[c].half)))
				continue;
			const struct agg_acc *a = isfinite(ws) ? &since[c] : &all[c];
			double w = isfinite(ws) ? ws : wa;
			char other[96] = "";
			if (isfinite(ws) && isfinite(wa) && all[c].n != since[c].n)
				snprintf(other, sizeof(other), " nor of all %zu rows of the table (%.4g)", all[c].n, wa);
			if (gate_add(fs, rule, GATE_ERROR, shown, (long)l + 1,
				     "'%s' row: %s %g is not the %s of the %zu rows above it (lines %ld-%ld: %.4g, %+.1f%%)%s",
				     cl[0], head[c], v, kinds[kind], a->n, a->first, (long)l, w, prose_pct(w, v), other))
				return -1;
		}
		if (kind)
			memset(since, 0, sizeof(since));
	}
	return 0;
}

int pt_check_agg_rows(const struct ptlog_text *t, const char *shown, const char *rule,
		      struct gate_findings *fs)
{
	int fence = 0;
	for (size_t l = 0; l + 1 < t->nlines; l++) {
		if (strncmp(t->lines[l], "```", 3) == 0)
			fence = !fence;
		const char *sep = t->lines[l + 1];
		int is_sep = strncmp(sep, "|-", 2) == 0 || strncmp(sep, "| -", 3) == 0 || strncmp(sep, "|:", 2) == 0;
		if (fence || t->lines[l][0] != '|' || !is_sep)
			continue;
		size_t end = l + 2;
		while (end < t->nlines && t->lines[end][0] == '|')
			end++;
		if (agg_table(t, l, end, shown, rule, fs))
			return -1;
		l = end - 1;
	}
	return 0;
}

/* ---- before / after / change rows ----------------------------------- */

/* The first column after the row labels, other than not, whose header
 * holds one of words; -1 none. */
static int change_col(char head[][96], size_t nc, const char *const *words, int not)
{
	for (size_t c = 1; c < nc; c++)
		if ((int)c != not && prose_contains_any(head[c], (size_t)-1, words))
			return (int)c;
	return -1;
}

/* A before / after / change table (| 指标 | before | after | 变化 |, |
 * 指标 | Baseline | Final | 提升 |): each row's change is (after - before)
 * / before within 1 point, or for times the change in speed (before /
 * after - 1), either of them with or without its sign (`提升 20%` for a
 * time that fell 20%). Only a figure no reading reaches is an error. */
int pt_check_change_rows(const struct ptlog_text *r, size_t hl, size_t end, const char *shown, const char *rule,
			 struct gate_findings *fs)
{
	char head[PT_TABLE_COLS][96];
	size_t nc = pt_table_cells(r->lines[hl], head, PT_TABLE_COLS);
	static const char *const before[] = { "before", "\xE4\xBC\x98\xE5\x8C\x96\xE5\x89\x8D" /* 优化前 */,
					      "baseline", "\xE5\x9F\xBA\xE7\xBA\xBF" /* 基线 */, NULL };
	/* after: the final, or the candidate an iteration measured against a
	 * before column named as such (`baseline speedup | iter1 speedup`) */
	static const char *const after[] = { "after", "\xE4\xBC\x98\xE5\x8C\x96\xE5\x90\x8E" /* 优化后 */, "final",
					     "\xE6\x9C\x80\xE7\xBB\x88" /* 最终 */, "candidate",
					     "\xE5\x80\x99\xE9\x80\x89" /* 候选 */, "iter", "ours", NULL };
	static const char *const change[] = { "\xE5\x8F\x98\xE5\x8C\x96" /* 变化 */, "change", "delta",
					      "\xCE\x94" /* Δ */, "\xE6\x8F\x90\xE5\x8D\x87" /* 提升 */, "improvement",
					      "gain", NULL };
	int b = change_col(head, nc, before, -1), a = change_col(head, nc, after, b),
	    c = change_col(head, nc, change, -1);
	if (b < 0 || a < 0 || c < 0 || a == b || c == a || c == b)
		return 0;
	/* two candidates (`| baseline | iter1 | iter2 | change |`): which one
	 * the change is of is not said */
	for (int k = a + 1; k < (int)nc; k++)
		if (k != b && k != c && prose_contains_any(head[k], (size_t)-1, after))
			return 0;
	/* a change against another reference (`Δ vs torch`, `相对 CANN`) is
	 * not after against before */
	static const char *const ref[] = { "vs", "\xE7\x9B\xB8\xE5\xAF\xB9" /* 相对 */, "relative", "against",
					   "\xE5\xAF\xB9\xE6\xAF\x94" /* 对比 */, NULL };
	if (prose_contains_any(head[c], (size_t)-1, ref) && !prose_contains_any(head[c], (size_t)-1, before))
		return 0;
	for (size_t l = hl + 2; l < end; l++) {
		char cl[PT_TABLE_COLS][96];
		size_t n = pt_table_cells(r->lines[l], cl, PT_TABLE_COLS);
		if ((size_t)b >= n || (size_t)a >= n || (size_t)c >= n)
			continue;
		struct prose_num nb[2], na[2], nch[2];
		if (prose_numbers(cl[b], nb, 2) != 1 || prose_numbers(cl[a], na, 2) != 1 ||
		    prose_numbers(cl[c], nch, 2) != 1 || nch[0].unit != PROSE_PCT || nb[0].v == 0 ||
		    nb[0].unit != na[0].unit)
			continue;
		double want = prose_pct(nb[0].v, na[0].v), x = nch[0].v;
		double speed = na[0].v > 0 ? (nb[0].v / na[0].v - 1) * 100 : NAN;
		int timed = pt_us_per(nb[0].unit) > 0;
		if (fabs(want - x) <= 1.0 || fabs(fabs(want) - fabs(x)) <= 1.0 ||
		    (timed && isfinite(speed) && fabs(fabs(speed) - fabs(x)) <= 1.0))
			continue;
		if (gate_add(fs, rule, GATE_ERROR, shown, (long)l + 1,
			     "'%s': %s %g -> %s %g is %+.1f%%, not %+g%%", cl[0], head[b], nb[0].v, head[a],
			     na[0].v, want, nch[0].v))
			return -1;
	}
	return 0;
}

/* 1 when line is a table's delimiter row (`|---|:--:|`). */
static int delimiter_row(const char *line)
{
	int dash = 0;
	for (const char *p = line; *p; p++) {
		if (*p == '-')
			dash = 1;
		else if (*p != '|' && *p != ':' && *p != ' ')
			return 0;
	}
	return dash;
}

int pt_next_table(const struct ptlog_text *t, size_t *from, size_t *hl, size_t *end)
{
	for (size_t l = *from; l + 1 < t->nlines; l++) {
		if (!strchr(t->lines[l], '|') || !delimiter_row(t->lines[l + 1]))
			continue;
		size_t e = l + 2;
		while (e < t->nlines && strchr(t->lines[e], '|'))
			e++;
		*hl = l;
		*end = *from = e;
		return 1;
	}
	*from = t->nlines;
	return 0;
}

int pt_check_change_tables(const struct ptlog_text *t, const char *shown, const char *rule,
			   struct gate_findings *fs)
{
	size_t at = 0, hl, end;
	while (pt_next_table(t, &at, &hl, &end))
		if (pt_check_change_rows(t, hl, end, shown, rule, fs))
			return -1;
	return 0;
}
