/* s4_coverage.c: S4-PERF-RECORDS-COVERAGE and S4-WORKLOAD-INVENTORY (v2). */
#include "gates/s4.h"
#include "gates/s4_util.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INV "S4-WORKLOAD-INVENTORY"
#define COV "S4-PERF-RECORDS-COVERAGE"

/* "smoke" as a token of s (not inside a longer word). */
static int smoke_token(const char *s)
{
	for (const char *p = s; p && (p = strstr(p, "smoke")) != NULL; p += 5) {
		int before = p > s && isalnum((unsigned char)p[-1]);
		int after = isalnum((unsigned char)p[5]);
		if (!before && !after)
			return 1;
	}
	for (const char *p = s; p && *p; p++)
		if ((p[0] == 'S' || p[0] == 's') && strncasecmp(p, "smoke", 5) == 0) {
			int before = p > s && isalnum((unsigned char)p[-1]);
			if (!before && !isalnum((unsigned char)p[5]))
				return 1;
		}
	return 0;
}

static int has_mark(const cJSON *marks, const char *m)
{
	const cJSON *it;
	cJSON_ArrayForEach(it, marks)
	{
		if (cJSON_IsString(it) && strcasecmp(it->valuestring, m) == 0)
			return 1;
	}
	return 0;
}

static int inventory_items(const struct s4_input *in, struct gate_findings *fs,
			   const struct s4_item *items, size_t n, struct s4_map *seen)
{
	const char *f = in->inventory_file;
	static const char *const req[] = { "benchmark_source", "kernel_id", "workload_id", "label", "marks",
					   "shape", "dtype", "params", "kind", "reason", NULL };
	for (size_t i = 0; i < n; i++) {
		const cJSON *it = items[i].json;
		int idx = items[i].index;
		if (!cJSON_IsObject(it)) {
			if (gate_add(fs, INV, GATE_ERROR, f, 0, "workloads[%d] is not an object", idx))
				return -1;
			continue;
		}
		char missing[256] = "";
		size_t ml = 0;
		for (int k = 0; req[k]; k++)
			if (!cJSON_HasObjectItem(it, req[k]) && ml < sizeof(missing) - 32)
				ml += (size_t)snprintf(missing + ml, sizeof(missing) - ml, "%s%s", ml ? ", " : "", req[k]);
		if (ml) {
			if (gate_add(fs, INV, GATE_ERROR, f, 0, "workloads[%d] lacks %s", idx, missing))
				return -1;
			continue;
		}
		const char *kid = items[i].kernel_id, *wid = items[i].workload_id;
		int dup = 0;
		if (kid && wid) {
			/* seen: every (kernel_id, workload_id) so far, so a large
			 * inventory costs linear time, not quadratic */
			int created = 0;
			char *key = s4_key3(kid, wid, NULL);
			long *slot = key ? s4_map_put(seen, key, 0, &created) : NULL;
			free(key);
			if (!slot)
				return -1;
			dup = !created;
		}
		if (!kid || !wid || !*kid || !*wid || dup) {
			if (gate_add(fs, INV, GATE_ERROR, f, 0, "workloads[%d] has an invalid or repeated kernel_id/workload_id", idx))
				return -1;
			continue;
		}
		const cJSON *src = cJSON_GetObjectItemCaseSensitive(it, "benchmark_source");
		const cJSON *label = cJSON_GetObjectItemCaseSensitive(it, "label");
		const cJSON *marks = cJSON_GetObjectItemCaseSensitive(it, "marks");
		const cJSON *shape = cJSON_GetObjectItemCaseSensitive(it, "shape");
		const cJSON *dtype = cJSON_GetObjectItemCaseSensitive(it, "dtype");
		const cJSON *params = cJSON_GetObjectItemCaseSensitive(it, "params");
		const cJSON *reason = cJSON_GetObjectItemCaseSensitive(it, "reason");
		const char *kind = items[i].kind;
		int marks_ok = cJSON_IsArray(marks);
		const cJSON *m;
		if (marks_ok)
			cJSON_ArrayForEach(m, marks) if (!cJSON_IsString(m)) marks_ok = 0;
		if (!cJSON_IsString(src) || !*src->valuestring || !cJSON_IsString(label) || !marks_ok ||
		    !(cJSON_IsArray(shape) || cJSON_IsObject(shape)) || !cJSON_IsString(dtype) ||
		    !cJSON_IsObject(params) || !cJSON_IsString(reason) || !kind ||
		    (strcmp(kind, "tune") && strcmp(kind, "smoke") && strcmp(kind, "skipped"))) {
			if (gate_add(fs, INV, GATE_ERROR, f, 0, "workloads[%d] ('%s' / '%s') has a field of the wrong type or a kind other than tune, smoke, skipped",
				     idx, kid, wid))
				return -1;
			continue;
		}
		const char *want = has_mark(marks, "skip") ? "skipped"
				   : (has_mark(marks, "smoke") || smoke_token(wid) || smoke_token(label->valuestring))
					   ? "smoke" : "tune";
		int has_reason = *reason->valuestring != '\0';
		const cJSON *ts = cJSON_GetObjectItemCaseSensitive(it, "tuning_status");
		const char *status = cJSON_IsString(ts) ? ts->valuestring : NULL;
		const cJSON *pp = cJSON_GetObjectItemCaseSensitive(it, "precision_pass");
		int rc = 0;
		if (strcmp(kind, want) != 0)
			rc = gate_add(fs, INV, GATE_ERROR, f, 0, "'%s' / '%s' is declared %s but its marks and label make it %s",
				      kid, wid, kind, want);
		if (!rc && strcmp(kind, "tune") == 0 &&
		    !(status && (!strcmp(status, "winner_merged") || !strcmp(status, "no_gain") ||
				 !strcmp(status, "merge_blocked"))))
			rc = gate_add(fs, INV, GATE_ERROR, f, 0,
				      "tune workload '%s' / '%s' has no finished tuning_status (winner_merged, no_gain, merge_blocked)",
				      kid, wid);
		if (!rc && status && (!strcmp(status, "no_gain") || !strcmp(status, "merge_blocked")) && !has_reason)
			rc = gate_add(fs, INV, GATE_ERROR, f, 0, "'%s' / '%s' is %s without a reason", kid, wid, status);
		if (!rc && strcmp(kind, "smoke") == 0 && !cJSON_IsTrue(pp))
			rc = gate_add(fs, INV, GATE_ERROR, f, 0, "smoke workload '%s' / '%s' has no final precision_pass: true",
				      kid, wid);
		if (!rc && strcmp(kind, "smoke") == 0 && has_mark(marks, "full") && !has_reason)
			rc = gate_add(fs, INV, GATE_ERROR, f, 0,
				      "smoke workload '%s' / '%s' carries the full mark and needs a reason", kid, wid);
		if (!rc && strcmp(kind, "skipped") == 0 && !has_reason)
			rc = gate_add(fs, INV, GATE_ERROR, f, 0, "skipped workload '%s' / '%s' needs a reason", kid, wid);
		if (rc)
			return -1;
	}
	return 0;
}

