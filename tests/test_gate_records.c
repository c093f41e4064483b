/* test_gate_records.c: the gate's fast record parser gives exactly what
 * record_parse() gives, for plain lines and for every kind of line it
 * hands back to record_parse(). */
#include "testlib.h"
#include "run/gate_perf_opt.h"
#include "io/records.h"

static void same_str(const char *a, const char *b)
{
	if (!a || !b)
		assert_true(a == b);
	else
		assert_string_equal(a, b);
}

static void check(const char *line)
{
	struct record a, b;
	char ea[256] = "", eb[256] = "";
	char *copy = strdup(line); /* NUL right after the line, as lineio gives */
	int ra = gatecheck_parse_record(copy, strlen(copy), 7, &a, ea, sizeof(ea));
	int rb = record_parse(copy, strlen(copy), 7, &b, eb, sizeof(eb));
	if ((ra == 0) != (rb == 0))
		print_error("verdicts differ on: %s\n", line);
	assert_int_equal(ra == 0, rb == 0);
	if (ra == 0) {
		assert_int_equal(a.line, b.line);
		assert_int_equal(a.contract, b.contract);
		assert_int_equal(a.round, b.round);
		assert_true(a.duration_us == b.duration_us);
		assert_int_equal(a.l0_pass, b.l0_pass);
		same_str(a.candidate_id, b.candidate_id);
		same_str(a.parent_id, b.parent_id);
		same_str(a.dispatch, b.dispatch);
		same_str(a.workload, b.workload);
		same_str(a.phase, b.phase);
		same_str(a.artifact_path, b.artifact_path);
		same_str(a.artifact_sha256, b.artifact_sha256);
		same_str(a.msprof_raw_path, b.msprof_raw_path);
		same_str(a.timestamp, b.timestamp);
		assert_true((isnan(a.aicore_util) && isnan(b.aicore_util)) || a.aicore_util == b.aicore_util);
		assert_true((isnan(a.mem_bw_gbps) && isnan(b.mem_bw_gbps)) || a.mem_bw_gbps == b.mem_bw_gbps);
		record_release(&a);
		record_release(&b);
	} else {
		assert_string_equal(ea, eb);
	}
	free(copy);
}

#define V1A "{\"round\": 1, \"candidate_id\": \"c1\", \"parent_id\": \"baseline\", \"dispatch_path\": \"k::main\", \"workload\": \"w1\", "
#define V1Z "\"l0_pass\": true, \"timestamp\": \"2026-09-06T00:00:00Z\"}"
#define V2A "{\"round\": 2, \"candidate_id\": \"m\", \"parent_id\": null, \"kernel_id\": \"t.py::main\", \"workload_id\": \"w\", \"phase\": \"final\", \"artifact_path\": \"t.py\", \"artifact_sha256\": \"ab\", "

static void fast_equals_slow(void **s)
{
	(void)s;
	static const char *const lines[] = {
		V1A "\"duration_us\": 64.5, " V1Z,
		V1A "\"duration_us\": 6.45e1, \"msprof_raw_path\": null, \"aicore_util\": 0.5, \"mem_bw_gbps\": \"x\", " V1Z,
		V2A "\"duration_us\": 100, \"l0_pass\": false, \"msprof_raw_path\": \"p\", \"timestamp\": \"2026-09-06\"}",
		V2A "\"duration_us\": 100, \"l0_pass\": false, \"timestamp\": \"2026-09-06\"}",            /* v2 lacks msprof */
		V2A "\"duration_us\": 100, \"l0_pass\": true, \"msprof_raw_path\": \"p\", \"timestamp\": \"2026-09-06\", \"phase\": \"final\"}", /* duplicate */
		V1A "\"duration_us\": 0, " V1Z,
		V1A "\"duration_us\": -0.0, " V1Z,
		V1A "\"duration_us\": 1e999, " V1Z,
		V1A "\"duration_us\": \"fast\", " V1Z,
		V1A "\"duration_us\": 01, " V1Z,
		V1A "\"duration_us\": 5, \"l0_pass\": 1, \"timestamp\": \"2026-09-06T00:00:00Z\"}",
		V1A "\"duration_us\": 5, \"l0_pass\": true, \"timestamp\": \"yesterday\"}",
		V1A "\"duration_us\": 5, \"extra\": {\"nested\": [1, 2]}, " V1Z,
		V1A "\"duration_us\": 5, \"note\": \"esc\\\"aped\", " V1Z,
		"{\"round\": 1.5, \"candidate_id\": \"c\", \"dispatch_path\": \"d\", \"workload\": \"w\", \"duration_us\": 5, " V1Z,
		"{\"round\": -1, \"candidate_id\": \"c\", \"dispatch_path\": \"d\", \"workload\": \"w\", \"duration_us\": 5, " V1Z,
		"{\"round\": 3, \"candidate_id\": \"c\\u00e9\", \"dispatch_path\": \"d\", \"workload\": \"w\", \"duration_us\": 5, " V1Z,
		"{\"round\": 3, \"candidate_id\": \"候选\", \"dispatch_path\": \"d\", \"workload\": \"w\", \"duration_us\": 5, " V1Z,
		"{\"round\": 3, \"candidate_id\": \"c\", \"dispatch_path\": \"d\", \"workload\": \"w\", \"duration_us\": 5, " V1Z " trailing",
		"{\"round\": 3, \"candidate_id\": \"c\", \"dispatch_path\": \"d\", \"workload\": \"w\", \"duration_us\": 5, \"phase\": \"weird\", \"l0_pass\": true, \"timestamp\": \"2026-09-06\"}",
		"{\"round\": 0, \"candidate_id\": \"x\"}",
		"not-json",
		"[1, 2]",
		"{}",
		"  {\"round\":0,\"candidate_id\":\"b\",\"parent_id\":null,\"dispatch_path\":\"d\",\"workload\":\"w\",\"duration_us\":1,\"l0_pass\":true,\"timestamp\":\"2026-01-01T00:00\"}  ",
	};
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		check(lines[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fast_equals_slow),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
