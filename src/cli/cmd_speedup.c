/* cmd_speedup.c: `tlperf speedup RECORDS`: per-workload speedups from the
 * baseline to the final version and their geometric means (stats/speedup.h
 * does the work; struct stats_speedup holds every number a plot needs). */
#include "cli/cli.h"
#include "run/gate_perf_tuning.h"
#include "cli/recargs.h"
#include "io/optlog.h"
#include "model/optlog.h"
#include "stats/speedup.h"
#include "report/svg.h"
#include "report/table.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const struct cli_option speedup_options[] = {
	{ 'f', 0, "final", "ID", "take the final durations from candidate ID" },
	{ 'O', 0, "opt-log", "FILE", "take the final candidate from the winner of FILE's last\n"
				     "Final Summary (default: opt_log.md next to RECORDS)" },
	RECARGS_JSON_OPTION("machine output"),
	RECARGS_STRICT_OPTION,
	{ 'P', 0, "plot", "FILE", "also write per-workload speedup bars with the geomean\n"
				  "line (SVG)" },
	CLI_OPT_END
};

const struct cli_spec cmd_speedup_spec = {
	"speedup",
	"tlperf speedup RECORDS [--final CANDIDATE | --opt-log FILE] [--json] [--strict]\n"
	"tlperf speedup PERF_TUNING_DIR [--json] [--strict] [--plot FILE]",
	"Per (dispatch, workload): the round-0 baseline duration, the final\n"
	"duration, speedup = baseline/final and the change in %. The final is the\n"
	"--final candidate's latest valid record; else the winner of the last\n"
	"Final Summary of --opt-log FILE (default: opt_log.md next to RECORDS,\n"
	"when it exists); else (v2) the phase 'final' records; else the candidate\n"
	"the records show adopted last (the parent of the latest round). When none\n"
	"of these tells the final, the command refuses (exit 2) and asks for\n"
	"--final: it never takes each workload's best over different candidates,\n"
	"a result no single kernel achieves. Per dispatch\n"
	"and overall: the geometric mean of the speedups (through logarithms) and\n"
	"the geometric-mean latency change. Regressions (speedup < 1) are listed.\n"
	"The Markdown output is the multi-dispatch block of the Final Summary.\n"
	"\n"
	"When the operand is a directory, it is read as a first-generation\n"
	"perf_tuning/ folder (or an operator directory holding one): per case, the\n"
	"speedup its latest bench JSON states, the latency change 1/speedup - 1,\n"
	"and the geometric mean over the cases with a finite speedup > 0. --strict\n"
	"then refuses a case without one (exit 1); --final does not apply.\n",
	speedup_options,
	"Exit: 0 speedups printed, 1 no workload has both a baseline and a final\n"
	"(or invalid lines under --strict; for a folder: no case with a speedup),\n"
	"2 usage error, unreadable or empty RECORDS (no valid record), a folder\n"
	"without bench JSON, an unreadable opt_log, an unknown --final\n"
	"candidate, or a final candidate that cannot be told.\n",
	0, NULL,
};

