/* cmd_winner.c: placeholder until its issue lands; refuses to run. */
#include "cli.h"

const char cmd_winner_usage[] = "usage: tlperf winner (not implemented yet)\n";

int cmd_winner(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error("'winner' is not implemented yet");
	return CLI_USAGE;
}
