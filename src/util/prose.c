/* prose.c: numbers, fields and phrases in lines of prose (prose.h). */
#include "util/prose.h"
#include "util/text.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

const char *const prose_geomean_words[] = {
	"\xE5\x87\xA0\xE4\xBD\x95\xE5\xB9\xB3\xE5\x9D\x87" /* 几何平均 */,
	"\xE5\x87\xA0\xE4\xBD\x95\xE5\x9D\x87\xE5\x80\xBC" /* 几何均值 */,
	"geomean", "geo_mean", "geo-mean", "geo mean", "geometric mean", "geometric-mean", "geometric_mean",
	"gmean", NULL
};

int prose_contains_any(const char *s, size_t n, const char *const *needles)
{
	if (!s)
		return 0;
	char small[2048];
	char *copy = small;
	if (n == (size_t)-1)
		n = strlen(s);
	if (n >= sizeof(small)) {
		copy = malloc(n + 1);
		if (!copy)
			return 0;
	}
	memcpy(copy, s, n);
	copy[n] = '\0';
	int hit = text_find_any_ci(copy, NULL, needles) >= 0;
	if (copy != small)
		free(copy);
	return hit;
}

double prose_pct(double a, double b)
{
	return (b - a) / a * 100.0;
}

static int is_word(unsigned char c)
{
	return isalnum(c) || c == '_' || c == '#' || c == '.' || c >= 0x80;
}

/* UTF-8 multiplication sign, used as "0.25×". */
static const char TIMES[] = "\xC3\x97";
static const char MICRO[] = "\xC2\xB5";

/* Past the identifier characters from i (with_dot: '.' counts too). */
static size_t skip_ident(const char *s, size_t i, size_t len, int with_dot)
{
	while (i < len && (isalnum((unsigned char)s[i]) || s[i] == '_' || (with_dot && s[i] == '.')))
		i++;
	return i;
}

/* At s[*i]: 1 when a standalone number starts there (*sign set and *i
 * past the sign); else 0 with *i moved past what cannot start one. A sign
 * counts only when not glued to a word ("a-1" is no number); digits must
 * not continue an identifier or another number, but a preceding
 * non-ASCII byte ('（', '→', CJK text) does not make them part of one. */
static int number_start(const char *s, size_t len, size_t *i, int *sign)
{
	unsigned char c = (unsigned char)s[*i];
	size_t start = *i;
	*sign = 0;
	if ((c == '+' || c == '-') && *i + 1 < len && isdigit((unsigned char)s[*i + 1])) {
		if (*i > 0 && (isalnum((unsigned char)s[*i - 1]) || s[*i - 1] == '_')) {
			*i = skip_ident(s, *i + 1, len, 1);
			return 0;
		}
		*sign = c == '-' ? -1 : 1;
		(*i)++;
	} else if (!isdigit(c)) {
		(*i)++;
		return 0;
	}
	if (!*sign && start > 0) {
		unsigned char p = (unsigned char)s[start - 1];
		if (p < 0x80 && is_word(p)) {
			*i = skip_ident(s, *i, len, 1);
			return 0;
		}
	}
	return 1;
}

/* The end of the digits at i: one decimal point, an exponent only with
 * digits after it. *decimal is set when either is there. */
static size_t number_end(const char *s, size_t i, size_t len, int *decimal)
{
	size_t d = i;
	*decimal = 0;
	while (d < len && (isdigit((unsigned char)s[d]) ||
			   (s[d] == '.' && d + 1 < len && isdigit((unsigned char)s[d + 1]) && !*decimal))) {
		if (s[d] == '.')
			*decimal = 1;
		d++;
	}
	if (d < len && (s[d] == 'e' || s[d] == 'E') && d + 1 < len &&
	    (isdigit((unsigned char)s[d + 1]) ||
	     ((s[d + 1] == '-' || s[d + 1] == '+') && d + 2 < len && isdigit((unsigned char)s[d + 2])))) {
		d += 2;
		while (d < len && isdigit((unsigned char)s[d]))
			d++;
		*decimal = 1;
	}
	return d;
}

/* The unit right after a number ending at d ("0.2147 ms" may have one
 * blank; %, s, x and × must touch the number). Returns where it ends
 * (d when there is none). */
