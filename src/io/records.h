/* io/records.h: the one perf_records.jsonl reader (model in
 * model/records.h).
 *
 * Format (strict JSONL): UTF-8 text, one JSON object per line, lines end
 * with LF (a CR before the LF is accepted and reported through
 * records_reader.crlf). A line is refused, with a message naming what is
 * wrong, when it
 *   - is longer than RECORDS_LINE_MAX bytes ("line longer than 1048576
 *     bytes"; the rest of it is skipped in bounded memory),
 *   - holds a NUL byte, invalid UTF-8, or a carriage return anywhere but
 *     right before its LF (CR-only line endings: the whole file would read
 *     as one line),
 *   - is not one JSON object, or has anything but whitespace after it (two
 *     objects on a line),
 *   - has a string holding \u0000 (ids would be truncated), a lone UTF-16
 *     surrogate escape, or values nested deeper than RECORDS_MAX_DEPTH,
 *   - repeats a key (checked in linear time with a hash set),
 *   - breaks the v1/v2 schema (model/records.h).
 * Blank lines (only whitespace) are skipped. A UTF-8 byte order mark at
 * the start of the file is skipped and reported through records_reader.bom.
 *
 * Cost: one pass over each line, parsed in place (strings are unescaped
 * where they lie and NUL-terminated there), no allocation per line or field
 * once the buffers have grown. Ids (candidate_id, parent_id, dispatch,
 * workload, phase) are interned in the caller's strpool: equal ids are the
 * same pointer, and the pool grows with the number of distinct ids, not of
 * records. Memory of the reader itself: the longest line read plus the
 * duplicate-key table.
 */
#ifndef TLPERF_IO_RECORDS_H
#define TLPERF_IO_RECORDS_H

#include <stddef.h>
#include <stdio.h>

#include "io/lineio.h"
#include "model/records.h"
#include "util/strpool.h"

#define RECORDS_LINE_MAX LINEIO_DEFAULT_LIMIT /* bytes per line, LF excluded */
#define RECORDS_MAX_DEPTH 64                  /* arrays/objects inside a record */

/* What records_reader_next() found. */
enum records_next {
	RECORDS_NEXT_ERROR = -1,   /* read error or out of memory (errno set) */
	RECORDS_NEXT_EOF = 0,
	RECORDS_NEXT_RECORD = 1,   /* *out holds a valid record */
	RECORDS_NEXT_PROBLEM = 2,  /* the line is invalid: rd->err says why */
	RECORDS_NEXT_BLANK = 3     /* a line of whitespace only */
};

struct records_keyslot;

struct records_reader {
	struct lineio l;        /* file mode */
	int from_file;
	const char *buf;        /* buffer mode: the text and the read position */
	size_t blen, bpos;
	char *copy;             /* buffer mode: the current line, writable */
	size_t copycap;
	struct strpool *ids;    /* where ids are interned (the caller's) */
	struct records_keyslot *keys; /* duplicate-key set, reused per line */
	size_t nkeys;           /* slots, a power of two */
	unsigned gen;           /* generation marking this line's keys */
	/* ids seen lately per id field (candidate, parent, dispatch, workload),
	 * 16 per field by length and end bytes: a repeat is not hashed */
	const char *id_cache[4][16];
	/* the known keys of the last line in order (field + 1; 0 unknown):
	 * the next line's key at the same place is tried first */
	unsigned char key_order[32];
	size_t id_cache_n[4][16];
	/* about the line just returned */
	long line;              /* 1-based */
	int bom;                /* 1 on line 1 when a byte order mark was skipped */
	int crlf;               /* 1 when the line ended with CR LF */
	int truncated;          /* 1 when the line was over RECORDS_LINE_MAX */
	int bare_cr;            /* 1 when the line held a CR before its end */
	int not_text;           /* 1 when the file is not text (lineio_not_text):
				   one RECORDS_NEXT_PROBLEM for line 1, then EOF */
	unsigned long long bytes; /* bytes consumed so far, line ends included */
	char err[256];          /* RECORDS_NEXT_PROBLEM: lowercase, no period */
};

/* Opens path for reading (lineio_open rules: devices refused, FIFOs never
 * block). ids receives the interned ids; it must outlive every record read.
 * Returns 0, or -1 with errno set. */
int records_reader_open(struct records_reader *rd, const char *path, struct strpool *ids);
/* The same over an open stream (taken over: closed by records_reader_close),
 * for files opened inside a checked tree (io/tree.h). */
void records_reader_stream(struct records_reader *rd, FILE *f, struct strpool *ids);
/* Reads from buf[0..len) instead (not copied: keep it alive). */
void records_reader_buffer(struct records_reader *rd, const char *buf, size_t len,
			   struct strpool *ids);
/* Reads the next line. A file that is not text (a NUL byte in its first
 * LINEIO_SNIFF bytes: a binary file, not a records file with a bad line)
 * gives one RECORDS_NEXT_PROBLEM at line 1 saying so, with not_text set,
 * and then RECORDS_NEXT_EOF: one error, not one per pseudo-line.
 * On RECORDS_NEXT_RECORD the record's ids live in the
 * pool; its other strings (artifact_path, artifact_sha256,
 * msprof_raw_path, timestamp) point into the reader's line buffer and are
 * valid until the next call (records_keep() copies them). */
enum records_next records_reader_next(struct records_reader *rd, struct record *out);
void records_reader_close(struct records_reader *rd);

/* Parses one line (without its LF) as the reader does and, when it is a
 * valid record, appends it to rs; ids go to rs's pool. Returns 0 (added),
 * -1 with a message in err (invalid; blank counts as "empty line"), -2
 * when memory ran out. */
int records_parse_one(const char *text, size_t len, long line, struct records *rs, char *err,
		      size_t errlen);

/* Reads path into *rs (valid records, file order) and every invalid line
 * into *ps (may be NULL). A file with no non-blank line yields nothing.
 * Returns 0, or -1 when the file cannot be opened or read or memory ran out
 * (errno set). */
int records_load(const char *path, struct records *rs, struct records_problems *ps);
/* Same, from memory (tests, fuzzers). Returns 0, -1 when out of memory. */
int records_load_buffer(const char *buf, size_t len, struct records *rs,
			struct records_problems *ps);

#endif
