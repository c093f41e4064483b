/* test_mdread.c: the Markdown reader hands over what GitHub shows, with
 * the source line of each piece (io/mdread.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/mdread.h"

/* Every line as "LINE KIND[:WHY][ folded] TEXT", joined by '\n'. */
struct dump {
	char buf[8192];
	size_t n;
};

static int collect(const struct mdread_line *ln, void *arg)
{
	struct dump *d = arg;
	char kind[40];
	if (ln->kind == MDREAD_HEADING)
		snprintf(kind, sizeof(kind), "h%d", ln->level);
	else if (ln->kind == MDREAD_HIDDEN)
		snprintf(kind, sizeof(kind), "hidden:%s", mdread_hidden_name(ln->hidden));
	else if (ln->kind == MDREAD_ROW)
		snprintf(kind, sizeof(kind), "%s%d", ln->head ? "head" : "row", ln->ncells);
	else if (ln->kind == MDREAD_TEXT && ln->list_item)
		snprintf(kind, sizeof(kind), "li");
	else if (ln->kind == MDREAD_TEXT && ln->joined)
		snprintf(kind, sizeof(kind), "text+"); /* continues the line above */
	else
		snprintf(kind, sizeof(kind), "%s", mdread_kind_name(ln->kind));
	d->n += (size_t)snprintf(d->buf + d->n, sizeof(d->buf) - d->n, "%ld %s%s %s\n", ln->line, kind,
				 ln->folded ? " folded" : "", ln->text);
	return 0;
}

static void expect(const char *md, const char *want)
{
	struct dump d = { { 0 }, 0 };
	assert_int_equal(mdread_buffer(md, strlen(md), collect, &d), 0);
	assert_string_equal(d.buf, want);
}

static void headings_and_prose(void **state)
{
	(void)state;
	expect("# Title\n\ntext one\ntext two\n\nSetext\n---\n\n- a **bold** `code` item\n- [link](http://x \"title\")\n",
	       "1 h1 Title\n3 text text one\n4 text+ text two\n6 h2 Setext\n9 li a bold code item\n10 li link\n");
	/* an empty heading is still a heading; a line inside an HTML block is not one */
	expect("#\n<div>\n## not a heading\n</div>\n", "1 h1 \n3 text ## not a heading\n");
}

/* A soft line break joins two source lines on the page; a hard one (two
 * trailing spaces, a backslash), a new paragraph, a list item or a table
 * does not. */
static void soft_breaks(void **state)
{
	(void)state;
	expect("final_latency: 64.0 us\n→ 32.0 us\n\nnext\n",
	       "1 text final_latency: 64.0 us\n2 text+ → 32.0 us\n4 text next\n");
	expect("a  \nb\\\nc\n", "1 text a\n2 text b\n3 text c\n");
	expect("- wa: 64 us\n  → 32 us\n- wb: 1 us\n",
	       "1 li wa: 64 us\n2 text+ → 32 us\n3 li wb: 1 us\n");
	expect("> x\n> y\n", "1 text x\n2 text+ y\n");
	/* a comment opening a line starts an HTML block, so a new paragraph;
	 * one inside the line does not break the join */
	expect("a\n<!-- c -->\nb\n", "1 text a\n2 hidden:comment <!-- c -->\n3 text b\n");
	expect("a <!-- c -->\nb\n", "1 text a \n1 hidden:comment <!-- c -->\n2 text+ b\n");
}

static void text_is(const char *md, const char *want)
{
	size_t n = 0;
	char *t = mdread_text(md, strlen(md), &n);
	assert_non_null(t);
	assert_string_equal(t, want);
	assert_int_equal(n, strlen(want));
	free(t);
}

/* The page as text for the line readers: a soft-broken line that plainly
 * continues the one above (a figure, an arrow, a bracket, a unit, a value
 * under its key) is written on it, its own line left empty; an item of
 * its own (`[#2] ...`, `key: value`) keeps its line. */
