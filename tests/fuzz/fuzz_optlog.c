/* fuzz_optlog.c: the opt_log.md reader (optlog_load_buffer,
 * optlog_scan_suppressions), and the name and number helpers the gate
 * applies to its text (uname_identity, uname_skeleton, decimal_scan_marked).
 *
 * Invariants: every line number it reports lies inside the input, in
 * order where the struct promises it; strings it promises are non-NULL;
 * reading the same bytes twice gives the same counts.
 */
#include "io/optlog.h"
#include "util/decimal.h"
#include "util/uname.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(c)                                                                         \
	do {                                                                             \
		if (!(c)) {                                                              \
			fprintf(stderr, "fuzz_optlog: invariant failed: %s (%s:%d)\n", #c, \
				__FILE__, __LINE__);                                     \
			abort();                                                         \
		}                                                                        \
	} while (0)

static int in(long line, long lines)
{
	return line >= 1 && line <= lines;
}

static void check(const struct optlog *lg, long maxline)
{
	CHECK(lg->lines >= 0 && lg->lines <= maxline);
	long L = lg->lines;
	for (size_t i = 0; i < lg->n_tables; i++) {
		CHECK(in(lg->tables[i].line, L));
		CHECK(lg->tables[i].caption_line == 0 || in(lg->tables[i].caption_line, L));
		CHECK(lg->tables[i].rows >= 0);
	}
	for (size_t i = 0; i < lg->n_rounds; i++)
		CHECK(in(lg->rounds[i].line, L));
	CHECK(lg->summary_line == 0 || in(lg->summary_line, L));
	for (size_t i = 0; i < lg->n_claims; i++) {
		CHECK(in(lg->claims[i].line, L));
		CHECK(!lg->claims[i].workload || strlen(lg->claims[i].workload) < 1u << 20);
	}
	for (size_t i = 0; i < lg->n_geomeans; i++)
		CHECK(in(lg->geomeans[i].line, L));
	for (size_t i = 0; i < lg->n_final_rows; i++) {
		const struct optlog_final_row *r = &lg->final_rows[i];
		CHECK(in(r->line, L));
		CHECK(r->kernel_id && r->workload_id && r->final_candidate_id);
	}
	for (size_t i = 0; i < lg->n_suppressions; i++)
		CHECK(in(lg->suppressions[i].line, L));
	for (size_t i = 0; i < lg->n_problems; i++) {
		CHECK(lg->problems[i].line >= 0 && lg->problems[i].line <= L);
		CHECK(lg->problems[i].message && lg->problems[i].message[0]);
	}
	CHECK(!lg->best || lg->best_line == 0 || in(lg->best_line, L));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	long maxline = 1;
	for (size_t i = 0; i < size; i++)
		if (data[i] == '\n')
			maxline++;

	struct optlog a, b;
	optlog_init(&a);
	CHECK(optlog_load_buffer(buf, size, &a) == 0);
	check(&a, maxline);
	optlog_init(&b);
	CHECK(optlog_load_buffer(buf, size, &b) == 0);
	CHECK(a.lines == b.lines && a.n_tables == b.n_tables && a.n_rounds == b.n_rounds &&
	      a.n_claims == b.n_claims && a.n_problems == b.n_problems &&
	      a.n_final_rows == b.n_final_rows && a.stop == b.stop);
	optlog_release(&b);
	optlog_release(&a);

	struct optlog s;
	optlog_init(&s);
	CHECK(optlog_scan_suppressions(buf, size, 1, &s) == 0);
	for (size_t i = 0; i < s.n_suppressions; i++)
		CHECK(s.suppressions[i].line >= 1 && s.suppressions[i].line <= maxline);
	optlog_release(&s);

	char *z = malloc(size + 1);
	if (z) {
		memcpy(z, data, size);
		z[size] = '\0';
		char out[64];
		uname_identity(z, out, sizeof(out));
		CHECK(strlen(out) < sizeof(out));
		uname_identity(z, out, 1);
		CHECK(out[0] == '\0');
		char sk[UNAME_MAX];
		if (uname_skeleton(z, sk, sizeof(sk)) == 0)
			CHECK(strlen(sk) < sizeof(sk));
		double v = 0;
		size_t used = decimal_scan_marked(z, &v);
		CHECK(used <= strlen(z));
		free(z);
	}
	return 0;
}
