/* table_csv.c: a table (model/table.h) as CSV (RFC 4180): the column names,
 * then one record per row, fields escaped by escape_csv_field, records
 * ended by CRLF. The caption is not written. */
#include "report/table.h"
#include "util/escape.h"

#include <stdlib.h>

/* Writes one field and its separator. Returns 0, -1 when out of memory. */
static int put_field(FILE *f, const char *s, int last)
{
	char *e = escape_csv_field(s);
	if (!e)
		return -1;
	fputs(e, f);
	fputs(last ? "\r\n" : ",", f);
	free(e);
	return 0;
}

int report_table_put_csv(FILE *f, struct table *t)
{
	int rc = t->oom ? -1 : 0;
	for (size_t c = 0; rc == 0 && c < t->ncols; c++)
		rc = put_field(f, t->cols[c].name, c + 1 == t->ncols);
	for (size_t r = 0; rc == 0 && r < t->nrows; r++)
		for (size_t c = 0; rc == 0 && c < t->ncols; c++)
			rc = put_field(f, table_at(t, r, c), c + 1 == t->ncols);
	table_release(t);
	return rc;
}
