/* audit_check.c: `tlperf audit`'s checking (audit_check.h). */
#include "run/audit_check.h"
#include "io/cli_msg.h"
#include "io/stage_result.h"
#include "io/tree.h"
#include "report/term.h"
#include "run/gate_config.h"
#include "run/gate_perf_opt.h"
#include "run/gate_perf_tuning.h"
#include "run/gate_stage_result.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A directory the gate could not read: named and marked, and the audit
 * goes on (0); -1 only when memory ran out. */
static int unreadable(struct audit_op *op)
{
	if (errno == ENOMEM)
		return -1;
	cli_error("cannot check '%s': %s", op->perf_opt, strerror(errno));
	op->failed_to_read = 1;
	return 0;
}

/* The tree's configuration (the defaults, with a warning, when it cannot
 * be read) and the inline suppressions it allows (sups) applied to an
 * operator's findings, then their counts. *cfg gets the configuration
 * used. Returns 0, -1 when out of memory. */
static int settle_findings(const struct gate_set *set, const struct gate_dir *d,
			   struct audit_op *op, struct gate_findings *fs, int strict,
			   struct gate_config *cfg, struct gate_config_suppressions *sups)
{
	char err[512];
	char *cfg_path = NULL;
	if (gate_config_in_tree(set, d, cfg, &cfg_path, err, sizeof(err)) != 0) {
		cli_warn("%s (default severities used for '%s')", err, op->perf_opt);
		gate_config_release(cfg);
		gate_config_init(cfg);
	}
	free(cfg_path);
	cfg->strict = strict;
	if (gate_config_apply_suppressions(cfg, fs, sups) != 0)
		return -1;
	gate_config_apply(cfg, fs);
	op->errors = gate_count(fs, GATE_ERROR);
	op->warnings = gate_count(fs, GATE_WARNING);
	return 0;
}

static int check_ptune(const struct gate_set *set, const struct gate_dir *d, struct audit_op *op,
		       int strict)
{
	struct gate_findings fs;
	struct gate_config cfg;
	char err[512];
	int rc = -1;
	gate_findings_init(&fs);
	gate_config_init(&cfg);
	const struct tree *t = &set->roots[d->root].tree;
	const char *rel = d->rel;
	errno = 0;
	if (ptune_check_dir_in(t, rel, op->perf_opt, &fs) != 0) {
		rc = unreadable(op);
		goto out;
	}
	struct gate_config_suppressions sups;
	gate_config_suppressions_init(&sups);
	int sr = ptune_suppressions_in(t, rel, op->perf_opt, &sups);
	if (sr == 0)
		sr = settle_findings(set, d, op, &fs, strict, &cfg, &sups);
	gate_config_suppressions_release(&sups);
	if (sr)
		goto out;
	int r = ptune_speedups_in(t, rel, op->perf_opt, &op->sp, err, sizeof(err));
	if (r < 0 && errno == ENOMEM)
		goto out;
	if (r != 0)
		cli_warn("%s", err);
	op->has_sp = r == 0;
	op->geomean = op->has_sp ? op->sp.geomean : NAN;
	op->reconciled = op->errors == 0 && isfinite(op->geomean);
	rc = 0;
out:
	gate_config_release(&cfg);
	gate_findings_release(&fs);
	return rc;
}

static int by_line(const void *a, const void *b)
{
	const struct s4_stage_claim *x = a, *y = b;
	return (x->line > y->line) - (x->line < y->line);
}

/* perf_opt/logs/stage_result.md, when there is one: its claims next to the
 * records; its errors make the operator unreconciled. */
static int check_stage_result(const struct gate_set *set, const struct gate_dir *d,
			      struct audit_op *op, const struct gate_config *cfg)
{
	struct stage_result sr;
	struct stat st;
	char err[1024];
	size_t n = strlen(op->perf_opt) + 32;
	op->sr_file = malloc(n);
	if (!op->sr_file)
		return -1;
	snprintf(op->sr_file, n, "%s/logs/stage_result.md", op->perf_opt);
	/* only a regular file inside the checked tree, reached without links */
	char *logs = tree_join(d->rel, "logs");
	int fd = -1;
	enum tree_status ts = logs ? tree_resolve(&set->roots[d->root].tree, logs, "stage_result.md",
						  TREE_WANT_FILE | TREE_NOFOLLOW, 1 << 20, &fd, &st)
				   : TREE_UNREADABLE;
	free(logs);
	if (fd >= 0)
		close(fd);
	if (ts != TREE_OK) {
		if (ts != TREE_MISSING)
			cli_warn("'%s' %s: its Stage Result is not shown", op->sr_file, tree_status_text(ts));
		return 0;
	}
	stage_result_init(&sr);
	if (stage_result_load(op->sr_file, &sr, err, sizeof(err)) != 0) {
		cli_warn("%s: its Stage Result is not shown", err);
		stage_result_release(&sr);
		return 0;
	}
	struct gatecheck_result res;
	gatecheck_result_init(&res);
	errno = 0;
	int rc = gate_stage_result_check(op->perf_opt, op->perf_opt, &sr, op->sr_file, &op->sr_fs,
					 &res, &op->sr_claims);
	gatecheck_result_release(&res);
	stage_result_release(&sr);
	if (rc != 0) {
		if (errno == ENOMEM)
			return -1;
		cli_warn("cannot check '%s': %s", op->sr_file, strerror(errno));
		return 0;
	}
	gate_config_apply(cfg, &op->sr_fs);
	if (op->sr_claims.n > 1)
		qsort(op->sr_claims.v, op->sr_claims.n, sizeof(op->sr_claims.v[0]), by_line);
	op->has_sr = 1;
	if (gate_count(&op->sr_fs, GATE_ERROR))
		op->reconciled = 0;
	return 0;
}

