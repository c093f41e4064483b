/* gate_stage_result.c: the Stage Result against a perf_opt directory
 * (gate_stage_result.h). */
#include "run/gate_stage_result.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gates/s4_stage.h"
#include "io/loopplan.h"
#include "run/loop.h"

struct opdir {
	char real[PATH_MAX]; /* realpath of the operator directory */
};

/* 1 regular file under the operator directory, 0 missing, -1 other or
 * (through a symlink) outside it. rel never holds a ".." component (refused
 * here again all the same). */
static int op_file(const char *rel, void *ctx)
{
	const struct opdir *od = ctx;
	char full[PATH_MAX * 2], real[PATH_MAX];
	struct stat st;
	if (rel[0] == '/')
		return -1;
	for (const char *p = rel; *p;) { /* a ".." component (not "a..b") */
		size_t k = strcspn(p, "/");
		if (k == 2 && p[0] == '.' && p[1] == '.')
			return -1;
		p += k;
		while (*p == '/')
			p++;
	}
	snprintf(full, sizeof(full), "%s/%s", od->real, rel);
	if (lstat(full, &st) != 0)
		return errno == ENOENT || errno == ENOTDIR ? 0 : -1;
	if (!S_ISREG(st.st_mode) || !realpath(full, real))
		return -1;
	size_t n = strlen(od->real);
	return strncmp(real, od->real, n) == 0 && real[n] == '/' ? 1 : -1;
}

struct extra {
	struct s4_stage_ctx sc;
};

static int run_rules(const struct s4_input *in, const struct s4_recon *rc,
		     struct gate_findings *fs, void *ctx)
{
	struct extra *x = ctx;
	return s4_rule_stage_result(in, rc, &x->sc, fs);
}

/* a followed by b, malloc'd (NULL when out of memory). */
static char *path_join(const char *a, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 1;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s%s", a, b);
	return p;
}

/* What the plan f_plan says into sc: its operator, noise, budgets and the
 * targets (into *targets, malloc'd, the caller frees). A plan that is
 * missing or does not load leaves sc as it is. 0, or -1 when out of memory. */
static int plan_claims(const char *f_plan, struct loop_plan *plan, struct s4_stage_ctx *sc,
		       struct s4_stage_target **targets)
{
	char err[1024];
	struct stat st;
	if (lstat(f_plan, &st) != 0 || !S_ISREG(st.st_mode) ||
	    loop_plan_load(f_plan, plan, err, sizeof(err)) != 0)
		return 0;
	sc->have_plan = 1;
	sc->plan_op = plan->op;
	sc->noise = plan->noise;
	sc->max_rounds = plan->max_rounds;
	sc->max_experiments = plan->max_experiments;
	*targets = calloc(plan->nworkloads + 1, sizeof(**targets));
	if (!*targets)
		return -1;
	for (size_t i = 0; i < plan->nworkloads; i++) {
		const struct loop_workload *w = &plan->workloads[i];
		if (isnan(w->target_us))
			continue;
		struct s4_stage_target *t = &(*targets)[sc->ntargets++];
		t->workload = w->id;
		t->dispatch = w->dispatch;
		t->target_us = w->target_us;
		t->required = w->required;
	}
	sc->targets = *targets;
	return 0;
}

int gate_stage_result_check(const char *path, const char *shown, const struct stage_result *sr,
			    const char *block_file, struct gate_findings *fs,
			    struct gatecheck_result *res, struct s4_stage_claims *claims)
{
	struct opdir od;
	struct extra x;
	struct loop_plan plan;
	struct loop_state ls;
	struct s4_stage_target *targets = NULL;
	char err[1024];
	int rc = -1;
	char *parent = path_join(path, "/..");
	char *f_plan = path_join(path, "/loop.json"), *f_rec = path_join(path, "/perf_records.jsonl");
	char *f_log = path_join(path, "/opt_log.md");
	memset(&x, 0, sizeof(x));
	loop_plan_init(&plan);
	loop_state_init(&ls);
	if (!parent || !f_plan || !f_rec || !f_log) {
		errno = ENOMEM;
		goto out;
	}
	if (!realpath(parent, od.real))
		goto out;
	x.sc.sr = sr;
	x.sc.claims = claims;
	x.sc.file = block_file;
	x.sc.op_dir = od.real;
	x.sc.noise = NAN;
	x.sc.max_rounds = x.sc.max_experiments = -1;
	x.sc.op_file = op_file;
	x.sc.op_ctx = &od;
	if (plan_claims(f_plan, &plan, &x.sc, &targets) != 0) {
		errno = ENOMEM;
		goto out;
	}
	/* the loop's markers (rounds run, stop reason), when the loop wrote the log */
	if (loop_state_load(&ls, f_rec, f_log, err, sizeof(err)) == 0 && ls.finished) {
		x.sc.loop_finished = 1;
		x.sc.loop_final_round = ls.final_round;
		x.sc.loop_stop = ls.stop_reason;
	}
	struct gatecheck_opts go;
	memset(&go, 0, sizeof(go));
	go.extra = run_rules;
	go.extra_ctx = &x;
	go.extra_only = 1;
	rc = gatecheck_dir(path, shown, &go, fs, res);
out:
	free(parent);
	free(f_plan);
	free(f_rec);
	free(f_log);
	free(targets);
	loop_plan_release(&plan);
	loop_state_release(&ls);
	return rc;
}
