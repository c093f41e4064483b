/* msprof.c: the msprof capture's names, accessors and release
 * (model/msprof.h). */
#include "model/msprof.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const layout_names[] = {
	[MSPROF_LAYOUT_NONE] = "none",		[MSPROF_LAYOUT_FLAT] = "flat",
	[MSPROF_LAYOUT_PER_LAUNCH] = "per-launch", [MSPROF_LAYOUT_PER_DEVICE] = "per-device",
	[MSPROF_LAYOUT_OP_SUMMARY] = "op-summary", [MSPROF_LAYOUT_MIXED] = "mixed",
};

const char *msprof_layout_name(enum msprof_layout l)
{
	return (size_t)l < sizeof(layout_names) / sizeof(layout_names[0]) && layout_names[l]
		       ? layout_names[l]
		       : "none";
}

void msprof_capture_init(struct msprof_capture *c)
{
	memset(c, 0, sizeof(*c));
}

static void launch_release(struct msprof_launch *l)
{
	free(l->kernel);
	free(l->op_name);
	free(l->op_type);
	free(l->source);
	for (size_t i = 0; i < l->nratios; i++)
		free(l->ratios[i].name);
	free(l->ratios);
}

void msprof_capture_release(struct msprof_capture *c)
{
	for (size_t i = 0; i < c->n; i++)
		launch_release(&c->v[i]);
	free(c->v);
	for (size_t i = 0; i < c->nroots; i++)
		free(c->roots ? c->roots[i] : NULL);
	free(c->roots);
	free(c->dir);
	free(c->first_problem);
	msprof_capture_init(c);
}

double *msprof_durations(const struct msprof_capture *c, size_t *n)
{
	*n = 0;
	size_t k = 0;
	for (size_t i = 0; i < c->n; i++)
		if (isfinite(c->v[i].duration_us))
			k++;
	if (k == 0)
		return NULL;
	double *d = malloc(k * sizeof(*d));
	if (!d)
		return NULL;
	for (size_t i = 0; i < c->n; i++)
		if (isfinite(c->v[i].duration_us))
			d[(*n)++] = c->v[i].duration_us;
	return d;
}
