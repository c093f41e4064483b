/* cmd_audit.c: `tlperf audit [ROOT...]`, the reconciliation report for
 * auditors: every claimed final latency in every perf_opt/ directory under
 * the roots, next to the records that should back it.
 *
 * Each directory goes through the gate (gatecheck_dir, with its
 * .tlgate.json and inline suppressions, as tlgate would see it); the rows
 * come from the gate's reconciliation (struct s4_recon). A workload
 * reconciles when its claim is within 1% of the winner's recorded
 * measurement; an operator reconciles when all its workloads do. Exit 1
 * when any claim does not reconcile, whatever the other gate rules say
 * (their verdict is a column).
 *
 * First-generation perf_tuning/ folders found under the roots (as tlgate
 * finds them) get one row each: contract "perf_tuning", speedup = the
 * geometric mean of the per-case speedups of the folder's latest bench
 * JSON (ptune_speedups), gate verdict from ptune_check_dir with the
 * folder's .tlgate.json and inline suppressions. Such a folder has no
 * claimed-vs-recorded pair, so the gate's errors (PT-JSON, PT-REPORT, ...)
 * stand for its reconciliation: errors fail the row and count it as
 * unreconcilable (exit 1).
 */
#include "cli/cli.h"
#include "cli/options.h"
#include "report/term.h"
#include "run/gate_config.h"
#include "run/gate_perf_opt.h"
#include "run/gate_perf_tuning.h"
#include "run/gate_tree.h"
#include "run/gate_stage_result.h"
#include "io/stage_result.h"
#include "report/report.h"
#include "util/escape.h"
#include "stats/stats.h"
#include "report/svg.h"
#include "util/utf8.h"
#include "util/path.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const audit_formats[] = { "markdown", "csv", "json", "html", NULL };

static const struct cli_option audit_options[] = {
	{ 'f', 0, "format", "FMT", "output format (default markdown; html: one self-contained\n"
				   "file with the table and a speedup chart)", audit_formats },
	{ 'o', 'o', "output", "F", "write to F instead of stdout (replaced only when complete)" },
	{ 's', 0, "strict", NULL, "gate verdict with --strict severities" },
	{ 'A', 0, "allow-empty", NULL, "a ROOT under which nothing is found is not an error" },
	CLI_OPT_END
};

const struct cli_spec cmd_audit_spec = {
	"audit",
	"tlperf audit [options] [ROOT...]",
	"Reconciles claimed final latencies across every perf_opt/ directory under\n"
	"each ROOT (default: the current directory; .git and node_modules not entered;\n"
	"a ROOT in a perf_opt/ stands for its operator directory, as in tlgate):\n"
	"one row per operator and workload with the contract, the baseline record,\n"
	"the claimed final (opt_log.md), the recorded winner, the deviation, the\n"
	"speedup, the operator's geometric mean, the stop reason and the gate\n"
	"verdict; then totals. Every perf_tuning/ folder (first-generation workflow)\n"
	"adds one row: contract perf_tuning, speedup = geometric mean of the per-case\n"
	"speedups of its latest bench JSON, and gate errors fail it.\n",
	audit_options,
	"Speedup is baseline_us / winner_us from the records; the operator and\n"
	"overall geometric means are over workloads. Exit: 0 every claim reconciles,\n"
	"1 some claim does not (or a perf_tuning/ folder has gate errors), 2 usage\n"
	"error, unreadable ROOT, or a ROOT with nothing to audit (--allow-empty).\n"
	"An operator with a perf_opt/logs/stage_result.md (written by 'tlperf loop finish')\n"
	"also gets its Stage Result's claims next to the records (markdown and html: a\n"
	"second table; json: \"stage_result\"), checked as 'tlgate --stage-result' does;\n"
	"an error there makes the operator unreconciled.\n",
	0, NULL,
};

enum audit_format { AUDIT_MARKDOWN, AUDIT_CSV, AUDIT_JSON, AUDIT_HTML };

struct audit_op {
	const struct gate_set *set;   /* where it was found */
	const struct gate_dir *dir;   /* its tree and path in it */
	char *perf_opt;               /* the perf_opt directory as found */
	char *name;                   /* operator directory: perf_opt's parent as shown */
	struct gatecheck_result res;  /* contract, recon rows, stop reason */
	size_t errors, warnings;      /* gate findings after config and suppressions */
	double geomean;               /* of the rows' speedups, NAN when none */
	int reconciled;               /* every row ok (and there is one) */
	int failed_to_read;           /* gatecheck_dir could not read it */
	int ptune;                    /* a perf_tuning/ folder (perf_opt holds its path) */
	struct ptune_speedups sp;     /* ptune only: per-case speedups */
	int has_sp;                   /* ptune only: sp was read (ptune_speedups returned 0) */
	int has_sr;                   /* perf_opt/logs/stage_result.md was checked */
	char *sr_file;                /* its path, malloc'd */
	struct s4_stage_claims sr_claims; /* its claims next to the records */
	struct gate_findings sr_fs;   /* its S4-STAGE-RESULT-* findings (after config) */
};

struct audit {
	struct audit_op *v;
	size_t n, cap;
	size_t reconciled, unreconcilable, without_claims;
	double geomean;               /* over all rows with a speedup */
	size_t nspeedups;
};

/* ---- finding the directories --------------------------------------------- */

static int add_op(struct audit *a, const struct gate_set *set, const struct gate_dir *d)
{
	const char *path = d->shown;
	int ptune = d->ptune;
	if (a->n == a->cap) {
		size_t c = a->cap ? 2 * a->cap : 16;
		struct audit_op *v = realloc(a->v, c * sizeof(*v));
		if (!v)
			return -1;
		a->v = v;
		a->cap = c;
	}
	struct audit_op *op = &a->v[a->n];
	memset(op, 0, sizeof(*op));
	op->ptune = ptune;
	op->set = set;
	op->dir = d;
	op->sp.mean = op->sp.geomean = op->sp.stated_mean = NAN;
	op->perf_opt = strdup(path);
	size_t len = strlen(path);
	while (len > 1 && path[len - 1] == '/')
		len--;
	/* operator name: the path without its final "perf_opt" (or
	 * "perf_tuning") component */
	const char *kind = ptune ? "perf_tuning" : "perf_opt";
	size_t kl = strlen(kind);
	size_t cut = len >= kl && strncmp(path + len - kl, kind, kl) == 0 ? len - kl : len;
	while (cut > 1 && path[cut - 1] == '/')
		cut--;
	/* "./ops/x" (a walk from ".") reads better as "ops/x" */
	size_t skip = 0;
	while (cut - skip > 2 && path[skip] == '.' && path[skip + 1] == '/')
		skip += 2;
	op->name = cut == skip ? strdup(".") : strndup(path + skip, cut - skip);
	gatecheck_result_init(&op->res);
	s4_stage_claims_init(&op->sr_claims);
	gate_findings_init(&op->sr_fs);
	if (!op->perf_opt || !op->name) {
		free(op->perf_opt);
		free(op->name);
		return -1;
	}
	a->n++;
	return 0;
}

