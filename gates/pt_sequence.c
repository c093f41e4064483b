/* pt_sequence.c: PT-SEQUENCE (protocol order of the tags, plan order,
 * prerequisites done, one item at a time) and PT-PRECISION (no
 * performance change while precision fails). */
#include "gates/pt_rules.h"

#include <ctype.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define MAXITEMS 256

struct item {
	int num;
	long start;     /* first ORDER-CHECK or IMPL */
	long oc, impl, sc, res;
	int oc_ok;      /* ORDER-CHECK 结论: 1, 0, -1 */
	long oc_fail_line;
};

static long first_after(const struct ptlog *log, enum ptlog_tag tag, int num, long after)
{
	for (size_t i = 0; i < log->nev; i++)
		if (log->ev[i].tag == tag && log->ev[i].num == num && log->ev[i].line > after)
			return log->ev[i].line;
	return 0;
}

static long plan_pos(const struct ptlog *log, int num)
{
	for (size_t k = 0; k < log->nplan; k++)
		if (log->plan[k].num == num)
			return (long)k;
	return -1;
}

static int cmp_start(const void *a, const void *b)
{
	const struct item *x = a, *y = b;
	return (x->start > y->start) - (x->start < y->start);
}

/* Without any ORDER-CHECK/IMPL/SELF-CHECK tag the sequence cannot be
 * checked: a warning when the log has RESULTs or a plan. *tagged is set
 * when there are tags. */
static int check_tagged(const struct pt_logfile *lf, struct gate_findings *fs, int *tagged)
{
	const struct ptlog *log = &lf->log;
	size_t ntags = 0, nres = 0;
	long first_res = 0;
	for (size_t i = 0; i < log->nev; i++) {
		enum ptlog_tag t = log->ev[i].tag;
		if (t == PTLOG_ORDER_CHECK || t == PTLOG_IMPL || t == PTLOG_SELF_CHECK)
			ntags++;
		if (t == PTLOG_RESULT && !nres++)
			first_res = log->ev[i].line;
	}
	*tagged = ntags > 0;
	if (ntags || (!nres && !log->nplan))
		return 0;
	return gate_add(fs, "PT-SEQUENCE", GATE_WARNING, lf->shown, nres ? first_res : log->plan_line,
			nres ? "[RESULT] entries without [ORDER-CHECK]/[IMPL-#N]/[SELF-CHECK] tags: the implementation sequence cannot be checked"
			     : "[ORDER-PLAN] but no [ORDER-CHECK]/[IMPL-#N]/[RESULT-#N] tags: the implementation sequence cannot be checked");
}

/* 1 for the tags that open, implement, check or close a numbered item. */
static int is_sequence_tag(enum ptlog_tag tag)
{
	return tag != PTLOG_KRP && tag != PTLOG_KRA && tag != PTLOG_DB && tag != PTLOG_ITEMHEAD;
}

/* The item numbered num in items[0..*n), appended when new; NULL when
 * it is new and items is full. */
static struct item *item_of(struct item *items, size_t *n, int num)
{
	size_t k = 0;
	while (k < *n && items[k].num != num)
		k++;
	if (k < *n)
		return &items[k];
	if (*n == MAXITEMS)
		return NULL;
	memset(&items[k], 0, sizeof(items[k]));
	items[k].num = num;
	items[k].oc_ok = -1;
	(*n)++;
	return &items[k];
}

/* Records event ev in its item: the first line of each tag, the first
 * failed ORDER-CHECK, the start. */
static void note_event(struct item *it, const struct ptlog_event *ev)
{
	long *slot = ev->tag == PTLOG_ORDER_CHECK ? &it->oc : ev->tag == PTLOG_IMPL ? &it->impl :
		     ev->tag == PTLOG_SELF_CHECK ? &it->sc : &it->res;
	if (!*slot)
		*slot = ev->line;
	if (ev->tag == PTLOG_ORDER_CHECK && ev->ok == 0 && !it->oc_fail_line)
		it->oc_fail_line = ev->line;
	if ((ev->tag == PTLOG_ORDER_CHECK || ev->tag == PTLOG_IMPL) && !it->start)
		it->start = ev->line;
}

