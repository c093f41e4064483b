/* csvtab.h: a small CSV table read with libcsv, for profiler output.
 *
 * What the profilers write (see README "tlperf msprof"): a header line,
 * a trailing comma on every line (an empty last field, dropped), missing
 * values as `NA`, `N/A` or empty, RFC-4180 quoting with doubled quotes, a
 * TAB after some numbers, CRLF line ends and a UTF-8 BOM in files that
 * went through other tools. Columns are found by header name, never by
 * position. Bounded: csvtab_read refuses files over CSVTAB_MAX_BYTES;
 * csvtab_stream reads any size in constant memory.
 */
#ifndef TLPERF_CSVTAB_H
#define TLPERF_CSVTAB_H

#include <stddef.h>

#define CSVTAB_MAX_BYTES (256L * 1024 * 1024)

struct csvtab {
	size_t ncols;    /* header fields (trailing empty field dropped) */
	char **cols;     /* header names, trimmed of spaces, TABs and a BOM */
	size_t nrows;    /* data rows (blank lines skipped) */
	char **cells;    /* nrows * ncols, row-major; a short row's missing cells are "" */
	long *lines;     /* nrows: 1-based line number where each row starts */
	char *path;      /* the file read (copy) */
};

/* Zeroes t: an empty table (safe to release). */
void csvtab_init(struct csvtab *t);
/* Frees everything the table owns and re-initialises it. */
void csvtab_release(struct csvtab *t);

/* Reads path into *t (which must be initialised or released). Returns 0;
 * -1 on an I/O error or a file that is not CSV (empty file, no header,
 * a quote never closed (named as such, with the line its row starts on),
 * a NUL byte inside a field, over the size limit), with a message naming the file
 * (and line when known) in err[0..errlen-1]. On error *t is released. */
int csvtab_read(const char *path, struct csvtab *t, char *err, size_t errlen);

/* Streaming: called for every data row with its cells in header order
 * (fields[0..header->ncols), "" for cells a short row lacks; valid only
 * during the call) and the line it starts on. Return 0 to go on; anything
 * else stops the read and becomes csvtab_stream's result. */
typedef int (*csvtab_row_fn)(void *ctx, const struct csvtab *header, char *const *fields,
			     long line);

/* Like csvtab_read, but rows are handed to fn one at a time and not kept,
 * so memory stays bounded whatever the file's size (no size limit applies).
 * *header gets the header (nrows stays 0); the caller releases it.
 * Returns 0, -1 on a read or CSV error (err set, *header released), or
 * the non-zero value fn returned (fn sets err itself; *header released). */
int csvtab_stream(const char *path, struct csvtab *header, csvtab_row_fn fn, void *ctx, char *err,
		  size_t errlen);

/* Index of the column whose header equals name exactly, or -1. */
int csvtab_col(const struct csvtab *t, const char *name);

/* Index of a SECOND column named name (a header naming it twice), or -1.
 * Readers that pick a column by name check this first: which of two
 * same-named columns holds the value cannot be told. */
int csvtab_col_dup(const struct csvtab *t, const char *name);

/* Cell (row r, column c); "" when out of range. Never NULL. */
const char *csvtab_cell(const struct csvtab *t, size_t r, int c);

/* Parses a cell as a number: surrounding spaces/TABs ignored; `NA`,
 * `N/A`, empty and `-` count as missing. Only decimal numbers are numbers
 * (util/decimal.h): `0x1p3`, `0x10`, `inf`, `nan`, `NaN` are not. Returns
 * 1 and sets *out for a finite decimal, 0 for a missing value, -1 for
 * anything else. */
int csvtab_number(const char *cell, double *out);

#endif
