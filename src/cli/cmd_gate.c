/* cmd_gate.c: `tlperf gate` / `tlgate`, gate 4 over perf_opt/ (and
 * perf_tuning/) directories for CI. */
#include "cli/cli.h"
#include "run/gate_perf_opt.h"
#include "run/gate_perf_tuning.h"
#include "run/gate_tree.h"
#include "run/git.h"
#include "report/report.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char cmd_gate_usage[] =
	"usage: tlgate [options] [PATH...]\n"
	"       tlperf gate [options] [PATH...]\n"
	"\n"
	"Checks every perf_opt/ directory (gate 4) and perf_tuning/ directory found\n"
	"under each PATH (a perf_opt/ directory, an operator directory, or any tree;\n"
	".git and node_modules are not entered). No PATH means the current directory.\n"
	"Nothing outside a PATH is read; symbolic links never lead out of it.\n"
	"\n"
	"  --changed-since REF   only the directories holding a file changed in\n"
	"                        REF...HEAD (REF..HEAD when there is no merge base;\n"
	"                        deletions ignored), wherever they are\n"
	"  --base REF            perf_records.jsonl must only have grown since REF\n"
	"  --config FILE         rule severities (default: the nearest .tlgate.json up\n"
	"                        to the repository top; with --changed-since or --base,\n"
	"                        the one of the base revision: a pull request's own\n"
	"                        .tlgate.json never applies, and one weakening a rule\n"
	"                        is a TLGATE-CONFIG error)\n"
	"  --strict              S4-STOP-REASON and S4-LAYOUT findings become errors\n"
	"  --warnings-as-errors  any warning fails the gate\n"
	"  --format FMT          text (default), json, sarif, github, junit, markdown, gitlab\n"
	"  --report FMT:PATH     also write FMT to PATH (repeatable)\n"
	"  -h, --help            this text\n"
	"\n"
	"Exit: 0 no errors, 1 errors found, 2 usage error or unreadable PATH.\n";

static int move_findings(struct gate_findings *dst, struct gate_findings *src)
{
	for (size_t i = 0; i < src->n; i++) {
		const struct gate_finding *f = &src->v[i];
		if (gate_add(dst, f->rule, f->severity, f->file, f->line, "%s", f->message))
			return -1;
	}
	gate_findings_release(src);
	return 0;
}

struct report_out {
	enum report_format fmt;
	char *path;
};

/* The configuration for one directory, loaded only when it differs from
 * the one already in cfg (*loaded names it). */
struct cfg_state {
	const char *explicit_path;  /* --config */
	const char *rev;            /* pull-request mode: the base revision */
	int strict;
	struct gatecheck_config cfg;
	char *loaded;               /* name of what cfg holds, NULL: defaults */
	int have_explicit;
	char **reported;            /* working-tree configs already compared with base */
	size_t nreported;
};

static int cfg_switch(struct cfg_state *cs, const char *name)
{
	if ((!name && !cs->loaded) || (name && cs->loaded && strcmp(name, cs->loaded) == 0))
		return 0; /* same as before */
	gatecheck_config_release(&cs->cfg);
	cs->cfg.strict = cs->strict;
	free(cs->loaded);
	cs->loaded = NULL;
	return 1;
}

/* In pull-request mode: the working tree's configuration of d, compared
 * with the base revision's (base, base_name): TLGATE-CONFIG errors into
 * out, once per file. */
static int check_weakening(struct gate_set *set, const struct gate_dir *d, struct cfg_state *cs,
			   const struct gatecheck_config *base, const char *base_name,
			   struct gate_findings *out)
{
	struct gatecheck_config pr;
	char err[512], *name = NULL;
	gatecheck_config_init(&pr);
	int rc = gate_config_in_tree(set, d, &pr, &name, err, sizeof(err));
	if (rc != 0) {
		/* an unreadable or invalid PR configuration cannot apply anyway */
		rc = gate_add(out, "TLGATE-CONFIG", GATE_ERROR, name ? name : d->shown, 0,
			      "%s (the base revision's configuration is applied)", err);
	} else if (name) {
		int seen = 0;
		for (size_t i = 0; i < cs->nreported && !seen; i++)
			seen = strcmp(cs->reported[i], name) == 0;
		if (!seen) {
			char **v = realloc(cs->reported, (cs->nreported + 1) * sizeof(*v));
			if (!v) {
				rc = -1;
			} else {
				cs->reported = v;
				cs->reported[cs->nreported++] = name;
				name = NULL;
				rc = gate_config_weakened(base, base_name, &pr, cs->reported[cs->nreported - 1], out);
			}
		}
	}
	free(name);
	gatecheck_config_release(&pr);
	return rc;
}

/* Loads the configuration of d into cs->cfg. Returns 0, -1 after a
 * message (exit 2), -2 when out of memory. */
