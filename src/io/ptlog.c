/* ptlog.c: optimization_log.md and perf_log.md readers (ptlog.h). */
#include "io/ptlog.h"
#include "io/mdread.h"
#include "util/prose.h"
#include "util/text.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- text ----------------------------------------------------------- */

int ptlog_text_split(struct ptlog_text *t, const char *data, size_t len)
{
	memset(t, 0, sizeof(*t));
	if (len >= 3 && (unsigned char)data[0] == 0xEF && (unsigned char)data[1] == 0xBB &&
	    (unsigned char)data[2] == 0xBF) {
		data += 3;
		len -= 3;
	}
	/* what the rendered page shows, line for line (hidden text gone) */
	size_t rlen;
	char *rendered = mdread_text(data, len, &rlen);
	if (!rendered)
		return -1;
	t->buf = rendered;
	len = rlen;
	int final_nl = len && rendered[len - 1] == '\n';
	size_t n = 1;
	for (size_t i = 0; i < len; i++)
		if (t->buf[i] == '\n')
			n++;
	t->lines = calloc(n, sizeof(char *));
	if (!t->lines) {
		free(t->buf);
		t->buf = NULL;
		return -1;
	}
	char *p = t->buf;
	for (;;) {
		char *nl = memchr(p, '\n', (size_t)(t->buf + len - p));
		if (nl)
			*nl = '\0';
		size_t l = strlen(p);
		if (l && p[l - 1] == '\r')
			p[l - 1] = '\0';
		t->lines[t->nlines++] = p;
		if (!nl)
			break;
		p = nl + 1;
	}
	/* a final newline does not start a line */
	if (t->nlines > 1 && final_nl)
		t->nlines--;
	return 0;
}

/* ---- optimization_log.md -------------------------------------------- */

static int push(void **v, size_t *n, size_t *cap, size_t size)
{
	if (*n < *cap)
		return 0;
	size_t c = *cap ? *cap * 2 : 16;
	void *p = realloc(*v, c * size);
	if (!p)
		return -1;
	*v = p;
	*cap = c;
	return 0;
}

/* Reads "#N" at p (after '['), returns N or -1. */
static int item_num(const char *p, char *sub)
{
	if (*p != '#' || !isdigit((unsigned char)p[1]))
		return -1;
	long n = strtol(p + 1, NULL, 10);
	const char *q = p + 1;
	while (isdigit((unsigned char)*q))
		q++;
	if (sub)
		*sub = (*q >= 'a' && *q <= 'z') ? *q : 0;
	return n > 0 && n < 100000 ? (int)n : -1;
}

/* First "[#N" (or " #N") in s. */
static int first_item_ref(const char *s)
{
	for (const char *p = s; (p = strchr(p, '#')); p++) {
		if (p > s && (isalnum((unsigned char)p[-1]) || p[-1] == '#'))
			continue;
		int n = item_num(p, NULL);
		if (n > 0)
			return n;
	}
	return -1;
}

static const char VERDICT_APPLIES[] = "\xE9\x80\x82\xE7\x94\xA8";  /* 适用 */
static const char VERDICT_NOT[] = "\xE4\xB8\x8D";                   /* 不 */
static const char VERDICT_PART[] = "\xE9\x83\xA8\xE5\x88\x86";      /* 部分 */

static const char COLON_FW[] = "\xEF\xBC\x9A"; /* '：' */

static int is_reason_text(const char *p)
{
	/* skip separators: blanks, '*', '—', '-', ':', '：', '，', ',' */
	for (;;) {
		if (*p == ' ' || *p == '*' || *p == '-' || *p == ':' || *p == ',' || *p == '.')
			p++;
		else if (strncmp(p, "\xE2\x80\x94", 3) == 0 || strncmp(p, COLON_FW, 3) == 0 ||
			 strncmp(p, "\xEF\xBC\x8C", 3) == 0 || strncmp(p, "\xE3\x80\x82", 3) == 0)
			p += 3;
		else
			break;
	}
	return strlen(p) >= 2;
}

/* Finds the verdict of a Part A line; *after gets the text after it. */
static enum ptlog_verdict find_word_verdict(const char *s, const char **after);

