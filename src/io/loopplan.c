/* loopplan.c: perf_opt/loop.json read, checked, written (see loopplan.h). */
#include "io/loopplan.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "util/strbuf.h"

#define PLAN_MAX_BYTES (4u * 1024u * 1024u)

const char *loop_ab_protocol_name(int proto)
{
	return proto == LOOP_AB_REF ? "ref" : proto == LOOP_AB_FAST ? "fast" : "seq";
}

int loop_ab_protocol_parse(const char *name)
{
	if (strcmp(name, "seq") == 0)
		return LOOP_AB_SEQ;
	if (strcmp(name, "ref") == 0)
		return LOOP_AB_REF;
	if (strcmp(name, "fast") == 0)
		return LOOP_AB_FAST;
	return -1;
}

void loop_plan_init(struct loop_plan *p)
{
	memset(p, 0, sizeof(*p));
	p->contract = 1;
	p->noise = LOOP_PLAN_NOISE_DEFAULT;
	p->max_rounds = 10;
	p->max_experiments = 30;
	p->small_us = 20.0;
	p->ab_threshold = 0.05;
	p->launch_count = 15;
	p->warm_up = 5;
	p->tlab_pairs = 3;
	p->tlab_protocol = LOOP_AB_FAST; /* tlab's default */
	p->tlab_launch_count = 15;
	p->tlab_warm_up = 5;
	p->timeout_s = 900;
}

void loop_plan_release(struct loop_plan *p)
{
	free(p->op);
	free(p->baseline);
	free(p->kernel_name);
	for (size_t i = 0; i < p->nworkloads; i++) {
		free(p->workloads[i].id);
		free(p->workloads[i].dispatch);
	}
	free(p->workloads);
	free(p->bench_cmd);
	free(p->l0_cmd);
	free(p->msprof);
	loop_plan_init(p);
}

int loop_plan_add_workload(struct loop_plan *p, const char *id, const char *dispatch,
			   int required, double target_us)
{
	struct loop_workload *v = realloc(p->workloads, (p->nworkloads + 1) * sizeof(*v));
	if (!v)
		return -1;
	p->workloads = v;
	struct loop_workload *w = &v[p->nworkloads];
	w->id = strdup(id);
	w->dispatch = strdup(dispatch);
	if (!w->id || !w->dispatch) {
		free(w->id);
		free(w->dispatch);
		return -1;
	}
	w->required = required;
	w->target_us = target_us;
	p->nworkloads++;
	return 0;
}

const struct loop_workload *loop_plan_workload(const struct loop_plan *p, const char *id)
{
	for (size_t i = 0; i < p->nworkloads; i++)
		if (strcmp(p->workloads[i].id, id) == 0)
			return &p->workloads[i];
	return NULL;
}

