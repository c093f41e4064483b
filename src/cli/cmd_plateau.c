/* cmd_plateau.c: `tlperf plateau RECORDS`: per-round improvement over the
 * incumbent and the plateau verdict (stats/plateau.h does the work). */
#include "cli/cli.h"
#include "stats/stats.h"
#include "stats/plateau.h"
#include "stats/winner.h"
#include "cli/recargs.h"
#include "report/table.h"

#include <cjson/cJSON.h>

static const struct cli_option plateau_options[] = {
	{ 'n', 0, "noise", "F", "noise threshold as a fraction (default " STATS_PLATEAU_NOISE_TEXT " = 3%)" },
	{ 'w', 0, "window", "N", "rounds without improvement that make a plateau (default 3)" },
	RECARGS_JSON_OPTION("machine output: rounds[], consecutive_no_improvement,\n"
			    "last_improvement (null when none), plateau"),
	RECARGS_STRICT_OPTION,
	CLI_OPT_END
};

const struct cli_spec cmd_plateau_spec = {
	"plateau",
	"tlperf plateau RECORDS [--noise " STATS_PLATEAU_NOISE_TEXT "] [--window 3] [--json] [--strict]",
	"For each round r >= 1 of RECORDS (perf_records.jsonl, v1 or v2): the best\n"
	"valid duration per (dispatch, workload) before r (the incumbent), the best\n"
	"in r, and the round's improvement = the largest relative gain across keys.\n"
	"A round improves when that gain exceeds --noise and the round passes the\n"
	"winner rule's non-regression check (`tlperf winner` with the same noise:\n"
	"a complete candidate without a regression beyond noise gains beyond it\n"
	"somewhere; 'no (winner rule: defer)' otherwise); a round with no valid\n"
	"branch is 'blocked'. plateau = the last --window rounds did not improve.\n"
	"Records with l0_pass false never count; v2 'final' records are not rounds.\n",
	plateau_options,
	"Exit: 0 analysis printed (plateau or not), 1 invalid lines under --strict,\n"
	"2 usage error, unreadable or empty RECORDS (no valid record).\n",
	0, NULL,
};

