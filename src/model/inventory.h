/* inventory.h: workload_inventory.json (contract v2) as the gate rules see
 * it: which workloads exist, which are tuned, and what each item declares.
 *
 * The reader (io/inventory.h) keeps facts, not verdicts: which documented
 * fields an item has, which of them have their documented JSON type, and
 * the strings the rules compare. Whether that makes the item valid is for
 * gates/s4_coverage.c to decide.
 */
#ifndef TLPERF_MODEL_INVENTORY_H
#define TLPERF_MODEL_INVENTORY_H

#include <stddef.h>

/* The documented fields of an item, as bits of inventory_item.present and
 * .typed. INV_F_TUNING_STATUS and INV_F_PRECISION_PASS are optional. */
enum inventory_field {
	INV_F_BENCHMARK_SOURCE = 1 << 0, /* non-empty string */
	INV_F_KERNEL_ID = 1 << 1,        /* string */
	INV_F_WORKLOAD_ID = 1 << 2,      /* string */
	INV_F_LABEL = 1 << 3,            /* string */
	INV_F_MARKS = 1 << 4,            /* array of strings */
	INV_F_SHAPE = 1 << 5,            /* array or object */
	INV_F_DTYPE = 1 << 6,            /* string */
	INV_F_PARAMS = 1 << 7,           /* object */
	INV_F_KIND = 1 << 8,             /* string */
	INV_F_REASON = 1 << 9,           /* string */
	INV_F_TUNING_STATUS = 1 << 10,   /* string */
	INV_F_PRECISION_PASS = 1 << 11   /* true or false */
};
#define INV_F_REQUIRED 0x3ffu /* benchmark_source .. reason */

/* The name of one field bit ("benchmark_source", ...), or "?". */
const char *inventory_field_name(unsigned bit);

struct inventory_item {
	int index;              /* 1-based position in "workloads" */
	int is_object;          /* 0: the entry is not a JSON object (nothing else set) */
	unsigned present;       /* inventory_field bits of the members it has */
	unsigned typed;         /* bits of the members that have their documented type */
	char *kernel_id;        /* the string members, NULL when absent or not a string */
	char *workload_id;
	char *kind;
	char *label;
	char *reason;
	char *tuning_status;
	int precision_pass;     /* 1 only when "precision_pass": true */
	char **marks;           /* the string entries of "marks" */
	size_t nmarks;
};

struct inventory {
	int has_workloads;              /* 1 when the top level is an object with a "workloads" array */
	struct inventory_item *v;       /* items in file order */
	size_t n;
};

void inventory_init(struct inventory *inv);
void inventory_release(struct inventory *inv);

/* 1 when item carries mark m (case-insensitive). */
int inventory_has_mark(const struct inventory_item *it, const char *m);

#endif
