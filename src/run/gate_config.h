/* gate_config.h: the configuration the gate runs under and the inline
 * suppressions it honours, in one place (`tlgate`, `tlperf audit`).
 *
 * A .tlgate.json holds rule severities and the rules a Markdown file of a
 * checked directory may suppress inline:
 *
 *   {"rules": {"S4-STOP-REASON": "error", "S4-LAYOUT": "off"},
 *    "inline_suppressible": ["S4-LAYOUT", "PT-STOP"]}
 *
 * (a top-level map of rule ids, without the two keys, is read as "rules").
 *
 * Which file is in force: --config FILE when given; else, outside
 * pull-request mode, the nearest .tlgate.json from the directory up to the
 * repository top (the nearest ancestor holding .git; without one, the
 * checked root) and never above it; in pull-request mode (--base or
 * --changed-since REV) the nearest one of revision REV, read with git:
 * the pull request's own file never applies, and one that weakens the
 * base's (a lower severity, a rule made inline-suppressible, the base's
 * stricter file removed, or a file that cannot be read) is a TLGATE-CONFIG
 * error.
 *
 * Inline suppressions `<!-- tlgate-disable RULE -- reason -->` (RULE or a
 * prefix ending in '*') come from the checked directory, that is from the
 * pull request itself, so they apply only to rules the configuration in
 * force lists in "inline_suppressible". Without such a list no rule is
 * suppressible: the default is none at all. A suppression of a rule not
 * listed is a TLGATE-SUPPRESSION-DENIED error and the rule's findings stay.
 * A finding that a suppression does silence is kept, marked with the
 * suppression (gate_finding_suppress), so every report shows it; it no
 * longer counts towards the exit code.
 */
#ifndef TLPERF_GATE_CONFIG_H
#define TLPERF_GATE_CONFIG_H

#include <stddef.h>

#include "model/finding.h"

struct optlog_suppression;
struct gate_set;
struct gate_dir;

/* Rule severities from --strict and a .tlgate.json, and the rules that may
 * be suppressed inline. */
struct gate_config {
	char **rule;                  /* rule ids (or prefixes ending in '*') */
	enum gate_severity *sev;      /* severity per rule, GATE_OFF to drop */
	size_t n;
	char **inline_ok;             /* "inline_suppressible": ids or prefixes */
	size_t n_inline_ok;
	int strict;                   /* --strict */
	char *path;                   /* file it came from, NULL for none */
	double ab_threshold;          /* "ab_threshold" (S4-AB: gains under it need an A/B
				       * verdict; a fraction, 0 < x < 0.5), 0 when not set */
};

void gate_config_init(struct gate_config *cfg);
/* Frees what cfg owns; keeps cfg->strict. */
void gate_config_release(struct gate_config *cfg);

/* Reads a .tlgate.json (see above) at path: any regular file of at most
 * 1 MiB, links followed (a file the user names). Returns 0, or -1 with a
 * message in err (file, what is wrong). */
int gate_config_load(const char *path, struct gate_config *cfg, char *err, size_t errlen);
/* The same from text (name is how the file is named in messages). */
int gate_config_parse(const char *text, size_t len, const char *name, struct gate_config *cfg,
		      char *err, size_t errlen);
/* The nearest .tlgate.json (a regular file, not a link) in dir or its
 * ancestors up to stop (NULL: the repository top, the nearest ancestor
 * holding .git; without one, dir alone), malloc'd, or NULL. Never looks
 * above stop. */
char *gate_config_find(const char *dir, const char *stop);

/* The severity rule gets under cfg when its findings would have dflt
 * (the same choice as gate_config_apply); *matched (may be NULL) is set
 * when an entry of cfg decided it. */
enum gate_severity gate_config_severity(const struct gate_config *cfg, const char *rule,
					enum gate_severity dflt, int *matched);
/* Applies --strict and the configured severities to fs in place (dropping
 * rules set to off). */
void gate_config_apply(const struct gate_config *cfg, struct gate_findings *fs);
/* 1 when cfg lets an inline suppression silence rule. */
int gate_config_inline_ok(const struct gate_config *cfg, const char *rule);

