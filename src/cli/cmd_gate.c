/* cmd_gate.c: `tlperf gate` / `tlgate`, gate 4 over perf_opt/ (and
 * perf_tuning/) directories for CI. */
#include "cli/cli.h"
#include "cli/options.h"
#include "run/gate_perf_opt.h"
#include "run/gate_stage_result.h"
#include "io/stage_result.h"
#include "run/gate_perf_tuning.h"
#include "report/report.h"
#include "util/path.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static const struct cli_option gate_options[] = {
	{ 'c', 0, "changed-since", "REF", "only directories holding a file changed in REF...HEAD\n"
					  "(REF..HEAD when there is no merge base; deletions ignored)" },
	{ 'b', 0, "base", "REF", "perf_records.jsonl must only have grown since REF" },
	{ 'C', 0, "config", "FILE", "rule severities (default: nearest .tlgate.json upwards)" },
	{ 's', 0, "strict", NULL, "S4-STOP-REASON and S4-LAYOUT findings become errors" },
	{ 'w', 0, "warnings-as-errors", NULL, "any warning fails the gate" },
	{ 'f', 0, "format", "FMT", "text (default), json, sarif, github, junit, markdown, gitlab" },
	{ 'r', 0, "report", "FMT:PATH", "also write FMT to PATH (repeatable)" },
	{ 'S', 0, "stage-result", "FILE", "check the Stage Result block in FILE ('-': stdin)\n"
					  "against the one operator directory PATH" },
	{ 'T', 0, "statistics", NULL, "text: counts per rule instead of one line per finding" },
	CLI_OPT_END
};

const struct cli_spec cmd_gate_spec = {
	"gate",
	"tlgate [options] [PATH...]\n"
	"tlperf gate [options] [PATH...]",
	"Checks every perf_opt/ directory (gate 4) and perf_tuning/ directory found\n"
	"under each PATH (a perf_opt/ directory, an operator directory, or any tree;\n"
	".git and node_modules are skipped). No PATH means the current directory.\n",
	gate_options,
	"--stage-result FILE DIR reads the '## Stage Result' block a tuning agent returns\n"
	"(FILE, or standard input for '-') and reconciles it with the records of the one\n"
	"operator directory DIR (or its perf_opt/): S4-STAGE-RESULT-* findings only, in\n"
	"any --format (docs/tlgate.md).\n"
	"\n"
	"The text format ends with one line: directories checked, errors, warnings\n"
	"and the time taken. `tlperf explain RULE` says what a rule checks.\n"
	"Exit: 0 no errors, 1 errors found, 2 usage error or unreadable PATH.\n",
	0, NULL,
};

struct dirlist {
	char **path;   /* as found (joined from the PATH given) */
	int *ptune;    /* 1 for perf_tuning/ */
	size_t n, cap;
};

static int dl_add(struct dirlist *dl, const char *p, int ptune)
{
	if (dl->n == dl->cap) {
		size_t c = dl->cap ? dl->cap * 2 : 16;
		char **v = realloc(dl->path, c * sizeof(*v));
		if (!v)
			return -1;
		dl->path = v;
		int *t = realloc(dl->ptune, c * sizeof(*t));
		if (!t)
			return -1;
		dl->ptune = t;
		dl->cap = c;
	}
	if (!(dl->path[dl->n] = strdup(p)))
		return -1;
	dl->ptune[dl->n++] = ptune;
	return 0;
}

