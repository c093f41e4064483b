/* mdread.c: Markdown as GitHub renders it, line by line (mdread.h).
 *
 * cmark-gfm (GitHub's own renderer, with its table and strikethrough
 * extensions) parses the document; this file walks the tree it builds and
 * turns it into the lines of mdread.h. A block knows its first source
 * line; inside it, every soft or hard break (and every newline of raw HTML
 * or code) moves to the next line. Raw HTML, which cmark-gfm keeps as
 * written, goes through a small tokenizer that keeps what a browser shows
 * of it: text between tags, with comments, struck elements and elements
 * GitHub does not render set apart as hidden text. */
#include "io/mdread.h"

#include "util/prose.h"
#include "util/strbuf.h"

#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>

#include <errno.h>
#include <sys/mman.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define ARENA_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define ARENA_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define ARENA_POISON(p, n) ((void)(p), (void)(n))
#define ARENA_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#define MAX_CELLS 256   /* cells kept per row; the rest are dropped */
#define MAX_OPEN 64     /* HTML elements with an effect kept open */

enum effect { FX_STRUCK, FX_UNRENDERED, FX_DETAILS };

struct open_el {
	char name[12];
	enum effect fx;
};

enum hstate { H_DATA, H_TAG, H_COMMENT };

struct rd {
	mdread_fn fn;
	void *arg;
	int stop;                /* the callback's non-zero value */
	int oom;
	/* block context */
	int heading;             /* level of the open heading, 0 */
	int code;                /* inside a code block */
	char lang[64];
	int html_block;
	int quote;
	int list_pending;        /* the next text line starts a list item */
	int list_depth;          /* open list items */
	long list_number[16];    /* per depth: the ordered list's next number, 0 bullets */
	long item_number;        /* the pending item's number, 0 a bullet */
	int marks;               /* keep emphasis and code marks in shown text */
	int in_table, in_cell, head;
	long cur;                /* source line of the inline being read */
	long head_line;          /* the open table's header row */
	int unplaced;            /* in a paragraph cmark-gfm gave no line */
	unsigned long block;
	int img;                 /* inside an image (its alt text) */
	int del;                 /* inside ~~strikethrough~~ */
	int soft;                /* the open paragraph's last line ended in a soft break */
	unsigned long soft_block; /* ... of this block */
	/* HTML elements with an effect, and the tokenizer */
	struct open_el open[MAX_OPEN];
	int nopen;
	enum hstate hs;
	struct strbuf tag;       /* the tag being read */
	int quote_ch;            /* inside a quoted attribute value */
	int dashes;              /* trailing '-' run inside a comment */
	/* the line being assembled */
	long line;               /* source line of the text so far, 0 none */
	long hint;               /* last known line */
	long block_line;         /* first line of the open block */
	struct strbuf vis;       /* what is shown */
	struct strbuf hid[5];    /* what is not, by reason (MDREAD_COMMENT..) */
	long hid_line[5];
	int last_hidden;         /* the reason of the last piece put, 0 shown */
	/* the table row being assembled */
	struct strbuf cells[MAX_CELLS];
	struct strbuf joined;    /* the cells joined, for the row's text */
	int ncells;
	long row_line;
};

static int read_lines(const char *buf, size_t len, mdread_fn fn, void *arg, int marks);

/* ---- emitting lines ---- */

static int emit(struct rd *r, struct mdread_line *ln)
{
	if (r->stop)
		return r->stop;
	ln->block = r->block;
	ln->folded = 0;
	for (int i = 0; i < r->nopen; i++)
		if (r->open[i].fx == FX_DETAILS)
			ln->folded = 1;
	ln->quote = r->quote > 0;
	if (!ln->lang)
		ln->lang = "";
	r->stop = r->fn(ln, r->arg);
	return r->stop;
}

static int blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
			return 0;
	return 1;
}

static void reset(struct strbuf *b)
{
	b->n = 0;
	if (b->s)
		b->s[0] = '\0';
}

static const char *str(const struct strbuf *b)
{
	return b->s ? b->s : "";
}

/* Emits the hidden text of the line, one line per reason. */
static void flush_hidden(struct rd *r)
{
	for (int h = MDREAD_COMMENT; h <= MDREAD_UNRENDERED; h++) {
		struct strbuf *b = &r->hid[h];
		if (b->n && !blank(b->s, b->n)) {
			struct mdread_line ln = { 0 };
			ln.kind = MDREAD_HIDDEN;
			ln.hidden = (enum mdread_hidden)h;
			ln.line = r->hid_line[h] ? r->hid_line[h] : r->hint;
			ln.text = str(b);
			ln.len = b->n;
			emit(r, &ln);
		}
		r->oom |= b->oom;
		reset(b);
		r->hid_line[h] = 0;
	}
	r->last_hidden = 0;
}

/* Ends the line being assembled: its shown text, then its hidden text. */
static void flush(struct rd *r)
{
	if ((r->heading || (r->vis.n && !blank(r->vis.s, r->vis.n))) && !r->in_table) {
		struct mdread_line ln = { 0 };
		ln.kind = r->heading ? MDREAD_HEADING : r->code ? MDREAD_CODE : MDREAD_TEXT;
		ln.level = r->heading;
		ln.line = r->line ? r->line : r->block_line ? r->block_line : r->hint;
		ln.text = str(&r->vis);
		ln.len = r->vis.n;
		ln.lang = r->code ? r->lang : "";
		ln.list_depth = r->list_depth;
		if (ln.kind == MDREAD_TEXT) {
			ln.list_item = r->list_pending;
			ln.list_number = r->list_pending ? r->item_number : 0;
			ln.joined = r->soft && r->soft_block == r->block && !r->list_pending && !r->html_block;
			r->list_pending = 0;
			r->soft = 0;
		}
		emit(r, &ln);
	}
	r->oom |= r->vis.oom;
	reset(&r->vis);
	r->line = 0;
	flush_hidden(r);
}