char *loop_path_name(const char *name, char *out, size_t outlen)
{
	size_t i = 0;
	if (outlen == 0)
		return out;
	for (; name[i] && i + 1 < outlen; i++) {
		unsigned char c = (unsigned char)name[i];
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			 c == '-' || c == '_' || (c == '.' && i > 0);
		out[i] = ok ? (char)c : '_';
	}
	out[i] = '\0';
	return out;
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* The closing brace of a {name} (letters, digits, '_') opening at s, or
 * NULL when s opens no such name. */
static const char *placeholder_end(const char *s)
{
	const char *e = s + 1;
	while ((*e >= 'a' && *e <= 'z') || (*e >= 'A' && *e <= 'Z') || (*e >= '0' && *e <= '9') ||
	       *e == '_')
		e++;
	return *e == '}' && e != s + 1 ? e : NULL;
}

/* The found bit of placeholder name[0..n): 1 impl, 2 workload, 4
 * dispatch, 0 for an unknown one. */
static int placeholder_bit(const char *name, size_t n)
{
	static const char *const known[] = { "impl", "workload", "dispatch" };
	for (int i = 0; i < 3; i++)
		if (n == strlen(known[i]) && strncmp(name, known[i], n) == 0)
			return 1 << i;
	return 0;
}

/* Checks the command template of field: present, only known placeholders,
 * {impl} among them. Sets bits in found: 1 impl, 2 workload, 4 dispatch.
 * Returns 0, or -1 with what is wrong in err. */
static int check_template(const char *field, const char *t, int *found, char *err,
			  size_t errlen)
{
	*found = 0;
	if (!t || !*t)
		return fail(err, errlen, "field '%s': missing or empty", field);
	for (const char *s = t; *s; s++) {
		if (*s != '{')
			continue;
		if (s[1] == '{') {
			s++;
			continue;
		}
		if (s > t && s[-1] == '$')
			continue; /* ${VAR} belongs to the shell */
		const char *e = placeholder_end(s);
		if (!e)
			continue; /* not a {name}: brace groups etc. stay the shell's */
		size_t n = (size_t)(e - s - 1);
		int bit = placeholder_bit(s + 1, n);
		if (!bit)
			return fail(err, errlen,
				    "field '%s': unknown placeholder '{%.*s}' (known: {impl}, {workload}, "
				    "{dispatch}; write '{{' for a literal brace)",
				    field, (int)n, s + 1);
		*found |= bit;
		s = e;
	}
	if (!(*found & 1))
		return fail(err, errlen, "field '%s': missing placeholder {impl}", field);
	return 0;
}

/* The plan's names: op (usable as a file name), baseline, kernel_name,
 * contract. Returns 0, or -1 with the field named in err. */
static int check_names(const struct loop_plan *p, char *err, size_t errlen)
{
	char a[256];
	if (!p->op || !*p->op)
		return fail(err, errlen, "field 'op': missing or empty");
	if (strcmp(loop_path_name(p->op, a, sizeof(a)), p->op) != 0)
		return fail(err, errlen,
			    "field 'op': '%s' is not usable as a file name (letters, digits, '.', '_', '-')",
			    p->op);
	if (!p->baseline || !*p->baseline)
		return fail(err, errlen, "field 'baseline': missing or empty");
	if (!p->kernel_name || !*p->kernel_name)
		return fail(err, errlen, "field 'kernel_name': missing or empty");
	if (p->contract != 1 && p->contract != 2)
		return fail(err, errlen, "field 'contract': must be \"v1\" or \"v2\"");
	return 0;
}

/* The workloads: at least one, ids and dispatch paths not empty, targets
 * > 0, ids unique also as directory names. Returns 0 or -1 (err). */
static int check_workloads(const struct loop_plan *p, char *err, size_t errlen)
{
	char a[256], b[256];
	if (p->nworkloads == 0)
		return fail(err, errlen, "field 'workloads': at least one workload is needed");
	for (size_t i = 0; i < p->nworkloads; i++) {
		const struct loop_workload *w = &p->workloads[i];
		if (!*w->id)
			return fail(err, errlen, "field 'workloads[%zu].id': empty", i);
		if (!*w->dispatch)
			return fail(err, errlen, "field 'workloads[%zu].dispatch': empty", i);
		if (!isnan(w->target_us) && !(w->target_us > 0 && isfinite(w->target_us)))
			return fail(err, errlen, "field 'workloads[%zu].target_us': must be > 0", i);
		loop_path_name(w->id, a, sizeof(a));
		for (size_t j = 0; j < i; j++) {
			if (strcmp(p->workloads[j].id, w->id) == 0)
				return fail(err, errlen,
					    "field 'workloads[%zu].id': workload '%s' is listed twice", i,
					    w->id);
			if (strcmp(loop_path_name(p->workloads[j].id, b, sizeof(b)), a) == 0)
				return fail(err, errlen,
					    "field 'workloads[%zu].id': '%s' and '%s' map to the same "
					    "directory name '%s'",
					    i, p->workloads[j].id, w->id, a);
		}
	}
	return 0;
}

/* bench_cmd and l0_cmd with the placeholders each needs and may use.
 * Returns 0 or -1 (err). */
static int check_templates(const struct loop_plan *p, char *err, size_t errlen)
{
	int found;
	if (check_template("bench_cmd", p->bench_cmd, &found, err, errlen))
		return -1;
	if (p->nworkloads > 1 && !(found & 2))
		return fail(err, errlen,
			    "field 'bench_cmd': missing placeholder {workload} (the plan has %zu "
			    "workloads)",
			    p->nworkloads);
	if (check_template("l0_cmd", p->l0_cmd, &found, err, errlen))
		return -1;
	if (found & 6)
		return fail(err, errlen,
			    "field 'l0_cmd': {workload} and {dispatch} are not available (L0 runs "
			    "once per branch)");
	return 0;
}

/* noise, ab_threshold (fractions in (0, 1)) and small_us (>= 0). Returns
 * 0 or -1 (err). */
static int check_fractions(const struct loop_plan *p, char *err, size_t errlen)
{
	if (!(p->noise > 0 && p->noise < 1))
		return fail(err, errlen, "field 'noise': must be a fraction in (0, 1), got %g",
			    p->noise);
	if (!(p->ab_threshold > 0 && p->ab_threshold < 1))
		return fail(err, errlen, "field 'ab_threshold': must be a fraction in (0, 1), got %g",
			    p->ab_threshold);
	if (!(p->small_us >= 0 && isfinite(p->small_us)))
		return fail(err, errlen, "field 'small_us': must be >= 0");
	return 0;
}

/* The rounds, experiments, launch and warm-up counts of msprof and tlab.
 * Returns 0 or -1 (err). */
static int check_counts(const struct loop_plan *p, char *err, size_t errlen)
{
	if (p->max_rounds < 1)
		return fail(err, errlen, "field 'max_rounds': must be >= 1");
	if (p->max_experiments < 1)
		return fail(err, errlen, "field 'max_experiments': must be >= 1");
	if (p->launch_count < 1)
		return fail(err, errlen, "field 'launch_count': must be >= 1");
	if (p->warm_up < 0)
		return fail(err, errlen, "field 'warm_up': must be >= 0");
	if (p->tlab_pairs < 3)
		return fail(err, errlen, "field 'tlab.pairs': must be >= 3");
	if (p->tlab_launch_count < 1)
		return fail(err, errlen, "field 'tlab.launch_count': must be >= 1");
	if (p->tlab_warm_up < 0)
		return fail(err, errlen, "field 'tlab.warm_up': must be >= 0");
	return 0;
}

int loop_plan_check(const struct loop_plan *p, char *err, size_t errlen)
{
	if (check_names(p, err, errlen) || check_workloads(p, err, errlen) ||
	    check_templates(p, err, errlen) || check_fractions(p, err, errlen) ||
	    check_counts(p, err, errlen))
		return -1;
	if (!p->msprof || !*p->msprof)
		return fail(err, errlen, "field 'msprof': missing or empty");
	if (p->timeout_s < 1)
		return fail(err, errlen, "field 'timeout_s': must be >= 1");
	return 0;
}

/* ---- JSON in ---- */

static int want_string(const cJSON *o, const char *key, const char *field, int required,
		       char **out, char *err, size_t errlen)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
	if (!it) {
		if (required)
			return fail(err, errlen, "field '%s': missing", field);
		return 0;
	}
	if (!cJSON_IsString(it))
		return fail(err, errlen, "field '%s': must be a string", field);
	free(*out);
	*out = strdup(it->valuestring);
	if (!*out)
		return fail(err, errlen, "out of memory");
	return 0;
}

