/* ptlog.c: the perf_tuning/ log structs' accessors and release (ptlog.h);
 * the readers that fill them are io/ptlog.c. */
#include "model/ptlog.h"

#include <stdlib.h>
#include <string.h>

void ptlog_text_release(struct ptlog_text *t)
{
	free(t->lines);
	free(t->buf);
	memset(t, 0, sizeof(*t));
}

void ptlog_release(struct ptlog *log)
{
	ptlog_text_release(&log->text);
	free(log->items);
	free(log->plan);
	free(log->ev);
	memset(log, 0, sizeof(*log));
}

static void field_release(struct ptperf_field *f)
{
	free(f->value);
	f->value = NULL;
}

void ptperf_release(struct ptperf *p)
{
	for (size_t i = 0; i < p->nit; i++) {
		struct ptperf_iter *it = &p->it[i];
		free(it->title);
		field_release(&it->optimization);
		field_release(&it->precision);
		field_release(&it->rollback);
		for (size_t k = 0; k < it->nm; k++) {
			field_release(&it->m[k].base);
			field_release(&it->m[k].cand);
			field_release(&it->m[k].impr);
			field_release(&it->m[k].adopted);
		}
		free(it->m);
	}
	free(p->it);
	free(p->db_lines);
	ptlog_text_release(&p->text);
	memset(p, 0, sizeof(*p));
}

const char *ptlog_event_field(const struct ptlog *log, const struct ptlog_event *ev,
			      const char *key, size_t *len, long *line)
{
	for (long l = ev->line; l <= ev->end && l <= (long)log->text.nlines; l++) {
		const char *v = prose_field(log->text.lines[l - 1], key, len);
		if (v) {
			if (line)
				*line = l;
			return v;
		}
	}
	return NULL;
}
