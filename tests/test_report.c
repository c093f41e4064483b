/* test_report.c: every output format of the gate's findings parses back,
 * escapes hostile text, and keeps its fingerprints stable. */
#include "testlib.h"
#include "xmlwf.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <sys/stat.h>

#include "report/report.h"
#include "gates/rules.h"
#include "stats/synth.h"
#include "util/utf8.h"

/* A message quoting a hostile line from a pull request. */
#define NASTY "bad \xff\xfe bytes <tag> & \"q\" 'a' \x01\x1b[31m | 50% a,b:c\r\nnext"

/* The format named n (which must exist). */
#define FMT(n) must_format(n)

static const struct report_format *must_format(const char *name)
{
	const struct report_format *f = report_format_named(name);
	assert_non_null(f);
	return f;
}

static char *render(const struct report_format *fmt, const struct gate_findings *fs,
		    const struct report_ctx *ctx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(report_write(f, fmt, fs, ctx), 0);
	assert_int_equal(fclose(f), 0);
	assert_non_null(buf);
	/* whatever the input, every format is valid UTF-8 */
	assert_true(utf8_invalid_at(buf, len) == (size_t)-1);
	return buf;
}

static struct report_ctx ctx_for(const char *root)
{
	struct report_ctx c = { "tlgate", "9.9.9", root, 3, 0, -1, 0, 0 };
	return c;
}

/* Three findings: an error with a line, a whole-file warning, a note. */
static void sample(struct gate_findings *fs, const char *dir)
{
	char p1[PATH_MAX], p2[PATH_MAX];
	snprintf(p1, sizeof(p1), "%s/op_a/perf_opt/opt_log.md", dir);
	snprintf(p2, sizeof(p2), "%s/op_a/perf_opt/perf_records.jsonl", dir);
	gate_findings_init(fs);
	assert_int_equal(gate_add(fs, "S4-PERF-RECORDS-RECON", GATE_ERROR, p1, 42,
				  "final_latency 3.12 us does not match the winner's record 3.50 us"), 0);
	assert_int_equal(gate_add(fs, "S4-LAYOUT", GATE_WARNING, p2, 0, "%s", "probe.log at top"), 0);
	assert_int_equal(gate_add(fs, "S4-OPTLOG", GATE_NOTE, p1, 7, "superseded session"), 0);
	assert_int_equal(gate_add(fs, "S4-SPEEDUP", GATE_OFF, p1, 9, "dropped"), 0);
}

/* Every format in the one list: found by name, with a renderer, no name
 * twice, and the option help naming exactly these (in order). */
static void test_format_names(void **state)
{
	(void)state;
	const char *names[] = { "text", "json", "sarif", "github", "junit", "markdown", "gitlab" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct report_format *f = report_format_named(names[i]);
		assert_non_null(f);
		assert_string_equal(f->name, names[i]);
		assert_non_null(f->render);
	}
	assert_null(report_format_named("xml"));
	assert_null(report_format_named(""));
	assert_null(report_format_named("Text"));
	/* the usage's "one of:" list (report_format_names) is the formats' */
	size_t n = 0;
	for (const struct report_format *f = report_formats; f->name; f++, n++) {
		assert_ptr_equal(report_format_named(f->name), f);
		assert_non_null(report_format_names[n]);
		assert_string_equal(report_format_names[n], f->name);
	}
	assert_null(report_format_names[n]);
	assert_int_equal(n, sizeof(names) / sizeof(names[0]));
	assert_string_equal(report_formats[0].name, "text");
	assert_non_null(strstr(REPORT_FORMAT_HELP, "(default: text)"));
}

static void test_text(void **state)
{
	(void)state;
	struct gate_findings fs;
	gate_findings_init(&fs);
	gate_add(&fs, "S4-OPTLOG", GATE_ERROR, "a/perf_opt/opt_log.md", 3, "no table");
	gate_add(&fs, "S4-PERF-RECORDS", GATE_WARNING, "a/perf_opt/perf_records.jsonl", 0, "missing");
	gate_add(&fs, "S4-SPEEDUP", GATE_OFF, "x", 1, "off");
	gate_add(&fs, "S4-LAYOUT", GATE_NOTE, "b", 1, "esc \x1b[31m and \xff");
	struct report_ctx c = ctx_for(NULL);
	char *out = render(FMT("text"), &fs, &c);
	assert_string_equal(out, "a/perf_opt/opt_log.md:3: error: [S4-OPTLOG] no table\n"
				 "a/perf_opt/perf_records.jsonl: warning: [S4-PERF-RECORDS] missing\n"
				 "b:1: note: [S4-LAYOUT] esc \\x1b[31m and \\xff\n");
	free(out);
	gate_findings_release(&fs);
}