static int config_for(struct gate_set *set, const struct gate_dir *d, struct cfg_state *cs,
		      struct gate_findings *out)
{
	char err[512], *path = NULL, *name = NULL;
	if (cs->explicit_path) {
		if (!cs->have_explicit) {
			cfg_switch(cs, cs->explicit_path);
			if (gatecheck_config_load(cs->explicit_path, &cs->cfg, err, sizeof(err)) != 0) {
				cli_error("%s", err);
				return -1;
			}
			cs->have_explicit = 1;
			if (!(cs->loaded = strdup(cs->explicit_path)))
				return -2;
		}
		if (!cs->rev)
			return 0;
	}
	if (cs->rev) {
		/* the base revision's: the pull request's own never applies */
		struct gatecheck_config base;
		gatecheck_config_init(&base);
		if (gate_config_find_at_rev(set, d, cs->rev, &path, err, sizeof(err)) != 0) {
			cli_error("%s", err);
			return -1;
		}
		if (path && gate_config_load_at_rev(set, d, cs->rev, path, &base, &name, err, sizeof(err)) != 0) {
			cli_error("%s", err);
			free(path);
			free(name);
			gatecheck_config_release(&base);
			return -1;
		}
		int rc = check_weakening(set, d, cs, &base, name, out);
		if (rc == 0 && !cs->explicit_path && cfg_switch(cs, name)) {
			/* take base over */
			gatecheck_config_release(&cs->cfg);
			cs->cfg = base;
			cs->cfg.strict = cs->strict;
			gatecheck_config_init(&base);
			cs->loaded = name;
			name = NULL;
		}
		gatecheck_config_release(&base);
		free(path);
		free(name);
		return rc ? -2 : 0;
	}
	struct gatecheck_config tmp;
	gatecheck_config_init(&tmp);
	if (gate_config_in_tree(set, d, &tmp, &name, err, sizeof(err)) != 0) {
		cli_error("%s", err);
		free(name);
		gatecheck_config_release(&tmp);
		return -1;
	}
	if (cfg_switch(cs, name)) {
		cs->cfg = tmp;
		cs->cfg.strict = cs->strict;
		cs->loaded = name;
	} else {
		gatecheck_config_release(&tmp);
		free(name);
	}
	return 0;
}

/* Checks one directory into one (findings with their default severities,
 * suppressions applied). Returns 0, -1 after a message, -2 out of memory. */
static int check_one(struct gate_set *set, const struct gate_dir *d, const char *base,
		     struct gate_findings *one)
{
	const struct gate_root *r = &set->roots[d->root];
	struct gatecheck_result res;
	gatecheck_result_init(&res);
	int sr;
	errno = 0;
	if (d->ptune) {
		if (ptune_check_dir_in(&r->tree, d->rel, d->shown, one) != 0) {
			cli_error("cannot read '%s': %s", d->shown, strerror(errno));
			return -1;
		}
		sr = ptune_suppressions_in(&r->tree, d->rel, d->shown, &res);
	} else {
		struct gatecheck_opts gopts = { base, NULL, &r->tree, d->rel, r->top };
		if (gatecheck_dir(d->shown, d->shown, &gopts, one, &res) != 0) {
			int e = errno;
			gatecheck_result_release(&res);
			if (e == ENOMEM)
				return -2;
			cli_error("cannot read '%s': %s", d->shown, strerror(e));
			return -1;
		}
		sr = 0;
	}
	if (sr == 0)
		sr = gatecheck_apply_suppressions(one, &res);
	gatecheck_result_release(&res);
	return sr ? -2 : 0;
}

