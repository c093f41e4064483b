/* cmd_ab.c: `tlab` (= `tlperf ab`): interleaved A/B/A/B arbitration of a
 * candidate bench B against the incumbent A on real msprof output.
 *
 * Shape, so protocols and sources can be added without touching the rest:
 *   parse options -> check the environment -> load runs.jsonl (--resume)
 *   -> for each pair: measure the missing arms (abrun_measure, one run
 *      each, appended to runs.jsonl as it ends) -> ab_decide() over the
 *      pairs so far, which may stop early
 *   -> print the JSON verdict.
 */
#include "cli/cli.h"
#include "stats/stats.h"
#include "cli/options.h"
#include "report/term.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stats/ab.h"
#include "stats/ab_ci.h"
#include "stats/ab_refout.h"
#include "run/tlab_seq.h"
#include "io/ab_source.h"
#include "io/fileops.h"
#include "run/tlab_run.h"
#include "stats/abseq.h"
#include "run/run.h"
#include "report/svg.h"
#include "cli/ab_cmd.h"

static const char *const protocol_choices[] = { "fast", "seq", "ref", NULL };

static const struct cli_option ab_options[] = {
	{ 'a', 0, "a-cmd", "CMD", "baseline bench command (shell words, appended to the\n"
				  "msprof line as written)" },
	{ 'b', 0, "b-cmd", "CMD", "candidate bench command" },
	{ 'w', 0, "workdir", "DIR", "session directory (default perf_opt/ab_test)" },
	{ 'p', 0, "pairs", "N", "ref: A/B pairs (default 3; 1 and 2 are accepted like\n"
				"ab_test.py, which then decides on their direction\n"
				"alone); fast and seq ignore it" },
	{ 'l', 0, "launch-count", "N", "launches profiled per run (default 15)" },
	{ 'u', 0, "warm-up", "N", "msprof warm-up replays per launch (default 5)" },
	{ 'k', 0, "kernel-name", "K", "kernel name pattern, for msprof and for reading (main)" },
	{ 'n', 0, "noise", "F", "tie margin on the relative change (default 0.03: ref\n"
				"ab_test.py's, fast and seq their own; given, it sets\n"
				"each)" },
	{ 't', 0, "timeout", "S", "seconds per run; the run's process group is killed\n"
				  "after it (default 900)" },
	{ 'm', 0, "aic-metrics", "LIST", "msprof metrics (default BasicInfo,PipeUtilization,\n"
					 "ArithmeticUtilization,Memory,MemoryUB,MemoryL0,L2Cache,\n"
					 "ResourceConflictRatio)" },
	{ 'M', 0, "msprof", "PATH", "profiler to run (default $TLAB_MSPROF, else msprof on PATH)" },
	{ 'P', 0, "protocol", "P", "decision rule: fast = sequential, for the runs users\n"
				   "have (default; steady kernels in 3-8 pairs), seq =\n"
				   "sequential with a bound over every two-state shift\n"
				   "(about 11 pairs), ref = the ab_test.py rule", protocol_choices },
	{ 'N', 0, "min-pairs", "N", "fast, seq: first look after N pairs (default 3, at\n"
				    "least 3)" },
	{ 'X', 0, "max-pairs", "N", "fast, seq: budget; inconclusive at the latest here\n"
				    "(default 16, at most 24)" },
	{ 'g', 0, "min-gain", "F", "fast, seq: smallest gain of B worth adopting (default\n"
				   "0.01)" },
	{ 'S', 0, "seed", "S", "fast, seq: seed of the A/B order draws (default: from\n"
			       "the clock; printed as order_seed)" },
	{ 's', 0, "source", "SRC", "where launch durations come from: msprof (default),\n"
				   "stdout (the command itself is run and prints one\n"
				   "duration in us per line, or a JSON array), or\n"
				   "csv:GLOB:COLUMN (column COLUMN, in us, of the CSV files\n"
				   "matching GLOB, relative GLOBs inside the run's directory\n"
				   "$TLAB_OUTPUT). Without msprof the command gets\n"
				   "$TLAB_OUTPUT, $TLAB_LAUNCH_COUNT, $TLAB_WARM_UP,\n"
				   "$TLAB_ARM and $TLAB_PAIR in its environment" },
	{ 'c', 0, "ci", "LEVEL", "requested coverage of the interval of the paired\n"
				 "relative change (default 0.90; the achieved level is\n"
				 "reported, 3 pairs reach at most 0.75)" },
	{ 'r', 0, "resume", NULL, "continue the session recorded in WORKDIR/runs.jsonl\n"
				  "(with its --seed unless one is given)" },
	{ 'L', 0, "accept-lost-runs", NULL, "with --resume: go on over damaged lines of\n"
					    "runs.jsonl (runs whose record is lost: measured\n"
					    "again, and lost_runs in the verdict says how many)" },
	{ 'G', 0, "plot", "FILE", "also write the runs as an SVG plot: run medians of A and\n"
				  "B in run order, pairs joined, the estimate and interval" },
	CLI_OPT_END
};