static void dl_release(struct dirlist *dl)
{
	for (size_t i = 0; i < dl->n; i++)
		free(dl->path[i]);
	free(dl->path);
	free(dl->ptune);
	memset(dl, 0, sizeof(*dl));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Recursive search below dir (not following symlinks). */
static int discover(const char *dir, struct dirlist *dl, int depth)
{
	if (depth > 64)
		return 0;
	DIR *d = opendir(dir);
	if (!d)
		return 0; /* unreadable subdirectories are skipped */
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	int rc = 0;
	while ((de = readdir(d)) != NULL) {
		const char *nm = de->d_name;
		if (!strcmp(nm, ".") || !strcmp(nm, "..") || !strcmp(nm, ".git") || !strcmp(nm, "node_modules"))
			continue;
		if (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			char **v = realloc(names, cap * sizeof(*v));
			if (!v) {
				rc = -1;
				break;
			}
			names = v;
		}
		if (!(names[n] = strdup(nm))) {
			rc = -1;
			break;
		}
		n++;
	}
	closedir(d);
	if (rc == 0 && n > 0) /* qsort(NULL, 0) is undefined */
		qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; i < n && rc == 0; i++) {
		char *p = path_join(dir, names[i]);
		struct stat st;
		if (!p) {
			rc = -1;
			break;
		}
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
			if (strcmp(names[i], "perf_opt") == 0)
				rc = dl_add(dl, p, 0);
			else if (strcmp(names[i], "perf_tuning") == 0)
				rc = dl_add(dl, p, 1);
			else
				rc = discover(p, dl, depth + 1);
		}
		free(p);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

/* ---- git for --changed-since ---- */

static int run_git(char *const argv[], char **out, size_t *outlen)
{
	int fds[2];
	pid_t pid;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	*out = NULL;
	*outlen = 0;
	if (pipe(fds) != 0)
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&at);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	posix_spawn_file_actions_addclose(&fa, fds[1]);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
	posix_spawnattr_setpgroup(&at, 0);
	int rc = posix_spawnp(&pid, "git", &fa, &at, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	close(fds[1]);
	if (rc != 0) {
		close(fds[0]);
		errno = rc;
		return -1;
	}
	size_t cap = 0;
	char buf[65536];
	ssize_t r;
	int oom = 0;
	while ((r = read(fds[0], buf, sizeof(buf))) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (oom)
			continue;
		if (*outlen + (size_t)r + 1 > cap) {
			size_t c = cap ? cap * 2 : 65536;
			while (c < *outlen + (size_t)r + 1)
				c *= 2;
			char *n = realloc(*out, c);
			if (!n) {
				oom = 1;
				continue;
			}
			*out = n;
			cap = c;
		}
		memcpy(*out + *outlen, buf, (size_t)r);
		*outlen += (size_t)r;
	}
	close(fds[0]);
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (oom) {
		errno = ENOMEM;
		return -1;
	}
	if (*out)
		(*out)[*outlen] = '\0';
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static char *git_toplevel(void)
{
	char *argv[] = { "git", "rev-parse", "--show-toplevel", NULL };
	char *out;
	size_t n;
	if (run_git(argv, &out, &n) != 0) {
		free(out);
		return NULL;
	}
	while (n > 0 && (out[n - 1] == '\n' || out[n - 1] == '\r'))
		out[--n] = '\0';
	return out;
}

/* Real paths of the perf_opt/ and perf_tuning/ directories holding a file
 * changed in REF...HEAD (REF..HEAD without a merge base). Returns 0, 1
 * when git could not answer (bad REF), -1 on failure. */
static int changed_dirs(const char *ref, struct dirlist *out)
{
	char *top = git_toplevel();
	if (!top)
		return 1;
	size_t rl = strlen(ref);
	char *range = malloc(rl + 8);
	char *out_text = NULL;
	size_t len;
	int rc = 1;
	if (!range)
		goto done;
	snprintf(range, rl + 8, "%s...HEAD", ref);
	char *argv[] = { "git", "-C", top, "diff", "--name-only", "-z", "--diff-filter=d", range, "--", NULL };
	if (run_git(argv, &out_text, &len) != 0) {
		free(out_text);
		out_text = NULL;
		snprintf(range, rl + 8, "%s..HEAD", ref);
		if (run_git(argv, &out_text, &len) != 0)
			goto done;
	}
	rc = 0;
	for (size_t i = 0; i < len && rc == 0;) {
		const char *name = out_text + i;
		size_t n = strlen(name);
		i += n + 1;
		static const char *const kinds[] = { "perf_opt", "perf_tuning" };
		for (int k = 0; k < 2; k++) {
			const char *p = name;
			const char *hit = NULL;
			size_t kl = strlen(kinds[k]);
			while ((p = strstr(p, kinds[k])) != NULL) {
				if ((p == name || p[-1] == '/') && p[kl] == '/') {
					hit = p;
					break;
				}
				p += kl;
			}
			if (!hit)
				continue;
			size_t dl = (size_t)(hit - name) + kl;
			char *rel = strndup(name, dl);
			char *abs = rel ? path_join(top, rel) : NULL;
			char real[PATH_MAX];
			if (!abs)
				rc = -1;
			else if (realpath(abs, real) && dl_add(out, real, k))
				rc = -1;
			free(rel);
			free(abs);
		}
	}
done:
	free(top);
	free(range);
	free(out_text);
	return rc;
}

static int in_changed(const struct dirlist *ch, const char *p)
{
	char real[PATH_MAX];
	if (!realpath(p, real))
		return 0;
	for (size_t i = 0; i < ch->n; i++)
		if (strcmp(ch->path[i], real) == 0)
			return 1;
	return 0;
}

/* ---- configuration per directory ---- */

static int config_for(const char *explicit_cfg, const char *dir, int strict,
		      struct gatecheck_config *cfg, char **loaded)
{
	char err[512];
	char *path = explicit_cfg ? strdup(explicit_cfg) : gatecheck_config_find(dir);
	if (!path) {
		if (*loaded) {
			gatecheck_config_release(cfg);
			free(*loaded);
			*loaded = NULL;
		}
		cfg->strict = strict;
		return 0;
	}
	if (*loaded && strcmp(*loaded, path) == 0) {
		free(path);
		return 0;
	}
	gatecheck_config_release(cfg);
	cfg->strict = strict;
	free(*loaded);
	*loaded = path;
	if (gatecheck_config_load(path, cfg, err, sizeof(err)) != 0) {
		cli_error("%s", err);
		return -1;
	}
	return 0;
}

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

/* --stage-result FILE DIR: one block against one directory. */
static int stage_result_gate(const char *file, const char *dir, int ndirs, const char *config,
			     int strict, int wae, enum report_format fmt,
			     const struct report_out *reports, size_t nreports)
{
	struct stage_result sr;
	struct gate_findings fs;
	struct gatecheck_config cfg;
	struct gatecheck_result res;
	char err[1024], *perf_opt = NULL, *cfg_loaded = NULL, *top = NULL;
	int rc = CLI_USAGE;
	struct stat st;
	stage_result_init(&sr);
	gate_findings_init(&fs);
	gatecheck_config_init(&cfg);
	gatecheck_result_init(&res);
	if (ndirs > 1) {
		rc = cli_usage_error("gate", "--stage-result checks one directory, got %d", ndirs);
		goto out;
	}
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		cli_error("'%s' is not a directory", dir);
		goto out;
	}
	if (path_base_is(dir, "perf_opt")) {
		perf_opt = strdup(dir);
	} else {
		perf_opt = path_join(dir, "perf_opt");
		if (perf_opt && (stat(perf_opt, &st) != 0 || !S_ISDIR(st.st_mode))) {
			cli_error("'%s' holds no perf_opt/ directory: give the operator directory of the Stage Result",
				  dir);
			goto out;
		}
	}
	if (!perf_opt)
		goto oom;
	if (stage_result_load(file, &sr, err, sizeof(err)) != 0) {
		cli_error("%s", err);
		goto out;
	}
	if (config_for(config, perf_opt, strict, &cfg, &cfg_loaded) != 0)
		goto out;
	const char *shown = strcmp(file, "-") == 0 ? "<stdin>" : file;
	errno = 0;
	if (gate_stage_result_check(perf_opt, perf_opt, &sr, shown, &fs, &res, NULL) != 0) {
		if (errno == ENOMEM)
			goto oom;
		cli_error("cannot read '%s': %s", perf_opt, strerror(errno));
		goto out;
	}
	gatecheck_config_apply(&cfg, &fs);
	top = git_toplevel();
	struct report_ctx ctx = { "tlgate", TLPERF_VERSION, top, 1, wae, -1, 0, 0 };
	if (report_write(stdout, fmt, &fs, &ctx) != 0) {
		cli_error("cannot write the report: %s", strerror(errno));
		goto out;
	}
	for (size_t i = 0; i < nreports; i++) {
		FILE *f = fopen(reports[i].path, "w");
		int bad = !f || report_write(f, reports[i].fmt, &fs, &ctx) != 0;
		if (f && fclose(f) != 0)
			bad = 1;
		if (bad) {
			cli_error("cannot write report '%s': %s", reports[i].path, strerror(errno));
			goto out;
		}
	}
	rc = (gate_count(&fs, GATE_ERROR) > 0 || (wae && gate_count(&fs, GATE_WARNING) > 0))
		     ? CLI_FAIL : CLI_OK;
	rc = cli_finish_stdout(rc);
	goto out;
oom:
	cli_error("out of memory");
	rc = CLI_USAGE;
out:
	stage_result_release(&sr);
	gate_findings_release(&fs);
	gatecheck_config_release(&cfg);
	gatecheck_result_release(&res);
	free(perf_opt);
	free(cfg_loaded);
	free(top);
	return rc;
}

int cmd_gate(int argc, char **argv)
{
	const char *changed = NULL, *base = NULL, *config = NULL, *stage = NULL;
	int strict = 0, wae = 0, statistics = 0, opt, rc = CLI_USAGE;
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	enum report_format fmt = REPORT_TEXT;
	struct report_out *reports = NULL;
	size_t nreports = 0;
	struct dirlist dirs = { 0 }, ch = { 0 };
	struct gate_findings all;
	struct gatecheck_config cfg;
	char *cfg_loaded = NULL, *top = NULL;
	gate_findings_init(&all);
	gatecheck_config_init(&cfg);

	struct cli_parser cp;
	cli_parser_init(&cp, &cmd_gate_spec, argc, argv);
	while ((opt = cli_parser_next(&cp)) > 0) {
		switch (opt) {
		case 'c': changed = optarg; break;
		case 'b': base = optarg; break;
		case 'C': config = optarg; break;
		case 's': strict = 1; break;
		case 'T': statistics = 1; break;
		case 'w': wae = 1; break;
		case 'S': stage = optarg; break;
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
		}
	}
	if (opt == CLI_PARSE_STOP) {
		rc = cp.rc;
		goto out;
	}
	if (config && access(config, R_OK) != 0) {
		cli_error("cannot read config '%s': %s", config, strerror(errno));
		goto out;
	}
	if (stage) {
		rc = stage_result_gate(stage, cp.next < argc ? argv[cp.next] : ".", argc - cp.next, config,
				       strict, wae, fmt, reports, nreports);
		goto out;
	}
	const char *const dot[] = { ".", NULL };
	const char *const *paths = cp.next < argc ? (const char *const *)argv + cp.next : dot;
	for (size_t i = 0; paths[i]; i++) {
		struct stat st;
		if (stat(paths[i], &st) != 0) {
			cli_error("cannot read '%s': %s", paths[i], strerror(errno));
			goto out;
		}
		if (!S_ISDIR(st.st_mode)) {
			cli_error("'%s' is not a directory", paths[i]);
			goto out;
		}
		if (access(paths[i], R_OK | X_OK) != 0) {
			cli_error("cannot read '%s': %s", paths[i], strerror(errno));
			goto out;
		}
		if (path_base_is(paths[i], "perf_opt")) {
			if (dl_add(&dirs, paths[i], 0))
				goto oom;
		} else if (path_base_is(paths[i], "perf_tuning")) {
			if (dl_add(&dirs, paths[i], 1))
				goto oom;
		} else if (discover(paths[i], &dirs, 0)) {
			goto oom;
		}
	}
	if (changed) {
		int c = changed_dirs(changed, &ch);
		if (c < 0)
			goto oom;
		if (c > 0) {
			cli_error("--changed-since '%s': git cannot list the changes (not a repository, or an unknown revision)", changed);
			goto out;
		}
	}
	/* --base REV names a revision of the repository holding each checked
	 * directory (not of the current directory) */
	for (size_t i = 0; base && i < dirs.n; i++) {
		if (dirs.ptune[i] || (changed && !in_changed(&ch, dirs.path[i])))
			continue;
		char *argv2[] = { "git", "-C", dirs.path[i], "rev-parse", "--verify", "--quiet", NULL, NULL };
		char *spec = malloc(strlen(base) + 10);
		char *o = NULL;
		size_t ol;
		if (!spec)
			goto oom;
		snprintf(spec, strlen(base) + 10, "%s^{commit}", base);
		argv2[6] = spec;
		int g = run_git(argv2, &o, &ol);
		free(spec);
		free(o);
		if (g != 0) {
			cli_error("--base '%s' is not a revision of the git repository holding '%s' (or '%s' is in none)",
				  base, dirs.path[i], dirs.path[i]);
			goto out;
		}
	}

	struct gatecheck_opts gopts = { .base_ref = base };
	size_t checked = 0;
	for (size_t i = 0; i < dirs.n; i++) {
		if (changed && !in_changed(&ch, dirs.path[i]))
			continue;
		struct gate_findings one;
		gate_findings_init(&one);
		checked++;
		if (config_for(config, dirs.path[i], strict, &cfg, &cfg_loaded) != 0) {
			gate_findings_release(&one);
			goto out;
		}
		if (dirs.ptune[i]) {
			if (ptune_check_dir(dirs.path[i], dirs.path[i], &one) != 0) {
				cli_error("cannot read '%s': %s", dirs.path[i], strerror(errno));
				gate_findings_release(&one);
				goto out;
			}
			/* inline suppressions of the folder's Markdown files */
			struct gatecheck_result pres;
			gatecheck_result_init(&pres);
			int sr = ptune_suppressions(dirs.path[i], dirs.path[i], &pres);
			if (sr == 0)
				sr = gatecheck_apply_suppressions(&one, &pres);
			gatecheck_result_release(&pres);
			if (sr) {
				gate_findings_release(&one);
				goto oom;
			}
		} else {
			struct gatecheck_result res;
			gatecheck_result_init(&res);
			errno = 0;
			if (gatecheck_dir(dirs.path[i], dirs.path[i], &gopts, &one, &res) != 0) {
				int e = errno;
				gatecheck_result_release(&res);
				gate_findings_release(&one);
				if (e == ENOMEM)
					goto oom;
				cli_error("cannot read '%s': %s", dirs.path[i], strerror(e));
				goto out;
			}
			int sr = gatecheck_apply_suppressions(&one, &res);
			gatecheck_result_release(&res);
			if (sr) {
				gate_findings_release(&one);
				goto oom;
			}
		}
		gatecheck_config_apply(&cfg, &one);
		if (move_findings(&all, &one)) {
			gate_findings_release(&one);
			goto oom;
		}
	}
	if (checked == 0)
		cli_note("no perf_opt/ or perf_tuning/ directory to check%s", changed ? " (none changed)" : "");

	top = git_toplevel();
	struct timespec t1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	struct report_ctx ctx = { "tlgate", TLPERF_VERSION, top, checked, wae,
				  (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec),
				  statistics, 1 };
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
	dl_release(&dirs);
	dl_release(&ch);
	gate_findings_release(&all);
	gatecheck_config_release(&cfg);
	free(cfg_loaded);
	free(top);
	return rc;
}