/* Length of the 部分 (6) or 不 (3) just before p inside s, else 0. */
static int verdict_prefix(const char *s, const char *p)
{
	if (p - s >= 6 && strncmp(p - 6, VERDICT_PART, 6) == 0)
		return 6;
	if (p - s >= 3 && strncmp(p - 3, VERDICT_NOT, 3) == 0)
		return 3;
	return 0;
}

/* Whether byte c may follow a verdict word (so "适用场景" is no verdict). */
static int verdict_end(unsigned char c)
{
	return c == '\0' || c == ' ' || c == '*' || c == ',' || c == '(' || c == ':' || c == '-' ||
	       c == 0xE2 /* — */ || c == 0xEF /* fullwidth */;
}

/* The verdict the 适用 at p (inside s) states, PTLOG_V_NONE when it is
 * part of a word; *after gets the text after it. */
static enum ptlog_verdict applies_verdict(const char *s, const char *p, const char **after)
{
	const char *q = p + 6;
	int pre = verdict_prefix(s, p);
	const char *st = p - pre;
	/* the verdict opening a bold span (`**适用但低优先级**`) is one
	 * whatever follows it */
	int bold = st - s >= 2 && st[-1] == '*' && st[-2] == '*';
	if (!bold && !verdict_end((unsigned char)*q))
		return PTLOG_V_NONE;
	while (*q == '*')
		q++;
	*after = q;
	return pre == 6 ? PTLOG_V_PARTIAL : pre == 3 ? PTLOG_V_NOT : PTLOG_V_APPLIES;
}

static enum ptlog_verdict find_verdict(const char *s, const char **after, int scan)
{
	if (scan) {
		enum ptlog_verdict v = find_word_verdict(s, after);
		if (v != PTLOG_V_NONE)
			return v;
	}
	for (const char *p = s; (p = strstr(p, VERDICT_APPLIES)); p += 6) {
		enum ptlog_verdict v = applies_verdict(s, p, after);
		if (v != PTLOG_V_NONE)
			return v;
	}
	return find_word_verdict(s, after);
}

static enum ptlog_verdict find_word_verdict(const char *s, const char **after)
{
	static const struct {
		const char *w;
		enum ptlog_verdict v;
	} words[] = { { "PARTIAL HIT", PTLOG_V_PARTIAL }, { "PARTIAL", PTLOG_V_PARTIAL },
		      { "N/A", PTLOG_V_NOT }, { "HIT", PTLOG_V_APPLIES } };
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		const char *p = strstr(s, words[i].w);
		if (!p)
			continue;
		size_t wl = strlen(words[i].w);
		if ((p > s && isalnum((unsigned char)p[-1])) || isalnum((unsigned char)p[wl]))
			continue;
		*after = p + wl;
		return words[i].v;
	}
	return PTLOG_V_NONE;
}

static int is_blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return *s == '\0';
}

/* Known tags; returns 1 and fills tag/num/sub when s starts with one. */
static int parse_tag(const char *s, enum ptlog_tag *tag, int *num, char *sub)
{
	if (*s != '[')
		return 0;
	s++;
	*num = -1;
	*sub = 0;
	struct {
		const char *name;
		enum ptlog_tag tag;
		int numbered;
	} tags[] = {
		{ "ORDER-CHECK", PTLOG_ORDER_CHECK, 0 },     { "SELF-CHECK", PTLOG_SELF_CHECK, 0 },
		{ "IMPL", PTLOG_IMPL, 1 },                   { "RESULT", PTLOG_RESULT, 1 },
		{ "KERNEL-REUSE-PRECHECK", PTLOG_KRP, 0 },   { "KERNEL-REUSE-AUDIT", PTLOG_KRA, 0 },
		{ "DB-ANALYSIS", PTLOG_DB, 0 },
	};
	for (size_t i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
		size_t l = strlen(tags[i].name);
		if (strncmp(s, tags[i].name, l) != 0)
			continue;
		const char *p = s + l;
		if (tags[i].numbered && *p == '-') {
			*num = item_num(p + 1, sub);
			if (*num < 0)
				continue;
			while (*p && *p != ']')
				p++;
		}
		if (*p != ']')
			continue;
		*tag = tags[i].tag;
		return 1;
	}
	return 0;
}

