/* finding.c: the findings list (finding.h). */
#include "model/finding.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gate_findings_init(struct gate_findings *fs)
{
	memset(fs, 0, sizeof(*fs));
}

void gate_findings_release(struct gate_findings *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		gate_finding_release(&fs->v[i]);
	free(fs->v);
	memset(fs, 0, sizeof(*fs));
}

void gate_finding_release(struct gate_finding *f)
{
	free(f->rule);
	free(f->file);
	free(f->message);
	free(f->sup_file);
	free(f->sup_reason);
	memset(f, 0, sizeof(*f));
}

/* Room for one more finding. 0, -1 on allocation failure. */
static int grow(struct gate_findings *fs, size_t more)
{
	if (fs->n + more <= fs->cap)
		return 0;
	size_t cap = fs->cap ? fs->cap * 2 : 16;
	while (cap < fs->n + more)
		cap *= 2;
	struct gate_finding *v = realloc(fs->v, cap * sizeof(*v));
	if (!v)
		return -1;
	fs->v = v;
	fs->cap = cap;
	return 0;
}

int gate_add(struct gate_findings *fs, const char *rule, enum gate_severity sev,
	     const char *file, long line, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (grow(fs, 1) != 0)
		return -1;
	struct gate_finding *f = &fs->v[fs->n];
	memset(f, 0, sizeof(*f));
	f->rule = strdup(rule);
	f->file = strdup(file ? file : "");
	f->message = strdup(buf);
	f->severity = sev;
	f->line = line;
	if (!f->rule || !f->file || !f->message) {
		free(f->rule);
		free(f->file);
		free(f->message);
		return -1;
	}
	fs->n++;
	return 0;
}

size_t gate_count(const struct gate_findings *fs, enum gate_severity sev)
{
	size_t k = 0;
	for (size_t i = 0; i < fs->n; i++)
		if (fs->v[i].severity == sev && !fs->v[i].sup_file)
			k++;
	return k;
}

size_t gate_count_suppressed(const struct gate_findings *fs)
{
	size_t k = 0;
	for (size_t i = 0; i < fs->n; i++)
		if (fs->v[i].severity != GATE_OFF && fs->v[i].sup_file)
			k++;
	return k;
}

int gate_finding_suppress(struct gate_finding *f, const char *file, long line, const char *reason)
{
	char *sf = strdup(file ? file : ""), *sr = strdup(reason ? reason : "");
	if (!sf || !sr) {
		free(sf);
		free(sr);
		return -1;
	}
	free(f->sup_file);
	free(f->sup_reason);
	f->sup_file = sf;
	f->sup_line = line;
	f->sup_reason = sr;
	return 0;
}

int gate_findings_move(struct gate_findings *dst, struct gate_findings *src)
{
	if (src->n == 0) {
		gate_findings_release(src);
		return 0;
	}
	if (grow(dst, src->n) != 0)
		return -1;
	memcpy(dst->v + dst->n, src->v, src->n * sizeof(*src->v));
	dst->n += src->n;
	free(src->v);
	memset(src, 0, sizeof(*src));
	return 0;
}

const char *gate_severity_name(enum gate_severity sev)
{
	switch (sev) {
	case GATE_ERROR: return "error";
	case GATE_WARNING: return "warning";
	case GATE_NOTE: return "note";
	default: return "off";
	}
}

int gate_severity_parse(const char *s, enum gate_severity *out)
{
	if (strcmp(s, "error") == 0)
		*out = GATE_ERROR;
	else if (strcmp(s, "warning") == 0)
		*out = GATE_WARNING;
	else if (strcmp(s, "note") == 0)
		*out = GATE_NOTE;
	else if (strcmp(s, "off") == 0)
		*out = GATE_OFF;
	else
		return -1;
	return 0;
}