static int want_number(const cJSON *o, const char *key, const char *field, double *out,
		       char *err, size_t errlen)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
	if (!it)
		return 0; /* default stays */
	if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble))
		return fail(err, errlen, "field '%s': must be a number", field);
	*out = it->valuedouble;
	return 0;
}

static int want_long(const cJSON *o, const char *key, const char *field, long *out,
		     char *err, size_t errlen)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
	if (!it)
		return 0;
	if (!cJSON_IsNumber(it) || it->valuedouble != floor(it->valuedouble) ||
	    fabs(it->valuedouble) > 1e9)
		return fail(err, errlen, "field '%s': must be an integer", field);
	*out = (long)it->valuedouble;
	return 0;
}

static int only_keys(const cJSON *o, const char *where, const char *const *keys, char *err,
		     size_t errlen)
{
	for (const cJSON *it = o->child; it; it = it->next) {
		int known = 0;
		for (size_t i = 0; keys[i]; i++)
			if (it->string && strcmp(it->string, keys[i]) == 0)
				known = 1;
		if (!known)
			return fail(err, errlen, "field '%s%s': unknown field", where,
				    it->string ? it->string : "?");
		for (const cJSON *dup = it->next; dup; dup = dup->next)
			if (it->string && dup->string && strcmp(it->string, dup->string) == 0)
				return fail(err, errlen, "field '%s%s': given twice", where,
					    it->string);
	}
	return 0;
}

static const char *const top_keys[] = {
	"tlperf_loop", "op", "baseline", "kernel_name", "contract", "workloads", "bench_cmd",
	"l0_cmd", "noise", "max_rounds", "max_experiments", "small_us", "ab_threshold",
	"launch_count", "warm_up", "tlab", "msprof", "timeout_s", NULL
};
static const char *const wl_keys[] = { "id", "dispatch", "required", "target_us", NULL };
static const char *const tlab_keys[] = { "protocol", "pairs", "launch_count", "warm_up", NULL };