static void page_text_joins(void **state)
{
	(void)state;
	text_is("- final_latency: 64 us\n  → 32 us\n", "- final_latency: 64 us → 32 us\n\n");
	text_is("final_latency:\n32 us\n", "final_latency: 32 us\n\n");
	text_is("final_latency: 64\nus → 32 us\n", "final_latency: 64 us → 32 us\n\n");
	text_is("final_latency: 64 us\n(corrected: 32 us)\n", "final_latency: 64 us (corrected: 32 us)\n\n");
	text_is("[#1] a（x）：y\n[#2] b\nkey: 1\nother: 2\n", "[#1] a（x）：y\n[#2] b\nkey: 1\nother: 2\n");
	/* a hard break keeps the line */
	text_is("final_latency: 64 us  \n→ 32 us\n", "final_latency: 64 us\n→ 32 us\n");
}

static void hidden_text(void **state)
{
	(void)state;
	expect("final: ~~64 us~~ 58 us <!-- note -->\n",
	       "1 text final:  58 us \n1 hidden:comment <!-- note -->\n1 hidden:struck 64 us\n");
	expect("<!--\n## Final Summary\nfinal_latency: 1 us\n-->\nafter\n",
	       "1 hidden:comment <!--\n2 hidden:comment ## Final Summary\n3 hidden:comment final_latency: 1 us\n"
	       "4 hidden:comment -->\n5 text after\n");
	expect("a <s>b</s> <del>c</del> ~d~ ![alt e](x.png) f\n",
	       "1 text a     f\n1 hidden:struck b c d\n1 hidden:image-alt alt e\n");
	expect("<script>\nfinal_latency: 2 us\n</script>\n", "2 hidden:unrendered final_latency: 2 us\n");
	/* attributes hide nothing: GitHub strips them */
	expect("<span hidden style=\"display:none\">seen</span>\n", "1 text seen\n");
}

static void code_and_fences(void **state)
{
	(void)state;
	/* an indented closing fence does not close: the rest is code */
	expect("```text\na\n    ```\n## b\n```\nafter\n", "2 code a\n3 code     ```\n4 code ## b\n6 text after\n");
	expect("~~~~\n~~~\nx\n~~~~\n    indented\n", "2 code ~~~\n3 code x\n5 code indented\n");
}

static void tables(void **state)
{
	(void)state;
	/* a table right under a paragraph line: the caption keeps its line,
	 * the header row gets its own */
	expect("cap\n| a | b |\n|---|---:|\n| 1 \\| x | &#51; |\nmore\n",
	       "1 text cap\n2 head2 a | b\n4 row2 1 | x | 3\n5 row2 more | \n");
	/* a delimiter row with another cell count: no table */
	expect("| a | b |\n|---|\n| 1 | 2 |\n", "1 text | a | b |\n2 text+ |---|\n3 text+ | 1 | 2 |\n");
}

static void folded_and_entities(void **state)
{
	(void)state;
	expect("<details>\n<summary>s</summary>\n\n## In\n\n</details>\n\n## Out\n",
	       "2 text folded s\n4 h2 folded In\n8 h2 Out\n");
	expect("<div>x &#x33;2 &amp; &micro;s &bogus;</div>\n", "1 text x 32 & µs &bogus;\n");
}

static int stop_at_two(const struct mdread_line *ln, void *arg)
{
	int *n = arg;
	(void)ln;
	return ++*n == 2 ? 7 : 0;
}

static void callback_stops(void **state)
{
	(void)state;
	int n = 0;
	const char *md = "a\n\nb\n\nc\n";
	assert_int_equal(mdread_buffer(md, strlen(md), stop_at_two, &n), 7);
	assert_int_equal(n, 2);
}


/* The whole dump of md into a malloc'd string (for documents of any size). */
struct bigdump {
	char *s;
	size_t n, cap;
	long lines, rows;
	const char *inner;      /* a document read again inside each callback */
	char *inner_seen;       /* what that inner reading gave, the last time */
};

static void big_add(struct bigdump *d, const char *p, size_t n)
{
	if (d->n + n + 1 > d->cap) {
		d->cap = (d->n + n + 1) * 2;
		d->s = realloc(d->s, d->cap);
		assert_non_null(d->s);
	}
	memcpy(d->s + d->n, p, n);
	d->n += n;
	d->s[d->n] = '\0';
}

static int big_collect(const struct mdread_line *ln, void *arg)
{
	struct bigdump *d = arg;
	char head[64];
	int k = snprintf(head, sizeof(head), "%ld %s%d ", ln->line, mdread_kind_name(ln->kind), ln->ncells);
	big_add(d, head, (size_t)k);
	big_add(d, ln->text, ln->len);
	big_add(d, "\n", 1);
	d->lines++;
	d->rows += ln->kind == MDREAD_ROW;
	if (d->inner) {
		/* a reading nested in another one's callback */
		size_t len;
		char *t = mdread_text(d->inner, strlen(d->inner), &len);
		assert_non_null(t);
		free(d->inner_seen);
		d->inner_seen = t;
	}
	return 0;
}

