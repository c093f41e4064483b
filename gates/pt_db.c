/* pt_db.c: PT-DB, a double-buffer change (double buffer, 双缓冲, 双 buffer,
 * multi-buffer, num_stages, T.Pipelined) has its own [DB-ANALYSIS]
 * answering Q1, Q2 and Q3 before it: in the optimization log between the
 * previous item's RESULT and the item's [IMPL]; in perf_log.md inside the
 * iteration's section or just before it. An analysis written for an
 * earlier iteration does not cover a later change. */
#include "gates/pt_rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RULE "PT-DB"

static const char *const DB_WORDS[] = { "double buffer", "double-buffer", "double_buffer",
					"\xE5\x8F\x8C\xE7\xBC\x93\xE5\x86\xB2" /* 双缓冲 */,
					"\xE5\x8F\x8C buffer", "\xE5\x8F\x8C" "buffer",
					"multi-buffer", "multi buffer", "multibuffer",
					"\xE5\xA4\x9A\xE7\xBC\x93\xE5\x86\xB2" /* 多缓冲 */,
					"num_stages", "T.Pipelined", NULL };

/* Which of Q1..Q3 lines [from, to] of text answer; returns a bit mask. */
static int answered(const struct ptlog_text *t, long from, long to)
{
	int mask = 0;
	for (long l = from; l <= to && l <= (long)t->nlines; l++) {
		const char *line = t->lines[l - 1];
		for (int q = 1; q <= 3; q++) {
			char key[4] = { 'Q', (char)('0' + q), 0, 0 };
			const char *p = strstr(line, key);
			if (!p)
				continue;
			p += 2;
			size_t rest = 0;
			for (; *p; p++)
				if (*p != ' ' && *p != ':' && *p != '*' && *p != ')')
					rest++;
			if (rest >= 2)
				mask |= 1 << (q - 1);
		}
	}
	return mask;
}

static int report_missing(struct gate_findings *fs, const char *file, long line, int mask,
			  const char *what)
{
	char miss[16] = "";
	for (int q = 0; q < 3; q++)
		if (!(mask & (1 << q))) {
			char k[5];
			snprintf(k, sizeof(k), "%sQ%d", miss[0] ? "," : "", q + 1);
			strncat(miss, k, sizeof(miss) - strlen(miss) - 1);
		}
	return gate_add(fs, RULE, GATE_ERROR, file, line, "[DB-ANALYSIS] for %s does not answer %s", what, miss);
}

static int line_has_db(const struct ptlog_text *t, long from, long to)
{
	for (long l = from; l <= to && l <= (long)t->nlines; l++)
		if (prose_contains_any(t->lines[l - 1], (size_t)-1, DB_WORDS))
			return 1;
	return 0;
}

/* The last [DB-ANALYSIS] after the last RESULT of another item than N
 * before line open, and before line before; NULL when none. */
static const struct ptlog_event *db_between(const struct ptlog *log, int N, long open, long before)
{
	long from = 0;
	for (size_t k = 0; k < log->nev; k++)
		if (log->ev[k].tag == PTLOG_RESULT && log->ev[k].num != N && log->ev[k].line < open)
			from = log->ev[k].line;
	const struct ptlog_event *db = NULL;
	for (size_t k = 0; k < log->nev; k++)
		if (log->ev[k].tag == PTLOG_DB && log->ev[k].line > from && log->ev[k].line < before)
			db = &log->ev[k];
	return db;
}

/* 1 for the notes of an item: its heading, ORDER-CHECK, IMPL, SELF-CHECK. */
static int is_item_note(enum ptlog_tag tag)
{
	return tag == PTLOG_ITEMHEAD || tag == PTLOG_ORDER_CHECK || tag == PTLOG_IMPL || tag == PTLOG_SELF_CHECK;
}

/* The [DB-ANALYSIS] written for item N's implementation in log, or NULL. */
static const struct ptlog_event *item_db(const struct ptlog *log, int N)
{
	long impl = 0, open = 0;
	for (size_t k = 0; k < log->nev; k++) {
		const struct ptlog_event *e = &log->ev[k];
		if (e->num != N)
			continue;
		if (e->tag == PTLOG_IMPL && !impl)
			impl = e->line;
		if ((e->tag == PTLOG_ITEMHEAD || e->tag == PTLOG_ORDER_CHECK || e->tag == PTLOG_IMPL) && !open)
			open = e->line;
	}
	if (!impl)
		return NULL;
	return db_between(log, N, open, impl);
}

/* 1 when the notes of the item the [IMPL] ev implements (up to 50 lines
 * past it) make a double-buffer change; *open gets the first note line up
 * to the [IMPL]. */
static int impl_changes_db(const struct ptlog *log, const struct ptlog_event *ev, long *open)
{
	int db_change = 0;
	*open = ev->line;
	for (size_t k = 0; k < log->nev; k++) {
		const struct ptlog_event *e = &log->ev[k];
		if (e->num != ev->num || e->line > ev->end + 50 || !is_item_note(e->tag))
			continue;
		if (e->line < *open && e->line <= ev->line)
			*open = e->line;
		long to = e->tag == PTLOG_ITEMHEAD ? e->line : e->end;
		if (line_has_db(&log->text, e->line, to))
			db_change = 1;
	}
	return db_change;
}

/* A double-buffer change made by the [IMPL] ev has its [DB-ANALYSIS],
 * answering Q1..Q3. 0, -1 on allocation failure. */