static void test_json(void **state)
{
	(void)state;
	struct gate_findings fs;
	sample(&fs, "/r");
	gate_add(&fs, "S4-OPTLOG", GATE_ERROR, "/r/x\xc3", 1, "%s", NASTY);
	struct report_ctx c = ctx_for("/r");
	char *out = render(FMT("json"), &fs, &c);
	cJSON *doc = cJSON_Parse(out);
	assert_non_null(doc);
	cJSON *arr = cJSON_GetObjectItemCaseSensitive(doc, "findings");
	assert_true(cJSON_IsArray(arr));
	assert_int_equal(cJSON_GetArraySize(arr), 4); /* the GATE_OFF one is dropped */
	cJSON *first = cJSON_GetArrayItem(arr, 0);
	assert_string_equal(cJSON_GetObjectItem(first, "rule")->valuestring, "S4-PERF-RECORDS-RECON");
	assert_string_equal(cJSON_GetObjectItem(first, "severity")->valuestring, "error");
	assert_string_equal(cJSON_GetObjectItem(first, "file")->valuestring,
			    "/r/op_a/perf_opt/opt_log.md");
	assert_int_equal(cJSON_GetObjectItem(first, "line")->valueint, 42);
	cJSON *last = cJSON_GetArrayItem(arr, 3);
	/* invalid bytes became U+FFFD; the rest of the message survives */
	assert_non_null(strstr(cJSON_GetObjectItem(last, "message")->valuestring,
			       "bad \xEF\xBF\xBD\xEF\xBF\xBD bytes <tag> & \"q\""));
	cJSON *counts = cJSON_GetObjectItem(doc, "counts");
	assert_int_equal(cJSON_GetObjectItem(counts, "error")->valueint, 2);
	assert_int_equal(cJSON_GetObjectItem(counts, "warning")->valueint, 1);
	assert_int_equal(cJSON_GetObjectItem(counts, "note")->valueint, 1);
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(doc, "passed")));
	cJSON_Delete(doc);
	free(out);
	gate_findings_release(&fs);

	/* no findings: passed, empty array */
	gate_findings_init(&fs);
	out = render(FMT("json"), &fs, &c);
	doc = cJSON_Parse(out);
	assert_non_null(doc);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "findings")), 0);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(doc, "passed")));
	cJSON_Delete(doc);
	free(out);
}

/* Follows a dotted path ("runs.0.tool.driver.name"); numbers index arrays. */
static cJSON *item_at(cJSON *o, const char *path)
{
	cJSON *cur = o;
	const char *p = path;
	while (cur && *p) {
		const char *dot = strchr(p, '.');
		size_t n = dot ? (size_t)(dot - p) : strlen(p);
		char tok[64];
		snprintf(tok, sizeof(tok), "%.*s", (int)n, p);
		if (tok[0] >= '0' && tok[0] <= '9')
			cur = cJSON_GetArrayItem(cur, (int)strtol(tok, NULL, 10));
		else
			cur = cJSON_GetObjectItemCaseSensitive(cur, tok);
		p += n + (dot != NULL);
	}
	return cur;
}

static const char *str_at(cJSON *o, const char *path)
{
	cJSON *it = item_at(o, path);
	return cJSON_IsString(it) ? it->valuestring : NULL;
}

