/* optlog.c: streaming reader of opt_log.md (optlog.h). */
#include "io/optlog.h"
#include "io/lineio.h"
#include "io/mdread.h"
#include "util/uname.h"
#include "io/fileops.h"
#include "model/ptlog.h"
#include "util/utf8.h"
#include "util/prose.h"
#include "util/strbuf.h"
#include "util/text.h"
#include "util/decimal.h"
#include "util/swar.h"

#include <errno.h>
#include <stddef.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_PROBLEMS 20
/* opt_log.md is read whole (Markdown needs the whole document); a file
 * beyond this is read up to here and the rest is a problem. */
#define OPTLOG_MAX_BYTES ((size_t)32 << 20)
#define MAX_ROWS 100000   /* final table rows kept (bounded memory) */
#define MAX_TABLES 200000
#define MAX_ITEMS 100000  /* rounds, claims, numbers, suppressions kept */

struct ctx {
	struct optlog *lg;
	unsigned long code_block; /* the block of the ```json code kept last (lg->codes) */
	size_t code_bytes;     /* text kept in lg->codes so far (OPTLOG_CODES_TOTAL) */
	size_t code_len, code_cap; /* the last code block's text: length, allocated */
	struct text_bytes tb;  /* the current line's bytes, once tb_ok (line_bytes) */
	int tb_ok;
	/* the last shown line of prose or heading (a table's caption when it
	 * stands right above the header row) */
	char *cap;
	size_t cap_len, cap_cap;
	long cap_line;
	struct text_bytes cap_tb;
	struct text_bytes row_tb; /* the header row's bytes */
	int summary_folded;    /* the last Final Summary sits in <details> */
	int folded;            /* the current line sits in <details> */
	long hround[7];        /* round of the open heading per level, -1 */
	long hidx[7];          /* index into lg->rounds per level, -1 */
	int in_summary, summary_level;
	int in_fptd, fptd_level;
	long fptd_line;        /* the last Final Performance Test Data heading */
	size_t fptd_ratios, fptd_geomeans; /* lg->ratios / geomeans read before it */
	long h1_since_summary; /* first H1 heading after the last summary's, 0 none */
	int fig_base, fig_final; /* baseline and final columns of the open table, -1 */
	int fig_table;         /* the open table's figures replaced lg->figs */
	int fig_label;         /* its column naming the workloads (0: the first) */
	int in_table;
	size_t table;          /* index of the open table */
	int table_final;       /* the open table is the v2 Final table */
	int col[5];            /* kernel, workload, baseline, final, candidate */
	int crlf_seen;
	int stop_seen;
	int sect_unit;         /* prose since the last heading names a duration unit */
	int sum_col;           /* final column of a table in the Final Summary, -1 */
	int sum_label;         /* the column naming its rows' workloads (0: the first) */
	double sum_mul;        /* its unit, microseconds per unit */
	/* the line of prose being read: a paragraph's soft-broken lines that
	 * continue it are joined to it, as the page shows them (prose_flush) */
	struct strbuf pend;
	long pend_line;        /* its first source line; 0 when none is pending */
};

/* ---- small string helpers (ASCII case folding only; UTF-8 bytes pass) ---- */

static int lc(int c)
{
	return (c >= 'A' && c <= 'Z') ? c + 32 : c;
}

static int starts_ci(const char *s, const char *p)
{
	while (*p) {
		if (lc((unsigned char)*s) != lc((unsigned char)*p))
			return 0;
		s++;
		p++;
	}
	return 1;
}

static int is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static const char *skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* Skips spaces and Markdown emphasis/code marks. */
static const char *skip_marks(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '*' || *s == '`')
		s++;
	return s;
}

/* ':' or the full-width '：' (EF BC 9A); returns bytes, 0 when neither. */
static size_t colon_at(const char *s)
{
	if (*s == ':')
		return 1;
	if ((unsigned char)s[0] == 0xEF && (unsigned char)s[1] == 0xBC && (unsigned char)s[2] == 0x9A)
		return 3;
	return 0;
}

/* util's number scanner, under the name this file's scanners use */
static size_t optlog_read_number(const char *s, double *out)
{
	return decimal_scan_marked(s, out);
}

/* ---- vectors ---- */

static int grow(void **v, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return 0;
	size_t c = *cap ? *cap * 2 : 8;
	void *nv = realloc(*v, c * size);
	if (!nv)
		return -1;
	*v = nv;
	*cap = c;
	return 0;
}
#define PUSH(lg, name) (grow((void **)&(lg)->name, &(lg)->cap_##name, (lg)->n_##name, sizeof(*(lg)->name)))

static int add_problem(struct optlog *lg, long line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int add_problem(struct optlog *lg, long line, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	if (lg->n_problems >= MAX_PROBLEMS)
		return 0;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (PUSH(lg, problems))
		return -1;
	char *m = strdup(buf);
	if (!m)
		return -1;
	lg->problems[lg->n_problems].line = line;
	lg->problems[lg->n_problems].message = m;
	lg->n_problems++;
	return 0;
}

void optlog_init(struct optlog *lg)
{
	memset(lg, 0, sizeof(*lg));
	lg->noise_pct = NAN;
	lg->max_rounds = -1;
	lg->max_experiments = -1;
	lg->blank = 1;
	lg->runs = 1;
}

static void clear_summary(struct optlog *lg)
{
	for (size_t i = 0; i < lg->n_claims; i++)
		free(lg->claims[i].workload);
	lg->n_claims = 0;
	for (size_t i = 0; i < lg->n_ratios; i++) {
		free(lg->ratios[i].workload);
		free(lg->ratios[i].quote);
	}
	lg->n_ratios = 0;
	lg->n_geomeans = 0;
	lg->figs_claims = 0;
	lg->n_summary_rounds = 0;
	lg->n_summary_round_lines = 0;
	free(lg->best);
	lg->best = NULL;
	lg->best_line = 0;
	lg->nothing_adopted = 0;
	lg->stop = OPTLOG_STOP_NONE;
	lg->stop_line = 0;
}

static void clear_figs(struct optlog *lg)
{
	for (size_t i = 0; i < lg->n_figs; i++)
		free(lg->figs[i].label);
	lg->n_figs = 0;
	lg->figs_table_line = 0;
}

static void clear_prev_claims(struct optlog *lg)
{
	for (size_t i = 0; i < lg->n_prev_claims; i++)
		free(lg->prev_claims[i].workload);
	lg->n_prev_claims = 0;
}

static void clear_final_rows(struct optlog *lg)
{
	for (size_t i = 0; i < lg->n_final_rows; i++) {
		free(lg->final_rows[i].kernel_id);
		free(lg->final_rows[i].workload_id);
		free(lg->final_rows[i].final_candidate_id);
	}
	lg->n_final_rows = 0;
}

void optlog_release(struct optlog *lg)
{
	clear_summary(lg);
	clear_final_rows(lg);
	clear_figs(lg);
	clear_prev_claims(lg);
	free(lg->figs);
	free(lg->prev_claims);
	for (size_t i = 0; i < lg->n_suppressions; i++) {
		free(lg->suppressions[i].rule);
		free(lg->suppressions[i].reason);
	}
	for (size_t i = 0; i < lg->n_problems; i++)
		free(lg->problems[i].message);
	for (size_t i = 0; i < lg->n_notes; i++)
		free(lg->notes[i].quote);
	free(lg->notes);
	for (size_t i = 0; i < lg->n_cell_rows; i++) {
		for (int k = 0; k < lg->cell_rows[i].ncells; k++)
			free(lg->cell_rows[i].cells[k]);
		free(lg->cell_rows[i].cells);
	}
	free(lg->cell_rows);
	free(lg->tables);
	free(lg->rounds);
	free(lg->superseded);
	free(lg->claims);
	free(lg->ratios);
	free(lg->geomeans);
	free(lg->summary_rounds);
	free(lg->summary_round_lines);
	free(lg->final_rows);
	free(lg->suppressions);
	free(lg->problems);
	for (size_t i = 0; i < lg->n_codes; i++)
		free(lg->codes[i].text);
	free(lg->codes);
	optlog_init(lg);
}

/* ---- classification ---- */

static long r_abbrev(const char *s, const char *p)
{
	if (*p != 'R' || (p > s && (is_alpha((unsigned char)p[-1]) || is_digit((unsigned char)p[-1]) ||
				   p[-1] == '_' || p[-1] == '-' || p[-1] == '/')))
		return -1;
	const char *q = p + 1;
	if (!is_digit((unsigned char)*q))
		return -1;
	char *end;
	long v = strtol(q, &end, 10);
	if (is_alpha((unsigned char)*end) || is_digit((unsigned char)*end) || *end == '.' || *end == '_')
		return -1;
	return v;
}

/* N of "round N" (not inside a word; '#' or '-' may come before N) in s,
 * tb (NULL or s's bytes) ruling it out at once; -1 when none. */
static long round_word_in(const char *s, const struct text_bytes *tb)
{
	if (!text_may_hold(tb, "round"))
		return -1;
	for (const char *p = s; (p = text_find_ci(p, "round")) != NULL; p += 5) {
		if (p > s && is_alpha((unsigned char)p[-1]))
			continue;
		const char *q = skip_ws(p + 5);
		if (*q == '#' || *q == '-')
			q = skip_ws(q + 1);
		if (is_digit((unsigned char)*q))
			return strtol(q, NULL, 10);
	}
	return -1;
}

/* N of the first "RN" in s (r_abbrev), as round_word_in. */
static long r_abbrev_in(const char *s, const struct text_bytes *tb)
{
	if (!text_may_hold(tb, "R"))
		return -1;
	for (const char *p = s; (p = strchr(p, 'R')) != NULL; p++) {
		long v = r_abbrev(s, p);
		if (v >= 0)
			return v;
	}
	return -1;
}

/* N of "第 N 轮" in s, as round_word_in. */
static long round_cn_in(const char *s, const struct text_bytes *tb)
{
	const char *p = text_may_hold(tb, "第") ? strstr(s, "第") : NULL;
	if (!p)
		return -1;
	const char *q = skip_ws(p + strlen("第"));
	if (!is_digit((unsigned char)*q))
		return -1;
	char *end;
	long v = strtol(q, &end, 10);
	return strncmp(skip_ws(end), "轮", strlen("轮")) == 0 ? v : -1;
}

/* "round N" / "RN" / "第 N 轮" anywhere in s (tb: NULL or s's bytes); -1
 * when none. *word (may be NULL) is set to 1 when it came from Round/RN, 0
 * from 第 N 轮. */
static long round_in_w(const char *s, const struct text_bytes *tb, int *word)
{
	long v = round_word_in(s, tb);
	if (v < 0)
		v = r_abbrev_in(s, tb);
	if (word)
		*word = 1;
	if (v >= 0)
		return v;
	v = round_cn_in(s, tb);
	if (v >= 0 && word)
		*word = 0;
	return v;
}

static long round_in(const char *s)
{
	return round_in_w(s, NULL, NULL);
}

/* The length of the parenthesis at s, ASCII or full-width: an opening
 * one (`(`, `（`) or, when closing, a closing one; 0 when there is none. */
static size_t paren_at(const char *s, int closing)
{
	if (*s == (closing ? ')' : '('))
		return 1;
	const char *w = closing ? "）" : "（";
	return strncmp(s, w, strlen(w)) == 0 ? strlen(w) : 0;
}

/* The text after the opening bracket of a numbering, `(` (*open = 1) or
 * `（` (*open = 3, its length); s itself (*open = 0) when there is none. */
static const char *numbering_open(const char *s, int *open)
{
	*open = (int)paren_at(s, 0);
	return s + *open;
}

/* Past the Chinese numerals (一 .. 十, 百) at q; q when there are none. */
static const char *skip_cn_numerals(const char *q)
{
	static const char *const cn[] = { "一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "百", NULL };
	for (;;) {
		int hit = 0;
		for (int i = 0; cn[i]; i++)
			if (strncmp(q, cn[i], strlen(cn[i])) == 0) {
				q += strlen(cn[i]);
				hit = 1;
			}
		if (!hit)
			return q;
	}
}

/* The end of the number that starts a numbering at q: digits with inner
 * dots (`8.1`), Chinese numerals, or, outside brackets (open 0), Roman
 * numerals followed by `.` or `、`. NULL when there is no such number. */
static const char *numbering_number(const char *q, int open)
{
	const char *num = q;
	if (is_digit((unsigned char)*q)) {
		while (is_digit((unsigned char)*q) || (*q == '.' && is_digit((unsigned char)q[1])))
			q++;
		return q;
	}
	q = skip_cn_numerals(q);
	if (q == num && !open) {
		while (*q == 'I' || *q == 'V' || *q == 'X')
			q++;
		if (q != num && *q != '.' && strncmp(q, "、", strlen("、")) != 0)
			return NULL;
	}
	return q == num ? NULL : q;
}

/* After the number of a numbering (q, the number starting at num): the
 * text after its closing bracket (open as numbering_open() set it), else
 * after its separator (`、`, `．`, `：`, `）`, `.`, `)`, `:`) or the space of
 * `8 Final Summary`, marks skipped; NULL when the numbering does not end
 * there. */
static const char *numbering_end(const char *q, const char *num, int open)
{
	static const char *const seps[] = { "、", "．", "：", "）", ".", ")", ":", NULL };
	if (open) /* the closing bracket of the same width */
		return paren_at(q, 1) == (size_t)open ? skip_marks(q + open) : NULL;
	for (int i = 0; seps[i]; i++)
		if (strncmp(q, seps[i], strlen(seps[i])) == 0)
			return skip_marks(q + strlen(seps[i]));
	/* `8 Final Summary`, `8.1 Iteration 2`: a number and a space */
	if ((*q == ' ' || *q == '\t') && is_digit((unsigned char)*num) && is_alpha((unsigned char)*skip_ws(q)))
		return skip_marks(q);
	return NULL;
}

/* Skips a heading's numbering: `8. `, `8、`, `8.1 `, `8) `, `一、`,
 * `（八）`, `(8)`, `IV. `; returns s unchanged when there is none. */
static const char *skip_numbering(const char *s)
{
	int open;
	const char *num = numbering_open(skip_marks(s), &open);
	const char *q = numbering_number(num, open);
	const char *after = q ? numbering_end(q, num, open) : NULL;
	return after ? after : s;
}

/* Round of a heading that opens a round section, or -1; *word set to 1
 * when the heading is led by Round / RN. */
static long heading_round_w(const char *t, int *word)
{
	t = skip_marks(t);
	*word = 0;
	static const char *const words[] = { "iteration", "iter", "round", "迭代", "轮次", NULL };
	for (int i = 0; words[i]; i++) {
		if (!starts_ci(t, words[i]))
			continue;
		const char *q = t + strlen(words[i]);
		if (is_alpha((unsigned char)*q))
			continue;
		q = skip_ws(q);
		if (*q == '#' || *q == '-')
			q = skip_ws(q + 1);
		if (is_digit((unsigned char)*q)) {
			*word = i == 2;
			return strtol(q, NULL, 10);
		}
	}
	long v = r_abbrev(t, t);
	if (v >= 0) {
		*word = 1;
		return v;
	}
	if (strncmp(t, "第", strlen("第")) == 0) {
		const char *q = skip_ws(t + strlen("第"));
		char *end;
		if (is_digit((unsigned char)*q)) {
			long r = strtol(q, &end, 10);
			if (strncmp(skip_ws(end), "轮", strlen("轮")) == 0)
				return r;
		}
	}
	return -1;
}

/* The v2 Final Performance Test Data heading (or `Final Performance Data`,
 * and the same in Chinese: 最终性能测试数据, 最终性能数据), at its start. */
static int is_fptd_heading(const char *t)
{
	static const char *const w[] = { "final performance test data", "final performance data",
					  "最终性能测试数据", "最终性能数据", NULL };
	for (int i = 0; w[i]; i++)
		if (starts_ci(t, w[i]))
			return 1;
	return 0;
}

/* A final confirmation heading: says final and confirmation (tb: the
 * heading line's bytes). */
static int is_confirm_heading(const char *t, const struct text_bytes *tb)
{
	static const char *const fin[] = { "final", "最终", "终测", "终版", "终态", NULL };
	static const char *const conf[] = { "confirm", "verif", "validat", "re-measure", "remeasure",
					    "re-run", "rerun", "确认", "验证", "复采", "复测", "重测",
					    "全配置", "全组合", "全量", "终测", "复核", NULL };
	int f = 0;
	for (int i = 0; fin[i] && !f; i++) {
		const char *p = text_find_ci_tb(t, tb, fin[i]);
		/* `final` as a word (not `finalize`) */
		if (p && i == 0 && is_alpha((unsigned char)p[5]) && lc((unsigned char)p[5]) != 's')
			p = NULL;
		if (p && i == 0 && p > t && is_alpha((unsigned char)p[-1]))
			p = NULL;
		f = p != NULL;
	}
	/* `Final Summary` is not a confirmation round; `Final Performance Test
	 * Data` re-measures the final file (a v1 log's confirmation) */
	if (text_find_ci_tb(t, tb, "final summary"))
		return 0;
	if (is_fptd_heading(t))
		return 1;
	return f && text_find_any_ci(t, tb, conf) >= 0; /* confirmation: looked for after final */
}

/* A header cell naming a duration (tb: NULL or the bytes of its row). */
static int names_duration(const char *cell, const struct text_bytes *tb)
{
	if (text_find_ci_tb(cell, tb, "duration"))
		return 1;
	if (text_find_ci_tb(cell, tb, "µs") || text_find_ci_tb(cell, tb, "μs"))
		return 1;
	if (!text_may_hold(tb, "us"))
		return 0;
	for (const char *p = cell; (p = text_find_ci(p, "us")) != NULL; p += 2) {
		int before = (p == cell) ? 0 : is_alpha((unsigned char)p[-1]);
		if (!before && !is_alpha((unsigned char)p[2]))
			return 1;
	}
	return 0;
}

static int shows_incumbent(const char *s, const struct text_bytes *tb)
{
	static const char *const marks[] = { "current best", "current_best", "current-best",
					     "currentbest", "(best)", "（best）", "[best]", "incumbent",
					     "=best", "= best", "当前最优", "当前 best", "当前best", "当前最佳",
					     "当前最好", "现最优", "best so far", NULL };
	return text_find_any_ci(s, tb, marks) >= 0;
}

static int header_vs(const char *cell)
{
	const char *c = skip_marks(cell);
	return starts_ci(c, "候选 vs") || starts_ci(c, "候选vs") || starts_ci(c, "candidate vs") ||
	       starts_ci(c, "candidates vs");
}

/* Strips list markers, quote marks and emphasis at the start. */
static const char *strip_lead(const char *s)
{
	s = skip_ws(s);
	while (*s == '>')
		s = skip_ws(s + 1);
	if ((*s == '-' || *s == '*' || *s == '+') && (s[1] == ' ' || s[1] == '\t'))
		s = skip_ws(s + 1);
	else if (is_digit((unsigned char)*s)) {
		const char *q = s;
		while (is_digit((unsigned char)*q))
			q++;
		if ((*q == '.' || *q == ')') && (q[1] == ' ' || q[1] == '\t'))
			s = skip_ws(q + 1);
	}
	return s;
}

static int is_list_item(const char *s)
{
	s = skip_ws(s);
	return ((*s == '-' || *s == '*' || *s == '+') && (s[1] == ' ' || s[1] == '\t'));
}

/* Copies s[0..n) into a malloc'd label with emphasis, backticks, colons and
 * spaces trimmed at both ends; NULL when nothing is left. */
static char *clean_label(const char *s, size_t n)
{
	while (n > 0 && (*s == ' ' || *s == '\t' || *s == '*' || *s == '`'))
		s++, n--;
	for (;;) {
		if (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '*' ||
			      s[n - 1] == '`' || s[n - 1] == ':'))
			n--;
		else if (n >= 3 && (unsigned char)s[n - 3] == 0xEF && (unsigned char)s[n - 2] == 0xBC &&
			 (unsigned char)s[n - 1] == 0x9A)
			n -= 3;
		else
			break;
	}
	if (n == 0)
		return NULL;
	char *r = malloc(n + 1);
	if (!r)
		return NULL;
	memcpy(r, s, n);
	r[n] = '\0';
	return r;
}

/* Unit after a number: returns the multiplier to microseconds (1 for us,
 * µs, μs, 1000 for ms, 0.001 for ns, 1e6 for s; 0 when none) and advances
 * *p past it. */
static double read_unit(const char **p)
{
	static const struct {
		const char *u;
		double mul;
	} units[] = { { "us", 1 }, { "µs", 1 }, { "μs", 1 }, { "ms", 1000 }, { "ns", 0.001 },
		      { "微秒", 1 }, { "毫秒", 1000 }, { "纳秒", 0.001 }, { "s", 1e6 } };
	const char *s = skip_ws(*p);
	while (*s == '*' || *s == '`')
		s++;
	s = skip_ws(s);
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t n = strlen(units[i].u);
		int ascii = (unsigned char)units[i].u[0] < 0x80;
		if ((ascii ? starts_ci(s, units[i].u) : strncmp(s, units[i].u, n) == 0) &&
		    !(ascii && is_alpha((unsigned char)s[n]))) {
			*p = s + n;
			return units[i].mul;
		}
	}
	return 0;
}

