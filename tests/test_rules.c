/* test_rules.c: every gate rule carries the whole explanation `tlperf
 * explain` prints and docs/rules.md is made of, and the renderers keep it. */
#include "testlib.h"

#include <ctype.h>

#include "gates/rules.h"
#include "report/rules_doc.h"

static void assert_prose(const char *id, const char *field, const char *s)
{
	if (!s || strlen(s) < 20)
		fail_msg("%s: field '%s' missing or too short", id, field);
	size_t n = strlen(s);
	if (s[n - 1] != '.' && s[n - 1] != ')')
		fail_msg("%s: field '%s' does not end a sentence: '...%s'", id, field,
			 n > 20 ? s + n - 20 : s);
}

static void test_every_rule_has_every_field(void **state)
{
	(void)state;
	assert_true(gate_nrules > 0);
	for (size_t i = 0; i < gate_nrules; i++) {
		const struct gate_rule_info *r = &gate_rules[i];
		assert_non_null(r->id);
		if (!r->summary || !*r->summary)
			fail_msg("%s: no summary", r->id);
		/* the summary is a phrase: docs/rules.md adds the full stop */
		if (r->summary[strlen(r->summary) - 1] == '.')
			fail_msg("%s: summary ends with '.'", r->id);
		assert_prose(r->id, "purpose", r->purpose);
		assert_prose(r->id, "trigger", r->trigger);
		assert_prose(r->id, "fix", r->fix);
		if (!r->example || !*r->example)
			fail_msg("%s: no example", r->id);
		/* the example shows the finding the rule reports */
		char tag[96];
		snprintf(tag, sizeof(tag), "[%s", r->id);
		if (!strstr(r->example, tag))
			fail_msg("%s: the example shows no finding of the rule ('%s')", r->id, tag);
		if (i > 0 && strcmp(gate_rules[i - 1].id, r->id) >= 0)
			fail_msg("rules not sorted by id: '%s' after '%s'", r->id, gate_rules[i - 1].id);
	}
}

static void test_find_and_anchor(void **state)
{
	(void)state;
	char buf[256];
	assert_non_null(gate_rule_find("S4-PERF-RECORDS-RECON"));
	assert_null(gate_rule_find("S4-NOPE"));
	/* a feedback sub-id shares its family's entry */
	assert_string_equal(gate_rule_find("S4-PERF-FEEDBACK-SECTIONS")->id, "S4-PERF-FEEDBACK");
	report_rule_anchor("S4-PERF-RECORDS-RECON", buf, sizeof(buf));
	assert_string_equal(buf, "s4-perf-records-recon");
	/* the base: TLPERF_DOCS_URL (trailing slashes dropped), https only */
	setenv("TLPERF_DOCS_URL", "https://docs.example/t//", 1);
	assert_int_equal(report_rule_help_uri("PT-DB", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "https://docs.example/t/rules.md#pt-db");
	const char *bad[] = { "", "file:///usr/share/doc/tlperf", "http://docs.example/t", "https://",
			      "https://a b", "docs.example" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		setenv("TLPERF_DOCS_URL", bad[i], 1);
		assert_null(report_docs_url());
		assert_int_equal(report_rule_help_uri("PT-DB", buf, sizeof(buf)), -1);
		assert_string_equal(buf, "");
	}
	unsetenv("TLPERF_DOCS_URL");
}

/* The text form carries every field; long prose is wrapped. */
static void test_text_and_markdown(void **state)
{
	(void)state;
	static char buf[1 << 18];
	for (size_t i = 0; i < gate_nrules; i++) {
		FILE *f = fmemopen(buf, sizeof(buf), "w");
		assert_non_null(f);
		assert_int_equal(report_rule_text(f, &gate_rules[i]), 0);
		fclose(f);
		buf[sizeof(buf) - 1] = '\0';
		assert_true(strncmp(buf, gate_rules[i].id, strlen(gate_rules[i].id)) == 0);
		assert_non_null(strstr(buf, "\nwhy\n"));
		assert_non_null(strstr(buf, "\nwhat triggers it\n"));
		assert_non_null(strstr(buf, "\nhow to fix it\n"));
		assert_non_null(strstr(buf, "\nexample\n"));
		/* prose lines fit 78 columns (examples are preformatted) */
		const char *ex = strstr(buf, "\nexample\n");
		for (const char *p = buf; p < ex;) {
			const char *nl = strchr(p, '\n');
			size_t cols = 0;
			for (const char *q = p; q < nl; q++)
				if (((unsigned char)*q & 0xC0) != 0x80)
					cols++;
			if (p != buf && cols > 78)
				fail_msg("%s: line of %zu columns", gate_rules[i].id, cols);
			p = nl + 1;
		}
	}
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	assert_int_equal(report_rules_markdown(f), 0);
	fclose(f);
	buf[sizeof(buf) - 1] = '\0';
	for (size_t i = 0; i < gate_nrules; i++) {
		char h[128];
		snprintf(h, sizeof(h), "\n## %s\n", gate_rules[i].id);
		if (!strstr(buf, h))
			fail_msg("docs lack the section of %s", gate_rules[i].id);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_rule_has_every_field),
		cmocka_unit_test(test_find_and_anchor),
		cmocka_unit_test(test_text_and_markdown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
