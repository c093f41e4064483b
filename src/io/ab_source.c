/* ab_source.c: launch durations from a bench's stdout or CSV files (see
 * ab_source.h). The msprof source lives in msprof.c. */
#include "io/ab_source.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/csvtab.h"
#include "util/decimal.h"

#define STDOUT_MAX_BYTES (64L * 1024 * 1024)

int absource_parse(const char *spec, struct absource *s, char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	if (strcmp(spec, "msprof") == 0) {
		s->kind = ABSOURCE_MSPROF;
		return 0;
	}
	if (strcmp(spec, "stdout") == 0) {
		s->kind = ABSOURCE_STDOUT;
		return 0;
	}
	if (strncmp(spec, "csv:", 4) == 0) {
		const char *g = spec + 4, *colon = strchr(g, ':');
		if (!colon || colon == g || colon[1] == '\0') {
			snprintf(err, errlen, "--source '%s': expected csv:GLOB:COLUMN", spec);
			return -1;
		}
		s->kind = ABSOURCE_CSV;
		s->glob = strndup(g, (size_t)(colon - g));
		s->column = strdup(colon + 1);
		if (!s->glob || !s->column) {
			absource_release(s);
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		return 0;
	}
	snprintf(err, errlen, "unknown --source '%s' (msprof, stdout, csv:GLOB:COLUMN)", spec);
	return -1;
}

void absource_release(struct absource *s)
{
	free(s->glob);
	free(s->column);
	memset(s, 0, sizeof(*s));
}

const char *absource_name(const struct absource *s)
{
	switch (s->kind) {
	case ABSOURCE_STDOUT: return "stdout";
	case ABSOURCE_CSV: return "csv";
	case ABSOURCE_MSPROF: break;
	}
	return "msprof";
}

/* Growable array of durations. */
struct dvec {
	double *v;
	size_t n, cap;
};

static int dvec_push(struct dvec *d, double x)
{
	if (d->n == d->cap) {
		size_t nc = d->cap ? d->cap * 2 : 64;
		double *nv = realloc(d->v, nc * sizeof(*nv));
		if (!nv)
			return -1;
		d->v = nv;
		d->cap = nc;
	}
	d->v[d->n++] = x;
	return 0;
}

static int parse_json_array(const char *text, size_t len, const char *name, struct dvec *d,
			    char *err, size_t errlen)
{
	cJSON *arr = cJSON_ParseWithLength(text, len);
	int rc = -1;
	if (!cJSON_IsArray(arr)) {
		snprintf(err, errlen, "'%s': not a JSON array of durations", name);
		goto out;
	}
	int i = 0;
	const cJSON *it;
	cJSON_ArrayForEach(it, arr) {
		if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble) || !(it->valuedouble > 0)) {
			snprintf(err, errlen, "'%s': element %d of the array is not a duration > 0",
				 name, i);
			goto out;
		}
		if (dvec_push(d, it->valuedouble) != 0) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
		i++;
	}
	rc = 0;
out:
	cJSON_Delete(arr);
	return rc;
}

/* One line ls[0..ll) (number line, named name) of the stdout source:
 * blank lines and '#' comments are skipped, anything else must be one
 * decimal number > 0, appended to d. Returns 0, or -1 with the message in
 * err. */