/* The name of a unit's multiplier, for notes. */
static const char *unit_name(double mul)
{
	return mul == 1000 ? "ms" : mul == 0.001 ? "ns" : mul == 1e6 ? "s" : "us";
}

/* An arrow between a before and an after figure (`→`, `->`, `⟶`, `=>`,
 * `降至`, `降到`, `降为`, `优化到`, `to`); skips it and returns 1. */
static int skip_arrow(const char **p)
{
	static const char *const arrows[] = { "→", "->", "⟶", "=>", "⇒", "降至", "降到", "降为", "下降到",
					      "下降至", "优化到", "优化至", "减少到", "减少至", "to ", NULL };
	const char *q = skip_ws(*p);
	while (*q == '*' || *q == '`')
		q++;
	q = skip_ws(q);
	for (int i = 0; arrows[i]; i++)
		if (strncmp(q, arrows[i], strlen(arrows[i])) == 0) {
			*p = skip_ws(q + strlen(arrows[i]));
			return 1;
		}
	return 0;
}

/* A figure at *p: a number and its time unit (mul 0 when none stated);
 * advances *p past both. Returns 0 when no number is there. */
static int read_figure(const char **p, double *v, double *mul)
{
	const char *q = skip_ws(*p);
	size_t n = optlog_read_number(q, v);
	if (!n)
		return 0;
	q += n;
	const char *u = q;
	*mul = read_unit(&u);
	*p = *mul != 0 ? u : q;
	return 1;
}

/* The number of time figures (a number with a time unit) in s that do not
 * follow a baseline word: what a claim line shows beyond its own. */
static int stray_figures(const char *s)
{
	int n = 0;
	for (const char *p = s; *p; p++) {
		if (!is_digit((unsigned char)*p) || (p > s && (is_digit((unsigned char)p[-1]) || p[-1] == '.')))
			continue;
		double v, mul;
		const char *q = p;
		if (p > s && is_alpha((unsigned char)p[-1]))
			continue; /* part of a name: w0, r1_tile */
		if (read_figure(&q, &v, &mul) && mul != 0) {
			const char *b = p;
			int base = 0;
			for (int k = 0; k < 16 && b > s; k++)
				b--;
			base = text_find_ci(b, "baseline") && text_find_ci(b, "baseline") < p;
			if (!base && !(strstr(b, "基线") && strstr(b, "基线") < p))
				n++;
			p = q - 1;
		}
	}
	return n;
}

static double baseline_after(const char *s)
{
	const char *p = text_find_ci(s, "baseline");
	double v;
	if (!p)
		return NAN;
	p += 8;
	p = skip_ws(p);
	size_t c = colon_at(p);
	if (c)
		p += c;
	else if (*p == '=')
		p++;
	p = skip_ws(p);
	if (optlog_read_number(p, &v))
		return v;
	return NAN;
}

/* Where a correction of the figure before it starts in p (after `更正为`,
 * `修正为`, `corrected:`, `corrected to`, `actually`, `实际为`), or NULL. */
static const char *corrected_at(const char *p)
{
	static const char *const w[] = { "corrected to", "corrected:", "corrected：", "correction:",
					 "更正为", "修正为", "更正：", "修正：", "实际为", "actually", NULL };
	for (int i = 0; w[i]; i++) {
		const char *q = text_find_ci(p, w[i]);
		if (q)
			return skip_ws(q + strlen(w[i]));
	}
	return NULL;
}

static int note_text(struct optlog *lg, enum optlog_note_kind kind, long line, const char *why, const char *text,
		     double value, const char *unit);

/* A claim of final_us (written in a unit of fmul us) with the baseline
 * base (bmul); a unit of 0 is us. */
static int add_claim(struct optlog *lg, long line, char *label, double final_us, double base,
		     double fmul, double bmul)
{
	if (lg->n_claims >= MAX_ITEMS || PUSH(lg, claims)) {
		free(label);
		return -1;
	}
	struct optlog_claim *c = &lg->claims[lg->n_claims++];
	c->line = line;
	c->workload = label;
	c->final_us = final_us;
	c->baseline_us = base;
	c->final_mul = fmul != 0 ? fmul : 1;
	c->base_mul = bmul != 0 ? bmul : 1;
	c->soft = 0;
	c->spelled = 0;
	return 0;
}

/* `... final_latency: N us ...`, k pointing at the key in s: a claim
 * with the label before the key and the baseline stated after the value.
 * Read whole: `B → F` is a baseline then the final, a corrected figure
 * (`64 us (corrected: 58 us)`, `更正为 58 us`) is the one claimed, and a
 * line showing more time figures than the gate can attribute is noted with
 * the one read. Returns 0, or -1 when out of memory. */
/* A unit written in a key (`final_latency (us)`, `（ms）`, `_us`): its
 * multiplier to microseconds (0: none), *p moved past it. */
static double key_unit(const char **p)
{
	const char *q = *p;
	if (*q == '_') {
		const char *u = q + 1;
		double m = read_unit(&u);
		if (m != 0) {
			*p = u;
			return m;
		}
		return 0;
	}
	q = skip_ws(q);
	size_t open = paren_at(q, 0);
	if (!open)
		return 0;
	const char *u = q + open;
	double m = read_unit(&u);
	u = skip_ws(u);
	size_t close = paren_at(u, 1);
	if (m == 0 || !close)
		return 0;
	*p = u + close;
	return m;
}

/* After the key of a claim, a parenthetical that names the workload
 * (`Final latency (small): 70 us`): its text as a label (malloc'd), p
 * moved past it; NULL, p unchanged, when there is none. */
static char *key_workload(const char **p)
{
	const char *q = skip_ws(*p);
	size_t open = paren_at(q, 0);
	if (!open)
		return NULL;
	const char *a = q + open, *e = a;
	while (*e && !paren_at(e, 1) && e - a < 64)
		e++;
	size_t close = paren_at(e, 1);
	if (!close || e == a)
		return NULL;
	char *label = clean_label(a, (size_t)(e - a));
	if (label)
		*p = e + close;
	return label;
}

static int claim_final_latency(struct optlog *lg, const char *s, const char *k, size_t klen, int spelled,
			       long line)
{
	const char *p = k + klen;
	double v, mul, base = NAN, bmul = 0;
	double key_mul = key_unit(&p); /* `final_latency (ms): 0.064`, `final_latency_us:` */
	/* `Final latency (small): 70 us`: the workload after the key */
	char *named = key_mul == 0 ? key_workload(&p) : NULL;
	while (*p == '*' || *p == '`')
		p++;
	p = skip_ws(p);
	size_t c = colon_at(p);
	if (!c && *p == '=')
		c = 1;
	if (!c || (p = skip_ws(p + c), !read_figure(&p, &v, &mul)) || (mul == 0 && key_mul == 0 && spelled)) {
		/* the spelled-out key (`final latency`) is prose unless its figure
		 * carries a time unit */
		free(named);
		return 0;
	}
	if (mul == 0)
		mul = key_mul != 0 ? key_mul : 1;
	const char *after = p;
	double f, fm;
	if (skip_arrow(&after) && read_figure(&after, &f, &fm)) {
		base = v * mul;
		bmul = mul;
		v = f;
		mul = fm != 0 ? fm : mul;
		p = after;
	}
	const char *cor = corrected_at(p);
	if (cor && read_figure(&cor, &f, &fm)) {
		v = f;
		mul = fm != 0 ? fm : mul;
		p = cor;
	}
	const char *lead = strip_lead(s);
	char *label = lead < k ? clean_label(lead, (size_t)(k - lead)) : NULL;
	if (named && !label)
		label = named;
	else
		free(named);
	double stated_base = baseline_after(p);
	if (isnan(base))
		base = stated_base;
	int extra = stray_figures(p);
	if (extra > 0 && note_text(lg, OPTLOG_NOTE_AMBIGUOUS, line, "ambiguous", s, v, unit_name(mul)))
		return -1;
	if (add_claim(lg, line, label, v * mul, base, mul, bmul))
		return -1;
	lg->claims[lg->n_claims - 1].spelled = spelled;
	return 0;
}

/* The first colon (`:` or `：`) in s, its length in *clen; NULL when none. */
static const char *first_colon(const char *s, size_t *clen)
{
	for (const char *p = s; *p; p++)
		if ((*clen = colon_at(p)) != 0)
			return p;
	return NULL;
}