/* The numbered items of the log, with the first line of each of their
 * tags, into items (at most MAXITEMS). Returns how many. */
static size_t collect_items(const struct ptlog *log, struct item *items)
{
	size_t n = 0;
	for (size_t i = 0; i < log->nev; i++) {
		const struct ptlog_event *ev = &log->ev[i];
		if (ev->num <= 0 || !is_sequence_tag(ev->tag))
			continue;
		struct item *it = item_of(items, &n, ev->num);
		if (it)
			note_event(it, ev);
	}
	return n;
}

/* An opened item's IMPL follows an ORDER-CHECK, and no failed one. */
static int check_item_impl(const struct pt_logfile *lf, const struct item *it, struct gate_findings *fs)
{
	const char *sh = lf->shown;
	int N = it->num;
	if (it->impl && (!it->oc || it->oc > it->impl) &&
	    gate_add(fs, "PT-SEQUENCE", GATE_ERROR, sh, it->impl,
		     "[IMPL-#%d] without an [ORDER-CHECK] for [#%d] before it", N, N))
		return -1;
	if (it->oc_fail_line) {
		long impl = first_after(&lf->log, PTLOG_IMPL, N, it->oc_fail_line);
		if (impl && gate_add(fs, "PT-SEQUENCE", GATE_ERROR, sh, impl,
				     "[IMPL-#%d] follows an [ORDER-CHECK] that concluded ❌ (line %ld)", N,
				     it->oc_fail_line))
			return -1;
	}
	return 0;
}

/* An opened item's SELF-CHECK follows its IMPL, its RESULT comes last
 * and exists once it is implemented. */
static int check_item_close(const struct pt_logfile *lf, const struct item *it, struct gate_findings *fs)
{
	const char *sh = lf->shown;
	int N = it->num;
	if (it->sc && it->impl && it->sc < it->impl &&
	    gate_add(fs, "PT-SEQUENCE", GATE_ERROR, sh, it->sc,
		     "[SELF-CHECK] for [#%d] comes before its [IMPL-#%d] (line %ld)", N, N, it->impl))
		return -1;
	if (it->res && it->res < it->start) {
		if (gate_add(fs, "PT-SEQUENCE", GATE_ERROR, sh, it->res,
			     "[RESULT-#%d] comes before the item is opened (line %ld)", N, it->start))
			return -1;
	} else if (it->res && it->sc && it->res < it->sc) {
		if (gate_add(fs, "PT-SEQUENCE", GATE_ERROR, sh, it->res,
			     "[RESULT-#%d] comes before its [SELF-CHECK] (line %ld)", N, it->sc))
			return -1;
	}
	if (it->impl && !it->res &&
	    gate_add(fs, "PT-SEQUENCE", GATE_ERROR, sh, it->impl,
		     "[#%d] is implemented but has no [RESULT-#%d]", N, N))
		return -1;
	return 0;
}

/* One item's own tags in order: opened, ORDER-CHECK before IMPL (and not
 * a failed one), SELF-CHECK after IMPL, RESULT last and present. */
static int check_item(const struct pt_logfile *lf, const struct item *it, struct gate_findings *fs)
{
	if (!it->start) /* a RESULT (or SELF-CHECK) for an item never opened */
		return gate_add(fs, "PT-SEQUENCE", GATE_ERROR, lf->shown, it->res ? it->res : it->sc,
				"[#%d] has a %s but no [ORDER-CHECK] or [IMPL-#%d] before it", it->num,
				it->res ? "[RESULT]" : "[SELF-CHECK]", it->num);
	if (check_item_impl(lf, it, fs) || check_item_close(lf, it, fs))
		return -1;
	return 0;
}

/* The prerequisites ORDER-PLAN gives item it have their RESULT before it
 * is implemented. */