static struct bigdump big_read(const char *md, size_t len, const char *inner)
{
	struct bigdump d = { NULL, 0, 0, 0, 0, inner, NULL };
	big_add(&d, "", 0);
	assert_int_equal(mdread_buffer(md, len, big_collect, &d), 0);
	return d;
}

static const char sample[] =
	"# Log\n\n| candidate | wa (us) |\n|---|---:|\n| c1（best） | 64.0 |\n| ~~c2~~ | 70.0 |\n\n"
	"final: ~~64 us~~ 58 us <!-- note -->\n\n```text\ncode\n```\n\n- item **bold** `x`\n";

/* A document is read the same when another is read inside each of its
 * callbacks, and the inner one reads as it does alone. */
static void nested_readings(void **state)
{
	(void)state;
	const char *inner[] = { "| a | b |\n|---|---|\n| 1 | ~~2~~ |\n", "<!-- c -->\n# h\n\ntext\n", "" };
	struct bigdump alone = big_read(sample, strlen(sample), NULL);
	for (size_t i = 0; i < sizeof(inner) / sizeof(inner[0]); i++) {
		size_t len;
		char *want = mdread_text(inner[i], strlen(inner[i]), &len);
		assert_non_null(want);
		struct bigdump d = big_read(sample, strlen(sample), inner[i]);
		assert_string_equal(d.s, alone.s);
		assert_non_null(d.inner_seen);
		assert_string_equal(d.inner_seen, want);
		free(d.s);
		free(d.inner_seen);
		free(want);
	}
	free(alone.s);
}

/* Documents larger than the reader's memory chunks, with pieces larger
 * than a chunk's share: every row and line comes through whole, and a
 * small document read after them reads as it did before. */
static void large_documents(void **state)
{
	(void)state;
	struct bigdump first = big_read(sample, strlen(sample), NULL);
	char *md = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&md, &n);
	assert_non_null(f);
	/* a table of 30000 rows */
	fputs("| candidate | workload | us |\n|---|---|---:|\n", f);
	for (int i = 0; i < 30000; i++)
		fprintf(f, "| c%d | w%d | %d.5 |\n", i, i % 10, i);
	/* a paragraph line of 400 KB and a code block of 3 MB */
	fputs("\nlong ", f);
	for (int i = 0; i < 40000; i++)
		fputs("0123456789", f);
	fputs(" end\n\n```\n", f);
	for (int i = 0; i < 100000; i++)
		fprintf(f, "code line %06d of the block\n", i);
	fputs("```\n\nlast\n", f);
	fclose(f);
	for (int round = 0; round < 2; round++) {
		struct bigdump d = big_read(md, n, NULL);
		assert_int_equal(d.rows, 30001);
		assert_int_equal(d.lines, 30001 + 1 + 100000 + 1);
		assert_non_null(strstr(d.s, "\n30002 row3 c29999 | w9 | 29999.5\n"));
		const char *lng = strstr(d.s, "\n30004 text0 long 0123");
		assert_non_null(lng);
		assert_int_equal(strchr(lng + 1, '\n') - lng - 1, strlen("30004 text0 long ") + 400000 + strlen(" end"));
		assert_non_null(strstr(d.s, "\n30007 code0 code line 000000 of the block\n"));
		assert_non_null(strstr(d.s, "\n130006 code0 code line 099999 of the block\n130009 text0 last\n"));
		free(d.s);
		struct bigdump again = big_read(sample, strlen(sample), NULL);
		assert_string_equal(again.s, first.s);
		free(again.s);
	}
	free(md);
	free(first.s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(headings_and_prose), cmocka_unit_test(soft_breaks), cmocka_unit_test(page_text_joins), cmocka_unit_test(hidden_text),
		cmocka_unit_test(code_and_fences),    cmocka_unit_test(tables),
		cmocka_unit_test(folded_and_entities), cmocka_unit_test(callback_stops),
		cmocka_unit_test(nested_readings),    cmocka_unit_test(large_documents),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