/* `- smoke: 30.75 us（1.01×）`: a soft claim of us for the label lead ..
 * colon, a claim only when the label is a workload. Returns 0, or -1 when
 * out of memory. */
static int soft_claim(struct optlog *lg, const char *lead, const char *colon, double v, double mul,
		      long line)
{
	char *label = clean_label(lead, (size_t)(colon - lead));
	if (!label)
		return 0;
	if (add_claim(lg, line, label, v * mul, NAN, mul, 0))
		return -1;
	lg->claims[lg->n_claims - 1].soft = 1;
	return 0;
}

/* The list item s in arrow form, `- W: B → F us` (the unit of B defaults
 * to F's), or `- W: N us` (soft_claim()). Returns 0, or -1 when out of
 * memory. */
static int claim_arrow(struct optlog *lg, const char *s, long line)
{
	const char *lead = strip_lead(s);
	size_t clen = 0;
	const char *colon = first_colon(lead, &clen);
	if (!colon)
		return 0;
	const char *p = skip_ws(colon + clen);
	double b, f, mb, mf;
	if (!read_figure(&p, &b, &mb))
		return 0;
	while (*p == '*' || *p == '`' || *p == ' ')
		p++;
	if (!skip_arrow(&p))
		return mb != 0 ? soft_claim(lg, lead, colon, b, mb, line) : 0;
	if (!read_figure(&p, &f, &mf) || mf == 0)
		return 0;
	if (mb == 0)
		mb = mf;
	char *label = clean_label(lead, (size_t)(colon - lead));
	return add_claim(lg, line, label, f * mf, b * mb, mf, mb);
}

/* `... final_latency: N us ...` or `- W: B → F us`. */
static int scan_claim(struct optlog *lg, const char *s, long line)
{
	/* the contract's key, or spelled out as words (`Final latency`) */
	static const char *const keys[] = { "final_latency", "final latency", "final-latency", NULL };
	for (int i = 0; keys[i]; i++) {
		const char *k = text_find_ci(s, keys[i]);
		if (k)
			return claim_final_latency(lg, s, k, strlen(keys[i]), i > 0, line);
	}
	if (!is_list_item(s))
		return 0;
	return claim_arrow(lg, s, line);
}

/* Whether t starts with a winner label (best, winner, 最终候选, final
 * candidate, final_candidate) as a whole word. */
static int is_best_label(const char *t)
{
	static const char *const labels[] = { "best", "winner", "最终候选", "final candidate",
					      "final_candidate", NULL };
	int hit = 0;
	for (int i = 0; labels[i]; i++)
		if (starts_ci(t, labels[i]) && !is_alpha((unsigned char)t[strlen(labels[i])]) &&
		    t[strlen(labels[i])] != '_')
			hit = 1;
	return hit;
}

/* The text after the colon that ends a label within t's first 32 bytes,
 * marks skipped; NULL when there is none. */
static const char *after_label_colon(const char *t)
{
	const char *p = t;
	size_t c = 0;
	for (int i = 0; *p && i < 32; p++, i++)
		if ((c = colon_at(p)) != 0)
			break;
	return c ? skip_marks(p + c) : NULL;
}

/* The end of the candidate name at p: the first space, tab, backtick,
 * asterisk, opening bracket, comma, semicolon or full stop (ASCII or full
 * width), or the end of the text. */
static const char *name_end(const char *p)
{
	static const char *const wide[] = { "（", "，", "；", "。", NULL };
	for (; *p && !strchr(" \t`*(,;", *p); p++)
		for (int i = 0; wide[i]; i++)
			if (strncmp(p, wide[i], strlen(wide[i])) == 0)
				return p;
	return p;
}

static int scan_best(struct optlog *lg, const char *s, long line)
{
	const char *t = skip_marks(strip_lead(s));
	if (!is_best_label(t) || lg->best)
		return 0;
	const char *p = after_label_colon(t);
	if (!p)
		return 0;
	const char *e = name_end(p);
	if (e == p)
		return 0;
	lg->best = malloc((size_t)(e - p) + 1);
	if (!lg->best)
		return -1;
	memcpy(lg->best, p, (size_t)(e - p));
	lg->best[e - p] = '\0';
	lg->best_line = line;
	if (strcmp(lg->best, "baseline") == 0 || strcmp(lg->best, "none") == 0 ||
	    strcmp(lg->best, "无") == 0)
		lg->nothing_adopted = 1;
	return 0;
}

/* Whether p starts a whole integer in s: a digit not preceded by a digit,
 * a dot, a letter or '_'. */
static int starts_integer(const char *s, const char *p)
{
	if (!is_digit((unsigned char)*p))
		return 0;
	return p == s || !(is_digit((unsigned char)p[-1]) || p[-1] == '.' || is_alpha((unsigned char)p[-1]) ||
			   p[-1] == '_');
}

/* Whether a workload noun (workload, shape, dispatch, case, 组合, 个算例)
 * starts within 40 bytes after q and before end, with no digit, closing
 * bracket, comma, '=' or colon before it. */
static int scope_noun_follows(const char *q, const char *end)
{
	static const char *const nouns[] = { "workload", "shape", "dispatch", "case", "组合", "个算例", NULL };
	for (int k = 0; q < end && k < 40; q++, k++) {
		if (is_digit((unsigned char)*q) || (*q && strchr("),=:", *q)) || strncmp(q, "）", strlen("）")) == 0 ||
		    strncmp(q, "，", strlen("，")) == 0 || strncmp(q, "：", strlen("：")) == 0)
			return 0;
		for (int i = 0; nouns[i]; i++)
			if (starts_ci(q, nouns[i]))
				return 1;
	}
	return 0;
}

/* The number of workloads a geomean claim is scoped to, read before the
 * claimed value at end: an integer followed (within a few words, no digit
 * or closing bracket between) by workload(s), shape(s), dispatch, case(s)
 * or 组合 — `几何平均（3 真实 workload）2.93×`, `geomean over 5 workloads`.
 * -1 when none. */
static long geomean_scope(const char *s, const char *end)
{
	for (const char *p = s; p < end; p++) {
		if (!starts_integer(s, p))
			continue;
		char *e;
		long n = strtol(p, &e, 10);
		if (*e == '.' || n <= 0)
			continue;
		if (scope_noun_follows(e, end))
			return n;
	}
	return -1;
}

static int scan_geomean(struct optlog *lg, const char *s, long line)
{
	const char *const *keys = prose_geomean_words;
	const char *k = NULL;
	for (int i = 0; keys[i] && !k; i++)
		k = text_find_ci(s, keys[i]);
	if (!k)
		return 0;
	for (const char *p = k; *p; p++) {
		double v;
		if (!is_digit((unsigned char)*p) || (p > s && (is_digit((unsigned char)p[-1]) || p[-1] == '.')))
			continue;
		size_t n = optlog_read_number(p, &v);
		if (!n)
			continue;
		const char *q = p + n;
		while (*q == '*')
			q++;
		q = skip_ws(q);
		int pct = *q == '%' || strncmp(q, "％", strlen("％")) == 0;
		if (((*q == 'x' || *q == 'X') && !is_alpha((unsigned char)q[1])) ||
		    strncmp(q, "×", strlen("×")) == 0 || strncmp(q, "倍", strlen("倍")) == 0 || pct) {
			if (lg->n_geomeans >= MAX_ITEMS)
				return 0;
			if (PUSH(lg, geomeans))
				return -1;
			struct optlog_number *g = &lg->geomeans[lg->n_geomeans];
			const char *dot = memchr(p, '.', n);
			g->line = line;
			g->value = pct && p > s && (p[-1] == '-' || (p - s >= 3 && strncmp(p - 3, "−", 3) == 0)) ? -v : v;
			g->scope = geomean_scope(s, p);
			g->percent = pct;
			g->decimals = dot ? (int)(p + n - dot - 1) : 0;
			lg->n_geomeans++;
			return 0;
		}
		p += n - 1;
	}
	return 0;
}

/* A ratio figure at p (a digit): `2.5x`, `2.5 ×`, `2.5倍`, `2-fold` (speedup) or
 * `-43.1%`, `+650%` (a change in %), its sign read from just before it.
 * Returns the bytes it spans from p (0 when p starts none); sets *kind,
 * *v (signed for %) and *dec (digits after the point). */
static size_t ratio_at(const char *s, const char *p, enum optlog_ratio_kind *kind, double *v, int *dec)
{
	size_t n = optlog_read_number(p, v);
	if (!n)
		return 0;
	const char *dot = memchr(p, '.', n);
	*dec = dot ? (int)(p + n - dot - 1) : 0;
	const char *q = p + n;
	while (*q == '*' || *q == ' ')
		q++;
	if (((*q == 'x' || *q == 'X') && !is_alpha((unsigned char)q[1]) && !is_digit((unsigned char)q[1])) ||
	    (strncmp(q, "×", strlen("×")) == 0 && !is_alpha((unsigned char)q[2])) || /* `4×vcast` counts ops */
	    strncmp(q, "倍", strlen("倍")) == 0) {
		*kind = OPTLOG_RATIO_SPEEDUP;
		return (size_t)(q - p) + (*q == 'x' || *q == 'X' ? 1 : strncmp(q, "×", 2) == 0 ? 2 : 3);
	}
	const char *f = *q == '-' ? q + 1 : q;
	if (starts_ci(f, "fold") && !is_alpha((unsigned char)f[4])) { /* `2-fold`, `2.5 fold` */
		*kind = OPTLOG_RATIO_SPEEDUP;
		return (size_t)(f + 4 - p);
	}
	if (*q == '%' || strncmp(q, "％", strlen("％")) == 0) {
		*kind = OPTLOG_RATIO_PERCENT;
		const char *b = p;
		while (b > s && (b[-1] == '*' || b[-1] == ' '))
			b--;
		if (b > s && b[-1] == '-')
			*v = -*v;
		else if (b - s >= 3 && strncmp(b - 3, "−", 3) == 0)
			*v = -*v;
		return (size_t)(q - p) + (*q == '%' ? 1 : 3);
	}
	return 0;
}

/* A range's second end after a figure (`~`, `～`, `–`, `-`, `to`, `至`). */
static const char *range_next(const char *q)
{
	static const char *const seps[] = { "~", "～", "–", "—", "-", "至", "to ", NULL };
	q = skip_ws(q);
	for (int i = 0; seps[i]; i++)
		if (strncmp(q, seps[i], strlen(seps[i])) == 0) {
			const char *r = skip_ws(q + strlen(seps[i]));
			while (*r == '*')
				r++;
			return is_digit((unsigned char)*r) ? r : NULL;
		}
	return NULL;
}

/* 1 when the key of a `KEY: ...` line (or the line) names an overall
 * claim: speedup, improvement, reduction, overall, 加速比, 提升, 降低. */
static int names_ratio_claim(const char *t)
{
	static const char *const w[] = { "speedup", "speed-up", "speed up", "improvement", "improved",
					  "reduction", "overall", "faster", "加速", "提升", "降低", "下降",
					  "减少", "缩短", NULL };
	return text_find_any_ci(t, NULL, w) >= 0;
}

static int push_ratio(struct optlog *lg, long line, const char *s, char *label, enum optlog_ratio_kind kind,
		      double v, double hi, int dec, int prose)
{
	if (lg->n_ratios >= MAX_ITEMS || PUSH(lg, ratios)) {
		free(label);
		return lg->n_ratios >= MAX_ITEMS ? 0 : -1;
	}
	struct optlog_ratio *r = &lg->ratios[lg->n_ratios];
	r->line = line;
	r->kind = kind;
	r->workload = label;
	r->value = v;
	r->hi = hi;
	r->decimals = dec;
	r->prose = prose;
	r->quote = strndup(s, 200);
	if (!r->quote) {
		free(label);
		return -1;
	}
	lg->n_ratios++;
	return 0;
}

/* ---- a claim needs a claim (issue 35 item 5) ---- */

/* Bytes of a clause separator at q (，；。、, ; —— （ (), 0 none. */
static size_t clause_sep(const char *q)
{
	/* a key's colon is no separator: the key says what its value is */
	static const char *const seps[] = { "，", "；", "。", "、", "——", "（", NULL };
	if (*q == ',' || *q == ';' || *q == '(')
		return 1;
	for (int i = 0; seps[i]; i++)
		if (strncmp(q, seps[i], strlen(seps[i])) == 0)
			return strlen(seps[i]);
	return 0;
}

/* Copies [a, b) into w (at most n - 1 bytes, the last ones kept). */
static void span_copy(char *w, size_t n, const char *a, const char *b)
{
	size_t k = (size_t)(b - a);
	if (k >= n) {
		a = b - (n - 1);
		k = n - 1;
	}
	memcpy(w, a, k);
	w[k] = '\0';
}

/* Whether the figure at [p, e) of the line s is a claim's figure by what
 * its words say of it: not when its clause negates it (`无 >2x 结构性空间`,
 * `no >2x headroom`), bounds it (`> 2×`, `超 10 倍`, `above 3%`), calls it a
 * deviation, an error or noise (`偏差 0%`, `deviation 0.4%`, `误差`), when
 * its sentence disowns it (`单轮首测 -5.2% 系双态膨胀`, `an outlier we
 * discard`), or when it counts samples (`median of 20`, `15 runs`, `n=15`).
 * One reading of meaning for every kind of figure (ratios and times). */
static int disowned_figure(const char *s, const char *p, const char *e)
{
	static const char *const negate[] = { "无", "没有", "未", "不", "no ", "not ", "without", "never", NULL };
	static const char *const bound[] = { ">", "<", "≥", "≤", "＞", "＜", "超过", "超", "大于", "小于", "高于",
					      "低于", "above", "below", "over", "under", "at least", "at most",
					      "more than", "less than", "exceed", NULL };
	static const char *const about[] = { "偏差", "误差", "deviation", "error", "drift", "漂移", "噪声", "noise",
					      "差异", "diff", "tolerance", "容差", "阈值", "threshold", "门槛", NULL };
	static const char *const disown[] = { "膨胀", "假象", "异常", "离群", "作废", "不可信", "无效", "剔除",
					       "舍弃", "不计", "门槛", "阈值", "artifact", "outlier", "spurious",
					       "discard", "unreliable", "invalid", "ignored", "threshold", NULL };
	static const char *const count_before[] = { "median of", "mean of", "average of", "best of", "n=", "n =",
						     "median-of-", NULL };
	static const char *const count_after[] = { "runs", "samples", "次", "iterations", "launches", "reps",
						    "repeats", "个样本", "个 run", NULL };
	char w[160];
	/* the clause before the figure */
	const char *c = p - s > 80 ? p - 80 : s;
	for (const char *q = c; q < p; q++) {
		size_t k = clause_sep(q);
		if (k && q + k <= p)
			c = q + k, q += k - 1;
	}
	span_copy(w, sizeof(w), c, p);
	if (text_find_any_ci(w, NULL, negate) >= 0 || text_find_any_ci(w, NULL, about) >= 0 ||
	    text_find_any_ci(w, NULL, count_before) >= 0)
		return 1;
	/* a bound right before it (marks and spaces between) */
	const char *b = p;
	while (b > s && (b[-1] == ' ' || b[-1] == '*' || b[-1] == '~' || b[-1] == '-' || b[-1] == '+'))
		b--;
	span_copy(w, 16, b - (b - s > 12 ? 12 : b - s), b);
	for (int i = 0; bound[i]; i++) {
		size_t n = strlen(bound[i]), l = strlen(w);
		if (l >= n && strncasecmp(w + l - n, bound[i], n) == 0)
			return 1;
	}
	/* the sentence after it */
	const char *t = e;
	while (*t && t - e < 90 && strncmp(t, "。", strlen("。")) != 0 && strncmp(t, "；", strlen("；")) != 0 &&
	       *t != ';')
		t++;
	span_copy(w, sizeof(w), e, t);
	if (text_find_any_ci(w, NULL, disown) >= 0)
		return 1;
	const char *a = skip_ws(e);
	for (int i = 0; count_after[i]; i++)
		if (starts_ci(a, count_after[i]))
			return 1;
	return 0;
}

