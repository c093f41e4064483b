/* mdread.h: a Markdown document as a reviewer reads it on GitHub.
 *
 * The one Markdown reader of the project. The document is parsed by
 * cmark-gfm, GitHub's own renderer (CommonMark with GitHub's table,
 * strikethrough, autolink, tag filter and task list extensions, the dialect
 * GitHub renders repository files in), and handed to the caller as a sequence of
 * "lines": what the rendered page shows, block by block, each with the
 * source line it came from. The gate's recognisers (headings, rounds,
 * captions, claims, budgets...) run on these lines, never on the raw text,
 * so what they check is what the rendered page shows.
 *
 * What a line is:
 *   MDREAD_HEADING  a heading (ATX or setext), its rendered text; level 1-6.
 *   MDREAD_TEXT     one source line of a paragraph (or of a list item's or
 *                   a block quote's paragraph, or visible text of a raw HTML
 *                   block): the text a reader sees on that line. Inline code
 *                   is shown text; emphasis marks, link destinations and
 *                   HTML tags are not. `list_item` is set on the first line
 *                   of a list item.
 *   MDREAD_ROW      a table row: `ncells` rendered cells; `head` on the
 *                   header row. Pipes escaped in the source are text.
 *   MDREAD_CODE     one line of a fenced or indented code block: shown, but
 *                   as code (`lang` is the fence's info word, "" without).
 *   MDREAD_HIDDEN   text a reader does NOT see, with `hidden` saying why:
 *                   an HTML comment (its raw text, `<!--` and `-->`
 *                   included, so directives can be read), struck-through
 *                   text (`~~x~~`, `~x~`, <s>, <del>, <strike>), an image's
 *                   alternative text, or the content of an HTML element
 *                   GitHub does not render as text (script, style,
 *                   template, textarea, title, noscript, iframe, xmp,
 *                   noembed, noframes, plaintext, svg, math). Attributes
 *                   never hide text: GitHub strips `hidden` and `style`.
 *                   One source line each.
 *
 * `folded` is set on every line inside a <details> element: a reader sees
 * it after opening the fold. `quote` is set inside a block quote. `block`
 * numbers the blocks: the lines of one paragraph, table or code block share
 * it, and it grows through the document.
 *
 * Entities are decoded (by cmark-gfm in Markdown text; in raw HTML `&#51;`,
 * `&#x33;` and the common names such as `&amp;`, `&nbsp;`, `&times;`,
 * `&micro;`, an unknown name staying as written); a NUL byte reads as
 * U+FFFD.
 *
 * Memory: the strings of a line belong to the reader and are valid only
 * during the callback. cmark-gfm's tree lives in an arena of the reader's
 * (one per thread, its chunks kept from one document to the next) that is
 * dropped at once when the reading ends; a callback may read another
 * document (the readings nest). As with cmark-gfm's own allocator, running
 * out of memory inside the parser prints a message and aborts.
 */
#ifndef TLPERF_MDREAD_H
#define TLPERF_MDREAD_H
#include <stddef.h>

enum mdread_kind {
	MDREAD_HEADING,
	MDREAD_TEXT,
	MDREAD_ROW,
	MDREAD_CODE,
	MDREAD_HIDDEN
};

enum mdread_hidden {
	MDREAD_SHOWN = 0,       /* not hidden */
	MDREAD_COMMENT,         /* <!-- ... --> */
	MDREAD_STRUCK,          /* strikethrough */
	MDREAD_IMAGE_ALT,       /* ![alt](...) */
	MDREAD_UNRENDERED       /* content of an element GitHub does not show */
};

struct mdread_line {
	enum mdread_kind kind;
	enum mdread_hidden hidden; /* MDREAD_HIDDEN lines: why */
	long line;                 /* 1-based source line */
	unsigned long block;       /* block serial number (see above) */
	int level;                 /* MDREAD_HEADING: 1-6 */
	int list_item;             /* first line of a list item */
	int list_depth;            /* list items open around the line, 0 outside lists */
	long list_number;          /* list_item of an ordered list: its number, else 0 */
	int folded;                /* inside <details> */
	int quote;                 /* inside a block quote */
	int head;                  /* MDREAD_ROW: the header row */
	int joined;                /* MDREAD_TEXT: continues the previous TEXT line of
				    * its paragraph after a soft line break: the page
				    * shows the two on one line, a space between (a
				    * hard break, `  ` or `\` at the end, is a new line) */
	const char *text;          /* NUL-terminated; rows: the cells joined by " | " */
	size_t len;
	int ncells;                /* MDREAD_ROW */
	const char *const *cells;  /* MDREAD_ROW: NUL-terminated cells */
	const char *lang;          /* MDREAD_CODE: info word, "" when none */
};

/* Called once per line, in document order. A non-zero return stops the
 * reading and is returned by mdread_buffer(). */
typedef int (*mdread_fn)(const struct mdread_line *ln, void *arg);

/* Reads buf[0..len) (UTF-8 Markdown) and calls fn
 * for every line. Returns 0, the callback's non-zero value, or -1 with
 * errno ENOMEM. */
int mdread_buffer(const char *buf, size_t len, mdread_fn fn, void *arg);

/* The rendered page as text, line for line with the source: line N of the
 * result is what the page shows of source line N, written back as plain
 * Markdown a line reader understands: `## text` for a heading, `- text`
 * for a list item's first line, `| a | b |` for a table row (the
 * delimiter row below the header as `|---|---|`), a code line as its text,
 * prose as its text; list items indented by their depth with their marker
 * (`- `, `3. `), block quotes with `> `, emphasis and code spans with their
 * marks (`**x**`, `*x*`, `` `x` ``). Hidden text (comments, struck, image
 * alt, unrendered elements), link destinations and HTML tags are gone,
 * but for the gate's own `tlgate-disable` comments; a line with nothing
 * shown is empty.
 * Returns a malloc'd NUL-terminated text (its length, without the NUL, in
 * *outlen), NULL with errno ENOMEM. For the line readers of the
 * first-generation perf_tuning/ logs and of the Stage Result block. */
char *mdread_text(const char *buf, size_t len, size_t *outlen);

/* The name of a kind and of a hidden reason, for dumps: "heading", "text",
 * "row", "code", "hidden"; "shown", "comment", "struck", "image-alt",
 * "unrendered". */
const char *mdread_kind_name(enum mdread_kind k);
const char *mdread_hidden_name(enum mdread_hidden h);

#endif
