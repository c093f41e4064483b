/* ptjson.h: bench JSON files of first-generation perf_tuning/ folders.
 *
 * These files are written by ad-hoc bench scripts, so their shape differs
 * from operator to operator: per-case rows are an array of objects
 * ("cases", "results", ...) or an object of objects keyed by case name
 * ("baseline_perf": {"float16_1024x8192": {...}}); times are in ms or us
 * under keys like baseline_us / ours_us / tl_median_ms; aggregates sit
 * beside the rows (avg_speedup, n_cases, n_valid, geomean_speedup...).
 * Python's json module writes Infinity, -Infinity and NaN, which strict
 * JSON (and cJSON) refuse: they are rewritten before parsing, outside
 * strings only, keeping every byte offset so line numbers stay right.
 */
#ifndef TLPERF_PTJSON_H
#define TLPERF_PTJSON_H

#include <stddef.h>

#include <cjson/cJSON.h>

struct ptjson {
	char *text;       /* the file as read (after the token rewrite), NUL-terminated */
	size_t len;       /* bytes in text */
	cJSON *root;      /* NULL when the text does not parse */
	long err_line;    /* 1-based line of the parse error, 0 when parsed */
};

void ptjson_release(struct ptjson *j);

/* 1-based line of the first occurrence of "key" (with its quotes) in the
 * text at or after byte offset from; 0 when absent. */
long ptjson_key_line(const struct ptjson *j, const char *key, size_t from);

/* 1-based line of the n-th (0-based) occurrence of "key"; 0 when absent. */
long ptjson_key_line_nth(const struct ptjson *j, const char *key, size_t n);

/* A set of per-case rows found in a file. */
struct ptjson_table {
	const cJSON *owner;   /* object holding the rows member (aggregates live here) */
	const cJSON *rows;    /* the array or object of row objects */
	const char *name;     /* member name of rows in owner ("cases") */
	const char *speedup;  /* row key holding the speedup, NULL when none */
	size_t n;             /* number of rows */
};

/* Finds the row tables of a parsed file, depth first, at most max.
 * A table is an array of objects, or an object whose members are all
 * objects, where every row has at least one number member. Returns the
 * number found. The pointers borrow from j->root. */
size_t ptjson_tables(const struct ptjson *j, struct ptjson_table *out, size_t max);

/* Row i of a table (array element or object member); NULL past the end. */
const cJSON *ptjson_row(const struct ptjson_table *t, size_t i);

/* The numeric value of key in row, NAN when absent or not a number. */
double ptjson_num(const cJSON *row, const char *key);

/* Writes a short label for row i ("case 3", the member name, or "#3") to
 * buf. */
void ptjson_row_label(const struct ptjson_table *t, size_t i, char *buf, size_t len);

/* Arithmetic and geometric mean of the finite positive speedups of the
 * table's rows; *nvalid gets their count. Both NAN when none. */
void ptjson_speedup_means(const struct ptjson_table *t, double *mean, double *geomean,
			  size_t *nvalid);

#endif
