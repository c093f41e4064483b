/* cmd_table.c: placeholder until its issue lands; refuses to run. */
#include "cli.h"

const char cmd_table_usage[] = "usage: tlperf table (not implemented yet)\n";

int cmd_table(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error("'table' is not implemented yet");
	return CLI_USAGE;
}
