/* cmd_table.c: `tlperf table RECORDS --round N`: the round's "candidate vs
 * current best" table, ready to paste under the round's heading of
 * opt_log.md (stats/cmptable.h builds and formats it). */
#include "cli/cli.h"
#include "stats/cmptable.h"
#include "cli/recargs.h"
#include "report/table.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>

static const struct cli_option table_options[] = {
	{ 'r', 0, "round", "N", "the round (>= 1)" },
	{ 'i', 0, "incumbent", "ID", "show candidate ID's latest records before N as the\n"
				      "current best (default: the per-key best)" },
	RECARGS_JSON_OPTION("machine output (rows, and the Markdown as 'markdown')"),
	RECARGS_STRICT_OPTION,
	CLI_OPT_END
};

const struct cli_spec cmd_table_spec = {
	"table",
	"tlperf table RECORDS --round N [--incumbent ID] [--json] [--strict]",
	"Prints round N's 'candidate vs current best' comparison table: for each\n"
	"(dispatch, workload) of the round, the current best (the smallest valid\n"
	"duration before round N) first, marked '(current best)', then every\n"
	"record of round N. Columns: candidate | dispatch | workload |\n"
	"Task Duration(us) | vs best | AICore util | memory | L0, with '—' where\n"
	"aicore_util / mem_bw_gbps are absent. The caption line\n"
	"'**候选 vs current best 对比表（round N）**' comes first, so the output\n"
	"satisfies gate rule S4-OPTLOG-COMPTABLE when pasted into opt_log.md.\n",
	table_options,
	"Exit: 0 table printed, 1 round N has no record (or invalid lines under\n"
	"--strict), 2 usage error, unreadable or empty RECORDS (no valid record).\n",
	0, NULL,
};

static int print_json(const struct stats_cmptable *t, const char *path, const char *md)
{
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "schema", "tlperf/table/v1");
	cJSON_AddStringToObject(root, "records", path);
	cJSON_AddNumberToObject(root, "round", (double)t->round);
	cJSON *rows = cJSON_AddArrayToObject(root, "rows");
	for (size_t i = 0; i < t->nrows; i++) {
		const struct stats_cmprow *x = &t->rows[i];
		const struct record *r = x->rec;
		cJSON *o = cJSON_CreateObject();
		cJSON_AddItemToArray(rows, o);
		cJSON_AddStringToObject(o, "candidate_id", r->candidate_id);
		cJSON_AddBoolToObject(o, "current_best", x->current_best);
		recargs_json_key(o, t->ks.v[x->key].dispatch, t->ks.v[x->key].workload);
		cJSON_AddNumberToObject(o, "round", (double)r->round);
		cJSON_AddNumberToObject(o, "line", (double)r->line);
		if (r->phase)
			cJSON_AddStringToObject(o, "phase", r->phase);
		cJSON_AddNumberToObject(o, "duration_us", r->duration_us);
		cJSON_AddItemToObject(o, "vs_best", recargs_num_or_null(x->vs_best));
		cJSON_AddItemToObject(o, "aicore_util", recargs_num_or_null(r->aicore_util));
		cJSON_AddItemToObject(o, "mem_bw_gbps", recargs_num_or_null(r->mem_bw_gbps));
		cJSON_AddBoolToObject(o, "l0_pass", r->l0_pass);
	}
	cJSON_AddNumberToObject(root, "keys_without_current_best", (double)t->nmissing_best);
	cJSON_AddStringToObject(root, "markdown", md);
	return recargs_print_json(root);
}

/* Reports why stats_cmptable_build() failed (errno) for round of the
 * records at path. Returns the exit code: CLI_FAIL when the round has no
 * record, else CLI_USAGE. */
static int build_error(long round, const char *incumbent, const char *path)
{
	if (errno == ENOENT) {
		cli_error("round %ld has no record in '%s'", round, path);
		return CLI_FAIL;
	}
	if (errno == EINVAL)
		cli_error("incumbent '%s' has no valid record before round %ld in '%s'", incumbent,
			  round, path);
	else
		cli_error("out of memory reading '%s'", path);
	return CLI_USAGE;
}

int cmd_table(int argc, char **argv)
{
	struct recargs a = { .name = "table" };
	struct cli_parser cp;
	long round = -1;
	const char *incumbent = NULL;
	int ch, rc;
	struct records rs;
	struct stats_cmptable t = { 0 };
	char *md = NULL;
	records_init(&rs);
	cli_parser_init(&cp, &cmd_table_spec, argc, argv);
	while ((ch = cli_parser_next(&cp)) > 0) {
		switch (ch) {
		case 'r':
			if (cli_parse_long("--round", optarg, 1, 1000000000L, &round) != 0)
				return CLI_USAGE;
			break;
		case 'i': incumbent = optarg; break;
		default:
			recargs_option(&a, ch);
		}
	}
	if (ch == CLI_PARSE_STOP)
		return cp.rc;
	if (round < 0)
		return cli_usage_error("table", "--round N is required");
	rc = recargs_load_round(&a, &cp, round, incumbent, &rs);
	if (rc != CLI_OK)
		goto out;
	const char *path = a.path;
	if (stats_cmptable_build(&rs, round, incumbent, &t) != 0) {
		rc = build_error(round, incumbent, path);
		goto out;
	}
	md = report_cmptable_markdown(&t);
	if (!md) {
		cli_error("out of memory");
		rc = CLI_USAGE;
		goto out;
	}
	if (t.nmissing_best)
		cli_note("%zu workload(s) of round %ld have no current best before it", t.nmissing_best,
			 round);
	if (a.json)
		rc = print_json(&t, path, md);
	else
		fputs(md, stdout);
	rc = cli_finish_stdout(rc);
out:
	free(md);
	stats_cmptable_release(&t);
	records_release(&rs);
	return rc;
}
