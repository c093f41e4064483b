/* io/inventory.h: reading workload_inventory.json into struct inventory
 * (model/inventory.h). */
#ifndef TLPERF_IO_INVENTORY_H
#define TLPERF_IO_INVENTORY_H

#include <stddef.h>

#include "model/inventory.h"

/* Parses len bytes of JSON text into *inv (initialised here). Returns 0
 * when the text is JSON (inv->has_workloads says whether it has the
 * documented shape), 1 when it is not valid JSON (*inv empty), -1 on
 * allocation failure (*inv released). The caller has already refused a
 * BOM, NUL bytes and invalid UTF-8. */
int inventory_parse(const char *text, size_t len, struct inventory *inv);

#endif