static int print_json(const struct stats_speedup *s, const char *path, const char *final,
		      enum records_contract c)
{
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "schema", "tlperf/speedup/v1");
	cJSON_AddStringToObject(root, "records", path);
	cJSON_AddStringToObject(root, "contract", recargs_contract_name(c));
	if (final)
		cJSON_AddStringToObject(root, "final_candidate", final);
	else
		cJSON_AddNullToObject(root, "final_candidate");
	cJSON *keys = cJSON_AddArrayToObject(root, "keys");
	for (size_t k = 0; k < s->nkeys; k++) {
		const struct stats_speedup_key *e = &s->keys[k];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddItemToArray(keys, o);
		recargs_json_key(o, e->dispatch, e->workload);
		cJSON_AddItemToObject(o, "baseline_us",
				      recargs_num_or_null(e->baseline ? e->baseline->duration_us : NAN));
		cJSON_AddItemToObject(o, "final_us", recargs_num_or_null(e->final_us));
		if (e->final)
			cJSON_AddNumberToObject(o, "final_runs", (double)e->nruns);
		else
			cJSON_AddNullToObject(o, "final_runs");
		if (e->final) {
			cJSON_AddStringToObject(o, "final_candidate", e->final->candidate_id);
			cJSON_AddNumberToObject(o, "final_round", (double)e->final->round);
		} else {
			cJSON_AddNullToObject(o, "final_candidate");
			cJSON_AddNullToObject(o, "final_round");
		}
		cJSON_AddStringToObject(o, "final_source", stats_final_source_name(e->source));
		cJSON_AddItemToObject(o, "speedup", recargs_num_or_null(e->speedup));
		cJSON_AddItemToObject(o, "change_pct", recargs_num_or_null(100.0 * e->change));
		cJSON_AddBoolToObject(o, "regression", e->regression);
	}
	cJSON *groups = cJSON_AddArrayToObject(root, "dispatches");
	for (size_t g = 0; g < s->ngroups; g++) {
		const struct stats_speedup_group *x = &s->groups[g];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddItemToArray(groups, o);
		cJSON_AddStringToObject(o, "dispatch", x->dispatch);
		cJSON_AddNumberToObject(o, "workloads", (double)x->nused);
		cJSON_AddItemToObject(o, "geomean_speedup", recargs_num_or_null(x->geomean_speedup));
		cJSON_AddItemToObject(o, "geomean_change_pct", recargs_num_or_null(100.0 * x->geomean_change));
		cJSON_AddNumberToObject(o, "regressions", (double)x->nregressions);
	}
	cJSON_AddNumberToObject(root, "workloads", (double)s->nused);
	cJSON_AddNumberToObject(root, "missing", (double)(s->nkeys - s->nused));
	cJSON_AddItemToObject(root, "geomean_speedup", recargs_num_or_null(s->geomean_speedup));
	cJSON_AddItemToObject(root, "geomean_change_pct", recargs_num_or_null(100.0 * s->geomean_change));
	cJSON_AddNumberToObject(root, "regressions", (double)s->nregressions);
	return recargs_print_json(root);
}

static void print_speedup(double x)
{
	if (isfinite(x))
		printf("%.2fx", x);
	else
		fputs("—", stdout);
}

/* Markdown. The word "geomean" appears on exactly one table row and one
 * bullet, both carrying the overall figure, so a reader (or the gate)
 * looking for "geomean ... N.NNx" finds the overall claim. */
static void print_markdown(const struct stats_speedup *s)
{
	struct table t;
	char *md;
	report_speedup_keys_view(s, &t);
	md = report_table_markdown(&t);
	table_release(&t);
	if (md)
		printf("%s\n", md);
	free(md);
	report_speedup_paths_view(s, &t);
	md = report_table_markdown(&t);
	table_release(&t);
	if (md)
		fputs(md, stdout);
	free(md);
	putchar('\n');
	fputs("- geomean speedup: ", stdout);
	print_speedup(s->geomean_speedup);
	printf(" over %zu workload(s) (geometric-mean latency change ", s->nused);
	recargs_md_pct(stdout, s->geomean_change);
	puts(")");
	if (s->nregressions == 0) {
		puts("- regressions (speedup < 1): none");
	} else {
		fputs("- regressions (speedup < 1):", stdout);
		int first = 1;
		for (size_t k = 0; k < s->nkeys; k++) {
			const struct stats_speedup_key *e = &s->keys[k];
			if (!e->regression)
				continue;
			fputs(first ? " " : ", ", stdout);
			recargs_md_key(stdout, e->dispatch, "/", e->workload);
			fputs(" (", stdout);
			print_speedup(e->speedup);
			fputs(", ", stdout);
			recargs_md_pct(stdout, e->change);
			fputs(")", stdout);
			first = 0;
		}
		putchar('\n');
	}
	size_t missing = s->nkeys - s->nused;
	if (missing) {
		printf("- not counted (%zu): ", missing);
		int first = 1;
		for (size_t k = 0; k < s->nkeys; k++) {
			const struct stats_speedup_key *e = &s->keys[k];
			if (!isnan(e->speedup))
				continue;
			fputs(first ? "" : ", ", stdout);
			recargs_md_key(stdout, e->dispatch, "/", e->workload);
			fputs(!e->baseline ? " (no valid round-0 baseline)" : " (no final)", stdout);
			first = 0;
		}
		putchar('\n');
	}
}

