/* s4_feedback.c: S4-PERF-FEEDBACK-* for perf_feedback.md ([DESIGN_LIMIT]). */
#include "gates/s4.h"
#include "util/decimal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const sections[] = { "触发判定", "参照锚定", "假设", "实测", "影响面", "反馈结论", NULL };

static int heading_at(const char *line, const char **text)
{
	int n = 0;
	while (line[n] == '#')
		n++;
	if (n < 1 || n > 6 || (line[n] != ' ' && line[n] != '\t'))
		return 0;
	const char *t = line + n;
	while (*t == ' ' || *t == '\t')
		t++;
	*text = t;
	return n;
}

/* Body of the first section whose heading starts with title: [*b, *e). */
static int section(const char *text, const char *title, const char **b, const char **e)
{
	const char *p = text;
	*b = *e = NULL;
	while (*p) {
		const char *nl = strchr(p, '\n');
		const char *next = nl ? nl + 1 : p + strlen(p);
		const char *t;
		if (heading_at(p, &t)) {
			if (*b) {
				*e = p;
				return 1;
			}
			if (strncmp(t, title, strlen(title)) == 0)
				*b = next;
		}
		p = next;
	}
	if (*b)
		*e = p;
	return *b != NULL;
}

static int contains(const char *b, const char *e, const char *w)
{
	size_t n = strlen(w);
	for (const char *p = b; p && p + n <= e; p++)
		if (memcmp(p, w, n) == 0)
			return 1;
	return 0;
}

/* A quantified speedup above 2 ("3.2x", "2.5 ×", "3 倍") in [b, e). */
static int speedup_over_2(const char *b, const char *e)
{
	for (const char *p = b; p < e; p++) {
		if (*p < '0' || *p > '9' || (p > b && ((p[-1] >= '0' && p[-1] <= '9') || p[-1] == '.')))
			continue;
		double v;
		size_t n = decimal_scan_marked(p, &v);
		if (!n)
			continue;
		const char *q = p + n;
		while (q < e && (*q == ' ' || *q == '\t'))
			q++;
		if (q < e && (*q == 'x' || strncmp(q, "×", strlen("×")) == 0 || strncmp(q, "倍", strlen("倍")) == 0) && v > 2)
			return 1;
	}
	return 0;
}

static int is_cjk_lead(const unsigned char *p)
{
	/* U+4E00..U+9FFF encode as E4 B8 80 .. E9 BF BF */
	return p[0] >= 0xE4 && p[0] <= 0xE9 && (p[1] & 0xC0) == 0x80 && (p[2] & 0xC0) == 0x80;
}

/* Line numbers of positions met in increasing order, counted once: a
 * feedback file full of findings costs linear time, not quadratic. */
struct line_cursor {
	const char *text, *at; /* the text; the position counted up to */
	long line;             /* line number of at */
};

static long line_of(struct line_cursor *lc, const char *p)
{
	if (p < lc->at) { /* out of order: count again from the start */
		lc->at = lc->text;
		lc->line = 1;
	}
	for (; lc->at < p; lc->at++)
		if (*lc->at == '\n')
			lc->line++;
	return lc->line;
}

#define FB "S4-PERF-FEEDBACK"

/* Placeholder words left from the template, first occurrence of each. */
static int check_placeholders(const char *f, const char *t, struct gate_findings *fs)
{
	static const char *const ph[] = { "待补充", "待填写", "TODO", "FIXME", "{placeholder}", NULL };
	struct line_cursor lc = { t, t, 1 };
	for (int i = 0; ph[i]; i++) {
		const char *p = strstr(t, ph[i]);
		if (p && gate_add(fs, FB "-PLACEHOLDER", GATE_ERROR, f, line_of(&lc, p),
				  "placeholder '%s' left in the feedback", ph[i]))
			return -1;
	}
	return 0;
}

/* <...> holding CJK text on one line: an unfilled template slot. */
static int check_template_slots(const char *f, const char *t, struct gate_findings *fs)
{
	struct line_cursor lc = { t, t, 1 };
	for (const char *p = strchr(t, '<'); p; p = strchr(p + 1, '<')) {
		if (strncmp(p, "<!--", 4) == 0)
			continue;
		const char *q = p + 1;
		int cjk = 0;
		while (*q && *q != '>' && *q != '<' && *q != '\n') {
			if (is_cjk_lead((const unsigned char *)q))
				cjk = 1;
			q++;
		}
		if (*q == '>' && cjk &&
		    gate_add(fs, FB "-PLACEHOLDER", GATE_ERROR, f, line_of(&lc, p),
			     "template slot %.*s was not filled in", (int)(q - p + 1 > 80 ? 80 : q - p + 1), p))
			return -1;
	}
	return 0;
}

static int check_sections(const char *f, const char *t, struct gate_findings *fs)
{
	for (int i = 0; sections[i]; i++) {
		const char *b, *e;
		if (!section(t, sections[i], &b, &e) &&
		    gate_add(fs, FB "-SCHEMA", GATE_ERROR, f, 0,
			     "no '%s' section (the fixed schema: 触发判定, 参照锚定, 假设, 实测, 影响面, 反馈结论)", sections[i]))
			return -1;
	}
	return 0;
}

/* 参照锚定 names the best known implementation and argues why it does not
 * port, or says none was found. */
