/* test_msprof.c: the three msprof op layouts, op_summary files, the CSV
 * quirks (trailing commas, NA/N/A/empty, CRLF, BOM, quotes, TABs) and the
 * ten real sample CSVs of ../shared when present. */
#include "testlib.h"
#include <sys/stat.h>

#include "io/csvtab.h"
#include "io/msprof.h"

static char path_buf[4096];

static const char *td(const char *rel)
{
	snprintf(path_buf, sizeof(path_buf), "%s/msprof/%s", testlib_testdata(), rel);
	return path_buf;
}

static void test_kernel_match(void **state)
{
	(void)state;
	assert_true(msprof_kernel_match("main", "main_kernel_mix_aic"));
	assert_false(msprof_kernel_match("kernel", "main_kernel_mix_aic")); /* prefix, not substring */
	assert_true(msprof_kernel_match("add|abs", "abs_custom"));
	assert_true(msprof_kernel_match("add|abs", "add_custom"));
	assert_false(msprof_kernel_match("add|abs", "mul_custom"));
	assert_true(msprof_kernel_match("*mix_aic", "main_kernel_mix_aic"));
	assert_true(msprof_kernel_match("main*aic", "main_kernel_mix_aic"));
	assert_false(msprof_kernel_match("main*aiv", "main_kernel_mix_aic"));
	assert_true(msprof_kernel_match("main_kernel*", "main_kernel"));
	assert_true(msprof_kernel_match(NULL, "x"));
	assert_true(msprof_kernel_match("", "x"));
	assert_false(msprof_kernel_match("a||b", "zzz"));
	assert_false(msprof_kernel_match("main", NULL));
}

static void test_csvtab_quirks(void **state)
{
	(void)state;
	char dir[] = "/tmp/tlperf-csvtab.XXXXXX";
	assert_non_null(mkdtemp(dir));
	char p[256];
	snprintf(p, sizeof(p), "%s/t.csv", dir);
	FILE *f = fopen(p, "wb");
	assert_non_null(f);
	/* BOM, CRLF, trailing commas, a quoted field with commas and doubled
	 * quotes, a TAB after a number, a short row, a blank line */
	fputs("\xEF\xBB\xBF" "Name,Shape,Start(us),Dur(us),\r\n"
	      "a,\"\"\"1,2;3\"\"\",100.5\t,NA,\r\n"
	      "\r\n"
	      "b,x,200,\r\n", f);
	fclose(f);
	struct csvtab t;
	char err[512];
	assert_int_equal(csvtab_read(p, &t, err, sizeof(err)), 0);
	assert_int_equal(t.ncols, 4);
	assert_string_equal(t.cols[0], "Name");
	assert_int_equal(csvtab_col(&t, "Dur(us)"), 3);
	assert_int_equal(csvtab_col(&t, "Nope"), -1);
	assert_int_equal(t.nrows, 2);
	assert_string_equal(csvtab_cell(&t, 0, 1), "\"1,2;3\"");
	double v = 0;
	assert_int_equal(csvtab_number(csvtab_cell(&t, 0, 2), &v), 1);
	assert_close(v, 100.5, 0);
	assert_int_equal(csvtab_number(csvtab_cell(&t, 0, 3), &v), 0);
	assert_string_equal(csvtab_cell(&t, 1, 3), ""); /* short row */
	assert_int_equal(t.lines[1], 4);
	assert_string_equal(csvtab_cell(&t, 9, 0), "");
	csvtab_release(&t);

	assert_int_equal(csvtab_number("N/A", &v), 0);
	assert_int_equal(csvtab_number("", &v), 0);
	assert_int_equal(csvtab_number(" 7 ", &v), 1);
	assert_int_equal(csvtab_number("inf", &v), -1);
	assert_int_equal(csvtab_number("12us", &v), -1);

	/* more values than header columns: a line that does not line up */
	f = fopen(p, "wb");
	assert_non_null(f);
	fputs("a,b\n1,2\n3,4,5\n", f);
	fclose(f);
	assert_int_equal(csvtab_read(p, &t, err, sizeof(err)), -1);
	assert_non_null(strstr(err, ":3: more fields"));
	/* empty file */
	f = fopen(p, "wb");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(csvtab_read(p, &t, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "empty"));
	remove(p);
	rmdir(dir);
}