/* ---- checking ---------------------------------------------------------------- */

static double row_speedup(const struct s4_recon_row *r)
{
	if (isfinite(r->baseline_us) && r->baseline_us > 0 && isfinite(r->winner_us) &&
	    r->winner_us > 0)
		return r->baseline_us / r->winner_us;
	return NAN;
}

/* Signed deviation of the claim from the winner's record, in %. */
static double row_deviation_pct(const struct s4_recon_row *r)
{
	if (isfinite(r->claimed_us) && isfinite(r->winner_us) && r->winner_us > 0)
		return 100.0 * (r->claimed_us - r->winner_us) / r->winner_us;
	return NAN;
}

/* A perf_tuning/ folder: gate findings (config, suppressions) and the
 * per-case speedups. Returns 0, -1 on allocation failure. */
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
static int settle_findings(struct audit_op *op, struct gate_findings *fs, int strict,
			   struct gate_config *cfg, struct gate_config_suppressions *sups)
{
	char err[512];
	char *cfg_path = NULL;
	if (gate_config_in_tree(op->set, op->dir, cfg, &cfg_path, err, sizeof(err)) != 0) {
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

static int check_ptune(struct audit_op *op, int strict)
{
	struct gate_findings fs;
	struct gate_config cfg;
	char err[512];
	int rc = -1;
	gate_findings_init(&fs);
	gate_config_init(&cfg);
	const struct tree *t = &op->set->roots[op->dir->root].tree;
	const char *rel = op->dir->rel;
	errno = 0;
	if (ptune_check_dir_in(t, rel, op->perf_opt, &fs) != 0) {
		rc = unreadable(op);
		goto out;
	}
	struct gate_config_suppressions sups;
	gate_config_suppressions_init(&sups);
	int sr = ptune_suppressions_in(t, rel, op->perf_opt, &sups);
	if (sr == 0)
		sr = settle_findings(op, &fs, strict, &cfg, &sups);
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
static int check_stage_result(struct audit_op *op, const struct gate_config *cfg)
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
	char *logs = tree_join(op->dir->rel, "logs");
	int fd = -1;
	enum tree_status ts = logs ? tree_resolve(&op->set->roots[op->dir->root].tree, logs, "stage_result.md",
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

/* The worst finding on a line of the Stage Result: "ok", or its severity
 * and message in buf. */
static const char *claim_status(const struct audit_op *op, long line, char *buf, size_t n)
{
	const struct gate_finding *worst = NULL;
	for (size_t i = 0; i < op->sr_fs.n; i++)
		if (op->sr_fs.v[i].line == line &&
		    (!worst || op->sr_fs.v[i].severity > worst->severity))
			worst = &op->sr_fs.v[i];
	if (!worst)
		return "ok";
	snprintf(buf, n, "%s: [%s] %s", gate_severity_name(worst->severity), worst->rule,
		 worst->message);
	return buf;
}

static int check_op(struct audit_op *op, int strict)
{
	if (op->ptune)
		return check_ptune(op, strict);
	struct gate_findings fs;
	struct gate_config cfg;
	const struct gate_root *root = &op->set->roots[op->dir->root];
	struct gatecheck_opts opts = { .tree = &root->tree, .rel = op->dir->rel, .repo_top = root->top };
	int rc = -1;
	gate_findings_init(&fs);
	gate_config_init(&cfg);
	if (gatecheck_dir(op->perf_opt, op->perf_opt, &opts, &fs, &op->res) != 0) {
		rc = unreadable(op);
		goto out;
	}
	if (settle_findings(op, &fs, strict, &cfg, &op->res.sup) != 0)
		goto out;

	const struct s4_recon *r = &op->res.recon;
	double *sp = malloc((r->n ? r->n : 1) * sizeof(*sp));
	size_t k = 0;
	if (!sp)
		goto out;
	op->reconciled = r->n > 0;
	for (size_t i = 0; i < r->n; i++) {
		double s = row_speedup(&r->v[i]);
		if (isfinite(s))
			sp[k++] = s;
		if (!r->v[i].ok)
			op->reconciled = 0;
	}
	op->geomean = k ? stats_geomean(sp, k) : NAN;
	free(sp);
	if (check_stage_result(op, &cfg) != 0)
		goto out;
	rc = 0;
out:
	gate_config_release(&cfg);
	gate_findings_release(&fs);
	return rc;
}

static int totals(struct audit *a)
{
	size_t nrows = 0, k = 0;
	for (size_t i = 0; i < a->n; i++)
		nrows += a->v[i].ptune ? 1 : a->v[i].res.recon.n;
	double *sp = malloc((nrows ? nrows : 1) * sizeof(*sp));
	if (!sp)
		return -1;
	for (size_t i = 0; i < a->n; i++) {
		const struct audit_op *op = &a->v[i];
		if (op->ptune) {
			/* gate errors fail the folder; no speedup and no error:
			 * nothing to reconcile */
			if (op->failed_to_read || op->errors)
				a->unreconcilable++;
			else if (op->reconciled)
				a->reconciled++;
			else
				a->without_claims++;
			if (isfinite(op->geomean))
				sp[k++] = op->geomean;
			continue;
		}
		if (op->res.recon.n == 0 && !op->failed_to_read)
			a->without_claims++;
		else if (op->reconciled)
			a->reconciled++;
		else
			a->unreconcilable++;
		for (size_t j = 0; j < op->res.recon.n; j++) {
			double s = row_speedup(&op->res.recon.v[j]);
			if (isfinite(s))
				sp[k++] = s;
		}
	}
	a->nspeedups = k;
	a->geomean = k ? stats_geomean(sp, k) : NAN;
	free(sp);
	return 0;
}

/* ---- shared text ------------------------------------------------------------ */

static const char *contract_name(enum records_contract c)
{
	return c == RECORDS_V1 ? "v1" : c == RECORDS_V2 ? "v2" : "?";
}

/* ptune rows: the workload cell names the cases and the JSON read. */
static const char *pt_workload(char *buf, size_t n, const struct audit_op *op)
{
	if (op->has_sp)
		snprintf(buf, n, "%zu case%s (%s)", op->sp.nvalid, op->sp.nvalid == 1 ? "" : "s",
			 op->sp.json);
	else
		snprintf(buf, n, "%s", "");
	return buf;
}

static const char *pt_status(const struct audit_op *op)
{
	if (op->failed_to_read)
		return "unreadable";
	if (op->errors)
		return "GATE ERRORS";
	if (!isfinite(op->geomean))
		return "no speedups";
	return "reconciled";
}

/* The row is drawn red / counted unreconcilable. */
static int op_failing(const struct audit_op *op)
{
	if (op->ptune)
		return op->failed_to_read || op->errors;
	return !op->reconciled && (op->res.recon.n || op->failed_to_read);
}

/* "%.4g" or "" for NAN. */
static const char *fmt_num(char *buf, size_t n, double v, const char *fmt)
{
	if (!isfinite(v))
		snprintf(buf, n, "%s", "");
	else
		snprintf(buf, n, fmt, v);
	return buf;
}

static const char *verdict(char *buf, size_t n, const struct audit_op *op)
{
	if (op->failed_to_read)
		snprintf(buf, n, "unreadable");
	else if (op->errors)
		snprintf(buf, n, "fail (%zu error%s%s)", op->errors, op->errors == 1 ? "" : "s",
			 op->warnings ? ", warnings" : "");
	else if (op->warnings)
		snprintf(buf, n, "pass (%zu warning%s)", op->warnings, op->warnings == 1 ? "" : "s");
	else
		snprintf(buf, n, "pass");
	return buf;
}

static const char *row_status(const struct s4_recon_row *r)
{
	if (r->ok)
		return "reconciled";
	if (!isfinite(r->claimed_us))
		return "no claim";
	if (!isfinite(r->winner_us))
		return "no winner record";
	return "MISMATCH";
}

static const char *stop_text(const struct audit_op *op)
{
	const char *s = op->res.recon.stop_reason;
	return s && *s ? s : "";
}

/* ---- the table: one row per operator and workload, for every format ---- */

/* Columns of the main table, in order. */
enum audit_col {
	COL_OPERATOR, COL_CONTRACT, COL_WORKLOAD, COL_BASELINE, COL_CLAIMED, COL_WINNER,
	COL_WINNER_US, COL_DEVIATION, COL_SPEEDUP, COL_GEOMEAN, COL_STOP, COL_STATUS, COL_VERDICT,
	NCOLS
};

/* How a format writes the numbers and the status of a row. */
struct audit_style {
	const char *us, *deviation, *speedup; /* printf formats */
	int yes;                              /* a reconciled row says "yes" */
};

/* One row as text cells (borrowed or in buf). */
struct audit_row {
	const char *cell[NCOLS];
	int fail;                  /* html: drawn as failing */
	char buf[6][64], wl[320], v[96];
};

/* Fills R with the row of operator OP for workload W (NULL: its one row
 * without claims; ignored for a perf_tuning/ folder) in style ST. */
static void audit_row(const struct audit_op *op, const struct s4_recon_row *w,
		      const struct audit_style *st, struct audit_row *r)
{
	for (int i = 0; i < NCOLS; i++)
		r->cell[i] = "";
	r->cell[COL_OPERATOR] = op->name;
	r->cell[COL_VERDICT] = verdict(r->v, sizeof(r->v), op);
	r->cell[COL_GEOMEAN] = fmt_num(r->buf[5], 64, op->geomean, st->speedup);
	if (op->ptune) {
		r->cell[COL_CONTRACT] = "perf_tuning";
		r->cell[COL_WORKLOAD] = pt_workload(r->wl, sizeof(r->wl), op);
		r->cell[COL_SPEEDUP] = fmt_num(r->buf[4], 64, op->geomean, st->speedup);
		r->cell[COL_STATUS] = st->yes && op->reconciled ? "yes" : pt_status(op);
		r->fail = op_failing(op);
		return;
	}
	r->cell[COL_CONTRACT] = contract_name(op->res.contract);
	r->cell[COL_STOP] = stop_text(op);
	r->cell[COL_STATUS] = "no claims";
	r->fail = op->failed_to_read;
	if (!w)
		return;
	r->cell[COL_WORKLOAD] = w->workload ? w->workload : "";
	r->cell[COL_BASELINE] = fmt_num(r->buf[0], 64, w->baseline_us, st->us);
	r->cell[COL_CLAIMED] = fmt_num(r->buf[1], 64, w->claimed_us, st->us);
	r->cell[COL_WINNER] = w->winner ? w->winner : "";
	r->cell[COL_WINNER_US] = fmt_num(r->buf[2], 64, w->winner_us, st->us);
	r->cell[COL_DEVIATION] = fmt_num(r->buf[3], 64, row_deviation_pct(w), st->deviation);
	r->cell[COL_SPEEDUP] = fmt_num(r->buf[4], 64, row_speedup(w), st->speedup);
	r->cell[COL_STATUS] = st->yes && w->ok ? "yes" : row_status(w);
	r->fail = !w->ok;
}

typedef void (*audit_row_fn)(FILE *f, const struct audit_op *op, const struct audit_row *r);

/* Calls EACH for every row of the main table in style ST: one per
 * perf_tuning/ folder, one per workload of a perf_opt/ directory (one
 * without claims when it has none). */
static void audit_rows(FILE *f, const struct audit *a, const struct audit_style *st,
		       audit_row_fn each)
{
	struct audit_row r;
	for (size_t i = 0; i < a->n; i++) {
		const struct audit_op *op = &a->v[i];
		const struct s4_recon *rc = &op->res.recon;
		size_t nrows = op->ptune || rc->n == 0 ? 1 : rc->n;
		for (size_t j = 0; j < nrows; j++) {
			audit_row(op, op->ptune || rc->n == 0 ? NULL : &rc->v[j], st, &r);
			each(f, op, &r);
		}
	}
}

/* 1 when some operator has a Stage Result to show. */
static int any_stage_result(const struct audit *a)
{
	for (size_t i = 0; i < a->n; i++)
		if (a->v[i].has_sr)
			return 1;
	return 0;
}

/* Columns of the Stage Result table: operator, line, field, workload,
 * claimed, records, status. */
#define NCLAIM_COLS 7

typedef void (*claim_row_fn)(FILE *f, const char *const *cell, int ok);

/* Calls EACH for every Stage Result claim of every operator that has one,
 * then AFTER (when not NULL) once per such operator. */
static void stage_rows(FILE *f, const struct audit *a, claim_row_fn each,
		       void (*after)(FILE *f, const struct audit_op *op))
{
	for (size_t i = 0; i < a->n; i++) {
		const struct audit_op *op = &a->v[i];
		if (!op->has_sr)
			continue;
		for (size_t j = 0; j < op->sr_claims.n; j++) {
			const struct s4_stage_claim *c = &op->sr_claims.v[j];
			char st[1400], ln[32];
			const char *status = claim_status(op, c->line, st, sizeof(st));
			snprintf(ln, sizeof(ln), "%ld", c->line);
			const char *cell[NCLAIM_COLS] = { op->name, ln, stage_result_fields[c->field],
							  c->workload ? c->workload : "", c->claimed,
							  c->recorded, status };
			each(f, cell, strcmp(status, "ok") == 0);
		}
		if (after)
			after(f, op);
	}
}

/* ---- markdown --------------------------------------------------------------- */

/* A malloc'd copy of s with invalid UTF-8 replaced by U+FFFD (cJSON and
 * the text formats write bytes as they are), or NULL on allocation
 * failure. */
static char *valid_utf8(const char *s)
{
	size_t n = strlen(s), o = 0;
	char *out = malloc(3 * n + 1);
	if (!out)
		return NULL;
	for (size_t i = 0; i < n;) {
		size_t bad = utf8_invalid_at(s + i, n - i);
		size_t good = bad == (size_t)-1 ? n - i : bad;
		memcpy(out + o, s + i, good);
		o += good;
		i += good;
		if (i < n) {
			memcpy(out + o, "\xEF\xBF\xBD", 3);
			o += 3;
			i++;
		}
	}
	out[o] = '\0';
	return out;
}

static void md_text(FILE *f, const char *str)
{
	/* table cells: pipes and markup escaped, control characters and
	 * invalid UTF-8 shown as escapes (util/escape.h) */
	char *s = escape_text(str, 0);
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		if (strchr("|\\`*_[]<>#~", *p))
			fputc('\\', f);
		if (*p == '\n' || *p == '\r' || *p == '\t')
			fputc(' ', f);
		else
			fputc(*p, f);
	}
	free(s);
}

/* One Markdown table row of the cells [0, n), each escaped. */
static void md_cells(FILE *f, const char *const *cell, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		fputs(i ? " | " : "| ", f);
		md_text(f, cell[i]);
	}
	fputs(" |\n", f);
}

/* One Markdown table row of R. */
static void md_row(FILE *f, const struct audit_op *op, const struct audit_row *r)
{
	(void)op;
	md_cells(f, r->cell, NCOLS);
}

/* The Stage Result findings of OP on lines without a claim row (format,
 * paths...), as rows of the claims table. */
static void md_stage_findings(FILE *f, const struct audit_op *op)
{
	for (size_t k = 0; k < op->sr_fs.n; k++) {
		const struct gate_finding *g = &op->sr_fs.v[k];
		int shown = 0;
		for (size_t j = 0; j < op->sr_claims.n && !shown; j++)
			shown = op->sr_claims.v[j].line == g->line;
		if (shown)
			continue;
		fputs("| ", f);
		md_text(f, op->name);
		fprintf(f, " | %ld | | | | | %s: [%s] ", g->line, gate_severity_name(g->severity),
			g->rule);
		md_text(f, g->message);
		fputs(" |\n", f);
	}
}

/* One row of the Stage Result table. */
static void md_claim(FILE *f, const char *const *cell, int ok)
{
	(void)ok;
	md_cells(f, cell, NCLAIM_COLS);
}

/* The second table: each Stage Result claim next to the records. */
static void md_stage_results(FILE *f, const struct audit *a)
{
	fputs("\n## Stage Result claims\n\n"
	      "From each perf_opt/logs/stage_result.md, next to what the records say "
	      "(`tlgate --stage-result`).\n\n"
	      "| operator | line | field | workload | claimed | records | status |\n"
	      "|---|---:|---|---|---|---|---|\n", f);
	stage_rows(f, a, md_claim, md_stage_findings);
}

static void write_markdown(FILE *f, const struct audit *a)
{
	static const struct audit_style md = { "%.4g", "%+.2f", "%.3fx", 1 };
	char b[64];
	fputs("# tlperf audit\n\n", f);
	fprintf(f, "%zu operator%s checked: %zu reconciled, %zu unreconcilable", a->n,
		a->n == 1 ? "" : "s", a->reconciled, a->unreconcilable);
	if (a->without_claims)
		fprintf(f, ", %zu without claims", a->without_claims);
	fprintf(f, "; overall geometric-mean speedup %s%s over %zu workload%s.\n\n",
		isfinite(a->geomean) ? fmt_num(b, 64, a->geomean, "%.3f") : "n/a",
		isfinite(a->geomean) ? "x" : "", a->nspeedups, a->nspeedups == 1 ? "" : "s");
	fputs("| operator | contract | workload | baseline_us | claimed_us | winner | winner_us "
	      "| deviation % | speedup | operator geomean | stop reason | reconciled | gate |\n"
	      "|---|---|---|---:|---:|---|---:|---:|---:|---:|---|---|---|\n", f);
	audit_rows(f, a, &md, md_row);
	if (any_stage_result(a))
		md_stage_results(f, a);
}

/* ---- csv ------------------------------------------------------------------------- */

static void csv_field(FILE *f, const char *str, int last)
{
	char *s = escape_text(str, 0);
	const char *p = s ? s : "";
	if (strpbrk(p, ",\"\r\n")) {
		fputc('"', f);
		for (; *p; p++) {
			if (*p == '"')
				fputc('"', f);
			fputc(*p, f);
		}
		fputc('"', f);
	} else {
		fputs(p, f);
	}
	fputs(last ? "\r\n" : ",", f);
	free(s);
}

/* One CSV record of R, then OP's gate error and warning counts. */
static void csv_row(FILE *f, const struct audit_op *op, const struct audit_row *r)
{
	char n[64];
	for (int i = 0; i < NCOLS; i++)
		csv_field(f, r->cell[i], 0);
	snprintf(n, sizeof(n), "%zu", op->errors);
	csv_field(f, n, 0);
	snprintf(n, sizeof(n), "%zu", op->warnings);
	csv_field(f, n, 1);
}

static void write_csv(FILE *f, const struct audit *a)
{
	static const struct audit_style csv = { "%.6g", "%.4f", "%.6g", 0 };
	static const char *const head[] = {
		"operator", "contract", "workload", "baseline_us", "claimed_us", "winner",
		"winner_us", "deviation_pct", "speedup", "operator_geomean", "stop_reason",
		"status", "gate_verdict", "gate_errors", "gate_warnings"
	};
	const size_t nh = sizeof(head) / sizeof(head[0]);
	for (size_t i = 0; i < nh; i++)
		csv_field(f, head[i], i + 1 == nh);
	audit_rows(f, a, &csv, csv_row);
}

/* ---- json --------------------------------------------------------------------------- */

/* Adds a number, or null when not finite. */
static int json_num(cJSON *o, const char *k, double v)
{
	return (isfinite(v) ? cJSON_AddNumberToObject(o, k, v) : cJSON_AddNullToObject(o, k)) ? 0
													      : -1;
}

/* Adds a string sanitised to valid UTF-8 (cJSON writes bytes as they are),
 * or null for NULL. */
static int json_str(cJSON *o, const char *k, const char *s)
{
	if (!s)
		return cJSON_AddNullToObject(o, k) ? 0 : -1;
	char *buf = valid_utf8(s);
	if (!buf)
		return -1;
	int rc = cJSON_AddStringToObject(o, k, buf) ? 0 : -1;
	free(buf);
	return rc;
}

/* A new object appended to ARR; NULL when out of memory. */
static cJSON *json_new_in(cJSON *arr)
{
	cJSON *x = cJSON_CreateObject();
	if (!x || !cJSON_AddItemToArray(arr, x)) {
		cJSON_Delete(x);
		return NULL;
	}
	return x;
}

/* The fields of a perf_tuning/ folder OP in O, with its cases; nonzero
 * when out of memory. */
static int json_ptune(cJSON *o, const struct audit_op *op)
{
	char v[96];
	int bad = json_str(o, "perf_tuning", op->perf_opt);
	bad |= json_str(o, "contract", "perf_tuning");
	bad |= json_num(o, "geomean_speedup", op->geomean);
	bad |= json_num(o, "mean_speedup", op->sp.mean);
	bad |= json_num(o, "stated_mean_speedup", op->sp.stated_mean);
	bad |= json_str(o, "json", op->has_sp ? op->sp.json : NULL);
	bad |= !cJSON_AddBoolToObject(o, "reconciled", op->reconciled);
	bad |= json_str(o, "status", pt_status(op));
	bad |= json_str(o, "gate_verdict", verdict(v, sizeof(v), op));
	bad |= json_num(o, "gate_errors", (double)op->errors);
	bad |= json_num(o, "gate_warnings", (double)op->warnings);
	cJSON *rows = cJSON_AddArrayToObject(o, "cases");
	bad |= !rows;
	for (size_t j = 0; rows && j < op->sp.n && !bad; j++) {
		cJSON *x = json_new_in(rows);
		if (!x)
			return 1;
		bad |= json_str(x, "case", op->sp.v[j].label);
		bad |= json_num(x, "speedup", op->sp.v[j].speedup);
	}
	return bad;
}

/* OP's "stage_result": the file, its counts, its claims and findings;
 * nonzero when out of memory. */
static int json_stage_result(cJSON *o, const struct audit_op *op)
{
	cJSON *so = cJSON_AddObjectToObject(o, "stage_result");
	cJSON *cl = so ? cJSON_AddArrayToObject(so, "claims") : NULL;
	cJSON *fl = so ? cJSON_AddArrayToObject(so, "findings") : NULL;
	int bad = !cl || !fl;
	if (so) {
		bad |= json_str(so, "file", op->sr_file);
		bad |= json_num(so, "errors", (double)gate_count(&op->sr_fs, GATE_ERROR));
		bad |= json_num(so, "warnings", (double)gate_count(&op->sr_fs, GATE_WARNING));
	}
	for (size_t j = 0; cl && j < op->sr_claims.n && !bad; j++) {
		const struct s4_stage_claim *c = &op->sr_claims.v[j];
		char st[1400];
		cJSON *x = json_new_in(cl);
		if (!x)
			return 1;
		bad |= json_num(x, "line", (double)c->line);
		bad |= json_str(x, "field", stage_result_fields[c->field]);
		bad |= json_str(x, "workload", c->workload);
		bad |= json_str(x, "claimed", c->claimed);
		bad |= json_str(x, "records", c->recorded);
		bad |= json_str(x, "status", claim_status(op, c->line, st, sizeof(st)));
	}
	for (size_t j = 0; fl && j < op->sr_fs.n && !bad; j++) {
		const struct gate_finding *g = &op->sr_fs.v[j];
		cJSON *x = json_new_in(fl);
		if (!x)
			return 1;
		bad |= json_str(x, "rule", g->rule);
		bad |= json_str(x, "severity", gate_severity_name(g->severity));
		bad |= json_num(x, "line", (double)g->line);
		bad |= json_str(x, "message", g->message);
	}
	return bad;
}

/* One reconciliation row W as an object of ROWS; nonzero when out of
 * memory. */
static int json_workload(cJSON *rows, const struct s4_recon_row *w)
{
	cJSON *x = json_new_in(rows);
	if (!x)
		return 1;
	int bad = json_str(x, "kernel", w->dispatch);
	bad |= json_str(x, "workload", w->workload);
	bad |= json_num(x, "baseline_us", w->baseline_us);
	bad |= json_num(x, "claimed_us", w->claimed_us);
	bad |= json_num(x, "claim_line", w->claim_line ? (double)w->claim_line : NAN);
	bad |= json_str(x, "winner", w->winner);
	bad |= json_num(x, "winner_us", w->winner_us);
	bad |= json_num(x, "winner_line", w->winner_line ? (double)w->winner_line : NAN);
	bad |= json_num(x, "deviation_pct", row_deviation_pct(w));
	bad |= json_num(x, "speedup", row_speedup(w));
	bad |= !cJSON_AddBoolToObject(x, "reconciled", w->ok);
	bad |= json_str(x, "status", row_status(w));
	return bad;
}

/* The fields of a perf_opt/ directory OP in O, its Stage Result and its
 * workloads; nonzero when out of memory. */
static int json_perf_opt(cJSON *o, const struct audit_op *op)
{
	const struct s4_recon *r = &op->res.recon;
	char v[96];
	int bad = json_str(o, "perf_opt", op->perf_opt);
	bad |= json_str(o, "contract", contract_name(op->res.contract));
	bad |= json_num(o, "geomean_speedup", op->geomean);
	bad |= json_num(o, "claimed_geomean", r->claimed_geomean);
	bad |= json_str(o, "stop_reason", *stop_text(op) ? stop_text(op) : NULL);
	bad |= !cJSON_AddBoolToObject(o, "reconciled", op->reconciled);
	bad |= json_str(o, "gate_verdict", verdict(v, sizeof(v), op));
	bad |= json_num(o, "gate_errors", (double)op->errors);
	bad |= json_num(o, "gate_warnings", (double)op->warnings);
	if (op->has_sr)
		bad |= json_stage_result(o, op);
	cJSON *rows = cJSON_AddArrayToObject(o, "workloads");
	bad |= !rows;
	for (size_t j = 0; rows && j < r->n && !bad; j++)
		bad |= json_workload(rows, &r->v[j]);
	return bad;
}

/* "totals" of DOC; nonzero when out of memory. */
static int json_totals(cJSON *doc, const struct audit *a)
{
	cJSON *t = cJSON_AddObjectToObject(doc, "totals");
	if (!t)
		return 1;
	int bad = json_num(t, "operators", (double)a->n);
	bad |= json_num(t, "reconciled", (double)a->reconciled);
	bad |= json_num(t, "unreconcilable", (double)a->unreconcilable);
	bad |= json_num(t, "without_claims", (double)a->without_claims);
	bad |= json_num(t, "workloads_with_speedup", (double)a->nspeedups);
	bad |= json_num(t, "geomean_speedup", a->geomean);
	return bad;
}

static int write_json(FILE *f, const struct audit *a)
{
	int bad = 0;
	cJSON *doc = cJSON_CreateObject();
	if (doc)
		cJSON_AddStringToObject(doc, "schema", "tlperf/audit/v1");
	cJSON *ops = doc ? cJSON_AddArrayToObject(doc, "operators") : NULL;
	if (!ops) {
		cJSON_Delete(doc);
		return -1;
	}
	for (size_t i = 0; i < a->n && !bad; i++) {
		const struct audit_op *op = &a->v[i];
		cJSON *o = json_new_in(ops);
		if (!o) {
			bad = 1;
			break;
		}
		bad |= json_str(o, "operator", op->name);
		bad |= op->ptune ? json_ptune(o, op) : json_perf_opt(o, op);
	}
	if (!bad)
		bad = json_totals(doc, a);
	char *s = bad ? NULL : cJSON_Print(doc);
	cJSON_Delete(doc);
	if (!s)
		return -1;
	fputs(s, f);
	fputc('\n', f);
	free(s);
	return 0;
}

/* ---- html --------------------------------------------------------------------------- */

static void h(FILE *f, const char *s)
{
	report_xml_escape(f, s, 0);
}

/* Colours of the page beyond the chart's (svg.h); each has a legend entry. */
#define ROW_FAIL_BG "#fdecea"

static const char html_css[] =
	"body{font-family:Helvetica,Arial,'Noto Sans CJK SC','PingFang SC','Microsoft YaHei',"
	"sans-serif;margin:24px;color:#222;}\n"
	"h1{font-size:22px;margin:0 0 8px}\n"
	".totals{display:flex;gap:12px;margin:12px 0 20px;flex-wrap:wrap}\n"
	".card{border:1px solid #ddd;border-radius:6px;padding:8px 14px;min-width:120px}\n"
	".card b{display:block;font-size:22px}\n"
	".card.bad b{color:" SVG_COLOR_FAIL "}\n"
	"tr.bad td{color:" SVG_COLOR_FAIL "}\n"
	"table{border-collapse:collapse;font-size:13px;margin-top:16px}\n"
	"th,td{border:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top;white-space:nowrap}\n"
	"th{background:#f5f5f5}\n"
	"td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
	"tr.fail td{background:" ROW_FAIL_BG ";color:" SVG_COLOR_FAIL "}\n"
	"caption{text-align:left;font-weight:bold;padding:4px 0}\n"
	".legend{list-style:none;padding:0;margin:4px 0 0;font-size:12px;display:flex;gap:16px;flex-wrap:wrap}\n"
	".legend .sw{display:inline-block;width:14px;height:10px;margin-right:5px;vertical-align:middle}\n"
	".legend .sw.line{height:0;border-top:2px dashed}\n"
	"tr.fail td.status{font-weight:bold}\n"
	".note{color:#666;font-size:12px}\n";

/* One entry per colour the page uses (chart and table), each swatch
 * carrying its colour in data-color so a check can match them. */
static void write_legend(FILE *f)
{
	static const struct {
		const char *color, *cls, *text;
	} e[] = {
		{ SVG_COLOR_UP, "", "bar: speedup &#8805; 1&#215; (faster than the baseline)" },
		{ SVG_COLOR_DOWN, "", "bar: speedup &lt; 1&#215; (slower than the baseline)" },
		{ SVG_COLOR_FAIL, "", "red (bar, name, row text, count): a claim that does not reconcile" },
		{ SVG_COLOR_GEOMEAN, " line", "dashed line: overall geometric mean" },
		{ ROW_FAIL_BG, "", "table row: the claim does not reconcile (or the folder fails the gate)" },
	};
	fputs("<ul class=\"legend\" aria-label=\"legend\">\n", f);
	for (size_t i = 0; i < sizeof(e) / sizeof(e[0]); i++)
		fprintf(f, "<li><span class=\"sw%s\" data-color=\"%s\" style=\"%s:%s\"></span>%s</li>\n",
			e[i].cls, e[i].color, *e[i].cls ? "border-color" : "background", e[i].color,
			e[i].text);
	fputs("</ul>\n", f);
}


/* The totals as cards. */
static void html_totals(FILE *f, const struct audit *a)
{
	char b[64];
	fputs("<div class=\"totals\">\n", f);
	fprintf(f, "<div class=\"card\"><b>%zu</b>operators checked</div>\n", a->n);
	fprintf(f, "<div class=\"card\"><b>%zu</b>reconciled</div>\n", a->reconciled);
	fprintf(f, "<div class=\"card%s\"><b>%zu</b>unreconcilable</div>\n",
		a->unreconcilable ? " bad" : "", a->unreconcilable);
	if (a->without_claims)
		fprintf(f, "<div class=\"card\"><b>%zu</b>without claims</div>\n", a->without_claims);
	fprintf(f, "<div class=\"card\"><b>%s</b>overall geomean speedup (%zu workloads)</div>\n",
		isfinite(a->geomean) ? fmt_num(b, 64, a->geomean, "%.3f&#215;") : "n/a",
		a->nspeedups);
	fputs("</div>\n", f);
}

/* The chart: one bar per operator (its geomean), failing ones red.
 * Returns 0, -1 when out of memory or the chart failed. */
static int html_chart(FILE *f, const struct audit *a)
{
	const char **labels = malloc((a->n ? a->n : 1) * sizeof(*labels));
	double *vals = malloc((a->n ? a->n : 1) * sizeof(*vals));
	int *failing = malloc((a->n ? a->n : 1) * sizeof(*failing));
	int rc = -1;
	if (labels && vals && failing) {
		for (size_t i = 0; i < a->n; i++) {
			labels[i] = a->v[i].name;
			vals[i] = a->v[i].geomean;
			failing[i] = op_failing(&a->v[i]);
		}
		struct svg_bars bars = { "speedup per operator (geometric mean over its workloads)",
					 "speedup = baseline_us / winner_us (log scale); red: claim does not reconcile",
					 labels, vals, failing, a->n, a->geomean, 1 };
		rc = svg_write_bars(f, &bars);
	}
	free(labels);
	free(vals);
	free(failing);
	return rc != 0 ? -1 : 0;
}

/* One table row of R: numbers right-aligned as they are, text escaped. */
static void html_row(FILE *f, const struct audit_op *op, const struct audit_row *r)
{
	static const unsigned numeric = 1u << COL_BASELINE | 1u << COL_CLAIMED |
					1u << COL_WINNER_US | 1u << COL_DEVIATION |
					1u << COL_SPEEDUP | 1u << COL_GEOMEAN;
	(void)op;
	fprintf(f, "<tr%s>", r->fail ? " class=\"fail\"" : "");
	for (int i = 0; i < NCOLS; i++) {
		if (numeric >> i & 1u) {
			fprintf(f, "<td class=\"n\">%s</td>", r->cell[i]);
			continue;
		}
		fputs(i == COL_STATUS ? "<td class=\"status\">" : "<td>", f);
		h(f, r->cell[i]);
		fputs("</td>", f);
	}
	fputs("</tr>\n", f);
}

/* One row of the Stage Result table, marked bad unless its status is ok. */
static void html_claim(FILE *f, const char *const *cell, int ok)
{
	fputs(ok ? "<tr>" : "<tr class=\"bad\">", f);
	for (size_t k = 0; k < NCLAIM_COLS; k++) {
		fputs("<td>", f);
		h(f, cell[k]);
		fputs("</td>", f);
	}
	fputs("</tr>\n", f);
}

/* The second table: each Stage Result claim next to the records. */
static void html_stage_results(FILE *f, const struct audit *a)
{
	fputs("<h2>Stage Result claims</h2>\n<table>\n<caption>Stage Result fields against the "
	      "records</caption>\n<thead><tr><th scope=\"col\">operator</th>"
	      "<th scope=\"col\">line</th><th scope=\"col\">field</th>"
	      "<th scope=\"col\">workload</th><th scope=\"col\">claimed</th>"
	      "<th scope=\"col\">records</th><th scope=\"col\">status</th>"
	      "</tr></thead>\n<tbody>\n", f);
	stage_rows(f, a, html_claim, NULL);
	fputs("</tbody>\n</table>\n", f);
}

static int write_html(FILE *f, const struct audit *a)
{
	static const struct audit_style html = { "%.4g", "%+.2f%%", "%.3f&#215;", 1 };
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<title>tlperf audit</title>\n<style>\n", f);
	fputs(html_css, f);
	fputs("</style>\n</head>\n<body>\n<h1>tlperf audit: claimed vs recorded final latencies</h1>\n",
	      f);
	html_totals(f, a);
	if (html_chart(f, a) != 0)
		return -1;
	write_legend(f);
	fputs("<table>\n<caption>Claimed vs recorded final latency: one row per operator and "
	      "workload</caption>\n<thead><tr><th scope=\"col\">operator</th>"
	      "<th scope=\"col\">contract</th><th scope=\"col\">workload</th>"
	      "<th scope=\"col\">baseline_us<br>(record)</th><th scope=\"col\">claimed_us<br>(log)</th>"
	      "<th scope=\"col\">winner</th><th scope=\"col\">winner_us<br>(record)</th>"
	      "<th scope=\"col\">deviation</th><th scope=\"col\">speedup</th>"
	      "<th scope=\"col\">operator geomean</th><th scope=\"col\">stop reason</th>"
	      "<th scope=\"col\">reconciled</th><th scope=\"col\">gate</th>"
	      "</tr></thead>\n<tbody>\n", f);
	audit_rows(f, a, &html, html_row);
	fputs("</tbody>\n</table>\n", f);
	if (any_stage_result(a))
		html_stage_results(f, a);
	fputs("<p class=\"note\">A claim reconciles when it is within 1% of the winner's recorded "
	      "measurement (gate rule S4-PERF-RECORDS-RECON). Generated by tlperf audit "
	      TLPERF_VERSION "; this file needs no network access.</p>\n</body>\n</html>\n", f);
	return 0;
}

/* ---- main --------------------------------------------------------------------------- */

static void audit_release(struct audit *a)
{
	for (size_t i = 0; i < a->n; i++) {
		free(a->v[i].perf_opt);
		free(a->v[i].name);
		gatecheck_result_release(&a->v[i].res);
		ptune_speedups_release(&a->v[i].sp);
		free(a->v[i].sr_file);
		s4_stage_claims_release(&a->v[i].sr_claims);
		gate_findings_release(&a->v[i].sr_fs);
	}
	free(a->v);
	memset(a, 0, sizeof(*a));
}

static int emit(FILE *f, enum audit_format fmt, const struct audit *a)
{
	switch (fmt) {
	case AUDIT_MARKDOWN: write_markdown(f, a); return 0;
	case AUDIT_CSV: write_csv(f, a); return 0;
	case AUDIT_JSON: return write_json(f, a);
	case AUDIT_HTML: return write_html(f, a);
	}
	return -1;
}

/* What the command line asks for. */
struct audit_args {
	enum audit_format fmt;
	const char *output;  /* -o F, NULL for stdout */
	int strict;
	int allow_empty;
	int nroots;
	int explicit_roots;  /* ROOT operands given (not the default ".") */
	char **roots;
};

/* --format NAME; -1 when unknown. */
static int format_named(const char *name, enum audit_format *fmt)
{
	static const struct {
		const char *name;
		enum audit_format fmt;
	} names[] = {
		{ "markdown", AUDIT_MARKDOWN }, { "csv", AUDIT_CSV },
		{ "json", AUDIT_JSON }, { "html", AUDIT_HTML },
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i].name) == 0) {
			*fmt = names[i].fmt;
			return 0;
		}
	return -1;
}