/* ---- inline suppressions ---- */

/* An inline suppression `<!-- tlgate-disable RULE -- reason -->`. */
struct gate_config_suppression {
	char *file;             /* shown path of the Markdown file, malloc'd */
	long line;
	char *rule;             /* malloc'd, NULL when malformed */
	char *reason;           /* malloc'd, NULL when missing */
	int used;               /* it silenced a finding */
	int denied;             /* it named a finding of a rule cfg does not allow */
};

struct gate_config_suppressions {
	struct gate_config_suppression *v;
	size_t n, cap;
};

void gate_config_suppressions_init(struct gate_config_suppressions *s);
void gate_config_suppressions_release(struct gate_config_suppressions *s);
/* Records one suppression s found in file (a copy). Returns 0, or -1 when
 * out of memory. */
int gate_config_add_suppression(struct gate_config_suppressions *sups, const char *file,
				const struct optlog_suppression *s);
/* Applies the suppressions to fs under cfg: a finding that a well-formed
 * suppression names (RULE, or a prefix ending in '*') is marked suppressed
 * when cfg allows its rule inline (gate_config_inline_ok), else it stays.
 * Then appends a TLGATE-SUPPRESSION-DENIED error for each suppression of a
 * rule cfg does not allow, and TLGATE-SUPPRESSION warnings for malformed,
 * unknown-rule and unused ones. Returns 0, -1 on allocation failure. */
int gate_config_apply_suppressions(const struct gate_config *cfg, struct gate_findings *fs,
				   struct gate_config_suppressions *sups);

/* ---- which configuration is in force for a directory ---- */

/* Loads the working tree's configuration for d (nearest .tlgate.json, see
 * above) into cfg; *name gets its shown path (malloc'd) or NULL when there
 * is none (cfg left empty). Returns 0, -1 with err. */
int gate_config_in_tree(const struct gate_set *s, const struct gate_dir *d, struct gate_config *cfg,
			char **name, char *err, size_t errlen);

/* Appends a TLGATE-CONFIG error at file for every rule whose severity
 * under pr is lower than under base (rule defaults where neither says),
 * and for every rule pr makes inline-suppressible that base does not.
 * Returns 0, -1 when out of memory. */
int gate_config_weakened(const struct gate_config *base, const char *base_name,
			 const struct gate_config *pr, const char *file, struct gate_findings *fs);

/* The same when the working tree no longer holds the base revision's
 * file (base_name "REV:path", shown as file): every rule it made stricter
 * than its default. Returns 0, -1 when out of memory. */
int gate_config_removed(const struct gate_config *base, const char *base_name, const char *file,
			struct gate_findings *fs);

/* The configuration in force, directory after directory (a file is read
 * once and kept while the next directory has the same one). */
struct gate_config_state {
	const char *explicit_path;  /* --config, NULL for none */
	const char *rev;            /* pull-request mode: the base revision, else NULL */
	int strict;                 /* --strict */
	struct gate_config cfg;     /* in force for the last directory asked about */
	char *loaded;               /* name of what cfg holds, NULL: defaults */
	int have_explicit;          /* --config was read */
	char **reported;            /* working-tree files already compared with base */
	size_t nreported;
	char *revlist;              /* the .tlgate.json files of revlist_key in */
	size_t revlist_len;         /* revlist_top, NUL-separated (git ls-tree, once) */
	char *revlist_key, *revlist_top;
};

void gate_config_state_init(struct gate_config_state *cs, const char *explicit_path,
			    const char *rev, int strict);
void gate_config_state_release(struct gate_config_state *cs);

/* Puts the configuration in force for d (of set) into cs->cfg. In
 * pull-request mode, the working tree's file is compared with the base
 * revision's: TLGATE-CONFIG errors are appended to out, once per file.
 * Returns 0; -1 with err (a configuration that cannot be read or parsed,
 * git failing: exit 2); -2 when out of memory. */
int gate_config_for(struct gate_config_state *cs, const struct gate_set *set,
		    const struct gate_dir *d, struct gate_findings *out, char *err, size_t errlen);

#endif
