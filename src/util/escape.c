/* escape.c: see escape.h. */
#include "util/escape.h"
#include "util/utf8.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const char *escape_md_cell_byte(unsigned char c, enum md_cell_mode mode)
{
	switch (c) {
	case '|': return "\\|";
	case '\\': return "\\\\";
	case '\t': case '\n': case '\r': return " ";
	default: break;
	}
	if (c < 0x20 || c == 0x7f)
		return " ";
	if (mode != MD_CELL_STRICT)
		return NULL;
	switch (c) {
	case '`': return "\\`";
	case '*': return "\\*";
	case '_': return "\\_";
	case '[': return "\\[";
	case ']': return "\\]";
	case '#': return "\\#";
	case '~': return "\\~";
	case '<': return "&lt;";
	case '>': return "&gt;";
	case '&': return "&amp;";
	default: return NULL;
	}
}

void escape_md_cell(FILE *f, const char *s, enum md_cell_mode mode)
{
	for (; s && *s; s++) {
		const char *r = escape_md_cell_byte((unsigned char)*s, mode);
		if (r)
			fputs(r, f);
		else
			fputc(*s, f);
	}
}

/* ---- text from inputs ---- */

/* The escape for the character at s[i] (into out, NUL-terminated), or 0
 * when it is kept; *len gets the bytes it spans. */
static int escape_at(const unsigned char *s, size_t n, size_t i, int flags, char out[8], size_t *len)
{
	static const char hex[] = "0123456789abcdef";
	unsigned cp;
	*len = utf8_decode(s + i, n - i, &cp);
	if (*len == 0) {
		*len = 1;
		cp = 0x100; /* not a character: the byte itself is shown */
	}
	int keep = (cp >= 0x20 && cp != 0x7F && !(cp >= 0x80 && cp <= 0x9F)) || cp == '\t' ||
		   (cp == '\n' && (flags & ESCAPE_KEEP_NEWLINE)) || (cp == '\r' && (flags & ESCAPE_KEEP_CR));
	if (keep && cp != 0x100)
		return 0;
	if (cp >= 0x80 && cp <= 0x9F) {
		memcpy(out, "\\u00", 4);
		out[4] = hex[cp >> 4];
		out[5] = hex[cp & 15];
		out[6] = '\0';
	} else {
		out[0] = '\\';
		out[1] = 'x';
		out[2] = hex[s[i] >> 4];
		out[3] = hex[s[i] & 15];
		out[4] = '\0';
	}
	return 1;
}

char *escape_text(const char *str, int flags)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	size_t n = strlen((const char *)s);
	if (n > (SIZE_MAX - 1) / 6)
		return NULL;
	char *out = malloc(6 * n + 1); /* a byte grows to at most 6 ("\u009b" from 2) */
	if (!out)
		return NULL;
	size_t o = 0;
	for (size_t i = 0; i < n;) {
		char e[8];
		size_t len;
		if (escape_at(s, n, i, flags, e, &len)) {
			size_t el = strlen(e);
			memcpy(out + o, e, el);
			o += el;
		} else {
			memcpy(out + o, s + i, len);
			o += len;
		}
		i += len;
	}
	out[o] = '\0';
	return out;
}

int escape_put_text(FILE *f, const char *s, int flags)
{
	char *e = escape_text(s, flags);
	if (!e)
		return -1;
	fputs(e, f);
	free(e);
	return 0;
}

int escape_text_is_safe(const char *str, int flags)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	size_t n = strlen((const char *)s);
	for (size_t i = 0; i < n;) {
		char e[8];
		size_t len;
		if (escape_at(s, n, i, flags, e, &len))
			return 0;
		i += len;
	}
	return 1;
}

char *escape_csv_field(const char *s)
{
	char *t = escape_text(s, 0);
	if (!t || !strpbrk(t, ",\"\r\n"))
		return t;
	size_t n = strlen(t), q = 0;
	for (size_t i = 0; i < n; i++)
		q += t[i] == '"';
	char *o = malloc(n + q + 3);
	if (o) {
		size_t k = 0;
		o[k++] = '"';
		for (size_t i = 0; i < n; i++) {
			if (t[i] == '"')
				o[k++] = '"';
			o[k++] = t[i];
		}
		o[k++] = '"';
		o[k] = '\0';
	}
	free(t);
	return o;
}
