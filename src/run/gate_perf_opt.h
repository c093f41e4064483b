/* gate_perf_opt.h: gate 4 over one perf_opt/ directory, reusable by `tlperf
 * gate` and `tlperf audit`.
 *
 * gatecheck_dir() reads the directory's files (opt_log.md, perf_records.jsonl
 * streamed, workload_inventory.json, perf_feedback.md, the sha256 of the
 * tuned kernel a final record names, and with opts->base_ref the records as
 * they were at that git revision), runs every S4 rule (gates/s4.h) and
 * returns the findings with each rule's default severity, the inline
 * suppressions it found (not yet applied: run/gate_config.h) and one reconciliation row per
 * workload. Nothing from the checked tree is ever executed; git is run with
 * an argument vector (no shell) only when base_ref is set.
 */
#ifndef TLPERF_GATE_PERF_OPT_H
#define TLPERF_GATE_PERF_OPT_H

#include "model/finding.h"
#include "io/records.h"
#include "gates/s4.h"
#include "run/gate_config.h"

struct tree;
struct gate_moves;

struct gatecheck_opts {
	const char *base_ref;   /* --base REF, NULL for none */
	const char *repo_root;  /* for paths cited in perf_feedback.md; NULL: the
				   nearest ancestor of the tree holding .git, else
				   the checked tree */
	/* More rules over the same input, run after the S4 rules with their
	 * reconciliation rows (tlgate --stage-result); NULL for none. With
	 * extra_only, the S4 rules' own findings are dropped. */
	int (*extra)(const struct s4_input *in, const struct s4_recon *rc,
		     struct gate_findings *fs, void *ctx);
	void *extra_ctx;
	int extra_only;
	const struct tree *tree;/* the checked tree (io/tree.h): every file is read
				   through it, nothing outside it is opened; NULL:
				   a tree rooted at path's parent */
	const char *rel;        /* with tree: the directory's path in it */
	const char *repo_top;   /* --base: the repository (git -C); NULL: the
				   nearest ancestor of the tree holding .git */
	const struct gate_moves *moves; /* --base: records files git matched to
				   another path at the base (run/gate_history.h);
				   NULL: none */
	double ab_threshold;    /* S4-AB: gains under it need an A/B verdict
				   (.tlgate.json "ab_threshold"); <= 0: 5% */
};

struct gatecheck_result {
	enum records_contract contract;    /* of the directory */
	struct s4_recon recon;             /* per workload reconciliation */
	struct gate_config_suppressions sup; /* suppressions found, not applied */
	size_t records;                    /* valid records read */
	unsigned long long bytes;          /* bytes read from the directory's files */
};

void gatecheck_result_init(struct gatecheck_result *res);
void gatecheck_result_release(struct gatecheck_result *res);

/* Checks the perf_opt directory at path (shown is how paths are printed;
 * with opts->tree, the directory is opts->rel in that tree and path is
 * not used). A path a record names (artifact_path, msprof_raw_path) and
 * the directory's own files are resolved inside the tree: one leading out
 * of it, or naming a device, FIFO or oversized file, is never opened and
 * becomes a TLGATE-PATH error saying why.
 * Findings are appended to fs; res (may be NULL) receives the summary.
 * Returns 0, or -1 when the directory cannot be read or memory ran out
 * (errno set). */
int gatecheck_dir(const char *path, const char *shown, const struct gatecheck_opts *opts,
		  struct gate_findings *fs, struct gatecheck_result *res);

#endif
