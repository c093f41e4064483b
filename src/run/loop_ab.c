/* loop_ab.c: the loop's A/B runs: tlab on one workload, its JSON and work
 * directory kept under perf_opt/ab_r<N>_<ID>/, its verdict read back
 * through the tlab module (run/tlab_result.h). */
#include "run/loop_steps.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/fileops.h"
#include "report/term.h"
#include "io/cli_msg.h"

/* tlab's command line for one A/B run and the number strings it points
 * into. */
struct tlab_argv {
	char pairs[32], lc[32], wu[32], noise[32], tmo[32];
	char *argv[32];
};

/* Fills t: `SELF ab` with the A and B bench lines, the workdir wd (resumed
 * when it exists) and the plan's A/B settings. */
static void tlab_argv_build(const struct loop_ctx *c, const struct loop_opts *o, char *a, char *b,
			    char *wd, struct tlab_argv *t)
{
	snprintf(t->pairs, sizeof(t->pairs), "%ld", c->plan.tlab_pairs);
	snprintf(t->lc, sizeof(t->lc), "%ld", c->plan.tlab_launch_count);
	snprintf(t->wu, sizeof(t->wu), "%ld", c->plan.tlab_warm_up);
	snprintf(t->noise, sizeof(t->noise), "%g", c->plan.noise);
	snprintf(t->tmo, sizeof(t->tmo), "%ld", c->plan.timeout_s);
	int resume = access(wd, F_OK) == 0;
	/* seq chooses how many pairs it needs; --pairs is ref's fixed count */
	char *fixed[] = { (char *)o->self, "ab", "--a-cmd", a, "--b-cmd", b, "--workdir", wd,
			  "--launch-count", t->lc, "--warm-up", t->wu, "--kernel-name",
			  c->plan.kernel_name, "--noise", t->noise, "--timeout", t->tmo, "--msprof",
			  c->plan.msprof, "--protocol",
			  (char *)loop_ab_protocol_name(c->plan.tlab_protocol) };
	size_t na = 0;
	for (; na < sizeof(fixed) / sizeof(fixed[0]); na++)
		t->argv[na] = fixed[na];
	if (c->plan.tlab_protocol == LOOP_AB_REF) {
		t->argv[na++] = "--pairs";
		t->argv[na++] = t->pairs;
	}
	if (resume)
		t->argv[na++] = "--resume";
	t->argv[na] = NULL;
}

/* See loop_steps.h. tlab's stderr goes to perf_opt/ab_r<N>_<ID>/<workload>.log. */
int loop_ab_run(const struct loop_ctx *c, const struct loop_opts *o, long n, const char *id,
		const char *a_impl, const char *b_impl, const struct loop_workload *w,
		struct loop_ab *ab)
{
	char dir[512], wd[1024], wbuf[256], err[512];
	struct tlab_argv t;
	int rc = CLI_USAGE;
	loop_path_name(w->id, wbuf, sizeof(wbuf));
	snprintf(dir, sizeof(dir), LOOP_DIR "/ab_r%ld_%s", n, id);
	snprintf(wd, sizeof(wd), "%s/%s", dir, wbuf);
	snprintf(ab->json, sizeof(ab->json), "%s/%s.json", dir, wbuf);
	snprintf(ab->log, sizeof(ab->log), "%s/%s.log", dir, wbuf);
	if (tlab_result_read(ab->json, &ab->r, NULL, 0) == 0)
		return CLI_OK;
	char *a = loop_plan_expand(c->plan.bench_cmd, a_impl, w->id, w->dispatch, err, sizeof(err));
	char *b = loop_plan_expand(c->plan.bench_cmd, b_impl, w->id, w->dispatch, err, sizeof(err));
	if (!a || !b) {
		cli_error("bench_cmd: %s", err);
		goto out;
	}
	if (fileops_mkdir_p(dir) != 0) {
		cli_error("cannot create '%s': %s", dir, strerror(errno));
		goto out;
	}
	tlab_argv_build(c, o, a, b, wd, &t);
	if (term_verbosity() != TERM_QUIET)
		fprintf(stderr, "%s: A/B against the current best on %s (tlab --protocol %s) ...\n",
			id, w->id, loop_ab_protocol_name(c->plan.tlab_protocol));
	rc = loop_run_one("tlab", t.argv, ab->log, ab->json, 0, err, sizeof(err));
	if (rc >= CLI_SIGNAL)
		goto out;
	if (tlab_result_read(ab->json, &ab->r, NULL, 0) != 0) {
		cli_error("tlab gave no verdict (%s): see '%s' and '%s'", rc ? err : "no JSON",
			  ab->log, ab->json);
		rc = CLI_FAIL;
		goto out;
	}
	rc = CLI_OK;
out:
	free(a);
	free(b);
	return rc;
}