static int add_event(struct ptlog *log, size_t *cap, enum ptlog_tag tag, int num, char sub,
		     long line)
{
	if (push((void **)&log->ev, &log->nev, cap, sizeof(*log->ev)))
		return -1;
	struct ptlog_event *e = &log->ev[log->nev++];
	e->tag = tag;
	e->num = num;
	e->sub = sub;
	e->line = line;
	e->end = line;
	e->ok = -1;
	return 0;
}

static void parse_deps(struct ptlog_plan *pl, const char *s)
{
	static const char *const keys[] = { "\xE5\x89\x8D\xE7\xBD\xAE\xE4\xBE\x9D\xE8\xB5\x96", /* 前置依赖 */
					    "\xE5\x89\x8D\xE7\xBD\xAE",                         /* 前置 */
					    "depends on", "depends", "prerequisite", NULL };
	const char *p = NULL;
	for (size_t i = 0; keys[i] && !p; i++) {
		const char *k = text_find_ci(s, keys[i]);
		if (k) {
			p = k + strlen(keys[i]);
			while (*p == ' ' || *p == '*')
				p++;
			if (*p == ':')
				p++;
			else if (strncmp(p, COLON_FW, 3) == 0)
				p += 3;
		}
	}
	if (!p)
		return;
	pl->deps_stated = 1;
	/* the value ends at the next field separator: '—', '|', '；', " - " */
	const char *e = p;
	while (*e && strncmp(e, "\xE2\x80\x94", 3) != 0 && *e != '|' && strncmp(e, " - ", 3) != 0 &&
	       strncmp(e, "\xEF\xBC\x9B", 3) != 0)
		e++;
	for (const char *q = p; q < e; q++) {
		if (*q != '#' || (q > p && isalnum((unsigned char)q[-1])))
			continue;
		int n = item_num(q, NULL);
		if (n > 0 && pl->ndeps < sizeof(pl->deps) / sizeof(pl->deps[0]))
			pl->deps[pl->ndeps++] = n;
	}
}

/* State of one ptlog_parse pass over log->text. */
struct plparse {
	struct ptlog *log;
	size_t icap, pcap, ecap; /* capacities of items, plan, ev */
	int in_plan;             /* inside the [ORDER-PLAN] list */
	long cur_item;           /* item of the last [ORDER-CHECK] or item heading */
};

/* The ORDER-CHECK conclusion on line s: 1 (a check mark), 0 (a cross) or
 * -1 (none stated). */
static int order_check_ok(const char *s)
{
	const char *c = strstr(s, "\xE7\xBB\x93\xE8\xAE\xBA"); /* 结论 */
	if (!c)
		c = text_find_ci(s, "conclusion");
	if (c && strstr(c, "\xE2\x9C\x85"))
		return 1;
	if (c && strstr(c, "\xE2\x9D\x8C"))
		return 0;
	return -1;
}

/* End (1-based, inclusive) of the body of the tag on line index i: to the
 * next heading or tag; a tag outside a heading (level 0) also stops at a
 * blank line. */
/* 1 when line s announces what follows it: it ends with a colon (':',
 * '：'), emphasis marks and blanks aside (`[RESULT-#4] 性能 (official):`). */
static int ends_with_colon(const char *s)
{
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '*' || s[n - 1] == '_'))
		n--;
	return (n && s[n - 1] == ':') || (n >= 3 && strncmp(s + n - 3, "\xEF\xBC\x9A", 3) == 0);
}

static long tag_body_end(const struct ptlog_text *t, size_t i, int level)
{
	size_t j = i + 1;
	for (; j < t->nlines; j++) {
		int lv = 0;
		const char *s = prose_strip_lead(t->lines[j], &lv);
		enum ptlog_tag t2;
		int n2;
		char s2;
		if (lv || parse_tag(s, &t2, &n2, &s2) || strstr(t->lines[j], "[ORDER-PLAN]"))
			break;
		if (!level && is_blank(t->lines[j])) {
			/* a line ending in a colon owns the table after it */
			size_t k = j;
			while (k < t->nlines && is_blank(t->lines[k]))
				k++;
			if (k < t->nlines && t->lines[k][0] == '|' && ends_with_colon(t->lines[j - 1])) {
				while (k < t->nlines && t->lines[k][0] == '|')
					k++;
				j = k - 1;
				continue;
			}
			break;
		}
	}
	return (long)j;
}

