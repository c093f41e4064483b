/* test_ptlog.c: the perf_tuning readers: numbers in prose, fields, the
 * tagged protocol log, perf_log.md sections and bench JSON. */
#include "testlib.h"
#include "io/ptjson.h"
#include "io/ptlog.h"
#include "util/prose.h"

static void test_numbers(void **state)
{
	(void)state;
	struct prose_num n[16];
	const char *s = "fp16 (1024,8192): 0.2147 → 0.2153 ms (+0.3%), l1_c12 iter7 #3 1024x8192 3.86x 53.6us -25.5%";
	size_t k = prose_numbers(s, n, 16);
	/* 1024 and 8192 inside "(1024,8192)" stand alone; fp16, l1_c12,
	 * iter7, #3 and 1024x8192 are no numbers */
	assert_int_equal(k, 8);
	assert_close(n[0].v, 1024, 0);
	assert_close(n[2].v, 0.2147, 0);
	assert_int_equal(n[2].unit, PROSE_NOUNIT);
	assert_close(n[3].v, 0.2153, 0);
	assert_int_equal(n[3].unit, PROSE_MS);
	assert_close(n[4].v, 0.3, 0);
	assert_int_equal(n[4].sign, 1);
	assert_int_equal(n[4].unit, PROSE_PCT);
	assert_close(n[5].v, 3.86, 0);
	assert_int_equal(n[5].unit, PROSE_X);
	assert_int_equal(n[6].unit, PROSE_US);
	assert_close(n[7].v, -25.5, 0);
	assert_int_equal(n[7].sign, -1);

	/* a sign glued to a word is a hyphen */
	k = prose_numbers("L0-L1 x-1 avg=0.2408", n, 16);
	assert_int_equal(k, 1);
	assert_close(n[0].v, 0.2408, 0);
	assert_int_equal(n[0].decimal, 1);
}

static void test_fields(void **state)
{
	(void)state;
	size_t len;
	const char *v = prose_field("- 性能 (bench): fp16 0.2147→0.2156 ms", "性能", &len);
	assert_non_null(v);
	assert_int_equal(len, strlen("fp16 0.2147→0.2156 ms"));
	v = prose_field("[RESULT-#2] 优化点: x | 精度: pass | 性能: 12.5 us | 对比: -5%", "精度", &len);
	assert_non_null(v);
	assert_int_equal(len, 4);
	assert_memory_equal(v, "pass", 4);
	v = prose_field("[RESULT-#2] 优化点: x | 精度: pass | 性能: 12.5 us | 对比: -5%", "对比", &len);
	assert_memory_equal(v, "-5%", 3);
	v = prose_field("- **精度**：通过", "精度", &len);
	assert_non_null(v);
	assert_memory_equal(v, "通过", len);
	/* a key must end where the field name ends */
	assert_null(prose_field("- precision_status: pass", "precision", &len));
	assert_null(prose_field("- 精度验证通过", "精度", &len));
	assert_null(prose_field("text mentioning 精度: inside", "精度", &len));
}

static const char LOG[] =
	"# log\n"
	"\n"
	"[#1] [Host cast]（参考: guide §2.12 适用场景）：**适用** — host 侧全量拷贝\n"
	"[#2] [双缓冲]（参考: anti §x）：**部分适用**\n"
	"[#3] [Cube]（参考: cube.md）：**不适用** — 纯 Vector\n"
	"[#4] [Tile]（参考: anti §y）\n"
	"- [anti-A] launch 核数: HIT — 512 > 24\n"
	"- [Vector for-loop]: N/A — 已是整 tile\n"
	"\n"
	"## Part B: [ORDER-PLAN] 实施顺序\n"
	"1. [#1] cast — 前置依赖: 无 — 理由: P0\n"
	"2. [#2] 双缓冲 — 前置: #1, #3 — 理由: x\n"
	"\n"
	"### [#1] 实施\n"
	"[ORDER-CHECK] 准备实施: [#1] cast | 前置依赖: 无 | 结论: ✅\n"
	"[IMPL-#1] 已阅读 guide L1-L9\n"
	"[SELF-CHECK] 本次 Edit 只涉及 [#1]\n"
	"[RESULT-#1a] 优化点: cast | 精度: pass | 性能: 9 us | 对比: -10%\n"
	"[ORDER-CHECK] 准备实施: [#2] 双缓冲 | 前置依赖: [#1 ✅ / #3 ❌] | 结论: ❌\n"
	"[IMPL] 无编号\n"
	"### [RESULT-#2] 双缓冲\n"
	"- 精度: pass\n"
	"- 对比: +1%\n"
	"\n"
	"text\n";

