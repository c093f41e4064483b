/* cmd_audit.c: `tlperf audit [ROOT...]`, the reconciliation report for
 * auditors: every claimed final latency in every perf_opt/ directory under
 * the roots, next to the records that should back it, and every
 * first-generation perf_tuning/ folder with its gate verdict.
 *
 * The options and the output file; the checking is run/audit_check.c
 * (each directory through the gate, as tlgate sees it), the model and its
 * reconciliation gates/audit.c, the formats report/audit*.c. Exit 1 when
 * any claim does not reconcile (or a perf_tuning/ folder has gate
 * errors), whatever the other gate rules say (their verdict is a column).
 */
#include "cli/cli.h"
#include "cli/options.h"
#include "report/audit.h"
#include "run/audit_check.h"

#include <errno.h>
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

/* What the command line asks for. */
struct audit_args {
	const struct report_audit_format *fmt;
	const char *output;  /* -o F, NULL for stdout */
	int strict;
	int allow_empty;
	int nroots;
	int explicit_roots;  /* ROOT operands given (not the default ".") */
	char **roots;
};

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
			if (!(x->fmt = report_audit_format_named(optarg))) {
				*rc = cli_usage_error("audit",
						      "unknown format '%s' (markdown, csv, json, html)",
						      optarg);
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

/* Writes the report to OUTPUT through a temporary file beside it, renamed
 * over it only when complete. 0, -1 (reported) on error. */
static int write_output(const char *output, const struct report_audit_format *fmt,
			const struct audit *a)
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
	if (fmt->render(f, a, TLPERF_VERSION) != 0) {
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
	struct audit_args x = { report_audit_formats, NULL, 0, 0, 0, 0, NULL };
	int rc = CLI_USAGE;
	struct audit a;
	struct gate_set set;
	if (parse_audit_args(argc, argv, &x, &rc) != 0)
		return rc;
	memset(&a, 0, sizeof(a));
	gate_set_init(&set);
	if (audit_check_discover(&set, x.roots, x.nroots, x.explicit_roots && !x.allow_empty, &a) != 0 ||
	    audit_check_all(&set, &a, x.strict) != 0)
		goto out;
	if (x.output ? write_output(x.output, x.fmt, &a) != 0 : x.fmt->render(stdout, &a, TLPERF_VERSION) != 0) {
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