/* 1 when the [RESULT-#N] line index i continues the RESULT event prev
 * (the same N): only blank lines lie between them, and the line does not
 * state a precision again (a second verdict is a second RESULT, such as
 * the one after a fix). */
static int continues_result(const struct ptlog *log, const struct ptlog_event *prev, size_t i)
{
	static const char *const prec[] = { "\xE7\xB2\xBE\xE5\xBA\xA6" /* 精度 */, "precision", NULL };
	for (long l = prev->end + 1; l <= (long)i; l++)
		if (!is_blank(log->text.lines[l - 1]))
			return 0;
	for (size_t k = 0; prec[k]; k++) {
		size_t len;
		if (prose_field(log->text.lines[i], prec[k], &len) &&
		    ptlog_event_field(log, prev, prec[k], &len, NULL))
			return 0;
	}
	return 1;
}

/* A tagged line (index i, stripped text s): records its event. One
 * RESULT written over several [RESULT-#N] lines (continues_result) is one
 * event. Returns 0, or -1 when out of memory. */
static int on_tag_line(struct plparse *c, size_t i, const char *s, int level, enum ptlog_tag tag,
		       int num, char sub)
{
	c->in_plan = 0;
	if (tag == PTLOG_ORDER_CHECK || tag == PTLOG_SELF_CHECK)
		num = first_item_ref(s + 1);
	else if ((tag == PTLOG_IMPL || tag == PTLOG_RESULT) && num < 0)
		num = (int)c->cur_item;
	if (tag == PTLOG_ORDER_CHECK)
		c->cur_item = num;
	struct ptlog_event *prev = c->log->nev ? &c->log->ev[c->log->nev - 1] : NULL;
	if (tag == PTLOG_RESULT && num > 0 && prev && prev->tag == PTLOG_RESULT && prev->num == num &&
	    prev->sub == sub && continues_result(c->log, prev, i)) {
		prev->end = tag_body_end(&c->log->text, i, level);
		return 0;
	}
	if (add_event(c->log, &c->ecap, tag, num, sub, (long)i + 1))
		return -1;
	struct ptlog_event *e = &c->log->ev[c->log->nev - 1];
	if (tag == PTLOG_ORDER_CHECK)
		e->ok = order_check_ok(s);
	e->end = tag_body_end(&c->log->text, i, level);
	return 0;
}

/* Appends a zeroed item numbered num at line; NULL when out of memory. */
static struct ptlog_item *new_item(struct plparse *c, int num, long line)
{
	struct ptlog *log = c->log;
	if (push((void **)&log->items, &log->nitems, &c->icap, sizeof(*log->items)))
		return NULL;
	struct ptlog_item *it = &log->items[log->nitems++];
	memset(it, 0, sizeof(*it));
	it->num = num;
	it->line = line;
	return it;
}

/* Whether the Part A item on line index i states a reason after its
 * verdict (text after) or on the next plain line. */
static int item_has_reason(const struct ptlog_text *t, size_t i, const char *after)
{
	if (is_reason_text(after))
		return 1;
	if (i + 1 >= t->nlines)
		return 0;
	int lv = 0;
	const char *nx = prose_strip_lead(t->lines[i + 1], &lv);
	return !lv && *nx && *nx != '[' && !is_blank(nx);
}

/* A Part A candidate [#n] on line index i; a repeated number is no new
 * candidate. Returns 0, or -1 when out of memory. */
static int on_part_a_item(struct plparse *c, size_t i, const char *s, int n)
{
	for (size_t q = 0; q < c->log->nitems; q++)
		if (c->log->items[q].num == n)
			return 0;
	struct ptlog_item *it = new_item(c, n, (long)i + 1);
	if (!it)
		return -1;
	const char *after = NULL;
	it->verdict = find_verdict(s, &after, 0);
	if (it->verdict != PTLOG_V_NONE)
		it->has_reason = item_has_reason(&c->log->text, i, after);
	return 0;
}

/* A line starting with [#N]: a plan step inside the plan, an item heading
 * after it, a Part A candidate before it. Returns 0, or -1 (no memory). */
