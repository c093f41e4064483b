/* gatecheck.h: gate 4 over one perf_opt/ directory, reusable by `tlperf
 * gate` and `tlperf audit`.
 *
 * gatecheck_dir() reads the directory's files (opt_log.md, perf_records.jsonl
 * streamed, workload_inventory.json, perf_feedback.md, the sha256 of the
 * tuned kernel a final record names, and with opts->base_ref the records as
 * they were at that git revision), runs every S4 rule (gates/s4.h) and
 * returns the findings with each rule's default severity, the inline
 * suppressions it found (not yet applied) and one reconciliation row per
 * workload. Nothing from the checked tree is ever executed; git is run with
 * an argument vector (no shell) only when base_ref is set.
 */
#ifndef TLPERF_GATECHECK_H
#define TLPERF_GATECHECK_H

#include "model/finding.h"
#include "io/records.h"
#include "gates/s4.h"

struct tree;

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
	double ab_threshold;    /* S4-AB: gains under it need an A/B verdict
				   (.tlgate.json "ab_threshold"); <= 0: 5% */
};

/* An inline suppression `<!-- tlgate-disable RULE -- reason -->`. */
struct gatecheck_suppression {
	char *file;             /* shown path of the Markdown file, malloc'd */
	long line;
	char *rule;             /* malloc'd, NULL when malformed */
	char *reason;           /* malloc'd, NULL when missing */
	int used;               /* set by gatecheck_apply_suppressions */
};

struct gatecheck_result {
	enum records_contract contract;    /* of the directory */
	struct s4_recon recon;             /* per workload reconciliation */
	struct gatecheck_suppression *sup; /* suppressions found */
	size_t n_sup, cap_sup;
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

/* Drops the findings of fs that a well-formed suppression in res names
 * (RULE, or a prefix ending in '*'), marking it used; then appends
 * TLGATE-SUPPRESSION warnings for malformed, unknown-rule and unused
 * suppressions. Returns 0, -1 on allocation failure. */
int gatecheck_apply_suppressions(struct gate_findings *fs, struct gatecheck_result *res);

/* Records one inline suppression s found in file (a copy: res owns it and
 * frees it with the result). Returns 0, or -1 when out of memory. */
int gatecheck_add_suppression(struct gatecheck_result *res, const char *file,
			      const struct optlog_suppression *s);

/* Rule severities from --strict and a .tlgate.json. */
struct gatecheck_config {
	char **rule;                  /* rule ids (or prefixes ending in '*') */
	enum gate_severity *sev;      /* severity per rule, GATE_OFF to drop */
	size_t n;
	int strict;                   /* --strict */
	char *path;                   /* file it came from, NULL for none */
	double ab_threshold;          /* "ab_threshold" (S4-AB), 0 when not set */
};

void gatecheck_config_init(struct gatecheck_config *cfg);
void gatecheck_config_release(struct gatecheck_config *cfg);
/* Reads a .tlgate.json: {"rules": {"S4-LAYOUT": "error", "S4-STOP-REASON": "off"}}
 * (a top-level map of rule ids works too), and "ab_threshold": the gain
 * (a fraction, 0 < x < 0.5) under which S4-AB asks for an A/B verdict. Returns 0, or -1 with a message
 * in err (file, what is wrong). */
int gatecheck_config_load(const char *path, struct gatecheck_config *cfg, char *err, size_t errlen);
/* The same from text (name is how the file is named in messages). */
int gatecheck_config_parse(const char *text, size_t len, const char *name,
			   struct gatecheck_config *cfg, char *err, size_t errlen);
/* The nearest .tlgate.json (a regular file, not a link) in dir or its
 * ancestors up to stop (NULL: the repository top, the nearest ancestor
 * holding .git; without one, dir alone), malloc'd, or NULL. Never looks
 * above stop. */
char *gatecheck_config_find(const char *dir, const char *stop);
/* The severity rule gets under cfg when its findings would have dflt
 * (the same choice as gatecheck_config_apply); *matched (may be NULL) is
 * set when an entry of cfg decided it. */
enum gate_severity gatecheck_config_severity(const struct gatecheck_config *cfg, const char *rule,
					     enum gate_severity dflt, int *matched);
/* Applies --strict and the configured severities to fs in place (dropping
 * rules set to off). */
void gatecheck_config_apply(const struct gatecheck_config *cfg, struct gate_findings *fs);

#endif
