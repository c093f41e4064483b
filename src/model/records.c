/* model/records.c: the records model: sets, problems, the pure checks
 * every reader and rule shares (model/records.h). No I/O. */
#include "model/records.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int record_valid(const struct record *r)
{
	return r->l0_pass && !r->not_measured && r->duration_us > 0.0 && isfinite(r->duration_us);
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

/* Room for cap records; 0, or -1 out of memory. */
static int grow_to(struct records *rs, size_t cap)
{
	struct record *v = realloc(rs->v, cap * sizeof(*v));
	if (!v)
		return -1;
	rs->v = v;
	rs->cap = cap;
	return 0;
}

/* *dst = a pool copy of s (interned when intern), NULL stays NULL; 0, or
 * -1 out of memory. */
static int keep(struct strpool *p, const char **dst, const char *s, int intern)
{
	if (!s)
		return 0;
	*dst = intern ? strpool_intern(p, s, strlen(s)) : strpool_dup(p, s, strlen(s));
	return *dst ? 0 : -1;
}

static int push(struct records *rs, const struct record *r, int ids)
{
	struct strpool *p = &rs->pool;
	if (rs->n == rs->cap && grow_to(rs, rs->cap ? rs->cap * 2 : 64) != 0)
		return -1;
	struct record *d = &rs->v[rs->n];
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

/* 1 for an ASCII digit (what isdigit says in the C locale the tool runs
 * in), without a call per byte. */
static inline int digit(char c)
{
	return (unsigned)((unsigned char)c - '0') < 10u;
}

/* The two digits at s as a number, -1 when they are not two digits (s[1]
 * is read only when s[0] is a digit: never past the end). */
static inline int two_digits(const char *s)
{
	if (!digit(s[0]) || !digit(s[1]))
		return -1;
	return (s[0] - '0') * 10 + (s[1] - '0');
}

/* 1 when s starts with "YYYY-MM-DD" with a month 1-12 and a day 1-31. */
static inline int iso_date(const char *s)
{
	if (two_digits(s) < 0 || two_digits(s + 2) < 0 || s[4] != '-')
		return 0;
	int mon = two_digits(s + 5);
	if (mon < 1 || mon > 12 || s[7] != '-')
		return 0;
	int day = two_digits(s + 8);
	return day >= 1 && day <= 31;
}

/* "hh:mm", then optionally ":ss" and a fraction ".f" / ",f", at s.
 * Returns the end of the time, NULL when it is malformed. */
static inline const char *iso_time(const char *s)
{
	int hh = two_digits(s);
	if (hh < 0 || hh > 23 || s[2] != ':')
		return NULL;
	int mm = two_digits(s + 3);
	if (mm < 0 || mm > 59)
		return NULL;
	s += 5;
	if (*s != ':')
		return s;
	int ss = two_digits(s + 1);
	if (ss < 0 || ss > 60)
		return NULL;
	s += 3;
	if (*s != '.' && *s != ',')
		return s;
	s++;
	if (!digit(*s))
		return NULL;
	while (digit(*s))
		s++;
	return s;
}

/* 1 when s is a whole time zone: nothing, "Z", "+hh", "+hh:mm" or
 * "+hhmm" (or '-'). */
static inline int iso_zone(const char *s)
{
	if (*s == '\0' || (s[0] == 'Z' && s[1] == '\0'))
		return 1;
	if (!((*s == '+' || *s == '-') && two_digits(s + 1) >= 0))
		return 0;
	s += 3;
	if (*s == ':')
		s++;
	if (*s == '\0')
		return 1;
	return two_digits(s) >= 0 && s[2] == '\0';
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

/* Days from 1970-01-01 to the civil date y-m-d (proleptic Gregorian). */
static long long days_from_civil(long long y, int m, int d)
{
	y -= m <= 2;
	long long era = (y >= 0 ? y : y - 399) / 400;
	long long yoe = y - era * 400;
	long long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

int records_time_parse(const char *s, struct records_time *t)
{
	memset(t, 0, sizeof(*t));
	if (!records_is_iso8601(s))
		return -1;
	long long y = two_digits(s) * 100 + two_digits(s + 2);
	long long day = days_from_civil(y, two_digits(s + 5), two_digits(s + 8));
	long long at = day * 86400, span = 86400;
	s += 10;
	if (*s) {
		s++;
		at += two_digits(s) * 3600LL + two_digits(s + 3) * 60LL;
		span = 60;
		s += 5;
		if (*s == ':') {
			at += two_digits(s + 1);
			span = 1;
			t->precise = 1;
			s += 3;
			if (*s == '.' || *s == ',') {
				long scale = 100000000;
				for (s++; digit(*s); s++, scale /= 10)
					t->frac_ns += scale * (*s - '0');
			}
		}
		if (*s == 'Z') {
			t->zoned = 1;
		} else if (*s == '+' || *s == '-') {
			long off = two_digits(s + 1) * 3600L;
			const char *m = s + 3;
			if (*m == ':')
				m++;
			if (*m)
				off += two_digits(m) * 60L;
			at += *s == '+' ? -off : off;
			t->zoned = 1;
		}
	}
	t->lo = at;
	t->hi = at + span - 1;
	return 0;
}

void records_time_utc(const struct records_time *t, long long *lo, long long *hi)
{
	long long w = t->zoned ? 0 : RECORDS_MAX_ZONE_OFFSET;
	*lo = t->lo - w;
	*hi = t->hi + w;
}

int records_time_before(const struct records_time *a, const struct records_time *b)
{
	long long alo, ahi, blo, bhi;
	if (a->zoned == b->zoned) {
		if (a->hi != b->lo || !a->precise || !b->precise)
			return a->hi < b->lo;
		return a->lo == a->hi && b->lo == b->hi && a->frac_ns < b->frac_ns;
	}
	records_time_utc(a, &alo, &ahi);
	records_time_utc(b, &blo, &bhi);
	return ahi < blo;
}
