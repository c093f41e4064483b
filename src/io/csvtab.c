/* csvtab.c: profiler CSV files into a table of strings, with libcsv. */
#include "io/csvtab.h"

#include <csv.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/decimal.h"

void csvtab_init(struct csvtab *t)
{
	memset(t, 0, sizeof(*t));
}

static void free_strs(char **v, size_t n)
{
	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void csvtab_release(struct csvtab *t)
{
	free_strs(t->cols, t->ncols);
	free_strs(t->cells, t->nrows * t->ncols);
	free(t->lines);
	free(t->path);
	csvtab_init(t);
}

/* Parser state shared with the libcsv callbacks. */
struct builder {
	struct csvtab *t;
	char **row;       /* fields of the row being read */
	size_t nrow, caprow;
	size_t caprows;   /* capacity of t->cells in rows */
	long line;        /* physical line being fed */
	long row_line;    /* line where the current row's first field ended */
	int have_header;
	int failed;       /* 1: out of memory; 2: too many fields; 3: the callback stopped;
			     4: the last row is cut short (truncated file); 5: a NUL byte
			     inside a field */
	long row_start;   /* line where the row being read began */
	long bad_line;
	csvtab_row_fn fn; /* streaming: called per row instead of storing it */
	void *ctx;
	int stop_rc;      /* what the callback returned when it stopped */
	int no_final_nl;  /* the file's last line has no '\n' */
	int at_fini;      /* csv_fini is delivering the last row */
	size_t short_n;   /* failed 4: fields the cut row had */
};

static char *trimmed_dup(const char *s, size_t len)
{
	/* libcsv trims unquoted spaces and TABs; a BOM or CR can remain. */
	if (len >= 3 && (unsigned char)s[0] == 0xEF && (unsigned char)s[1] == 0xBB &&
	    (unsigned char)s[2] == 0xBF) {
		s += 3;
		len -= 3;
	}
	while (len > 0 && (s[len - 1] == '\r' || s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	while (len > 0 && (s[0] == ' ' || s[0] == '\t')) {
		s++;
		len--;
	}
	char *d = malloc(len + 1);
	if (d) {
		memcpy(d, s, len);
		d[len] = '\0';
	}
	return d;
}

static void on_field(void *s, size_t len, void *data)
{
	struct builder *b = data;
	if (b->failed)
		return;
	if (b->nrow == 0)
		b->row_line = b->line;
	if (s && memchr(s, '\0', len)) {
		/* "8.4\0999" would read as 8.4 once a C string */
		b->failed = 5;
		b->bad_line = b->line;
		return;
	}
	if (b->nrow == b->caprow) {
		size_t nc = b->caprow ? b->caprow * 2 : 32;
		char **nr = realloc(b->row, nc * sizeof(*nr));
		if (!nr) {
			b->failed = 1;
			return;
		}
		b->row = nr;
		b->caprow = nc;
	}
	char *d = trimmed_dup(s ? s : "", s ? len : 0);
	if (!d) {
		b->failed = 1;
		return;
	}
	b->row[b->nrow++] = d;
}

static void drop_row(struct builder *b)
{
	for (size_t i = 0; i < b->nrow; i++)
		free(b->row[i]);
	b->nrow = 0;
}

/* Whether the row of n fields is refused: a last row cut short (the
 * profilers end every line, the last included, with '\n' and write every
 * column, so a last row without its newline and with fewer fields than
 * the header is a file cut short whose last number may be cut too:
 * "86824.7" for "86824.726562"), or values beyond the header's columns
 * (extra empty cells are harmless). Sets b->failed and drops the row. */
static int row_refused(struct builder *b, size_t n)
{
	const struct csvtab *t = b->t;
	if (b->at_fini && b->no_final_nl && n < t->ncols) {
		b->failed = 4;
		b->bad_line = b->row_line;
		b->short_n = n;
		drop_row(b);
		return 1;
	}
	for (size_t i = t->ncols; i < n; i++)
		if (b->row[i][0] != '\0') {
			b->failed = 2;
			b->bad_line = b->row_line;
			drop_row(b);
			return 1;
		}
	return 0;
}

/* Streaming: hands the row of n fields (padded with "" to the header's
 * width) to the callback and drops it; a non-zero answer stops the read. */
static void row_to_fn(struct builder *b, size_t n)
{
	const struct csvtab *t = b->t;
	static char empty[] = "";
	char *stack[64] = { NULL };
	char **fields = t->ncols <= 64 ? stack : malloc(t->ncols * sizeof(*fields));
	if (!fields) {
		b->failed = 1;
		drop_row(b);
		return;
	}
	for (size_t i = 0; i < t->ncols; i++)
		fields[i] = i < n ? b->row[i] : empty;
	int r = b->fn(b->ctx, t, fields, b->row_line);
	if (fields != stack)
		free(fields);
	drop_row(b);
	if (r != 0) {
		b->failed = 3;
		b->stop_rc = r;
	}
}

/* Room for one more stored row in t->cells and t->lines. Returns 0, or
 * -1 when out of memory. */
static int rows_grow(struct builder *b)
{
	struct csvtab *t = b->t;
	if (t->nrows < b->caprows)
		return 0;
	size_t nc = b->caprows ? b->caprows * 2 : 16;
	char **cells = realloc(t->cells, nc * t->ncols * sizeof(*cells));
	if (!cells)
		return -1;
	t->cells = cells;
	long *lines = realloc(t->lines, nc * sizeof(*lines));
	if (!lines)
		return -1;
	t->lines = lines;
	b->caprows = nc;
	return 0;
}

/* Moves the row of n fields into the table, "" for the cells it lacks. */
static void row_store(struct builder *b, size_t n)
{
	struct csvtab *t = b->t;
	char **dst = t->cells + t->nrows * t->ncols;
	for (size_t i = 0; i < t->ncols; i++) {
		if (i < n) {
			dst[i] = b->row[i];
			b->row[i] = NULL;
		} else {
			dst[i] = calloc(1, 1);
			if (!dst[i]) {
				/* keep the table consistent: fill the rest with NULL-safe "" later */
				b->failed = 1;
				for (size_t j = i; j < t->ncols; j++)
					dst[j] = NULL;
				break;
			}
		}
	}
	for (size_t i = t->ncols; i < n; i++)
		free(b->row[i]);
	b->nrow = 0;
	t->lines[t->nrows] = b->row_line;
	t->nrows++;
}

static void on_row(int c, void *data)
{
	(void)c;
	struct builder *b = data;
	struct csvtab *t = b->t;
	b->row_start = b->line + 1; /* the next row starts after this line */
	if (b->failed) {
		drop_row(b);
		return;
	}
	/* The profiler ends every line with a comma: one empty field too many. */
	size_t n = b->nrow;
	if (n > 0 && b->row[n - 1][0] == '\0' && (!b->have_header || n > t->ncols)) {
		free(b->row[n - 1]);
		b->nrow = --n;
	}
	if (n == 0 || (n == 1 && b->row[0][0] == '\0')) {
		drop_row(b); /* blank line */
		return;
	}
	if (!b->have_header) {
		t->cols = b->row;
		t->ncols = n;
		b->row = NULL;
		b->nrow = b->caprow = 0;
		b->have_header = 1;
		return;
	}
	if (row_refused(b, n))
		return;
	if (b->fn) {
		row_to_fn(b, n);
		return;
	}
	if (rows_grow(b) != 0) {
		b->failed = 1;
		drop_row(b);
		return;
	}
	row_store(b, n);
}

static int parse_file(const char *path, struct csvtab *t, csvtab_row_fn fn, void *ctx, char *err,
		      size_t errlen);

int csvtab_read(const char *path, struct csvtab *t, char *err, size_t errlen)
{
	return parse_file(path, t, NULL, NULL, err, errlen);
}

int csvtab_stream(const char *path, struct csvtab *header, csvtab_row_fn fn, void *ctx, char *err,
		  size_t errlen)
{
	return parse_file(path, header, fn, ctx, err, errlen);
}

/* Opens path for reading: a FIFO without a writer reads as empty instead
 * of blocking forever (O_NONBLOCK for the open, docs/reliability.md); a
 * directory or a device is refused; capped: larger than CSVTAB_MAX_BYTES
 * is refused. NULL with the message in err. */
static FILE *open_csv(const char *path, int capped, char *err, size_t errlen)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
		/* a directory, or a device such as /dev/zero that never ends */
		snprintf(err, errlen, "cannot read '%s': %s", path,
			 S_ISDIR(st.st_mode) ? strerror(EISDIR) : "not a regular file");
		close(fd);
		return NULL;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		(void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	FILE *f = fdopen(fd, "rb");
	if (!f) {
		snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	if (capped && fstat(fileno(f), &st) == 0 && st.st_size > CSVTAB_MAX_BYTES) {
		snprintf(err, errlen, "'%s' is larger than %ld MiB", path, CSVTAB_MAX_BYTES >> 20);
		fclose(f);
		return NULL;
	}
	return f;
}

/* Feeds every line of f to the parser p (stopping once b->failed), then
 * ends the parse. Returns 0, or -1 with the message in err: a CSV error,
 * a read error, a quote still open at the end. */
static int feed_file(struct csv_parser *p, struct builder *b, FILE *f, const char *path,
		     char *err, size_t errlen)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int rc = -1;
	errno = 0;
	while ((len = getline(&line, &cap, f)) >= 0) {
		b->line++;
		if (csv_parse(p, line, (size_t)len, on_field, on_row, b) != (size_t)len) {
			snprintf(err, errlen, "%s:%ld: %s", path, b->line, csv_strerror(csv_error(p)));
			goto out;
		}
		b->no_final_nl = line[len - 1] != '\n';
		if (b->failed)
			break;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno ? errno : EIO));
		goto out;
	}
	b->at_fini = 1;
	/* A quote still open at the end is an error, not a field that
	 * swallowed the rest of the file (libcsv's own check, CSV_STRICT_FINI,
	 * needs CSV_STRICT too, which would refuse other quirks): libcsv 3's
	 * state FIELD_BEGUN (2) with quoted set is exactly that. */
	if (!b->failed && (p->pstate == 2 && p->quoted)) {
		snprintf(err, errlen,
			 "%s:%ld: unterminated quote: a quoted field opened in the row starting on this "
			 "line never closes (the file ends at line %ld)",
			 path, b->row_start, b->line);
		goto out;
	}
	if (!b->failed && csv_fini(p, on_field, on_row, b) != 0) {
		snprintf(err, errlen, "%s:%ld: %s", path, b->line, csv_strerror(csv_error(p)));
		goto out;
	}
	rc = 0;
out:
	free(line);
	return rc;
}

/* The outcome of a fully fed read: 0, the callback's stop value (failed 3;
 * it wrote err), or -1 with the message in err. */
static int read_outcome(const struct builder *b, const char *path, char *err, size_t errlen)
{
	switch (b->failed) {
	case 1:
		snprintf(err, errlen, "'%s': out of memory", path);
		return -1;
	case 5:
		snprintf(err, errlen, "%s:%ld: a NUL byte inside a field (not a text CSV)", path,
			 b->bad_line);
		return -1;
	case 2:
		snprintf(err, errlen, "%s:%ld: more fields than the header has columns", path,
			 b->bad_line);
		return -1;
	case 4:
		snprintf(err, errlen,
			 "%s:%ld: last row cut short (%zu of %zu fields, no newline at the end): "
			 "the file looks truncated", path, b->bad_line, b->short_n, b->t->ncols);
		return -1;
	case 3:
		return b->stop_rc;
	}
	if (!b->have_header) {
		snprintf(err, errlen, "'%s' is empty (no header line)", path);
		return -1;
	}
	return 0;
}

static int parse_file(const char *path, struct csvtab *t, csvtab_row_fn fn, void *ctx, char *err,
		      size_t errlen)
{
	struct csv_parser p;
	struct builder b;
	int rc = -1, parser_ok = 0;

	csvtab_init(t);
	memset(&b, 0, sizeof(b));
	b.t = t;
	b.fn = fn;
	b.ctx = ctx;
	FILE *f = open_csv(path, !fn, err, errlen);
	if (!f)
		goto out;
	t->path = strdup(path);
	b.row_start = 1;
	if (!t->path || csv_init(&p, CSV_APPEND_NULL) != 0) {
		snprintf(err, errlen, "'%s': out of memory", path);
		goto out;
	}
	parser_ok = 1;
	/* libcsv grows a field 128 bytes at a time: a 10 MB cell meant 80,000
	 * reallocs, quadratic where realloc copies (ASan took minutes). */
	csv_set_blk_size(&p, 64 * 1024);
	if (feed_file(&p, &b, f, path, err, errlen) == 0)
		rc = read_outcome(&b, path, err, errlen);
out:
	if (parser_ok)
		csv_free(&p);
	drop_row(&b);
	free(b.row);
	if (f)
		fclose(f);
	if (rc != 0)
		csvtab_release(t);
	return rc;
}

int csvtab_col(const struct csvtab *t, const char *name)
{
	for (size_t i = 0; i < t->ncols; i++)
		if (strcmp(t->cols[i], name) == 0)
			return (int)i;
	return -1;
}

int csvtab_col_dup(const struct csvtab *t, const char *name)
{
	int first = csvtab_col(t, name);
	if (first < 0)
		return -1;
	for (size_t i = (size_t)first + 1; i < t->ncols; i++)
		if (strcmp(t->cols[i], name) == 0)
			return (int)i;
	return -1;
}

const char *csvtab_cell(const struct csvtab *t, size_t r, int c)
{
	if (c < 0 || (size_t)c >= t->ncols || r >= t->nrows)
		return "";
	const char *s = t->cells[r * t->ncols + (size_t)c];
	return s ? s : "";
}

int csvtab_number(const char *cell, double *out)
{
	while (*cell == ' ' || *cell == '\t')
		cell++;
	size_t n = strlen(cell);
	while (n > 0 && (cell[n - 1] == ' ' || cell[n - 1] == '\t' || cell[n - 1] == '\r'))
		n--;
	if (n == 0 || (n == 2 && strncmp(cell, "NA", 2) == 0) ||
	    (n == 3 && strncmp(cell, "N/A", 3) == 0) || (n == 1 && cell[0] == '-'))
		return 0;
	/* decimals only: no hex floats, no inf/nan (util/decimal.h) */
	double v;
	if (decimal_parse(cell, n, &v) != 0)
		return -1;
	*out = v;
	return 1;
}