static void read_ok(const char *rel, const char *pat, struct msprof_capture *c)
{
	char err[1024] = "";
	msprof_capture_init(c);
	int rc = msprof_read(td(rel), pat, c, err, sizeof(err));
	if (rc != MSPROF_OK)
		print_error("%s: %s\n", rel, err);
	assert_int_equal(rc, MSPROF_OK);
}

static void test_flat(void **state)
{
	(void)state;
	struct msprof_capture c;
	read_ok("flat", NULL, &c);
	assert_int_equal(c.layout, MSPROF_LAYOUT_FLAT);
	/* the decoy OpBasicInfo.csv inside dump/ is not read */
	assert_int_equal(c.n, 1);
	const struct msprof_launch *l = &c.v[0];
	assert_close(l->duration_us, 8.412, 1e-9);
	assert_string_equal(l->kernel, "main_kernel_mix_aic");
	assert_string_equal(l->op_type, "mix");
	assert_close(l->block_dim, 2, 0);
	/* PipeUtilization: cube rows aic_time 2, 3; vector rows aiv_time 4..7 */
	assert_close(l->aic_time_us, 2.5, 1e-9);
	assert_close(l->aiv_time_us, 5.5, 1e-9);
	/* Memory: per-row read bw 1, 10, 12, 3, 14, 16; write 0.5, 5 x4, 0.5 */
	assert_close(l->main_mem_read_bw_gbs, 56.0 / 6.0, 1e-9);
	assert_close(l->main_mem_write_bw_gbs, 3.5, 1e-9);
	int found = 0;
	for (size_t i = 0; i < l->nratios; i++) {
		if (strcmp(l->ratios[i].name, "aic_cube_ratio") == 0) {
			assert_close(l->ratios[i].mean, 0.6, 1e-9);
			assert_int_equal(l->ratios[i].rows, 2);
			found++;
		}
		if (strcmp(l->ratios[i].name, "aiv_vec_ratio") == 0) {
			assert_close(l->ratios[i].mean, 0.5, 1e-9);
			assert_int_equal(l->ratios[i].rows, 4);
			found++;
		}
	}
	assert_int_equal(found, 2);
	struct msprof_summary s;
	assert_int_equal(msprof_summarize(&c, &s), 0);
	assert_int_equal(s.launches, 1);
	assert_close(s.max_ratio, 0.6, 1e-9);
	assert_string_equal(s.max_ratio_name, "aic_cube_ratio");
	msprof_capture_release(&c);

	/* the OPPROF directory itself works as well as its parent */
	read_ok("flat/OPPROF_20260101120000_FLATQWERTYUIOPAS", NULL, &c);
	assert_int_equal(c.n, 1);
	msprof_capture_release(&c);
}

static void test_per_launch_numeric_order(void **state)
{
	(void)state;
	struct msprof_capture c;
	read_ok("per-launch", "main", &c);
	assert_int_equal(c.layout, MSPROF_LAYOUT_PER_LAUNCH);
	assert_int_equal(c.n, 12);
	/* launch n took 8.40 + 0.01 n: "10" and "11" come after "9" */
	for (size_t i = 0; i < c.n; i++) {
		assert_int_equal(c.v[i].index, (long)i);
		assert_close(c.v[i].duration_us, 8.40 + 0.01 * (double)i, 1e-9);
		assert_close(c.v[i].aic_time_us, 2.5, 1e-9);
	}
	struct msprof_summary s;
	assert_int_equal(msprof_summarize(&c, &s), 0);
	assert_close(s.median_us, 8.455, 1e-9);
	assert_close(s.min_us, 8.40, 1e-9);
	assert_close(s.max_us, 8.51, 1e-9);
	/* |x - 8.455| = .005 .015 ... .055 (twice each): median 0.03 */
	assert_close(s.mad_us, 0.03, 1e-9);
	size_t n = 0;
	double *d = msprof_durations(&c, &n);
	assert_int_equal(n, 12);
	assert_close(d[10], 8.50, 1e-9);
	free(d);
	msprof_capture_release(&c);
}

