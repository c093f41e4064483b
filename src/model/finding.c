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
	for (size_t i = 0; i < fs->n; i++) {
		free(fs->v[i].rule);
		free(fs->v[i].file);
		free(fs->v[i].message);
	}
	free(fs->v);
	memset(fs, 0, sizeof(*fs));
}

int gate_add(struct gate_findings *fs, const char *rule, enum gate_severity sev,
	     const char *file, long line, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (fs->n == fs->cap) {
		size_t cap = fs->cap ? fs->cap * 2 : 16;
		struct gate_finding *v = realloc(fs->v, cap * sizeof(*v));
		if (!v)
			return -1;
		fs->v = v;
		fs->cap = cap;
	}
	struct gate_finding *f = &fs->v[fs->n];
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
		if (fs->v[i].severity == sev)
			k++;
	return k;
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
