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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(headings_and_prose), cmocka_unit_test(soft_breaks), cmocka_unit_test(page_text_joins), cmocka_unit_test(hidden_text),
		cmocka_unit_test(code_and_fences),    cmocka_unit_test(tables),
		cmocka_unit_test(folded_and_entities), cmocka_unit_test(callback_stops),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
