/* audit.c: `tlperf audit`'s formats, listed once (report/audit.h). */
#include "report/audit.h"

#include <string.h>

const struct report_audit_format report_audit_formats[] = {
	{ "markdown", report_audit_markdown },
	{ "md", report_audit_markdown },
	{ "csv", report_audit_csv },
	{ "json", report_audit_json },
	{ "html", report_audit_html },
	{ NULL, NULL },
};

const struct report_audit_format *report_audit_format_named(const char *name)
{
	for (const struct report_audit_format *f = report_audit_formats; f->name; f++)
		if (strcmp(name, f->name) == 0)
			return f;
	return NULL;
}
