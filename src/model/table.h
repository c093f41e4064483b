/* table.h: a table as the renderers see it: a caption, columns with an
 * alignment, and rows of cells already formatted as text. The statistics
 * fill their own structs; a view in src/report/ turns one into a table;
 * one renderer per format writes it (report/table.h). The way benchstat
 * keeps its table model apart from its formatters.
 *
 * Cells are plain text: renderers escape them for their format. Markdown
 * emphasis written into a cell ("**geomean**") passes through the
 * Markdown renderer, whose escaping keeps ids readable (escape.h,
 * MD_CELL_PLAIN).
 */
#ifndef TLPERF_MODEL_TABLE_H
#define TLPERF_MODEL_TABLE_H

#include <stddef.h>

#include "util/escape.h"

enum table_align { TABLE_LEFT, TABLE_RIGHT };

struct table_col {
	const char *name;        /* header text */
	enum table_align align;
};

struct table {
	char *caption;            /* malloc'd, NULL for none */
	struct table_col *cols;   /* a copy of the columns (names malloc'd), ncols entries */
	size_t ncols;
	enum md_cell_mode md;     /* how Markdown escapes the cells (not the column names): MD_CELL_PLAIN (ids that
				     tlgate reads back; the default) or MD_CELL_STRICT (text
				     quoted from inputs); util/escape.h */
	char **cells;             /* row-major, nrows * ncols malloc'd strings */
	size_t nrows;             /* complete rows */
	size_t ncells, cap;       /* cells written (the last row may be partial), slots */
	int oom;                  /* an allocation failed: the table is incomplete */
};

/* Starts an empty table over a copy of cols (names included, so a name
 * may be built on the stack). caption may be NULL. Allocation failure
 * sets t->oom. */
void table_init(struct table *t, const char *caption, const struct table_col *cols,
		size_t ncols);
void table_release(struct table *t);

/* Appends one cell, printf-style, to the row being filled; a row is
 * complete after ncols cells. Allocation failure sets t->oom. */
void table_cell(struct table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The cell at (row, col), "" beyond what was written. */
const char *table_at(const struct table *t, size_t row, size_t col);

#endif
