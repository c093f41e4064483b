/* fuzz_records.c: perf_records.jsonl reader (records_load_buffer,
 * records_parse_one, records_push, records_is_iso8601).
 *
 * Beyond "no crash, no leak, no sanitizer report", it checks what the
 * gate relies on: every accepted record carries its required strings, a
 * finite positive duration and a line number inside the input; every
 * problem names a line and has a message; parsing the same bytes twice
 * gives the same answer.
 */
#include "io/records.h"
#include "model/records.h"

#include <cjson/cJSON.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(c)                                                                          \
	do {                                                                              \
		if (!(c)) {                                                               \
			fprintf(stderr, "fuzz_records: invariant failed: %s (%s:%d)\n", #c, \
				__FILE__, __LINE__);                                      \
			abort();                                                          \
		}                                                                         \
	} while (0)

static long count_lines(const uint8_t *d, size_t n)
{
	long lines = 0;
	for (size_t i = 0; i < n; i++)
		if (d[i] == '\n')
			lines++;
	return (n > 0 && d[n - 1] != '\n') ? lines + 1 : lines;
}

static void check_records(const struct records *rs, const struct records_problems *ps,
			  long lines)
{
	long prev = 0;
	for (size_t i = 0; i < rs->n; i++) {
		const struct record *r = &rs->v[i];
		CHECK(r->line > prev && r->line <= lines);
		prev = r->line;
		CHECK(r->contract == RECORDS_V1 || r->contract == RECORDS_V2);
		CHECK(r->candidate_id && r->dispatch && r->workload && r->timestamp);
		CHECK(isfinite(r->duration_us) && r->duration_us > 0);
		CHECK(r->l0_pass == 0 || r->l0_pass == 1);
		CHECK(r->round >= 0);
		CHECK(records_is_iso8601(r->timestamp));
		if (r->contract == RECORDS_V2)
			CHECK(r->phase && r->artifact_path && r->artifact_sha256);
		CHECK(isnan(r->aicore_util) || isfinite(r->aicore_util));
	}
	CHECK(rs->n == 0 ? rs->contract == RECORDS_UNKNOWN : rs->contract != RECORDS_UNKNOWN);
	for (size_t i = 0; i < ps->n; i++) {
		CHECK(ps->v[i].line >= 1 && ps->v[i].line <= lines);
		CHECK(ps->v[i].message && ps->v[i].message[0]);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct records rs, rs2;
	struct records_problems ps, ps2;
	const char *buf = (const char *)data;

	records_init(&rs);
	records_problems_init(&ps);
	CHECK(records_load_buffer(buf, size, &rs, &ps) == 0);
	check_records(&rs, &ps, count_lines(data, size));

	/* Same bytes, same answer; and ps may be NULL. */
	records_init(&rs2);
	records_problems_init(&ps2);
	CHECK(records_load_buffer(buf, size, &rs2, &ps2) == 0);
	CHECK(rs2.n == rs.n && ps2.n == ps.n && rs2.contract == rs.contract);
	for (size_t i = 0; i < rs.n; i++) {
		CHECK(rs2.v[i].line == rs.v[i].line);
		CHECK(strcmp(rs2.v[i].candidate_id, rs.v[i].candidate_id) == 0);
		CHECK(rs2.v[i].duration_us == rs.v[i].duration_us);
	}
	records_release(&rs2);
	records_init(&rs2);
	CHECK(records_load_buffer(buf, size, &rs2, NULL) == 0);
	CHECK(rs2.n == rs.n);
	records_release(&rs2);
	records_problems_release(&ps2);

	/* Ids are interned: equal text, same pointer. */
	for (size_t i = 1; i < rs.n; i++) {
		CHECK((strcmp(rs.v[i].candidate_id, rs.v[0].candidate_id) == 0) ==
		      (rs.v[i].candidate_id == rs.v[0].candidate_id));
		CHECK((strcmp(rs.v[i].dispatch, rs.v[0].dispatch) == 0) ==
		      (rs.v[i].dispatch == rs.v[0].dispatch));
	}
	/* Copying a record into another set keeps every field. */
	if (rs.n > 0) {
		struct records c;
		records_init(&c);
		CHECK(records_push(&c, &rs.v[0]) == 0);
		CHECK(record_same_key(&c.v[0], &rs.v[0]));
		CHECK(record_valid(&c.v[0]) == record_valid(&rs.v[0]));
		CHECK(strcmp(c.v[0].timestamp, rs.v[0].timestamp) == 0);
		records_release(&c);
	}
	records_release(&rs);
	records_problems_release(&ps);

	/* The whole input as a single line: when it is accepted, it is one
	 * strict JSON object by cJSON's reading too. */
	struct records one;
	char err[256];
	err[0] = '\0';
	records_init(&one);
	int rc = records_parse_one(buf, size, 1, &one, err, sizeof(err));
	CHECK(rc == 0 || rc == -1);
	if (rc == 0) {
		CHECK(one.n == 1);
		const char *end = NULL;
		cJSON *o = cJSON_ParseWithLengthOpts(buf, size, &end, 0);
		CHECK(cJSON_IsObject(o) && end);
		while (end < buf + size && (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r'))
			end++;
		CHECK(end == buf + size);
		cJSON_Delete(o);
	} else {
		CHECK(err[0] != '\0' && memchr(err, '\0', sizeof(err)));
	}
	records_release(&one);
	char *s = malloc(size + 1);
	if (s) {
		memcpy(s, data, size);
		s[size] = '\0';
		(void)records_is_iso8601(s);
		free(s);
	}
	return 0;
}
