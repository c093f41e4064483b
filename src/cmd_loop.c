/* cmd_loop.c: placeholder until its issue lands; refuses to run. */
#include "cli.h"

const char cmd_loop_usage[] = "usage: tlperf loop (not implemented yet)\n";

int cmd_loop(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error("'loop' is not implemented yet");
	return CLI_USAGE;
}
