/* cmd_loop.c: `tlperf loop`: argv only; the driver is in loop.c. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "stats/stats.h"
#include "cli/options.h"
#include "run/loop.h"
#include "io/fileops.h"
#include "io/loopplan.h"
#include "io/recwrite.h"

/* Every subcommand's --json: one object, schema tlperf/loop/v1. */
#define LOOP_JSON_HELP "one JSON object (schema tlperf/loop/v1) instead of the text"

enum { O_OP = 256, O_BASE, O_WL, O_OPT, O_TARGET, O_BENCH, O_L0, O_KN, O_CONTRACT,
       O_NOISE, O_MR, O_ME, O_SMALL, O_ABT, O_LC, O_WU, O_PAIRS, O_APROTO, O_ALC, O_AWU, O_MSPROF,
       O_TMO, O_FORCE, O_DIR, O_JSON, O_NOGATE, O_BRANCH,
       O_REMEASURE, O_BOTH };

static const struct cli_option init_options[] = {
	{ O_OP, 0, "op", "NAME", "operator name (the result is perf_opt/NAME.py)" },
	{ O_BASE, 0, "baseline", "FILE", "the Stage 3 kernel, relative to DIR" },
	{ O_WL, 0, "workload", "ID@DISPATCH", "a workload and its dispatch path (repeat; required)" },
	{ O_OPT, 0, "optional", "ID@DISPATCH", "a workload whose regression does not block adoption" },
	{ O_TARGET, 0, "target", "ID=US", "target latency of a workload (success when all are met)" },
	{ O_BENCH, 0, "bench-cmd", "CMD", "bench entry run under msprof; {impl} {workload} {dispatch}" },
	{ O_L0, 0, "l0-cmd", "CMD", "L0 precision regression; {impl}" },
	{ O_KN, 0, "kernel-name", "PAT", "msprof --kernel-name (default: the op name)" },
	{ O_CONTRACT, 0, "contract", "v1|v2", "record contract (v1)" },
	{ O_NOISE, 0, "noise", "F", "noise threshold (" LOOP_PLAN_NOISE_DEFAULT_TEXT ")" },
	{ O_MR, 0, "max-rounds", "N", "rounds budget (10)" },
	{ O_ME, 0, "max-experiments", "N", "branches budget (30)" },
	{ O_SMALL, 0, "small-us", "US", "small-kernel bound for A/B (20)" },
	{ O_ABT, 0, "ab-threshold", "F", "gains under this go to tlab (0.05)" },
	{ O_LC, 0, "launch-count", "N", "msprof launches per measurement (15)" },
	{ O_WU, 0, "warm-up", "N", "msprof warm-up launches (5)" },
	{ O_APROTO, 0, "ab-protocol", "fast|seq|ref", "tlab's protocol (fast, the default: it picks\n"
						      "the pairs it needs, for the runs users have;\n"
						      "seq: the same with a bound over every two-state\n"
						      "shift, about 11 pairs; ref: ab_test.py's rule)" },
	{ O_PAIRS, 0, "pairs", "N", "tlab pairs under --ab-protocol ref (3)" },
	{ O_ALC, 0, "ab-launch-count", "N", "tlab launches per run (15)" },
	{ O_AWU, 0, "ab-warm-up", "N", "tlab warm-up launches (5)" },
	{ O_MSPROF, 0, "msprof", "PATH", "msprof program (msprof)" },
	{ O_TMO, 0, "timeout", "S", "limit per command (900)" },
	{ O_FORCE, 0, "force", NULL, "replace an existing plan when no record exists yet" },
	{ O_JSON, 0, "json", NULL, LOOP_JSON_HELP },
	CLI_OPT_END
};
static const struct cli_option json_options[] = {
	{ O_JSON, 0, "json", NULL, LOOP_JSON_HELP },
	CLI_OPT_END
};
static const struct cli_option finish_options[] = {
	{ O_NOGATE, 0, "no-gate", NULL, "do not run the gate over perf_opt/ at the end" },
	{ O_REMEASURE, 0, "remeasure", NULL, "measure once more where the final confirmation\n"
					     "disagrees with the round beyond noise" },
	{ O_BOTH, 0, "report-both", NULL, "write the Final Summary even so: the median, both\n"
					  "runs shown and the disagreement stated" },
	{ O_JSON, 0, "json", NULL, LOOP_JSON_HELP },
	CLI_OPT_END
};
static const struct cli_option round_options[] = {
	{ O_BRANCH, 'b', "branch", "ID=FILE[@PARENT]", "a candidate kernel file (repeat); PARENT\n"
							"defaults to the current best" },
	{ O_JSON, 0, "json", NULL, LOOP_JSON_HELP },
	CLI_OPT_END
};
static const struct cli_option loop_options[] = {
	{ O_DIR, 'C', "dir", "DIR", "the operator directory (default: the current one)" },
	CLI_OPT_END
};