/* ---- where text goes ---- */

static int has_fx(const struct rd *r, enum effect fx)
{
	for (int i = 0; i < r->nopen; i++)
		if (r->open[i].fx == fx)
			return 1;
	return 0;
}

static enum mdread_hidden hidden_now(const struct rd *r)
{
	if (r->hs == H_COMMENT)
		return MDREAD_COMMENT;
	if (has_fx(r, FX_UNRENDERED))
		return MDREAD_UNRENDERED;
	if (r->del || has_fx(r, FX_STRUCK))
		return MDREAD_STRUCK;
	if (r->img)
		return MDREAD_IMAGE_ALT;
	return MDREAD_SHOWN;
}

/* Appends shown or hidden text of source line `line`. */
static void put(struct rd *r, const char *p, size_t n, long line)
{
	enum mdread_hidden h = hidden_now(r);
	if (h != MDREAD_SHOWN) {
		struct strbuf *b = &r->hid[h];
		if (b->n && r->last_hidden != (int)h && h != MDREAD_COMMENT)
			strbuf_add(b, " ", 1); /* a new piece of the same kind */
		if (!r->hid_line[h])
			r->hid_line[h] = line;
		strbuf_add(b, p, n);
		r->last_hidden = (int)h;
		return;
	}
	r->last_hidden = 0;
	if (r->in_cell) {
		if (r->ncells > 0 && r->ncells <= MAX_CELLS)
			strbuf_add(&r->cells[r->ncells - 1], p, n);
		if (!r->row_line)
			r->row_line = line;
		return;
	}
	if (!r->line)
		r->line = line;
	strbuf_add(&r->vis, p, n);
}

/* ---- entities ---- */

