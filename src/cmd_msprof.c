/* cmd_msprof.c: placeholder until its issue lands; refuses to run. */
#include "cli.h"

const char cmd_msprof_usage[] = "usage: tlperf msprof (not implemented yet)\n";

int cmd_msprof(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error("'msprof' is not implemented yet");
	return CLI_USAGE;
}
