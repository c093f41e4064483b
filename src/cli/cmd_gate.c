/* cmd_gate.c: `tlperf gate` / `tlgate`, gate 4 over perf_opt/ (and
 * perf_tuning/) directories for CI. */
#include "cli/cli.h"
#include "cli/options.h"
#include "run/gate_config.h"
#include "run/gate_perf_opt.h"
#include "run/gate_stage_result.h"
#include "io/stage_result.h"
#include "run/gate_perf_tuning.h"
#include "run/gate_tree.h"
#include "run/git.h"
#include "report/report.h"
#include "util/path.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const struct cli_option gate_options[] = {
	{ 'c', 0, "changed-since", "REF", "only the directories holding a file changed in REF...HEAD\n"
					  "(REF..HEAD when there is no merge base; deletions ignored),\n"
					  "wherever they are, and those whose records name a changed\n"
					  "file as their artifact" },
	{ 'b', 0, "base", "REF", "perf_records.jsonl must only have grown since REF, also when\n"
				 "moved, copied or deleted; no record stamped after the\n"
				 "commit that added it" },
	{ 'C', 0, "config", "FILE", "rule severities and inline-suppressible rules (default: the\n"
				    "nearest .tlgate.json up to the repository top; with\n"
				    "--changed-since or --base, the base revision's: a pull\n"
				    "request's own .tlgate.json never applies, and one weakening\n"
				    "a rule is a TLGATE-CONFIG error)" },
	{ 's', 0, "strict", NULL, "S4-STOP-REASON and S4-LAYOUT findings become errors" },
	{ 'w', 0, "warnings-as-errors", NULL, "any warning fails the gate" },
	{ 'f', 0, "format", "FMT", REPORT_FORMAT_HELP, report_format_names },
	{ 'r', 0, "report", "FMT:PATH", "also write FMT (a --format) to PATH (repeatable)" },
	{ 'S', 0, "stage-result", "FILE", "check the Stage Result block in FILE ('-': stdin)\n"
					  "against the one operator directory PATH" },
	{ 'T', 0, "statistics", NULL, "text: counts per rule instead of one line per finding" },
	{ 'A', 0, "allow-empty", NULL, "a PATH under which nothing is checked is not an error" },
	CLI_OPT_END
};

const struct cli_spec cmd_gate_spec = {
	"gate",
	"tlgate [options] [PATH...]\n"
	"tlperf gate [options] [PATH...]",
	"Checks every perf_opt/ directory (gate 4) and perf_tuning/ directory found\n"
	"under each PATH (a perf_opt/ directory, an operator directory, or any tree;\n"
	".git and node_modules are not entered). No PATH means the current directory.\n"
	"A PATH that is or lies inside a perf_opt/ or perf_tuning/ directory ('.' in\n"
	"op/perf_opt) checks that directory, from its operator directory; nothing\n"
	"else outside a PATH is read, and symbolic links never lead out of it.\n"
	"A PATH under which nothing is checked is an error (exit 2) unless\n"
	"--allow-empty; with --changed-since, no changed directory is exit 0.\n",
	gate_options,
	"--stage-result FILE DIR reads the '## Stage Result' block a tuning agent returns\n"
	"(FILE, or standard input for '-') and reconciles it with the records of the one\n"
	"operator directory DIR (or its perf_opt/): S4-STAGE-RESULT-* findings only, in\n"
	"any --format (docs/tlgate.md).\n"
	"\n"
	"The text format ends with one line: directories checked, errors, warnings\n"
	"and the time taken. `tlperf explain RULE` says what a rule checks.\n"
	"Exit: 0 no errors, 1 errors found, 2 usage error or unreadable PATH.\n",
	0, NULL,
};

struct report_out {
	const struct report_format *fmt;
	char *path;
};

/* The command's options, as parsed. */
struct gate_args {
	const char *changed, *base, *config, *stage;
	int strict, wae, statistics, allow_empty;
	const struct report_format *fmt;
	struct report_out *reports;  /* --report FORMAT:PATH, owned */
	size_t nreports;
};

/* The configuration of d into cs->cfg (run/gate_config.h), TLGATE-CONFIG
 * findings into out. Returns 0, -1 after a message, -2 out of memory. */
static int config_for(struct gate_config_state *cs, const struct gate_set *set,
		      const struct gate_dir *d, struct gate_findings *out)
{
	char err[512];
	int rc = gate_config_for(cs, set, d, out, err, sizeof(err));
	if (rc == -1)
		cli_error("%s", err);
	return rc;
}

/* Checks one directory into one (findings with their default severities,
 * suppressions applied under cfg). Returns 0, -1 after a message, -2 out
 * of memory. */