static int on_item_line(struct plparse *c, size_t i, const char *s, int level)
{
	struct ptlog *log = c->log;
	int n = item_num(s + 1, NULL);
	if (n < 0)
		return 0;
	if (c->in_plan) {
		if (push((void **)&log->plan, &log->nplan, &c->pcap, sizeof(*log->plan)))
			return -1;
		struct ptlog_plan *pl = &log->plan[log->nplan++];
		memset(pl, 0, sizeof(*pl));
		pl->num = n;
		pl->line = (long)i + 1;
		parse_deps(pl, s);
		return 0;
	}
	if (log->plan_line) {
		/* after the plan, a heading naming [#N] starts that item's
		 * implementation notes */
		if (!level)
			return 0;
		if (add_event(log, &c->ecap, PTLOG_ITEMHEAD, n, 0, (long)i + 1))
			return -1;
		c->cur_item = n;
		return 0;
	}
	return on_part_a_item(c, i, s, n);
}

/* An anti-pattern scan entry "- [name]...: HIT — reason" on line index i.
 * Returns 0 (also when s is none), or -1 when out of memory. */
static int on_scan_line(struct plparse *c, size_t i, const char *s)
{
	const char *e = strchr(s, ']');
	if (!e)
		return 0;
	const char *colon = strchr(e, ':');
	const char *cf = strstr(e, COLON_FW);
	if (!colon || (cf && cf < colon))
		colon = cf;
	if (!colon)
		return 0;
	const char *after = NULL;
	enum ptlog_verdict v = find_verdict(colon, &after, 1);
	if (v == PTLOG_V_NONE)
		return 0;
	struct ptlog_item *it = new_item(c, -1, (long)i + 1);
	if (!it)
		return -1;
	it->scan = 1;
	it->verdict = v;
	it->has_reason = is_reason_text(after);
	return 0;
}

/* One line of optimization_log.md (index i). Returns 0, or -1 (no memory). */
static int on_log_line(struct plparse *c, size_t i)
{
	struct ptlog *log = c->log;
	const char *raw = log->text.lines[i];
	int level = 0;
	const char *s = prose_strip_lead(raw, &level);
	if (level && c->in_plan)
		c->in_plan = 0;
	if (strstr(raw, "[ORDER-PLAN]")) {
		if (!log->plan_line)
			log->plan_line = (long)i + 1;
		c->in_plan = 1;
		return 0;
	}
	enum ptlog_tag tag;
	int num;
	char sub;
	if (parse_tag(s, &tag, &num, &sub))
		return on_tag_line(c, i, s, level, tag, num, sub);
	if (*s == '[' && s[1] == '#')
		return on_item_line(c, i, s, level);
	if (!log->plan_line && *s == '[' && !level)
		return on_scan_line(c, i, s);
	return 0;
}

int ptlog_parse(struct ptlog *log, const char *data, size_t len)
{
	memset(log, 0, sizeof(*log));
	if (ptlog_text_split(&log->text, data, len))
		return -1;
	struct plparse c = { .log = log, .cur_item = -1 };
	for (size_t i = 0; i < log->text.nlines; i++) {
		if (on_log_line(&c, i)) {
			ptlog_release(log);
			return -1;
		}
	}
	return 0;
}

/* ---- perf_log.md ---------------------------------------------------- */

static const char *const ITER_WORDS[] = { "iteration", "iter ", "round", "\xE8\xBF\xAD\xE4\xBB\xA3" /* 迭代 */,
					  NULL };
static const char *const STOP_WORDS[] = { "[DESIGN_ERROR]", "[STOP]", "stop", "terminat", "halt",
					  "\xE7\xBB\x88\xE6\xAD\xA2" /* 终止 */,
					  "\xE4\xB8\xAD\xE6\x96\xAD" /* 中断 */,
					  "\xE5\x81\x9C\xE6\xAD\xA2" /* 停止 */, NULL };

static int starts_with_word(const char *s, const char *const *words)
{
	for (size_t i = 0; words[i]; i++)
		if (prose_key_match(s, words[i]))
			return 1;
	return 0;
}

/* "- key (note): value" with key an identifier; returns the value start
 * and the key in key[]. */
