/* fuzz_mdread.c: the Markdown reader (mdread_buffer).
 *
 * Invariants: every line it hands over lies inside the input; its text is
 * a NUL-terminated string of the stated length; a row's cells are there;
 * headings have a level 1-6; reading the same bytes twice gives the same
 * lines.
 */
#include "io/mdread.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(c)                                                                          \
	do {                                                                              \
		if (!(c)) {                                                               \
			fprintf(stderr, "fuzz_mdread: invariant failed: %s (%s:%d)\n", #c, \
				__FILE__, __LINE__);                                      \
			abort();                                                          \
		}                                                                         \
	} while (0)

struct seen {
	long maxline;
	unsigned long n;
	unsigned long sum; /* lines and lengths, to compare two readings */
};

static int visit(const struct mdread_line *ln, void *arg)
{
	struct seen *s = arg;
	CHECK(ln->line >= 1 && ln->line <= s->maxline);
	CHECK(ln->text && strlen(ln->text) == ln->len);
	CHECK(ln->kind != MDREAD_HEADING || (ln->level >= 1 && ln->level <= 6));
	CHECK(ln->kind != MDREAD_HIDDEN || ln->hidden != MDREAD_SHOWN);
	CHECK(ln->lang);
	if (ln->kind == MDREAD_ROW) {
		CHECK(ln->ncells >= 0 && (ln->ncells == 0 || ln->cells));
		for (int i = 0; i < ln->ncells; i++)
			CHECK(ln->cells[i]);
	}
	s->n++;
	s->sum += (unsigned long)ln->line * 31u + ln->len + (unsigned long)ln->kind;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct seen a = { 1, 0, 0 }, b;
	for (size_t i = 0; i < size; i++)
		if (data[i] == '\n')
			a.maxline++;
	b = a;
	CHECK(mdread_buffer((const char *)data, size, visit, &a) == 0);
	CHECK(mdread_buffer((const char *)data, size, visit, &b) == 0);
	CHECK(a.n == b.n && a.sum == b.sum);
	return 0;
}