const struct cli_spec cmd_ab_spec = {
	"ab",
	"tlab --a-cmd CMD --b-cmd CMD [options]\n"
	"tlperf ab --a-cmd CMD --b-cmd CMD [options]",
	"Arbitrates a small performance difference between the incumbent A and\n"
	"a candidate B by interleaved profiler runs. With --protocol fast (the\n"
	"default) or seq the order within each pair is drawn at random (seeded,\n"
	"recorded in runs.jsonl) and the session stops as soon as the verdict is\n"
	"clear; with --protocol ref pair i runs A then B when i is odd, B then A\n"
	"when even, for exactly --pairs pairs. Each run is\n"
	"  MSPROF op --kernel-name=K --output=WORKDIR/pair<i><A|B> --launch-count=N\n"
	"     --warm-up=W --dump=off --aic-metrics=LIST <CMD>\n"
	"through /bin/sh -c, in its own process group, stdout and stderr in\n"
	"WORKDIR/logs/pair<i><A|B>.log; its figure is the median Task Duration(us).\n"
	"Every finished run is appended to WORKDIR/runs.jsonl as it ends.\n",
	ab_options,
	"Verdict (fast, the default, and seq): after each pair from --min-pairs on,\n"
	"B_better when the interval of the pair log-ratios (at the look's Student\n"
	"level) is above 0, the estimate >= --min-gain, and the sample clears the\n"
	"look's two-state bar (fast: and B's run was the faster in most pairs).\n"
	"The chance of ever adopting a B that is not faster is at most 2.0%\n"
	"(false_adoption_bound) for Gaussian log-ratios and for two run states:\n"
	"fast at equal state frequencies up to an 11% gap and shifted by up to 0.3\n"
	"up to an 8% gap; seq at any frequencies up to an 11% gap. alpha, 2.5%, is\n"
	"the budget the looks spend and the target where no theorem applies\n"
	"(docs/tlab.md, \"fast: the rule for the runs users have\" and \"How seq\n"
	"decides\"). A_better and tie from the interval alone; inconclusive\n"
	"(stop_reason futile) as soon as the budget cannot reach a verdict, with\n"
	"pairs_needed. stop_reason says which.\n"
	"\n"
	"Verdict (ref): rel = (medA - medB) / medA over the medians of the run\n"
	"medians; exact two-sided sign test over the non-zero pair differences\n"
	"(B - A); consistent = every difference non-zero and of the sign of their\n"
	"sum; significant = consistent and (pairs < 5 or p < 0.1). tie when\n"
	"|rel| < noise, else B_better / A_better by the sign of rel when\n"
	"significant, else inconclusive. ref has no error bound.\n"
	"\n"
	"Output: one JSON object on stdout (schema tlperf/tlab/v1); progress on\n"
	"stderr. Read verdict (and gain, > 0 when B is faster). The reference's\n"
	"fields carry ab_test.py's values: b_rel_change = round(-rel, 4)\n"
	"(NEGATIVE when B is faster), the merged medians and pair_diffs_us (B - A)\n"
	"rounded to 3 decimals, sign_test_p to 4 (Python's round); exact holds\n"
	"them unrounded. Under fast and seq the reference rule's own decision (its\n"
	"verdict, sign_test_p, direction_consistent) is only in \"ref\", for\n"
	"comparison.\n"
	"See docs/tlab.md \"Which fields to read\".\n"
	"One tlab per WORKDIR (WORKDIR/tlab.lock; a second exits 2 naming the\n"
	"first's pid). A run's processes die with tlab, kill -9 included; what a\n"
	"killed tlab left running is stopped by the next one (WORKDIR/tlab.run).\n"
	"Exit: 0 verdict printed; 1 a run failed (JSON {\"error\": ...} names its\n"
	"log); 2 usage or environment error (msprof not found, workdir not\n"
	"writable, runs.jsonl from another session or with damaged lines, see\n"
	"--accept-lost-runs); 128+N interrupted by signal N (finished runs are\n"
	"kept: rerun with --resume).\n",
	0, NULL,
};

#define DEFAULT_METRICS                                                                       \
	"BasicInfo,PipeUtilization,ArithmeticUtilization,Memory,MemoryUB,MemoryL0,L2Cache,"    \
	"ResourceConflictRatio"

static void session_release(struct ab_session *s)
{
	for (size_t i = 0; i < s->n; i++)
		abrun_run_release(&s->v[i]);
	free(s->v);
	free(s->a);
	free(s->b);
	free(s->b_first);
	memset(s, 0, sizeof(*s));
}

/* Takes ownership of *r. Returns 0 or -1 (out of memory; *r released). */
static int session_add(struct ab_session *s, struct abrun_run *r)
{
	if (s->n == s->cap) {
		size_t nc = s->cap ? s->cap * 2 : 16;
		struct abrun_run *nv = realloc(s->v, nc * sizeof(*nv));
		if (!nv) {
			abrun_run_release(r);
			return -1;
		}
		s->v = nv;
		s->cap = nc;
	}
	s->v[s->n++] = *r;
	double *slot = r->arm == 'A' ? s->a : s->b;
	slot[r->pair - 1] = r->median_us;
	s->b_first[r->pair - 1] = (r->arm == 'B') == (r->order == 1);
	memset(r, 0, sizeof(*r));
	return 0;
}

/* The decision over pairs 1..npairs (all complete). The reference protocol
 * decides once, after the last pair; a sequential protocol would set done
 * earlier. Returns 0, or -1 when the inputs are unusable. */
static int ab_decide(const struct ab_opts *o, const double *a, const double *b,
		     const int *b_first, size_t npairs, struct ab_decision *d)
{
	memset(d, 0, sizeof(*d));
	switch (o->protocol) {
	case AB_PROTOCOL_SEQ:
		/* the reference figures are reported too (same field names) */
		if (stats_ab_ref(a, b, npairs, o->noise, &d->ref) != 0 ||
		    abseq_decide(a, b, b_first, npairs, &o->seq, d->state_a, d->state_b, &d->seq) != 0)
			return -1;
		d->verdict = d->seq.verdict;
		d->done = d->seq.reason != ABSEQ_CONTINUE;
		break;
	case AB_PROTOCOL_REF:
	default:
		if (stats_ab_ref(a, b, npairs, o->noise, &d->ref) != 0)
			return -1;
		d->verdict = d->ref.verdict;
		d->done = npairs >= (size_t)o->pairs;
		break;
	}
	d->have_ci = stats_ab_rel_ci(a, b, npairs, o->ci_level, &d->ci) == 0;
	return 0;
}

/* Which arm runs first in pair p. ref: odd pairs A then B, even pairs B
 * then A, so slow drift hits both arms alike. seq: a seeded coin per pair
 * (ab_seq_b_first), so neither drift nor a penalty for running second can
 * favour one arm, and swapping A and B within a pair is an exact
 * randomisation. A pair half done before a --resume keeps the order it
 * started with (from the recorded run). */
static void pair_order(const struct ab_opts *o, const struct ab_session *s, long p,
		       char order[2])
{
	int bf;
	if (!isnan(s->a[p - 1]) || !isnan(s->b[p - 1]))
		bf = s->b_first[p - 1];
	else if (o->protocol == AB_PROTOCOL_SEQ)
		bf = ab_seq_b_first(o->seed, p);
	else
		bf = p % 2 == 0;
	order[0] = bf ? 'B' : 'A';
	order[1] = bf ? 'A' : 'B';
}