static const char *bullet_key(const char *raw, char *key, size_t keylen)
{
	const char *s = raw;
	while (*s == ' ')
		s++;
	if (!((*s == '-' || *s == '*') && s[1] == ' '))
		return NULL;
	s += 2;
	while (*s == ' ' || *s == '*')
		s++;
	size_t n = 0;
	while ((isalnum((unsigned char)s[n]) || s[n] == '_') && n + 1 < keylen)
		n++;
	if (!n)
		return NULL;
	memcpy(key, s, n);
	key[n] = '\0';
	for (size_t i = 0; i < n; i++)
		key[i] = (char)tolower((unsigned char)key[i]);
	return prose_after_key(s + n);
}

static char *collect_value(const struct ptlog_text *t, size_t i, const char *v, size_t *last)
{
	size_t cap = strlen(v) + 1;
	char *out = malloc(cap);
	if (!out)
		return NULL;
	memcpy(out, v, cap);
	size_t j = i + 1;
	int block = strcmp(v, "|") == 0 || strcmp(v, ">") == 0 || *v == '\0';
	for (; j < t->nlines; j++) {
		const char *l = t->lines[j];
		int ind = 0;
		while (l[ind] == ' ')
			ind++;
		if (is_blank(l) || ind < 2)
			break;
		char k[64];
		if (bullet_key(l, k, sizeof(k)) && ind < 4)
			break;
		size_t add = strlen(l + ind) + 1;
		char *p = realloc(out, cap + add);
		if (!p)
			break;
		out = p;
		out[cap - 1] = ' ';
		memcpy(out + cap, l + ind, add);
		cap += add;
	}
	/* drop a leading "| " of YAML blocks */
	if (block && (out[0] == '|' || out[0] == '>'))
		memmove(out, out + 1, strlen(out));
	*last = j - 1;
	return out;
}

static struct ptperf_field *meas_slot(struct ptperf_meas *m, int k)
{
	return k == 0 ? &m->base : k == 1 ? &m->cand : k == 2 ? &m->impr : &m->adopted;
}

static int set_field(struct ptperf_field *f, const struct ptlog_text *t, size_t i, const char *v)
{
	size_t last;
	free(f->value);
	f->value = collect_value(t, i, v, &last);
	f->line = (long)i + 1;
	return f->value ? 0 : -1;
}

/* State of one ptperf_parse pass over p->text. */
struct ppparse {
	struct ptperf *p;
	size_t icap, dcap, mcap;  /* capacities of it, db_lines, cur->m */
	struct ptperf_iter *cur;  /* the iteration section being read */
	long pending_stop;        /* a stop heading seen outside an iteration */
};

/* The measurement key's slot index (baseline_time 0, candidate_time 1,
 * improvement 2, adopted 3), or -1 for any other key. */
static int meas_index(const char *key)
{
	static const char *const keys[] = { "baseline_time", "candidate_time", "improvement",
					    "adopted" };
	for (int k = 0; k < 4; k++)
		if (strcmp(key, keys[k]) == 0)
			return k;
	return -1;
}

/* The field of it that key names while it may still be set
 * (optimization, precision: once; rollback_reason: until it is more
 * than "N/A"), else NULL. */
static struct ptperf_field *iter_field(struct ptperf_iter *it, const char *key)
{
	if (strcmp(key, "optimization") == 0)
		return it->optimization.value ? NULL : &it->optimization;
	if (strcmp(key, "precision") == 0)
		return it->precision.value ? NULL : &it->precision;
	if (strcmp(key, "rollback_reason") == 0)
		return it->rollback.value && strncmp(it->rollback.value, "N/A", 3) != 0 ? NULL :
										   &it->rollback;
	return NULL;
}

/* A [DB-ANALYSIS] mention on line lineno. Returns 0, or -1 (no memory). */
static int on_db_line(struct ppparse *c, long lineno)
{
	struct ptperf *p = c->p;
	if (push((void **)&p->db_lines, &p->ndb, &c->dcap, sizeof(long)))
		return -1;
	p->db_lines[p->ndb++] = lineno;
	if (c->cur && !c->cur->db_line)
		c->cur->db_line = lineno;
	return 0;
}

/* A heading (text s, level) on line lineno: closes the iteration it
 * outranks, opens one when it names an iteration, notes a stop heading.
 * Returns 0, or -1 when out of memory. */
