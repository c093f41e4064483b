/* table_markdown.c: a table (model/table.h) as GitHub-flavoured Markdown. */
#include "report/table.h"
#include "util/strbuf.h"

char *report_table_markdown(const struct table *t)
{
	struct stats_sb b = { 0 };
	if (t->oom)
		return NULL;
	if (t->caption)
		stats_sb_printf(&b, "**%s**\n\n", t->caption);
	stats_sb_str(&b, "|");
	for (size_t c = 0; c < t->ncols; c++) {
		stats_sb_str(&b, " ");
		stats_sb_md_cell(&b, t->cols[c].name);
		stats_sb_str(&b, " |");
	}
	stats_sb_str(&b, "\n|");
	for (size_t c = 0; c < t->ncols; c++)
		stats_sb_str(&b, t->cols[c].align == TABLE_RIGHT ? "---:|" : "---|");
	stats_sb_str(&b, "\n");
	for (size_t r = 0; r < t->nrows; r++) {
		stats_sb_str(&b, "|");
		for (size_t c = 0; c < t->ncols; c++) {
			const char *cell = table_at(t, r, c);
			stats_sb_str(&b, " ");
			stats_sb_md_cell(&b, cell);
			stats_sb_str(&b, *cell ? " |" : "|");
		}
		stats_sb_str(&b, "\n");
	}
	return stats_sb_take(&b);
}
