/* io/stage_result.h: reads a `## Stage Result` block (the seed's delivery
 * report) written by anyone into the model (model/stage_result.h).
 *
 * Tolerant of how agents write it:
 *   - the heading at any level (`## Stage Result`, `### Stage Result`) or
 *     a bold line `**Stage Result**`; the block runs to the next heading;
 *     code fences around it are ignored; without any heading, a text whose
 *     lines name seed fields is read whole (with a warning);
 *   - lines `- key: value`, `* key: value`, `key: value`, `**key**: value`,
 *     with an ASCII or a full-width colon (`：`, noted);
 *   - per-workload lines `- WORKLOAD: final_latency: 7.1 us`,
 *     `- final_latency (WORKLOAD): 7.1 us`, `- final_latency[WORKLOAD]: ...`
 *     or `- final_latency: WORKLOAD: 7.1 us`;
 *   - keys written with spaces or capitals (`Final latency`) are read as
 *     the seed's field (noted).
 * Several Stage Result blocks: the last one is read, the others noted.
 * Every entry keeps its 1-based line number.
 */
#ifndef TLPERF_IO_STAGE_RESULT_H
#define TLPERF_IO_STAGE_RESULT_H

#include <stddef.h>

#include "model/stage_result.h"

/* Largest block file read (bytes). */
#define STAGE_RESULT_MAX_BYTES (4u << 20)

/* Parses text[0..len) into *sr (initialised by the caller). Returns 0, -1
 * on allocation failure. */
int stage_result_parse(const char *text, size_t len, struct stage_result *sr);

/* Reads path ("-" for standard input) and parses it. Returns 0; -1 when it
 * cannot be read, is not text (a NUL byte) or is larger than
 * STAGE_RESULT_MAX_BYTES, with a message in err (naming the file). */
int stage_result_load(const char *path, struct stage_result *sr, char *err, size_t errlen);

#endif