/* The text after the first speedup factor that follows a geomean key in
 * s (what scan_geomean reads); NULL when there is none. */
static const char *after_first_factor(const char *s, const char *const *geo)
{
	const char *k = NULL;
	for (int i = 0; geo[i] && !k; i++)
		k = text_find_ci(s, geo[i]);
	for (const char *p = k; p && *p; p++) {
		enum optlog_ratio_kind kind;
		double v;
		int dec;
		if (!is_digit((unsigned char)*p) || (p > s && (is_digit((unsigned char)p[-1]) || p[-1] == '.')))
			continue;
		size_t n = ratio_at(s, p, &kind, &v, &dec);
		if (n && kind == OPTLOG_RATIO_SPEEDUP)
			return p + n;
	}
	return NULL;
}

/* Speedups and changes in % claimed in the last Final Summary: on a line
 * claiming a workload's final latency (`- W: final_latency: N us (...,
 * -43.1%)`, `- W: B → F us (3.1x)`), for that workload; on a `KEY: ...`
 * line whose key names a claim (`总提升: 2.72x ~ 3.13x`, `overall:
 * 20.0%`, `speedup: 2.5×`), overall. The first figure of each kind is
 * the claim, a range (`A ~ B`) as its two ends; any further figure is read
 * as prose (struct optlog_ratio.prose). Geometric means are read by
 * scan_geomean. Returns 0, -1 when out of memory. */
static int scan_ratios(struct optlog *lg, const char *s, long line, size_t claims_before)
{
	const char *const *geo = prose_geomean_words;
	const char *lead = strip_lead(s), *from = NULL;
	char *label = NULL;
	int seen[2] = { 0, 0 };
	if (text_find_any_ci(s, NULL, geo) >= 0) {
		/* scan_geomean reads the geometric mean (the first factor after
		 * the key); any figure after it is read as prose */
		if (!(from = after_first_factor(s, geo)))
			return 0;
		seen[OPTLOG_RATIO_SPEEDUP] = seen[OPTLOG_RATIO_PERCENT] = 1;
	} else if (lg->n_claims > claims_before) {
		const struct optlog_claim *c = &lg->claims[lg->n_claims - 1];
		if (c->workload && !(label = strdup(c->workload)))
			return -1;
		from = lead;
	} else {
		size_t clen = 0;
		const char *colon = first_colon(lead, &clen);
		if (!colon || colon - lead > 80)
			return 0;
		char key[96];
		size_t kn = (size_t)(colon - lead);
		memcpy(key, lead, kn);
		key[kn] = '\0';
		if (!names_ratio_claim(key))
			return 0;
		from = colon + clen;
	}
	for (const char *p = from; *p; p++) {
		if (!is_digit((unsigned char)*p) || (p > s && (is_digit((unsigned char)p[-1]) || p[-1] == '.' ||
							     is_alpha((unsigned char)p[-1]))))
			continue;
		enum optlog_ratio_kind kind;
		double v, hi = NAN;
		int dec;
		size_t n = ratio_at(s, p, &kind, &v, &dec);
		if (!n)
			continue;
		if (disowned_figure(s, p, p + n)) {
			p += n - 1;
			continue;
		}
		const char *r = range_next(p + n);
		enum optlog_ratio_kind k2;
		double v2;
		int d2;
		size_t n2 = r ? ratio_at(s, r, &k2, &v2, &d2) : 0;
		if (n2 && k2 == kind) {
			hi = v2;
			n = (size_t)(r - p) + n2; /* the range is one claim */
		}
		/* the first figure of each kind is the line's claim; any further
		 * one is read too, as prose (a warning when unsupported) */
		int extra = seen[kind];
		seen[kind] = 1;
		char *l = label ? strdup(label) : NULL;
		if (label && !l)
			return -1;
		if (push_ratio(lg, line, s, l, kind, v, hi, dec, extra))
			return -1;
		p += n - 1;
	}
	free(label);
	return 0;
}

/* Whether one of words is written near the figure at [p, e) of s: in the
 * 40 bytes before it or the 24 after (the same clause, roughly a dozen
 * CJK characters or a few words). */
static int word_near(const char *s, const char *p, const char *e, const char *const *words)
{
	char w[128];
	const char *a = p - s > 40 ? p - 40 : s;
	size_t tail = strnlen(e, 24);
	size_t n = (size_t)(e - a) + tail;
	if (n >= sizeof(w))
		n = sizeof(w) - 1;
	memcpy(w, a, n);
	w[n] = '\0';
	return text_find_any_ci(w, NULL, words) >= 0;
}

/* A unit in brackets in the 40 bytes before p (`latency (us): 32.0`):
 * its multiplier to microseconds, 0 when none. */
static double unit_before(const char *s, const char *p)
{
	for (const char *q = p - s > 40 ? p - 40 : s; q < p; q++) {
		if (!paren_at(q, 0))
			continue;
		const char *k = q;
		double m = key_unit(&k);
		if (m != 0 && k <= p)
			return m;
	}
	return 0;
}

/* A line of the last Final Summary's prose that no other recogniser read
 * (no `final_latency:` claim, no claim key, no geomean, winner or stop
 * reason): a reader still takes a figure next to a claim word for a
 * claim (`the kernel is now 2.5x faster`, `latency went from 80 us to
 * 32 us`). Speedups and changes in % are read as prose ratios, time
 * figures as prose notes; the gate warns on those the records do not
 * support. Figures inside names (`w0`, `r1_tile`) are not figures. */
static int scan_prose(struct optlog *lg, const char *s, long line)
{
	static const char *const time_words[] = { "latency", "final", "duration", "runtime", "time", "时延",
						  "耗时", "延迟", "最终", "用时", NULL };
	static const char *const ratio_words[] = { "speedup", "speed-up", "speed up", "faster", "slower",
						   "improv", "reduc", "latency", "time", "perf", "加速", "提升",
						   "降低", "下降", "减少", "缩短", "时延", "耗时", "延迟", "性能",
						   "速度", "倍", "提速", "加快", "降幅", NULL };
	static const char *const base_words[] = { "baseline", "基线", "基准", NULL };
	int tw = text_find_any_ci(s, NULL, time_words) >= 0;
	int rw = text_find_any_ci(s, NULL, ratio_words) >= 0;
	static const char *const other[] = { "utiliz", "利用", "hit", "命中", "occupancy", "bandwidth", "带宽",
					     "throughput", "吞吐", NULL };
	/* `2.5x faster than baseline`: compared with the baseline in so many
	 * words, so checked as a claim line is */
	int prose = text_find_any_ci(s, NULL, base_words) < 0;
	for (const char *p = s; (tw || rw) && *p; p++) {
		if (!is_digit((unsigned char)*p) ||
		    (p > s && (is_digit((unsigned char)p[-1]) || p[-1] == '.' || p[-1] == '_' ||
			       is_alpha((unsigned char)p[-1]))))
			continue;
		enum optlog_ratio_kind kind;
		double v, mul;
		int dec;
		size_t n = ratio_at(s, p, &kind, &v, &dec);
		if (n) {
			if (rw && word_near(s, p, p + n, ratio_words) && !word_near(s, p, p + n, other) &&
			    !disowned_figure(s, p, p + n) && push_ratio(lg, line, s, NULL, kind, v, NAN, dec, prose))
				return -1;
			p += n - 1;
			continue;
		}
		const char *q = p;
		if (read_figure(&q, &v, &mul) && mul == 0)
			mul = unit_before(s, p); /* `Final latency (us): 32.0` */
		if (mul != 0) {
			size_t at = lg->n_notes;
			if (tw && word_near(s, p, q, time_words) && !disowned_figure(s, p, q) &&
			    note_text(lg, OPTLOG_NOTE_PROSE, line, "prose", s, v, unit_name(mul)))
				return -1;
			if (lg->n_notes > at)
				lg->notes[at].value_us = v * mul;
			p = q - 1;
		}
	}
	return 0;
}

static void scan_stop(struct ctx *cx, const char *s, long line)
{
	static const char *const keys[] = { "中止原因", "收束原因", "终止原因", "停止原因",
					    "stop_reason", "stop reason", "终止条件", NULL };
	struct optlog *lg = cx->lg;
	if (cx->stop_seen)
		return;
	const char *k = NULL;
	for (int i = 0; keys[i] && !k; i++)
		k = text_find_ci(s, keys[i]);
	if (!k)
		return;
	static const struct { const char *w; enum optlog_stop v; } vals[] = {
		{ "plateau", OPTLOG_STOP_PLATEAU }, { "budget_exhausted", OPTLOG_STOP_BUDGET },
		{ "budget exhausted", OPTLOG_STOP_BUDGET }, { "预算耗尽", OPTLOG_STOP_BUDGET },
		{ "success", OPTLOG_STOP_SUCCESS }, { "blocked", OPTLOG_STOP_BLOCKED },
		{ "user_stop", OPTLOG_STOP_USER }, { NULL, OPTLOG_STOP_NONE } };
	const char *best = NULL;
	enum optlog_stop v = OPTLOG_STOP_OTHER;
	for (int i = 0; vals[i].w; i++) {
		const char *p = text_find_ci(k, vals[i].w);
		if (p && (!best || p < best)) {
			best = p;
			v = vals[i].v;
		}
	}
	cx->stop_seen = 1;
	lg->stop = v;
	lg->stop_line = line;
}

/* `KEY: N` / `KEY = N` in s (KEY found anywhere, the value possibly in
 * emphasis) into *dst, when *dst is still unset (< 0). */
static void budget_key(const char *s, const struct text_bytes *tb, const char *key, long *dst)
{
	if (*dst >= 0)
		return;
	const char *k = text_find_ci_tb(s, tb, key);
	if (!k)
		return;
	const char *p = skip_ws(k + strlen(key));
	size_t c = colon_at(p);
	if (c)
		p += c;
	else if (*p == '=')
		p++;
	else
		return;
	p = skip_ws(p);
	while (*p == '*' || *p == '`')
		p++;
	if (is_digit((unsigned char)*p))
		*dst = strtol(p, NULL, 10);
}

/* The experiments of `预算 N 轮 … M 个分支|实验`: the first number within 16
 * bytes after q (past 轮), into lg->max_experiments when it is unset and
 * the number counts 分支 or 实验. */
static void budget_cn_experiments(struct optlog *lg, const char *q)
{
	for (int i = 0; *q && i < 16; q++, i++) {
		if (!is_digit((unsigned char)*q))
			continue;
		char *end;
		long e = strtol(q, &end, 10);
		const char *w = skip_ws(end);
		if (strncmp(w, "个", strlen("个")) == 0)
			w += strlen("个");
		if (lg->max_experiments < 0 &&
		    (strncmp(w, "分支", strlen("分支")) == 0 || strncmp(w, "实验", strlen("实验")) == 0))
			lg->max_experiments = e;
		return;
	}
}

/* `预算 N 轮 [… M 个分支|实验]`: the budgets still unset, in Chinese. */
static void budget_cn(struct optlog *lg, const char *s, const struct text_bytes *tb)
{
	const char *k = text_find_ci_tb(s, tb, "预算");
	if (!k || (lg->max_rounds >= 0 && lg->max_experiments >= 0))
		return;
	const char *p = skip_ws(k + strlen("预算"));
	if (!is_digit((unsigned char)*p))
		return;
	char *end;
	long r = strtol(p, &end, 10);
	const char *q = skip_ws(end);
	if (strncmp(q, "轮", strlen("轮")) != 0)
		return;
	if (lg->max_rounds < 0)
		lg->max_rounds = r;
	budget_cn_experiments(lg, q + strlen("轮"));
}

/* The noise threshold and the budgets (max_rounds, max_experiments) stated
 * on line s (tb: its bytes), each kept from its first statement. */
static void scan_budgets(struct optlog *lg, const char *s, const struct text_bytes *tb, long line)
{
	if (isnan(lg->noise_pct)) {
		double v = ptlog_noise_pct_tb(s, tb); /* the one scraper of the threshold */
		if (!isnan(v)) {
			lg->noise_pct = v;
			lg->noise_line = line;
		}
	}
	budget_key(s, tb, "max_rounds", &lg->max_rounds);
	budget_key(s, tb, "max_experiments", &lg->max_experiments);
	budget_cn(lg, s, tb);
}

static int scan_sup(const char *text, long line, struct optlog *lg);

int optlog_scan_suppressions(const char *text, size_t len, long line, struct optlog *lg)
{
	/* text[0..len) need not be NUL-terminated */
	char *copy = malloc(len + 1);
	if (!copy)
		return -1;
	memcpy(copy, text, len);
	copy[len] = '\0';
	int rc = scan_sup(copy, line, lg);
	free(copy);
	return rc;
}

/* The end of the rule id at q: letters, digits, '-', '_' and '*', without
 * trailing '-' ("S4-X --" must not eat the separator). */
static const char *rule_end(const char *q)
{
	const char *r = q;
	while (*r && (is_alpha((unsigned char)*r) || is_digit((unsigned char)*r) || *r == '-' ||
		      *r == '_' || *r == '*'))
		r++;
	while (r > q && r[-1] == '-')
		r--;
	return r;
}

/* The reason of a suppression: after `--` at r (not `-->`, before the
 * comment's end when there is one), trailing blanks trimmed, into
 * sp->reason (left NULL when empty). Returns 0, or -1 when out of memory. */
static int sup_reason(struct optlog_suppression *sp, const char *r, const char *end)
{
	const char *dd = skip_ws(r);
	if (strncmp(dd, "--", 2) != 0 || (end && dd >= end) || dd[2] == '>')
		return 0;
	const char *rs = skip_ws(dd + 2);
	const char *re = end ? end : rs + strlen(rs);
	while (re > rs && (re[-1] == ' ' || re[-1] == '\t'))
		re--;
	if (re > rs && !(sp->reason = strndup(rs, (size_t)(re - rs))))
		return -1;
	return 0;
}