static void test_sarif(void **state)
{
	(void)state;
	struct gate_findings fs;
	sample(&fs, "/repo");
	gate_add(&fs, "S4-PERF-FEEDBACK-SECTIONS", GATE_ERROR, "/elsewhere/a b.md", 0, "%s", NASTY);
	gate_add(&fs, "X-UNKNOWN", GATE_WARNING, "rel/path.md", 5, "unknown rule");
	struct report_ctx c = ctx_for("/repo");
	/* no documentation base: no helpUri or informationUri at all */
	setenv("TLPERF_DOCS_URL", "", 1);
	char *out = render(FMT("sarif"), &fs, &c);
	cJSON *doc = cJSON_Parse(out);
	assert_non_null(doc);
	assert_null(strstr(out, "Uri\""));
	cJSON_Delete(doc);
	free(out);
	/* a published base: every rule linked under it */
	setenv("TLPERF_DOCS_URL", "https://docs.example/tlperf/", 1);
	out = render(FMT("sarif"), &fs, &c);
	doc = cJSON_Parse(out);
	assert_non_null(doc);
	assert_string_equal(str_at(doc, "version"), "2.1.0");
	assert_non_null(strstr(str_at(doc, "$schema"), "sarif-2.1.0"));
	assert_string_equal(str_at(doc, "runs.0.tool.driver.name"), "tlgate");
	assert_string_equal(str_at(doc, "runs.0.tool.driver.version"), "9.9.9");

	/* one rule object per id: the registry, then ids only findings use */
	cJSON *rules = item_at(doc, "runs.0.tool.driver.rules");
	assert_int_equal(cJSON_GetArraySize(rules), (int)gate_nrules + 2);
	for (int i = 0; i < cJSON_GetArraySize(rules); i++)
		for (int k = i + 1; k < cJSON_GetArraySize(rules); k++)
			assert_string_not_equal(str_at(cJSON_GetArrayItem(rules, i), "id"),
						str_at(cJSON_GetArrayItem(rules, k), "id"));
	const struct gate_rule_info *recon = gate_rule_find("S4-PERF-RECORDS-RECON");
	const struct gate_rule_info *fb = gate_rule_find("S4-PERF-FEEDBACK");

	cJSON *results = item_at(doc, "runs.0.results");
	assert_int_equal(cJSON_GetArraySize(results), 5);
	cJSON *r;
	cJSON_ArrayForEach(r, results) {
		int idx = cJSON_GetObjectItem(r, "ruleIndex")->valueint;
		cJSON *rule = cJSON_GetArrayItem(rules, idx);
		assert_string_equal(str_at(rule, "id"), str_at(r, "ruleId"));
		const struct gate_rule_info *info = gate_rule_find(str_at(r, "ruleId"));
		assert_string_equal(str_at(rule, "shortDescription.text"),
				    info ? info->summary : str_at(r, "ruleId"));
		/* known rules link their section of docs/rules.md and carry help */
		if (info) {
			char anchor[160];
			snprintf(anchor, sizeof(anchor), "/rules.md#%s", info->id);
			for (char *c = anchor; *c; c++)
				*c = (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
			assert_non_null(strstr(str_at(rule, "helpUri"), anchor));
			assert_int_equal(strncmp(str_at(rule, "helpUri"), "https://docs.example/tlperf/rules.md#", 37), 0);
			assert_non_null(strstr(str_at(rule, "help.text"), info->fix));
		}
	}
	assert_string_equal(str_at(doc, "runs.0.tool.driver.informationUri"),
			    "https://docs.example/tlperf/README.md");
	assert_non_null(recon);
	assert_non_null(fb);
	r = cJSON_GetArrayItem(results, 0);
	assert_string_equal(str_at(r, "level"), "error");
	assert_string_equal(str_at(r, "locations.0.physicalLocation.artifactLocation.uri"),
			    "op_a/perf_opt/opt_log.md");
	assert_int_equal(item_at(r, "locations.0.physicalLocation.region.startLine")->valueint, 42);
	assert_non_null(strstr(str_at(r, "message.text"), "3.12 us"));
	r = cJSON_GetArrayItem(results, 1);
	assert_string_equal(str_at(r, "level"), "warning");
	/* a whole-file finding (line 0) points at line 1 */
	assert_int_equal(item_at(r, "locations.0.physicalLocation.region.startLine")->valueint, 1);
	assert_string_equal(str_at(cJSON_GetArrayItem(results, 2), "level"), "note");
	/* outside the root: an absolute file URI, percent-encoded */
	r = cJSON_GetArrayItem(results, 3);
	assert_string_equal(str_at(r, "locations.0.physicalLocation.artifactLocation.uri"),
			    "file:///elsewhere/a%20b.md");
	assert_string_equal(str_at(cJSON_GetArrayItem(rules, cJSON_GetObjectItem(r, "ruleIndex")->valueint),
				   "shortDescription.text"), fb->summary);
	r = cJSON_GetArrayItem(results, 4);
	assert_string_equal(str_at(cJSON_GetArrayItem(rules, cJSON_GetObjectItem(r, "ruleIndex")->valueint),
				   "shortDescription.text"), "X-UNKNOWN");
	cJSON_Delete(doc);
	free(out);
	gate_findings_release(&fs);
}

static void test_github(void **state)
{
	(void)state;
	struct gate_findings fs;
	gate_findings_init(&fs);
	gate_add(&fs, "S4-SPEEDUP", GATE_ERROR, "/r/op,x/perf_opt/a:b.md", 12,
		 "50%% claimed\r\nsecond line, with: colon");
	gate_add(&fs, "S4-LAYOUT", GATE_WARNING, "/r/p/probe.log", 0, "move it");
	gate_add(&fs, "S4-OPTLOG", GATE_NOTE, "/r/p/opt_log.md", 2, "fyi");
	struct report_ctx c = ctx_for("/r");
	char *out = render(FMT("github"), &fs, &c);
	assert_string_equal(out,
			    "::error file=op%2Cx/perf_opt/a%3Ab.md,line=12,title=S4-SPEEDUP::"
			    "50%25 claimed%0D%0Asecond line, with: colon\n"
			    "::warning file=p/probe.log,title=S4-LAYOUT::move it\n"
			    "::notice file=p/opt_log.md,line=2,title=S4-OPTLOG::fyi\n");
	free(out);
	gate_findings_release(&fs);
}

struct junit_count {
	size_t testcases, failures, suites;
	char tests_attr[32], failures_attr[32];
};

static void junit_start(const struct xmlwf_tag *t, void *ctx)
{
	struct junit_count *jc = ctx;
	size_t len;
	const char *v;
	if (strcmp(t->name, "testcase") == 0)
		jc->testcases++;
	else if (strcmp(t->name, "failure") == 0)
		jc->failures++;
	else if (strcmp(t->name, "testsuite") == 0) {
		jc->suites++;
		if ((v = xmlwf_attr(t, "tests", &len)) && len < sizeof(jc->tests_attr))
			memcpy(jc->tests_attr, v, len);
		if ((v = xmlwf_attr(t, "failures", &len)) && len < sizeof(jc->failures_attr))
			memcpy(jc->failures_attr, v, len);
	}
}

static void check_xml(const char *doc, xmlwf_start_fn fn, void *ctx)
{
	char err[128];
	if (xmlwf_check(doc, strlen(doc), fn, ctx, err, sizeof(err)) != 0) {
		print_error("not well-formed: %s\n%s\n", err, doc);
		fail();
	}
}

static void test_xml_checker_rejects(void **state)
{
	(void)state;
	/* the checker itself must catch what a broken writer would produce */
	const char *bad[] = { "<a>", "<a></b>", "<a x=\"1\" x=\"2\"/>", "<a>&bogus;</a>",
			      "<a>x & y</a>", "<a x=\"<\"/>", "<a/><b/>", "<a>\x01</a>",
			      "<a>\xff</a>", "<a x=1/>", "text", "<a><!-- -- --></a>",
			      "<a>&#0;</a>" };
	char err[128];
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (xmlwf_check(bad[i], strlen(bad[i]), NULL, NULL, err, sizeof(err)) == 0) {
			print_error("accepted: %s\n", bad[i]);
			fail();
		}
	const char *good = "<?xml version=\"1.0\"?>\n<a x='\"' y=\"&amp;&#10;\"><b/>t&lt;&#x41;"
			   "<!-- c --></a>\n";
	check_xml(good, NULL, NULL);
}

static void test_junit(void **state)
{
	(void)state;
	struct gate_findings fs;
	sample(&fs, "/r");
	/* a second error for the same rule and file shares the testcase */
	gate_add(&fs, "S4-PERF-RECORDS-RECON", GATE_ERROR, "/r/op_a/perf_opt/opt_log.md", 50, "%s",
		 NASTY);
	gate_add(&fs, "S4-PERF-RECORDS-RECON", GATE_ERROR, "/r/op_b/perf_opt/op\x01<b>.md", 1, "%s",
		 NASTY);
	struct report_ctx c = ctx_for("/r");
	char *out = render(FMT("junit"), &fs, &c);
	struct junit_count jc;
	memset(&jc, 0, sizeof(jc));
	check_xml(out, junit_start, &jc);
	/* testcases: RECON x2 files, LAYOUT, OPTLOG (note), plus every registry
	 * rule with no finding (S4-SPEEDUP is off, so it counts as silent) */
	size_t used = 3;
	assert_int_equal(jc.suites, 1);
	assert_int_equal(jc.testcases, 4 + gate_nrules - used);
	assert_int_equal(jc.failures, 2);
	char want[32];
	snprintf(want, sizeof(want), "%zu", jc.testcases);
	assert_string_equal(jc.tests_attr, want);
	assert_string_equal(jc.failures_attr, "2");
	assert_non_null(strstr(out, "&lt;tag&gt; &amp;"));
	free(out);

	/* warnings fail too under --warnings-as-errors */
	c.warnings_as_errors = 1;
	out = render(FMT("junit"), &fs, &c);
	memset(&jc, 0, sizeof(jc));
	check_xml(out, junit_start, &jc);
	assert_int_equal(jc.failures, 3);
	free(out);
	gate_findings_release(&fs);

	/* interleaved findings: one testcase per (rule, file) in order of first
	 * appearance, each listing all of its findings */
	gate_findings_init(&fs);
	gate_add(&fs, "S4-SPEEDUP", GATE_ERROR, "/r/b.md", 9, "second rule");
	gate_add(&fs, "S4-OPTLOG", GATE_WARNING, "/r/a.md", 1, "first of two");
	gate_add(&fs, "S4-SPEEDUP", GATE_ERROR, "/r/a.md", 2, "other file");
	gate_add(&fs, "S4-OPTLOG", GATE_ERROR, "/r/a.md", 3, "second of two");
	c.warnings_as_errors = 0;
	out = render(FMT("junit"), &fs, &c);
	memset(&jc, 0, sizeof(jc));
	check_xml(out, junit_start, &jc);
	assert_int_equal(jc.testcases, 3 + gate_nrules - 2);
	assert_int_equal(jc.failures, 3);
	const char *p1 = strstr(out, "name=\"S4-SPEEDUP b.md\""), *p2 = strstr(out, "name=\"S4-OPTLOG a.md\""),
		   *p3 = strstr(out, "name=\"S4-SPEEDUP a.md\"");
	assert_true(p1 && p2 && p3 && p1 < p2 && p2 < p3);
	/* the failure message is the first failing finding; both are listed */
	assert_non_null(strstr(p2, "message=\"second of two\">a.md:1: warning: first of two\na.md:3: error: second of two\n</failure>"));
	free(out);
	gate_findings_release(&fs);

	/* no findings: every rule passes */
	gate_findings_init(&fs);
	out = render(FMT("junit"), &fs, &c);
	memset(&jc, 0, sizeof(jc));
	check_xml(out, junit_start, &jc);
	assert_int_equal(jc.testcases, gate_nrules);
	assert_int_equal(jc.failures, 0);
	free(out);
}

/* Counts '|' not preceded by a backslash. */
static size_t cell_bars(const char *line, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (line[i] == '\\') {
			i++;
			continue;
		}
		k += line[i] == '|';
	}
	return k;
}

