/* xmlwf.h: a small XML 1.0 well-formedness checker for the tests of the
 * XML the project writes (JUnit reports, SVG plots), so the tests need no
 * XML library. It checks what our writers could get wrong: one root
 * element, tags nested and closed, attribute syntax and no duplicates,
 * only the five predefined entities and character references, no raw '<'
 * or '&' in text or attributes, valid UTF-8 without characters XML forbids,
 * comments and the XML declaration. DTDs and CDATA are rejected (we never
 * write them).
 *
 * xmlwf_check(doc, n, on_start, ctx, err, errlen) returns 0 when
 * well-formed, else -1 with a message naming the byte offset in err.
 * on_start (may be NULL) is called for every start tag with its name and
 * attributes (raw, undecoded values), so tests can count marks.
 */
#ifndef TLPERF_XMLWF_H
#define TLPERF_XMLWF_H

#include <stdio.h>
#include <string.h>

#define XMLWF_MAX_DEPTH 256
#define XMLWF_MAX_ATTRS 32
#define XMLWF_MAX_NAME 64

struct xmlwf_tag {
	char name[XMLWF_MAX_NAME];
	size_t nattrs;
	char attr[XMLWF_MAX_ATTRS][XMLWF_MAX_NAME];
	const char *value[XMLWF_MAX_ATTRS]; /* into the document, not NUL-terminated */
	size_t value_len[XMLWF_MAX_ATTRS];
};

typedef void (*xmlwf_start_fn)(const struct xmlwf_tag *tag, void *ctx);

static int xmlwf_name_char(unsigned char c, int first)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' || c >= 0x80)
		return 1;
	return !first && ((c >= '0' && c <= '9') || c == '-' || c == '.');
}

/* Reads a name at s[*i] into out; returns its length (0 when none). */
static size_t xmlwf_name(const char *s, size_t n, size_t *i, char *out)
{
	size_t start = *i;
	while (*i < n && xmlwf_name_char((unsigned char)s[*i], *i == start))
		(*i)++;
	size_t len = *i - start;
	if (len == 0 || len >= XMLWF_MAX_NAME)
		return 0;
	memcpy(out, s + start, len);
	out[len] = '\0';
	return len;
}

static void xmlwf_skip_ws(const char *s, size_t n, size_t *i)
{
	while (*i < n && (s[*i] == ' ' || s[*i] == '\t' || s[*i] == '\n' || s[*i] == '\r'))
		(*i)++;
}

/* Checks one character-data byte run s[a..b): references, raw '<', valid
 * UTF-8 and allowed characters. Returns the offset of the first problem or
 * (size_t)-1. */
static size_t xmlwf_chars(const char *str, size_t a, size_t b, int in_attr)
{
	const unsigned char *s = (const unsigned char *)str;
	for (size_t i = a; i < b;) {
		unsigned c = s[i];
		if (c == '<' || (in_attr && c == '"'))
			return i;
		if (c == '&') {
			size_t j = i + 1;
			if (j < b && s[j] == '#') {
				j++;
				int hex = j < b && s[j] == 'x';
				j += hex;
				size_t d = j;
				unsigned long v = 0;
				while (j < b && ((s[j] >= '0' && s[j] <= '9') ||
						 (hex && ((s[j] | 32) >= 'a' && (s[j] | 32) <= 'f')))) {
					unsigned dig = s[j] <= '9' ? s[j] - '0' : (s[j] | 32) - 'a' + 10;
					v = v * (hex ? 16 : 10) + dig;
					if (v > 0x10FFFF)
						return i;
					j++;
				}
				if (j == d || j >= b || s[j] != ';')
					return i;
				if ((v < 0x20 && v != 9 && v != 10 && v != 13) || (v >= 0xD800 && v <= 0xDFFF) ||
				    v == 0xFFFE || v == 0xFFFF)
					return i;
				i = j + 1;
				continue;
			}
			static const char *const ents[] = { "amp;", "lt;", "gt;", "quot;", "apos;" };
			size_t k;
			for (k = 0; k < 5; k++)
				if (b - j >= strlen(ents[k]) && memcmp(s + j, ents[k], strlen(ents[k])) == 0)
					break;
			if (k == 5)
				return i;
			i = j + strlen(ents[k]);
			continue;
		}
		if (c < 0x80) {
			if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
				return i;
			i++;
			continue;
		}
		size_t need;
		unsigned min, v;
		if (c >= 0xC2 && c <= 0xDF)
			need = 1, min = 0x80, v = c & 0x1F;
		else if (c >= 0xE0 && c <= 0xEF)
			need = 2, min = 0x800, v = c & 0x0F;
		else if (c >= 0xF0 && c <= 0xF4)
			need = 3, min = 0x10000, v = c & 0x07;
		else
			return i;
		for (size_t k = 1; k <= need; k++) {
			if (i + k >= b || (s[i + k] & 0xC0) != 0x80)
				return i;
			v = (v << 6) | (s[i + k] & 0x3F);
		}
		if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF) || v == 0xFFFE ||
		    v == 0xFFFF)
			return i;
		i += need + 1;
	}
	return (size_t)-1;
}