static int check_one(struct gate_set *set, const struct gate_dir *d, const char *base,
		     const struct gate_config *cfg, struct gate_findings *one)
{
	const struct gate_root *r = &set->roots[d->root];
	struct gatecheck_result res;
	gatecheck_result_init(&res);
	int sr;
	errno = 0;
	if (d->ptune) {
		if (ptune_check_dir_in(&r->tree, d->rel, d->shown, one) != 0) {
			cli_error("cannot read '%s': %s", d->shown, strerror(errno));
			return -1;
		}
		sr = ptune_suppressions_in(&r->tree, d->rel, d->shown, &res.sup);
	} else {
		struct gatecheck_opts gopts = { .base_ref = base, .tree = &r->tree, .rel = d->rel,
						.repo_top = r->top, .moves = r->moves,
						.ab_threshold = cfg->ab_threshold };
		if (gatecheck_dir(d->shown, d->shown, &gopts, one, &res) != 0) {
			int e = errno;
			gatecheck_result_release(&res);
			if (e == ENOMEM)
				return -2;
			cli_error("cannot read '%s': %s", d->shown, strerror(e));
			return -1;
		}
		sr = 0;
	}
	if (sr == 0)
		sr = gate_config_apply_suppressions(cfg, one, &res.sup);
	gatecheck_result_release(&res);
	return sr ? -2 : 0;
}

/* The findings in fmt on standard output and in every --report file, then
 * the exit code: CLI_FAIL for errors (or warnings with --warnings-as-errors),
 * CLI_USAGE when a report cannot be written. */
static int write_reports(const struct gate_findings *fs, const struct report_ctx *ctx,
			 const struct report_format *fmt, const struct report_out *reports, size_t nreports)
{
	if (report_write(stdout, fmt, fs, ctx) != 0) {
		cli_error("cannot write the report: %s", strerror(errno));
		return CLI_USAGE;
	}
	for (size_t i = 0; i < nreports; i++) {
		FILE *f = fopen(reports[i].path, "w");
		int bad = !f || report_write(f, reports[i].fmt, fs, ctx) != 0;
		if (f && fclose(f) != 0)
			bad = 1;
		if (bad) {
			cli_error("cannot write report '%s': %s", reports[i].path, strerror(errno));
			return CLI_USAGE;
		}
	}
	int failed = gate_count(fs, GATE_ERROR) > 0 ||
		     (ctx->warnings_as_errors && gate_count(fs, GATE_WARNING) > 0);
	return cli_finish_stdout(failed ? CLI_FAIL : CLI_OK);
}

/* The perf_opt/ directory of the operator directory dir (dir itself when
 * it is one) into *out, malloc'd (freed by the caller in every case).
 * Returns 0, -1 after a message, -2 when out of memory. */
static int stage_perf_opt(const char *dir, char **out)
{
	struct stat st;
	*out = NULL;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		cli_error("'%s' is not a directory", dir);
		return -1;
	}
	if (path_base_is(dir, "perf_opt")) {
		*out = strdup(dir);
	} else {
		*out = path_join(dir, "perf_opt");
		if (*out && (stat(*out, &st) != 0 || !S_ISDIR(st.st_mode))) {
			cli_error("'%s' holds no perf_opt/ directory: give the operator directory of the Stage Result",
				  dir);
			return -1;
		}
	}
	return *out ? 0 : -2;
}

/* --stage-result: the configuration in force for perf_opt into cs->cfg:
 * --config; else, in pull-request mode (--base or --changed-since REV),
 * REV's nearest .tlgate.json (the working tree's compared with it:
 * TLGATE-CONFIG into out); else the nearest .tlgate.json up to the
 * repository top. Returns 0, -1 after a message, -2 out of memory. */
static int stage_config(struct gate_config_state *cs, const char *perf_opt,
			struct gate_findings *out)
{
	char err[512];
	if (!cs->rev) {
		char *path = cs->explicit_path ? strdup(cs->explicit_path) : gate_config_find(perf_opt, NULL);
		int rc = path && gate_config_load(path, &cs->cfg, err, sizeof(err)) != 0 ? -1 : 0;
		if (rc)
			cli_error("%s", err);
		free(path);
		return rc;
	}
	if (git_locate(getenv("PATH"), err, sizeof(err)) != 0) {
		cli_error("the base revision's configuration needs git: %s", err);
		return -1;
	}
	struct gate_set set;
	gate_set_init(&set);
	int rc = gate_set_add_root(&set, perf_opt, err, sizeof(err));
	if (rc != 0) {
		cli_error("%s", err);
	} else {
		/* the root is perf_opt's parent (gate_tree.h) */
		struct gate_dir d = { 0, (char *)"perf_opt", (char *)perf_opt, 0 };
		rc = config_for(cs, &set, &d, out);
	}
	gate_set_release(&set);
	return rc;
}