static void test_markdown(void **state)
{
	(void)state;
	struct gate_findings fs;
	sample(&fs, "/r");
	gate_add(&fs, "S4-OPTLOG", GATE_ERROR, "/r/a|b/perf_opt/opt_log.md", 3, "%s", NASTY);
	struct report_ctx c = ctx_for("/r");
	char *out = render(FMT("markdown"), &fs, &c);
	assert_non_null(strstr(out, "### tlgate: failed"));
	assert_non_null(strstr(out, "2 errors, 1 warning, 1 note in 3 perf_opt directories checked"));
	assert_non_null(strstr(out, "op\\_a/perf\\_opt/opt\\_log.md:42"));
	assert_non_null(strstr(out, "a\\|b/perf\\_opt"));
	assert_null(strstr(out, "<tag>")); /* HTML is neutralised */
	/* every table row has exactly five cell separators */
	size_t rows = 0;
	for (const char *p = out; *p;) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		if (n && p[0] == '|') {
			assert_int_equal(cell_bars(p, n), 5);
			rows++;
		}
		p += n + (e != NULL);
	}
	assert_int_equal(rows, 2 + 4); /* header, rule line, four findings */
	free(out);
	gate_findings_release(&fs);

	gate_findings_init(&fs);
	c.dirs_checked = 1;
	out = render(FMT("markdown"), &fs, &c);
	assert_non_null(strstr(out, "### tlgate: passed"));
	assert_non_null(strstr(out, "0 errors, 0 warnings, 0 notes in 1 perf_opt directory checked"));
	assert_null(strchr(out, '|'));
	free(out);
}

