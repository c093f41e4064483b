/* rules_doc.c: rule explanations as text and Markdown (rules_doc.h). */
#include "report/rules_doc.h"
#include "report/table.h"

#include <ctype.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#define WRAP 78

void report_rule_anchor(const char *id, char *buf, size_t len)
{
	size_t i = 0;
	if (len == 0)
		return;
	for (; id[i] && i + 1 < len; i++)
		buf[i] = (char)tolower((unsigned char)id[i]);
	buf[i] = '\0';
}

/* The build's base: empty unless `make DOCS_URL=https://...`. */
#ifndef TLPERF_DOCS_URL
#define TLPERF_DOCS_URL ""
#endif

const char *report_docs_url(void)
{
	static char base[1024];
	static int warned;
	const char *v = getenv("TLPERF_DOCS_URL");
	const char *from = v ? "TLPERF_DOCS_URL" : "the build's DOCS_URL";
	if (!v)
		v = TLPERF_DOCS_URL;
	if (!*v)
		return NULL;
	size_t n = strlen(v);
	while (n > 0 && v[n - 1] == '/')
		n--;
	if (strncmp(v, "https://", 8) != 0 || n <= 8 || n >= sizeof(base) || strpbrk(v, " \t\n\"<>")) {
		if (!warned++)
			fprintf(stderr, "tlperf: warning: %s '%s' is not an https:// URL: no documentation links are written\n",
				from, v);
		return NULL;
	}
	memcpy(base, v, n);
	base[n] = '\0';
	return base;
}

int report_rule_help_uri(const char *id, char *buf, size_t len)
{
	char anchor[128];
	const char *base = report_docs_url();
	if (len)
		buf[0] = '\0';
	if (!base)
		return -1;
	report_rule_anchor(id, anchor, sizeof(anchor));
	snprintf(buf, len, "%s/rules.md#%s", base, anchor);
	return 0;
}

static const char *sev_name(enum gate_severity s)
{
	return s == GATE_ERROR ? "error" : s == GATE_WARNING ? "warning" : "off";
}

/* Writes text wrapped at WRAP columns, every line indented by `indent`.
 * Words are split at spaces only (a word longer than a line stays whole);
 * UTF-8 sequences count as one column per code point. */
static void wrap(FILE *f, const char *text, int indent)
{
	int col = 0;
	const char *p = text;
	while (*p) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		size_t n = strcspn(p, " ");
		int w = 0;
		for (size_t i = 0; i < n; i++)
			if (((unsigned char)p[i] & 0xC0) != 0x80)
				w++;
		if (col > 0 && col + 1 + w > WRAP) {
			fputc('\n', f);
			col = 0;
		}
		if (col == 0) {
			fprintf(f, "%*s", indent, "");
			col = indent;
		} else {
			fputc(' ', f);
			col++;
		}
		fwrite(p, 1, n, f);
		col += w;
		p += n;
	}
	if (col > 0)
		fputc('\n', f);
}

/* Writes each line of a preformatted block with an indent. */
static void block(FILE *f, const char *text, const char *indent)
{
	const char *p = text;
	while (*p) {
		size_t n = strcspn(p, "\n");
		fprintf(f, "%s%.*s\n", indent, (int)n, p);
		p += n;
		if (*p == '\n')
			p++;
	}
}

int report_rule_text(FILE *f, const struct gate_rule_info *r)
{
	fprintf(f, "%s: %s\n", r->id, r->summary);
	fprintf(f, "severity: %s by default, %s with --strict\n", sev_name(r->default_severity),
		sev_name(r->strict_severity));
	fputs("\nwhy\n", f);
	wrap(f, r->purpose, 2);
	fputs("\nwhat triggers it\n", f);
	wrap(f, r->trigger, 2);
	fputs("\nhow to fix it\n", f);
	wrap(f, r->fix, 2);
	fputs("\nexample\n", f);
	block(f, r->example, "  ");
	return ferror(f) ? -1 : 0;
}

int report_rules_list(FILE *f)
{
	for (size_t i = 0; i < gate_nrules; i++) {
		const struct gate_rule_info *r = &gate_rules[i];
		fprintf(f, "%-25s %-7s %-7s %s\n", r->id, sev_name(r->default_severity),
			sev_name(r->strict_severity), r->summary);
	}
	return ferror(f) ? -1 : 0;
}

/* The index of the rules: one row each, the id linking to its section. */
static const struct table_col index_cols[] = {
	{ "rule", TABLE_LEFT }, { "default", TABLE_LEFT }, { "with --strict", TABLE_LEFT },
	{ "checks", TABLE_LEFT },
};

int report_rules_markdown(FILE *f)
{
	char anchor[128];
	fputs("# Gate rules\n\n"
	      "<!-- Generated from gates/rules.c by `make docs`; edit the table there, not this\n"
	      "     file. tests/cli/test_explain.sh fails when this file is stale. -->\n\n"
	      "Every finding of `tlgate` names one of these rules. `tlperf explain RULE`\n"
	      "prints the same text in a terminal; SARIF output links each rule here.\n"
	      "Severities can be changed per rule in `.tlgate.json` (see docs/tlgate.md);\n"
	      "an inline suppression applies only to a rule that file lists in\n"
	      "`\"inline_suppressible\"` (none by default).\n\n",
	      f);
	struct table t;
	table_init(&t, NULL, index_cols, sizeof(index_cols) / sizeof(index_cols[0]));
	for (size_t i = 0; i < gate_nrules; i++) {
		const struct gate_rule_info *r = &gate_rules[i];
		report_rule_anchor(r->id, anchor, sizeof(anchor));
		table_cell(&t, "[%s](#%s)", r->id, anchor);
		table_cell(&t, "%s", sev_name(r->default_severity));
		table_cell(&t, "%s", sev_name(r->strict_severity));
		table_cell(&t, "%s", r->summary);
	}
	if (report_table_put_markdown(f, &t) != 0)
		return -1;
	for (size_t i = 0; i < gate_nrules; i++) {
		const struct gate_rule_info *r = &gate_rules[i];
		fprintf(f, "\n## %s\n\n%s.\n\n", r->id, r->summary);
		fprintf(f, "Severity: %s by default, %s with `--strict`.\n\n",
			sev_name(r->default_severity), sev_name(r->strict_severity));
		fprintf(f, "**Why.** %s\n\n", r->purpose);
		fprintf(f, "**What triggers it.** %s\n\n", r->trigger);
		fprintf(f, "**How to fix it.** %s\n\n", r->fix);
		fputs("**Example.**\n\n```\n", f);
		block(f, r->example, "");
		fputs("```\n", f);
	}
	return ferror(f) ? -1 : 0;
}