static int check_deps(const struct pt_logfile *lf, const struct item *it, const struct ptlog_plan *pl,
		      const struct item *items, size_t n, struct gate_findings *fs)
{
	const struct ptlog *log = &lf->log;
	long at = it->impl ? it->impl : it->start;
	for (size_t d = 0; d < pl->ndeps; d++) {
		int D = pl->deps[d];
		long res = 0, started = 0;
		for (size_t i = 0; i < log->nev && !res; i++)
			if (log->ev[i].tag == PTLOG_RESULT && log->ev[i].num == D)
				res = log->ev[i].line;
		if (res && res < at)
			continue;
		for (size_t q = 0; q < n; q++)
			if (items[q].num == D)
				started = items[q].start;
		int rc = res ? gate_add(fs, "PT-SEQUENCE", GATE_ERROR, lf->shown, at,
					"[#%d] is implemented before its prerequisite [#%d] is done ([RESULT-#%d] only at line %ld)",
					it->num, D, D, res)
			     : gate_add(fs, "PT-SEQUENCE", GATE_ERROR, lf->shown, at,
					started ? "[#%d] is implemented before its prerequisite [#%d] (ORDER-PLAN line %ld) has a RESULT"
						: "[#%d] is implemented but its prerequisite [#%d] (ORDER-PLAN line %ld) was never done",
					it->num, D, pl->line);
		if (rc)
			return -1;
	}
	return 0;
}

/* The items in the order they were started against ORDER-PLAN: each
 * planned, in plan order, started only after the previous one's RESULT,
 * and after its prerequisites. */
static int check_plan_order(const struct pt_logfile *lf, const struct item *items, size_t n,
			    struct gate_findings *fs)
{
	const struct ptlog *log = &lf->log;
	struct item order[MAXITEMS];
	size_t no = 0;
	for (size_t k = 0; k < n; k++)
		if (items[k].start)
			order[no++] = items[k];
	qsort(order, no, sizeof(order[0]), cmp_start);
	for (size_t k = 0; k < no; k++) {
		const struct item *it = &order[k], *prev = k > 0 ? &order[k - 1] : NULL;
		long pos = plan_pos(log, it->num);
		if (log->nplan && pos < 0 &&
		    gate_add(fs, "PT-SEQUENCE", GATE_ERROR, lf->shown, it->start,
			     "[#%d] is implemented but [ORDER-PLAN] (line %ld) does not plan it", it->num,
			     log->plan_line))
			return -1;
		if (prev && pos >= 0 && plan_pos(log, prev->num) > pos &&
		    gate_add(fs, "PT-SEQUENCE", GATE_ERROR, lf->shown, it->start,
			     "[#%d] is implemented after [#%d] (line %ld), but [ORDER-PLAN] puts it first",
			     it->num, prev->num, prev->start))
			return -1;
		if (prev && prev->res && it->start < prev->res &&
		    gate_add(fs, "PT-SEQUENCE", GATE_ERROR, lf->shown, it->start,
			     "[#%d] starts before [RESULT-#%d] (line %ld): the next item may start only after the previous item's RESULT",
			     it->num, prev->num, prev->res))
			return -1;
		if (pos >= 0 && check_deps(lf, it, &log->plan[pos], items, n, fs) != 0)
			return -1;
	}
	return 0;
}

static int check_log(const struct pt_logfile *lf, struct gate_findings *fs)
{
	int tagged;
	if (check_tagged(lf, fs, &tagged) != 0)
		return -1;
	if (!tagged)
		return 0;
	struct item items[MAXITEMS];
	size_t n = collect_items(&lf->log, items);
	for (size_t k = 0; k < n; k++)
		if (check_item(lf, &items[k], fs) != 0)
			return -1;
	return check_plan_order(lf, items, n, fs);
}

int pt_rule_sequence(const struct pt_folder *f, struct gate_findings *fs)
{
	for (size_t i = 0; i < f->nlogs; i++)
		if (check_log(&f->logs[i], fs))
			return -1;
	return 0;
}

/* ---- PT-PRECISION ---------------------------------------------------- */