static void test_gitlab(void **state)
{
	(void)state;
	struct gate_findings fs;
	sample(&fs, "/r");
	gate_add(&fs, "S4-PERF-RECORDS-RECON", GATE_ERROR, "/r/op_a/perf_opt/opt_log.md", 99,
		 "final_latency 3.12 us does not match the winner's record 3.50 us");
	struct report_ctx c = ctx_for("/r");
	char *out = render(FMT("gitlab"), &fs, &c);
	cJSON *doc = cJSON_Parse(out);
	assert_true(cJSON_IsArray(doc));
	assert_int_equal(cJSON_GetArraySize(doc), 4);
	cJSON *a = cJSON_GetArrayItem(doc, 0);
	assert_string_equal(str_at(a, "check_name"), "S4-PERF-RECORDS-RECON");
	assert_string_equal(str_at(a, "severity"), "blocker");
	assert_string_equal(str_at(a, "location.path"), "op_a/perf_opt/opt_log.md");
	assert_int_equal(item_at(a, "location.lines.begin")->valueint, 42);
	assert_non_null(strstr(str_at(a, "description"), "[S4-PERF-RECORDS-RECON] final_latency"));
	assert_string_equal(str_at(cJSON_GetArrayItem(doc, 1), "severity"), "minor");
	assert_int_equal(item_at(cJSON_GetArrayItem(doc, 1), "location.lines.begin")->valueint, 1);
	assert_string_equal(str_at(cJSON_GetArrayItem(doc, 2), "severity"), "info");
	/* fingerprints are unique within a report, even for a repeated finding */
	for (int i = 0; i < 4; i++)
		for (int k = i + 1; k < 4; k++)
			assert_string_not_equal(str_at(cJSON_GetArrayItem(doc, i), "fingerprint"),
						str_at(cJSON_GetArrayItem(doc, k), "fingerprint"));
	char fp0[33];
	snprintf(fp0, sizeof(fp0), "%s", str_at(a, "fingerprint"));
	assert_int_equal(strlen(fp0), 32);
	cJSON_Delete(doc);
	free(out);
	gate_findings_release(&fs);

	/* the next run: the same finding moved to another line, in a checkout
	 * at another place, keeps its fingerprint */
	gate_findings_init(&fs);
	gate_add(&fs, "S4-PERF-RECORDS-RECON", GATE_ERROR, "/ci/build/op_a/perf_opt/opt_log.md", 44,
		 "final_latency 3.12 us does not match the winner's record 3.50 us");
	c.repo_root = "/ci/build";
	out = render(FMT("gitlab"), &fs, &c);
	doc = cJSON_Parse(out);
	assert_string_equal(str_at(cJSON_GetArrayItem(doc, 0), "fingerprint"), fp0);
	cJSON_Delete(doc);
	free(out);
	gate_findings_release(&fs);
}