static const struct cli_spec loop_init_spec = {
	"loop init",
	"tlperf loop [-C DIR] init --op NAME --baseline FILE --workload ID@DISPATCH...\n"
	"                          --bench-cmd CMD --l0-cmd CMD [options] [--json]",
	"Writes the plan perf_opt/loop.json (which you may edit) and the head of\n"
	"perf_opt/opt_log.md.\n",
	init_options, NULL, 0, NULL,
};
static const struct cli_spec loop_baseline_spec = {
	"loop baseline", "tlperf loop [-C DIR] baseline [--json]",
	"Measures round 0: the baseline kernel on every workload.\n", json_options, NULL, 0, NULL,
};
static const struct cli_spec loop_round_spec = {
	"loop round", "tlperf loop [-C DIR] round N --branch ID=FILE[@PARENT] ... [--json]",
	"Measures round N's candidate kernels and prints the decision, the state\n"
	"(continue, success, budget_exhausted, plateau or blocked) and the next step.\n"
	"A branch whose bench fails is recorded as failed and the round goes on.\n",
	round_options, NULL, 0, NULL,
};
static const struct cli_spec loop_status_spec = {
	"loop status", "tlperf loop [-C DIR] status [--json]",
	"Prints where the loop stands, from the files alone.\n", json_options, NULL, 0, NULL,
};
static const struct cli_spec loop_next_spec = {
	"loop next", "tlperf loop [-C DIR] next [--json]",
	"Prints the state and the next step only (action, round, command).\n", json_options, NULL,
	0, NULL,
};
static const struct cli_spec loop_finish_spec = {
	"loop finish", "tlperf loop [-C DIR] finish [--remeasure | --report-both] [--no-gate] [--json]",
	"Writes the final kernel, measures it once more (the final confirmation),\n"
	"writes the Final Summary with each workload's final figure (the median of the\n"
	"kernel's runs), runs the gate, and prints the Stage Result (see report). A\n"
	"confirmation that disagrees with the round beyond noise stops before the\n"
	"summary and says so: --remeasure or --report-both.\n",
	finish_options, NULL, 0, NULL,
};
static const struct cli_spec loop_report_spec = {
	"loop report", "tlperf loop [-C DIR] report [--json]",
	"Prints the seed's '## Stage Result' block of a finished loop: every field in\n"
	"the seed's order, values from loop.json, perf_records.jsonl and opt_log.md;\n"
	"what the loop cannot know is 'none' for you to fill. finish prints it too. A\n"
	"copy goes to perf_opt/logs/stage_result.md (written once, never replaced).\n",
	json_options, NULL, 0, NULL,
};
static const struct cli_spec *const loop_subcommands[] = {
	&loop_init_spec, &loop_baseline_spec, &loop_round_spec, &loop_status_spec,
	&loop_next_spec, &loop_finish_spec, &loop_report_spec, NULL,
};

const struct cli_spec cmd_loop_spec = {
	"loop",
	"tlperf loop [-C DIR] init --op NAME --baseline FILE --workload ID@DISPATCH...\n"
	"                          --bench-cmd CMD --l0-cmd CMD [options] [--json]\n"
	"tlperf loop [-C DIR] baseline [--json]\n"
	"tlperf loop [-C DIR] round N --branch ID=FILE[@PARENT] ... [--json]\n"
	"tlperf loop [-C DIR] status [--json]\n"
	"tlperf loop [-C DIR] next [--json]\n"
	"tlperf loop [-C DIR] finish [--remeasure | --report-both] [--no-gate] [--json]\n"
	"tlperf loop [-C DIR] report [--json]",
	"Drives the Stage 4 tuning loop of the operator in DIR (default: the current\n"
	"directory, which holds perf_opt/). Everything is derived from perf_opt/loop.json,\n"
	"perf_records.jsonl and opt_log.md: re-running an interrupted command measures only\n"
	"what has no record yet. With --json every subcommand prints one JSON object\n"
	"(schema tlperf/loop/v1: outcome, state, current best, next action; docs/loop.md).\n"
	"`tlperf loop SUBCOMMAND --help` shows one subcommand.\n",
	loop_options,
	"Exit: 0 done, 1 a measurement or the gate failed, 2 bad plan or usage, 128+N signal.\n",
	CLI_SPEC_STOP_AT_OPERAND,
	loop_subcommands,
};

