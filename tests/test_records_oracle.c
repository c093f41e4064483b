/* test_records_oracle.c: the records reader (io/records.h) against cJSON
 * as an independent JSON reader: every line the reader accepts is one
 * strict JSON object for cJSON too, with the same strings and numbers in
 * the record's fields; and each line of the catalogue gets the verdict
 * written next to it. */
#include "testlib.h"
#include "io/records.h"

#include <cjson/cJSON.h>

static void same_field(const cJSON *o, const char *key, const char *got)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
	if (!got) {
		assert_true(!it || cJSON_IsNull(it));
		return;
	}
	assert_true(cJSON_IsString(it));
	assert_string_equal(it->valuestring, got);
}

static void same_number(const cJSON *o, const char *key, double got)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
	if (isnan(got))
		assert_true(!cJSON_IsNumber(it) || !isfinite(it->valuedouble));
	else
		assert_true(cJSON_IsNumber(it) && it->valuedouble == got);
}

/* want: 1 accepted, 0 refused. */
static void check(const char *line, int want)
{
	struct records rs;
	char err[256] = "";
	records_init(&rs);
	int rc = records_parse_one(line, strlen(line), 7, &rs, err, sizeof(err));
	if ((rc == 0) != want)
		print_error("verdict %d (%s) on: %s\n", rc, err, line);
	assert_int_equal(rc == 0, want);
	if (rc == 0) {
		const struct record *r = &rs.v[0];
		cJSON *o = cJSON_ParseWithOpts(line, NULL, 1);
		assert_true(cJSON_IsObject(o));
		int v2 = r->contract == RECORDS_V2;
		assert_int_equal(r->line, 7);
		same_field(o, "candidate_id", r->candidate_id);
		same_field(o, "parent_id", r->parent_id);
		same_field(o, v2 ? "kernel_id" : "dispatch_path", r->dispatch);
		same_field(o, v2 ? "workload_id" : "workload", r->workload);
		same_field(o, "phase", r->phase);
		same_field(o, "artifact_path", r->artifact_path);
		same_field(o, "msprof_raw_path", r->msprof_raw_path);
		same_field(o, "timestamp", r->timestamp);
		same_number(o, "duration_us", r->duration_us);
		same_number(o, "round", (double)r->round);
		same_number(o, "aicore_util", r->aicore_util);
		same_number(o, "mem_bw_gbps", r->mem_bw_gbps);
		assert_int_equal(r->l0_pass, cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "l0_pass")));
		cJSON_Delete(o);
	} else {
		assert_true(err[0] != '\0');
	}
	records_release(&rs);
}

#define V1A "{\"round\": 1, \"candidate_id\": \"c1\", \"parent_id\": \"baseline\", \"dispatch_path\": \"k::main\", \"workload\": \"w1\", "
#define V1Z "\"l0_pass\": true, \"timestamp\": \"2026-09-06T00:00:00Z\"}"
#define V2A "{\"round\": 2, \"candidate_id\": \"m\", \"parent_id\": null, \"kernel_id\": \"t.py::main\", \"workload_id\": \"w\", \"phase\": \"final\", \"artifact_path\": \"t.py\", \"artifact_sha256\": \"ab\", "

