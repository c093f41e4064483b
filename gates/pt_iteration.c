/* pt_iteration.c: PT-ITERATION (each perf_log iteration's improvement
 * agrees with its baseline_time and candidate_time; an adopted one
 * improves beyond the noise threshold or says why; a rolled-back one
 * names a reason) and PT-STOP (3 consecutive attempts without an
 * improvement beyond the threshold stop the log, or it says why it goes
 * on).
 *
 * Sign convention, inferred from both public folders: improvement =
 * (candidate - baseline) / baseline * 100 of the quantity quoted (sigmoid:
 * 0.2147 -> 0.2153 ms is "+0.3%", 71.9 -> 53.6 us is "-25.5%"; foreach_norm:
 * avg_speedup 0.1713 -> 0.2093 is "+22.2%"). Which direction is better
 * follows from the quantity: lower for a time, higher for a speedup. A
 * change stated in speed for a time (`+650%` where 177.48 -> 23.6 us,
 * baseline / candidate - 1) is read as such, within 1% of its size, when
 * it is beyond 100% (no change in time can be: below that, the folder's
 * convention decides, so `+8%` for a time that fell 8% keeps its sign
 * error). */
#include "gates/pt_rules.h"
#include "util/text.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define PP 1.0

static const char *const NOISE_WORDS[] = { "noise", "\xE5\x99\xAA\xE5\xA3\xB0" /* 噪声 */, "threshold",
					   "\xE9\x98\x88\xE5\x80\xBC" /* 阈值 */, "within", "regression",
					   "\xE8\x8C\x83\xE5\x9B\xB4" /* 范围 */, "flat", NULL };

/* The adopted field says more than yes: "yes (kept for ...)". */
static int adopted_reason(const char *v)
{
	if (!v)
		return 0;
	const char *p = v;
	while (*p == ' ' || *p == '*')
		p++;
	while (*p && *p != ' ' && *p != '(' && (unsigned char)*p < 0x80)
		p++; /* the yes word */
	size_t rest = 0;
	for (; *p; p++)
		if (*p != ' ' && *p != '(' && *p != ')' && *p != '-' && *p != ',' && *p != '.')
			rest++;
	return rest >= 4;
}

/* The improvement field explains itself: "0% (correctness fix, ...)". */
static int improvement_reason(const char *v)
{
	if (!v)
		return 0;
	const char *o = strchr(v, '(');
	if (!o)
		o = strstr(v, "\xEF\xBC\x88");
	if (!o)
		return 0;
	size_t len = strlen(o);
	return len > 6 && !prose_contains_any(o, len, NOISE_WORDS);
}

/* 1 when the stated change s agrees with pair p's figures: their change
 * under the folder's convention (within 1 point) or, beyond 100%, their
 * change in speed (`+650%` for a time that fell 177.48 -> 23.6: the
 * inverse ratio, with a relative tolerance for its size). */
static int stated_agrees(const struct pt_eval *e, size_t p, int conv, double s)
{
	double want = conv * prose_pct(e->base[p], e->cand[p]);
	if (fabs(s - want) <= PP)
		return 1;
	double speed = (e->base[p] / e->cand[p] - 1) * 100;
	return e->cand[p] != 0 && s * speed > 0 && fabs(s) > 100 &&
	       fabs(fabs(s) - fabs(speed)) <= fmax(PP, 0.01 * fabs(speed));
}

static int check_meas(const struct pt_folder *f, const struct ptperf_iter *it,
		      const struct ptperf_meas *m, int conv, struct gate_findings *fs)
{
	struct pt_eval e;
	pt_eval_meas(m, &e);
	const char *sh = f->perf_shown;
	for (size_t p = 0; p < e.npairs; p++) {
		if (!isfinite(e.stated[p]) || !isfinite(e.base[p]) || !isfinite(e.cand[p]) || e.base[p] == 0)
			continue;
		/* a line stating a subset's change and the overall one (either
		 * order) is right when either figure is */
		int ok = stated_agrees(&e, p, conv, e.stated[p]);
		for (size_t a = 0; a < e.nalt[p] && !ok; a++)
			ok = stated_agrees(&e, p, conv, e.alt[p][a]);
		if (ok)
			continue;
		double want = conv * prose_pct(e.base[p], e.cand[p]);
		char others[128];
		pt_other_figures(e.alt[p], e.nalt[p], e.nalt[p], 1, others, sizeof(others));
		int rc;
		if (fabs(e.stated[p] + want) <= PP)
			rc = gate_add(fs, "PT-ITERATION", GATE_ERROR, sh, m->impr.line,
				      "'%s': improvement %+g%% has the opposite sign of the folder's convention ((candidate - baseline) / baseline: %g -> %g is %+.2f%%)%s",
				      it->title, e.stated[p], e.base_raw[p], e.cand_raw[p], want, others);
		else
			rc = gate_add(fs, "PT-ITERATION", GATE_ERROR, sh, m->impr.line,
				      "'%s': improvement %+g%% does not match baseline_time %g and candidate_time %g (%+.2f%%)%s",
				      it->title, e.stated[p], e.base_raw[p], e.cand_raw[p], want, others);
		if (rc)
			return -1;
	}
	int adopted = m->adopted.value ? pt_adopted(m->adopted.value) : -1;
	if (adopted == 1) {
		double gain = e.gain;
		int known = isfinite(gain);
		if (!known && !e.attempt && isfinite(e.stated[0]) && fabs(e.stated[0]) <= f->noise_pct) {
			gain = fabs(e.stated[0]);
			known = 1; /* figures N/A, a stated change within noise either way */
		}
		if (known && gain <= f->noise_pct && !adopted_reason(m->adopted.value) &&
		    !improvement_reason(m->impr.value)) {
			if (gate_add(fs, "PT-ITERATION", GATE_ERROR, sh, m->adopted.line,
				     "'%s' is adopted with an improvement of %.2f%%, not beyond the %g%% noise threshold, and does not say why",
				     it->title, gain, f->noise_pct))
				return -1;
		}
	}
	return 0;
}