/* ---- environment ---- */

/* Resolves the profiler like the shell would; 0 when it is executable. */
static int find_program(const char *name, char *found, size_t len)
{
	struct stat st;
	if (strchr(name, '/')) {
		snprintf(found, len, "%s", name);
		return stat(name, &st) == 0 && S_ISREG(st.st_mode) && access(name, X_OK) == 0 ? 0 : -1;
	}
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (const char *p = path;;) {
		const char *colon = strchr(p, ':');
		size_t n = colon ? (size_t)(colon - p) : strlen(p);
		snprintf(found, len, "%.*s%s%s", (int)n, p, n ? "/" : "", name);
		if (stat(found, &st) == 0 && S_ISREG(st.st_mode) && access(found, X_OK) == 0)
			return 0;
		if (!colon)
			break;
		p = colon + 1;
	}
	return -1;
}

/* ---- resume ---- */

/* The settings that define the session, recorded with each run since
 * 2026-12-05 (--warm-up, --source, the tie margin, --min-gain), against
 * this invocation's: runs measured or decided otherwise belong to another
 * session. Returns 0, or -1 with msg set (a usage error, both values
 * named). */
static int check_settings(const struct ab_opts *o, const struct abrun_run *r, char *msg,
			  size_t len)
{
	const char *w = o->run.workdir;
	if (r->warm_up >= 0 && r->warm_up != o->run.warm_up)
		snprintf(msg, len,
			 "%s/runs.jsonl:%ld: run %ld%c was measured with --warm-up %ld, not --warm-up "
			 "%ld; resume with --warm-up %ld, or use another --workdir",
			 w, r->line, r->pair, r->arm, r->warm_up, o->run.warm_up, r->warm_up);
	else if (r->source && strcmp(r->source, o->source_arg) != 0)
		snprintf(msg, len,
			 "%s/runs.jsonl:%ld: run %ld%c was measured with --source '%s', not '%s'; "
			 "resume with --source '%s', or use another --workdir",
			 w, r->line, r->pair, r->arm, r->source, o->source_arg, r->source);
	else if (isfinite(r->noise) && r->noise != o->run.noise)
		snprintf(msg, len,
			 "%s/runs.jsonl:%ld: run %ld%c was decided with --noise %.15g, not --noise "
			 "%.15g; resume with --noise %.15g, or use another --workdir",
			 w, r->line, r->pair, r->arm, r->noise, o->run.noise, r->noise);
	else if (isfinite(r->min_gain) && isfinite(o->run.min_gain) && r->min_gain != o->run.min_gain)
		snprintf(msg, len,
			 "%s/runs.jsonl:%ld: run %ld%c was decided with --min-gain %.15g, not "
			 "--min-gain %.15g; resume with --min-gain %.15g, or use another --workdir",
			 w, r->line, r->pair, r->arm, r->min_gain, o->run.min_gain, r->min_gain);
	else
		return 0;
	return -1;
}

/* seq and fast: the seed of the pairs' order is the journal's. Given,
 * --seed must be the recorded one; not given, the recorded one is taken.
 * A journal from before seeds were recorded resumes with the seed of this
 * invocation, which stderr names. Returns 0, or -1 with msg set. */
static int settle_seed(struct ab_opts *o, const struct abrun_journal *jr, char *msg, size_t len)
{
	const struct abrun_run *first = NULL;
	if (o->protocol != AB_PROTOCOL_SEQ || jr->n == 0)
		return 0;
	for (size_t i = 0; i < jr->n; i++) {
		const struct abrun_run *r = &jr->v[i];
		if (!r->has_seed)
			continue;
		if (!first && !o->seed_given)
			o->seed = r->seed;
		if (!first)
			first = r;
		if (r->seed == o->seed)
			continue;
		if (o->seed_given)
			snprintf(msg, len,
				 "%s/runs.jsonl:%ld: run %ld%c was ordered with --seed %llu, not --seed "
				 "%llu; resume without --seed (the journal's is used) or with --seed %llu, "
				 "or use another --workdir",
				 o->run.workdir, r->line, r->pair, r->arm, r->seed,
				 (unsigned long long)o->seed, r->seed);
		else
			snprintf(msg, len,
				 "%s/runs.jsonl:%ld: run %ld%c was ordered with --seed %llu, line %ld's "
				 "run with --seed %llu: two sessions in one journal; use another --workdir",
				 o->run.workdir, r->line, r->pair, r->arm, r->seed, first->line,
				 first->seed);
		return -1;
	}
	o->run.seed = o->seed;
	if (first && !o->seed_given)
		cli_note("resuming with --seed %llu, recorded in %s/runs.jsonl:%ld",
			 (unsigned long long)o->seed, o->run.workdir, first->line);
	else if (!first)
		cli_note("%s/runs.jsonl records no --seed (a journal from a tlab before 2026-12-05): "
			 "the pairs still to measure are ordered with --seed %llu (%s), the recorded "
			 "ones keep their order; order_seed reports that seed",
			 o->run.workdir, (unsigned long long)o->seed,
			 o->seed_given ? "given" : "drawn now");
	return 0;
}

/* Says on stderr which session settings a journal from before 2026-12-05
 * does not record (so are not checked): the values given now are
 * assumed. */
static void note_unrecorded(const struct ab_opts *o, const struct abrun_journal *jr)
{
	int warm = 0, src = 0, noise = 0, gain = 0;
	long line = 0;
	for (size_t i = 0; i < jr->n; i++) {
		const struct abrun_run *r = &jr->v[i];
		int miss = r->warm_up < 0 || !r->source || !isfinite(r->noise) ||
			   (o->protocol == AB_PROTOCOL_SEQ && !isfinite(r->min_gain));
		if (miss && !line)
			line = r->line;
		warm |= r->warm_up < 0;
		src |= !r->source;
		noise |= !isfinite(r->noise);
		gain |= o->protocol == AB_PROTOCOL_SEQ && !isfinite(r->min_gain);
	}
	if (line)
		cli_note("%s/runs.jsonl:%ld: a journal from a tlab before 2026-12-05 records no%s%s%s%s: "
			 "resuming with the values of this invocation",
			 o->run.workdir, line, warm ? " --warm-up" : "", src ? " --source" : "",
			 noise ? " --noise" : "", gain ? " --min-gain" : "");
}