static void test_per_device_and_filter(void **state)
{
	(void)state;
	struct msprof_capture c;
	read_ok("per-device", "topk", &c);
	assert_int_equal(c.layout, MSPROF_LAYOUT_PER_DEVICE);
	assert_int_equal(c.n, 6);
	assert_int_equal(c.n_filtered, 2);
	assert_int_equal(c.v[0].device, 0);
	assert_int_equal(c.v[3].device, 1);
	assert_close(c.v[3].duration_us, 24.1, 1e-9);
	assert_true(isnan(c.v[0].aic_time_us));
	msprof_capture_release(&c);

	read_ok("per-device", "add|abs", &c);
	assert_int_equal(c.n, 2);
	assert_string_equal(c.v[1].kernel, "add_custom");
	msprof_capture_release(&c);

	read_ok("per-device", NULL, &c);
	assert_int_equal(c.n, 8);
	msprof_capture_release(&c);

	char err[1024];
	msprof_capture_init(&c);
	assert_int_equal(msprof_read(td("per-device"), "mul", &c, err, sizeof(err)), MSPROF_NODATA);
	assert_non_null(strstr(err, "kernel name 'mul'"));
	assert_non_null(strstr(err, "per-device"));
	msprof_capture_release(&c);
}

static void test_op_summary(void **state)
{
	(void)state;
	struct msprof_capture c;
	read_ok("op_summary", "main_kernel", &c);
	assert_int_equal(c.layout, MSPROF_LAYOUT_OP_SUMMARY);
	assert_int_equal(c.n, 4);
	assert_int_equal(c.n_filtered, 2);
	assert_close(c.v[0].duration_us, 86.512, 1e-9);
	assert_close(c.v[3].duration_us, 86.912, 1e-9);
	assert_int_equal(c.v[3].index, 3);
	/* Block Num (the 9.x name of Block Dim) */
	assert_close(c.v[0].block_dim, 24, 0);
	assert_close(c.v[0].aic_time_us, 8.71, 1e-9);
	msprof_capture_release(&c);

	/* quoted shapes with commas do not shift the Cast rows' columns */
	read_ok("op_summary", "Cast", &c);
	assert_int_equal(c.n, 2);
	assert_close(c.v[0].duration_us, 3.120, 1e-9);
	assert_close(c.v[1].duration_us, 3.118, 1e-9);
	assert_int_equal(c.v[1].line, 6);
	msprof_capture_release(&c);

	/* per-device summary/ files: CRLF, QUOTE_MINIMAL, Block Dim */
	read_ok("op_summary-device", "relu", &c);
	assert_int_equal(c.n, 3);
	assert_close(c.v[1].duration_us, 41.375, 1e-9);
	assert_close(c.v[1].block_dim, 16, 0);
	msprof_capture_release(&c);
}

static void test_variants(void **state)
{
	(void)state;
	struct msprof_capture c;
	read_ok("variants/crlf-bom", NULL, &c);
	assert_int_equal(c.n, 1);
	assert_close(c.v[0].duration_us, 12.5, 0);
	assert_string_equal(c.v[0].op_name, "main_kernel_mix_aic");
	msprof_capture_release(&c);

	/* NA, N/A and empty durations are missing, not errors */
	read_ok("variants/missing", NULL, &c);
	assert_int_equal(c.n, 4);
	assert_int_equal(c.n_missing, 3);
	size_t n = 0;
	double *d = msprof_durations(&c, &n);
	assert_int_equal(n, 1);
	assert_close(d[0], 7.5, 0);
	free(d);
	msprof_capture_release(&c);

	read_ok("variants/p310", NULL, &c);
	assert_close(c.v[0].duration_us, 15.25, 0);
	assert_string_equal(c.v[0].op_type, "AiCore");
	msprof_capture_release(&c);
}

static void expect_rc(const char *rel, int want, const char *in_err)
{
	struct msprof_capture c;
	char err[1024] = "";
	msprof_capture_init(&c);
	int rc = msprof_read(td(rel), NULL, &c, err, sizeof(err));
	if (rc != want || !strstr(err, in_err))
		print_error("%s: rc %d, err '%s'\n", rel, rc, err);
	assert_int_equal(rc, want);
	assert_non_null(strstr(err, in_err));
	msprof_capture_release(&c);
}

