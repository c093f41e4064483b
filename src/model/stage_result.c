/* stage_result.c: the Stage Result model (model/stage_result.h). */
#include "model/stage_result.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *const stage_result_fields[SR_NFIELDS] = {
	"stage", "project", "operator", "output", "log", "summary_doc", "verdict",
	"design_limit_signal", "perf_feedback", "iterations", "primary_metric",
	"baseline_latency", "final_latency", "improvement", "stop_reason",
	"skill_retrospective", "value_point_proposals", "skills_consulted", "summary",
	"issues",
};

enum sr_field stage_result_field(const char *key)
{
	for (int i = 0; i < SR_NFIELDS; i++)
		if (strcmp(stage_result_fields[i], key) == 0)
			return (enum sr_field)i;
	return SR_UNKNOWN;
}

int stage_result_per_workload(enum sr_field f)
{
	return f == SR_BASELINE_LATENCY || f == SR_FINAL_LATENCY || f == SR_IMPROVEMENT;
}

const char *stage_result_literal(enum sr_field f)
{
	switch (f) {
	case SR_STAGE: return "4";
	case SR_VERDICT: return "TUNING_COMPLETED";
	case SR_PRIMARY_METRIC: return "msprof_task_duration";
	default: return NULL;
	}
}

void stage_result_init(struct stage_result *sr)
{
	memset(sr, 0, sizeof(*sr));
}

void stage_result_release(struct stage_result *sr)
{
	for (size_t i = 0; i < sr->n; i++) {
		free(sr->v[i].key);
		free(sr->v[i].workload);
		free(sr->v[i].value);
		free(sr->v[i].raw);
	}
	free(sr->v);
	for (size_t i = 0; i < sr->nprobs; i++)
		free(sr->probs[i].message);
	free(sr->probs);
	stage_result_init(sr);
}

/* Units after a number: spelling, whether case is ignored, the unit, and
 * the factor (mul / div) that turns a time into microseconds. */
static const struct {
	const char *text;
	int ci;
	enum sr_unit unit;
	double mul, div;
} UNITS[] = {
	{ "us", 1, SR_UNIT_US, 1.0, 1.0 },
	{ "\xc2\xb5s", 0, SR_UNIT_US, 1.0, 1.0 }, /* µs */
	{ "\xce\xbcs", 0, SR_UNIT_US, 1.0, 1.0 }, /* μs */
	{ "ms", 1, SR_UNIT_MS, 1000.0, 1.0 },
	{ "ns", 1, SR_UNIT_NS, 1.0, 1000.0 },
	{ "%", 0, SR_UNIT_PCT, 1.0, 1.0 },
	{ "\xef\xbc\x85", 0, SR_UNIT_PCT, 1.0, 1.0 }, /* ％ */
	{ "x", 1, SR_UNIT_X, 1.0, 1.0 },
};

/* The unit word p[0..wl) (none when wl is 0); a time unit scales
 * e->number to microseconds. */
static enum sr_unit unit_word(const char *p, size_t wl, struct sr_entry *e)
{
	if (wl == 0)
		return SR_UNIT_NONE;
	for (size_t i = 0; i < sizeof(UNITS) / sizeof(UNITS[0]); i++) {
		if (strlen(UNITS[i].text) != wl)
			continue;
		if (UNITS[i].ci ? strncasecmp(p, UNITS[i].text, wl) != 0 : strncmp(p, UNITS[i].text, wl) != 0)
			continue;
		e->number = e->number * UNITS[i].mul / UNITS[i].div;
		return UNITS[i].unit;
	}
	return SR_UNIT_OTHER;
}

/* The number at s (sign, digits, one point): e->decimals counts the
 * digits after the point. Returns its end with the value in *v, or NULL
 * when there is no finite number there. */
static const char *leading_number(const char *s, struct sr_entry *e, double *v)
{
	const char *p = s;
	if (*p == '+' || *p == '-')
		p++;
	if (!(*p >= '0' && *p <= '9') && !(*p == '.' && p[1] >= '0' && p[1] <= '9'))
		return NULL;
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p == '.') {
		p++;
		while (p[e->decimals] >= '0' && p[e->decimals] <= '9')
			e->decimals++;
		p += e->decimals;
	}
	char buf[64];
	size_t n = (size_t)(p - s);
	if (n >= sizeof(buf))
		return NULL;
	memcpy(buf, s, n);
	buf[n] = '\0';
	char *end;
	*v = strtod(buf, &end);
	if (*end || !isfinite(*v))
		return NULL;
	return p;
}

/* Scales e->number (read without a unit) as a figure in unit u. */
static void unit_scale(struct sr_entry *e, enum sr_unit u)
{
	for (size_t i = 0; i < sizeof(UNITS) / sizeof(UNITS[0]); i++)
		if (UNITS[i].unit == u) {
			e->number = e->number * UNITS[i].mul / UNITS[i].div;
			return;
		}
}

static const char *skip_marks(const char *s)
{
	while (*s == '*' || *s == '`' || *s == '~' || *s == ' ')
		s++;
	if (strncmp(s, "\xe2\x89\x88", 3) == 0) /* ≈ */
		s += 3;
	return s;
}

/* The number at s (marks skipped) and the unit word after it into e;
 * returns the end of the unit word, NULL when s holds no number. */
