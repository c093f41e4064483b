/* inventory.c: workload_inventory.json into the model (io/inventory.h). */
#include "io/inventory.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* Each documented member: its bit, its name, and whether a value has the
 * documented type. */
static int is_nonempty_string(const cJSON *v)
{
	return cJSON_IsString(v) && v->valuestring[0] != '\0';
}

static int is_string_array(const cJSON *v)
{
	const cJSON *m;
	if (!cJSON_IsArray(v))
		return 0;
	cJSON_ArrayForEach(m, v) if (!cJSON_IsString(m)) return 0;
	return 1;
}

static int is_shape(const cJSON *v)
{
	return cJSON_IsArray(v) || cJSON_IsObject(v);
}

static int is_string(const cJSON *v)
{
	return cJSON_IsString(v);
}

static int is_object(const cJSON *v)
{
	return cJSON_IsObject(v);
}

static int is_bool(const cJSON *v)
{
	return cJSON_IsBool(v);
}

static const struct {
	unsigned bit;
	const char *name;
	int (*typed)(const cJSON *);
} fields[] = {
	{ INV_F_BENCHMARK_SOURCE, "benchmark_source", is_nonempty_string },
	{ INV_F_KERNEL_ID, "kernel_id", is_string },
	{ INV_F_WORKLOAD_ID, "workload_id", is_string },
	{ INV_F_LABEL, "label", is_string },
	{ INV_F_MARKS, "marks", is_string_array },
	{ INV_F_SHAPE, "shape", is_shape },
	{ INV_F_DTYPE, "dtype", is_string },
	{ INV_F_PARAMS, "params", is_object },
	{ INV_F_KIND, "kind", is_string },
	{ INV_F_REASON, "reason", is_string },
	{ INV_F_TUNING_STATUS, "tuning_status", is_string },
	{ INV_F_PRECISION_PASS, "precision_pass", is_bool },
};

/* A malloc'd copy of member key when it is a string; NULL otherwise.
 * Sets *oom on allocation failure. */
static char *str_member(const cJSON *o, const char *key, int *oom)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	if (!cJSON_IsString(v))
		return NULL;
	char *s = strdup(v->valuestring);
	if (!s)
		*oom = 1;
	return s;
}

static int read_marks(const cJSON *o, struct inventory_item *it)
{
	const cJSON *marks = cJSON_GetObjectItemCaseSensitive(o, "marks"), *m;
	int n = cJSON_IsArray(marks) ? cJSON_GetArraySize(marks) : 0;
	if (n <= 0)
		return 0;
	if (!(it->marks = calloc((size_t)n, sizeof(*it->marks))))
		return -1;
	cJSON_ArrayForEach(m, marks)
	{
		if (!cJSON_IsString(m))
			continue;
		if (!(it->marks[it->nmarks] = strdup(m->valuestring)))
			return -1;
		it->nmarks++;
	}
	return 0;
}

static int read_item(const cJSON *o, int index, struct inventory_item *it)
{
	int oom = 0;
	it->index = index;
	if (!cJSON_IsObject(o))
		return 0;
	it->is_object = 1;
	for (size_t f = 0; f < sizeof(fields) / sizeof(fields[0]); f++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, fields[f].name);
		if (!v)
			continue;
		it->present |= fields[f].bit;
		if (fields[f].typed(v))
			it->typed |= fields[f].bit;
	}
	it->kernel_id = str_member(o, "kernel_id", &oom);
	it->workload_id = str_member(o, "workload_id", &oom);
	it->kind = str_member(o, "kind", &oom);
	it->label = str_member(o, "label", &oom);
	it->reason = str_member(o, "reason", &oom);
	it->tuning_status = str_member(o, "tuning_status", &oom);
	it->precision_pass = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "precision_pass"));
	return oom || read_marks(o, it) ? -1 : 0;
}

int inventory_parse(const char *text, size_t len, struct inventory *inv)
{
	inventory_init(inv);
	cJSON *doc = cJSON_ParseWithLength(text, len);
	if (!doc)
		return 1;
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(doc, "workloads"), *o;
	int rc = 0;
	if (cJSON_IsObject(doc) && cJSON_IsArray(arr)) {
		inv->has_workloads = 1;
		int n = cJSON_GetArraySize(arr);
		if (n > 0 && !(inv->v = calloc((size_t)n, sizeof(*inv->v))))
			rc = -1;
		cJSON_ArrayForEach(o, arr)
		{
			if (rc || inv->n >= (size_t)n)
				break;
			rc = read_item(o, (int)inv->n + 1, &inv->v[inv->n]);
			inv->n++;
		}
	}
	cJSON_Delete(doc);
	if (rc)
		inventory_release(inv);
	return rc;
}