static size_t number_unit(const char *s, size_t d, size_t len, enum prose_unit *unit)
{
	size_t u = d;
	*unit = PROSE_NOUNIT;
	if (u < len && s[u] == ' ' && u + 1 < len && !isdigit((unsigned char)s[u + 1]))
		u++;
	if (s[u] == '%' && u == d)
		return *unit = PROSE_PCT, u + 1;
	if (strncmp(s + u, "ms", 2) == 0)
		return *unit = PROSE_MS, u + 2;
	if (strncmp(s + u, "us", 2) == 0)
		return *unit = PROSE_US, u + 2;
	if (strncmp(s + u, MICRO, 2) == 0 && s[u + 2] == 's')
		return *unit = PROSE_US, u + 3;
	if (strncmp(s + u, "ns", 2) == 0)
		return *unit = PROSE_NS, u + 2;
	if (s[u] == 's' && u == d)
		return *unit = PROSE_S, u + 1;
	if ((s[u] == 'x' || s[u] == 'X') && u == d)
		return *unit = PROSE_X, u + 1;
	if (strncmp(s + u, TIMES, 2) == 0 && u == d)
		return *unit = PROSE_X, u + 2;
	return d;
}

/* The glue rules for a number whose digits end at d and whose unit ends
 * at *after: returns 1 with *next past the word when the number is part of
 * a word or a shape ("16KB", "2D", "1024x8192"); else 0, dropping a unit
 * glued to a word ("12 steps": *unit NOUNIT, *after d). */
static int number_in_word(const char *s, size_t d, size_t len, enum prose_unit *unit,
			  size_t *after, size_t *next)
{
	int glued = *after < len && (isalnum((unsigned char)s[*after]) || s[*after] == '_');
	if (*unit != PROSE_NOUNIT && *unit != PROSE_PCT && *unit != PROSE_X && glued) {
		*unit = PROSE_NOUNIT;
		*after = d;
		return 0;
	}
	if (*unit == PROSE_X && *after < len && isalnum((unsigned char)s[*after])) {
		*next = skip_ident(s, *after, len, 0);
		return 1;
	}
	if (*unit == PROSE_NOUNIT && d < len && (isalpha((unsigned char)s[d]) || s[d] == '_')) {
		*next = skip_ident(s, d, len, 0);
		return 1;
	}
	return 0;
}

size_t prose_numbers(const char *s, struct prose_num *out, size_t max)
{
	size_t n = 0, len = strlen(s);
	for (size_t i = 0; i < len;) {
		size_t start = i;
		int sign, decimal;
		if (!number_start(s, len, &i, &sign))
			continue;
		size_t d = number_end(s, i, len, &decimal);
		double v = strtod(s + (sign ? start + 1 : start), NULL);
		enum prose_unit unit;
		size_t after = number_unit(s, d, len, &unit);
		if (number_in_word(s, d, len, &unit, &after, &i))
			continue;
		if (n < max)
			out[n] = (struct prose_num){ .v = sign < 0 ? -v : v, .pos = start, .end = after,
						     .sign = sign, .decimal = decimal, .unit = unit };
		n++;
		i = after > d ? after : d;
	}
	return n < max ? n : max;
}

/* Skips a list marker ("- ", "* ", "+ ", "1. ", "2) ") at s. */
static const char *skip_list_marker(const char *s)
{
	if ((*s == '-' || *s == '*' || *s == '+') && s[1] == ' ')
		return s + 2;
	if (!isdigit((unsigned char)*s))
		return s;
	const char *p = s;
	while (isdigit((unsigned char)*p))
		p++;
	return (*p == '.' || *p == ')') && p[1] == ' ' ? p + 2 : s;
}

/* Skips list markers, heading marks, bold and blanks at the start of a
 * line; *level gets the heading level (0 when not a heading). */
const char *prose_strip_lead(const char *s, int *level)
{
	int lv = 0;
	while (*s == ' ' || *s == '\t')
		s++;
	while (*s == '#') {
		lv++;
		s++;
	}
	if (lv && *s != ' ')
		lv = 0;
	while (*s == ' ')
		s++;
	if (!lv)
		s = skip_list_marker(s);
	while (*s == ' ')
		s++;
	while (*s == '*' || *s == '_')
		s++;
	if (level)
		*level = lv;
	return s;
}

int prose_key_match(const char *s, const char *key)
{
	size_t n = strlen(key);
	for (size_t i = 0; i < n; i++) {
		unsigned char a = (unsigned char)s[i], b = (unsigned char)key[i];
		if (!a)
			return 0;
		if (a < 0x80 ? tolower(a) != tolower(b) : a != b)
			return 0;
	}
	return 1;
}

static const char COLON_FW[] = "\xEF\xBC\x9A"; /* '：' */
static const char LPAREN_FW[] = "\xEF\xBC\x88"; /* '（' */
static const char RPAREN_FW[] = "\xEF\xBC\x89"; /* '）' */

/* After a key: optional blanks, an optional parenthetical, then a colon.
 * Returns the value start or NULL. */
