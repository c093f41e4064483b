/* main.c: the command table and argv[0] alias dispatch.
 * `tlab` is `tlperf ab`, `tlgate` is `tlperf gate` (hard links). */
#include "cli/cli.h"
#include "cli/options.h"
#include "util/path.h"

#include <gsl/gsl_errno.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

/* Sorted by name; `tlperf --help` prints it in this order. */
const struct cli_command cli_commands[] = {
	{ "ab", cmd_ab, "arbitrate candidate B against incumbent A with interleaved runs (tlab)", &cmd_ab_spec },
	{ "audit", cmd_audit, "reconcile claimed final latencies across a repository", &cmd_audit_spec },
	{ "explain", cmd_explain, "what a gate rule checks, why, and how to fix its findings", &cmd_explain_spec },
	{ "gate", cmd_gate, "check perf_opt/ and perf_tuning/ artifacts (tlgate)", &cmd_gate_spec },
	{ "loop", cmd_loop, "drive the Stage 4 tuning loop: init, baseline, round, status, finish", &cmd_loop_spec },
	{ "msprof", cmd_msprof, "read an msprof op output directory: per-launch durations and a summary", &cmd_msprof_spec },
	{ "plateau", cmd_plateau, "per-round improvement over the incumbent and plateau detection", &cmd_plateau_spec },
	{ "read", cmd_read, "what the gate reads in an opt_log.md: rounds, tables, claims, hidden text", &cmd_read_spec },
	{ "sim", cmd_sim, "simulate the A/B protocols on seeded synthetic runs", &cmd_sim_spec },
	{ "speedup", cmd_speedup, "per-workload speedups and their geometric means", &cmd_speedup_spec },
	{ "table", cmd_table, "the 'candidate vs current best' table for one round", &cmd_table_spec },
	{ "winner", cmd_winner, "choose a round's winner with the non-regression and A/B rules", &cmd_winner_spec },
};
const size_t cli_ncommands = sizeof(cli_commands) / sizeof(cli_commands[0]);

const struct cli_command *cli_find_command(const char *name)
{
	for (size_t i = 0; i < cli_ncommands; i++)
		if (strcmp(cli_commands[i].name, name) == 0)
			return &cli_commands[i];
	return NULL;
}

static void print_overview(FILE *f)
{
	fprintf(f, "usage: tlperf <command> [options]\n"
		   "       tlperf help <command> | <command> --help | --help | --version\n\n"
		   "commands:\n");
	for (size_t i = 0; i < cli_ncommands; i++)
		fprintf(f, "  %-9s %s\n", cli_commands[i].name, cli_commands[i].summary);
	fprintf(f, "\naliases: tlab = tlperf ab, tlgate = tlperf gate\n"
		   "exit codes: 0 ok, 1 findings or failed measurement, 2 usage or environment error\n");
}

/* The one-line error for an unknown command or top-level option word,
 * with the closest command or option when one is near. */
static int unknown_word(const char *word)
{
	const char *names[sizeof(cli_commands) / sizeof(cli_commands[0]) + 1];
	static const char *const top_options[] = { "help", "version", NULL };
	char dym[128];
	for (size_t i = 0; i < cli_ncommands; i++)
		names[i] = cli_commands[i].name;
	names[cli_ncommands] = NULL;
	if (strncmp(word, "--", 2) == 0)
		cli_did_you_mean(word + 2, top_options, "--", dym, sizeof(dym));
	else
		cli_did_you_mean(word, names, NULL, dym, sizeof(dym));
	return cli_usage_error("", "unknown %s '%s'%s", word[0] == '-' ? "option" : "command", word,
			       dym);
}

static int cmd_help(int argc, char **argv)
{
	if (argc < 2) {
		print_overview(stdout);
		return cli_finish_stdout(CLI_OK);
	}
	const struct cli_command *c = cli_find_command(argv[1]);
	if (!c)
		return unknown_word(argv[1]);
	cli_usage_print(stdout, c->spec);
	return cli_finish_stdout(CLI_OK);
}

int main(int argc, char **argv)
{
	gsl_set_error_handler_off();
#ifdef M_TRIM_THRESHOLD
	/* Keep freed heap instead of handing it back after each directory:
	 * tlgate frees and regrows the same few hundred KB per directory, and
	 * the page faults of regrowing cost more than the parsing on a VM
	 * (docs/benchmarks.md, "Where the gate's time goes"). Peak RSS is the
	 * same: the heap's high-water mark. */
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
	cli_term_init();
	const char *self = argc > 0 ? path_base(argv[0], NULL) : "tlperf";

	/* Alias dispatch: the link name selects the subcommand. */
	const char *alias = NULL;
	if (strcmp(self, "tlab") == 0)
		alias = "ab";
	else if (strcmp(self, "tlgate") == 0)
		alias = "gate";
	if (alias) {
		cli_prog = self;
		return cli_find_command(alias)->fn(argc, argv);
	}

	if (argc < 2) {
		print_overview(stderr);
		return CLI_USAGE;
	}
	const char *word = argv[1];
	if (strcmp(word, "--help") == 0 || strcmp(word, "-h") == 0 || strcmp(word, "help") == 0)
		return cmd_help(argc - 1, argv + 1);
	if (strcmp(word, "--version") == 0 || strcmp(word, "version") == 0) {
		printf("tlperf %s\n", TLPERF_VERSION);
		return cli_finish_stdout(CLI_OK);
	}
	const struct cli_command *c = cli_find_command(word);
	if (!c)
		return unknown_word(word);
	return c->fn(argc - 1, argv + 1);
}
