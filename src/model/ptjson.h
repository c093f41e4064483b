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

/* Every lookup below is O(1) or O(log n) in the file's size, and every
 * whole-file pass is linear: a bench JSON of any shape (30,000 rows, an
 * object of 100,000 members) is checked in time linear in its bytes. */

/* The largest bench JSON read: bigger files are reported, never parsed
 * (a real one is a few hundred KiB). */
#define PTJSON_MAX_BYTES (16u * 1024u * 1024u)

/* Member names of one object, hashed: name -> first member of that name
 * (as cJSON_GetObjectItemCaseSensitive finds it). */
struct ptjson_members {
	const cJSON **slot;   /* open addressing, cap a power of two; NULL = empty */
	size_t cap;
};

/* First position of each object key in the text, hashed by its raw bytes. */
struct ptjson_keypos {
	size_t off;       /* offset of the key's first byte (after its quote); 0: empty slot */
	size_t len;       /* raw bytes between the quotes */
};

struct ptjson {
	char *text;       /* the file as read (after the token rewrite), NUL-terminated */
	size_t len;       /* bytes in text */
	cJSON *root;      /* NULL when the text does not parse */
	long err_line;    /* 1-based line of the parse error, 0 when parsed */
	size_t *nl;       /* offsets of the '\n' bytes of text, ascending */
	size_t nnl;
	struct ptjson_keypos *keys; /* open addressing, keycap a power of two */
	size_t keycap;
	struct ptjson_members root_members; /* of root when it is an object */
	double *aggs;     /* sorted number members of the owners of the first 16 tables */
	size_t naggs;
	double *cells;    /* sorted number members of those tables' rows */
	size_t ncells;
};

void ptjson_release(struct ptjson *j);

/* Building the key index (for the parser, io/ptjson.c): ptjson_keys_alloc
 * sizes j->keys for at most nkeys keys (0, -1 when out of memory);
 * ptjson_keys_add records the key text[off..off+klen) unless one with the
 * same name came first. */
int ptjson_keys_alloc(struct ptjson *j, size_t nkeys);
void ptjson_keys_add(struct ptjson *j, size_t off, size_t klen);

/* 1-based line of the first object key "key" in the text (O(1), from an
 * index built by ptjson_parse); with from > 0, of the first occurrence of
 * "key" (with its quotes) at or after byte offset from (O(n)). 0 when
 * absent. */
long ptjson_key_line(const struct ptjson *j, const char *key, size_t from);

/* 1-based line of the next occurrence of "key" (with its quotes) at or
 * after *pos, which moves past it (to the end when there is none): calls
 * for consecutive rows cost one pass over the text in all. 0 when absent. */
long ptjson_key_line_next(const struct ptjson *j, const char *key, size_t *pos);

/* 1-based line of byte offset off (O(log n)). */
long ptjson_line_at(const struct ptjson *j, size_t off);

/* Builds the member index of obj (an object; anything else gives an empty
 * index). Returns 0, -1 when out of memory. */
int ptjson_members_build(struct ptjson_members *m, const cJSON *obj);
/* The first member of the indexed object named name[0..len), or NULL. */
const cJSON *ptjson_members_get(const struct ptjson_members *m, const char *name, size_t len);
void ptjson_members_release(struct ptjson_members *m);

/* 2 when v is within rel (relative, as pt_close) of a number member of a
 * table owner of j (the first 16 tables), 1 of a number in one of their
 * rows, 0 neither. O(log n). */
int ptjson_has_value(const struct ptjson *j, double v, double rel);

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
 * objects, where every row has at least one number member; a table whose
 * rows each hold an array table of their own (CANN-Bench result files:
 * "operators": [{"avg_speedup": ..., "cases": [...]}]) is a list of
 * groups, and the tables are the nested ones (their owner the group, so
 * the group's aggregates are checked against its cases). Returns the
 * number found. The pointers borrow from j->root. */
size_t ptjson_tables(const struct ptjson *j, struct ptjson_table *out, size_t max);

/* Row i of a table (array element or object member); NULL past the end.
 * O(i): walk the rows with ptjson_row(t, 0) and ->next instead. */
const cJSON *ptjson_row(const struct ptjson_table *t, size_t i);

/* The numeric value of key in row, NAN when absent or not a number. */
double ptjson_num(const cJSON *row, const char *key);

/* Writes a short label for row (the i-th, 0-based: "case 3", the member
 * name, or "#3") to buf. */
void ptjson_row_label(const cJSON *row, size_t i, char *buf, size_t len);

/* Arithmetic and geometric mean of the finite positive speedups of the
 * table's rows; *nvalid gets their count. Both NAN when none. */
void ptjson_speedup_means(const struct ptjson_table *t, double *mean, double *geomean,
			  size_t *nvalid);

#endif
