/* cmd_plateau.c: placeholder until its issue lands; refuses to run. */
#include "cli.h"

const char cmd_plateau_usage[] = "usage: tlperf plateau (not implemented yet)\n";

int cmd_plateau(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error("'plateau' is not implemented yet");
	return CLI_USAGE;
}
