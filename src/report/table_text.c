/* table_text.c: a table (model/table.h) as plain text for a terminal: the
 * column names, then one line per row, cells separated by one blank and
 * padded to a width per column (left or right as the column aligns, as
 * printf's "%-*s" / "%*s" do: a longer cell is not cut), every cell's
 * control characters shown as escapes (escape_text). No caption. */
#include "report/table.h"
#include "util/escape.h"

#include <stdlib.h>

/* Writes one cell and the separator before the next. Returns 0, -1 when
 * out of memory. */
static int put_cell(FILE *f, const struct table_col *col, int width, const char *s, int last)
{
	char *e = escape_text(s, 0);
	if (!e)
		return -1;
	fprintf(f, col->align == TABLE_RIGHT ? "%*s" : "%-*s", width, e);
	fputs(last ? "\n" : " ", f);
	free(e);
	return 0;
}

int report_table_put_text(FILE *f, struct table *t, const int *widths)
{
	int rc = t->oom ? -1 : 0;
	for (size_t c = 0; rc == 0 && c < t->ncols; c++)
		rc = put_cell(f, &t->cols[c], widths ? widths[c] : 0, t->cols[c].name, c + 1 == t->ncols);
	for (size_t r = 0; rc == 0 && r < t->nrows; r++)
		for (size_t c = 0; rc == 0 && c < t->ncols; c++)
			rc = put_cell(f, &t->cols[c], widths ? widths[c] : 0, table_at(t, r, c),
				      c + 1 == t->ncols);
	table_release(t);
	return rc;
}
