/* fuzz_stage_result.c: the Stage Result reader (stage_result_parse), its
 * Markdown renderer, and the S4-STAGE-RESULT-* rules over an empty tree.
 *
 * Invariants: every line number lies inside the input; every entry has a
 * key, a value and its raw line; a known field's key is the seed's name;
 * reading the same bytes twice gives the same entries; numbers are finite
 * or NaN; both renderers succeed; the rules never fail, never ask about a
 * path with ".." or an absolute one, and every finding names a line inside
 * the input.
 */
#include "gates/s4.h"
#include "gates/s4_stage.h"
#include "io/stage_result.h"
#include "report/stage_result.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(c)                                                                         \
	do {                                                                             \
		if (!(c)) {                                                              \
			fprintf(stderr, "fuzz_stage_result: invariant failed: %s (%s:%d)\n", \
				#c, __FILE__, __LINE__);                                 \
			abort();                                                         \
		}                                                                        \
	} while (0)

/* 1 when a component of rel is exactly "..". */
static int has_dotdot(const char *rel)
{
	for (const char *p = rel; *p;) {
		size_t k = strcspn(p, "/");
		if (k == 2 && p[0] == '.' && p[1] == '.')
			return 1;
		p += k;
		while (*p == '/')
			p++;
	}
	return 0;
}

static int no_file(const char *rel, void *ctx)
{
	(void)ctx;
	CHECK(rel && !has_dotdot(rel) && rel[0] != '/');
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	long maxline = 1;
	for (size_t i = 0; i < size; i++)
		if (data[i] == '\n')
			maxline++;
	struct stage_result a, b;
	stage_result_init(&a);
	stage_result_init(&b);
	CHECK(stage_result_parse(buf, size, &a) == 0);
	CHECK(stage_result_parse(buf, size, &b) == 0);
	CHECK(a.n == b.n && a.nprobs == b.nprobs && a.nblocks == b.nblocks);
	CHECK(a.heading_line >= 0 && a.heading_line <= maxline);
	for (size_t i = 0; i < a.n; i++) {
		const struct sr_entry *e = &a.v[i];
		CHECK(e->line >= 1 && e->line <= maxline);
		CHECK(e->key && e->value && e->raw);
		CHECK(e->field == SR_UNKNOWN || (e->field >= 0 && e->field < SR_NFIELDS));
		if (e->field != SR_UNKNOWN)
			CHECK(strcmp(e->key, stage_result_fields[e->field]) == 0);
		CHECK(strcmp(e->value, b.v[i].value) == 0 && e->field == b.v[i].field);
		CHECK(isnan(e->number) || isfinite(e->number));
	}
	for (size_t i = 0; i < a.nprobs; i++) {
		CHECK(a.probs[i].line >= 0 && a.probs[i].line <= maxline);
		CHECK(a.probs[i].message && a.probs[i].message[0]);
	}
	char *md = report_stage_result_markdown(&a);
	CHECK(md != NULL);
	free(md);
	char *js = report_stage_result_json(&a);
	CHECK(js != NULL);
	free(js);

	/* the rules over an empty tree */
	struct records rs;
	struct records_problems ps;
	struct optlog lg;
	struct s4_recon rc;
	struct gate_findings fs;
	struct s4_input in;
	struct s4_stage_ctx sc;
	records_init(&rs);
	records_problems_init(&ps);
	optlog_init(&lg);
	s4_recon_init(&rc);
	gate_findings_init(&fs);
	memset(&in, 0, sizeof(in));
	memset(&sc, 0, sizeof(sc));
	in.dir = "perf_opt";
	in.optlog_file = "perf_opt/opt_log.md";
	in.records_file = "perf_opt/perf_records.jsonl";
	in.feedback_file = "perf_opt/perf_feedback.md";
	in.log = &lg;
	in.recs = &rs;
	in.rprobs = &ps;
	sc.sr = &a;
	sc.file = "sr.md";
	sc.op_dir = "/r/examples/p/op";
	sc.noise = NAN;
	sc.max_rounds = sc.max_experiments = -1;
	sc.op_file = no_file;
	CHECK(s4_rule_stage_result(&in, &rc, &sc, &fs) == 0);
	for (size_t i = 0; i < fs.n; i++)
		CHECK(fs.v[i].line >= 0 && fs.v[i].line <= maxline);
	gate_findings_release(&fs);
	s4_recon_release(&rc);
	optlog_release(&lg);
	records_problems_release(&ps);
	records_release(&rs);
	stage_result_release(&a);
	stage_result_release(&b);
	return 0;
}
