/* inventory.c: see inventory.h. */
#include "model/inventory.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *inventory_field_name(unsigned bit)
{
	static const char *const names[] = { "benchmark_source", "kernel_id", "workload_id",
					     "label", "marks", "shape", "dtype", "params", "kind",
					     "reason", "tuning_status", "precision_pass" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (bit == 1u << i)
			return names[i];
	return "?";
}

void inventory_init(struct inventory *inv)
{
	memset(inv, 0, sizeof(*inv));
}

void inventory_release(struct inventory *inv)
{
	for (size_t i = 0; i < inv->n; i++) {
		struct inventory_item *it = &inv->v[i];
		free(it->kernel_id);
		free(it->workload_id);
		free(it->kind);
		free(it->label);
		free(it->reason);
		free(it->tuning_status);
		for (size_t k = 0; k < it->nmarks; k++)
			free(it->marks[k]);
		free(it->marks);
	}
	free(inv->v);
	inventory_init(inv);
}

int inventory_has_mark(const struct inventory_item *it, const char *m)
{
	for (size_t i = 0; i < it->nmarks; i++)
		if (strcasecmp(it->marks[i], m) == 0)
			return 1;
	return 0;
}