/* Run R of the journal against this invocation: its commands, protocol,
 * kernel, launch count and session settings. Returns 0, or -1 with msg set
 * (usage error). */
static int check_run(const struct ab_opts *o, const struct abrun_run *r, char *msg, size_t len)
{
	const char *cmd = r->arm == 'A' ? o->run.a_cmd : o->run.b_cmd;
	if (strcmp(r->cmd, cmd) != 0) {
		snprintf(msg, len,
			 "%s/runs.jsonl:%ld: run %ld%c was measured with --%c-cmd '%s', not '%s'; "
			 "use another --workdir for another comparison",
			 o->run.workdir, r->line, r->pair, r->arm, r->arm == 'A' ? 'a' : 'b', r->cmd, cmd);
		return -1;
	}
	if (r->protocol && strcmp(r->protocol, o->protocol_name) != 0) {
		/* a session decided by one rule and continued under another
		 * would have peeked with the first: neither's error bound holds */
		if (strcmp(r->protocol, "seq-v1") == 0)
			snprintf(msg, len,
				 "%s/runs.jsonl:%ld: run %ld%c was measured under --protocol seq-v1, "
				 "which seq replaced and tlab no longer offers; start a new "
				 "session in another --workdir",
				 o->run.workdir, r->line, r->pair, r->arm);
		else
			snprintf(msg, len,
				 "%s/runs.jsonl:%ld: run %ld%c was measured under --protocol %s; "
				 "resume with --protocol %s, or use another --workdir",
				 o->run.workdir, r->line, r->pair, r->arm, r->protocol, r->protocol);
		return -1;
	}
	if ((r->kernel_name && strcmp(r->kernel_name, o->run.kernel_name) != 0) ||
	    (r->launch_count && r->launch_count != o->run.launch_count)) {
		snprintf(msg, len,
			 "%s/runs.jsonl:%ld: run %ld%c was measured with --kernel-name '%s' "
			 "--launch-count %ld, not --kernel-name '%s' --launch-count %ld; resume "
			 "with the same settings",
			 o->run.workdir, r->line, r->pair, r->arm,
			 r->kernel_name ? r->kernel_name : "?", r->launch_count,
			 o->run.kernel_name, o->run.launch_count);
		return -1;
	}
	return check_settings(o, r, msg, len);
}

/* Checks the recorded runs against this invocation (every run before any
 * is taken) and moves them into the session; seq and fast take the
 * journal's seed. Returns 0, or -1 with msg set (usage error). */
static int adopt_journal(struct ab_opts *o, struct abrun_journal *jr, struct ab_session *s,
			 char *msg, size_t len)
{
	for (size_t i = 0; i < jr->n; i++)
		if (check_run(o, &jr->v[i], msg, len) != 0)
			return -1;
	if (jr->n > 0)
		note_unrecorded(o, jr);
	if (settle_seed(o, jr, msg, len) != 0)
		return -1;
	for (size_t i = 0; i < jr->n; i++) {
		struct abrun_run *r = &jr->v[i];
		if (r->pair > o->pairs) {
			cli_warn("%s/runs.jsonl:%ld: run %ld%c is beyond --pairs %ld; left out",
				 o->run.workdir, r->line, r->pair, r->arm, o->pairs);
			continue;
		}
		const double *slot = r->arm == 'A' ? s->a : s->b;
		if (!isnan(slot[r->pair - 1])) {
			cli_warn("%s/runs.jsonl:%ld: run %ld%c recorded twice; the first one counts",
				 o->run.workdir, r->line, r->pair, r->arm);
			continue;
		}
		if (session_add(s, r) != 0) {
			snprintf(msg, len, "out of memory");
			return -1;
		}
		s->resumed++;
	}
	return 0;
}

/* The state of the verdict after npairs pairs, for the progress line. */
static void verdict_so_far(const struct ab_opts *o, const struct ab_decision *d, size_t npairs,
			   char *buf, size_t len)
{
	if (o->protocol == AB_PROTOCOL_SEQ && npairs < o->seq.min_pairs)
		snprintf(buf, len, "first look after %zu pairs", o->seq.min_pairs);
	else if (o->protocol == AB_PROTOCOL_SEQ)
		snprintf(buf, len, "so far: B gain %+.1f%% [%+.1f%%, %+.1f%%], no verdict yet",
			 100.0 * d->seq.gain, 100.0 * d->seq.gain_lo, 100.0 * d->seq.gain_hi);
	else
		snprintf(buf, len, "so far: B gain %+.1f%%", 100.0 * d->ref.b_rel_change);
}

/* ---- the command ---- */

/* One of --pairs, --min-pairs, --max-pairs, --launch-count, --warm-up,
 * --seed (OPTARG); 0, or the usage error's exit code. */
static int parse_count(int c, struct ab_opts *o)
{
	long v;
	switch (c) {
	case 'p':
		/* ab_test.py takes any count; 1 and 2 decide on the direction
		 * of the pairs alone (p is only used from 5 pairs on) */
		if (cli_parse_long("--pairs", optarg, 1, 100000, &o->pairs) != 0)
			return CLI_USAGE;
		o->pairs_given = 1;
		break;
	case 'N':
		if (cli_parse_long("--min-pairs", optarg, 3, ABSEQ_MAX_PAIRS, &v) != 0)
			return CLI_USAGE;
		o->seq.min_pairs = (size_t)v;
		break;
	case 'X':
		if (cli_parse_long("--max-pairs", optarg, 3, ABSEQ_MAX_PAIRS, &v) != 0)
			return CLI_USAGE;
		o->seq.max_pairs = (size_t)v;
		break;
	case 'S':
		if (cli_parse_long("--seed", optarg, 0, 9007199254740991L, &v) != 0)
			return CLI_USAGE;
		o->seed = (uint64_t)v;
		o->seed_given = 1;
		break;
	case 'l':
		if (cli_parse_long("--launch-count", optarg, 1, 5000, &o->run.launch_count) != 0)
			return CLI_USAGE;
		break;
	case 'u':
		if (cli_parse_long("--warm-up", optarg, 0, 500, &o->run.warm_up) != 0)
			return CLI_USAGE;
		break;
	}
	return 0;
}