/* --plot: one bar per key, log scale, the overall geomean as a line.
 * Returns 0, or -1 with errno set. */
static int write_plot(const struct stats_speedup *s, const char *path)
{
	const char **labels = calloc(s->nkeys ? s->nkeys : 1, sizeof(*labels));
	char **owned = calloc(s->nkeys ? s->nkeys : 1, sizeof(*owned));
	double *v = malloc((s->nkeys ? s->nkeys : 1) * sizeof(*v));
	char title[160];
	int rc = -1;
	if (!labels || !owned || !v)
		goto out;
	for (size_t k = 0; k < s->nkeys; k++) {
		const struct stats_speedup_key *e = &s->keys[k];
		size_t n = strlen(e->dispatch) + strlen(e->workload) + 4;
		if (s->ngroups > 1 && !(owned[k] = malloc(n)))
			goto out;
		if (owned[k])
			snprintf(owned[k], n, "%s / %s", e->dispatch, e->workload);
		labels[k] = owned[k] ? owned[k] : e->workload;
		v[k] = e->speedup;
	}
	snprintf(title, sizeof(title), "speedup baseline \xe2\x86\x92 final: geomean %.2fx over %zu workload%s",
		 s->geomean_speedup, s->nused, s->nused == 1 ? "" : "s");
	struct svg_bars bars = { title, "speedup = baseline_us / final_us (log scale)", labels, v,
				 NULL, s->nkeys, s->geomean_speedup, 0 };
	rc = svg_save_bars(path, &bars);
out:
	if (rc != 0 && !errno)
		errno = ENOMEM;
	for (size_t k = 0; owned && k < s->nkeys; k++)
		free(owned[k]);
	free(owned);
	free(labels);
	free(v);
	return rc;
}

/* ---- a perf_tuning/ folder (first-generation workflow) ---------------------- */

static double pt_change(double speedup)
{
	return isfinite(speedup) && speedup > 0 ? 1.0 / speedup - 1.0 : NAN;
}

static int pt_valid(double speedup)
{
	return isfinite(speedup) && speedup > 0;
}

static size_t pt_regressions(const struct ptune_speedups *p)
{
	size_t n = 0;
	for (size_t i = 0; i < p->n; i++)
		n += pt_valid(p->v[i].speedup) && p->v[i].speedup < 1.0;
	return n;
}

static int pt_print_json(const struct ptune_speedups *p, const char *path)
{
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "schema", "tlperf/speedup-perf-tuning/v1");
	cJSON_AddStringToObject(root, "perf_tuning", path);
	cJSON_AddStringToObject(root, "json", p->json);
	cJSON_AddStringToObject(root, "speedup_key", p->key);
	cJSON *cases = cJSON_AddArrayToObject(root, "cases");
	for (size_t i = 0; i < p->n; i++) {
		const struct ptune_case *c = &p->v[i];
		int ok = pt_valid(c->speedup);
		cJSON *o = cJSON_CreateObject();
		cJSON_AddItemToArray(cases, o);
		cJSON_AddStringToObject(o, "case", c->label);
		cJSON_AddItemToObject(o, "speedup", recargs_num_or_null(ok ? c->speedup : NAN));
		cJSON_AddItemToObject(o, "change_pct", recargs_num_or_null(100.0 * pt_change(c->speedup)));
		cJSON_AddBoolToObject(o, "regression", ok && c->speedup < 1.0);
	}
	cJSON_AddNumberToObject(root, "cases_counted", (double)p->nvalid);
	cJSON_AddNumberToObject(root, "missing", (double)(p->n - p->nvalid));
	cJSON_AddItemToObject(root, "geomean_speedup", recargs_num_or_null(p->geomean));
	cJSON_AddItemToObject(root, "geomean_change_pct", recargs_num_or_null(100.0 * pt_change(p->geomean)));
	cJSON_AddItemToObject(root, "mean_speedup", recargs_num_or_null(p->mean));
	cJSON_AddItemToObject(root, "stated_mean_speedup", recargs_num_or_null(p->stated_mean));
	cJSON_AddNumberToObject(root, "regressions", (double)pt_regressions(p));
	return recargs_print_json(root);
}