static int usage_err(const char *fmt, const char *arg)
{
	return cli_usage_error("loop", fmt, arg);
}

/* ID@DISPATCH, split at the last '@'. */
static int split_workload(const char *arg, char **id, char **disp)
{
	const char *at = strrchr(arg, '@');
	if (!at || at == arg || !at[1])
		return -1;
	*id = strndup(arg, (size_t)(at - arg));
	*disp = strdup(at + 1);
	return *id && *disp ? 0 : -1;
}

/* --workload/--optional ID@DISPATCH: adds the workload (required or not). */
static int init_workload(struct loop_plan *p, const char *arg, int required)
{
	char *id = NULL, *disp = NULL;
	int rc = CLI_OK;
	if (split_workload(arg, &id, &disp) != 0)
		rc = usage_err("--workload '%s': want ID@DISPATCH", arg);
	else if (loop_plan_add_workload(p, id, disp, required, NAN) != 0) {
		cli_error("out of memory");
		rc = CLI_USAGE;
	}
	free(id);
	free(disp);
	return rc;
}

/* The string options: the plan field each one sets, or NULL. */
static char **init_string_slot(struct loop_plan *p, int ch)
{
	switch (ch) {
	case O_OP: return &p->op;
	case O_BASE: return &p->baseline;
	case O_BENCH: return &p->bench_cmd;
	case O_L0: return &p->l0_cmd;
	case O_KN: return &p->kernel_name;
	case O_MSPROF: return &p->msprof;
	default: return NULL;
	}
}

/* The numeric options. Returns 0, or -1 after a message. */
static int init_number(struct loop_plan *p, int ch, const char *arg)
{
	switch (ch) {
	case O_NOISE: return cli_parse_double("--noise", arg, &p->noise);
	case O_SMALL: return cli_parse_double("--small-us", arg, &p->small_us);
	case O_ABT: return cli_parse_double("--ab-threshold", arg, &p->ab_threshold);
	case O_MR: return cli_parse_long("--max-rounds", arg, 1, 100000, &p->max_rounds);
	case O_ME: return cli_parse_long("--max-experiments", arg, 1, 100000, &p->max_experiments);
	case O_LC: return cli_parse_long("--launch-count", arg, 1, 100000, &p->launch_count);
	case O_WU: return cli_parse_long("--warm-up", arg, 0, 100000, &p->warm_up);
	case O_PAIRS: return cli_parse_long("--pairs", arg, 3, 100000, &p->tlab_pairs);
	case O_ALC: return cli_parse_long("--ab-launch-count", arg, 1, 100000, &p->tlab_launch_count);
	case O_AWU: return cli_parse_long("--ab-warm-up", arg, 0, 100000, &p->tlab_warm_up);
	case O_TMO: return cli_parse_long("--timeout", arg, 1, 10000000, &p->timeout_s);
	default: return 0;
	}
}

