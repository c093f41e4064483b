/* render_text.c: findings as GNU-style text, one line per finding: "path:line: error: [RULE] message". */
#include "report/render_common.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gates/rules.h"

int report_render_text(FILE *f, const struct gate_findings *fs, const struct report_ctx *ctx)
{
	(void)ctx;
	for (size_t i = 0; i < fs->n; i++) {
		const struct gate_finding *g = &fs->v[i];
		if (g->severity == GATE_OFF)
			continue;
		char *file = report_sanitize(g->file, REPORT_SAN_TEXT), *msg = report_sanitize(g->message, REPORT_SAN_TEXT);
		char *rule = report_sanitize(g->rule, REPORT_SAN_TEXT);
		if (!file || !msg || !rule) {
			free(file), free(msg), free(rule);
			errno = ENOMEM;
			return -1;
		}
		if (g->line > 0)
			fprintf(f, "%s:%ld: %s: [%s] %s\n", file, g->line,
				gate_severity_name(g->severity), rule, msg);
		else
			fprintf(f, "%s: %s: [%s] %s\n", file, gate_severity_name(g->severity), rule,
				msg);
		free(file), free(msg), free(rule);
	}
	return 0;
}
