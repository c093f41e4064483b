/* cmd_winner.c: `tlperf winner RECORDS --round N`: the round's winner and
 * the adopt / rollback / defer / needs_ab / tie / none decision
 * (stats/winner.h does the work). */
#include "cli/cli.h"
#include "stats/stats.h"
#include "cli/recargs.h"
#include "stats/winner.h"
#include "report/table.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>

static const struct cli_option winner_options[] = {
	{ 'r', 0, "round", "N", "the round to decide (>= 1)" },
	{ 'q', 0, "required", "KEY", "a key the decision must not regress: WORKLOAD or\n"
				     "DISPATCH/WORKLOAD; repeatable. Default: every key with a\n"
				     "current best that round N measured" },
	{ 'n', 0, "noise", "F", "regression threshold, fraction (default " STATS_WINNER_NOISE_TEXT ")" },
	{ 'a', 0, "ab-threshold", "F", "gains under it need A/B (default 0.05)" },
	{ 'u', 0, "small-us", "US", "kernels under it are 'small' (default 20)" },
	{ 'i', 0, "incumbent", "ID", "compare with this candidate's latest records before N\n"
				     "(default: the per-key best valid duration before N)" },
	{ 'b', 0, "bench-cmd", "T", "bench command template for the tlab command; placeholders\n"
				    "{impl} {candidate} {dispatch} {workload} {artifact} {round}" },
	RECARGS_JSON_OPTION("machine output"),
	RECARGS_STRICT_OPTION,
	CLI_OPT_END
};

const struct cli_spec cmd_winner_spec = {
	"winner",
	"tlperf winner RECORDS --round N [--required KEY]... [--noise " STATS_WINNER_NOISE_TEXT "]\n"
	"                     [--ab-threshold 0.05] [--small-us 20] [--incumbent ID]\n"
	"                     [--bench-cmd TEMPLATE] [--json] [--strict]",
	"Chooses round N's winner among its valid candidates: the best geometric-\n"
	"mean gain over the current best across the required keys, adoptable only\n"
	"when no required key regresses beyond --noise. Decisions:\n"
	"  adopt      the winner becomes the new current best\n"
	"  rollback   no candidate is faster, or the best one only regresses\n"
	"  defer      the best one gains on some keys but regresses on others\n"
	"  needs_ab   a gain under --ab-threshold (on a key under --small-us, or\n"
	"             overall) must be arbitrated first: the tlab command is printed\n"
	"  tie        candidates within noise of each other: settle by load balance,\n"
	"             resource use, code simplicity (the engineer's call)\n"
	"  none       no candidate has a valid measurement of every required key\n",
	winner_options,
	"Exit: 0 a decision was printed (any decision), 1 invalid lines under\n"
	"--strict, 2 usage error, unreadable or empty RECORDS (no valid record),\n"
	"an unknown --required key or --incumbent, or a round with more than\n"
	"4 million candidate x key pairs.\n",
	0, NULL,
};

static void add_key(cJSON *o, const struct stats_key *k)
{
	recargs_json_key(o, k->dispatch, k->workload);
}

/* The tlab commands W needs, one per key marked needs_ab. Returns the
 * number produced; cmds[] gets malloc'd strings (NULL on failure). */
static size_t ab_commands(struct stats_winner *w, const char *tpl, char **cmds,
			  size_t *kidx)
{
	size_t n = 0, want = 0;
	if (w->decision != STATS_WINNER_NEEDS_AB)
		return 0;
	const struct stats_winner_candidate *c = &w->cands[w->chosen];
	for (size_t j = 0; j < w->nrequired; j++)
		want += (size_t)c->keys[j].needs_ab;
	for (size_t j = 0; j < w->nrequired; j++) {
		if (!c->keys[j].needs_ab)
			continue;
		const char *suffix = want > 1 ? stats_winner_key_label(w, j) : NULL;
		cmds[n] = stats_winner_ab_command(w, w->chosen, j, tpl, suffix);
		kidx[n++] = j;
	}
	return n;
}

/* The "regressing_keys" array: the chosen candidate's regressing keys. */
static void json_regressing(cJSON *root, const struct stats_winner *w)
{
	cJSON *reg = cJSON_AddArrayToObject(root, "regressing_keys");
	if (w->chosen == STATS_NOKEY)
		return;
	const struct stats_winner_candidate *c = &w->cands[w->chosen];
	for (size_t j = 0; j < w->nrequired; j++) {
		if (c->keys[j].state != STATS_WK_REGRESSION)
			continue;
		cJSON *k = cJSON_CreateObject();
		add_key(k, &w->ks.v[c->keys[j].key]);
		cJSON_AddNumberToObject(k, "change", c->keys[j].change);
		cJSON_AddItemToArray(reg, k);
	}
}