/* One option of `loop init`. Returns CLI_OK or the exit code to stop with. */
static int init_option(struct loop_plan *p, int ch, const char *arg, int *force, int *json,
		       char ***targets, size_t *ntargets)
{
	char **slot = init_string_slot(p, ch);
	if (slot) {
		free(*slot);
		return (*slot = strdup(arg)) ? CLI_OK : CLI_USAGE;
	}
	switch (ch) {
	case O_WL:
	case O_OPT: return init_workload(p, arg, ch == O_WL);
	case O_TARGET: {
		char **t = realloc(*targets, (*ntargets + 1) * sizeof(*t));
		if (!t)
			return CLI_USAGE;
		*targets = t;
		t[(*ntargets)++] = (char *)arg;
		return CLI_OK;
	}
	case O_CONTRACT:
		if (strcmp(arg, "v1") != 0 && strcmp(arg, "v2") != 0)
			return usage_err("--contract '%s': want v1 or v2", arg);
		p->contract = arg[1] - '0';
		return CLI_OK;
	case O_APROTO:
		p->tlab_protocol = loop_ab_protocol_parse(arg);
		if (p->tlab_protocol < 0)
			return usage_err("--ab-protocol '%s': want fast, seq or ref", arg);
		return CLI_OK;
	case O_FORCE: *force = 1; return CLI_OK;
	case O_JSON: *json = 1; return CLI_OK;
	default: return init_number(p, ch, arg) ? CLI_USAGE : CLI_OK;
	}
}

/* --target ID=US, applied once every workload is known. */
static int init_targets(struct loop_plan *p, char **targets, size_t ntargets)
{
	for (size_t i = 0; i < ntargets; i++) {
		char *eq = strrchr(targets[i], '=');
		double us;
		if (!eq)
			return usage_err("--target '%s': want ID=US", targets[i]);
		*eq = '\0';
		struct loop_workload *w = (struct loop_workload *)loop_plan_workload(p, targets[i]);
		if (!w) {
			cli_error("field 'target': unknown workload '%s' (not given with --workload)",
				  targets[i]);
			return CLI_USAGE;
		}
		if (cli_parse_double("--target", eq + 1, &us))
			return CLI_USAGE;
		w->target_us = us;
	}
	return CLI_OK;
}

/* The plan is complete and sound, and writing it loses nothing. */
static int init_may_write(const struct loop_plan *p, int force)
{
	char err[1024];
	struct stat sb;
	if (loop_plan_check(p, err, sizeof(err)) != 0) {
		cli_error("plan refused: %s", err);
		return CLI_USAGE;
	}
	if (stat(p->baseline, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		cli_error("plan refused: field 'baseline': file '%s' does not exist", p->baseline);
		return CLI_USAGE;
	}
	if (access(LOOP_PLAN, F_OK) != 0)
		return CLI_OK;
	if (!force) {
		cli_error("'%s' exists already: edit it, or pass --force to replace it", LOOP_PLAN);
		return CLI_USAGE;
	}
	if (access(LOOP_RECORDS, F_OK) == 0) {
		cli_error("'%s' holds records: the plan they were measured with stays", LOOP_RECORDS);
		return CLI_USAGE;
	}
	return CLI_OK;
}

/* perf_opt/ and its folders, loop.json (written whole, then renamed), and
 * the head of opt_log.md when there is none yet. */
static int init_write(const struct loop_plan *p)
{
	if (fileops_mkdir_p(LOOP_DIR "/logs") != 0 || fileops_mkdir_p(LOOP_DIR "/profiles") != 0) {
		cli_error("cannot create '%s': %s", LOOP_DIR, strerror(errno));
		return CLI_USAGE;
	}
	char *json = loop_plan_to_json(p);
	FILE *f = json ? fopen(LOOP_PLAN ".tmp", "w") : NULL;
	int bad = !f || fputs(json, f) == EOF;
	if (f && fclose(f) != 0)
		bad = 1;
	free(json);
	if (bad || rename(LOOP_PLAN ".tmp", LOOP_PLAN)) {
		cli_error("cannot write '%s': %s", LOOP_PLAN, strerror(errno));
		return CLI_USAGE;
	}
	if (access(LOOP_LOG, F_OK) == 0)
		return CLI_OK;
	char head[2048];
	int n = snprintf(head, sizeof(head),
			 "# %s performance tuning log\n\n"
			 "Driven by `tlperf loop` with the plan `%s`: record contract v%d, noise "
			 "%.1f%%, max_rounds %ld, max_experiments %ld, A/B (tlab) for gains under "
			 "%.1f%% (small kernels under %g us). Primary metric: msprof op Task "
			 "Duration(us).\n",
			 p->op, LOOP_PLAN, p->contract, 100 * p->noise, p->max_rounds,
			 p->max_experiments, 100 * p->ab_threshold, p->small_us);
	if (recwrite_append(LOOP_LOG, head, (size_t)n, 0) != 0) {
		cli_error("cannot write '%s': %s", LOOP_LOG, strerror(errno));
		return CLI_USAGE;
	}
	return CLI_OK;
}

static int cmd_init(int argc, char **argv)
{
	struct loop_plan p;
	int rc = CLI_USAGE, force = 0, json = 0, ch;
	char **targets = NULL;
	size_t ntargets = 0;
	struct cli_parser cp;
	loop_plan_init(&p);
	cli_parser_init(&cp, &loop_init_spec, argc, argv);
	while ((ch = cli_parser_next(&cp)) > 0)
		if ((rc = init_option(&p, ch, optarg, &force, &json, &targets, &ntargets)) != CLI_OK)
			goto out;
	rc = CLI_USAGE;
	if (ch == CLI_PARSE_STOP) {
		rc = cp.rc;
		goto out;
	}
	if (cli_parser_no_operands(&cp) != 0)
		goto out;
	if ((!p.kernel_name && p.op && !(p.kernel_name = strdup(p.op))) ||
	    (!p.msprof && !(p.msprof = strdup("msprof"))))
		goto out;
	if ((rc = init_targets(&p, targets, ntargets)) != CLI_OK ||
	    (rc = init_may_write(&p, force)) != CLI_OK || (rc = init_write(&p)) != CLI_OK)
		goto out;
	struct loop_opts o = { .json = json };
	rc = loop_cmd_init_report(&o);
out:
	free(targets);
	loop_plan_release(&p);
	return cli_finish_stdout(rc);
}

/* ID=FILE[@PARENT] */
static int parse_branch(const char *arg, struct loop_branch *b)
{
	memset(b, 0, sizeof(*b));
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg || !eq[1])
		return -1;
	const char *at = strrchr(eq + 1, '@');
	b->id = strndup(arg, (size_t)(eq - arg));
	if (at && at[1]) {
		b->file = strndup(eq + 1, (size_t)(at - eq - 1));
		b->parent = strdup(at + 1);
	} else {
		b->file = strdup(eq + 1);
	}
	return b->id && b->file && *b->file ? 0 : -1;
}