int pt_rule_iteration(const struct pt_folder *f, struct gate_findings *fs)
{
	if (!f->has_perf)
		return gate_add(fs, "PT-ITERATION", GATE_WARNING, f->shown, 0,
				"no perf_log.md: iterations not checked");
	if (f->perf.nit == 0)
		return gate_add(fs, "PT-ITERATION", GATE_WARNING, f->perf_shown, 0,
				"no '## Iteration N' (or '## Round ...') section: iterations not checked");
	if (pt_check_agg_rows(&f->perf.text, f->perf_shown, "PT-ITERATION", fs) ||
	    pt_check_change_tables(&f->perf.text, f->perf_shown, "PT-ITERATION", fs) ||
	    pt_check_totals(f, &f->perf.text, f->perf_shown, "PT-ITERATION", -1, fs))
		return -1;
	int conv = pt_convention(f);
	for (size_t i = 0; i < f->perf.nit; i++) {
		const struct ptperf_iter *it = &f->perf.it[i];
		int rolled = 0;
		long rolled_line = it->line;
		for (size_t k = 0; k < it->nm; k++) {
			if (check_meas(f, it, &it->m[k], conv, fs))
				return -1;
			if (it->m[k].adopted.value && pt_adopted(it->m[k].adopted.value) == 0) {
				rolled = 1;
				rolled_line = it->m[k].adopted.line;
			}
		}
		if (!it->nm && (text_find_ci(it->title, "ROLLED BACK") || text_find_ci(it->title, "ROLLBACK")))
			rolled = 1;
		if (rolled && (!it->rollback.value || pt_is_na(it->rollback.value, strlen(it->rollback.value)))) {
			if (gate_add(fs, "PT-ITERATION", GATE_ERROR, f->perf_shown, rolled_line,
				     "'%s' is rolled back without a rollback_reason", it->title))
				return -1;
		}
	}
	return 0;
}

static const char *const GO_ON[] = { "continu", "\xE7\xBB\xA7\xE7\xBB\xAD" /* 继续 */, "resum", "goes on",
				     "go on", "keep going", "new round", "user request",
				     "\xE7\x94\xA8\xE6\x88\xB7\xE8\xA6\x81\xE6\xB1\x82" /* 用户要求 */,
				     "\xE6\x96\xB0\xE4\xB8\x80\xE8\xBD\xAE" /* 新一轮 */, NULL };

static int says_why(const struct pt_folder *f, const struct ptperf_iter *it)
{
	for (long l = it->line; l <= it->end && l <= (long)f->perf.text.nlines; l++)
		if (prose_contains_any(f->perf.text.lines[l - 1], (size_t)-1, GO_ON))
			return 1;
	return 0;
}

int pt_rule_stop(const struct pt_folder *f, struct gate_findings *fs)
{
	if (!f->has_perf)
		return 0;
	size_t run[3];
	size_t nrun = 0;
	for (size_t i = 0; i < f->perf.nit; i++) {
		const struct ptperf_iter *it = &f->perf.it[i];
		if (nrun == 3) {
			if (!it->stop_before && !says_why(f, it)) {
				const struct ptperf_iter *a = &f->perf.it[run[0]], *b = &f->perf.it[run[1]],
							 *c = &f->perf.it[run[2]];
				if (gate_add(fs, "PT-STOP", GATE_WARNING, f->perf_shown, it->line,
					     "3 consecutive attempts without an improvement beyond %g%% ('%s' line %ld, '%s' line %ld, '%s' line %ld), but the log goes on with '%s' without saying why",
					     f->noise_pct, a->title, a->line, b->title, b->line, c->title, c->line,
					     it->title))
					return -1;
			}
			nrun = 0;
		}
		if (it->stop_before)
			nrun = 0;
		double best = NAN;
		int attempt = 0;
		for (size_t k = 0; k < it->nm; k++) {
			struct pt_eval e;
			pt_eval_meas(&it->m[k], &e);
			if (!e.attempt || !isfinite(e.gain))
				continue;
			attempt = 1;
			if (isnan(best) || e.gain > best)
				best = e.gain;
		}
		if (!attempt)
			continue;
		if (best > f->noise_pct)
			nrun = 0;
		else
			run[nrun++] = i;
	}
	return 0;
}
