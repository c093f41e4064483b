/* abjournal.c: tlab's runs.jsonl for the gate (abjournal.h). */
#include "io/abjournal.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

long abjournal_round_of(const char *name)
{
	if (strncmp(name, "ab_", 3) != 0)
		return -1;
	const char *p = name + 3;
	while (*p && !(*p >= '0' && *p <= '9'))
		p++;
	if (!*p)
		return -1;
	long r = 0;
	for (; *p >= '0' && *p <= '9' && r < 1000000; p++)
		r = r * 10 + (*p - '0');
	return r;
}

static int num(const cJSON *o, const char *k, double *v)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, k);
	if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble))
		return -1;
	*v = it->valuedouble;
	return 0;
}

const char *abjournal_run_of(const cJSON *o, struct abjournal_run *r)
{
	double pair, order, med;
	const cJSON *arm = cJSON_GetObjectItemCaseSensitive(o, "arm");
	if (!cJSON_IsObject(o))
		return "not a JSON object";
	if (!cJSON_IsString(arm) || !arm->valuestring ||
	    (strcmp(arm->valuestring, "A") != 0 && strcmp(arm->valuestring, "B") != 0))
		return "\"arm\" must be \"A\" or \"B\"";
	if (num(o, "pair", &pair) != 0 || pair < 1 || pair != floor(pair) || pair > 1e6)
		return "\"pair\" must be a whole number >= 1";
	if (num(o, "order", &order) != 0 || (order != 1 && order != 2))
		return "\"order\" must be 1 or 2";
	if (num(o, "median_us", &med) != 0 || !(med > 0))
		return "\"median_us\" must be a number > 0";
	r->arm = arm->valuestring[0];
	r->pair = (long)pair;
	r->order = (int)order;
	r->median_us = med;
	const cJSON *proto = cJSON_GetObjectItemCaseSensitive(o, "protocol");
	r->protocol[0] = '\0';
	if (cJSON_IsString(proto) && proto->valuestring && strlen(proto->valuestring) < sizeof(r->protocol))
		strcpy(r->protocol, proto->valuestring);
	return NULL;
}

/* One line of text (n bytes) into j. 0, -1 on allocation failure. */
static int take_line(const char *s, size_t n, long line, struct abjournal *j)
{
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	if (n == 0)
		return 0;
	cJSON *o = cJSON_ParseWithLength(s, n);
	if (!o) {
		j->damaged++;
		return 0;
	}
	struct abjournal_run r = { .line = line };
	const char *why = abjournal_run_of(o, &r);
	cJSON_Delete(o);
	if (why) {
		if (!j->bad_line) {
			j->bad_line = line;
			if (!(j->bad = strdup(why)))
				return -1;
		}
		return 0;
	}
	if (j->n == ABJOURNAL_MAX_RUNS) {
		if (!j->bad_line) {
			j->bad_line = line;
			if (!(j->bad = strdup("more runs than a journal holds (10000): the rest is not read")))
				return -1;
		}
		return 0;
	}
	if (j->n == j->cap) {
		size_t cap = j->cap ? j->cap * 2 : 16;
		struct abjournal_run *v = realloc(j->v, cap * sizeof(*v));
		if (!v)
			return -1;
		j->v = v;
		j->cap = cap;
	}
	j->v[j->n++] = r;
	return 0;
}

int abjournal_parse(const char *text, size_t len, struct abjournal *j)
{
	long line = 0;
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (text + i)) : len - i;
		if (take_line(text + i, n, ++line, j))
			return -1;
		i += n + 1;
	}
	return 0;
}
