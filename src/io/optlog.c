/* optlog.c: streaming reader of opt_log.md (optlog.h). */
#include "io/optlog.h"
#include "io/lineio.h"
#include "model/ptlog.h"
#include "util/utf8.h"
#include "util/text.h"
#include "util/decimal.h"
#include "util/swar.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PROBLEMS 20
#define MAX_ROWS 100000   /* final table rows kept (bounded memory) */
#define MAX_TABLES 200000
#define MAX_ITEMS 100000  /* rounds, claims, numbers, suppressions kept */

enum kind { K_BLANK, K_TEXT, K_HEADING, K_ROW };

/* The bytes every line is scanned for (text_scan) and their bits. */
#define MARK_BAR TEXT_MARK_A /* a table row's '|' */
#define MARK_LT TEXT_MARK_B  /* '<' of an HTML comment's "<!--" */

struct ctx {
	struct optlog *lg;
	int in_fence;
	char fence_ch;
	size_t fence_len;
	int in_code;           /* the open fence is a ```json block: lg->codes' last */
	size_t code_bytes;     /* text kept in lg->codes so far (OPTLOG_CODES_TOTAL) */
	int in_comment;
	/* the previous line and the last non-blank line before it */
	char *prev;
	size_t prev_len, prev_cap;
	long prev_line;
	enum kind prev_kind;
	int prev_bar;          /* the previous line has a '|' */
	unsigned marks;        /* MARK_* bits of the current line */
	struct text_bytes tb;  /* the current line's bytes, once tb_ok (line_bytes) */
	int tb_ok;
	struct text_bytes prev_tb, cap_tb; /* those of prev and cap (prose, headings) */
	char *cap;
	size_t cap_len, cap_cap;
	long cap_line;
	enum kind cap_kind;
	long hround[7];        /* round of the open heading per level, -1 */
	long hidx[7];          /* index into lg->rounds per level, -1 */
	int in_summary, summary_level;
	int in_fptd, fptd_level;
	int in_table;
	size_t table;          /* index of the open table */
	int table_final;       /* the open table is the v2 Final table */
	int col[5];            /* kernel, workload, baseline, final, candidate */
	int crlf_seen;
	int stop_seen;
	int sect_unit;         /* prose since the last heading names a duration unit */
	int sum_col;           /* final column of a table in the Final Summary, -1 */
	double sum_mul;        /* its unit, microseconds per unit */
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

size_t optlog_read_number(const char *s, double *out)
{
	const char *p = s;
	while (*p == '*' || *p == '`')
		p++;
	if (!(is_digit((unsigned char)*p) || (*p == '.' && is_digit((unsigned char)p[1]))))
		return 0;
	double v;
	size_t n = decimal_scan(p, &v);
	if (!n)
		return 0;
	*out = v;
	return (size_t)(p + n - s);
}

char *optlog_norm_name(const char *s, char *out, size_t n)
{
	size_t k = 0;
	int sep = 0;
	if (n == 0)
		return out;
	for (; *s && k + 1 < n; s++) {
		int c = (unsigned char)*s;
		if (c == ' ' || c == '\t' || c == '-' || c == '_' || c == '/' || c == '.' || c == ':') {
			sep = 1;
			continue;
		}
		if (sep && k > 0 && k + 1 < n)
			out[k++] = '_';
		sep = 0;
		if (k + 1 < n)
			out[k++] = (char)lc(c);
	}
	out[k] = '\0';
	return out;
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
	lg->n_geomeans = 0;
	lg->n_summary_rounds = 0;
	lg->n_summary_round_lines = 0;
	free(lg->best);
	lg->best = NULL;
	lg->best_line = 0;
	lg->nothing_adopted = 0;
	lg->stop = OPTLOG_STOP_NONE;
	lg->stop_line = 0;
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
	for (size_t i = 0; i < lg->n_suppressions; i++) {
		free(lg->suppressions[i].rule);
		free(lg->suppressions[i].reason);
	}
	for (size_t i = 0; i < lg->n_problems; i++)
		free(lg->problems[i].message);
	free(lg->tables);
	free(lg->rounds);
	free(lg->superseded);
	free(lg->claims);
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

/* Heading level (1..6) and text start, or 0. */
static int heading_level(const char *s, const char **text)
{
	int sp = 0;
	while (*s == ' ' && sp < 4)
		s++, sp++;
	if (sp > 3)
		return 0;
	int n = 0;
	while (s[n] == '#')
		n++;
	if (n < 1 || n > 6 || (s[n] != ' ' && s[n] != '\t' && s[n] != '\0'))
		return 0;
	*text = skip_ws(s + n);
	return n;
}

/* `R7` at p (a round abbreviation): not inside a word, digits, then no
 * letter/digit/'.'; returns the number or -1. */
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

/* The text after the opening bracket of a numbering, `(` (*open = 1) or
 * `（` (*open = 3, its length); s itself (*open = 0) when there is none. */
static const char *numbering_open(const char *s, int *open)
{
	*open = 0;
	if (*s == '(') {
		*open = 1;
		return s + 1;
	}
	if (strncmp(s, "（", strlen("（")) == 0) {
		*open = 3;
		return s + strlen("（");
	}
	return s;
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
	if (open == 1 && *q == ')')
		return skip_marks(q + 1);
	if (open == 3 && strncmp(q, "）", strlen("）")) == 0)
		return skip_marks(q + strlen("）"));
	if (open)
		return NULL;
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
	if (starts_ci(t, "final performance test data") || starts_ci(t, "final performance data"))
		return 1;
	return f && text_find_any_ci(t, tb, conf) >= 0; /* confirmation: looked for after final */
}

static int is_delimiter_row(const char *s)
{
	int dashes = 0, pipes = 0;
	for (; *s; s++) {
		if (*s == '-')
			dashes++;
		else if (*s == '|')
			pipes++;
		else if (*s != ':' && *s != ' ' && *s != '\t')
			return 0;
	}
	return dashes >= 1 && (pipes >= 1 || dashes >= 3);
}

/* The cells of a table row, found in place as trimmed spans: leading
 * and trailing blanks and one outer '|' at each end dropped; a '|' inside
 * backticks or after '\\' is text, not a separator. */
struct row_it {
	const char *b, *e;      /* the row without its outer pipes */
	const char *p, *start;  /* scan position, start of the current cell */
	int tick, done;         /* inside backticks; past the last cell */
};

static void row_begin(struct row_it *it, const char *s, size_t n)
{
	const char *b = s, *e = s + n;
	while (b < e && (*b == ' ' || *b == '\t'))
		b++;
	while (e > b && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	if (b < e && *b == '|')
		b++;
	if (e > b && e[-1] == '|' && (e - b < 2 || e[-2] != '\\'))
		e--;
	it->b = it->p = it->start = b;
	it->e = e;
	it->tick = it->done = 0;
}

/* The first '|' or '`' in [p, e), or e. */
static const char *bar_or_tick(const char *p, const char *e)
{
	if (SWAR_LITTLE)
		for (; e - p >= 8; p += 8) {
			uint64_t v = swar_load(p);
			uint64_t m = swar_eq(v, '|') | swar_eq(v, '`');
			if (m)
				return p + swar_first(m);
		}
	while (p < e && *p != '|' && *p != '`')
		p++;
	return p;
}

/* The next cell as it stands, blanks and all, as [*cb, *ce); 0 after the
 * last one. Inline: every row of every table comes here a few times. */
static inline int row_next_raw(struct row_it *it, const char **cb, const char **ce)
{
	if (it->done)
		return 0;
	for (const char *p = it->p;; p++) {
		p = bar_or_tick(p, it->e);
		int end = p == it->e;
		if (!end && *p == '`')
			it->tick = !it->tick;
		if (end || (*p == '|' && !it->tick && (p == it->b || p[-1] != '\\'))) {
			*cb = it->start;
			*ce = p;
			it->done = end;
			it->p = it->start = p + 1;
			return 1;
		}
	}
}

/* The next cell, trimmed, as [*cb, *ce); 0 after the last one. */
static int row_next(struct row_it *it, const char **cb, const char **ce)
{
	if (!row_next_raw(it, cb, ce))
		return 0;
	const char *c = *cb, *e = *ce;
	while (c < e && (*c == ' ' || *c == '\t'))
		c++;
	while (e > c && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	*cb = c;
	*ce = e;
	return 1;
}

/* Splits a table row into at most max cells (trimmed, pointers into buf,
 * which is modified: each cell is NUL-terminated where it ends). Returns
 * the cell count. */
static int split_cells(char *buf, char **cells, int max)
{
	struct row_it it;
	const char *cb, *ce;
	int k = 0;
	row_begin(&it, buf, strlen(buf));
	while (k < max && row_next(&it, &cb, &ce)) {
		*(char *)ce = '\0'; /* at or before the cell's separator */
		cells[k++] = (char *)cb;
	}
	return k;
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
					     "当前最优", "当前 best", "当前best", "当前最佳", "现最优",
					     "best so far", NULL };
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
 * µs, μs or none, 1000 for ms) and advances *p past it. */
static double read_unit(const char **p)
{
	const char *s = skip_ws(*p);
	while (*s == '*' || *s == '`')
		s++;
	s = skip_ws(s);
	if (starts_ci(s, "us") && !is_alpha((unsigned char)s[2])) {
		*p = s + 2;
		return 1;
	}
	if (strncmp(s, "µs", strlen("µs")) == 0) {
		*p = s + strlen("µs");
		return 1;
	}
	if (strncmp(s, "μs", strlen("μs")) == 0) {
		*p = s + strlen("μs");
		return 1;
	}
	if (starts_ci(s, "ms") && !is_alpha((unsigned char)s[2])) {
		*p = s + 2;
		return 1000;
	}
	return 0;
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

static int add_claim(struct optlog *lg, long line, char *label, double final_us, double base)
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
	c->soft = 0;
	return 0;
}

/* `... final_latency: N us ...`, k pointing at the key in s: a claim
 * with the label before the key and the baseline stated after the value.
 * Returns 0, or -1 when out of memory. */
static int claim_final_latency(struct optlog *lg, const char *s, const char *k, long line)
{
	const char *p = k + strlen("final_latency");
	double v;
	while (*p == '*' || *p == '`')
		p++;
	p = skip_ws(p);
	size_t c = colon_at(p);
	if (!c && *p == '=')
		c = 1;
	if (!c)
		return 0;
	p = skip_ws(p + c);
	size_t n = optlog_read_number(p, &v);
	if (!n)
		return 0;
	p += n;
	const char *u = p;
	double mul = read_unit(&u);
	if (mul == 0)
		mul = 1;
	const char *lead = strip_lead(s);
	char *label = lead < k ? clean_label(lead, (size_t)(k - lead)) : NULL;
	return add_claim(lg, line, label, v * mul, baseline_after(p));
}

/* The first colon (`:` or `：`) in s, its length in *clen; NULL when none. */
static const char *first_colon(const char *s, size_t *clen)
{
	for (const char *p = s; *p; p++)
		if ((*clen = colon_at(p)) != 0)
			return p;
	return NULL;
}

/* Skips an arrow at *p (`→`, `->`, `⟶`); returns 1 when there was one. */
static int skip_arrow(const char **p)
{
	static const char *const arrows[] = { "→", "->", "⟶", NULL };
	for (int i = 0; arrows[i]; i++)
		if (strncmp(*p, arrows[i], strlen(arrows[i])) == 0) {
			*p += strlen(arrows[i]);
			return 1;
		}
	return 0;
}

/* `- smoke: 30.75 us（1.01×）`: a soft claim of us for the label lead ..
 * colon, a claim only when the label is a workload. Returns 0, or -1 when
 * out of memory. */
static int soft_claim(struct optlog *lg, const char *lead, const char *colon, double us, long line)
{
	char *label = clean_label(lead, (size_t)(colon - lead));
	if (!label)
		return 0;
	if (add_claim(lg, line, label, us, NAN))
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
	double b, f;
	size_t n = optlog_read_number(p, &b);
	if (!n)
		return 0;
	p += n;
	const char *u = p;
	double mb = read_unit(&u);
	if (mb != 0)
		p = u;
	while (*p == '*' || *p == '`' || *p == ' ')
		p++;
	if (!skip_arrow(&p))
		return mb != 0 ? soft_claim(lg, lead, colon, b * mb, line) : 0;
	p = skip_ws(p);
	n = optlog_read_number(p, &f);
	if (!n)
		return 0;
	p += n;
	double mf = read_unit(&p);
	if (mf == 0)
		return 0;
	if (mb == 0)
		mb = mf;
	char *label = clean_label(lead, (size_t)(colon - lead));
	return add_claim(lg, line, label, f * mf, b * mb);
}

/* `... final_latency: N us ...` or `- W: B → F us`. */
static int scan_claim(struct optlog *lg, const char *s, long line)
{
	const char *k = text_find_ci(s, "final_latency");
	if (k)
		return claim_final_latency(lg, s, k, line);
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
	static const char *const keys[] = { "几何平均", "geomean", "geometric mean", "geo-mean",
					    "geo mean", NULL };
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
		if (((*q == 'x' || *q == 'X') && !is_alpha((unsigned char)q[1])) ||
		    strncmp(q, "×", strlen("×")) == 0 || strncmp(q, "倍", strlen("倍")) == 0) {
			if (lg->n_geomeans >= MAX_ITEMS)
				return 0;
			if (PUSH(lg, geomeans))
				return -1;
			lg->geomeans[lg->n_geomeans].line = line;
			lg->geomeans[lg->n_geomeans].value = v;
			lg->geomeans[lg->n_geomeans].scope = geomean_scope(s, p);
			lg->n_geomeans++;
			return 0;
		}
		p += n - 1;
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

/* The caption of table t (the last non-blank line before its header, when
 * it is no table row): its line, the incumbent mark, the round it names
 * and a duration unit it states. Sets t->cap_round (-1 without one). */
static void table_caption(const struct ctx *cx, struct optlog_table *t)
{
	t->cap_round = -1;
	if (!(cx->cap_line > 0 && cx->cap_kind != K_ROW && cx->cap_len > 0))
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

/* What the header cells say (the header being the previous line, whose
 * bytes serve for every cell): a duration, an incumbent, and where the five
 * v2 Final table columns are (cx->col, -1 when absent). */
static void header_columns(struct ctx *cx, struct optlog_table *t, char **cells, int nc)
{
	static const char *const names[5] = { "kernel_id", "workload_id", "baseline_us", "final_us",
					      "final_candidate_id" };
	const struct text_bytes *tb = &cx->prev_tb;
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

/* In a Final Summary table, the column after the first that gives the
 * final latencies (cx->sum_col, -1 none) and its unit (cx->sum_mul). */
static void summary_column(struct ctx *cx, char **cells, int nc)
{
	cx->sum_col = -1;
	cx->sum_mul = 1;
	if (!cx->in_summary || nc < 2)
		return;
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

/* The delimiter row below the previous line opens a table: records it with
 * its caption, round inputs and header facts. Returns -1 on allocation
 * failure. */
static int open_table(struct ctx *cx, long line)
{
	struct optlog *lg = cx->lg;
	char *cells[64];
	(void)line;
	cx->in_table = 1;
	cx->table_final = 0;
	if (lg->n_tables >= MAX_TABLES) {
		cx->table = (size_t)-1;
		return 0;
	}
	if (PUSH(lg, tables))
		return -1;
	char *hdr = strdup(cx->prev);
	if (!hdr)
		return -1;
	int nc = split_cells(hdr, cells, 64);
	struct optlog_table *t = &lg->tables[lg->n_tables];
	memset(t, 0, sizeof(*t));
	t->line = cx->prev_line;
	table_caption(cx, t);
	if (cx->sect_unit)
		t->cap_duration = 1;
	innermost_entries(cx, &t->sect_any, &t->sect_norun);
	t->round = t->cap_round >= 0 ? t->cap_round : innermost_round(cx, NULL);
	t->run = 0;
	header_columns(cx, t, cells, nc);
	cx->table = lg->n_tables++;
	/* a table in the Final Summary: its final column gives claims */
	summary_column(cx, cells, nc);
	free(hdr);
	final_table_check(cx, t);
	return 0;
}

static double cell_number(const char *c)
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
	while (*e == '*' || *e == '`' || *e == ' ')
		e++;
	if (*e != '\0')
		return NAN;
	return m != 0 ? v * m : v;
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

/* 1 when a cell after the first of the row s[0..n) starts with a number
 * (of the first 64 cells, as split_cells keeps them). Read in place: every
 * row of every table passes here. A number ends at the cell's end as it
 * would at a NUL: what follows a cell (a blank, '|', the line's end) is
 * never part of a number. The cells are not trimmed: the blanks at a
 * cell's end are skipped with the marks before its text. */
static int row_has_number(const char *s, size_t n)
{
	struct row_it it;
	const char *cb, *ce;
	row_begin(&it, s, n);
	for (int k = 0; k < 64 && row_next_raw(&it, &cb, &ce); k++) {
		if (k == 0)
			continue;
		while (cb < ce && (*cb == ' ' || *cb == '\t' || *cb == '*' || *cb == '`'))
			cb++;
		if (cb < ce && starts_number(cb))
			return 1;
	}
	return 0;
}

/* 1 when the first cell of row line (between the leading '|' and the next
 * one, its first 511 bytes) marks the incumbent. */
static int first_cell_incumbent(const char *line)
{
	const char *a = skip_ws(line);
	if (*a == '|')
		a++;
	const char *b = a;
	while (*b && *b != '|')
		b++;
	char first[512];
	size_t n = (size_t)(b - a) < sizeof(first) - 1 ? (size_t)(b - a) : sizeof(first) - 1;
	memcpy(first, a, n);
	first[n] = '\0';
	return shows_incumbent(first, NULL);
}

/* A row of a Final Summary table with a final column: a soft claim of the
 * first cell's label at that column's latency. Returns -1 on allocation
 * failure. */
static int summary_row_claim(struct ctx *cx, const char *line, long lineno)
{
	struct optlog *lg = cx->lg;
	char *cells[64];
	char *d = strdup(line);
	if (!d)
		return -1;
	int rc = 0;
	int n = split_cells(d, cells, 64);
	double v = n > cx->sum_col ? cell_number(cells[cx->sum_col]) : NAN;
	if (!isnan(v) && n > 0) {
		char *label = clean_label(cells[0], strlen(cells[0]));
		if (label && add_claim(lg, lineno, label, v * cx->sum_mul, NAN))
			rc = -1;
		else if (label)
			lg->claims[lg->n_claims - 1].soft = 1;
	}
	free(d);
	return rc;
}

/* A row of the v2 Final table: kept as an optlog_final_row when it has
 * every column. Returns -1 on allocation failure. */
static int final_row(struct ctx *cx, const char *line, long lineno)
{
	struct optlog *lg = cx->lg;
	char *cells[64];
	char *dup = strdup(line);
	if (!dup)
		return -1;
	int nc = split_cells(dup, cells, 64);
	int need = 0, rc = 0;
	for (int j = 0; j < 5; j++)
		if (cx->col[j] > need)
			need = cx->col[j];
	if (nc <= need)
		goto out;
	if (PUSH(lg, final_rows)) {
		rc = -1;
		goto out;
	}
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
		rc = -1;
		goto out;
	}
	lg->n_final_rows++;
out:
	free(dup);
	return rc;
}

/* A data row of the open table: counted, and read for the incumbent mark,
 * summary claims and v2 Final rows. Returns -1 on allocation failure. */
static int table_row(struct ctx *cx, char *line, size_t len, long lineno)
{
	struct optlog *lg = cx->lg;
	if (cx->table == (size_t)-1)
		return 0;
	struct optlog_table *t = &lg->tables[cx->table];
	t->rows++;
	if (!t->has_numeric_row && row_has_number(line, len))
		t->has_numeric_row = 1;
	if (!t->has_incumbent && first_cell_incumbent(line))
		t->has_incumbent = 1;
	if (cx->sum_col > 0 && cx->in_summary && lg->n_claims < MAX_ITEMS && summary_row_claim(cx, line, lineno))
		return -1;
	if (!cx->table_final || lg->n_final_rows >= MAX_ROWS)
		return 0;
	return final_row(cx, line, lineno);
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

static int starts_summary(const char *t, const struct text_bytes *tb)
{
	static const char *const w[] = { "final summary", "最终总结", "最终小结", NULL };
	for (int i = 0; w[i]; i++) {
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
	clear_summary(lg);
	cx->stop_seen = 0;
	lg->summary_line = line;
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
	if (text_find_ci_tb(text, &cx->tb, "skill retrospective") && lg->retrospective_line == 0)
		lg->retrospective_line = line;
	if (lg->baseline_remeasure_line == 0 && is_baseline_remeasure(text, &cx->tb))
		lg->baseline_remeasure_line = line;
	if (starts_summary(t, &cx->tb) && open_summary(cx, level, line))
		return -1;
	if ((level == 2 || level == 3) && starts_ci(t, "final performance test data")) {
		lg->final_heading_line = line;
		cx->in_fptd = 1;
		cx->fptd_level = level;
	}
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
	if (!cx->in_summary)
		return 0;
	if (scan_cited_round(lg, s, line))
		return -1;
	if (scan_claim(lg, s, line) || scan_best(lg, s, line) || scan_geomean(lg, s, line))
		return -1;
	scan_stop(cx, s, line);
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

static int fence_open(const char *s, char *ch, size_t *n)
{
	s = skip_ws(s);
	if ((s[0] == '`' || s[0] == '~') && s[1] == s[0] && s[2] == s[0]) {
		size_t k = 0;
		while (s[k] == s[0])
			k++;
		*ch = s[0];
		*n = k;
		return 1;
	}
	return 0;
}

/* Notes the problems of one raw line (BOM on line 1, first CRLF, overlong,
 * NUL, invalid UTF-8); drops a BOM and cuts at a NUL through *s / *len;
 * notes the line's marks in cx->marks. Returns -1 on allocation failure. */
static int line_problems(struct ctx *cx, char **s, size_t *len, long line, int truncated, int had_cr)
{
	struct optlog *lg = cx->lg;
	if (line == 1 && lineio_has_bom(*s, *len)) {
		lg->has_bom = 1;
		if (add_problem(lg, 1, "file starts with a UTF-8 byte order mark"))
			return -1;
		*s += 3;
		*len -= 3;
	}
	if (had_cr && !cx->crlf_seen) {
		cx->crlf_seen = 1;
		lg->has_crlf = 1;
		if (add_problem(lg, line, "CRLF line ending (the file should use LF)"))
			return -1;
	}
	if (truncated && add_problem(lg, line, "line longer than %u bytes", (unsigned)LINEIO_DEFAULT_LIMIT))
		return -1;
	struct text_scan ts; /* NUL, first non-ASCII byte and marks in one pass */
	text_scan(&ts, *s, *len, '|', '<');
	cx->marks = ts.marks;
	if (ts.len < *len) {
		if (add_problem(lg, line, "line contains a NUL byte"))
			return -1;
		*len = ts.len;
	}
	/* ASCII before ts.high is valid: check from there */
	size_t bad = ts.high < *len ? utf8_invalid_at(*s + ts.high, *len - ts.high) : (size_t)-1;
	if (bad != (size_t)-1 && add_problem(lg, line, "invalid UTF-8 at byte %zu", ts.high + bad + 1))
		return -1;
	return 0;
}

/* A ```json fence opening at line (info string `json`, any case): a new
 * code block to fill. 0, -1 on allocation failure. */
static int code_open(struct ctx *cx, const char *info, long line)
{
	struct optlog *lg = cx->lg;
	info = skip_ws(info);
	if (!starts_ci(info, "json") || (info[4] && info[4] != ' ' && info[4] != '\t') ||
	    lg->n_codes >= MAX_ITEMS)
		return 0;
	if (PUSH(lg, codes))
		return -1;
	struct optlog_code *c = &lg->codes[lg->n_codes++];
	long norun;
	memset(c, 0, sizeof(*c));
	c->line = line;
	innermost_entries(cx, &c->sect, &norun);
	c->text = strdup("");
	cx->in_code = c->text != NULL;
	return c->text ? 0 : -1;
}

/* Appends line s to the open code block (up to OPTLOG_CODE_MAX bytes). */
static int code_line(struct ctx *cx, const char *s)
{
	struct optlog_code *c = &cx->lg->codes[cx->lg->n_codes - 1];
	size_t have = strlen(c->text), n = strlen(s);
	if (have + n + 1 > OPTLOG_CODE_MAX || cx->code_bytes + n + 1 > OPTLOG_CODES_TOTAL) {
		c->truncated = 1;
		return 0;
	}
	cx->code_bytes += n + 1;
	char *t = realloc(c->text, have + n + 2);
	if (!t)
		return -1;
	memcpy(t + have, s, n);
	t[have + n] = '\n';
	t[have + n + 1] = '\0';
	c->text = t;
	return 0;
}

/* Fenced code: returns 1 when s opens, closes or sits inside a fence (the
 * line is then no Markdown structure; *kind becomes K_TEXT inside one),
 * -1 on allocation failure. A ```json block's text is kept (lg->codes). */
static int fence_step(struct ctx *cx, const char *s, long line, enum kind *kind)
{
	char fch;
	size_t flen;
	if (cx->in_fence) {
		if (fence_open(s, &fch, &flen) && fch == cx->fence_ch && flen >= cx->fence_len &&
		    *skip_ws(skip_ws(s) + flen) == '\0')
			cx->in_fence = cx->in_code = 0;
		else if (cx->in_code && code_line(cx, s))
			return -1;
		*kind = K_TEXT;
		return 1;
	}
	if (!fence_open(s, &fch, &flen))
		return 0;
	cx->in_fence = 1;
	cx->fence_ch = fch;
	cx->fence_len = flen;
	cx->in_table = 0;
	return code_open(cx, skip_ws(s) + flen, line) ? -1 : 1;
}

/* HTML comments: reads the suppressions on s and tracks whether a comment
 * stays open after it. Returns -1 on allocation failure. */
static int comment_step(struct ctx *cx, const char *s, size_t len, long line)
{
	if (!cx->in_comment && (!(cx->marks & MARK_LT) || !strstr(s, "<!--")))
		return 0;
	if (strstr(s, "tlgate-disable") && optlog_scan_suppressions(s, len, line, cx->lg))
		return -1;
	const char *open = strstr(s, "<!--");
	const char *close = strstr(open ? open : s, "-->");
	if (cx->in_comment)
		cx->in_comment = close == NULL;
	else if (open && !close)
		cx->in_comment = 1;
	return 0;
}

/* The Markdown structure of a line outside fences: a row of the open
 * table, a heading, a delimiter row opening a table, or prose; sets *kind.
 * Returns -1 on allocation failure. */
static int structure_step(struct ctx *cx, char *s, size_t len, long line, enum kind *kind)
{
	if (cx->in_table) {
		if (*kind != K_BLANK && (cx->marks & MARK_BAR)) {
			*kind = K_ROW;
			return table_row(cx, s, len, line);
		}
		cx->in_table = 0;
	}
	const char *htext;
	int level = heading_level(s, &htext);
	if (level) {
		*kind = K_HEADING;
		line_bytes(cx, s);
		return on_heading(cx, level, htext, line);
	}
	if (*kind == K_TEXT && cx->prev_kind == K_TEXT && cx->prev_bar &&
	    is_delimiter_row(skip_ws(s))) {
		*kind = K_ROW;
		return open_table(cx, line);
	}
	if (*kind == K_TEXT) {
		line_bytes(cx, s);
		return on_text(cx, s, line);
	}
	return 0;
}

/* Moves the previous line to the caption slot (unless blank) and keeps s
 * as the previous line. Only the text of prose and headings is ever read
 * back (a table's header, a caption): a row or a blank line is kept as its
 * kind and line, with no text. Returns -1 on allocation failure. */
static int shift_line(struct ctx *cx, const char *s, size_t len, long line, enum kind kind)
{
	if (cx->prev_kind != K_BLANK && cx->prev_line > 0) {
		/* swap buffers: cap <- prev */
		char *b = cx->cap;
		size_t c = cx->cap_cap;
		cx->cap = cx->prev;
		cx->cap_cap = cx->prev_cap;
		cx->cap_len = cx->prev_len;
		cx->cap_line = cx->prev_line;
		cx->cap_kind = cx->prev_kind;
		cx->cap_tb = cx->prev_tb;
		cx->prev = b;
		cx->prev_cap = c;
	}
	if (kind == K_ROW || kind == K_BLANK) {
		cx->prev_len = 0;
		if (cx->prev)
			cx->prev[0] = '\0';
	} else if (keep(&cx->prev, &cx->prev_cap, &cx->prev_len, s, len)) {
		return -1;
	} else {
		cx->prev_tb = *line_bytes(cx, s);
	}
	cx->prev_line = line;
	cx->prev_kind = kind;
	cx->prev_bar = (cx->marks & MARK_BAR) != 0;
	return 0;
}

static int take_line(struct ctx *cx, char *s, size_t len, long line, int truncated, int had_cr)
{
	struct optlog *lg = cx->lg;
	lg->lines = line;
	lg->bytes += len + 1 + (had_cr ? 1 : 0);
	cx->tb_ok = 0;
	if (line_problems(cx, &s, &len, line, truncated, had_cr))
		return -1;
	const char *t = skip_ws(s);
	enum kind kind = *t ? K_TEXT : K_BLANK;
	if (*t)
		lg->blank = 0;
	int fenced = fence_step(cx, s, line, &kind);
	if (fenced < 0)
		return -1;
	if (!fenced) {
		if (comment_step(cx, s, len, line) || structure_step(cx, s, len, line, &kind))
			return -1;
	}
	return shift_line(cx, s, len, line, kind);
}

static void ctx_init(struct ctx *cx, struct optlog *lg)
{
	memset(cx, 0, sizeof(*cx));
	cx->lg = lg;
	for (int l = 0; l < 7; l++) {
		cx->hround[l] = -1;
		cx->hidx[l] = -1;
	}
	cx->prev_kind = K_BLANK;
	cx->cap_kind = K_BLANK;
}

static void ctx_release(struct ctx *cx)
{
	free(cx->prev);
	free(cx->cap);
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

static int finish(struct optlog *lg)
{
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

static int load_lines(struct lineio *lp, struct optlog *lg);

int optlog_load(const char *path, struct optlog *lg)
{
	struct lineio l;
	if (lineio_open(&l, path, LINEIO_DEFAULT_LIMIT) != 0)
		return -1;
	return load_lines(&l, lg);
}

int optlog_load_stream(FILE *f, struct optlog *lg)
{
	struct lineio l;
	lineio_init(&l, f, LINEIO_DEFAULT_LIMIT);
	l.owned = 1;
	return load_lines(&l, lg);
}

/* Reads every line of l into lg and closes l. */
static int load_lines(struct lineio *lp, struct optlog *lg)
{
	struct lineio l = *lp;
	struct ctx cx;
	int rc;
	ctx_init(&cx, lg);
	while ((rc = lineio_next(&l)) == 1) {
		if (take_line(&cx, l.buf, l.len, l.lineno, l.truncated, l.had_cr)) {
			rc = -1;
			errno = ENOMEM;
			break;
		}
	}
	int saved = errno;
	ctx_release(&cx);
	lineio_close(&l);
	if (rc >= 0 && finish(lg)) {
		rc = -1;
		saved = ENOMEM;
	}
	errno = saved;
	return rc < 0 ? -1 : 0;
}

int optlog_load_buffer(const char *buf, size_t len, struct optlog *lg)
{
	struct ctx cx;
	char *line = NULL;
	size_t cap = 0, i = 0;
	long no = 0;
	int rc = 0;
	ctx_init(&cx, lg);
	while (i < len) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - buf) : len;
		size_t n = end - i;
		int cr = 0;
		if (n > 0 && buf[i + n - 1] == '\r') {
			n--;
			cr = 1;
		}
		int trunc = n > LINEIO_DEFAULT_LIMIT;
		if (trunc)
			n = LINEIO_DEFAULT_LIMIT;
		size_t dummy;
		if (keep(&line, &cap, &dummy, buf + i, n) ||
		    take_line(&cx, line, n, ++no, trunc, cr)) {
			rc = -1;
			break;
		}
		i = end + 1;
	}
	free(line);
	ctx_release(&cx);
	if (rc == 0 && finish(lg))
		rc = -1;
	return rc;
}
