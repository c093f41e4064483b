/* table_markdown.c: a table (model/table.h) as GitHub-flavoured Markdown. */
#include "report/table.h"
#include "util/strbuf.h"

#include <stdlib.h>

char *report_table_markdown(const struct table *t)
{
	struct strbuf b = { 0 };
	if (t->oom)
		return NULL;
	if (t->caption)
		strbuf_printf(&b, "**%s**\n\n", t->caption);
	strbuf_str(&b, "|");
	for (size_t c = 0; c < t->ncols; c++) {
		strbuf_str(&b, " ");
		strbuf_md_cell(&b, t->cols[c].name); /* the tool's own text */
		strbuf_str(&b, *t->cols[c].name ? " |" : "|");
	}
	strbuf_str(&b, "\n|");
	for (size_t c = 0; c < t->ncols; c++)
		strbuf_str(&b, t->cols[c].align == TABLE_RIGHT ? "---:|" : "---|");
	strbuf_str(&b, "\n");
	for (size_t r = 0; r < t->nrows; r++) {
		strbuf_str(&b, "|");
		for (size_t c = 0; c < t->ncols; c++) {
			const char *cell = table_at(t, r, c);
			strbuf_str(&b, " ");
			strbuf_md_cell_as(&b, cell, t->md);
			strbuf_str(&b, *cell ? " |" : "|");
		}
		strbuf_str(&b, "\n");
	}
	return strbuf_take(&b);
}

int report_table_put_markdown(FILE *f, struct table *t)
{
	char *md = report_table_markdown(t);
	table_release(t);
	if (!md)
		return -1;
	fputs(md, f);
	free(md);
	return 0;
}