static void test_optlog(void **state)
{
	(void)state;
	struct ptlog log;
	assert_int_equal(ptlog_parse(&log, LOG, strlen(LOG)), 0);
	assert_int_equal(log.nitems, 6);
	assert_int_equal(log.items[0].num, 1);
	assert_int_equal(log.items[0].verdict, PTLOG_V_APPLIES); /* not fooled by 适用场景 */
	assert_true(log.items[0].has_reason);
	assert_int_equal(log.items[1].verdict, PTLOG_V_PARTIAL);
	assert_false(log.items[1].has_reason);
	assert_int_equal(log.items[2].verdict, PTLOG_V_NOT);
	assert_int_equal(log.items[3].verdict, PTLOG_V_NONE);
	assert_true(log.items[4].scan);
	assert_int_equal(log.items[4].verdict, PTLOG_V_APPLIES);
	assert_int_equal(log.items[5].verdict, PTLOG_V_NOT);
	assert_int_equal(log.items[5].line, 8);

	assert_int_equal(log.plan_line, 10);
	assert_int_equal(log.nplan, 2);
	assert_int_equal(log.plan[0].ndeps, 0);
	assert_true(log.plan[0].deps_stated);
	assert_int_equal(log.plan[1].ndeps, 2);
	assert_int_equal(log.plan[1].deps[0], 1);
	assert_int_equal(log.plan[1].deps[1], 3);

	/* ITEMHEAD, OC, IMPL, SC, RESULT-#1a, OC, IMPL (no number: #2), RESULT-#2 */
	assert_int_equal(log.nev, 8);
	assert_int_equal(log.ev[0].tag, PTLOG_ITEMHEAD);
	assert_int_equal(log.ev[1].tag, PTLOG_ORDER_CHECK);
	assert_int_equal(log.ev[1].ok, 1);
	assert_int_equal(log.ev[4].tag, PTLOG_RESULT);
	assert_int_equal(log.ev[4].num, 1);
	assert_int_equal(log.ev[4].sub, 'a');
	assert_int_equal(log.ev[5].num, 2);
	assert_int_equal(log.ev[5].ok, 0);
	assert_int_equal(log.ev[6].tag, PTLOG_IMPL);
	assert_int_equal(log.ev[6].num, 2);
	assert_int_equal(log.ev[7].line, 21);
	assert_int_equal(log.ev[7].end, 25); /* a heading's body runs to the next heading */
	size_t len;
	long line;
	const char *v = ptlog_event_field(&log, &log.ev[7], "对比", &len, &line);
	assert_non_null(v);
	assert_int_equal(line, 23);
	assert_null(ptlog_event_field(&log, &log.ev[7], "性能", &len, &line));
	ptlog_release(&log);
}

static const char PERF[] =
	"\xEF\xBB\xBF# perf\r\n"
	"## Iteration 1 — a (ADOPTED)\r\n"
	"- optimization: first\r\n"
	"- baseline_time: 0.2147 ms (bench) / 71.9 us (msprof)\r\n"
	"- candidate_time: 0.2153 ms (bench) / 53.6 us (msprof)\r\n"
	"- improvement: +0.3% (noise) / -25.5% (msprof)\r\n"
	"- adopted: yes (msprof)\r\n"
	"- rollback_reason: N/A\r\n"
	"\r\n"
	"## [DESIGN_ERROR] — stop here\r\n"
	"\r\n"
	"## Round 2 Direction 3 — two attempts (ROLLED BACK)\r\n"
	"### Attempt A\r\n"
	"- baseline_time (r2): avg_speedup = 0.2429\r\n"
	"- candidate_time: avg_speedup = 0.2263\r\n"
	"- adopted: no\r\n"
	"### Attempt C\r\n"
	"- baseline_time (r2): avg_speedup = 0.2429\r\n"
	"- candidate_time: avg_speedup=0.2431 (run1), 0.2385 (run2); avg=0.2408\r\n"
	"- adopted: no\r\n"
	"### [DB-ANALYSIS]\r\n"
	"- Q1: no\r\n"
	"- rollback_reason: |\r\n"
	"  1. slower than stack\r\n"
	"  2. noise\r\n";