/* Bits kept per tune (kernel_id, workload_id) while the records stream by. */
enum { TUNE = 1, SEEN_BASELINE = 2, SEEN_FINAL = 4 };

/* Every record is for a tune workload, and every tune workload has a
 * baseline and a final record. One pass over the records with the tune
 * keys in a hash map: linear in records + items. */
static int tune_coverage(const struct s4_input *in, struct gate_findings *fs,
			 const struct s4_item *items, size_t n)
{
	struct s4_map tune;
	int rc = 0;
	s4_map_init(&tune);
	for (size_t k = 0; k < n && rc == 0; k++) {
		if (!items[k].kind || strcmp(items[k].kind, "tune") || !items[k].kernel_id ||
		    !items[k].workload_id)
			continue;
		char *key = s4_key3(items[k].kernel_id, items[k].workload_id, NULL);
		if (!key || !s4_map_put(&tune, key, TUNE, NULL))
			rc = -1;
		free(key);
	}
	const struct records *rs = in->recs;
	for (size_t i = 0; i < rs->n && rc == 0; i++) {
		const struct record *r = &rs->v[i];
		char *key = s4_key3(r->dispatch, r->workload, NULL);
		long *bits = key ? s4_map_get(&tune, key) : NULL;
		free(key);
		if (!key)
			rc = -1;
		else if (!bits)
			rc = gate_add(fs, COV, GATE_ERROR, in->records_file, r->line,
				      "record for '%s' / '%s', which is not a tune workload of the inventory",
				      r->dispatch, r->workload);
		else if (r->phase)
			*bits |= (strcmp(r->phase, "baseline") == 0 ? SEEN_BASELINE : 0) |
				 (strcmp(r->phase, "final") == 0 ? SEEN_FINAL : 0);
	}
	for (size_t k = 0; k < n && rc == 0; k++) {
		if (!items[k].kind || strcmp(items[k].kind, "tune") || !items[k].kernel_id ||
		    !items[k].workload_id)
			continue;
		char *key = s4_key3(items[k].kernel_id, items[k].workload_id, NULL);
		long *bits = key ? s4_map_get(&tune, key) : NULL;
		free(key);
		if (!bits) {
			rc = -1;
			break;
		}
		int base = (*bits & SEEN_BASELINE) != 0, fin = (*bits & SEEN_FINAL) != 0;
		if (!base || !fin)
			rc = gate_add(fs, COV, GATE_ERROR, in->records_file, 0,
				      "tune workload '%s' / '%s' has no %s record",
				      items[k].kernel_id, items[k].workload_id,
				      !base && !fin ? "baseline or final" : !base ? "baseline" : "final");
	}
	s4_map_release(&tune);
	return rc;
}

int s4_rule_coverage(const struct s4_input *in, struct gate_findings *fs)
{
	if (in->contract != RECORDS_V2)
		return 0;
	const char *f = in->inventory_file;
	switch (in->inventory_state) {
	case S4_FILE_MISSING:
		return gate_add(fs, INV, GATE_ERROR, f, 0, "workload_inventory.json is missing (v2 records need it)");
	case S4_FILE_EMPTY:
		return gate_add(fs, INV, GATE_ERROR, f, 0, "workload_inventory.json is empty");
	case S4_FILE_UNREADABLE:
		return gate_add(fs, INV, GATE_ERROR, f, 0, "workload_inventory.json cannot be read%s%s",
				in->inventory_error ? ": " : "", in->inventory_error ? in->inventory_error : "");
	case S4_FILE_OK:
		break;
	}
	if (!in->inventory || !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(in->inventory, "workloads")))
		return gate_add(fs, INV, GATE_ERROR, f, 0, "workload_inventory.json must be an object with a \"workloads\" array");
	struct s4_item *items;
	size_t n;
	if (s4_inventory_items(in->inventory, &items, &n))
		return -1;
	struct s4_map seen;
	s4_map_init(&seen);
	int rc = inventory_items(in, fs, items, n, &seen);
	s4_map_release(&seen);
	if (rc == 0)
		rc = tune_coverage(in, fs, items, n);
	free(items);
	return rc ? -1 : 0;
}
