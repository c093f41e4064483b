/* test_simgrid.c: the scenario grids of `tlperf sim --grid`: their cells,
 * the Wilson interval reported with every worst cell, and that a cell's
 * simulation is reproducible and counts every trial once. */
#include "testlib.h"
#include "stats/ab.h"
#include "stats/simgrid.h"

#include <stdlib.h>
#include <string.h>

static void test_wilson95(void **state)
{
	(void)state;
	double lo, hi;
	/* 0 of 10: [0, z^2/(n+z^2)] = [0, 3.8415/13.8415] */
	simgrid_wilson95(0, 10, &lo, &hi);
	assert_close(lo, 0.0, 0);
	assert_close(hi, 3.841458820694124 / 13.841458820694124, 1e-12);
	/* 50 of 2000 (2.5%): 1.90%..3.28% (score interval by hand) */
	simgrid_wilson95(50, 2000, &lo, &hi);
	assert_close(lo, 0.0190144235, 1e-9);
	assert_close(hi, 0.0328067714, 1e-9);
}

static struct simgrid_cell *cells_of(int g, size_t *n)
{
	*n = simgrid_cells(g, NULL, 0);
	struct simgrid_cell *c = calloc(*n, sizeof(*c));
	assert_non_null(c);
	assert_int_equal(simgrid_cells(g, c, *n), *n);
	return c;
}

static void test_grids(void **state)
{
	(void)state;
	size_t ne, nc;
	struct simgrid_cell *e = cells_of(SIMGRID_EVALUATION, &ne);
	struct simgrid_cell *c = cells_of(SIMGRID_CALIBRATION, &nc);
	size_t fam[SIMGRID_NFAMILIES] = { 0 };
	for (size_t i = 0; i < ne; i++) {
		fam[e[i].family]++;
		if (e[i].family == SIMGRID_NULL) {
			assert_close(e[i].gain, 0.0, 0);
			/* the grid: G 2..10%, p 0.1..0.9 */
			assert_true(e[i].gap >= 0.02 - 1e-12 && e[i].gap <= 0.10 + 1e-12);
			assert_true(e[i].pa >= 0.1 - 1e-12 && e[i].pa <= 0.9 + 1e-12);
		}
		if (e[i].family == SIMGRID_SLOWER)
			assert_close(e[i].gain, -0.04, 0);
	}
	assert_int_equal(fam[SIMGRID_NULL], 3 * 5 * 81);
	assert_int_equal(fam[SIMGRID_SLOWER], 5 * 81);
	assert_int_equal(fam[SIMGRID_GAIN5_G4], 9);
	assert_int_equal(fam[SIMGRID_PAIRS8], 18);
	/* issue 36's families: nine noise shapes with B = A and 2% slower (and
	 * two states at equal frequencies, every gap and variant), three
	 * steady kernels per gain, two noisy ones */
	assert_int_equal(fam[SIMGRID_IDENT], 9);
	assert_int_equal(fam[SIMGRID_SLOWER2], 9 + 3 * 5);
	assert_int_equal(fam[SIMGRID_STEADY0], 3);
	assert_int_equal(fam[SIMGRID_STEADY5], 3);
	assert_int_equal(fam[SIMGRID_STEADY3], 3);
	assert_int_equal(fam[SIMGRID_STEADYM3], 3);
	assert_int_equal(fam[SIMGRID_NOISY], 2);
	for (size_t i = 0; i < ne; i++) {
		const struct simgrid_cell *x = &e[i];
		if (x->family == SIMGRID_IDENT)
			assert_true(x->gain == 0.0 && x->pa == x->pb);
		if (x->family == SIMGRID_STEADY3)
			assert_true(x->gain == 0.03 && x->gap == 0.0 && x->variant->run_cv <= 0.02);
		if (x->family == SIMGRID_NOISY)
			assert_true(x->variant->run_cv >= 0.08);
		if (x->family == SIMGRID_IDENT && x->variant->three_states)
			assert_true(x->gap == 0.06 || x->gap == 0.10); /* "three-6", "three-10" */
	}
	assert_string_equal(simgrid_family_name(SIMGRID_STEADYM3), "steady_m3");
	assert_string_equal(simgrid_family_name(SIMGRID_NOISY), "noisy");
	/* no cell of one grid appears in the other (other gaps, p, variants) */
	for (size_t i = 0; i < ne; i++)
		for (size_t j = 0; j < nc; j++)
			assert_false(e[i].family == c[j].family && e[i].gap == c[j].gap &&
				     e[i].pa == c[j].pa && e[i].pb == c[j].pb &&
				     e[i].variant == c[j].variant);
	assert_string_equal(simgrid_family_name(SIMGRID_GAIN3_G4), "gain3_g4");
	assert_int_equal(simgrid_grid_parse("evaluation"), SIMGRID_EVALUATION);
	assert_int_equal(simgrid_grid_parse("eval"), -1);
	free(e);
	free(c);
}

static void test_run_cell(void **state)
{
	(void)state;
	size_t ne;
	struct simgrid_cell *e = cells_of(SIMGRID_EVALUATION, &ne);
	struct abseq_params p;
	struct simgrid_result r1, r2, r3;
	abseq_params_default(&p, ABSEQ_RULE_SEQ);
	const struct simgrid_cell *c = NULL;
	for (size_t i = 0; i < ne && !c; i++)
		if (e[i].family == SIMGRID_PAIRS8)
			c = &e[i];
	assert_non_null(c);
	simgrid_run_cell(c, 60, 1, &p, &r1);
	simgrid_run_cell(c, 60, 1, &p, &r2);
	simgrid_run_cell(c, 60, 2, &p, &r3);
	assert_int_equal(r1.trials, 60);
	assert_int_equal(r1.count[0] + r1.count[1] + r1.count[2] + r1.count[3], 60);
	assert_memory_equal(r1.count, r2.count, sizeof(r1.count));
	assert_close(r1.pairs_sum, r2.pairs_sum, 0);
	assert_true(r1.pairs_max >= 4 && r1.pairs_max <= 16);
	/* an 8% mean gain is adopted nearly always */
	assert_true(r1.count[AB_B_BETTER] >= 50);
	/* another seed, other noise */
	assert_true(r3.pairs_sum != r1.pairs_sum || memcmp(r1.count, r3.count, sizeof(r1.count)) != 0);
	free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wilson95),
		cmocka_unit_test(test_grids),
		cmocka_unit_test(test_run_cell),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