/* The per-case table, ending with the "geomean" row. Returns 0, -1 when
 * out of memory. */
static int pt_md_table(const struct ptune_speedups *p)
{
	struct table t;
	report_ptune_speedups_view(p, &t);
	if (report_table_put_markdown(stdout, &t) != 0)
		return -1;
	putchar('\n');
	return 0;
}

/* The "geomean speedup" and "arithmetic mean" bullets. */
static void pt_md_means(const struct ptune_speedups *p)
{
	fputs("- geomean speedup: ", stdout);
	print_speedup(p->geomean);
	printf(" over %zu case(s) (geometric-mean latency change ", p->nvalid);
	recargs_md_pct(stdout, pt_change(p->geomean));
	puts(")");
	fputs("- arithmetic mean: ", stdout);
	print_speedup(p->mean);
	if (isfinite(p->stated_mean)) {
		fputs("; the JSON states ", stdout);
		print_speedup(p->stated_mean);
	}
	printf(" (key \"");
	escape_md_cell(stdout, p->key, MD_CELL_PLAIN);
	puts("\")");
}

/* The "regressions" bullet: the cases with a valid speedup < 1, or none. */
static void pt_md_regressions(const struct ptune_speedups *p)
{
	if (pt_regressions(p) == 0) {
		puts("- regressions (speedup < 1): none");
		return;
	}
	fputs("- regressions (speedup < 1):", stdout);
	int first = 1;
	for (size_t i = 0; i < p->n; i++) {
		const struct ptune_case *c = &p->v[i];
		if (!pt_valid(c->speedup) || c->speedup >= 1.0)
			continue;
		fputs(first ? " " : ", ", stdout);
		escape_md_cell(stdout, c->label, MD_CELL_PLAIN);
		fputs(" (", stdout);
		print_speedup(c->speedup);
		fputs(")", stdout);
		first = 0;
	}
	putchar('\n');
}

/* The "not counted" bullet, when some case has no valid speedup. */
static void pt_md_uncounted(const struct ptune_speedups *p)
{
	if (p->n <= p->nvalid)
		return;
	printf("- not counted (%zu): ", p->n - p->nvalid);
	int first = 1;
	for (size_t i = 0; i < p->n; i++) {
		if (pt_valid(p->v[i].speedup))
			continue;
		fputs(first ? "" : ", ", stdout);
		escape_md_cell(stdout, p->v[i].label, MD_CELL_PLAIN);
		fputs(" (no finite speedup > 0)", stdout);
		first = 0;
	}
	putchar('\n');
}

/* Markdown, with the conventions of the records output: one "geomean" row
 * and one "geomean speedup" bullet carrying the overall figure. */
static int pt_print_markdown(const struct ptune_speedups *p, const char *path)
{
	fputs("**Per-case speedup (perf_tuning: ", stdout);
	escape_md_cell(stdout, path, MD_CELL_PLAIN);
	fputs(", ", stdout);
	escape_md_cell(stdout, p->json, MD_CELL_PLAIN);
	fputs(")**\n\n", stdout);
	if (pt_md_table(p) != 0)
		return -1;
	pt_md_means(p);
	pt_md_regressions(p);
	pt_md_uncounted(p);
	return 0;
}

static int pt_write_plot(const struct ptune_speedups *p, const char *path, const char *shown)
{
	size_t n = p->n ? p->n : 1;
	const char **labels = calloc(n, sizeof(*labels));
	double *v = malloc(n * sizeof(*v));
	char title[256];
	int rc = -1;
	if (!labels || !v) {
		errno = ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < p->n; i++) {
		labels[i] = p->v[i].label;
		v[i] = p->v[i].speedup;
	}
	snprintf(title, sizeof(title), "speedup per case (%s, %s): geomean %.2fx over %zu case%s", shown,
		 p->json, p->geomean, p->nvalid, p->nvalid == 1 ? "" : "s");
	struct svg_bars bars = { title, "speedup as the bench JSON states it (log scale)", labels, v,
				 NULL, p->n, p->geomean, 0 };
	rc = svg_save_bars(path, &bars);
out:
	free(labels);
	free(v);
	return rc;
}