static int xmlwf_check(const char *s, size_t n, xmlwf_start_fn on_start, void *ctx, char *err,
		       size_t errlen)
{
	static char stack[XMLWF_MAX_DEPTH][XMLWF_MAX_NAME];
	size_t depth = 0, i = 0, bad;
	int roots = 0;
	struct xmlwf_tag tag;
#define XMLWF_FAIL(at, what)                                                      \
	do {                                                                      \
		snprintf(err, errlen, "byte %zu: %s", (size_t)(at), what);        \
		return -1;                                                        \
	} while (0)
	if (n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0)
		i = 3;
	if (n - i >= 5 && memcmp(s + i, "<?xml", 5) == 0) {
		const char *end = strstr(s + i, "?>");
		if (!end || (size_t)(end - s) > n)
			XMLWF_FAIL(i, "unterminated XML declaration");
		i = (size_t)(end - s) + 2;
	}
	while (i < n) {
		if (s[i] != '<') {
			size_t j = i;
			while (j < n && s[j] != '<')
				j++;
			if (depth == 0) {
				for (size_t k = i; k < j; k++)
					if (s[k] != ' ' && s[k] != '\n' && s[k] != '\t' && s[k] != '\r')
						XMLWF_FAIL(k, "text outside the root element");
			} else if ((bad = xmlwf_chars(s, i, j, 0)) != (size_t)-1) {
				XMLWF_FAIL(bad, "bad character data");
			}
			i = j;
			continue;
		}
		if (n - i >= 4 && memcmp(s + i, "<!--", 4) == 0) {
			size_t j = i + 4;
			while (j + 2 < n && memcmp(s + j, "--", 2) != 0)
				j++;
			if (j + 2 >= n || s[j + 2] != '>')
				XMLWF_FAIL(i, "bad comment");
			i = j + 3;
			continue;
		}
		if (n - i >= 2 && (s[i + 1] == '!' || s[i + 1] == '?'))
			XMLWF_FAIL(i, "DTD, CDATA or processing instruction not supported");
		if (n - i >= 2 && s[i + 1] == '/') {
			char name[XMLWF_MAX_NAME];
			i += 2;
			if (!xmlwf_name(s, n, &i, name))
				XMLWF_FAIL(i, "bad end tag name");
			xmlwf_skip_ws(s, n, &i);
			if (i >= n || s[i] != '>')
				XMLWF_FAIL(i, "end tag not closed");
			if (depth == 0 || strcmp(stack[depth - 1], name) != 0)
				XMLWF_FAIL(i, "end tag does not match the open element");
			depth--;
			i++;
			continue;
		}
		i++;
		memset(&tag, 0, sizeof(tag));
		if (!xmlwf_name(s, n, &i, tag.name))
			XMLWF_FAIL(i, "bad start tag name");
		if (depth == 0 && roots++)
			XMLWF_FAIL(i, "second root element");
		for (;;) {
			size_t ws = i;
			xmlwf_skip_ws(s, n, &i);
			if (i >= n)
				XMLWF_FAIL(i, "start tag not closed");
			if (s[i] == '>' || (s[i] == '/' && i + 1 < n && s[i + 1] == '>'))
				break;
			if (i == ws)
				XMLWF_FAIL(i, "attributes must be separated by white space");
			if (tag.nattrs == XMLWF_MAX_ATTRS)
				XMLWF_FAIL(i, "too many attributes");
			char *an = tag.attr[tag.nattrs];
			if (!xmlwf_name(s, n, &i, an))
				XMLWF_FAIL(i, "bad attribute name");
			for (size_t k = 0; k < tag.nattrs; k++)
				if (strcmp(tag.attr[k], an) == 0)
					XMLWF_FAIL(i, "duplicate attribute");
			xmlwf_skip_ws(s, n, &i);
			if (i >= n || s[i] != '=')
				XMLWF_FAIL(i, "attribute without '='");
			i++;
			xmlwf_skip_ws(s, n, &i);
			if (i >= n || (s[i] != '"' && s[i] != '\''))
				XMLWF_FAIL(i, "attribute value not quoted");
			char q = s[i++];
			size_t v = i;
			while (i < n && s[i] != q)
				i++;
			if (i >= n)
				XMLWF_FAIL(v, "attribute value not closed");
			if ((bad = xmlwf_chars(s, v, i, q == '"')) != (size_t)-1)
				XMLWF_FAIL(bad, "bad attribute value");
			tag.value[tag.nattrs] = s + v;
			tag.value_len[tag.nattrs] = i - v;
			tag.nattrs++;
			i++;
		}
		if (on_start)
			on_start(&tag, ctx);
		if (s[i] == '/') {
			i += 2;
			continue;
		}
		if (depth == XMLWF_MAX_DEPTH)
			XMLWF_FAIL(i, "nesting too deep");
		memcpy(stack[depth++], tag.name, sizeof(tag.name));
		i++;
	}
	if (depth)
		XMLWF_FAIL(n, "unclosed element");
	if (!roots)
		XMLWF_FAIL(n, "no root element");
	return 0;
#undef XMLWF_FAIL
}

/* The raw value of attribute name in tag, or NULL; *len gets its length. */
static inline const char *xmlwf_attr(const struct xmlwf_tag *tag, const char *name, size_t *len)
{
	for (size_t k = 0; k < tag->nattrs; k++)
		if (strcmp(tag->attr[k], name) == 0) {
			if (len)
				*len = tag->value_len[k];
			return tag->value[k];
		}
	return NULL;
}

#endif
