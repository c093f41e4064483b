/* cmd_explain.c: `tlperf explain RULE...` (as `ruff rule CODE`): what a gate
 * rule protects, what triggers it, how to fix it, an example. The text is
 * the rule table of gates/rules.c; docs/rules.md is `explain --markdown`. */
#include "cli/cli.h"
#include "cli/options.h"
#include "util/suggest.h"

#include <ctype.h>
#include <string.h>

#include "gates/rules.h"
#include "report/rules_doc.h"

enum { O_ALL = 256, O_LIST, O_MARKDOWN };

static const struct cli_option explain_options[] = {
	{ O_ALL, 0, "all", NULL, "explain every rule" },
	{ O_LIST, 0, "list", NULL, "one line per rule: id, severities, summary" },
	{ O_MARKDOWN, 0, "markdown", NULL, "docs/rules.md: every rule as Markdown" },
	CLI_OPT_END
};

const struct cli_spec cmd_explain_spec = {
	"explain",
	"tlperf explain RULE...\n"
	"tlperf explain --all | --list | --markdown",
	"Explains gate rules: what each protects, what exactly triggers it, how\n"
	"to fix the finding honestly, and a short example. RULE is an id as\n"
	"printed in findings (S4-PERF-RECORDS-RECON, PT-DB; case does not matter;\n"
	"S4-PERF-FEEDBACK-* ids share their family's entry).\n",
	explain_options,
	"Exit: 0 explained, 2 unknown rule or usage error.\n",
	0, NULL,
};

/* Rule ids are upper case; accept any case. */
static void upper_id(const char *in, char *out, size_t len)
{
	size_t k = 0;
	for (; in[k] && k + 1 < len; k++)
		out[k] = (char)toupper((unsigned char)in[k]);
	out[k] = '\0';
}

int cmd_explain(int argc, char **argv)
{
	struct cli_parser cp;
	int key, all = 0, list = 0, markdown = 0, rc = CLI_OK;
	cli_parser_init(&cp, &cmd_explain_spec, argc, argv);
	while ((key = cli_parser_next(&cp)) > 0) {
		switch (key) {
		case O_ALL: all = 1; break;
		case O_LIST: list = 1; break;
		case O_MARKDOWN: markdown = 1; break;
		}
	}
	if (key == CLI_PARSE_STOP)
		return cp.rc;
	int nops = argc - cp.next;
	if (all + list + markdown > 1 || (all + list + markdown == 1 && nops > 0))
		return cli_usage_error("explain", "give rule ids, or one of --all, --list, --markdown");
	if (markdown)
		return cli_finish_stdout(report_rules_markdown(stdout) == 0 ? CLI_OK : CLI_USAGE);
	if (list)
		return cli_finish_stdout(report_rules_list(stdout) == 0 ? CLI_OK : CLI_USAGE);
	if (all) {
		for (size_t i = 0; i < gate_nrules; i++) {
			if (i)
				fputs("\n\n", stdout);
			report_rule_text(stdout, &gate_rules[i]);
		}
		return cli_finish_stdout(CLI_OK);
	}
	if (nops == 0)
		return cli_usage_error("explain", "which rule? (`tlperf explain --list` lists them)");
	/* every id is checked before anything is printed */
	for (int i = cp.next; i < argc; i++) {
		char id[128];
		upper_id(argv[i], id, sizeof(id));
		if (!gate_rule_find(id)) {
			struct suggest sg;
			suggest_init(&sg, id);
			for (size_t r = 0; r < gate_nrules; r++)
				suggest_offer(&sg, gate_rules[r].id);
			const char *best = suggest_best(&sg);
			cli_error("unknown rule '%s'%s%s%s (`tlperf explain --list` lists them)", argv[i],
				  best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
			rc = CLI_USAGE;
		}
	}
	if (rc != CLI_OK)
		return rc;
	for (int i = cp.next; i < argc; i++) {
		char id[128];
		upper_id(argv[i], id, sizeof(id));
		if (i > cp.next)
			fputs("\n\n", stdout);
		report_rule_text(stdout, gate_rule_find(id));
	}
	return cli_finish_stdout(CLI_OK);
}
