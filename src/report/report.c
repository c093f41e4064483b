/* report.c: gate findings in every output format (report.h): the format
 * formats as {name, renderer}, one renderer per format (render_<format>.c).
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

const struct report_format report_formats[] = {
	{ "text", report_render_text },
	{ "json", report_render_json },
	{ "sarif", report_render_sarif },
	{ "github", report_render_github },
	{ "junit", report_render_junit },
	{ "markdown", report_render_markdown },
	{ "gitlab", report_render_gitlab },
	{ NULL, NULL },
};
/* The names of report_formats[], in its order, for option tables (a test
 * checks the two agree). */
const char *const report_format_names[] = { "text", "json", "sarif", "github", "junit", "markdown", "gitlab", NULL };

const struct report_format *report_format_named(const char *name)
{
	for (const struct report_format *f = report_formats; f->name; f++)
		if (strcmp(name, f->name) == 0)
			return f;
	return NULL;
}

/* ---- entry ---------------------------------------------------------------- */

int report_write(FILE *f, const struct report_format *fmt, const struct gate_findings *fs,
		 const struct report_ctx *ctx)
{
	static const struct report_ctx defaults = { "tlgate", "", NULL, 0, 0, -1, 0, 0 };
	int rc;
	if (!ctx)
		ctx = &defaults;
	if (!fmt || !fmt->render) {
		errno = EINVAL;
		return -1;
	}
	rc = fmt->render(f, fs, ctx);
	if (rc == 0 && ferror(f)) {
		if (!errno)
			errno = EIO;
		rc = -1;
	}
	return rc;
}