static int stage_result_gate(const struct gate_args *g, const char *dir, int ndirs)
{
	struct stage_result sr;
	struct gate_findings fs, cfg_fs;
	struct gate_config_state cs;
	struct gatecheck_result res;
	char err[1024], *perf_opt = NULL, *top = NULL;
	int rc = CLI_USAGE, found;
	stage_result_init(&sr);
	gate_findings_init(&fs);
	gate_findings_init(&cfg_fs);
	gate_config_state_init(&cs, g->config, g->base ? g->base : g->changed, g->strict);
	gatecheck_result_init(&res);
	if (ndirs > 1) {
		rc = cli_usage_error("gate", "--stage-result checks one directory, got %d", ndirs);
		goto out;
	}
	if ((found = stage_perf_opt(dir, &perf_opt)) != 0) {
		if (found == -2)
			goto oom;
		goto out;
	}
	if (stage_result_load(g->stage, &sr, err, sizeof(err)) != 0) {
		cli_error("%s", err);
		goto out;
	}
	if ((found = stage_config(&cs, perf_opt, &cfg_fs)) != 0) {
		if (found == -2)
			goto oom;
		goto out;
	}
	const char *shown = strcmp(g->stage, "-") == 0 ? "<stdin>" : g->stage;
	errno = 0;
	if (gate_stage_result_check(perf_opt, perf_opt, &sr, shown, &fs, &res, NULL) != 0) {
		if (errno == ENOMEM)
			goto oom;
		cli_error("cannot read '%s': %s", perf_opt, strerror(errno));
		goto out;
	}
	gate_config_apply(&cs.cfg, &fs);
	if (gate_findings_move(&fs, &cfg_fs) != 0)
		goto oom;
	top = tree_repo_top(perf_opt);
	struct report_ctx ctx = { "tlgate", TLPERF_VERSION, top, 1, g->wae, -1, g->statistics, 1 };
	rc = write_reports(&fs, &ctx, g->fmt, g->reports, g->nreports);
	goto out;
oom:
	cli_error("out of memory");
	rc = CLI_USAGE;
out:
	stage_result_release(&sr);
	gate_findings_release(&fs);
	gate_findings_release(&cfg_fs);
	gate_config_state_release(&cs);
	gatecheck_result_release(&res);
	free(perf_opt);
	free(top);
	return rc;
}

static void gate_args_release(struct gate_args *g)
{
	for (size_t i = 0; i < g->nreports; i++)
		free(g->reports[i].path);
	free(g->reports);
}

/* --report FORMAT:PATH appended to g. Returns CLI_OK, CLI_USAGE after a
 * message (also when memory ran out). */
static int add_report(struct gate_args *g, const char *arg)
{
	const char *colon = strchr(arg, ':');
	const struct report_format *rf;
	char name[32];
	size_t n = colon ? (size_t)(colon - arg) : 0;
	if (!colon || n == 0 || n >= sizeof(name) || !colon[1])
		return cli_usage_error("gate", "--report wants FORMAT:PATH, got '%s'", arg);
	memcpy(name, arg, n);
	name[n] = '\0';
	if (!(rf = report_format_named(name))) {
		cli_choice("gate", "--report", name, report_format_names);
		return CLI_USAGE;
	}
	struct report_out *v = realloc(g->reports, (g->nreports + 1) * sizeof(*v));
	if (!v || !(v[g->nreports].path = strdup(colon + 1))) {
		if (v)
			g->reports = v;
		cli_error("out of memory");
		return CLI_USAGE;
	}
	g->reports = v;
	v[g->nreports++].fmt = rf;
	return CLI_OK;
}

/* Parses the options into g; *first gets the index of the first PATH.
 * Returns 1 to go on, or 0 to stop with the exit code *rc (-h and
 * --version: CLI_OK; mistakes: CLI_USAGE). */