static int speedup_folder(const char *path, int json, int strict, const char *plot)
{
	struct ptune_speedups p;
	char err[512];
	int r = ptune_speedups(path, &p, err, sizeof(err)), rc = CLI_OK;
	if (r != 0) {
		/* no bench JSON with per-case rows is input the command cannot
		 * read, as an unreadable folder is: exit 2 either way */
		cli_error("%s", err);
		rc = CLI_USAGE;
		goto out;
	}
	if (strict && p.nvalid < p.n) {
		cli_error("%zu case(s) of '%s/%s' have no finite speedup > 0 (--strict)", p.n - p.nvalid,
			  path, p.json);
		rc = CLI_FAIL;
		goto out;
	}
	if (json)
		rc = pt_print_json(&p, path);
	else if (pt_print_markdown(&p, path) != 0) {
		cli_error("out of memory");
		rc = CLI_USAGE;
		goto out;
	}
	if (rc == CLI_OK && p.nvalid == 0) {
		cli_error("no case of '%s/%s' has a finite speedup > 0", path, p.json);
		rc = CLI_FAIL;
	}
	if (plot && p.nvalid > 0 && pt_write_plot(&p, plot, path) != 0) {
		cli_error("cannot write plot '%s': %s", plot, strerror(errno));
		rc = CLI_USAGE;
	}
	rc = cli_finish_stdout(rc);
out:
	ptune_speedups_release(&p);
	return rc;
}

/* The winner of the last Final Summary of the opt_log at opt_path, or of
 * opt_log.md next to records_path when opt_path is NULL (absent: *out
 * stays NULL). "Nothing adopted" is not a name: then *out stays NULL and
 * the records decide. Returns 0 with *out malloc'd or NULL, or CLI_USAGE
 * after an error message. */
static int final_from_optlog(const char *opt_path, const char *records_path, char **out)
{
	char buf[4096];
	const char *path = opt_path;
	struct optlog lg;
	struct stat st;
	*out = NULL;
	if (!path) {
		const char *slash = strrchr(records_path, '/');
		int dl = slash ? (int)(slash - records_path) : 1;
		const char *dir = slash ? records_path : ".";
		if (snprintf(buf, sizeof(buf), "%.*s/opt_log.md", dl, dir) >= (int)sizeof(buf))
			return 0;
		if (stat(buf, &st) != 0 || !S_ISREG(st.st_mode))
			return 0;
		path = buf;
	}
	optlog_init(&lg);
	if (optlog_load(path, &lg) != 0) {
		cli_error("cannot read opt_log '%s': %s", path, strerror(errno));
		optlog_release(&lg);
		return CLI_USAGE;
	}
	if (lg.best) {
		*out = strdup(lg.best);
		if (!*out) {
			cli_error("out of memory");
			optlog_release(&lg);
			return CLI_USAGE;
		}
	} else if (opt_path) {
		cli_error("'%s' names no winner in a Final Summary: pass --final CANDIDATE", path);
		optlog_release(&lg);
		return CLI_USAGE;
	}
	optlog_release(&lg);
	return 0;
}

static int add_record(void *acc, const struct record *r)
{
	return stats_speedup_add(acc, r);
}

/* The command's options, as parsed. */
struct speedup_args {
	struct recargs a;
	const char *final, *plot, *opt_log; /* --final, --plot, --opt-log; NULL when not given */
};

/* One option of the table into g. */
static void speedup_option(struct speedup_args *g, int ch, const char *arg)
{
	switch (ch) {
	case 'f': g->final = arg; break;
	case 'O': g->opt_log = arg; break;
	case 'P': g->plot = arg; break;
	default: recargs_option(&g->a, ch);
	}
}

/* Reports why stats_speedup_finish() failed (errno) on the records at
 * path, final being --final or NULL. Returns CLI_USAGE. */