/* One more suppression of line (fewer than MAX_ITEMS are kept), its rule
 * id at q, end the comment's close or NULL. Returns 0, or -1 when out of
 * memory. */
static int add_suppression(struct optlog *lg, long line, const char *q, const char *end)
{
	const char *r = rule_end(q);
	if (PUSH(lg, suppressions))
		return -1;
	struct optlog_suppression *sp = &lg->suppressions[lg->n_suppressions++];
	memset(sp, 0, sizeof(*sp));
	sp->line = line;
	if (r > q && !(sp->rule = strndup(q, (size_t)(r - q))))
		return -1;
	return sup_reason(sp, r, end);
}

static int scan_sup(const char *text, long line, struct optlog *lg)
{
	const char *p = text;
	while ((p = strstr(p, "<!--")) != NULL) {
		const char *end = strstr(p, "-->");
		const char *k = strstr(p, "tlgate-disable");
		if (!k || (end && k > end)) {
			p += 4;
			continue;
		}
		if (lg->n_suppressions >= MAX_ITEMS)
			return 0;
		if (add_suppression(lg, line, skip_ws(k + strlen("tlgate-disable")), end) != 0)
			return -1;
		p = end ? end + 3 : p + 4;
	}
	return 0;
}

/* ---- the line machine ---- */

static int keep(char **buf, size_t *cap, size_t *len, const char *s, size_t n)
{
	if (n + 1 > *cap) {
		size_t c = *cap ? *cap : 256;
		while (c < n + 1)
			c *= 2;
		char *b = realloc(*buf, c);
		if (!b)
			return -1;
		*buf = b;
		*cap = c;
	}
	memcpy(*buf, s, n);
	(*buf)[n] = '\0';
	*len = n;
	return 0;
}

static long innermost_round(const struct ctx *cx, long *idx)
{
	for (int l = 6; l >= 1; l--)
		if (cx->hround[l] >= 0) {
			if (idx)
				*idx = cx->hidx[l];
			return cx->hround[l];
		}
	if (idx)
		*idx = -1;
	return -1;
}

static int cell_is(const char *cell, const char *name)
{
	const char *c = skip_marks(cell);
	size_t n = strlen(name);
	if (!starts_ci(c, name))
		return 0;
	c = skip_marks(c + n);
	return *c == '\0';
}

/* Prose naming a measured duration: Task Duration, duration, latency,
 * 时延, 耗时, µs/μs, `(us)`, `_us`, a number followed by us/ms, msprof,
 * perf_records, median of N. */
static int prose_duration(const char *s, const struct text_bytes *tb)
{
	static const char *const w[] = { "duration", "latency", "时延", "耗时", "µs", "μs", "(us)",
					 "（us）", "_us", "msprof", "perf_records", "median of", "median-of",
					 NULL };
	if (text_find_any_ci(s, tb, w) >= 0)
		return 1;
	if (!text_may_hold(tb, "us"))
		return 0;
	for (const char *p = s; (p = text_find_ci(p, "us")) != NULL; p += 2) {
		if (is_alpha((unsigned char)p[2]))
			continue;
		const char *q = p;
		while (q > s && q[-1] == ' ')
			q--;
		if (q > s && is_digit((unsigned char)q[-1]))
			return 1;
	}
	return 0;
}

/* Innermost round-section entry, and the innermost one not led by the
 * word Round (-1 when none). */
static void innermost_entries(const struct ctx *cx, long *any, long *norun)
{
	*any = *norun = -1;
	for (int l = 6; l >= 1; l--) {
		long i = cx->hidx[l];
		if (i < 0)
			continue;
		if (*any < 0)
			*any = i;
		if (*norun < 0 && !cx->lg->rounds[i].round_word)
			*norun = i;
	}
}

/* The caption of table t (the last shown line of prose or heading above
 * its header row, with no table or code between): its line, the incumbent mark, the round it names
 * and a duration unit it states. Sets t->cap_round (-1 without one). */
static void table_caption(const struct ctx *cx, struct optlog_table *t)
{
	t->cap_round = -1;
	if (!(cx->cap_line > 0 && cx->cap_len > 0))
		return;
	t->caption_line = cx->cap_line;
	if (shows_incumbent(cx->cap, &cx->cap_tb))
		t->has_incumbent = 1;
	int w = 0;
	t->cap_round = round_in_w(cx->cap, &cx->cap_tb, &w);
	t->cap_round_word = w;
	/* the unit stated only in the caption (a heading, a bold line, a
	 * sentence) or in the prose of the section above the table (which
	 * open_table notes: the caption is not read for it then) */
	if (!cx->sect_unit && prose_duration(cx->cap, &cx->cap_tb))
		t->cap_duration = 1;
}

/* What the header cells say (the header row's bytes serve for every
 * cell): a duration, an incumbent, and where the five
 * v2 Final table columns are (cx->col, -1 when absent). */
static void header_columns(struct ctx *cx, struct optlog_table *t, const char *const *cells, int nc)
{
	static const char *const names[5] = { "kernel_id", "workload_id", "baseline_us", "final_us",
					      "final_candidate_id" };
	const struct text_bytes *tb = &cx->row_tb;
	int named = text_may_hold(tb, "_"); /* each of the five names has one */
	for (int i = 0; i < 5; i++)
		cx->col[i] = -1;
	for (int i = 0; i < nc; i++) {
		if (!t->has_duration && names_duration(cells[i], tb))
			t->has_duration = 1;
		if (!t->has_incumbent && (shows_incumbent(cells[i], tb) || header_vs(cells[i])))
			t->has_incumbent = 1;
		for (int j = 0; j < 5 && named; j++)
			if (cx->col[j] < 0 && cell_is(cells[i], names[j]))
				cx->col[j] = i;
	}
}

/* 1 when a header cell names the final latency (final, 最终, 优化后, 调优
 *后, after), not a candidate or an id. */
static int names_final_column(const char *c)
{
	return (text_find_ci(c, "final") && !text_find_ci(c, "candidate") && !text_find_ci(c, "_id")) ||
	       strstr(c, "最终") || strstr(c, "优化后") || strstr(c, "调优后") ||
	       (text_find_ci(c, "after") && !text_find_ci(c, "vs"));
}

/* The column that names a table's rows: one after the first whose header
 * names the workload (`kernel_id | workload_id | ...`), else the first. */
static int workload_column(const char *const *cells, int nc)
{
	for (int i = 1; i < nc; i++)
		if (text_find_ci(cells[i], "workload"))
			return i;
	return 0;
}

/* In a Final Summary table, the column after the first that gives the
 * final latencies (cx->sum_col, -1 none) and its unit (cx->sum_mul). */
static void summary_column(struct ctx *cx, const char *const *cells, int nc)
{
	cx->sum_col = -1;
	cx->sum_mul = 1;
	cx->sum_label = 0;
	if (!cx->in_summary || nc < 2)
		return;
	cx->sum_label = workload_column(cells, nc);
	for (int i = 1; i < nc; i++) {
		const char *c = cells[i];
		if (names_final_column(c)) {
			cx->sum_col = i;
			cx->sum_mul = (text_find_ci(c, "ms") && !text_find_ci(c, "msprof")) ? 1000 : 1;
			return;
		}
	}
}

/* Under `Final Performance Test Data`, a table with all five v2 columns is
 * the Final table: it replaces the rows of an earlier one. */
static void final_table_check(struct ctx *cx, const struct optlog_table *t)
{
	if (!cx->in_fptd)
		return;
	for (int j = 0; j < 5; j++)
		if (cx->col[j] < 0)
			return;
	clear_final_rows(cx->lg);
	cx->lg->final_table_line = t->line;
	cx->table_final = 1;
}

/* 1 when a header cell names the baseline a final is compared with
 * (baseline, incumbent, 基线, 基准, before, 优化前). */
static int names_base_column(const char *c)
{
	static const char *const w[] = { "baseline", "incumbent", "基线", "基准", "before", "优化前", NULL };
	return text_find_any_ci(c, NULL, w) >= 0;
}

/* The baseline and final columns of a table of measured results (each
 * named once, the final one not naming the baseline), for lg->figs. */
static void fig_columns(struct ctx *cx, const char *const *cells, int nc)
{
	cx->fig_base = cx->fig_final = -1;
	cx->fig_table = 0;
	cx->fig_label = workload_column(cells, nc);
	for (int i = 1; i < nc; i++) {
		if (names_base_column(cells[i])) {
			if (cx->fig_base >= 0)
				goto none;
			cx->fig_base = i;
		} else if (names_final_column(cells[i])) {
			if (cx->fig_final >= 0)
				goto none;
			cx->fig_final = i;
		}
	}
	if (cx->fig_base >= 0 && cx->fig_final >= 0)
		return;
none:
	cx->fig_base = cx->fig_final = -1;
}

/* A header row opens a table: records it with its caption, round inputs
 * and header facts. Returns -1 on allocation failure. */
/* Keeps the cells of a row of the open table (while the log's kept text
 * stays under OPTLOG_MAX_CELL_BYTES; past it the table's cells_from is
 * -1). Returns -1 on allocation failure. */
static int keep_cells(struct ctx *cx, const struct mdread_line *ln)
{
	struct optlog *lg = cx->lg;
	struct optlog_table *t = cx->table == (size_t)-1 ? NULL : &lg->tables[cx->table];
	if (!t || t->cells_from < 0)
		return 0;
	if (lg->cell_bytes + ln->len + 64 > OPTLOG_MAX_CELL_BYTES) {
		t->cells_from = -1;
		return 0;
	}
	if (PUSH(lg, cell_rows))
		return -1;
	struct optlog_cell_row *r = &lg->cell_rows[lg->n_cell_rows];
	int n = ln->ncells < 64 ? ln->ncells : 64;
	r->line = ln->line;
	r->ncells = 0;
	r->cells = calloc((size_t)(n ? n : 1), sizeof(*r->cells));
	if (!r->cells)
		return -1;
	lg->n_cell_rows++;
	for (int i = 0; i < n; i++) {
		if (!(r->cells[i] = strdup(ln->cells[i])))
			return -1;
		r->ncells++;
		lg->cell_bytes += strlen(ln->cells[i]) + 1;
	}
	return 0;
}

static int open_table(struct ctx *cx, const struct mdread_line *ln)
{
	struct optlog *lg = cx->lg;
	cx->in_table = 1;
	cx->table_final = 0;
	if (lg->n_tables >= MAX_TABLES) {
		cx->table = (size_t)-1;
		return 0;
	}
	if (PUSH(lg, tables))
		return -1;
	int nc = ln->ncells < 64 ? ln->ncells : 64;
	text_bytes_of(&cx->row_tb, ln->text);
	struct optlog_table *t = &lg->tables[lg->n_tables];
	memset(t, 0, sizeof(*t));
	t->line = ln->line;
	table_caption(cx, t);
	if (cx->sect_unit)
		t->cap_duration = 1;
	innermost_entries(cx, &t->sect_any, &t->sect_norun);
	t->round = t->cap_round >= 0 ? t->cap_round : innermost_round(cx, NULL);
	t->run = 0;
	header_columns(cx, t, ln->cells, nc);
	t->cells_from = (long)lg->n_cell_rows;
	cx->table = lg->n_tables++;
	if (keep_cells(cx, ln))
		return -1;
	/* a table in the Final Summary: its final column gives claims */
	summary_column(cx, ln->cells, nc);
	fig_columns(cx, (const char *const *)ln->cells, nc);
	final_table_check(cx, t);
	return 0;
}

/* A cell's figure in microseconds when a unit follows it: the whole cell
 * (`**98.80**`, `12.4 µs`) or, with lead, its leading figure followed by a
 * bracket or a space (`78.30（5 复测中位; band 75.3-78.9）`); NAN otherwise. */
static double cell_figure(const char *c, int lead)
{
	double v;
	c = skip_marks(c);
	size_t n = optlog_read_number(c, &v);
	if (!n)
		return NAN;
	const char *e = c + n;
	while (*e == '*' || *e == '`' || *e == ' ')
		e++;
	const char *u = e;
	double m = read_unit(&u);
	if (m != 0)
		e = u;
	while (*e == '*' || *e == '`' || (!lead && *e == ' '))
		e++;
	if (*e != '\0' && !(lead && (*e == ' ' || paren_at(e, 0))))
		return NAN;
	return m != 0 ? v * m : v;
}

static double cell_number(const char *c)
{
	return cell_figure(c, 0);
}


/* A row of a table with a baseline and a final column: one figure of the
 * log's last such table (lg->figs; the first such row replaces the
 * figures of an earlier table). Returns -1 on allocation failure. */
static int fig_row(struct ctx *cx, const char *const *cells, int n, long lineno)
{
	struct optlog *lg = cx->lg;
	if (n <= cx->fig_base || n <= cx->fig_final || n <= cx->fig_label)
		return 0;
	double b = cell_figure(cells[cx->fig_base], 1), f = cell_figure(cells[cx->fig_final], 1);
	if (isnan(b) || isnan(f))
		return 0;
	if (!cx->fig_table) {
		clear_figs(lg);
		lg->figs_table_line = lg->tables[cx->table].line;
		cx->fig_table = 1;
	}
	if (lg->n_figs >= MAX_ROWS || PUSH(lg, figs))
		return lg->n_figs >= MAX_ROWS ? 0 : -1;
	const char *c = skip_marks(cells[cx->fig_label]);
	size_t len = strlen(c);
	const char *par = strstr(c, " (");
	const char *cpar = strstr(c, "（");
	if (!par)
		par = strchr(c, '(');
	if (cpar && (!par || cpar < par))
		par = cpar;
	if (par && par > c)
		len = (size_t)(par - c);
	struct optlog_fig *g = &lg->figs[lg->n_figs];
	g->line = lineno;
	g->label = clean_label(c, len);
	g->base_us = b;
	g->final_us = f;
	if (!g->label)
		return 0;
	lg->n_figs++;
	return 0;
}

static char *cell_text(const char *c)
{
	c = skip_marks(c);
	size_t n = strlen(c);
	while (n > 0 && (c[n - 1] == '*' || c[n - 1] == '`' || c[n - 1] == ' '))
		n--;
	return strndup(c, n);
}

/* 1 when optlog_read_number() reads a number at s (no marks before it),
 * without reading most: digits with at most one '.', 15 of them at most
 * and no exponent after them, are one for sure (decimal_scan reads them
 * exactly, with no range to overflow); anything else is read. */
static int starts_number(const char *s)
{
	const char *p = s;
	while (is_digit((unsigned char)*p))
		p++;
	size_t nd = (size_t)(p - s);
	if (*p == '.') {
		const char *f = ++p;
		while (is_digit((unsigned char)*p))
			p++;
		nd += (size_t)(p - f);
	}
	if (nd == 0) /* neither digits nor '.' and digits */
		return 0;
	double v;
	return (nd <= 15 && *p != 'e' && *p != 'E') || optlog_read_number(s, &v) != 0;
}