static int check_impl(const struct pt_logfile *lf, const struct ptlog_event *ev, struct gate_findings *fs)
{
	const struct ptlog *log = &lf->log;
	int N = ev->num;
	long open;
	if (!impl_changes_db(log, ev, &open))
		return 0;
	const struct ptlog_event *db = db_between(log, N, open, ev->line);
	char what[32];
	snprintf(what, sizeof(what), "[#%d]", N);
	if (!db)
		return gate_add(fs, RULE, GATE_ERROR, lf->shown, ev->line,
				"[IMPL-#%d] makes a double-buffer change without a [DB-ANALYSIS] (Q1 MTE3 in the loop, Q2 cross-iteration accumulator, Q3 sync) before it",
				N);
	int mask = answered(&log->text, db->line, db->end);
	if (mask != 7 && report_missing(fs, lf->shown, db->line, mask, what))
		return -1;
	return 0;
}

static int check_log(const struct pt_logfile *lf, struct gate_findings *fs)
{
	const struct ptlog *log = &lf->log;
	for (size_t i = 0; i < log->nev; i++) {
		const struct ptlog_event *ev = &log->ev[i];
		if (ev->tag == PTLOG_IMPL && ev->num > 0 && check_impl(lf, ev, fs))
			return -1;
	}
	return 0;
}

/* End of the [DB-ANALYSIS] section starting at line: the next heading. */
static long db_end(const struct ptlog_text *t, long line)
{
	long l = line + 1;
	for (; l <= (long)t->nlines; l++) {
		const char *s = t->lines[l - 1];
		while (*s == ' ')
			s++;
		if (*s == '#')
			break;
	}
	return l - 1;
}

/* The first [DB-ANALYSIS] line of perf_log iteration i (after the
 * previous iteration's end), 0 when none. */
static long iter_db(const struct ptperf *p, size_t i)
{
	long prev_end = i ? p->it[i - 1].end : 0;
	for (size_t k = 0; k < p->ndb; k++)
		if (p->db_lines[k] > prev_end && p->db_lines[k] <= p->it[i].end)
			return p->db_lines[k];
	return 0;
}

/* 1 when an item the optimization names ("[#2] T.Pipelined(...)") has its
 * [DB-ANALYSIS] in an optimization log. */
static int covered_by_log(const struct pt_folder *f, const char *opt)
{
	int covered = 0;
	for (const char *q = opt ? strchr(opt, '#') : NULL; q && !covered; q = strchr(q + 1, '#')) {
		long num = strtol(q + 1, NULL, 10);
		for (size_t k = 0; num > 0 && k < f->nlogs && !covered; k++)
			covered = item_db(&f->logs[k].log, (int)num) != NULL;
	}
	return covered;
}

/* Iteration i makes a double-buffer change without an analysis of its
 * own: names the last earlier analysis when there is one. */
static int report_no_db(const struct pt_folder *f, size_t i, long at, struct gate_findings *fs)
{
	const struct ptperf *p = &f->perf;
	long prev_end = i ? p->it[i - 1].end : 0;
	long earlier = 0;
	for (size_t k = 0; k < p->ndb; k++)
		if (p->db_lines[k] <= prev_end)
			earlier = p->db_lines[k];
	if (earlier)
		return gate_add(fs, RULE, GATE_ERROR, f->perf_shown, at,
				"'%s' makes a double-buffer change without its own [DB-ANALYSIS] (the last one, line %ld, belongs to an earlier iteration)",
				p->it[i].title, earlier);
	return gate_add(fs, RULE, GATE_ERROR, f->perf_shown, at,
			"'%s' makes a double-buffer change without a [DB-ANALYSIS] (Q1 MTE3 in the loop, Q2 cross-iteration accumulator, Q3 sync) before it",
			p->it[i].title);
}

/* A double-buffer change of perf_log iteration i has its own analysis
 * answering Q1..Q3 (or one in the optimization log). */
static int check_perf_iter(const struct pt_folder *f, size_t i, struct gate_findings *fs)
{
	const struct ptperf *p = &f->perf;
	const struct ptperf_iter *it = &p->it[i];
	const char *opt = it->optimization.value;
	if (!prose_contains_any(it->title, (size_t)-1, DB_WORDS) &&
	    !(opt && prose_contains_any(opt, (size_t)-1, DB_WORDS)))
		return 0;
	long db = iter_db(p, i);
	long at = it->optimization.line ? it->optimization.line : it->line;
	if (!db)
		return covered_by_log(f, opt) ? 0 : report_no_db(f, i, at, fs);
	int mask = answered(&p->text, db, db_end(&p->text, db));
	if (mask != 7) {
		char what[200];
		snprintf(what, sizeof(what), "'%s'", it->title);
		if (report_missing(fs, f->perf_shown, db, mask, what))
			return -1;
	}
	return 0;
}

static int check_perf(const struct pt_folder *f, struct gate_findings *fs)
{
	for (size_t i = 0; i < f->perf.nit; i++)
		if (check_perf_iter(f, i, fs))
			return -1;
	return 0;
}

int pt_rule_db(const struct pt_folder *f, struct gate_findings *fs)
{
	for (size_t i = 0; i < f->nlogs; i++)
		if (check_log(&f->logs[i], fs))
			return -1;
	return f->has_perf ? check_perf(f, fs) : 0;
}