static int check_op(const struct gate_set *set, const struct gate_dir *d, struct audit_op *op,
		    int strict)
{
	if (op->ptune)
		return check_ptune(set, d, op, strict);
	struct gate_findings fs;
	struct gate_config cfg;
	const struct gate_root *root = &set->roots[d->root];
	struct gatecheck_opts opts = { .tree = &root->tree, .rel = d->rel, .repo_top = root->top };
	int rc = -1;
	struct gatecheck_result res;
	gate_findings_init(&fs);
	gate_config_init(&cfg);
	gatecheck_result_init(&res);
	int gr = gatecheck_dir(op->perf_opt, op->perf_opt, &opts, &fs, &res);
	/* the model keeps the contract and the rows (what was read, even of
	 * a directory that failed) */
	int e = errno;
	op->contract = res.contract;
	s4_recon_release(&op->recon);
	op->recon = res.recon;
	s4_recon_init(&res.recon);
	errno = e;
	if (gr != 0) {
		rc = unreadable(op);
		goto out;
	}
	if (settle_findings(set, d, op, &fs, strict, &cfg, &res.sup) != 0)
		goto out;

	if (audit_settle_rows(op) != 0)
		goto out;
	if (check_stage_result(set, d, op, &cfg) != 0)
		goto out;
	rc = 0;
out:
	gatecheck_result_release(&res);
	gate_config_release(&cfg);
	gate_findings_release(&fs);
	return rc;
}

int audit_check_discover(struct gate_set *set, char *const *roots, int nroots, int empty_is_error,
			 struct audit *a)
{
	for (int i = 0; i < nroots; i++) {
		char err[512];
		if (gate_set_add_root(set, roots[i], err, sizeof(err)) != 0) {
			cli_error("%s", err);
			return -1;
		}
	}
	if (gate_set_discover(set, NULL, 0) != 0) {
		cli_error("out of memory");
		return -1;
	}
	for (size_t i = 0; i < set->ndirs; i++)
		if (audit_add_op(a, set->dirs[i].shown, set->dirs[i].ptune) != 0) {
			cli_error("out of memory");
			return -1;
		}
	/* what the walk could not check fails the audit */
	for (size_t i = 0; i < set->tree_findings.n; i++) {
		const struct gate_finding *tf = &set->tree_findings.v[i];
		cli_error("%s: [%s] %s", tf->file, tf->rule, tf->message);
	}
	long e = empty_is_error ? gate_set_empty_root(set) : -1;
	if (e >= 0) {
		char why[8192];
		gate_root_empty_reason(set, (size_t)e, "tlperf audit", why, sizeof(why));
		cli_error("nothing to audit under '%s': %s", set->roots[e].shown, why);
		return -1;
	}
	if (a->n == 0)
		cli_warn("no perf_opt/ directory found (nor perf_tuning/)");
	return 0;
}

/* A large tree takes a while: a redrawn line on a terminal, a plain line
 * every tenth of the way otherwise, a line per directory with --verbose. */
int audit_check_all(const struct gate_set *set, struct audit *a, int strict)
{
	struct term_progress pg;
	term_progress_begin(&pg, "directory", a->n);
	pg.plain_tenths = a->n >= 20;
	for (size_t i = 0; i < a->n; i++) {
		const struct audit_op *op = &a->v[i];
		term_progress_step(&pg, i, op->name);
		if (check_op(set, &set->dirs[i], &a->v[i], strict) != 0) {
			term_progress_end(&pg);
			cli_error("out of memory");
			return -1;
		}
		term_progress_line(&pg, 1, "%s: %zu error%s, %zu warning%s", op->perf_opt,
				   op->errors, op->errors == 1 ? "" : "s", op->warnings,
				   op->warnings == 1 ? "" : "s");
	}
	term_progress_step(&pg, a->n, NULL);
	term_progress_end(&pg);
	if (audit_totals(a) != 0) {
		cli_error("out of memory");
		return -1;
	}
	return 0;
}