static void test_fingerprint(void **state)
{
	(void)state;
	char a[33], b[33];
	report_fingerprint("R", "f", "m", 0, a);
	report_fingerprint("R", "f", "m", 0, b);
	assert_string_equal(a, b);
	for (size_t i = 0; i < 32; i++)
		assert_non_null(strchr("0123456789abcdef", a[i]));
	/* every field matters, and field boundaries matter */
	const char *variants[][3] = { { "R2", "f", "m" }, { "R", "g", "m" }, { "R", "f", "n" },
				      { "Rf", "", "m" }, { "R", "", "fm" } };
	for (size_t i = 0; i < 5; i++) {
		report_fingerprint(variants[i][0], variants[i][1], variants[i][2], 0, b);
		assert_string_not_equal(a, b);
	}
	report_fingerprint("R", "f", "m", 1, b);
	assert_string_not_equal(a, b);
}

static void test_relpath(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/tlperf-report-XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	char sub[PATH_MAX], link[PATH_MAX], f[PATH_MAX];
	snprintf(sub, sizeof(sub), "%s/repo", tmpl);
	assert_int_equal(mkdir(sub, 0700), 0);
	snprintf(link, sizeof(link), "%s/link", tmpl);
	assert_int_equal(symlink(sub, link), 0);

	struct { const char *root, *file, *want; } cases[] = {
		{ sub, "%s/repo/a/perf_opt/x.md", "a/perf_opt/x.md" },
		{ sub, "%s/repo/./a/../b.md", "b.md" },
		{ sub, "%s/repo", "." },
		{ link, "%s/repo/a.md", "a.md" },   /* root given through a symlink */
		{ sub, "%s/link/a.md", "a.md" },    /* file given through it */
		{ sub, "%s/repox/a.md", NULL },     /* a sibling with the same prefix */
		{ "/", "%s/repo/a.md", NULL },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(f, sizeof(f), cases[i].file, tmpl);
		char *r = report_relpath(cases[i].root, f);
		assert_non_null(r);
		if (cases[i].want)
			assert_string_equal(r, cases[i].want);
		else if (strcmp(cases[i].root, "/") == 0)
			assert_string_equal(r, f + 1);
		else
			assert_string_equal(r, f);
		free(r);
	}
	char *r = report_relpath(NULL, "x/y");
	assert_string_equal(r, "x/y");
	free(r);
	r = report_relpath(sub, "/elsewhere/y");
	assert_string_equal(r, "/elsewhere/y");
	free(r);
	unlink(link);
	rmdir(sub);
	rmdir(tmpl);
}

