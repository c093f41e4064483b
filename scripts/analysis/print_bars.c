/* print_bars.c: prints the two-state bars of seq's default schedule as
 * C initialisers, for stats/abseq_bars.inc (tests/test_abseq.c checks that
 * the file matches what abseq_compute_bars computes).
 * Build and run: make build/bin/print-bars && build/bin/print-bars > stats/abseq_bars.inc */
#include <stdio.h>

#include "stats/abseq.h"

int main(void)
{
	struct abseq_params p;
	struct twostate_bar bar[TWOSTATE_MAX_N + 1] = { { 0 } };
	abseq_params_default(&p, ABSEQ_RULE_SEQ);
	if (abseq_compute_bars(&p, bar) != 0) {
		fprintf(stderr, "print-bars: the bars could not be computed\n");
		return 1;
	}
	printf("/* stats/abseq_bars.inc: printed by scripts/analysis/print_bars.c; do not edit. */\n");
	for (size_t n = 0; n <= p.max_pairs; n++)
		printf("[%zu] = { %.17g, %.17g, %.17g, %.17g },\n", n, bar[n].m, bar[n].t, bar[n].m2,
		       bar[n].t2);
	return 0;
}
