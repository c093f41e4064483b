/* test_suggest.c: "did you mean" (util/suggest.h). */
#include "testlib.h"

#include "util/suggest.h"

static void test_distance(void **state)
{
	(void)state;
	assert_int_equal(suggest_distance("kitten", "sitting", 5), 3);
	assert_int_equal(suggest_distance("gate", "gate", 2), 0);
	assert_int_equal(suggest_distance("gat", "gate", 2), 1);     /* insertion */
	assert_int_equal(suggest_distance("gatee", "gate", 2), 1);   /* deletion */
	assert_int_equal(suggest_distance("gaze", "gate", 2), 1);    /* substitution */
	assert_int_equal(suggest_distance("gtae", "gate", 2), 1);    /* adjacent swap */
	assert_int_equal(suggest_distance("JSON", "json", 2), 0);    /* ASCII case ignored */
	assert_int_equal(suggest_distance("", "abc", 5), 3);
	/* above the cap: cap + 1 */
	assert_int_equal(suggest_distance("abcdef", "uvwxyz", 2), 3);
	char longw[100];
	memset(longw, 'a', sizeof(longw) - 1);
	longw[sizeof(longw) - 1] = '\0';
	assert_int_equal(suggest_distance(longw, "a", 2), 3);
}

static const char *best_of(const char *word, const char *const *cands)
{
	static struct suggest s;
	suggest_init(&s, word);
	for (size_t i = 0; cands[i]; i++)
		suggest_offer(&s, cands[i]);
	return suggest_best(&s);
}

static void test_best(void **state)
{
	(void)state;
	static const char *const cmds[] = { "ab", "audit", "explain", "gate", "loop", "msprof",
					    "plateau", "sim", "speedup", "table", "winner", NULL };
	assert_string_equal(best_of("gat", cmds), "gate");
	assert_string_equal(best_of("plateu", cmds), "plateau");
	assert_string_equal(best_of("expl", cmds), "explain");   /* a prefix of 3+ */
	assert_string_equal(best_of("winnr", cmds), "winner");
	assert_null(best_of("xyzzy", cmds));
	assert_null(best_of("gate", cmds));                       /* never the word itself */
	assert_null(best_of("ex", cmds));                         /* too short for a prefix */
	static const char *const opts[] = { "warm-up", "launch-count", "workdir", NULL };
	assert_string_equal(best_of("warmup", opts), "warm-up");
	assert_string_equal(best_of("launchcount", opts), "launch-count");
	assert_null(best_of("frobnicate", opts));
	/* a short word allows one edit, a longer one two */
	static const char *const fmts[] = { "text", "json", "sarif", "github", "junit", NULL };
	assert_string_equal(best_of("jsonn", fmts), "json");
	assert_null(best_of("jsn2", fmts));                       /* 2 edits from json, length 4 */
	assert_string_equal(best_of("gihtub", fmts), "github");
	/* equally close: the first offered */
	static const char *const tie[] = { "bat", "cat", NULL };
	assert_string_equal(best_of("at", tie), "bat");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_distance),
		cmocka_unit_test(test_best),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