static int check_anchor(const char *f, const char *t, struct gate_findings *fs)
{
	const char *b, *e;
	if (!section(t, "参照锚定", &b, &e))
		return 0;
	struct line_cursor lc = { t, t, 1 };
	int ref = contains(b, e, "参照实现"), none = contains(b, e, "未找到参照"), arg = contains(b, e, "不可移植");
	if (!ref)
		return gate_add(fs, FB "-ANCHOR", GATE_ERROR, f, line_of(&lc, b),
				"参照锚定 has no '参照实现' line (the best known implementation of the family, or '未找到参照' with the confidence downgraded)");
	if (!none && !arg)
		return gate_add(fs, FB "-ANCHOR", GATE_ERROR, f, line_of(&lc, b),
				"参照锚定 names a reference but neither argues why it does not port ('不可移植') nor says '未找到参照'");
	return 0;
}

/* Body of section title, or an empty range at the start when absent. */
static void body_of(const char *t, const char *title, const char **b, const char **e)
{
	if (!section(t, title, b, e))
		*b = *e = t;
}

/* The words each section must carry: the design attribution and a
 * structural estimate (触发判定), msprof evidence (实测), a route (反馈结论). */
static int check_required_words(const char *f, const char *t, struct gate_findings *fs)
{
	const char *b, *e;
	body_of(t, "触发判定", &b, &e);
	if (!contains(b, e, "设计层归因") &&
	    gate_add(fs, FB "-TRIGGER", GATE_ERROR, f, 0, "触发判定 has no '设计层归因' (the DESIGN.md assumption the ceiling comes from)"))
		return -1;
	if (!speedup_over_2(b, e) && !contains(b, e, "矛盾") &&
	    gate_add(fs, FB "-TRIGGER", GATE_ERROR, f, 0,
		     "触发判定 has neither a structural speedup estimate above 2x nor a measured contradiction ('矛盾') of the design"))
		return -1;
	body_of(t, "实测", &b, &e);
	if (!contains(b, e, "msprof") &&
	    gate_add(fs, FB "-METRIC", GATE_ERROR, f, 0, "实测 has no msprof evidence (Task Duration is the only kernel latency measure)"))
		return -1;
	body_of(t, "反馈结论", &b, &e);
	if (!contains(b, e, "建议路由") &&
	    gate_add(fs, FB "-ROUTE", GATE_ERROR, f, 0, "反馈结论 has no '建议路由' (appendix or design revision)"))
		return -1;
	return 0;
}

static int path_char_before(unsigned char c)
{
	return c < 0x80 && (c == '_' || c == '/' || c == '.' || c == '-' || (c >= '0' && c <= '9') ||
			    (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
}

/* The repository path cited at p (which starts with a top folder of tl
 * bytes) into path; 0 when there is none to check (no name after the
 * folder, or a pattern with {}, *). */
static int cited_path(const char *p, size_t tl, char *path, size_t len)
{
	const char *q = p + tl;
	while (*q && !strchr(" \t\n`'\"<>()[]", *q) && (unsigned char)*q < 0x80)
		q++;
	while (q > p + tl && strchr(".,;:!?", q[-1]))
		q--;
	if (q == p + tl)
		return 0;
	size_t n = (size_t)(q - p) < len - 1 ? (size_t)(q - p) : len - 1;
	memcpy(path, p, n);
	path[n] = '\0';
	return strpbrk(path, "{}*") == NULL;
}

/* Cited repository paths (docs/..., examples/...) must exist. */
static int check_cited_paths(const struct s4_input *in, const char *t, struct gate_findings *fs)
{
	static const char *const tops[] = { "docs/", "examples/", "testing/", ".agents/", NULL };
	for (int i = 0; tops[i] && in->path_exists; i++) {
		size_t tl = strlen(tops[i]);
		struct line_cursor lc = { t, t, 1 };
		for (const char *p = strstr(t, tops[i]); p; p = strstr(p + 1, tops[i])) {
			char path[1024];
			if ((p > t && path_char_before((unsigned char)p[-1])) ||
			    !cited_path(p, tl, path, sizeof(path)))
				continue;
			if (!in->path_exists(path, in->path_ctx) &&
			    gate_add(fs, FB "-REF", GATE_ERROR, in->feedback_file, line_of(&lc, p),
				     "cited repository path '%s' does not exist", path))
				return -1;
		}
	}
	return 0;
}

int s4_rule_feedback(const struct s4_input *in, struct gate_findings *fs)
{
	const char *f = in->feedback_file;
	const char *t = in->feedback;
	if (in->feedback_state == S4_FILE_MISSING) {
		long at = in->optlog_state == S4_FILE_OK ? in->log->cite_feedback_line : 0;
		return at ? gate_add(fs, FB, GATE_ERROR, in->optlog_file, at,
				     "perf_feedback.md is missing, but the log cites it here") : 0;
	}
	if (in->feedback_state == S4_FILE_UNREADABLE)
		return gate_add(fs, FB, GATE_ERROR, f, 0, "perf_feedback.md cannot be read (or is too large)");
	if (in->feedback_state == S4_FILE_EMPTY || !t)
		return gate_add(fs, FB, GATE_ERROR, f, 0, "perf_feedback.md is empty");
	if (check_placeholders(f, t, fs) || check_template_slots(f, t, fs) ||
	    check_sections(f, t, fs) || check_anchor(f, t, fs) || check_required_words(f, t, fs) ||
	    check_cited_paths(in, t, fs))
		return -1;
	return 0;
}
