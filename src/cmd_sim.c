/* cmd_sim.c: placeholder until its issue lands; refuses to run. */
#include "cli.h"

const char cmd_sim_usage[] = "usage: tlperf sim (not implemented yet)\n";

int cmd_sim(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error("'sim' is not implemented yet");
	return CLI_USAGE;
}