/* "contract": "v1" or "v2" (absent: the default set by loop_plan_init). */
static int parse_contract(const cJSON *o, struct loop_plan *p, char *err, size_t errlen)
{
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(o, "contract");
	if (!c)
		return 0;
	if (cJSON_IsString(c) && strcmp(c->valuestring, "v1") == 0)
		p->contract = 1;
	else if (cJSON_IsString(c) && strcmp(c->valuestring, "v2") == 0)
		p->contract = 2;
	else
		return fail(err, errlen, "field 'contract': must be \"v1\" or \"v2\"");
	return 0;
}

/* The top-level strings and numbers. */
static int parse_scalars(const cJSON *o, struct loop_plan *p, char *err, size_t errlen)
{
	if (want_string(o, "op", "op", 1, &p->op, err, errlen) ||
	    want_string(o, "baseline", "baseline", 1, &p->baseline, err, errlen) ||
	    want_string(o, "kernel_name", "kernel_name", 1, &p->kernel_name, err, errlen) ||
	    want_string(o, "bench_cmd", "bench_cmd", 1, &p->bench_cmd, err, errlen) ||
	    want_string(o, "l0_cmd", "l0_cmd", 1, &p->l0_cmd, err, errlen) ||
	    want_string(o, "msprof", "msprof", 0, &p->msprof, err, errlen) ||
	    parse_contract(o, p, err, errlen))
		return -1;
	if (want_number(o, "noise", "noise", &p->noise, err, errlen) ||
	    want_long(o, "max_rounds", "max_rounds", &p->max_rounds, err, errlen) ||
	    want_long(o, "max_experiments", "max_experiments", &p->max_experiments, err, errlen) ||
	    want_number(o, "small_us", "small_us", &p->small_us, err, errlen) ||
	    want_number(o, "ab_threshold", "ab_threshold", &p->ab_threshold, err, errlen) ||
	    want_long(o, "launch_count", "launch_count", &p->launch_count, err, errlen) ||
	    want_long(o, "warm_up", "warm_up", &p->warm_up, err, errlen) ||
	    want_long(o, "timeout_s", "timeout_s", &p->timeout_s, err, errlen))
		return -1;
	return 0;
}

/* The optional "tlab" object: protocol, pairs, launch_count, warm_up. */
static int parse_tlab(const cJSON *o, struct loop_plan *p, char *err, size_t errlen)
{
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "tlab");
	if (!t)
		return 0;
	if (!cJSON_IsObject(t))
		return fail(err, errlen, "field 'tlab': must be an object");
	if (only_keys(t, "tlab.", tlab_keys, err, errlen) ||
	    want_long(t, "pairs", "tlab.pairs", &p->tlab_pairs, err, errlen) ||
	    want_long(t, "launch_count", "tlab.launch_count", &p->tlab_launch_count, err,
		      errlen) ||
	    want_long(t, "warm_up", "tlab.warm_up", &p->tlab_warm_up, err, errlen))
		return -1;
	char *proto = NULL;
	if (want_string(t, "protocol", "tlab.protocol", 0, &proto, err, errlen))
		return -1;
	if (!proto)
		return 0;
	int proto_id = loop_ab_protocol_parse(proto);
	free(proto);
	if (proto_id < 0)
		return fail(err, errlen,
			    "field 'tlab.protocol': must be \"fast\", \"seq\" or \"ref\"");
	p->tlab_protocol = proto_id;
	return 0;
}

/* "required" (default true) and "target_us" (number or null) of workload i. */
static int parse_workload_opts(const cJSON *w, size_t i, int *required, double *target,
			       char *err, size_t errlen)
{
	const cJSON *r = cJSON_GetObjectItemCaseSensitive(w, "required");
	if (r && !cJSON_IsBool(r))
		return fail(err, errlen, "field 'workloads[%zu].required': must be true or false", i);
	*required = r ? cJSON_IsTrue(r) : 1;
	*target = NAN;
	const cJSON *tu = cJSON_GetObjectItemCaseSensitive(w, "target_us");
	if (!tu || cJSON_IsNull(tu))
		return 0;
	if (!cJSON_IsNumber(tu) || !isfinite(tu->valuedouble))
		return fail(err, errlen, "field 'workloads[%zu].target_us': must be a number or null",
			    i);
	*target = tu->valuedouble;
	return 0;
}

