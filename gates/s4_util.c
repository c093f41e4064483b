/* s4_util.c: helpers shared by the gate 4 rules (s4.h, s4_util.h). */
#include "gates/s4.h"
#include "gates/s4_util.h"
#include "util/uname.h"

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

static uint64_t hash_n(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL;
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ULL;
	}
	return h;
}

static uint64_t hash(const char *s)
{
	return hash_n(s, strlen(s));
}

long *s4_map_getn(const struct s4_map *m, const char *key, size_t n)
{
	if (m->cap == 0)
		return NULL;
	size_t i = (size_t)(hash_n(key, n) & (m->cap - 1));
	while (m->keys[i]) {
		if (strncmp(m->keys[i], key, n) == 0 && m->keys[i][n] == '\0')
			return &m->vals[i];
		i = (i + 1) & (m->cap - 1);
	}
	return NULL;
}

long *s4_map_get(const struct s4_map *m, const char *key)
{
	return s4_map_getn(m, key, strlen(key));
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

void s4_idmap_init(struct s4_idmap *m)
{
	memset(m, 0, sizeof(*m));
}

void s4_idmap_release(struct s4_idmap *m)
{
	free(m->slots);
	memset(m, 0, sizeof(*m));
}

/* The key's home slot: the top bits of a multiplicative hash (the ids are
 * pool addresses, whose low bits alone would cluster). */
static inline size_t idhome(const struct s4_idkey *k, unsigned shift)
{
	uint64_t h = (uint64_t)(uintptr_t)k->a * 0x9E3779B97F4A7C15ull;
	h ^= (uint64_t)(uintptr_t)k->b * 0xC2B2AE3D27D4EB4Full;
	h ^= (uint64_t)(uintptr_t)k->c * 0x165667B19E3779F9ull;
	h ^= (uint64_t)k->d * 0xff51afd7ed558ccdull;
	return (size_t)((h ^ (h >> 29)) * 0x9E3779B97F4A7C15ull >> shift);
}

static inline int idsame(const struct s4_idkey *x, const struct s4_idkey *y)
{
	return x->a == y->a && x->b == y->b && x->c == y->c && x->d == y->d;
}

/* The slot of key k in m: its own, else the empty one it would take. */
static inline size_t idslot(const struct s4_idmap *m, const struct s4_idkey *k)
{
	size_t i = idhome(k, m->shift);
	while (m->slots[i].full && !idsame(&m->slots[i].key, k))
		i = (i + 1) & (m->cap - 1);
	return i;
}

long *s4_idmap_get(const struct s4_idmap *m, const void *a, const void *b, const void *c, long d)
{
	struct s4_idkey k = { a, b, c, d };
	if (m->cap == 0)
		return NULL;
	size_t i = idslot(m, &k);
	return m->slots[i].full ? &m->slots[i].val : NULL;
}

long *s4_idmap_at(const struct s4_idmap *m, size_t i)
{
	return i < m->cap && m->slots[i].full ? &m->slots[i].val : NULL;
}

static unsigned log2_of(size_t cap)
{
	unsigned b = 0;
	while (((size_t)1 << b) < cap)
		b++;
	return b;
}

static int idmap_grow_to(struct s4_idmap *m, size_t cap)
{
	struct s4_idmap g = { .cap = cap, .n = m->n, .shift = 64 - log2_of(cap) };
	g.slots = calloc(cap, sizeof(*g.slots));
	if (!g.slots)
		return -1;
	for (size_t j = 0; j < m->cap; j++) {
		if (m->slots[j].full)
			g.slots[idslot(&g, &m->slots[j].key)] = m->slots[j];
	}
	s4_idmap_release(m);
	*m = g;
	return 0;
}

static int idmap_grow(struct s4_idmap *m)
{
	return idmap_grow_to(m, m->cap ? m->cap * 2 : 64);
}

int s4_idmap_reserve(struct s4_idmap *m, size_t n)
{
	size_t cap = m->cap ? m->cap : 64;
	while (cap < 2 * n + 2)
		cap *= 2;
	return cap == m->cap ? 0 : idmap_grow_to(m, cap);
}

long *s4_idmap_put(struct s4_idmap *m, const void *a, const void *b, const void *c, long d,
		   long init, int *created)
{
	struct s4_idkey k = { a, b, c, d };
	if (created)
		*created = 0;
	if ((m->n + 1) * 2 > m->cap && idmap_grow(m) != 0)
		return NULL;
	struct s4_idslot *sl = &m->slots[idslot(m, &k)];
	if (!sl->full) {
		sl->key = k;
		sl->val = init;
		sl->full = 1;
		m->n++;
		if (created)
			*created = 1;
	}
	return &sl->val;
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
	/* hot: once per record in several rules; the first byte settles most */
	if (r->phase)
		return r->phase[0] == 'b' && strcmp(r->phase, "baseline") == 0;
	return r->round == 0 || (r->candidate_id[0] == 'b' && strcmp(r->candidate_id, "baseline") == 0);
}

int s4_same_workload(const char *a, const char *b)
{
	return uname_same(a, b);
}

int s4_lookalike(struct gate_findings *fs, const char *rule, const char *file, long line, const char *what,
		 const char *name, const char *recorded)
{
	char why[512];
	if (!uname_confusable(name, recorded))
		return 0;
	uname_explain(name, recorded, why, sizeof(why));
	return gate_add(fs, rule, GATE_ERROR, file, line, "%s '%s' is not the recorded '%s' but looks like it (%s)",
			what, name, recorded, why)
		       ? -1
		       : 1;
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

size_t s4_records_from(const struct s4_input *in)
{
	const struct records *rs = in->recs;
	size_t start = 0;
	long maxr = 0;
	if (in->log->runs <= 1)
		return 0;
	for (size_t i = 0; i < rs->n; i++) {
		const struct record *r = &rs->v[i];
		if (r->round == 0 && s4_is_baseline(r) && maxr >= 1) {
			start = i;
			maxr = 0;
		}
		if (r->round > maxr)
			maxr = r->round;
	}
	return start;
}

double s4_noise(const struct optlog *lg)
{
	return (isnan(lg->noise_pct) ? OPTLOG_NOISE_DEFAULT_PCT : lg->noise_pct) / 100.0;
}

int s4_text_has_figure(const char *text, double us)
{
	const char *p = text;
	while (*p) {
		if (!(*p >= '0' && *p <= '9') || (p > text && (p[-1] == '.' || (p[-1] >= '0' && p[-1] <= '9')))) {
			p++;
			continue;
		}
		char *end = NULL;
		double x = strtod(p, &end);
		if (end == p)
			break;
		const char *dot = memchr(p, '.', (size_t)(end - p));
		int dec = dot ? (int)(end - dot - 1) : 0;
		double half = dec > 0 ? 0.5 * pow(10, -dec) : 1e-9;
		if (fabs(x - us) <= half * (1 + 1e-9))
			return 1;
		p = end;
	}
	return 0;
}
