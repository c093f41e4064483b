/* render_junit.c: findings as JUnit XML: one test case per rule and path, failures for failing findings. */
#include "report/render_common.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gates/rules.h"

/* One testcase per (rule, file) pair with findings, in order of first
 * appearance, plus one passing testcase per registry rule that reported
 * nothing, so the suite lists every check that ran. A testcase fails when
 * one of its findings fails the run (errors, or warnings under
 * --warnings-as-errors); the first such finding is the failure message,
 * all of its findings are listed in the body. */
struct junit_group {
	size_t start, len;   /* slice of the sorted index array */
	size_t first_fail;   /* finding index, (size_t)-1 when none fails */
};

static const size_t *group_ix; /* for cmp_group: the sorted indices */

static int cmp_group(const void *x, const void *y)
{
	size_t a = group_ix[((const struct junit_group *)x)->start];
	size_t b = group_ix[((const struct junit_group *)y)->start];
	return (a > b) - (a < b);
}

/* Groups the sorted findings IX [0, m) into GR by (rule, path) and sorts
 * the groups by first appearance; returns the group count. */
static size_t junit_groups(const struct gate_findings *fs, char **rel, size_t *ix, size_t m,
			   const struct report_ctx *ctx, struct junit_group *gr)
{
	size_t ng = 0;
	for (size_t j = 0; j < m; j++) {
		size_t i = ix[j];
		if (ng == 0 || strcmp(fs->v[ix[j - 1]].rule, fs->v[i].rule) != 0 ||
		    strcmp(rel[ix[j - 1]], rel[i]) != 0) {
			gr[ng].start = j;
			gr[ng].len = 0;
			gr[ng].first_fail = (size_t)-1;
			ng++;
		}
		struct junit_group *g = &gr[ng - 1];
		g->len++;
		if (g->first_fail == (size_t)-1 && report_failing(&fs->v[i], ctx))
			g->first_fail = i;
	}
	group_ix = ix;
	if (ng > 1)
		qsort(gr, ng, sizeof(*gr), cmp_group);
	return ng;
}

/* Sets SILENT[r] for each registry rule no group reports; returns how many. */
static size_t junit_silent(const struct gate_findings *fs, const size_t *ix,
			   const struct junit_group *gr, size_t ng, char *silent)
{
	size_t nsilent = 0;
	for (size_t r = 0; r < gate_nrules; r++) {
		int seen = 0;
		for (size_t g = 0; g < ng && !seen; g++)
			seen = strcmp(fs->v[ix[gr[g].start]].rule, gate_rules[r].id) == 0;
		silent[r] = !seen;
		nsilent += !seen;
	}
	return nsilent;
}

/* Writes the testcase of group G: a failure or system-out listing all of
 * its findings. */
static int junit_case(FILE *f, const struct gate_findings *fs, char **rel, const size_t *ix,
		      const struct junit_group *g, const struct report_ctx *ctx)
{
	size_t i0 = ix[g->start], ff = g->first_fail;
	const struct gate_finding *g0 = &fs->v[i0];
	fputs("    <testcase classname=\"", f);
	report_xml_escape(f, g0->rule, 1);
	fputs("\" name=\"", f);
	report_xml_escape(f, g0->rule, 1);
	fputc(' ', f);
	report_xml_escape(f, rel[i0], 1);
	fputs("\" file=\"", f);
	report_xml_escape(f, rel[i0], 1);
	fputs("\">\n", f);
	if (ff != (size_t)-1) {
		fputs("      <failure type=\"", f);
		report_xml_escape(f, g0->rule, 1);
		fputs("\" message=\"", f);
		report_xml_escape(f, fs->v[ff].message, 1);
		fputs("\">", f);
	} else {
		fputs("      <system-out>", f);
	}
	for (size_t j = g->start; j < g->start + g->len; j++) {
		const struct gate_finding *h = &fs->v[ix[j]];
		report_xml_escape(f, rel[ix[j]], 0);
		if (h->line > 0)
			fprintf(f, ":%ld", h->line);
		fprintf(f, ": %s%s: ", h->sup_file ? "suppressed " : "", gate_severity_name(h->severity));
		report_xml_escape(f, h->message, 0);
		if (h->sup_file) {
			char *by = report_suppressed_by(h, ctx);
			if (!by) {
				errno = ENOMEM;
				return -1;
			}
			fputs(" -- ", f);
			report_xml_escape(f, by, 0);
			free(by);
		}
		fputc('\n', f);
	}
	fputs(ff != (size_t)-1 ? "</failure>\n" : "</system-out>\n", f);
	fputs("    </testcase>\n", f);
	return 0;
}

/* Writes the XML declaration and the opening testsuites and testsuite. */
static void junit_open(FILE *f, const char *tool, size_t ncases, size_t nfail)
{
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"", f);
	report_xml_escape(f, tool, 1);
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\">\n", ncases, nfail);
	fputs("  <testsuite name=\"", f);
	report_xml_escape(f, tool, 1);
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\">\n", ncases,
		nfail);
}

int report_render_junit(FILE *f, const struct gate_findings *fs, const struct report_ctx *ctx)
{
	char **rel = report_rel_paths(fs, ctx);
	const char *tool = ctx->tool_name ? ctx->tool_name : "tlgate";
	size_t m = 0, ng = 0, nfail = 0, nsilent = 0, *ix = NULL;
	struct junit_group *gr = NULL;
	char *silent = NULL; /* registry rules without findings */
	int rc = -1;
	if (rel)
		ix = report_sorted_findings(fs, rel, 0, &m);
	if (ix)
		gr = malloc((m ? m : 1) * sizeof(*gr));
	if (!gr) {
		errno = ENOMEM;
		goto out;
	}
	ng = junit_groups(fs, rel, ix, m, ctx, gr);
	silent = calloc(gate_nrules ? gate_nrules : 1, sizeof(*silent));
	if (!silent) {
		errno = ENOMEM;
		goto out;
	}
	nsilent = junit_silent(fs, ix, gr, ng, silent);
	for (size_t g = 0; g < ng; g++)
		nfail += gr[g].first_fail != (size_t)-1;
	junit_open(f, tool, ng + nsilent, nfail);
	for (size_t g = 0; g < ng; g++)
		if (junit_case(f, fs, rel, ix, &gr[g], ctx) != 0)
			goto out;
	for (size_t r = 0; r < gate_nrules; r++) {
		if (!silent[r])
			continue;
		fputs("    <testcase classname=\"", f);
		report_xml_escape(f, gate_rules[r].id, 1);
		fputs("\" name=\"", f);
		report_xml_escape(f, gate_rules[r].id, 1);
		fputs("\"/>\n", f);
	}
	fputs("  </testsuite>\n</testsuites>\n", f);
	rc = 0;
out:
	free(silent);
	free(gr);
	free(ix);
	report_free_paths(rel, fs->n);
	return rc;
}