/* Reads the options and the roots (default "."). 0, -1 when the parser
 * stopped (*RC its exit code: help printed or a usage error). */
static int parse_audit_args(int argc, char **argv, struct audit_args *x, int *rc)
{
	static char *dot[] = { "." };
	struct cli_parser cp;
	int c;
	cli_parser_init(&cp, &cmd_audit_spec, argc, argv);
	while ((c = cli_parser_next(&cp)) > 0) {
		switch (c) {
		case 'f':
			if (format_named(optarg, &x->fmt) != 0) { /* a choice: checked */
				*rc = CLI_USAGE;
				return -1;
			}
			break;
		case 'o': x->output = optarg; break;
		case 's': x->strict = 1; break;
		case 'A': x->allow_empty = 1; break;
		}
	}
	if (c == CLI_PARSE_STOP) {
		*rc = cp.rc;
		return -1;
	}
	x->nroots = argc - cp.next;
	x->explicit_roots = x->nroots > 0;
	x->roots = x->nroots ? argv + cp.next : dot;
	if (!x->nroots)
		x->nroots = 1;
	return 0;
}

/* Adds the roots, finds their perf_opt/ and perf_tuning/ directories and
 * reports what the walk could not check. 0, -1 (reported) on error. */
static int discover(struct gate_set *set, const struct audit_args *x, struct audit *a)
{
	for (int i = 0; i < x->nroots; i++) {
		char err[512];
		if (gate_set_add_root(set, x->roots[i], err, sizeof(err)) != 0) {
			cli_error("%s", err);
			return -1;
		}
	}
	if (gate_set_discover(set, NULL, 0) != 0) {
		cli_error("out of memory");
		return -1;
	}
	for (size_t i = 0; i < set->ndirs; i++)
		if (add_op(a, set, &set->dirs[i]) != 0) {
			cli_error("out of memory");
			return -1;
		}
	/* what the walk could not check fails the audit */
	for (size_t i = 0; i < set->tree_findings.n; i++) {
		const struct gate_finding *tf = &set->tree_findings.v[i];
		cli_error("%s: [%s] %s", tf->file, tf->rule, tf->message);
	}
	long e = x->explicit_roots && !x->allow_empty ? gate_set_empty_root(set) : -1;
	if (e >= 0) {
		cli_error("nothing to audit under '%s': no perf_opt/ or perf_tuning/ directory in it (--allow-empty accepts that)",
			  set->roots[e].shown);
		return -1;
	}
	if (a->n == 0)
		cli_warn("no perf_opt/ directory found (nor perf_tuning/)");
	return 0;
}