static void test_write_error(void **state)
{
	(void)state;
	FILE *f = fopen("/dev/full", "w");
	if (!f)
		skip();
	setvbuf(f, NULL, _IONBF, 0);
	struct gate_findings fs;
	sample(&fs, "/r");
	struct report_ctx c = ctx_for("/r");
	for (const struct report_format *fmt = report_formats; fmt->name; fmt++) {
		clearerr(f);
		assert_int_equal(report_write(f, fmt, &fs, &c), -1);
	}
	fclose(f);
	gate_findings_release(&fs);
}

/* Random bytes (NUL excepted) in rules, paths and messages: every format
 * stays parseable, one record per finding. Seeded, so reproducible. */
static void test_random_bytes(void **state)
{
	(void)state;
	struct stats_rng rng;
	stats_rng_seed(&rng, 20261129);
	for (int round = 0; round < 20; round++) {
		struct gate_findings fs;
		gate_findings_init(&fs);
		size_t n = 1 + stats_rng_next(&rng) % 30;
		for (size_t i = 0; i < n; i++) {
			char parts[3][40];
			for (int k = 0; k < 3; k++) {
				size_t len = stats_rng_next(&rng) % 39;
				for (size_t j = 0; j < len; j++)
					parts[k][j] = (char)(1 + stats_rng_next(&rng) % 255);
				parts[k][len] = '\0';
			}
			char path[64];
			snprintf(path, sizeof(path), "/r/%s", parts[1]);
			gate_add(&fs, parts[0], (enum gate_severity)(1 + stats_rng_next(&rng) % 3), path,
				 (long)(stats_rng_next(&rng) % 5), "%s", parts[2]);
			if (i % 3 == 1) /* a suppression whose place and reason are hostile too */
				assert_int_equal(gate_finding_suppress(&fs.v[fs.n - 1], path, (long)i, parts[0]), 0);
		}
		struct report_ctx c = ctx_for("/r");
		char *out = render(FMT("junit"), &fs, &c);
		check_xml(out, NULL, NULL);
		free(out);
		const struct report_format *js[] = { FMT("json"), FMT("sarif"), FMT("gitlab") };
		for (size_t k = 0; k < 3; k++) {
			out = render(js[k], &fs, &c);
			cJSON *doc = cJSON_Parse(out);
			assert_non_null(doc);
			cJSON *arr = js[k] == FMT("json") ? cJSON_GetObjectItem(doc, "findings")
				     : js[k] == FMT("sarif") ? item_at(doc, "runs.0.results")
							     : doc;
			assert_int_equal(cJSON_GetArraySize(arr), (int)n);
			cJSON_Delete(doc);
			free(out);
		}
		out = render(FMT("github"), &fs, &c);
		size_t lines = 0;
		for (const char *q = out; *q; q++) {
			assert_true(*q != '\r');
			lines += *q == '\n';
		}
		assert_int_equal(lines, n);
		free(out);
		out = render(FMT("markdown"), &fs, &c);
		size_t rows = 0;
		for (const char *q = out; *q;) {
			const char *e = strchr(q, '\n');
			size_t len = e ? (size_t)(e - q) : strlen(q);
			if (len && q[0] == '|') {
				assert_int_equal(cell_bars(q, len), 5);
				rows++;
			}
			q += len + (e != NULL);
		}
		assert_int_equal(rows, n + 2);
		free(out);
		gate_findings_release(&fs);
	}
}

/* A suppressed finding: shown by every format with where and why, counted
 * apart, failing nothing. */