static void test_perflog(void **state)
{
	(void)state;
	struct ptperf p;
	assert_int_equal(ptperf_parse(&p, PERF, sizeof(PERF) - 1), 0);
	assert_int_equal(p.nit, 2);
	assert_string_equal(p.it[0].title, "Iteration 1 — a (ADOPTED)");
	assert_int_equal(p.it[0].line, 2);
	assert_int_equal(p.it[0].end, 9);
	assert_int_equal(p.it[0].nm, 1);
	assert_string_equal(p.it[0].m[0].base.value, "0.2147 ms (bench) / 71.9 us (msprof)");
	assert_int_equal(p.it[0].m[0].impr.line, 6);
	assert_int_equal(p.it[1].stop_before, 10);
	assert_int_equal(p.it[1].nm, 2);
	assert_int_equal(p.it[1].m[1].cand.line, 19);
	assert_int_equal(p.it[1].db_line, 21);
	assert_int_equal(p.ndb, 1);
	assert_non_null(strstr(p.it[1].rollback.value, "1. slower than stack 2. noise"));
	ptperf_release(&p);
}

/* The named steps of ptlog_parse: list markers, a reason on the next
 * line, a repeated [#N], a bold verdict, scan entries after a fullwidth
 * colon; numbers glued to words. */
static const char STEPS[] =
	"1) [#1] a: \xE9\x80\x82\xE7\x94\xA8\n"          /* 适用, reason on the next line */
	"   host copy dominates\n"
	"+ [#2] b: \xE4\xB8\x8D\xE9\x80\x82\xE7\x94\xA8\n" /* 不适用, then a tag line */
	"[#3] c\n"
	"[#1] again: \xE9\x83\xA8\xE5\x88\x86\xE9\x80\x82\xE7\x94\xA8 \xE2\x80\x94 dup\n"
	"12.[#4] no marker\n"
	"- [#5] d **\xE9\x80\x82\xE7\x94\xA8\xE4\xBD\x86\xE4\xBD\x8E**: P2 later\n"
	"- [scan]\xEF\xBC\x9A PARTIAL HIT \xE2\x80\x94 some reason\n";

static void test_steps(void **state)
{
	(void)state;
	struct ptlog log;
	assert_int_equal(ptlog_parse(&log, STEPS, sizeof(STEPS) - 1), 0);
	assert_int_equal(log.nitems, 5);
	assert_int_equal(log.items[0].num, 1);
	assert_int_equal(log.items[0].verdict, PTLOG_V_APPLIES);
	assert_true(log.items[0].has_reason); /* from the next plain line */
	assert_int_equal(log.items[1].num, 2);
	assert_int_equal(log.items[1].verdict, PTLOG_V_NOT);
	assert_false(log.items[1].has_reason); /* the next line is [#3] */
	assert_int_equal(log.items[2].num, 3);
	assert_int_equal(log.items[2].verdict, PTLOG_V_NONE);
	/* the repeated [#1] and "12.[#4]" (no blank after the marker) add none */
	assert_int_equal(log.items[3].num, 5);
	assert_int_equal(log.items[3].line, 7);
	assert_int_equal(log.items[3].verdict, PTLOG_V_APPLIES); /* a bold span is one verdict */
	assert_true(log.items[4].scan);
	assert_int_equal(log.items[4].verdict, PTLOG_V_PARTIAL);
	assert_true(log.items[4].has_reason);
	ptlog_release(&log);

	struct prose_num n[8];
	size_t k = prose_numbers("16KB 2D 3rd 1024x8192 12 steps 5us 2x", n, 8);
	assert_int_equal(k, 3);
	assert_close(n[0].v, 12, 0);
	assert_int_equal(n[0].unit, PROSE_NOUNIT); /* "s" glued to "teps" is no unit */
	assert_int_equal(n[1].unit, PROSE_US);
	assert_int_equal(n[2].unit, PROSE_X);
}