/* 1 when a cell after the first (of the first 64) starts with a number. */
static int row_has_number(const char *const *cells, int n)
{
	for (int k = 1; k < n && k < 64; k++) {
		const char *c = cells[k];
		while (*c == ' ' || *c == '\t' || *c == '*' || *c == '`')
			c++;
		if (*c && starts_number(c))
			return 1;
	}
	return 0;
}

/* The speedup (`1.25x`, `1.25×`, `1.25 倍`) and the change in %
 * (`-20.0%`) a row of a Final Summary table states beside its final
 * latency, each in a cell of its own holding that one figure (read as
 * ratio_at reads a claim line's): claims of that workload (struct
 * optlog_ratio). The first of each kind; cells of the label, the final
 * and the baseline are not read. Returns -1 on allocation failure. */
static int summary_row_ratios(struct ctx *cx, const char *const *cells, int n, const char *label,
			      long lineno, const char *quote)
{
	int seen[2] = { 0, 0 };
	for (int i = 1; i < n; i++) {
		if (i == cx->sum_col || i == cx->fig_base || i == cx->sum_label)
			continue;
		struct prose_num num[2];
		const char *c = skip_marks(cells[i]);
		if (prose_numbers(c, num, 2) != 1)
			continue;
		const char *p = c + num[0].pos;
		while (*p && !is_digit((unsigned char)*p))
			p++; /* past the sign: ratio_at reads it before the digits */
		enum optlog_ratio_kind k;
		double v;
		int dec;
		if (!ratio_at(c, p, &k, &v, &dec) || seen[k] || !(fabs(v) > 0))
			continue;
		seen[k] = 1;
		char *l = strdup(label);
		if (!l || push_ratio(cx->lg, lineno, quote, l, k, v, NAN, dec, 0))
			return -1;
	}
	return 0;
}

/* A row of a Final Summary table with a final column: a claim (soft 2) of
 * the label in its workload column (else the first) at that column's
 * latency, with the baseline column's figure when the table has one, and
 * the row's ratios (summary_row_ratios). Returns -1 on allocation
 * failure. */
static int summary_row_claim(struct ctx *cx, const char *const *cells, int n, long lineno, const char *quote)
{
	struct optlog *lg = cx->lg;
	double v = n > cx->sum_col ? cell_number(cells[cx->sum_col]) : NAN;
	if (isnan(v) || n <= cx->sum_label)
		return 0;
	const char *lc = cells[cx->sum_label];
	char *label = clean_label(lc, strlen(lc));
	/* the baseline beside it, when the table has that column */
	double b = cx->fig_base > 0 && n > cx->fig_base ? cell_figure(cells[cx->fig_base], 1) : NAN;
	if (label && add_claim(lg, lineno, label, v * cx->sum_mul, isnan(b) ? NAN : b * cx->sum_mul, cx->sum_mul,
			       cx->sum_mul))
		return -1;
	if (!label)
		return 0;
	lg->claims[lg->n_claims - 1].soft = 2;
	return summary_row_ratios(cx, cells, n, label, lineno, quote);
}

/* A row of the v2 Final table: kept as an optlog_final_row when it has
 * every column. Returns -1 on allocation failure. */
static int final_row(struct ctx *cx, const char *const *cells, int nc, long lineno)
{
	struct optlog *lg = cx->lg;
	int need = 0;
	for (int j = 0; j < 5; j++)
		if (cx->col[j] > need)
			need = cx->col[j];
	if (nc <= need)
		return 0;
	if (PUSH(lg, final_rows))
		return -1;
	struct optlog_final_row *r = &lg->final_rows[lg->n_final_rows];
	r->line = lineno;
	r->kernel_id = cell_text(cells[cx->col[0]]);
	r->workload_id = cell_text(cells[cx->col[1]]);
	r->final_candidate_id = cell_text(cells[cx->col[4]]);
	r->baseline_us = cell_number(cells[cx->col[2]]);
	r->final_us = cell_number(cells[cx->col[3]]);
	if (!r->kernel_id || !r->workload_id || !r->final_candidate_id) {
		free(r->kernel_id);
		free(r->workload_id);
		free(r->final_candidate_id);
		return -1;
	}
	lg->n_final_rows++;
	return 0;
}

/* 1 when only the first cell holds text: on GitHub a line of prose right
 * under a table is shown as such a row; it holds no data. */
static int lone_first_cell(const char *const *cells, int n)
{
	for (int k = 1; k < n; k++)
		if (*skip_ws(cells[k]))
			return 0;
	return 1;
}

/* A data row of the open table: counted, and read for the incumbent mark,
 * summary claims and v2 Final rows. Returns -1 on allocation failure. */
static int table_row(struct ctx *cx, const struct mdread_line *ln)
{
	struct optlog *lg = cx->lg;
	if (cx->table == (size_t)-1 || !cx->in_table)
		return 0;
	const char *const *cells = ln->cells;
	int n = ln->ncells < 64 ? ln->ncells : 64;
	struct optlog_table *t = &lg->tables[cx->table];
	t->rows++;
	if (keep_cells(cx, ln))
		return -1;
	if (!t->has_numeric_row && row_has_number(cells, n))
		t->has_numeric_row = 1;
	if (!t->has_incumbent && n > 0 && shows_incumbent(cells[0], NULL))
		t->has_incumbent = 1;
	if (lone_first_cell(cells, n))
		return 0; /* a line of text right under a table joins it as a row */
	if (cx->sum_col > 0 && cx->in_summary && lg->n_claims < MAX_ITEMS &&
	    summary_row_claim(cx, cells, n, ln->line, ln->text))
		return -1;
	if (cx->fig_final > 0 && fig_row(cx, cells, n, ln->line))
		return -1;
	if (!cx->table_final || lg->n_final_rows >= MAX_ROWS)
		return 0;
	return final_row(cx, cells, n, ln->line);
}

static int is_remeasure(const char *s, const struct text_bytes *tb)
{
	static const char *const w[] = { "复测", "重测", "re-measure", "remeasure", "re-run", "rerun", NULL };
	return text_find_any_ci(s, tb, w) >= 0;
}

static int is_baseline_remeasure(const char *s, const struct text_bytes *tb)
{
	static const char *const base[] = { "baseline", "基线", "round 0", "round-0", "round0", "incumbent", NULL };
	static const char *const again[] = { "重测", "复测", "re-measure", "remeasure", "measured again",
					     "re-measured", "重新测", "重新采", "重采", "re-run", "rerun", NULL };
	/* both must be there: the shorter list first */
	return text_find_any_ci(s, tb, base) >= 0 && text_find_any_ci(s, tb, again) >= 0;
}

static int starts_summary(const char *t, const struct text_bytes *tb, int level, int after_summary)
{
	/* a final conclusion restates the final result as a summary does:
	 * the latest word wins; the words after the first six only for a
	 * section of the log (H1, H2, not inside a round) after a Final
	 * Summary, which it then supersedes (`## P.7 最终结果` after `## Final
	 * Summary`); before one, `## Final results` is a table of figures */
	static const char *const w[] = { "final summary", "最终总结", "最终小结", "最终结论", "终态",
					  "final conclusion", "final result", "最终结果", "交付结论", "最终交付",
					  NULL };
	const int top_only = 6;
	/* a section number such as `P.7 `, `S3 `, `A.2.1 ` before it */
	if (((*t >= 'A' && *t <= 'Z') && (is_digit((unsigned char)t[1]) || (t[1] == '.' && is_digit((unsigned char)t[2]))))) {
		const char *q = t + 1;
		while (*q == '.' || is_digit((unsigned char)*q))
			q++;
		if (*q == ' ')
			t = skip_ws(q);
	}
	for (int i = 0; w[i]; i++) {
		if (i >= top_only && (level > 2 || !after_summary))
			break;
		const char *p = text_find_ci_tb(t, tb, w[i]);
		if (!p || p - t > 8)
			continue;
		/* only marks before it (an emoji, a symbol), no word */
		int word = 0;
		for (const char *q = t; q < p; q++)
			if (is_alpha((unsigned char)*q) || is_digit((unsigned char)*q))
				word = 1;
		if (!word)
			return 1;
	}
	return 0;
}

/* The second round number of a heading whose own is r (-1 none): in
 * `Iteration 1（round 1）`, `Final Confirmation（round 5）`; *word set to 1
 * when it follows Round / RN. -1 when none. tb: the heading line's bytes. */
static long paren_round(const char *t, const struct text_bytes *tb, long r, int *word)
{
	const char *after = t;
	if (r >= 0) {
		while (*after && !is_digit((unsigned char)*after))
			after++;
		while (is_digit((unsigned char)*after))
			after++;
	}
	*word = 0;
	return round_in_w(after, tb, word);
}

/* Records a round (or final confirmation) section heading of round r at
 * level and makes it the innermost open one. Returns -1 on allocation
 * failure. */
static int push_round(struct ctx *cx, int level, const char *t, long line, long r, int word, int confirm)
{
	struct optlog *lg = cx->lg;
	if (PUSH(lg, rounds))
		return -1;
	struct optlog_round *e = &lg->rounds[lg->n_rounds];
	memset(e, 0, sizeof(*e));
	e->line = line;
	e->level = level;
	e->round_word = word;
	e->confirm = confirm;
	long pidx = -1;
	innermost_round(cx, &pidx);
	e->parent = pidx;
	e->paren_round = paren_round(t, &cx->tb, r, &e->paren_word);
	if (r < 0 && confirm)
		r = e->paren_round >= 0 ? e->paren_round : -1;
	e->numbered = r >= 0;
	e->round = r;
	if (confirm && r < 0 && pidx >= 0)
		e->round = lg->rounds[pidx].round; /* nested: the enclosing round's */
	cx->hround[level] = e->round >= 0 ? e->round : -1;
	cx->hidx[level] = (long)lg->n_rounds;
	lg->n_rounds++;
	return 0;
}

/* A Final Summary heading: the previous one becomes superseded and the
 * summary facts start over. Returns -1 on allocation failure. */
static int open_summary(struct ctx *cx, int level, long line)
{
	struct optlog *lg = cx->lg;
	if (lg->summary_line && lg->n_superseded < MAX_ITEMS) {
		if (PUSH(lg, superseded))
			return -1;
		lg->superseded[lg->n_superseded++] = lg->summary_line;
	}
	/* the claims it supersedes are kept (two final results compared) */
	if (lg->summary_line) {
		clear_prev_claims(lg);
		struct optlog_claim *t = lg->prev_claims;
		size_t tc = lg->cap_prev_claims;
		lg->prev_claims = lg->claims;
		lg->cap_prev_claims = lg->cap_claims;
		lg->n_prev_claims = lg->n_claims;
		lg->claims = t;
		lg->cap_claims = tc;
		lg->n_claims = 0;
		lg->prev_summary_line = lg->summary_line;
		lg->session_line = cx->h1_since_summary;
	}
	cx->h1_since_summary = 0;
	/* the summary lines of a Final Performance Test Data section since
	 * the previous summary belong to this one */
	size_t keep_r = 0, keep_g = 0;
	if (cx->fptd_line > lg->summary_line) {
		keep_r = cx->fptd_ratios < lg->n_ratios ? cx->fptd_ratios : lg->n_ratios;
		keep_g = cx->fptd_geomeans < lg->n_geomeans ? cx->fptd_geomeans : lg->n_geomeans;
	}
	size_t nr = lg->n_ratios, ng = lg->n_geomeans;
	for (size_t i = 0; i < keep_r; i++) {
		free(lg->ratios[i].workload);
		free(lg->ratios[i].quote);
	}
	/* (none may mean no array: memmove must not be given NULL) */
	if (nr > keep_r)
		memmove(lg->ratios, lg->ratios + keep_r, (nr - keep_r) * sizeof(*lg->ratios));
	if (ng > keep_g)
		memmove(lg->geomeans, lg->geomeans + keep_g, (ng - keep_g) * sizeof(*lg->geomeans));
	lg->n_ratios = nr - keep_r;
	lg->n_geomeans = ng - keep_g;
	if (!(cx->fptd_line > lg->summary_line))
		clear_summary(lg);
	else { /* keep the kept section's ratios and geomeans */
		struct optlog_ratio *r = lg->ratios;
		size_t n_r = lg->n_ratios, c_r = lg->cap_ratios;
		struct optlog_number *g = lg->geomeans;
		size_t n_g = lg->n_geomeans, c_g = lg->cap_geomeans;
		lg->ratios = NULL, lg->n_ratios = lg->cap_ratios = 0;
		lg->geomeans = NULL, lg->n_geomeans = lg->cap_geomeans = 0;
		clear_summary(lg);
		free(lg->ratios);
		free(lg->geomeans);
		lg->ratios = r, lg->n_ratios = n_r, lg->cap_ratios = c_r;
		lg->geomeans = g, lg->n_geomeans = n_g, lg->cap_geomeans = c_g;
	}
	cx->fptd_ratios = lg->n_ratios;
	cx->fptd_geomeans = lg->n_geomeans;
	cx->stop_seen = 0;
	lg->summary_line = line;
	cx->summary_folded = cx->folded;
	cx->in_summary = 1;
	cx->summary_level = level;
	return 0;
}

/* A heading closes the sections at its level and below: rounds, the Final
 * Summary and the Final Performance Test Data. */
static void close_sections(struct ctx *cx, int level)
{
	for (int l = level; l <= 6; l++) {
		cx->hround[l] = -1;
		cx->hidx[l] = -1;
	}
	cx->sect_unit = 0;
	if (cx->in_summary && level <= cx->summary_level)
		cx->in_summary = 0;
	if (cx->in_fptd && level <= cx->fptd_level)
		cx->in_fptd = 0;
}

static void scan_cites(struct optlog *lg, const char *s, long line);

/* An ATX heading of level with the given text (after the '#'s), the line's
 * bytes noted (line_bytes). Returns -1 on allocation failure. */