static int finish_error(const char *final, const char *path)
{
	if (errno == ENOENT)
		cli_error("final candidate '%s' has no valid record in '%s'", final, path);
	else if (errno == ESRCH)
		cli_error("cannot tell the final candidate of '%s': no opt_log winner, no phase "
			  "'final' record and no adopted candidate (parent_id) in the records; "
			  "pass --final CANDIDATE",
			  path);
	else
		cli_error("out of memory analysing '%s'", path);
	return CLI_USAGE;
}

/* Tells how the opt_log's winner from_log was taken (s->hint): not a
 * candidate of the records at path (warning), or under another name (note). */
static void report_hint(const struct stats_speedup *s, const char *from_log, const char *path)
{
	if (s->hint == -1)
		cli_warn("the opt_log's Final Summary names best '%s', which is no candidate with a "
			 "valid record in '%s': the final is taken from the records",
			 from_log, path);
	else if (s->hint == 2)
		cli_note("the opt_log's Final Summary names best '%s': taken as candidate '%s'",
			 from_log, s->final_candidate);
}

/* Prints s (JSON or Markdown) and writes --plot. Returns the exit code. */
static int speedup_print(const struct stats_speedup *s, const struct speedup_args *g,
			 const char *final, enum records_contract contract)
{
	const char *path = g->a.path;
	int rc = CLI_OK;
	if (g->a.json)
		rc = print_json(s, path, final, contract);
	else
		print_markdown(s);
	if (rc == CLI_OK && s->nused == 0) {
		cli_error("no workload of '%s' has both a valid round-0 baseline and a final record",
			  path);
		rc = CLI_FAIL;
	}
	if (g->plot && s->nused > 0 && write_plot(s, g->plot) != 0) {
		cli_error("cannot write plot '%s': %s", g->plot, strerror(errno));
		rc = CLI_USAGE;
	}
	return cli_finish_stdout(rc);
}

/* The speedups of the records operand, the final taken from --final, the
 * opt_log or the records. Returns the exit code. */
static int speedup_records(struct speedup_args *g, const struct cli_parser *cp)
{
	char *from_log = NULL;
	int rc;
	struct strpool ids;
	struct stats_speedup_acc acc;
	struct stats_speedup s = { 0 };
	enum records_contract contract;
	const char *final = g->final;
	strpool_init(&ids); /* allocates nothing until used */
	if (!final && cp->argc - cp->next == 1) {
		if ((rc = final_from_optlog(g->opt_log, cp->argv[cp->next], &from_log)) != 0)
			return rc;
	}
	stats_speedup_begin(&acc, final);
	acc.final_hint = from_log; /* resolved against the candidates at finish */
	rc = recargs_stream_operand(&g->a, cp, &ids, add_record, &acc, &contract);
	if (rc == CLI_OK && stats_speedup_finish(&acc, &s) != 0)
		rc = finish_error(final, g->a.path);
	else if (rc == CLI_OK) {
		report_hint(&s, from_log, g->a.path);
		if (!final && s.final_candidate)
			final = s.final_candidate;
		rc = speedup_print(&s, g, final, contract);
	}
	free(from_log);
	stats_speedup_abort(&acc);
	stats_speedup_release(&s);
	strpool_release(&ids);
	return rc;
}

int cmd_speedup(int argc, char **argv)
{
	struct speedup_args g = { .a = { .name = "speedup" } };
	struct cli_parser cp;
	struct stat st;
	int ch;
	cli_parser_init(&cp, &cmd_speedup_spec, argc, argv);
	while ((ch = cli_parser_next(&cp)) > 0)
		speedup_option(&g, ch, optarg);
	if (ch == CLI_PARSE_STOP)
		return cp.rc;
	if (argc - cp.next == 1 && stat(argv[cp.next], &st) == 0 && S_ISDIR(st.st_mode)) {
		if (g.final || g.opt_log)
			return cli_usage_error("speedup", "%s does not apply to a perf_tuning folder ('%s')",
					       g.final ? "--final" : "--opt-log", argv[cp.next]);
		return speedup_folder(argv[cp.next], g.a.json, g.a.strict, g.plot);
	}
	if (g.final && g.opt_log)
		return cli_usage_error("speedup", "--final and --opt-log exclude each other");
	return speedup_records(&g, &cp);
}
