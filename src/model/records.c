/* model/records.c: the records model: sets, problems, the pure checks
 * every reader and rule shares (model/records.h). No I/O. */
#include "model/records.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int record_valid(const struct record *r)
{
	return r->l0_pass && r->duration_us > 0.0 && isfinite(r->duration_us);
}

static int same_text(const char *a, const char *b)
{
	return a == b || strcmp(a, b) == 0;
}

int record_same_key(const struct record *a, const struct record *b)
{
	return same_text(a->dispatch, b->dispatch) && same_text(a->workload, b->workload);
}

int record_is_final(const struct record *r)
{
	return r->phase && r->phase[0] == 'f' && strcmp(r->phase, "final") == 0;
}

void records_init(struct records *rs)
{
	memset(rs, 0, sizeof(*rs));
	strpool_init(&rs->pool);
}

void records_release(struct records *rs)
{
	free(rs->v);
	strpool_release(&rs->pool);
	records_init(rs);
}

static struct record *slot(struct records *rs)
{
	if (rs->n == rs->cap) {
		size_t cap = rs->cap ? rs->cap * 2 : 64;
		struct record *v = realloc(rs->v, cap * sizeof(*v));
		if (!v)
			return NULL;
		rs->v = v;
		rs->cap = cap;
	}
	return &rs->v[rs->n];
}

/* *dst = a pool copy of s (interned when intern); 0, or -1 out of memory. */
static int keep(struct strpool *p, const char **dst, const char *s, int intern)
{
	if (!s) {
		*dst = NULL;
		return 0;
	}
	*dst = intern ? strpool_intern(p, s, strlen(s)) : strpool_dup(p, s, strlen(s));
	return *dst ? 0 : -1;
}

static int push(struct records *rs, const struct record *r, int ids)
{
	struct record *d = slot(rs);
	struct strpool *p = &rs->pool;
	if (!d)
		return -1;
	*d = *r;
	if (ids && (keep(p, &d->candidate_id, r->candidate_id, 1) || keep(p, &d->parent_id, r->parent_id, 1) ||
		    keep(p, &d->dispatch, r->dispatch, 1) || keep(p, &d->workload, r->workload, 1) ||
		    keep(p, &d->phase, r->phase, 1)))
		return -1;
	if (keep(p, &d->artifact_path, r->artifact_path, 0) ||
	    keep(p, &d->artifact_sha256, r->artifact_sha256, 0) ||
	    keep(p, &d->msprof_raw_path, r->msprof_raw_path, 0) || keep(p, &d->timestamp, r->timestamp, 0))
		return -1;
	rs->n++;
	return 0;
}

int records_push(struct records *rs, const struct record *r)
{
	return push(rs, r, 1);
}

int records_push_interned(struct records *rs, const struct record *r)
{
	return push(rs, r, 0);
}

void records_problems_init(struct records_problems *ps)
{
	memset(ps, 0, sizeof(*ps));
}

void records_problems_release(struct records_problems *ps)
{
	for (size_t i = 0; i < ps->n; i++)
		free(ps->v[i].message);
	free(ps->v);
	memset(ps, 0, sizeof(*ps));
}

int records_problems_add(struct records_problems *ps, long line, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (ps->n == ps->cap) {
		size_t cap = ps->cap ? ps->cap * 2 : 8;
		struct records_problem *v = realloc(ps->v, cap * sizeof(*v));
		if (!v)
			return -1;
		ps->v = v;
		ps->cap = cap;
	}
	ps->v[ps->n].line = line;
	ps->v[ps->n].message = strdup(buf);
	if (!ps->v[ps->n].message)
		return -1;
	ps->n++;
	return 0;
}

static int digits(const char *s, int n)
{
	for (int i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return 0;
	return 1;
}
/* The two digits at s as a number (the caller checked they are digits). */
static int two_digits(const char *s)
{
	return (s[0] - '0') * 10 + (s[1] - '0');
}

/* 1 when s starts with "YYYY-MM-DD" with a month 1-12 and a day 1-31. */
static int iso_date(const char *s)
{
	if (!digits(s, 4) || s[4] != '-' || !digits(s + 5, 2) || s[7] != '-' || !digits(s + 8, 2))
		return 0;
	int mon = two_digits(s + 5), day = two_digits(s + 8);
	return mon >= 1 && mon <= 12 && day >= 1 && day <= 31;
}

/* "hh:mm", then optionally ":ss" and a fraction ".f" / ",f", at s.
 * Returns the end of the time, NULL when it is malformed. */
static const char *iso_time(const char *s)
{
	if (!digits(s, 2) || s[2] != ':' || !digits(s + 3, 2))
		return NULL;
	if (two_digits(s) > 23 || two_digits(s + 3) > 59)
		return NULL;
	s += 5;
	if (*s != ':')
		return s;
	if (!digits(s + 1, 2) || two_digits(s + 1) > 60)
		return NULL;
	s += 3;
	if (*s != '.' && *s != ',')
		return s;
	s++;
	if (!isdigit((unsigned char)*s))
		return NULL;
	while (isdigit((unsigned char)*s))
		s++;
	return s;
}

/* 1 when s is a whole time zone: nothing, "Z", "+hh", "+hh:mm" or
 * "+hhmm" (or '-'). */
static int iso_zone(const char *s)
{
	if (*s == '\0' || (s[0] == 'Z' && s[1] == '\0'))
		return 1;
	if (!((*s == '+' || *s == '-') && digits(s + 1, 2)))
		return 0;
	s += 3;
	if (*s == ':')
		s++;
	if (*s == '\0')
		return 1;
	return digits(s, 2) && s[2] == '\0';
}

int records_is_iso8601(const char *s)
{
	if (!iso_date(s))
		return 0;
	s += 10;
	if (*s == '\0')
		return 1;
	if (*s != 'T' && *s != ' ')
		return 0;
	s = iso_time(s + 1);
	return s && iso_zone(s);
}