/* One required key of a candidate as a JSON object appended to keys. */
static void json_candidate_key(cJSON *keys, const struct stats_winner *w,
			       const struct stats_winner_key *e)
{
	cJSON *k = cJSON_CreateObject();
	cJSON_AddItemToArray(keys, k);
	add_key(k, &w->ks.v[e->key]);
	if (e->incumbent) {
		cJSON_AddStringToObject(k, "incumbent_candidate", e->incumbent->candidate_id);
		cJSON_AddNumberToObject(k, "incumbent_us", e->incumbent->duration_us);
	} else {
		cJSON_AddNullToObject(k, "incumbent_candidate");
		cJSON_AddNullToObject(k, "incumbent_us");
	}
	cJSON_AddItemToObject(k, "candidate_us",
			      recargs_num_or_null(e->candidate ? e->candidate->duration_us : NAN));
	cJSON_AddItemToObject(k, "change", recargs_num_or_null(e->change));
	cJSON_AddStringToObject(k, "state", stats_winner_keystate_name(e->state));
	cJSON_AddBoolToObject(k, "needs_ab", e->needs_ab);
}

/* The "candidates" array: every candidate with its figures and keys. */
static void json_candidates(cJSON *root, const struct stats_winner *w)
{
	cJSON *cands = cJSON_AddArrayToObject(root, "candidates");
	for (size_t i = 0; i < w->ncands; i++) {
		const struct stats_winner_candidate *c = &w->cands[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddItemToArray(cands, o);
		cJSON_AddStringToObject(o, "candidate_id", c->candidate_id);
		cJSON_AddBoolToObject(o, "complete", c->complete);
		cJSON_AddItemToObject(o, "gain", recargs_num_or_null(c->gain));
		cJSON_AddNumberToObject(o, "regressions", (double)c->nregressions);
		cJSON_AddNumberToObject(o, "soft_regressions", (double)c->nsoft);
		cJSON *keys = cJSON_AddArrayToObject(o, "keys");
		for (size_t j = 0; j < w->nrequired; j++)
			json_candidate_key(keys, w, &c->keys[j]);
	}
}

static int print_json(const struct stats_winner *w, const char *path, char **cmds,
		      const size_t *kidx, size_t ncmds)
{
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "schema", "tlperf/winner/v1");
	cJSON_AddStringToObject(root, "records", path);
	cJSON_AddNumberToObject(root, "round", (double)w->round);
	cJSON_AddStringToObject(root, "decision", stats_winner_decision_name(w->decision));
	if (w->chosen != STATS_NOKEY)
		cJSON_AddStringToObject(root, "candidate", w->cands[w->chosen].candidate_id);
	else
		cJSON_AddNullToObject(root, "candidate");
	cJSON_AddStringToObject(root, "reason", w->reason);
	cJSON *req = cJSON_AddArrayToObject(root, "required");
	for (size_t j = 0; j < w->nrequired; j++) {
		cJSON *k = cJSON_CreateObject();
		add_key(k, &w->ks.v[w->required[j]]);
		cJSON_AddItemToArray(req, k);
	}
	json_regressing(root, w);
	cJSON *tied = cJSON_AddArrayToObject(root, "tied");
	for (size_t i = 0; i < w->ntied; i++)
		cJSON_AddItemToArray(tied, cJSON_CreateString(w->cands[w->tied[i]].candidate_id));
	cJSON *ab = cJSON_AddArrayToObject(root, "ab_commands");
	for (size_t i = 0; i < ncmds; i++) {
		cJSON *o = cJSON_CreateObject();
		add_key(o, &w->ks.v[w->required[kidx[i]]]);
		cJSON_AddStringToObject(o, "command", cmds[i]);
		cJSON_AddItemToArray(ab, o);
	}
	json_candidates(root, w);
	return recargs_print_json(root);
}

/* Returns 0, -1 when out of memory. */
static int print_markdown(const struct stats_winner *w, char **cmds, size_t ncmds)
{
	printf("**Winner（round %ld）: %s", w->round, stats_winner_decision_name(w->decision));
	if (w->chosen != STATS_NOKEY) {
		fputs(" — ", stdout);
		escape_md_cell(stdout, w->cands[w->chosen].candidate_id, MD_CELL_PLAIN);
	}
	printf("**\n\n");
	escape_md_cell(stdout, w->reason, MD_CELL_PLAIN);
	printf("\n\n");
	struct table t;
	if (w->ncands) {
		report_winner_candidates_view(w, &t);
		if (report_table_put_markdown(stdout, &t) != 0)
			return -1;
		printf("\n");
	}
	if (w->chosen != STATS_NOKEY) {
		report_winner_keys_view(w, &t);
		if (report_table_put_markdown(stdout, &t) != 0)
			return -1;
		printf("\n");
	}
	if (ncmds) {
		printf("Run the interleaved A/B protocol before adopting:\n\n```sh\n");
		for (size_t i = 0; i < ncmds; i++)
			printf("%s\n", cmds[i]);
		printf("```\n");
	}
	return 0;
}

