/* ptune.c: releasing what model/ptune.h holds. */
#include "model/ptune.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void ptune_speedups_release(struct ptune_speedups *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i].label);
	free(s->v);
	free(s->json);
	free(s->key);
	memset(s, 0, sizeof(*s));
	s->mean = s->geomean = s->stated_mean = NAN;
}