static cJSON *str_or_null(const char *s)
{
	return s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

static int print_json(const struct stats_plateau *p, const char *path, enum records_contract c)
{
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "schema", "tlperf/plateau/v1");
	cJSON *rounds = cJSON_AddArrayToObject(root, "rounds");
	cJSON_AddStringToObject(root, "records", path);
	cJSON_AddStringToObject(root, "contract", recargs_contract_name(c));
	cJSON_AddNumberToObject(root, "noise", p->noise);
	cJSON_AddNumberToObject(root, "window", (double)p->window);
	for (size_t i = 0; i < p->nrounds; i++) {
		const struct stats_plateau_round *r = &p->rounds[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddItemToArray(rounds, o);
		cJSON_AddNumberToObject(o, "round", (double)r->round);
		cJSON_AddNumberToObject(o, "records", (double)r->nrecords);
		cJSON_AddNumberToObject(o, "valid", (double)r->nvalid);
		cJSON_AddBoolToObject(o, "blocked", r->blocked);
		cJSON_AddItemToObject(o, "improvement", recargs_num_or_null(r->improvement));
		cJSON_AddBoolToObject(o, "improved", r->improved);
		cJSON_AddStringToObject(o, "winner_decision",
					stats_winner_decision_name((enum stats_winner_decision)r->winner_decision));
		if (r->winner_id)
			cJSON_AddStringToObject(o, "winner", r->winner_id);
		else
			cJSON_AddNullToObject(o, "winner");
		if (r->improvement_key != STATS_NOKEY) {
			const struct stats_key *key = &p->ks.v[r->improvement_key];
			recargs_json_key(cJSON_AddObjectToObject(o, "improvement_key"), key->dispatch,
					 key->workload);
		} else {
			cJSON_AddNullToObject(o, "improvement_key");
		}
		cJSON *keys = cJSON_AddArrayToObject(o, "keys");
		for (size_t j = 0; j < r->nkeys; j++) {
			const struct stats_plateau_key *e = &r->keys[j];
			cJSON *k = cJSON_CreateObject();
			cJSON_AddItemToArray(keys, k);
			recargs_json_key(k, p->ks.v[e->key].dispatch, p->ks.v[e->key].workload);
			cJSON_AddItemToObject(k, "incumbent_us", recargs_num_or_null(e->incumbent_us));
			cJSON_AddItemToObject(k, "incumbent_candidate", str_or_null(e->incumbent_id));
			cJSON_AddItemToObject(k, "best_us", recargs_num_or_null(e->best_us));
			cJSON_AddItemToObject(k, "best_candidate", str_or_null(e->best_id));
			cJSON_AddItemToObject(k, "gain", recargs_num_or_null(e->gain));
		}
	}
	cJSON_AddNumberToObject(root, "consecutive_no_improvement",
				(double)p->consecutive_no_improvement);
	if (p->last_improvement >= 0)
		cJSON_AddNumberToObject(root, "last_improvement", (double)p->last_improvement);
	else
		cJSON_AddNullToObject(root, "last_improvement");
	cJSON_AddBoolToObject(root, "plateau", p->plateau);
	return recargs_print_json(root);
}

/* Returns 0, -1 when out of memory. */
static int print_markdown(const struct stats_plateau *p)
{
	printf("**Plateau check (noise %.1f%%, window %ld)**\n\n", 100.0 * p->noise, p->window);
	if (p->nrounds == 0) {
		printf("No experiment round (round >= 1) in the records yet.\n\n");
	} else {
		struct table t;
		report_plateau_view(p, &t);
		if (report_table_put_markdown(stdout, &t) != 0)
			return -1;
	}
	if (p->nrounds)
		putchar('\n');
	printf("- consecutive_no_improvement: %ld\n", p->consecutive_no_improvement);
	if (p->last_improvement >= 0)
		printf("- last_improvement: round %ld\n", p->last_improvement);
	else
		printf("- last_improvement: none\n");
	printf("- plateau: %s\n", p->plateau ? "yes" : "no");
	return 0;
}

static int add_record(void *acc, const struct record *r)
{
	return stats_plateau_add(acc, r);
}

int cmd_plateau(int argc, char **argv)
{
	struct recargs a = { .name = "plateau" };
	struct cli_parser cp;
	double noise = STATS_PLATEAU_NOISE;
	long window = STATS_PLATEAU_WINDOW;
	int ch, rc;
	struct strpool ids;
	struct stats_plateau_acc acc;
	struct stats_plateau p = { 0 };
	enum records_contract contract;
	strpool_init(&ids);
	stats_plateau_begin(&acc);
	cli_parser_init(&cp, &cmd_plateau_spec, argc, argv);
	while ((ch = cli_parser_next(&cp)) > 0) {
		switch (ch) {
		case 'n':
			if (cli_parse_double("--noise", optarg, &noise) != 0)
				return CLI_USAGE;
			if (noise < 0 || noise >= 1)
				return cli_usage_error("plateau", "option '--noise' must be in [0, 1), got '%s'",
						       optarg);
			break;
		case 'w':
			if (cli_parse_long("--window", optarg, 1, 1000000, &window) != 0)
				return CLI_USAGE;
			break;
		default:
			recargs_option(&a, ch);
		}
	}
	if (ch == CLI_PARSE_STOP)
		return cp.rc; /* ids and acc allocate nothing until used */
	rc = recargs_stream_operand(&a, &cp, &ids, add_record, &acc, &contract);
	if (rc != CLI_OK)
		goto out;
	if (stats_plateau_finish(&acc, noise, window, &p) != 0) {
		cli_error("out of memory analysing '%s'", a.path);
		rc = CLI_USAGE;
		goto out;
	}
	if (a.json)
		rc = print_json(&p, a.path, contract);
	else if (print_markdown(&p) != 0) {
		cli_error("out of memory");
		rc = CLI_USAGE;
		goto out;
	}
	rc = cli_finish_stdout(rc);
out:
	stats_plateau_abort(&acc);
	stats_plateau_release(&p);
	strpool_release(&ids);
	return rc;
}