static int parse_gate_args(int argc, char **argv, struct gate_args *g, int *first, int *rc_out)
{
	struct cli_parser cp;
	int opt, rc = CLI_OK;
	memset(g, 0, sizeof(*g));
	g->fmt = report_formats; /* text */
	cli_parser_init(&cp, &cmd_gate_spec, argc, argv);
	while (rc == CLI_OK && (opt = cli_parser_next(&cp)) > 0) {
		switch (opt) {
		case 'c': g->changed = optarg; break;
		case 'b': g->base = optarg; break;
		case 'C': g->config = optarg; break;
		case 's': g->strict = 1; break;
		case 'T': g->statistics = 1; break;
		case 'w': g->wae = 1; break;
		case 'A': g->allow_empty = 1; break;
		case 'S': g->stage = optarg; break;
		case 'f': /* a choice of the table: checked by the parser */
			if (!(g->fmt = report_format_named(optarg)))
				rc = CLI_USAGE;
			break;
		case 'r': rc = add_report(g, optarg); break;
		}
	}
	*rc_out = rc != CLI_OK ? rc : opt == CLI_PARSE_STOP ? cp.rc : CLI_OK;
	*first = cp.next;
	return rc == CLI_OK && opt != CLI_PARSE_STOP;
}

/* --base REV names a revision of the repository holding each checked tree
 * (not of the current directory). Returns CLI_OK or CLI_USAGE after a
 * message. */
static int check_base(const struct gate_set *set, const char *base)
{
	for (size_t i = 0; base && i < set->nroots; i++) {
		const char *rtop = set->roots[i].top;
		size_t sl = strlen(base) + 10;
		char *spec = malloc(sl), *o = NULL;
		size_t ol;
		if (!spec) {
			cli_error("out of memory");
			return CLI_USAGE;
		}
		snprintf(spec, sl, "%s^{commit}", base);
		char *argv2[] = { "git", "-C", (char *)rtop, "rev-parse", "--verify", "--quiet", spec, NULL };
		int g = rtop ? git_capture(argv2, 4096, &o, &ol) : -1;
		free(spec);
		free(o);
		if (g != 0) {
			cli_error("--base '%s' is not a revision of the git repository holding '%s' (or '%s' is in none)",
				  base, set->roots[i].shown, set->roots[i].shown);
			return CLI_USAGE;
		}
	}
	return CLI_OK;
}

/* The directories to check: with --changed-since, from each repository's
 * own list of changed files (once per repository); else by walking the
 * roots. Returns CLI_OK or CLI_USAGE after a message. */
static int discover(struct gate_set *set, const char *changed)
{
	char *list = NULL;
	size_t len = 0;
	int rc = CLI_OK;
	if (!changed) {
		if (gate_set_discover(set, NULL, 0) != 0) {
			cli_error("out of memory");
			return CLI_USAGE;
		}
		return CLI_OK;
	}
	for (size_t i = 0; rc == CLI_OK && i < set->nroots; i++) {
		const char *rtop = set->roots[i].top;
		int done = 0;
		for (size_t k = 0; k < i && !done; k++)
			done = set->roots[k].top && rtop && strcmp(set->roots[k].top, rtop) == 0;
		if (done)
			continue;
		if (!rtop) {
			cli_error("--changed-since: '%s' is not in a git repository", set->roots[i].shown);
			rc = CLI_USAGE;
			break;
		}
		free(list);
		list = NULL;
		int c = gate_changed_files(rtop, changed, &list, &len);
		if (c > 0) {
			cli_error("--changed-since '%s': git cannot list the changes of the repository holding '%s' (an unknown revision?)",
				  changed, set->roots[i].shown);
			rc = CLI_USAGE;
		} else if (c < 0 || gate_set_discover_changed(set, rtop, list, len) != 0) {
			cli_error("out of memory");
			rc = CLI_USAGE;
		}
	}
	free(list);
	return rc;
}

/* --base: the records files moved or removed since the base. Returns
 * CLI_OK or CLI_USAGE after a message. */
static int history(struct gate_set *set, const char *base)
{
	char err[512];
	if (base && gate_set_history(set, base, err, sizeof(err)) != 0) {
		cli_error("--base '%s': %s", base, err);
		return CLI_USAGE;
	}
	return CLI_OK;
}

/* Nothing checked under an explicit PATH is a usage error (a mistyped
 * path in CI must not pass), unless --allow-empty or --changed-since
 * (where no change is a normal outcome, said in a note). Returns CLI_OK or
 * CLI_USAGE after a message. */
static int check_nonempty(const struct gate_set *set, const struct gate_args *g, int explicit_paths)
{
	if (set->ndirs == 0 && g->changed) {
		cli_note("no perf_opt/ or perf_tuning/ directory changed since '%s': nothing to check",
			 g->changed);
		return CLI_OK;
	}
	long e = explicit_paths && !g->allow_empty && !g->changed ? gate_set_empty_root(set) : -1;
	if (e >= 0) {
		char why[8192];
		gate_root_empty_reason(set, (size_t)e, "tlgate", why, sizeof(why));
		cli_error("nothing to check under '%s': %s", set->roots[e].shown, why);
		return CLI_USAGE;
	}
	if (set->ndirs == 0)
		cli_note("no perf_opt/ or perf_tuning/ directory to check");
	return CLI_OK;
}

