/* cmd_audit.c: placeholder until its issue lands; refuses to run. */
#include "cli.h"

const char cmd_audit_usage[] = "usage: tlperf audit (not implemented yet)\n";

int cmd_audit(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error("'audit' is not implemented yet");
	return CLI_USAGE;
}
