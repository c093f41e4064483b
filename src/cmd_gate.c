/* cmd_gate.c: placeholder until its issue lands; refuses to run. */
#include "cli.h"

const char cmd_gate_usage[] = "usage: tlperf gate (not implemented yet)\n";

int cmd_gate(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error("'gate' is not implemented yet");
	return CLI_USAGE;
}
