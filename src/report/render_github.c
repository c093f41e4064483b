/* render_github.c: findings as GitHub Actions workflow commands (::error file=...::), percent-escaped. */
#include "report/render_common.h"
#include "util/escape.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gates/rules.h"

/* Workflow-command escaping: data escapes %, CR, LF; property values also
 * ':' and ','. */
static void gh_escape(FILE *f, const char *s, int property)
{
	for (; *s; s++) {
		switch (*s) {
		case '%': fputs("%25", f); break;
		case '\r': fputs("%0D", f); break;
		case '\n': fputs("%0A", f); break;
		case ':':
			if (property)
				fputs("%3A", f);
			else
				fputc(':', f);
			break;
		case ',':
			if (property)
				fputs("%2C", f);
			else
				fputc(',', f);
			break;
		default: fputc(*s, f);
		}
	}
}

/* A suppressed finding is a notice (it fails nothing) titled "RULE
 * (suppressed)", its message followed by where and why it was suppressed. */
int report_render_github(FILE *f, const struct gate_findings *fs, const struct report_ctx *ctx)
{
	for (size_t i = 0; i < fs->n; i++) {
		const struct gate_finding *g = &fs->v[i];
		if (g->severity == GATE_OFF)
			continue;
		char *rel = report_relpath(ctx->repo_root, g->file);
		char *by = g->sup_file ? report_suppressed_by(g, ctx) : NULL;
		/* controls escaped visibly (util/escape.h); newlines are
		 * encoded by gh_escape */
		char *file = rel ? escape_text(rel, 0) : NULL;
		char *msg = escape_text(g->message, ESCAPE_KEEP_NEWLINE | ESCAPE_KEEP_CR), *rule = escape_text(g->rule, 0);
		char *eby = by ? escape_text(by, 0) : NULL;
		free(rel);
		free(by);
		if (!file || !msg || !rule || (g->sup_file && !eby)) {
			free(file), free(msg), free(rule), free(eby);
			errno = ENOMEM;
			return -1;
		}
		const char *cmd = g->sup_file ? "notice"
				  : g->severity == GATE_ERROR ? "error"
				  : g->severity == GATE_WARNING ? "warning" : "notice";
		fprintf(f, "::%s file=", cmd);
		gh_escape(f, file, 1);
		if (g->line > 0)
			fprintf(f, ",line=%ld", g->line);
		fputs(",title=", f);
		gh_escape(f, rule, 1);
		if (eby)
			gh_escape(f, " (suppressed)", 1);
		fputs("::", f);
		gh_escape(f, msg, 0);
		if (eby) {
			fprintf(f, " [%s, ", gate_severity_name(g->severity));
			gh_escape(f, eby, 0);
			fputc(']', f);
		}
		fputc('\n', f);
		free(file), free(msg), free(rule), free(eby);
	}
	return 0;
}
