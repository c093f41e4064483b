/* escape.c: see escape.h. */
#include "util/escape.h"

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
