/* strpool.c: string arena and intern table (strpool.h). */
#include "util/strpool.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK_MIN (64u * 1024u)
#define ALIGN 8u

struct strpool_chunk {
	struct strpool_chunk *next;
	size_t size;            /* usable bytes after the header */
	/* data follows, aligned */
};

void strpool_init(struct strpool *p)
{
	memset(p, 0, sizeof(*p));
}

void strpool_release(struct strpool *p)
{
	struct strpool_chunk *c = p->chunks;
	while (c) {
		struct strpool_chunk *next = c->next;
		free(c);
		c = next;
	}
	free(p->slot);
	strpool_init(p);
}

static void *chunk_data(struct strpool_chunk *c)
{
	return (char *)c + ((sizeof(*c) + ALIGN - 1) & ~(size_t)(ALIGN - 1));
}

void *strpool_alloc(struct strpool *p, size_t n)
{
	size_t need = (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
	if (need < n)
		return NULL;
	if (need > p->left) {
		size_t size = need > CHUNK_MIN ? need : CHUNK_MIN;
		if (p->bytes / 4 > size) /* grow with the pool: few chunks */
			size = p->bytes / 4;
		struct strpool_chunk *c = malloc(sizeof(*c) + ALIGN + size + STRPOOL_PAD);
		if (!c)
			return NULL;
		c->next = p->chunks;
		c->size = size;
		p->chunks = c;
		p->cur = chunk_data(c);
		p->left = size;
		p->bytes += size;
	}
	void *r = p->cur;
	p->cur += need;
	p->left -= need;
	return r;
}

const char *strpool_dup(struct strpool *p, const char *s, size_t n)
{
	char *d = strpool_alloc(p, n + 1);
	if (!d)
		return NULL;
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

uint64_t strpool_hash(const char *s, size_t n)
{
	const uint64_t m = 0x9E3779B97F4A7C15ull;
	uint64_t h = 0x243F6A8885A308D3ull ^ (n * m);
	while (n >= 8) {
		uint64_t w;
		memcpy(&w, s, 8);
		h = (h ^ w) * m;
		h ^= h >> 29;
		s += 8;
		n -= 8;
	}
	uint64_t w = 0;
	memcpy(&w, s, n);
	h = (h ^ w) * m;
	h ^= h >> 32;
	return h;
}

static int grow(struct strpool *p)
{
	size_t nslot = p->nslot ? p->nslot * 2 : 64;
	struct strpool_slot *v = calloc(nslot, sizeof(*v));
	if (!v)
		return -1;
	for (size_t i = 0; i < p->nslot; i++) {
		const struct strpool_slot *o = &p->slot[i];
		if (!o->s)
			continue;
		size_t j = (size_t)o->hash & (nslot - 1);
		while (v[j].s)
			j = (j + 1) & (nslot - 1);
		v[j] = *o;
	}
	free(p->slot);
	p->slot = v;
	p->nslot = nslot;
	return 0;
}

/* Slot holding s[0..n), or the empty slot where it would go. */
static struct strpool_slot *probe(const struct strpool *p, const char *s, size_t n, uint64_t h)
{
	size_t j = (size_t)h & (p->nslot - 1);
	for (;;) {
		struct strpool_slot *e = &p->slot[j];
		if (!e->s || (e->hash == h && e->len == n && memcmp(e->s, s, n) == 0))
			return e;
		j = (j + 1) & (p->nslot - 1);
	}
}

const char *strpool_find(const struct strpool *p, const char *s, size_t n)
{
	if (p->nslot == 0)
		return NULL;
	return probe(p, s, n, strpool_hash(s, n))->s;
}

const char *strpool_intern(struct strpool *p, const char *s, size_t n)
{
	if ((p->n + 1) * 2 > p->nslot && grow(p) != 0)
		return NULL;
	uint64_t h = strpool_hash(s, n);
	struct strpool_slot *e = probe(p, s, n, h);
	if (e->s)
		return e->s;
	const char *d = strpool_dup(p, s, n);
	if (!d)
		return NULL;
	e->hash = h;
	e->s = d;
	e->len = n;
	p->n++;
	return d;
}
