/* test_round_digest.c: the streaming digest of table/winner (stats/reckeys.h)
 * keeps enough: stats_cmptable_build and stats_winner_choose on the digest
 * give exactly what they give on the whole file, for every round, with and
 * without an incumbent; and the digest holds the keys and round N only. */
#include "recbuild.h"
#include "report/table.h"
#include "stats/cmptable.h"
#include "stats/winner.h"
#include "report/table.h"

#include <errno.h>

static void digest(const struct records *all, long round, const char *inc, struct records *out)
{
	struct stats_round_digest d;
	stats_digest_begin(&d, round, inc);
	for (size_t i = 0; i < all->n; i++)
		assert_int_equal(stats_digest_add(&d, &all->v[i]), 0);
	assert_int_equal(stats_digest_finish(&d, out), 0);
	stats_digest_release(&d);
}

static void same_table(const struct records *all, const struct records *dg, long round, const char *inc)
{
	struct stats_cmptable a, b;
	int ra = stats_cmptable_build(all, round, inc, &a);
	int ea = errno;
	int rb = stats_cmptable_build(dg, round, inc, &b);
	assert_int_equal(ra, rb);
	if (ra != 0) {
		assert_int_equal(ea, errno);
		return;
	}
	char *ma = report_cmptable_markdown(&a), *mb = report_cmptable_markdown(&b);
	assert_string_equal(ma, mb);
	assert_int_equal(a.nmissing_best, b.nmissing_best);
	free(ma);
	free(mb);
	stats_cmptable_release(&a);
	stats_cmptable_release(&b);
}

static void same_winner(const struct records *all, const struct records *dg, long round, const char *inc)
{
	struct stats_winner_opts o;
	struct stats_winner a, b;
	char ea[256], eb[256];
	stats_winner_opts_init(&o);
	o.incumbent_id = inc;
	int ra = stats_winner_choose(all, round, &o, &a, ea, sizeof(ea));
	int rb = stats_winner_choose(dg, round, &o, &b, eb, sizeof(eb));
	assert_int_equal(ra, rb);
	if (ra != 0) {
		assert_string_equal(ea, eb);
		return;
	}
	assert_int_equal(a.ncands, b.ncands);
	assert_int_equal(a.chosen, b.chosen);
	assert_string_equal(a.reason, b.reason);
	stats_winner_release(&a);
	stats_winner_release(&b);
}

static void digest_gives_the_same_answers(void **state)
{
	(void)state;
	static struct rb b;
	memset(&b, 0, sizeof(b));
	const char *w[] = { "w0", "w1", "w2" };
	for (int k = 0; k < 3; k++)
		rb_v1(&b, 0, "baseline", k == 2 ? "k1::main" : "k0::main", w[k], 100 + k, 1);
	for (long r = 1; r <= 6; r++)
		for (int k = 0; k < 3; k++) {
			char c1[16], c2[16];
			snprintf(c1, sizeof(c1), "c%ld", r);
			snprintf(c2, sizeof(c2), "d%ld", r);
			/* ties, an L0 failure, a regression, a re-measure of c1 */
			rb_v1(&b, r, c1, k == 2 ? "k1::main" : "k0::main", w[k], 100 + k - r, (r + k) % 4 != 0);
			rb_v1(&b, r, c2, k == 2 ? "k1::main" : "k0::main", w[k], 100 + k - r + (k == 1 ? 9 : 0), 1);
			if (r == 3)
				rb_v1(&b, r + 2, "c1", k == 2 ? "k1::main" : "k0::main", w[k], 90 - k, 1);
		}
	rb_v1(&b, 9, "late", "k9::main", "w9", 50, 1); /* a key first seen after N */
	struct records all;
	rb_load(&b, &all);
	const char *incs[] = { NULL, "baseline", "c1", "d2", "nobody" };
	for (long round = 1; round <= 10; round++)
		for (size_t i = 0; i < sizeof(incs) / sizeof(incs[0]); i++) {
			struct records dg;
			digest(&all, round, incs[i], &dg);
			assert_true(dg.n <= 3 * 4 + 3 * 3 + 1 + 6); /* keys x 3 + round N */
			same_table(&all, &dg, round, incs[i]);
			same_winner(&all, &dg, round, incs[i]);
			records_release(&dg);
		}
	records_release(&all);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(digest_gives_the_same_answers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
