/* fuzz_plan.c: the loop plan reader (perf_opt/loop.json: loop_plan_parse,
 * loop_plan_to_json, loop_plan_expand, loop_path_name).
 *
 * Invariants: a plan that parses passes loop_plan_check and survives a
 * round trip through loop_plan_to_json unchanged; a failure always says
 * why; {impl} expands to exactly one shell word that a POSIX shell reads
 * back as the original value (no injection); loop_path_name only emits
 * [A-Za-z0-9._-].
 */
#include "io/loopplan.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(c)                                                                       \
	do {                                                                           \
		if (!(c)) {                                                            \
			fprintf(stderr, "fuzz_plan: invariant failed: %s (%s:%d)\n", #c, \
				__FILE__, __LINE__);                                   \
			abort();                                                       \
		}                                                                      \
	} while (0)

static int same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static int same_num(double a, double b)
{
	/* cJSON prints doubles with 15-17 significant digits: a value can come
	 * back one ulp off, which is not a plan-reader bug */
	return (isnan(a) && isnan(b)) || a == b || fabs(a - b) <= 1e-15 * fmax(fabs(a), fabs(b));
}

static void round_trip(const struct loop_plan *p)
{
	char err[512];
	char *json = loop_plan_to_json(p);
	if (!json)
		return; /* allocation failure */
	struct loop_plan q;
	int rc = loop_plan_parse(json, strlen(json), &q, err, sizeof(err));
	if (rc != 0)
		fprintf(stderr, "fuzz_plan: re-parse failed: %s\n%s\n", err, json);
	CHECK(rc == 0);
	CHECK(same_str(p->op, q.op) && same_str(p->baseline, q.baseline) &&
	      same_str(p->kernel_name, q.kernel_name) && p->contract == q.contract);
	CHECK(same_str(p->bench_cmd, q.bench_cmd) && same_str(p->l0_cmd, q.l0_cmd) &&
	      same_str(p->msprof, q.msprof));
	CHECK(same_num(p->noise, q.noise) && same_num(p->small_us, q.small_us) &&
	      same_num(p->ab_threshold, q.ab_threshold));
	CHECK(p->max_rounds == q.max_rounds && p->max_experiments == q.max_experiments &&
	      p->launch_count == q.launch_count && p->warm_up == q.warm_up &&
	      p->tlab_pairs == q.tlab_pairs && p->tlab_launch_count == q.tlab_launch_count &&
	      p->tlab_warm_up == q.tlab_warm_up && p->timeout_s == q.timeout_s &&
	      p->tlab_protocol == q.tlab_protocol);
	CHECK(p->nworkloads == q.nworkloads);
	for (size_t i = 0; i < p->nworkloads; i++) {
		CHECK(same_str(p->workloads[i].id, q.workloads[i].id));
		CHECK(same_str(p->workloads[i].dispatch, q.workloads[i].dispatch));
		CHECK(p->workloads[i].required == q.workloads[i].required);
		CHECK(same_num(p->workloads[i].target_us, q.workloads[i].target_us));
	}
	loop_plan_release(&q);
	free(json);
}

/* Reads one POSIX shell word made of '...' runs and \' escapes, the
 * form loop_plan_expand promises. Returns malloc'd text, NULL when w is
 * not exactly one such word. */
static char *sh_unquote(const char *w)
{
	size_t n = strlen(w);
	char *out = malloc(n + 1), *o = out;
	if (!out)
		return NULL;
	const char *s = w;
	if (!*s)
		goto bad;
	while (*s) {
		if (*s == '\'') {
			s++;
			while (*s && *s != '\'')
				*o++ = *s++;
			if (*s != '\'')
				goto bad;
			s++;
		} else if (s[0] == '\\' && s[1] != '\0') {
			*o++ = s[1];
			s += 2;
		} else {
			goto bad; /* an unquoted byte: the shell would interpret it */
		}
	}
	*o = '\0';
	return out;
bad:
	free(out);
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	struct loop_plan p;
	memset(err, 0, sizeof(err));
	if (loop_plan_parse((const char *)data, size, &p, err, sizeof(err)) == 0) {
		char e2[512];
		CHECK(loop_plan_check(&p, e2, sizeof(e2)) == 0);
		round_trip(&p);
		loop_plan_release(&p);
	} else {
		CHECK(err[0] != '\0' && memchr(err, '\0', sizeof(err)));
	}

	/* The input as a value given to a template. */
	char *v = malloc(size + 1);
	if (!v)
		return 0;
	memcpy(v, data, size);
	v[size] = '\0';
	char *x = loop_plan_expand("{impl}", v, "w", "d", err, sizeof(err));
	if (x) {
		char *back = sh_unquote(x);
		if (!back || strcmp(back, v) != 0)
			fprintf(stderr, "fuzz_plan: '{impl}' with [%s] expanded to [%s]\n", v, x);
		CHECK(back && strcmp(back, v) == 0);
		free(back);
		free(x);
	}
	/* ... and as a template. */
	x = loop_plan_expand(v, "k.py", "w1", "k::main", err, sizeof(err));
	free(x);
	char name[64];
	loop_path_name(v, name, sizeof(name));
	for (const char *s = name; *s; s++)
		CHECK(strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *s));
	free(v);
	return 0;
}