static int on_heading(struct ctx *cx, int level, const char *text, long line)
{
	struct optlog *lg = cx->lg;
	close_sections(cx, level);
	const char *t = skip_numbering(text);
	int word = 0;
	long r = heading_round_w(t, &word);
	/* a title (H1) is not a confirmation section */
	int confirm = level > 1 && is_confirm_heading(t, &cx->tb);
	if ((r >= 0 || confirm) && lg->n_rounds < MAX_ITEMS && push_round(cx, level, t, line, r, word, confirm))
		return -1;
	scan_cites(lg, text, line);
	if (text_find_ci_tb(text, &cx->tb, "skill retrospective") && lg->retrospective_line == 0)
		lg->retrospective_line = line;
	if (lg->baseline_remeasure_line == 0 && is_baseline_remeasure(text, &cx->tb))
		lg->baseline_remeasure_line = line;
	/* a Final Summary folded in <details> does not supersede a shown one */
	int shadowed = cx->folded && cx->lg->summary_line && !cx->summary_folded;
	if (starts_summary(t, &cx->tb, level, lg->summary_line != 0) && !shadowed && open_summary(cx, level, line))
		return -1;
	if ((level == 2 || level == 3) && is_fptd_heading(t)) {
		lg->final_heading_line = line;
		cx->in_fptd = 1;
		cx->fptd_level = level;
		cx->fptd_line = line;
		cx->fptd_ratios = lg->n_ratios;
		cx->fptd_geomeans = lg->n_geomeans;
	}
	if (level == 1 && lg->summary_line && !cx->h1_since_summary && !cx->in_summary)
		cx->h1_since_summary = line;
	return 0;
}

/* A summary line naming the records' round the final numbers come from:
 * `与 perf_records.jsonl round 5 逐条对账`, `(records of round 9)`. */
static int scan_cited_round(struct optlog *lg, const char *s, long line)
{
	if (!text_find_ci(s, "perf_records"))
		return 0;
	if (!text_find_ci(s, "final") && !strstr(s, "对账") && !text_find_ci(s, "reconcil") && !strstr(s, "最终") &&
	    !strstr(s, "终测"))
		return 0;
	long r = round_in(s);
	if (r < 0 || lg->n_summary_rounds >= MAX_ITEMS)
		return 0;
	if (PUSH(lg, summary_rounds) || PUSH(lg, summary_round_lines))
		return -1;
	lg->summary_rounds[lg->n_summary_rounds++] = r;
	lg->summary_round_lines[lg->n_summary_round_lines++] = line;
	return 0;
}

/* Whether the mention of a file at p in s is negated in its clause: a
 * negating word in the 30 bytes before it (`禁止产出 perf_feedback.md`, `no
 * perf_feedback.md`) or right after it (`perf_feedback.md 未产出`). */
static int mention_negated(const char *s, const char *p, size_t n)
{
	static const char *const before[] = { "禁止", "不产出", "未产出", "无需", "不需", "不输出", "不生成",
					       "不写", "未写", "没有", "no ", "not ", "without", "never", "无 ", NULL };
	static const char *const after[] = { "未产出", "不产出", "未生成", "不存在", "not ", "was not",
					      "is not", "absent", "禁止", NULL };
	char w[96];
	const char *a = p - s > 30 ? p - 30 : s;
	size_t k = (size_t)(p - a);
	memcpy(w, a, k);
	w[k] = '\0';
	if (text_find_any_ci(w, NULL, before) >= 0)
		return 1;
	k = strnlen(p + n, 24);
	memcpy(w, p + n, k);
	w[k] = '\0';
	return text_find_any_ci(w, NULL, after) >= 0;
}

/* The files of the contract a line names (optlog.h: cite_*_line). */
static void scan_cites(struct optlog *lg, const char *s, long line)
{
	static const struct { const char *name; size_t off; } F[] = {
		{ "workload_inventory", offsetof(struct optlog, cite_inventory_line) },
		{ "perf_feedback.md", offsetof(struct optlog, cite_feedback_line) },
		{ "perf_records", offsetof(struct optlog, cite_records_line) },
	};
	for (size_t i = 0; i < sizeof(F) / sizeof(F[0]); i++) {
		long *dst = (long *)((char *)lg + F[i].off);
		const char *p = *dst ? NULL : text_find_ci(s, F[i].name);
		if (p && !mention_negated(s, p, strlen(F[i].name)))
			*dst = line;
	}
}

/* A line of prose s, its bytes noted (line_bytes). Returns -1 on
 * allocation failure. */
static int on_text(struct ctx *cx, const char *s, long line)
{
	struct optlog *lg = cx->lg;
	const struct text_bytes *tb = &cx->tb; /* for every phrase list */
	long idx;
	innermost_round(cx, &idx);
	/* each flag is looked for until it is set */
	if (idx >= 0 && !lg->rounds[idx].remeasure && is_remeasure(s, tb))
		lg->rounds[idx].remeasure = 1;
	if (!cx->sect_unit && prose_duration(s, tb))
		cx->sect_unit = 1;
	if (lg->baseline_remeasure_line == 0 && is_baseline_remeasure(s, tb))
		lg->baseline_remeasure_line = line;
	scan_budgets(lg, s, tb, line);
	scan_cites(lg, s, line);
	if (!cx->in_summary && cx->in_fptd) /* a summary line under the final table */
		return scan_geomean(lg, s, line) || scan_ratios(lg, s, line, lg->n_claims) ? -1 : 0;
	if (!cx->in_summary)
		return 0;
	if (scan_cited_round(lg, s, line))
		return -1;
	size_t claims_before = lg->n_claims, ratios_before = lg->n_ratios, geo_before = lg->n_geomeans;
	size_t notes_before = lg->n_notes;
	long best_before = lg->best_line, stop_before = lg->stop_line;
	if (scan_claim(lg, s, line) || scan_best(lg, s, line) || scan_geomean(lg, s, line) ||
	    scan_ratios(lg, s, line, claims_before))
		return -1;
	/* a claim under the spelled-out key is also prose, until finish()
	 * knows which it is (drop_spelled) */
	if (lg->n_claims > claims_before && lg->claims[lg->n_claims - 1].spelled && scan_prose(lg, s, line))
		return -1;
	scan_stop(cx, s, line);
	if (lg->n_claims == claims_before && lg->n_ratios == ratios_before && lg->n_geomeans == geo_before &&
	    lg->n_notes == notes_before && lg->best_line == best_before && lg->stop_line == stop_before &&
	    scan_prose(lg, s, line))
		return -1;
	if (text_find_ci(s, "nothing adopted") || text_find_ci(s, "nothing was adopted") ||
	    text_find_ci(s, "no candidate adopted") || strstr(s, "未采纳任何") || strstr(s, "保持基线") ||
	    text_find_ci(s, "保持 baseline"))
		lg->nothing_adopted = 1;
	return 0;
}

/* The bytes of the current line s (cx->tb), noted on first use: only
 * prose and headings need them. */
static const struct text_bytes *line_bytes(struct ctx *cx, const char *s)
{
	if (!cx->tb_ok) {
		text_bytes_of(&cx->tb, s);
		cx->tb_ok = 1;
	}
	return &cx->tb;
}

/* The problems of one raw line (BOM on line 1, first CRLF, overlong,
 * NUL, invalid UTF-8), noted as the old line reader did: they concern the
 * bytes, not what is rendered. Returns -1 on allocation failure. */
static int line_problems(struct ctx *cx, const char *s, size_t len, long line, int had_cr)
{
	struct optlog *lg = cx->lg;
	if (line == 1 && lineio_has_bom(s, len)) {
		lg->has_bom = 1;
		if (add_problem(lg, 1, "file starts with a UTF-8 byte order mark"))
			return -1;
		s += 3;
		len -= 3;
	}
	if (had_cr && !cx->crlf_seen) {
		cx->crlf_seen = 1;
		lg->has_crlf = 1;
		if (add_problem(lg, line, "CRLF line ending (the file should use LF)"))
			return -1;
	}
	if (len > LINEIO_DEFAULT_LIMIT) {
		if (add_problem(lg, line, "line longer than %u bytes", (unsigned)LINEIO_DEFAULT_LIMIT))
			return -1;
		len = LINEIO_DEFAULT_LIMIT;
	}
	const char *nul = memchr(s, '\0', len);
	if (nul) {
		if (add_problem(lg, line, "line contains a NUL byte"))
			return -1;
		len = (size_t)(nul - s);
	}
	size_t bad = utf8_invalid_at(s, len);
	if (bad != (size_t)-1 && add_problem(lg, line, "invalid UTF-8 at byte %zu", bad + 1))
		return -1;
	unsigned bcp = 0;
	size_t bidi = utf8_bidi_control_at(s, len, &bcp);
	if (bidi != (size_t)-1 &&
	    add_problem(lg, line, "bidirectional control character U+%04X at byte %zu: it reorders what the page "
			"shows (digits may be shown in another order than the file holds them), so the line cannot "
			"be checked as shown; remove it", bcp, bidi + 1))
		return -1;
	for (size_t k = 0; k < len && lg->blank; k++)
		if (s[k] != ' ' && s[k] != '\t' && s[k] != '\r')
			lg->blank = 0;
	return 0;
}

/* Every raw line of buf through line_problems; counts lines and bytes. */
static int raw_lines(struct ctx *cx, const char *buf, size_t len)
{
	struct optlog *lg = cx->lg;
	size_t i = 0;
	long no = 0;
	while (i < len) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - buf) : len;
		size_t n = end - i;
		int cr = n > 0 && buf[i + n - 1] == '\r';
		if (line_problems(cx, buf + i, cr ? n - 1 : n, ++no, cr))
			return -1;
		i = end + 1;
	}
	lg->lines = no;
	lg->bytes = len;
	return 0;
}

/* Keeps s as the last shown line of prose or heading. */
static int keep_caption(struct ctx *cx, const char *s, long line)
{
	size_t n = strlen(s);
	if (keep(&cx->cap, &cx->cap_cap, &cx->cap_len, s, n))
		return -1;
	cx->cap_line = line;
	cx->cap_tb = *line_bytes(cx, s);
	return 0;
}

/* Text a reader of the rendered page would take for a claim or a Final
 * Summary: a figure with a unit (a time, x, ×, 倍, %) next to a claim word,
 * or a Final Summary heading. `kind=final round=4` is no claim. */
static int looks_like_claim(const char *s)
{
	static const char *const w[] = { "final", "latency", "speedup", "speed-up", "geomean", "improv",
					 "reduc", "faster", "时延", "耗时", "加速", "提升", "降低", "最终", "倍",
					 NULL };
	if (text_find_ci(s, "final summary") || strstr(s, "最终总结"))
		return 1;
	int figure = 0;
	for (const char *p = s; *p && !figure; p++) {
		if (!is_digit((unsigned char)*p) || (p > s && (is_digit((unsigned char)p[-1]) || p[-1] == '.')))
			continue;
		enum optlog_ratio_kind kind;
		double v, mul;
		int dec;
		const char *q = p;
		figure = (read_figure(&q, &v, &mul) && mul != 0) || ratio_at(s, p, &kind, &v, &dec) != 0;
	}
	if (!figure)
		return 0;
	for (int i = 0; w[i]; i++)
		if (text_find_ci(s, w[i]))
			return 1;
	return 0;
}

static int add_note(struct optlog *lg, enum optlog_note_kind kind, const struct mdread_line *ln)
{
	const char *why = ln->kind == MDREAD_HIDDEN ? mdread_hidden_name(ln->hidden) : "code";
	return note_text(lg, kind, ln->line, why, ln->text, NAN, NULL);
}

static int note_text(struct optlog *lg, enum optlog_note_kind kind, long line, const char *why, const char *text,
		     double value, const char *unit)
{
	if (lg->n_notes >= MAX_PROBLEMS)
		return 0;
	if (PUSH(lg, notes))
		return -1;
	struct optlog_note *nt = &lg->notes[lg->n_notes];
	memset(nt, 0, sizeof(*nt));
	nt->line = line;
	nt->kind = kind;
	nt->why = why;
	nt->value = value;
	nt->value_us = NAN;
	nt->unit = unit;
	nt->quote = strndup(text, 200);
	if (!nt->quote)
		return -1;
	lg->n_notes++;
	return 0;
}

/* Text a reader cannot see: directives are read from comments; anything
 * there that reads as a claim or a Final Summary is noted, never read. */
static int hidden_line(struct ctx *cx, const struct mdread_line *ln)
{
	int directive = ln->hidden == MDREAD_COMMENT && strstr(ln->text, "tlgate-disable");
	if (directive && optlog_scan_suppressions(ln->text, ln->len, ln->line, cx->lg))
		return -1;
	if (!directive && looks_like_claim(ln->text))
		return add_note(cx->lg, OPTLOG_NOTE_HIDDEN, ln);
	return 0;
}

/* A directive written after a claim on its line ("final_latency: 8 us
 * <!-- tlgate-disable RULE -- why -->"). A comment holding "--" is not an
 * inline HTML comment to CommonMark, so the page shows it as text: it is
 * read as the same directive on its own line would be (applied, or
 * TLGATE-SUPPRESSION-DENIED), never silently dropped. */
static int trailing_directive(struct ctx *cx, const struct mdread_line *ln)
{
	const char *c = strstr(ln->text, "<!--");
	if (!c || !strstr(c, "tlgate-disable"))
		return 0;
	return optlog_scan_suppressions(ln->text, ln->len, ln->line, cx->lg) ? -1 : 0;
}

/* A ```json block (info word `json`, any case) opening with line ln: a new
 * code block to fill (its line: the fence's, the one above its first
 * line). 0, -1 on allocation failure. */
static int code_open(struct ctx *cx, const struct mdread_line *ln)
{
	struct optlog *lg = cx->lg;
	if (lg->n_codes >= MAX_ITEMS)
		return 0;
	if (PUSH(lg, codes))
		return -1;
	struct optlog_code *c = &lg->codes[lg->n_codes++];
	long norun;
	memset(c, 0, sizeof(*c));
	c->line = ln->line > 1 ? ln->line - 1 : ln->line;
	innermost_entries(cx, &c->sect, &norun);
	c->text = strdup("");
	cx->code_block = ln->block;
	cx->code_len = 0;
	cx->code_cap = 1;
	return c->text ? 0 : -1;
}

/* Appends line s to the open code block (up to OPTLOG_CODE_MAX bytes),
 * in time linear in the block's size (its length is kept, its buffer
 * doubles). */
static int code_keep(struct ctx *cx, const char *s)
{
	struct optlog_code *c = &cx->lg->codes[cx->lg->n_codes - 1];
	size_t have = cx->code_len, n = strlen(s);
	if (have + n + 1 > OPTLOG_CODE_MAX || cx->code_bytes + n + 1 > OPTLOG_CODES_TOTAL) {
		c->truncated = 1;
		return 0;
	}
	cx->code_bytes += n + 1;
	if (have + n + 2 > cx->code_cap) {
		size_t cap = cx->code_cap * 2;
		if (cap < have + n + 2)
			cap = have + n + 2;
		char *t = realloc(c->text, cap);
		if (!t)
			return -1;
		c->text = t;
		cx->code_cap = cap;
	}
	memcpy(c->text + have, s, n);
	c->text[have + n] = '\n';
	c->text[have + n + 1] = '\0';
	cx->code_len = have + n + 1;
	return 0;
}

/* A line of a code block: shown, but as code; in the Final Summary a
 * figure there next to a claim word is noted, not read as a claim. The
 * text of a ```json block is kept (lg->codes: pasted A/B summaries). */