int cmd_gate(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "changed-since", required_argument, NULL, 'c' },
		{ "base", required_argument, NULL, 'b' },
		{ "config", required_argument, NULL, 'C' },
		{ "strict", no_argument, NULL, 's' },
		{ "warnings-as-errors", no_argument, NULL, 'w' },
		{ "format", required_argument, NULL, 'f' },
		{ "report", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *changed = NULL, *base = NULL, *config = NULL;
	int strict = 0, wae = 0, opt, rc = CLI_USAGE;
	enum report_format fmt = REPORT_TEXT;
	struct report_out *reports = NULL;
	size_t nreports = 0;
	struct gate_set set;
	struct gate_findings all;
	struct cfg_state cs;
	char err[512];
	char *changed_list = NULL;
	size_t changed_len = 0;
	gate_findings_init(&all);
	gate_set_init(&set);
	memset(&cs, 0, sizeof(cs));
	gatecheck_config_init(&cs.cfg);

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'c': changed = optarg; break;
		case 'b': base = optarg; break;
		case 'C': config = optarg; break;
		case 's': strict = 1; break;
		case 'w': wae = 1; break;
		case 'f':
			if (report_format_parse(optarg, &fmt) != 0) {
				rc = cli_usage_error("gate", "unknown format '%s'", optarg);
				goto out;
			}
			break;
		case 'r': {
			const char *colon = strchr(optarg, ':');
			enum report_format rf;
			char name[32];
			size_t n = colon ? (size_t)(colon - optarg) : 0;
			if (!colon || n == 0 || n >= sizeof(name) || !colon[1]) {
				rc = cli_usage_error("gate", "--report wants FORMAT:PATH, got '%s'", optarg);
				goto out;
			}
			memcpy(name, optarg, n);
			name[n] = '\0';
			if (report_format_parse(name, &rf) != 0) {
				rc = cli_usage_error("gate", "unknown format '%s' in --report", name);
				goto out;
			}
			struct report_out *v = realloc(reports, (nreports + 1) * sizeof(*v));
			if (!v)
				goto oom;
			reports = v;
			reports[nreports].fmt = rf;
			if (!(reports[nreports].path = strdup(colon + 1)))
				goto oom;
			nreports++;
			break;
		}
		case 'h':
			fputs(cmd_gate_usage, stdout);
			rc = cli_finish_stdout(CLI_OK);
			goto out;
		default:
			rc = cli_usage_error("gate", "unknown or incomplete option '%s'", argv[optind - 1]);
			goto out;
		}
	}
	if (config && access(config, R_OK) != 0) {
		cli_error("cannot read config '%s': %s", config, strerror(errno));
		goto out;
	}
	/* git only when asked for, and never one found through a relative
	 * PATH entry (it could be the checked tree's own) */
	if ((changed || base) && git_locate(getenv("PATH"), err, sizeof(err)) != 0) {
		cli_error("--%s needs git: %s", changed ? "changed-since" : "base", err);
		goto out;
	}
	const char *const dot[] = { ".", NULL };
	const char *const *paths = optind < argc ? (const char *const *)argv + optind : dot;
	for (size_t i = 0; paths[i]; i++)
		if (gate_set_add_root(&set, paths[i], err, sizeof(err)) != 0) {
			cli_error("%s", err);
			goto out;
		}
	const char *top = set.roots[0].top;
	if ((changed || base) && !top) {
		cli_error("--%s: '%s' is not in a git repository", changed ? "changed-since" : "base", paths[0]);
		goto out;
	}
	if (base) {
		size_t sl = strlen(base) + 10;
		char *spec = malloc(sl), *o = NULL;
		size_t ol;
		if (!spec)
			goto oom;
		snprintf(spec, sl, "%s^{commit}", base);
		char *argv2[] = { "git", "-C", (char *)top, "rev-parse", "--verify", "--quiet", spec, NULL };
		int g = git_capture(argv2, 4096, &o, &ol);
		free(spec);
		free(o);
		if (g != 0) {
			cli_error("--base '%s' is not a revision git knows", base);
			goto out;
		}
	}
	if (changed) {
		int c = gate_changed_files(top, changed, &changed_list, &changed_len);
		if (c < 0)
			goto oom;
		if (c > 0) {
			cli_error("--changed-since '%s': git cannot list the changes (not a repository, or an unknown revision)", changed);
			goto out;
		}
	}
	if (gate_set_discover(&set, changed ? changed_list : NULL, changed_len) != 0)
		goto oom;

	cs.explicit_path = config;
	cs.rev = base ? base : changed;
	cs.strict = strict;
	cs.cfg.strict = strict;
	for (size_t i = 0; i < set.ndirs; i++) {
		const struct gate_dir *d = &set.dirs[i];
		struct gate_findings one;
		gate_findings_init(&one);
		int c = config_for(&set, d, &cs, &all);
		if (c == 0)
			c = check_one(&set, d, base, &one);
		if (c == 0) {
			gatecheck_config_apply(&cs.cfg, &one);
			c = move_findings(&all, &one) ? -2 : 0;
		}
		gate_findings_release(&one);
		if (c == -2)
			goto oom;
		if (c)
			goto out;
	}
	/* what discovery could not check: never configurable away */
	if (move_findings(&all, &set.tree_findings))
		goto oom;
	if (set.ndirs == 0)
		cli_note("no perf_opt/ or perf_tuning/ directory to check%s", changed ? " (none changed)" : "");

	struct report_ctx ctx = { "tlgate", TLPERF_VERSION, top, set.ndirs, wae };
	if (report_write(stdout, fmt, &all, &ctx) != 0) {
		cli_error("cannot write the report: %s", strerror(errno));
		goto out;
	}
	for (size_t i = 0; i < nreports; i++) {
		FILE *f = fopen(reports[i].path, "w");
		int bad = !f || report_write(f, reports[i].fmt, &all, &ctx) != 0;
		if (f && fclose(f) != 0)
			bad = 1;
		if (bad) {
			cli_error("cannot write report '%s': %s", reports[i].path, strerror(errno));
			goto out;
		}
	}
	size_t errors = gate_count(&all, GATE_ERROR);
	size_t warnings = gate_count(&all, GATE_WARNING);
	rc = (errors > 0 || (wae && warnings > 0)) ? CLI_FAIL : CLI_OK;
	rc = cli_finish_stdout(rc);
	goto out;
oom:
	cli_error("out of memory");
	rc = CLI_USAGE;
out:
	for (size_t i = 0; i < nreports; i++)
		free(reports[i].path);
	free(reports);
	gate_set_release(&set);
	gate_findings_release(&all);
	gatecheck_config_release(&cs.cfg);
	free(cs.loaded);
	for (size_t i = 0; i < cs.nreported; i++)
		free(cs.reported[i]);
	free(cs.reported);
	free(changed_list);
	return rc;
}