/* perf_log.md fields: optimization and precision keep their first value,
 * a rollback_reason of "N/A" gives way to a real one. */
static const char PERF_FIELDS[] =
	"## Iteration 1\n"
	"- optimization: first\n"
	"- optimization: second\n"
	"- rollback_reason: N/A\n"
	"- rollback_reason: slower\n"
	"- rollback_reason: later\n"
	"- note: ignored\n";

/* One RESULT written over several [RESULT-#N] lines is one event (blank
 * lines, part markers and emphasis between them); a line stating a second
 * precision, another N or text between them starts another. */
static const char MULTI[] =
	"[RESULT-#2] (1/2) 优化点: x | 精度: pass\n"      /* 1 */
	"\n"
	"**[RESULT-#2]** (2/2) 性能: 12.0 us | 对比: -5%\n" /* 3 */
	"[RESULT-#2] 精度: pass (rerun)\n"                  /* 4: a second verdict */
	"[RESULT-#3] 精度: pass\n"                          /* 5: another item */
	"\n"
	"a note of its own\n"
	"\n"
	"[RESULT-#3] 性能: 11.0 us\n";                      /* 9: text between */

static void test_multiline_result(void **state)
{
	(void)state;
	struct ptlog log;
	assert_int_equal(ptlog_parse(&log, MULTI, sizeof(MULTI) - 1), 0);
	assert_int_equal(log.nev, 4);
	assert_int_equal(log.ev[0].line, 1);
	assert_int_equal(log.ev[0].end, 3);
	assert_int_equal(log.ev[1].line, 4);
	assert_int_equal(log.ev[2].line, 5);
	assert_int_equal(log.ev[3].line, 9);
	size_t len;
	long line;
	const char *v = ptlog_event_field(&log, &log.ev[0], "对比", &len, &line);
	assert_non_null(v);
	assert_int_equal(line, 3);
	assert_int_equal(len, 3);
	assert_memory_equal(v, "-5%", 3);
	ptlog_release(&log);
}

static void test_perf_fields(void **state)
{
	(void)state;
	struct ptperf p;
	assert_int_equal(ptperf_parse(&p, PERF_FIELDS, sizeof(PERF_FIELDS) - 1), 0);
	assert_int_equal(p.nit, 1);
	assert_string_equal(p.it[0].optimization.value, "first");
	assert_int_equal(p.it[0].optimization.line, 2);
	assert_string_equal(p.it[0].rollback.value, "slower");
	assert_int_equal(p.it[0].rollback.line, 5);
	assert_int_equal(p.it[0].nm, 0);
	assert_int_equal(p.it[0].end, 7);
	ptperf_release(&p);
}

/* Where a soft-broken line of a paragraph belongs (util/prose.h): its own
 * clause, or the line above as the page shows it. */
static void test_clauses(void **state)
{
	(void)state;
	assert_true(prose_starts_clause("overall: 20%"));
	assert_true(prose_starts_clause("**best**: v3"));
	assert_true(prose_starts_clause("final_latency (us): 64.0"));
	assert_true(prose_starts_clause("中止原因：plateau"));
	assert_false(prose_starts_clause("→ 32.0 us"));
	assert_false(prose_starts_clause("(corrected: 32.0 us)"));
	assert_false(prose_starts_clause("corrected: 32.0 us"));
	assert_false(prose_starts_clause("更正为：32 us"));
	assert_false(prose_starts_clause("32.0 us"));
	assert_false(prose_starts_clause("which the records confirm"));
	/* the narrower join of the first-generation line readers */
	assert_true(prose_continues("final_latency:", 14, "32 us"));
	assert_true(prose_continues("final_latency: 64", 17, "us → 32 us"));
	assert_true(prose_continues("a: 64 us", 8, "→ 32 us"));
	assert_true(prose_continues("a: 64 us", 8, "(corrected: 32 us)"));
	assert_false(prose_continues("[#1] a：b", 11, "[#2] c"));
	assert_false(prose_continues("key: 1", 6, "other: 2"));
	assert_false(prose_continues("some text", 9, "more text"));
}