static int self_path(char *out, size_t len, const char *argv0)
{
	ssize_t n = readlink("/proc/self/exe", out, len - 1);
	if (n > 0) {
		out[n] = '\0';
		return 0;
	}
	if (argv0 && strchr(argv0, '/') && realpath(argv0, out))
		return 0;
	snprintf(out, len, "tlperf");
	return 0;
}

/* Parses a subcommand's own options (sargv[0] is its name) for the
 * subcommands other than init. Returns CLI_OK, or the exit code to return
 * at once (help printed: CLI_OK with *stop set). */
static int parse_sub(const struct cli_spec *spec, int sargc, char **sargv, struct loop_opts *o,
		     int *stop, int *first_operand)
{
	struct cli_parser cp;
	int key;
	*stop = 0;
	cli_parser_init(&cp, spec, sargc, sargv);
	while ((key = cli_parser_next(&cp)) > 0) {
		switch (key) {
		case O_JSON: o->json = 1; break;
		case O_NOGATE: o->no_gate = 1; break;
		case O_REMEASURE: o->remeasure = 1; break;
		case O_BOTH: o->report_both = 1; break;
		case O_BRANCH: {
			struct loop_branch *b = &o->branches[o->nbranches];
			if (parse_branch(cp.arg, b) != 0) {
				free(b->id);
				free(b->file);
				free(b->parent);
				memset(b, 0, sizeof(*b));
				return usage_err("--branch '%s': want ID=FILE[@PARENT]", cp.arg);
			}
			o->nbranches++;
			break;
		}
		}
	}
	if (key == CLI_PARSE_STOP) {
		*stop = 1;
		return cp.rc;
	}
	*first_operand = cp.next;
	return CLI_OK;
}

static const struct cli_spec *find_sub(const char *name)
{
	for (size_t i = 0; loop_subcommands[i]; i++)
		if (strcmp(loop_subcommands[i]->cmd + 5, name) == 0) /* after "loop " */
			return loop_subcommands[i];
	return NULL;
}

/* The operand N of `loop round` (sargv[*first]) into o->round, *first
 * moved past it. Returns CLI_OK or CLI_USAGE after a message. */
