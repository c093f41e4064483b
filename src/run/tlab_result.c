/* tlab_result.c: see tlab_result.h. */
#include "run/tlab_result.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Member key of o (an object, or NULL) as a number, NAN when it is none. */
static double num(const cJSON *o, const char *key)
{
	const cJSON *x = cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
	return cJSON_IsNumber(x) ? x->valuedouble : NAN;
}

/* The whole of path, NUL-ended, malloc'd; NULL with errno set. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;
	if (!f)
		return NULL;
	for (;;) {
		if (n + 4097 > cap) {
			char *nb = realloc(buf, cap = cap ? 2 * cap : 65536);
			if (!nb) {
				free(buf);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
		}
		size_t got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
	}
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		free(buf);
		errno = EIO;
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* The fields of a parsed verdict object o into *r; 0, or -1 with err. */
static int fill(const cJSON *o, struct tlab_result *r, char *err, size_t errlen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "verdict");
	const cJSON *proto = cJSON_GetObjectItemCaseSensitive(o, "tlab_protocol");
	const cJSON *ex = cJSON_GetObjectItemCaseSensitive(o, "exact");
	const cJSON *iv = cJSON_GetObjectItemCaseSensitive(o, "gain_interval");
	if (!cJSON_IsString(v)) {
		snprintf(err, errlen, "no verdict");
		return -1;
	}
	r->gain = num(o, "gain");
	if (isnan(r->gain)) {
		snprintf(err, errlen, "no gain (not the output of this tlab)");
		return -1;
	}
	snprintf(r->verdict, sizeof(r->verdict), "%s", v->valuestring);
	snprintf(r->protocol, sizeof(r->protocol), "%s",
		 cJSON_IsString(proto) ? proto->valuestring : "");
	r->gain_lo = r->gain_hi = NAN;
	if (cJSON_IsArray(iv) && cJSON_GetArraySize(iv) == 2) {
		const cJSON *lo = cJSON_GetArrayItem(iv, 0), *hi = cJSON_GetArrayItem(iv, 1);
		r->gain_lo = cJSON_IsNumber(lo) ? lo->valuedouble : NAN;
		r->gain_hi = cJSON_IsNumber(hi) ? hi->valuedouble : NAN;
	}
	/* ref: the sign test, unrounded (exact); seq keeps it in "ref" only */
	r->p = num(ex, "sign_test_p");
	r->a_us = num(ex, "a_merged_median_us");
	r->b_us = num(ex, "b_merged_median_us");
	if (isnan(r->a_us))
		r->a_us = num(o, "a_merged_median_us");
	if (isnan(r->b_us))
		r->b_us = num(o, "b_merged_median_us");
	double pairs = num(o, "pairs");
	r->pairs = isnan(pairs) ? 0 : (long)pairs;
	return 0;
}

int tlab_result_read(const char *path, struct tlab_result *r, char *err, size_t errlen)
{
	char dummy[8];
	size_t n = 0;
	if (!err) {
		err = dummy;
		errlen = sizeof(dummy);
	}
	memset(r, 0, sizeof(*r));
	char *buf = slurp(path, &n);
	if (!buf) {
		snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	cJSON *o = cJSON_ParseWithLength(buf, n);
	free(buf);
	int rc = -1;
	const cJSON *e = o ? cJSON_GetObjectItemCaseSensitive(o, "error") : NULL;
	if (!cJSON_IsObject(o))
		snprintf(err, errlen, "'%s' is not a JSON object", path);
	else if (cJSON_IsString(e))
		snprintf(err, errlen, "tlab failed: %s", e->valuestring);
	else if (fill(o, r, err, errlen) == 0)
		rc = 0;
	cJSON_Delete(o);
	return rc;
}

char *tlab_result_summary(const char *path)
{
	size_t n = 0;
	char *buf = slurp(path, &n), *t = NULL;
	if (!buf)
		return NULL;
	cJSON *o = cJSON_ParseWithLength(buf, n);
	free(buf);
	if (cJSON_IsObject(o) && cJSON_IsString(cJSON_GetObjectItemCaseSensitive(o, "verdict"))) {
		cJSON_DeleteItemFromObjectCaseSensitive(o, "runs");
		t = cJSON_Print(o);
	}
	cJSON_Delete(o);
	return t;
}