static void test_json_tokens(void **state)
{
	(void)state;
	const char *t = "{\n \"name\": \"Infinity NaN\",\n \"r\": [-Infinity, Infinity],\n \"x\": NaN,\n"
			" \"rows\": {\"a\": {\"speedup\": 0.5, \"ms\": 1}, \"b\": {\"speedup\": 2, \"ms\": 2}}\n}";
	struct ptjson j;
	assert_int_equal(ptjson_parse(&j, t, strlen(t)), 0);
	const cJSON *r = cJSON_GetObjectItemCaseSensitive(j.root, "r");
	assert_true(isinf(cJSON_GetArrayItem(r, 0)->valuedouble));
	assert_true(cJSON_GetArrayItem(r, 0)->valuedouble < 0);
	assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(j.root, "x")));
	/* strings are left alone */
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(j.root, "name")->valuestring, "Infinity NaN");
	assert_int_equal(ptjson_key_line(&j, "rows", 0), 5);
	struct ptjson_table tb[4];
	assert_int_equal(ptjson_tables(&j, tb, 4), 1);
	assert_string_equal(tb[0].name, "rows");
	assert_string_equal(tb[0].speedup, "speedup");
	char label[32];
	ptjson_row_label(ptjson_row(&tb[0], 1), 1, label, sizeof(label));
	assert_string_equal(label, "b");
	/* the key index: first key of that name, values are not keys */
	assert_int_equal(ptjson_key_line(&j, "speedup", 0), 5);
	assert_int_equal(ptjson_key_line(&j, "Infinity NaN", 0), 0);
	assert_int_equal(ptjson_key_line(&j, "nope", 0), 0);
	size_t pos = 0;
	assert_int_equal(ptjson_key_line_next(&j, "speedup", &pos), 5);
	assert_int_equal(ptjson_key_line_next(&j, "speedup", &pos), 5);
	assert_int_equal(ptjson_key_line_next(&j, "speedup", &pos), 0);
	assert_int_equal(pos, j.len);
	assert_int_equal(ptjson_line_at(&j, 0), 1);
	assert_int_equal(ptjson_line_at(&j, 2), 2);
	/* values of the table's owner (2) and rows (1), within a relative tolerance */
	assert_int_equal(ptjson_has_value(&j, 0.5, 0.001), 1);
	assert_int_equal(ptjson_has_value(&j, 2.001, 0.001), 1);
	assert_int_equal(ptjson_has_value(&j, 2.01, 0.001), 0);
	assert_int_equal(ptjson_has_value(&j, 7, 0.001), 0);
	const cJSON *x = ptjson_members_get(&j.root_members, "x", 1);
	assert_non_null(x);
	assert_true(cJSON_IsNull(x));
	assert_null(ptjson_members_get(&j.root_members, "xy", 2));
	double mean, geo;
	size_t nv;
	ptjson_speedup_means(&tb[0], &mean, &geo, &nv);
	assert_int_equal(nv, 2);
	assert_close(mean, 1.25, 1e-12);
	assert_close(geo, 1.0, 1e-12);
	ptjson_release(&j);

	const char *bad = "{\n \"a\": 1,\n \"b\": [1, 2\n}\n";
	assert_int_equal(ptjson_parse(&j, bad, strlen(bad)), 1);
	assert_null(j.root);
	assert_int_equal(j.err_line, 4);
	ptjson_release(&j);

	assert_int_equal(ptjson_parse(&j, "{} x", 4), 1);
	ptjson_release(&j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_optlog),
		cmocka_unit_test(test_perflog),
		cmocka_unit_test(test_steps),
		cmocka_unit_test(test_multiline_result),
		cmocka_unit_test(test_perf_fields),
		cmocka_unit_test(test_clauses),
		cmocka_unit_test(test_json_tokens),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