/* One of --min-gain, --noise, --timeout, --ci (OPTARG); 0, or the usage
 * error's exit code. */
static int parse_real(int c, struct ab_opts *o)
{
	switch (c) {
	case 'g':
		if (cli_parse_double("--min-gain", optarg, &o->seq.min_gain) != 0)
			return CLI_USAGE;
		break;
	case 'n':
		if (cli_parse_double("--noise", optarg, &o->noise) != 0)
			return CLI_USAGE;
		if (o->noise < 0 || o->noise >= 1)
			return cli_usage_error("ab", "option '--noise' must be in [0, 1), got '%s'", optarg);
		o->noise_given = 1;
		break;
	case 't':
		if (cli_parse_double("--timeout", optarg, &o->run.timeout_s) != 0)
			return CLI_USAGE;
		if (o->run.timeout_s <= 0)
			return cli_usage_error("ab", "option '--timeout' must be seconds > 0, got '%s'", optarg);
		break;
	case 'c':
		if (cli_parse_double("--ci", optarg, &o->ci_level) != 0)
			return CLI_USAGE;
		if (o->ci_level <= 0 || o->ci_level >= 1)
			return cli_usage_error("ab", "option '--ci' must be in (0, 1), got '%s'", optarg);
		break;
	}
	return 0;
}

/* One option C of the table (OPTARG); 0, or the usage error's exit code. */
static int parse_option(int c, struct ab_opts *o)
{
	char serr[512];
	switch (c) {
	case 'a': o->run.a_cmd = optarg; break;
	case 'b': o->run.b_cmd = optarg; break;
	case 'w': o->run.workdir = optarg; break;
	case 'k': o->run.kernel_name = optarg; break;
	case 'm': o->run.aic_metrics = optarg; break;
	case 'M': o->run.msprof = optarg; break;
	case 'P': o->protocol_name = optarg; break;
	case 'r': o->resume = 1; break;
	case 'L': o->accept_lost = 1; break;
	case 'G': o->plot = optarg; break;
	case 's':
		o->source_arg = optarg;
		absource_release(&o->source);
		if (absource_parse(optarg, &o->source, serr, sizeof(serr)) != 0)
			return cli_usage_error("ab", "%s", serr);
		break;
	case 'g': case 'n': case 't': case 'c':
		return parse_real(c, o);
	default:
		return parse_count(c, o);
	}
	return 0;
}

/* The protocol's own settings once the options are read: seq checks its
 * parameters and takes its budget and seed; ref warns under 3 pairs. 0, or
 * the usage error's exit code. */