static int on_perf_heading(struct ppparse *c, const char *s, int level, long lineno)
{
	struct ptperf *p = c->p;
	if (c->cur && level <= c->cur->level) {
		c->cur->end = lineno - 1;
		c->cur = NULL;
	}
	if (c->cur)
		return 0;
	if (!starts_with_word(s, ITER_WORDS)) {
		if (prose_contains_any(s, (size_t)-1, STOP_WORDS))
			c->pending_stop = lineno;
		return 0;
	}
	if (push((void **)&p->it, &p->nit, &c->icap, sizeof(*p->it)))
		return -1;
	c->cur = &p->it[p->nit++];
	memset(c->cur, 0, sizeof(*c->cur));
	c->cur->title = strdup(s);
	if (!c->cur->title)
		return -1;
	c->cur->line = lineno;
	c->cur->level = level;
	c->cur->stop_before = c->pending_stop;
	c->pending_stop = 0;
	c->mcap = 0;
	return 0;
}

/* A measurement bullet (slot k, value v at line index i) of the current
 * iteration: a key seen twice starts a new attempt, and so does a new
 * baseline after a candidate or an improvement. Returns 0, or -1. */
static int on_meas_bullet(struct ppparse *c, size_t i, int k, const char *v)
{
	struct ptperf_iter *cur = c->cur;
	struct ptperf_meas *m = cur->nm ? &cur->m[cur->nm - 1] : NULL;
	int start_new = !m || meas_slot(m, k)->value || (k == 0 && (m->cand.value || m->impr.value));
	if (start_new) {
		if (push((void **)&cur->m, &cur->nm, &c->mcap, sizeof(*cur->m)))
			return -1;
		m = &cur->m[cur->nm++];
		memset(m, 0, sizeof(*m));
	}
	return set_field(meas_slot(m, k), &c->p->text, i, v);
}

/* One line of perf_log.md (index i). Returns 0, or -1 (no memory). */
static int on_perf_line(struct ppparse *c, size_t i)
{
	const char *raw = c->p->text.lines[i];
	long lineno = (long)i + 1;
	int level = 0;
	const char *s = prose_strip_lead(raw, &level);
	if (strstr(raw, "[DB-ANALYSIS]") && on_db_line(c, lineno))
		return -1;
	if (level)
		return on_perf_heading(c, s, level, lineno);
	if (!c->cur)
		return 0;
	char key[64];
	const char *v = bullet_key(raw, key, sizeof(key));
	if (!v)
		return 0;
	struct ptperf_field *f = iter_field(c->cur, key);
	if (f)
		return set_field(f, &c->p->text, i, v);
	int k = meas_index(key);
	return k < 0 ? 0 : on_meas_bullet(c, i, k, v);
}

int ptperf_parse(struct ptperf *p, const char *data, size_t len)
{
	memset(p, 0, sizeof(*p));
	if (ptlog_text_split(&p->text, data, len))
		return -1;
	struct ppparse c = { .p = p };
	for (size_t i = 0; i < p->text.nlines; i++) {
		if (on_perf_line(&c, i)) {
			ptperf_release(p);
			return -1;
		}
	}
	if (c.cur)
		c.cur->end = (long)p->text.nlines;
	p->stop_after = c.pending_stop;
	return 0;
}

double ptlog_noise_pct(const char *line)
{
	return ptlog_noise_pct_tb(line, NULL);
}

double ptlog_noise_pct_tb(const char *line, const struct text_bytes *tb)
{
	static const char *const labels[] = { "noise threshold", "noise_threshold",
					      "\xE5\x99\xAA\xE5\xA3\xB0\xE9\x98\x88\xE5\x80\xBC" /* 噪声阈值 */, NULL };
	const char *hit = NULL;
	for (size_t k = 0; labels[k] && !hit; k++)
		hit = text_find_ci_tb(line, tb, labels[k]);
	if (!hit)
		return NAN;
	struct prose_num nums[16];
	size_t n = prose_numbers(line, nums, 16);
	double best = NAN;
	long bestd = 0;
	for (size_t k = 0; k < n; k++) {
		if (nums[k].unit != PROSE_PCT || nums[k].sign || nums[k].v <= 0 || nums[k].v >= 50)
			continue;
		long d = labs((long)nums[k].pos - (long)(hit - line));
		if (d <= 24 && (isnan(best) || d < bestd)) {
			best = nums[k].v;
			bestd = d;
		}
	}
	return best;
}