static int parse_duration_line(const char *ls, size_t ll, const char *name, long line,
			       struct dvec *d, char *err, size_t errlen)
{
	char buf[128];
	/* trim spaces, TABs and a CR */
	while (ll > 0 && (ls[0] == ' ' || ls[0] == '\t')) {
		ls++;
		ll--;
	}
	while (ll > 0 && (ls[ll - 1] == ' ' || ls[ll - 1] == '\t' || ls[ll - 1] == '\r'))
		ll--;
	if (ll == 0 || ls[0] == '#')
		return 0;
	if (ll >= sizeof(buf)) {
		snprintf(err, errlen, "%s:%ld: not a duration (line too long)", name, line);
		return -1;
	}
	memcpy(buf, ls, ll);
	buf[ll] = '\0';
	/* decimals only: strtod would take "0x10" as 16 us */
	double v = 0;
	if (decimal_parse(ls, ll, &v) != 0 || !(v > 0)) {
		for (size_t k = 0; k < ll; k++)
			if (buf[k] == '\0')
				buf[k] = '?'; /* show where a NUL byte was */
		snprintf(err, errlen,
			 "%s:%ld: '%.40s' is not a duration in us (one decimal number > 0 "
			 "per line, or a JSON array)",
			 name, line, buf);
		return -1;
	}
	if (dvec_push(d, v) != 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

/* The one-number-per-line form of text[0..len): every line through
 * parse_duration_line. Returns 0, or -1 with the message in err. */
static int parse_number_lines(const char *text, size_t len, const char *name, struct dvec *d,
			      char *err, size_t errlen)
{
	size_t pos = 0;
	long line = 0;
	while (pos < len) {
		const char *ls = text + pos;
		const char *nl = memchr(ls, '\n', len - pos);
		size_t ll = nl ? (size_t)(nl - ls) : len - pos;
		pos += ll + (nl ? 1 : 0);
		line++;
		if (parse_duration_line(ls, ll, name, line, d, err, errlen) != 0)
			return -1;
	}
	return 0;
}

int absource_parse_durations(const char *text, size_t len, const char *name, double **out,
			     size_t *n, char *err, size_t errlen)
{
	struct dvec d = { 0 };
	size_t i = 0;

	*out = NULL;
	*n = 0;
	while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
		i++;
	int rc = i < len && text[i] == '[' ?
			 parse_json_array(text + i, len - i, name, &d, err, errlen) :
			 parse_number_lines(text, len, name, &d, err, errlen);
	if (rc != 0)
		goto fail;
	if (d.n == 0) {
		snprintf(err, errlen, "'%s': no durations (the bench printed nothing to stdout)", name);
		goto fail;
	}
	*out = d.v;
	*n = d.n;
	return 0;
fail:
	free(d.v);
	return -1;
}

int absource_read_stdout(const char *path, double **out, size_t *n, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int rc = -1;

	*out = NULL;
	*n = 0;
	if (!f) {
		snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	for (;;) {
		if (len == cap) {
			if (cap >= (size_t)STDOUT_MAX_BYTES) {
				snprintf(err, errlen, "'%s': larger than 64 MiB", path);
				goto out;
			}
			size_t nc = cap ? cap * 2 : 65536;
			char *nb = realloc(buf, nc);
			if (!nb) {
				snprintf(err, errlen, "out of memory");
				goto out;
			}
			buf = nb;
			cap = nc;
		}
		size_t got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
		goto out;
	}
	rc = absource_parse_durations(buf ? buf : "", len, path, out, n, err, errlen);
out:
	free(buf);
	fclose(f);
	return rc;
}

/* Appends the durations in column `column` of the CSV file path to d
 * (missing cells skipped). Returns 0, or -1 with the message in err (an
 * unreadable CSV, no such column, a value that is no duration > 0). */
static int read_csv_column(const char *path, const char *column, struct dvec *d, char *err,
			   size_t errlen)
{
	struct csvtab t;
	char terr[512];
	int rc = -1;
	csvtab_init(&t);
	if (csvtab_read(path, &t, terr, sizeof(terr)) != 0) {
		snprintf(err, errlen, "%s", terr);
		return -1;
	}
	int c = csvtab_col(&t, column);
	if (c < 0) {
		snprintf(err, errlen, "'%s': no column '%s'", path, column);
		goto out;
	}
	for (size_t r = 0; r < t.nrows; r++) {
		double v;
		int k = csvtab_number(csvtab_cell(&t, r, c), &v);
		if (k == 0)
			continue;
		if (k < 0 || !(v > 0)) {
			snprintf(err, errlen, "%s:%ld: column '%s' is not a duration > 0", path,
				 t.lines[r], column);
			goto out;
		}
		if (dvec_push(d, v) != 0) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
	}
	rc = 0;
out:
	csvtab_release(&t);
	return rc;
}

int absource_read_csv(const char *dir, const char *pattern, const char *column, double **out,
		      size_t *n, char *err, size_t errlen)
{
	char full[4096];
	glob_t g;
	struct dvec d = { 0 };
	int rc = -1, gr;

	*out = NULL;
	*n = 0;
	if (pattern[0] == '/' || !dir)
		snprintf(full, sizeof(full), "%s", pattern);
	else
		snprintf(full, sizeof(full), "%s/%s", dir, pattern);
	memset(&g, 0, sizeof(g));
	gr = glob(full, 0, NULL, &g); /* sorted by name */
	if (gr == GLOB_NOMATCH || (gr == 0 && g.gl_pathc == 0)) {
		snprintf(err, errlen, "no file matches '%s'", full);
		goto out;
	}
	if (gr != 0) {
		snprintf(err, errlen, "cannot search '%s'", full);
		goto out;
	}
	for (size_t f = 0; f < g.gl_pathc; f++)
		if (read_csv_column(g.gl_pathv[f], column, &d, err, errlen) != 0)
			goto out;
	if (d.n == 0) {
		snprintf(err, errlen, "no durations in column '%s' of '%s'", column, full);
		goto out;
	}
	*out = d.v;
	*n = d.n;
	d.v = NULL;
	rc = 0;
out:
	free(d.v);
	globfree(&g);
	return rc;
}

int absource_prepare_run(const char *run_dir, char arm, long pair, long launch_count,
			 long warm_up, char *outfile, size_t outlen, char *err, size_t errlen)
{
	char num[32], a[2] = { arm, '\0' };
	if (mkdir(run_dir, 0755) != 0 && errno != EEXIST) {
		snprintf(err, errlen, "cannot create '%s': %s", run_dir, strerror(errno));
		return -1;
	}
	if ((size_t)snprintf(outfile, outlen, "%s/stdout.txt", run_dir) >= outlen) {
		snprintf(err, errlen, "path too long: '%s'", run_dir);
		return -1;
	}
	int bad = setenv("TLAB_OUTPUT", run_dir, 1) != 0 || setenv("TLAB_ARM", a, 1) != 0;
	snprintf(num, sizeof(num), "%ld", launch_count);
	bad |= setenv("TLAB_LAUNCH_COUNT", num, 1) != 0;
	snprintf(num, sizeof(num), "%ld", warm_up);
	bad |= setenv("TLAB_WARM_UP", num, 1) != 0;
	snprintf(num, sizeof(num), "%ld", pair);
	bad |= setenv("TLAB_PAIR", num, 1) != 0;
	if (bad) {
		snprintf(err, errlen, "cannot set the bench's environment: %s", strerror(errno));
		return -1;
	}
	return 0;
}
