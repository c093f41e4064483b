/* table.c: see table.h. */
#include "model/table.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void table_init(struct table *t, const char *caption, const struct table_col *cols,
		size_t ncols)
{
	memset(t, 0, sizeof(*t));
	t->cols = calloc(ncols ? ncols : 1, sizeof(*t->cols));
	if (!t->cols) {
		t->oom = 1;
		return;
	}
	t->ncols = ncols;
	for (size_t c = 0; c < ncols; c++) {
		t->cols[c].align = cols[c].align;
		if (!(t->cols[c].name = strdup(cols[c].name ? cols[c].name : "")))
			t->oom = 1;
	}
	if (caption && !(t->caption = strdup(caption)))
		t->oom = 1;
}

void table_release(struct table *t)
{
	for (size_t i = 0; i < t->ncells; i++)
		free(t->cells[i]);
	free(t->cells);
	for (size_t c = 0; t->cols && c < t->ncols; c++)
		free((char *)t->cols[c].name);
	free(t->cols);
	free(t->caption);
	memset(t, 0, sizeof(*t));
}

void table_cell(struct table *t, const char *fmt, ...)
{
	if (t->oom || t->ncols == 0)
		return;
	if (t->ncells == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 4 * t->ncols;
		char **v = realloc(t->cells, cap * sizeof(*v));
		if (!v) {
			t->oom = 1;
			return;
		}
		t->cells = v;
		t->cap = cap;
	}
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (!s) {
		t->oom = 1;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	t->cells[t->ncells++] = s;
	t->nrows = t->ncells / t->ncols;
}

const char *table_at(const struct table *t, size_t row, size_t col)
{
	size_t i = row * t->ncols + col;
	return col < t->ncols && i < t->ncells ? t->cells[i] : "";
}
