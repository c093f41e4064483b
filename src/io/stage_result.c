/* io/stage_result.c: the Stage Result reader (io/stage_result.h). */
#include "io/stage_result.h"
#include "io/mdread.h"
#include "util/utf8.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FW_COLON "\xef\xbc\x9a"   /* ： */
#define FW_PERCENT "\xef\xbc\x85" /* ％ */

static const char *skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* Copies s without surrounding spaces, '*' and '`' (markdown decoration). */
static char *trim_dup(const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t' || *s == '*' || *s == '`')) {
		s++;
		n--;
	}
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '*' || s[n - 1] == '`'))
		n--;
	char *d = malloc(n + 1);
	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

/* The heading text of an ATX heading line, or NULL. */
static const char *heading_text(const char *s)
{
	const char *p = s;
	int spaces = 0;
	while (*p == ' ' && spaces < 4) {
		p++;
		spaces++;
	}
	if (spaces > 3 || *p != '#')
		return NULL;
	int n = 0;
	while (*p == '#') {
		p++;
		n++;
	}
	if (n > 6 || (*p != ' ' && *p != '\t' && *p != '\0'))
		return NULL;
	return skip_ws(p);
}

/* 1 when text (a heading's or a bold line's) is "Stage Result". */
static int names_block(const char *t)
{
	char *d = trim_dup(t, strlen(t));
	if (!d)
		return 0;
	size_t n = strlen(d);
	while (n && (d[n - 1] == '#' || d[n - 1] == ' ' || d[n - 1] == ':' || d[n - 1] == '*'))
		d[--n] = '\0';
	int hit = strcasecmp(d, "stage result") == 0 || strcasecmp(d, "stage_result") == 0;
	free(d);
	return hit;
}

static int is_fence(const char *s)
{
	s = skip_ws(s);
	return strncmp(s, "```", 3) == 0 || strncmp(s, "~~~", 3) == 0;
}

/* Lowercase, spaces and '-' folded to '_'; returns 1 when anything changed
 * beyond the case of letters. */
static int fold_key(char *k)
{
	int changed = 0;
	for (char *p = k; *p; p++) {
		if (*p == ' ' || *p == '-') {
			*p = '_';
			changed = 1;
		} else {
			*p = (char)tolower((unsigned char)*p);
		}
	}
	return changed;
}

/* Looks the key up; with folding allowed, "Final latency" finds
 * final_latency. *folded set when folding (not just case) was needed. */
static enum sr_field lookup(const char *key, int *folded)
{
	char buf[128];
	*folded = 0;
	size_t n = strlen(key);
	if (n == 0 || n >= sizeof(buf))
		return SR_UNKNOWN;
	memcpy(buf, key, n + 1);
	enum sr_field f = stage_result_field(buf);
	if (f != SR_UNKNOWN)
		return f;
	int changed = fold_key(buf);
	f = stage_result_field(buf);
	if (f != SR_UNKNOWN)
		*folded = changed || strcmp(buf, key) != 0;
	return f;
}

/* Splits "key(WL)" / "key [WL]" into key and label (in place); returns
 * the label or NULL. */
static char *split_label(char *key)
{
	size_t n = strlen(key);
	if (n < 3)
		return NULL;
	char close = key[n - 1];
	char open = close == ')' ? '(' : close == ']' ? '[' : 0;
	if (!open)
		return NULL;
	char *o = strrchr(key, open);
	if (!o || o == key || o[1] == close)
		return NULL;
	key[n - 1] = '\0';
	*o = '\0';
	size_t kl = strlen(key);
	while (kl && key[kl - 1] == ' ')
		key[--kl] = '\0';
	return o + 1;
}

struct parser {
	struct stage_result *sr;
	int in_block;
	int whole; /* reading the whole text as the block (no heading) */
};

/* Past a list marker ("- ", "* ", "+ ", "1. ", "1) ") and its blanks at p
 * (p itself when there is none). */
static const char *skip_marker(const char *p)
{
	if (*p == '-' || *p == '*' || *p == '+') {
		if (p[1] == ' ' || p[1] == '\t')
			p = skip_ws(p + 1);
	} else if (isdigit((unsigned char)*p)) {
		const char *q = p;
		while (isdigit((unsigned char)*q))
			q++;
		if ((*q == '.' || *q == ')') && (q[1] == ' ' || q[1] == '\t'))
			p = skip_ws(q + 1);
	}
	return p;
}

/* "iterations 5": a seed field without its colon at p is added with a
 * problem saying how it was read; other words are ignored. Returns 0, -1
 * on allocation failure. */
static int colonless_line(struct stage_result *sr, long lineno, const char *raw, const char *p)
{
	char word[64];
	size_t wl = 0;
	while (p[wl] && p[wl] != ' ' && p[wl] != '\t' && wl < sizeof(word) - 1) {
		word[wl] = p[wl];
		wl++;
	}
	word[wl] = '\0';
	int folded;
	char *w = trim_dup(word, wl);
	enum sr_field f = w ? lookup(w, &folded) : SR_UNKNOWN;
	int rc = 0;
	if (f != SR_UNKNOWN && p[wl]) {
		const char *v = skip_ws(p + wl);
		if (!stage_result_add(sr, lineno, f, stage_result_fields[f], NULL, v, raw) ||
		    stage_result_problem(sr, lineno, 0, "no ':' after '%s' in '%s': read as '%s: %s'", w,
					 raw, stage_result_fields[f], v))
			rc = -1;
	}
	free(w);
	return rc;
}

/* One "key: value" line taken apart; the strings are malloc'd. */
struct kv {
	char *key;
	char *value;
	char *label;     /* workload label, or NULL */
	enum sr_field f; /* the key looked up */
	int folded;      /* the key needed folding to be found */
};

/* Replaces kv->value by the trimmed text after vcolon (a colon inside
 * it). Returns 0, -1 on allocation failure. */
static int value_after(struct kv *kv, const char *vcolon)
{
	char *v2 = trim_dup(vcolon + 1, strlen(vcolon + 1));
	if (!v2)
		return -1;
	free(kv->value);
	kv->value = v2;
	return 0;
}

/* "WORKLOAD: key: value": when the value starts with a known key, the
 * first key becomes the label. Returns 0, -1 on allocation failure. */
static int workload_first(struct kv *kv, const char *vcolon)
{
	char *k2 = trim_dup(kv->value, (size_t)(vcolon - kv->value));
	if (!k2)
		return -1;
	int folded2;
	enum sr_field f2 = lookup(k2, &folded2);
	if (f2 == SR_UNKNOWN) {
		free(k2);
		return 0;
	}
	kv->label = kv->key;
	kv->key = k2;
	kv->f = f2;
	kv->folded = folded2;
	return value_after(kv, vcolon);
}

/* "key: WORKLOAD: value" for a per-workload key: the word before the
 * value's colon is the label when it is no number and one word. Returns
 * 0, -1 on allocation failure. */
static int workload_after(struct kv *kv, const char *vcolon)
{
	char *l2 = trim_dup(kv->value, (size_t)(vcolon - kv->value));
	if (!l2)
		return -1;
	if (!*l2 || isdigit((unsigned char)*l2) || *l2 == '.' || *l2 == '-' || *l2 == '+' ||
	    strchr(l2, ' ')) {
		free(l2);
		return 0;
	}
	kv->label = l2;
	return value_after(kv, vcolon);
}

/* Splits key(WL) / key[WL], looks the key up and moves a workload label
 * written inside the value. Returns 0, -1 on allocation failure. */
static int read_key(struct kv *kv)
{
	char *lb = split_label(kv->key);
	if (lb && !(kv->label = strdup(lb)))
		return -1;
	kv->f = lookup(kv->key, &kv->folded);
	const char *vcolon = strchr(kv->value, ':');
	if (kv->label || !vcolon)
		return 0;
	if (kv->f == SR_UNKNOWN)
		return workload_first(kv, vcolon);
	if (stage_result_per_workload(kv->f))
		return workload_after(kv, vcolon);
	return 0;
}

/* Adds the entry read from one line, with a problem for a folded key and
 * one for full-width punctuation. Returns 0, -1 on allocation failure. */
static int add_kv(struct stage_result *sr, long lineno, const char *raw, const struct kv *kv,
		  int fullwidth)
{
	enum sr_field f = kv->f;
	/* keep an unknown key (the gate reports unknown fields) only when it
	 * looks like a key: one word, no sentence */
	if (f == SR_UNKNOWN && strchr(kv->key, ' ') && strlen(kv->key) > 40)
		return 0;
	if (kv->folded && stage_result_problem(sr, lineno, 0, "key '%s' in '%s' read as '%s'", kv->key,
					       raw, stage_result_fields[f]))
		return -1;
	struct sr_entry *e = stage_result_add(sr, lineno, f,
					      f == SR_UNKNOWN ? kv->key : stage_result_fields[f],
					      kv->label, kv->value, raw);
	if (!e)
		return -1;
	e->fullwidth = fullwidth;
	if (fullwidth && stage_result_problem(sr, lineno, 0,
					      "full-width punctuation in '%s': read as ASCII ':' / '%%'",
					      raw))
		return -1;
	return 0;
}

/* One line inside the block (after normalisation of '：' to ':'). */
static int entry_line(struct parser *ps, long lineno, const char *raw, char *s, int fullwidth)
{
	const char *p = skip_marker(skip_ws(s));
	if (!*p || *p == '|' || *p == '>' || strncmp(p, "<!--", 4) == 0)
		return 0;
	const char *colon = strchr(p, ':');
	if (!colon)
		return colonless_line(ps->sr, lineno, raw, p);
	struct kv kv = { trim_dup(p, (size_t)(colon - p)), trim_dup(colon + 1, strlen(colon + 1)), NULL,
			 SR_UNKNOWN, 0 };
	int rc = -1;
	if (kv.key && kv.value && read_key(&kv) == 0)
		rc = add_kv(ps->sr, lineno, raw, &kv, fullwidth);
	free(kv.key);
	free(kv.value);
	free(kv.label);
	return rc;
}

static void reset_block(struct stage_result *sr)
{
	long nb = sr->nblocks, other = sr->other_heading;
	stage_result_release(sr);
	sr->nblocks = nb;
	sr->other_heading = other;
}

/* Replaces every occurrence of pat by rep (shorter) in place; returns 1
 * when any was replaced. */
static int replace_all(char *s, const char *pat, const char *rep)
{
	size_t pl = strlen(pat), rl = strlen(rep);
	int hit = 0;
	char *p;
	while ((p = strstr(s, pat)) != NULL) {
		memcpy(p, rep, rl);
		memmove(p + rl, p + pl, strlen(p + pl) + 1);
		hit = 1;
	}
	return hit;
}

/* The text being split into lines, and the current line (a NUL-ended
 * copy without its '\n' or a final '\r'). */
struct line_reader {
	const char *text;
	size_t len;
	size_t at;   /* where the next line starts */
	char *line;  /* malloc'd, reused */
	size_t cap;
	long lineno;
};

/* Reads the next line into r->line, its length in *n. Returns 1, 0 at the
 * end of the text, -1 on allocation failure. */
static int next_line(struct line_reader *r, size_t *n)
{
	if (r->at >= r->len)
		return 0;
	const char *nl = memchr(r->text + r->at, '\n', r->len - r->at);
	size_t l = nl ? (size_t)(nl - (r->text + r->at)) : r->len - r->at;
	r->lineno++;
	if (l + 1 > r->cap) {
		char *b = realloc(r->line, l + 64);
		if (!b)
			return -1;
		r->line = b;
		r->cap = l + 64;
	}
	memcpy(r->line, r->text + r->at, l);
	r->line[l] = '\0';
	r->at += l + (nl ? 1 : 0);
	if (l && r->line[l - 1] == '\r')
		r->line[--l] = '\0';
	*n = l;
	return 1;
}

/* A heading or a bold title line: a "Stage Result" one opens a block (a
 * second block replaces the first), another one closes it. Returns 1 when
 * the line was such a title, 0 otherwise. */
static int title_line(struct parser *ps, long lineno, const char *line)
{
	struct stage_result *sr = ps->sr;
	const char *h = heading_text(line);
	const char *t = skip_ws(line);
	int bold_title = !h && strncmp(t, "**", 2) == 0 && !strchr(t + 2, ':') &&
			 !strstr(t, FW_COLON) && names_block(t);
	if (!ps->whole && ((h && names_block(h)) || bold_title)) {
		sr->nblocks++;
		if (sr->nblocks > 1) {
			if (!sr->other_heading)
				sr->other_heading = sr->heading_line;
			reset_block(sr);
		}
		sr->heading_line = lineno;
		sr->end_line = lineno;
		ps->in_block = 1;
		return 1;
	}
	if (h) {
		if (!ps->whole)
			ps->in_block = 0;
		return 1;
	}
	return 0;
}

/* A line inside the block: full-width punctuation normalised, then read
 * as an entry. Returns 0, -1 on allocation failure. */
static int block_line(struct parser *ps, long lineno, char *line)
{
	char *raw = strdup(line);
	if (!raw)
		return -1;
	int fw = replace_all(line, FW_COLON, ":");
	fw |= strstr(line, FW_PERCENT) != NULL;
	fw |= strstr(line, "\xef\xbc\x8c") != NULL; /* ， */
	size_t before = ps->sr->n;
	int rc = entry_line(ps, lineno, raw, line, fw);
	if (ps->sr->n > before)
		ps->sr->end_line = lineno;
	free(raw);
	return rc;
}

/* One line of the text (n bytes, possibly holding a NUL). Returns 0, or
 * nonzero to stop (allocation failure). */
static int pass_line(struct parser *ps, long lineno, char *line, size_t n)
{
	if (memchr(line, '\0', n))
		return ps->in_block ? stage_result_problem(ps->sr, lineno, 1, "line holds a NUL byte") : 0;
	if (lineno == 1 && strncmp(line, "\xef\xbb\xbf", 3) == 0)
		memmove(line, line + 3, n - 2);
	if (title_line(ps, lineno, line))
		return 0;
	if (!ps->in_block || is_fence(line))
		return 0;
	return block_line(ps, lineno, line);
}

static int parse_rendered(const char *text, size_t len, struct stage_result *sr);

static int parse_pass(const char *text, size_t len, struct stage_result *sr, int whole)
{
	struct parser ps = { sr, whole, whole };
	struct line_reader r = { text, len, 0, NULL, 0, 0 };
	size_t n;
	int rc;
	if (whole) {
		sr->heading_line = 0;
		sr->nblocks = 0;
	}
	while ((rc = next_line(&r, &n)) > 0 && (rc = pass_line(&ps, r.lineno, r.line, n)) == 0)
		;
	free(r.line);
	return rc;
}

/* A bidirectional control in the text is an error of form on its line:
 * the page would show its digits in another order than the file holds. */
static int bidi_problems(const char *raw, size_t n, struct stage_result *sr)
{
	long line = 1;
	for (size_t i = 0; i < n;) {
		const char *nl = memchr(raw + i, '\n', n - i);
		size_t end = nl ? (size_t)(nl - raw) : n;
		unsigned cp;
		size_t at = utf8_bidi_control_at(raw + i, end - i, &cp);
		if (at != (size_t)-1 &&
		    stage_result_problem(sr, line, 1,
					 "bidirectional control character U+%04X at byte %zu reorders what the page "
					 "shows (digits may be shown in another order than the file holds them): remove it",
					 cp, at + 1))
			return -1;
		i = end + 1;
		line++;
	}
	return 0;
}

int stage_result_parse(const char *raw, size_t rawlen, struct stage_result *sr)
{
	/* what the rendered page shows, line for line: hidden text never
	 * counts, a block printed inside a code fence is read as shown */
	size_t len;
	char *text = mdread_text(raw, rawlen, &len);
	if (!text)
		return -1;
	int rc = parse_rendered(text, len, sr);
	free(text);
	return rc ? rc : bidi_problems(raw, rawlen, sr);
}

static int parse_rendered(const char *text, size_t len, struct stage_result *sr)
{
	if (parse_pass(text, len, sr, 0))
		return -1;
	if (sr->heading_line)
		return 0;
	/* no heading: read the whole text when it names seed fields */
	struct stage_result whole;
	stage_result_init(&whole);
	if (parse_pass(text, len, &whole, 1)) {
		stage_result_release(&whole);
		return -1;
	}
	size_t known = 0;
	for (size_t i = 0; i < whole.n; i++)
		known += whole.v[i].field != SR_UNKNOWN;
	if (known == 0) {
		stage_result_release(&whole);
		return stage_result_problem(sr, 0, 1,
					    "no '## Stage Result' block (a heading followed by 'key: value' lines)");
	}
	stage_result_release(sr);
	*sr = whole;
	return stage_result_problem(sr, 1, 0,
				    "no '## Stage Result' heading: the whole text was read as the block");
}

int stage_result_load(const char *path, struct stage_result *sr, char *err, size_t errlen)
{
	int is_stdin = strcmp(path, "-") == 0;
	const char *shown = is_stdin ? "standard input" : path;
	FILE *f = is_stdin ? stdin : fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "cannot read '%s': %s", shown, strerror(errno));
		return -1;
	}
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap);
	int rc = -1;
	if (!buf) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (;;) {
		if (n == cap) {
			if (cap > STAGE_RESULT_MAX_BYTES) {
				snprintf(err, errlen, "'%s' is larger than %u bytes: not a Stage Result",
					 shown, STAGE_RESULT_MAX_BYTES);
				goto out;
			}
			char *b = realloc(buf, cap * 2);
			if (!b) {
				snprintf(err, errlen, "out of memory");
				goto out;
			}
			buf = b;
			cap *= 2;
		}
		size_t r = fread(buf + n, 1, cap - n, f);
		n += r;
		if (r == 0)
			break;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "cannot read '%s': %s", shown, strerror(errno));
		goto out;
	}
	if (n > STAGE_RESULT_MAX_BYTES) {
		snprintf(err, errlen, "'%s' is larger than %u bytes: not a Stage Result", shown,
			 STAGE_RESULT_MAX_BYTES);
		goto out;
	}
	const char *nul = memchr(buf, '\0', n);
	if (nul) {
		/* Markdown never holds a NUL byte: a binary file is input that
		 * cannot be read as a Stage Result, not one without its block */
		snprintf(err, errlen, "cannot read '%s': not a text file (a NUL byte at byte %zu)", shown,
			 (size_t)(nul - buf) + 1);
		goto out;
	}
	if (stage_result_parse(buf, n, sr) != 0) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	rc = 0;
out:
	free(buf);
	if (!is_stdin)
		fclose(f);
	return rc;
}
