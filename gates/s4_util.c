/* s4_util.c: helpers shared by the gate 4 rules (s4.h, s4_util.h). */
#include "gates/s4.h"
#include "gates/s4_util.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void s4_map_init(struct s4_map *m)
{
	memset(m, 0, sizeof(*m));
}

void s4_map_release(struct s4_map *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->keys[i]);
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ULL;
	}
	return h;
}

long *s4_map_get(const struct s4_map *m, const char *key)
{
	if (m->cap == 0)
		return NULL;
	size_t i = (size_t)(hash(key) & (m->cap - 1));
	while (m->keys[i]) {
		if (strcmp(m->keys[i], key) == 0)
			return &m->vals[i];
		i = (i + 1) & (m->cap - 1);
	}
	return NULL;
}

static int rehash(struct s4_map *m, size_t cap)
{
	char **keys = calloc(cap, sizeof(*keys));
	long *vals = calloc(cap, sizeof(*vals));
	if (!keys || !vals) {
		free(keys);
		free(vals);
		return -1;
	}
	for (size_t j = 0; j < m->cap; j++) {
		if (!m->keys[j])
			continue;
		size_t i = (size_t)(hash(m->keys[j]) & (cap - 1));
		while (keys[i])
			i = (i + 1) & (cap - 1);
		keys[i] = m->keys[j];
		vals[i] = m->vals[j];
	}
	free(m->keys);
	free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->cap = cap;
	return 0;
}

long *s4_map_put(struct s4_map *m, const char *key, long init, int *created)
{
	long *v = s4_map_get(m, key);
	if (created)
		*created = 0;
	if (v)
		return v;
	if ((m->n + 1) * 2 > m->cap && rehash(m, m->cap ? m->cap * 2 : 64) != 0)
		return NULL;
	size_t i = (size_t)(hash(key) & (m->cap - 1));
	while (m->keys[i])
		i = (i + 1) & (m->cap - 1);
	m->keys[i] = strdup(key);
	if (!m->keys[i])
		return NULL;
	m->vals[i] = init;
	m->n++;
	if (created)
		*created = 1;
	return &m->vals[i];
}

char *s4_key3(const char *a, const char *b, const char *c)
{
	size_t la = strlen(a), lb = b ? strlen(b) : 0, lc = c ? strlen(c) : 0;
	char *k = malloc(la + lb + lc + 3);
	if (!k)
		return NULL;
	char *p = k;
	memcpy(p, a, la);
	p += la;
	if (b) {
		*p++ = '\x1f';
		memcpy(p, b, lb);
		p += lb;
	}
	if (c) {
		*p++ = '\x1f';
		memcpy(p, c, lc);
		p += lc;
	}
	*p = '\0';
	return k;
}

int s4_is_baseline(const struct record *r)
{
	if (r->phase)
		return strcmp(r->phase, "baseline") == 0;
	return r->round == 0 || strcmp(r->candidate_id, "baseline") == 0;
}

int s4_same_workload(const char *a, const char *b)
{
	char x[512], y[512];
	if (strcmp(a, b) == 0)
		return 1;
	optlog_norm_name(a, x, sizeof(x));
	optlog_norm_name(b, y, sizeof(y));
	return x[0] && strcmp(x, y) == 0;
}

double s4_deviation(double claimed, double recorded)
{
	if (!(recorded > 0) || !isfinite(claimed))
		return NAN;
	return fabs(claimed - recorded) / recorded;
}

void s4_recon_init(struct s4_recon *rc)
{
	memset(rc, 0, sizeof(*rc));
	rc->stop_reason = "";
	rc->claimed_geomean = NAN;
	rc->records_geomean = NAN;
}

void s4_recon_release(struct s4_recon *rc)
{
	for (size_t i = 0; i < rc->n; i++) {
		free(rc->v[i].dispatch);
		free(rc->v[i].workload);
		free(rc->v[i].winner);
	}
	free(rc->v);
	s4_recon_init(rc);
}