/* 1 pass, 0 fail, -1 not stated. */
static int precision_state(const char *v, size_t len)
{
	char buf[256];
	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, v, len);
	buf[len] = '\0';
	const char *s = buf;
	while (*s == ' ' || *s == '*' || *s == '`' || *s == '[')
		s++;
	static const char *const fail[] = { "fail", "\xE5\xA4\xB1\xE8\xB4\xA5" /* 失败 */,
					    "\xE4\xB8\x8D\xE9\x80\x9A\xE8\xBF\x87" /* 不通过 */, "\xE2\x9D\x8C",
					    "PRECISION_FAIL", NULL };
	static const char *const pass[] = { "pass", "ok", "\xE9\x80\x9A\xE8\xBF\x87" /* 通过 */, "\xE2\x9C\x85",
					    "PRECISION_PASS", NULL };
	for (size_t i = 0; fail[i]; i++)
		if (strncasecmp(s, fail[i], strlen(fail[i])) == 0)
			return 0;
	for (size_t i = 0; pass[i]; i++)
		if (strncasecmp(s, pass[i], strlen(pass[i])) == 0)
			return 1;
	return -1;
}

static const char *const PREC_KEYS[] = { "\xE7\xB2\xBE\xE5\xBA\xA6" /* 精度 */, "precision", NULL };

static int precision_log(const struct pt_logfile *lf, struct gate_findings *fs)
{
	const struct ptlog *log = &lf->log;
	int failing = 0;
	long fail_line = 0;
	int reported = 0;
	for (size_t i = 0; i < log->nev; i++) {
		const struct ptlog_event *ev = &log->ev[i];
		if (ev->tag == PTLOG_RESULT) {
			for (size_t k = 0; PREC_KEYS[k]; k++) {
				size_t len;
				const char *v = ptlog_event_field(log, ev, PREC_KEYS[k], &len, NULL);
				if (!v)
					continue;
				int st = precision_state(v, len);
				if (st == 0) {
					if (!failing) {
						failing = ev->num > 0 ? ev->num : -1;
						fail_line = ev->line;
						reported = 0;
					}
				} else if (st == 1) {
					failing = 0;
				}
				break;
			}
			continue;
		}
		if (!failing || reported || (ev->tag != PTLOG_IMPL && ev->tag != PTLOG_ORDER_CHECK))
			continue;
		if (ev->num == failing)
			continue; /* fixing the item that failed */
		if (gate_add(fs, "PT-PRECISION", GATE_ERROR, lf->shown, ev->line,
			     "[#%d] is started while precision fails since the [RESULT] at line %ld; no RESULT shows precision passing in between",
			     ev->num, fail_line))
			return -1;
		reported = 1;
	}
	return 0;
}

int pt_rule_precision(const struct pt_folder *f, struct gate_findings *fs)
{
	for (size_t i = 0; i < f->nlogs; i++)
		if (precision_log(&f->logs[i], fs))
			return -1;
	if (!f->has_perf)
		return 0;
	static const char *const fixes[] = { "fix", "\xE4\xBF\xAE\xE5\xA4\x8D" /* 修复 */, "precision",
					     "\xE7\xB2\xBE\xE5\xBA\xA6", "correct", "revert", "rollback", NULL };
	long fail_line = 0;
	for (size_t i = 0; i < f->perf.nit; i++) {
		const struct ptperf_iter *it = &f->perf.it[i];
		if (fail_line) {
			const char *opt = it->optimization.value ? it->optimization.value : "";
			if (!prose_contains_any(opt, (size_t)-1, fixes) &&
			    !prose_contains_any(it->title, (size_t)-1, fixes)) {
				if (gate_add(fs, "PT-PRECISION", GATE_ERROR, f->perf_shown,
					     it->optimization.line ? it->optimization.line : it->line,
					     "'%s' changes performance while precision fails since line %ld (not rolled back, no passing precision in between)",
					     it->title, fail_line))
					return -1;
			}
			fail_line = 0;
		}
		if (!it->precision.value)
			continue;
		int st = precision_state(it->precision.value, strlen(it->precision.value));
		int adopted = -1;
		for (size_t k = 0; k < it->nm; k++)
			if (it->m[k].adopted.value)
				adopted = pt_adopted(it->m[k].adopted.value);
		if (st == 0 && adopted != 0)
			fail_line = it->precision.line;
	}
	return 0;
}