static int settle_protocol(struct ab_opts *o)
{
	if (strcmp(o->protocol_name, "ref") == 0)
		o->protocol = AB_PROTOCOL_REF;
	else if (strcmp(o->protocol_name, "seq") == 0 || strcmp(o->protocol_name, "fast") == 0)
		o->protocol = AB_PROTOCOL_SEQ;
	else /* a choice of the table: checked by the parser */
		return cli_usage_error("ab", "unknown --protocol '%s'", o->protocol_name);
	if (o->protocol == AB_PROTOCOL_SEQ) {
		const char *why = NULL;
		if (o->noise_given) /* seq's default is abseq_params_default's */
			o->seq.noise = o->noise;
		o->seq.signflip = 1; /* exact, reported beside the verdict */
		abseq_params_set_rule(&o->seq, strcmp(o->protocol_name, "fast") == 0 ? ABSEQ_RULE_FAST
										 : ABSEQ_RULE_SEQ,
				      1);
		if (abseq_params_check(&o->seq, &why) != 0)
			return cli_usage_error("ab", "%s", why);
		if (o->pairs_given)
			cli_note("--pairs applies to --protocol ref; %s stops between --min-pairs %zu "
				 "and --max-pairs %zu",
				 o->protocol_name, o->seq.min_pairs, o->seq.max_pairs);
		o->pairs = (long)o->seq.max_pairs;
		if (!o->seed_given)
			o->seed = ab_seq_default_seed();
	} else if (o->pairs < 3) {
		cli_warn("--pairs %ld: as in ab_test.py, the verdict rests on the direction of "
			 "the pair difference%s alone (the sign test counts from 5 pairs on); 3 or "
			 "more pairs are recommended",
			 o->pairs, o->pairs == 1 ? "" : "s");
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct ab_opts *o)
{
	int c, rc;
	struct cli_parser cp;
	cli_parser_init(&cp, &cmd_ab_spec, argc, argv);
	while ((c = cli_parser_next(&cp)) > 0)
		if ((rc = parse_option(c, o)) != 0)
			return rc;
	if (c == CLI_PARSE_STOP)
		return cp.rc == CLI_OK ? -1 : cp.rc; /* -1: help or version printed */
	if (cli_parser_no_operands(&cp) != 0)
		return CLI_USAGE;
	if (!o->run.a_cmd)
		return cli_usage_error("ab", "option '--a-cmd' is required (the baseline's bench command)");
	if (!o->run.b_cmd)
		return cli_usage_error("ab", "option '--b-cmd' is required (the candidate's bench command)");
	const char *empty = !*o->run.a_cmd ? "--a-cmd" : !*o->run.b_cmd ? "--b-cmd" :
			    !*o->run.kernel_name ? "--kernel-name" : !*o->run.workdir ? "--workdir" : NULL;
	if (empty)
		return cli_usage_error("ab", "option '%s' is empty", empty);
	if ((rc = settle_protocol(o)) != 0)
		return rc;
	o->run.protocol = o->protocol_name;
	o->run.source_name = o->source_arg;
	o->run.noise = o->protocol == AB_PROTOCOL_SEQ ? o->seq.noise : o->noise;
	o->run.min_gain = o->protocol == AB_PROTOCOL_SEQ ? o->seq.min_gain : NAN;
	o->run.has_seed = o->protocol == AB_PROTOCOL_SEQ;
	o->run.seed = o->seed;
	o->run.source = o->source.kind == ABSOURCE_STDOUT ? ABRUN_SOURCE_STDOUT
			: o->source.kind == ABSOURCE_CSV  ? ABRUN_SOURCE_CSV
							  : ABRUN_SOURCE_MSPROF;
	o->run.csv_glob = o->source.glob;
	o->run.csv_column = o->source.column;
	return 0;
}

/* Everything one tlab invocation holds, released at its one exit. */
struct ab_cmd {
	struct ab_opts o;
	struct ab_session s;
	struct abrun_journal jr;
	int lockfd;                /* WORKDIR/tlab.lock, -1 before it is taken */
	int installed;             /* signal handlers installed */
	struct term_progress pg;
	char state[160];           /* the verdict so far, for the progress line */
	struct ab_decision d;
	size_t npairs;             /* pairs decided over */
	char msg[8192];
};

/* Reports MSG as the error JSON (with the session when S) and returns
 * CLI_USAGE. */
static int env_error(struct ab_cmd *x, const struct ab_session *s)
{
	ab_cmd_print_error_json(&x->o, s, x->msg, NULL);
	return CLI_USAGE;
}

/* Creates WORKDIR/logs and takes the work directory's lock, then stops
 * what a killed tlab left running. CLI_OK or CLI_USAGE (reported). */
static int open_workdir(struct ab_cmd *x)
{
	const struct ab_opts *o = &x->o;
	char path[4200];
	long holder = 0, pgid = 0;
	snprintf(path, sizeof(path), "%s/logs", o->run.workdir);
	if (fileops_mkdir_p(path) != 0 || access(o->run.workdir, W_OK) != 0) {
		snprintf(x->msg, sizeof(x->msg), "work directory '%s' is not writable: %s",
			 o->run.workdir, strerror(errno));
		return env_error(x, NULL);
	}
	/* One tlab per work directory: the journal is read and appended under
	 * this lock for the whole session. */
	x->lockfd = abrun_lock_workdir(&o->run, &holder, x->msg, sizeof(x->msg));
	if (x->lockfd < 0)
		return env_error(x, NULL);
	/* What a killed tlab left running would write into the runs we are
	 * about to measure again: stop it first. */
	int stopped = abrun_stop_survivors(&o->run, &pgid);
	if (stopped > 0)
		cli_warn("%s/tlab.run: stopped %d process%s that a previous tlab on this work "
			 "directory left running (process group %ld)",
			 o->run.workdir, stopped, stopped == 1 ? "" : "es", pgid);
	else if (stopped < 0)
		cli_warn("%s/tlab.run: cannot read it (%s); a previous tlab's processes, if any, "
			 "were not checked",
			 o->run.workdir, strerror(errno));
	return CLI_OK;
}

/* Damaged lines of runs.jsonl are runs whose record is lost. A line a
 * crash cut short (abrun_journal's torn) is what a crash leaves: ignored
 * with a note, and the next run written acknowledges it. Any other damage
 * is refused (nothing is changed) unless --accept-lost-runs, and the
 * verdict then says how many runs the session lost. CLI_OK or CLI_USAGE
 * (reported). */
static int check_damage(struct ab_cmd *x)
{
	const struct abrun_journal *jr = &x->jr;
	const char *w = x->o.run.workdir;
	x->s.lost = jr->damaged;
	x->s.first_lost = jr->first_damaged;
	x->o.run.after_torn = jr->torn_last; /* the next run written acknowledges it */
	if (jr->unexplained && !x->o.accept_lost) {
		snprintf(x->msg, sizeof(x->msg),
			 "%s/runs.jsonl:%ld: %zu damaged line%s (the first here; not a tlab run, nor "
			 "one a crash cut short): the runs recorded there are lost, and a session "
			 "that lost runs is not decided on silently; nothing was changed: resume "
			 "with --accept-lost-runs to measure them again (the verdict reports "
			 "lost_runs), or use another --workdir",
			 w, jr->first_unexplained, jr->damaged, jr->damaged == 1 ? "" : "s");
		return env_error(x, NULL);
	}
	if (jr->unexplained)
		cli_warn("%s/runs.jsonl:%ld: %zu damaged line%s accepted (--accept-lost-runs): their "
			 "runs are lost, those missing are measured again; the verdict reports "
			 "lost_runs %zu",
			 w, jr->first_damaged, jr->damaged, jr->damaged == 1 ? "" : "s", jr->damaged);
	else if (jr->torn)
		cli_note("%s/runs.jsonl:%ld: %s cut short by a crash mid-write: ignored (kept in "
			 "the file); its run, when missing, is measured again; the verdict reports lost_runs "
			 "%zu",
			 w, jr->first_damaged, jr->torn == 1 ? "a run's line" : "runs' lines",
			 jr->damaged);
	return CLI_OK;
}

/* Loads runs.jsonl and, with --resume, takes its runs into the session.
 * CLI_OK or CLI_USAGE (reported). */
static int load_journal(struct ab_cmd *x)
{
	struct ab_opts *o = &x->o;
	const struct abrun_journal *jr = &x->jr;
	if (abrun_journal_load(&o->run, &x->jr, x->msg, sizeof(x->msg)) != 0)
		return env_error(x, NULL);
	if ((jr->n > 0 || jr->damaged > 0) && !o->resume) {
		snprintf(x->msg, sizeof(x->msg),
			 "'%s/runs.jsonl' already holds %zu runs%s: continue them with --resume, or "
			 "choose another --workdir",
			 o->run.workdir, jr->n, jr->damaged ? " and damaged lines" : "");
		return env_error(x, NULL);
	}
	if (check_damage(x) != CLI_OK)
		return CLI_USAGE;
	if (adopt_journal(o, &x->jr, &x->s, x->msg, sizeof(x->msg)) != 0)
		return env_error(x, &x->s);
	if (x->s.resumed)
		cli_note("resuming: %zu runs already recorded in %s/runs.jsonl", x->s.resumed,
			 o->run.workdir);
	return CLI_OK;
}

/* The run medians by pair, all missing. CLI_OK or CLI_USAGE (reported). */
static int session_alloc(struct ab_session *s, long pairs)
{
	s->a = malloc((size_t)pairs * sizeof(*s->a));
	s->b = malloc((size_t)pairs * sizeof(*s->b));
	s->b_first = calloc((size_t)pairs, sizeof(*s->b_first));
	if (!s->a || !s->b || !s->b_first) {
		cli_error("out of memory");
		return CLI_USAGE;
	}
	for (long i = 0; i < pairs; i++)
		s->a[i] = s->b[i] = NAN;
	return CLI_OK;
}

/* Records the measured run R: journal, progress lines, session. CLI_OK,
 * or an exit code (reported; R released). */
static int keep_run(struct ab_cmd *x, struct abrun_run *r, double t_run, const char *log)
{
	const struct ab_opts *o = &x->o;
	if (abrun_journal_append(&o->run, r) != 0) {
		snprintf(x->msg, sizeof(x->msg), "cannot append to '%s/runs.jsonl': %s",
			 o->run.workdir, strerror(errno));
		abrun_run_release(r);
		return env_error(x, &x->s);
	}
	x->o.run.after_torn = 0; /* acknowledged by this line */
	term_progress_line(&x->pg, x->pg.tty, "pair %ld/%ld %c: median %.3f us (%zu launch%s)",
			   r->pair, o->pairs, r->arm, r->median_us, r->launches,
			   r->launches == 1 ? "" : "es");
	term_progress_line(&x->pg, 1, "  run took %.1f s; log %s", t_run, log);
	if (r->launches < (size_t)o->run.launch_count)
		cli_warn("pair %ld %c: %zu of %ld launches captured", r->pair, r->arm, r->launches,
			 o->run.launch_count);
	if (session_add(&x->s, r) != 0) {
		cli_error("out of memory");
		return CLI_USAGE;
	}
	return CLI_OK;
}

/* Measures ARM of pair P as the K-th run of the pair, unless recorded.
 * CLI_OK; -1 when interrupted (stop the pair); else an exit code
 * (reported). */
static int measure_arm(struct ab_cmd *x, long p, int k, char arm)
{
	const struct ab_opts *o = &x->o;
	double *slot = arm == 'A' ? &x->s.a[p - 1] : &x->s.b[p - 1];
	if (!isnan(*slot)) {
		term_progress_line(&x->pg, x->pg.tty, "pair %ld/%ld %c: median %.3f us (recorded)", p,
				   o->pairs, arm, *slot);
		return CLI_OK;
	}
	if (run_interrupted())
		return -1;
	struct abrun_run r;
	char now[200], log[4096];
	snprintf(now, sizeof(now), "running %c%s%s", arm, *x->state ? "; " : "", x->state);
	term_progress_step(&x->pg, (size_t)p - 1, now);
	double t_run = term_now();
	int mr = abrun_measure(&o->run, arm, p, k + 1, &r, x->msg, sizeof(x->msg));
	t_run = term_now() - t_run;
	abrun_log_path(&o->run, p, arm, log, sizeof(log));
	if (mr == ABRUN_INTERRUPTED)
		return -1;
	if (mr != ABRUN_OK) {
		ab_cmd_print_error_json(o, &x->s, x->msg, log);
		return mr == ABRUN_ENV ? CLI_USAGE : CLI_FAIL;
	}
	return keep_run(x, &r, t_run, log);
}

/* Runs pair P in its order and decides over pairs 1..P. CLI_OK, or an
 * exit code (reported; 128+N when interrupted by signal N). */
static int run_pair(struct ab_cmd *x, long p)
{
	char order[2];
	pair_order(&x->o, &x->s, p, order);
	for (int k = 0; k < 2; k++) {
		int rc = measure_arm(x, p, k, order[k]);
		if (rc < 0)
			break;
		if (rc != CLI_OK)
			return rc;
	}
	if (run_interrupted()) {
		int sig = run_interrupted();
		snprintf(x->msg, sizeof(x->msg),
			 "interrupted by signal %d: %zu finished runs kept in %s/runs.jsonl; "
			 "rerun with --resume to finish",
			 sig, x->s.n, x->o.run.workdir);
		ab_cmd_print_error_json(&x->o, &x->s, x->msg, NULL);
		return CLI_SIGNAL + sig;
	}
	x->npairs = (size_t)p;
	if (ab_decide(&x->o, x->s.a, x->s.b, x->s.b_first, x->npairs, &x->d) != 0) {
		snprintf(x->msg, sizeof(x->msg), "pair %ld: run medians unusable for a verdict", p);
		ab_cmd_print_error_json(&x->o, &x->s, x->msg, NULL);
		return CLI_FAIL;
	}
	return CLI_OK;
}

/* The pairs until the verdict stands or the budget is spent. On a
 * terminal one line redraws (pair, elapsed, ETA, verdict so far) and the
 * per-run lines need --verbose; elsewhere the per-run lines are the
 * progress. CLI_OK, or an exit code (reported). */
static int run_pairs(struct ab_cmd *x)
{
	term_progress_begin(&x->pg, "pair", (size_t)x->o.pairs);
	x->pg.at_most = x->o.protocol == AB_PROTOCOL_SEQ; /* seq may stop early */
	for (long p = 1; p <= x->o.pairs; p++) {
		int rc = run_pair(x, p);
		if (rc != CLI_OK)
			return rc;
		if (x->d.done)
			break;
		verdict_so_far(&x->o, &x->d, x->npairs, x->state, sizeof(x->state));
		term_progress_step(&x->pg, x->npairs, x->state);
	}
	term_progress_end(&x->pg);
	return CLI_OK;
}

/* Why an inconclusive fast or seq session (protocol proto) stopped where
 * it did: how many pairs a verdict would take at the noise seen (stderr). */
static void print_budget_note(const struct abseq_result *r, const struct abseq_params *p, const char *proto)
{
	if (p->rule == ABSEQ_RULE_V1 || (r->reason != ABSEQ_FUTILE && r->reason != ABSEQ_BUDGET))
		return;
	double sd = 100.0 * r->log_se * sqrt((double)r->pairs);
	if (r->reason == ABSEQ_BUDGET && r->pairs_needed == 0)
		cli_note("at the noise seen (sd %.2f%% per pair), B's gain of %+.2f%% did not clear the "
			 "bars of %s within --max-pairs %zu (a larger budget, at most 24, may decide it)",
			 sd, 100.0 * r->gain, proto, p->max_pairs);
	else if (r->pairs_needed > 0)
		cli_note("at the noise seen (sd %.2f%% per pair), a verdict on --min-gain %g would take "
			 "about %zu pairs, more than --max-pairs %zu: stopped after %zu",
			 sd, p->min_gain, r->pairs_needed, p->max_pairs, r->pairs);
	else
		cli_note("at the noise seen (sd %.2f%% per pair), a verdict on --min-gain %g would take "
			 "more than 1024 pairs: stopped after %zu",
			 sd, p->min_gain, r->pairs);
}

/* The verdict line on stderr. */
static void print_verdict_line(struct ab_cmd *x)
{
	const struct ab_decision *d = &x->d;
	const char *vname = ab_verdict_name(d->verdict);
	const char *von = term_sgr(stderr, term_verdict_style(vname));
	const char *voff = *von ? term_sgr(stderr, TERM_RESET) : "";
	if (x->o.protocol == AB_PROTOCOL_SEQ)
	{
		term_progress_line(&x->pg, 0, "verdict: %s%s%s (B gain %+.2f%% [%+.2f%%, %+.2f%%], %zu pairs, stop: %s)",
				   von, vname, voff, 100.0 * d->seq.gain, 100.0 * d->seq.gain_lo,
				   100.0 * d->seq.gain_hi, x->npairs, abseq_reason_name(d->seq.reason));
		print_budget_note(&d->seq, &x->o.seq, x->o.protocol_name);
	}
	else
		term_progress_line(&x->pg, 0, "verdict: %s%s%s (B gain %+.2f%%, sign test p = %.4g, %s)",
				   von, vname, voff, 100.0 * d->ref.b_rel_change, d->ref.sign_test_p,
				   d->ref.direction_consistent ? "consistent" : "not consistent");
	if (x->s.lost)
		cli_warn("this session lost %zu run%s (damaged lines of %s/runs.jsonl, the first at "
			 "line %ld); the missing runs were measured again (lost_runs %zu)",
			 x->s.lost, x->s.lost == 1 ? "" : "s", x->o.run.workdir, x->s.first_lost,
			 x->s.lost);
}

/* The profiler: --msprof, else $TLAB_MSPROF, else msprof on PATH; only
 * the profiler source needs it. CLI_OK or CLI_USAGE (reported). */
static int check_profiler(struct ab_cmd *x)
{
	struct ab_opts *o = &x->o;
	char found[4096];
	if (!o->run.msprof) {
		const char *env = getenv("TLAB_MSPROF");
		o->run.msprof = env && *env ? env : "msprof";
	}
	if (o->run.source != ABRUN_SOURCE_MSPROF ||
	    find_program(o->run.msprof, found, sizeof(found)) == 0)
		return CLI_OK;
	snprintf(x->msg, sizeof(x->msg),
		 "profiler '%s' not found or not executable (give --msprof PATH or set "
		 "TLAB_MSPROF; scripts/fake-msprof stands in without an NPU)",
		 o->run.msprof);
	return env_error(x, NULL);
}

/* Prepares the session: work directory, lock, journal, signal handlers.
 * CLI_OK, or an exit code (reported). */
static int start_session(struct ab_cmd *x)
{
	int rc = session_alloc(&x->s, x->o.pairs);
	if (rc == CLI_OK)
		rc = open_workdir(x);
	if (rc == CLI_OK)
		rc = load_journal(x);
	if (rc != CLI_OK)
		return rc;
	if (run_signals_install() != 0) {
		cli_error("cannot install signal handlers: %s", strerror(errno));
		return CLI_USAGE;
	}
	x->installed = 1;
	return CLI_OK;
}

/* The defaults of every option. */
static const struct ab_cmd ab_cmd_init = {
	.o = {
		.run = {
			.workdir = "perf_opt/ab_test",
			.kernel_name = "main",
			.aic_metrics = DEFAULT_METRICS,
			.msprof = NULL,
			.source = ABRUN_SOURCE_MSPROF,
			.launch_count = 15,
			.warm_up = 5,
			.timeout_s = 900,
		},
		.protocol = AB_PROTOCOL_SEQ,
		.protocol_name = "fast",
		.source_arg = "msprof",
		.pairs = 3,
		.noise = AB_REF_NOISE,
		.ci_level = 0.90,
	},
	.lockfd = -1,
};

int cmd_ab(int argc, char **argv)
{
	struct ab_cmd *x = malloc(sizeof(*x));
	if (!x) {
		cli_error("out of memory");
		return CLI_USAGE;
	}
	*x = ab_cmd_init;
	abseq_params_default(&x->o.seq, ABSEQ_RULE_FAST);
	int rc = parse_args(argc, argv, &x->o);
	if (rc != 0) {
		absource_release(&x->o.source);
		free(x);
		return rc == -1 ? CLI_OK : rc; /* -1: --help */
	}
	if (check_profiler(x) != CLI_OK) {
		absource_release(&x->o.source);
		free(x);
		return cli_finish_stdout(CLI_USAGE);
	}
	rc = start_session(x);
	if (rc == CLI_OK)
		rc = run_pairs(x);
	if (rc == CLI_OK) {
		print_verdict_line(x);
		ab_cmd_print_verdict(&x->o, &x->s, x->npairs, &x->d);
		if (x->o.plot && ab_cmd_write_plot(&x->o, &x->s, x->npairs, &x->d) != 0) {
			cli_error("cannot write plot '%s': %s", x->o.plot, strerror(errno));
			rc = CLI_USAGE;
		}
	}
	if (x->installed)
		run_signals_restore();
	if (x->lockfd >= 0)
		close(x->lockfd); /* the lock goes with it */
	abrun_journal_release(&x->jr);
	session_release(&x->s);
	absource_release(&x->o.source);
	free(x);
	return cli_finish_stdout(rc);
}