static void test_suppressed(void **state)
{
	(void)state;
	struct gate_findings fs;
	sample(&fs, "/r");
	assert_int_equal(gate_finding_suppress(&fs.v[0], "/r/op_a/perf_opt/opt_log.md", 12, NASTY), 0);
	assert_int_equal(gate_count(&fs, GATE_ERROR), 0);
	assert_int_equal(gate_count_suppressed(&fs), 1);
	struct report_ctx c = ctx_for("/r");
	c.summary = 1;

	char *out = render(FMT("text"), &fs, &c);
	assert_non_null(strstr(out, "op_a/perf_opt/opt_log.md:42: suppressed error: [S4-PERF-RECORDS-RECON]"));
	assert_non_null(strstr(out, " -- suppressed by op_a/perf_opt/opt_log.md:12 (bad \\xff"));
	assert_null(strstr(out, "\x1b"));
	assert_non_null(strstr(out, "0 errors, 1 warning, 1 suppressed inline"));
	free(out);

	out = render(FMT("json"), &fs, &c);
	cJSON *doc = cJSON_Parse(out);
	assert_non_null(doc);
	assert_int_equal(cJSON_GetNumberValue(item_at(doc, "counts.error")), 0);
	assert_int_equal(cJSON_GetNumberValue(item_at(doc, "counts.suppressed")), 1);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(doc, "passed")));
	assert_string_equal(cJSON_GetStringValue(item_at(doc, "findings.0.suppression.kind")), "inSource");
	assert_string_equal(cJSON_GetStringValue(item_at(doc, "findings.0.suppression.file")),
			    "op_a/perf_opt/opt_log.md");
	assert_int_equal(cJSON_GetNumberValue(item_at(doc, "findings.0.suppression.line")), 12);
	assert_non_null(strstr(cJSON_GetStringValue(item_at(doc, "findings.0.suppression.justification")), "<tag>"));
	assert_null(item_at(doc, "findings.1.suppression"));
	cJSON_Delete(doc);
	free(out);

	out = render(FMT("sarif"), &fs, &c);
	doc = cJSON_Parse(out);
	assert_non_null(doc);
	assert_string_equal(cJSON_GetStringValue(item_at(doc, "runs.0.results.0.suppressions.0.kind")), "inSource");
	assert_non_null(strstr(cJSON_GetStringValue(item_at(doc, "runs.0.results.0.suppressions.0.justification")),
			       "<tag>"));
	assert_string_equal(cJSON_GetStringValue(item_at(doc,
		"runs.0.results.0.suppressions.0.location.physicalLocation.artifactLocation.uri")),
			    "op_a/perf_opt/opt_log.md");
	assert_int_equal(cJSON_GetNumberValue(item_at(doc,
		"runs.0.results.0.suppressions.0.location.physicalLocation.region.startLine")), 12);
	assert_string_equal(cJSON_GetStringValue(item_at(doc, "runs.0.results.0.level")), "error");
	assert_null(item_at(doc, "runs.0.results.1.suppressions"));
	cJSON_Delete(doc);
	free(out);

	out = render(FMT("github"), &fs, &c);
	assert_non_null(strstr(out, "::notice file=op_a/perf_opt/opt_log.md,line=42,title=S4-PERF-RECORDS-RECON (suppressed)::"));
	assert_null(strstr(out, "::error"));
	assert_non_null(strstr(out, "[error, suppressed by op_a/perf_opt/opt_log.md:12 ("));
	free(out);

	out = render(FMT("markdown"), &fs, &c);
	assert_non_null(strstr(out, ": passed"));
	assert_non_null(strstr(out, "1 finding suppressed inline"));
	assert_non_null(strstr(out, "| suppressed error | S4-PERF-RECORDS-RECON |"));
	free(out);

	out = render(FMT("junit"), &fs, &c);
	struct junit_count jc;
	memset(&jc, 0, sizeof(jc));
	check_xml(out, junit_start, &jc);
	assert_int_equal(jc.failures, 0);
	assert_non_null(strstr(out, "opt_log.md:42: suppressed error: "));
	free(out);

	out = render(FMT("gitlab"), &fs, &c);
	doc = cJSON_Parse(out);
	assert_non_null(doc);
	assert_string_equal(cJSON_GetStringValue(item_at(doc, "0.severity")), "info");
	assert_non_null(strstr(cJSON_GetStringValue(item_at(doc, "0.description")), "(error, suppressed by op_a/perf_opt/opt_log.md:12 ("));
	assert_string_equal(cJSON_GetStringValue(item_at(doc, "1.severity")), "minor");
	cJSON_Delete(doc);
	free(out);
	gate_findings_release(&fs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_names), cmocka_unit_test(test_text),
		cmocka_unit_test(test_json),	     cmocka_unit_test(test_sarif),
		cmocka_unit_test(test_github),	     cmocka_unit_test(test_xml_checker_rejects),
		cmocka_unit_test(test_junit),	     cmocka_unit_test(test_markdown),
		cmocka_unit_test(test_gitlab),	     cmocka_unit_test(test_fingerprint),
		cmocka_unit_test(test_relpath),	     cmocka_unit_test(test_write_error),
		cmocka_unit_test(test_random_bytes), cmocka_unit_test(test_suppressed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
