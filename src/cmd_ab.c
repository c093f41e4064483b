/* cmd_ab.c: placeholder until its issue lands; refuses to run. */
#include "cli.h"

const char cmd_ab_usage[] = "usage: tlperf ab (not implemented yet)\n";

int cmd_ab(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error("'ab' is not implemented yet");
	return CLI_USAGE;
}
