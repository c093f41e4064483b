/* print_bars.c: prints the two-state bars of a default schedule as C
 * initialisers: seq's for stats/abseq_bars.inc, `print-bars fast` fast's
 * for stats/abseq_fast_bars.inc (tests/test_abseq.c checks that each file
 * matches what abseq_compute_bars computes).
 * Build and run: make bars (both files). */
#include <stdio.h>
#include <string.h>

#include "stats/abseq.h"

int main(int argc, char **argv)
{
	int fast = argc > 1 && strcmp(argv[1], "fast") == 0;
	struct abseq_params p;
	struct twostate_bar bar[TWOSTATE_MAX_N + 1] = { { 0 } };
	if (argc > 2 || (argc == 2 && !fast && strcmp(argv[1], "seq") != 0)) {
		fprintf(stderr, "usage: print-bars [seq|fast]\n");
		return 2;
	}
	abseq_params_default(&p, fast ? ABSEQ_RULE_FAST : ABSEQ_RULE_SEQ);
	if (abseq_compute_bars(&p, bar) != 0) {
		fprintf(stderr, "print-bars: the bars could not be computed\n");
		return 1;
	}
	printf("/* stats/%s: printed by scripts/analysis/print_bars.c; do not edit. */\n",
	       fast ? "abseq_fast_bars.inc" : "abseq_bars.inc");
	for (size_t n = 0; n <= p.max_pairs; n++)
		printf("[%zu] = { %.17g, %.17g, %.17g, %.17g },\n", n, bar[n].m, bar[n].t, bar[n].m2,
		       bar[n].t2);
	return 0;
}
