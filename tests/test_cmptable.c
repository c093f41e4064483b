/* test_cmptable.c: the per-round "candidate vs current best" table on
 * hand-computed records, and its Markdown. */
#include "testlib.h"
#include "recbuild.h"
#include "stats/cmptable.h"
#include "report/table.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define K "k::main"

static void test_rows_and_vs_best(void **state)
{
	(void)state;
	struct rb b = { .n = 0 };
	struct records rs;
	struct stats_cmptable t;
	rb_v2(&b, 0, "baseline", K, "w1", "baseline", 100.0, 1, 0.41, 78.0);
	rb_v2(&b, 0, "baseline", K, "w2", "baseline", 10.0, 1, NAN, NAN);
	rb_v2(&b, 1, "a", K, "w1", "candidate", 90.0, 1, NAN, NAN);
	rb_v2(&b, 2, "b", K, "w2", "candidate", 10.5, 1, 0.5, NAN);  /* w2 first in round 2 */
	rb_v2(&b, 2, "b", K, "w1", "candidate", 72.0, 1, 0.675, 123.45);
	rb_v2(&b, 2, "c", K, "w1", "candidate", 50.0, 0, NAN, NAN);  /* L0 failure */
	rb_v2(&b, 2, "c", K, "w3", "candidate", 5.0, 1, NAN, NAN);   /* new workload */
	rb_load(&b, &rs);
	assert_int_equal(stats_cmptable_build(&rs, 2, NULL, &t), 0);
	assert_int_equal(t.nround, 4);
	assert_int_equal(t.nmissing_best, 1);
	assert_int_equal(t.nrows, 6);
	/* w2: incumbent (baseline 10) then b */
	assert_true(t.rows[0].current_best);
	assert_string_equal(t.rows[0].rec->candidate_id, "baseline");
	assert_string_equal(t.ks.v[t.rows[0].key].workload, "w2");
	assert_close(t.rows[1].vs_best, 0.05, 1e-12);
	/* w1: incumbent is a (90, round 1), then b (-20%), then c (invalid) */
	assert_true(t.rows[2].current_best);
	assert_string_equal(t.rows[2].rec->candidate_id, "a");
	assert_close(t.rows[3].vs_best, -0.2, 1e-12);
	assert_true(isnan(t.rows[4].vs_best));
	/* w3: no incumbent row */
	assert_false(t.rows[5].current_best);
	assert_true(isnan(t.rows[5].vs_best));

	char *md = report_cmptable_markdown(&t);
	assert_non_null(md);
	const char *want =
		"**候选 vs current best 对比表（round 2）**\n"
		"\n"
		"| candidate | dispatch | workload | Task Duration(us) | vs best | AICore util | memory | L0 |\n"
		"|---|---|---|---:|---:|---:|---:|---|\n"
		"| baseline (current best) | k::main | w2 | 10.000 | — | — | — | pass |\n"
		"| b | k::main | w2 | 10.500 | +5.0% | 50.0% | — | pass |\n"
		"| a (current best) | k::main | w1 | 90.000 | — | — | — | pass |\n"
		"| b | k::main | w1 | 72.000 | -20.0% | 67.5% | 123.5 GB/s | pass |\n"
		"| c | k::main | w1 | 50.000 | — | — | — | fail |\n"
		"| c | k::main | w3 | 5.000 | — | — | — | pass |\n";
	assert_string_equal(md, want);
	free(md);
	stats_cmptable_release(&t);

	/* --incumbent baseline: the adopted version, not the per-key best */
	assert_int_equal(stats_cmptable_build(&rs, 2, "baseline", &t), 0);
	assert_string_equal(t.rows[2].rec->candidate_id, "baseline");
	assert_close(t.rows[3].vs_best, -0.28, 1e-12);
	stats_cmptable_release(&t);
	records_release(&rs);
}

static void test_escaping_and_errors(void **state)
{
	(void)state;
	struct rb b = { .n = 0 };
	struct records rs;
	struct stats_cmptable t;
	rb_v1(&b, 0, "baseline", "k|x", "w\\\\1", 100.0, 1);
	rb_v1(&b, 1, "v|2", "k|x", "w\\\\1", 99.0, 1);
	rb_load(&b, &rs);
	assert_int_equal(stats_cmptable_build(&rs, 1, NULL, &t), 0);
	char *md = report_cmptable_markdown(&t);
	assert_non_null(md);
	assert_non_null(strstr(md, "| v\\|2 | k\\|x | w\\\\1 | 99.000 | -1.0% |"));
	free(md);
	stats_cmptable_release(&t);
	errno = 0;
	assert_int_equal(stats_cmptable_build(&rs, 2, NULL, &t), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(stats_cmptable_build(&rs, 0, NULL, &t), -1);
	assert_int_equal(errno, EINVAL);
	stats_cmptable_release(&t);
	records_release(&rs);
}

/* The table model and its one Markdown renderer: column names are copied
 * (a name built in a buffer that is then overwritten stays as it was), an
 * empty cell or header is "| |", and the escaping strength is the table's. */
static void test_table_model(void **state)
{
	(void)state;
	char name[16];
	snprintf(name, sizeof(name), "%s", "a|b (us)");
	const struct table_col cols[] = { { name, TABLE_LEFT }, { "", TABLE_RIGHT }, { "x_y", TABLE_LEFT } };
	struct table t;
	table_init(&t, NULL, cols, 3);
	memset(name, 'Z', sizeof(name) - 1);
	table_cell(&t, "%s", "id_1 <b>");
	table_cell(&t, "%s", "");
	table_cell(&t, "%d", 7);
	char *md = report_table_markdown(&t);
	assert_non_null(md);
	assert_string_equal(md, "| a\\|b (us) | | x_y |\n|---|---:|---|\n| id_1 <b> | | 7 |\n");
	free(md);
	t.md = MD_CELL_STRICT;
	md = report_table_markdown(&t);
	assert_non_null(md);
	assert_string_equal(md, "| a\\|b (us) | | x_y |\n|---|---:|---|\n| id\\_1 &lt;b&gt; | | 7 |\n");
	free(md);
	/* a partial row is not rendered; rendering and releasing in one call */
	table_cell(&t, "%s", "half");
	assert_int_equal(t.nrows, 2 - 1);
	assert_int_equal(report_table_put_markdown(stdout, &t), 0);
	assert_null(t.cols);
}

/* The plain-text and CSV renderers: padding as printf pads (never cut),
 * control characters shown, CSV quoted where needed and ended by CRLF. */
static void test_table_text_csv(void **state)
{
	(void)state;
	const struct table_col cols[] = { { "id", TABLE_LEFT }, { "us", TABLE_RIGHT } };
	const int widths[] = { 4, 6 };
	struct table t;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	table_init(&t, NULL, cols, 2);
	table_cell(&t, "%s", "a");
	table_cell(&t, "%.1f", 1.5);
	table_cell(&t, "%s", "long\033x");
	table_cell(&t, "%s", "12345678");
	assert_int_equal(report_table_put_text(f, &t, widths), 0);
	table_init(&t, NULL, cols, 2);
	table_cell(&t, "%s", "a,\"b\"");
	table_cell(&t, "%s", "");
	assert_int_equal(report_table_put_csv(f, &t), 0);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(buf, "id       us\n"
				 "a       1.5\n"
				 "long\\x1bx 12345678\n"
				 "id,us\r\n"
				 "\"a,\"\"b\"\"\",\r\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_and_vs_best),
		cmocka_unit_test(test_escaping_and_errors),
		cmocka_unit_test(test_table_model),
		cmocka_unit_test(test_table_text_csv),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