static void test_errors(void **state)
{
	(void)state;
	expect_rc("variants/all-na", MSPROF_NODATA, "no Task Duration(us)");
	expect_rc("empty", MSPROF_NODATA, "looked for OPPROF_");
	expect_rc("bad/no-duration", MSPROF_EFORMAT, "OpBasicInfo.csv:1: no 'Task Duration(us)'");
	expect_rc("bad/header-only", MSPROF_EFORMAT, "no launch row");
	expect_rc("bad/garbage", MSPROF_EFORMAT, "OpBasicInfo.csv:2: Task Duration(us) is not a number: 'fast'");
	expect_rc("no/such/dir", MSPROF_EIO, "No such file");
}

static int count_rows(void *ctx, const struct csvtab *h, char *const *f, long line)
{
	long *n = ctx;
	(void)h;
	(void)line;
	if (strcmp(f[0], "stop") == 0)
		return 7;
	(*n)++;
	return 0;
}

/* A big op_summary is streamed: indices per (op, device) stay right and a
 * callback can stop the read. */
static void test_op_summary_streamed(void **state)
{
	(void)state;
	char dir[] = "/tmp/tlperf-opsum.XXXXXX";
	assert_non_null(mkdtemp(dir));
	char p[256];
	snprintf(p, sizeof(p), "%s/op_summary_20260101000000.csv", dir);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs("Device_id,Task ID,Op Name,Task Start Time(us),Task Duration(us)\n", f);
	const char *ops[] = { "main_kernel", "Cast", "Add" };
	for (int i = 0; i < 30000; i++)
		fprintf(f, "%d,%d,%s,%d.000\t,%d.5\n", i % 2, i, ops[i % 3], 1000 + i, 10 + i % 7);
	fclose(f);

	struct msprof_capture c;
	char err[1024];
	msprof_capture_init(&c);
	assert_int_equal(msprof_read_file(p, "main", &c, err, sizeof(err)), MSPROF_OK);
	/* main_kernel is every third row: 10000 launches, 5000 per device */
	assert_int_equal(c.n, 10000);
	assert_int_equal(c.n_filtered, 20000);
	assert_int_equal(c.v[9999].index, 4999);
	assert_int_equal(c.v[9998].device, 0);
	assert_int_equal(c.v[9998].index, 4999);
	assert_int_equal(c.v[9999].line, 29999);
	msprof_capture_release(&c);

	struct csvtab h;
	long n = 0;
	assert_int_equal(csvtab_stream(p, &h, count_rows, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 30000);
	assert_int_equal(h.ncols, 5);
	assert_int_equal(h.nrows, 0);
	csvtab_release(&h);
	f = fopen(p, "a");
	assert_non_null(f);
	fputs("stop,x,y,z,w\n", f);
	fclose(f);
	n = 0;
	assert_int_equal(csvtab_stream(p, &h, count_rows, &n, err, sizeof(err)), 7);
	assert_int_equal(n, 30000);
	remove(p);
	rmdir(dir);
}

/* The ten real CSVs of ../shared/msprof-samples, read by header. */
static void test_shared_samples(void **state)
{
	(void)state;
	const char *sh = testlib_shared();
	if (!sh) {
		skip();
		return;
	}
	static const struct {
		const char *file;
		int rc;          /* expected msprof_read_file result */
		size_t n;        /* launches */
		double first;    /* first duration, or aic/aiv time for metric files */
	} cases[] = {
		{ "01_OpBasicInfo_mix_cann83RC2.csv", MSPROF_OK, 1, 86824.726562 },
		{ "02_OpBasicInfo_vector_cann83RC2.csv", MSPROF_OK, 1, 9.22 },
		/* metric files: mean aic_time over the cube rows (NAN: vector op) */
		{ "03_PipeUtilization_mix_cann852.csv", MSPROF_NODATA, 1, (2.693889 + 2.903889) / 2 },
		{ "04_PipeUtilization_vector_cann83RC2.csv", MSPROF_NODATA, 1, NAN },
		{ "05_Memory_mix_cann852.csv", MSPROF_NODATA, 1, (2.693889 + 2.903889) / 2 },
		{ "06_L2Cache_mix_cann852.csv", MSPROF_NODATA, 1, (2.693889 + 2.903889) / 2 },
		{ "07_ResourceConflictRatio_mix_cann852.csv", MSPROF_NODATA, 1, (2.693889 + 2.903889) / 2 },
		{ "08_ArithmeticUtilization_mix_cann852.csv", MSPROF_NODATA, 1, (2.693889 + 2.903889) / 2 },
		{ "09_MemoryUB_vector_cann83RC2.csv", MSPROF_NODATA, 1, NAN },
		{ "10_op_summary_20260605161737_cann83RC2.csv", MSPROF_OK, 3, 87139.380 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char p[8192], err[1024] = "";
		snprintf(p, sizeof(p), "%s/msprof-samples/%s", sh, cases[i].file);
		struct msprof_capture c;
		msprof_capture_init(&c);
		int rc = msprof_read_file(p, NULL, &c, err, sizeof(err));
		if (rc != cases[i].rc)
			print_error("%s: rc %d (%s)\n", cases[i].file, rc, err);
		assert_int_equal(rc, cases[i].rc);
		assert_int_equal(c.n, cases[i].n);
		if (rc == MSPROF_OK)
			assert_close(c.v[0].duration_us, cases[i].first, 1e-6);
		else
			assert_close(c.v[0].aic_time_us, cases[i].first, 1e-6);
		msprof_capture_release(&c);
	}
	/* vector-op files: aiv_time over the vector rows */
	char p[8192], err[1024];
	struct msprof_capture c;
	snprintf(p, sizeof(p), "%s/msprof-samples/04_PipeUtilization_vector_cann83RC2.csv", sh);
	msprof_capture_init(&c);
	msprof_read_file(p, NULL, &c, err, sizeof(err));
	assert_close(c.v[0].aiv_time_us, (7.899445 + 8.438889 + 8.661667) / 3, 1e-6);
	msprof_capture_release(&c);
	/* Memory: main-memory read bw per row 0.272108 (cube) / 13.527663 (vector) */
	snprintf(p, sizeof(p), "%s/msprof-samples/05_Memory_mix_cann852.csv", sh);
	msprof_capture_init(&c);
	msprof_read_file(p, NULL, &c, err, sizeof(err));
	assert_close(c.v[0].main_mem_read_bw_gbs, (2 * 0.272108 + 4 * 13.527663) / 6, 1e-6);
	msprof_capture_release(&c);
	/* op_summary: the TAB after the start time, filtered by kernel name */
	snprintf(p, sizeof(p), "%s/msprof-samples/10_op_summary_20260605161737_cann83RC2.csv", sh);
	msprof_capture_init(&c);
	assert_int_equal(msprof_read_file(p, "main", &c, err, sizeof(err)), MSPROF_OK);
	assert_int_equal(c.n, 3);
	assert_close(c.v[2].duration_us, 86846.720, 1e-6);
	assert_close(c.v[1].block_dim, 256, 0);
	msprof_capture_release(&c);
	msprof_capture_init(&c);
	assert_int_equal(msprof_read_file(p, "other", &c, err, sizeof(err)), MSPROF_NODATA);
	msprof_capture_release(&c);
}

/* ---- strictness: every oddity a clear error naming file and line ---- */

#define BASIC_HEADER "Op Name,Op Type,Task Duration(us),Block Dim,Mix Block Dim,Device Id,Pid,Current Freq,Rated Freq,\n"

/* A fresh OPPROF_x (flat layout) under a new temp directory whose
 * OpBasicInfo.csv holds text[0..len) (binary-safe). Returns the temp dir. */
static char *flat_capture(const char *text, size_t len)
{
	static char dir[64];
	snprintf(dir, sizeof(dir), "/tmp/tlperf-strict.XXXXXX");
	assert_non_null(mkdtemp(dir));
	char p[256];
	snprintf(p, sizeof(p), "%s/OPPROF_20260101000000_ABCDEFGHIJKLMNOP", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/OPPROF_20260101000000_ABCDEFGHIJKLMNOP/OpBasicInfo.csv", dir);
	FILE *f = fopen(p, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
	return dir;
}

static void rm_tree(const char *dir)
{
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* Reads dir; wants rc and every one of the message parts. */
static void expect_read(const char *dir, int want, const char *part1, const char *part2)
{
	struct msprof_capture c;
	char err[2048] = "";
	msprof_capture_init(&c);
	int rc = msprof_read(dir, NULL, &c, err, sizeof(err));
	if (rc != want || !strstr(err, part1) || (part2 && !strstr(err, part2)))
		print_error("%s: rc %d, err '%s'\n", dir, rc, err);
	assert_int_equal(rc, want);
	assert_non_null(strstr(err, part1));
	if (part2)
		assert_non_null(strstr(err, part2));
	msprof_capture_release(&c);
}

static void test_decimal_only(void **state)
{
	(void)state;
	static const char *const bad[] = { "0x1p3", "0x10", "inf", "nan", "NaN", "-inf", "1e999",
					   "8.4.1", "+", ".", "1e", "0x", NULL };
	for (size_t i = 0; bad[i]; i++) {
		char text[400];
		int n = snprintf(text, sizeof(text), BASIC_HEADER "main_kernel,mix,%s,2,4,0,1,1800,1800,\n",
				 bad[i]);
		char *dir = flat_capture(text, (size_t)n);
		expect_read(dir, MSPROF_EFORMAT, "OpBasicInfo.csv:2: Task Duration(us) is not a number", bad[i]);
		rm_tree(dir);
	}
	double v;
	assert_int_equal(csvtab_number("0x1p3", &v), -1);
	assert_int_equal(csvtab_number("nan", &v), -1);
	assert_int_equal(csvtab_number("86824.726562", &v), 1);
	assert_close(v, 86824.726562, 0);
	assert_int_equal(csvtab_number("1.5e2", &v), 1);
	assert_close(v, 150, 0);
	assert_int_equal(csvtab_number(".5", &v), 1);
	assert_int_equal(csvtab_number("7.", &v), 1);
}

static void test_nul_negative_zero_dup_quote(void **state)
{
	(void)state;
	/* "8.4\0999": a NUL inside the cell would read as 8.4 */
	static const char nul[] = BASIC_HEADER "main_kernel,mix,8.4\0" "999,2,4,0,1,1800,1800,\n";
	char *dir = flat_capture(nul, sizeof(nul) - 1);
	expect_read(dir, MSPROF_EFORMAT, "OpBasicInfo.csv:2: a NUL byte inside a field", NULL);
	rm_tree(dir);
	/* -0 is no duration */
	static const char negz[] = BASIC_HEADER "main_kernel,mix,-0,2,4,0,1,1800,1800,\n";
	dir = flat_capture(negz, sizeof(negz) - 1);
	expect_read(dir, MSPROF_EFORMAT, "OpBasicInfo.csv:2: Task Duration(us) is negative: '-0'", NULL);
	rm_tree(dir);
	static const char negz2[] = BASIC_HEADER "main_kernel,mix,-0.000000,2,4,0,1,1800,1800,\n";
	dir = flat_capture(negz2, sizeof(negz2) - 1);
	expect_read(dir, MSPROF_EFORMAT, "is negative", NULL);
	rm_tree(dir);
	/* two Task Duration(us) columns: which one is meant cannot be told */
	static const char dup[] = "Op Name,Task Duration(us),Block Dim,Task Duration(us),\n"
				  "main_kernel,8.5,2,9.5,\n";
	dir = flat_capture(dup, sizeof(dup) - 1);
	expect_read(dir, MSPROF_EFORMAT,
		    "OpBasicInfo.csv:1: column 'Task Duration(us)' appears twice in the header "
		    "(fields 2 and 4)", NULL);
	rm_tree(dir);
	/* an unterminated quote is said as such, with the line its row starts on */
	static const char quote[] = BASIC_HEADER "main_kernel,mix,8.5,2,4,0,1,1800,1800,\n"
				    "\"main_kernel,mix,8.6,2,4,0,1,1800,1800,\n"
				    "main_kernel,mix,8.7,2,4,0,1,1800,1800,\n";
	dir = flat_capture(quote, sizeof(quote) - 1);
	expect_read(dir, MSPROF_EFORMAT, "OpBasicInfo.csv:3: unterminated quote", "never closes");
	rm_tree(dir);
}

/* Two OPPROF_x in one directory are both read and both named in roots:
 * tlab refuses such a run (two captures are two runs). */
static void test_two_roots_named(void **state)
{
	(void)state;
	static const char one[] = BASIC_HEADER "main_kernel,mix,8.5,2,4,0,1,1800,1800,\n";
	char *dir = flat_capture(one, sizeof(one) - 1);
	char p[256], q[600];
	snprintf(p, sizeof(p), "%s/OPPROF_20260101000000_ABCDEFGHIJKLMNOP", dir);
	snprintf(q, sizeof(q), "cp -r '%s' '%s/OPPROF_20260101000001_QRSTUVWXYZABCDEF'", p, dir);
	assert_int_equal(system(q), 0);
	struct msprof_capture c;
	char err[512];
	msprof_capture_init(&c);
	assert_int_equal(msprof_read(dir, NULL, &c, err, sizeof(err)), MSPROF_OK);
	assert_int_equal(c.nroots, 2);
	assert_int_equal(c.n, 2);
	assert_non_null(strstr(c.roots[0], "OPPROF_20260101000000_"));
	assert_non_null(strstr(c.roots[1], "OPPROF_20260101000001_"));
	msprof_capture_release(&c);
	rm_tree(dir);
}

/* More than 65,536 launches (the old allocation stopped there with "Cannot
 * allocate memory"; up to 100,000 are read). */
static void test_many_launches(void **state)
{
	(void)state;
	enum { N = 65540 };
	/* 65,540 small files: on tmpfs when there is one (fast), else /tmp */
	char dir[64];
	snprintf(dir, sizeof(dir), "%s/tlperf-many.XXXXXX",
		 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
	assert_non_null(mkdtemp(dir));
	char p[512];
	snprintf(p, sizeof(p), "%s/OPPROF_20260101000000_ABCDEFGHIJKLMNOP", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/OPPROF_20260101000000_ABCDEFGHIJKLMNOP/main_kernel", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	for (int i = 0; i < N; i++) {
		snprintf(p, sizeof(p), "%s/OPPROF_20260101000000_ABCDEFGHIJKLMNOP/main_kernel/%d", dir, i);
		assert_int_equal(mkdir(p, 0755), 0);
		snprintf(p + strlen(p), sizeof(p) - strlen(p), "/OpBasicInfo_20260101000000%03d.csv",
			 i % 1000);
		FILE *f = fopen(p, "w");
		assert_non_null(f);
		fprintf(f, BASIC_HEADER "main_kernel,mix,%d.%06d,2,4,0,1,1800,1800,\n", 8 + i % 3,
			i % 1000);
		fclose(f);
	}
	struct msprof_capture c;
	char err[512] = "";
	msprof_capture_init(&c);
	int rc = msprof_read(dir, NULL, &c, err, sizeof(err));
	if (rc != MSPROF_OK)
		print_error("%s\n", err);
	assert_int_equal(rc, MSPROF_OK);
	assert_int_equal(c.n, N);
	assert_int_equal(c.layout, MSPROF_LAYOUT_PER_LAUNCH);
	assert_int_equal(c.v[N - 1].index, N - 1); /* numeric order */
	msprof_capture_release(&c);
	rm_tree(dir);
}

/* The layout names, one per value (what `tlperf msprof` prints and its
 * JSON carries); anything else reads "none". */
static void test_layout_names(void **state)
{
	(void)state;
	assert_string_equal(msprof_layout_name(MSPROF_LAYOUT_NONE), "none");
	assert_string_equal(msprof_layout_name(MSPROF_LAYOUT_FLAT), "flat");
	assert_string_equal(msprof_layout_name(MSPROF_LAYOUT_PER_LAUNCH), "per-launch");
	assert_string_equal(msprof_layout_name(MSPROF_LAYOUT_PER_DEVICE), "per-device");
	assert_string_equal(msprof_layout_name(MSPROF_LAYOUT_OP_SUMMARY), "op-summary");
	assert_string_equal(msprof_layout_name(MSPROF_LAYOUT_MIXED), "mixed");
	assert_string_equal(msprof_layout_name((enum msprof_layout)(MSPROF_LAYOUT_MIXED + 1)), "none");
	assert_string_equal(msprof_layout_name((enum msprof_layout)-1), "none");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_match),
		cmocka_unit_test(test_csvtab_quirks),
		cmocka_unit_test(test_flat),
		cmocka_unit_test(test_per_launch_numeric_order),
		cmocka_unit_test(test_per_device_and_filter),
		cmocka_unit_test(test_op_summary),
		cmocka_unit_test(test_variants),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_op_summary_streamed),
		cmocka_unit_test(test_shared_samples),
		cmocka_unit_test(test_decimal_only),
		cmocka_unit_test(test_nul_negative_zero_dup_quote),
		cmocka_unit_test(test_two_roots_named),
		cmocka_unit_test(test_many_launches),
		cmocka_unit_test(test_layout_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