/* Workload i of the "workloads" array, added to p. */
static int parse_workload(const cJSON *w, size_t i, struct loop_plan *p, char *err,
			  size_t errlen)
{
	char field[64];
	char *id = NULL, *disp = NULL;
	int required = 1, rc = -1;
	double target = NAN;
	if (!cJSON_IsObject(w))
		return fail(err, errlen, "field 'workloads[%zu]': must be an object", i);
	snprintf(field, sizeof(field), "workloads[%zu].", i);
	if (only_keys(w, field, wl_keys, err, errlen))
		return -1;
	snprintf(field, sizeof(field), "workloads[%zu].id", i);
	if (want_string(w, "id", field, 1, &id, err, errlen))
		goto out;
	snprintf(field, sizeof(field), "workloads[%zu].dispatch", i);
	if (want_string(w, "dispatch", field, 1, &disp, err, errlen) ||
	    parse_workload_opts(w, i, &required, &target, err, errlen))
		goto out;
	rc = loop_plan_add_workload(p, id, disp, required, target);
	if (rc)
		rc = fail(err, errlen, "out of memory");
out:
	free(id);
	free(disp);
	return rc;
}

static int parse_workloads(const cJSON *o, struct loop_plan *p, char *err, size_t errlen)
{
	const cJSON *ws = cJSON_GetObjectItemCaseSensitive(o, "workloads");
	if (!ws)
		return fail(err, errlen, "field 'workloads': missing");
	if (!cJSON_IsArray(ws))
		return fail(err, errlen, "field 'workloads': must be an array");
	size_t i = 0;
	for (const cJSON *w = ws->child; w; w = w->next, i++)
		if (parse_workload(w, i, p, err, errlen))
			return -1;
	return 0;
}

static int parse_obj(const cJSON *o, struct loop_plan *p, char *err, size_t errlen)
{
	if (!cJSON_IsObject(o))
		return fail(err, errlen, "the plan must be a JSON object");
	if (only_keys(o, "", top_keys, err, errlen))
		return -1;
	const cJSON *ver = cJSON_GetObjectItemCaseSensitive(o, "tlperf_loop");
	if (ver && (!cJSON_IsNumber(ver) || ver->valuedouble != 1))
		return fail(err, errlen, "field 'tlperf_loop': this tlperf reads plan version 1");
	if (parse_scalars(o, p, err, errlen) || parse_tlab(o, p, err, errlen) ||
	    parse_workloads(o, p, err, errlen))
		return -1;
	if (!p->msprof && !(p->msprof = strdup("msprof")))
		return fail(err, errlen, "out of memory");
	return loop_plan_check(p, err, errlen);
}

int loop_plan_parse(const char *text, size_t len, struct loop_plan *p, char *err,
		    size_t errlen)
{
	loop_plan_init(p);
	cJSON *o = cJSON_ParseWithLength(text, len);
	if (!o) {
		const char *at = cJSON_GetErrorPtr();
		long line = 1;
		if (at && at >= text && at <= text + len)
			for (const char *s = text; s < at; s++)
				line += *s == '\n';
		return fail(err, errlen, "not valid JSON (near line %ld)", line);
	}
	int rc = parse_obj(o, p, err, errlen);
	cJSON_Delete(o);
	if (rc)
		loop_plan_release(p);
	return rc;
}

int loop_plan_load(const char *path, struct loop_plan *p, char *err, size_t errlen)
{
	loop_plan_init(p);
	FILE *f = fopen(path, "rb");
	if (!f)
		return fail(err, errlen, "cannot open '%s': %s", path, strerror(errno));
	char *buf = malloc(PLAN_MAX_BYTES + 1);
	if (!buf) {
		fclose(f);
		return fail(err, errlen, "out of memory");
	}
	size_t n = fread(buf, 1, PLAN_MAX_BYTES + 1, f);
	int rerr = ferror(f);
	fclose(f);
	if (rerr) {
		free(buf);
		return fail(err, errlen, "cannot read '%s'", path);
	}
	if (n > PLAN_MAX_BYTES) {
		free(buf);
		return fail(err, errlen, "'%s' is larger than 4 MiB", path);
	}
	char inner[512];
	int rc = loop_plan_parse(buf, n, p, inner, sizeof(inner));
	free(buf);
	if (rc)
		return fail(err, errlen, "%s: %s", path, inner);
	return 0;
}

/* ---- JSON out ---- */