static size_t put_utf8(char *o, unsigned long c)
{
	if (c == 0 || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		c = 0xFFFD;
	if (c < 0x80) {
		o[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		o[0] = (char)(0xC0 | (c >> 6));
		o[1] = (char)(0x80 | (c & 0x3F));
		return 2;
	}
	if (c < 0x10000) {
		o[0] = (char)(0xE0 | (c >> 12));
		o[1] = (char)(0x80 | ((c >> 6) & 0x3F));
		o[2] = (char)(0x80 | (c & 0x3F));
		return 3;
	}
	o[0] = (char)(0xF0 | (c >> 18));
	o[1] = (char)(0x80 | ((c >> 12) & 0x3F));
	o[2] = (char)(0x80 | ((c >> 6) & 0x3F));
	o[3] = (char)(0x80 | (c & 0x3F));
	return 4;
}

/* Named entities a log may use; any other name is shown as written. */
static const struct {
	const char *name;
	unsigned long cp;
} entities[] = {
	{ "amp", '&' },      { "lt", '<' },        { "gt", '>' },        { "quot", '"' },
	{ "apos", '\'' },    { "nbsp", 0xA0 },     { "times", 0xD7 },    { "micro", 0xB5 },
	{ "mu", 0x3BC },     { "Mu", 0x39C },      { "divide", 0xF7 },   { "minus", 0x2212 },
	{ "ndash", 0x2013 }, { "mdash", 0x2014 },  { "rarr", 0x2192 },   { "larr", 0x2190 },
	{ "harr", 0x2194 },  { "rArr", 0x21D2 },   { "hellip", 0x2026 }, { "middot", 0xB7 },
	{ "deg", 0xB0 },     { "plusmn", 0xB1 },   { "percnt", '%' },    { "period", '.' },
	{ "colon", ':' },    { "comma", ',' },     { "sol", '/' },       { "lowbar", '_' },
	{ "ast", '*' },      { "num", '#' },       { "verbar", '|' },    { "vert", '|' },
	{ "thinsp", 0x2009 }, { "ensp", 0x2002 },  { "emsp", 0x2003 },   { "zwj", 0x200D },
	{ "zwnj", 0x200C },  { "shy", 0xAD },      { "lrm", 0x200E },    { "rlm", 0x200F },
	{ "NoBreak", 0x2060 }, { "ZeroWidthSpace", 0x200B }, { "tilde", 0x2DC }, { "dollar", '$' },
};

/* Decodes the entity "&...;" at p[0..n) into o (at least 8 bytes); returns
 * its length, 0 when it is none (shown as written). */
static size_t decode_entity(const char *p, size_t n, char *o)
{
	if (n < 3 || p[0] != '&' || p[n - 1] != ';')
		return 0;
	if (p[1] == '#') {
		unsigned long c = 0;
		size_t i = 2;
		int hex = i < n && (p[i] == 'x' || p[i] == 'X');
		if (hex)
			i++;
		if (i >= n - 1)
			return 0;
		for (; i < n - 1; i++) {
			int d = (p[i] >= '0' && p[i] <= '9') ? p[i] - '0'
				: (hex && p[i] >= 'a' && p[i] <= 'f') ? p[i] - 'a' + 10
				: (hex && p[i] >= 'A' && p[i] <= 'F') ? p[i] - 'A' + 10 : -1;
			if (d < 0)
				return 0;
			if (c <= 0x10FFFF)
				c = c * (hex ? 16 : 10) + (unsigned long)d;
		}
		return put_utf8(o, c);
	}
	for (size_t k = 0; k < sizeof(entities) / sizeof(entities[0]); k++)
		if (strlen(entities[k].name) == n - 2 && memcmp(entities[k].name, p + 1, n - 2) == 0)
			return put_utf8(o, entities[k].cp);
	return 0;
}

static void put_entity(struct rd *r, const char *p, size_t n, long line)
{
	char o[8];
	size_t k = decode_entity(p, n, o);
	if (k)
		put(r, o, k, line);
	else
		put(r, p, n, line);
}

/* ---- raw HTML ---- */

static int name_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
}

static int effect_of(const char *name, enum effect *fx)
{
	static const char *const struck[] = { "s", "del", "strike", NULL };
	static const char *const unrendered[] = { "script", "style", "template", "textarea", "title",
						  "noscript", "iframe", "xmp", "noembed", "noframes",
						  "plaintext", "svg", "math", "head", NULL };
	for (int i = 0; struck[i]; i++)
		if (strcmp(name, struck[i]) == 0)
			return *fx = FX_STRUCK, 1;
	for (int i = 0; unrendered[i]; i++)
		if (strcmp(name, unrendered[i]) == 0)
			return *fx = FX_UNRENDERED, 1;
	if (strcmp(name, "details") == 0)
		return *fx = FX_DETAILS, 1;
	return 0;
}

/* A whole tag `<...>`: opens or closes an element with an effect. */
static void on_tag(struct rd *r, const char *t, size_t n)
{
	size_t i = 1;
	int closing = 0;
	if (i < n && t[i] == '/') {
		closing = 1;
		i++;
	}
	char name[12];
	size_t k = 0;
	for (; i < n && name_char((unsigned char)t[i]); i++)
		if (k < sizeof(name) - 1)
			name[k++] = (char)(t[i] >= 'A' && t[i] <= 'Z' ? t[i] - 'A' + 'a' : t[i]);
	name[k] = '\0';
	enum effect fx;
	if (!k || !effect_of(name, &fx))
		return;
	int self_closing = n >= 2 && t[n - 2] == '/';
	if (closing) {
		for (int j = r->nopen - 1; j >= 0; j--)
			if (strcmp(r->open[j].name, name) == 0) {
				r->nopen = j;
				break;
			}
	} else if (!self_closing && r->nopen < MAX_OPEN) {
		memcpy(r->open[r->nopen].name, name, k + 1);
		r->open[r->nopen++].fx = fx;
	}
}

/* The length of an entity "&...;" starting at p (within n bytes), 0. */
static size_t entity_len(const char *p, size_t n)
{
	size_t i = 1;
	while (i < n && i < 40 && p[i] != ';' && p[i] != '&' && p[i] != '<' && p[i] != ' ' && p[i] != '\n')
		i++;
	return (i < n && p[i] == ';') ? i + 1 : 0;
}

/* Starts a tag at p[0] == '<' when what follows can open one. */
static int tag_start(const char *p, size_t n)
{
	if (n < 2)
		return 1; /* the rest is in the next piece of raw HTML */
	unsigned char c = (unsigned char)p[1];
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '/' || c == '!' || c == '?';
}

/* Inside a comment: copies up to its end ("-->") or the line's end. */
static size_t html_comment(struct rd *r, const char *p, size_t n, long line)
{
	size_t j = 0;
	int end = 0;
	while (j < n && p[j] != '\n') {
		if (p[j] == '>' && r->dashes >= 2) {
			j++;
			end = 1;
			break;
		}
		r->dashes = p[j] == '-' ? r->dashes + 1 : 0;
		j++;
	}
	put(r, p, j, line);
	if (end)
		r->hs = H_DATA;
	return j;
}

/* Inside a tag: reads to its '>' (quoted values skipped); a tag that turns
 * out to open a comment becomes one. */
static size_t html_tag(struct rd *r, const char *p, size_t n)
{
	size_t j = 0;
	for (; j < n && p[j] != '\n'; j++) {
		char c = p[j];
		strbuf_add(&r->tag, &c, 1);
		if (r->tag.n == 4 && memcmp(r->tag.s, "<!--", 4) == 0) {
			r->hs = H_COMMENT;
			r->dashes = 2;
			return j + 1;
		}
		if (r->quote_ch) {
			if (c == r->quote_ch)
				r->quote_ch = 0;
		} else if ((c == '"' || c == '\'') && r->tag.n > 2 && r->tag.s[1] != '!') {
			r->quote_ch = c;
		} else if (c == '>') {
			on_tag(r, r->tag.s, r->tag.n);
			r->hs = H_DATA;
			return j + 1;
		}
	}
	return j;
}

/* Raw HTML as written: text between tags is shown (or hidden by an open
 * element), comments are hidden, tags are read for their effect. A comment
 * or a tag may go on in the next piece. */
static void html_feed(struct rd *r, const char *p, size_t n, long *linep)
{
	long line = *linep;
	size_t i = 0;
	while (i < n) {
		if (p[i] == '\n') {
			if (r->hs == H_TAG)
				strbuf_add(&r->tag, " ", 1);
			flush(r);
			r->hint = ++line;
			i++;
		} else if (r->hs == H_COMMENT) {
			i += html_comment(r, p + i, n - i, line);
		} else if (r->hs == H_TAG) {
			i += html_tag(r, p + i, n - i);
			if (r->hs == H_COMMENT)
				put(r, "<!--", 4, line);
		} else if (p[i] == '<' && tag_start(p + i, n - i)) {
			r->hs = H_TAG;
			r->quote_ch = 0;
			reset(&r->tag);
		} else if (p[i] == '&' && entity_len(p + i, n - i)) {
			size_t e = entity_len(p + i, n - i);
			put_entity(r, p + i, e, line);
			i += e;
		} else {
			size_t j = i + 1;
			while (j < n && p[j] != '\n' && p[j] != '<' && p[j] != '&')
				j++;
			put(r, p + i, j - i, line);
			i = j;
		}
	}
	*linep = line;
}

/* ---- the tree ---- */

static void start_cell(struct rd *r)
{
	r->in_cell = 1;
	r->ncells++;
	if (r->ncells <= MAX_CELLS)
		reset(&r->cells[r->ncells - 1]);
}

static void end_row(struct rd *r)
{
	int n = r->ncells < MAX_CELLS ? r->ncells : MAX_CELLS;
	const char *cells[MAX_CELLS];
	struct strbuf *joined = &r->joined;
	reset(joined);
	for (int i = 0; i < n; i++) {
		cells[i] = str(&r->cells[i]);
		r->oom |= r->cells[i].oom;
		if (i)
			strbuf_add(joined, " | ", 3);
		strbuf_str(joined, cells[i]);
	}
	struct mdread_line ln = { 0 };
	ln.kind = MDREAD_ROW;
	ln.line = r->row_line;
	ln.head = r->head;
	ln.ncells = n;
	ln.cells = cells;
	ln.text = str(joined);
	ln.len = joined->n;
	r->oom |= joined->oom;
	emit(r, &ln);
	flush_hidden(r);
	r->ncells = 0;
}

/* A code block's text: one line per '\n', from source line `line`. */
static void code_text(struct rd *r, const char *p, size_t n, long line)
{
	size_t i = 0;
	while (i < n) {
		const char *nl = memchr(p + i, '\n', n - i);
		size_t j = nl ? (size_t)(nl - p) : n;
		if (j > i)
			put(r, p + i, j - i, line);
		if (!nl)
			break;
		flush(r);
		line++;
		i = j + 1;
	}
	flush(r);
}

static const char *literal(cmark_node *n, size_t *len)
{
	const char *s = cmark_node_get_literal(n);
	if (!s)
		s = "";
	*len = strlen(s);
	return s;
}

/* The info string's first word (the language of a fenced block). */
static void code_lang(struct rd *r, cmark_node *n)
{
	const char *info = cmark_node_get_fence_info(n);
	size_t k = 0;
	while (info && info[k] && info[k] != ' ' && info[k] != '\t' && k < sizeof(r->lang) - 1) {
		r->lang[k] = info[k];
		k++;
	}
	r->lang[k] = '\0';
}

static void leaf_block(struct rd *r, cmark_node *n, cmark_node_type t, long line)
{
	size_t len;
	const char *s = literal(n, &len);
	r->block++;
	if (t == CMARK_NODE_CODE_BLOCK) {
		int flen = 0, off = 0;
		char fch = 0;
		int fenced = cmark_node_get_fenced(n, &flen, &off, &fch);
		r->code = 1;
		code_lang(r, n);
		code_text(r, s, len, fenced ? line + 1 : line);
		r->code = 0;
		r->lang[0] = '\0';
	} else if (t == CMARK_NODE_HTML_BLOCK) {
		r->html_block = 1;
		r->hs = H_DATA;
		html_feed(r, s, len, &line);
		flush(r);
		r->html_block = 0;
		if (r->hs == H_TAG)
			r->hs = H_DATA;
	}
}

/* An inline node on entering it. */
static void inline_node(struct rd *r, cmark_node *n, cmark_node_type t)
{
	long at = cmark_node_get_start_line(n);
	/* never back: cmark-gfm places an inline after a backslash hard
	 * break on the line before */
	if (at > 0 && !r->unplaced && at > r->cur)
		r->cur = at;
	size_t len;
	const char *s;
	switch (t) {
	case CMARK_NODE_TEXT:
		s = literal(n, &len);
		put(r, s, len, r->cur);
		break;
	case CMARK_NODE_CODE:
		s = literal(n, &len);
		if (r->marks)
			put(r, "`", 1, r->cur);
		put(r, s, len, r->cur);
		if (r->marks)
			put(r, "`", 1, r->cur);
		break;
	case CMARK_NODE_EMPH:
	case CMARK_NODE_STRONG:
		if (r->marks)
			put(r, t == CMARK_NODE_STRONG ? "**" : "*", t == CMARK_NODE_STRONG ? 2 : 1, r->cur);
		break;
	case CMARK_NODE_SOFTBREAK:
	case CMARK_NODE_LINEBREAK:
		if (r->heading || r->in_cell) {
			put(r, " ", 1, r->cur);
		} else {
			flush(r);
			r->soft = t == CMARK_NODE_SOFTBREAK;
			r->soft_block = r->block;
		}
		r->cur++;
		break;
	case CMARK_NODE_HTML_INLINE: {
		long line = r->cur;
		s = literal(n, &len);
		html_feed(r, s, len, &line);
		if (r->hs == H_TAG)
			r->hs = H_DATA; /* inline HTML comes whole */
		r->cur = line;
		break;
	}
	case CMARK_NODE_IMAGE:
		r->img++;
		break;
	default:
		break;
	}
}

/* cmark-gfm places a table that follows a paragraph's lines at the
 * paragraph's first line and leaves the paragraph unplaced; the body rows
 * and the table's last line are right, and each row is one line, so the
 * header row sits above the delimiter row above the first body row. */
static long header_line(cmark_node *table)
{
	long rows = 0;
	for (cmark_node *k = cmark_node_first_child(table); k; k = cmark_node_next(k))
		rows++;
	long end = cmark_node_get_end_line(table);
	return end - (rows > 0 ? rows - 1 : 0) - 1;
}

/* The first line of such an unplaced paragraph: the table's. */
static long unplaced_paragraph(cmark_node *para)
{
	cmark_node *next = cmark_node_next(para);
	return next ? cmark_node_get_start_line(next) : 0;
}

/* The node types of the table and strikethrough extensions, which
 * cmark-gfm numbers when they register and its headers name only by type
 * string: each type's string is compared once, then remembered. */
enum ext_kind { EXT_NONE = 1, EXT_STRUCK, EXT_TABLE, EXT_ROW, EXT_CELL };

static enum ext_kind ext_kind(cmark_node *n, cmark_node_type t)
{
	static _Thread_local unsigned char seen[4 * 64]; /* by kind bits and value, 0 unknown */
	unsigned v = (unsigned)t & CMARK_NODE_VALUE_MASK;
	unsigned char *k = v < 64 ? &seen[(((unsigned)t >> 14) & 3) * 64 + v] : NULL;
	if (k && *k)
		return (enum ext_kind)*k;
	const char *ts = cmark_node_get_type_string(n);
	enum ext_kind e = strcmp(ts, "strikethrough") == 0 ? EXT_STRUCK
			  : strcmp(ts, "table") == 0 ? EXT_TABLE
			  : strcmp(ts, "table_header") == 0 || strcmp(ts, "table_row") == 0 ? EXT_ROW
			  : strcmp(ts, "table_cell") == 0 ? EXT_CELL : EXT_NONE;
	if (k)
		*k = (unsigned char)e;
	return e;
}

static void enter(struct rd *r, cmark_node *n)
{
	cmark_node_type t = cmark_node_get_type(n);
	long line = cmark_node_get_start_line(n);
	if (t == CMARK_NODE_PARAGRAPH)
		r->unplaced = line <= 0;
	if (t == CMARK_NODE_PARAGRAPH && line <= 0)
		line = unplaced_paragraph(n);
	if (t == CMARK_NODE_CUSTOM_BLOCK || t == CMARK_NODE_CUSTOM_INLINE || t > CMARK_NODE_FOOTNOTE_REFERENCE ||
	    (t > CMARK_NODE_FOOTNOTE_DEFINITION && t < CMARK_NODE_TEXT)) {
		switch (ext_kind(n, t)) {
		case EXT_STRUCK:
			r->del++;
			break;
		case EXT_TABLE:
			flush(r);
			r->in_table = 1;
			r->block++;
			r->head_line = header_line(n);
			break;
		case EXT_ROW:
			r->ncells = 0;
			r->head = cmark_gfm_extensions_get_table_row_is_header(n) != 0;
			if (r->head)
				line = r->head_line;
			r->row_line = line;
			r->cur = line;
			break;
		case EXT_CELL:
			start_cell(r);
			break;
		default:
			break;
		}
		return;
	}
	if ((t & CMARK_NODE_TYPE_MASK) == CMARK_NODE_TYPE_INLINE)
		return inline_node(r, n, t);
	flush(r);
	r->cur = line;
	r->block_line = line;
	switch (t) {
	case CMARK_NODE_BLOCK_QUOTE:
		r->quote++;
		break;
	case CMARK_NODE_ITEM: {
		cmark_node *list = cmark_node_parent(n);
		int d = r->list_depth < 16 ? r->list_depth : 15;
		if (list && cmark_node_get_list_type(list) == CMARK_ORDERED_LIST) {
			if (cmark_node_previous(n) == NULL)
				r->list_number[d] = cmark_node_get_list_start(list);
			r->item_number = r->list_number[d]++;
		} else {
			r->item_number = 0;
		}
		r->list_pending = 1;
		r->list_depth++;
		break;
	}
	case CMARK_NODE_HEADING:
		r->heading = cmark_node_get_heading_level(n);
		r->block++;
		break;
	case CMARK_NODE_PARAGRAPH:
		r->block++;
		break;
	case CMARK_NODE_CODE_BLOCK:
	case CMARK_NODE_HTML_BLOCK:
		leaf_block(r, n, t, line);
		break;
	default:
		break;
	}
}

static void leave(struct rd *r, cmark_node *n)
{
	cmark_node_type t = cmark_node_get_type(n);
	if ((t & CMARK_NODE_TYPE_MASK) == CMARK_NODE_TYPE_INLINE || t == CMARK_NODE_CUSTOM_BLOCK) {
		if ((t == CMARK_NODE_EMPH || t == CMARK_NODE_STRONG) && r->marks)
			put(r, t == CMARK_NODE_STRONG ? "**" : "*", t == CMARK_NODE_STRONG ? 2 : 1, r->cur);
		else if (t == CMARK_NODE_IMAGE)
			r->img--;
		else if (ext_kind(n, t) == EXT_STRUCK)
			r->del--;
		return;
	}
	enum ext_kind e = ext_kind(n, t);
	if (e == EXT_CELL) {
		r->in_cell = 0;
		return;
	}
	if (e == EXT_ROW) {
		end_row(r);
		return;
	}
	if (e == EXT_TABLE)
		r->in_table = 0;
	flush(r);
	if (t == CMARK_NODE_BLOCK_QUOTE)
		r->quote--;
	else if (t == CMARK_NODE_ITEM) {
		r->list_pending = 0;
		r->list_depth--;
	}
	else if (t == CMARK_NODE_HEADING)
		r->heading = 0;
	else if (t == CMARK_NODE_PARAGRAPH)
		r->unplaced = 0;
}


/* ---- cmark-gfm's memory ----
 *
 * cmark-gfm allocates every node, literal, buffer and table cell of a
 * document through the cmark_mem it is given and frees them one by one
 * (cmark_node_free walks the whole tree): with malloc, a quarter of the
 * reading went to malloc and free. It is given this bump arena instead.
 * Allocations are carved from chunks that are kept from one document to
 * the next; free gives back only the latest allocation; the whole document
 * goes at once when its reading ends, back to the mark taken before its
 * parse (so a callback that reads another document nests). Requests above
 * ARENA_BIG get a malloc'd block of their own, freed or resized at once.
 * A chunk is one 2 MB page-aligned mapping, offered to the kernel as a
 * transparent huge page (MADV_HUGEPAGE): the tree of a 50 KB log touches
 * about 1 MB, and on a virtual machine where each first touch of a 4 KB
 * page costs 15-30 us that was 280 page faults, a third of the CPU of a
 * tlgate call (docs/benchmarks.md, "Start-up"); one huge page is one
 * fault. Where the kernel gives no huge page, the mapping is read in
 * 4 KB pages as before.
 * cmark_mem passes no context, so the arena is one per thread. Like
 * cmark-gfm's own allocator (it does not check), a failed allocation
 * prints a message and aborts. Under AddressSanitizer what is released is
 * poisoned, so a string of the tree used after its reading is caught. */

#define ARENA_MAP ((size_t)2 << 20)    /* bytes mapped per chunk: a huge page */
#define ARENA_ALIGN 16
#define ARENA_CHUNK (ARENA_MAP - ARENA_ALIGN) /* bytes per chunk, after its header */
#define ARENA_BIG (ARENA_CHUNK / 8)     /* larger requests: a block each */
#define ARENA_KEEP 4                    /* chunks kept once nothing is read */
#define BLOCK ((size_t)-1)              /* ahdr.cap of a block's allocation */
#define ARENA_CLASSES 128               /* free lists: slots of 16..2048 bytes */

struct achunk {
	struct achunk *next;
	size_t used;
	_Alignas(ARENA_ALIGN) unsigned char data[ARENA_CHUNK];
};

/* before each allocation: the bytes asked for (a freed slot: the next
 * freed one of its size), and the bytes it holds (BLOCK in a block of its
 * own) */
struct ahdr {
	union {
		size_t size;
		struct ahdr *next;
	};
	size_t cap;
};

struct ablock {
	struct ablock *prev, *next;
	_Alignas(ARENA_ALIGN) struct ahdr h;
};

_Static_assert(sizeof(struct ahdr) == ARENA_ALIGN, "the header keeps the alignment");
_Static_assert(sizeof(struct achunk) == ARENA_MAP, "a chunk fills its mapping");

struct arena {
	struct achunk *first, *cur; /* chunks in use up to cur, spare after it */
	struct ablock *blocks;      /* the blocks, latest first */
	struct ahdr *freed[ARENA_CLASSES]; /* freed slots by size, linked by size */
	int depth;                  /* readings open */
};

struct amark {
	struct achunk *cur;
	size_t used;
	struct ablock *blocks;
};

static _Thread_local struct arena A;

static size_t slot(size_t n)
{
	return n ? (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1) : ARENA_ALIGN;
}

static void arena_fail(size_t n)
{
	fprintf(stderr, "tlperf: error: out of memory reading Markdown (%zu bytes)\n", n);
	abort();
}

static void block_link(struct ablock *b, size_t n)
{
	b->prev = NULL;
	b->next = A.blocks;
	if (A.blocks)
		A.blocks->prev = b;
	A.blocks = b;
	b->h.size = n;
	b->h.cap = BLOCK;
}

static void block_unlink(struct ablock *b)
{
	if (b->prev)
		b->prev->next = b->next;
	else
		A.blocks = b->next;
	if (b->next)
		b->next->prev = b->prev;
}

static struct ablock *block_of(struct ahdr *h)
{
	return (struct ablock *)(void *)((unsigned char *)h - offsetof(struct ablock, h));
}

/* A new chunk: ARENA_MAP bytes aligned to ARENA_MAP (a huge page can only
 * back an aligned range), from a mapping twice that size with both ends
 * trimmed; NULL when the system has no memory. */
static struct achunk *chunk_new(void)
{
	unsigned char *p = mmap(NULL, 2 * ARENA_MAP, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	unsigned char *q = p + (ARENA_MAP - (uintptr_t)p % ARENA_MAP) % ARENA_MAP;
	if (q > p)
		munmap(p, (size_t)(q - p));
	munmap(q + ARENA_MAP, (size_t)(p + ARENA_MAP - q));
#ifdef MADV_HUGEPAGE
	madvise(q, ARENA_MAP, MADV_HUGEPAGE); /* a hint: without it, 4 KB pages */
#endif
	return (struct achunk *)(void *)q;
}

/* n bytes, not cleared */
static void *arena_alloc(size_t n)
{
	if (n > ARENA_BIG) {
		struct ablock *b = malloc(sizeof(*b) + n);
		if (!b)
			arena_fail(n);
		block_link(b, n);
		return &b->h + 1;
	}
	size_t cls = slot(n) / ARENA_ALIGN - 1;
	if (cls < ARENA_CLASSES && A.freed[cls]) {
		struct ahdr *h = A.freed[cls];
		A.freed[cls] = h->next;
		ARENA_UNPOISON(h + 1, n);
		h->size = n;
		return h + 1;
	}
	size_t need = sizeof(struct ahdr) + slot(n);
	if (!A.cur || A.cur->used + need > ARENA_CHUNK) {
		struct achunk *c = A.cur ? A.cur->next : A.first;
		if (!c) {
			c = chunk_new();
			if (!c)
				arena_fail(sizeof(*c));
			c->next = NULL;
			ARENA_POISON(c->data, ARENA_CHUNK);
			if (A.cur)
				A.cur->next = c;
			else
				A.first = c;
		}
		c->used = 0;
		A.cur = c;
	}
	struct ahdr *h = (struct ahdr *)(void *)(A.cur->data + A.cur->used);
	ARENA_UNPOISON(h, sizeof(*h) + n);
	A.cur->used += need;
	h->size = n;
	h->cap = slot(n);
	return h + 1;
}

/* 1 when h is the latest allocation of the current chunk */
static int is_last(const struct ahdr *h)
{
	return A.cur && (const unsigned char *)(h + 1) + h->cap == A.cur->data + A.cur->used;
}

static void *arena_calloc(size_t nmemb, size_t size)
{
	if (size && nmemb > SIZE_MAX / size)
		arena_fail(SIZE_MAX);
	void *p = arena_alloc(nmemb * size);
	memset(p, 0, nmemb * size);
	return p;
}

static void arena_free(void *p)
{
	if (!p)
		return;
	struct ahdr *h = (struct ahdr *)p - 1;
	if (h->cap == BLOCK) {
		struct ablock *b = block_of(h);
		block_unlink(b);
		free(b);
	} else if (is_last(h)) {
		A.cur->used -= sizeof(*h) + h->cap;
		ARENA_POISON(h, sizeof(*h) + h->cap);
	} else if (h->cap / ARENA_ALIGN - 1 < ARENA_CLASSES) {
		size_t cls = h->cap / ARENA_ALIGN - 1;
		h->next = A.freed[cls];
		A.freed[cls] = h;
		ARENA_POISON(h + 1, h->cap);
	}
}

static void *arena_realloc(void *p, size_t n)
{
	if (!p)
		return arena_alloc(n);
	struct ahdr *h = (struct ahdr *)p - 1;
	if (h->cap == BLOCK && n > ARENA_BIG) {
		struct ablock *b = block_of(h);
		block_unlink(b);
		b = realloc(b, sizeof(*b) + n);
		if (!b)
			arena_fail(n);
		block_link(b, n);
		return &b->h + 1;
	}
	if (h->cap != BLOCK && n <= h->cap) {
		ARENA_UNPOISON(p, n);
		h->size = n;
		return p;
	}
	if (h->cap != BLOCK && n <= ARENA_BIG && is_last(h) && A.cur->used - h->cap + slot(n) <= ARENA_CHUNK) {
		A.cur->used = A.cur->used - h->cap + slot(n);
		ARENA_UNPOISON(p, n);
		h->size = n;
		h->cap = slot(n);
		return p;
	}
	void *q = arena_alloc(n);
	memcpy(q, p, h->size < n ? h->size : n);
	arena_free(p);
	return q;
}

static cmark_mem arena_mem = { arena_calloc, arena_realloc, arena_free };

static struct amark arena_mark(void)
{
	A.depth++;
	return (struct amark){ A.cur, A.cur ? A.cur->used : 0, A.blocks };
}

/* Drops everything allocated since m; once no reading is open, the chunks
 * beyond ARENA_KEEP go back to the system. */
static void arena_release(struct amark m)
{
	while (A.blocks && A.blocks != m.blocks) {
		struct ablock *b = A.blocks;
		block_unlink(b);
		free(b);
	}
	if (A.cur) {
		struct achunk *c = m.cur ? m.cur : A.first;
		size_t from = m.cur ? m.used : 0;
		for (;; c = c->next, from = 0) {
			ARENA_POISON(c->data + from, ARENA_CHUNK - from);
			if (c == A.cur)
				break;
		}
	}
	A.cur = m.cur;
	if (A.cur)
		A.cur->used = m.used;
	/* freed slots may lie beyond the mark: those before it are lost */
	memset(A.freed, 0, sizeof(A.freed));
	if (--A.depth > 0)
		return;
	struct achunk **pp = &A.first;
	for (int k = 0; *pp && k < ARENA_KEEP; k++)
		pp = &(*pp)->next;
	while (*pp) {
		struct achunk *c = *pp;
		*pp = c->next;
		munmap(c, ARENA_MAP);
	}
}

/* ---- the reader ---- */

static cmark_node *parse(const char *buf, size_t len)
{
	static int registered;
	if (!registered) {
		cmark_gfm_core_extensions_ensure_registered();
		registered = 1;
	}
	cmark_parser *p = cmark_parser_new_with_mem(CMARK_OPT_SOURCEPOS, &arena_mem);
	if (!p)
		return NULL;
	static const char *const ext[] = { "table", "strikethrough", "autolink", "tagfilter", "tasklist" };
	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		cmark_syntax_extension *e = cmark_find_syntax_extension(ext[i]);
		if (e)
			cmark_parser_attach_syntax_extension(p, e);
	}
	cmark_parser_feed(p, buf, len);
	cmark_node *doc = cmark_parser_finish(p);
	cmark_parser_free(p);
	return doc;
}

int mdread_buffer(const char *buf, size_t len, mdread_fn fn, void *arg)
{
	return read_lines(buf, len, fn, arg, 0);
}

static int read_lines(const char *buf, size_t len, mdread_fn fn, void *arg, int marks)
{
	struct rd r;
	memset(&r, 0, sizeof(r));
	r.fn = fn;
	r.arg = arg;
	r.marks = marks;
	struct amark m = arena_mark();
	cmark_node *doc = parse(buf, len);
	if (!doc) {
		arena_release(m);
		errno = ENOMEM;
		return -1;
	}
	cmark_iter *it = cmark_iter_new(doc);
	cmark_event_type ev;
	while (it && !r.stop && (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		if (ev == CMARK_EVENT_ENTER)
			enter(&r, n);
		else
			leave(&r, n);
	}
	if (!r.stop)
		flush(&r);
	int failed = it == NULL;
	/* the tree, the iterator and every literal read go with the arena */
	arena_release(m);
	free(r.vis.s);
	for (int i = 0; i < 5; i++)
		free(r.hid[i].s);
	free(r.tag.s);
	free(r.joined.s);
	for (int i = 0; i < MAX_CELLS; i++)
		free(r.cells[i].s);
	if (r.stop)
		return r.stop;
	if (failed || r.oom || r.tag.oom) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

/* ---- the page as text, line for line ---- */

struct page {
	struct strbuf *lines;    /* one per source line */
	size_t n;
	int oom;
	long last_text;          /* the line the last paragraph text went to */
};

static struct strbuf *page_line(struct page *pg, long line)
{
	if (line < 1 || (size_t)line > pg->n)
		return NULL;
	return &pg->lines[line - 1];
}

static void page_put(struct page *pg, long line, const char *lead, const char *text)
{
	struct strbuf *b = page_line(pg, line);
	if (!b)
		return;
	if (b->n)
		strbuf_add(b, " ", 1);
	strbuf_str(b, lead);
	strbuf_str(b, text);
	pg->oom |= b->oom;
}

static int page_add(const struct mdread_line *ln, void *arg)
{
	struct page *pg = arg;
	char lead[8];
	switch (ln->kind) {
	case MDREAD_HEADING:
		memset(lead, '#', (size_t)ln->level);
		lead[ln->level] = ' ';
		lead[ln->level + 1] = '\0';
		page_put(pg, ln->line, lead, ln->text);
		break;
	case MDREAD_TEXT: {
		/* a list item as written: indented by its depth, its marker on
		 * its first line; its other lines under its text */
		char lead2[96];
		int depth = ln->list_depth > 0 ? ln->list_depth : 0, k = 0;
		for (int i = 1; i < depth && k < 60; i++, k += 2)
			memcpy(lead2 + k, "  ", 2);
		if (ln->quote)
			k += snprintf(lead2 + k, sizeof(lead2) - (size_t)k, "> ");
		if (ln->list_item && ln->list_number > 0)
			k += snprintf(lead2 + k, sizeof(lead2) - (size_t)k, "%ld. ", ln->list_number);
		else if (ln->list_item)
			k += snprintf(lead2 + k, sizeof(lead2) - (size_t)k, "- ");
		else if (depth > 0)
			k += snprintf(lead2 + k, sizeof(lead2) - (size_t)k, "  ");
		lead2[k] = '\0';
		/* a line the page shows on the one above (a soft break) that
		 * plainly continues it (`→ 32 us`, a value under its key) goes
		 * there; an item of its own stays on its line */
		struct strbuf *above = pg->last_text ? page_line(pg, pg->last_text) : NULL;
		if (ln->joined && above && prose_continues(above->s ? above->s : "", above->n, ln->text)) {
			page_put(pg, pg->last_text, "", ln->text);
			break;
		}
		page_put(pg, ln->line, lead2, ln->text);
		pg->last_text = ln->line;
		break;
	}
	case MDREAD_CODE:
		page_put(pg, ln->line, "", ln->text);
		break;
	case MDREAD_ROW: {
		struct strbuf *b = page_line(pg, ln->line);
		if (!b || b->n)
			break;
		strbuf_add(b, "|", 1);
		for (int i = 0; i < ln->ncells; i++) {
			strbuf_add(b, " ", 1);
			for (const char *c = ln->cells[i]; *c; c++)
				strbuf_str(b, *c == '|' ? "\\|" : (char[2]){ *c, 0 });
			strbuf_add(b, " |", 2);
		}
		struct strbuf *d = ln->head ? page_line(pg, ln->line + 1) : NULL;
		if (d && !d->n) {
			strbuf_add(d, "|", 1);
			for (int i = 0; i < ln->ncells; i++)
				strbuf_add(d, "---|", 4);
		}
		pg->oom |= b->oom || (d && d->oom);
		break;
	}
	case MDREAD_HIDDEN:
		/* the gate's own directives are the one hidden text kept */
		if (ln->hidden == MDREAD_COMMENT && strstr(ln->text, "tlgate-disable"))
			page_put(pg, ln->line, "", ln->text);
		break;
	}
	return 0;
}

char *mdread_text(const char *buf, size_t len, size_t *outlen)
{
	struct page pg = { NULL, 1, 0, 0 };
	for (size_t i = 0; i < len; i++)
		if (buf[i] == '\n')
			pg.n++;
	int final_nl = len && buf[len - 1] == '\n';
	if (final_nl)
		pg.n--; /* a final newline starts no line */
	pg.lines = calloc(pg.n ? pg.n : 1, sizeof(*pg.lines));
	char *out = NULL;
	if (!pg.lines || read_lines(buf, len, page_add, &pg, 1) != 0 || pg.oom)
		goto out;
	struct strbuf all = { 0 };
	for (size_t i = 0; i < pg.n; i++) {
		if (pg.lines[i].n)
			strbuf_add(&all, pg.lines[i].s, pg.lines[i].n);
		if (i + 1 < pg.n || final_nl)
			strbuf_add(&all, "\n", 1);
	}
	if (all.oom) {
		free(all.s);
		goto out;
	}
	out = all.s ? all.s : strdup("");
	if (out)
		*outlen = all.n;
out:
	for (size_t i = 0; pg.lines && i < pg.n; i++)
		free(pg.lines[i].s);
	free(pg.lines);
	if (!out)
		errno = ENOMEM;
	return out;
}

const char *mdread_kind_name(enum mdread_kind k)
{
	static const char *const names[] = { "heading", "text", "row", "code", "hidden" };
	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}

const char *mdread_hidden_name(enum mdread_hidden h)
{
	static const char *const names[] = { "shown", "comment", "struck", "image-alt", "unrendered" };
	return (unsigned)h < sizeof(names) / sizeof(names[0]) ? names[h] : "?";
}