static const char *figure(const char *s, struct sr_entry *e)
{
	double v;
	e->decimals = 0;
	const char *p = leading_number(skip_marks(s), e, &v);
	if (!p)
		return NULL;
	while (*p == ' ' || *p == '*' || *p == '`')
		p++;
	size_t wl = 0;
	while (p[wl] && p[wl] != ' ' && p[wl] != '*' && p[wl] != '`' && p[wl] != '(' && p[wl] != ')' &&
	       p[wl] != ',' && p[wl] != ';' && strncmp(p + wl, "\xef\xbc\x89", 3) != 0) /* ） */
		wl++;
	e->number = v;
	e->unit = unit_word(p, wl, e);
	return p + (e->unit == SR_UNIT_NONE ? 0 : wl);
}

/* After a figure: an arrow to the final one (`B → F`, ->, =>, 降至, to) or
 * a correction (`corrected: F`, 更正为 F); where F starts, or NULL. */
static const char *next_claimed(const char *p)
{
	static const char *const w[] = { "\xe2\x86\x92", "->", "=>", "\xe2\x9f\xb6", "\xe2\x87\x92",
					 "\xe9\x99\x8d\xe8\x87\xb3", "to ", "(corrected:", "corrected:",
					 "corrected to", "(\xe6\x9b\xb4\xe6\xad\xa3\xe4\xb8\xba",
					 "\xe6\x9b\xb4\xe6\xad\xa3\xe4\xb8\xba", NULL };
	p = skip_marks(p);
	for (int i = 0; w[i]; i++)
		if (strncasecmp(p, w[i], strlen(w[i])) == 0)
			return p + strlen(w[i]);
	return NULL;
}

/* The number of the value as a reader reads it (after '~', '≈', '**',
 * '`'), its decimals and unit: the figure after an arrow or a correction
 * when there is one (`9.1 us → 7.0 us` claims 7.0 us, in the first
 * figure's unit when it names none); e->extra when another digit follows. */
static void parse_value(struct sr_entry *e)
{
	e->number = NAN;
	e->decimals = 0;
	e->unit = SR_UNIT_NONE;
	const char *p = figure(e->value, e);
	for (int k = 0; p && k < 8; k++) {
		const char *q = next_claimed(p);
		struct sr_entry f = *e;
		const char *r = q ? figure(q, &f) : NULL;
		if (!r)
			break;
		if (f.unit == SR_UNIT_NONE && e->unit != SR_UNIT_NONE) {
			/* `9.1 → 7.0 us` and `9.1 us → 7.0`: one unit for both */
			f.unit = e->unit;
			unit_scale(&f, e->unit);
		}
		*e = f;
		p = r;
	}
	for (; p && *p; p++)
		if (*p >= '0' && *p <= '9')
			e->extra = 1;
}

struct sr_entry *stage_result_add(struct stage_result *sr, long line, enum sr_field f,
				  const char *key, const char *workload, const char *value,
				  const char *raw)
{
	if (sr->n == sr->cap) {
		size_t c = sr->cap ? sr->cap * 2 : 32;
		struct sr_entry *v = realloc(sr->v, c * sizeof(*v));
		if (!v)
			return NULL;
		sr->v = v;
		sr->cap = c;
	}
	struct sr_entry *e = &sr->v[sr->n];
	memset(e, 0, sizeof(*e));
	e->line = line;
	e->field = f;
	e->key = strdup(key);
	e->workload = workload ? strdup(workload) : NULL;
	e->value = strdup(value);
	if (raw) {
		e->raw = strdup(raw);
	} else if (e->key && e->value) {
		size_t n = strlen(key) + strlen(value) + (workload ? strlen(workload) + 2 : 0) + 8;
		e->raw = malloc(n);
		if (e->raw)
			snprintf(e->raw, n, "- %s%s%s: %s", workload ? workload : "",
				 workload ? ": " : "", key, value);
	}
	if (!e->key || !e->value || !e->raw || (workload && !e->workload)) {
		free(e->key);
		free(e->workload);
		free(e->value);
		free(e->raw);
		return NULL;
	}
	parse_value(e);
	sr->n++;
	return e;
}

int stage_result_problem(struct stage_result *sr, long line, int error, const char *fmt, ...)
{
	if (sr->nprobs == sr->capprobs) {
		size_t c = sr->capprobs ? sr->capprobs * 2 : 16;
		struct sr_problem *v = realloc(sr->probs, c * sizeof(*v));
		if (!v)
			return -1;
		sr->probs = v;
		sr->capprobs = c;
	}
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	struct sr_problem *p = &sr->probs[sr->nprobs];
	p->line = line;
	p->error = error;
	p->message = strdup(buf);
	if (!p->message)
		return -1;
	sr->nprobs++;
	return 0;
}

const struct sr_entry *stage_result_get(const struct stage_result *sr, enum sr_field f,
					const char *w, int any_label)
{
	for (size_t i = 0; i < sr->n; i++) {
		const struct sr_entry *e = &sr->v[i];
		if (e->field != f)
			continue;
		if (w ? (e->workload && strcmp(e->workload, w) == 0) : (any_label || !e->workload))
			return e;
	}
	return NULL;
}

size_t stage_result_count(const struct stage_result *sr, enum sr_field f)
{
	size_t n = 0;
	for (size_t i = 0; i < sr->n; i++)
		n += sr->v[i].field == f;
	return n;
}

int stage_result_is_none(const char *v)
{
	while (*v == ' ' || *v == '`' || *v == '*')
		v++;
	size_t n = strlen(v);
	while (n && (v[n - 1] == ' ' || v[n - 1] == '`' || v[n - 1] == '*' || v[n - 1] == '.'))
		n--;
	if (n == 0)
		return 1;
	static const char *const words[] = { "none", "n/a", "na", "-", "null", "\xe6\x97\xa0" };
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strlen(words[i]) == n && strncasecmp(v, words[i], n) == 0)
			return 1;
	return 0;
}
