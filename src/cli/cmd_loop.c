/* cmd_loop.c: `tlperf loop`: argv only; the driver is in loop.c. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "run/loop.h"
#include "io/loopplan.h"
#include "io/recwrite.h"

const char cmd_loop_usage[] =
	"usage: tlperf loop [-C DIR] init --op NAME --baseline FILE --workload ID@DISPATCH...\n"
	"                          --bench-cmd CMD --l0-cmd CMD [options]\n"
	"       tlperf loop [-C DIR] baseline\n"
	"       tlperf loop [-C DIR] round N --branch ID=FILE[@PARENT] ...\n"
	"       tlperf loop [-C DIR] status [--json]\n"
	"       tlperf loop [-C DIR] finish [--no-gate]\n"
	"\n"
	"Drives the Stage 4 tuning loop of the operator in DIR (default: the current\n"
	"directory, which holds perf_opt/). Everything is derived from perf_opt/loop.json,\n"
	"perf_records.jsonl and opt_log.md: re-running an interrupted command measures only\n"
	"what has no record yet.\n"
	"\n"
	"init options (written to perf_opt/loop.json, which you may edit):\n"
	"  --op NAME                operator name (the result is perf_opt/NAME.py)\n"
	"  --baseline FILE          the Stage 3 kernel, relative to DIR\n"
	"  --workload ID@DISPATCH   a workload and its dispatch path (repeat; required)\n"
	"  --optional ID@DISPATCH   a workload whose regression does not block adoption\n"
	"  --target ID=US           target latency of a workload (success when all are met)\n"
	"  --bench-cmd CMD          bench entry run under msprof; {impl} {workload} {dispatch}\n"
	"  --l0-cmd CMD             L0 precision regression; {impl}\n"
	"  --kernel-name PAT        msprof --kernel-name (default: the op name)\n"
	"  --contract v1|v2         record contract (v1)\n"
	"  --noise F                noise threshold (0.03)\n"
	"  --max-rounds N           rounds budget (10)\n"
	"  --max-experiments N      branches budget (30)\n"
	"  --small-us US            small-kernel bound for A/B (20)\n"
	"  --ab-threshold F         gains under this go to tlab (0.05)\n"
	"  --launch-count N         msprof launches per measurement (15)\n"
	"  --warm-up N              msprof warm-up launches (5)\n"
	"  --ab-protocol seq|ref    tlab's protocol (seq: it picks the pairs it needs)\n"
	"  --pairs N, --ab-launch-count N, --ab-warm-up N   tlab settings (3, 15, 5); --pairs is ref's\n"
	"  --msprof PATH            msprof program (msprof)\n"
	"  --timeout S              limit per command (900)\n"
	"  --force                  replace an existing plan when no record exists yet\n"
	"\n"
	"round: --branch ID=FILE[@PARENT] (repeat): a candidate kernel file; PARENT defaults to\n"
	"the current best. Prints the decision and the state: continue, success,\n"
	"budget_exhausted, plateau or blocked.\n"
	"Exit: 0 done, 1 a measurement or the gate failed, 2 bad plan or usage, 128+N signal.\n";

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

static int cmd_init(int argc, char **argv)
{
	struct loop_plan p;
	char err[1024];
	int rc = CLI_USAGE, force = 0;
	char **targets = NULL;
	size_t ntargets = 0;
	loop_plan_init(&p);
	enum { O_OP = 256, O_BASE, O_WL, O_OPT, O_TARGET, O_BENCH, O_L0, O_KN, O_CONTRACT,
	       O_NOISE, O_MR, O_ME, O_SMALL, O_ABT, O_LC, O_WU, O_PAIRS, O_APROTO, O_ALC, O_AWU, O_MSPROF,
	       O_TMO, O_FORCE };
	static const struct option opts[] = {
		{ "op", required_argument, 0, O_OP },
		{ "baseline", required_argument, 0, O_BASE },
		{ "workload", required_argument, 0, O_WL },
		{ "optional", required_argument, 0, O_OPT },
		{ "target", required_argument, 0, O_TARGET },
		{ "bench-cmd", required_argument, 0, O_BENCH },
		{ "l0-cmd", required_argument, 0, O_L0 },
		{ "kernel-name", required_argument, 0, O_KN },
		{ "contract", required_argument, 0, O_CONTRACT },
		{ "noise", required_argument, 0, O_NOISE },
		{ "max-rounds", required_argument, 0, O_MR },
		{ "max-experiments", required_argument, 0, O_ME },
		{ "small-us", required_argument, 0, O_SMALL },
		{ "ab-threshold", required_argument, 0, O_ABT },
		{ "launch-count", required_argument, 0, O_LC },
		{ "warm-up", required_argument, 0, O_WU },
		{ "pairs", required_argument, 0, O_PAIRS },
		{ "ab-protocol", required_argument, 0, O_APROTO },
		{ "ab-launch-count", required_argument, 0, O_ALC },
		{ "ab-warm-up", required_argument, 0, O_AWU },
		{ "msprof", required_argument, 0, O_MSPROF },
		{ "timeout", required_argument, 0, O_TMO },
		{ "force", no_argument, 0, O_FORCE },
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 },
	};
	int ch;
	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		char **slot = NULL;
		char *id = NULL, *disp = NULL;
		switch (ch) {
		case 'h':
			fputs(cmd_loop_usage, stdout);
			rc = CLI_OK;
			goto out;
		case O_OP: slot = &p.op; break;
		case O_BASE: slot = &p.baseline; break;
		case O_BENCH: slot = &p.bench_cmd; break;
		case O_L0: slot = &p.l0_cmd; break;
		case O_KN: slot = &p.kernel_name; break;
		case O_MSPROF: slot = &p.msprof; break;
		case O_WL:
		case O_OPT:
			if (split_workload(optarg, &id, &disp) != 0) {
				free(id);
				free(disp);
				rc = usage_err("--workload '%s': want ID@DISPATCH", optarg);
				goto out;
			}
			if (loop_plan_add_workload(&p, id, disp, ch == O_WL, NAN) != 0) {
				free(id);
				free(disp);
				cli_error("out of memory");
				goto out;
			}
			free(id);
			free(disp);
			break;
		case O_TARGET: {
			char **t = realloc(targets, (ntargets + 1) * sizeof(*t));
			if (!t)
				goto out;
			targets = t;
			targets[ntargets++] = optarg;
			break;
		}
		case O_CONTRACT:
			if (strcmp(optarg, "v1") == 0)
				p.contract = 1;
			else if (strcmp(optarg, "v2") == 0)
				p.contract = 2;
			else {
				rc = usage_err("--contract '%s': want v1 or v2", optarg);
				goto out;
			}
			break;
		case O_NOISE: if (cli_parse_double("--noise", optarg, &p.noise)) goto out; break;
		case O_SMALL: if (cli_parse_double("--small-us", optarg, &p.small_us)) goto out; break;
		case O_ABT: if (cli_parse_double("--ab-threshold", optarg, &p.ab_threshold)) goto out; break;
		case O_MR: if (cli_parse_long("--max-rounds", optarg, 1, 100000, &p.max_rounds)) goto out; break;
		case O_ME: if (cli_parse_long("--max-experiments", optarg, 1, 100000, &p.max_experiments)) goto out; break;
		case O_LC: if (cli_parse_long("--launch-count", optarg, 1, 100000, &p.launch_count)) goto out; break;
		case O_WU: if (cli_parse_long("--warm-up", optarg, 0, 100000, &p.warm_up)) goto out; break;
		case O_PAIRS: if (cli_parse_long("--pairs", optarg, 3, 100000, &p.tlab_pairs)) goto out; break;
		case O_APROTO:
			if (strcmp(optarg, "seq") != 0 && strcmp(optarg, "ref") != 0) {
				rc = usage_err("--ab-protocol '%s': want seq or ref", optarg);
				goto out;
			}
			p.tlab_ref = strcmp(optarg, "ref") == 0;
			break;
		case O_ALC: if (cli_parse_long("--ab-launch-count", optarg, 1, 100000, &p.tlab_launch_count)) goto out; break;
		case O_AWU: if (cli_parse_long("--ab-warm-up", optarg, 0, 100000, &p.tlab_warm_up)) goto out; break;
		case O_TMO: if (cli_parse_long("--timeout", optarg, 1, 10000000, &p.timeout_s)) goto out; break;
		case O_FORCE: force = 1; break;
		default:
			rc = usage_err("unknown or incomplete option '%s'", argv[optind - 1]);
			goto out;
		}
		if (slot) {
			free(*slot);
			if (!(*slot = strdup(optarg)))
				goto out;
		}
	}
	if (optind < argc) {
		rc = usage_err("unexpected argument '%s'", argv[optind]);
		goto out;
	}
	if (!p.kernel_name && p.op && !(p.kernel_name = strdup(p.op)))
		goto out;
	if (!p.msprof && !(p.msprof = strdup("msprof")))
		goto out;
	for (size_t i = 0; i < ntargets; i++) {
		char *eq = strrchr(targets[i], '=');
		double us;
		if (!eq) {
			rc = usage_err("--target '%s': want ID=US", targets[i]);
			goto out;
		}
		*eq = '\0';
		struct loop_workload *w = (struct loop_workload *)loop_plan_workload(&p, targets[i]);
		if (!w) {
			cli_error("field 'target': unknown workload '%s' (not given with --workload)",
				  targets[i]);
			goto out;
		}
		if (cli_parse_double("--target", eq + 1, &us))
			goto out;
		w->target_us = us;
	}
	if (loop_plan_check(&p, err, sizeof(err)) != 0) {
		cli_error("plan refused: %s", err);
		goto out;
	}
	struct stat sb;
	if (stat(p.baseline, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		cli_error("plan refused: field 'baseline': file '%s' does not exist", p.baseline);
		goto out;
	}
	if (access(LOOP_PLAN, F_OK) == 0) {
		if (!force) {
			cli_error("'%s' exists already: edit it, or pass --force to replace it", LOOP_PLAN);
			goto out;
		}
		if (access(LOOP_RECORDS, F_OK) == 0) {
			cli_error("'%s' holds records: the plan they were measured with stays", LOOP_RECORDS);
			goto out;
		}
	}
	if ((mkdir(LOOP_DIR, 0755) != 0 && errno != EEXIST) ||
	    (mkdir(LOOP_DIR "/logs", 0755) != 0 && errno != EEXIST) ||
	    (mkdir(LOOP_DIR "/profiles", 0755) != 0 && errno != EEXIST)) {
		cli_error("cannot create '%s': %s", LOOP_DIR, strerror(errno));
		goto out;
	}
	char *json = loop_plan_to_json(&p);
	FILE *f = json ? fopen(LOOP_PLAN ".tmp", "w") : NULL;
	if (!f || fputs(json, f) == EOF || fclose(f) != 0 || rename(LOOP_PLAN ".tmp", LOOP_PLAN)) {
		cli_error("cannot write '%s': %s", LOOP_PLAN, strerror(errno));
		free(json);
		goto out;
	}
	free(json);
	if (access(LOOP_LOG, F_OK) != 0) {
		char head[2048];
		int n = snprintf(head, sizeof(head),
				 "# %s performance tuning log\n\n"
				 "Driven by `tlperf loop` with the plan `%s`: record contract v%d, noise "
				 "%.1f%%, max_rounds %ld, max_experiments %ld, A/B (tlab) for gains under "
				 "%.1f%% (small kernels under %g us). Primary metric: msprof op Task "
				 "Duration(us).\n",
				 p.op, LOOP_PLAN, p.contract, 100 * p.noise, p.max_rounds,
				 p.max_experiments, 100 * p.ab_threshold, p.small_us);
		if (recwrite_append(LOOP_LOG, head, (size_t)n, 0) != 0) {
			cli_error("cannot write '%s': %s", LOOP_LOG, strerror(errno));
			goto out;
		}
	}
	printf("wrote %s (%zu workload%s, contract v%d)\n", LOOP_PLAN, p.nworkloads,
	       p.nworkloads == 1 ? "" : "s", p.contract);
	printf("next: tlperf loop baseline\n");
	rc = CLI_OK;
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

int cmd_loop(int argc, char **argv)
{
	char self[PATH_MAX];
	struct loop_opts o;
	int rc = CLI_USAGE;
	memset(&o, 0, sizeof(o));
	self_path(self, sizeof(self), argv[0]);
	o.self = self;
	int i = 1;
	while (i < argc && (strcmp(argv[i], "-C") == 0 || strcmp(argv[i], "--dir") == 0)) {
		if (i + 1 >= argc)
			return usage_err("option '%s' wants a directory", argv[i]);
		if (chdir(argv[i + 1]) != 0) {
			cli_error("cannot enter '%s': %s", argv[i + 1], strerror(errno));
			return CLI_USAGE;
		}
		i += 2;
	}
	if (i >= argc)
		return usage_err("%s", "missing subcommand: init, baseline, round, status or finish");
	const char *sub = argv[i];
	int sargc = argc - i;
	char **sargv = argv + i;
	if (strcmp(sub, "-h") == 0 || strcmp(sub, "--help") == 0 || strcmp(sub, "help") == 0) {
		fputs(cmd_loop_usage, stdout);
		return cli_finish_stdout(CLI_OK);
	}
	if (strcmp(sub, "init") == 0)
		return cmd_init(sargc, sargv);
	if (strcmp(sub, "baseline") == 0 || strcmp(sub, "status") == 0 ||
	    strcmp(sub, "finish") == 0) {
		for (int k = 1; k < sargc; k++) {
			if (strcmp(sub, "status") == 0 && strcmp(sargv[k], "--json") == 0)
				o.json = 1;
			else if (strcmp(sub, "finish") == 0 && strcmp(sargv[k], "--no-gate") == 0)
				o.no_gate = 1;
			else
				return usage_err("unexpected argument '%s'", sargv[k]);
		}
		if (strcmp(sub, "baseline") == 0)
			return loop_cmd_baseline(&o);
		if (strcmp(sub, "status") == 0)
			return loop_cmd_status(&o);
		return loop_cmd_finish(&o);
	}
	if (strcmp(sub, "round") != 0)
		return usage_err("unknown subcommand '%s'", sub);
	if (sargc < 2)
		return usage_err("%s", "round: missing the round number N");
	if (cli_parse_long("round", sargv[1], 1, 1000000, &o.round))
		return CLI_USAGE;
	o.branches = calloc((size_t)sargc, sizeof(*o.branches));
	if (!o.branches)
		return CLI_USAGE;
	for (int k = 2; k < sargc; k++) {
		const char *arg = NULL;
		if (strcmp(sargv[k], "--branch") == 0 || strcmp(sargv[k], "-b") == 0) {
			if (k + 1 >= sargc) {
				rc = usage_err("%s", "--branch wants ID=FILE[@PARENT]");
				goto out;
			}
			arg = sargv[++k];
		} else if (strncmp(sargv[k], "--branch=", 9) == 0) {
			arg = sargv[k] + 9;
		} else {
			rc = usage_err("unexpected argument '%s'", sargv[k]);
			goto out;
		}
		if (parse_branch(arg, &o.branches[o.nbranches]) != 0) {
			struct loop_branch *b = &o.branches[o.nbranches];
			free(b->id);
			free(b->file);
			free(b->parent);
			rc = usage_err("--branch '%s': want ID=FILE[@PARENT]", arg);
			goto out;
		}
		o.nbranches++;
	}
	rc = loop_cmd_round(&o);
out:
	for (size_t k = 0; k < o.nbranches; k++) {
		free(o.branches[k].id);
		free(o.branches[k].file);
		free(o.branches[k].parent);
	}
	free(o.branches);
	return rc;
}
