/* test_inventory.c: workload_inventory.json read into the model: the
 * facts the S4 inventory rules decide on (present and typed fields,
 * strings, marks), the shapes that are not an inventory, and bad JSON. */
#include "testlib.h"

#include "io/inventory.h"

static int parse(const char *text, struct inventory *inv)
{
	return inventory_parse(text, strlen(text), inv);
}

static void test_item_facts(void **state)
{
	(void)state;
	struct inventory inv;
	const char *t = "{\"workloads\": [{\"benchmark_source\": \"bench.py\", \"kernel_id\": \"k\","
			" \"workload_id\": \"w1\", \"label\": \"w1 smoke\", \"marks\": [\"Smoke\", 3, \"full\"],"
			" \"shape\": [1, 2], \"dtype\": \"fp16\", \"params\": {}, \"kind\": \"smoke\","
			" \"reason\": \"\", \"tuning_status\": \"no_gain\", \"precision_pass\": true}]}";
	assert_int_equal(parse(t, &inv), 0);
	assert_int_equal(inv.has_workloads, 1);
	assert_int_equal(inv.n, 1);
	const struct inventory_item *it = &inv.v[0];
	assert_int_equal(it->index, 1);
	assert_int_equal(it->is_object, 1);
	assert_int_equal(it->present, 0xfffu);
	/* marks holds a number: present but not of its type */
	assert_int_equal(it->typed, 0xfffu & ~(unsigned)INV_F_MARKS);
	assert_string_equal(it->kernel_id, "k");
	assert_string_equal(it->workload_id, "w1");
	assert_string_equal(it->kind, "smoke");
	assert_string_equal(it->label, "w1 smoke");
	assert_string_equal(it->reason, "");
	assert_string_equal(it->tuning_status, "no_gain");
	assert_int_equal(it->precision_pass, 1);
	assert_int_equal(it->nmarks, 2);
	assert_true(inventory_has_mark(it, "smoke")); /* case-insensitive */
	assert_true(inventory_has_mark(it, "FULL"));
	assert_false(inventory_has_mark(it, "skip"));
	inventory_release(&inv);
}

static void test_types_and_gaps(void **state)
{
	(void)state;
	struct inventory inv;
	const char *t = "{\"workloads\": [7, {\"kernel_id\": 5, \"benchmark_source\": \"\","
			" \"shape\": {\"m\": 1}, \"precision_pass\": \"yes\"}]}";
	assert_int_equal(parse(t, &inv), 0);
	assert_int_equal(inv.n, 2);
	assert_int_equal(inv.v[0].is_object, 0);
	assert_int_equal(inv.v[0].present, 0);
	assert_int_equal(inv.v[1].index, 2);
	const struct inventory_item *it = &inv.v[1];
	assert_int_equal(it->present, INV_F_KERNEL_ID | INV_F_BENCHMARK_SOURCE | INV_F_SHAPE |
					      INV_F_PRECISION_PASS);
	/* an empty benchmark_source, a numeric id and a string precision_pass
	 * are present but not typed; an object shape is */
	assert_int_equal(it->typed, INV_F_SHAPE);
	assert_null(it->kernel_id);
	assert_int_equal(it->precision_pass, 0);
	assert_string_equal(inventory_field_name(INV_F_BENCHMARK_SOURCE), "benchmark_source");
	assert_string_equal(inventory_field_name(INV_F_PRECISION_PASS), "precision_pass");
	assert_string_equal(inventory_field_name(3), "?");
	inventory_release(&inv);
}

static void test_not_an_inventory(void **state)
{
	(void)state;
	struct inventory inv;
	assert_int_equal(parse("[1, 2]", &inv), 0);
	assert_int_equal(inv.has_workloads, 0);
	inventory_release(&inv);
	assert_int_equal(parse("{\"workloads\": {}}", &inv), 0);
	assert_int_equal(inv.has_workloads, 0);
	inventory_release(&inv);
	assert_int_equal(parse("{\"workloads\": []}", &inv), 0);
	assert_int_equal(inv.has_workloads, 1);
	assert_int_equal(inv.n, 0);
	inventory_release(&inv);
	assert_int_equal(parse("{\"workloads\": [", &inv), 1);
	assert_int_equal(inv.n, 0);
	inventory_release(&inv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_item_facts),
		cmocka_unit_test(test_types_and_gaps),
		cmocka_unit_test(test_not_an_inventory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
