/* cmd_speedup.c: placeholder until its issue lands; refuses to run. */
#include "cli.h"

const char cmd_speedup_usage[] = "usage: tlperf speedup (not implemented yet)\n";

int cmd_speedup(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error("'speedup' is not implemented yet");
	return CLI_USAGE;
}
