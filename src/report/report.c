/* report.c: gate findings in every output format (report.h): the format
 * names and the dispatch to one renderer per format (render_<format>.c).
 *
 * Every format is written so that hostile bytes in a finding (a message
 * quoting a line of a pull request: invalid UTF-8, control characters,
 * markup) cannot break the document: JSON strings are built by cJSON from
 * sanitised UTF-8, XML and Markdown are escaped by their renderers, workflow commands use
 * GitHub's percent escapes.
 */
#include "report/render_common.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gates/rules.h"

const char *const report_format_names[] = {
	[REPORT_TEXT] = "text",	      [REPORT_JSON] = "json",	  [REPORT_SARIF] = "sarif",
	[REPORT_GITHUB] = "github",   [REPORT_JUNIT] = "junit",	  [REPORT_MARKDOWN] = "markdown",
	[REPORT_GITLAB] = "gitlab",   [REPORT_GITLAB + 1] = NULL,
};
#define NFORMATS (sizeof(report_format_names) / sizeof(report_format_names[0]) - 1)

int report_format_parse(const char *name, enum report_format *out)
{
	for (size_t i = 0; i < NFORMATS; i++)
		if (strcmp(name, report_format_names[i]) == 0) {
			*out = (enum report_format)i;
			return 0;
		}
	return -1;
}

const char *report_format_name(enum report_format fmt)
{
	return (size_t)fmt < NFORMATS ? report_format_names[fmt] : "unknown";
}

/* ---- entry ---------------------------------------------------------------- */

int report_write(FILE *f, enum report_format fmt, const struct gate_findings *fs,
		 const struct report_ctx *ctx)
{
	static const struct report_ctx defaults = { "tlgate", "", NULL, 0, 0, -1, 0, 0 };
	int rc;
	if (!ctx)
		ctx = &defaults;
	switch (fmt) {
	case REPORT_TEXT: rc = report_render_text(f, fs, ctx); break;
	case REPORT_JSON: rc = report_render_json(f, fs, ctx); break;
	case REPORT_SARIF: rc = report_render_sarif(f, fs, ctx); break;
	case REPORT_GITHUB: rc = report_render_github(f, fs, ctx); break;
	case REPORT_JUNIT: rc = report_render_junit(f, fs, ctx); break;
	case REPORT_MARKDOWN: rc = report_render_markdown(f, fs, ctx); break;
	case REPORT_GITLAB: rc = report_render_gitlab(f, fs, ctx); break;
	default: errno = EINVAL; return -1;
	}
	if (rc == 0 && ferror(f)) {
		if (!errno)
			errno = EIO;
		rc = -1;
	}
	return rc;
}