/* The command's options, as parsed. */
struct winner_args {
	struct recargs a;
	struct stats_winner_opts o; /* o.required: req once parsed */
	const char **req;           /* the --required keys, room for argc */
	const char *tpl;            /* --bench-cmd, or NULL */
	long round;                 /* --round, -1 until given */
};

/* One option of the table into g. Returns 0, or CLI_USAGE after the
 * message. */
static int winner_option(struct winner_args *g, int ch, const char *arg)
{
	switch (ch) {
	case 'r': return cli_parse_long("--round", arg, 1, 1000000000L, &g->round) ? CLI_USAGE : 0;
	case 'q': g->req[g->o.nrequired++] = arg; return 0;
	case 'n': return cli_parse_double("--noise", arg, &g->o.noise) ? CLI_USAGE : 0;
	case 'a': return cli_parse_double("--ab-threshold", arg, &g->o.ab_threshold) ? CLI_USAGE : 0;
	case 'u': return cli_parse_double("--small-us", arg, &g->o.small_us) ? CLI_USAGE : 0;
	case 'i': g->o.incumbent_id = arg; return 0;
	case 'b': g->tpl = arg; return 0;
	default: recargs_option(&g->a, ch); return 0;
	}
}

/* Parses the options into g (g->req allocated by the caller). Returns 1 to
 * go on, or 0 to stop with the exit code *rc (-h and --version: CLI_OK;
 * mistakes: CLI_USAGE after the message). */
static int parse_winner_args(struct cli_parser *cp, int argc, char **argv, struct winner_args *g,
			     int *rc)
{
	int ch;
	*rc = CLI_USAGE;
	cli_parser_init(cp, &cmd_winner_spec, argc, argv);
	while ((ch = cli_parser_next(cp)) > 0)
		if (winner_option(g, ch, optarg) != 0)
			return 0;
	if (ch == CLI_PARSE_STOP) {
		*rc = cp->rc;
		return 0;
	}
	g->o.required = g->req;
	if (g->o.noise < 0 || g->o.ab_threshold < 0 || g->o.small_us < 0) {
		*rc = cli_usage_error("winner", "--noise, --ab-threshold and --small-us must be >= 0");
		return 0;
	}
	if (g->round < 0) {
		*rc = cli_usage_error("winner", "--round N is required");
		return 0;
	}
	return 1;
}

/* Prints the decision w with its tlab commands for the keys that need A/B
 * (from template tpl) as JSON or Markdown. Returns the exit code. */
static int print_decision(struct stats_winner *w, const struct recargs *a, const char *tpl)
{
	size_t n = w->nrequired ? w->nrequired : 1, ncmds = 0;
	char **cmds = calloc(n, sizeof(*cmds));
	size_t *kidx = calloc(n, sizeof(*kidx));
	int rc = CLI_OK;
	if (cmds && kidx)
		ncmds = ab_commands(w, tpl, cmds, kidx);
	for (size_t i = 0; cmds && kidx && i < ncmds && rc == CLI_OK; i++)
		rc = cmds[i] ? CLI_OK : CLI_USAGE;
	if (!cmds || !kidx || rc != CLI_OK) {
		cli_error("out of memory");
		rc = CLI_USAGE;
	} else if (a->json) {
		rc = cli_finish_stdout(print_json(w, a->path, cmds, kidx, ncmds));
	} else {
		if (print_markdown(w, cmds, ncmds) != 0) {
			cli_error("out of memory");
			rc = CLI_USAGE;
		} else {
			rc = cli_finish_stdout(CLI_OK);
		}
	}
	for (size_t i = 0; cmds && i < ncmds; i++)
		free(cmds[i]);
	free(cmds);
	free(kidx);
	return rc;
}

int cmd_winner(int argc, char **argv)
{
	struct winner_args g = { .a = { .name = "winner" }, .round = -1 };
	struct cli_parser cp;
	struct stats_winner w = { 0 };
	struct records rs;
	int rc = CLI_USAGE;
	char err[512];
	stats_winner_opts_init(&g.o);
	records_init(&rs);
	w.chosen = STATS_NOKEY;
	g.req = calloc((size_t)(argc > 0 ? argc : 1), sizeof(*g.req));
	if (!g.req) {
		cli_error("out of memory");
		return CLI_USAGE;
	}
	if (!parse_winner_args(&cp, argc, argv, &g, &rc))
		goto out;
	rc = recargs_load_round(&g.a, &cp, g.round, g.o.incumbent_id, &rs);
	if (rc != CLI_OK)
		goto out;
	if (stats_winner_choose(&rs, g.round, &g.o, &w, err, sizeof(err)) != 0) {
		cli_error("%s in '%s'", err, g.a.path);
		rc = CLI_USAGE;
		goto out;
	}
	rc = print_decision(&w, &g.a, g.tpl);
out:
	free(g.req);
	stats_winner_release(&w);
	records_release(&rs);
	return rc;
}
