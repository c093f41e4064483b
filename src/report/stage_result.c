/* report/stage_result.c: the Stage Result renderers (report/stage_result.h). */
#include "report/stage_result.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

char *report_stage_result_markdown(const struct stage_result *sr)
{
	struct strbuf b = { 0 };
	strbuf_printf(&b, "## Stage Result\n\n");
	for (size_t i = 0; i < sr->n; i++) {
		const struct sr_entry *e = &sr->v[i];
		if (e->workload)
			strbuf_printf(&b, "- %s: %s: %s\n", e->workload, e->key, e->value);
		else
			strbuf_printf(&b, "- %s: %s\n", e->key, e->value);
	}
	if (b.oom) {
		free(b.s);
		return NULL;
	}
	return b.s;
}

char *report_stage_result_json(const struct stage_result *sr)
{
	cJSON *o = cJSON_CreateObject();
	int bad = !o;
	for (size_t i = 0; i < sr->n && !bad; i++) {
		const struct sr_entry *e = &sr->v[i];
		if (e->workload) {
			cJSON *m = cJSON_GetObjectItemCaseSensitive(o, e->key);
			if (!m)
				m = cJSON_AddObjectToObject(o, e->key);
			if (m && !cJSON_IsObject(m)) {
				/* the same field unlabelled before (a block read from
				 * someone else): keep both, as "key (WORKLOAD)" */
				size_t n = strlen(e->key) + strlen(e->workload) + 4;
				char *k = malloc(n);
				bad = !k;
				if (k) {
					snprintf(k, n, "%s (%s)", e->key, e->workload);
					bad = !cJSON_AddStringToObject(o, k, e->value);
					free(k);
				}
				continue;
			}
			bad = !m || !cJSON_AddStringToObject(m, e->workload, e->value);
		} else if ((e->field == SR_STAGE || e->field == SR_ITERATIONS) && !isnan(e->number)) {
			bad = !cJSON_AddNumberToObject(o, e->key, e->number);
		} else {
			bad = !cJSON_AddStringToObject(o, e->key, e->value);
		}
	}
	char *t = bad ? NULL : cJSON_Print(o);
	cJSON_Delete(o);
	if (!t)
		return NULL;
	size_t n = strlen(t);
	char *r = malloc(n + 2);
	if (r) {
		memcpy(r, t, n);
		r[n] = '\n';
		r[n + 1] = '\0';
	}
	cJSON_free(t);
	return r;
}