const char *prose_after_key(const char *p)
{
	while (*p == ' ' || *p == '*')
		p++;
	if (*p == '(' || strncmp(p, LPAREN_FW, 3) == 0) {
		int depth = 0;
		while (*p) {
			if (*p == '(') {
				depth++;
				p++;
			} else if (strncmp(p, LPAREN_FW, 3) == 0) {
				depth++;
				p += 3;
			} else if (*p == ')') {
				depth--;
				p++;
			} else if (strncmp(p, RPAREN_FW, 3) == 0) {
				depth--;
				p += 3;
			} else
				p++;
			if (depth <= 0)
				break;
		}
		while (*p == ' ' || *p == '*')
			p++;
	}
	if (*p == ':')
		p++;
	else if (strncmp(p, COLON_FW, 3) == 0)
		p += 3;
	else
		return NULL;
	while (*p == ' ' || *p == '*')
		p++;
	return p;
}

static const char *field_at(const char *s, const char *key, size_t *len)
{
	if (!prose_key_match(s, key))
		return NULL;
	const char *k = s + strlen(key);
	/* the key must end there: "precision" is no "precision_status" */
	if (isalnum((unsigned char)*k) || *k == '_')
		return NULL;
	const char *v = prose_after_key(k);
	if (!v)
		return NULL;
	const char *e = strchr(v, '|');
	size_t l = e ? (size_t)(e - v) : strlen(v);
	while (l && (v[l - 1] == ' ' || v[l - 1] == '\t'))
		l--;
	*len = l;
	return v;
}

/* s past blanks and emphasis marks, and past one parenthesised group of
 * at most 16 bytes ("(2/3)", "（续）", "(cont.)") with the blanks after it. */
static const char *skip_part_marker(const char *s)
{
	while (*s == ' ' || *s == '*' || *s == '_')
		s++;
	size_t open = *s == '(' ? 1 : strncmp(s, "\xEF\xBC\x88", 3) == 0 ? 3 : 0;
	if (!open)
		return s;
	for (size_t i = open; i <= 16 && s[i]; i++) {
		size_t close = s[i] == ')' ? 1 : strncmp(s + i, "\xEF\xBC\x89", 3) == 0 ? 3 : 0;
		if (!close)
			continue;
		const char *p = s + i + close;
		while (*p == ' ')
			p++;
		return p;
	}
	return s;
}

const char *prose_field(const char *line, const char *key, size_t *len)
{
	const char *s = prose_strip_lead(line, NULL);
	const char *v;
	/* a tag first: "[RESULT-#1] 优化点: x | 精度: pass" */
	if (*s == '[') {
		const char *e = strchr(s, ']');
		if (e) {
			/* after the tag: emphasis ("**[RESULT-#1]** 精度:") and a
			 * short part marker ("(2/3)", "（续）", "(cont.)") */
			const char *p = skip_part_marker(e + 1);
			if ((v = field_at(p, key, len)))
				return v;
		}
	}
	if ((v = field_at(s, key, len)))
		return v;
	for (const char *p = strchr(line, '|'); p; p = strchr(p + 1, '|')) {
		const char *q = p + 1;
		while (*q == ' ' || *q == '*')
			q++;
		if ((v = field_at(q, key, len)))
			return v;
	}
	return NULL;
}

int prose_starts_clause(const char *t)
{
	static const char *const fix[] = { "correct", "更正", "修正", "实际", "actual", NULL };
	while (*t == ' ' || *t == '\t' || *t == '*' || *t == '`')
		t++;
	if ((*t >= '0' && *t <= '9') || *t == '(' || strncmp(t, "（", strlen("（")) == 0)
		return 0;
	for (size_t i = 0; t[i] && i < 40; i++) {
		if (i > 0 && (t[i] == ':' || strncmp(t + i, "：", strlen("：")) == 0))
			return !prose_contains_any(t, i, fix);
	}
	return 0;
}

int prose_continues(const char *prev, size_t n, const char *next)
{
	static const char *const leads[] = { "→", "->", "=>", "⟶", "⇒", "(", "（", "~", "～", "/", "=", NULL };
	static const char *const units[] = { "us", "µs", "μs", "ms", "ns", "s", NULL };
	while (n > 0 && (prev[n - 1] == ' ' || prev[n - 1] == '\t' || prev[n - 1] == '*'))
		n--;
	if ((n >= 1 && prev[n - 1] == ':') || (n >= 3 && strncmp(prev + n - 3, "：", 3) == 0))
		return 1;
	while (*next == ' ' || *next == '\t' || *next == '*' || *next == '`')
		next++;
	if (*next >= '0' && *next <= '9')
		return 1;
	for (int i = 0; leads[i]; i++)
		if (strncmp(next, leads[i], strlen(leads[i])) == 0)
			return 1;
	for (int i = 0; units[i]; i++) {
		size_t k = strlen(units[i]);
		if (strncmp(next, units[i], k) == 0 && (next[k] == ' ' || next[k] == '\0' || next[k] == ','))
			return 1;
	}
	return 0;
}