static void reader_agrees_with_cjson(void **s)
{
	(void)s;
	static const struct { const char *line; int ok; } lines[] = {
		{ V1A "\"duration_us\": 64.5, " V1Z, 1 },
		{ V1A "\"duration_us\": 6.45e1, \"msprof_raw_path\": null, \"aicore_util\": 0.5, \"mem_bw_gbps\": \"x\", " V1Z, 1 },
		{ V1A "\"duration_us\": 0.1, \"aicore_util\": 123456789012345.6, \"mem_bw_gbps\": 1.7976931348623157e308, " V1Z, 1 },
		{ V1A "\"duration_us\": 1234567890.123456789, " V1Z, 1 },
		{ V1A "\"duration_us\": 5E-3, " V1Z, 1 },
		{ V2A "\"duration_us\": 100, \"l0_pass\": false, \"msprof_raw_path\": \"p\", \"timestamp\": \"2026-09-06\"}", 1 },
		{ V2A "\"duration_us\": 100, \"l0_pass\": false, \"timestamp\": \"2026-09-06\"}", 0 }, /* v2 lacks msprof */
		{ V2A "\"duration_us\": 100, \"l0_pass\": true, \"msprof_raw_path\": \"p\", \"timestamp\": \"2026-09-06\", \"phase\": \"final\"}", 0 }, /* duplicate */
		{ V1A "\"duration_us\": 0, " V1Z, 0 },
		{ V1A "\"duration_us\": -0.0, " V1Z, 0 },
		{ V1A "\"duration_us\": 1e999, " V1Z, 0 },
		{ V1A "\"duration_us\": \"fast\", " V1Z, 0 },
		{ V1A "\"duration_us\": 01, " V1Z, 0 },  /* not RFC 8259 */
		{ V1A "\"duration_us\": 1., " V1Z, 0 },
		{ V1A "\"duration_us\": .5, " V1Z, 0 },
		{ V1A "\"duration_us\": 5, \"l0_pass\": 1, \"timestamp\": \"2026-09-06T00:00:00Z\"}", 0 },
		{ V1A "\"duration_us\": 5, \"l0_pass\": true, \"timestamp\": \"yesterday\"}", 0 },
		{ V1A "\"duration_us\": 5, \"extra\": {\"nested\": [1, 2, {\"a\": [true, null, \"x\"]}], \"e\": []}, " V1Z, 1 },
		{ V1A "\"duration_us\": 5, \"extra\": {\"nested\": [1, 2}, " V1Z, 0 },
		{ V1A "\"duration_us\": 5, \"note\": \"esc\\\"aped\", " V1Z, 1 },
		{ "{\"round\": 1.5, \"candidate_id\": \"c\", \"dispatch_path\": \"d\", \"workload\": \"w\", \"duration_us\": 5, " V1Z, 0 },
		{ "{\"round\": -1, \"candidate_id\": \"c\", \"dispatch_path\": \"d\", \"workload\": \"w\", \"duration_us\": 5, " V1Z, 0 },
		{ "{\"round\": 3, \"candidate_id\": \"c\\u00e9\\ud83d\\ude00\\n\\/\", \"dispatch_path\": \"d\", \"workload\": \"w\", \"duration_us\": 5, " V1Z, 1 },
		{ "{\"round\": 3, \"candidate_id\": \"c\\ud83d\", \"dispatch_path\": \"d\", \"workload\": \"w\", \"duration_us\": 5, " V1Z, 0 },
		{ "{\"round\": 3, \"candidate_id\": \"c\\u0000x\", \"dispatch_path\": \"d\", \"workload\": \"w\", \"duration_us\": 5, " V1Z, 0 },
		{ "{\"round\": 3, \"candidate_id\": \"候选\", \"dispatch_path\": \"d\", \"workload\": \"w\", \"duration_us\": 5, " V1Z, 1 },
		{ "{\"round\": 3, \"candidate_id\": \"c\", \"dispatch_path\": \"d\", \"workload\": \"w\", \"duration_us\": 5, " V1Z " trailing", 0 },
		{ "{\"round\": 3, \"candidate_id\": \"c\", \"dispatch_path\": \"d\", \"workload\": \"w\", \"duration_us\": 5, " V1Z " {}", 0 },
		{ "{\"round\": 3, \"candidate_id\": \"c\", \"dispatch_path\": \"d\", \"workload\": \"w\", \"duration_us\": 5, \"phase\": \"weird\", \"l0_pass\": true, \"timestamp\": \"2026-09-06\"}", 0 },
		{ "{\"round\": 0, \"candidate_id\": \"x\"}", 0 },
		{ "not-json", 0 },
		{ "[1, 2]", 0 },
		{ "{}", 0 },
		{ "{\"a\" 1}", 0 },
		{ "{\"a\": tru}", 0 },
		{ "\"just a string\"", 0 },
		{ "  {\"round\":0,\"candidate_id\":\"b\",\"parent_id\":null,\"dispatch_path\":\"d\",\"workload\":\"w\",\"duration_us\":1,\"l0_pass\":true,\"timestamp\":\"2026-01-01T00:00\"}  ", 1 },
	};
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		check(lines[i].line, lines[i].ok);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reader_agrees_with_cjson),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
