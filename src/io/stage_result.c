/* io/stage_result.c: the Stage Result reader (io/stage_result.h). */
#include "io/stage_result.h"

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
	long first_heading;
};

/* One line inside the block (after normalisation of '：' to ':'). */
static int entry_line(struct parser *ps, long lineno, const char *raw, char *s, int fullwidth)
{
	struct stage_result *sr = ps->sr;
	const char *p = skip_ws(s);
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
	if (!*p || *p == '|' || *p == '>' || strncmp(p, "<!--", 4) == 0)
		return 0;
	const char *colon = strchr(p, ':');
	if (!colon) {
		/* "iterations 5": a seed field without its colon */
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
			    stage_result_problem(sr, lineno, 0,
						 "no ':' after '%s' in '%s': read as '%s: %s'", w, raw,
						 stage_result_fields[f], v))
				rc = -1;
		}
		free(w);
		return rc;
	}
	char *key = trim_dup(p, (size_t)(colon - p));
	char *value = trim_dup(colon + 1, strlen(colon + 1));
	char *label = NULL;
	int rc = -1;
	if (!key || !value)
		goto out;
	/* key(WL) / key[WL] */
	char *lb = split_label(key);
	if (lb && !(label = strdup(lb)))
		goto out;
	int folded;
	enum sr_field f = lookup(key, &folded);
	const char *vcolon = strchr(value, ':');
	if (f == SR_UNKNOWN && !label && vcolon) {
		/* WORKLOAD: key: value */
		char *k2 = trim_dup(value, (size_t)(vcolon - value));
		int folded2;
		enum sr_field f2 = k2 ? lookup(k2, &folded2) : SR_UNKNOWN;
		if (!k2)
			goto out;
		if (f2 != SR_UNKNOWN) {
			label = key;
			key = k2;
			f = f2;
			folded = folded2;
			char *v2 = trim_dup(vcolon + 1, strlen(vcolon + 1));
			if (!v2)
				goto out;
			free(value);
			value = v2;
		} else {
			free(k2);
		}
	} else if (f != SR_UNKNOWN && stage_result_per_workload(f) && !label && vcolon) {
		/* key: WORKLOAD: value (the label is not a number) */
		char *l2 = trim_dup(value, (size_t)(vcolon - value));
		if (!l2)
			goto out;
		if (*l2 && !isdigit((unsigned char)*l2) && *l2 != '.' && *l2 != '-' &&
		    *l2 != '+' && !strchr(l2, ' ')) {
			label = l2;
			char *v2 = trim_dup(vcolon + 1, strlen(vcolon + 1));
			if (!v2)
				goto out;
			free(value);
			value = v2;
		} else {
			free(l2);
		}
	}
	if (f == SR_UNKNOWN) {
		/* keep it (the gate reports unknown fields) only when it looks
		 * like a key: one word, no sentence */
		if (strchr(key, ' ') && strlen(key) > 40) {
			rc = 0;
			goto out;
		}
	}
	if (folded && stage_result_problem(sr, lineno, 0, "key '%s' in '%s' read as '%s'", key,
					   raw, stage_result_fields[f]))
		goto out;
	struct sr_entry *e = stage_result_add(sr, lineno, f, f == SR_UNKNOWN ? key : stage_result_fields[f],
					      label, value, raw);
	if (!e)
		goto out;
	e->fullwidth = fullwidth;
	if (fullwidth && stage_result_problem(sr, lineno, 0,
					      "full-width punctuation in '%s': read as ASCII ':' / '%%'",
					      raw))
		goto out;
	rc = 0;
out:
	free(key);
	free(value);
	free(label);
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

static int parse_pass(const char *text, size_t len, struct stage_result *sr, int whole)
{
	struct parser ps = { sr, whole, 0 };
	long lineno = 0;
	size_t at = 0;
	char *line = NULL;
	size_t cap = 0;
	int rc = 0;
	if (whole) {
		sr->heading_line = 0;
		sr->nblocks = 0;
	}
	while (at < len && rc == 0) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
		lineno++;
		if (n + 1 > cap) {
			cap = n + 64;
			char *l = realloc(line, cap);
			if (!l) {
				rc = -1;
				break;
			}
			line = l;
		}
		memcpy(line, text + at, n);
		line[n] = '\0';
		at += n + (nl ? 1 : 0);
		if (n && line[n - 1] == '\r')
			line[--n] = '\0';
		if (memchr(line, '\0', n)) {
			if (ps.in_block)
				rc = stage_result_problem(sr, lineno, 1, "line holds a NUL byte");
			continue;
		}
		if (lineno == 1 && strncmp(line, "\xef\xbb\xbf", 3) == 0)
			memmove(line, line + 3, n - 2);
		const char *h = heading_text(line);
		const char *t = skip_ws(line);
		int bold_title = !h && strncmp(t, "**", 2) == 0 && !strchr(t + 2, ':') &&
				 !strstr(t, FW_COLON) && names_block(t);
		if (!whole && ((h && names_block(h)) || bold_title)) {
			sr->nblocks++;
			if (sr->nblocks > 1) {
				if (!sr->other_heading)
					sr->other_heading = sr->heading_line;
				reset_block(sr);
			}
			sr->heading_line = lineno;
			sr->end_line = lineno;
			ps.in_block = 1;
			continue;
		}
		if (h) {
			if (!whole)
				ps.in_block = 0;
			continue;
		}
		if (!ps.in_block || is_fence(line))
			continue;
		char *raw = strdup(line);
		if (!raw) {
			rc = -1;
			break;
		}
		int fw = replace_all(line, FW_COLON, ":");
		fw |= strstr(line, FW_PERCENT) != NULL;
		fw |= strstr(line, "\xef\xbc\x8c") != NULL; /* ， */
		size_t before = sr->n;
		rc = entry_line(&ps, lineno, raw, line, fw);
		if (sr->n > before)
			sr->end_line = lineno;
		free(raw);
	}
	free(line);
	return rc;
}

int stage_result_parse(const char *text, size_t len, struct stage_result *sr)
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