/* Checks every directory, then the totals. A large tree takes a while: a
 * redrawn line on a terminal, a plain line every tenth of the way
 * otherwise, a line per directory with --verbose. 0, -1 (reported) when
 * memory ran out. */
static int check_all(struct audit *a, int strict)
{
	struct term_progress pg;
	term_progress_begin(&pg, "directory", a->n);
	pg.plain_tenths = a->n >= 20;
	for (size_t i = 0; i < a->n; i++) {
		const struct audit_op *op = &a->v[i];
		term_progress_step(&pg, i, op->name);
		if (check_op(&a->v[i], strict) != 0) {
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
	if (totals(a) != 0) {
		cli_error("out of memory");
		return -1;
	}
	return 0;
}

/* Writes the report to OUTPUT through a temporary file beside it, renamed
 * over it only when complete. 0, -1 (reported) on error. */
static int write_output(const char *output, enum audit_format fmt, const struct audit *a)
{
	size_t n = strlen(output) + 16;
	char *tmp = malloc(n);
	FILE *f = NULL;
	int rc = -1;
	if (!tmp) {
		cli_error("out of memory");
		return -1;
	}
	snprintf(tmp, n, "%s.tmpXXXXXX", output);
	int fd = mkstemp(tmp);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		cli_error("cannot write '%s': %s", output, strerror(errno));
		if (fd >= 0)
			close(fd);
		free(tmp);
		return -1;
	}
	if (emit(f, fmt, a) != 0) {
		cli_error("out of memory");
		fclose(f);
		goto out;
	}
	int werr = ferror(f);
	if (fclose(f) != 0 || werr) {
		cli_error("cannot write '%s': %s", output, strerror(errno ? errno : EIO));
		goto out;
	}
	if (chmod(tmp, 0644) != 0 || rename(tmp, output) != 0) {
		cli_error("cannot write '%s': %s", output, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	if (rc != 0)
		unlink(tmp);
	free(tmp);
	return rc;
}

int cmd_audit(int argc, char **argv)
{
	struct audit_args x = { AUDIT_MARKDOWN, NULL, 0, 0, 0, 0, NULL };
	int rc = CLI_USAGE;
	struct audit a;
	struct gate_set set;
	if (parse_audit_args(argc, argv, &x, &rc) != 0)
		return rc;
	memset(&a, 0, sizeof(a));
	gate_set_init(&set);
	if (discover(&set, &x, &a) != 0 || check_all(&a, x.strict) != 0)
		goto out;
	if (x.output ? write_output(x.output, x.fmt, &a) != 0 : emit(stdout, x.fmt, &a) != 0) {
		if (!x.output)
			cli_error("out of memory");
		goto out;
	}
	rc = a.unreconcilable || set.tree_findings.n ? CLI_FAIL : CLI_OK;
	if (a.unreconcilable)
		fprintf(stderr, "tlperf audit: %zu of %zu operator%s do%s not reconcile\n",
			a.unreconcilable, a.n, a.n == 1 ? "" : "s", a.unreconcilable == 1 ? "es" : "");
out:
	audit_release(&a);
	gate_set_release(&set);
	return x.output ? rc : cli_finish_stdout(rc);
}