static int take_round(struct loop_opts *o, int sargc, char **sargv, int *first)
{
	if (*first >= sargc)
		return usage_err("%s", "round: missing the round number N");
	if (cli_parse_long("round", sargv[*first], 1, 1000000, &o->round))
		return CLI_USAGE;
	(*first)++;
	return CLI_OK;
}

/* The work of subcommand spec (not init) with o. Returns its exit code. */
static int dispatch_sub(const struct cli_spec *spec, struct loop_opts *o)
{
	if (spec == &loop_baseline_spec)
		return loop_cmd_baseline(o);
	if (spec == &loop_status_spec)
		return loop_cmd_status(o);
	if (spec == &loop_next_spec)
		return loop_cmd_next(o);
	if (spec == &loop_finish_spec)
		return loop_cmd_finish(o);
	if (spec == &loop_report_spec)
		return loop_cmd_report(o);
	return loop_cmd_round(o);
}

/* A subcommand other than init (sargv[0] is its name): its options and
 * operands into o, then its work. Returns the exit code. */
static int run_sub(const struct cli_spec *spec, int sargc, char **sargv, struct loop_opts *o)
{
	int stop = 0, first = 0;
	int rc = parse_sub(spec, sargc, sargv, o, &stop, &first);
	if (rc != CLI_OK || stop)
		return rc;
	if (spec == &loop_round_spec && take_round(o, sargc, sargv, &first) != CLI_OK)
		return CLI_USAGE;
	if (first < sargc)
		return usage_err("unexpected argument '%s'", sargv[first]);
	return dispatch_sub(spec, o);
}

/* 1 when the subcommand's arguments hold --json (before any "--"), read
 * even when parsing stopped at an error before it. */
static int asks_json(int sargc, char **sargv)
{
	for (int i = 1; i < sargc && strcmp(sargv[i], "--") != 0; i++)
		if (strcmp(sargv[i], "--json") == 0)
			return 1;
	return 0;
}

int cmd_loop(int argc, char **argv)
{
	char self[PATH_MAX];
	struct loop_opts o;
	struct cli_parser cp;
	int rc, key;
	memset(&o, 0, sizeof(o));
	self_path(self, sizeof(self), argv[0]);
	o.self = self;
	cli_parser_init(&cp, &cmd_loop_spec, argc, argv);
	while ((key = cli_parser_next(&cp)) > 0) {
		if (key == O_DIR && chdir(cp.arg) != 0) {
			cli_error("cannot enter '%s': %s", cp.arg, strerror(errno));
			return CLI_USAGE;
		}
	}
	if (key == CLI_PARSE_STOP)
		return cp.rc;
	if (cp.next >= argc)
		return usage_err("%s", "missing subcommand: init, baseline, round, status, next, finish or report");
	const char *sub = argv[cp.next];
	int sargc = argc - cp.next;
	char **sargv = argv + cp.next;
	if (strcmp(sub, "help") == 0) {
		cli_usage_print(stdout, &cmd_loop_spec);
		return cli_finish_stdout(CLI_OK);
	}
	const struct cli_spec *spec = find_sub(sub);
	if (!spec) {
		const char *names[16];
		size_t n = 0;
		char dym[128];
		for (; loop_subcommands[n] && n + 1 < sizeof(names) / sizeof(names[0]); n++)
			names[n] = loop_subcommands[n]->cmd + 5; /* after "loop " */
		names[n] = NULL;
		return cli_usage_error("loop", "unknown subcommand '%s'%s", sub,
				       cli_did_you_mean(sub, names, NULL, dym, sizeof(dym)));
	}
	if (spec == &loop_init_spec) {
		rc = cmd_init(sargc, sargv);
		return rc != CLI_OK && asks_json(sargc, sargv) ? loop_json_error("init", rc) : rc;
	}
	o.branches = calloc((size_t)sargc + 1, sizeof(*o.branches));
	if (!o.branches) {
		cli_error("out of memory");
		return CLI_USAGE;
	}
	rc = run_sub(spec, sargc, sargv, &o);
	if (rc != CLI_OK && (o.json || asks_json(sargc, sargv)))
		rc = loop_json_error(spec->cmd + 5, rc);
	for (size_t k = 0; k < o.nbranches; k++) {
		free(o.branches[k].id);
		free(o.branches[k].file);
		free(o.branches[k].parent);
	}
	free(o.branches);
	return rc;
}
