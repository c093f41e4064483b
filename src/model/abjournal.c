/* abjournal.c: releases of the A/B journal model (abjournal.h). */
#include "model/abjournal.h"

#include <stdlib.h>
#include <string.h>

void abjournal_release(struct abjournal *j)
{
	free(j->rel);
	free(j->file);
	free(j->workload);
	free(j->v);
	free(j->bad);
	free(j->summary);
	free(j->summary_file);
	memset(j, 0, sizeof(*j));
}

void abjournals_init(struct abjournals *js)
{
	memset(js, 0, sizeof(*js));
}

void abjournals_release(struct abjournals *js)
{
	for (size_t i = 0; i < js->n; i++)
		abjournal_release(&js->v[i]);
	free(js->v);
	abjournals_init(js);
}