static int code_line(struct ctx *cx, const struct mdread_line *ln)
{
	cx->in_table = 0;
	cx->cap_line = 0;
	if (strcasecmp(ln->lang, "json") == 0) {
		if (ln->block != cx->code_block && code_open(cx, ln))
			return -1;
		if (cx->code_block == ln->block && cx->lg->n_codes > 0 && code_keep(cx, ln->text))
			return -1;
	}
	if (cx->in_summary && looks_like_claim(ln->text))
		return add_note(cx->lg, OPTLOG_NOTE_CODE, ln);
	return 0;
}

/* Reads the pending line of prose, if any. */
static int prose_flush(struct ctx *cx)
{
	if (!cx->pend_line)
		return 0;
	long line = cx->pend_line;
	cx->pend_line = 0;
	cx->tb_ok = 0;
	/* in the Final Summary, figures as a reader reads them: fullwidth
	 * digits are digits, an invisible character inside a number is gone */
	char *shown = cx->in_summary ? uname_shown(cx->pend.s) : NULL;
	const char *s = shown ? shown : cx->pend.s;
	line_bytes(cx, s);
	int rc = on_text(cx, s, line);
	if (rc == 0)
		rc = keep_caption(cx, s, line);
	cx->tb_ok = 0;
	free(shown);
	return rc;
}

/* A shown line of prose: list items are read with their marker ("- "), as
 * the recognisers expect; a line that continues its paragraph's line after
 * a soft break (`final_latency: 64.0 us` / `→ 32.0 us`) is read with it,
 * unless it starts a clause of its own. */
static int prose(struct ctx *cx, const struct mdread_line *ln)
{
	cx->in_table = 0;
	if (ln->joined && cx->pend_line && !prose_starts_clause(ln->text)) {
		strbuf_add(&cx->pend, " ", 1);
	} else {
		if (prose_flush(cx))
			return -1;
		cx->pend.n = 0;
		cx->pend_line = ln->line;
		strbuf_str(&cx->pend, ln->list_item ? "- " : "");
	}
	strbuf_add(&cx->pend, ln->text, ln->len);
	return cx->pend.oom ? -1 : 0;
}

/* A table row with its cells as a reader reads their figures: a cell
 * with a fullwidth digit or an invisible character in it (`６０.０`,
 * `6<ZWSP>0.0`) is read as the page shows it (uname_shown); the others
 * as they are. */
/* In the last Final Summary a table cell that reads as a claim on its own
 * (`| final_latency: 32.0 us |`, `| 2.5x faster |`) is read as a line of
 * prose is: a reviewer reads it so. Cells that hold only a figure are
 * read through their column (summary_column), not here. */
static int row_cell_claims(struct ctx *cx, const struct mdread_line *ln)
{
	for (int i = 0; cx->in_summary && i < ln->ncells; i++) {
		if (!looks_like_claim(ln->cells[i]))
			continue;
		cx->tb_ok = 0;
		line_bytes(cx, ln->cells[i]);
		if (on_text(cx, ln->cells[i], ln->line))
			return -1;
		cx->tb_ok = 0;
	}
	return 0;
}

static int shown_row(struct ctx *cx, const struct mdread_line *ln)
{
	int n = ln->ncells, any = 0;
	for (int i = 0; i < n && !any; i++)
		any = uname_disguised(ln->cells[i]);
	if (!any) {
		int rc = ln->head ? open_table(cx, ln) : table_row(cx, ln);
		return rc ? rc : row_cell_claims(cx, ln);
	}
	const char **cells = calloc((size_t)n, sizeof(*cells));
	char **owned = calloc((size_t)n, sizeof(*owned));
	int rc = -1;
	if (!cells || !owned)
		goto out;
	for (int i = 0; i < n; i++) {
		owned[i] = uname_disguised(ln->cells[i]) ? uname_shown(ln->cells[i]) : NULL;
		cells[i] = owned[i] ? owned[i] : ln->cells[i];
	}
	struct mdread_line row = *ln;
	row.cells = cells;
	rc = ln->head ? open_table(cx, &row) : table_row(cx, &row);
	if (rc == 0)
		rc = row_cell_claims(cx, &row);
out:
	for (int i = 0; owned && i < n; i++)
		free(owned[i]);
	free(owned);
	free(cells);
	return rc;
}

static int take_md(const struct mdread_line *ln, void *arg)
{
	struct ctx *cx = arg;
	cx->tb_ok = 0;
	int rc = 0;
	if (ln->kind != MDREAD_TEXT && prose_flush(cx))
		return -1;
	switch (ln->kind) {
	case MDREAD_HEADING:
		cx->in_table = 0;
		cx->folded = ln->folded;
		line_bytes(cx, ln->text);
		rc = on_heading(cx, ln->level, ln->text, ln->line);
		if (rc == 0)
			rc = keep_caption(cx, ln->text, ln->line);
		break;
	case MDREAD_TEXT:
		rc = prose(cx, ln);
		if (rc == 0)
			rc = trailing_directive(cx, ln);
		break;
	case MDREAD_ROW:
		rc = shown_row(cx, ln);
		cx->cap_line = 0;
		if (rc == 0)
			rc = trailing_directive(cx, ln);
		break;
	case MDREAD_CODE:
		rc = code_line(cx, ln);
		break;
	case MDREAD_HIDDEN:
		rc = hidden_line(cx, ln);
		break;
	}
	return rc ? -1 : 0;
}

static void ctx_init(struct ctx *cx, struct optlog *lg)
{
	memset(cx, 0, sizeof(*cx));
	cx->lg = lg;
	for (int l = 0; l < 7; l++) {
		cx->hround[l] = -1;
		cx->hidx[l] = -1;
	}
}

static void ctx_release(struct ctx *cx)
{
	free(cx->cap);
	free(cx->pend.s);
}

/* ---- after the last line: runs, run labels, table rounds ---- */

static long entry_section(const struct optlog *lg, long i)
{
	while (i >= 0 && (lg->rounds[i].run_label || lg->rounds[i].round < 0) && !lg->rounds[i].confirm)
		i = lg->rounds[i].parent;
	return i;
}

/* Where each tuning run after the first starts (heading lines; the first
 * 64 runs are kept). */
struct run_starts {
	long line[64];
	size_t n;
};

/* Whether the log has Iteration-style round headings (*iter_heads) and
 * whether `Round` names a run in it (an `Iteration 1 (Round 2)` heading:
 * returns 1). */
static int round_names_run(const struct optlog *lg, int *iter_heads)
{
	int round_is_run = 0;
	*iter_heads = 0;
	for (size_t i = 0; i < lg->n_rounds; i++) {
		const struct optlog_round *e = &lg->rounds[i];
		if (e->round >= 0 && !e->round_word && !e->confirm) {
			*iter_heads = 1;
			if (e->paren_round >= 0 && e->paren_round != e->round)
				round_is_run = 1;
		}
	}
	return round_is_run;
}

/* Marks the `Round N` headings that name runs, not rounds (see
 * model/optlog.h) and unnumbers what they make unnumbered. Returns 1 when
 * `Round` names a run in this log. */
static int mark_run_labels(struct optlog *lg)
{
	int iter_heads;
	int round_is_run = round_names_run(lg, &iter_heads);
	for (size_t i = 0; i < lg->n_rounds; i++) {
		struct optlog_round *e = &lg->rounds[i];
		e->run_label = e->round_word && !e->confirm && (round_is_run || (e->level == 1 && iter_heads));
		/* an unnumbered section inside a run label has no round */
		if (e->confirm && !e->numbered && e->parent >= 0 && lg->rounds[e->parent].run_label)
			e->round = -1;
		/* `Final Performance Test Data (Round 2)` where Round names the run */
		if (round_is_run && e->confirm && e->numbered &&
		    ((e->round_word && e->round >= 0) || (!e->round_word && e->paren_word && e->round == e->paren_round))) {
			e->numbered = 0;
			e->round = -1;
		}
	}
	return round_is_run;
}

/* The lines of every Final Summary heading, in order, in a malloc'd array
 * (*n of them; caller frees); NULL on allocation failure. */
static long *summary_headings(const struct optlog *lg, size_t *n)
{
	size_t nfs = lg->n_superseded + (lg->summary_line ? 1 : 0);
	long *fs = malloc((nfs + 1) * sizeof(*fs));
	if (!fs)
		return NULL;
	for (size_t i = 0; i < lg->n_superseded; i++)
		fs[i] = lg->superseded[i];
	if (lg->summary_line)
		fs[nfs - 1] = lg->summary_line;
	*n = nfs;
	return fs;
}

/* Gives every round entry its run: a round number not above the run's
 * highest, with a Final Summary since the previous round, starts a new run.
 * Fills *st and returns the last run's number. */
static long assign_runs(struct optlog *lg, const long *fs, size_t nfs, struct run_starts *st)
{
	long run = 0, maxr = -1, last = 0;
	size_t f = 0;
	st->n = 0;
	for (size_t i = 0; i < lg->n_rounds; i++) {
		struct optlog_round *e = &lg->rounds[i];
		if (e->run_label || e->round < 0) {
			e->run = run;
			continue;
		}
		int between = 0;
		while (f < nfs && fs[f] < e->line) {
			if (fs[f] > last)
				between = 1;
			f++;
		}
		if (between && maxr >= 0 && e->round <= maxr) {
			run++;
			maxr = -1;
			if (st->n < 64)
				st->line[st->n++] = e->line;
		}
		if (e->round > maxr)
			maxr = e->round;
		e->run = run;
		last = e->line;
	}
	return run;
}

/* The run (0-based) holding line: the number of run starts at or before it. */
static long run_at(const struct run_starts *st, long line, int inclusive)
{
	long run = 0;
	for (size_t k = 0; k < st->n; k++)
		if (st->line[k] < line || (inclusive && st->line[k] == line))
			run = (long)k + 1;
	return run;
}

/* Resolves each table's run, confirmation flag and round from its section
 * and caption. */
static void resolve_tables(struct optlog *lg, const struct run_starts *st, int round_is_run)
{
	for (size_t i = 0; i < lg->n_tables; i++) {
		struct optlog_table *t = &lg->tables[i];
		long sec = entry_section(lg, t->sect_any);
		t->run = run_at(st, t->line, 1);
		t->confirm = 0;
		for (long a = sec; a >= 0; a = lg->rounds[a].parent)
			if (lg->rounds[a].confirm)
				t->confirm = 1;
		if (t->cap_round >= 0 && !(t->cap_round_word && round_is_run))
			t->round = t->cap_round;
		else
			t->round = sec >= 0 ? lg->rounds[sec].round : -1;
	}
}

/* A final result restated without per-workload claims (`## P.7 最终结论`
 * after a superseded Final Summary): the log's last table of measured
 * results after the superseded summary gives them, as soft claims (a
 * claim where its label names a recorded workload). Returns -1 on
 * allocation failure. */
static int restated_claims(struct optlog *lg)
{
	if (!lg->summary_line || lg->n_claims || lg->n_final_rows || !lg->n_figs || !lg->prev_summary_line ||
	    lg->figs_table_line < lg->prev_summary_line)
		return 0;
	for (size_t i = 0; i < lg->n_figs; i++) {
		const struct optlog_fig *g = &lg->figs[i];
		char *label = strdup(g->label);
		if (!label || add_claim(lg, g->line, label, g->final_us, g->base_us, 1, 1))
			return -1;
		lg->claims[lg->n_claims - 1].soft = 1;
	}
	lg->figs_claims = 1;
	return 0;
}

/* The claims whose key was spelled out (`Final latency (us): 32.0`) are
 * prose in a summary that also claims under the contract's key: dropped,
 * their prose notes kept (the prose check reads their figures); else they
 * are the claims, and the prose notes of their lines go. */
static void drop_spelled(struct optlog *lg)
{
	int keyed = 0;
	for (size_t i = 0; i < lg->n_claims; i++)
		keyed |= !lg->claims[i].soft && !lg->claims[i].spelled;
	size_t k = 0;
	if (!keyed) {
		for (size_t i = 0; i < lg->n_notes; i++) {
			struct optlog_note *nt = &lg->notes[i];
			int claimed = 0;
			for (size_t c = 0; c < lg->n_claims && nt->kind == OPTLOG_NOTE_PROSE; c++)
				claimed |= lg->claims[c].spelled && lg->claims[c].line == nt->line;
			if (claimed) {
				free(nt->quote);
				continue;
			}
			lg->notes[k++] = *nt;
		}
		lg->n_notes = k;
		return;
	}
	for (size_t i = 0; i < lg->n_claims; i++) {
		if (lg->claims[i].spelled && !lg->claims[i].soft) {
			free(lg->claims[i].workload);
			continue;
		}
		lg->claims[k++] = lg->claims[i];
	}
	lg->n_claims = k;
}

static int finish(struct optlog *lg)
{
	drop_spelled(lg);
	if (restated_claims(lg))
		return -1;
	int round_is_run = mark_run_labels(lg);
	size_t nfs = 0;
	long *fs = summary_headings(lg, &nfs);
	if (!fs)
		return -1;
	struct run_starts st;
	long run = assign_runs(lg, fs, nfs, &st);
	free(fs);
	lg->runs = run + 1;
	lg->target_run = lg->summary_line ? run_at(&st, lg->summary_line, 0) : run;
	resolve_tables(lg, &st, round_is_run);
	for (size_t i = 0; i < lg->n_codes; i++) { /* as a table without a caption */
		struct optlog_code *c = &lg->codes[i];
		long sec = entry_section(lg, c->sect);
		c->run = run_at(&st, c->line, 1);
		c->round = sec >= 0 ? lg->rounds[sec].round : -1;
	}
	return 0;
}

int optlog_load_buffer(const char *buf, size_t len, struct optlog *lg)
{
	struct ctx cx;
	ctx_init(&cx, lg);
	int rc = raw_lines(&cx, buf, len);
	if (rc == 0)
		rc = mdread_buffer(buf, len, take_md, &cx) ? -1 : 0;
	if (rc == 0)
		rc = prose_flush(&cx);
	ctx_release(&cx);
	if (rc == 0 && finish(lg))
		rc = -1;
	if (rc)
		errno = ENOMEM;
	return rc;
}

int optlog_load_stream(FILE *f, struct optlog *lg)
{
	char *buf;
	size_t len;
	int over;
	int rc = fileops_read_stream(f, OPTLOG_MAX_BYTES, &buf, &len, &over);
	int saved = errno;
	fclose(f);
	if (rc) {
		errno = saved;
		return -1;
	}
	rc = optlog_load_buffer(buf, len, lg);
	if (rc == 0 && over && add_problem(lg, lg->lines, "file larger than %u MiB: read up to there",
					   (unsigned)(OPTLOG_MAX_BYTES >> 20)))
		rc = -1;
	free(buf);
	return rc;
}

int optlog_load(const char *path, struct optlog *lg)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	return optlog_load_stream(f, lg);
}