char *loop_plan_to_json(const struct loop_plan *p)
{
	cJSON *o = cJSON_CreateObject(), *ws, *t;
	char *s = NULL;
	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "tlperf_loop", 1);
	cJSON_AddStringToObject(o, "op", p->op ? p->op : "");
	cJSON_AddStringToObject(o, "baseline", p->baseline ? p->baseline : "");
	cJSON_AddStringToObject(o, "kernel_name", p->kernel_name ? p->kernel_name : "");
	cJSON_AddStringToObject(o, "contract", p->contract == 2 ? "v2" : "v1");
	ws = cJSON_AddArrayToObject(o, "workloads");
	for (size_t i = 0; ws && i < p->nworkloads; i++) {
		cJSON *w = cJSON_CreateObject();
		if (!w)
			goto out;
		cJSON_AddItemToArray(ws, w);
		cJSON_AddStringToObject(w, "id", p->workloads[i].id);
		cJSON_AddStringToObject(w, "dispatch", p->workloads[i].dispatch);
		cJSON_AddBoolToObject(w, "required", p->workloads[i].required);
		if (isnan(p->workloads[i].target_us))
			cJSON_AddNullToObject(w, "target_us");
		else
			cJSON_AddNumberToObject(w, "target_us", p->workloads[i].target_us);
	}
	cJSON_AddStringToObject(o, "bench_cmd", p->bench_cmd ? p->bench_cmd : "");
	cJSON_AddStringToObject(o, "l0_cmd", p->l0_cmd ? p->l0_cmd : "");
	cJSON_AddNumberToObject(o, "noise", p->noise);
	cJSON_AddNumberToObject(o, "max_rounds", (double)p->max_rounds);
	cJSON_AddNumberToObject(o, "max_experiments", (double)p->max_experiments);
	cJSON_AddNumberToObject(o, "small_us", p->small_us);
	cJSON_AddNumberToObject(o, "ab_threshold", p->ab_threshold);
	cJSON_AddNumberToObject(o, "launch_count", (double)p->launch_count);
	cJSON_AddNumberToObject(o, "warm_up", (double)p->warm_up);
	t = cJSON_AddObjectToObject(o, "tlab");
	if (t) {
		cJSON_AddStringToObject(t, "protocol", loop_ab_protocol_name(p->tlab_protocol));
		cJSON_AddNumberToObject(t, "pairs", (double)p->tlab_pairs);
		cJSON_AddNumberToObject(t, "launch_count", (double)p->tlab_launch_count);
		cJSON_AddNumberToObject(t, "warm_up", (double)p->tlab_warm_up);
	}
	cJSON_AddStringToObject(o, "msprof", p->msprof ? p->msprof : "msprof");
	cJSON_AddNumberToObject(o, "timeout_s", (double)p->timeout_s);
	char *raw = cJSON_Print(o);
	if (raw) {
		size_t n = strlen(raw);
		s = malloc(n + 2);
		if (s) {
			memcpy(s, raw, n);
			s[n] = '\n';
			s[n + 1] = '\0';
		}
		cJSON_free(raw);
	}
out:
	cJSON_Delete(o);
	return s;
}

/* ---- templates ---- */

char *loop_plan_expand(const char *tmpl, const char *impl, const char *workload,
		       const char *dispatch, char *err, size_t errlen)
{
	struct strbuf b = { 0 };
	for (const char *s = tmpl; *s; s++) {
		if (s[0] == '{' && s[1] == '{') {
			strbuf_add(&b, "{", 1);
			s++;
			continue;
		}
		const char *v = NULL;
		size_t n = 0;
		int is_ph = 0;
		if (*s == '{' && !(s > tmpl && s[-1] == '$')) {
			if (strncmp(s, "{impl}", 6) == 0) {
				v = impl, n = 6, is_ph = 1;
			} else if (strncmp(s, "{workload}", 10) == 0) {
				v = workload, n = 10, is_ph = 1;
			} else if (strncmp(s, "{dispatch}", 10) == 0) {
				v = dispatch, n = 10, is_ph = 1;
			}
		}
		if (!is_ph) {
			strbuf_add(&b, s, 1);
			continue;
		}
		if (!v) {
			free(b.s);
			fail(err, errlen, "placeholder '%.*s' has no value here", (int)n, s);
			return NULL;
		}
		/* one shell word, nothing expanded */
		strbuf_shell_quoted(&b, v);
		s += n - 1;
	}
	char *text = strbuf_take(&b);
	if (!text)
		fail(err, errlen, "out of memory");
	return text;
}