/* Every discovered directory under its configuration, findings into
 * *all, then what discovery could not check (never configurable away).
 * Returns CLI_OK or CLI_USAGE after a message. */
static int check_dirs(struct gate_set *set, struct gate_config_state *cs, const char *base,
		      struct gate_findings *all)
{
	for (size_t i = 0; i < set->ndirs; i++) {
		const struct gate_dir *d = &set->dirs[i];
		struct gate_findings one;
		gate_findings_init(&one);
		int c = config_for(cs, set, d, all);
		if (c == 0)
			c = check_one(set, d, base, &cs->cfg, &one);
		if (c == 0) {
			gate_config_apply(&cs->cfg, &one);
			c = gate_findings_move(all, &one) ? -2 : 0;
		}
		gate_findings_release(&one);
		if (c == -2)
			cli_error("out of memory");
		if (c)
			return CLI_USAGE;
	}
	if (gate_findings_move(all, &set->tree_findings)) {
		cli_error("out of memory");
		return CLI_USAGE;
	}
	return CLI_OK;
}

/* The trees to check: the operands paths (NULL-terminated; "." when none),
 * after locating git when --changed-since or --base needs it. Returns
 * CLI_OK or CLI_USAGE after a message. */
static int add_roots(struct gate_set *set, const struct gate_args *g, const char *const *paths)
{
	char err[512];
	/* git only when asked for, and never one found through a relative
	 * PATH entry (it could be the checked tree's own) */
	if ((g->changed || g->base) && git_locate(getenv("PATH"), err, sizeof(err)) != 0) {
		cli_error("--%s needs git: %s", g->changed ? "changed-since" : "base", err);
		return CLI_USAGE;
	}
	for (size_t i = 0; paths[i]; i++)
		if (gate_set_add_root(set, paths[i], err, sizeof(err)) != 0) {
			cli_error("%s", err);
			return CLI_USAGE;
		}
	if ((g->changed || g->base) && !set->roots[0].top) {
		cli_error("--%s: '%s' is not in a git repository", g->changed ? "changed-since" : "base",
			  paths[0]);
		return CLI_USAGE;
	}
	return CLI_OK;
}

/* Every directory under the roots of set checked into *all under its
 * configuration, then the reports (timed from t0). Returns the exit code. */
static int check_trees(const struct gate_args *g, int explicit_paths, struct gate_set *set,
		       struct gate_config_state *cs, struct gate_findings *all, const struct timespec *t0)
{
	struct timespec t1;
	if (check_base(set, g->base) != CLI_OK || discover(set, g->changed) != CLI_OK ||
	    history(set, g->base) != CLI_OK || check_nonempty(set, g, explicit_paths) != CLI_OK ||
	    check_dirs(set, cs, g->base, all) != CLI_OK)
		return CLI_USAGE;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	struct report_ctx ctx = { "tlgate", TLPERF_VERSION, set->roots[0].top, set->ndirs, g->wae,
				  (double)(t1.tv_sec - t0->tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0->tv_nsec),
				  g->statistics, 1 };
	return write_reports(all, &ctx, g->fmt, g->reports, g->nreports);
}

int cmd_gate(int argc, char **argv)
{
	struct gate_args g;
	struct gate_set set;
	struct gate_findings all;
	struct gate_config_state cs;
	struct timespec t0;
	int first = argc, rc;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	gate_findings_init(&all);
	gate_set_init(&set);
	gate_config_state_init(&cs, NULL, NULL, 0);
	if (!parse_gate_args(argc, argv, &g, &first, &rc))
		goto out;
	gate_config_state_init(&cs, g.config, g.base ? g.base : g.changed, g.strict);
	rc = CLI_USAGE;
	if (g.config && access(g.config, R_OK) != 0) {
		cli_error("cannot read config '%s': %s", g.config, strerror(errno));
		goto out;
	}
	if (g.stage) {
		rc = stage_result_gate(&g, first < argc ? argv[first] : ".", argc - first);
		goto out;
	}
	const char *const dot[] = { ".", NULL };
	if (add_roots(&set, &g, first < argc ? (const char *const *)argv + first : dot) == CLI_OK)
		rc = check_trees(&g, first < argc, &set, &cs, &all, &t0);
out:
	gate_args_release(&g);
	gate_set_release(&set);
	gate_findings_release(&all);
	gate_config_state_release(&cs);
	return rc;
}
